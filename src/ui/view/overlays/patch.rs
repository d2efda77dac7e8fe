//! The patch the gate wrote (or the fix command's answers), scrolling.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Padding, Paragraph, Wrap};

use super::boxed;
use crate::ui::keymap::Context;
use crate::ui::state::AppState;
use crate::ui::view::{ViewContext, centered};

/// The patch the gate wrote, as a diff: added lines in the added colour, removed in the
/// removed one, every line escaped (it quotes the PR's code), scrolling under a title that
/// says where the file is.
pub(super) fn draw(
    frame: &mut Frame,
    area: Rect,
    state: &AppState,
    scroll: u16,
    cx: &ViewContext,
) -> u16 {
    let theme = &cx.theme;
    let Some(patch) = &state.patch else {
        return 0;
    };
    let rect = centered(
        area,
        area.width.saturating_sub(4).clamp(40, 120),
        area.height.saturating_sub(2),
    );
    frame.render_widget(Clear, rect);
    // One viewer for what the fix produced: the patch, or the fix command's answers.
    let (what, how) = if patch.answers {
        (
            "Fix command's answers",
            " · kept there; review-tui changed no code",
        )
    } else {
        ("Patch", " · apply with `git apply`")
    };
    let block = boxed(
        format!(
            " {what} · {} scroll · any other key closes ",
            cx.keymap.scroll_keys(Context::Patch)
        ),
        cx,
    );
    let inner = block.inner(rect);
    frame.render_widget(block, rect);
    let footer = Paragraph::new(Line::from(vec![
        Span::styled(crate::ui::view::shown(&patch.path), theme.muted),
        Span::styled(how, theme.muted),
    ]))
    .wrap(Wrap { trim: true });
    let footer_height = (footer.line_count(inner.width) as u16).min(inner.height / 2);
    let [content, bottom] =
        Layout::vertical([Constraint::Fill(1), Constraint::Length(footer_height)]).areas(inner);
    frame.render_widget(footer, bottom);
    let lines: Vec<Line> = patch
        .text
        .lines()
        .map(|line| {
            let style = if line.starts_with("+++") || line.starts_with("---") {
                theme.title
            } else if line.starts_with('+') {
                theme.diff_add
            } else if line.starts_with('-') {
                theme.diff_del
            } else if line.starts_with("@@") || line.starts_with("diff ") {
                theme.muted
            } else {
                theme.text
            };
            Line::from(Span::styled(crate::ui::view::shown(line), style))
        })
        .collect();
    crate::ui::view::scrolled(
        frame,
        content,
        Block::default().padding(Padding::right(1)),
        Paragraph::new(lines).wrap(Wrap { trim: false }),
        scroll,
        cx,
    )
}
