//! Text boxes: the dismiss reason, the filter and the comment editor, and the comment the
//! person's own editor left.

use crate::review::Change;
use crate::ui::action::Action;
use crate::ui::rows;
use crate::ui::state::{
    AppState, EditedBox, InputOverlay, InputPurpose, MessageKind, Overlay, generated_comment,
};

use super::selection::move_on;
use super::triage;
use super::{Effect, info, message};

/// Typing, submitting or cancelling the top text box; the editor's text coming back.
pub(super) fn typed(state: &mut AppState, action: Action) -> Vec<Effect> {
    match action {
        Action::Text(input) => {
            if let Some(Overlay::Input(overlay)) = state.overlays.last_mut() {
                overlay.textarea.input(input);
                overlay.error = None;
                overlay.confirm_discard = false;
                if matches!(overlay.purpose, InputPurpose::Filter { .. }) {
                    state.findings.filter = overlay.text().trim().to_string();
                }
            }
        }
        Action::Submit => return submit(state),
        Action::Cancel => {
            if let Some(Overlay::Input(overlay)) = state.overlays.last_mut() {
                // An edited comment is work: the first esc asks, the second throws it away.
                if overlay.purpose.multiline() && overlay.changed() && !overlay.confirm_discard {
                    overlay.confirm_discard = true;
                    overlay.error =
                        Some("unsaved edit: esc again throws it away · ctrl-s saves".to_string());
                    return Vec::new();
                }
                if let InputPurpose::Filter { previous } = &overlay.purpose {
                    state.findings.filter = previous.clone();
                }
                let discarded = overlay.purpose.multiline() && overlay.changed();
                state.overlays.pop();
                if discarded {
                    info(
                        state,
                        "edit thrown away: the comment is as it was".to_string(),
                    );
                }
            }
        }
        Action::EditorClosed { node_id, text } => match text {
            Ok(text) if text.trim().is_empty() => {
                let text = format!(
                    "the editor left {} empty: the comment is unchanged",
                    state.label(&node_id)
                );
                message(state, MessageKind::Warn, text);
            }
            Ok(text) => return save_comment(state, node_id, text),
            Err(why) => message(state, MessageKind::Error, why.to_string()),
        },
        Action::BoxEdited { edited, text } => reopen(state, edited, text),
        _ => {}
    }
    Vec::new()
}

/// The box handed to the editor opens again: with what the editor left, or, when it left
/// nothing or could not run, with what was typed before (and the reason under it).
fn reopen(
    state: &mut AppState,
    edited: EditedBox,
    text: Result<String, crate::ui::editor::EditorError>,
) {
    let (text, problem) = match text {
        Ok(text) if text.trim().is_empty() => (
            edited.typed,
            Some("the editor left the file empty: your text is as it was".to_string()),
        ),
        Ok(text) => (text, None),
        Err(why) => (edited.typed, Some(format!("{why}: your text is as it was"))),
    };
    let mut overlay = InputOverlay::new(edited.purpose, &text);
    overlay.original = edited.original;
    // Back where the text ends, to go on typing.
    overlay
        .textarea
        .move_cursor(ratatui_textarea::CursorMove::Bottom);
    overlay
        .textarea
        .move_cursor(ratatui_textarea::CursorMove::End);
    match problem {
        Some(problem) => {
            message(state, MessageKind::Warn, problem.clone());
            overlay.error = Some(problem);
        }
        None => info(
            state,
            "back from the editor: ctrl-s sends, esc leaves".to_string(),
        ),
    }
    state.overlays.push(Overlay::Input(Box::new(overlay)));
}

fn submit(state: &mut AppState) -> Vec<Effect> {
    let Some(Overlay::Input(overlay)) = state.overlays.last_mut() else {
        return Vec::new();
    };
    let text = overlay.text();
    match overlay.purpose.clone() {
        InputPurpose::Dismiss { node_ids } => {
            let reason = text.trim().to_string();
            if reason.is_empty() {
                overlay.error = Some("a reason is required to dismiss".to_string());
                return Vec::new();
            }
            state.overlays.pop();
            // One reason, one step of the undo history, however many findings.
            let effects = triage::change_all(state, &node_ids, Change::Dismiss { reason });
            for id in &node_ids {
                state.findings.marked.remove(id);
            }
            state.findings.range = None;
            if let [id] = node_ids.as_slice()
                && state.overlays.is_empty()
            {
                move_on(state, id, &effects);
            }
            effects
        }
        InputPurpose::OverrideAxis { axis } => {
            let reason = text.trim().to_string();
            if reason.is_empty() {
                overlay.error = Some("a reason is required to override".to_string());
                return Vec::new();
            }
            state.overlays.pop();
            super::axis_override::submit(state, &axis, reason)
        }
        InputPurpose::EditComment { node_id } => {
            state.overlays.pop();
            save_comment(state, node_id, text)
        }
        InputPurpose::Reply { thread } => {
            if text.trim().is_empty() {
                overlay.error = Some("write something first (esc leaves)".to_string());
                return Vec::new();
            }
            state.overlays.pop();
            super::threads::submit_reply(state, &thread, text)
        }
        purpose @ (InputPurpose::Ask { .. } | InputPurpose::Comment { .. }) => {
            if text.trim().is_empty() {
                overlay.error = Some("write something first (esc leaves)".to_string());
                return Vec::new();
            }
            state.overlays.pop();
            super::room::submit(state, purpose, text)
        }
        InputPurpose::Filter { .. } => {
            state.findings.filter = text.trim().to_string();
            state.overlays.pop();
            if let Some(problem) = rows::Filter::parse(&state.findings.filter).problems.first() {
                let text = format!("{problem}: nothing can match");
                message(state, MessageKind::Warn, text);
            }
            Vec::new()
        }
    }
}

/// Keeps `text` as the comment to post for `node_id` (the generated text or an empty one
/// goes back to generating it).
pub(super) fn save_comment(state: &mut AppState, node_id: String, text: String) -> Vec<Effect> {
    let generated = state.node(&node_id).map(generated_comment);
    let text = (Some(text.clone()) != generated && !text.trim().is_empty()).then_some(text);
    match &text {
        Some(text) => {
            state.comments.insert(node_id.clone(), text.clone());
        }
        None => {
            state.comments.remove(&node_id);
        }
    }
    let name = state.label(&node_id);
    info(state, format!("{name}: comment saved"));
    vec![Effect::SaveComment { node_id, text }]
}
