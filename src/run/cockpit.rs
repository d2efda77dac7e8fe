//! The cockpit on one PR: the screen opens at once, the space is prepared behind it, then
//! `ui::app` runs the session until the person leaves.

use anyhow::Context;

use review_tui::cli::resolve::Resolved;
use review_tui::pr::reference;
use review_tui::publish::Rerun;
use review_tui::session::prepare;

use super::output::{ask, say};
use review_tui::cli::setup::{
    asked, check_models, new_session, prepare_options, review_config, review_options, room_setup,
    uncommitted_warning,
};

use super::setup::{on_stderr, view_context, warn_uncommitted};
use crate::exit::Exit;

/// The cockpit on `pr`. `to_inbox` is set when the person left it for the inbox (`I`).
pub(crate) fn cockpit_command(
    resolved: &Resolved,
    runtime: &tokio::runtime::Runtime,
    to_inbox: &mut bool,
) -> anyhow::Result<Exit> {
    use review_tui::pr::Ineligible;
    use review_tui::ui;

    ui::app::check_terminal()?;
    let cli = &resolved.flags;
    let Some(reference) = resolved.reference.clone() else {
        anyhow::bail!("no pull request given");
    };
    // Counting uncommitted files reads the status of every file of the checkout (a large
    // repository's took longer than the rest of the first frame): counted beside it, said once
    // the space is prepared.
    let uncommitted = {
        let reference = reference.clone();
        std::thread::Builder::new()
            .name("uncommitted".into())
            .spawn(move || uncommitted_warning(&reference))
    }
    // Without a thread, it is counted and said now.
    .map_err(|_| warn_uncommitted(&reference))
    .ok();
    check_models(resolved)?;
    let mut options = prepare_options(cli, &resolved.user, on_stderr())?;
    // The cockpit opens first: the PR and its files are on screen while the space is prepared
    // (the forge's answer, the fetch, the checkout), the rest streams in after.
    let early = view_context(resolved.theme.clone(), &resolved.user)?;
    let mut screen = ui::app::Screen::open(header_of(&reference), "reading the PR…")?;
    let (progress, notices) = screen.progress();
    options.progress = Some(progress);
    options.connection.notices = Some(notices);
    // Prepared on the runtime's workers, not inside the screen's loop: what it does between
    // two awaits (redacting the PR's title compiles the secret rules on first use) would hold
    // every frame, the first one with the PR's title too.
    let preparing = runtime.spawn(async move { prepare(reference, &options).await });
    let stop_preparing = preparing.abort_handle();
    let prepared = runtime.block_on(screen.show_while(&early, preparing))?;
    // Said on the terminal, as before the cockpit opened, whatever the preparation's outcome.
    if let Some(warning) = uncommitted.and_then(|job| job.join().ok()).flatten() {
        screen.lend(|| say(warning))?;
    }
    let mut prepared = match prepared {
        Ok(prepared) => prepared.context("preparing the review")??,
        // The person left before the space was ready: nothing was decided.
        Err(_) => {
            stop_preparing.abort();
            return Ok(Exit::Aborted);
        }
    };
    prepared.connection.notices = None;
    if let Some(offline) = &prepared.offline {
        let banner = format!(
            "{} ({} could not be reached: {})",
            offline.banner(),
            offline.forge,
            offline.reason
        );
        let force = cli
            .force
            .then(|| offline.needs_network("reviewing it again (--force)"));
        screen.lend(|| {
            say(banner);
            force.into_iter().for_each(say);
        })?;
    }
    // Asked on the terminal, outside the cockpit: the person's earlier decisions may be gone,
    // and they must know before deciding anything again.
    if let Some(corruption) = &prepared.opened.corruption
        && !screen.lend(|| ask(&format!("warning: {corruption}. Open the review anyway?")))??
    {
        return Ok(Exit::Aborted);
    }
    if prepared.is_empty() {
        drop(screen);
        say("nothing to review: the range has no changes");
        return Ok(Exit::NothingToReview);
    }
    // Reopening a reviewed head resumes it, unless that round was Inconclusive or ran with other
    // reviewers (then a new round runs); anything else that makes the PR ineligible is asked
    // about.
    let rerun = review_tui::publish::rerun(
        prepared.space.state(),
        &mut prepared.eligibility,
        asked(cli),
    );
    let resumes = rerun == Rerun::ReportRecorded
        || (prepared
            .eligibility
            .iter()
            .all(|r| matches!(r, Ineligible::AlreadyReviewed { .. }))
            && !prepared.eligibility.is_empty());
    let other: Vec<String> = prepared
        .eligibility
        .iter()
        .filter(|r| !matches!(r, Ineligible::AlreadyReviewed { .. }))
        .map(|r| r.to_string())
        .collect();
    if !other.is_empty()
        && !cli.force
        && !screen.lend(|| {
            ask(&format!(
                "Not eligible: {}. Review anyway?",
                other.join("; ")
            ))
        })??
    {
        return Ok(Exit::NotEligible);
    }
    let config = review_config(resolved.user.clone(), &prepared)?;
    let mut review = review_options(resolved, &prepared, &config)?;
    // A round that never completed (the process was killed mid-run) is resumed by running it
    // again: shown as recorded it would stay provisional, with no reviewer, for good.
    let prepared_offline = prepared.offline.clone();
    let interrupted = prepared
        .space
        .state()
        .current_round()
        .is_some_and(|round| !round.completed);
    // Offline, the stored round is shown as it is: a new one needs GitHub.
    let run_review = (!resumes || interrupted || cli.force) && prepared_offline.is_none();
    review.force = true;
    // The review room's reviewers: the cockpit asks.
    let room = room_setup(resolved, &config, &prepared, &review)?;
    let session = new_session(prepared, cli, &config, review, room);
    let mut cx = view_context(resolved.theme.clone(), &config)?;
    cx.editor_open_at = config.editor_open_at.clone();
    let (outcome, decision) = runtime.block_on(ui::app::run_cockpit(
        session, run_review, cli.watch, &cx, screen,
    ))?;
    *to_inbox = outcome == ui::RunOutcome::Inbox;
    match outcome {
        ui::RunOutcome::Aborted => Ok(Exit::Aborted),
        _ => Ok(decision.map_or(Exit::Inconclusive, Exit::from)),
    }
}

/// The cockpit's header before the PR is read: the repository and the number the reference
/// names.
fn header_of(reference: &reference::PrRef) -> review_tui::ui::PrHeader {
    review_tui::ui::PrHeader {
        repo: match reference {
            reference::PrRef::Hosted(pr) => format!("{}/{}", pr.owner, pr.repo),
            reference::PrRef::Local { path, .. } => path.display().to_string(),
        },
        number: match reference {
            reference::PrRef::Hosted(pr) => pr.number.to_string(),
            reference::PrRef::Local { .. } => String::new(),
        },
        ..Default::default()
    }
}
