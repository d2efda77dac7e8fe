//! The findings, grouped by cohort: one row per problem (duplicates folded under it), and per
//! cohort the findings the level puts below threshold, folded into "below threshold (N)".

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph};

use super::{ViewContext, pad, percent, plural, truncate};
use crate::review::Status;
use crate::ui::command::Command;
use crate::ui::keymap::Context;
use crate::ui::rows::header_rows;
use crate::ui::rows::{self, Row};
use crate::ui::state::{AppState, Pane, RowKey};
use crate::ui::text::kind_label;

/// The diff's files, one a line with their added and removed line counts, as many as fit
/// below the loading line.
fn changed_files(diff: &crate::diff::Diff, area: Rect, cx: &ViewContext) -> Vec<Line<'static>> {
    let theme = &cx.theme;
    let room = (area.height as usize).saturating_sub(2);
    let mut lines = vec![
        Line::raw(""),
        Line::from(Span::styled(
            format!("{} changed files", diff.files.len()),
            theme.title,
        )),
    ];
    let shown = if diff.files.len() > room {
        room.saturating_sub(1)
    } else {
        room
    };
    for file in diff.files.iter().take(shown) {
        let count = |kind: crate::diff::LineKind| {
            file.hunks
                .iter()
                .flat_map(|h| &h.lines)
                .filter(|l| l.kind == kind)
                .count()
        };
        let (added, removed) = (
            count(crate::diff::LineKind::Added),
            count(crate::diff::LineKind::Removed),
        );
        let path = truncate(
            &super::shown(&file.path),
            (area.width as usize).saturating_sub(16),
        );
        lines.push(Line::from(vec![
            Span::styled(format!("  {path}"), theme.text),
            Span::styled(format!("  +{added} −{removed}"), theme.muted),
        ]));
    }
    if shown < diff.files.len() {
        lines.push(Line::from(Span::styled(
            format!("  … {} more", diff.files.len() - shown),
            theme.muted,
        )));
    }
    lines
}

