//! What reaches the terminal: one line on stderr per message (redacted, escaped), standard
//! output that a closed reader does not turn into an error, and the reports written whole.

use anyhow::Context;

use review_tui::cli::{Cli, ReportFormat};
use review_tui::report::headless;
use review_tui::report::sarif::to_sarif;
use review_tui::reviewers::redact::outbound;

/// An error and its causes on one line, each said once (see [`review_tui::error_text`]).
pub(crate) fn describe(err: &anyhow::Error) -> String {
    review_tui::error_text::chain(err.as_ref())
}

/// One message on stderr, on one line, its untrusted parts (file names, PR text, a server's
/// answer) escaped: a terminal must not obey what a PR author wrote. Redacted first: an error
/// can quote a server's answer or a file, and stderr ends up in CI logs.
pub(crate) fn say(message: impl std::fmt::Display) {
    use std::io::Write;
    let line = review_tui::printable::line(&outbound(&message.to_string())).into_owned();
    // A closed or full stderr has nowhere to report to; it must not panic the run.
    let _ = writeln!(std::io::stderr(), "review-tui: {line}");
}

/// Writes to standard output. A reader that went away (`| head -1`) is no error: the rest was
/// not wanted. Any other failure (a full disk) is one, exit 4.
pub(crate) fn write_stdout(text: &str) -> anyhow::Result<()> {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
            Err(anyhow::Error::new(e).context("could not write to standard output"))
        }
        _ => Ok(()),
    }
}

pub(crate) fn write_report(cli: &Cli, report: &str) -> anyhow::Result<()> {
    match &cli.output {
        Some(path) => {
            // Written whole or not at all: a reader never sees half a report.
            review_tui::space::write_output(path, report.as_bytes())
                .with_context(|| format!("could not write the report to {}", path.display()))
        }
        None => write_stdout(report),
    }
}

/// A JSON report with every string redacted where it stands (the document stays valid).
pub(crate) fn redacted_json(mut value: serde_json::Value) -> serde_json::Value {
    review_tui::reviewers::redact::outbound_json(&mut value);
    value
}

/// A SARIF 2.1.0 document of `nodes`.
pub(crate) fn sarif(nodes: &[review_tui::review::ReviewNode]) -> String {
    let log = redacted_json(to_sarif(nodes, env!("CARGO_PKG_VERSION")));
    serde_json::to_string_pretty(&log).unwrap_or_default() + "\n"
}

/// The posted body without its hidden markers: they only mean something on the PR.
pub(crate) fn strip_markers(body: &str) -> String {
    body.lines()
        .filter(|line| !line.starts_with("<!-- review-tui:"))
        .collect::<Vec<_>>()
        .join("\n")
        + "\n"
}

/// The report of a space that was prepared but not reviewed (empty, or not eligible), in the
/// format asked for, so whatever reads it still parses it: SARIF with no results, and no
/// Markdown at all (there is no review to summarise; the caller says why on stderr).
pub(crate) fn prepare_report(
    cli: &Cli,
    prepared: &review_tui::session::prepare::Prepared,
) -> String {
    match cli.format {
        ReportFormat::Json => {
            serde_json::to_string_pretty(&headless::json(prepared, cli.force)).unwrap_or_default()
                + "\n"
        }
        ReportFormat::Sarif => sarif(&[]),
        ReportFormat::Text => headless::text(prepared, cli.force),
        // No round, no findings: nothing to hand back (the caller says why on stderr).
        ReportFormat::Markdown | ReportFormat::Prompt => String::new(),
    }
}

/// A yes/no question on the terminal, before the cockpit takes it over.
pub(crate) fn ask(question: &str) -> anyhow::Result<bool> {
    use std::io::Write;
    eprint!("{question} [y/N] ");
    std::io::stderr().flush()?;
    let mut answer = String::new();
    std::io::stdin().read_line(&mut answer)?;
    Ok(matches!(answer.trim(), "y" | "Y" | "yes"))
}

/// One line per distinct failure of a required reviewer (the same provider error for three
/// roles is said once), so a run that cannot Ship says why on stderr, not only in the report.
pub(crate) fn failed_reviewers(result: &review_tui::session::RoundSnapshot) -> Vec<String> {
    use review_tui::review::verdict::Outcome;
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
