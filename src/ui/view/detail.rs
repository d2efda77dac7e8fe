//! The detail of the selected finding: its facts, reasoning, evidence, impact, verification,
//! the suggested fix (replacement lines as a diff against the anchored lines when the code is
//! loaded), the comment that would be posted, and the code around the anchor, highlighted.
//! Only the lines shown are highlighted; code the engine has not loaded is said to be missing.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph, Wrap};

use super::{ViewContext, percent, shown};
use crate::diff::Side;
use crate::review::join_names;
use crate::review::{Actor, ReviewNode};
use crate::ui::command::Command;
use crate::ui::keymap::Context;
use crate::ui::rows::OTHER_COHORT;
use crate::ui::state::{AppState, Pane, RowKey};

/// Lines of context shown around an anchor.
const CONTEXT: usize = 3;

/// Draws the pane; returns how far it can scroll.
pub(super) fn draw(frame: &mut Frame, area: Rect, state: &AppState, cx: &ViewContext) -> u16 {
    let theme = &cx.theme;
    let focused = state.focus == Pane::Detail && state.overlays.is_empty();
    let (title, lines) = match &state.findings.selected {
        Some(RowKey::Node(id)) => match state.node(id) {
            // Where it is, not its internal id: the id means nothing to a person.
            Some(node) => (
                format!(" {} · {} ", node.priority, node.location()),
                node_lines(node, state, cx),
            ),
            None => (" Detail ".to_string(), Vec::new()),
        },
        Some(RowKey::Cohort(key)) => (
            " Cohort ".to_string(),
            cohort_lines(key, area.width.saturating_sub(2) as usize, state, cx),
        ),
        Some(RowKey::Reason(key)) => match crate::ui::reasons::reason(state, key) {
            Some(reason) => (
                format!(
                    " Why {} · {} ",
                    reason.decision.label().to_uppercase(),
                    reason.subject
                ),
                reason_lines(&reason, state, cx),
            ),
            None => (" Detail ".to_string(), Vec::new()),
        },
        Some(RowKey::Below(_)) => (" Below threshold ".to_string(), below_lines(state, cx)),
        Some(key @ RowKey::Rule(_)) => {
            let members = crate::ui::rows::rule_members(state, key);
            (
                format!(" {}× one rule ", members.len()),
                rule_lines(&members, state, cx),
            )
        }
        None => (
            " Detail ".to_string(),
            vec![Line::from(Span::styled("no finding selected", theme.muted))],
        ),
    };
    let block = Block::bordered()
        .title(Span::styled(title, theme.title))
        .border_style(theme.border_for(focused));
    super::scrolled(
        frame,
        area,
        block,
        Paragraph::new(lines).wrap(Wrap { trim: false }),
        state.detail.scroll,
        cx,
    )
}

fn section<'a>(lines: &mut Vec<Line<'a>>, title: &str, text: &str, cx: &ViewContext) {
    if text.trim().is_empty() {
        return;
    }
    lines.push(Line::raw(""));
    lines.push(Line::from(Span::styled(title.to_string(), cx.theme.title)));
    for line in text.lines() {
        lines.push(Line::from(Span::styled(shown(line), cx.theme.text)));
    }
}