/// Draws the list; returns (screen row, key) for each row drawn.
pub(crate) fn draw(
    frame: &mut Frame,
    area: Rect,
    state: &AppState,
    rows: Vec<Row>,
    cx: &ViewContext,
) -> Vec<(u16, RowKey)> {
    let theme = &cx.theme;
    let focused = state.focus == Pane::Findings && state.overlays.is_empty();
    let problems: usize = rows
        .iter()
        .map(|r| match r {
            Row::Cohort { problems, .. } => *problems,
            _ => 0,
        })
        .sum();
    let mut title = format!(" Findings ({problems}) · level {} ", state.level);
    if !state.findings.filter.is_empty() {
        title.push_str(&format!("· filter: {} ", state.findings.filter));
    }
    if !state.findings.marked.is_empty() {
        title.push_str(&format!("· {} marked ", state.findings.marked.len()));
    }
    if state.findings.range.is_some() {
        title.push_str("· range ");
    }
    let block = Block::bordered()
        .title(Span::styled(title, theme.title))
        .border_style(theme.border_for(focused));
    let inner = block.inner(area);
    frame.render_widget(block, area);

    if rows.is_empty() {
        let text = if let Some(loading) = &state.loading {
            let spinner = format!("{} {loading}", super::spinner(state.tick));
            // While the space is prepared, the changed files are what there is to read.
            let mut lines = vec![Line::from(Span::styled(spinner, theme.muted))];
            if let Some(diff) = &state.diff {
                lines.extend(changed_files(diff, inner, cx));
            }
            frame.render_widget(Paragraph::new(lines), inner);
            return Vec::new();
        } else if let Some(problem) = rows::Filter::parse(&state.findings.filter).problems.first() {
            let esc = cx.keymap.key(Context::Main, Command::Close);
            format!("{problem} ({esc} clears the filter)")
        } else if !state.findings.filter.is_empty() {
            let esc = cx.keymap.key(Context::Main, Command::Close);
            format!(
                "nothing matches `{}` ({esc} clears the filter)",
                state.findings.filter
            )
        } else if state.board.reviewers.values().any(|r| {
            matches!(
                r.phase,
                crate::review::ReviewerPhase::Queued | crate::review::ReviewerPhase::Reading
            )
        }) {
            "no findings yet: the reviewers are reading".to_string()
        } else {
            "no findings".to_string()
        };
        frame.render_widget(Paragraph::new(Span::styled(text, theme.muted)), inner);
        return Vec::new();
    }

    // The column header: what each column and mark is, on the list's first line.
    let header = header_rows(inner.height);
    if header > 0 {
        frame.render_widget(
            Paragraph::new(header_line(inner.width as usize, cx)),
            Rect { height: 1, ..inner },
        );
    }
    let inner = Rect {
        y: inner.y + header,
        height: inner.height - header,
        ..inner
    };
    let height = inner.height as usize;
    let selected = state
        .findings
        .selected
        .as_ref()
        .and_then(|key| rows::position(&rows, key));
    // Keep the selection in view even if the last frame was a different size.
    // and never leave empty lines below the last row while rows above are hidden.
    let mut offset = state
        .findings
        .offset
        .min(rows.len().saturating_sub(height.max(1)));
    if let Some(i) = selected {
        if i < offset {
            offset = i;
        } else if height > 0 && i >= offset + height {
            offset = i + 1 - height;
        }
    }
    let columns = inner.width as usize;
    let mut drawn = Vec::new();
    let mut lines = Vec::new();
    // The rows of a range (`V`), from where it started to the selection.
    let range = state
        .findings
        .range
        .as_ref()
        .and_then(|key| rows::position(&rows, key))
        .zip(selected)
        .map(|(a, b)| a.min(b)..=a.max(b));
    for (i, row) in rows.iter().enumerate().skip(offset).take(height) {
        let is_selected = Some(i) == selected;
        let mut spans = row_spans(row, state, cx, columns);
        if range.as_ref().is_some_and(|r| r.contains(&i)) {
            spans[0] = Span::styled("┃", theme.marked);
        }
        if is_selected {
            let marker = if focused { "▶" } else { "▷" };
            spans[0] = Span::styled(marker, spans[0].style);
            spans = spans
                .into_iter()
                .map(|s| s.patch_style(theme.selection))
                .collect();
            let used: usize = spans.iter().map(|s| s.width()).sum();
            spans.push(Span::styled(
                " ".repeat(columns.saturating_sub(used)),
                theme.selection,
            ));
        }
        drawn.push((inner.y + lines.len() as u16, row.key()));
        lines.push(Line::from(spans));
    }
    frame.render_widget(Paragraph::new(lines), inner);
    super::list_position(frame, area, offset, drawn.len(), rows.len(), cx);
    drawn
}

/// The column header, laid out like a top-level finding row, so each name sits over its
/// column; the marks a row can carry are named where they appear (`▸ +N`: duplicates folded
/// under the title, `✓`: who confirmed).
fn header_line(columns: usize, cx: &ViewContext) -> Line<'static> {
    let theme = &cx.theme;
    let shown = Columns::fit(columns.saturating_sub(TOP_FIXED));
    let title_room = columns.saturating_sub(TOP_FIXED + shown.width());
    // The longest that fits whole: a name is never cut.
    let title = [
        "title  ▸ (+N) duplicates folded",
        "title  ▸ (+N) dups",
        "title",
    ]
    .into_iter()
    .find(|t| super::width(t) <= title_room)
    .unwrap_or("title");
    let mut spans = vec![
        Span::raw(" "),
        Span::raw("    "),
        Span::raw("  "),
        Span::raw("P  "),
        Span::raw(pad("kind", KIND)),
        Span::raw(pad(&truncate(title, title_room), title_room)),
    ];
    if shown.location {
        spans.push(Span::raw(" "));
        spans.push(Span::raw(pad("file:line", LOCATION)));
    }
    if shown.who {
        spans.push(Span::raw(" "));
        spans.push(Span::raw(pad("found, ✓confirmed", WHO)));
    }
    if shown.confidence {
        spans.push(Span::raw("   %"));
    }
    match shown.status {
        StatusColumn::Word => {
            spans.push(Span::raw(" "));
            spans.push(Span::raw(pad("status", STATUS)));
        }
        // One glyph a row (`?` has the legend): the header names it by the open one.
        StatusColumn::Glyph => spans.push(Span::raw(" ○")),
        StatusColumn::Hidden => {}
    }
    let style = theme
        .muted
        .add_modifier(ratatui::style::Modifier::UNDERLINED);
    Line::from(spans).style(style)
}

