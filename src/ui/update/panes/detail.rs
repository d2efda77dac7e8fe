//! The detail pane: it scrolls, zooms to fill the screen, and hands enter back to the list.

use crate::ui::state::{AppState, Pane};

use super::super::Effect;
use super::PaneKeys;

pub(super) struct Detail;

impl PaneKeys for Detail {
    fn move_by(&self, state: &mut AppState, delta: isize) {
        let scroll = state.detail.scroll as isize + delta;
        state.detail.scroll = scroll.clamp(0, state.layout.detail_scroll_max as isize) as u16;
    }

    fn expand(&self, state: &mut AppState) {
        state.focus = Pane::Findings;
    }
}

/// The mouse wheel over the pane.
pub(super) fn wheel(state: &mut AppState, delta: i16) {
    state.detail.scroll = state
        .detail
        .scroll
        .saturating_add_signed(delta)
        .min(state.layout.detail_scroll_max);
}

pub(super) fn zoom(state: &mut AppState) -> Vec<Effect> {
    state.detail.zoomed = !state.detail.zoomed;
    state.focus = if state.detail.zoomed {
        Pane::Detail
    } else {
        Pane::Findings
    };
    Vec::new()
}
