//! The threads list (`t`): moving through the PR's review threads, and drafting a reply, a
//! resolution or a reopening on one; drafts go to the session and are posted by the next
//! publish.

use crate::space::{ThreadAction, ThreadDraft};
use crate::ui::command::Command;
use crate::ui::keymap::Context;
use crate::ui::state::{AppState, DraftStep, InputPurpose, MessageKind, Overlay, Undoable};
use crate::ui::thread_list;

use super::component::Component;
use super::diff_comment::open;
use super::{Effect, info, message};

pub(super) struct ThreadsList;

impl Component for ThreadsList {
    fn context(&self) -> Context {
        Context::Threads
    }

    fn available(&self, state: &AppState, command: Command) -> bool {
        let selected = selected(state);
        match command {
            Command::Reply | Command::Resolve => selected.is_some() && !state.review_running(),
            Command::DeleteComment => {
                selected.is_some_and(|(_, drafts)| drafts > 0) && !state.review_running()
            }
            _ => true,
        }
    }

    fn update(&self, state: &mut AppState, command: Command) -> Option<Vec<Effect>> {
        if matches!(
            command,
            Command::Reply | Command::Resolve | Command::DeleteComment
        ) && state.review_running()
        {
            // The running round owns the space until it ends.
            message(
                state,
                MessageKind::Warn,
                "the review is still running: draft on a thread when it is done".to_string(),
            );
            return Some(Vec::new());
        }
        let len = state.review_threads.len();
        let Some(Overlay::Threads { cursor }) = state.overlays.last_mut() else {
            return None;
        };
        let last = len.saturating_sub(1);
        match command {
            Command::MoveDown => *cursor = (*cursor + 1).min(last),
            Command::MoveUp => *cursor = cursor.saturating_sub(1),
            Command::Top => *cursor = 0,
            Command::Bottom => *cursor = last,
            Command::Reply => {
                let Some(thread) = thread_at(state) else {
                    return Some(Vec::new());
                };
                open(state, InputPurpose::Reply { thread }, "");
            }
            Command::Resolve => return Some(resolve(state)),
            Command::Undo => return Some(super::triage::undo(state)),
            Command::Redo => return Some(super::triage::redo(state)),
            Command::DeleteComment => return Some(delete(state)),
            Command::Threads => {
                state.overlays.pop();
            }
            _ => return None,
        }
        Some(Vec::new())
    }
}

/// `t` on the panes: the list, or a word that there is nothing to list. It opens on the first
/// thread on the selected finding's lines, when there is one: the talk about what is being
/// looked at, however long the list.
pub(super) fn open_list(state: &mut AppState) {
    if state.review_threads.is_empty() {
        info(
            state,
            "no review threads on this pull request (or they could not be read)".to_string(),
        );
        return;
    }
    let here: Option<String> = state
        .selected_node()
        .and_then(|n| n.anchor.as_ref())
        .and_then(|anchor| {
            thread_list::on_lines(state, anchor)
                .first()
                .map(|t| t.id.clone())
        });
    let cursor = here
        .and_then(|id| thread_list::ordered(state).iter().position(|t| t.id == id))
        .unwrap_or(0);
    state.overlays.push(Overlay::Threads { cursor });
}

/// The forge id of the thread under the cursor.
fn thread_at(state: &AppState) -> Option<String> {
    let Some(Overlay::Threads { cursor }) = state.top_overlay() else {
        return None;
    };
    thread_list::ordered(state)
        .get(*cursor)
        .map(|t| t.id.clone())
}

/// The thread under the cursor and how many drafts it has.
fn selected(state: &AppState) -> Option<(String, usize)> {
    let id = thread_at(state)?;
    let thread = state.review_threads.iter().find(|t| t.id == id)?;
    Some((id, thread_list::drafts(state, thread).len()))
}

/// A draft the session keeps (it fills the rest from the thread and stamps the time).
fn put(state: &mut AppState, thread: &str, action: ThreadAction) -> Vec<Effect> {
    let Some(found) = state.review_threads.iter().find(|t| t.id == thread) else {
        return Vec::new();
    };
    let id = crate::session::thread_drafts::next_id(&state.thread_drafts, &action);
    let draft = crate::session::thread_drafts::draft(id, found, action, String::new());
    info(
        state,
        format!("{} drafted: posted by the next publish", draft.describe()),
    );
    state.thread_drafts.push(draft.clone());
    remember(state, vec![DraftStep::Put(draft.clone())]);
    vec![Effect::PutThreadDraft(Box::new(draft))]
}

/// One step of the undo history, like a triage change: `u` takes it back, `ctrl-r` makes it
/// again.
fn remember(state: &mut AppState, drafts: Vec<DraftStep>) {
    state.undo.push(Undoable {
        steps: Vec::new(),
        drafts,
        room: None,
    });
    state.redo.clear();
}

/// `r`: resolve an open thread, reopen a resolved one. A draft that only undoes the one before
/// it takes that one back instead.
fn resolve(state: &mut AppState) -> Vec<Effect> {
    let Some(id) = thread_at(state) else {
        return Vec::new();
    };
    let Some(thread) = state.review_threads.iter().find(|t| t.id == id).cloned() else {
        return Vec::new();
    };
    let after = thread_list::resolved_after(state, &thread);
    let pending: Option<ThreadDraft> = thread_list::drafts(state, &thread)
        .into_iter()
        .rev()
        .find(|d| !matches!(d.action, ThreadAction::Reply { .. }))
        .cloned();
    if let Some(draft) = pending {
        // The last resolution drafted is undone: drop it rather than draft its opposite.
        state.thread_drafts.retain(|d| d.id != draft.id);
        info(state, format!("{} deleted", draft.id));
        remember(state, vec![DraftStep::Deleted(draft.clone())]);
        return vec![Effect::DeleteThreadDraft(draft.id)];
    }
    let action = if after {
        ThreadAction::Unresolve
    } else {
        ThreadAction::Resolve
    };
    put(state, &id, action)
}

/// `D`: the drafts on the thread under the cursor, dropped.
fn delete(state: &mut AppState) -> Vec<Effect> {
    let Some(id) = thread_at(state) else {
        return Vec::new();
    };
    let Some(thread) = state.review_threads.iter().find(|t| t.id == id) else {
        return Vec::new();
    };
    let gone: Vec<_> = thread_list::drafts(state, thread)
        .into_iter()
        .cloned()
        .collect();
    let ids: Vec<String> = gone.iter().map(|d| d.id.clone()).collect();
    if ids.is_empty() {
        message(
            state,
            MessageKind::Warn,
            "no draft on this thread".to_string(),
        );
        return Vec::new();
    }
    state.thread_drafts.retain(|d| !ids.contains(&d.id));
    info(state, format!("{} deleted", ids.join(", ")));
    remember(state, gone.into_iter().map(DraftStep::Deleted).collect());
    ids.into_iter().map(Effect::DeleteThreadDraft).collect()
}

/// The reply box's text, submitted.
pub(super) fn submit_reply(state: &mut AppState, thread: &str, text: String) -> Vec<Effect> {
    put(state, thread, ThreadAction::Reply { text })
}
