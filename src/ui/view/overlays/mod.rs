//! The overlay stack, drawn bottom to top: help, the approval gate, the publish preview, text
//! boxes and errors; the diff view and the threads list are views of their own. One file per
//! overlay, as `ui::update` has one component each.

mod error;
mod gate;
mod help;
mod log;
mod patch;
mod preview;
mod text_box;

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::Span;
use ratatui::widgets::Block;

use super::ViewContext;
use crate::ui::state::{AppState, Overlay};

/// Draws the stack; returns where the diff view's lines landed (zero when it is not open)
/// and how far the top overlay can scroll.
pub(super) fn draw(
    frame: &mut Frame,
    area: Rect,
    state: &AppState,
    cx: &ViewContext,
) -> (Rect, u16) {
    let mut diff_lines = Rect::default();
    let mut scroll_max = 0;
    for overlay in &state.overlays {
        scroll_max = 0;
        match overlay {
            Overlay::Help { scroll } => scroll_max = help::draw(frame, area, state, *scroll, cx),
            Overlay::Gate { details, scroll } => {
                scroll_max = gate::draw(frame, area, state, *details, *scroll, cx)
            }
            Overlay::PreviewPending => preview::pending(frame, area, cx),
            Overlay::Preview {
                data,
                scroll,
                raised,
            } => scroll_max = preview::draw(frame, area, state, data, (*scroll, *raised), cx),
            Overlay::Input(input) => text_box::draw(frame, area, state, input, cx),
            Overlay::Error { title, message } => error::draw(frame, area, title, message, cx),
            // Above the bottom lines: what `n`, `N` or a jump says stays in sight.
            Overlay::Diff(view) => {
                let status = super::status::height(state, area.width, area.height);
                let above = Rect {
                    height: area.height.saturating_sub(status),
                    ..area
                };
                diff_lines = super::diff::draw(frame, above, state, view, cx)
            }
            Overlay::Patch { scroll } => scroll_max = patch::draw(frame, area, state, *scroll, cx),
            Overlay::Log { scroll } => scroll_max = log::draw(frame, area, state, *scroll, cx),
            Overlay::Threads { cursor } => {
                super::review_threads::draw(frame, area, state, *cursor, cx)
            }
        }
    }
    (diff_lines, scroll_max)
}

pub(super) fn boxed<'a>(title: String, cx: &ViewContext) -> Block<'a> {
    Block::bordered()
        .title(Span::styled(title, cx.theme.title))
        .border_style(cx.theme.border_focused)
}
