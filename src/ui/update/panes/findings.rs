//! The findings pane: moving and unfolding in the list, and what the keys do to the selected
//! finding (or a range, a cohort, a rule fold of them): triage, the comment, the marks.

use crate::review::Actor;
use crate::review::Change;
use crate::ui::command::Command;
use crate::ui::keymap::Context;
use crate::ui::rows::{self, Row};
use crate::ui::state::{
    AppState, EditedBox, InputPurpose, MessageKind, Overlay, Pane, RowKey, TerminalJob,
};

use super::super::diff::open_in_editor;
use super::super::selection::move_on;
use super::super::triage;
use super::super::{Effect, info, message, with_selected};
use super::{PaneKeys, step, toggle};

pub(super) struct Findings;

impl PaneKeys for Findings {
    fn move_by(&self, state: &mut AppState, delta: isize) {
        move_findings(state, delta);
    }

    fn expand(&self, state: &mut AppState) {
        match state.findings.selected.clone() {
            Some(RowKey::Cohort(key)) => toggle(&mut state.findings.collapsed, key),
            Some(RowKey::Below(key)) => toggle(&mut state.findings.below_open, key),
            Some(RowKey::Rule(key)) => toggle(&mut state.findings.rules_open, key),
            // A reason's detail: the axis's why, each break with its file and line.
            Some(RowKey::Reason(_)) => state.focus = Pane::Detail,
            Some(RowKey::Node(id)) => {
                let has_duplicates = rows::rows(state).iter().any(|row| {
                    matches!(row, Row::Node { id: row_id, duplicates, .. } if *row_id == id && *duplicates > 0)
                });
                if has_duplicates || state.findings.expanded.contains(&id) {
                    toggle(&mut state.findings.expanded, id);
                } else {
                    state.focus = Pane::Detail;
                }
            }
            None => {}
        }
    }
}

pub(super) fn move_findings(state: &mut AppState, delta: isize) {
    let keys: Vec<RowKey> = rows::rows(state).iter().map(Row::key).collect();
    let next = step(&keys, state.findings.selected.as_ref(), delta);
    if next != state.findings.selected {
        state.detail.scroll = 0;
    }
    state.findings.selected = next;
}

/// A click on the list: focus it, select the row under the mouse (a second click on a fold
/// opens it).
pub(super) fn click(state: &mut AppState, row: u16) {
    state.focus = Pane::Findings;
    if let Some((_, key)) = state.layout.finding_rows.iter().find(|(y, _)| *y == row) {
        let key = key.clone();
        if state.findings.selected.as_ref() == Some(&key) && !matches!(key, RowKey::Node(_)) {
            Findings.expand(state);
        } else {
            if state.findings.selected.as_ref() != Some(&key) {
                state.detail.scroll = 0;
            }
            state.findings.selected = Some(key);
        }
    }
}

pub(super) fn confirm(state: &mut AppState) -> Vec<Effect> {
    with_selected(state, "confirm", |state, id| {
        let effects = triage::change(
            state,
            &id,
            Change::Confirm {
                note: String::new(),
            },
        );
        move_on(state, &id, &effects);
        effects
    })
}

pub(super) fn select_range(state: &mut AppState) -> Vec<Effect> {
    if state.findings.range.take().is_none() {
        state.findings.range = state.findings.selected.clone();
        if state.findings.range.is_some() {
            info(
                state,
                "range: move to extend it; confirm, dismiss or resolve act on all of it"
                    .to_string(),
            );
        }
    }
    Vec::new()
}

pub(super) fn resolve(state: &mut AppState) -> Vec<Effect> {
    with_selected(state, "resolve", |state, id| {
        let effects = triage::change(state, &id, Change::Resolve { note: None });
        move_on(state, &id, &effects);
        effects
    })
}

