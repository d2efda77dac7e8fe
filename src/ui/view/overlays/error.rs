//! An error, in a box over everything.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Paragraph, Wrap};

use crate::ui::view::{ViewContext, centered};

pub(super) fn draw(frame: &mut Frame, area: Rect, title: &str, message: &str, cx: &ViewContext) {
    let theme = &cx.theme;
    let mut text: Vec<Line> = message
        .lines()
        .map(|l| Line::from(Span::styled(l.to_string(), theme.text)))
        .collect();
    text.push(Line::raw(""));
    text.push(Line::from(Span::styled("any key closes", theme.muted)));
    let paragraph = Paragraph::new(text).wrap(Wrap { trim: false });
    let width = area.width.min(80);
    let height = paragraph.line_count(width.saturating_sub(2)) as u16 + 2;
    let rect = centered(area, width, height);
    frame.render_widget(Clear, rect);
    let block = Block::bordered()
        .title(Span::styled(
            format!(" {title} · any key closes "),
            theme.message_error,
        ))
        .border_style(theme.message_error);
    frame.render_widget(paragraph.block(block), rect);
}
