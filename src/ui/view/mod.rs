//! Drawing: a free function of the state. Each pane is its own function in its own file; the
//! overlays are drawn bottom to top over the panes. `draw` returns where things landed so the
//! loop can route mouse clicks and page sizes (a measurement, not state the view owns).

mod cohort;
mod detail;
mod diff;
mod disagreements;
pub(crate) mod findings;
pub(crate) mod header;
mod overlays;
mod review_threads;
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

/// The smallest terminal the cockpit draws in; below it, a screen saying what it needs (the
/// panes would be too small to read, and a squeezed layout is a lie about what is there).
pub const MIN_WIDTH: u16 = 40;
pub const MIN_HEIGHT: u16 = 12;
/// Below this width the panes stack in one column (list above detail) instead of two.
pub const STACK_BELOW: u16 = 100;
/// Side by side, the detail keeps at least this many columns while the list grows to 96.
const DETAIL_AT_LEAST: u16 = 36;
/// Below this height the header is one line.
pub const SHORT_BELOW: u16 = 30;

pub fn draw(frame: &mut Frame, state: &AppState, cx: &ViewContext) -> ScreenLayout {
    let mut layout = ScreenLayout::default();
    let area = frame.area();
    if area.width < MIN_WIDTH || area.height < MIN_HEIGHT {
        too_small(frame, area, cx);
        return layout;
    }
    // Short: one line, and the no-model line under it when there is one (it says what did not
    // run and the ways on; offline, the banner is in the one line).
    let header_height = if area.height < SHORT_BELOW {
        1 + u16::from(state.no_model && state.offline.is_none())
    } else {
        5
    };
    let status_height = status::height(state, area.width, area.height);
    let [header_area, banner_area, body, status_area] = Layout::vertical([
        Constraint::Length(header_height),
        Constraint::Length(header::banner_height(state, area.width)),
        Constraint::Fill(1),
        Constraint::Length(status_height),
    ])
    .areas(area);
    header::draw(frame, header_area, state, cx);
    header::banner(frame, banner_area, state, cx);
    if state.detail.zoomed {
        // The detail alone: the other panes keep no place on screen (nor mouse targets).
        layout.detail_scroll_max = detail::draw(frame, body, state, cx);
        layout.detail = body;
        status::draw(frame, status_area, state, cx);
        (layout.diff, layout.overlay_scroll_max) = overlays::draw(frame, area, state, cx);
        return layout;
    }

    // Narrow terminals stack the panes, list above detail: squeezed side by side, neither
    // would show a whole title. Wide ones give the list more: its titles are what a person scans.
    let stacked = body.width < STACK_BELOW;
    let disagreements = &state.disagreements();
    let disagreement_rows = if disagreements.is_empty() {
        0
    } else {
        disagreements.len() as u16 + 2
    };
    let rows = crate::ui::rows::rows(state);
    let [left, right] = if stacked {
        // The list takes what its rows need, up to 60 %: the rest is the reviewers' and the
        // detail's.
        let needed = (rows.len() as u16 + 3).saturating_add(disagreement_rows);
        let most = body.height * 3 / 5;
        let height = needed.min(most).max(body.height.min(8).min(most));
        Layout::vertical([Constraint::Length(height), Constraint::Fill(1)]).areas(body)
    } else {
        // 62 %, and between 100 and 155 columns as much as leaves the detail 36, up to 96:
        // the list then has room for each row's file:line from 120 columns on, and for
        // whole titles beside it from 140.
        let list = (body.width * 62 / 100).max(body.width.saturating_sub(DETAIL_AT_LEAST).min(96));
        Layout::horizontal([Constraint::Length(list), Constraint::Fill(1)]).areas(body)
    };
    let findings_area = if disagreements.is_empty() {
        left
    } else {
        let share = if stacked { 2 } else { 3 };
        // The findings keep a row at least (their borders and one row); the disagreements
        // take a pane of their own only when it can show one of theirs.
        let height = disagreement_rows
            .min(left.height / share)
            .max(3)
            .min(left.height.saturating_sub(3));
        let height = if height < 3 { 0 } else { height };
        let [top, rest] =
            Layout::vertical([Constraint::Length(height), Constraint::Fill(1)]).areas(left);
        disagreements::draw(frame, top, state, disagreements, cx);
        layout.disagreements = top;
        rest
    };
    layout.findings = findings_area;
    layout.finding_rows = findings::draw(frame, findings_area, state, rows, cx);

    // The reviewers a line each, up to a third of the column (half when stacked) (never less than its borders
    // and one line, never more than the column).
    // Stacked, once the review is over, the detail is what is read: the reviewers keep a line.
    let share = if stacked { 2 } else { 3 };
    let wanted = if stacked && !state.review_running() {
        // Too short for both, the finished reviewers give their line to the detail (unless
        // they have focus): `3` brings them back.
        if right.height < 8 && state.focus != crate::ui::state::Pane::Reviewers {
            0
        } else {
            3
        }
    } else {
        state.board.reviewers.len() as u16 + 2
    };
    let reviewer_height = wanted
        .min(right.height / share + 1)
        .max(if wanted == 0 { 0 } else { 3 })
        .min(right.height);
    let [reviewers_area, detail_area] =
        Layout::vertical([Constraint::Length(reviewer_height), Constraint::Fill(1)]).areas(right);
    reviewers::draw(frame, reviewers_area, state, cx);
    layout.detail_scroll_max = detail::draw(frame, detail_area, state, cx);
    layout.reviewers = reviewers_area;
    layout.detail = detail_area;

    status::draw(frame, status_area, state, cx);
    (layout.diff, layout.overlay_scroll_max) = overlays::draw(frame, area, state, cx);
    layout
}

