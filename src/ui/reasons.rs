//! The reasons of a Hold, Block or Inconclusive that no finding carries (a gated axis not
//! cleared, a required reviewer without a valid answer), as rows at the top of the findings
//! list: a Block the list cannot show would otherwise be readable only in the gate's details.
//! Derived from what the state already holds (the axes, the reviewers' runs, the verdict);
//! the verdict never reads them.

use crate::review::AxisVerdict;
use crate::review::Decision;
use crate::review::Outcome;
use crate::ui::state::AppState;

/// One reason the verdict is not Ship that is not a finding.
#[derive(Debug, Clone, PartialEq)]
pub struct Reason {
    /// `axis:<name>` or `reviewer:<role>`: what the row's key names.
    pub key: String,
    /// What this reason alone asks of the verdict.
    pub decision: Decision,
    /// The axis or the reviewer.
    pub subject: String,
    /// In a few words: "3 breaks", "unavailable", "failed".
    pub summary: String,
    /// The whole why (the axis's detail, the reviewer's note).
    pub detail: String,
    /// For an axis, each item of its detail naming one of the change's files.
    pub breaks: Vec<Break>,
}

/// One item of an axis's detail, found at one of the change's files.
#[derive(Debug, Clone, PartialEq)]
pub struct Break {
    /// One of the change's files (never a path only the detail names).
    pub path: String,
    /// The line in the diff where the item's name appears, when it does: the head's, or the
    /// base's when `old` (a removed line).
    pub line: Option<u32>,
    pub old: bool,
    /// The item as the detail says it.
    pub text: String,
}

impl Break {
    pub fn location(&self) -> String {
        match self.line {
            Some(line) if self.old => format!("{}:{line} (base)", self.path),
            Some(line) => format!("{}:{line}", self.path),
            None => self.path.clone(),
        }
    }
}

/// The reasons, the strictest first; none before a verdict, none while the round runs (the
/// header says RUNNING: a reviewer still queued counts as failed for the verdict's safety, but
/// a row saying it failed would be false), none at Ship.
pub fn reasons(state: &AppState) -> Vec<Reason> {
    let Some(verdict) = &state.verdict else {
        return Vec::new();
    };
    if state.review_running() {
        return Vec::new();
    }
    if verdict.decision == Decision::Ship {
        return Vec::new();
    }
    let files: Vec<&str> = state
        .diff
        .iter()
        .flat_map(|d| d.files.iter().map(|f| f.path.as_str()))
        .collect();
    let mut out = Vec::new();
    for axis in state
        .axes
        .iter()
        .filter(|a| a.gated && !a.verdict.clears_gate())
    {
        let breaks = breaks(&axis.detail, &files, state);
        let more = more_than_listed(&axis.detail);
        let summary = match (axis.verdict, breaks.len() + more) {
            (AxisVerdict::Fail, 0) => "failed".to_string(),
            (AxisVerdict::Fail, n) => crate::ui::text::plural(n, "break"),
            (verdict, _) => verdict.to_string(),
        };
        // The person's override, when one is bound to this very result; one made on another
        // result no longer applies, and the row says so.
        use crate::review::axis_override::{applies, stale};
        let summary = if let Some(o) = applies(axis, &state.axis_overrides) {
            format!("{summary} · overridden by {}: {}", o.by, o.reason)
        } else if !stale(std::slice::from_ref(axis), &state.axis_overrides).is_empty() {
            format!("{summary} · override no longer applies (the result changed)")
        } else {
            summary
        };
        out.push(Reason {
            key: format!("axis:{}", axis.name),
            decision: if axis.verdict == AxisVerdict::Fail {
                Decision::Block
            } else {
                Decision::Hold
            },
            subject: axis.name.clone(),
            summary,
            detail: axis.detail.clone(),
            breaks,
        });
    }
    // A required reviewer without a valid answer makes the run Inconclusive: a row when that is
    // what decides (under a Block or Hold the findings' rows are what to act on first; once they
    // are triaged, the verdict is Inconclusive and the row appears).
    if verdict.decision == Decision::Inconclusive {
        let mut runs = state.board.reviewer_runs();
        runs.sort_by(|a, b| a.role.cmp(&b.role));
        for run in runs.into_iter().filter(|r| r.required) {
            let what = match run.outcome {
                Outcome::Ok => continue,
                Outcome::Skipped if state.deterministic_only => continue,
                Outcome::Failed => "failed",
                Outcome::InvalidOutput => "output did not validate",
                Outcome::Skipped => "did not run",
            };
            out.push(Reason {
                key: format!("reviewer:{}", run.role),
                decision: Decision::Inconclusive,
                subject: format!("required reviewer {}", run.role),
                summary: what.to_string(),
                detail: run.reason.unwrap_or_default(),
                breaks: Vec::new(),
            });
        }
    }
    out.sort_by_key(|r| std::cmp::Reverse(r.decision));
    out
}

