//! The status line: the keys that can run now — an open overlay's own, else the focused
//! pane's (from the keymap and the component's `available`, so they are always the real ones),
//! or a transient message; the essentials (help and quit, or an overlay's way back) stay at
//! its end either way, however narrow the terminal.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};

use super::ViewContext;
use crate::ui::command::Command;
use crate::ui::keymap::{Context, Hint};
use crate::ui::state::{AppState, InputOverlay, MessageKind, Overlay};
use crate::ui::update::for_context;

/// The fewest lines a message may take at the bottom; a taller terminal gives it a third.
const MESSAGE_LINES: u16 = 4;

/// The bottom lines: the message's (one at least, so the hints never jump) and the hints'.
pub(super) fn height(state: &AppState, width: u16, screen_height: u16) -> u16 {
    let lines = state.message.as_ref().map_or(1, |m| {
        Paragraph::new(format!(" {}", m.text))
            .wrap(Wrap { trim: false })
            .line_count(width.max(1)) as u16
    });
    lines.clamp(1, MESSAGE_LINES.max(screen_height / 3)) + 1
}

pub(super) fn draw(frame: &mut Frame, area: Rect, state: &AppState, cx: &ViewContext) {
    if area.height == 0 {
        return;
    }
    let theme = &cx.theme;
    let [message_area, hints_area] =
        Layout::vertical([Constraint::Length(area.height - 1), Constraint::Length(1)]).areas(area);
    if let Some(message) = &state.message {
        let style = match message.kind {
            MessageKind::Info => theme.message_info,
            MessageKind::Warn => theme.message_warn,
            MessageKind::Error => theme.message_error,
        };
        // Whole, wrapped: the end of a message is often where its information is.
        frame.render_widget(
            Paragraph::new(format!(" {}", message.text))
                .style(style)
                .wrap(Wrap { trim: false }),
            message_area,
        );
    }
    let top = crate::ui::update::top(state);
    frame.render_widget(
        Paragraph::new(hints(state, top, hints_area.width, cx)),
        hints_area,
    );
}

/// The keys of what has focus: an open overlay's own (a text box's when one is open), else
/// the focused pane's. The essentials (help and quit, or an overlay's way back) come first,
/// then the others in table order while they fit.
fn hints(
    state: &AppState,
    top: &dyn crate::ui::update::Component,
    width: u16,
    cx: &ViewContext,
) -> Line<'static> {
    let theme = &cx.theme;
    // A text box takes every key: its own are the only ones that work.
    if let Some(Overlay::Input(input)) = state.top_overlay() {
        return text_box_hints(input, width, cx);
    }
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
    let cost = |hint: &Hint| super::width(&hint.key) + super::width(hint.what) + 3;
    let title = format!(" {label} ");
    let mut room = width as usize;
    // A narrow line drops its name before any key.
    let named = room >= 60;
    room = room.saturating_sub(if named { super::width(&title) } else { 1 });
    // Which fit: help, quit and the way back before anything, then the other first keys,
    // then the rest in table order.
    let mut order: Vec<usize> = (0..hints.len()).collect();
    order.sort_by_key(|&i| {
        let hint = &hints[i];
        let vital = matches!(hint.command, Command::Help | Command::Quit | Command::Close);
        (!vital, hint.first.is_none(), hint.first, i)
    });
    let mut shown = vec![false; hints.len()];
    for i in order {
        if cost(&hints[i]) <= room {
            room -= cost(&hints[i]);
            shown[i] = true;
        }
    }
    // Drawn with the first keys first, in their order.
    let mut drawn: Vec<&Hint> = hints
        .iter()
        .zip(&shown)
        .filter(|(_, s)| **s)
        .map(|(h, _)| h)
        .collect();
    drawn.sort_by_key(|h| (h.first.is_none(), h.first));
    let mut spans = Vec::new();
    if named {
        spans.push(Span::styled(title, theme.title));
    } else {
        spans.push(Span::raw(" "));
    }
    for hint in drawn {
        spans.push(Span::styled(hint.key.clone(), theme.key_hint));
        spans.push(Span::styled(format!(" {}  ", hint.what), theme.muted));
    }
    Line::from(spans)
}

/// A text box's own keys (the comment editor's, or a one-line box's), most needed first: a
/// narrow line drops its name, then the last keys, never a key's end.
fn text_box_hints(input: &InputOverlay, width: u16, cx: &ViewContext) -> Line<'static> {
    let theme = &cx.theme;
    let keys: &[(&str, &str)] = if input.purpose.multiline() {
        &[
            ("ctrl-s", "save"),
            ("esc", "cancel"),
            ("enter", "new line"),
            ("ctrl-e", "$EDITOR"),
        ]
    } else {
        &[("enter", "submit"), ("esc", "cancel")]
    };
    let cost = |(key, what): &(&str, &str)| super::width(key) + super::width(what) + 3;
    let title = " Text box ";
    let whole = super::width(title) + keys.iter().map(cost).sum::<usize>();
    let mut room = width as usize;
    let mut spans = if whole <= room {
        room -= super::width(title);
        vec![Span::styled(title, theme.title)]
    } else {
        room = room.saturating_sub(1);
        vec![Span::raw(" ")]
    };
    for key in keys {
        if cost(key) > room {
            break;
        }
        room -= cost(key);
        spans.push(Span::styled(key.0.to_string(), theme.key_hint));
        spans.push(Span::styled(format!(" {}  ", key.1), theme.muted));
    }
    Line::from(spans)
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
        Context::Threads => "Threads",
        Context::Inbox => "Inbox",
    }
}
