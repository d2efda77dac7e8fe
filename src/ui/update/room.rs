//! The review room in the cockpit: asking a reviewer about the selected finding or the whole
//! change, the answers as they stream in, accepting a reviewer's proposal, and the person's own
//! findings from a finding's lines (the diff view's are `diff_comment`'s).

use crate::review::person::{self, PersonDraft};
use crate::review::status::{self, Change};
use crate::review::thread::{self, ProposedChange, Thread};
use crate::review::{Actor, ReviewNode};
use crate::ui::command::Command;
use crate::ui::state::{
    AppState, EditedBox, InputPurpose, MessageKind, RoomStep, RowKey, TerminalJob, Undoable,
};

use super::diff_comment::{open, start_comment};
use super::{Effect, info, message, with_selected};

/// The room's commands on the main screen: whether they can act now.
pub(super) fn available(state: &AppState, command: Command) -> Option<bool> {
    let node = state.selected_node();
    Some(match command {
        // While a round runs the question waits for it (the session keeps it meanwhile).
        Command::Ask => node.is_some(),
        Command::AskChange => true,
        Command::CancelAnswer => answering(state).is_some(),
        // Journaled while a round runs, like every decision of the person's.
        Command::AcceptProposal => node.is_some_and(|n| pending(state, &n.id).is_some()),
        Command::AddComment => node.is_some_and(|n| n.anchor.is_some()),
        Command::DeleteComment => node.is_some_and(person::is_person),
        _ => return None,
    })
}

/// The room's commands on the main screen.
pub(super) fn command(state: &mut AppState, command: Command) -> Option<Vec<Effect>> {
    Some(match command {
        Command::EditComment => return edit_own(state, false),
        Command::EditInEditor => return edit_own(state, true),
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
            let before = state.node(&id).cloned().map(Box::new);
            put_node(state, &id, None);
            done(
                state,
                RoomStep::Finding {
                    node_id: id.clone(),
                    before,
                    after: None,
                },
            );
            info(state, format!("{label} deleted (u brings it back)"));
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
                .filter(|n| n.origin.source == crate::review::Source::Model)
                .map_or_else(|| "engineer".to_string(), |n| n.origin.reviewer.clone());
            let when = if state.review_running() {
                "when the review round ends"
            } else {
                "in the detail"
            };
            info(
                state,
                format!("asked the {reviewer}: the answer comes {when}"),
            );
            vec![Effect::Ask {
                thread: id,
                finding: node_id,
                question,
            }]
        }
        InputPurpose::Comment { node_id, mut draft } => {
            let (text, replacement) = suggestion(&text);
            let (priority, kind, text) = weigh(&text);
            draft.priority = priority.unwrap_or(draft.priority);
            draft.kind = kind.unwrap_or(draft.kind);
            draft.text = text;
            draft.replacement = replacement;
            if let Err(why) = person::check(&node_id, &draft) {
                message(state, MessageKind::Warn, why.to_string());
                return Vec::new();
            }
            let before = state.node(&node_id).cloned();
            if before.as_ref().is_some_and(|n| !person::is_person(n)) {
                message(
                    state,
                    MessageKind::Warn,
                    "only your own findings are edited: dismiss a reviewer's".into(),
                );
                return Vec::new();
            }
            let after = match &before {
                Some(node) => {
                    let mut node = node.clone();
                    person::edit(&mut node, &draft);
                    node
                }
                None => person::finding(&node_id, &state.person, &draft),
            };
            let label = format!(
                "{} {}",
                draft.priority,
                crate::ui::text::kind_label(draft.kind)
            );
            let verb = if before.is_some() { "changed" } else { "added" };
            put_node(state, &node_id, Some(after.clone()));
            done(
                state,
                RoomStep::Finding {
                    node_id: node_id.clone(),
                    before: before.map(Box::new),
                    after: Some(Box::new(after)),
                },
            );
            info(state, format!("your {label} {verb} at {}", draft.anchor));
            vec![Effect::PutFinding { node_id, draft }]
        }
        _ => Vec::new(),
    }
}

