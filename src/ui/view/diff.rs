//! The diff view, full screen: the cohort diagram on top, then the cohort's files in reading
//! order (a header per file, `@@` rows, lines with LEFT and RIGHT numbers), each finding's
//! priority glyph in the gutter of the lines its anchor lands on, and a footer naming the
//! finding under the cursor. Only the rows on screen are built and highlighted.

use std::collections::HashMap;

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Paragraph};

use super::{ViewContext, truncate, width};
use crate::diff::{FileStatus, LineKind};
use crate::review::ReviewNode;
use crate::ui::diffview::{
    DiffDoc, DiffRow, findings_at, findings_by_path, scope_label, threads_at,
};
use crate::ui::highlight::Piece;
use crate::ui::keymap::Context;
use crate::ui::state::{AppState, DiffView};

/// Draws the view over `area`; returns the rectangle of its lines (the page size).
pub(super) fn draw(
    frame: &mut Frame,
    area: Rect,
    state: &AppState,
    view: &DiffView,
    cx: &ViewContext,
) -> Rect {
    let theme = &cx.theme;
    let doc = DiffDoc::new(state, view.cohort.as_deref());
    let cohort = view
        .cohort
        .as_deref()
        .and_then(|key| state.cohorts.iter().find(|c| c.key == key));
    frame.render_widget(Clear, area);
    let block = Block::bordered()
        .title(Span::styled(
            format!(" Diff · {} ", scope_label(cohort, doc.file_count())),
            theme.title,
        ))
        .border_style(theme.border_focused);
    let inner = block.inner(area);
    frame.render_widget(block, area);

    let diagram: Vec<Line> = match cohort {
        Some(cohort) => super::cohort::diagram(cohort, inner.width as usize, cx),
        None => Vec::new(),
    };
    let diagram_height = (diagram.len() as u16).min(inner.height / 3);
    let [top, rule, body, footer] = Layout::vertical([
        Constraint::Length(diagram_height),
        Constraint::Length(u16::from(diagram_height > 0)),
        Constraint::Fill(1),
        Constraint::Length(1),
    ])
    .areas(inner);
    if diagram_height > 0 {
        frame.render_widget(Paragraph::new(diagram), top);
        frame.render_widget(
            Paragraph::new(Span::styled("─".repeat(rule.width as usize), theme.border)),
            rule,
        );
    }

    let height = body.height as usize;
    // The cursor line is on screen whatever size the last frame had (the view may have been
    // placed before the first frame measured it, or the terminal shrank since).
    let mut offset = view.offset.min(doc.len().saturating_sub(height));
    if view.cursor < offset {
        offset = view.cursor;
    } else if height > 0 && view.cursor >= offset + height {
        offset = view.cursor + 1 - height;
    }
    let end = (offset + height).min(doc.len());
    let rows: Vec<DiffRow> = (offset..end).filter_map(|r| doc.row(r)).collect();
    let by_path = findings_by_path(state);
    let number_width = rows
        .iter()
        .filter_map(|row| match row {
            DiffRow::Line { line, .. } => line.old_line.max(line.new_line),
            _ => None,
        })
        .max()
        .unwrap_or(0)
        .to_string()
        .len()
        .max(3);
    let highlighted = highlight_visible(&rows, cx);
    let columns = body.width as usize;
    let mut lines = Vec::with_capacity(rows.len());
    for (i, row) in rows.iter().enumerate() {
        let at = offset + i;
        let marks = findings_at(&doc, &by_path, at);
        let threads = threads_at(state, &doc, at);
        let mut line = match row {
            DiffRow::File { index, path, file } => {
                file_row(*index, path, *file, doc.file_count(), columns, cx)
            }
            DiffRow::Note { text, .. } => Line::from(vec![
                Span::raw(" ".repeat(GUTTER + 2 * (number_width + 1))),
                Span::styled(*text, theme.muted),
            ]),
            DiffRow::Hunk { hunk, .. } => hunk_row(hunk, number_width, cx),
            DiffRow::Line { line, .. } => {
                let pieces = highlighted.get(&i).cloned().unwrap_or_default();
                code_row(line, &marks, &threads, number_width, pieces, cx)
            }
        };
        if at == view.cursor {
            line = line.patch_style(theme.selection);
        }
        lines.push(line);
    }
    frame.render_widget(Paragraph::new(lines), body);

    let cursor_marks = findings_at(&doc, &by_path, view.cursor);
    let cursor_threads = threads_at(state, &doc, view.cursor);
    frame.render_widget(
        Paragraph::new(footer_line(
            &cursor_marks,
            &cursor_threads,
            view.cursor,
            doc.len(),
            columns,
            cx,
        )),
        footer,
    );
    body
}

