//! Replies and resolutions on the PR's review threads, drafted by the person (from the command
//! line or the cockpit) and kept in the space until a publish posts them: the one place that
//! names a draft, fills it from its thread, redacts it and stores it.

use crate::pr::threads::ReviewThread;
use crate::reviewers::redact;
use crate::space::thread_draft::{ThreadAction, ThreadDraft};

use super::publisher::Publisher;
use super::service::{Session, SessionError};

/// `reply-N` / `resolve-N`: one past the highest of that kind drafted so far, so ids never
/// come back after a deletion of an earlier one.
pub fn next_id(drafts: &[ThreadDraft], action: &ThreadAction) -> String {
    let prefix = prefix(action);
    let n = drafts
        .iter()
        .filter_map(|d| {
            d.id.strip_prefix(&format!("{prefix}-"))?
                .parse::<u32>()
                .ok()
        })
        .max()
        .unwrap_or(0)
        + 1;
    format!("{prefix}-{n}")
}

fn prefix(action: &ThreadAction) -> &'static str {
    match action {
        ThreadAction::Reply { .. } => "reply",
        ThreadAction::Resolve | ThreadAction::Unresolve => "resolve",
    }
}

/// A draft on `thread` named `id`, the reply's text redacted (it is again when posted).
pub fn draft(id: String, thread: &ReviewThread, action: ThreadAction, at: String) -> ThreadDraft {
    let action = match action {
        ThreadAction::Reply { text } => ThreadAction::Reply {
            text: redact::outbound(&text),
        },
        other => other,
    };
    ThreadDraft {
        id,
        thread: thread.id.clone(),
        reply_to: thread.reply_target(),
        location: match thread.lines() {
            Some((_, end)) => format!("{}:{end}", thread.path),
            None => thread.path.clone(),
        },
        opened_by: thread.author().to_string(),
        action,
        at,
        posted: false,
    }
}

/// Drops the draft `id` unless it was posted already; whether there was one.
pub fn remove(drafts: &mut Vec<ThreadDraft>, id: &str) -> bool {
    let before = drafts.len();
    drafts.retain(|d| d.id != id || d.posted);
    drafts.len() != before
}

/// The thread `wanted` names: its own id, or the number of any of its comments.
pub fn find<'a>(threads: &'a [ReviewThread], wanted: &str) -> Option<&'a ReviewThread> {
    threads.iter().find(|t| t.is_named(wanted))
}

impl<P: Publisher> Session<P> {
    /// Keeps `draft` in the space (its reply redacted again: a client may have built it).
    pub fn put_thread_draft(&mut self, draft: ThreadDraft) -> Result<(), SessionError> {
        let thread = find(&self.prepared.threads.threads, &draft.thread)
            .cloned()
            .ok_or_else(|| SessionError::NoSuchReviewThread(draft.thread.clone()))?;
        let at = match draft.at.is_empty() {
            true => crate::pr::http::utc_time(crate::pr::http::now_epoch()),
            false => draft.at,
        };
        let draft = self::draft(draft.id, &thread, draft.action, at);
        self.prepared
            .space
            .update(|state| -> Result<(), SessionError> {
                state.thread_drafts.retain(|d| d.id != draft.id || d.posted);
                state.thread_drafts.push(draft);
                Ok(())
            })
    }

    /// Drops the draft `id` unless it was posted already; whether there was one.
    pub fn delete_thread_draft(&mut self, id: &str) -> Result<bool, SessionError> {
        self.prepared
            .space
            .update(|state| -> Result<bool, SessionError> {
                Ok(remove(&mut state.thread_drafts, id))
            })
    }
}
