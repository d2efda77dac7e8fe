//! The binary edge: parse the command line, run the engine, map outcomes to exit codes.

use std::io::Read;
use std::process::ExitCode;

use anyhow::Context;
use clap::Parser;

use review_tui::cli::{Cli, Command, VerdictFormat};
use review_tui::exit::Exit;
use review_tui::report::{evaluate, verdict_text};
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
            exit(Exit::Error)
        }
    }
}

fn exit(code: Exit) -> ExitCode {
    ExitCode::from(code.code() as u8)
}

fn run(cli: Cli) -> anyhow::Result<Exit> {
    match cli.command {
        Some(Command::Evaluate { file, format }) => evaluate_command(&file, format),
        None => {
            anyhow::bail!(
                "no pull request given: run `review-tui evaluate FILE` to check a report, or see `review-tui --help`"
            )
        }
    }
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
