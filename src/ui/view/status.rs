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
            let title = format!(" {} ", state.focus.title());
            let hints = cx.keymap.hints(state.focus);
            let cost = |key: &str, what: &str| super::width(key) + super::width(what) + 3;
            // Help and quit always stay; the others fit in what is left, in table order.
            let essentials: usize = hints
                .iter()
                .filter(|h| h.2)
                .map(|(k, w, _)| cost(k, w))
                .sum();
            let mut room = (area.width as usize)
                .saturating_sub(super::width(&title))
                .saturating_sub(essentials);
            let mut spans = vec![Span::styled(title, theme.title)];
            let mut shown = Vec::new();
            for (key, what, essential) in &hints {
                if !essential {
                    if cost(key, what) > room {
                        room = 0;
                        continue;
                    }
                    room -= cost(key, what);
                }
                shown.push((key, what));
            }
            for (key, what) in shown {
                spans.push(Span::styled(key.clone(), theme.key_hint));
                spans.push(Span::styled(format!(" {what}  "), theme.muted));
            }
            Line::from(spans)
        }
    };
    frame.render_widget(Paragraph::new(line), area);
}
