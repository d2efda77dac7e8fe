//! The header: the PR, the round and the ladder, the verdict with its first reason, the axes.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph};

use super::{ViewContext, percent, shown, truncate, width};
use crate::space::Ladder;
use crate::ui::state::AppState;

/// What a `--deterministic-only` round says in place of a confidence.
pub(crate) const NO_MODELS: &str = " · model reviewers did not run (--deterministic-only)";

const LADDER: [(Ladder, &str); 4] = [
    (Ladder::Requested, "requested"),
    (Ladder::InProgress, "in progress"),
    (Ladder::AwaitingApproval, "awaiting approval"),
    (Ladder::Completed, "completed"),
];

pub(crate) fn draw(frame: &mut Frame, area: Rect, state: &AppState, cx: &ViewContext) {
    if area.height < 3 {
        compact(frame, Rect { height: 1, ..area }, state, cx);
        if area.height == 2 && state.no_model {
            let columns = area.width as usize;
            let line = crate::session::no_model::line(columns.saturating_sub(2));
            let text = format!(" {} ", truncate(line, columns.saturating_sub(2)));
            frame.render_widget(
                Paragraph::new(Span::styled(text, cx.theme.message_warn)),
                Rect {
                    y: area.y + 1,
                    height: 1,
                    ..area
                },
            );
        }
        return;
    }
    let theme = &cx.theme;
    let columns = area.width as usize;
    let lines = vec![
        Line::from(pr_line(state, cx, columns)),
        Line::from(round_line(state, cx, columns)),
        verdict_line(state, cx, columns),
        axes_line(state, cx),
    ];
    let block = Block::default()
        .borders(Borders::BOTTOM)
        .border_style(theme.border);
    let paragraph = Paragraph::new(lines).block(block);
    frame.render_widget(paragraph, area);
}

/// The first line: the PR, its title, its branches when they fit, its author.
fn pr_line(state: &AppState, cx: &ViewContext, columns: usize) -> Vec<Span<'static>> {
    let theme = &cx.theme;
    let pr = &state.pr;
    let (reference, title) = (shown(&pr.reference()), shown(&pr.title));
    let mut first = vec![
        Span::styled(reference.clone(), theme.title),
        Span::raw("  "),
        Span::styled(title.clone(), theme.text),
    ];
    let branches = shown(&format!("{} ← {}", pr.base, pr.head));
    let used = width(&reference) + 2 + width(&title);
    // Before the pull request is known there is nothing to name: no empty `  ·   ←`.
    let known = !pr.base.is_empty() || !pr.head.is_empty();
    if known && used + branches.len() + 4 < columns {
        first.push(Span::styled(format!("  ·  {branches}"), theme.muted));
    }
    if !pr.author.is_empty() {
        first.push(Span::styled(
            format!("  by {}", shown(&pr.author)),
            theme.muted,
        ));
    }
    first
}

/// The second line: the round's ladder and the level, after the offline or no-model banner.
fn round_line(state: &AppState, cx: &ViewContext, columns: usize) -> Vec<Span<'static>> {
    let theme = &cx.theme;
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
    match state.offline.as_ref().or(no_model.as_ref()) {
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
    }
}

/// The third line: the verdict (or that it is running, or not yet), its confidence or the
/// person's decision, its first reason.
fn verdict_line(state: &AppState, cx: &ViewContext, columns: usize) -> Line<'static> {
    let theme = &cx.theme;
    match &state.verdict {
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
            // Without model reviewers no confidence is claimed: the header says what did
            // not run instead.
            let claim = if state.deterministic_only {
                NO_MODELS.to_string()
            } else {
                format!(" confidence {}", percent(verdict.confidence))
            };
            let used = width(&label) + width(&claim);
            let mut spans = vec![Span::styled(
                label.clone(),
                theme.decision(verdict.decision),
            )];
            let person = state.persons_decision();
            if let Some(person) = &person {
                // The code's verdict stays; the person's decision is shown beside it.
                let text = format!(
                    " by code · {} → {}",
                    crate::review::axis_override::lines(person).join(" · "),
                    person.decision.label().to_uppercase()
                );
                let room = columns.saturating_sub(width(&label));
                spans.push(Span::styled(truncate(&text, room), theme.text));
            } else {
                spans.push(Span::styled(claim, theme.text));
            }
            if let (Some(reason), None) = (verdict.reasons.first(), &person) {
                let room = columns.saturating_sub(used + 3);
                spans.push(Span::styled(
                    format!(" · {}", truncate(reason, room)),
                    theme.text,
                ));
            }
            Line::from(spans)
        }
    }
}

/// The fourth line: each axis with its verdict.
fn axes_line(state: &AppState, cx: &ViewContext) -> Line<'static> {
    let theme = &cx.theme;
    if state.axes.is_empty() {
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
    }
}

