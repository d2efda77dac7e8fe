//! What every report says first: the decision sentence (with the alert kind the posted
//! summary shows it under) and one line of facts. The Markdown summary, the text and JSON
//! reports and the publishers all open with these, so they live below all of them.

use super::select::is_blocking;
use crate::review::AxisVerdict;
use crate::review::node::ReviewNode;
use crate::review::verdict::{Decision, percent};
use crate::session::snapshot::RoundSnapshot;

/// The alert kind and the decision sentence: the first thing every report says. Counts are of
/// problems, not of the sources that reported them, and read the whole run (the published
/// selection never changes the decision).
pub(crate) fn headline(result: &RoundSnapshot) -> (&'static str, String) {
    let problems: Vec<&ReviewNode> = result
        .board
        .nodes
        .iter()
        .filter(|n| n.status.is_active() && n.duplicate_of.is_none())
        .collect();
    let blocking = problems.iter().filter(|n| is_blocking(n)).count();
    let observations = problems.len() - blocking;
    let problems_phrase = |n: usize| {
        if n == 1 {
            "1 problem".to_string()
        } else {
            format!("{n} problems")
        }
    };
    match result.verdict.decision {
        // Blocked by a gate (or a failed reviewer beside it), not by a blocking finding: the
        // deciding reason says why; "N problems must be fixed" would promise that fixing the
        // findings clears it.
        Decision::Block if result.verdict.counts.blocking == 0 => (
            "CAUTION",
            format!(
                "Blocked: {}",
                first_reason(result).unwrap_or("a gated check failed")
            ),
        ),
        Decision::Block => (
            "CAUTION",
            format!("Blocked: {} must be fixed", problems_phrase(blocking)),
        ),
        Decision::Hold if blocking == 0 => (
            "WARNING",
            format!(
                "Hold: {}",
                first_reason(result).unwrap_or("the gate is not clear")
            ),
        ),
        Decision::Hold => (
            "WARNING",
            format!(
                "Hold: {} to address before merge",
                problems_phrase(blocking)
            ),
        ),
        Decision::Inconclusive => (
            "IMPORTANT",
            "Inconclusive: this review does not approve the change".to_string(),
        ),
        Decision::Ship if observations == 0 => ("NOTE", "Approved".to_string()),
        Decision::Ship => (
            "NOTE",
            format!(
                "Approved with {observations} observation{}",
                if observations == 1 { "" } else { "s" }
            ),
        ),
    }
}

fn first_reason(result: &RoundSnapshot) -> Option<&str> {
    result
        .verdict
        .reasons
        .first()
        .map(|r| r.split_once(": ").map_or(r.as_str(), |(_, rest)| rest))
}

/// "BLOCK · confidence 95 · gated checks failed · 4 files reviewed": the first line of every
/// report and of the posted summary. "gated checks failed" only when a gated axis did not
/// pass: a Hold for findings is not a failed check. A round no model reviewer read claims no
/// confidence: it says so in its place ("SHIP · no model reviewer read this change · …").
pub(crate) fn facts_line(result: &RoundSnapshot) -> String {
    let verdict = &result.verdict;
    let gated = result
        .cohorts
        .as_ref()
        .map(|c| c.axes.iter().filter(|a| a.gated).collect::<Vec<_>>())
        .unwrap_or_default();
    let failed = gated
        .iter()
        .any(|a| !matches!(a.verdict, AxisVerdict::Pass | AxisVerdict::Warn));
    let checks = if failed {
        "gated checks failed"
    } else {
        "gated checks passed"
    };
    let reviewed = result.coverage.files_reviewed.len();
    let claim = if result.deterministic_only {
        NO_MODEL_READ.to_string()
    } else {
        format!("confidence {}", percent(verdict.confidence))
    };
    let mut parts = match &result.persons {
        // The code's verdict stays what it is; the person's override and what it makes of it
        // follow, the reason redacted and escaped like every posted text.
        Some(person) => vec![
            format!("{} by code", verdict.decision.label().to_uppercase()),
            overrides_text(result, person),
            format!("{} by the person", person.decision.label().to_uppercase()),
        ],
        None => vec![verdict.decision.label().to_uppercase()],
    };
    parts.extend([
        claim,
        checks.to_string(),
        format!("{reviewed} {} reviewed", plural(reviewed, "file", "files")),
    ]);
    if !result.coverage.files_skipped.is_empty() {
        parts.push(format!("{} skipped", result.coverage.files_skipped.len()));
    }
    parts.push(format!("level {}", result.level));
    parts.join(" · ")
}

/// "apiContract fail, overridden by ana: <reason>", for each override the person's decision
/// rests on.
fn overrides_text(
    result: &RoundSnapshot,
    person: &crate::review::axis_override::PersonsDecision,
) -> String {
    let safe = |text: &str| super::escape::inline(&crate::reviewers::redact::outbound(text));
    person
        .overrides
        .iter()
        .map(|o| {
            let status = result
                .axes
                .iter()
                .find(|a| a.name == o.axis)
                .map_or("", |a| a.verdict.as_str());
            format!(
                "{} {status}, overridden by {}: {}",
                safe(&o.axis),
                safe(&o.by),
                safe(&o.reason)
            )
        })
        .collect::<Vec<_>>()
        .join(" · ")
}

/// What a verdict no model reviewer checked says in place of a confidence.
pub(crate) const NO_MODEL_READ: &str = "no model reviewer read this change (--deterministic-only)";

fn plural<'a>(n: usize, one: &'a str, many: &'a str) -> &'a str {
    if n == 1 { one } else { many }
}
