//! The reviewers pane: a reviewer selected, its findings filtered on enter, and which one the
//! stop key can stop.

use crate::review::Role;
use crate::ui::state::{AppState, Pane};

use super::{PaneKeys, step};

pub(super) struct Reviewers;

impl PaneKeys for Reviewers {
    fn move_by(&self, state: &mut AppState, delta: isize) {
        let names: Vec<String> = reviewer_order(state)
            .into_iter()
            .map(str::to_string)
            .collect();
        state.reviewers.selected = step(&names, state.reviewers.selected.as_ref(), delta);
    }

    fn expand(&self, state: &mut AppState) {
        if let Some(name) = state.reviewers.selected.clone() {
            state.findings.filter = format!("@{name}");
            state.focus = Pane::Findings;
        }
    }

    fn focused(&self, state: &mut AppState) {
        if state.reviewers.selected.is_none() {
            state.reviewers.selected = reviewer_order(state).first().map(|s| s.to_string());
        }
    }
}

/// The reviewers in display order: the roles in roster order, then the deterministic ones.
pub fn reviewer_order(state: &AppState) -> Vec<&str> {
    let mut names: Vec<&str> = state.board.reviewers.keys().map(String::as_str).collect();
    names.sort_by_key(|name| {
        let role = Role::ALL.iter().position(|r| r.as_str() == *name);
        (role.unwrap_or(Role::ALL.len()), name.to_string())
    });
    names
}

/// The model reviewer selected in the focused reviewers pane, while it queues or reads.
pub(super) fn stoppable(state: &AppState) -> Option<&str> {
    use crate::review::ReviewerPhase;
    let name = state
        .reviewers
        .selected
        .as_deref()
        .filter(|_| state.focus == Pane::Reviewers)?;
    let phase = state.board.reviewers.get(name).map(|r| r.phase);
    (Role::ALL.iter().any(|role| role.as_str() == name)
        && matches!(phase, Some(ReviewerPhase::Queued | ReviewerPhase::Reading)))
    .then_some(name)
}
