//! The triage commands that need more than one finding's status change: a range or a cohort
//! at once, and stopping the running review.

use super::triage;
use crate::review::Actor;
use crate::review::Change;
use crate::review::Role;
use crate::ui::command::Command;
use crate::ui::keymap::Context;
use crate::ui::rows::{self, Row, Unfold};
use crate::ui::state::{AppState, InputPurpose, MessageKind, Overlay, Pane, RowKey};

use super::{Effect, info, message};

/// Stops the reviewer selected in the reviewers pane: only a model reviewer that has not
/// ended (the deterministic ones take moments and cost nothing).
pub(super) fn stop_reviewer(state: &mut AppState) -> Vec<Effect> {
    use crate::review::ReviewerPhase;
    if !state.review_running() {
        message(state, MessageKind::Warn, "no review is running".to_string());
        return Vec::new();
    }
    let selected = (state.focus == Pane::Reviewers)
        .then(|| state.reviewers.selected.clone())
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
pub(super) fn stop_run(state: &mut AppState) -> Vec<Effect> {
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

/// The findings a triage key acts on when it is not the one selected finding: the finding rows
/// of a range (`V`), or the cohort, below-threshold group or rule fold whose row is selected.
/// What the filter hides is never included: what is acted on is what is listed. Duplicates
/// under a folded problem stay with their problem, as everywhere else.
pub(crate) fn group_targets(state: &AppState) -> Option<Vec<String>> {
    let visible = rows::rows(state);
    let keys: Vec<RowKey> = match (&state.findings.range, &state.findings.selected) {
        // Exactly the finding rows the range marks (`┃`): a cohort's or a fold's header row
        // in it is a heading, not the findings folded under it; a folded rule's row is the
        // findings it counts (`16×`), unfolded it is a heading too.
        (Some(anchor), Some(at)) => {
            let a = rows::position(&visible, anchor)?;
            let b = rows::position(&visible, at)?;
            visible[a.min(b)..=a.max(b)]
                .iter()
                .filter(|row| match row {
                    Row::Node { .. } => true,
                    Row::Rule { open, .. } => !open,
                    _ => false,
                })
                .map(Row::key)
                .collect()
        }
        (None, Some(key @ (RowKey::Cohort(_) | RowKey::Below(_) | RowKey::Rule(_)))) => {
            vec![key.clone()]
        }
        _ => return None,
    };
    let all = rows::build(state, Unfold::All);
    let mut ids: Vec<String> = Vec::new();
    for key in &keys {
        match key {
            RowKey::Node(id) => ids.push(id.clone()),
            RowKey::Rule(_) => {
                if let Some(Row::Rule { members, .. }) = visible.iter().find(|r| r.has_key(key)) {
                    ids.extend(members.iter().cloned());
                }
            }
            RowKey::Reason(_) => {}
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
pub(super) fn act_on_group(state: &mut AppState, command: Command) -> Vec<Effect> {
    let ids = group_targets(state).unwrap_or_default();
    let me = Actor::Person(state.person.clone());
    let candidates: Vec<String> = ids
        .into_iter()
        .filter(|id| {
            state.node(id).is_some_and(|n| match command {
                // Only what the change moves: a dismissed finding is not confirmed, a
                // finding already confirmed by the person is not confirmed twice.
                Command::Confirm => {
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
            "nothing in the range, cohort or fold that this changes".to_string(),
        );
        return Vec::new();
    }
    match command {
        Command::Dismiss => {
            state.overlays.push(Overlay::input(
                InputPurpose::Dismiss {
                    node_ids: candidates,
                },
                "",
            ));
            Vec::new()
        }
        Command::Confirm => {
            state.findings.range = None;
            let change = Change::Confirm {
                note: String::new(),
            };
            triage::change_all(state, &candidates, change)
        }
        _ => {
            state.findings.range = None;
            triage::change_all(state, &candidates, Change::Resolve { note: None })
        }
    }
}
