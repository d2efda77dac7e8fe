//! What goes into the event log (`ui::log`): read from the actions `update` receives and the
//! effects it returns, before and after it applies them.

use crate::review::EventKind;
use crate::ui::action::{Action, Report};
use crate::ui::log::Level;
use crate::ui::state::AppState;

use super::Effect;

/// Records what `action` tells about the run, before `update` applies it (a finding's title
/// is looked up on the board as it is then). Keys, ticks and the board's bulk refreshes say
/// nothing worth a line.
pub(super) fn record(state: &mut AppState, action: &Action) {
    let Some((level, text)) = describe(state, action) else {
        return;
    };
    let at = state.now.clone();
    state.log.push(&at, level, text);
}

fn describe(state: &AppState, action: &Action) -> Option<(Level, String)> {
    use Level::*;
    Some(match action {
        // A run announced without its reviewers is named by the plan that follows it.
        Action::Engine(Report::RunStarted {
            round, reviewers, ..
        }) if !reviewers.is_empty() => {
            let names: Vec<String> = reviewers
                .iter()
                .map(|(name, required)| named(name, *required))
                .collect();
            (
                Info,
                format!("round {round}: run started with {}", names.join(", ")),
            )
        }
        Action::Engine(Report::RunStarted { .. }) => return None,
        // The run's plan: who reads, and who was skipped and why.
        Action::Engine(Report::Reviewers(reviewers)) => (Info, run_plan(state, reviewers)),
        Action::Engine(Report::Event(event)) => return reviewer_event(state, event),
        Action::Engine(Report::Phase(Some(phase))) => (Info, format!("pass: {phase}")),
        Action::Engine(Report::Pass { phase, note }) => {
            use crate::reviewers::model::passes::PassNote;
            use crate::reviewers::model::provider::Heard;
            match note {
                // Counts move with every answer: the header and the reviewers pane show them.
                PassNote::Progress { .. } => return None,
                PassNote::Heard(Heard::Retrying(retry)) => {
                    (Warn, format!("{phase} retrying: {}", retry.said()))
                }
                PassNote::Heard(Heard::Waiting { host, waited_secs }) => (
                    Warn,
                    format!("{phase} waiting for {host}: {waited_secs} s, no answer yet"),
                ),
            }
        }
        Action::Engine(Report::Ladder(ladder)) if *ladder != state.ladder => (
            Info,
            format!("review is {}", ladder.as_str().replace('_', " ")),
        ),
        Action::Engine(Report::Verdict(verdict)) => (
            Info,
            format!(
                "verdict {} (confidence {})",
                verdict.decision.label().to_uppercase(),
                crate::review::percent(verdict.confidence)
            ),
        ),
        Action::Engine(Report::Published { target }) => (Info, format!("published: {target}")),
        Action::Engine(Report::EngineError { title, message }) => {
            (Error, format!("{title}: {message}"))
        }
        Action::Engine(Report::Notice(text)) => (Info, text.clone()),
        Action::Engine(Report::Thread(thread)) if !thread.state.is_open() => (
            Info,
            format!(
                "{} on “{}”: {} ({} tokens)",
                thread.reviewer,
                crate::ui::text::truncate(&thread.question, 60),
                thread.state.label(),
                thread.tokens
            ),
        ),
        Action::Engine(Report::PatchWritten { patch, .. }) => {
            (Info, format!("patch written: {}", patch.path))
        }
        Action::EditorClosed { text: Err(why), .. } | Action::BoxEdited { text: Err(why), .. } => {
            (Error, format!("editor: {why}"))
        }
        _ => return None,
    })
}

/// The run's plan as the log says it: who reads, and who was skipped and why.
fn run_plan(state: &AppState, reviewers: &[crate::review::ReviewerState]) -> String {
    use crate::review::ReviewerPhase;
    let (skipped, running): (Vec<_>, Vec<_>) = reviewers
        .iter()
        .partition(|r| r.phase == ReviewerPhase::Skipped);
    let mut text = format!("round {}: run started with ", state.round);
    if running.is_empty() {
        text.push_str("no reviewer");
    } else {
        let names: Vec<String> = running.iter().map(|r| named(&r.name, r.required)).collect();
        text.push_str(&names.join(", "));
    }
    if !skipped.is_empty() {
        let names: Vec<String> = skipped
            .iter()
            .map(|r| {
                if r.note.is_empty() {
                    r.name.clone()
                } else {
                    format!("{} ({})", r.name, r.note)
                }
            })
            .collect();
        text.push_str(&format!("; skipped {}", names.join(", ")));
    }
    text
}

