//! `update(state, action) -> effects`: the cockpit's only state transition. Pure: no IO, no
//! clock (the loop stamps `state.now`), no terminal. What needs the world — persisting a status,
//! writing a patch, publishing — comes back as an `Effect` for the engine to carry out.

use ratatui::layout::Position;

use crate::review::board::Applied as BoardApplied;
use crate::review::derived;
use crate::review::disagreement::disagreements;
use crate::review::events::EventKind;
use crate::review::node::{Actor, ReviewNode};
use crate::review::status::{Change, SuppressionHint};
use crate::review::{Level, Role};
use crate::space::state::Ladder;
use crate::ui::action::{Action, Command, Report};
use crate::ui::diffview::{self, DiffDoc, DiffRow};
use crate::ui::keymap::Context;
use crate::ui::rows::{self, Row, Unfold};
use crate::ui::state::{
    AppState, DiffView, InputPurpose, MessageKind, Overlay, Pane, RowKey, TerminalJob,
    generated_comment,
};
use crate::ui::triage;

/// A request to the engine. The state already shows the outcome where it can (a status change
/// is applied to the board through the status service first); the engine makes it durable or
/// does the IO, and reports back with an `Action`.
#[derive(Debug, Clone, PartialEq)]
pub enum Effect {
    /// The person changed a node's status through `review::status::apply`. `node` is the node
    /// after the change: upsert it into the space state and save; keep `suppression` (a
    /// dismissal's hint for later rounds) when present.
    PersistStatus {
        node_id: String,
        change: Change,
        node: Box<ReviewNode>,
        suppression: Option<SuppressionHint>,
    },
    /// A reviewer's event added or changed a node (a new finding, a peer's stance): upsert it.
    PersistNode(Box<ReviewNode>),
    /// The person rewrote the comment that would be posted for a node (`None`: back to the
    /// generated text).
    SaveComment {
        node_id: String,
        text: Option<String>,
    },
    /// The person changed the level: only where findings are shown moved; remember the choice.
    SetLevel(Level),
    /// Gate "fix": apply these findings' exact replacement lines as a patch file (or hand their
    /// fix prompts to the configured fix command); reply with `Notice` or `EngineError`.
    WritePatch {
        node_ids: Vec<String>,
    },
    /// Gate "publish": compute what would be posted; reply with `Action::PublishPreview`.
    PreviewPublish,
    /// The person confirmed the preview: publish; reply with `Published` or `EngineError`.
    Publish,
    /// Stop the running round: every reviewer and pass.
    StopRun,
    /// Stop one model reviewer of the running round.
    StopReviewer(String),
    Quit,
}

pub fn update(state: &mut AppState, action: Action) -> Vec<Effect> {
    crate::ui::log::record(state, &action);
    // The second press of the whole run's stop must come next: any other key disarms it.
    let command = matches!(action, Action::Command(_));
    if command && action != Action::Command(Command::StopRun) {
        state.stop_armed = false;
    }
    // A key or the mouse: whatever is selected now is the person's choice.
    if command || matches!(action, Action::Click { .. }) {
        state.auto_selected = None;
    }
    let effects = transition(state, action);
    crate::ui::log::record_effects(state, &effects);
    effects
}

fn transition(state: &mut AppState, action: Action) -> Vec<Effect> {
    // Moving inside the diff view, which covers the list, changes nothing the list shows; at
    // 10k findings rebuilding it twice costs more than the frame the key asks for.
    if matches!(state.top_overlay(), Some(Overlay::Diff(_))) && moves_only(&action) {
        return dispatch(state, action);
    }
    // Act on what is on screen: a selection hidden since (by a fold, the filter, the level) has
    // already moved to what hides it.
    reconcile_selection(state);
    let effects = dispatch(state, action);
    reconcile_selection(state);
    effects
}

/// Keys that only move a cursor.
fn moves_only(action: &Action) -> bool {
    matches!(
        action,
        Action::Command(Command::MoveDown)
            | Action::Command(Command::MoveUp)
            | Action::Command(Command::PageDown)
            | Action::Command(Command::PageUp)
            | Action::Command(Command::Top)
            | Action::Command(Command::Bottom)
            | Action::Command(Command::NextFile)
            | Action::Command(Command::PrevFile)
            | Action::Command(Command::NextFinding)
            | Action::Command(Command::PrevFinding)
    )
}

