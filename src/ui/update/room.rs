//! The review room in the cockpit: asking a reviewer about the selected finding or the whole
//! change, the answers as they stream in, accepting a reviewer's proposal, and the person's own
//! findings from a finding's lines (the diff view's are `diff_comment`'s).

use crate::review::person;
use crate::review::status::Change;
use crate::review::thread::{self, ProposedChange, Thread};
use crate::ui::command::Command;
use crate::ui::state::{AppState, InputPurpose, MessageKind, RowKey};

use super::diff_comment::{open, start_comment};
use super::{Effect, info, message, triage, with_selected};

/// The room's commands on the main screen: whether they can act now.
pub(super) fn available(state: &AppState, command: Command) -> Option<bool> {
    let node = state.selected_node();
    Some(match command {
        Command::Ask => node.is_some() && !state.review_running(),
        Command::AskChange => !state.review_running(),
        Command::CancelAnswer => answering(state).is_some(),
        Command::AcceptProposal => {
            !state.review_running() && node.is_some_and(|n| pending(state, &n.id).is_some())
        }
        Command::AddComment => node.is_some_and(|n| n.anchor.is_some()),
        Command::DeleteComment => node.is_some_and(person::is_person),
        _ => return None,
    })
}

/// The room's commands on the main screen.
pub(super) fn command(state: &mut AppState, command: Command) -> Option<Vec<Effect>> {
    Some(match command {
        Command::Ask => with_selected(state, "ask about", |state, id| {
            open(state, InputPurpose::Ask { node_id: Some(id) }, "");
            Vec::new()
        }),
        Command::AskChange => {
            open(state, InputPurpose::Ask { node_id: None }, "");
            Vec::new()
        }
        Command::CancelAnswer => match answering(state) {
            Some(id) => {
                info(state, "stopping the answer…".to_string());
                vec![Effect::CancelAsk(id)]
            }
            None => {
                info(state, "no answer is coming".to_string());
                Vec::new()
            }
        },
        Command::AcceptProposal => with_selected(state, "accept a proposal for", accept),
        Command::AddComment => with_selected(state, "comment on", |state, id| {
            let Some(anchor) = state.node(&id).and_then(|n| n.anchor.clone()) else {
                message(
                    state,
                    MessageKind::Warn,
                    "this finding names no lines".into(),
                );
                return Vec::new();
            };
            start_comment(state, anchor);
            Vec::new()
        }),
        Command::DeleteComment => with_selected(state, "delete", |state, id| {
            if !state.node(&id).is_some_and(person::is_person) {
                message(
                    state,
                    MessageKind::Warn,
                    "only your own findings are deleted: dismiss a reviewer's".into(),
                );
                return Vec::new();
            }
            let label = state.label(&id);
            state.board.nodes.retain(|n| n.id != id);
            state.selected = None;
            state.refresh();
            info(state, format!("{label} deleted"));
            vec![Effect::DeleteFinding(id)]
        }),
        _ => return None,
    })
}

/// The text box's text, submitted.
pub(super) fn submit(state: &mut AppState, purpose: InputPurpose, text: String) -> Vec<Effect> {
    match purpose {
        InputPurpose::Ask { node_id } => {
            let question = text.trim().to_string();
            if question.is_empty() {
                return Vec::new();
            }
            let id = thread::next_id(&state.threads);
            let reviewer = node_id
                .as_deref()
                .and_then(|id| state.node(id))
                .filter(|n| n.origin.source == crate::review::node::Source::Model)
                .map_or_else(|| "engineer".to_string(), |n| n.origin.reviewer.clone());
            info(
                state,
                format!("asked the {reviewer}: the answer comes in the detail"),
            );
            vec![Effect::Ask {
                thread: id,
                finding: node_id,
                question,
            }]
        }
        InputPurpose::Comment { node_id, mut draft } => {
            let (priority, kind, text) = weigh(&text);
            draft.priority = priority.unwrap_or(draft.priority);
            draft.kind = kind.unwrap_or(draft.kind);
            draft.text = text;
            if let Err(why) = person::check(&node_id, &draft) {
                message(state, MessageKind::Warn, why.to_string());
                return Vec::new();
            }
            let node = person::finding(&node_id, &state.person, &draft);
            let label = format!(
                "{} {}",
                draft.priority,
                crate::ui::text::kind_label(draft.kind)
            );
            state.board.nodes.push(node);
            state.refresh();
            state.selected = Some(RowKey::Node(node_id.clone()));
            info(state, format!("your {label} added at {}", draft.anchor));
            vec![Effect::PutFinding { node_id, draft }]
        }
        _ => Vec::new(),
    }
}

