//! What the engine reports: the run's events, the board as recorded, the ladder, the
//! answers to effects. And the one refresh of what derives from the board.

use crate::review::Applied as BoardApplied;
use crate::review::EventKind;
use crate::space::Ladder;
use crate::ui::action::{Command, Report};
use crate::ui::keymap::Context;
use crate::ui::state::{AppState, Overlay};

use super::diff::{Place, diff_view, place, set_diff_view};
use super::{Effect, info};

pub(super) fn apply(state: &mut AppState, report: Report) -> Vec<Effect> {
    match report {
        Report::Event(event) => return apply_event(state, event),
        Report::RunStarted {
            run,
            round,
            reviewers,
            deterministic_only,
        } => {
            state.deterministic_only = deterministic_only;
            state.board.start_run(run);
            for (name, required) in reviewers {
                state.board.queue(&name, required);
            }
            state.round = round;
            refresh(state);
        }
        Report::Ladder(ladder) => {
            state.ladder = ladder;
            if ladder != Ladder::AwaitingApproval {
                if ladder < Ladder::AwaitingApproval {
                    // A new round: whatever was published was the previous one.
                    state.published = None;
                    state.posted = None;
                }
                state.overlays.retain(|o| {
                    !matches!(
                        o,
                        Overlay::Gate { .. } | Overlay::PreviewPending | Overlay::Preview { .. }
                    )
                });
            }
        }
        Report::Axes(axes) => {
            state.axes = axes;
            refresh(state);
        }
        Report::Reviewers(reviewers) => {
            state.board.reviewers = reviewers.into_iter().map(|r| (r.name.clone(), r)).collect();
            refresh(state);
        }
        Report::Comments(comments) => state.comments = comments,
        Report::Findings(nodes) => {
            state.board.nodes = nodes;
            refresh(state);
        }
        Report::Verdict(verdict) => state.verdict = Some(verdict),
        Report::Cohorts(cohorts) => state.cohorts = cohorts,
        Report::Code { path, lines } => {
            state.code.insert(path, lines);
        }
        Report::Diff(diff) => {
            state.diff = Some(diff);
            if let Some(mut view) = diff_view(state) {
                place(state, &mut view, Place::Keep);
                set_diff_view(state, view);
            }
        }
        Report::ReviewThreads(threads) => state.review_threads = threads,
        Report::Loading(loading) => state.loading = loading,
        Report::Pr(header) => state.pr = header,
        Report::Phase(phase) => {
            if phase != state.phase {
                state.pass = Default::default();
            }
            state.phase = phase;
        }
        Report::Pass { phase, note } => {
            // A late note of a pass already over changes nothing on screen.
            if state.phase.as_deref() == Some(phase.as_str()) {
                state.pass.hear(&note);
            }
        }
        Report::PublishPreview(data) => {
            if let Some(top @ Overlay::PreviewPending) = state.overlays.last_mut() {
                // After the include key: back where the person was.
                let (scroll, raised) = state.preview_at.take().unwrap_or((0, 0));
                let raised = raised.min(data.already_raised.len().saturating_sub(1));
                *top = Overlay::Preview {
                    data,
                    scroll,
                    raised,
                };
            }
        }
        Report::Published { target } => {
            state.overlays.retain(|o| {
                !matches!(
                    o,
                    Overlay::Gate { .. } | Overlay::PreviewPending | Overlay::Preview { .. }
                )
            });
            info(state, format!("published: {target}"));
            state.published = Some(target);
        }
        Report::Posted(posted) => state.posted = Some(posted),
        Report::EngineError { title, message } => {
            if matches!(state.top_overlay(), Some(Overlay::PreviewPending)) {
                state.overlays.pop();
            }
            // The error is the outcome: a status line saying what was asked for (`fix: …`)
            // would contradict it beside it.
            state.message = None;
            state.overlays.push(Overlay::Error { title, message });
        }
        Report::Notice(text) => info(state, text),
        Report::ThreadDrafts(drafts) => state.thread_drafts = drafts,
        Report::HandedBack {
            text,
            path,
            findings,
        } => {
            state
                .terminal_jobs
                .push(crate::ui::state::TerminalJob::Clipboard(text));
            info(
                state,
                format!(
                    "prompt for the agent ({findings} finding(s)) copied to the clipboard and \
                     written to {path}"
                ),
            );
        }
        Report::Thread(thread) => thread_report(state, *thread),
        Report::PatchWritten { patch, summary } => {
            state.patch = Some(patch);
            let key = state.key(Context::Main, Command::ViewPatch);
            info(state, format!("{summary} · {key} shows it"));
        }
    }
    Vec::new()
}

/// Recomputes what derives from the board and the verdict (`AppState::refresh`).
pub fn refresh(state: &mut AppState) {
    state.refresh();
}

fn apply_event(state: &mut AppState, event: crate::review::ReviewEvent) -> Vec<Effect> {
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

/// A thread as the session says it now.
fn thread_report(state: &mut AppState, thread: crate::review::Thread) {
    let done = !thread.state.is_open();
    let text = done.then(|| {
        let mut text = format!("{} {}", thread.reviewer, thread.state.label());
        if let Some(line) = crate::session::proposal_line(&thread) {
            text = line;
        }
        text
    });
    crate::review::upsert(&mut state.threads, thread);
    if let Some(text) = text {
        info(state, text);
    }
}