fn row_spans<'a>(row: &Row, state: &AppState, cx: &ViewContext, columns: usize) -> Vec<Span<'a>> {
    let theme = &cx.theme;
    match row {
        Row::Reason(reason) => reason_spans(reason, cx),
        Row::Cohort {
            label,
            fallback,
            blast_radius,
            problems,
            collapsed,
            ..
        } => {
            let mut spans = vec![
                Span::raw(" "),
                Span::styled(if *collapsed { "▸ " } else { "▾ " }, theme.muted),
                Span::styled(label.clone(), theme.title),
            ];
            if *fallback {
                spans.push(Span::styled(" (grouped by path)", theme.fallback));
            }
            if let Some(radius) = blast_radius.filter(|_| !*fallback) {
                spans.push(Span::styled(
                    format!(" · blast radius {radius}"),
                    theme.muted,
                ));
            }
            spans.push(Span::styled(
                format!(" · {}", plural(*problems, "finding")),
                theme.muted,
            ));
            spans
        }
        Row::Below { count, open, .. } => vec![
            Span::raw(" "),
            Span::styled(
                format!(
                    "  {} below threshold ({count})",
                    if *open { "▾" } else { "▸" }
                ),
                theme.muted,
            ),
        ],
        Row::Node {
            id,
            duplicate,
            in_rule,
            duplicates,
            found_by,
            confirmed_by,
            below,
        } => {
            let Some(node) = state.node(id) else {
                return vec![Span::raw(" ")];
            };
            let fold = if *duplicates == 0 {
                "  "
            } else if state.findings.expanded.contains(id) {
                "▾ "
            } else {
                "▸ "
            };
            let depth = usize::from(*below) + usize::from(*in_rule);
            let indent = if *duplicate {
                format!("{}    ↳ ", "  ".repeat(depth + 1))
            } else {
                format!("{}{fold}", "  ".repeat(depth + 1))
            };
            let mut who = found_by.join(", ");
            if !confirmed_by.is_empty() {
                who.push_str(&format!(" ✓{}", confirmed_by.join(", ✓")));
            }
            let dup = if *duplicates > 0 {
                format!(" (+{duplicates})")
            } else {
                String::new()
            };
            finding_spans(
                FindingCells {
                    indent,
                    marked: state.findings.marked.contains(id),
                    priority: node.priority,
                    kind: kind_label(node.kind),
                    count: String::new(),
                    title: node.text.title.clone(),
                    dup,
                    location: location(node),
                    who,
                    confidence: node.confidence,
                    status: Some(node.status),
                },
                cx,
                columns,
            )
        }
        Row::Rule {
            members,
            below,
            open,
            ..
        } => {
            let nodes: Vec<&crate::review::ReviewNode> =
                members.iter().filter_map(|id| state.node(id)).collect();
            let Some(first) = nodes.first() else {
                return vec![Span::raw(" ")];
            };
            let fold = if *open { "▾ " } else { "▸ " };
            let mut who: Vec<&str> = Vec::new();
            for node in &nodes {
                if !who.contains(&node.origin.reviewer.as_str()) {
                    who.push(&node.origin.reviewer);
                }
            }
            // One status when they share it; otherwise the detail counts them.
            let status = nodes
                .iter()
                .all(|n| n.status == first.status)
                .then_some(first.status);
            finding_spans(
                FindingCells {
                    indent: format!("{}{fold}", "  ".repeat(usize::from(*below) + 1)),
                    marked: false,
                    priority: nodes
                        .iter()
                        .map(|n| n.priority)
                        .min()
                        .unwrap_or(first.priority),
                    kind: kind_label(first.kind),
                    count: format!("{}× ", nodes.len()),
                    title: first.text.title.clone(),
                    dup: String::new(),
                    location: files_of(&nodes),
                    who: who.join(", "),
                    confidence: nodes.iter().map(|n| n.confidence).fold(0.0, f64::max),
                    status,
                },
                cx,
                columns,
            )
        }
    }
}

