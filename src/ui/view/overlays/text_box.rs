//! A text box: a reason, a comment, a question, a reply; the filter as a line.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Clear, Paragraph, Wrap};

use super::boxed;
use crate::ui::state::{AppState, InputOverlay, InputPurpose};
use crate::ui::view::{ViewContext, centered};

pub(super) fn draw(
    frame: &mut Frame,
    area: Rect,
    state: &AppState,
    input: &InputOverlay,
    cx: &ViewContext,
) {
    let theme = &cx.theme;
    let (title, hint, height) = match &input.purpose {
        InputPurpose::Dismiss { node_ids } => (
            if node_ids.len() == 1 {
                format!(" Dismiss {} — why? (required) ", state.label(&node_ids[0]))
            } else {
                format!(" Dismiss {} findings — why? (required) ", node_ids.len())
            },
            "enter dismiss · esc cancel",
            7,
        ),
        InputPurpose::OverrideAxis { axis } => (
            format!(" Override {axis} — why? (required) "),
            "enter override · esc cancel",
            7,
        ),
        InputPurpose::EditComment { node_id } => (
            format!(" Comment to post for {} ", state.label(node_id)),
            "ctrl-s save · ctrl-e $EDITOR · esc cancel · empty restores the generated text",
            area.height.saturating_sub(4).clamp(8, 24),
        ),
        InputPurpose::Ask { node_id } => (
            match node_id {
                Some(id) => format!(" Ask about {} ", state.label(id)),
                None => " Ask about the whole change ".to_string(),
            },
            "ctrl-s ask · esc cancel · the answer streams into the detail",
            area.height.saturating_sub(4).clamp(6, 14),
        ),
        InputPurpose::Comment { draft, .. } => (
            format!(
                " Your comment at {} ",
                crate::printable::line(&draft.anchor.to_string())
            ),
            "ctrl-s add · esc cancel · first line `P1 bug: title` sets priority and kind (default P2 suggestion)",
            area.height.saturating_sub(4).clamp(6, 14),
        ),
        InputPurpose::Reply { thread } => (
            format!(
                " Reply to {} ",
                state
                    .review_threads
                    .iter()
                    .find(|t| t.id == *thread)
                    .map_or_else(String::new, |t| format!(
                        "@{} on {}",
                        crate::printable::line(t.author()),
                        crate::printable::line(&t.path)
                    ))
            ),
            "ctrl-s save the draft (posted by the next publish) · esc cancel",
            area.height.saturating_sub(4).clamp(6, 14),
        ),
        InputPurpose::Filter { .. } => (
            " Filter ".to_string(),
            "words, @reviewer, p0…p3, is:open · enter keep · esc restore",
            5,
        ),
    };
    if matches!(input.purpose, InputPurpose::Filter { .. }) {
        filter_line(frame, area, input, hint, cx);
        return;
    }
    let rect = centered(area, 80, height);
    frame.render_widget(Clear, rect);
    let block = boxed(title, cx);
    let inner = block.inner(rect);
    frame.render_widget(block, rect);
    let note_line = match &input.error {
        Some(error) => Line::from(Span::styled(error.clone(), theme.message_error)),
        None => Line::from(Span::styled(hint, theme.muted)),
    };
    let note = Paragraph::new(note_line).wrap(Wrap { trim: true });
    let note_height = (note.line_count(inner.width) as u16).min(inner.height.saturating_sub(1));
    let [text, bottom] =
        Layout::vertical([Constraint::Fill(1), Constraint::Length(note_height)]).areas(inner);
    let mut textarea = input.textarea.clone();
    textarea.set_style(theme.text);
    textarea.set_cursor_line_style(ratatui::style::Style::default());
    // A cursor that shows in every theme, NO_COLOR included.
    textarea.set_cursor_style(
        ratatui::style::Style::default().add_modifier(ratatui::style::Modifier::REVERSED),
    );
    frame.render_widget(&textarea, text);
    frame.render_widget(note, bottom);
}

/// The filter as it is typed, in the status line like a pager's search: the list it
/// filters stays in view above it.
fn filter_line(frame: &mut Frame, area: Rect, input: &InputOverlay, hint: &str, cx: &ViewContext) {
    let theme = &cx.theme;
    let line = Rect {
        x: area.x,
        y: area.bottom().saturating_sub(1),
        width: area.width,
        height: 1.min(area.height),
    };
    frame.render_widget(Clear, line);
    let problem = crate::ui::rows::Filter::parse(&input.text())
        .problems
        .into_iter()
        .next();
    // The note whole, or not at all for the hint (the help lists the filter's words); an
    // error cut with a mark. The typed text keeps 16 columns.
    let room = (line.width as usize).saturating_sub(9 + 16);
    let note_line = match input.error.clone().or(problem) {
        Some(error) => Span::styled(
            format!("{} ", crate::ui::view::truncate(&error, room)),
            theme.message_error,
        ),
        None if crate::ui::view::width(hint) < room => {
            Span::styled(format!("{hint} "), theme.muted)
        }
        None => Span::raw(""),
    };
    let hint_width = (note_line.width() as u16 + 1).min(line.width);
    let [prompt, text, note] = Layout::horizontal([
        Constraint::Length(9),
        Constraint::Fill(1),
        Constraint::Length(hint_width),
    ])
    .areas(line);
    frame.render_widget(
        Paragraph::new(Span::styled(" filter /", theme.key_hint)),
        prompt,
    );
    let mut textarea = input.textarea.clone();
    textarea.set_style(theme.text);
    textarea.set_cursor_line_style(ratatui::style::Style::default());
    frame.render_widget(&textarea, text);
    frame.render_widget(
        Paragraph::new(note_line).alignment(ratatui::layout::Alignment::Right),
        note,
    );
}