fn dispatch(state: &mut AppState, action: Action) -> Vec<Effect> {
    if let Some(effects) = in_overlay(state, &action) {
        return effects;
    }
    match action {
        Action::Command(Command::MoveDown) => move_in_pane(state, 1),
        Action::Command(Command::MoveUp) => move_in_pane(state, -1),
        Action::Command(Command::PageDown) => move_in_pane(state, page(state) as isize),
        Action::Command(Command::PageUp) => move_in_pane(state, -(page(state) as isize)),
        Action::Command(Command::Top) => move_in_pane(state, isize::MIN / 2),
        Action::Command(Command::Bottom) => move_in_pane(state, isize::MAX / 2),
        Action::Command(Command::NextPane) => cycle_pane(state, 1),
        Action::Command(Command::PrevPane) => cycle_pane(state, -1),
        Action::Command(Command::Expand) => expand(state),
        Action::Command(Command::NextFinding) => jump_finding(state, true),
        Action::Command(Command::PrevFinding) => jump_finding(state, false),
        Action::Command(Command::Confirm)
        | Action::Command(Command::Resolve)
        | Action::Command(Command::Dismiss)
            if state.focus == Pane::Findings && group_targets(state).is_some() =>
        {
            return act_on_group(state, &action);
        }
        Action::Command(Command::SelectRange) => {
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
        }
        Action::Command(Command::Confirm) => {
            return with_selected(state, "confirm", |state, id| {
                let effects = triage::change(
                    state,
                    &id,
                    Change::Confirm {
                        note: String::new(),
                    },
                );
                move_on(state, &id, &effects);
                effects
            });
        }
        Action::Command(Command::Resolve) => {
            return with_selected(state, "resolve", |state, id| {
                let effects = triage::change(state, &id, Change::Resolve { note: None });
                move_on(state, &id, &effects);
                effects
            });
        }
        Action::Command(Command::Reopen) => {
            return with_selected(state, "reopen", |state, id| {
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
                    let text = format!(
                        "{} is {}: nothing to reopen",
                        triage::label(state, &id),
                        node.status
                    );
                    message(state, MessageKind::Warn, text);
                    Vec::new()
                }
            });
        }
        Action::Command(Command::Dismiss) => {
            return with_selected(state, "dismiss", |state, id| {
                if let Some(node) = state.node(&id).filter(|n| !n.status.is_active()) {
                    let text = format!(
                        "{} is already {}: {} reopens it",
                        triage::label(state, &id),
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
            });
        }
        Action::Command(Command::StopReviewer) => return stop_reviewer(state),
        Action::Command(Command::StopRun) => return stop_run(state),
        Action::Command(Command::Undo) => return triage::undo(state),
        Action::Command(Command::Redo) => return triage::redo(state),
        Action::Command(Command::EditInEditor) => {
            // From the comment editor: what is typed so far goes to the editor.
            let typed = match state.top_overlay() {
                Some(Overlay::Input(input)) => match &input.purpose {
                    InputPurpose::EditComment { node_id } => Some((node_id.clone(), input.text())),
                    _ => None,
                },
                _ => None,
            };
            if let Some((node_id, text)) = typed {
                state.overlays.pop();
                state
                    .terminal_jobs
                    .push(TerminalJob::Editor { node_id, text });
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
        }
        Action::EditorClosed { node_id, text } => match text {
            Ok(text) if text.trim().is_empty() => {
                let text = format!(
                    "the editor left {} empty: the comment is unchanged",
                    triage::label(state, &node_id)
                );
                message(state, MessageKind::Warn, text);
            }
            Ok(text) => return save_comment(state, node_id, text),
            Err(why) => message(state, MessageKind::Error, why),
        },
        Action::Command(Command::Yank) => {
            return with_selected(state, "copy", |state, id| {
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
            });
        }
        Action::Command(Command::OpenInEditor) => {
            return with_selected(state, "open in the editor", |state, id| {
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
            });
        }
        Action::Command(Command::ZoomDetail) => {
            state.zoomed = !state.zoomed;
            state.focus = if state.zoomed {
                Pane::Detail
            } else {
                Pane::Findings
            };
        }
        Action::Command(Command::FocusFindings) => focus(state, Pane::Findings),
        Action::Command(Command::FocusDetail) => focus(state, Pane::Detail),
        Action::Command(Command::FocusReviewers) => focus(state, Pane::Reviewers),
        Action::Command(Command::FocusDisagreements) => {
            if state.disagreements.is_empty() {
                info(state, "no disagreements".to_string());
            } else {
                focus(state, Pane::Disagreements);
            }
        }
        Action::UnknownKey(key) => message(
            state,
            MessageKind::Warn,
            format!(
                "{key} does nothing here · {} lists the keys",
                state.key(Context::Main, Command::Help)
            ),
        ),
        Action::Command(Command::EditComment) => {
            return with_selected(state, "edit", |state, id| {
                let text = state
                    .node(&id)
                    .map(|n| state.comment_text(n))
                    .unwrap_or_default();
                state.overlays.push(Overlay::input(
                    InputPurpose::EditComment { node_id: id },
                    &text,
                ));
                Vec::new()
            });
        }
        Action::Command(Command::ToggleMark) => {
            if let Some(RowKey::Node(id)) = state.selected.clone()
                && !state.marked.remove(&id)
            {
                state.marked.insert(id);
            }
        }
        Action::Command(Command::Filter) => {
            let previous = state.filter.clone();
            state.overlays.push(Overlay::input(
                InputPurpose::Filter { previous },
                &state.filter,
            ));
        }
        Action::Command(Command::ClearFilter) => state.filter.clear(),
        Action::Command(Command::CycleLevel) => return cycle_level(state),
        Action::Command(Command::OpenGate) => open_gate(state),
        Action::Command(Command::OpenDiff) => open_diff(state),
        // Outside the diff view there are no files to jump between.
        Action::Command(Command::NextFile) | Action::Command(Command::PrevFile) => {}
        Action::Command(Command::Help) => {
            if matches!(state.top_overlay(), Some(Overlay::Help { .. })) {
                state.overlays.pop();
            } else {
                state.overlays.push(Overlay::Help { scroll: 0 });
            }
        }
        Action::Command(Command::Close) => {
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
        }
        Action::Command(Command::Quit) => {
            state.quit = true;
            return vec![Effect::Quit];
        }
        Action::Command(Command::GateFix) => return gate_fix(state),
        Action::Command(Command::GateIgnore) => gate_ignore(state),
        Action::Command(Command::GatePublish) => {
            if let Some(target) = &state.published {
                let text = format!("round {} was published: {target}", state.round);
                message(state, MessageKind::Warn, text);
                return Vec::new();
            }
            if matches!(state.top_overlay(), Some(Overlay::Gate { .. })) {
                state.overlays.push(Overlay::PreviewPending);
                return vec![Effect::PreviewPublish];
            }
        }
        Action::Command(Command::GateDetails) => {
            if let Some(Overlay::Gate { details, .. }) = state.overlays.last_mut() {
                *details = !*details;
            }
        }
        // Its label says "leave without publishing": the gate closes, the cockpit stays.
        Action::Command(Command::GateAbort) => {
            if matches!(state.top_overlay(), Some(Overlay::Gate { .. })) {
                state.overlays.pop();
                info(state, "left the gate: nothing was published".to_string());
            }
        }
        Action::Command(Command::PublishConfirm) => {
            if matches!(state.top_overlay(), Some(Overlay::Preview { .. })) {
                state.overlays.clear();
                info(state, "publishing…".to_string());
                return vec![Effect::Publish];
            }
        }
        Action::Command(Command::PublishCancel) => {
            if matches!(
                state.top_overlay(),
                Some(Overlay::Preview { .. } | Overlay::PreviewPending)
            ) {
                state.overlays.pop();
                info(state, "publish cancelled: nothing was posted".to_string());
            }
        }
        Action::Text(input) => {
            if let Some(Overlay::Input(overlay)) = state.overlays.last_mut() {
                overlay.textarea.input(input);
                overlay.error = None;
                overlay.confirm_discard = false;
                if matches!(overlay.purpose, InputPurpose::Filter { .. }) {
                    state.filter = overlay.text().trim().to_string();
                }
            }
        }
        Action::Submit => return submit(state),
        Action::Cancel => {
            if let Some(Overlay::Input(overlay)) = state.overlays.last_mut() {
                // An edited comment is work: the first esc asks, the second throws it away.
                if overlay.purpose.multiline() && overlay.changed() && !overlay.confirm_discard {
                    overlay.confirm_discard = true;
                    overlay.error =
                        Some("unsaved edit: esc again throws it away · ctrl-s saves".to_string());
                    return Vec::new();
                }
                if let InputPurpose::Filter { previous } = &overlay.purpose {
                    state.filter = previous.clone();
                }
                let discarded = overlay.purpose.multiline() && overlay.changed();
                state.overlays.pop();
                if discarded {
                    info(
                        state,
                        "edit thrown away: the comment is as it was".to_string(),
                    );
                }
            }
        }
        Action::ScrollDown { column, row } => scroll_at(state, column, row, 3),
        Action::ScrollUp { column, row } => scroll_at(state, column, row, -3),
        Action::Click { column, row } => click(state, column, row),
        Action::Resize { .. } => {}
        Action::Tick => {
            state.tick += 1;
            if state
                .message
                .as_ref()
                .is_some_and(|m| m.until_tick <= state.tick)
            {
                state.message = None;
            }
        }
        Action::Engine(Report::Event(event)) => return apply_event(state, event),
        Action::Engine(Report::RunStarted {
            run,
            round,
            reviewers,
        }) => {
            state.board.start_run(run);
            for (name, required) in reviewers {
                state.board.queue(&name, required);
            }
            state.round = round;
            refresh(state);
        }
        Action::Engine(Report::Ladder(ladder)) => {
            state.ladder = ladder;
            if ladder != Ladder::AwaitingApproval {
                if ladder < Ladder::AwaitingApproval {
                    // A new round: whatever was published was the previous one.
                    state.published = None;
                }
                state.overlays.retain(|o| {
                    !matches!(
                        o,
                        Overlay::Gate { .. } | Overlay::PreviewPending | Overlay::Preview { .. }
                    )
                });
            }
        }
        Action::Engine(Report::Axes(axes)) => {
            state.axes = axes;
            refresh(state);
        }
        Action::Engine(Report::Reviewers(reviewers)) => {
            state.board.reviewers = reviewers.into_iter().map(|r| (r.name.clone(), r)).collect();
            refresh(state);
        }
        Action::Engine(Report::Comments(comments)) => state.comments = comments,
        Action::Engine(Report::Findings(nodes)) => {
            state.board.nodes = nodes;
            refresh(state);
        }
        Action::Engine(Report::Verdict(verdict)) => state.verdict = Some(verdict),
        Action::Engine(Report::Cohorts(cohorts)) => state.cohorts = cohorts,
        Action::Engine(Report::Code { path, lines }) => {
            state.code.insert(path, lines);
        }
        Action::Engine(Report::Diff(diff)) => {
            state.diff = Some(diff);
            if let Some(mut view) = diff_view(state) {
                place(state, &mut view, Place::Keep);
                set_diff_view(state, view);
            }
        }
        Action::Engine(Report::Loading(loading)) => state.loading = loading,
        Action::Engine(Report::Pr(header)) => state.pr = header,
        Action::Engine(Report::Phase(phase)) => state.phase = phase,
        Action::Engine(Report::PublishPreview(data)) => {
            if let Some(top @ Overlay::PreviewPending) = state.overlays.last_mut() {
                *top = Overlay::Preview { data, scroll: 0 };
            }
        }
        Action::Engine(Report::Published { target }) => {
            state.overlays.retain(|o| {
                !matches!(
                    o,
                    Overlay::Gate { .. } | Overlay::PreviewPending | Overlay::Preview { .. }
                )
            });
            info(state, format!("published: {target}"));
            state.published = Some(target);
        }
        Action::Engine(Report::EngineError { title, message }) => {
            if matches!(state.top_overlay(), Some(Overlay::PreviewPending)) {
                state.overlays.pop();
            }
            // The error is the outcome: a status line saying what was asked for (`fix: …`)
            // would contradict it beside it.
            state.message = None;
            state.overlays.push(Overlay::Error { title, message });
        }
        Action::Engine(Report::Notice(text)) => info(state, text),
        Action::Engine(Report::PatchWritten { patch, summary }) => {
            state.patch = Some(patch);
            let key = state.key(Context::Main, Command::ViewPatch);
            info(state, format!("{summary} · {key} shows it"));
        }
        Action::Command(Command::EventLog) => {
            if matches!(state.top_overlay(), Some(Overlay::Log { .. })) {
                state.overlays.pop();
            } else {
                // Opens at its newest line, and follows new ones until scrolled.
                state.overlays.push(Overlay::Log { scroll: u16::MAX });
            }
        }
        Action::Command(Command::ViewPatch) => {
            if state.patch.is_some() {
                state.overlays.push(Overlay::Patch { scroll: 0 });
            } else {
                let text = format!(
                    "no patch yet: the gate's fix ({}, then {}) writes one",
                    state.key(Context::Main, Command::OpenGate),
                    state.key(Context::Gate, Command::GateFix)
                );
                message(state, MessageKind::Warn, text);
            }
        }
    }
    Vec::new()
}

/// Recomputes what derives from the findings: the problems and their consolidation marks, the
/// disagreements, the node index and the verdict. Called after every change to the board, and
/// only then. The verdict is `review::decide` over the same board, so what the header shows is
/// exactly what the code decides.
pub fn refresh(state: &mut AppState) {
    // The same derivations the session's snapshot makes, from `review::derived`.
    state.problems = derived::problems(&mut state.board.nodes);
    state.disagreements = disagreements(&state.board.nodes);
    state.node_index = state
        .board
        .nodes
        .iter()
        .enumerate()
        .map(|(i, n)| (n.id.clone(), i))
        .collect();
    refresh_verdict(state);
}

/// The verdict alone, for a change that leaves the problems and disagreements as they are.
pub(crate) fn refresh_verdict(state: &mut AppState) {
    if state.board.nodes.is_empty() && state.board.reviewers.is_empty() {
        state.verdict = None;
        return;
    }
    let context = derived::Context {
        axes: state.axes.clone(),
        reviewers: state.board.reviewer_runs(),
        deterministic_only: state.deterministic_only,
        model_verdict: None,
    };
    state.verdict = Some(derived::verdict(&state.board.nodes, context));
}

/// Stops the reviewer selected in the reviewers pane: only a model reviewer that has not
/// ended (the deterministic ones take moments and cost nothing).
fn stop_reviewer(state: &mut AppState) -> Vec<Effect> {
    use crate::review::board::ReviewerPhase;
    if !state.review_running() {
        message(state, MessageKind::Warn, "no review is running".to_string());
        return Vec::new();
    }
    let selected = (state.focus == Pane::Reviewers)
        .then(|| state.selected_reviewer.clone())
        .flatten();
    let Some(name) = selected else {
        let text = format!(
            "select a reviewer in the reviewers pane ({}) to stop it",
            state.key(Context::Main, Command::FocusReviewers)
        );
        message(state, MessageKind::Warn, text);
        return Vec::new();
    };
    let phase = state.board.reviewers.get(&name).map(|r| r.phase);
    let text = if !Role::ALL.iter().any(|role| role.as_str() == name) {
        format!("{name} is not a model reviewer: it ends on its own in moments")
    } else if !matches!(phase, Some(ReviewerPhase::Queued | ReviewerPhase::Reading)) {
        format!("{name} has already ended")
    } else {
        info(state, format!("stopping {name}: the others go on"));
        return vec![Effect::StopReviewer(name)];
    };
    message(state, MessageKind::Warn, text);
    Vec::new()
}

/// Stops the whole round on the second press in a row; the first says what it will do.
fn stop_run(state: &mut AppState) -> Vec<Effect> {
    if !state.review_running() {
        message(state, MessageKind::Warn, "no review is running".to_string());
        return Vec::new();
    }
    if !state.stop_armed {
        state.stop_armed = true;
        let text = format!(
            "{} again stops every reviewer and pass; what they found stays",
            state.key(Context::Main, Command::StopRun)
        );
        message(state, MessageKind::Warn, text);
        return Vec::new();
    }
    state.stop_armed = false;
    info(state, "stopping the review…".to_string());
    vec![Effect::StopRun]
}

fn info(state: &mut AppState, text: String) {
    message(state, MessageKind::Info, text);
}

fn message(state: &mut AppState, kind: MessageKind, text: String) {
    state.say(kind, text);
}

fn with_selected(
    state: &mut AppState,
    verb: &str,
    f: impl FnOnce(&mut AppState, String) -> Vec<Effect>,
) -> Vec<Effect> {
    match state.selected.clone() {
        Some(RowKey::Node(id)) if state.node(&id).is_some() => f(state, id),
        _ => {
            message(
                state,
                MessageKind::Warn,
                format!("select a finding to {verb}"),
            );
            Vec::new()
        }
    }
}

fn submit(state: &mut AppState) -> Vec<Effect> {
    let Some(Overlay::Input(overlay)) = state.overlays.last_mut() else {
        return Vec::new();
    };
    let text = overlay.text();
    match overlay.purpose.clone() {
        InputPurpose::Dismiss { node_ids } => {
            let reason = text.trim().to_string();
            if reason.is_empty() {
                overlay.error = Some("a reason is required to dismiss".to_string());
                return Vec::new();
            }
            state.overlays.pop();
            // One reason, one step of the undo history, however many findings.
            let effects = triage::change_all(state, &node_ids, Change::Dismiss { reason });
            for id in &node_ids {
                state.marked.remove(id);
            }
            state.range = None;
            if let [id] = node_ids.as_slice()
                && state.overlays.is_empty()
            {
                move_on(state, id, &effects);
            }
            effects
        }
        InputPurpose::EditComment { node_id } => {
            state.overlays.pop();
            save_comment(state, node_id, text)
        }
        InputPurpose::Filter { .. } => {
            state.filter = text.trim().to_string();
            state.overlays.pop();
            if let Some(problem) = rows::Filter::parse(&state.filter).problems.first() {
                let text = format!("{problem}: nothing can match");
                message(state, MessageKind::Warn, text);
            }
            Vec::new()
        }
    }
}

/// The findings a triage key acts on when it is not the one selected finding: the rows of a
/// range (`V`), or the cohort (or below-threshold group) whose row is selected. What the
/// filter hides is never included: what is acted on is what is listed. Duplicates under a
/// folded problem stay with their problem, as everywhere else.
pub(crate) fn group_targets(state: &AppState) -> Option<Vec<String>> {
    let visible = rows::rows(state);
    let keys: Vec<RowKey> = match (&state.range, &state.selected) {
        (Some(anchor), Some(at)) => {
            let a = rows::position(&visible, anchor)?;
            let b = rows::position(&visible, at)?;
            visible[a.min(b)..=a.max(b)].iter().map(Row::key).collect()
        }
        (None, Some(key @ (RowKey::Cohort(_) | RowKey::Below(_)))) => vec![key.clone()],
        _ => return None,
    };
    let all = rows::build(state, Unfold::All);
    let mut ids: Vec<String> = Vec::new();
    for key in &keys {
        match key {
            RowKey::Node(id) => ids.push(id.clone()),
            RowKey::Cohort(cohort) | RowKey::Below(cohort) => {
                let below_only = matches!(key, RowKey::Below(_));
                let Some(start) = all
                    .iter()
                    .position(|r| matches!(r, Row::Cohort { key, .. } if key == cohort))
                else {
                    continue;
                };
                for row in all[start + 1..].iter() {
                    match row {
                        Row::Cohort { .. } => break,
                        Row::Node {
                            id,
                            duplicate: false,
                            below,
                            ..
                        } if !below_only || *below => ids.push(id.clone()),
                        _ => {}
                    }
                }
            }
        }
    }
    let mut seen = std::collections::BTreeSet::new();
    ids.retain(|id| seen.insert(id.clone()));
    Some(ids)
}

/// Confirm, resolve or dismiss on a range or a cohort: one change to each finding it applies
/// to, one step of the undo history; a dismissal asks for its one reason first.
fn act_on_group(state: &mut AppState, action: &Action) -> Vec<Effect> {
    let ids = group_targets(state).unwrap_or_default();
    let me = Actor::Person(state.person.clone());
    let candidates: Vec<String> = ids
        .into_iter()
        .filter(|id| {
            state.node(id).is_some_and(|n| match action {
                // Only what the change moves: a dismissed finding is not confirmed, a
                // finding already confirmed by the person is not confirmed twice.
                Action::Command(Command::Confirm) => {
                    n.status.is_active()
                        && n.origin.reviewer != state.person
                        && !n.confirmations.iter().any(|s| s.by == me)
                }
                _ => n.status.is_active(),
            })
        })
        .collect();
    if candidates.is_empty() {
        message(
            state,
            MessageKind::Warn,
            "nothing in the range or cohort that this changes".to_string(),
        );
        return Vec::new();
    }
    match action {
        Action::Command(Command::Dismiss) => {
            state.overlays.push(Overlay::input(
                InputPurpose::Dismiss {
                    node_ids: candidates,
                },
                "",
            ));
            Vec::new()
        }
        Action::Command(Command::Confirm) => {
            state.range = None;
            let change = Change::Confirm {
                note: String::new(),
            };
            triage::change_all(state, &candidates, change)
        }
        _ => {
            state.range = None;
            triage::change_all(state, &candidates, Change::Resolve { note: None })
        }
    }
}

/// Keeps `text` as the comment to post for `node_id` (the generated text or an empty one
/// goes back to generating it).
fn save_comment(state: &mut AppState, node_id: String, text: String) -> Vec<Effect> {
    let generated = state.node(&node_id).map(generated_comment);
    let text = (Some(text.clone()) != generated && !text.trim().is_empty()).then_some(text);
    match &text {
        Some(text) => {
            state.comments.insert(node_id.clone(), text.clone());
        }
        None => {
            state.comments.remove(&node_id);
        }
    }
    let name = triage::label(state, &node_id);
    info(state, format!("{name}: comment saved"));
    vec![Effect::SaveComment { node_id, text }]
}

fn apply_event(state: &mut AppState, event: crate::review::events::ReviewEvent) -> Vec<Effect> {
    let stance_node = match &event.kind {
        EventKind::Stance { node_id, .. } => Some(node_id.clone()),
        _ => None,
    };
    let at = state.now.clone();
    let applied = state.board.apply(event, &at);
    let changed = match applied {
        BoardApplied::Stale => return Vec::new(),
        BoardApplied::NodeAdded(id) => Some(id),
        BoardApplied::Changed => stance_node,
        BoardApplied::Refused(_) => None,
    };
    refresh(state);
    changed
        .and_then(|id| state.node(&id).cloned())
        .map(|node| vec![Effect::PersistNode(Box::new(node))])
        .unwrap_or_default()
}

fn page(state: &AppState) -> usize {
    let height = match state.focus {
        Pane::Detail => state.layout.detail.height,
        _ => state.layout.findings.height,
    };
    (height.saturating_sub(3) as usize).max(1)
}

fn move_in_pane(state: &mut AppState, delta: isize) {
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
                .disagreements
                .iter()
                .map(|d| (d.a.clone(), d.b.clone()))
                .collect();
            state.selected_disagreement = step(&pairs, state.selected_disagreement.as_ref(), delta);
        }
    }
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

fn move_findings(state: &mut AppState, delta: isize) {
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

fn cycle_pane(state: &mut AppState, delta: isize) {
    let mut panes = vec![Pane::Findings, Pane::Detail, Pane::Reviewers];
    if !state.disagreements.is_empty() {
        panes.push(Pane::Disagreements);
    }
    let i = panes.iter().position(|p| *p == state.focus).unwrap_or(0) as isize;
    let n = panes.len() as isize;
    focus(state, panes[((i + delta) % n + n) as usize % panes.len()]);
}

/// Focuses `pane`; a list pane arrives with a row selected, so the first enter acts.
pub(crate) fn focus(state: &mut AppState, pane: Pane) {
    // Another pane is asked for: it must be on screen.
    state.zoomed &= pane == Pane::Detail;
    state.focus = pane;
    match pane {
        Pane::Reviewers if state.selected_reviewer.is_none() => {
            state.selected_reviewer = reviewer_order(state).first().map(|s| s.to_string());
        }
        Pane::Disagreements if state.selected_disagreement.is_none() => {
            state.selected_disagreement = state
                .disagreements
                .first()
                .map(|d| (d.a.clone(), d.b.clone()));
        }
        _ => {}
    }
}

fn expand(state: &mut AppState) {
    match state.focus {
        Pane::Findings => match state.selected.clone() {
            Some(RowKey::Cohort(key)) => toggle(&mut state.collapsed, key),
            Some(RowKey::Below(key)) => toggle(&mut state.below_open, key),
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

fn toggle(set: &mut std::collections::BTreeSet<String>, key: String) {
    if !set.remove(&key) {
        set.insert(key);
    }
}

/// Unfolds whatever hides node `id`: its cohort, its below-threshold group, its problem.
pub(crate) fn reveal(state: &mut AppState, id: &str) {
    let all = rows::build(state, Unfold::All);
    let Some(at) = all
        .iter()
        .position(|row| matches!(row, Row::Node { id: row_id, .. } if row_id == id))
    else {
        return;
    };
    for row in all[..=at].iter().rev() {
        match row {
            Row::Node {
                id: primary,
                duplicate: false,
                ..
            } if primary != id
                && matches!(
                    &all[at],
                    Row::Node {
                        duplicate: true,
                        ..
                    }
                ) =>
            {
                state.expanded.insert(primary.clone());
            }
            Row::Node { below: true, .. } if row == &all[at] => {}
            Row::Below { cohort, .. } => {
                if matches!(&all[at], Row::Node { below: true, .. }) {
                    state.below_open.insert(cohort.clone());
                }
            }
            Row::Cohort { key, .. } => {
                state.collapsed.remove(key);
                return;
            }
            _ => {}
        }
    }
}

/// `n`/`N`: the next or previous *open* finding in the main lists (duplicates and
/// below-threshold findings are skipped), wrapping around the list and unfolding a collapsed
/// cohort to show it.
fn jump_finding(state: &mut AppState, forward: bool) {
    let all = rows::build(state, Unfold::All);
    let current = state
        .selected
        .as_ref()
        .and_then(|key| rows::position(&all, key));
    match next_open(state, &all, current, forward) {
        Some((id, wrapped)) => {
            reveal(state, &id);
            state.selected = Some(RowKey::Node(id));
            state.detail_scroll = 0;
            if wrapped {
                let text = if forward {
                    "wrapped to the first open finding"
                } else {
                    "wrapped to the last open finding"
                };
                info(state, text.to_string());
            }
        }
        None => message(state, MessageKind::Warn, "no open findings".to_string()),
    }
}

/// The open finding after (or before) row `current` of the fully unfolded `all`, and whether
/// the search wrapped around the end.
fn next_open(
    state: &AppState,
    all: &[Row],
    current: Option<usize>,
    forward: bool,
) -> Option<(String, bool)> {
    let open: Vec<(usize, &String)> = all
        .iter()
        .enumerate()
        .filter_map(|(i, row)| match row {
            Row::Node {
                id,
                duplicate: false,
                below: false,
                ..
            } if state
                .node(id)
                .is_some_and(|n| n.status == crate::review::node::Status::Open) =>
            {
                Some((i, id))
            }
            _ => None,
        })
        .collect();
    let found = match (current, forward) {
        (None, true) => open.first().map(|f| (f, false)),
        (None, false) => open.last().map(|f| (f, false)),
        (Some(at), true) => open
            .iter()
            .find(|(i, _)| *i > at)
            .map(|f| (f, false))
            .or_else(|| open.first().filter(|(i, _)| *i != at).map(|f| (f, true))),
        (Some(at), false) => open
            .iter()
            .rev()
            .find(|(i, _)| *i < at)
            .map(|f| (f, false))
            .or_else(|| open.last().filter(|(i, _)| *i != at).map(|f| (f, true))),
    };
    found.map(|((_, id), wrapped)| ((*id).clone(), wrapped))
}

/// After a triage key on the list worked, the cursor goes on to the next open finding, the
/// way a reviewer works down a list (it stays when none is left).
fn move_on(state: &mut AppState, id: &str, effects: &[Effect]) {
    if effects.is_empty() || state.focus != Pane::Findings {
        return;
    }
    let all = rows::build(state, Unfold::All);
    let at = rows::position(&all, &RowKey::Node(id.to_string()));
    if let Some((next, _)) = next_open(state, &all, at, true) {
        reveal(state, &next);
        state.selected = Some(RowKey::Node(next));
        state.detail_scroll = 0;
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

fn open_gate(state: &mut AppState) {
    // A published round's gate stays readable: it says where the round went.
    let published = state.ladder == Ladder::Completed && state.published.is_some();
    if state.ladder != Ladder::AwaitingApproval && !published {
        message(
            state,
            MessageKind::Warn,
            format!(
                "the approval gate opens when the review is awaiting approval (it is {})",
                state.ladder
            ),
        );
        return;
    }
    if !matches!(state.top_overlay(), Some(Overlay::Gate { .. })) {
        state.overlays.push(Overlay::Gate {
            details: false,
            scroll: 0,
        });
    }
}

/// The counted findings: active, in scope, not a duplicate (what the verdict reads).
fn counted(node: &ReviewNode) -> bool {
    node.status.is_active() && node.in_scope() && node.duplicate_of.is_none()
}

fn has_fix(node: &ReviewNode) -> bool {
    node.fix.as_ref().is_some_and(|f| {
        f.replacement.is_some() || f.prompt.as_deref().is_some_and(|p| !p.trim().is_empty())
    })
}

fn gate_fix(state: &mut AppState) -> Vec<Effect> {
    let chosen: Vec<&ReviewNode> = if state.marked.is_empty() {
        state.board.nodes.iter().filter(|n| counted(n)).collect()
    } else {
        state
            .board
            .nodes
            .iter()
            .filter(|n| state.marked.contains(&n.id))
            .collect()
    };
    // Which findings, said the same way in every message about them.
    let which = if state.marked.is_empty() {
        format!(
            "{} (nothing is marked: every counted finding)",
            super::view::findings::plural(chosen.len(), "finding")
        )
    } else {
        format!("the {} marked", chosen.len())
    };
    let node_ids: Vec<String> = chosen
        .iter()
        .filter(|n| has_fix(n))
        .map(|n| n.id.clone())
        .collect();
    if node_ids.is_empty() {
        message(
            state,
            MessageKind::Warn,
            format!("no fix: none of {which} has replacement lines or a fix prompt"),
        );
        return Vec::new();
    }
    // Only what was asked: the session's answer (a patch written, or why not) is the outcome,
    // and replaces this line.
    info(
        state,
        format!("fix: working on {} of {which}…", node_ids.len()),
    );
    vec![Effect::WritePatch { node_ids }]
}

fn gate_ignore(state: &mut AppState) {
    let mut node_ids: Vec<String> = state
        .board
        .nodes
        .iter()
        .filter(|n| state.marked.contains(&n.id) && n.status.is_active())
        .map(|n| n.id.clone())
        .collect();
    if node_ids.is_empty()
        && let Some(node) = state.selected_node()
        && node.status.is_active()
    {
        node_ids.push(node.id.clone());
    }
    if node_ids.is_empty() {
        message(
            state,
            MessageKind::Warn,
            "select a finding, or mark several with space, to ignore".to_string(),
        );
        return;
    }
    state
        .overlays
        .push(Overlay::input(InputPurpose::Dismiss { node_ids }, ""));
}

fn scroll_at(state: &mut AppState, column: u16, row: u16, delta: i16) {
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

fn click(state: &mut AppState, column: u16, row: u16) {
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

/// Keeps the selection on a visible row: a node hidden by a fold selects the fold that hides
/// it; a node gone (filtered out) selects the first finding. Also keeps it in the viewport.
fn reconcile_selection(state: &mut AppState) {
    let visible = rows::rows(state);
    let in_view = state
        .selected
        .as_ref()
        .and_then(|key| rows::position(&visible, key));
    // Until the person moves, the list starts at its first finding, however the findings
    // streamed in: the same review opens on the same row.
    let untouched = state.auto_selected.is_some() && state.auto_selected == state.selected;
    let index = match in_view {
        Some(i) if !untouched => Some(i),
        _ if untouched => {
            let first = visible
                .iter()
                .position(|r| matches!(r, Row::Node { .. }))
                .or((!visible.is_empty()).then_some(0));
            state.selected = first.map(|i| visible[i].key());
            state.auto_selected = state.selected.clone();
            first
        }
        _ => {
            let fallback = state
                .selected
                .clone()
                .and_then(|key| containing_fold(state, &visible, &key));
            let first = || {
                visible
                    .iter()
                    .find(|r| matches!(r, Row::Node { .. }))
                    .or(visible.first())
                    .map(Row::key)
            };
            match fallback {
                Some(fold) => state.selected = Some(fold),
                None => {
                    state.selected = first();
                    // Nobody chose it: it follows the list's top until someone does.
                    state.auto_selected = state.selected.clone();
                }
            }
            state
                .selected
                .as_ref()
                .and_then(|key| rows::position(&visible, key))
        }
    };
    let height = crate::ui::view::findings::list_height(state.layout.findings);
    // A taller terminal (after a resize) shows rows from the top again rather than keeping
    // the small screen's offset with empty lines below the last row.
    state.findings_offset = state
        .findings_offset
        .min(visible.len().saturating_sub(height));
    if let Some(i) = index
        && height > 0
    {
        if i < state.findings_offset {
            state.findings_offset = i;
        } else if i >= state.findings_offset + height {
            state.findings_offset = i + 1 - height;
        }
    }
    if state.selected_disagreement.is_some() {
        let all = &state.disagreements;
        let still = all.iter().any(|d| {
            Some((&d.a, &d.b)) == state.selected_disagreement.as_ref().map(|(a, b)| (a, b))
        });
        if !still {
            state.selected_disagreement = all.first().map(|d| (d.a.clone(), d.b.clone()));
        }
    }
}

/// The visible fold (collapsed cohort, folded below-threshold group, folded problem) that
/// hides `key`, if it is hidden by one.
fn containing_fold(state: &AppState, visible: &[Row], key: &RowKey) -> Option<RowKey> {
    let RowKey::Node(id) = key else {
        return None;
    };
    let all = rows::build(state, Unfold::All);
    let at = rows::position(&all, key)?;
    for row in all[..at].iter().rev() {
        let candidate = match row {
            Row::Node {
                id: primary,
                duplicate: false,
                ..
            } if matches!(
                &all[at],
                Row::Node {
                    duplicate: true,
                    ..
                }
            ) && primary != id =>
            {
                Some(row.key())
            }
            Row::Below { .. } if matches!(&all[at], Row::Node { below: true, .. }) => {
                Some(row.key())
            }
            Row::Cohort { .. } => Some(row.key()),
            _ => None,
        };
        if let Some(candidate) = candidate
            && rows::position(visible, &candidate).is_some()
        {
            return Some(candidate);
        }
    }
    None
}

/// Keys that mean something else under an overlay: movement scrolls the help and the preview;
/// the diff view takes movement, file and finding jumps, and enter. `None`: not handled here.
fn in_overlay(state: &mut AppState, action: &Action) -> Option<Vec<Effect>> {
    let max = state.layout.overlay_scroll_max;
    if *action == Action::Command(Command::Bottom)
        && let Some(Overlay::Log { scroll }) = state.overlays.last_mut()
    {
        // The log's end, wherever it is by the next frame: it follows new lines.
        *scroll = u16::MAX;
        return Some(Vec::new());
    }
    match state.overlays.last_mut()? {
        Overlay::Help { scroll }
        | Overlay::Patch { scroll }
        | Overlay::Log { scroll }
        | Overlay::Preview { scroll, .. }
        | Overlay::Gate { scroll, .. } => {
            let delta: i16 = match action {
                Action::Command(Command::MoveDown) => 1,
                Action::Command(Command::MoveUp) => -1,
                Action::Command(Command::PageDown) => 10,
                Action::Command(Command::PageUp) => -10,
                Action::Command(Command::Top) => i16::MIN,
                Action::Command(Command::Bottom) => i16::MAX,
                _ => return None,
            };
            // From where it is drawn: a scroll past the end (following the end) is at `max`.
            *scroll = (*scroll).min(max).saturating_add_signed(delta).min(max);
            Some(Vec::new())
        }
        Overlay::Diff(_) => diff_action(state, action),
        _ => None,
    }
}

/// The open diff view, when it is the top overlay.
fn diff_view(state: &AppState) -> Option<DiffView> {
    match state.top_overlay() {
        Some(Overlay::Diff(view)) => Some(view.clone()),
        _ => None,
    }
}

fn set_diff_view(state: &mut AppState, view: DiffView) {
    if let Some(Overlay::Diff(top)) = state.overlays.last_mut() {
        *top = view;
    }
}

/// Rows of diff the last frame showed (before the first frame, a guess).
fn diff_height(state: &AppState) -> usize {
    match state.layout.diff.height {
        0 => 20,
        h => h as usize,
    }
}

/// How the viewport follows the cursor.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Place {
    /// Scroll only as far as needed.
    Keep,
    /// Jumped to a file: its header at the top.
    Top,
    /// Jumped to a finding: some context above it when it was off screen.
    Context,
}

/// Clamps the cursor to the document and scrolls the viewport to show it.
fn place(state: &AppState, view: &mut DiffView, how: Place) {
    let len = DiffDoc::new(state, view.cohort.as_deref()).len();
    let height = diff_height(state);
    view.cursor = view.cursor.min(len.saturating_sub(1));
    let visible = view.cursor >= view.offset && view.cursor < view.offset + height;
    match how {
        Place::Top => view.offset = view.cursor,
        Place::Context if !visible => view.offset = view.cursor.saturating_sub(height / 4),
        _ if view.cursor < view.offset => view.offset = view.cursor,
        _ if view.cursor >= view.offset + height => view.offset = view.cursor + 1 - height,
        _ => {}
    }
    view.offset = view.offset.min(len.saturating_sub(height));
}

/// `d`: the diff of the selected cohort's files (every changed file when the selection is in
/// no cohort), the cursor on the selected finding's mark; `d` again closes it.
fn open_diff(state: &mut AppState) {
    if state.diff.is_none() {
        message(
            state,
            MessageKind::Warn,
            "the diff is not loaded yet".to_string(),
        );
        return;
    }
    let cohort = diffview::cohort_for_selection(state);
    let (len, cursor) = {
        let doc = DiffDoc::new(state, cohort.as_deref());
        let cursor = state.selected_node().and_then(|node| {
            doc.marks(state)
                .into_iter()
                .find(|(_, n)| n.id == node.id || node.duplicate_of.as_deref() == Some(&n.id))
                .map(|(row, _)| row)
        });
        (doc.len(), cursor)
    };
    if len == 0 {
        message(state, MessageKind::Warn, "no files to show".to_string());
        return;
    }
    let mut view = DiffView {
        cohort,
        cursor: cursor.unwrap_or(0),
        offset: 0,
    };
    place(state, &mut view, Place::Context);
    state.overlays.push(Overlay::Diff(view));
}

/// Hands the person's editor `path` (the PR's, inside the worktree) at `line`.
fn open_in_editor(state: &mut AppState, path: &str, line: u32) {
    let Some(worktree) = &state.worktree else {
        message(
            state,
            MessageKind::Warn,
            "no worktree to open files in".to_string(),
        );
        return;
    };
    // A path from the PR, read inside the worktree only.
    let inside = !path.is_empty()
        && !path.starts_with('/')
        && !path.split('/').any(|part| part == ".." || part.is_empty());
    let file = worktree.join(path);
    if !inside || !file.is_file() {
        let shown = crate::printable::line(path).into_owned();
        message(
            state,
            MessageKind::Warn,
            format!("{shown} is not a file in the worktree (deleted at the head?)"),
        );
        return;
    }
    state.terminal_jobs.push(TerminalJob::OpenFile {
        file,
        line: line.max(1),
    });
}

/// What a key in the diff view comes to, decided while the document borrows the state.
enum DiffMove {
    To(usize, Place),
    Note(String),
    Select(String),
    Open(String, u32),
    Close,
}

fn diff_action(state: &mut AppState, action: &Action) -> Option<Vec<Effect>> {
    let mut view = diff_view(state)?;
    let outcome = {
        let doc = DiffDoc::new(state, view.cohort.as_deref());
        let last = doc.len().saturating_sub(1);
        let cursor = view.cursor.min(last);
        let page = diff_height(state).saturating_sub(1).max(1);
        let marks = || -> Vec<usize> { doc.marks(state).iter().map(|(row, _)| *row).collect() };
        match action {
            Action::Command(Command::MoveDown) => DiffMove::To(cursor + 1, Place::Keep),
            Action::Command(Command::MoveUp) => DiffMove::To(cursor.saturating_sub(1), Place::Keep),
            Action::Command(Command::PageDown) => DiffMove::To(cursor + page, Place::Keep),
            Action::Command(Command::PageUp) => {
                DiffMove::To(cursor.saturating_sub(page), Place::Keep)
            }
            Action::Command(Command::Top) => DiffMove::To(0, Place::Keep),
            Action::Command(Command::Bottom) => DiffMove::To(last, Place::Keep),
            Action::Command(Command::NextFile) => match doc.file_starts().find(|&s| s > cursor) {
                Some(row) => DiffMove::To(row, Place::Top),
                None => DiffMove::Note("last file".to_string()),
            },
            Action::Command(Command::PrevFile) => {
                match doc.file_starts().filter(|&s| s < cursor).last() {
                    Some(row) => DiffMove::To(row, Place::Top),
                    None => DiffMove::Note("first file".to_string()),
                }
            }
            Action::Command(Command::NextFinding) => {
                match marks().into_iter().find(|&r| r > cursor) {
                    Some(row) => DiffMove::To(row, Place::Context),
                    None => DiffMove::Note("no marked line below".to_string()),
                }
            }
            Action::Command(Command::PrevFinding) => {
                match marks().into_iter().rfind(|&r| r < cursor) {
                    Some(row) => DiffMove::To(row, Place::Context),
                    None => DiffMove::Note("no marked line above".to_string()),
                }
            }
            Action::Command(Command::Expand) => {
                let by_path = diffview::findings_by_path(state);
                match diffview::findings_at(&doc, &by_path, cursor).first() {
                    Some(node) => DiffMove::Select(node.id.clone()),
                    None => DiffMove::Note(format!(
                        "no finding on this line: {} jumps to the next mark",
                        state.key(Context::Diff, Command::NextFinding)
                    )),
                }
            }
            Action::Command(Command::OpenDiff) => DiffMove::Close,
            // The head's line; a removed line has none, and its base line is close to where
            // it was.
            Action::Command(Command::OpenInEditor) => match doc.row(cursor) {
                Some(DiffRow::Line { path, line }) => DiffMove::Open(
                    path.to_string(),
                    line.new_line.or(line.old_line).unwrap_or(1),
                ),
                Some(DiffRow::Hunk { path, hunk }) => {
                    DiffMove::Open(path.to_string(), hunk.new_start.max(1))
                }
                Some(DiffRow::File { path, .. } | DiffRow::Note { path, .. }) => {
                    DiffMove::Open(path.to_string(), 1)
                }
                None => DiffMove::Note("nothing here to open".to_string()),
            },
            _ => return None,
        }
    };
    match outcome {
        DiffMove::To(row, how) => {
            view.cursor = row;
            place(state, &mut view, how);
            set_diff_view(state, view);
        }
        DiffMove::Note(text) => info(state, text),
        DiffMove::Open(path, line) => open_in_editor(state, &path, line),
        DiffMove::Select(id) => {
            state.overlays.pop();
            reveal(state, &id);
            state.selected = Some(RowKey::Node(id.clone()));
            state.focus = Pane::Findings;
            state.detail_scroll = 0;
            info(state, format!("{id} selected"));
        }
        DiffMove::Close => {
            state.overlays.pop();
        }
    }
    Some(Vec::new())
}
