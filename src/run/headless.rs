//! The headless flow: one review without a terminal (CI, scripts), its report on standard
//! output or `--output`, its outcome as the exit code. The cockpit (`cockpit.rs`) is the other
//! client of the same session.

use review_tui::cli::ReportFormat;
use review_tui::cli::resolve::Resolved;
use review_tui::publish::{PublishError, Publishing, Rerun};
use review_tui::report::review;
use review_tui::reviewers::redact::outbound;
use review_tui::session::Session;
use review_tui::session::prepare::prepare;
use review_tui::session::round::{self, ReviewOptions};

use super::output::{
    failed_reviewers, prepare_report, redacted_json, sarif, say, strip_markers, write_report,
};
use super::setup::{
    asked, check_models, new_session, prepare_options, review_config, review_options,
    warn_uncommitted,
};
use super::signals::Signals;
use crate::exit::Exit;

pub(crate) fn headless_command(
    resolved: &Resolved,
    runtime: &tokio::runtime::Runtime,
    signals: &Signals,
) -> anyhow::Result<Exit> {
    let cli = &resolved.flags;
    let pr = cli.pr.as_deref().unwrap_or_default();
    let Some(reference) = resolved.reference.clone() else {
        anyhow::bail!("no pull request given");
    };
    warn_uncommitted(&reference);
    check_models(resolved)?;
    let options = prepare_options(cli, &resolved.user)?;
    let mut prepared = signals.run(runtime, prepare(reference, &options))??;
    if let Some(corruption) = &prepared.opened.corruption {
        say(format!("warning: {corruption}"));
    }
    if prepared.offline.is_some() {
        return offline_headless(resolved, prepared, runtime, signals);
    }
    if prepared.is_empty() {
        write_report(cli, &prepare_report(cli, &prepared))?;
        say("nothing to review: the range has no changes");
        return Ok(Exit::NothingToReview);
    }
    // A head with a completed round: an Inconclusive round, or one with other reviewers, is
    // reviewed again as a new round; `--publish` posts the recorded round (never posted, or cut
    // short); an unpublished round is reported as recorded. Only a published one refuses.
    let rerun = review_tui::publish::rerun(
        prepared.space.state(),
        &mut prepared.eligibility,
        asked(cli),
    );
    if !prepared.eligibility.is_empty() && !cli.force && rerun != Rerun::PublishRecorded {
        write_report(cli, &prepare_report(cli, &prepared))?;
        let reasons: Vec<String> = prepared.eligibility.iter().map(|r| r.to_string()).collect();
        say(format!(
            "not eligible: {} (pass --force to review anyway)",
            reasons.join("; ")
        ));
        return Ok(Exit::NotEligible);
    }

    let config = review_config(resolved.user.clone(), &prepared)?;
    let review = review_options(resolved, &prepared, &config)?;
    let review = ReviewOptions {
        force: review.force || rerun == Rerun::NewRound,
        ..review
    };
    let reviews = !matches!(rerun, Rerun::PublishRecorded | Rerun::ReportRecorded);
    if reviews && review.models.is_none() && !review.deterministic_only {
        say(review_tui::session::no_model::LONG);
    }
    let mut session = new_session(prepared, cli, &config, review, None)?;
    // The pre-run estimate goes to stderr before the model reviewers are dispatched, and a
    // server that keeps a reviewer waiting is said while it lasts, not after minutes of silence.
    let (tap, taps) = tokio::sync::mpsc::unbounded_channel();
    let estimates = std::thread::spawn(move || say_while_running(taps));
    let result = if rerun == Rerun::PublishRecorded {
        say(
            "this head was already reviewed: publishing its recorded round (--force reviews it again)",
        );
        drop(tap);
        Ok(session.snapshot())
    } else if rerun == Rerun::ReportRecorded {
        say(
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
    for line in failed_reviewers(&result) {
        say(line);
    }

    // Publishing is a mutating action: only with --publish.
    let published = if cli.publish {
        publish(&mut session, pr, runtime, signals)?
    } else {
        say(
            "nothing was published: add --publish to post this round (a GitHub review, or review.md and review.json in the review space for a local range)",
        );
        Published::default()
    };

    write_report(cli, &report(cli, &session, &result, published.body)?)?;
    let code = if published.head_moved {
        Exit::HeadMoved
    } else if published.failed {
        Exit::Error
    } else {
        Exit::from(result.verdict.decision)
    };
    end_without_freeing(code)
}

/// Ends a headless run whose report is out. What is left in memory (the diff, the cohorts,
/// the board, the session: on tokio-1.0.0..1.40.0 ~10 ms of freeing on this thread, and as
/// much again on the freeing threads competing with it, at the very end of the wall time) is
/// the OS's to drop with the process, at once. Nothing is left to write: every file of the
/// space was written atomically when it changed, `write_report` flushed standard output, and
/// the space's lock goes with the process (the holder's name left in the lock file is
/// harmless, as `LockFile` says). Only here, at the binary's edge: the library frees what it
/// holds, and the cockpit, long-lived, returns as before.
pub(crate) fn end_without_freeing(code: Exit) -> ! {
    std::process::exit(code.code())
}

/// A headless run on a space opened offline: the stored round's report, marked as such on
/// stderr and in the report, with the stored verdict's exit code. Asking for what needs
/// GitHub (`--publish`, `--force`'s new round) gets one line saying so and exit 4, after the
/// report: nothing is lost, nothing is sent.
pub(crate) fn offline_headless(
    resolved: &Resolved,
    prepared: review_tui::session::prepare::Prepared,
    runtime: &tokio::runtime::Runtime,
    signals: &Signals,
) -> anyhow::Result<Exit> {
    let Some(offline) = prepared.offline.clone() else {
        anyhow::bail!("the space was not opened offline");
    };
    say(format!(
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
    let mut session = new_session(prepared, cli, &config, review, None)?;
    // The cohorts from the space's cache: the facts line's gate reads them.
    signals.run(runtime, session.cohorts())?;
    let result = session.snapshot();
    write_report(cli, &report(cli, &session, &result, None)?)?;
    let refused = if cli.publish {
        Some("publishing")
    } else if cli.force {
        Some("reviewing it again (--force)")
    } else {
        None
    };
    if let Some(what) = refused {
        say(offline.needs_network(what));
        return Ok(Exit::Error);
    }
    say("nothing was published: this is the stored round, and publishing needs the network");
    Ok(Exit::from(result.verdict.decision))
}

/// What the round says while it runs, on stderr: the pre-run estimate before the model
/// reviewers are dispatched, and a server that keeps a reviewer or a pass waiting while it
/// lasts, not after minutes of silence.
fn say_while_running(mut taps: tokio::sync::mpsc::UnboundedReceiver<round::Tap>) {
    use review_tui::review::events::EventKind;
    use review_tui::reviewers::model::passes::PassNote;
    use review_tui::reviewers::model::provider::Heard;
    while let Some(event) = taps.blocking_recv() {
        match event {
            round::Tap::Estimate(estimate) => say(estimate),
            round::Tap::Event(review_tui::review::events::ReviewEvent {
                reviewer,
                kind: EventKind::Waiting { host, waited_secs },
                ..
            }) => say(format!(
                "waiting for {host} (reviewer {reviewer}): {waited_secs} s, no complete answer yet"
            )),
            round::Tap::Event(review_tui::review::events::ReviewEvent {
                reviewer,
                kind:
                    EventKind::Retrying {
                        attempt,
                        of,
                        wait_secs,
                        reason,
                        ..
                    },
                ..
            }) => say(format!(
                "reviewer {reviewer}: {}",
                review_tui::review::events::retry_note(attempt, of, wait_secs, &reason)
            )),
            // The passes after the reviewers are held up the same ways.
            round::Tap::Pass(phase, PassNote::Heard(Heard::Retrying(note))) => {
                say(format!("{phase}: {}", note.said()))
            }
            round::Tap::Pass(phase, PassNote::Heard(Heard::Waiting { host, waited_secs })) => say(
                format!("waiting for {host} ({phase}): {waited_secs} s, no complete answer yet"),
            ),
            _ => {}
        }
    }
}

/// What publishing did: the body posted (the Markdown report is exactly it), and whether it
/// failed or found the head moved (each its own exit code).
#[derive(Default)]
struct Published {
    body: Option<String>,
    failed: bool,
    head_moved: bool,
}

/// Publishes the round and then the person's thread drafts, saying each step on stderr.
fn publish(
    session: &mut Session<Publishing>,
    pr: &str,
    runtime: &tokio::runtime::Runtime,
    signals: &Signals,
) -> anyhow::Result<Published> {
    let mut published = Published::default();
    let outcome = signals.run(runtime, async {
        let preview = session.preview().await?;
        for line in review_tui::publish::thread_posts::pending(&session.prepared().space) {
            say(format!("will post: {line}"));
        }
        for raised in &preview.already_raised {
            say(match raised.included {
                false => format!(
                    "left out: {} {}: already raised by @{} in an open thread \
                     (--include-raised posts it; it still counts in the verdict)",
                    raised.location, raised.title, raised.by
                ),
                true => format!(
                    "included: {} {}: already raised by @{} in an open thread, posted all the same",
                    raised.location, raised.title, raised.by
                ),
            });
        }
        published.body = Some(preview.body.clone());
        session.publish().await
    })?;
    let threads_too = matches!(outcome, Ok(_) | Err(PublishError::AlreadyPublished { .. }));
    match outcome {
        Ok(done) => say(done),
        // Idempotent: the round is on the PR already; say where, keep the verdict's code.
        Err(err @ PublishError::AlreadyPublished { .. }) => say(err),
        Err(err) if err.is_head_moved() => {
            say(format!(
                "{err} (run `review-tui {pr} --headless --publish` again)"
            ));
            published.head_moved = true;
        }
        Err(err) => {
            say(format!("publishing failed: {err}"));
            published.failed = true;
        }
    }
    // The person's replies and resolutions on the PR's threads, once each.
    if threads_too {
        match signals.run(runtime, session.post_thread_drafts())? {
            Ok(lines) => lines.into_iter().for_each(say),
            Err(err) => {
                say(format!("publishing failed: {err}"));
                published.failed = true;
            }
        }
    }
    Ok(published)
}

/// The round's report in the format asked for. The findings were redacted as they entered the
/// board; the report is redacted again on its way out (PR text, notes, anything a renderer
/// adds), each JSON string where it stands. Markdown is the posted body when there is one.
fn report(
    cli: &review_tui::cli::Cli,
    session: &Session<Publishing>,
    result: &review_tui::session::RoundSnapshot,
    posted_body: Option<String>,
) -> anyhow::Result<String> {
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
