//! The board: the findings and the reviewers' live state for one review, built by applying
//! `ReviewEvent`s in order. Pure, and the only place events change findings.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::events::{EventKind, ReviewEvent, RunId};
use crate::review::node::{Actor, ReviewNode};
use crate::review::status::{self, Change, StatusError};
use crate::review::verdict::{Outcome, ReviewerRun};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ReviewerPhase {
    Queued,
    Reading,
    Done,
    Failed,
    Skipped,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ReviewerState {
    pub name: String,
    pub required: bool,
    pub phase: ReviewerPhase,
    pub findings: usize,
    pub dropped: usize,
    pub tokens_used: u64,
    pub cost_usd: f64,
    /// The last progress note, the summary when done, or why it failed or was skipped.
    pub note: String,
    pub outcome: Option<Outcome>,
    /// Attempts a provider tried again (failures, rate limits) while this reviewer worked.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub retries: u32,
    /// What holds the reviewer's turn up right now, until its next answer (live only).
    #[serde(skip)]
    pub stalled: Option<Stall>,
}

/// Why a reading reviewer has not moved: its server is slow, or it is trying again.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stall {
    Waiting,
    Retrying { rate_limited: bool },
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

impl ReviewerState {
    pub fn queued(name: &str, required: bool) -> ReviewerState {
        ReviewerState {
            name: name.to_string(),
            required,
            phase: ReviewerPhase::Queued,
            findings: 0,
            dropped: 0,
            tokens_used: 0,
            cost_usd: 0.0,
            note: String::new(),
            outcome: None,
            retries: 0,
            stalled: None,
        }
    }
}

/// What happened when an event was applied, for the caller to persist or show.
#[derive(Debug, Clone, PartialEq)]
pub enum Applied {
    /// From another run: ignored.
    Stale,
    NodeAdded(String),
    /// A stance the status service refused (e.g. a self-confirmation), with the reason.
    Refused(String),
    Changed,
}

#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Board {
    pub run: Option<RunId>,
    pub nodes: Vec<ReviewNode>,
    pub reviewers: BTreeMap<String, ReviewerState>,
    /// (reviewer, reason) for every dropped payload and refused stance.
    pub notes: Vec<(String, String)>,
}

impl Board {
    /// Starts a run: reviewers from an earlier run are forgotten, findings are kept (they are
    /// the space's record; the pipeline decides what a new round replaces).
    pub fn start_run(&mut self, run: RunId) {
        self.run = Some(run);
        self.reviewers.clear();
    }

    pub fn queue(&mut self, name: &str, required: bool) {
        self.reviewers
            .insert(name.to_string(), ReviewerState::queued(name, required));
    }

    /// Marks a reviewer that will not run (no provider, level gate), with why.
    pub fn skip(&mut self, name: &str, required: bool, why: &str) {
        let mut state = ReviewerState::queued(name, required);
        state.phase = ReviewerPhase::Skipped;
        state.outcome = Some(Outcome::Skipped);
        state.note = why.to_string();
        self.reviewers.insert(name.to_string(), state);
    }

