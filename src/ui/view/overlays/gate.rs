//! The approval gate: the verdict, why it holds, the counts, and the gate's keys.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Padding, Paragraph, Wrap};

use super::boxed;
use crate::review::Priority;
use crate::ui::command::Command;
use crate::ui::keymap::{Context, short};
use crate::ui::state::AppState;
use crate::ui::update::for_context;
use crate::ui::view::{ViewContext, centered, pad, percent};

/// The gate: the verdict and its counts above (scrolling when they do not fit), its keys
/// below, always whole: one per line with what it does when there is room, else on one
/// wrapped line.
pub(super) fn draw(
    frame: &mut Frame,
    area: Rect,
    state: &AppState,
    details: bool,
    scroll: u16,
    cx: &ViewContext,
) -> u16 {
    // The gate leaves the bottom lines (the message and its keys' hints) in sight.
    let status = crate::ui::view::status::height(state, area.width, area.height);
    let area = if area.height >= status + 10 {
        Rect {
            height: area.height - status,
            ..area
        }
    } else {
        area
    };
    let lines = body(state, details, cx);

    let width = area.width.min(92);
    let inner_width = width.saturating_sub(2);
    let body = Paragraph::new(lines).wrap(Wrap { trim: false });
    let body_height = body.line_count(inner_width.saturating_sub(1)) as u16;
    let keys = keys(state, cx);
    let room = area.height.saturating_sub(2);
    // One key per line needs the width for the descriptions and leaves four lines above.
    let long = inner_width >= 60 && room >= keys.len() as u16 + 5;
    let footer = footer(&keys, long, inner_width, cx);
    let footer_height = (footer.line_count(inner_width) as u16).min(room);
    let shown = body_height.min(room - footer_height);
    let rect = centered(area, width, shown + footer_height + 2);
    frame.render_widget(Clear, rect);
    let scrolls = shown < body_height;
    let block = boxed(
        if scrolls {
            format!(
                " Approval gate · {} scroll ",
                cx.keymap.scroll_keys(Context::Gate)
            )
        } else {
            " Approval gate — nothing is posted without you ".to_string()
        },
        cx,
    );
    let inner = block.inner(rect);
    frame.render_widget(block, rect);
    let [top, bottom] = Layout::vertical([
        Constraint::Length(inner.height.saturating_sub(footer_height)),
        Constraint::Length(footer_height),
    ])
    .areas(inner);
    frame.render_widget(footer, bottom);
    crate::ui::view::scrolled(
        frame,
        top,
        Block::default().padding(Padding::right(1)),
        body,
        scroll,
        cx,
    )
}

/// Movement keys: listed in help, not among an overlay's actions.
fn is_scroll(command: Command) -> bool {
    use Command as A;
    matches!(
        command,
        A::MoveDown | A::MoveUp | A::PageDown | A::PageUp | A::Top | A::Bottom
    )
}

/// "Why BLOCK": each finding that holds the verdict, one row each (priority, where, what), and
/// the one way past it: the person's dismissal with a reason, reached with the gate's `w`.
fn why_rows(
    lines: &mut Vec<Line<'static>>,
    state: &AppState,
    decision: crate::review::Decision,
    cx: &ViewContext,
) {
    let theme = &cx.theme;
    let holding = state.holding();
    if holding.is_empty() {
        return;
    }
    lines.push(Line::raw(""));
    lines.push(Line::from(vec![
        Span::styled(
            format!("Why {} ", decision.label().to_uppercase()),
            theme.title,
        ),
        Span::styled(
            format!(
                "· held by {}: {} goes to each; dismissing it with a reason is the only override",
                crate::ui::text::plural(holding.len(), "finding"),
                cx.keymap.key(Context::Gate, Command::GateWhy)
            ),
            theme.muted,
        ),
    ]));
    for node in holding {
        lines.push(Line::from(vec![
            Span::styled(
                format!("  {} ", node.priority),
                theme.priority(node.priority),
            ),
            Span::styled(format!("{} ", node.location()), theme.muted),
            Span::styled(node.text.title.clone(), theme.text),
        ]));
    }
}

/// Above the keys, in order: what was published (first: on a short screen what is below
/// scrolls out of sight), the verdict with its reasons and counts, the marks.
fn body(state: &AppState, details: bool, cx: &ViewContext) -> Vec<Line<'static>> {
    let theme = &cx.theme;
    let mut lines = published(state, cx).unwrap_or_default();
    verdict(&mut lines, state, details, cx);
    if !state.findings.marked.is_empty() {
        lines.push(Line::from(Span::styled(
            format!(
                "{} marked: fix and ignore act on them",
                state.findings.marked.len()
            ),
            theme.marked,
        )));
    }
    lines
}