/// A reviewer's event as the log says it; `None`: not logged.
fn reviewer_event(state: &AppState, event: &crate::review::ReviewEvent) -> Option<(Level, String)> {
    use Level::*;
    let title = |id: &str| whole_title(state, id);
    let who = &event.reviewer;
    Some(match &event.kind {
        EventKind::Started { .. } => (Info, format!("{who} started")),
        EventKind::NodeAdded { node } => (
            Info,
            format!(
                "{who} found {} {}: “{}”",
                node.priority,
                crate::ui::text::kind_label(node.kind),
                node.text.title
            ),
        ),
        EventKind::Stance {
            node_id, confirm, ..
        } => {
            let verb = if *confirm { "confirmed" } else { "disputed" };
            (Info, format!("{who} {verb} {}", title(node_id)))
        }
        EventKind::Dropped { reason } => (
            Warn,
            format!("{who} sent a finding that was dropped: {reason}"),
        ),
        // Token counts move every turn: the reviewers pane shows them.
        EventKind::Progress { .. } => return None,
        EventKind::Waiting { host, waited_secs } => (
            Warn,
            format!("{who} waiting for {host}: {waited_secs} s, no answer yet"),
        ),
        EventKind::Retrying {
            attempt,
            of,
            wait_secs,
            reason,
            ..
        } => (
            Warn,
            format!(
                "{who} retrying: {}",
                crate::review::retry_note(*attempt, *of, *wait_secs, reason)
            ),
        ),
        EventKind::Done { summary } => (Info, format!("{who} done: {summary}")),
        EventKind::Failed { outcome, reason } => {
            let how = match outcome {
                crate::review::Outcome::InvalidOutput => "gave invalid output",
                _ => "failed",
            };
            (Error, format!("{who} {how}: {reason}"))
        }
        EventKind::Refuted { node_id, quote } => (
            Info,
            format!("{who} refuted {} (dismissed): {quote}", title(node_id)),
        ),
        EventKind::Contested { node_id, note } => {
            (Warn, format!("{who} contested {}: {note}", title(node_id)))
        }
        EventKind::Scored { node_id, score, .. } => {
            (Info, format!("{who} scored {} {score}", title(node_id)))
        }
        EventKind::Traced { node_id, cause } => {
            (Info, format!("{who} traced {} to {cause}", title(node_id)))
        }
    })
}

/// Records the person's own decisions, from the effects `update` returned: what they
/// confirmed, dismissed (with why), resolved or reopened, and what they asked to publish.
pub(super) fn record_effects(state: &mut AppState, effects: &[Effect]) {
    use crate::review::Change;
    for effect in effects {
        let text = match effect {
            Effect::PersistStatus {
                node_id, change, ..
            } => {
                let name = whole_title(state, node_id);
                match change {
                    Change::Confirm { .. } => format!("you confirmed {name}"),
                    Change::Dispute { .. } => format!("you disputed {name}"),
                    Change::Resolve { .. } => format!("you resolved {name}"),
                    Change::Dismiss { reason } => format!("you dismissed {name}: {reason}"),
                    Change::Reopen => format!("you reopened {name}"),
                    Change::Withdraw => format!("you withdrew your confirmation of {name}"),
                }
            }
            Effect::SaveComment { node_id, text } => match text {
                Some(_) => format!("you edited the comment of {}", whole_title(state, node_id)),
                None => format!(
                    "you set the comment of {} back to the generated text",
                    whole_title(state, node_id)
                ),
            },
            Effect::WritePatch { node_ids } => {
                format!("fix asked for {} finding(s)", node_ids.len())
            }
            Effect::Publish => "publishing…".to_string(),
            Effect::StopRun => "you stopped the review".to_string(),
            Effect::StopReviewer(name) => format!("you stopped {name}"),
            Effect::Ask { question, .. } => format!("you asked: {question}"),
            Effect::PutFinding { node_id, draft } => format!(
                "you commented ({node_id}, {} {}) at {}",
                draft.priority,
                draft.kind.as_str(),
                draft.anchor
            ),
            Effect::DeleteFinding(node_id) => format!("you deleted your {node_id}"),
            Effect::Proposal {
                thread,
                accepted: Some(true),
            } => format!("you accepted the proposal of {thread}"),
            Effect::Proposal { thread, .. } => {
                format!("you took back your answer to the proposal of {thread}")
            }
            _ => continue,
        };
        let at = state.now.clone();
        state.log.push(&at, Level::Info, text);
    }
}

/// A reviewer's name, `(required)` when the verdict needs it.
fn named(name: &str, required: bool) -> String {
    if required {
        format!("{name} (required)")
    } else {
        name.to_string()
    }
}

/// A finding's whole title: the log wraps, so nothing is cut.
fn whole_title(state: &AppState, id: &str) -> String {
    match state.node(id) {
        Some(node) => format!("“{}”", node.text.title),
        None => id.to_string(),
    }
}
