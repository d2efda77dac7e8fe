//! The person's triage: status changes through the status service, each one undoable. The
//! undo history is the list of changes made this session with the change that takes each
//! back (a dismissal is taken back by reopening, a confirmation by withdrawing it), so undo
//! and redo are status changes too: recorded in the node's history and in `state.json` like
//! any other, never a rewrite of what was recorded.

use crate::review::status::{self, Change};
use crate::review::{Actor, ReviewNode, Status};
use crate::ui::state::{AppState, DraftStep, MessageKind, RowKey, Step, Undoable};

use super::engine::refresh;
use super::selection::reveal;
use super::{Effect, info, message};

/// Where a change comes from: a new decision clears what could be redone.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Origin {
    New,
    Undo,
    Redo,
}

/// Changes a node's status as the person, through the status service, and remembers how to
/// take it back.
pub(super) fn change(state: &mut AppState, id: &str, change: Change) -> Vec<Effect> {
    change_all(state, &[id.to_string()], change)
}

/// Changes every node of `ids` the same way, as one step of the undo history. Findings the
/// change does not apply to (already in that status, or refused) are left as they are and
/// counted in the one message that says what happened.
pub(super) fn change_all(state: &mut AppState, ids: &[String], change: Change) -> Vec<Effect> {
    // A problem dismissed or resolved takes its folded duplicates with it: they are the same
    // problem, and left open they would come back as new open findings.
    let mut ids = ids.to_vec();
    let mut folded = 0;
    if matches!(change, Change::Dismiss { .. } | Change::Resolve { .. }) {
        let duplicates: Vec<String> = state
            .board
            .nodes
            .iter()
            .filter(|n| {
                n.status.is_active()
                    && n.duplicate_of.as_ref().is_some_and(|of| ids.contains(of))
                    && !ids.contains(&n.id)
            })
            .map(|n| n.id.clone())
            .collect();
        folded = duplicates.len();
        ids.extend(duplicates);
    }
    let (steps, effects) = apply_all(state, &ids, &change, Origin::New);
    if folded > 0
        && let Some(message) = state.message.as_mut()
    {
        message.text.push_str(&format!(
            " (with {} folded under {})",
            crate::ui::text::plural(folded, "duplicate"),
            if ids.len() - folded == 1 {
                "it"
            } else {
                "them"
            }
        ));
    }
    if !steps.is_empty() {
        state.undo.push(Undoable {
            steps,
            drafts: Vec::new(),
            room: None,
        });
        state.redo.clear();
    }
    effects
}

/// Applies `change` to each of `ids`; a single finding keeps its own message, several get one
/// summary.
fn apply_all(
    state: &mut AppState,
    ids: &[String],
    change: &Change,
    origin: Origin,
) -> (Vec<Step>, Vec<Effect>) {
    let mut steps = Vec::new();
    let mut effects = Vec::new();
    for id in ids {
        let (step, effect) = apply(state, id, change.clone(), origin);
        steps.extend(step);
        effects.extend(effect);
    }
    if ids.len() > 1 {
        let prefix = match origin {
            Origin::New => "",
            Origin::Undo => "undone: ",
            Origin::Redo => "redone: ",
        };
        let unchanged = ids.len() - effects.len();
        let mut text = format!(
            "{prefix}{} {}",
            verb(change),
            crate::ui::text::plural(effects.len(), "finding")
        );
        if unchanged > 0 {
            text.push_str(&format!(" ({unchanged} unchanged: already so, or refused)"));
        }
        state.say(MessageKind::Info, text);
    }
    (steps, effects)
}

fn verb(change: &Change) -> &'static str {
    match change {
        Change::Confirm { .. } => "confirmed",
        Change::Dispute { .. } => "disputed",
        Change::Resolve { .. } => "resolved",
        Change::Dismiss { .. } => "dismissed",
        Change::Reopen => "reopened",
        Change::Withdraw => "withdrew the confirmation of",
    }
}

