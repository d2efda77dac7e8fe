//! The main screen: its commands, focus between the panes, and the mouse. Each pane
//! (findings, detail, reviewers, disagreements) is its own module and says how the keys that
//! act on the focused pane — move, page, enter — act on it ([`PaneKeys`]); the findings
//! pane also holds what the keys do to the selection.

mod detail;
mod disagreements;
mod findings;
mod reviewers;

use ratatui::layout::Position;

use crate::review::Actor;
use crate::review::Level;
use crate::space::Ladder;
use crate::ui::command::Command;
use crate::ui::keymap::Context;
use crate::ui::rows;
use crate::ui::state::{AppState, MessageKind, Overlay, Pane, RowKey};

use super::component::Component;
use super::diff::{Place, diff_view, open_diff, place, set_diff_view};
use super::gate::open_gate;
use super::selection::jump_finding;
use super::triage;
use super::triage_keys::{act_on_group, group_targets, stop_reviewer, stop_run};
use super::{Effect, info, message};
use detail::Detail;
use disagreements::Disagreements;
use findings::Findings;
use reviewers::Reviewers;
use reviewers::stoppable;

pub use reviewers::reviewer_order;

/// One pane of the main screen: how the keys that act on the focused pane act on it.
trait PaneKeys: Sync {
    /// Down (`delta` > 0) or up by `delta` rows: the selection, or the scroll.
    fn move_by(&self, state: &mut AppState, delta: isize);

    /// Enter: open or fold what is selected, or go where it points.
    fn expand(&self, state: &mut AppState);

    /// The pane was just focused (a list pane selects its first row, so the first enter acts).
    fn focused(&self, _state: &mut AppState) {}
}

/// The pane component for `pane`.
fn keys(pane: Pane) -> &'static dyn PaneKeys {
    match pane {
        Pane::Findings => &Findings,
        Pane::Detail => &Detail,
        Pane::Reviewers => &Reviewers,
        Pane::Disagreements => &Disagreements,
    }
}

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
        let group = state.findings.range.is_some()
            || matches!(
                state.findings.selected,
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
            C::ClearFilter => !state.findings.filter.is_empty(),
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
        Command::Expand => keys(state.focus).expand(state),
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
        Command::Confirm => return findings::confirm(state),
        Command::SelectRange => return findings::select_range(state),
        Command::Resolve => return findings::resolve(state),
        Command::Reopen => return findings::reopen(state),
        Command::Dismiss => return findings::dismiss(state),
        Command::StopReviewer => return stop_reviewer(state),
        Command::StopRun => return stop_run(state),
        Command::Undo => return triage::undo(state),
        Command::Redo => return triage::redo(state),
        Command::EditInEditor => return findings::edit_in_editor(state),
        Command::Yank => return findings::yank(state),
        Command::OpenInEditor => return findings::open_selected_in_editor(state),
        Command::ZoomDetail => return detail::zoom(state),
        Command::FocusFindings => focus(state, Pane::Findings),
        Command::FocusDetail => focus(state, Pane::Detail),
        Command::FocusReviewers => focus(state, Pane::Reviewers),
        Command::FocusDisagreements => return disagreements::focus_disagreements(state),
        Command::EditComment => return findings::edit_comment(state),
        Command::ToggleMark => return findings::toggle_mark(state),
        Command::Filter => return findings::filter(state),
        Command::ClearFilter => state.findings.filter.clear(),
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
        if state.findings.range.is_some() {
            state.findings.range = None;
        } else if state.detail.zoomed {
            state.detail.zoomed = false;
        } else if !state.findings.filter.is_empty() {
            state.findings.filter.clear();
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

fn page(state: &AppState) -> usize {
    let height = match state.focus {
        Pane::Detail => state.layout.detail.height,
        _ => state.layout.findings.height,
    };
    (height.saturating_sub(3) as usize).max(1)
}

fn move_in_pane(state: &mut AppState, delta: isize) {
    keys(state.focus).move_by(state, delta);
}

/// The item `delta` steps from `current` in `items` (clamped), or the first one.
fn step<T: Clone + PartialEq>(items: &[T], current: Option<&T>, delta: isize) -> Option<T> {
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

fn cycle_pane(state: &mut AppState, delta: isize) {
    let mut panes = vec![Pane::Findings, Pane::Detail, Pane::Reviewers];
    if !state.disagreements().is_empty() {
        panes.push(Pane::Disagreements);
    }
    let i = panes.iter().position(|p| *p == state.focus).unwrap_or(0) as isize;
    let n = panes.len() as isize;
    focus(state, panes[((i + delta) % n + n) as usize % panes.len()]);
}

/// Focuses `pane`; a list pane arrives with a row selected, so the first enter acts.
fn focus(state: &mut AppState, pane: Pane) {
    // Another pane is asked for: it must be on screen.
    state.detail.zoomed &= pane == Pane::Detail;
    state.focus = pane;
    keys(pane).focused(state);
}

fn toggle(set: &mut std::collections::BTreeSet<String>, key: String) {
    if !set.remove(&key) {
        set.insert(key);
    }
}

fn cycle_level(state: &mut AppState) -> Vec<Effect> {
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
        detail::wheel(state, delta);
    } else if state.layout.findings.contains(at) {
        findings::move_findings(state, delta as isize);
    }
}

pub(super) fn click(state: &mut AppState, column: u16, row: u16) {
    if !state.overlays.is_empty() {
        return;
    }
    let at = Position::new(column, row);
    let layout = &state.layout;
    if layout.findings.contains(at) {
        findings::click(state, row);
    } else if layout.detail.contains(at) {
        state.focus = Pane::Detail;
    } else if layout.reviewers.contains(at) {
        focus(state, Pane::Reviewers);
    } else if layout.disagreements.contains(at) {
        focus(state, Pane::Disagreements);
    }
}