    /// Applies one event at time `at` (RFC 3339).
    pub fn apply(&mut self, event: ReviewEvent, at: &str) -> Applied {
        if self.run != Some(event.run) {
            return Applied::Stale;
        }
        let reviewer = event.reviewer;
        let kind = match event.kind {
            // A pass is not a reviewer: it gets no row, only its effect on a finding.
            EventKind::Refuted { .. }
            | EventKind::Contested { .. }
            | EventKind::Scored { .. }
            | EventKind::Traced { .. } => {
                return self.apply_pass(reviewer, event.kind, at);
            }
            kind => kind,
        };
        let state = self
            .reviewers
            .entry(reviewer.clone())
            .or_insert_with(|| ReviewerState::queued(&reviewer, false));
        // Anything else the reviewer says means its turn moved on.
        if !matches!(kind, EventKind::Waiting { .. } | EventKind::Retrying { .. }) {
            state.stalled = None;
        }
        match kind {
            EventKind::Started { required } => {
                state.required = required;
                state.phase = ReviewerPhase::Reading;
                Applied::Changed
            }
            EventKind::NodeAdded { mut node } => {
                let id = node.id.clone();
                // A finding is never replaced: a second one under the same id would take the
                // first out of the verdict without anybody deciding so.
                if self.nodes.iter().any(|n| n.id == id) {
                    let reason = format!("a finding {id} is already recorded; not replaced");
                    self.notes.push((reviewer, reason.clone()));
                    return Applied::Refused(reason);
                }
                state.findings += 1;
                super::cap::cap_node(&mut node);
                self.nodes.push(*node);
                Applied::NodeAdded(id)
            }
            EventKind::Stance {
                node_id,
                confirm,
                mut note,
            } => {
                super::cap::cap(&mut note);
                let change = if confirm {
                    Change::Confirm { note }
                } else {
                    Change::Dispute { note }
                };
                let actor = Actor::Reviewer(reviewer.clone());
                let result = match self.nodes.iter_mut().find(|n| n.id == node_id) {
                    Some(node) => status::apply(node, change, &actor, at).map(|_| ()),
                    None => Err(StatusError::NotAllowed {
                        node: node_id.clone(),
                        from: crate::review::node::Status::Open,
                        action: "find",
                    }),
                };
                match result {
                    Ok(()) => Applied::Changed,
                    Err(err) => {
                        let reason = match err {
                            StatusError::NotAllowed { action: "find", .. } => {
                                format!("no finding {node_id} to confirm or dispute")
                            }
                            other => other.to_string(),
                        };
                        self.notes.push((reviewer, reason.clone()));
                        Applied::Refused(reason)
                    }
                }
            }
            EventKind::Dropped { reason } => {
                state.dropped += 1;
                self.notes.push((reviewer, reason));
                Applied::Changed
            }
            EventKind::Progress {
                tokens_used,
                cost_usd,
                note,
            } => {
                state.tokens_used = tokens_used;
                state.cost_usd = cost_usd;
                state.note = note;
                Applied::Changed
            }
            EventKind::Waiting { host, waited_secs } => {
                // A retry's wait is still the retry.
                state.stalled.get_or_insert(Stall::Waiting);
                state.note = super::events::waiting_note(&host, waited_secs);
                Applied::Changed
            }
            EventKind::Retrying {
                attempt,
                of,
                wait_secs,
                reason,
                rate_limited,
            } => {
                state.retries += 1;
                state.stalled = Some(Stall::Retrying { rate_limited });
                state.note = super::events::retry_note(attempt, of, wait_secs, &reason);
                Applied::Changed
            }
            EventKind::Done { summary } => {
                state.phase = ReviewerPhase::Done;
                state.outcome = Some(Outcome::Ok);
                state.note = summary;
                Applied::Changed
            }
            EventKind::Failed { outcome, reason } => {
                state.phase = ReviewerPhase::Failed;
                state.outcome = Some(outcome);
                state.note = reason;
                Applied::Changed
            }
            // Taken by `apply_pass` above.
            EventKind::Refuted { .. }
            | EventKind::Contested { .. }
            | EventKind::Scored { .. }
            | EventKind::Traced { .. } => Applied::Stale,
        }
    }

    /// A pass's result on one finding. A refutation of a finding that holds a merge is a
    /// dispute; of any other, a dismissal through the status service (refused where a
    /// dismissal would be); a rescore only lowers.
    fn apply_pass(&mut self, pass: String, kind: EventKind, at: &str) -> Applied {
        let node_id = match &kind {
            EventKind::Refuted { node_id, .. }
            | EventKind::Contested { node_id, .. }
            | EventKind::Scored { node_id, .. }
            | EventKind::Traced { node_id, .. } => node_id.clone(),
            _ => return Applied::Stale,
        };
        let Some(node) = self.nodes.iter_mut().find(|n| n.id == node_id) else {
            return Applied::Refused(format!("no finding {node_id} for the {pass} pass"));
        };
        match kind {
            EventKind::Refuted { mut quote, .. } => {
                super::cap::cap(&mut quote);
                // A blocking finding is refuted into a dispute: the verifier's word against the
                // reviewer's, shown above the list for a person, the finding still counted.
                let change = if node.holds_merge() {
                    Change::Dispute {
                        note: format!(
                            "refuted by verification, quoting: {quote}; a person decides"
                        ),
                    }
                } else {
                    Change::Dismiss {
                        reason: format!("refuted by verification: {quote}"),
                    }
                };
                match status::apply(node, change, &Actor::Reviewer(pass), at) {
                    Ok(_) => Applied::Changed,
                    Err(err) => {
                        Applied::Refused(format!("verification could not dismiss {node_id}: {err}"))
                    }
                }
            }
            EventKind::Contested { mut note, .. } => {
                super::cap::cap(&mut note);
                let change = Change::Dispute { note };
                match status::apply(node, change, &Actor::Reviewer(pass), at) {
                    Ok(_) => Applied::Changed,
                    Err(err) => {
                        Applied::Refused(format!("verification could not dispute {node_id}: {err}"))
                    }
                }
            }
            EventKind::Scored {
                score,
                mut reasoning,
                ..
            } => {
                super::cap::cap(&mut reasoning);
                let original = node
                    .scoring
                    .as_ref()
                    .map_or(node.confidence, |s| s.original);
                node.confidence = original.min(f64::from(score) / 100.0);
                node.scoring = Some(crate::review::node::Scoring {
                    original,
                    score,
                    reasoning,
                });
                Applied::Changed
            }
            EventKind::Traced { mut cause, .. } => {
                super::cap::cap(&mut cause);
                node.root_cause = Some(cause);
                Applied::Changed
            }
            _ => Applied::Stale,
        }
    }

