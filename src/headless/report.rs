//! The headless run's report in the format asked for, and the lines that say why a round
//! cannot Ship. Redacted on its way out: the findings were redacted as they entered the
//! board; the report is redacted again (PR text, notes, anything a renderer adds), each JSON
//! string where it stands.

use crate::cli::{Cli, ReportFormat};
use crate::publish::Publishing;
use crate::report::to_sarif;
use crate::report::{headless, review};
use crate::reviewers::redact::outbound;
use crate::session::Prepared;
use crate::session::{RoundSnapshot, Session};

/// A JSON report with every string redacted where it stands (the document stays valid).
pub fn redacted_json(mut value: serde_json::Value) -> serde_json::Value {
    crate::reviewers::redact::outbound_json(&mut value);
    value
}

/// A SARIF 2.1.0 document of `nodes`.
pub fn sarif(nodes: &[crate::review::ReviewNode]) -> String {
    let log = redacted_json(to_sarif(nodes, env!("CARGO_PKG_VERSION")));
    serde_json::to_string_pretty(&log).unwrap_or_default() + "\n"
}

/// The posted body without its hidden markers: they only mean something on the PR.
fn strip_markers(body: &str) -> String {
    body.lines()
        .filter(|line| !line.starts_with("<!-- review-tui:"))
        .collect::<Vec<_>>()
        .join("\n")
        + "\n"
}

/// The report of a space that was prepared but not reviewed (empty, or not eligible), in the
/// format asked for, so whatever reads it still parses it: SARIF with no results, and no
/// Markdown at all (there is no review to summarise; the outcome says why).
pub(super) fn prepared_only(cli: &Cli, prepared: &Prepared) -> String {
    match cli.format {
        ReportFormat::Json => {
            serde_json::to_string_pretty(&headless::json(prepared, cli.force)).unwrap_or_default()
                + "\n"
        }
        ReportFormat::Sarif => sarif(&[]),
        ReportFormat::Text => headless::text(prepared, cli.force),
        // No round, no findings: nothing to hand back (the outcome says why).
        ReportFormat::Markdown | ReportFormat::Prompt => String::new(),
    }
}

/// The round's report. Markdown is the posted body when there is one.
pub(super) fn round(
    cli: &Cli,
    session: &Session<Publishing>,
    result: &RoundSnapshot,
    posted_body: Option<String>,
) -> Result<String, serde_json::Error> {
    let prepared = session.prepared();
    Ok(match cli.format {
        ReportFormat::Markdown => outbound(
            &posted_body
                .map(|body| strip_markers(&body))
                .unwrap_or_else(|| session.offline_body()),
        ),
        ReportFormat::Text => outbound(&review::text(prepared, result, cli.force)),
        ReportFormat::Json => {
            let json = redacted_json(review::json(prepared, result, cli.force));
            serde_json::to_string_pretty(&json)? + "\n"
        }
        ReportFormat::Sarif => sarif(&result.board.nodes),
        ReportFormat::Prompt => session.prompt(),
    })
}

/// One line per distinct failure of a required reviewer (the same provider error for three
/// roles is said once), so a run that cannot Ship says why on stderr, not only in the report.
pub(super) fn failed_reviewers(result: &RoundSnapshot) -> Vec<String> {
    use crate::review::Outcome;
    let mut failures: Vec<(Vec<&str>, String)> = Vec::new();
    for reviewer in result.board.reviewers.values() {
        let why = match reviewer.outcome {
            Some(Outcome::Failed) if reviewer.required => reviewer.note.clone(),
            Some(Outcome::InvalidOutput) if reviewer.required => {
                format!("its answer did not validate ({})", reviewer.note)
            }
            _ => continue,
        };
        match failures.iter_mut().find(|(_, w)| *w == why) {
            Some((names, _)) => names.push(&reviewer.name),
            None => failures.push((vec![&reviewer.name], why)),
        }
    }
    failures
        .into_iter()
        .map(|(names, why)| {
            let who = if names.len() == 1 {
                format!("the {} reviewer", names[0])
            } else {
                format!("the {} reviewers", names.join(", "))
            };
            format!("{who} failed, so the review is incomplete (never Ship): {why}")
        })
        .collect()
}
