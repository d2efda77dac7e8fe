//! One round of review over a prepared space: dispatch the reviewers, apply their events to the
//! board, carry the person's earlier decisions, consolidate, group into cohorts, compute the
//! verdict by code, and record the round in the space. The headless report and the cockpit both
//! run this; neither decides anything on its own.

use std::path::PathBuf;

use serde::Serialize;
use thiserror::Error;
use tokio::sync::mpsc;

use crate::agents::deterministic::{self, DeterministicInput};
use crate::agents::events::RunId;
use crate::agents::secrets::{SECRET_SCAN, SecretScanner};
use crate::cohort::{self, CohortInput, CohortReport};
use crate::prepare::Prepared;
use crate::review::board::Board;
use crate::review::carry::carry_over;
use crate::review::consolidate::{self, Problem};
use crate::review::disagreement::{Disagreement, disagreements};
use crate::review::level::Level;
use crate::review::rounds::RoundDelta;
use crate::review::status::apply_suppression_hints;
use crate::review::verdict::{Verdict, VerdictFinding, VerdictInput, decide};
use crate::space::{Ladder, SpaceError, StateError, StoreError};

#[derive(Debug, Clone)]
pub struct ReviewOptions {
    pub level: Level,
    /// Run the zero-token reviewers alone, asked for explicitly; the verdict says so.
    pub deterministic_only: bool,
    pub sarif_files: Vec<PathBuf>,
    /// Try the gitleaks binary (found on PATH) beside the built-in secret scan.
    pub gitleaks: Option<String>,
    /// Review again even if this head already has a completed round (starts a new round).
    pub force: bool,
    /// The rule catalog with the configuration's overrides applied.
    pub catalog: crate::agents::rules::Catalog,
    /// A copy of the run as it happens, for a live view (the cockpit): the plan first, then
    /// every reviewer event in the order the board applies them.
    pub tap: Option<mpsc::UnboundedSender<Tap>>,
}

/// What the pipeline shows a live view.
#[derive(Debug, Clone)]
pub enum Tap {
    Started {
        run: RunId,
        round: u32,
        reviewers: Vec<crate::review::board::ReviewerState>,
    },
    Event(crate::agents::events::ReviewEvent),
}

impl Default for ReviewOptions {
    fn default() -> Self {
        ReviewOptions {
            level: Level::Balanced,
            deterministic_only: false,
            sarif_files: Vec::new(),
            gitleaks: Some(crate::agents::secrets::GITLEAKS.to_string()),
            force: false,
            catalog: crate::agents::rules::Catalog::builtin(),
            tap: None,
        }
    }
}

