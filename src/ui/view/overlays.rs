//! The overlay stack, drawn bottom to top: help, the approval gate, the publish preview, text
//! boxes and errors.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Padding, Paragraph, Wrap};

use super::{ViewContext, centered, pad, percent};
use crate::review::Priority;
use crate::ui::command::Command;
use crate::ui::keymap::{Context, short};
use crate::ui::state::{AppState, InputOverlay, InputPurpose, Overlay, PreviewData};
use crate::ui::update::for_context;

/// Draws the stack; returns where the diff view's lines landed (zero when it is not open)
/// and how far the top overlay can scroll.
pub fn draw(frame: &mut Frame, area: Rect, state: &AppState, cx: &ViewContext) -> (Rect, u16) {
    let mut diff_lines = Rect::default();
    let mut scroll_max = 0;
    for overlay in &state.overlays {
        scroll_max = 0;
        match overlay {
            Overlay::Help { scroll } => scroll_max = help(frame, area, state, *scroll, cx),
            Overlay::Gate { details, scroll } => {
                scroll_max = gate(frame, area, state, *details, *scroll, cx)
            }
            Overlay::PreviewPending => pending(frame, area, cx),
            Overlay::Preview {
                data,
                scroll,
                raised,
            } => scroll_max = preview(frame, area, state, data, (*scroll, *raised), cx),
            Overlay::Input(input) => text_box(frame, area, state, input, cx),
            Overlay::Error { title, message } => error(frame, area, title, message, cx),
            // Above the bottom lines: what `n`, `N` or a jump says stays in sight.
            Overlay::Diff(view) => {
                let status = super::status::height(state, area.width, area.height);
                let above = Rect {
                    height: area.height.saturating_sub(status),
                    ..area
                };
                diff_lines = super::diff::draw(frame, above, state, view, cx)
            }
            Overlay::Patch { scroll } => scroll_max = patch(frame, area, state, *scroll, cx),
            Overlay::Log { scroll } => scroll_max = event_log(frame, area, state, *scroll, cx),
            Overlay::Threads { cursor } => {
                super::review_threads::draw(frame, area, state, *cursor, cx)
            }
        }
    }
    (diff_lines, scroll_max)
}

fn boxed<'a>(title: String, cx: &ViewContext) -> Block<'a> {
    Block::bordered()
        .title(Span::styled(title, cx.theme.title))
        .border_style(cx.theme.border_focused)
}

/// Every key, by where it applies. A command that cannot run now (nothing selected, no review
/// running, no patch yet) is greyed: it is there, and says why when pressed.
fn help(frame: &mut Frame, area: Rect, state: &AppState, scroll: u16, cx: &ViewContext) -> u16 {
    let theme = &cx.theme;
    let rect = centered(area, 112, area.height.saturating_sub(2));
    // The keys of what had focus when `?` was pressed come first, then the legend and the rest.
    let here = focused_context(state);
    let mut contexts = vec![here];
    contexts.extend(
        [
            Context::Main,
            Context::Diff,
            Context::Gate,
            Context::Preview,
            Context::Patch,
            Context::Log,
            Context::Threads,
        ]
        .into_iter()
        .filter(|c| *c != here),
    );
    let mut lines = Vec::new();
    for (i, context) in contexts.into_iter().enumerate() {
        if i == 1 {
            lines.push(Line::raw(""));
            lines.extend(legend(cx, rect.width as usize));
        }
        if !lines.is_empty() {
            lines.push(Line::raw(""));
        }
        let title = if i == 0 {
            match context {
                Context::Main => format!("Keys here: {}", state.focus.title()),
                _ => format!("Keys here: {}", context.title()),
            }
        } else {
            context.title().to_string()
        };
        lines.push(Line::from(Span::styled(title, theme.title)));
        let component = for_context(context);
        for binding in cx.keymap.bindings.iter().filter(|b| b.context == context) {
            let now = component.available(state, binding.command);
            let (key_style, text_style) = if now {
                (theme.key_hint, theme.text)
            } else {
                (theme.muted, theme.muted)
            };
            let keys = if binding.keys.is_empty() {
                "(unbound)".to_string()
            } else {
                binding
                    .keys
                    .iter()
                    .map(|k| k.to_string())
                    .collect::<Vec<_>>()
                    .join(" ")
            };
            // A long description wraps under itself, never back to the keys' column.
            let room = (rect.width as usize)
                .saturating_sub(2 + HELP_INDENT)
                .max(16);
            for (i, part) in crate::ui::text::wrap_words(binding.desc, room)
                .into_iter()
                .enumerate()
            {
                lines.push(if i == 0 {
                    Line::from(vec![
                        Span::styled(format!("  {}", pad(&keys, 14)), key_style),
                        Span::styled(pad(binding.command.name(), 16), theme.muted),
                        Span::styled(part, text_style),
                    ])
                } else {
                    Line::from(vec![
                        Span::raw(" ".repeat(HELP_INDENT)),
                        Span::styled(part, text_style),
                    ])
                });
            }
        }
    }
    lines.push(Line::raw(""));
    // The notes wrap under themselves too: only titles start at the box's edge.
    for note in [
        "Greyed keys cannot run now (no finding selected, no review running…); pressing one says why.",
        "Text boxes: enter submits (ctrl-s in the comment editor), esc cancels. Mouse: wheel scrolls, click selects.",
    ] {
        let room = (rect.width as usize).saturating_sub(4).max(16);
        for part in crate::ui::text::wrap_words(note, room) {
            lines.push(Line::from(Span::styled(format!("  {part}"), theme.muted)));
        }
    }
    frame.render_widget(Clear, rect);
    super::scrolled(
        frame,
        rect,
        boxed(
            format!(
                " Keys · {} scroll · any other key closes ",
                cx.keymap.scroll_keys(Context::Help)
            ),
            cx,
        ),
        Paragraph::new(lines).wrap(Wrap { trim: false }),
        scroll,
        cx,
    )
}

