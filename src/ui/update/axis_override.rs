//! `x` on a gated axis's reason row: the person overrides the axis, with a required reason
//! (`review::axis_override`). One step of the undo history; the session keeps it in the space.

use super::{Effect, info, message};
use crate::review::axis_override::{AxisOverride, result_hash};
use crate::ui::state::{AppState, DraftStep, InputPurpose, MessageKind, Overlay, RowKey, Undoable};

/// The gated axis the selected reason row names, when it holds the verdict.
fn selected_axis(state: &AppState) -> Option<String> {
    let Some(RowKey::Reason(key)) = &state.findings.selected else {
        return None;
    };
    let name = key.strip_prefix("axis:")?;
    state
        .axes
        .iter()
        .any(|a| a.name == name && a.gated && !a.verdict.clears_gate())
        .then(|| name.to_string())
}

/// `x` on a reason row: asks why for an axis; `None` when the selection is not a reason row.
pub(super) fn ask(state: &mut AppState) -> Option<Vec<Effect>> {
    let Some(RowKey::Reason(key)) = state.findings.selected.clone() else {
        return None;
    };
    if state.review_running() {
        let text = "the review is still running: override the axis when it is done";
        message(state, MessageKind::Warn, text.to_string());
        return Some(Vec::new());
    }
    let Some(axis) = selected_axis(state) else {
        let text = format!("{key} is not a gated axis: only an axis can be overridden");
        message(state, MessageKind::Warn, text);
        return Some(Vec::new());
    };
    state
        .overlays
        .push(Overlay::input(InputPurpose::OverrideAxis { axis }, ""));
    Some(Vec::new())
}

/// The reason typed: the override of `axis` as it stands now, bound to its result.
pub(super) fn submit(state: &mut AppState, axis: &str, reason: String) -> Vec<Effect> {
    let Some(result) = state.axes.iter().find(|a| a.name == axis).map(result_hash) else {
        return Vec::new();
    };
    let after = AxisOverride {
        axis: axis.to_string(),
        result,
        by: state.person.clone(),
        reason,
    };
    let before = state
        .axis_overrides
        .iter()
        .find(|o| o.axis == axis)
        .cloned();
    state.undo.push(Undoable {
        steps: Vec::new(),
        drafts: vec![DraftStep::Axis {
            axis: axis.to_string(),
            before,
            after: Some(after.clone()),
        }],
        room: None,
    });
    state.redo.clear();
    info(
        state,
        format!("{axis} overridden by {}: {}", after.by, after.reason),
    );
    set(state, axis, Some(after))
}

/// Sets (or takes back) the override of `axis`, in the cockpit and through the session.
pub(super) fn set(state: &mut AppState, axis: &str, over: Option<AxisOverride>) -> Vec<Effect> {
    state.axis_overrides.retain(|o| o.axis != axis);
    state.axis_overrides.extend(over.clone());
    vec![Effect::OverrideAxis {
        axis: axis.to_string(),
        over,
    }]
}
