//! The headless flow: one review without a terminal (CI, scripts), beside the cockpit
//! (`ui::app`), the other client of the same session. It takes the resolved flags
//! (`cli::resolve`) and ends in a typed [`Outcome`] and the report; the binary writes the
//! report and maps the outcome to its exit code. What a person waiting should hear on the way
//! (a warning, the estimate, a server that keeps a reviewer waiting, each publishing step)
//! goes to the `say` it is given, as it happens.

mod error;
mod outcome;
mod progress;
mod publish;
mod report;
mod signals;

pub use error::HeadlessError;
pub use outcome::{Finished, Outcome, Published};
pub use report::{redacted_json, sarif};
pub use signals::{Aborted, Signals, SignalsError};

use crate::cli::resolve::Resolved;
use crate::cli::setup::{
    asked, check_models, new_session, prepare_options, review_config, review_options,
    uncommitted_warning,
};
use crate::pr::Notices;
use crate::publish::Rerun;
use crate::session::ReviewOptions;
use crate::session::{Prepared, prepare};

/// One headless review of the resolved PR, stopped by `signals`, saying its way to `say`.
pub fn run(
    resolved: &Resolved,
    runtime: &tokio::runtime::Runtime,
    signals: &Signals,
    say: &Notices,
) -> Result<Finished, HeadlessError> {
    let cli = &resolved.flags;
    let Some(reference) = resolved.reference.clone() else {
        return Err(HeadlessError::NoPullRequest);
    };
    if let Some(warning) = uncommitted_warning(&reference) {
        say.say(warning);
    }
    check_models(resolved)?;
    let options = prepare_options(cli, &resolved.user, say.clone())?;
    let mut prepared = signals.run(runtime, prepare(reference, &options))??;
    if let Some(corruption) = &prepared.opened.corruption {
        say.say(format!("warning: {corruption}"));
    }
    if let Some(offline) = prepared.offline.clone() {
        return stored_round(resolved, prepared, offline, runtime, signals, say);
    }
    if prepared.is_empty() {
        let report = report::prepared_only(cli, &prepared);
        return Ok(Finished::new(Outcome::NothingToReview, report));
    }
    // A head with a completed round: an Inconclusive round, or one with other reviewers, is
    // reviewed again as a new round; `--publish` posts the recorded round (never posted, or cut
    // short); an unpublished round is reported as recorded. Only a published one refuses.
    let rerun = crate::publish::rerun(
        prepared.space.state(),
        &mut prepared.eligibility,
        asked(cli),
    );
    if !prepared.eligibility.is_empty() && !cli.force && rerun != Rerun::PublishRecorded {
        let report = report::prepared_only(cli, &prepared);
        let reasons = prepared.eligibility.clone();
        return Ok(Finished::new(Outcome::NotEligible(reasons), report));
    }
    review(resolved, prepared, rerun, runtime, signals, say)
}

/// The round of an eligible head: run, or the recorded one; published when asked.
fn review(
    resolved: &Resolved,
    prepared: Prepared,
    rerun: Rerun,
    runtime: &tokio::runtime::Runtime,
    signals: &Signals,
    say: &Notices,
) -> Result<Finished, HeadlessError> {
    let cli = &resolved.flags;
    let config = review_config(resolved.user.clone(), &prepared)?;
    let review = review_options(resolved, &prepared, &config)?;
    let review = ReviewOptions {
        force: review.force || rerun == Rerun::NewRound,
        ..review
    };
    let reviews = !matches!(rerun, Rerun::PublishRecorded | Rerun::ReportRecorded);
    if reviews && review.models.is_none() && !review.deterministic_only {
        say.say(crate::session::no_model::LONG);
    }
    let mut session = new_session(prepared, cli, &config, review, None);
    // The pre-run estimate is said before the model reviewers are dispatched, and a server
    // that keeps a reviewer waiting is said while it lasts, not after minutes of silence.
    let (tap, taps) = tokio::sync::mpsc::unbounded_channel();
    let estimates = {
        let say = say.clone();
        std::thread::spawn(move || progress::say_while_running(taps, say))
    };
    let result = if rerun == Rerun::PublishRecorded {
        say.say(
            "this head was already reviewed: publishing its recorded round (--force reviews it again)",
        );
        drop(tap);
        Ok(session.snapshot())
    } else if rerun == Rerun::ReportRecorded {
        say.say(
            "this head was already reviewed and not published: reporting its recorded round \
             (--publish posts it, --force reviews it again)",
        );
        drop(tap);
        // The round's cohorts and axes as the review that recorded it reported them (from the
        // space's cache, built again if it is gone): the same report, not a thinner one.
        signals.run(runtime, session.cohorts())?;
        Ok(session.snapshot())
    } else {
        signals.run(runtime, session.run_round(Some(tap), None))?
    };
    let _ = estimates.join();
    let result = result?;
    for line in report::failed_reviewers(&result) {
        say.say(line);
    }

    // Publishing is a mutating action: only with --publish.
    let (published, body) = if cli.publish {
        let pr = cli.pr.as_deref().unwrap_or_default();
        publish::publish(&mut session, pr, runtime, signals, say)?
    } else {
        say.say(
            "nothing was published: add --publish to post this round (a GitHub review, or review.md and review.json in the review space for a local range)",
        );
        (Published::NotAsked, None)
    };
    let report = report::round(cli, &session, &result, body)?;
    let outcome = Outcome::Reviewed {
        decision: result.verdict.decision,
        published,
    };
    Ok(Finished::new(outcome, report).holding(session))
}

/// A headless run on a space opened offline: the stored round's report, marked as such in
/// what is said and in the report, with the stored verdict. Asking for what needs the forge
/// (`--publish`, `--force`'s new round) is refused in the outcome, after the report: nothing
/// is lost, nothing is sent.
fn stored_round(
    resolved: &Resolved,
    prepared: Prepared,
    offline: crate::session::Offline,
    runtime: &tokio::runtime::Runtime,
    signals: &Signals,
    say: &Notices,
) -> Result<Finished, HeadlessError> {
    say.say(format!(
        "{} ({} could not be reached: {})",
        offline.banner(),
        offline.forge,
        offline.reason
    ));
    let cli = &resolved.flags;
    let config = review_config(resolved.user.clone(), &prepared)?;
    // Nothing runs: the level is the one the report is read at, when the round kept none.
    let review = ReviewOptions {
        level: cli.level.unwrap_or(config.level),
        api_advisory: config.api_advisory.clone(),
        ..ReviewOptions::default()
    };
    let mut session = new_session(prepared, cli, &config, review, None);
    // The cohorts from the space's cache: the facts line's gate reads them.
    signals.run(runtime, session.cohorts())?;
    let result = session.snapshot();
    let report = report::round(cli, &session, &result, None)?;
    let refused = if cli.publish {
        Some("publishing")
    } else if cli.force {
        Some("reviewing it again (--force)")
    } else {
        None
    };
    let outcome = Outcome::Offline {
        decision: result.verdict.decision,
        refused: refused.map(|what| offline.needs_network(what)),
    };
    Ok(Finished::new(outcome, report))
}