/// Where a key's description starts in help: after its keys and its name.
const HELP_INDENT: usize = 2 + 14 + 16;

/// Where the keys went before help opened: the overlay under it, or the panes.
fn focused_context(state: &AppState) -> Context {
    let below = state
        .overlays
        .iter()
        .rev()
        .find(|o| !matches!(o, Overlay::Help { .. }));
    match below {
        Some(Overlay::Gate { .. }) => Context::Gate,
        Some(Overlay::Preview { .. } | Overlay::PreviewPending) => Context::Preview,
        Some(Overlay::Diff(_)) => Context::Diff,
        Some(Overlay::Patch { .. }) => Context::Patch,
        Some(Overlay::Log { .. }) => Context::Log,
        Some(Overlay::Threads { .. }) => Context::Threads,
        _ => Context::Main,
    }
}

/// What the list's, the reviewers' and the diff's marks mean: shown after the focused keys.
fn legend(cx: &ViewContext, width: usize) -> Vec<Line<'static>> {
    let theme = &cx.theme;
    let mut lines = vec![Line::from(Span::styled("What the marks mean", theme.title))];
    let key = |command: Command| cx.keymap.key(Context::Main, command);
    let marks: [(&str, String); 15] = [
        (
            "▶ ▷",
            "the selected row (▷: its pane is not focused)".to_string(),
        ),
        (
            "▾ ▸",
            "unfolded / folded: a cohort, \"below threshold (N)\", a problem's duplicates"
                .to_string(),
        ),
        (
            "▸ (+2)",
            format!(
                "2 more reports of the same problem folded under it ({} unfolds)",
                key(Command::Expand)
            ),
        ),
        ("↳", "a duplicate of the finding above".to_string()),
        (
            "16× title",
            format!(
                "one rule's findings in one cohort, one row: {} lists them; keys act on all",
                key(Command::Expand)
            ),
        ),
        (
            "◐ mixed",
            "a fold's findings differ in status (its detail counts them)".to_string(),
        ),
        (
            "●",
            format!(
                "marked ({}) for the gate's fix and ignore",
                key(Command::ToggleMark)
            ),
        ),
        (
            "P0…P3",
            "priority, P0 most urgent; then the kind: bug, sugg, rec, quest, ticket".to_string(),
        ),
        (
            "qa ✓you",
            "who found it, ✓ who confirmed it; then confidence (%) and status".to_string(),
        ),
        (
            "ready",
            "consensus ready: confirmed by a peer; open, resolved, dismissed".to_string(),
        ),
        (
            "○ ✓ ✔ ✗",
            "the status where the list is narrow: open, ready, resolved, dismissed".to_string(),
        ),
        (
            "≠ ≈ ⇄",
            "disagreements: priority / bug or suggestion / confirmed and disputed".to_string(),
        ),
        (
            "· ✓ ✗",
            "reviewers: queued, done, failed (a spinner: reading); 3+1✗: 1 dropped".to_string(),
        ),
        (
            "retry limit",
            format!(
                "a reviewer held up: retrying after a failure, or a rate limit; waiting: a slow server ({}: why)",
                key(Command::EventLog)
            ),
        ),
        (
            "◆0…◆3 +",
            "diff gutter: a finding's priority on its line; + several share it".to_string(),
        ),
    ];
    // A long meaning wraps under itself, never back to the marks' column.
    let room = width.saturating_sub(2 + 16).max(16);
    for (mark, meaning) in marks {
        for (i, part) in crate::ui::text::wrap_words(&meaning, room)
            .into_iter()
            .enumerate()
        {
            let lead = if i == 0 {
                format!("  {}", pad(mark, 14))
            } else {
                " ".repeat(16)
            };
            lines.push(Line::from(vec![
                Span::styled(lead, theme.key_hint),
                Span::styled(part, theme.text),
            ]));
        }
    }
    lines.push(Line::raw(""));
    lines
}