fn apply(
    state: &mut AppState,
    id: &str,
    change: Change,
    origin: Origin,
) -> (Option<Step>, Option<Effect>) {
    let actor = Actor::Person(state.person.clone());
    let at = state.now.clone();
    let name = state.label(id);
    let Some(node) = state.node_mut(id) else {
        return (None, None);
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
                return (None, None);
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
            let step = inverse(&before, &change).map(|undo| Step {
                node_id: id.to_string(),
                done: change.clone(),
                undo,
            });
            // Consolidation and disagreements read a status only as active or not, and the
            // status service changes nothing else they read: a confirmation leaves them as
            // they are, and recomputing them would cost a keypress tens of milliseconds.
            if node.status.is_active() == before.status.is_active() {
                state.refresh_verdict();
            } else {
                refresh(state);
            }
            let effect = Effect::PersistStatus {
                node_id: id.to_string(),
                change,
                node,
                suppression: applied.suppression,
            };
            (step, Some(effect))
        }
        Err(err) => {
            // A person knows a finding by its title, never by its id (`engineer-2`).
            state.say(MessageKind::Error, err.to_string().replace(id, &name));
            (None, None)
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

/// `u`: takes back the last change (every finding of it, last first), selecting its finding.
pub(super) fn undo(state: &mut AppState) -> Vec<Effect> {
    let Some(entry) = state.undo.pop() else {
        state.say(MessageKind::Warn, "nothing to undo".to_string());
        return Vec::new();
    };
    if !entry.drafts.is_empty() {
        return take_back(state, entry, true);
    }
    if let Some(step) = entry.room {
        return super::room::undo(state, step);
    }
    let mut effects = Vec::new();
    let mut undone = Vec::new();
    for step in entry.steps.iter().rev() {
        let (done, effect) = apply(state, &step.node_id, step.undo.clone(), Origin::Undo);
        if done.is_some() || effect.is_some() {
            undone.push(step.clone());
        }
        effects.extend(effect);
    }
    if entry.steps.len() > 1 {
        let text = format!(
            "undone: {} of the {} changes made at once",
            effects.len(),
            entry.steps.len()
        );
        state.say(MessageKind::Info, text);
    }
    if let Some(first) = entry.steps.first() {
        show(state, &first.node_id);
    }
    if effects.is_empty() {
        // The findings changed since (a reviewer, a new round): the entry no longer applies.
        return effects;
    }
    undone.reverse();
    state.redo.push(Undoable {
        steps: undone,
        drafts: Vec::new(),
        room: None,
    });
    effects
}

/// `ctrl-r`: makes the last undone change again.
pub(super) fn redo(state: &mut AppState) -> Vec<Effect> {
    let Some(entry) = state.redo.pop() else {
        state.say(MessageKind::Warn, "nothing to redo".to_string());
        return Vec::new();
    };
    if !entry.drafts.is_empty() {
        return take_back(state, entry, false);
    }
    if let Some(step) = entry.room {
        return super::room::redo(state, step);
    }
    let mut effects = Vec::new();
    let mut steps = Vec::new();
    for step in &entry.steps {
        let (done, effect) = apply(state, &step.node_id, step.done.clone(), Origin::Redo);
        steps.extend(done);
        effects.extend(effect);
    }
    if entry.steps.len() > 1 {
        let text = format!("redone: {} changes at once", effects.len());
        state.say(MessageKind::Info, text);
    }
    if !steps.is_empty() {
        state.undo.push(Undoable {
            steps,
            drafts: Vec::new(),
            room: None,
        });
    }
    if let Some(first) = entry.steps.first() {
        show(state, &first.node_id);
    }
    effects
}

/// `u` (`undo`) or `ctrl-r` (not `undo`) on a step of drafts: each change's opposite, last
/// first when undoing, through the session like the change itself. A draft posted since is
/// on the PR and stays: said, not taken back.
fn take_back(state: &mut AppState, entry: Undoable, undo: bool) -> Vec<Effect> {
    if state.review_running() {
        // The running round owns the space until it ends: the step waits, kept.
        if undo {
            state.undo.push(entry);
        } else {
            state.redo.push(entry);
        }
        message(
            state,
            MessageKind::Warn,
            "the review is still running: change the thread drafts when it is done".to_string(),
        );
        return Vec::new();
    }
    let mut steps = entry.drafts;
    if undo {
        steps.reverse();
    }
    let mut effects = Vec::new();
    let mut done = Vec::new();
    let mut said = Vec::new();
    for step in steps {
        let (draft, put_back) = match (&step, undo) {
            (DraftStep::Put(d), true) | (DraftStep::Deleted(d), false) => (d, false),
            (DraftStep::Put(d), false) | (DraftStep::Deleted(d), true) => (d, true),
            (
                DraftStep::Raised {
                    fingerprint,
                    what,
                    included,
                },
                _,
            ) => {
                // Undo sets the other choice; redo the one made.
                let include = *included != undo;
                effects.extend(super::gate::set_raised(state, fingerprint, include));
                said.push(match include {
                    true => format!("included {what}"),
                    false => format!("left out {what}"),
                });
                done.push(step);
                continue;
            }
            (
                DraftStep::Axis {
                    axis,
                    before,
                    after,
                },
                _,
            ) => {
                let over = if undo { before.clone() } else { after.clone() };
                effects.extend(super::axis_override::set(state, axis, over.clone()));
                said.push(match over {
                    Some(o) => format!("{axis} overridden by {}: {}", o.by, o.reason),
                    None => format!("{axis} no longer overridden"),
                });
                done.push(step);
                continue;
            }
        };
        if state
            .thread_drafts
            .iter()
            .any(|d| d.id == draft.id && d.posted)
        {
            said.push(format!(
                "{} was posted: it stays on the pull request",
                draft.id
            ));
            continue;
        }
        let present = state.thread_drafts.iter().any(|d| d.id == draft.id);
        if put_back && !present {
            state.thread_drafts.push(draft.clone());
            effects.push(Effect::PutThreadDraft(Box::new(draft.clone())));
            said.push(format!("{} drafted again", draft.id));
        } else if !put_back && present {
            state.thread_drafts.retain(|d| d.id != draft.id);
            effects.push(Effect::DeleteThreadDraft(draft.id.clone()));
            said.push(format!("{} deleted", draft.id));
        } else {
            continue;
        }
        done.push(step);
    }
    let word = if undo { "undone" } else { "redone" };
    info(state, format!("{word}: {}", said.join(", ")));
    if !done.is_empty() {
        if undo {
            done.reverse();
        }
        let entry = Undoable {
            steps: Vec::new(),
            drafts: done,
            room: None,
        };
        if undo {
            state.redo.push(entry);
        } else {
            state.undo.push(entry);
        }
    }
    effects
}

fn show(state: &mut AppState, id: &str) {
    reveal(state, id);
    state.findings.selected = Some(RowKey::Node(id.to_string()));
    state.detail.scroll = 0;
}
