//! The panes (findings, detail, reviewers, disagreements): the commands of the main screen,
//! movement and focus, and the mouse.

use ratatui::layout::Position;

use crate::review::node::Actor;
use crate::review::status::Change;
use crate::review::{Level, Role};
use crate::space::state::Ladder;
use crate::ui::command::Command;
use crate::ui::keymap::Context;
use crate::ui::rows::{self, Row};
use crate::ui::state::{
    AppState, EditedBox, InputPurpose, MessageKind, Overlay, Pane, RowKey, TerminalJob,
};

use super::component::Component;
use super::diff::{Place, diff_view, open_diff, open_in_editor, place, set_diff_view};
use super::gate::open_gate;
use super::selection::{jump_finding, move_on, reveal};
use super::triage;
use super::triage_keys::{act_on_group, group_targets, stop_reviewer, stop_run};
use super::{Effect, info, message, with_selected};

/// The main screen: its commands act on the focused pane and the selection.
pub(super) struct Panes;

impl Component for Panes {
    fn context(&self) -> Context {
        Context::Main
    }

    fn available(&self, state: &AppState, command: Command) -> bool {
        use Command as C;
        if let Some(available) = super::room::available(state, command) {
            return available;
        }
        let node = state.selected_node();
        let me = || Actor::Person(state.person.clone());
        let group = state.range.is_some()
            || matches!(
                state.selected,
                Some(RowKey::Cohort(_) | RowKey::Below(_) | RowKey::Rule(_))
            );
        match command {
            C::Confirm | C::Dismiss | C::Resolve => {
                group || node.is_some_and(|n| n.status.is_active())
            }
            C::Reopen => node.is_some_and(|n| {
                !n.status.is_active() || n.confirmations.iter().any(|s| s.by == me())
            }),
            C::EditComment | C::EditInEditor | C::Yank | C::ToggleMark => node.is_some(),
            C::OpenInEditor => state.worktree.is_some() && node.is_some_and(|n| n.anchor.is_some()),
            C::Undo => !state.undo.is_empty(),
            C::Redo => !state.redo.is_empty(),
            C::FocusDisagreements => !state.disagreements().is_empty(),
            C::ClearFilter => !state.filter.is_empty(),
            C::OpenGate => {
                state.ladder == Ladder::AwaitingApproval
                    || (state.ladder == Ladder::Completed && state.published.is_some())
            }
            C::OpenDiff => state.diff.is_some(),
            C::ViewPatch => state.patch.is_some(),
            C::StopRun => state.review_running(),
            C::StopReviewer => state.review_running() && stoppable(state).is_some(),
            // Only in the diff view, the gate and the preview.
            C::NextFile
            | C::PrevFile
            | C::GateFix
            | C::GateIgnore
            | C::GatePublish
            | C::GateDetails
            | C::GateWhy
            | C::GateAbort
            | C::PublishConfirm
            | C::PublishCancel
            | C::IncludeRaised => false,
            _ => true,
        }
    }

    fn update(&self, state: &mut AppState, command: Command) -> Option<Vec<Effect>> {
        Some(main_command(state, command))
    }
}

/// The model reviewer selected in the focused reviewers pane, while it queues or reads.
fn stoppable(state: &AppState) -> Option<&str> {
    use crate::review::board::ReviewerPhase;
    let name = state
        .selected_reviewer
        .as_deref()
        .filter(|_| state.focus == Pane::Reviewers)?;
    let phase = state.board.reviewers.get(name).map(|r| r.phase);
    (Role::ALL.iter().any(|role| role.as_str() == name)
        && matches!(phase, Some(ReviewerPhase::Queued | ReviewerPhase::Reading)))
    .then_some(name)
}

