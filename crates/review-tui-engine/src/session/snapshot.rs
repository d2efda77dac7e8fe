//! The round snapshot: one reviewed round as everything downstream reads it — the findings as
//! they stand now (every triage decision included), what they add up to (problems,
//! disagreements, verdict), what the round covered, the lead's walkthrough, the person's
//! edited comments, the level, and whether it was published. Built from `state.json` by one
//! function, so a headless publish right after the run and a cockpit publish after a reopen
//! read the same thing and post the same summary.

use std::collections::BTreeMap;

use crate::cohort::CohortReport;
use crate::diff::Diff;
use crate::review::board::{Board, ReviewerPhase, ReviewerState};
use crate::review::consolidate::Problem;
use crate::review::coverage::Coverage;
use crate::review::derived::{self, Context};
use crate::review::disagreement::Disagreement;
use crate::review::level::Level;
use crate::review::rounds::RoundDelta;
use crate::review::verdict::{Outcome, Verdict};
use crate::space::{Ladder, PublishRecord, Round, SpaceState};

#[derive(Debug, Clone)]
pub struct RoundSnapshot {
    pub round: u32,
    /// The head SHA the round reviewed.
    pub head_sha: crate::commit_id::CommitId,
    /// The reviewers as the run left them, and the findings with every decision since.
    pub board: Board,
    pub problems: Vec<Problem>,
    pub disagreements: Vec<Disagreement>,
    /// The cohorts, when the caller built them (the run does; the space caches them).
    pub cohorts: Option<CohortReport>,
    pub verdict: Verdict,
    /// The axes the verdict read.
    pub axes: Vec<crate::review::axes::Axis>,
    pub delta: RoundDelta,
    pub coverage: Coverage,
    pub level: Level,
    pub deterministic_only: bool,
    /// The lead's walkthrough and reading order; empty without model reviewers.
    pub walkthrough: String,
    /// Comment text the person edited, by node id: posted instead of the generated text.
    pub comments: BTreeMap<String, String>,
    pub ladder: Ladder,
    /// Where the round was published, once it was.
    pub published: Option<PublishRecord>,
    /// The person's decision beside the verdict by code, when their overrides of gated axes
    /// (bound to this round's results) change it: what the gate publishes.
    pub persons: Option<crate::review::axis_override::PersonsDecision>,
}

impl RoundSnapshot {
    /// The space's current round. `level` applies when the round recorded none (older files);
    /// `diff` fills the coverage of a round recorded before coverage was kept.
    pub fn of(state: &SpaceState, level: Level, diff: &Diff) -> RoundSnapshot {
        let round = state.current_round();
        let mut nodes = state.nodes.clone();
        let mut board = Board {
            reviewers: round
                .map(|r| reviewer_states(r, &nodes))
                .unwrap_or_default()
                .into_iter()
                .map(|r| (r.name.clone(), r))
                .collect(),
            ..Board::default()
        };
        let context = Context {
            axes: round.map(|r| r.axes.clone()).unwrap_or_default(),
            reviewers: board.reviewer_runs(),
            deterministic_only: round.is_some_and(|r| r.deterministic_only),
            model_verdict: round.and_then(|r| r.model_verdict.clone()),
        };
        let derived = derived::derive(&mut nodes, context.clone());
        let persons =
            derived::persons_decision(&nodes, context, &derived.verdict, &state.axis_overrides);
        board.nodes = nodes;
        let mut coverage = round.map(|r| r.coverage.clone()).unwrap_or_default();
        if coverage == Coverage::default() {
            coverage.files_reviewed = files_reviewed(diff);
            coverage.files_skipped = files_skipped(diff);
        }
        RoundSnapshot {
            round: round.map_or(0, |r| r.number),
            head_sha: round.map_or_else(|| state.head_sha.clone(), |r| r.head_sha.clone()),
            board,
            problems: derived.problems,
            disagreements: derived.disagreements,
            cohorts: None,
            verdict: derived.verdict,
            axes: round.map(|r| r.axes.clone()).unwrap_or_default(),
            delta: state.round_delta(),
            coverage,
            level: round.and_then(|r| r.level).unwrap_or(level),
            deterministic_only: round.is_some_and(|r| r.deterministic_only),
            walkthrough: round.map(|r| r.walkthrough.clone()).unwrap_or_default(),
            comments: state.comments.clone(),
            ladder: state.ladder(),
            published: state.published().cloned(),
            persons,
        }
    }

    /// What the gate publishes: the person's decision when they overrode what held the
    /// verdict, the code's otherwise.
    pub fn decision(&self) -> crate::review::Decision {
        self.persons
            .as_ref()
            .map_or(self.verdict.decision, |p| p.decision)
    }

    /// The person's edit of a node's comment, if any.
    pub fn comment(&self, node_id: &str) -> Option<&str> {
        self.comments
            .get(node_id)
            .map(String::as_str)
            .filter(|text| !text.trim().is_empty())
    }
}

/// The changed files a reviewer could read: every one but binaries.
pub(crate) fn files_reviewed(diff: &Diff) -> Vec<String> {
    diff.files
        .iter()
        .filter(|f| !f.binary)
        .map(|f| f.path.clone())
        .collect()
}

/// The changed files no reviewer could read, and why.
pub(crate) fn files_skipped(diff: &Diff) -> Vec<(String, String)> {
    diff.files
        .iter()
        .filter(|f| f.binary)
        .map(|f| (f.path.clone(), "binary".to_string()))
        .collect()
}

/// The reviewers as the round recorded them: whole when it kept their states, else rebuilt
/// from how each run ended (an older file).
pub(crate) fn reviewer_states(
    round: &Round,
    nodes: &[crate::review::ReviewNode],
) -> Vec<ReviewerState> {
    if !round.reviewer_states.is_empty() {
        return round.reviewer_states.clone();
    }
    round
        .reviewers
        .iter()
        .map(|run| {
            let mut reviewer = ReviewerState::queued(&run.role, run.required);
            reviewer.outcome = Some(run.outcome);
            reviewer.phase = match run.outcome {
                Outcome::Ok => ReviewerPhase::Done,
                Outcome::Skipped => ReviewerPhase::Skipped,
                Outcome::Failed | Outcome::InvalidOutput => ReviewerPhase::Failed,
            };
            reviewer.findings = nodes
                .iter()
                .filter(|n| n.origin.reviewer == run.role)
                .count();
            reviewer.note = run.reason.clone().unwrap_or_default();
            reviewer
        })
        .collect()
}
