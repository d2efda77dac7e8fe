//! The binary edge: parse the command line, run the engine, map outcomes to exit codes.

use std::io::Read;
use std::process::ExitCode;

use anyhow::Context;
use clap::Parser;

use review_tui::cli::{Cli, Command, ReportFormat, VerdictFormat};
use review_tui::exit::Exit;
use review_tui::pr::reference;
use review_tui::prepare::{PrepareError, PrepareOptions, prepare};
use review_tui::report::{evaluate, headless, verdict_text};
use review_tui::review::decide;

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(err) => {
            let usage_error = err.use_stderr();
            let _ = err.print();
            return exit(if usage_error { Exit::Error } else { Exit::Ship });
        }
    };
    match run(cli) {
        Ok(code) => exit(code),
        Err(err) => {
            eprintln!("review-tui: {err:#}");
            let nothing = matches!(
                err.downcast_ref::<PrepareError>(),
                Some(PrepareError::NothingToReview(_))
            );
            exit(if nothing {
                Exit::NothingToReview
            } else {
                Exit::Error
            })
        }
    }
}

fn exit(code: Exit) -> ExitCode {
    ExitCode::from(code.code() as u8)
}

fn run(cli: Cli) -> anyhow::Result<Exit> {
    match cli.command {
        Some(Command::Evaluate { file, format }) => evaluate_command(&file, format),
        None => match cli.pr.clone() {
            Some(pr) if cli.headless => headless_command(&cli, &pr),
            Some(_) => anyhow::bail!(
                "the interactive cockpit is not built yet: add --headless to print the report"
            ),
            None => anyhow::bail!(
                "no pull request given: pass a PR (see `review-tui --help`), or run `review-tui evaluate FILE` to check a report"
            ),
        },
    }
}

fn headless_command(cli: &Cli, pr: &str) -> anyhow::Result<Exit> {
    let reference = reference::parse(pr, cli.base.as_deref(), cli.head.as_deref())?;
    let options = PrepareOptions {
        data_dir: cli.data_dir.clone(),
        api_url: cli.api_url.clone(),
        ..PrepareOptions::default()
    };
    let runtime = tokio::runtime::Runtime::new().context("starting the async runtime")?;
    let prepared = runtime.block_on(prepare(reference, &options))?;
    match cli.format {
        ReportFormat::Text => print!("{}", headless::text(&prepared, cli.force)),
        ReportFormat::Json => println!(
            "{}",
            serde_json::to_string_pretty(&headless::json(&prepared, cli.force))?
        ),
    }
    if prepared.is_empty() {
        eprintln!("review-tui: nothing to review: the range has no changes");
        return Ok(Exit::NothingToReview);
    }
    if !prepared.eligibility.is_empty() && !cli.force {
        return Ok(Exit::NotEligible);
    }
    Ok(Exit::Ship)
}

fn evaluate_command(file: &str, format: VerdictFormat) -> anyhow::Result<Exit> {
    let text = if file == "-" {
        let mut text = String::new();
        std::io::stdin()
            .read_to_string(&mut text)
            .context("could not read the report from standard input")?;
        text
    } else {
        std::fs::read_to_string(file)
            .with_context(|| format!("could not read the report {file}"))?
    };
    let (_, input) = evaluate::parse_report(&text)
        .with_context(|| format!("{} is not a review report", display_name(file)))?;
    let verdict = decide(&input);
    match format {
        VerdictFormat::Text => print!("{}", verdict_text::text(&verdict)),
        VerdictFormat::Json => println!(
            "{}",
            serde_json::to_string_pretty(&verdict_text::json(&verdict))?
        ),
    }
    Ok(verdict.decision.exit())
}

fn display_name(file: &str) -> &str {
    if file == "-" { "standard input" } else { file }
}
