//! The status line: the keys that can run now — an open overlay's own, else the focused
//! pane's (from the keymap and the component's `available`, so they are always the real ones),
//! or a transient message; the essentials (help and quit, or an overlay's way back) stay at
//! its end either way, however narrow the terminal.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use super::ViewContext;
use crate::ui::keymap::Context;
use crate::ui::state::{AppState, MessageKind};
use crate::ui::update::for_context;

pub fn draw(frame: &mut Frame, area: Rect, state: &AppState, cx: &ViewContext) {
    let theme = &cx.theme;
    // The keys of what takes them: an open overlay's own, else the focused pane's.
    let top = crate::ui::update::top(state);
    let (label, hints) = match top.context() {
        Context::Main => {
            let panes = for_context(Context::Main);
            (
                state.focus.title(),
                cx.keymap
                    .hints(state.focus, |command| panes.available(state, command)),
            )
        }
        context => (
            overlay_title(context),
            cx.keymap
                .overlay_hints(context, |command| top.available(state, command)),
        ),
    };
    let cost = |key: &str, what: &str| super::width(key) + super::width(what) + 3;
    let (essentials, others): (Vec<_>, Vec<_>) = hints.iter().partition(|h| h.2);
    let essentials_width: usize = essentials.iter().map(|(k, w, _)| cost(k, w)).sum();
    let room = (area.width as usize).saturating_sub(essentials_width);
    let mut spans = Vec::new();
    match &state.message {
        Some(message) => {
            let style = match message.kind {
                MessageKind::Info => theme.message_info,
                MessageKind::Warn => theme.message_warn,
                MessageKind::Error => theme.message_error,
            };
            // The message first, cut to leave help and quit their place at the end.
            let text = super::pad(&format!(" {}", message.text), room);
            spans.push(Span::styled(text, style));
        }
        None => {
            let title = format!(" {label} ");
            let mut room = room.saturating_sub(super::width(&title));
            spans.push(Span::styled(title, theme.title));
            // The others fit in what is left, in table order.
            for (key, what, _) in others {
                if cost(key, what) > room {
                    room = 0;
                    continue;
                }
                room -= cost(key, what);
                spans.push(Span::styled(key.clone(), theme.key_hint));
                spans.push(Span::styled(format!(" {what}  "), theme.muted));
            }
        }
    }
    for (key, what, _) in essentials {
        spans.push(Span::styled(key.clone(), theme.key_hint));
        spans.push(Span::styled(format!(" {what}  "), theme.muted));
    }
    frame.render_widget(Paragraph::new(Line::from(spans)), area);
}

/// The hint bar's name for an overlay's keys.
fn overlay_title(context: Context) -> &'static str {
    match context {
        Context::Main => "Findings",
        Context::Gate => "Gate",
        Context::Preview => "Preview",
        Context::Help => "Help",
        Context::Diff => "Diff",
        Context::Patch => "Patch",
        Context::Log => "Log",
    }
}
