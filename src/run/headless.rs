//! The headless flow's edge: the library's run (`review_tui::headless`) with its lines on
//! stderr, its report on standard output or `--output`, its outcome as the exit code.

use review_tui::cli::resolve::Resolved;
use review_tui::headless::{Finished, Outcome, Published, Signals};

use super::output::{say, write_report};
use super::setup::on_stderr;
use crate::exit::Exit;

pub(crate) fn headless_command(
    resolved: &Resolved,
    runtime: &tokio::runtime::Runtime,
    signals: &Signals,
) -> anyhow::Result<Exit> {
    let finished = review_tui::headless::run(resolved, runtime, signals, &on_stderr())?;
    write_report(&resolved.flags, &finished.report)?;
    if let Some(line) = finished.outcome.last_word() {
        say(line);
    }
    let code = exit_of(&finished.outcome);
    if finished.held() {
        end_without_freeing(code, finished)
    }
    Ok(code)
}

/// The exit code of each outcome (README "Exit codes").
fn exit_of(outcome: &Outcome) -> Exit {
    match outcome {
        Outcome::NothingToReview => Exit::NothingToReview,
        Outcome::NotEligible(_) => Exit::NotEligible,
        Outcome::Reviewed {
            published: Published::HeadMoved,
            ..
        } => Exit::HeadMoved,
        Outcome::Reviewed {
            published: Published::Failed,
            ..
        }
        | Outcome::Offline {
            refused: Some(_), ..
        } => Exit::Error,
        Outcome::Reviewed { decision, .. } | Outcome::Offline { decision, .. } => {
            Exit::from(*decision)
        }
    }
}

/// Ends a headless run whose report is out. What `finished` holds (the diff, the cohorts, the
/// board, the session: on tokio-1.0.0..1.40.0 ~10 ms of freeing on this thread, and as much
/// again on the freeing threads competing with it, at the very end of the wall time) is the
/// OS's to drop with the process, at once. Nothing is left to write: every file of the space
/// was written atomically when it changed, `write_report` flushed standard output, and the
/// space's lock goes with the process (the holder's name left in the lock file is harmless,
/// as `LockFile` says). Only here, at the binary's edge: the library frees what it holds,
/// and the cockpit, long-lived, returns as before.
fn end_without_freeing(code: Exit, finished: Finished) -> ! {
    let _kept = finished;
    std::process::exit(code.code())
}
