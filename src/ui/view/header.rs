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

    // The level is part of the line, never cut: when the whole ladder does not fit, its done
    // steps shrink to their ✓.
    let level = Span::styled(format!("   level {}", state.level), theme.muted);
    let mut ladder = ladder_spans(state, cx, false);
    let used: usize = ladder.iter().map(|s| s.width()).sum::<usize>() + level.width();
    if used > columns {
        ladder = ladder_spans(state, cx, true);
    }
    ladder.push(level);
    // Offline, the round line is the banner, first and whole (it names the round and when it
    // was reviewed), so the stored verdict below it is never read as a fresh review; the
    // ladder follows only when all of it fits.
    // Without a model the round can only be Inconclusive: the first screen says what did not
    // run and the two ways on, in the same place.
    let no_model = state
        .no_model
        .then(|| crate::session::no_model::line(columns.saturating_sub(2)).to_string());
    let second = match state.offline.as_ref().or(no_model.as_ref()) {
        Some(banner) => {
            let banner = format!(" {} ", truncate(banner, columns.saturating_sub(2)));
            let rest: usize = ladder.iter().map(|s| s.width()).sum();
            let fits = width(&banner) + 2 + rest <= columns;
            let mut line = vec![Span::styled(banner, theme.message_warn)];
            if fits {
                line.push(Span::raw("  "));
                line.extend(ladder);
            }
            line
        }
        None => ladder,
    };

    let third = match &state.verdict {
        // While reviewers are queued or reading, a decision would be a guess: say so, with
        // what is known so far.
        Some(_) if state.review_running() => {
            let label = " RUNNING ";
            let known = so_far(state);
            let room = columns.saturating_sub(width(label) + 3);
            Line::from(vec![
                Span::styled(label, theme.ladder_current),
                Span::styled(format!(" · {}", truncate(&known, room)), theme.text),
            ])
        }
        // Preparing says what it is doing; the round starts after it.
        None if state.loading.is_none() && state.review_running() => Line::from(vec![
            Span::styled(" RUNNING ", theme.ladder_current),
            Span::styled(format!(" · {}", so_far(state)), theme.text),
        ]),
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
            let used = width(&label) + 14;
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

/// What a running review knows so far: reviewers done of all, what failed, the findings by
/// priority (`2 of 5 reviewers done · 1 failed · 3 findings so far: P0 1 · P1 2`).
fn so_far(state: &AppState) -> String {
    use crate::review::board::ReviewerPhase;
    let reviewers = &state.board.reviewers;
    let finished = reviewers
        .values()
        .filter(|r| {
            matches!(
                r.phase,
                ReviewerPhase::Done | ReviewerPhase::Failed | ReviewerPhase::Skipped
            )
        })
        .count();
    let failed = reviewers
        .values()
        .filter(|r| r.phase == ReviewerPhase::Failed)
        .count();
    let mut parts = Vec::new();
    if reviewers.is_empty() {
        parts.push("starting the reviewers".to_string());
    } else if finished == reviewers.len() {
        match state.phase.as_deref() {
            // The pass the round waits on, how far it is, and what holds it up.
            Some(phase) => {
                let progress = state.pass.long();
                parts.push(if progress.is_empty() {
                    format!("reviewers done · {phase}")
                } else {
                    format!("reviewers done · {phase} {progress}")
                });
            }
            None => parts.push("reviewers done, finishing the round".to_string()),
        }
    } else {
        parts.push(format!("{finished} of {} reviewers done", reviewers.len()));
    }
    if failed > 0 {
        parts.push(format!("{failed} failed"));
    }
    let active: Vec<_> = state
        .board
        .nodes
        .iter()
        .filter(|n| n.status.is_active() && n.duplicate_of.is_none())
        .collect();
    if active.is_empty() {
        parts.push("no findings yet".to_string());
    } else {
        let by_priority: Vec<String> = crate::review::Priority::ALL
            .iter()
            .filter_map(|p| {
                let n = active.iter().filter(|f| f.priority == *p).count();
                (n > 0).then(|| format!("{p} {n}"))
            })
            .collect();
        parts.push(format!(
            "{} so far: {}",
            super::plural(active.len(), "finding"),
            by_priority.join(" · ")
        ));
    }
    parts.join(" · ")
}

/// `round N  requested ✓ → in progress ✓ →  awaiting approval  → completed`; `compact`: the
/// done steps as `✓` alone.
fn ladder_spans(state: &AppState, cx: &ViewContext, compact: bool) -> Vec<Span<'static>> {
    let theme = &cx.theme;
    let mut ladder = vec![Span::styled(
        if state.round == 0 {
            "no round yet  ".to_string()
        } else {
            format!("round {}  ", state.round)
        },
        theme.text,
    )];
    for (i, (step, label)) in LADDER.iter().enumerate() {
        if i > 0 {
            ladder.push(Span::styled(" → ", theme.muted));
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
        } else if *step < state.ladder && compact {
            "✓".to_string()
        } else if *step < state.ladder {
            format!("{label} ✓")
        } else {
            label.to_string()
        };
        ladder.push(Span::styled(text, style));
    }
    ladder
}
