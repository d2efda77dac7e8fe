//! What reaches the terminal: one line on stderr per message (redacted, escaped), standard
//! output that a closed reader does not turn into an error, and the reports written whole.

use anyhow::Context;

use review_tui::cli::Cli;
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

/// A yes/no question on the terminal, before the cockpit takes it over.
pub(crate) fn ask(question: &str) -> anyhow::Result<bool> {
    use std::io::Write;
    eprint!("{question} [y/N] ");
    std::io::stderr().flush()?;
    let mut answer = String::new();
    std::io::stdin().read_line(&mut answer)?;
    Ok(matches!(answer.trim(), "y" | "Y" | "yes"))
}