/// A first line that starts with a priority and a kind (`P1 bug: title`, `P0: title`) sets
/// them; the rest is the text.
fn weigh(
    text: &str,
) -> (
    Option<crate::review::node::Priority>,
    Option<crate::review::node::Kind>,
    String,
) {
    use crate::review::node::{Kind, Priority};
    let trimmed = text.trim_start();
    let Some((head, rest)) = trimmed.split_once(':') else {
        return (None, None, text.to_string());
    };
    let mut priority = None;
    let mut kind = None;
    for word in head.split_whitespace() {
        if let Some(p) = Priority::parse(word) {
            priority = Some(p);
        } else if let Some(k) = Kind::ALL
            .into_iter()
            .find(|k| k.as_str() == word.to_ascii_lowercase())
        {
            kind = Some(k);
        } else {
            return (None, None, text.to_string());
        }
    }
    if priority.is_none() && kind.is_none() {
        return (None, None, text.to_string());
    }
    (priority, kind, rest.trim_start().to_string())
}

/// The answer still coming about the selected finding, else about the whole change.
fn answering(state: &AppState) -> Option<String> {
    let node = state.selected_node();
    state
        .threads
        .iter()
        .rev()
        .filter(|t| t.state.is_open())
        .find(|t| node.is_some_and(|n| t.is_about(n)) || t.finding.is_none())
        .map(|t| t.id.clone())
}

/// The last thread about finding `id` with a proposal nobody answered.
fn pending<'a>(state: &'a AppState, id: &str) -> Option<&'a Thread> {
    let node = state.node(id)?;
    state
        .threads
        .iter()
        .rev()
        .filter(|t| t.is_about(node))
        .find(|t| t.proposal.as_ref().is_some_and(|p| p.accepted.is_none()))
}

/// Accepts the pending proposal about finding `id`: the session applies it as the person's
/// decision; the cockpit shows it at once (a withdrawal as a dismissal `u` takes back).
fn accept(state: &mut AppState, id: String) -> Vec<Effect> {
    let Some(thread) = pending(state, &id).cloned() else {
        message(
            state,
            MessageKind::Warn,
            "no proposal to accept here".into(),
        );
        return Vec::new();
    };
    let Some(proposal) = thread.proposal.clone() else {
        return Vec::new();
    };
    let why = format!("{} {}", thread.reviewer, proposal.describe());
    let mut effects = Vec::new();
    match &proposal.change {
        ProposedChange::Withdraw => {
            // Shown and undone like any dismissal; the session records it through the thread.
            let shown = triage::change(
                state,
                &id,
                Change::Dismiss {
                    reason: why.clone(),
                },
            );
            if shown.is_empty() {
                return Vec::new();
            }
        }
        ProposedChange::Reclassify { priority, kind } => {
            if let Some(node) = state.node_mut(&id) {
                node.priority = priority.unwrap_or(node.priority);
                node.kind = kind.unwrap_or(node.kind);
            }
            state.refresh();
        }
    }
    if let Some(t) = state.threads.iter_mut().find(|t| t.id == thread.id)
        && let Some(p) = t.proposal.as_mut()
    {
        p.accepted = Some(true);
    }
    info(state, format!("accepted: {why}"));
    effects.push(Effect::Proposal {
        thread: thread.id,
        accepted: Some(true),
    });
    effects
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_first_line_can_weigh_the_comment() {
        use crate::review::node::{Kind, Priority};
        assert_eq!(
            weigh("P1 bug: off by one\nmore"),
            (
                Some(Priority::P1),
                Some(Kind::Bug),
                "off by one\nmore".into()
            )
        );
        assert_eq!(
            weigh("P0: leaks"),
            (Some(Priority::P0), None, "leaks".into())
        );
        assert_eq!(
            weigh("Note: this is fine"),
            (None, None, "Note: this is fine".into())
        );
        assert_eq!(weigh("plain"), (None, None, "plain".into()));
    }
}
