//! The threads list (`t`): the PR's review threads, open first and by file; for each, who
//! opened it, when, how many replies, its state and the person's drafts on it; under the list,
//! the selected thread in full.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Paragraph, Wrap};

use super::{ViewContext, list_pane, shown};
use crate::pr::ReviewThread;
use crate::space::ThreadAction;
use crate::ui::command::Command;
use crate::ui::keymap::Context;
use crate::ui::state::AppState;
use crate::ui::thread_list;

pub(super) fn draw(
    frame: &mut Frame,
    area: Rect,
    state: &AppState,
    cursor: usize,
    cx: &ViewContext,
) {
    let theme = &cx.theme;
    frame.render_widget(Clear, area);
    let threads = thread_list::ordered(state);
    let key = |command| cx.keymap.key(Context::Threads, command);
    let title = format!(
        " Review threads ({}) · {} reply · {} resolve/reopen · {} delete draft · {} close ",
        threads.len(),
        key(Command::Reply),
        key(Command::Resolve),
        key(Command::DeleteComment),
        key(Command::Close),
    );
    let [list, detail] =
        Layout::vertical([Constraint::Percentage(50), Constraint::Fill(1)]).areas(area);
    let lines: Vec<Line<'static>> = threads
        .iter()
        .enumerate()
        .map(|(i, t)| row(state, t, i == cursor, cx))
        .collect();
    let block = Block::bordered()
        .title(Span::styled(title, theme.title))
        .border_style(theme.border_focused);
    list_pane(frame, list, block, lines, Some(cursor), cx);
    let Some(thread) = threads.get(cursor) else {
        return;
    };
    let mut text = Vec::new();
    full(&mut text, state, thread, cx);
    frame.render_widget(
        Paragraph::new(text)
            .wrap(Wrap { trim: false })
            .block(Block::bordered().border_style(theme.border)),
        detail,
    );
}

/// `src/lib.rs:9  @alice · 2026-12-01 · 2 replies · open · drafts: reply, resolve`.
fn row(state: &AppState, thread: &ReviewThread, selected: bool, cx: &ViewContext) -> Line<'static> {
    let theme = &cx.theme;
    let settled = thread.resolved || thread.outdated;
    let style = match (selected, settled) {
        (true, _) => theme.selection,
        (false, true) => theme.muted,
        (false, false) => theme.text,
    };
    let place = match thread.lines() {
        Some((_, end)) => format!("{}:{end}", shown(&thread.path)),
        None => shown(&thread.path).to_string(),
    };
    let opened = thread
        .comments
        .first()
        .map_or("", |c| c.created_at.get(..10).unwrap_or(&c.created_at));
    let replies = thread.comments.len().saturating_sub(1);
    let mut spans = vec![
        Span::styled(
            format!("{}{place}", if selected { "▶ " } else { "  " }),
            style,
        ),
        Span::styled(
            format!(
                "  @{} · {opened} · {replies} repl{} · {}",
                shown(thread.author()),
                if replies == 1 { "y" } else { "ies" },
                thread_list::state_word(thread)
            ),
            if selected { style } else { theme.muted },
        ),
    ];
    let drafts = thread_list::drafts(state, thread);
    if !drafts.is_empty() {
        let words: Vec<&str> = drafts.iter().map(|d| word(&d.action)).collect();
        spans.push(Span::styled(
            format!(" · draft: {}", words.join(", ")),
            theme.axis_warn,
        ));
    }
    Line::from(spans)
}

fn word(action: &ThreadAction) -> &'static str {
    match action {
        ThreadAction::Reply { .. } => "reply",
        ThreadAction::Resolve => "resolve",
        ThreadAction::Unresolve => "reopen",
    }
}

/// The thread in full: every comment, then the person's drafts on it. Also what the detail
/// pane shows under a finding on the thread's lines.
pub(super) fn full(
    lines: &mut Vec<Line<'static>>,
    state: &AppState,
    thread: &ReviewThread,
    cx: &ViewContext,
) {
    let theme = &cx.theme;
    let place = match thread.lines() {
        Some((start, end)) if start != end => format!("{}:{start}-{end}", shown(&thread.path)),
        Some((_, end)) => format!("{}:{end}", shown(&thread.path)),
        None => shown(&thread.path).to_string(),
    };
    lines.push(Line::from(vec![
        Span::styled(format!("¶ {place}"), theme.title),
        Span::styled(
            format!(" · {}", thread_list::state_word(thread)),
            theme.muted,
        ),
    ]));
    for comment in &thread.comments {
        let when = comment.created_at.get(..10).unwrap_or(&comment.created_at);
        lines.push(Line::from(vec![
            Span::styled(format!("@{}", shown(&comment.author)), theme.title),
            Span::styled(format!(" · {}", shown(when)), theme.muted),
        ]));
        for line in comment.body.lines() {
            lines.push(Line::from(Span::styled(
                format!("  {}", shown(line)),
                theme.text,
            )));
        }
    }
    for draft in thread_list::drafts(state, thread) {
        let head = match &draft.action {
            ThreadAction::Reply { .. } => format!("your reply ({}, a draft)", draft.id),
            ThreadAction::Resolve => format!("you resolve it ({}, a draft)", draft.id),
            ThreadAction::Unresolve => format!("you reopen it ({}, a draft)", draft.id),
        };
        lines.push(Line::from(Span::styled(head, theme.axis_warn)));
        if let ThreadAction::Reply { text } = &draft.action {
            for line in text.lines() {
                lines.push(Line::from(Span::styled(
                    format!("  {}", shown(line)),
                    theme.text,
                )));
            }
        }
    }
}