/// `e` (`E`: in the editor) on the person's own finding: the finding itself is edited (its
/// words, priority, kind and replacement lines) in the box it was written in, not a comment
/// generated from it. Anything else is `None`: the panes' own `e` and `E`.
fn edit_own(state: &mut AppState, in_editor: bool) -> Option<Vec<Effect>> {
    if state.top_overlay().is_some() {
        return None;
    }
    let node = state.selected_node().filter(|n| person::is_person(n))?;
    let draft = PersonDraft::of(node)?;
    let purpose = InputPurpose::Comment {
        node_id: node.id.clone(),
        draft: draft.clone(),
    };
    let text = draft_text(&draft);
    if in_editor {
        state.terminal_jobs.push(TerminalJob::EditBox(EditedBox {
            purpose,
            original: text.clone(),
            typed: text,
        }));
    } else {
        open(state, purpose, &text);
    }
    Some(Vec::new())
}

/// The fence that starts the exact lines that should replace the anchored ones (GitHub's
/// suggestion block: what a publish posts them as).
const SUGGESTION: &str = "```suggestion";

/// A draft as the box shows it: `P1 bug: title`, the body, then its replacement lines.
fn draft_text(draft: &PersonDraft) -> String {
    let mut text = format!("{} {}: {}", draft.priority, draft.kind.as_str(), draft.text);
    if let Some(lines) = &draft.replacement {
        text.push_str(&format!("\n{SUGGESTION}\n"));
        for line in lines {
            text.push_str(line);
            text.push('\n');
        }
        text.push_str("```");
    }
    text
}

/// The text without its suggestion block, and the block's lines (`None`: no block). A block
/// left open runs to the end.
fn suggestion(text: &str) -> (String, Option<Vec<String>>) {
    let mut kept = Vec::new();
    let mut lines = text.lines();
    let mut replacement = None;
    for line in lines.by_ref() {
        if line.trim() == SUGGESTION {
            let block: Vec<String> = lines
                .by_ref()
                .take_while(|l| l.trim() != "```")
                .map(str::to_string)
                .collect();
            replacement = Some(block);
            break;
        }
        kept.push(line);
    }
    kept.extend(lines);
    (kept.join("\n").trim_end().to_string(), replacement)
}

/// Puts `node` in the list under `id` (`None`: takes it out) and selects it.
fn put_node(state: &mut AppState, id: &str, node: Option<ReviewNode>) {
    match (state.board.nodes.iter().position(|n| n.id == id), node) {
        (Some(i), Some(node)) => state.board.nodes[i] = node,
        (None, Some(node)) => state.board.nodes.push(node),
        (Some(i), None) => {
            state.board.nodes.remove(i);
        }
        (None, None) => {}
    }
    state.findings.selected = state
        .node(id)
        .is_some()
        .then(|| RowKey::Node(id.to_string()));
    state.refresh();
}

/// A room change made: on the undo history, as one step.
fn done(state: &mut AppState, step: RoomStep) {
    state.undo.push(Undoable {
        steps: Vec::new(),
        drafts: Vec::new(),
        room: Some(step),
    });
    state.redo.clear();
}

/// `u` on a room change: the finding as it was before, and the session told so.
pub(super) fn undo(state: &mut AppState, step: RoomStep) -> Vec<Effect> {
    let effects = take(state, &step, true);
    if !effects.is_empty() {
        state.redo.push(Undoable {
            steps: Vec::new(),
            drafts: Vec::new(),
            room: Some(step),
        });
    }
    effects
}

/// `ctrl-r` on a room change undone: made again.
pub(super) fn redo(state: &mut AppState, step: RoomStep) -> Vec<Effect> {
    let effects = take(state, &step, false);
    if !effects.is_empty() {
        state.undo.push(Undoable {
            steps: Vec::new(),
            drafts: Vec::new(),
            room: Some(step),
        });
    }
    effects
}

