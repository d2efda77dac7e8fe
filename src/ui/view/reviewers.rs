//! The reviewers: each one's phase, findings, tokens and cost, and its last note or why it
//! failed.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Block;

use super::{ViewContext, pad, spinner, truncate};
use crate::review::{ReviewerPhase, Stall};
use crate::ui::state::{AppState, Pane};
use crate::ui::update::reviewer_order;

pub(super) fn draw(frame: &mut Frame, area: Rect, state: &AppState, cx: &ViewContext) {
    let theme = &cx.theme;
    let focused = state.focus == Pane::Reviewers && state.overlays.is_empty();
    let (tokens, cost) = state
        .board
        .reviewers
        .values()
        .fold((0u64, 0f64), |(t, c), r| {
            (t + r.tokens_used, c + r.cost_usd)
        });
    // The pass after the reviewers, while it runs: in the title, which is always drawn, before
    // the tokens (a narrow pane cuts the title's end).
    let phase = state
        .phase
        .as_deref()
        .map(|phase| {
            let progress = state.pass.short();
            if progress.is_empty() {
                format!(" · {} {phase}…", spinner(state.tick))
            } else {
                format!(" · {} {phase} {progress}", spinner(state.tick))
            }
        })
        .unwrap_or_default();
    // A cost only when a price made one: `$0.00` would claim the review was free.
    let title = if cost > 0.0 {
        format!(" Reviewers{phase} · {} tok · ${cost:.2} ", compact(tokens))
    } else {
        format!(" Reviewers{phase} · {} tok ", compact(tokens))
    };
    // A narrow pane gives the pass's progress the room of the pane's name (its rows say what
    // it is): the progress is what changes.
    let title = if !phase.is_empty() && super::width(&title) + 2 > area.width as usize {
        title.replacen(" Reviewers · ", " ", 1)
    } else {
        title
    };
    let block = Block::bordered()
        .title(Span::styled(title, theme.title))
        .border_style(theme.border_for(focused));
    let inner = block.inner(area);
    let columns = inner.width as usize;
    let mut lines = Vec::new();
    if state.board.reviewers.is_empty() {
        lines.push(Line::from(Span::styled(
            "no reviewer dispatched yet",
            theme.muted,
        )));
    }
    let mut selected_row = None;
    for name in reviewer_order(state) {
        let r = &state.board.reviewers[name];
        let (symbol, phase, style) = match r.phase {
            ReviewerPhase::Queued => ("·", "queued".to_string(), theme.reviewer_queued),
            // What holds a turn up is the phase a person needs to see, even at 80 columns
            // where the note is cut: `retry 2` (or `limit 2` for a rate limit), `waiting`.
            ReviewerPhase::Reading => (
                spinner(state.tick),
                match r.stalled {
                    Some(Stall::Retrying {
                        rate_limited: false,
                    }) => format!("retry {}", r.retries),
                    Some(Stall::Retrying { rate_limited: true }) => format!("limit {}", r.retries),
                    Some(Stall::Waiting) => "waiting".to_string(),
                    None => "reading".to_string(),
                },
                theme.reviewer_reading,
            ),
            ReviewerPhase::Done => ("✓", "done".to_string(), theme.reviewer_done),
            ReviewerPhase::Failed => (
                "✗",
                match r.outcome {
                    Some(crate::review::Outcome::InvalidOutput) => "invalid".to_string(),
                    _ => "failed".to_string(),
                },
                theme.reviewer_failed,
            ),
            ReviewerPhase::Skipped => ("–", "skipped".to_string(), theme.reviewer_queued),
        };
        let counts = if r.dropped > 0 {
            format!("{}+{}✗", r.findings, r.dropped)
        } else {
            r.findings.to_string()
        };
        let tokens = match r.tokens_used {
            0 => String::new(),
            tokens => compact(tokens),
        };
        let spend = if r.cost_usd > 0.0 {
            format!("{tokens} ${:.2}", r.cost_usd)
        } else {
            tokens.clone()
        };
        // A narrow pane drops the cost, then the tokens (the title keeps the totals), never
        // a figure's end: `$0` for `$0.07` would be a wrong figure.
        let mut head = format!(
            "{symbol} {} {} {:>3}",
            pad(name, 11),
            pad(&phase, 7),
            counts
        );
        if let Some(spend) = [spend, tokens]
            .into_iter()
            .find(|spend| super::width(&head) + 1 + super::width(spend).max(11) <= columns)
        {
            head.push(' ');
            head.push_str(&pad(&spend, 11));
        }
        let selected = focused && state.reviewers.selected.as_deref() == Some(name);
        let note_room = columns.saturating_sub(super::width(&head) + 1);
        let mut spans = vec![
            Span::styled(head, style),
            Span::styled(format!(" {}", truncate(&r.note, note_room)), theme.muted),
        ];
        if state.reviewers.selected.as_deref() == Some(name) {
            selected_row = Some(lines.len());
        }
        if selected {
            spans = spans
                .into_iter()
                .map(|s| s.patch_style(theme.selection))
                .collect();
        }
        lines.push(Line::from(spans));
    }
    super::list_pane(frame, area, block, lines, selected_row, cx);
}

/// 12345 → `12.3k`.
pub(crate) fn compact(tokens: u64) -> String {
    match tokens {
        0..1_000 => tokens.to_string(),
        1_000..1_000_000 => format!("{:.1}k", tokens as f64 / 1_000.0),
        _ => format!("{:.1}M", tokens as f64 / 1_000_000.0),
    }
}