/// A file's header row: its place in reading order, its path, how it changed.
fn file_row(
    index: usize,
    path: &str,
    file: Option<&crate::diff::FileDiff>,
    file_count: usize,
    columns: usize,
    cx: &ViewContext,
) -> Line<'static> {
    let theme = &cx.theme;
    let mut text = format!("━━ {}/{}  {path}", index + 1, file_count);
    if let Some(file) = file {
        let status = match file.status {
            FileStatus::Added => "added",
            FileStatus::Modified => "modified",
            FileStatus::Deleted => "deleted",
            FileStatus::Renamed => "renamed",
            FileStatus::Copied => "copied",
        };
        text.push_str(&format!(
            "  {status} +{} −{}",
            file.additions, file.deletions
        ));
        if let Some(old) = &file.old_path {
            text.push_str(&format!(" (from {old})"));
        }
    }
    text.push(' ');
    let fill = columns.saturating_sub(width(&text));
    Line::from(vec![
        Span::styled(truncate(&text, columns), theme.title),
        Span::styled("━".repeat(fill), theme.border),
    ])
}

/// A hunk's `@@` row, with its section when the diff names one.
fn hunk_row(hunk: &crate::diff::Hunk, number_width: usize, cx: &ViewContext) -> Line<'static> {
    let theme = &cx.theme;
    let mut text = format!(
        "@@ -{},{} +{},{} @@",
        hunk.old_start, hunk.old_count, hunk.new_start, hunk.new_count
    );
    if let Some(section) = &hunk.section {
        text.push(' ');
        text.push_str(section.trim());
    }
    Line::from(vec![
        Span::raw(" ".repeat(GUTTER + 2 * (number_width + 1))),
        Span::styled(text, theme.diff_context),
    ])
}

/// A line of code: the gutter (findings, threads), both numbers, the sign, the highlighted
/// text.
fn code_row(
    line: &crate::diff::Line,
    marks: &[&ReviewNode],
    threads: &[&crate::pr::ReviewThread],
    number_width: usize,
    pieces: Vec<Piece>,
    cx: &ViewContext,
) -> Line<'static> {
    let theme = &cx.theme;
    let number = |n: Option<u32>| match n {
        Some(n) => format!("{n:>number_width$} "),
        None => " ".repeat(number_width + 1),
    };
    let (sign, sign_style) = match line.kind {
        LineKind::Added => ("+", theme.diff_add),
        LineKind::Removed => ("-", theme.diff_del),
        LineKind::Context => (" ", theme.diff_context),
    };
    let base = if marks.is_empty() {
        Style::default()
    } else {
        theme.anchor_line
    };
    let mut spans = gutter(marks, threads, cx);
    spans.extend([
        Span::styled(number(line.old_line), theme.line_number),
        Span::styled(number(line.new_line), theme.line_number),
        Span::styled(sign, sign_style),
        Span::raw(" "),
    ]);
    let plain = pieces.iter().all(|(style, _)| style.fg.is_none());
    for (style, text) in pieces {
        let code = if plain && line.kind != LineKind::Context {
            sign_style
        } else {
            theme.text.patch(style)
        };
        spans.push(Span::styled(text, code));
    }
    Line::from(spans).style(base)
}

/// Columns of the gutter: glyph, priority digit, then `¶` when a person's review thread is on
/// the line, else `+` when more findings share it.
const GUTTER: usize = 3;

/// A review thread on the line (someone already talks about it there): not a finding's glyph.
const THREAD_MARK: &str = "¶";

/// The most urgent finding on a line as `◆1` in its priority's colour (the digit keeps it
/// readable without colour); then `¶` for a review thread (muted when resolved or outdated),
/// else `+` when more findings share the line.
fn gutter(
    marks: &[&ReviewNode],
    threads: &[&crate::pr::ReviewThread],
    cx: &ViewContext,
) -> Vec<Span<'static>> {
    let third = match threads.first() {
        Some(thread) => Span::styled(
            THREAD_MARK,
            if thread.is_open() {
                cx.theme.key_hint
            } else {
                cx.theme.muted
            },
        ),
        None if marks.len() > 1 => Span::styled("+", cx.theme.priority(marks[0].priority)),
        None => Span::raw(" "),
    };
    let first = match marks.first() {
        Some(node) => {
            let digit = node
                .priority
                .to_string()
                .trim_start_matches('P')
                .to_string();
            Span::styled(format!("◆{digit}"), cx.theme.priority(node.priority))
        }
        None => Span::raw("  "),
    };
    vec![first, third]
}

