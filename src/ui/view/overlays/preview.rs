//! The publish preview (and the wait for it): what would be posted, and where.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Padding, Paragraph, Wrap};

use super::boxed;
use crate::ui::command::Command;
use crate::ui::keymap::Context;
use crate::ui::state::{AppState, PreviewData};
use crate::ui::view::{ViewContext, centered};

pub(super) fn pending(frame: &mut Frame, area: Rect, cx: &ViewContext) {
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

/// The preview: what would be posted, all of it scrolling, above a footer that always shows
/// how to publish and how not to.
pub(super) fn draw(
    frame: &mut Frame,
    area: Rect,
    state: &AppState,
    data: &PreviewData,
    (scroll, raised): (u16, usize),
    cx: &ViewContext,
) -> u16 {
    let theme = &cx.theme;
    let rect = centered(
        area,
        area.width.saturating_sub(10).clamp(40, 110),
        area.height.saturating_sub(4).max(8),
    );
    frame.render_widget(Clear, rect);
    let block = boxed(" Publish preview ".to_string(), cx);
    let inner = block.inner(rect);
    frame.render_widget(block, rect);
    let mut keys = vec![
        Span::styled("enter", theme.key_hint),
        Span::styled(" publish exactly this   ", theme.text),
    ];
    // The include key only where there is something to include or leave out.
    if !data.already_raised.is_empty() {
        let key = |command| cx.keymap.key(Context::Preview, command);
        keys.push(Span::styled(key(Command::IncludeRaised), theme.key_hint));
        keys.push(Span::styled(" include/leave out   ", theme.text));
        if data.already_raised.len() > 1 {
            keys.push(Span::styled(
                format!(
                    "{}/{}",
                    key(Command::NextFinding),
                    key(Command::PrevFinding)
                ),
                theme.key_hint,
            ));
            keys.push(Span::styled(" select   ", theme.text));
        }
    }
    keys.extend([
        Span::styled("j/k", theme.key_hint),
        Span::styled(" scroll   ", theme.text),
        Span::styled("any other key cancels", theme.muted),
    ]);
    let footer = Paragraph::new(Line::from(keys)).wrap(Wrap { trim: true });
    let footer_height = (footer.line_count(inner.width) as u16).min(inner.height);
    let [content, bottom] =
        Layout::vertical([Constraint::Fill(1), Constraint::Length(footer_height)]).areas(inner);
    frame.render_widget(footer, bottom);
    let mut lines = vec![
        Line::from(vec![
            Span::styled("event ", theme.muted),
            Span::styled(data.event.clone(), theme.title),
            Span::styled(preview_counts(data), theme.text),
        ]),
        Line::from(Span::styled(format!("to {}", data.target), theme.muted)),
    ];
    // A published round again: what this publish is, said before what it posts.
    if state.published.is_some() {
        let again = match crate::ui::view::header::changed_text(state) {
            Some(_) => format!(
                "round {} again, for your triage since its publish (the same rules as a new round: the summary edited, a new review only for a changed event or new comments)",
                state.round
            ),
            None => format!(
                "round {} is published and unchanged: only what waits on the PR's threads is posted",
                state.round
            ),
        };
        lines.push(Line::from(Span::styled(again, theme.title)));
    }
    let drafts: Vec<_> = state.thread_drafts.iter().filter(|d| !d.posted).collect();
    if !drafts.is_empty() {
        lines.push(Line::from(Span::styled(
            "then on the PR's review threads:",
            theme.muted,
        )));
        for draft in drafts {
            lines.push(Line::from(Span::styled(
                format!("  {}", crate::ui::view::shown(&draft.describe())),
                theme.text,
            )));
        }
    }
    if !data.already_raised.is_empty() {
        lines.push(Line::from(Span::styled(
            format!(
                "already raised in an open thread (still counted; {} includes):",
                cx.keymap.key(Context::Preview, Command::IncludeRaised)
            ),
            theme.muted,
        )));
        for (i, item) in data.already_raised.iter().enumerate() {
            let (mark, style) = match i == raised {
                true => ("▶ ", theme.title),
                false => ("  ", theme.text),
            };
            let what = match item.included {
                true => "posted   ",
                false => "left out ",
            };
            lines.push(Line::from(vec![
                Span::styled(mark, style),
                Span::styled(
                    what,
                    if item.included {
                        theme.title
                    } else {
                        theme.muted
                    },
                ),
                Span::styled(
                    crate::ui::view::shown(&format!(
                        "{} {} — @{}",
                        item.location, item.title, item.by
                    )),
                    style,
                ),
            ]));
        }
    }
    if !data.moved_to_body.is_empty() {
        lines.push(Line::from(Span::styled(
            "only in the summary:",
            theme.muted,
        )));
        for item in &data.moved_to_body {
            lines.push(Line::from(Span::styled(format!("  {item}"), theme.text)));
        }
    }
    lines.push(Line::from(Span::styled(
        format!(
            "── body {}",
            "─".repeat(content.width.saturating_sub(9) as usize)
        ),
        theme.border,
    )));
    for line in data.body.lines() {
        lines.push(Line::from(Span::styled(line.to_string(), theme.text)));
    }
    crate::ui::view::scrolled(
        frame,
        content,
        Block::default().padding(Padding::right(1)),
        Paragraph::new(lines).wrap(Wrap { trim: false }),
        scroll,
        cx,
    )
}

/// What the preview's headline counts, in the body's own terms: the summary lists every
/// finding; some are also posted on their lines; some could not be placed and are only in it.
fn preview_counts(data: &PreviewData) -> String {
    let mut out = format!(
        " · the summary lists {}",
        crate::ui::text::plural(data.listed_in_body, "finding")
    );
    if data.inline_comments > 0 {
        out.push_str(&format!(
            " · {} also {}",
            data.inline_comments,
            if data.local {
                "as line comments in review.json"
            } else {
                "as comments on their lines"
            }
        ));
    }
    if !data.moved_to_body.is_empty() {
        out.push_str(&format!(
            " · {} only in the summary (not on a changed line)",
            data.moved_to_body.len()
        ));
    }
    let left_out = data.already_raised.iter().filter(|r| !r.included).count();
    if left_out > 0 {
        out.push_str(&format!(" · {left_out} left out (already raised)"));
    }
    out
}