fn main_command(state: &mut AppState, command: Command) -> Vec<Effect> {
    if let Some(effects) = super::room::command(state, command) {
        return effects;
    }
    match command {
        Command::MoveDown => move_in_pane(state, 1),
        Command::MoveUp => move_in_pane(state, -1),
        Command::PageDown => move_in_pane(state, page(state) as isize),
        Command::PageUp => move_in_pane(state, -(page(state) as isize)),
        Command::Top => move_in_pane(state, isize::MIN / 2),
        Command::Bottom => move_in_pane(state, isize::MAX / 2),
        Command::NextPane => cycle_pane(state, 1),
        Command::PrevPane => cycle_pane(state, -1),
        Command::Expand => expand(state),
        Command::NextFinding => jump_finding(state, true),
        Command::PrevFinding => jump_finding(state, false),
        Command::Dismiss if let Some(effects) = super::axis_override::ask(state) => {
            return effects;
        }
        Command::Confirm | Command::Resolve | Command::Dismiss
            if state.focus == Pane::Findings && group_targets(state).is_some() =>
        {
            return act_on_group(state, command);
        }
        Command::Confirm => return confirm(state),
        Command::SelectRange => return select_range(state),
        Command::Resolve => return resolve(state),
        Command::Reopen => return reopen(state),
        Command::Dismiss => return dismiss(state),
        Command::StopReviewer => return stop_reviewer(state),
        Command::StopRun => return stop_run(state),
        Command::Undo => return triage::undo(state),
        Command::Redo => return triage::redo(state),
        Command::EditInEditor => return edit_in_editor(state),
        Command::Yank => return yank(state),
        Command::OpenInEditor => return open_selected_in_editor(state),
        Command::ZoomDetail => return zoom_detail(state),
        Command::FocusFindings => focus(state, Pane::Findings),
        Command::FocusDetail => focus(state, Pane::Detail),
        Command::FocusReviewers => focus(state, Pane::Reviewers),
        Command::FocusDisagreements => return focus_disagreements(state),
        Command::EditComment => return edit_comment(state),
        Command::ToggleMark => return toggle_mark(state),
        Command::Filter => return filter(state),
        Command::ClearFilter => state.filter.clear(),
        Command::CycleLevel => return cycle_level(state),
        Command::OpenGate => open_gate(state),
        Command::OpenDiff => open_diff(state),
        // Outside the diff view there are no files to jump between.
        Command::NextFile | Command::PrevFile => {}
        // The review room's (`room::command` took them first).
        Command::Ask
        | Command::AskChange
        | Command::CancelAnswer
        | Command::AcceptProposal
        | Command::AddComment
        | Command::DeleteComment => {}
        Command::Help => return toggle_help(state),
        Command::Close => return close(state),
        Command::Quit => {
            state.quit = true;
            return vec![Effect::Quit];
        }
        Command::OpenInbox => {
            state.quit = true;
            return vec![Effect::OpenInbox];
        }
        Command::Threads => super::threads::open_list(state),
        // The threads list's own (it takes them first).
        Command::Reply => {}
        // The inbox's own keys.
        Command::OpenPr | Command::Sort | Command::Refresh => {}
        Command::EventLog => return toggle_log(state),
        Command::ViewPatch => return view_patch(state),
        // The gate's and the preview's: nothing to do without them on top.
        Command::GateFix
        | Command::GateIgnore
        | Command::GatePublish
        | Command::GateDetails
        | Command::GateWhy
        | Command::GateAbort
        | Command::HandBack
        | Command::PublishConfirm
        | Command::PublishCancel
        | Command::IncludeRaised => {}
    }
    Vec::new()
}

fn confirm(state: &mut AppState) -> Vec<Effect> {
    with_selected(state, "confirm", |state, id| {
        let effects = triage::change(
            state,
            &id,
            Change::Confirm {
                note: String::new(),
            },
        );
        move_on(state, &id, &effects);
        effects
    })
}

fn select_range(state: &mut AppState) -> Vec<Effect> {
    if state.range.take().is_none() {
        state.range = state.selected.clone();
        if state.range.is_some() {
            info(
                state,
                "range: move to extend it; confirm, dismiss or resolve act on all of it"
                    .to_string(),
            );
        }
    }
    Vec::new()
}

fn resolve(state: &mut AppState) -> Vec<Effect> {
    with_selected(state, "resolve", |state, id| {
        let effects = triage::change(state, &id, Change::Resolve { note: None });
        move_on(state, &id, &effects);
        effects
    })
}

fn reopen(state: &mut AppState) -> Vec<Effect> {
    with_selected(state, "reopen", |state, id| {
        let Some(node) = state.node(&id) else {
            return Vec::new();
        };
        let me = Actor::Person(state.person.clone());
        if !node.status.is_active() {
            triage::change(state, &id, Change::Reopen)
        } else if node.confirmations.iter().any(|s| s.by == me) {
            // Open again from consensus-ready: take the person's confirmation back.
            triage::change(state, &id, Change::Withdraw)
        } else {
            let text = format!("{} is {}: nothing to reopen", state.label(&id), node.status);
            message(state, MessageKind::Warn, text);
            Vec::new()
        }
    })
}

