//! The status line: the transient message when there is one, otherwise the keys of the
//! focused pane (from the keymap, so they are always the real ones).

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use super::ViewContext;
use crate::ui::state::{AppState, MessageKind};

pub fn draw(frame: &mut Frame, area: Rect, state: &AppState, cx: &ViewContext) {
    let theme = &cx.theme;
    let line = match &state.message {
        Some(message) => {
            let style = match message.kind {
                MessageKind::Info => theme.message_info,
                MessageKind::Warn => theme.message_warn,
                MessageKind::Error => theme.message_error,
            };
            Line::from(Span::styled(format!(" {}", message.text), style))
        }
        None => {
            let mut spans = vec![Span::styled(
                format!(" {} ", state.focus.title()),
                theme.title,
            )];
            for (key, what) in cx.keymap.hints(state.focus) {
                spans.push(Span::styled(key, theme.key_hint));
                spans.push(Span::styled(format!(" {what}  "), theme.muted));
            }
            Line::from(spans)
        }
    };
    frame.render_widget(Paragraph::new(line), area);
}
