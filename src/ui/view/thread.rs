//! The review room's threads in the detail pane: each question about the selected finding
//! (and the last one about the whole change), who asked and who answered, when, what it cost,
//! the answer as far as it came, and a reviewer's proposal with the key that accepts it.

use ratatui::text::{Line, Span};

use super::{ViewContext, shown};
use crate::review::ReviewNode;
use crate::review::Thread;
use crate::ui::command::Command;
use crate::ui::keymap::Context;
use crate::ui::state::AppState;

/// The threads about `node`, then the last one about the whole change of this round.
pub(super) fn thread_lines<'a>(
    node: &ReviewNode,
    state: &AppState,
    cx: &ViewContext,
) -> Vec<Line<'a>> {
    let mut lines = Vec::new();
    for thread in state.threads.iter().filter(|t| t.is_about(node)) {
        one(&mut lines, thread, state, cx);
    }
    let general = state
        .threads
        .iter()
        .rev()
        .find(|t| t.finding.is_none() && t.round == state.round);
    if let Some(thread) = general {
        lines.push(Line::raw(""));
        lines.push(Line::from(Span::styled(
            "About the whole change".to_string(),
            cx.theme.title,
        )));
        one(&mut lines, thread, state, cx);
    }
    lines
}

fn one<'a>(lines: &mut Vec<Line<'a>>, thread: &Thread, state: &AppState, cx: &ViewContext) {
    let theme = &cx.theme;
    let when = thread.asked_at.get(11..16).unwrap_or(&thread.asked_at);
    lines.push(Line::raw(""));
    lines.push(Line::from(vec![
        Span::styled(format!("{} asked", shown(&thread.asked_by)), theme.title),
        Span::styled(format!(" · {when}"), theme.muted),
    ]));
    for line in thread.question.lines() {
        lines.push(Line::from(Span::styled(
            format!("  {}", shown(line)),
            theme.text,
        )));
    }
    let status = if thread.state.is_open() {
        let dots = [".", "..", "..."][(state.tick / 4 % 3) as usize];
        format!("answering{dots}")
    } else {
        thread.state.label()
    };
    lines.push(Line::from(vec![
        Span::styled(format!("{} answered", shown(&thread.reviewer)), theme.title),
        Span::styled(
            format!(" · {} tokens · {status}", thread.tokens),
            theme.muted,
        ),
    ]));
    for line in thread.answer.lines() {
        lines.push(Line::from(Span::styled(
            format!("  {}", shown(line)),
            theme.text,
        )));
    }
    if let Some(proposal) = &thread.proposal {
        let said = format!("{} {}", thread.reviewer, proposal.describe());
        let (tail, style) = match proposal.accepted {
            None => (
                format!(
                    " · {} accepts",
                    state.key(Context::Main, Command::AcceptProposal)
                ),
                theme.axis_warn,
            ),
            Some(true) => (" · accepted".to_string(), theme.muted),
            Some(false) => (" · declined".to_string(), theme.muted),
        };
        lines.push(Line::from(vec![
            Span::styled(shown(&said), style),
            Span::styled(tail, theme.key_hint),
        ]));
    }
}
