//! The header: the PR, the round and the ladder, the verdict with its first reason, the axes.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph};

use super::{ViewContext, percent, shown, truncate, width};
use crate::space::state::Ladder;
use crate::ui::state::AppState;

const LADDER: [(Ladder, &str); 4] = [
    (Ladder::Requested, "requested"),
    (Ladder::InProgress, "in progress"),
    (Ladder::AwaitingApproval, "awaiting approval"),
    (Ladder::Completed, "completed"),
];

pub fn draw(frame: &mut Frame, area: Rect, state: &AppState, cx: &ViewContext) {
    let theme = &cx.theme;
    let columns = area.width as usize;
    let pr = &state.pr;

    let (reference, title) = (shown(&pr.reference()), shown(&pr.title));
    let mut first = vec![
        Span::styled(reference.clone(), theme.title),
        Span::raw("  "),
        Span::styled(title.clone(), theme.text),
    ];
    let branches = shown(&format!("{} ← {}", pr.base, pr.head));
    let used = width(&reference) + 2 + width(&title);
    if used + branches.len() + 4 < columns {
        first.push(Span::styled(format!("  ·  {branches}"), theme.muted));
    }
    if !pr.author.is_empty() {
        first.push(Span::styled(
            format!("  by {}", shown(&pr.author)),
            theme.muted,
        ));
    }

    let mut second = vec![Span::styled(
        if state.round == 0 {
            "no round yet  ".to_string()
        } else {
            format!("round {}  ", state.round)
        },
        theme.text,
    )];
    for (i, (step, label)) in LADDER.iter().enumerate() {
        if i > 0 {
            second.push(Span::styled(" → ", theme.muted));
        }
        let style = if *step == state.ladder {
            theme.ladder_current
        } else if *step < state.ladder {
            theme.ladder_done
        } else {
            theme.ladder_todo
        };
        let text = if *step == state.ladder {
            format!(" {label} ")
        } else if *step < state.ladder {
            format!("{label} ✓")
        } else {
            label.to_string()
        };
        second.push(Span::styled(text, style));
    }
    second.push(Span::styled(
        format!("   level {}", state.level),
        theme.muted,
    ));

    let third = match &state.verdict {
        None => Line::from(Span::styled(
            match &state.loading {
                Some(what) => format!("verdict: not yet — {what}"),
                None => "verdict: waiting for the reviewers".to_string(),
            },
            theme.muted,
        )),
        Some(verdict) => {
            let label = format!(" {} ", verdict.decision.label().to_uppercase());
            let mut spans = vec![
                Span::styled(label.clone(), theme.decision(verdict.decision)),
                Span::styled(
                    format!(" confidence {}", percent(verdict.confidence)),
                    theme.text,
                ),
            ];
            let mut used = width(&label) + 14;
            if state.ladder < Ladder::AwaitingApproval {
                spans.push(Span::styled(" (provisional)", theme.muted));
                used += 14;
            }
            if let Some(reason) = verdict.reasons.first() {
                let room = columns.saturating_sub(used + 3);
                spans.push(Span::styled(
                    format!(" · {}", truncate(reason, room)),
                    theme.text,
                ));
            }
            Line::from(spans)
        }
    };

    let fourth = if state.axes.is_empty() {
        Line::from(Span::styled("axes: none reported yet", theme.muted))
    } else {
        let mut spans = vec![Span::styled("axes ", theme.muted)];
        for (i, axis) in state.axes.iter().enumerate() {
            if i > 0 {
                spans.push(Span::styled(" · ", theme.muted));
            }
            use crate::review::AxisVerdict::*;
            let style = match axis.verdict {
                Pass => theme.axis_pass,
                Warn | Partial | Unavailable => theme.axis_warn,
                Fail => theme.axis_fail,
            };
            spans.push(Span::styled(axis.name.clone(), theme.text));
            spans.push(Span::raw(" "));
            spans.push(Span::styled(axis.verdict.as_str(), style));
            if axis.gated {
                spans.push(Span::styled(" (gated)", theme.muted));
            }
        }
        Line::from(spans)
    };

    let block = Block::default()
        .borders(Borders::BOTTOM)
        .border_style(theme.border);
    let paragraph =
        Paragraph::new(vec![Line::from(first), Line::from(second), third, fourth]).block(block);
    frame.render_widget(paragraph, area);
}