/// The reason a row key names.
pub fn reason(state: &AppState, key: &str) -> Option<Reason> {
    reasons(state).into_iter().find(|r| r.key == key)
}

/// The items of `detail` that start with one of the change's `files` (`path: \`key\` …`, the
/// form the axes list a break in), in the order the detail gives them. The detail is text
/// built from the change: a path it names that is not one of the change's files is never
/// taken for one.
fn breaks(detail: &str, files: &[&str], state: &AppState) -> Vec<Break> {
    // Each `: \`` ends a candidate path; the changed file it names starts the detail or
    // follows a space (`b.rs` is not inside `ab.rs`), the longest such wins. Looked up in a
    // set: the list is redrawn often and a change can hold thousands of files.
    let known: std::collections::HashSet<&str> = if detail.contains(": `") {
        files.iter().copied().collect()
    } else {
        return Vec::new();
    };
    let mut starts: Vec<(usize, &str)> = Vec::new();
    for (end, _) in detail.match_indices(": `") {
        let head = &detail[..end];
        let found = std::iter::once(0)
            .chain(head.match_indices(' ').map(|(i, _)| i + 1))
            .find_map(|start| known.get(&head[start..]).map(|path| (start, *path)));
        if let Some(found) = found {
            starts.push(found);
        }
    }
    starts.sort();
    starts.dedup_by_key(|(at, _)| *at);
    let mut out = Vec::new();
    for (i, (at, path)) in starts.iter().enumerate() {
        // An item ends at the list's separator: what follows is another item, perhaps one at
        // no changed file.
        let next = starts.get(i + 1).map_or(detail.len(), |(next, _)| *next);
        let end = detail[*at..next].find("; ").map_or(next, |e| at + e);
        let text = detail[*at..end]
            .trim_end()
            .trim_end_matches(';')
            .trim_end_matches('.');
        let text = text.split(". ").next().unwrap_or(text).trim_end();
        let key = text[path.len() + 3..].split('`').next().unwrap_or("");
        let (line, old) = line_of(state, path, key).map_or((None, false), |(l, o)| (Some(l), o));
        out.push(Break {
            path: path.to_string(),
            line,
            old,
            text: text.to_string(),
        });
    }
    out
}

/// "…; and 4 more": the items the detail counted without listing them.
fn more_than_listed(detail: &str) -> usize {
    let Some(at) = detail.rfind("; and ") else {
        return 0;
    };
    let rest = &detail[at + "; and ".len()..];
    let Some((n, tail)) = rest.split_once(' ') else {
        return 0;
    };
    if !tail.starts_with("more") {
        return 0;
    }
    n.parse().unwrap_or(0)
}

/// Where in the diff of `path` the item `key` (`Type::method`, `func`) is named: the first
/// added line naming it, else the first removed one (by its old number: `true`), else none.
fn line_of(state: &AppState, path: &str, key: &str) -> Option<(u32, bool)> {
    let name = key
        .rsplit(['.', ':', ' '])
        .find(|part| !part.is_empty())?
        .trim_matches(|c: char| !(c.is_alphanumeric() || c == '_'));
    if name.is_empty() {
        return None;
    }
    let file = state.diff.as_ref()?.files.iter().find(|f| f.path == path)?;
    let lines = || file.hunks.iter().flat_map(|h| &h.lines);
    let names = |text: &str| {
        text.match_indices(name).any(|(at, _)| {
            let ident = |c: char| c.is_alphanumeric() || c == '_';
            !text[..at].chars().next_back().is_some_and(ident)
                && !text[at + name.len()..].chars().next().is_some_and(ident)
        })
    };
    use crate::diff::LineKind;
    lines()
        .find(|l| l.kind == LineKind::Added && names(&l.text))
        .and_then(|l| l.new_line)
        .map(|l| (l, false))
        .or_else(|| {
            lines()
                .find(|l| l.kind == LineKind::Removed && names(&l.text))
                .and_then(|l| l.old_line)
                .map(|l| (l, true))
        })
}
