//! The event log: what ran, failed, waited and was posted this session.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Clear, Paragraph, Wrap};

use super::boxed;
use crate::ui::command::Command;
use crate::ui::keymap::Context;
use crate::ui::state::AppState;
use crate::ui::view::{ViewContext, centered};

/// The event log, oldest first, opening at its newest line: time, then what happened. Each
/// line is escaped (reviewer names, titles and server replies are untrusted) and wraps.
pub(super) fn draw(
    frame: &mut Frame,
    area: Rect,
    state: &AppState,
    scroll: u16,
    cx: &ViewContext,
) -> u16 {
    use crate::ui::log::Level;
    let theme = &cx.theme;
    let rect = centered(
        area,
        area.width.saturating_sub(4).clamp(40, 140),
        area.height.saturating_sub(2),
    );
    frame.render_widget(Clear, rect);
    let mut lines = Vec::new();
    if state.log.dropped > 0 {
        lines.push(Line::from(Span::styled(
            format!("… {} older lines forgotten", state.log.dropped),
            theme.muted,
        )));
    }
    if state.log.is_empty() {
        lines.push(Line::from(Span::styled(
            "nothing has happened yet in this session",
            theme.muted,
        )));
    }
    for entry in state.log.entries() {
        let (mark, style) = match entry.level {
            Level::Info => ("  ", theme.text),
            Level::Warn => ("! ", theme.message_warn),
            Level::Error => ("✗ ", theme.message_error),
        };
        lines.push(Line::from(vec![
            Span::styled(format!("{:<9}", entry.at), theme.muted),
            Span::styled(mark, style),
            Span::styled(crate::ui::view::shown(&entry.text), style),
        ]));
    }
    crate::ui::view::scrolled(
        frame,
        rect,
        boxed(
            format!(
                " Event log ({}) · {} scroll · {} newest · any other key closes ",
                state.log.len(),
                cx.keymap.scroll_keys(Context::Log),
                cx.keymap.key(Context::Log, Command::Bottom)
            ),
            cx,
        ),
        Paragraph::new(lines).wrap(Wrap { trim: false }),
        scroll,
        cx,
    )
}
