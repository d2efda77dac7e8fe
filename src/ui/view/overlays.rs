//! The overlay stack, drawn bottom to top: help, the approval gate, the publish preview, text
//! boxes and errors.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Paragraph, Wrap};

use super::{ViewContext, centered, pad, percent};
use crate::review::Priority;
use crate::ui::action::Action;
use crate::ui::keymap::Context;
use crate::ui::state::{AppState, InputOverlay, InputPurpose, Overlay, PreviewData};

/// Draws the stack; returns where the diff view's lines landed (zero when it is not open).
pub fn draw(frame: &mut Frame, area: Rect, state: &AppState, cx: &ViewContext) -> Rect {
    let mut diff_lines = Rect::default();
    for overlay in &state.overlays {
        match overlay {
            Overlay::Help { scroll } => help(frame, area, *scroll, cx),
            Overlay::Gate { details } => gate(frame, area, state, *details, cx),
            Overlay::PreviewPending => pending(frame, area, cx),
            Overlay::Preview { data, scroll } => preview(frame, area, data, *scroll, cx),
            Overlay::Input(input) => text_box(frame, area, state, input, cx),
            Overlay::Error { title, message } => error(frame, area, title, message, cx),
            Overlay::Diff(view) => diff_lines = super::diff::draw(frame, area, state, view, cx),
        }
    }
    diff_lines
}

fn boxed<'a>(title: String, cx: &ViewContext) -> Block<'a> {
    Block::bordered()
        .title(Span::styled(title, cx.theme.title))
        .border_style(cx.theme.border_focused)
}

fn help(frame: &mut Frame, area: Rect, scroll: u16, cx: &ViewContext) {
    let theme = &cx.theme;
    let rect = centered(area, 112, area.height.saturating_sub(2));
    let mut lines = Vec::new();
    for context in [
        Context::Main,
        Context::Diff,
        Context::Gate,
        Context::Preview,
    ] {
        if !lines.is_empty() {
            lines.push(Line::raw(""));
        }
        lines.push(Line::from(Span::styled(context.title(), theme.title)));
        for binding in cx.keymap.bindings.iter().filter(|b| b.context == context) {
            let keys = if binding.keys.is_empty() {
                "(unbound)".to_string()
            } else {
                binding
                    .keys
                    .iter()
                    .map(|k| k.to_string())
                    .collect::<Vec<_>>()
                    .join(" ")
            };
            lines.push(Line::from(vec![
                Span::styled(format!("  {}", pad(&keys, 14)), theme.key_hint),
                Span::styled(pad(binding.action.name().unwrap_or(""), 16), theme.muted),
                Span::styled(binding.desc, theme.text),
            ]));
        }
    }
    lines.push(Line::raw(""));
    lines.push(Line::from(Span::styled(
        "Text boxes: enter submits (ctrl-s in the comment editor), esc cancels. Mouse: wheel scrolls, click selects.",
        theme.muted,
    )));
    frame.render_widget(Clear, rect);
    frame.render_widget(
        Paragraph::new(lines)
            .block(boxed(
                " Keys · j/k scroll · any other key closes ".to_string(),
                cx,
            ))
            .wrap(Wrap { trim: false })
            .scroll((scroll, 0)),
        rect,
    );
}

