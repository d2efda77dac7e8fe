//! The binary edge: parse the command line, resolve it once (`cli::resolve`), run the command
//! it names (`run/`: the headless flow, the cockpit, the inbox, the subcommands), map outcomes
//! to exit codes.

mod exit;
mod run;

use exit::Exit;

use std::process::ExitCode;

use anyhow::Context;

use review_tui::cli::resolve::{DataDirFrom, Resolved};
use review_tui::cli::{Cli, Command};
use review_tui::session::PrepareError;

use review_tui::headless::{Aborted, Signals};
use run::output::{describe, say};

fn main() -> ExitCode {
    let (cli, matches) = match parse_args() {
        Ok(parsed) => parsed,
        Err(err) => {
            let usage_error = err.use_stderr();
            let _ = err.print();
            return exit(if usage_error { Exit::Error } else { Exit::Ship });
        }
    };
    match run(cli, &matches) {
        Ok(code) => exit(code),
        Err(err) => {
            if let Some(signal) = cause::<Aborted>(&err) {
                say(signal);
                return exit(Exit::Aborted);
            }
            say(describe(&err));
            use review_tui::pr::LocalError;
            let nothing = match cause::<PrepareError>(&err) {
                Some(PrepareError::NothingToReview(_)) => true,
                Some(PrepareError::Forge(forge)) => matches!(
                    forge.downcast_ref::<LocalError>(),
                    Some(LocalError::OnBaseBranch { .. })
                ),
                _ => false,
            };
            exit(if nothing {
                Exit::NothingToReview
            } else {
                Exit::Error
            })
        }
    }
}

/// The command line, and clap's matches: they say whether a value came from a flag or from
/// the environment, so a message can name the one the person actually set.
fn parse_args() -> Result<(Cli, clap::ArgMatches), clap::Error> {
    use clap::{CommandFactory, FromArgMatches};
    let command = Cli::command();
    // clap blames the flag for an empty variable (`a value is required for --data-dir`): name
    // the variable the person actually set.
    let typed: Vec<String> = std::env::args().skip(1).collect();
    for arg in command.get_arguments() {
        let (Some(var), Some(long)) = (arg.get_env(), arg.get_long()) else {
            continue;
        };
        let flag = format!("--{long}");
        let given = typed
            .iter()
            .any(|a| *a == flag || a.starts_with(&format!("{flag}=")));
        if !given && std::env::var_os(var).is_some_and(|v| v.is_empty()) {
            return Err(command.clone().error(
                clap::error::ErrorKind::InvalidValue,
                format!(
                    "{} is set but empty: unset it, or give it a value",
                    var.to_string_lossy()
                ),
            ));
        }
    }
    let matches = command.try_get_matches()?;
    let cli = Cli::from_arg_matches(&matches)?;
    Ok((cli, matches))
}

/// The first error of type `T` in `err`'s chain: a library error carries the one it wraps
/// (the headless flow's `Aborted`, `PrepareError`) as its source.
fn cause<T: std::error::Error + Send + Sync + 'static>(err: &anyhow::Error) -> Option<&T> {
    err.chain().find_map(|e| e.downcast_ref::<T>())
}

fn exit(code: Exit) -> ExitCode {
    ExitCode::from(code.code() as u8)
}

fn run(mut cli: Cli, matches: &clap::ArgMatches) -> anyhow::Result<Exit> {
    match &cli.command {
        Some(Command::Evaluate { file, format }) => {
            return run::maintenance::evaluate_command(file, *format);
        }
        Some(Command::Config { action }) => return run::maintenance::config_command(*action),
        Some(Command::Inbox { .. }) => return run::inbox::inbox_command(&cli),
        Some(Command::Ask { .. }) => return run::drafts::ask_command(&cli),
        Some(Command::Comment { .. }) => return run::drafts::comment_command(&cli),
        Some(Command::Reply { .. } | Command::Resolve { .. }) => {
            return run::drafts::thread_command(&cli);
        }
        Some(Command::Gc {
            dry_run,
            max_age,
            max_tag_store,
            data_dir,
        }) => {
            return run::maintenance::gc_command(
                *dry_run,
                max_age.as_deref(),
                max_tag_store.as_deref(),
                data_dir.as_deref(),
            );
        }
        None => {}
    }
    // `review-tui` alone: outside any repository the inbox; inside one, the current branch
    // (as `review-tui .`), with the inbox one key away.
    // The repository is looked for only then: a named PR starts without that walk.
    if cli.pr.is_none() && !cli.demo {
        if git2::Repository::discover(".").is_ok() {
            cli.pr = Some(".".to_string());
        } else if !cli.headless {
            return run::inbox::inbox_command(&run::inbox::inbox_cli(&cli)?);
        }
    }
    // Every flag is checked before anything is fetched, written or spent; the warm-up only
    // compiles (nothing is written), so it may start first.
    review_tui::cli::setup::warm_up();
    let data_dir_from = match matches.value_source("data_dir") {
        Some(clap::parser::ValueSource::EnvVariable) => DataDirFrom::Environment,
        _ => DataDirFrom::Flag,
    };
    let mut resolved = Resolved::new(cli, data_dir_from, &review_tui::cli::setup::builtin_catalog)?;
    if resolved.flags.demo {
        let root = review_tui::space::data_root(resolved.flags.data_dir.as_deref())?;
        let demo = review_tui::demo::build(&root.join("demo").join("acme-client"))?;
        resolved.set_pr(&demo.reference())?;
    } else if resolved.reference.is_none() {
        anyhow::bail!(
            "no pull request given: pass a PR (see `review-tui --help`), run `review-tui inbox` for every review waiting for you, or `review-tui evaluate FILE` to check a report"
        );
    }
    // The mirror's objects were checked as they entered it (git's index-pack on a fetch, or
    // the user's own repository linked in). By default libgit2 hashes every object again on
    // each read, a large part of a checkout's CPU; git does not either.
    git2::opts::strict_hash_verification(false);
    let runtime = tokio::runtime::Runtime::new().context("starting the async runtime")?;
    let outcome = if resolved.flags.headless {
        let signals = Signals::install(&runtime)?;
        run::headless::headless_command(&resolved, &runtime, &signals)
    } else {
        let mut to_inbox = false;
        let ended = run::cockpit::cockpit_command(&resolved, &runtime, &mut to_inbox);
        if ended.is_ok() && to_inbox {
            drop(runtime);
            return run::inbox::inbox_command(&run::inbox::inbox_cli(&resolved.flags)?);
        }
        ended
    };
    if outcome
        .as_ref()
        .is_err_and(|e| cause::<Aborted>(e).is_some())
    {
        // A git fetch or a reviewer's blocking job still running must not hold the exit:
        // what it would write is written atomically or not at all.
        runtime.shutdown_background();
    }
    outcome
}