fn node_lines<'a>(node: &ReviewNode, state: &AppState, cx: &ViewContext) -> Vec<Line<'a>> {
    let theme = &cx.theme;
    let mut lines = Vec::new();
    lines.push(Line::from(vec![
        Span::styled(format!("{} ", node.priority), theme.priority(node.priority)),
        Span::styled(
            format!(
                "{} · {} · {} · effort {}",
                node.kind.as_str(),
                node.triage.category,
                node.triage.severity.as_str(),
                node.triage.effort.as_str()
            ),
            theme.text,
        ),
    ]));
    lines.push(Line::from(Span::styled(
        shown(&node.text.title),
        theme.title,
    )));
    let mut facts = vec![
        Span::styled(shown(&node.location()), theme.text),
        Span::styled(
            format!(
                " · {} ({}) · confidence {} · ",
                node.origin.reviewer,
                node.origin.source.as_str(),
                percent(node.confidence)
            ),
            theme.muted,
        ),
        Span::styled(node.status.as_str(), theme.status(node.status)),
    ];
    if !node.in_scope() {
        facts.push(Span::styled(" · out of scope (pre-existing)", theme.muted));
    }
    lines.push(Line::from(facts));
    if let Some(rule) = &node.rule {
        lines.push(Line::from(Span::styled(
            format!("rule {rule}"),
            theme.muted,
        )));
    }
    if let Some(primary) = &node.duplicate_of {
        lines.push(Line::from(Span::styled(
            format!("duplicate of {primary}: counted once, through it"),
            theme.muted,
        )));
    }
    for (label, stances) in [
        ("confirmed", &node.confirmations),
        ("disputed", &node.disputes),
    ] {
        for stance in stances.iter() {
            let who = match &stance.by {
                Actor::Reviewer(name) => name.clone(),
                Actor::Person(name) => format!("{name} (you)"),
            };
            let note = if stance.note.is_empty() {
                String::new()
            } else {
                format!(": {}", stance.note)
            };
            let style = if label == "confirmed" {
                theme.status_consensus
            } else {
                theme.disagreement
            };
            lines.push(Line::from(Span::styled(
                format!("{label} by {who}{note}"),
                style,
            )));
        }
    }
    if let Some(last) = node.history.last()
        && !node.status.is_active()
    {
        let reason = last
            .reason
            .as_deref()
            .map(|r| format!(": {r}"))
            .unwrap_or_default();
        lines.push(Line::from(Span::styled(
            format!("{} by {}{reason}", last.to, last.by),
            theme.status(node.status),
        )));
    }
    if !node.consulted.is_empty() {
        lines.push(Line::from(Span::styled(
            format!("evidence: consulted {}", node.consulted.join(", ")),
            theme.message_warn,
        )));
    }
    if let Some(from) = &node.carried {
        lines.push(Line::from(Span::styled(
            format!(
                "carried from round {} ({}): not reported again, counts until a person closes it or its anchor is gone",
                from.round, from.id
            ),
            theme.message_warn,
        )));
    }
    if let Some(reason) = &node.previously_dismissed {
        lines.push(Line::from(Span::styled(
            format!("previously dismissed: {reason}"),
            theme.message_warn,
        )));
    }
    let problem_sources: Vec<String> = state
        .board
        .nodes
        .iter()
        .filter(|n| n.duplicate_of.as_deref() == Some(node.id.as_str()))
        .map(|n| n.origin.reviewer.clone())
        .collect();
    if !problem_sources.is_empty() {
        let mut all = vec![node.origin.reviewer.clone()];
        for s in problem_sources {
            if !all.contains(&s) {
                all.push(s);
            }
        }
        lines.push(Line::from(Span::styled(
            format!("found by {}", join_names(&all)),
            theme.text,
        )));
    }

    // The review room's questions and answers, where they are seen while they stream in.
    lines.extend(super::thread::thread_lines(node, state, cx));
    // The PR's review threads on the finding's lines: what a colleague already said there.
    if let Some(anchor) = &node.anchor {
        for thread in crate::ui::thread_list::on_lines(state, anchor) {
            lines.push(Line::raw(""));
            super::review_threads::full(&mut lines, state, thread, cx);
        }
    }
    section(&mut lines, "Reasoning", &node.reasoning, cx);
    section(&mut lines, "Evidence", &node.text.evidence, cx);
    section(&mut lines, "Impact", &node.text.impact, cx);
    section(&mut lines, "Verification", &node.text.verification, cx);
    section(&mut lines, "Details", &node.text.body, cx);
    fix_lines(&mut lines, node, state, cx);
    if let Some(edited) = state.comments.get(&node.id) {
        section(&mut lines, "Comment to post (edited)", edited, cx);
    }
    code_lines(&mut lines, node, state, cx);
    lines
}

/// The head-side lines of the anchor, when the engine has loaded the file.
fn anchored<'s>(node: &ReviewNode, state: &'s AppState) -> Option<(&'s [String], usize, usize)> {
    let anchor = node.anchor.as_ref()?;
    if anchor.side != Side::Right {
        return None;
    }
    let code = state.code.get(anchor.path.as_str())?;
    let start = (anchor.start_line as usize).max(1);
    let end = (anchor.end_line as usize).max(start);
    if end > code.len() {
        return None;
    }
    Some((code.as_slice(), start, end))
}