fn dismiss(state: &mut AppState) -> Vec<Effect> {
    with_selected(state, "dismiss", |state, id| {
        if let Some(node) = state.node(&id).filter(|n| !n.status.is_active()) {
            let text = format!(
                "{} is already {}: {} reopens it",
                state.label(&id),
                node.status,
                state.key(Context::Main, Command::Reopen)
            );
            message(state, MessageKind::Warn, text);
            return Vec::new();
        }
        state.overlays.push(Overlay::input(
            InputPurpose::Dismiss { node_ids: vec![id] },
            "",
        ));
        Vec::new()
    })
}

fn edit_in_editor(state: &mut AppState) -> Vec<Effect> {
    // From a multi-line box (a comment, a question, a reply): what is typed so far goes to the
    // editor, and the box comes back with what the editor left.
    let typed = match state.top_overlay() {
        Some(Overlay::Input(input)) if input.purpose.multiline() => Some(EditedBox {
            purpose: input.purpose.clone(),
            original: input.original.clone(),
            typed: input.text(),
        }),
        _ => None,
    };
    if let Some(edited) = typed {
        state.overlays.pop();
        state.terminal_jobs.push(TerminalJob::EditBox(edited));
    } else {
        return with_selected(state, "edit", |state, id| {
            let text = state
                .node(&id)
                .map(|n| state.comment_text(n))
                .unwrap_or_default();
            state
                .terminal_jobs
                .push(TerminalJob::Editor { node_id: id, text });
            Vec::new()
        });
    }
    Vec::new()
}

fn yank(state: &mut AppState) -> Vec<Effect> {
    with_selected(state, "copy", |state, id| {
        let Some(node) = state.node(&id) else {
            return Vec::new();
        };
        let text = match &node.anchor {
            Some(anchor) => format!("{}:{}", anchor.path, anchor.start_line),
            None => node.text.title.clone(),
        };
        info(state, format!("copied {text}"));
        state.terminal_jobs.push(TerminalJob::Clipboard(text));
        Vec::new()
    })
}

fn open_selected_in_editor(state: &mut AppState) -> Vec<Effect> {
    with_selected(state, "open in the editor", |state, id| {
        let at = state
            .node(&id)
            .and_then(|n| n.anchor.as_ref())
            .map(|a| (a.path.clone(), a.start_line));
        match at {
            Some((path, line)) => open_in_editor(state, &path, line),
            None => message(
                state,
                MessageKind::Warn,
                "this finding names no file".to_string(),
            ),
        }
        Vec::new()
    })
}

fn zoom_detail(state: &mut AppState) -> Vec<Effect> {
    state.zoomed = !state.zoomed;
    state.focus = if state.zoomed {
        Pane::Detail
    } else {
        Pane::Findings
    };
    Vec::new()
}

fn focus_disagreements(state: &mut AppState) -> Vec<Effect> {
    if state.disagreements().is_empty() {
        info(state, "no disagreements".to_string());
    } else {
        focus(state, Pane::Disagreements);
    }
    Vec::new()
}

fn edit_comment(state: &mut AppState) -> Vec<Effect> {
    with_selected(state, "edit", |state, id| {
        let text = state
            .node(&id)
            .map(|n| state.comment_text(n))
            .unwrap_or_default();
        state.overlays.push(Overlay::input(
            InputPurpose::EditComment { node_id: id },
            &text,
        ));
        Vec::new()
    })
}

fn toggle_mark(state: &mut AppState) -> Vec<Effect> {
    if let Some(RowKey::Node(id)) = state.selected.clone()
        && !state.marked.remove(&id)
    {
        state.marked.insert(id);
    }
    Vec::new()
}

fn filter(state: &mut AppState) -> Vec<Effect> {
    let previous = state.filter.clone();
    state.overlays.push(Overlay::input(
        InputPurpose::Filter { previous },
        &state.filter,
    ));
    Vec::new()
}

fn toggle_help(state: &mut AppState) -> Vec<Effect> {
    if matches!(state.top_overlay(), Some(Overlay::Help { .. })) {
        state.overlays.pop();
    } else {
        state.overlays.push(Overlay::Help { scroll: 0 });
    }
    Vec::new()
}

fn close(state: &mut AppState) -> Vec<Effect> {
    if state.overlays.pop().is_none() {
        if state.range.is_some() {
            state.range = None;
        } else if state.zoomed {
            state.zoomed = false;
        } else if !state.filter.is_empty() {
            state.filter.clear();
        } else {
            state.focus = Pane::Findings;
        }
    }
    Vec::new()
}

