//! The space's last round as a `ReviewResult`, with the findings as they stand now: what the
//! cockpit publishes after a person has triaged (and after a reopen, when no run is in memory).

use crate::pipeline::{Coverage, ReviewResult};
use crate::prepare::Prepared;
use crate::review::board::{Board, ReviewerPhase, ReviewerState};
use crate::review::consolidate;
use crate::review::disagreement::disagreements;
use crate::review::level::Level;
use crate::review::verdict::{Outcome, VerdictFinding, VerdictInput, decide};

/// Rebuilds the round from `state.json`: nodes with every decision made since, the reviewers'
/// outcomes and the axes the round recorded; the verdict is recomputed by the same code.
pub fn recorded_result(prepared: &Prepared, level: Level) -> ReviewResult {
    let state = prepared.space.state();
    let round = state.current_round();
    let mut nodes = state.nodes.clone();
    let problems = consolidate::consolidate(&nodes);
    consolidate::apply(&mut nodes, &problems);
    let mut board = Board::default();
    if let Some(round) = round {
        for run in &round.reviewers {
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
            board.reviewers.insert(run.role.clone(), reviewer);
        }
    }
    let axes = round.map(|r| r.axes.clone()).unwrap_or_default();
    let deterministic_only = round.is_some_and(|r| r.deterministic_only);
    let verdict = decide(&VerdictInput {
        findings: nodes.iter().map(VerdictFinding::from).collect(),
        axes,
        reviewers: board.reviewer_runs(),
        deterministic_only,
        model_verdict: None,
    });
    let disagreements = disagreements(&nodes);
    board.nodes = nodes;
    ReviewResult {
        round: round.map_or(0, |r| r.number),
        board,
        problems,
        disagreements,
        cohorts: None,
        verdict,
        delta: state.round_delta(),
        coverage: Coverage {
            files_reviewed: prepared
                .diff
                .files
                .iter()
                .filter(|f| !f.binary)
                .map(|f| f.path.clone())
                .collect(),
            files_skipped: prepared
                .diff
                .files
                .iter()
                .filter(|f| f.binary)
                .map(|f| (f.path.clone(), "binary".to_string()))
                .collect(),
            ..Coverage::default()
        },
        level,
        deterministic_only,
        walkthrough: round.map(|r| r.walkthrough.clone()).unwrap_or_default(),
    }
}