fn fix_lines<'a>(lines: &mut Vec<Line<'a>>, node: &ReviewNode, state: &AppState, cx: &ViewContext) {
    let theme = &cx.theme;
    let Some(fix) = node.fix.as_ref().filter(|f| !f.is_empty()) else {
        return;
    };
    lines.push(Line::raw(""));
    lines.push(Line::from(Span::styled("Suggested fix", theme.title)));
    if let Some(replacement) = &fix.replacement {
        match anchored(node, state) {
            Some((code, start, end)) => {
                for line in &code[start - 1..end] {
                    lines.push(Line::from(Span::styled(
                        format!("- {line}"),
                        theme.diff_del,
                    )));
                }
            }
            None => lines.push(Line::from(Span::styled(
                "(the anchored lines are not loaded: replacement only)",
                theme.muted,
            ))),
        }
        for line in replacement {
            lines.push(Line::from(Span::styled(
                format!("+ {line}"),
                theme.diff_add,
            )));
        }
    }
    if let Some(diff) = &fix.diff {
        for line in diff.lines() {
            let style = if line.starts_with('+') && !line.starts_with("+++") {
                theme.diff_add
            } else if line.starts_with('-') && !line.starts_with("---") {
                theme.diff_del
            } else {
                theme.diff_context
            };
            lines.push(Line::from(Span::styled(line.to_string(), style)));
        }
    }
    if let Some(prompt) = &fix.prompt {
        lines.push(Line::from(Span::styled(
            format!("fix prompt: {prompt}"),
            theme.muted,
        )));
    }
}

fn code_lines<'a>(
    lines: &mut Vec<Line<'a>>,
    node: &ReviewNode,
    state: &AppState,
    cx: &ViewContext,
) {
    let theme = &cx.theme;
    let Some(anchor) = &node.anchor else {
        return;
    };
    lines.push(Line::raw(""));
    lines.push(Line::from(Span::styled(
        format!("Code  {anchor}"),
        theme.title,
    )));
    let Some((code, start, end)) = anchored(node, state) else {
        let why = if anchor.side == Side::Left {
            "(base-side lines: not loaded)"
        } else {
            "(code not loaded yet)"
        };
        lines.push(Line::from(Span::styled(why, theme.muted)));
        return;
    };
    let from = start.saturating_sub(CONTEXT).max(1);
    let to = (end + CONTEXT).min(code.len());
    let window = &code[from - 1..to];
    let highlighted = cx.highlighter.highlight(&anchor.path, window);
    let number_width = to.to_string().len();
    for (offset, pieces) in highlighted.into_iter().enumerate() {
        let number = from + offset;
        let inside = (start..=end).contains(&number);
        let gutter = if inside { "▌" } else { "│" };
        let mut spans = vec![Span::styled(
            format!("{number:>number_width$} {gutter} "),
            if inside {
                theme.anchor_line
            } else {
                theme.line_number
            },
        )];
        for (style, text) in pieces {
            let style = if inside {
                theme.anchor_line.patch(style)
            } else {
                Style::default().patch(theme.text).patch(style)
            };
            spans.push(Span::styled(text, style));
        }
        lines.push(Line::from(spans));
    }
}

fn cohort_lines<'a>(
    key: &str,
    columns: usize,
    state: &AppState,
    cx: &ViewContext,
) -> Vec<Line<'a>> {
    let theme = &cx.theme;
    let Some(cohort) = state.cohorts.iter().find(|c| c.key == key) else {
        let text = if key == OTHER_COHORT {
            "findings on files no cohort lists, or without an anchor"
        } else {
            "unknown cohort"
        };
        return vec![Line::from(Span::styled(text, theme.muted))];
    };
    let mut lines = vec![Line::from(Span::styled(shown(&cohort.label), theme.title))];
    if !cohort.fallback {
        lines.push(Line::from(Span::styled(
            format!(
                "blast radius {}: files that reference the touched symbols",
                cohort.blast_radius
            ),
            theme.muted,
        )));
    }
    lines.push(Line::raw(""));
    lines.push(Line::from(Span::styled("Reading order", theme.title)));
    lines.extend(super::cohort::diagram(cohort, columns, cx));
    lines.push(Line::raw(""));
    lines.push(Line::from(Span::styled(
        format!(
            "{} folds or unfolds the cohort · {} shows its diff",
            cx.keymap.key(Context::Main, Command::Expand),
            cx.keymap.key(Context::Main, Command::OpenDiff)
        ),
        theme.muted,
    )));
    lines
}