/// `thread by @alice · open · 3 comments` for the first thread on the cursor's line.
fn thread_label(thread: &crate::pr::ReviewThread) -> String {
    let state = crate::ui::thread_list::state_word(thread);
    format!(
        "¶ thread by @{} · {state} · {} comment(s)",
        crate::printable::line(thread.author()),
        thread.comments.len()
    )
}

fn footer_line(
    marks: &[&ReviewNode],
    threads: &[&crate::pr::ReviewThread],
    cursor: usize,
    len: usize,
    columns: usize,
    cx: &ViewContext,
) -> Line<'static> {
    let theme = &cx.theme;
    let position = format!("{}/{} ", cursor + 1, len);
    match marks.first() {
        Some(node) => {
            let more = if marks.len() > 1 {
                format!(" (+{} more)", marks.len() - 1)
            } else {
                String::new()
            };
            let hint = format!(
                " · {} selects it",
                cx.keymap
                    .keys_for(Context::Diff, crate::ui::Command::Expand)
            );
            // The title names the finding; its id (`secret-scan-7ae2…`) would eat a narrow
            // footer and means nothing to a person. The hint gives way to the title.
            let bare = width(&position) + 4 + width(&more);
            let hint = if columns >= bare + width(&hint) + 24 {
                hint
            } else {
                String::new()
            };
            let used = bare + width(&hint);
            Line::from(vec![
                Span::styled(position, theme.muted),
                Span::styled(
                    format!("◆ {} ", node.priority),
                    theme.priority(node.priority),
                ),
                Span::styled(
                    truncate(&node.text.title, columns.saturating_sub(used)),
                    theme.text,
                ),
                Span::styled(more, theme.muted),
                Span::styled(hint, theme.key_hint),
            ])
        }
        None if !threads.is_empty() => {
            let label = thread_label(threads[0]);
            let used = width(&position);
            Line::from(vec![
                Span::styled(position, theme.muted),
                Span::styled(
                    truncate(&label, columns.saturating_sub(used)),
                    theme.key_hint,
                ),
            ])
        }
        None => {
            let mut spans = vec![Span::styled(position, theme.muted)];
            for (action, what) in [
                (crate::ui::Command::NextFinding, "marks"),
                (crate::ui::Command::NextFile, "files"),
                (crate::ui::Command::Expand, "select"),
                (crate::ui::Command::Close, "close"),
            ] {
                let mut keys = cx.keymap.keys_for(Context::Diff, action);
                if action == crate::ui::Command::NextFinding {
                    keys = format!(
                        "{keys}/{}",
                        cx.keymap
                            .keys_for(Context::Diff, crate::ui::Command::PrevFinding)
                    );
                } else if action == crate::ui::Command::NextFile {
                    keys = format!(
                        "{keys}/{}",
                        cx.keymap
                            .keys_for(Context::Diff, crate::ui::Command::PrevFile)
                    );
                }
                spans.push(Span::styled(format!(" {keys}"), theme.key_hint));
                spans.push(Span::styled(format!(" {what} "), theme.muted));
            }
            Line::from(spans)
        }
    }
}

/// Highlights the page below the one on screen while the cockpit is idle, so that paging down
/// finds its lines in the highlighter's cache: highlighting a fresh page costs more than a
/// frame. Does nothing unless the diff view is on top.
pub fn prefetch_next_page(state: &AppState, cx: &ViewContext) {
    let Some(crate::ui::state::Overlay::Diff(view)) = state.top_overlay() else {
        return;
    };
    let height = state.layout.diff.height as usize;
    if height == 0 {
        return;
    }
    let doc = DiffDoc::new(state, view.cohort.as_deref());
    let start = view.offset.min(doc.len().saturating_sub(height)) + height;
    let end = (start + height).min(doc.len());
    let rows: Vec<DiffRow> = (start..end).filter_map(|r| doc.row(r)).collect();
    highlight_visible(&rows, cx);
}

/// Highlights the visible code lines, one window per run of lines of the same file.
fn highlight_visible(rows: &[DiffRow], cx: &ViewContext) -> HashMap<usize, Vec<Piece>> {
    let mut out = HashMap::new();
    let mut i = 0;
    while i < rows.len() {
        let DiffRow::Line { path, .. } = rows[i] else {
            i += 1;
            continue;
        };
        let start = i;
        let mut texts = Vec::new();
        while let Some(DiffRow::Line { path: p, line }) = rows.get(i) {
            if *p != path {
                break;
            }
            texts.push(line.text.replace('\t', "    "));
            i += 1;
        }
        for (k, pieces) in cx
            .highlighter
            .highlight(path, &texts)
            .into_iter()
            .enumerate()
        {
            out.insert(start + k, pieces);
        }
    }
    out
}