fn gate(frame: &mut Frame, area: Rect, state: &AppState, details: bool, cx: &ViewContext) {
    let theme = &cx.theme;
    let mut lines = Vec::new();
    match &state.verdict {
        Some(verdict) => {
            lines.push(Line::from(vec![
                Span::styled("Verdict   ", theme.muted),
                Span::styled(
                    format!(" {} ", verdict.decision.label().to_uppercase()),
                    theme.decision(verdict.decision),
                ),
                Span::styled(
                    format!("  confidence {}", percent(verdict.confidence)),
                    theme.text,
                ),
            ]));
            let reasons: Vec<&String> = if details {
                verdict.reasons.iter().collect()
            } else {
                verdict.reasons.iter().take(1).collect()
            };
            for reason in reasons {
                lines.push(Line::from(Span::styled(
                    format!("          {reason}"),
                    theme.text,
                )));
            }
            if !details && verdict.reasons.len() > 1 {
                lines.push(Line::from(Span::styled(
                    format!("          … {} more (d)", verdict.reasons.len() - 1),
                    theme.muted,
                )));
            }
            let c = &verdict.counts;
            let mut counts = vec![Span::styled("Findings  ", theme.muted)];
            for (priority, n) in [
                (Priority::P0, c.p0),
                (Priority::P1, c.p1),
                (Priority::P2, c.p2),
                (Priority::P3, c.p3),
            ] {
                counts.push(Span::styled(
                    format!("{priority} {n}"),
                    theme.priority(priority),
                ));
                counts.push(Span::raw("   "));
            }
            lines.push(Line::raw(""));
            lines.push(Line::from(counts));
            lines.push(Line::from(Span::styled(
                format!(
                    "          counted {} · duplicates {} · out of scope {} · resolved {} · dismissed {}",
                    c.counted, c.duplicates, c.out_of_scope, c.resolved, c.dismissed
                ),
                theme.muted,
            )));
        }
        None => lines.push(Line::from(Span::styled("no verdict yet", theme.muted))),
    }
    if !state.marked.is_empty() {
        lines.push(Line::from(Span::styled(
            format!(
                "          {} marked: fix and ignore act on them",
                state.marked.len()
            ),
            theme.marked,
        )));
    }
    if let Some(target) = &state.published {
        lines.push(Line::raw(""));
        lines.push(Line::from(vec![
            Span::styled("Published ", theme.muted),
            Span::styled(format!(" round {}: {target}", state.round), theme.text),
        ]));
        lines.push(Line::from(Span::styled(
            "          this round is done: a new push to the PR starts the next one",
            theme.muted,
        )));
    }
    lines.push(Line::raw(""));
    for binding in cx
        .keymap
        .bindings
        .iter()
        .filter(|b| b.context == Context::Gate)
        // A round is published once: the gate stops offering it.
        .filter(|b| !(state.published.is_some() && b.action == Action::GatePublish))
    {
        let keys = binding
            .keys
            .iter()
            .map(|k| k.to_string())
            .collect::<Vec<_>>()
            .join("/");
        lines.push(Line::from(vec![
            Span::styled(format!("  {}", pad(&keys, 6)), theme.key_hint),
            Span::styled(binding.desc, theme.text),
        ]));
    }
    let height = lines.len() as u16 + 2;
    let rect = centered(area, 92, height);
    frame.render_widget(Clear, rect);
    frame.render_widget(
        Paragraph::new(lines)
            .block(boxed(
                " Approval gate — nothing is posted without you ".to_string(),
                cx,
            ))
            .wrap(Wrap { trim: false }),
        rect,
    );
}

fn pending(frame: &mut Frame, area: Rect, cx: &ViewContext) {
    let rect = centered(area, 50, 3);
    frame.render_widget(Clear, rect);
    frame.render_widget(
        Paragraph::new(Span::styled(
            "preparing the preview… (esc cancels)",
            cx.theme.muted,
        ))
        .block(boxed(" Publish ".to_string(), cx)),
        rect,
    );
}

