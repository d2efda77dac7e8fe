//! The person's triage: status changes through the status service, each one undoable. The
//! undo history is the list of changes made this session with the change that takes each
//! back (a dismissal is taken back by reopening, a confirmation by withdrawing it), so undo
//! and redo are status changes too: recorded in the node's history and in `state.json` like
//! any other, never a rewrite of what was recorded.

use crate::review::node::{Actor, ReviewNode, Status};
use crate::review::status::{self, Change};
use crate::ui::state::{AppState, MessageKind, RowKey};
use crate::ui::update::{Effect, refresh, refresh_verdict};

/// One change the person made, and the change that takes it back.
#[derive(Debug, Clone, PartialEq)]
pub struct Undoable {
    pub node_id: String,
    pub done: Change,
    pub undo: Change,
}

/// Where a change comes from: a new decision clears what could be redone.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Origin {
    New,
    Undo,
    Redo,
}

/// A finding's title for messages, cut to a readable length (ids are for machines).
pub fn label(state: &AppState, id: &str) -> String {
    match state.node(id) {
        Some(node) => format!("“{}”", crate::ui::view::truncate(&node.text.title, 40)),
        None => id.to_string(),
    }
}

/// Changes a node's status as the person, through the status service, and remembers how to
/// take it back.
pub fn change(state: &mut AppState, id: &str, change: Change) -> Vec<Effect> {
    apply(state, id, change, Origin::New)
}

fn apply(state: &mut AppState, id: &str, change: Change, origin: Origin) -> Vec<Effect> {
    let actor = Actor::Person(state.person.clone());
    let at = state.now.clone();
    let name = label(state, id);
    let Some(node) = state.node_mut(id) else {
        return Vec::new();
    };
    let before = node.clone();
    match status::apply(node, change.clone(), &actor, &at) {
        Ok(applied) => {
            let node = Box::new(node.clone());
            if *node == before {
                state.say(
                    MessageKind::Info,
                    format!("{name}: already {}, nothing changed", node.status),
                );
                return Vec::new();
            }
            let text = match &applied.transition {
                Some(t) => format!("{name}: {} → {}", t.from, t.to),
                None => format!("{name}: recorded, still {}", node.status),
            };
            let prefix = match origin {
                Origin::New => "",
                Origin::Undo => "undone: ",
                Origin::Redo => "redone: ",
            };
            state.say(MessageKind::Info, format!("{prefix}{text}"));
            if let Some(undo) = inverse(&before, &change) {
                let entry = Undoable {
                    node_id: id.to_string(),
                    done: change.clone(),
                    undo,
                };
                match origin {
                    Origin::New => {
                        state.undo.push(entry);
                        state.redo.clear();
                    }
                    Origin::Redo => state.undo.push(entry),
                    Origin::Undo => {}
                }
            }
            // Consolidation and disagreements read a status only as active or not, and the
            // status service changes nothing else they read: a confirmation leaves them as
            // they are, and recomputing them would cost a keypress tens of milliseconds.
            if node.status.is_active() == before.status.is_active() {
                refresh_verdict(state);
            } else {
                refresh(state);
            }
            vec![Effect::PersistStatus {
                node_id: id.to_string(),
                change,
                node,
                suppression: applied.suppression,
            }]
        }
        Err(err) => {
            state.say(MessageKind::Error, err.to_string());
            Vec::new()
        }
    }
}

/// The change that takes `change` back, given the node as it was before it.
fn inverse(before: &ReviewNode, change: &Change) -> Option<Change> {
    Some(match change {
        Change::Confirm { .. } => Change::Withdraw,
        Change::Withdraw => Change::Confirm {
            note: String::new(),
        },
        Change::Dismiss { .. } | Change::Resolve { .. } => Change::Reopen,
        Change::Reopen => match before.status {
            Status::Dismissed => Change::Dismiss {
                reason: before
                    .history
                    .iter()
                    .rev()
                    .find(|t| t.to == Status::Dismissed)
                    .and_then(|t| t.reason.clone())
                    .unwrap_or_else(|| "dismissed again (undo)".to_string()),
            },
            _ => Change::Resolve { note: None },
        },
        Change::Dispute { .. } => return None,
    })
}

/// `u`: takes back the last change, selecting its finding.
pub fn undo(state: &mut AppState) -> Vec<Effect> {
    let Some(entry) = state.undo.pop() else {
        state.say(MessageKind::Warn, "nothing to undo".to_string());
        return Vec::new();
    };
    let effects = apply(state, &entry.node_id, entry.undo.clone(), Origin::Undo);
    show(state, &entry.node_id);
    if effects.is_empty() {
        // The finding changed since (a reviewer, a new round): the entry no longer applies.
        return effects;
    }
    state.redo.push(entry);
    effects
}

/// `ctrl-r`: makes the last undone change again.
pub fn redo(state: &mut AppState) -> Vec<Effect> {
    let Some(entry) = state.redo.pop() else {
        state.say(MessageKind::Warn, "nothing to redo".to_string());
        return Vec::new();
    };
    let effects = apply(state, &entry.node_id, entry.done.clone(), Origin::Redo);
    show(state, &entry.node_id);
    effects
}

fn show(state: &mut AppState, id: &str) {
    crate::ui::update::reveal(state, id);
    state.selected = Some(RowKey::Node(id.to_string()));
    state.detail_scroll = 0;
}
