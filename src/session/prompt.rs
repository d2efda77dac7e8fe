//! The findings handed back to the coding agent that wrote the change: one prompt holding every
//! counted finding the person kept (open or confirmed, in scope, not a duplicate, not dismissed
//! or resolved: what the verdict reads), most important first, each with where it is, the code
//! it is about, the evidence, the person's own comment when they edited it, and the exact
//! replacement lines when a reviewer gave them. `--format prompt` prints it; the cockpit's gate
//! copies it, writes it beside the space's reports and can pipe it to the fix command.
//!
//! Like every text that leaves review-tui it passes the one redaction point: the code lines
//! and the evidence quote the change, which may hold a secret.

use std::path::Path;

use crate::diff::{Diff, Side};
use crate::fence::fence_for;
use crate::review::node::{ReviewNode, Status};
use crate::session::snapshot::RoundSnapshot;

/// The file the gate writes the prompt to, in the review space.
pub const PROMPT_FILE: &str = "prompt.md";

/// At most this many lines of code are quoted per finding; the rest is counted.
const MAX_CODE_LINES: usize = 40;

/// What the prompt is about: the change's name (`main..feature (worktree)`, `#12`) and where
/// the reviewed files are.
pub struct PromptInput<'a> {
    pub change: &'a str,
    pub snapshot: &'a RoundSnapshot,
    pub diff: &'a Diff,
    /// The checkout of the reviewed head, read for the code a finding points at.
    pub worktree: &'a Path,
}

/// The findings the prompt hands back, most important first (priority, then where they are).
pub fn kept(snapshot: &RoundSnapshot) -> Vec<&ReviewNode> {
    let mut kept: Vec<&ReviewNode> = (snapshot.board.nodes.iter())
        .filter(|n| {
            matches!(n.status, Status::Open | Status::ConsensusReady)
                && n.in_scope()
                && n.duplicate_of.is_none()
        })
        .collect();
    kept.sort_by(|a, b| {
        let place = |n: &ReviewNode| {
            n.anchor
                .as_ref()
                .map(|a| (a.path.clone(), a.start_line))
                .unwrap_or_default()
        };
        (a.priority, place(a), &a.id).cmp(&(b.priority, place(b), &b.id))
    });
    kept
}

/// The prompt, redacted.
pub fn prompt(input: &PromptInput<'_>) -> String {
    let kept = kept(input.snapshot);
    let mut out = String::new();
    out.push_str(&format!(
        "# Review of {}: {} finding(s) to fix\n\n",
        input.change,
        kept.len()
    ));
    if kept.is_empty() {
        out.push_str(
            "A person reviewed this change with review-tui and kept no finding to fix: there \
             is nothing to do.\n",
        );
        return crate::reviewers::redact::outbound(&out);
    }
    out.push_str(
        "A person reviewed this change with review-tui and kept the findings below. Fix each \
         one in the working tree, most important first; where a finding gives replacement \
         lines, use them unless the surrounding code has moved. Do not change anything else, \
         and say which findings you could not fix and why.\n",
    );
    for (number, node) in kept.iter().enumerate() {
        finding(&mut out, number + 1, node, input);
    }
    crate::reviewers::redact::outbound(&out)
}