fn toggle_log(state: &mut AppState) -> Vec<Effect> {
    if matches!(state.top_overlay(), Some(Overlay::Log { .. })) {
        state.overlays.pop();
    } else {
        // Opens at its newest line, and follows new ones until scrolled.
        state.overlays.push(Overlay::Log { scroll: u16::MAX });
    }
    Vec::new()
}

fn view_patch(state: &mut AppState) -> Vec<Effect> {
    if state.patch.is_some() {
        state.overlays.push(Overlay::Patch { scroll: 0 });
    } else {
        let text = format!(
            "nothing to show yet: the gate's fix ({}, then {}) writes a patch or runs the fix command",
            state.key(Context::Main, Command::OpenGate),
            state.key(Context::Gate, Command::GateFix)
        );
        message(state, MessageKind::Warn, text);
    }
    Vec::new()
}

pub(super) fn page(state: &AppState) -> usize {
    let height = match state.focus {
        Pane::Detail => state.layout.detail.height,
        _ => state.layout.findings.height,
    };
    (height.saturating_sub(3) as usize).max(1)
}

pub(super) fn move_in_pane(state: &mut AppState, delta: isize) {
    match state.focus {
        Pane::Findings => move_findings(state, delta),
        Pane::Detail => {
            let scroll = state.detail_scroll as isize + delta;
            state.detail_scroll = scroll.clamp(0, state.layout.detail_scroll_max as isize) as u16;
        }
        Pane::Reviewers => {
            let names: Vec<String> = reviewer_order(state)
                .into_iter()
                .map(str::to_string)
                .collect();
            state.selected_reviewer = step(&names, state.selected_reviewer.as_ref(), delta);
        }
        Pane::Disagreements => {
            let pairs: Vec<(String, String)> = state
                .disagreements()
                .iter()
                .map(|d| (d.a.clone(), d.b.clone()))
                .collect();
            state.selected_disagreement = step(&pairs, state.selected_disagreement.as_ref(), delta);
        }
    }
}

/// The item `delta` steps from `current` in `items` (clamped), or the first one.
pub(super) fn step<T: Clone + PartialEq>(
    items: &[T],
    current: Option<&T>,
    delta: isize,
) -> Option<T> {
    if items.is_empty() {
        return None;
    }
    let index = match current.and_then(|c| items.iter().position(|i| i == c)) {
        Some(i) => (i as isize)
            .saturating_add(delta)
            .clamp(0, items.len() as isize - 1) as usize,
        None => 0,
    };
    Some(items[index].clone())
}

pub(super) fn move_findings(state: &mut AppState, delta: isize) {
    let keys: Vec<RowKey> = rows::rows(state).iter().map(Row::key).collect();
    let next = step(&keys, state.selected.as_ref(), delta);
    if next != state.selected {
        state.detail_scroll = 0;
    }
    state.selected = next;
}

/// The reviewers in display order: the roles in roster order, then the deterministic ones.
pub fn reviewer_order(state: &AppState) -> Vec<&str> {
    let mut names: Vec<&str> = state.board.reviewers.keys().map(String::as_str).collect();
    names.sort_by_key(|name| {
        let role = Role::ALL.iter().position(|r| r.as_str() == *name);
        (role.unwrap_or(Role::ALL.len()), name.to_string())
    });
    names
}

pub(super) fn cycle_pane(state: &mut AppState, delta: isize) {
    let mut panes = vec![Pane::Findings, Pane::Detail, Pane::Reviewers];
    if !state.disagreements().is_empty() {
        panes.push(Pane::Disagreements);
    }
    let i = panes.iter().position(|p| *p == state.focus).unwrap_or(0) as isize;
    let n = panes.len() as isize;
    focus(state, panes[((i + delta) % n + n) as usize % panes.len()]);
}

/// Focuses `pane`; a list pane arrives with a row selected, so the first enter acts.
pub(super) fn focus(state: &mut AppState, pane: Pane) {
    // Another pane is asked for: it must be on screen.
    state.zoomed &= pane == Pane::Detail;
    state.focus = pane;
    match pane {
        Pane::Reviewers if state.selected_reviewer.is_none() => {
            state.selected_reviewer = reviewer_order(state).first().map(|s| s.to_string());
        }
        Pane::Disagreements if state.selected_disagreement.is_none() => {
            state.selected_disagreement = state
                .disagreements()
                .first()
                .map(|d| (d.a.clone(), d.b.clone()));
        }
        _ => {}
    }
}