pub(super) fn reopen(state: &mut AppState) -> Vec<Effect> {
    with_selected(state, "reopen", |state, id| {
        let Some(node) = state.node(&id) else {
            return Vec::new();
        };
        let me = Actor::Person(state.person.clone());
        if !node.status.is_active() {
            triage::change(state, &id, Change::Reopen)
        } else if node.confirmations.iter().any(|s| s.by == me) {
            // Open again from consensus-ready: take the person's confirmation back.
            triage::change(state, &id, Change::Withdraw)
        } else {
            let text = format!("{} is {}: nothing to reopen", state.label(&id), node.status);
            message(state, MessageKind::Warn, text);
            Vec::new()
        }
    })
}

pub(super) fn dismiss(state: &mut AppState) -> Vec<Effect> {
    with_selected(state, "dismiss", |state, id| {
        if let Some(node) = state.node(&id).filter(|n| !n.status.is_active()) {
            let text = format!(
                "{} is already {}: {} reopens it",
                state.label(&id),
                node.status,
                state.key(Context::Main, Command::Reopen)
            );
            message(state, MessageKind::Warn, text);
            return Vec::new();
        }
        state.overlays.push(Overlay::input(
            InputPurpose::Dismiss { node_ids: vec![id] },
            "",
        ));
        Vec::new()
    })
}

pub(super) fn edit_in_editor(state: &mut AppState) -> Vec<Effect> {
    // From a multi-line box (a comment, a question, a reply): what is typed so far goes to the
    // editor, and the box comes back with what the editor left.
    let typed = match state.top_overlay() {
        Some(Overlay::Input(input)) if input.purpose.multiline() => Some(EditedBox {
            purpose: input.purpose.clone(),
            original: input.original.clone(),
            typed: input.text(),
        }),
        _ => None,
    };
    if let Some(edited) = typed {
        state.overlays.pop();
        state.terminal_jobs.push(TerminalJob::EditBox(edited));
    } else {
        return with_selected(state, "edit", |state, id| {
            let text = state
                .node(&id)
                .map(|n| state.comment_text(n))
                .unwrap_or_default();
            state
                .terminal_jobs
                .push(TerminalJob::Editor { node_id: id, text });
            Vec::new()
        });
    }
    Vec::new()
}

pub(super) fn yank(state: &mut AppState) -> Vec<Effect> {
    with_selected(state, "copy", |state, id| {
        let Some(node) = state.node(&id) else {
            return Vec::new();
        };
        let text = match &node.anchor {
            Some(anchor) => format!("{}:{}", anchor.path, anchor.start_line),
            None => node.text.title.clone(),
        };
        info(state, format!("copied {text}"));
        state.terminal_jobs.push(TerminalJob::Clipboard(text));
        Vec::new()
    })
}

pub(super) fn open_selected_in_editor(state: &mut AppState) -> Vec<Effect> {
    with_selected(state, "open in the editor", |state, id| {
        let at = state
            .node(&id)
            .and_then(|n| n.anchor.as_ref())
            .map(|a| (a.path.clone(), a.start_line));
        match at {
            Some((path, line)) => open_in_editor(state, &path, line),
            None => message(
                state,
                MessageKind::Warn,
                "this finding names no file".to_string(),
            ),
        }
        Vec::new()
    })
}

pub(super) fn edit_comment(state: &mut AppState) -> Vec<Effect> {
    with_selected(state, "edit", |state, id| {
        let text = state
            .node(&id)
            .map(|n| state.comment_text(n))
            .unwrap_or_default();
        state.overlays.push(Overlay::input(
            InputPurpose::EditComment { node_id: id },
            &text,
        ));
        Vec::new()
    })
}

pub(super) fn toggle_mark(state: &mut AppState) -> Vec<Effect> {
    if let Some(RowKey::Node(id)) = state.findings.selected.clone()
        && !state.findings.marked.remove(&id)
    {
        state.findings.marked.insert(id);
    }
    Vec::new()
}

pub(super) fn filter(state: &mut AppState) -> Vec<Effect> {
    let previous = state.findings.filter.clone();
    state.overlays.push(Overlay::input(
        InputPurpose::Filter { previous },
        &state.findings.filter,
    ));
    Vec::new()
}
