//! The PR's review threads as the cockpit lists them: open ones first, then by file and line;
//! and the person's drafts on each.

use crate::pr::ReviewThread;
use crate::review::Anchor;
use crate::space::{ThreadAction, ThreadDraft};
use crate::ui::state::AppState;

/// The threads in list order: open (neither resolved nor outdated) first, then by file, line.
pub fn ordered(state: &AppState) -> Vec<&ReviewThread> {
    let mut threads: Vec<&ReviewThread> = state.review_threads.iter().collect();
    threads.sort_by_key(|t| {
        (
            t.resolved || t.outdated,
            t.path.clone(),
            t.lines().map(|l| l.0),
        )
    });
    threads
}

/// The drafts on `thread` not posted yet, in the order drafted.
pub fn drafts<'a>(state: &'a AppState, thread: &ReviewThread) -> Vec<&'a ThreadDraft> {
    state
        .thread_drafts
        .iter()
        .filter(|d| thread.is_named(&d.thread) && !d.posted)
        .collect()
}

/// Whether the thread will be resolved after the drafts are posted (what `r` toggles).
pub fn resolved_after(state: &AppState, thread: &ReviewThread) -> bool {
    drafts(state, thread)
        .iter()
        .rev()
        .find_map(|d| match d.action {
            ThreadAction::Resolve => Some(true),
            ThreadAction::Unresolve => Some(false),
            ThreadAction::Reply { .. } => None,
        })
        .unwrap_or(thread.resolved)
}

/// The threads on the same file, side and (overlapping) lines as `anchor`.
pub fn on_lines<'a>(state: &'a AppState, anchor: &Anchor) -> Vec<&'a ReviewThread> {
    state
        .review_threads
        .iter()
        .filter(|t| {
            anchor.path == t.path
                && anchor.side == t.side
                && t.lines()
                    .is_some_and(|(s, e)| s <= anchor.end_line && anchor.start_line <= e)
        })
        .collect()
}

/// `open`, `resolved` or `outdated`, as the forge says; `resolution unknown` when it could
/// not say (GitHub without a token).
pub fn state_word(thread: &ReviewThread) -> &'static str {
    if thread.resolved {
        "resolved"
    } else if thread.outdated {
        "outdated"
    } else if thread.resolution_unknown {
        "resolution unknown"
    } else {
        "open"
    }
}