fn preview(frame: &mut Frame, area: Rect, data: &PreviewData, scroll: u16, cx: &ViewContext) {
    let theme = &cx.theme;
    let rect = centered(
        area,
        area.width.saturating_sub(10).min(110),
        area.height.saturating_sub(4),
    );
    frame.render_widget(Clear, rect);
    let block = boxed(" Publish preview ".to_string(), cx);
    let inner = block.inner(rect);
    frame.render_widget(block, rect);
    let moved_height = (data.moved_to_body.len() as u16).min(6);
    let [facts, moved, body, footer] = Layout::vertical([
        Constraint::Length(2),
        Constraint::Length(if moved_height > 0 {
            moved_height + 1
        } else {
            0
        }),
        Constraint::Fill(1),
        Constraint::Length(1),
    ])
    .areas(inner);
    frame.render_widget(
        Paragraph::new(vec![
            Line::from(vec![
                Span::styled("event ", theme.muted),
                Span::styled(data.event.clone(), theme.title),
                Span::styled(
                    format!(
                        " · {} inline comments · {} findings in the body",
                        data.inline_comments,
                        data.moved_to_body.len()
                    ),
                    theme.text,
                ),
            ]),
            Line::from(Span::styled(format!("to {}", data.target), theme.muted)),
        ]),
        facts,
    );
    if moved_height > 0 {
        let mut lines = vec![Line::from(Span::styled("moved to the body:", theme.muted))];
        for item in data.moved_to_body.iter().take(moved_height as usize) {
            lines.push(Line::from(Span::styled(format!("  {item}"), theme.text)));
        }
        frame.render_widget(Paragraph::new(lines), moved);
    }
    let body_block = Block::bordered()
        .title(Span::styled(" body ", theme.muted))
        .border_style(theme.border);
    frame.render_widget(
        Paragraph::new(data.body.clone())
            .style(theme.text)
            .block(body_block)
            .wrap(Wrap { trim: false })
            .scroll((scroll, 0)),
        body,
    );
    frame.render_widget(
        Paragraph::new(Line::from(vec![
            Span::styled("enter", theme.key_hint),
            Span::styled(" publish exactly this   ", theme.text),
            Span::styled("j/k", theme.key_hint),
            Span::styled(" scroll   ", theme.text),
            Span::styled("any other key cancels", theme.muted),
        ])),
        footer,
    );
}

fn text_box(
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
                format!(" Dismiss {} — why? (required) ", node_ids[0])
            } else {
                format!(" Dismiss {} findings — why? (required) ", node_ids.len())
            },
            "enter dismiss · esc cancel",
            7,
        ),
        InputPurpose::EditComment { node_id } => (
            format!(" Comment to post for {node_id} "),
            "ctrl-s save · esc cancel · empty restores the generated text",
            16,
        ),
        InputPurpose::Filter { .. } => (
            " Filter ".to_string(),
            "words, @reviewer, p0…p3, is:open · enter keep · esc restore",
            5,
        ),
    };
    let rect = if matches!(input.purpose, InputPurpose::Filter { .. }) {
        // Over the findings list's top, like a search bar.
        let width = (state.layout.findings.width).max(40).min(area.width);
        Rect {
            x: state.layout.findings.x,
            y: state.layout.findings.y,
            width,
            height: height.min(area.height),
        }
    } else {
        centered(area, 80, height)
    };
    frame.render_widget(Clear, rect);
    let block = boxed(title, cx);
    let inner = block.inner(rect);
    frame.render_widget(block, rect);
    let [text, note] = Layout::vertical([Constraint::Fill(1), Constraint::Length(1)]).areas(inner);
    let mut textarea = input.textarea.clone();
    textarea.set_style(theme.text);
    textarea.set_cursor_line_style(ratatui::style::Style::default());
    frame.render_widget(&textarea, text);
    let note_line = match &input.error {
        Some(error) => Line::from(Span::styled(error.clone(), theme.message_error)),
        None => Line::from(Span::styled(hint, theme.muted)),
    };
    frame.render_widget(Paragraph::new(note_line), note);
}

fn error(frame: &mut Frame, area: Rect, title: &str, message: &str, cx: &ViewContext) {
    let theme = &cx.theme;
    let lines = message.lines().count() as u16;
    let rect = centered(area, 80, lines + 5);
    frame.render_widget(Clear, rect);
    let block = Block::bordered()
        .title(Span::styled(format!(" {title} "), theme.message_error))
        .border_style(theme.message_error);
    let mut text: Vec<Line> = message
        .lines()
        .map(|l| Line::from(Span::styled(l.to_string(), theme.text)))
        .collect();
    text.push(Line::raw(""));
    text.push(Line::from(Span::styled("any key closes", theme.muted)));
    frame.render_widget(
        Paragraph::new(text).block(block).wrap(Wrap { trim: false }),
        rect,
    );
}
