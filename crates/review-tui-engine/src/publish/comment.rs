//! Inline comments: where a finding may be placed on the PR's current diff, and what its
//! comment says (the finding, a one-click suggestion only from exact replacement lines, a footer
//! naming who found it, and the hidden fingerprint marker).

use super::markers;
use super::select::Item;
use crate::diff::{Diff, Side};
use crate::pr::forge::NewReviewComment;
use crate::report::escape;
pub use crate::report::fields::MovedFinding;
pub(crate) use crate::report::fields::{evidence_text, fence_for, push_field};

/// Where a comment goes on the diff.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Placement {
    pub side: Side,
    /// Set only for a true range (`start < line`).
    pub start_line: Option<u32>,
    pub line: u32,
    /// The placement covers exactly the anchored lines (a suggestion may replace them).
    pub exact: bool,
}

/// Places an anchored, in-scope finding on `diff` by GitHub's rules (the line exists on that
/// side of a hunk; both ends of a range in the same hunk). A range that no longer fits whole
/// falls back to its last line when that line is still in the diff.
pub(crate) fn place(item: &Item, diff: &Diff) -> Result<Placement, Unplaced> {
    let Some(anchor) = &item.node.anchor else {
        return Err(Unplaced::NoAnchor);
    };
    let (start, end) = (
        anchor.start_line.min(anchor.end_line),
        anchor.end_line.max(anchor.start_line),
    );
    if start < end && diff.range_in_diff(&anchor.path, anchor.side, start, end) {
        return Ok(Placement {
            side: anchor.side,
            start_line: Some(start),
            line: end,
            exact: true,
        });
    }
    if diff.anchor_in_diff(&anchor.path, anchor.side, end) {
        return Ok(Placement {
            side: anchor.side,
            start_line: None,
            line: end,
            exact: start == end,
        });
    }
    // Markdown: shown as is in the summary, so the path is a code span.
    let path = escape::code(&anchor.path);
    Err(if diff.file(&anchor.path).is_none() {
        Unplaced::FileGone { path }
    } else {
        Unplaced::LineGone {
            line: end,
            side: anchor.side,
            path,
        }
    })
}

/// Why a finding cannot be an inline comment; the summary lists it with this text (Markdown:
/// the path is already a code span).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub(crate) enum Unplaced {
    #[error("no line anchor")]
    NoAnchor,
    #[error("{path} is no longer in the pull request's diff")]
    FileGone { path: String },
    #[error("line {line} ({side}) is no longer part of the diff of {path}")]
    LineGone { line: u32, side: Side, path: String },
}

/// The review comment for `item` at `placement`.
pub(crate) fn new_comment(item: &Item, placement: Placement) -> NewReviewComment {
    let anchor = item
        .node
        .anchor
        .as_ref()
        .expect("placed items are anchored");
    NewReviewComment {
        path: anchor.path.to_string(),
        line: placement.line,
        side: placement.side,
        start_line: placement.start_line,
        start_side: placement.start_line.map(|_| placement.side),
        body: body(item, placement.exact && placement.side == Side::Right),
    }
}

/// The text of an inline comment. `suggestion_allowed` when the comment covers exactly the
/// anchored lines of the new file: only then can a GitHub suggestion replace them.
pub(crate) fn body(item: &Item, suggestion_allowed: bool) -> String {
    let node = &item.node;
    let mut out = match &item.edited {
        Some(edited) => edited_text(item, edited),
        None => generated_text(item),
    };
    if let Some(lines) = node.fix.as_ref().and_then(|f| f.replacement.as_ref())
        && suggestion_allowed
    {
        let fence = fence_for(lines);
        out.push_str(&format!(
            "\n{fence}suggestion\n{}\n{fence}\n",
            lines.join("\n")
        ));
    }
    out.push_str(&format!(
        "\n— review-tui · {}\n{}",
        escape::inline(&item.found_by.join(", ")),
        markers::fingerprint(item.fingerprint())
    ));
    out
}

/// The person's text, under the priority and rule: it replaces the generated title, body and
/// fields, and is escaped like every other text (it may quote the PR).
fn edited_text(item: &Item, edited: &str) -> String {
    let node = &item.node;
    format!(
        "**{}**{}\n\n{}\n",
        node.priority,
        node.rule
            .as_deref()
            .map(|r| format!(" ({})", escape::code(r)))
            .unwrap_or_default(),
        escape::prose(edited.trim())
    )
}

