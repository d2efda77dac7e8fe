//! `--publish`: the round, then the person's thread drafts, each step said on the way.

use crate::pr::Notices;
use crate::publish::{PublishError, Publishing};
use crate::session::Session;

use super::outcome::Published;
use super::signals::{Aborted, Signals};

/// Publishes the round and then the person's thread drafts: what publishing did, and the
/// body posted (the Markdown report is exactly it).
pub(super) fn publish(
    session: &mut Session<Publishing>,
    pr: &str,
    runtime: &tokio::runtime::Runtime,
    signals: &Signals,
    say: &Notices,
) -> Result<(Published, Option<String>), Aborted> {
    let mut body = None;
    let outcome = signals.run(runtime, async {
        let preview = session.preview().await?;
        for line in crate::publish::thread_posts::pending(&session.prepared().space) {
            say.say(format!("will post: {line}"));
        }
        for raised in &preview.already_raised {
            say.say(match raised.included {
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
        body = Some(preview.body.clone());
        session.publish().await
    })?;
    let threads_too = matches!(outcome, Ok(_) | Err(PublishError::AlreadyPublished { .. }));
    let mut published = Published::Posted;
    match outcome {
        Ok(done) => say.say(done),
        // Idempotent: the round is on the PR already; say where, keep the verdict's code.
        Err(err @ PublishError::AlreadyPublished { .. }) => say.say(err),
        Err(err) if err.is_head_moved() => {
            say.say(format!(
                "{err} (run `review-tui {pr} --headless --publish` again)"
            ));
            published = Published::HeadMoved;
        }
        Err(err) => {
            say.say(format!("publishing failed: {err}"));
            published = Published::Failed;
        }
    }
    // The person's replies and resolutions on the PR's threads, once each.
    if threads_too && let Err(err) = post_thread_drafts(session, runtime, signals, say)? {
        say.say(format!("publishing failed: {err}"));
        published = Published::Failed;
    }
    Ok((published, body))
}

fn post_thread_drafts(
    session: &mut Session<Publishing>,
    runtime: &tokio::runtime::Runtime,
    signals: &Signals,
    say: &Notices,
) -> Result<Result<(), PublishError>, Aborted> {
    Ok(signals
        .run(runtime, session.post_thread_drafts())?
        .map(|lines| lines.into_iter().for_each(|line| say.say(line))))
}