/// The header of a short terminal, one line: the decision (or that it is running), the PR,
/// the round and its step, the level. Each part gives way from the end.
fn compact(frame: &mut Frame, area: Rect, state: &AppState, cx: &ViewContext) {
    let theme = &cx.theme;
    let (label, style) = match &state.verdict {
        Some(_) if state.review_running() => (" RUNNING ".to_string(), theme.ladder_current),
        None if state.loading.is_none() && state.review_running() => {
            (" RUNNING ".to_string(), theme.ladder_current)
        }
        Some(verdict) => (
            format!(" {} ", verdict.decision.label().to_uppercase()),
            theme.decision(verdict.decision),
        ),
        None => (" not yet ".to_string(), theme.muted),
    };
    let step = LADDER
        .iter()
        .find(|(step, _)| *step == state.ladder)
        .map_or("", |(_, label)| label);
    let round = if state.round == 0 {
        "no round yet".to_string()
    } else {
        format!("round {} {step}", state.round)
    };
    // What is known so far while it runs, the verdict's first reason once decided (what a
    // person acts on), else the title.
    let about = match &state.verdict {
        _ if state.review_running() && state.loading.is_none() => so_far(state),
        Some(verdict) if !verdict.reasons.is_empty() => verdict.reasons[0].clone(),
        _ => state.pr.title.clone(),
    };
    // The round's step and the level before the reference, which can be long (a local
    // repository's path and range): they are what changes.
    let rest = if state.review_running() && state.loading.is_none() {
        format!(
            " {} · {round} · level {} · {}",
            shown(&about),
            state.level,
            shown(&state.pr.reference()),
        )
    } else {
        format!(
            " {round} · level {} · {} · {}",
            state.level,
            shown(&state.pr.reference()),
            shown(&about)
        )
    };
    let mut room = (area.width as usize).saturating_sub(width(&label));
    let mut spans = vec![Span::styled(label, style)];
    // Offline, the banner comes right after the decision, whole where it fits: the stored
    // verdict is never read as a fresh review.
    if let Some(banner) = &state.offline {
        let banner = truncate(&format!(" {banner} "), room);
        room = room.saturating_sub(width(&banner));
        spans.push(Span::styled(banner, theme.message_warn));
    }
    if state.deterministic_only && state.verdict.is_some() {
        let said = truncate(" · no model reviewer ran", room);
        room = room.saturating_sub(width(&said));
        spans.push(Span::styled(said, theme.muted));
    }
    spans.push(Span::styled(truncate(&rest, room), theme.text));
    let line = Line::from(spans);
    frame.render_widget(Paragraph::new(line), area);
}

/// What a running review knows so far: reviewers done of all, what failed, the findings by
/// priority (`2 of 5 reviewers done · 1 failed · 3 findings so far: P0 1 · P1 2`).
fn so_far(state: &AppState) -> String {
    use crate::review::ReviewerPhase;
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
    if state.watching {
        ladder.push(Span::styled("  · watching", theme.muted));
    }
    ladder
}

/// How many lines the published-and-changed banner takes at `width` (0: nothing changed
/// since publishing): wrapped, never cut, up to three.
pub(crate) fn banner_height(state: &AppState, width: u16) -> u16 {
    changed_text(state).map_or(0, |text| {
        (crate::ui::text::wrap_words(&text, (width as usize).saturating_sub(2)).len() as u16).min(3)
    })
}

/// The banner over the panes when what is on screen is no longer what was published.
pub(crate) fn banner(frame: &mut Frame, area: Rect, state: &AppState, cx: &ViewContext) {
    if area.height == 0 {
        return;
    }
    if let Some(text) = changed_text(state) {
        let lines: Vec<Line> =
            crate::ui::text::wrap_words(&text, (area.width as usize).saturating_sub(2))
                .into_iter()
                .map(|line| Line::from(Span::styled(format!(" {line} "), cx.theme.message_warn)))
                .collect();
        frame.render_widget(Paragraph::new(lines), area);
    }
}

/// `published HOLD at 04:13 — now BLOCK: …`, when the screen no longer says what was posted:
/// the decision by code is another one, or the person's triage changed the posted text.
pub(crate) fn changed_text(state: &AppState) -> Option<String> {
    use crate::session::posted::Changed;
    let changed = state.changed_since_published()?;
    let posted = state.posted.as_ref()?;
    let was = posted.posted.decision.label().to_uppercase();
    let at = clock(&posted.at);
    let again = format!(
        "publish again? ({} then {})",
        state.key(
            crate::ui::keymap::Context::Main,
            crate::ui::command::Command::OpenGate
        ),
        state.key(
            crate::ui::keymap::Context::Gate,
            crate::ui::command::Command::GatePublish
        )
    );
    Some(match changed {
        Changed::Decision { now, .. } => format!(
            "published {was} at {at} — now {}: {again}",
            now.label().to_uppercase()
        ),
        Changed::Text => {
            format!("published {was} at {at} — your triage since changes what it says: {again}")
        }
    })
}

/// What leaving says when the decision it exits with is not the one that was published: the
/// exit code and the posted review (or `review.md`) must never disagree in silence.
pub(crate) fn left_unpublished(state: &AppState) -> Option<String> {
    use crate::session::posted::Changed;
    let changed = state.changed_since_published()?;
    let posted = state.posted.as_ref()?;
    let was = posted.posted.decision.label().to_uppercase();
    let at = clock(&posted.at);
    let what = match changed {
        Changed::Decision { now, .. } => format!(
            "leaving at {} (the exit code's), but what was published at {at} says {was}",
            now.label().to_uppercase()
        ),
        Changed::Text => format!(
            "your triage since the publish at {at} ({was}) changes what it says, and it was not published again"
        ),
    };
    Some(format!(
        "{what}: publish again from the gate, or with --headless --publish, to post the change"
    ))
}

/// `04:13 UTC` of an RFC 3339 time (the whole text when it is not one).
fn clock(at: &str) -> String {
    at.split_once('T')
        .and_then(|(_, time)| time.get(..5))
        .map_or_else(|| at.to_string(), |time| format!("{time} UTC"))
}