/// The verdict, its reasons (the first, or all with `details`), why it holds, the counts.
fn verdict(lines: &mut Vec<Line<'static>>, state: &AppState, details: bool, cx: &ViewContext) {
    let theme = &cx.theme;
    match &state.verdict {
        Some(verdict) => {
            lines.push(Line::from(vec![
                Span::styled("Verdict   ", theme.muted),
                Span::styled(
                    format!(" {} ", verdict.decision.label().to_uppercase()),
                    theme.decision(verdict.decision),
                ),
                Span::styled(
                    if state.deterministic_only {
                        crate::ui::view::header::NO_MODELS.to_string()
                    } else {
                        format!("  confidence {}", percent(verdict.confidence))
                    },
                    theme.text,
                ),
            ]));
            // The code's verdict stays; what the person's overrides make of it is what the
            // gate publishes.
            if let Some(person) = state.persons_decision() {
                lines.push(Line::from(vec![
                    Span::styled("Person    ", theme.muted),
                    Span::styled(
                        format!(" {} ", person.decision.label().to_uppercase()),
                        theme.decision(person.decision),
                    ),
                    Span::styled(
                        format!(
                            "  by code {} · {}",
                            verdict.decision.label().to_uppercase(),
                            crate::review::axis_override::lines(&person).join(" · ")
                        ),
                        theme.text,
                    ),
                ]));
            }
            let reasons: Vec<&String> = if details {
                verdict.reasons.iter().collect()
            } else {
                verdict.reasons.iter().take(1).collect()
            };
            for reason in reasons {
                lines.push(Line::from(Span::styled(format!("· {reason}"), theme.text)));
            }
            if !details && verdict.reasons.len() > 1 {
                lines.push(Line::from(Span::styled(
                    format!(
                        "… {} more: {} shows them",
                        crate::ui::view::plural(verdict.reasons.len() - 1, "reason"),
                        cx.keymap.key(Context::Gate, Command::GateDetails)
                    ),
                    theme.muted,
                )));
            }
            why_rows(lines, state, verdict.decision, cx);
            let c = &verdict.counts;
            let mut counts = vec![Span::styled("Findings  ", theme.muted)];
            for (priority, n) in [
                (Priority::P0, c.p0),
                (Priority::P1, c.p1),
                (Priority::P2, c.p2),
                (Priority::P3, c.p3),
            ] {
                counts.push(Span::styled(
                    format!("{priority} {n}"),
                    theme.priority(priority),
                ));
                counts.push(Span::raw("   "));
            }
            lines.push(Line::raw(""));
            lines.push(Line::from(counts));
            lines.push(Line::from(Span::styled(
                format!(
                    "counted {} · duplicates {} · out of scope {} · resolved {} · dismissed {}",
                    c.counted, c.duplicates, c.out_of_scope, c.resolved, c.dismissed
                ),
                theme.muted,
            )));
        }
        None => lines.push(Line::from(Span::styled("no verdict yet", theme.muted))),
    }
}

/// Where the round was published, whether the screen still says what was posted, and what
/// publishing again would do (`None`: not published).
fn published(state: &AppState, cx: &ViewContext) -> Option<Vec<Line<'static>>> {
    let theme = &cx.theme;
    let target = state.published.as_ref()?;
    let mut top = vec![Line::from(vec![
        Span::styled("Published ", theme.muted),
        Span::styled(format!(" round {}: {target}", state.round), theme.text),
    ])];
    // What was posted and what the screen says now, when they differ: never silently.
    if let Some(changed) = crate::ui::view::header::changed_text(state) {
        top.push(Line::from(Span::styled(changed, theme.message_warn)));
    }
    let next = if state.something_new() {
        format!(
            "{} publishes what changed since (a new review only for a changed event or new comments; the summary edited)",
            state.key(Context::Gate, crate::ui::command::Command::GatePublish)
        )
    } else {
        "nothing changed since it was published; a new push to the PR starts the next round"
            .to_string()
    };
    top.push(Line::from(Span::styled(next, theme.muted)));
    top.push(Line::raw(""));
    Some(top)
}

/// A key of the gate as its footer shows it: (keys, description, short word, whether it can
/// run now).
type GateKey = (String, &'static str, &'static str, bool);

/// The gate's keys; what cannot run now (no fix to write, nothing to ignore) is greyed, never
/// hidden.
fn keys(state: &AppState, cx: &ViewContext) -> Vec<GateKey> {
    let gate = for_context(Context::Gate);
    cx.keymap
        .bindings
        .iter()
        .filter(|b| b.context == Context::Gate && !b.keys.is_empty())
        .filter(|b| !is_scroll(b.command))
        // A published round is offered again only for what changed since (as the banner
        // and the hint line say); otherwise the gate stops offering it.
        .filter(|b| {
            !(state.published.is_some()
                && !state.something_new()
                && b.command == Command::GatePublish)
        })
        .map(|b| {
            let keys = b
                .keys
                .iter()
                .map(|k| k.to_string())
                .collect::<Vec<_>>()
                .join("/");
            (
                keys,
                b.desc,
                short(b.command),
                gate.available(state, b.command),
            )
        })
        .collect()
}

/// The keys below the gate: one a line with what it does (`long`), else packed.
fn footer(keys: &[GateKey], long: bool, inner_width: u16, cx: &ViewContext) -> Paragraph<'static> {
    let theme = &cx.theme;
    if long {
        let mut footer: Vec<Line> = vec![Line::raw("")];
        for (keys, desc, _, now) in keys {
            let (key_style, text_style) = if *now {
                (theme.key_hint, theme.text)
            } else {
                (theme.muted, theme.muted)
            };
            footer.push(Line::from(vec![
                Span::styled(format!("  {}", pad(keys, 6)), key_style),
                Span::styled(
                    crate::ui::view::truncate(desc, inner_width as usize - 8),
                    text_style,
                ),
            ]));
        }
        Paragraph::new(footer)
    } else {
        // Packed a line at a time, each key with its word: a key is never on one line and
        // what it does on the next.
        let mut lines: Vec<Line> = Vec::new();
        let mut spans = Vec::new();
        let mut used = 0;
        for (keys, _, short, now) in keys {
            let (key_style, text_style) = if *now {
                (theme.key_hint, theme.text)
            } else {
                (theme.muted, theme.muted)
            };
            let cost = crate::ui::view::width(keys) + 1 + crate::ui::view::width(short);
            if used > 0 && used + cost > inner_width as usize {
                lines.push(Line::from(std::mem::take(&mut spans)));
                used = 0;
            }
            spans.push(Span::styled(keys.clone(), key_style));
            spans.push(Span::styled(format!(" {short}  "), text_style));
            used += cost + 2;
        }
        lines.push(Line::from(spans));
        Paragraph::new(lines)
    }
}