/// The screen of a terminal smaller than the cockpit needs: what it needs and what it has,
/// as much of it as fits; the next resize draws the cockpit again.
fn too_small(frame: &mut Frame, area: Rect, cx: &ViewContext) {
    let text = format!(
        "terminal too small (need {MIN_WIDTH} x {MIN_HEIGHT}, have {} x {}): enlarge it",
        area.width, area.height
    );
    frame.render_widget(
        Paragraph::new(text)
            .style(cx.theme.message_warn)
            .wrap(ratatui::widgets::Wrap { trim: true }),
        area,
    );
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

/// The rows of a list of `total` that a pane of `height` rows shows: from the top, moved
/// down just enough to keep the `selected` row on screen. Returns (first, how many).
pub(crate) fn window(total: usize, height: usize, selected: Option<usize>) -> (usize, usize) {
    let first = match selected {
        Some(i) if height > 0 && i >= height => i + 1 - height,
        _ => 0,
    };
    (first, height.min(total - first.min(total)))
}

/// Draws the lines of a bordered list pane (`lines`: one per row, `selected` among them) with
/// as many rows as fit, the selected one among them, and where the list is when it overflows.
pub(crate) fn list_pane(
    frame: &mut Frame,
    area: Rect,
    block: Block,
    lines: Vec<ratatui::text::Line<'static>>,
    selected: Option<usize>,
    cx: &ViewContext,
) {
    let height = block.inner(area).height as usize;
    let total = lines.len();
    let (first, shown) = window(total, height, selected);
    let visible: Vec<_> = lines.into_iter().skip(first).take(shown).collect();
    frame.render_widget(Paragraph::new(visible).block(block), area);
    list_position(frame, area, first, shown, total, cx);
}

/// Where a list is when it holds more rows than its pane shows: a scrollbar on the right
/// border and `rows 3–9 of 12` on the bottom one (`area` is the pane with its borders; `first`
/// is the first row shown, `shown` how many are). Nothing when every row is on screen.
pub(crate) fn list_position(
    frame: &mut Frame,
    area: Rect,
    first: usize,
    shown: usize,
    total: usize,
    cx: &ViewContext,
) {
    if total <= shown || area.height < 3 || area.width < 3 {
        return;
    }
    let inner = Block::bordered().inner(area);
    let bar = Scrollbar::new(ScrollbarOrientation::VerticalRight)
        .begin_symbol(None)
        .end_symbol(None)
        .thumb_style(cx.theme.title)
        .track_style(cx.theme.border);
    let mut position = ScrollbarState::new(total.saturating_sub(shown) + 1)
        .position(first)
        .viewport_content_length(shown.max(1));
    let column = Rect {
        x: area.right() - 1,
        y: inner.y,
        width: 1,
        height: inner.height,
    };
    frame.render_stateful_widget(bar, column, &mut position);
    let last = (first + shown).min(total);
    let text = format!(" rows {}–{last} of {total} ", first + 1);
    let text = truncate(&text, (area.width as usize).saturating_sub(2));
    let room = width(&text) as u16;
    let at = Rect {
        x: area.right().saturating_sub(room + 1),
        y: area.bottom() - 1,
        width: room,
        height: 1,
    };
    frame.render_widget(
        Paragraph::new(text).style(cx.theme.title),
        at.intersection(area),
    );
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

pub(crate) use crate::review::percent;

/// The spinner frame for reviewers that are reading.
pub(crate) fn spinner(tick: u64) -> &'static str {
    const FRAMES: [&str; 4] = ["◐", "◓", "◑", "◒"];
    FRAMES[(tick % 4) as usize]
}