fn finding(out: &mut String, number: usize, node: &ReviewNode, input: &PromptInput<'_>) {
    let confirmed = if node.status == Status::ConsensusReady {
        " (confirmed)"
    } else {
        ""
    };
    out.push_str(&format!(
        "\n## {number}. [{}] {} — {}{confirmed}\n\n",
        node.priority.as_str(),
        one_line(&node.text.title),
        node.location(),
    ));
    let edited = input.snapshot.comment(&node.id);
    match edited {
        Some(comment) => {
            out.push_str("The reviewer's comment, as the person wrote it:\n\n");
            out.push_str(&quoted(comment));
        }
        None if !node.text.body.trim().is_empty() => {
            out.push_str(&quoted(&node.text.body));
        }
        None => {}
    }
    if let Some(anchor) = &node.anchor {
        let lines = code_lines(input, anchor);
        if !lines.is_empty() {
            let side = match anchor.side {
                Side::Right => "",
                Side::Left => " (removed by the change)",
            };
            out.push_str(&format!("\nThe code{side}:\n\n"));
            out.push_str(&fenced(&lines));
        }
    }
    let evidence = evidence(node, input.snapshot);
    if !evidence.is_empty() {
        out.push_str("\nEvidence:\n\n");
        for (reviewer, text) in evidence {
            out.push_str(&format!("- {reviewer}: {}\n", indent(text.trim())));
        }
    }
    let fix = node.fix.as_ref();
    if let (Some(lines), Some(anchor)) = (fix.and_then(|f| f.replacement.as_ref()), &node.anchor)
        && anchor.side == Side::Right
    {
        out.push_str(&format!(
            "\nReplace lines {}-{} of {} with:\n\n",
            anchor.start_line, anchor.end_line, anchor.path
        ));
        out.push_str(&fenced(lines));
    } else if let Some(prompt) = fix.and_then(|f| f.prompt.as_deref())
        && !prompt.trim().is_empty()
    {
        out.push_str("\nHow to fix it:\n\n");
        out.push_str(&quoted(prompt));
    }
}

/// The evidence of the problem's every report (a duplicate's too), each said once.
fn evidence<'a>(node: &'a ReviewNode, snapshot: &'a RoundSnapshot) -> Vec<(&'a str, &'a str)> {
    let mut evidence: Vec<(&str, &str)> = match snapshot
        .problems
        .iter()
        .find(|problem| problem.primary == node.id)
    {
        Some(problem) => (problem.evidence.iter())
            .map(|(reviewer, text)| (reviewer.as_str(), text.as_str()))
            .collect(),
        None => vec![(node.origin.reviewer.as_str(), node.text.evidence.as_str())],
    };
    evidence.retain(|(_, text)| !text.trim().is_empty());
    let mut seen = std::collections::BTreeSet::new();
    evidence.retain(|(_, text)| seen.insert(text.trim()));
    evidence
}

/// The lines `anchor` names: from the reviewed checkout for the head's side, else from the
/// diff (a removed line exists only there). At most [`MAX_CODE_LINES`].
fn code_lines(input: &PromptInput<'_>, anchor: &crate::review::node::Anchor) -> Vec<String> {
    let (start, end) = (
        anchor.start_line.max(1),
        anchor.end_line.max(anchor.start_line),
    );
    let wanted = (end - start + 1) as usize;
    let shown = wanted.min(MAX_CODE_LINES);
    let mut lines = Vec::new();
    // A path from a finding: read inside the checkout only.
    let inside = !anchor.path.starts_with('/')
        && !anchor
            .path
            .split('/')
            .any(|part| part == ".." || part.is_empty());
    if anchor.side == Side::Right
        && inside
        && let Ok(text) = std::fs::read_to_string(input.worktree.join(&anchor.path))
    {
        lines = (text.lines().enumerate())
            .skip(start as usize - 1)
            .take(shown)
            .map(|(i, line)| format!("{:>5} | {line}", i + 1))
            .collect();
    }
    if lines.is_empty()
        && let Some(file) = input.diff.files.iter().find(|f| f.path == anchor.path)
    {
        for line in file.hunks.iter().flat_map(|h| &h.lines) {
            let number = match anchor.side {
                Side::Right => line.new_line,
                Side::Left => line.old_line,
            };
            if let Some(number) = number.filter(|n| (start..=end).contains(n))
                && lines.len() < shown
            {
                lines.push(format!("{number:>5} | {}", line.text));
            }
        }
    }
    if !lines.is_empty() && wanted > shown {
        lines.push(format!("      … {} more line(s)", wanted - shown));
    }
    lines
}

fn fenced(lines: &[String]) -> String {
    let fence = fence_for(lines);
    format!("{fence}\n{}\n{fence}\n", lines.join("\n"))
}

/// Prose as a Markdown quote, every line of it.
fn quoted(text: &str) -> String {
    let mut out = String::new();
    for line in text.trim().lines() {
        out.push_str(if line.trim().is_empty() { ">" } else { "> " });
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

fn indent(text: &str) -> String {
    text.replace('\n', "\n  ")
}

fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}