pub(super) fn expand(state: &mut AppState) {
    match state.focus {
        Pane::Findings => match state.selected.clone() {
            Some(RowKey::Cohort(key)) => toggle(&mut state.collapsed, key),
            Some(RowKey::Below(key)) => toggle(&mut state.below_open, key),
            Some(RowKey::Rule(key)) => toggle(&mut state.rules_open, key),
            // A reason's detail: the axis's why, each break with its file and line.
            Some(RowKey::Reason(_)) => state.focus = Pane::Detail,
            Some(RowKey::Node(id)) => {
                let has_duplicates = rows::rows(state).iter().any(|row| {
                    matches!(row, Row::Node { id: row_id, duplicates, .. } if *row_id == id && *duplicates > 0)
                });
                if has_duplicates || state.expanded.contains(&id) {
                    toggle(&mut state.expanded, id);
                } else {
                    state.focus = Pane::Detail;
                }
            }
            None => {}
        },
        Pane::Disagreements => {
            let Some((a, b)) = state.selected_disagreement.clone() else {
                return;
            };
            let target = if state.selected == Some(RowKey::Node(a.clone())) {
                b
            } else {
                a
            };
            reveal(state, &target);
            state.selected = Some(RowKey::Node(target));
            state.detail_scroll = 0;
        }
        Pane::Reviewers => {
            if let Some(name) = state.selected_reviewer.clone() {
                state.filter = format!("@{name}");
                state.focus = Pane::Findings;
            }
        }
        Pane::Detail => state.focus = Pane::Findings,
    }
}

pub(super) fn toggle(set: &mut std::collections::BTreeSet<String>, key: String) {
    if !set.remove(&key) {
        set.insert(key);
    }
}

pub(super) fn cycle_level(state: &mut AppState) -> Vec<Effect> {
    let i = Level::ALL
        .iter()
        .position(|l| *l == state.level)
        .unwrap_or(0);
    state.level = Level::ALL[(i + 1) % Level::ALL.len()];
    let (main, below) = rows::placement_counts(state);
    info(
        state,
        format!(
            "level {}: {main} in the main list, {below} below threshold",
            state.level
        ),
    );
    vec![Effect::SetLevel(state.level)]
}

pub(super) fn scroll_at(state: &mut AppState, column: u16, row: u16, delta: i16) {
    let overlay_max = state.layout.overlay_scroll_max;
    match state.overlays.last_mut() {
        Some(
            Overlay::Help { scroll }
            | Overlay::Patch { scroll }
            | Overlay::Log { scroll }
            | Overlay::Preview { scroll, .. }
            | Overlay::Gate { scroll, .. },
        ) => {
            *scroll = (*scroll)
                .min(overlay_max)
                .saturating_add_signed(delta)
                .min(overlay_max);
            return;
        }
        Some(Overlay::Diff(view)) => {
            let target = (view.cursor as isize + delta as isize).max(0) as usize;
            if let Some(mut view) = diff_view(state) {
                view.cursor = target;
                place(state, &mut view, Place::Keep);
                set_diff_view(state, view);
            }
            return;
        }
        Some(_) => return,
        None => {}
    }
    let at = Position::new(column, row);
    if state.layout.detail.contains(at) {
        state.detail_scroll = state
            .detail_scroll
            .saturating_add_signed(delta)
            .min(state.layout.detail_scroll_max);
    } else if state.layout.findings.contains(at) {
        move_findings(state, delta as isize);
    }
}

pub(super) fn click(state: &mut AppState, column: u16, row: u16) {
    if !state.overlays.is_empty() {
        return;
    }
    let at = Position::new(column, row);
    let layout = &state.layout;
    if layout.findings.contains(at) {
        state.focus = Pane::Findings;
        if let Some((_, key)) = layout.finding_rows.iter().find(|(y, _)| *y == row) {
            let key = key.clone();
            if state.selected.as_ref() == Some(&key) && !matches!(key, RowKey::Node(_)) {
                expand(state);
            } else {
                if state.selected.as_ref() != Some(&key) {
                    state.detail_scroll = 0;
                }
                state.selected = Some(key);
            }
        }
    } else if layout.detail.contains(at) {
        state.focus = Pane::Detail;
    } else if layout.reviewers.contains(at) {
        focus(state, Pane::Reviewers);
    } else if layout.disagreements.contains(at) {
        focus(state, Pane::Disagreements);
    }
}