/// A reason of the verdict that is not a finding: what it is, each break with its file and
/// line (the next `d` opens the diff at the marked one), then the whole why.
fn reason_lines<'a>(
    reason: &crate::ui::reasons::Reason,
    state: &AppState,
    cx: &ViewContext,
) -> Vec<Line<'a>> {
    let theme = &cx.theme;
    let mut lines = vec![Line::from(vec![
        Span::styled(
            format!(" {} ", reason.decision.label().to_uppercase()),
            theme.decision(reason.decision),
        ),
        Span::styled(
            format!(" {}: {}", shown(&reason.subject), reason.summary),
            theme.text,
        ),
    ])];
    if !reason.breaks.is_empty() {
        lines.push(Line::raw(""));
        lines.push(Line::from(Span::styled(
            format!(
                "Breaks · {} opens the diff at the marked one, then the next",
                cx.keymap.key(Context::Main, Command::OpenDiff)
            ),
            theme.title,
        )));
        let next = state.reason_break % reason.breaks.len();
        for (i, item) in reason.breaks.iter().enumerate() {
            let mark = if i == next { "▸ " } else { "  " };
            lines.push(Line::from(vec![
                Span::styled(format!("{mark}{}", shown(&item.location())), theme.text),
                Span::styled(
                    format!(
                        "  {}",
                        shown(item.text[item.path.len()..].trim_start_matches(": "))
                    ),
                    theme.muted,
                ),
            ]));
        }
    }
    if !reason.detail.is_empty() {
        lines.push(Line::raw(""));
        lines.push(Line::from(Span::styled("Why", theme.title)));
        lines.push(Line::from(Span::styled(shown(&reason.detail), theme.text)));
    }
    lines
}

fn below_lines<'a>(state: &AppState, cx: &ViewContext) -> Vec<Line<'a>> {
    let theme = &cx.theme;
    let threshold = state.level.threshold();
    vec![
        Line::from(Span::styled(
            format!(
                "level {} shows P0–{} with confidence ≥ {} in the main list.",
                state.level,
                threshold.lowest_priority,
                percent(threshold.min_confidence)
            ),
            theme.text,
        )),
        Line::from(Span::styled(
            format!(
                "These findings are recorded the same, only listed apart. {} unfolds them; {} changes the level.",
                cx.keymap.key(Context::Main, Command::Expand),
                cx.keymap.key(Context::Main, Command::CycleLevel)
            ),
            theme.muted,
        )),
    ]
}

/// A rule fold: the rule, what its findings' statuses are, and each finding with where it is
/// (the list shows them one a row once unfolded).
fn rule_lines<'a>(members: &[String], state: &AppState, cx: &ViewContext) -> Vec<Line<'a>> {
    let theme = &cx.theme;
    let nodes: Vec<&ReviewNode> = members.iter().filter_map(|id| state.node(id)).collect();
    let Some(first) = nodes.first() else {
        return Vec::new();
    };
    let mut counts: Vec<(crate::review::Status, usize)> = Vec::new();
    for node in &nodes {
        match counts.iter_mut().find(|(s, _)| *s == node.status) {
            Some((_, n)) => *n += 1,
            None => counts.push((node.status, 1)),
        }
    }
    let statuses: Vec<String> = counts
        .iter()
        .map(|(s, n)| format!("{n} {}", super::findings::status_word(*s)))
        .collect();
    let mut lines = vec![
        Line::from(Span::styled(shown(&first.text.title), theme.title)),
        Line::from(Span::styled(
            format!(
                "rule {} · {} · {}",
                shown(first.rule.as_deref().unwrap_or("")),
                crate::ui::text::plural(nodes.len(), "finding"),
                statuses.join(", ")
            ),
            theme.muted,
        )),
        Line::from(Span::styled(
            format!(
                "{} lists them one a row; {}, {} and {} act on all {} at once.",
                cx.keymap.key(Context::Main, Command::Expand),
                cx.keymap.key(Context::Main, Command::Confirm),
                cx.keymap.key(Context::Main, Command::Dismiss),
                cx.keymap.key(Context::Main, Command::Resolve),
                nodes.len()
            ),
            theme.muted,
        )),
        Line::raw(""),
    ];
    for node in nodes {
        lines.push(Line::from(vec![
            Span::styled(format!("{} ", node.priority), theme.priority(node.priority)),
            Span::styled(shown(&node.location()), theme.text),
            Span::styled(
                format!("  {}", super::findings::status_word(node.status)),
                theme.status(node.status),
            ),
        ]));
    }
    lines
}
