//! The command line. Usage errors exit 4 (error), never clap's default 2, which means
//! "aborted by the user" here.

use clap::{Parser, Subcommand, ValueEnum};

#[derive(Debug, Parser)]
#[command(
    name = "review-tui",
    version,
    about = "A terminal cockpit for reviewing pull requests: AI reviewers and deterministic checks find, a person decides what is posted.",
    args_conflicts_with_subcommands = true,
    after_help = "Exit codes: 0 Ship · 1 not eligible · 2 aborted by the user · 3 nothing to review · 4 error · 5 Hold · 6 Block · 7 Inconclusive"
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Recompute the verdict of a JSON review report (ours or an agent pipeline's) by code; the
    /// model's own verdict is kept for audit and never decides. Exit code by decision.
    Evaluate {
        /// The report file, or `-` for standard input.
        file: String,
        /// How to print the verdict.
        #[arg(long, value_enum, default_value_t = VerdictFormat::Text)]
        format: VerdictFormat,
    },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum VerdictFormat {
    Text,
    Json,
}
