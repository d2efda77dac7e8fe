//! Help: every key, by where it applies, the focused one first, and what the marks mean.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Clear, Paragraph, Wrap};

use super::boxed;
use crate::ui::command::Command;
use crate::ui::keymap::Context;
use crate::ui::state::{AppState, Overlay};
use crate::ui::update::for_context;
use crate::ui::view::{ViewContext, centered, pad};

/// Every key, by where it applies. A command that cannot run now (nothing selected, no review
/// running, no patch yet) is greyed: it is there, and says why when pressed.
pub(super) fn draw(
    frame: &mut Frame,
    area: Rect,
    state: &AppState,
    scroll: u16,
    cx: &ViewContext,
) -> u16 {
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
    crate::ui::view::scrolled(
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