/// A reason of the verdict that is not a finding: its decision as a badge, never a priority,
/// so it cannot be read as one more finding.
fn reason_spans<'a>(reason: &crate::ui::reasons::Reason, cx: &ViewContext) -> Vec<Span<'a>> {
    let theme = &cx.theme;
    vec![
        Span::raw(" "),
        Span::styled(
            format!(" why {} ", reason.decision.label().to_uppercase()),
            theme.decision(reason.decision),
        ),
        Span::styled(
            format!(" {} — {}", super::shown(&reason.subject), reason.summary),
            theme.title,
        ),
    ]
}

/// What a finding row (or a rule fold's row) shows, before it is fitted to the list's width.
struct FindingCells {
    indent: String,
    marked: bool,
    priority: crate::review::Priority,
    kind: &'static str,
    /// `16× ` on a rule fold: never what a short title loses.
    count: String,
    title: String,
    /// ` (+N)` duplicates folded under it: never what a short title loses either.
    dup: String,
    location: String,
    who: String,
    confidence: f64,
    /// None: the fold's findings differ (the detail counts them).
    status: Option<Status>,
}

fn finding_spans<'a>(cells: FindingCells, cx: &ViewContext, columns: usize) -> Vec<Span<'a>> {
    let theme = &cx.theme;
    // space, indent, mark, priority, kind | title | location, who, confidence, status. Which
    // columns fit is decided as for a top-level row (the header's), so every row of the list
    // shows the same columns under the header's names; a deeper row's indent comes out of its
    // title.
    let fixed = 1 + super::width(&cells.indent) + 2 + 3 + KIND;
    let shown = Columns::fit(columns.saturating_sub(TOP_FIXED));
    let title_room = columns.saturating_sub(fixed + shown.width());
    let kept = super::width(&cells.count) + super::width(&cells.dup);
    let title = format!(
        "{}{}{}",
        cells.count,
        truncate(&cells.title, title_room.saturating_sub(kept)),
        cells.dup
    );
    let text_style = if cells.status.is_none_or(|s| s.is_active()) {
        theme.text
    } else {
        theme.muted
    };
    let status_style = cells
        .status
        .map_or(theme.text, |status| theme.status(status));
    let mut spans = vec![
        Span::raw(" "),
        Span::styled(cells.indent, theme.muted),
        Span::styled(if cells.marked { "● " } else { "  " }, theme.marked),
        Span::styled(
            format!("{} ", cells.priority),
            theme.priority(cells.priority),
        ),
        Span::styled(pad(cells.kind, KIND), theme.muted),
        Span::styled(pad(&title, title_room), text_style),
    ];
    if shown.location {
        spans.push(Span::raw(" "));
        spans.push(Span::styled(pad(&cells.location, LOCATION), theme.muted));
    }
    if shown.who {
        spans.push(Span::raw(" "));
        spans.push(Span::styled(pad(&cells.who, WHO), theme.muted));
    }
    if shown.confidence {
        spans.push(Span::styled(
            format!(" {:>3}", percent(cells.confidence)),
            theme.text,
        ));
    }
    match shown.status {
        StatusColumn::Word => {
            spans.push(Span::raw(" "));
            let word = cells.status.map_or("mixed", status_word);
            spans.push(Span::styled(pad(word, STATUS), status_style));
        }
        StatusColumn::Glyph => spans.push(Span::styled(
            format!(" {}", cells.status.map_or("◐", status_glyph)),
            status_style,
        )),
        StatusColumn::Hidden => {}
    }
    spans
}

/// Where a rule fold's findings are: the one file's name when they share it, else how many.
fn files_of(nodes: &[&crate::review::ReviewNode]) -> String {
    let mut files: Vec<&str> = nodes
        .iter()
        .filter_map(|n| n.anchor.as_ref().map(|a| a.path.as_str()))
        .collect();
    files.sort_unstable();
    files.dedup();
    match files.as_slice() {
        [] => String::new(),
        [one] => cut_start(&super::shown(one)),
        many => format!("{} files", many.len()),
    }
}