#[derive(Debug, Error)]
pub enum PipelineError {
    #[error(transparent)]
    Space(#[from] SpaceError),
    #[error(transparent)]
    State(#[from] StateError),
    #[error("{0}")]
    Other(String),
}

impl From<StoreError> for PipelineError {
    fn from(e: StoreError) -> Self {
        PipelineError::Space(e.into())
    }
}

/// What the report needs to say about coverage: what was read, what was not, what was dropped.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Coverage {
    pub files_reviewed: Vec<String>,
    /// (path, why) for files no reviewer could read.
    pub files_skipped: Vec<(String, String)>,
    /// (reviewer, reason) for payloads that did not validate and stances that were refused.
    pub dropped: Vec<(String, String)>,
    pub notes: Vec<String>,
}

#[derive(Debug)]
pub struct ReviewResult {
    pub round: u32,
    pub board: Board,
    pub problems: Vec<Problem>,
    pub disagreements: Vec<Disagreement>,
    pub cohorts: Option<CohortReport>,
    pub verdict: Verdict,
    pub delta: RoundDelta,
    pub coverage: Coverage,
    pub level: Level,
    pub deterministic_only: bool,
}

fn now() -> String {
    humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string()
}

/// Runs one round. Model reviewers join here when a provider is configured; without one they
/// are recorded as skipped, which keeps the verdict Inconclusive unless the run is explicitly
/// deterministic-only.
pub async fn review(
    prepared: &mut Prepared,
    options: &ReviewOptions,
) -> Result<ReviewResult, PipelineError> {
    let started = now();
    let force = options.force;
    let round = prepared.space.update(|state| -> Result<u32, PipelineError> {
        let completed = state.current_round().is_none_or(|r| r.completed);
        if completed && force {
            let head = state.head_sha.clone();
            state.start_round(&head, &started);
        } else if completed {
            return Err(PipelineError::Other(
                "this head was already reviewed in a completed round: pass --force to review it again".into(),
            ));
        }
        state.advance(Ladder::InProgress)?;
        Ok(state.current_round().map_or(1, |r| r.number))
    })?;
    let run = RunId(round as u64);

    let mut board = Board::default();
    board.start_run(run);
    board.queue(crate::agents::rules::REVIEWER, true);
    board.queue(SECRET_SCAN, true);
    for role in options.level.roster() {
        let why = if options.deterministic_only {
            "deterministic-only run: no model reviewer asked for"
        } else {
            "no model provider configured (set OPENAI_BASE_URL, ANTHROPIC_API_KEY or OLLAMA_HOST)"
        };
        board.skip(role.as_str(), true, why);
    }

    if let Some(tap) = &options.tap {
        let _ = tap.send(Tap::Started {
            run,
            round,
            reviewers: board.reviewers.values().cloned().collect(),
        });
    }

    let (sender, mut receiver) = mpsc::channel(256);
    let input = DeterministicInput {
        diff: prepared.diff.clone(),
        worktree: prepared.space.worktree().to_path_buf(),
        sarif_files: options.sarif_files.clone(),
        secret_scanner: SecretScanner::builtin(),
        catalog: options.catalog.clone(),
        gitleaks: options.gitleaks.clone(),
        now: started.clone(),
    };
    let reviewers = tokio::spawn(deterministic::run(input, run, sender));
    // The one writer: every event is applied here, in order.
    while let Some(event) = receiver.recv().await {
        if let Some(tap) = &options.tap {
            let _ = tap.send(Tap::Event(event.clone()));
        }
        board.apply(event, &now());
    }
    reviewers
        .await
        .map_err(|e| PipelineError::Other(format!("a reviewer task failed: {e}")))?;

    // Earlier decisions follow their fingerprints into this round.
    let previous = prepared.space.state().nodes.clone();
    let mut nodes = carry_over(&previous, std::mem::take(&mut board.nodes));
    apply_suppression_hints(&mut nodes, &prepared.space.state().suppression_hints);
    let problems = consolidate::consolidate(&nodes);
    consolidate::apply(&mut nodes, &problems);
    let disagreements = disagreements(&nodes);
    board.nodes = nodes;

    let cohorts = build_cohorts(prepared).await;
    let mut coverage = Coverage {
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
        dropped: board.notes.clone(),
        notes: Vec::new(),
    };
    let axes = match &cohorts {
        Ok(report) => {
            coverage.notes.extend(report.notes.iter().cloned());
            report.axes.clone()
        }
        Err(reason) => {
            coverage
                .notes
                .push(format!("cohorts unavailable: {reason}"));
            vec![crate::review::axes::Axis {
                name: crate::review::axes::API_CONTRACT.into(),
                verdict: crate::review::axes::AxisVerdict::Unavailable,
                gated: true,
                detail: format!("the code index could not be built: {reason}"),
            }]
        }
    };

    let verdict = decide(&VerdictInput {
        findings: board.nodes.iter().map(VerdictFinding::from).collect(),
        axes: axes.clone(),
        reviewers: board.reviewer_runs(),
        deterministic_only: options.deterministic_only,
        model_verdict: None,
    });

    let finished = now();
    let fingerprints: Vec<String> = board
        .nodes
        .iter()
        .filter(|n| !n.fingerprint.is_empty())
        .map(|n| n.fingerprint.clone())
        .collect();
    let nodes = board.nodes.clone();
    let decision = verdict.decision.as_str();
    let reviewer_runs = board.reviewer_runs();
    let deterministic_only = options.deterministic_only;
    let delta = prepared
        .space
        .update(|state| -> Result<RoundDelta, PipelineError> {
            state.nodes = nodes;
            state.complete_round(fingerprints, decision, &finished)?;
            if let Some(round) = state.rounds.last_mut() {
                round.reviewers = reviewer_runs;
                round.axes = axes;
                round.deterministic_only = deterministic_only;
            }
            state.advance(Ladder::AwaitingApproval)?;
            Ok(state.round_delta())
        })?;

    Ok(ReviewResult {
        round,
        board,
        problems,
        disagreements,
        cohorts: cohorts.ok(),
        verdict,
        delta,
        coverage,
        level: options.level,
        deterministic_only: options.deterministic_only,
    })
}

/// Cohorts run on a blocking thread (tree-sitter and git2); failure degrades to a note and an
/// unavailable apiContract, never to a green gate.
async fn build_cohorts(prepared: &Prepared) -> Result<CohortReport, String> {
    let diff = prepared.diff.clone();
    let worktree = prepared.space.worktree().to_path_buf();
    let mirror = prepared.space.mirror().to_path_buf();
    let cache = cohort::cache_dir_in(prepared.space.path());
    let head = prepared.space.state().head_sha.clone();
    let base = prepared.space.state().base_sha.clone();
    tokio::task::spawn_blocking(move || {
        let repo = git2::Repository::open_bare(&mirror).map_err(|e| e.message().to_string())?;
        let base_oid = repo
            .merge_base(
                git2::Oid::from_str(&base).map_err(|e| e.message().to_string())?,
                git2::Oid::from_str(&head).map_err(|e| e.message().to_string())?,
            )
            .map_err(|e| e.message().to_string())?;
        cohort::build(CohortInput {
            diff: &diff,
            worktree: &worktree,
            base: Some((&repo, base_oid)),
            cache_dir: Some(&cache),
            head_sha: &head,
        })
        .map_err(|e| e.to_string())
    })
    .await
    .map_err(|e| e.to_string())?
}