/// The gate: the verdict and its counts above (scrolling when they do not fit), its keys
/// below, always whole: one per line with what it does when there is room, else on one
/// wrapped line.
fn gate(
    frame: &mut Frame,
    area: Rect,
    state: &AppState,
    details: bool,
    scroll: u16,
    cx: &ViewContext,
) -> u16 {
    let theme = &cx.theme;
    // The gate leaves the bottom lines (the message and its keys' hints) in sight.
    let status = super::status::height(state, area.width, area.height);
    let area = if area.height >= status + 10 {
        Rect {
            height: area.height - status,
            ..area
        }
    } else {
        area
    };
    let mut lines = Vec::new();
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
                        super::header::NO_MODELS.to_string()
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
                        super::plural(verdict.reasons.len() - 1, "reason"),
                        cx.keymap.key(Context::Gate, Command::GateDetails)
                    ),
                    theme.muted,
                )));
            }
            why_rows(&mut lines, state, verdict.decision, cx);
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
    if !state.findings.marked.is_empty() {
        lines.push(Line::from(Span::styled(
            format!(
                "{} marked: fix and ignore act on them",
                state.findings.marked.len()
            ),
            theme.marked,
        )));
    }
    // Published: where it went, and whether the screen still says what was posted, first:
    // on a short screen what is below scrolls out of sight.
    if let Some(target) = &state.published {
        let mut top = vec![Line::from(vec![
            Span::styled("Published ", theme.muted),
            Span::styled(format!(" round {}: {target}", state.round), theme.text),
        ])];
        // What was posted and what the screen says now, when they differ: never silently.
        if let Some(changed) = super::header::changed_text(state) {
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
        lines.splice(0..0, top);
    }

    let width = area.width.min(92);
    let inner_width = width.saturating_sub(2);
    let body = Paragraph::new(lines).wrap(Wrap { trim: false });
    let body_height = body.line_count(inner_width.saturating_sub(1)) as u16;
    // What cannot run now (no fix to write, nothing to ignore) is greyed, never hidden.
    let gate = for_context(Context::Gate);
    let keys: Vec<(String, &str, &str, bool)> = cx
        .keymap
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
        .collect();
    let room = area.height.saturating_sub(2);
    // One key per line needs the width for the descriptions and leaves four lines above.
    let long = inner_width >= 60 && room >= keys.len() as u16 + 5;
    let footer = if long {
        let mut footer: Vec<Line> = vec![Line::raw("")];
        for (keys, desc, _, now) in &keys {
            let (key_style, text_style) = if *now {
                (theme.key_hint, theme.text)
            } else {
                (theme.muted, theme.muted)
            };
            footer.push(Line::from(vec![
                Span::styled(format!("  {}", pad(keys, 6)), key_style),
                Span::styled(super::truncate(desc, inner_width as usize - 8), text_style),
            ]));
        }
        Paragraph::new(footer)
    } else {
        // Packed a line at a time, each key with its word: a key is never on one line and
        // what it does on the next.
        let mut lines: Vec<Line> = Vec::new();
        let mut spans = Vec::new();
        let mut used = 0;
        for (keys, _, short, now) in &keys {
            let (key_style, text_style) = if *now {
                (theme.key_hint, theme.text)
            } else {
                (theme.muted, theme.muted)
            };
            let cost = super::width(keys) + 1 + super::width(short);
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
    };
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
    super::scrolled(
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

/// The patch the gate wrote, as a diff: added lines in the added colour, removed in the
/// removed one, every line escaped (it quotes the PR's code), scrolling under a title that
/// says where the file is.
fn patch(frame: &mut Frame, area: Rect, state: &AppState, scroll: u16, cx: &ViewContext) -> u16 {
    let theme = &cx.theme;
    let Some(patch) = &state.patch else {
        return 0;
    };
    let rect = centered(
        area,
        area.width.saturating_sub(4).clamp(40, 120),
        area.height.saturating_sub(2),
    );
    frame.render_widget(Clear, rect);
    // One viewer for what the fix produced: the patch, or the fix command's answers.
    let (what, how) = if patch.answers {
        (
            "Fix command's answers",
            " · kept there; review-tui changed no code",
        )
    } else {
        ("Patch", " · apply with `git apply`")
    };
    let block = boxed(
        format!(
            " {what} · {} scroll · any other key closes ",
            cx.keymap.scroll_keys(Context::Patch)
        ),
        cx,
    );
    let inner = block.inner(rect);
    frame.render_widget(block, rect);
    let footer = Paragraph::new(Line::from(vec![
        Span::styled(super::shown(&patch.path), theme.muted),
        Span::styled(how, theme.muted),
    ]))
    .wrap(Wrap { trim: true });
    let footer_height = (footer.line_count(inner.width) as u16).min(inner.height / 2);
    let [content, bottom] =
        Layout::vertical([Constraint::Fill(1), Constraint::Length(footer_height)]).areas(inner);
    frame.render_widget(footer, bottom);
    let lines: Vec<Line> = patch
        .text
        .lines()
        .map(|line| {
            let style = if line.starts_with("+++") || line.starts_with("---") {
                theme.title
            } else if line.starts_with('+') {
                theme.diff_add
            } else if line.starts_with('-') {
                theme.diff_del
            } else if line.starts_with("@@") || line.starts_with("diff ") {
                theme.muted
            } else {
                theme.text
            };
            Line::from(Span::styled(super::shown(line), style))
        })
        .collect();
    super::scrolled(
        frame,
        content,
        Block::default().padding(Padding::right(1)),
        Paragraph::new(lines).wrap(Wrap { trim: false }),
        scroll,
        cx,
    )
}

/// The event log, oldest first, opening at its newest line: time, then what happened. Each
/// line is escaped (reviewer names, titles and server replies are untrusted) and wraps.
fn event_log(
    frame: &mut Frame,
    area: Rect,
    state: &AppState,
    scroll: u16,
    cx: &ViewContext,
) -> u16 {
    use crate::ui::log::Level;
    let theme = &cx.theme;
    let rect = centered(
        area,
        area.width.saturating_sub(4).clamp(40, 140),
        area.height.saturating_sub(2),
    );
    frame.render_widget(Clear, rect);
    let mut lines = Vec::new();
    if state.log.dropped > 0 {
        lines.push(Line::from(Span::styled(
            format!("… {} older lines forgotten", state.log.dropped),
            theme.muted,
        )));
    }
    if state.log.is_empty() {
        lines.push(Line::from(Span::styled(
            "nothing has happened yet in this session",
            theme.muted,
        )));
    }
    for entry in state.log.entries() {
        let (mark, style) = match entry.level {
            Level::Info => ("  ", theme.text),
            Level::Warn => ("! ", theme.message_warn),
            Level::Error => ("✗ ", theme.message_error),
        };
        lines.push(Line::from(vec![
            Span::styled(format!("{:<9}", entry.at), theme.muted),
            Span::styled(mark, style),
            Span::styled(super::shown(&entry.text), style),
        ]));
    }
    super::scrolled(
        frame,
        rect,
        boxed(
            format!(
                " Event log ({}) · {} scroll · {} newest · any other key closes ",
                state.log.len(),
                cx.keymap.scroll_keys(Context::Log),
                cx.keymap.key(Context::Log, Command::Bottom)
            ),
            cx,
        ),
        Paragraph::new(lines).wrap(Wrap { trim: false }),
        scroll,
        cx,
    )
}

fn pending(frame: &mut Frame, area: Rect, cx: &ViewContext) {
    let rect = centered(area, 50, 3);
    frame.render_widget(Clear, rect);
    frame.render_widget(
        Paragraph::new(Span::styled(
            "preparing the preview… (esc cancels)",
            cx.theme.muted,
        ))
        .block(boxed(" Publish ".to_string(), cx)),
        rect,
    );
}

/// The preview: what would be posted, all of it scrolling, above a footer that always shows
/// how to publish and how not to.
fn preview(
    frame: &mut Frame,
    area: Rect,
    state: &AppState,
    data: &PreviewData,
    (scroll, raised): (u16, usize),
    cx: &ViewContext,
) -> u16 {
    let theme = &cx.theme;
    let rect = centered(
        area,
        area.width.saturating_sub(10).clamp(40, 110),
        area.height.saturating_sub(4).max(8),
    );
    frame.render_widget(Clear, rect);
    let block = boxed(" Publish preview ".to_string(), cx);
    let inner = block.inner(rect);
    frame.render_widget(block, rect);
    let mut keys = vec![
        Span::styled("enter", theme.key_hint),
        Span::styled(" publish exactly this   ", theme.text),
    ];
    // The include key only where there is something to include or leave out.
    if !data.already_raised.is_empty() {
        let key = |command| cx.keymap.key(Context::Preview, command);
        keys.push(Span::styled(key(Command::IncludeRaised), theme.key_hint));
        keys.push(Span::styled(" include/leave out   ", theme.text));
        if data.already_raised.len() > 1 {
            keys.push(Span::styled(
                format!(
                    "{}/{}",
                    key(Command::NextFinding),
                    key(Command::PrevFinding)
                ),
                theme.key_hint,
            ));
            keys.push(Span::styled(" select   ", theme.text));
        }
    }
    keys.extend([
        Span::styled("j/k", theme.key_hint),
        Span::styled(" scroll   ", theme.text),
        Span::styled("any other key cancels", theme.muted),
    ]);
    let footer = Paragraph::new(Line::from(keys)).wrap(Wrap { trim: true });
    let footer_height = (footer.line_count(inner.width) as u16).min(inner.height);
    let [content, bottom] =
        Layout::vertical([Constraint::Fill(1), Constraint::Length(footer_height)]).areas(inner);
    frame.render_widget(footer, bottom);
    let mut lines = vec![
        Line::from(vec![
            Span::styled("event ", theme.muted),
            Span::styled(data.event.clone(), theme.title),
            Span::styled(preview_counts(data), theme.text),
        ]),
        Line::from(Span::styled(format!("to {}", data.target), theme.muted)),
    ];
    // A published round again: what this publish is, said before what it posts.
    if state.published.is_some() {
        let again = match super::header::changed_text(state) {
            Some(_) => format!(
                "round {} again, for your triage since its publish (the same rules as a new round: the summary edited, a new review only for a changed event or new comments)",
                state.round
            ),
            None => format!(
                "round {} is published and unchanged: only what waits on the PR's threads is posted",
                state.round
            ),
        };
        lines.push(Line::from(Span::styled(again, theme.title)));
    }
    let drafts: Vec<_> = state.thread_drafts.iter().filter(|d| !d.posted).collect();
    if !drafts.is_empty() {
        lines.push(Line::from(Span::styled(
            "then on the PR's review threads:",
            theme.muted,
        )));
        for draft in drafts {
            lines.push(Line::from(Span::styled(
                format!("  {}", super::shown(&draft.describe())),
                theme.text,
            )));
        }
    }
    if !data.already_raised.is_empty() {
        lines.push(Line::from(Span::styled(
            format!(
                "already raised in an open thread (still counted; {} includes):",
                cx.keymap.key(Context::Preview, Command::IncludeRaised)
            ),
            theme.muted,
        )));
        for (i, item) in data.already_raised.iter().enumerate() {
            let (mark, style) = match i == raised {
                true => ("▶ ", theme.title),
                false => ("  ", theme.text),
            };
            let what = match item.included {
                true => "posted   ",
                false => "left out ",
            };
            lines.push(Line::from(vec![
                Span::styled(mark, style),
                Span::styled(
                    what,
                    if item.included {
                        theme.title
                    } else {
                        theme.muted
                    },
                ),
                Span::styled(
                    super::shown(&format!("{} {} — @{}", item.location, item.title, item.by)),
                    style,
                ),
            ]));
        }
    }
    if !data.moved_to_body.is_empty() {
        lines.push(Line::from(Span::styled(
            "only in the summary:",
            theme.muted,
        )));
        for item in &data.moved_to_body {
            lines.push(Line::from(Span::styled(format!("  {item}"), theme.text)));
        }
    }
    lines.push(Line::from(Span::styled(
        format!(
            "── body {}",
            "─".repeat(content.width.saturating_sub(9) as usize)
        ),
        theme.border,
    )));
    for line in data.body.lines() {
        lines.push(Line::from(Span::styled(line.to_string(), theme.text)));
    }
    super::scrolled(
        frame,
        content,
        Block::default().padding(Padding::right(1)),
        Paragraph::new(lines).wrap(Wrap { trim: false }),
        scroll,
        cx,
    )
}

/// "Why BLOCK": each finding that holds the verdict, one row each (priority, where, what), and
/// the one way past it: the person's dismissal with a reason, reached with the gate's `w`.
fn why_rows(
    lines: &mut Vec<Line<'static>>,
    state: &AppState,
    decision: crate::review::verdict::Decision,
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

/// What the preview's headline counts, in the body's own terms: the summary lists every
/// finding; some are also posted on their lines; some could not be placed and are only in it.
fn preview_counts(data: &PreviewData) -> String {
    let mut out = format!(
        " · the summary lists {}",
        crate::ui::text::plural(data.listed_in_body, "finding")
    );
    if data.inline_comments > 0 {
        out.push_str(&format!(
            " · {} also {}",
            data.inline_comments,
            if data.local {
                "as line comments in review.json"
            } else {
                "as comments on their lines"
            }
        ));
    }
    if !data.moved_to_body.is_empty() {
        out.push_str(&format!(
            " · {} only in the summary (not on a changed line)",
            data.moved_to_body.len()
        ));
    }
    let left_out = data.already_raised.iter().filter(|r| !r.included).count();
    if left_out > 0 {
        out.push_str(&format!(" · {left_out} left out (already raised)"));
    }
    out
}

fn text_box(
    frame: &mut Frame,
    area: Rect,
    state: &AppState,
    input: &InputOverlay,
    cx: &ViewContext,
) {
    let theme = &cx.theme;
    let (title, hint, height) = match &input.purpose {
        InputPurpose::Dismiss { node_ids } => (
            if node_ids.len() == 1 {
                format!(" Dismiss {} — why? (required) ", state.label(&node_ids[0]))
            } else {
                format!(" Dismiss {} findings — why? (required) ", node_ids.len())
            },
            "enter dismiss · esc cancel",
            7,
        ),
        InputPurpose::OverrideAxis { axis } => (
            format!(" Override {axis} — why? (required) "),
            "enter override · esc cancel",
            7,
        ),
        InputPurpose::EditComment { node_id } => (
            format!(" Comment to post for {} ", state.label(node_id)),
            "ctrl-s save · ctrl-e $EDITOR · esc cancel · empty restores the generated text",
            area.height.saturating_sub(4).clamp(8, 24),
        ),
        InputPurpose::Ask { node_id } => (
            match node_id {
                Some(id) => format!(" Ask about {} ", state.label(id)),
                None => " Ask about the whole change ".to_string(),
            },
            "ctrl-s ask · esc cancel · the answer streams into the detail",
            area.height.saturating_sub(4).clamp(6, 14),
        ),
        InputPurpose::Comment { draft, .. } => (
            format!(
                " Your comment at {} ",
                crate::printable::line(&draft.anchor.to_string())
            ),
            "ctrl-s add · esc cancel · first line `P1 bug: title` sets priority and kind (default P2 suggestion)",
            area.height.saturating_sub(4).clamp(6, 14),
        ),
        InputPurpose::Reply { thread } => (
            format!(
                " Reply to {} ",
                state
                    .review_threads
                    .iter()
                    .find(|t| t.id == *thread)
                    .map_or_else(String::new, |t| format!(
                        "@{} on {}",
                        crate::printable::line(t.author()),
                        crate::printable::line(&t.path)
                    ))
            ),
            "ctrl-s save the draft (posted by the next publish) · esc cancel",
            area.height.saturating_sub(4).clamp(6, 14),
        ),
        InputPurpose::Filter { .. } => (
            " Filter ".to_string(),
            "words, @reviewer, p0…p3, is:open · enter keep · esc restore",
            5,
        ),
    };
    if matches!(input.purpose, InputPurpose::Filter { .. }) {
        filter_line(frame, area, input, hint, cx);
        return;
    }
    let rect = centered(area, 80, height);
    frame.render_widget(Clear, rect);
    let block = boxed(title, cx);
    let inner = block.inner(rect);
    frame.render_widget(block, rect);
    let note_line = match &input.error {
        Some(error) => Line::from(Span::styled(error.clone(), theme.message_error)),
        None => Line::from(Span::styled(hint, theme.muted)),
    };
    let note = Paragraph::new(note_line).wrap(Wrap { trim: true });
    let note_height = (note.line_count(inner.width) as u16).min(inner.height.saturating_sub(1));
    let [text, bottom] =
        Layout::vertical([Constraint::Fill(1), Constraint::Length(note_height)]).areas(inner);
    let mut textarea = input.textarea.clone();
    textarea.set_style(theme.text);
    textarea.set_cursor_line_style(ratatui::style::Style::default());
    // A cursor that shows in every theme, NO_COLOR included.
    textarea.set_cursor_style(
        ratatui::style::Style::default().add_modifier(ratatui::style::Modifier::REVERSED),
    );
    frame.render_widget(&textarea, text);
    frame.render_widget(note, bottom);
}

/// The filter as it is typed, in the status line like a pager's search: the list it
/// filters stays in view above it.
fn filter_line(frame: &mut Frame, area: Rect, input: &InputOverlay, hint: &str, cx: &ViewContext) {
    let theme = &cx.theme;
    let line = Rect {
        x: area.x,
        y: area.bottom().saturating_sub(1),
        width: area.width,
        height: 1.min(area.height),
    };
    frame.render_widget(Clear, line);
    let problem = crate::ui::rows::Filter::parse(&input.text())
        .problems
        .into_iter()
        .next();
    // The note whole, or not at all for the hint (the help lists the filter's words); an
    // error cut with a mark. The typed text keeps 16 columns.
    let room = (line.width as usize).saturating_sub(9 + 16);
    let note_line = match input.error.clone().or(problem) {
        Some(error) => Span::styled(
            format!("{} ", super::truncate(&error, room)),
            theme.message_error,
        ),
        None if super::width(hint) < room => Span::styled(format!("{hint} "), theme.muted),
        None => Span::raw(""),
    };
    let hint_width = (note_line.width() as u16 + 1).min(line.width);
    let [prompt, text, note] = Layout::horizontal([
        Constraint::Length(9),
        Constraint::Fill(1),
        Constraint::Length(hint_width),
    ])
    .areas(line);
    frame.render_widget(
        Paragraph::new(Span::styled(" filter /", theme.key_hint)),
        prompt,
    );
    let mut textarea = input.textarea.clone();
    textarea.set_style(theme.text);
    textarea.set_cursor_line_style(ratatui::style::Style::default());
    frame.render_widget(&textarea, text);
    frame.render_widget(
        Paragraph::new(note_line).alignment(ratatui::layout::Alignment::Right),
        note,
    );
}

fn error(frame: &mut Frame, area: Rect, title: &str, message: &str, cx: &ViewContext) {
    let theme = &cx.theme;
    let mut text: Vec<Line> = message
        .lines()
        .map(|l| Line::from(Span::styled(l.to_string(), theme.text)))
        .collect();
    text.push(Line::raw(""));
    text.push(Line::from(Span::styled("any key closes", theme.muted)));
    let paragraph = Paragraph::new(text).wrap(Wrap { trim: false });
    let width = area.width.min(80);
    let height = paragraph.line_count(width.saturating_sub(2)) as u16 + 2;
    let rect = centered(area, width, height);
    frame.render_widget(Clear, rect);
    let block = Block::bordered()
        .title(Span::styled(
            format!(" {title} · any key closes "),
            theme.message_error,
        ))
        .border_style(theme.message_error);
    frame.render_widget(paragraph.block(block), rect);
}