/// The list's word for a status (`ready` for consensus-ready).
pub(crate) fn status_word(status: Status) -> &'static str {
    match status {
        Status::Open => "open",
        Status::ConsensusReady => "ready",
        Status::Resolved => "resolved",
        Status::Dismissed => "dismissed",
    }
}

/// The title keeps at least this many columns (most titles fit whole): the columns after it
/// give way first.
const MIN_TITLE: usize = 40;
/// The title's minimum beside a location.
const LOCATION_TITLE: usize = 28;
const WHO: usize = 18;
/// The kind's column, one space after the longest label (`ticket`): a kind never runs into
/// the title.
const KIND: usize = 7;
/// What a top-level row takes before its title: a space, the indent and fold mark, the mark,
/// the priority and the kind.
const TOP_FIXED: usize = 1 + 4 + 2 + 3 + KIND;
/// `file.rs:123`: the file's name and the first line (the path's end kept when cut).
const LOCATION: usize = 22;
/// Wide enough for the longest status (`dismissed`): statuses are never cut.
const STATUS: usize = 9;

/// How a row's status is shown: the word, one glyph when the title needs the room (`?`'s
/// legend names them), or not at all in a list too narrow for even that.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum StatusColumn {
    Word,
    Glyph,
    Hidden,
}

/// `auth/refresh.rs:10`: where a finding is, its path's end kept (the file's name is what a
/// person scans for); empty for a finding with no anchor.
fn location(node: &crate::review::ReviewNode) -> String {
    let Some(anchor) = &node.anchor else {
        return String::new();
    };
    cut_start(&format!(
        "{}:{}",
        super::shown(&anchor.path),
        anchor.start_line
    ))
}

/// `place` in the location column, its end kept when cut (`…h/refresh.rs:10`).
fn cut_start(place: &str) -> String {
    let width = super::width(place);
    if width <= LOCATION {
        return place.to_string();
    }
    let mut kept: Vec<char> = Vec::new();
    let mut used = 1;
    for c in place.chars().rev() {
        let w = super::width(c.encode_utf8(&mut [0; 4]));
        if used + w > LOCATION {
            break;
        }
        kept.push(c);
        used += w;
    }
    std::iter::once('…').chain(kept.into_iter().rev()).collect()
}

/// `○` open, `✓` ready (a peer confirmed), `✔` resolved, `✗` dismissed.
pub(crate) fn status_glyph(status: Status) -> &'static str {
    match status {
        Status::Open => "○",
        Status::ConsensusReady => "✓",
        Status::Resolved => "✔",
        Status::Dismissed => "✗",
    }
}

/// Which of the columns after the title fit: the reviewers give way first (the detail names
/// them), then the location, then the confidence, then the status's word (to a glyph), then
/// the glyph. Where a finding is tells rows with one title apart; who found it does not.
struct Columns {
    location: bool,
    who: bool,
    confidence: bool,
    status: StatusColumn,
}

impl Columns {
    fn fit(room: usize) -> Columns {
        let mut columns = Columns {
            location: true,
            who: true,
            confidence: true,
            status: StatusColumn::Word,
        };
        // Each step gives its column up unless the title keeps its minimum: the location
        // stays down to a shorter title (the detail shows the whole of it).
        for (title, give_way) in [
            (
                MIN_TITLE,
                (|c: &mut Columns| c.who = false) as fn(&mut Columns),
            ),
            (LOCATION_TITLE, |c: &mut Columns| c.location = false),
            (MIN_TITLE, |c: &mut Columns| c.confidence = false),
            (MIN_TITLE, |c: &mut Columns| c.status = StatusColumn::Glyph),
        ] {
            if room >= columns.width() + title {
                break;
            }
            give_way(&mut columns);
        }
        // Below even a glyph's room the title keeps what there is.
        if room < columns.width() + 8 {
            columns.status = StatusColumn::Hidden;
        }
        columns
    }

    fn width(&self) -> usize {
        usize::from(self.location) * (1 + LOCATION)
            + usize::from(self.who) * (1 + WHO)
            + usize::from(self.confidence) * 4
            + match self.status {
                StatusColumn::Word => 1 + STATUS,
                StatusColumn::Glyph => 2,
                StatusColumn::Hidden => 0,
            }
    }
}