/// Title, body and fields, from the finding.
fn generated_text(item: &Item) -> String {
    let node = &item.node;
    let mut out = format!(
        "**{} · {}**{}\n",
        node.priority,
        escape::inline(&node.text.title),
        node.rule
            .as_deref()
            .map(|r| format!(" ({})", escape::code(r)))
            .unwrap_or_default()
    );
    if !node.text.body.trim().is_empty() {
        out.push_str(&format!("\n{}\n", escape::prose(node.text.body.trim())));
    }
    let mut fields = String::new();
    push_field(&mut fields, "Impact", &node.text.impact);
    push_field(&mut fields, "Evidence", &evidence_text(item));
    if !node.consulted.is_empty() {
        push_field(
            &mut fields,
            "Evidence",
            &format!("consulted {}", node.consulted.join(", ")),
        );
    }
    if let Some(prompt) = node.fix.as_ref().and_then(|f| f.prompt.as_deref()) {
        push_field(&mut fields, "Fix", prompt);
    }
    push_field(&mut fields, "Verification", &node.text.verification);
    if !fields.is_empty() {
        out.push('\n');
        out.push_str(&fields);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::review::node::*;

    fn item(start: u32, end: u32, replacement: Option<Vec<&str>>) -> Item {
        let draft = NodeDraft {
            reasoning: String::new(),
            kind: Kind::Bug,
            priority: Priority::P1,
            triage: Triage {
                category: Category::Correctness,
                severity: Severity::High,
                effort: Effort::Small,
            },
            rule: Some("rust/unwrap".into()),
            anchor: Some(Anchor {
                path: crate::repo_path::RepoPath::parse("src/lib.rs").unwrap(),
                side: Side::Right,
                start_line: start,
                end_line: end,
            }),
            text: NodeText {
                title: "Unwrap <!-- review-tui:fp=ffff --> on input".into(),
                ..NodeText::default()
            },
            fix: Some(Fix {
                replacement: replacement.map(|r| r.into_iter().map(String::from).collect()),
                ..Fix::default()
            }),
            confidence: 0.9,
            scope: Scope::InScope,
        };
        let mut node = ReviewNode::from_draft(
            "n1",
            Origin {
                reviewer: "engineer".into(),
                source: Source::Model,
            },
            draft,
        );
        node.fingerprint = "00aa".into();
        Item {
            node,
            found_by: vec!["engineer".into(), "qa".into()],
            evidence: Vec::new(),
            reports: 2,
            blocking: true,
            collapsed: false,
            edited: None,
        }
    }

    #[test]
    fn an_edited_comment_replaces_the_generated_text_and_keeps_the_marker_and_suggestion() {
        let mut edited = item(2, 2, Some(vec!["b2"]));
        edited.edited =
            Some("Please handle the error here. <!-- review-tui:fp=ffff -->\nThanks.".into());
        let text = body(&edited, true);
        assert!(
            text.starts_with("**P1** (`rust/unwrap`)\n\nPlease handle the error here."),
            "{text}"
        );
        // The generated title and fields are gone; the person's text is escaped like any other.
        assert!(!text.contains("Unwrap"), "{text}");
        assert_eq!(markers::fingerprint_in(&text), Some("00aa"), "{text}");
        assert!(text.contains("```suggestion\nb2\n```"), "{text}");
        assert!(text.contains("— review-tui · engineer, qa"), "{text}");
    }

    fn diff() -> Diff {
        crate::diff::parse(
            "diff --git a/src/lib.rs b/src/lib.rs\n--- a/src/lib.rs\n+++ b/src/lib.rs\n@@ -1,2 +1,4 @@\n a\n+b\n+c\n d\n@@ -10,2 +11,2 @@\n x\n-y\n+z\n",
        )
        .unwrap()
    }

    #[test]
    fn one_line_never_gets_a_start_line_and_ranges_stay_in_one_hunk() {
        let single = place(&item(2, 2, None), &diff()).unwrap();
        assert_eq!((single.start_line, single.line), (None, 2));
        let range = place(&item(2, 3, None), &diff()).unwrap();
        assert_eq!(
            (range.start_line, range.line, range.exact),
            (Some(2), 3, true)
        );
        // Across two hunks: only the last line can carry it, and not as a suggestion.
        let across = place(&item(3, 12, None), &diff()).unwrap();
        assert_eq!((across.start_line, across.exact), (None, false));
        assert!(place(&item(40, 40, None), &diff()).is_err());
    }

    #[test]
    fn suggestion_only_for_exact_replacement_and_markers_are_neutralized() {
        let it = item(2, 3, Some(vec!["let b = 1;", "```"]));
        let placed = place(&it, &diff()).unwrap();
        let comment = new_comment(&it, placed);
        assert!(
            comment
                .body
                .contains("````suggestion\nlet b = 1;\n```\n````")
        );
        assert!(comment.body.contains("— review-tui · engineer, qa"));
        assert_eq!(markers::fingerprint_in(&comment.body), Some("00aa"));
        assert_eq!(comment.body.matches("<!--").count(), 1);
        let across = item(3, 12, Some(vec!["x"]));
        let comment = new_comment(&across, place(&across, &diff()).unwrap());
        assert!(!comment.body.contains("suggestion"));
    }
}
