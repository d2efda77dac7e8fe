//! Drawing: a free function of the state. Each pane is its own function in its own file; the
//! overlays are drawn bottom to top over the panes. `draw` returns where things landed so the
//! loop can route mouse clicks and page sizes (a measurement, not state the view owns).

mod cohort;
mod detail;
mod diff;
mod disagreements;
pub(crate) mod findings;
mod header;
mod overlays;
mod reviewers;
mod status;
mod thread;

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::widgets::{Block, Paragraph, Scrollbar, ScrollbarOrientation, ScrollbarState};

use crate::ui::highlight::Highlighter;
pub(crate) use crate::ui::text::{pad, plural, shown, truncate, width};

use crate::ui::keymap::Keymap;
use crate::ui::state::{AppState, ScreenLayout};
use crate::ui::theme::Theme;
pub use diff::prefetch_next_page;

/// What drawing needs besides the state: theme, keymap (for hints and help), highlighter.
#[derive(Debug, Clone)]
pub struct ViewContext {
    pub theme: Theme,
    pub keymap: Keymap,
    pub highlighter: Highlighter,
    /// `[editor] open_at`: how the person's editor opens a file at a line (`None`: `+LINE`).
    pub editor_open_at: Option<String>,
}

impl ViewContext {
    pub fn new(theme: Theme, keymap: Keymap) -> ViewContext {
        let highlighter = Highlighter::new(&theme.syntax_theme, theme.colors);
        ViewContext {
            theme,
            keymap,
            highlighter,
            editor_open_at: None,
        }
    }
}

pub fn draw(frame: &mut Frame, state: &AppState, cx: &ViewContext) -> ScreenLayout {
    let mut layout = ScreenLayout::default();
    let [header_area, body, status_area] = Layout::vertical([
        Constraint::Length(5),
        Constraint::Fill(1),
        Constraint::Length(1),
    ])
    .areas(frame.area());
    header::draw(frame, header_area, state, cx);
    if state.zoomed {
        // The detail alone: the other panes keep no place on screen (nor mouse targets).
        layout.detail_scroll_max = detail::draw(frame, body, state, cx);
        layout.detail = body;
        status::draw(frame, status_area, state, cx);
        (layout.diff, layout.overlay_scroll_max) = overlays::draw(frame, frame.area(), state, cx);
        return layout;
    }

    // Narrow terminals give the list more: its titles are what a person scans.
    let list_share = if body.width < 100 { 68 } else { 62 };
    let [left, right] = Layout::horizontal([
        Constraint::Percentage(list_share),
        Constraint::Percentage(100 - list_share),
    ])
    .areas(body);
    let disagreements = &state.disagreements();
    let findings_area = if disagreements.is_empty() {
        left
    } else {
        let height = (disagreements.len() as u16 + 2).min(left.height / 3).max(3);
        let [top, rest] =
            Layout::vertical([Constraint::Length(height), Constraint::Fill(1)]).areas(left);
        disagreements::draw(frame, top, state, disagreements, cx);
        layout.disagreements = top;
        rest
    };
    layout.findings = findings_area;
    layout.finding_rows = findings::draw(frame, findings_area, state, cx);

    let reviewer_height = (state.board.reviewers.len() as u16 + 2).clamp(3, right.height / 3 + 1);
    let [reviewers_area, detail_area] =
        Layout::vertical([Constraint::Length(reviewer_height), Constraint::Fill(1)]).areas(right);
    reviewers::draw(frame, reviewers_area, state, cx);
    layout.detail_scroll_max = detail::draw(frame, detail_area, state, cx);
    layout.reviewers = reviewers_area;
    layout.detail = detail_area;

    status::draw(frame, status_area, state, cx);
    (layout.diff, layout.overlay_scroll_max) = overlays::draw(frame, frame.area(), state, cx);
    layout
}

/// Draws `paragraph` (without a block: `block` goes around it) scrolled down `scroll` lines,
/// never past the point where its last line reaches the bottom, with a scrollbar on the right
/// border when it does not fit. Returns how far it can scroll (0: it fits).
pub(crate) fn scrolled(
    frame: &mut Frame,
    area: Rect,
    block: Block,
    paragraph: Paragraph,
    scroll: u16,
    cx: &ViewContext,
) -> u16 {
    let inner = block.inner(area);
    let total = paragraph.line_count(inner.width);
    let max = u16::try_from(total.saturating_sub(inner.height as usize)).unwrap_or(u16::MAX);
    let scroll = scroll.min(max);
    frame.render_widget(paragraph.block(block).scroll((scroll, 0)), area);
    if max > 0 && inner.height > 0 {
        // On the right border when there is one, else in the block's right padding.
        let column = Rect {
            x: inner.right().min(area.right().saturating_sub(1)),
            y: inner.y,
            width: 1,
            height: inner.height,
        };
        let bar = Scrollbar::new(ScrollbarOrientation::VerticalRight)
            .begin_symbol(None)
            .end_symbol(None)
            .thumb_style(cx.theme.title)
            .track_style(cx.theme.border);
        let mut position = ScrollbarState::new(max as usize + 1)
            .position(scroll as usize)
            .viewport_content_length(inner.height as usize);
        frame.render_stateful_widget(bar, column, &mut position);
    }
    max
}

/// A rectangle of `width`×`height` centred in `area` (clamped to it).
pub(crate) fn centered(area: Rect, width: u16, height: u16) -> Rect {
    let width = width.min(area.width);
    let height = height.min(area.height);
    Rect {
        x: area.x + (area.width - width) / 2,
        y: area.y + (area.height - height) / 2,
        width,
        height,
    }
}

pub(crate) use crate::review::verdict::percent;

/// The spinner frame for reviewers that are reading.
pub(crate) fn spinner(tick: u64) -> &'static str {
    const FRAMES: [&str; 4] = ["◐", "◓", "◑", "◒"];
    FRAMES[(tick % 4) as usize]
}
