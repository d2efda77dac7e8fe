//! The disagreements pane: a pair of findings selected, enter jumping between its two.

use crate::ui::state::{AppState, Pane, RowKey};

use super::super::selection::reveal;
use super::super::{Effect, info};
use super::{PaneKeys, focus, step};

pub(super) struct Disagreements;

impl PaneKeys for Disagreements {
    fn move_by(&self, state: &mut AppState, delta: isize) {
        let pairs: Vec<(String, String)> = state
            .disagreements()
            .iter()
            .map(|d| (d.a.clone(), d.b.clone()))
            .collect();
        state.disagreements.selected = step(&pairs, state.disagreements.selected.as_ref(), delta);
    }

    fn expand(&self, state: &mut AppState) {
        let Some((a, b)) = state.disagreements.selected.clone() else {
            return;
        };
        let target = if state.findings.selected == Some(RowKey::Node(a.clone())) {
            b
        } else {
            a
        };
        reveal(state, &target);
        state.findings.selected = Some(RowKey::Node(target));
        state.detail.scroll = 0;
    }

    fn focused(&self, state: &mut AppState) {
        if state.disagreements.selected.is_none() {
            state.disagreements.selected = state
                .disagreements()
                .first()
                .map(|d| (d.a.clone(), d.b.clone()));
        }
    }
}

pub(super) fn focus_disagreements(state: &mut AppState) -> Vec<Effect> {
    if state.disagreements().is_empty() {
        info(state, "no disagreements".to_string());
    } else {
        focus(state, Pane::Disagreements);
    }
    Vec::new()
}