/// Puts back the finding as it was before `step` (`back`) or after it.
fn take(state: &mut AppState, step: &RoomStep, back: bool) -> Vec<Effect> {
    let prefix = if back { "undone" } else { "redone" };
    match step {
        RoomStep::Finding {
            node_id,
            before,
            after,
        } => {
            let node = if back { before } else { after };
            let node = node.as_deref().cloned();
            let effect = match node.as_ref().and_then(PersonDraft::of) {
                Some(draft) => Effect::PutFinding {
                    node_id: node_id.clone(),
                    draft,
                },
                None => Effect::DeleteFinding(node_id.clone()),
            };
            let what = if node.is_some() {
                "back as it was"
            } else {
                "taken out"
            };
            put_node(state, node_id, node);
            info(state, format!("{prefix}: your {node_id} {what}"));
            vec![effect]
        }
        RoomStep::Proposal {
            thread,
            node_id,
            before,
            after,
        } => {
            if state.node(node_id).is_none() {
                message(
                    state,
                    MessageKind::Warn,
                    format!("{prefix}: nothing, the finding is no longer in the round"),
                );
                return Vec::new();
            }
            let node = if back { before } else { after };
            put_node(state, node_id, Some(node.as_ref().clone()));
            let accepted = (!back).then_some(true);
            if let Some(p) = state
                .threads
                .iter_mut()
                .find(|t| &t.id == thread)
                .and_then(|t| t.proposal.as_mut())
            {
                p.accepted = accepted;
            }
            let label = state.label(node_id);
            let text = if back {
                format!("{prefix}: the proposal on {label} is open again")
            } else {
                format!("{prefix}: the proposal on {label} accepted")
            };
            info(state, text);
            vec![Effect::Proposal {
                thread: thread.clone(),
                accepted,
            }]
        }
    }
}

/// A first line that starts with a priority and a kind (`P1 bug: title`, `P0: title`) sets
/// them; the rest is the text.
fn weigh(
    text: &str,
) -> (
    Option<crate::review::Priority>,
    Option<crate::review::Kind>,
    String,
) {
    use crate::review::{Kind, Priority};
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
    let Some(before) = state.node(&id).cloned() else {
        return Vec::new();
    };
    // Shown at once as the session will record it (a withdrawal as the person's dismissal
    // with the reviewer's reason); the session applies it through the thread, so `u` takes
    // back the acceptance, not just the status.
    let mut after = before.clone();
    match &proposal.change {
        ProposedChange::Withdraw => {
            let actor = Actor::Person(state.person.clone());
            let change = Change::Dismiss {
                reason: why.clone(),
            };
            if let Err(err) = status::apply(&mut after, change, &actor, &state.now) {
                let text = err.to_string().replace(&id, &state.label(&id));
                message(state, MessageKind::Error, text);
                return Vec::new();
            }
        }
        ProposedChange::Reclassify { priority, kind } => {
            after.priority = priority.unwrap_or(after.priority);
            after.kind = kind.unwrap_or(after.kind);
        }
    }
    put_node(state, &id, Some(after.clone()));
    if let Some(t) = state.threads.iter_mut().find(|t| t.id == thread.id)
        && let Some(p) = t.proposal.as_mut()
    {
        p.accepted = Some(true);
    }
    done(
        state,
        RoomStep::Proposal {
            thread: thread.id.clone(),
            node_id: id,
            before: Box::new(before),
            after: Box::new(after),
        },
    );
    info(state, format!("accepted: {why} (u takes it back)"));
    vec![Effect::Proposal {
        thread: thread.id,
        accepted: Some(true),
    }]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_first_line_can_weigh_the_comment() {
        use crate::review::{Kind, Priority};
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

    #[test]
    fn a_suggestion_block_gives_the_replacement_lines_and_comes_back_the_same() {
        use crate::review::{Kind, Priority};
        let (text, lines) = suggestion("off by one\nbody\n```suggestion\n    x - 1\n```\nafter");
        assert_eq!(text, "off by one\nbody\nafter");
        assert_eq!(lines, Some(vec!["    x - 1".to_string()]));
        assert_eq!(suggestion("plain"), ("plain".to_string(), None));
        let anchor = crate::review::Anchor {
            path: "src/a.rs".try_into().unwrap(),
            side: crate::diff::Side::Right,
            start_line: 1,
            end_line: 2,
        };
        let mut draft = PersonDraft::new(anchor, "title\nbody");
        draft.priority = Priority::P1;
        draft.kind = Kind::Bug;
        draft.replacement = Some(vec!["a".into(), String::new(), "b".into()]);
        let shown = draft_text(&draft);
        let (text, lines) = suggestion(&shown);
        assert_eq!(lines, draft.replacement);
        assert_eq!(
            weigh(&text),
            (Some(Priority::P1), Some(Kind::Bug), "title\nbody".into())
        );
    }
}