    /// The reviewer runs as the verdict reads them. A reviewer still queued or reading has not
    /// finished: it counts as failed, so an interrupted run is never a Ship.
    pub fn reviewer_runs(&self) -> Vec<ReviewerRun> {
        self.reviewers
            .values()
            .map(|state| ReviewerRun {
                role: state.name.clone(),
                required: state.required,
                outcome: state.outcome.unwrap_or(Outcome::Failed),
                reason: (!state.note.is_empty()).then(|| state.note.clone()),
            })
            .collect()
    }

    pub fn is_finished(&self) -> bool {
        self.reviewers.values().all(|s| {
            matches!(
                s.phase,
                ReviewerPhase::Done | ReviewerPhase::Failed | ReviewerPhase::Skipped
            )
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::review::node::{Priority, Status};
    use crate::review::tests::node;

    const AT: &str = "2026-11-29T10:00:00Z";

    fn event(run: u64, reviewer: &str, kind: EventKind) -> ReviewEvent {
        ReviewEvent::new(RunId(run), reviewer, kind)
    }

    #[test]
    fn a_waiting_reviewer_says_so_and_is_still_reading() {
        let mut board = Board::default();
        board.start_run(RunId(1));
        board.queue("engineer", true);
        board.apply(
            event(1, "engineer", EventKind::Started { required: true }),
            AT,
        );
        let waiting = EventKind::Waiting {
            host: "127.0.0.1:11434".into(),
            waited_secs: 30,
        };
        assert_eq!(
            board.apply(event(1, "engineer", waiting), AT),
            Applied::Changed
        );
        let state = &board.reviewers["engineer"];
        assert_eq!(state.phase, ReviewerPhase::Reading);
        assert_eq!(
            state.note,
            "waiting for 127.0.0.1:11434: 30 s, no complete answer yet"
        );
        assert!(!board.is_finished());
    }

    #[test]
    fn events_build_the_board_and_stale_runs_are_dropped() {
        let mut board = Board::default();
        board.start_run(RunId(2));
        board.queue("engineer", true);
        assert_eq!(
            board.apply(
                event(
                    1,
                    "engineer",
                    EventKind::Done {
                        summary: "old".into()
                    }
                ),
                AT
            ),
            Applied::Stale
        );
        board.apply(
            event(2, "engineer", EventKind::Started { required: true }),
            AT,
        );
        assert_eq!(board.reviewers["engineer"].phase, ReviewerPhase::Reading);
        let added = board.apply(
            event(
                2,
                "engineer",
                EventKind::NodeAdded {
                    node: Box::new(node("n1", "engineer", Priority::P1, 0.9)),
                },
            ),
            AT,
        );
        assert_eq!(added, Applied::NodeAdded("n1".into()));
        assert!(!board.is_finished());
        board.apply(
            event(
                2,
                "engineer",
                EventKind::Done {
                    summary: "read 3 files".into(),
                },
            ),
            AT,
        );
        assert!(board.is_finished());
        assert_eq!(board.reviewers["engineer"].findings, 1);
        assert_eq!(board.reviewer_runs()[0].outcome, Outcome::Ok);
    }

    #[test]
    fn stances_go_through_the_status_service() {
        let mut board = Board::default();
        board.start_run(RunId(1));
        board.nodes.push(node("n1", "engineer", Priority::P1, 0.9));
        let own = board.apply(
            event(
                1,
                "engineer",
                EventKind::Stance {
                    node_id: "n1".into(),
                    confirm: true,
                    note: "me".into(),
                },
            ),
            AT,
        );
        assert!(matches!(own, Applied::Refused(reason) if reason.contains("own finding")));
        assert_eq!(board.nodes[0].status, Status::Open);
        board.apply(
            event(
                1,
                "qa",
                EventKind::Stance {
                    node_id: "n1".into(),
                    confirm: true,
                    note: "yes".into(),
                },
            ),
            AT,
        );
        assert_eq!(board.nodes[0].status, Status::ConsensusReady);
        let missing = board.apply(
            event(
                1,
                "qa",
                EventKind::Stance {
                    node_id: "zz".into(),
                    confirm: false,
                    note: "".into(),
                },
            ),
            AT,
        );
        assert!(matches!(missing, Applied::Refused(reason) if reason.contains("zz")));
        assert_eq!(board.notes.len(), 2);
    }

    #[test]
    fn an_unfinished_reviewer_counts_as_failed_for_the_verdict() {
        let mut board = Board::default();
        board.start_run(RunId(1));
        board.queue("qa", true);
        board.skip("architect", false, "no provider configured");
        let runs = board.reviewer_runs();
        let qa = runs.iter().find(|r| r.role == "qa").unwrap();
        assert_eq!(qa.outcome, Outcome::Failed);
        let architect = runs.iter().find(|r| r.role == "architect").unwrap();
        assert_eq!(architect.outcome, Outcome::Skipped);
        assert_eq!(architect.reason.as_deref(), Some("no provider configured"));
    }

    #[test]
    fn dropped_payloads_are_counted_and_named() {
        let mut board = Board::default();
        board.start_run(RunId(1));
        board.apply(
            event(
                1,
                "qa",
                EventKind::Dropped {
                    reason: "text.evidence: empty".into(),
                },
            ),
            AT,
        );
        assert_eq!(board.reviewers["qa"].dropped, 1);
        assert_eq!(board.notes[0].1, "text.evidence: empty");
    }

    #[test]
    fn the_passes_speak_through_the_board_without_becoming_reviewers() {
        let mut board = Board::default();
        board.start_run(RunId(1));
        let mut found = node("engineer-1", "engineer", Priority::P1, 0.9);
        found.status = Status::Open;
        board.apply(
            event(
                1,
                "engineer",
                EventKind::NodeAdded {
                    node: Box::new(found),
                },
            ),
            AT,
        );
        let scored = |score| EventKind::Scored {
            node_id: "engineer-1".into(),
            score,
            reasoning: "rubric".into(),
        };
        // A rescore lowers the confidence; a later, higher one never lifts it past the original.
        assert_eq!(
            board.apply(event(1, "scoring", scored(40)), AT),
            Applied::Changed
        );
        assert_eq!(board.nodes[0].confidence, 0.4);
        board.apply(event(1, "scoring", scored(100)), AT);
        assert_eq!(board.nodes[0].confidence, 0.9);
        let traced = EventKind::Traced {
            node_id: "engineer-1".into(),
            cause: "the token is cached".into(),
        };
        board.apply(event(1, "root cause", traced), AT);
        assert_eq!(
            board.nodes[0].root_cause.as_deref(),
            Some("the token is cached")
        );
        // A refutation of a P1 is the verifier's dispute: it stays open, for a person.
        let refuted = |id: &str| EventKind::Refuted {
            node_id: id.into(),
            quote: "if token.expired()".into(),
        };
        assert_eq!(
            board.apply(event(1, "verifier", refuted("engineer-1")), AT),
            Applied::Changed
        );
        assert_eq!(board.nodes[0].status, Status::Open);
        assert!(board.nodes[0].disputes[0].note.contains("a person decides"));
        // Of a P2, a dismissal through the status service, by the verifier.
        let nit = node("engineer-2", "engineer", Priority::P2, 0.9);
        board.apply(
            event(
                1,
                "engineer",
                EventKind::NodeAdded {
                    node: Box::new(nit),
                },
            ),
            AT,
        );
        board.apply(event(1, "verifier", refuted("engineer-2")), AT);
        assert_eq!(board.nodes[1].status, Status::Dismissed);
        // A second finding under a recorded id is refused, never a replacement.
        let again = node("engineer-1", "engineer", Priority::P3, 0.1);
        assert!(matches!(
            board.apply(
                event(
                    1,
                    "engineer",
                    EventKind::NodeAdded {
                        node: Box::new(again)
                    }
                ),
                AT
            ),
            Applied::Refused(_)
        ));
        assert_eq!(board.nodes[0].priority, Priority::P1);
        // An unknown finding is refused; a stale run changes nothing; no pass got a row.
        let unknown = EventKind::Refuted {
            node_id: "nope".into(),
            quote: "x".into(),
        };
        assert!(matches!(
            board.apply(event(1, "verifier", unknown), AT),
            Applied::Refused(_)
        ));
        assert_eq!(
            board.apply(event(2, "scoring", scored(10)), AT),
            Applied::Stale
        );
        assert_eq!(board.nodes[0].confidence, 0.9);
        assert_eq!(board.reviewers.keys().collect::<Vec<_>>(), vec!["engineer"]);
    }
}
