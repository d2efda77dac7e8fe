//! The cohort diagram: the cohort's files in reading order and, for a semantic cohort, one
//! column per symbol that joins two or more of them, with a dot on each file that mentions it
//! and a line between the first and the last. A fallback cohort says it was grouped by path
//! and draws no links.
//!
//! ```text
//! joined by: Refresher, Token
//!                          Refresher  Token
//! 1. src/auth/refresh.rs   ●          ●
//! 2. src/auth/client.rs    │          ●
//! 3. tests/auth.rs         ●
//! ```

use ratatui::text::{Line, Span};

use super::{ViewContext, pad, truncate, width};
use crate::ui::state::CohortView;

/// Widest symbol name a column shows.
const NAME: usize = 14;

/// The diagram, fitted to `columns`.
pub(crate) fn diagram(cohort: &CohortView, columns: usize, cx: &ViewContext) -> Vec<Line<'static>> {
    let theme = &cx.theme;
    let mut lines = Vec::new();
    let numbered: Vec<String> = cohort
        .files
        .iter()
        .enumerate()
        .map(|(i, file)| format!("{}. {file}", i + 1))
        .collect();
    if cohort.fallback {
        lines.push(Line::from(Span::styled(
            truncate(
                "grouped by path: no code index for this language, so no symbol links",
                columns,
            ),
            theme.fallback,
        )));
        for file in numbered {
            lines.push(Line::from(Span::styled(
                truncate(&file, columns),
                theme.text,
            )));
        }
        return lines;
    }
    if !cohort.symbols.is_empty() {
        lines.push(Line::from(vec![
            Span::styled("joined by: ", theme.muted),
            Span::styled(
                truncate(&cohort.symbols.join(", "), columns.saturating_sub(11)),
                theme.text,
            ),
        ]));
    }
    let links = cohort.links();
    let file_width = numbered
        .iter()
        .map(|f| width(f))
        .max()
        .unwrap_or(0)
        .min(columns / 2)
        + 2;
    // Columns named by their symbols when they all fit; otherwise lettered, with a legend.
    let named: usize = links
        .iter()
        .map(|(s, _)| width(&truncate(s, NAME)) + 2)
        .sum();
    let lettered = file_width + named > columns;
    let mut shown = Vec::new();
    let mut used = file_width;
    for (i, (symbol, at)) in links.iter().enumerate() {
        let name = if lettered {
            letter(i)
        } else {
            truncate(symbol, NAME)
        };
        let column = width(&name) + 2;
        if used + column > columns.saturating_sub(3) {
            break;
        }
        used += column;
        shown.push((name, column, at));
    }
    if lettered && !shown.is_empty() {
        let legend: Vec<String> = links
            .iter()
            .zip(&shown)
            .map(|((symbol, _), (name, _, _))| format!("{name} {symbol}"))
            .collect();
        lines.push(Line::from(Span::styled(legend.join(" · "), theme.muted)));
    }
    let mut header = vec![Span::raw(" ".repeat(file_width))];
    for (name, column, _) in &shown {
        header.push(Span::styled(pad(name, *column), theme.title));
    }
    if links.len() > shown.len() {
        header.push(Span::styled(
            format!("+{}", links.len() - shown.len()),
            theme.muted,
        ));
    }
    lines.push(Line::from(header));
    for (i, file) in numbered.iter().enumerate() {
        let mut spans = vec![Span::styled(pad(file, file_width), theme.text)];
        for (_, column, at) in &shown {
            let first = at.first().copied().unwrap_or(0);
            let last = at.last().copied().unwrap_or(0);
            let (cell, style) = if at.contains(&i) {
                ("●", theme.key_hint)
            } else if i > first && i < last {
                ("│", theme.muted)
            } else {
                (" ", theme.muted)
            };
            spans.push(Span::styled(pad(cell, *column), style));
        }
        lines.push(Line::from(spans));
    }
    lines
}

/// `a`…`z`, then `27`, `28`…: a column's name when the symbols' names do not fit.
fn letter(i: usize) -> String {
    match u8::try_from(i).ok().filter(|i| *i < 26) {
        Some(i) => char::from(b'a' + i).to_string(),
        None => (i + 1).to_string(),
    }
}
