//! One round of review over a prepared space: dispatch the reviewers, apply their events to the
//! board, carry the person's earlier decisions, consolidate, group into cohorts, compute the
//! verdict by code, and record the round in the space. The headless report and the cockpit both
//! run this; neither decides anything on its own.

use std::path::PathBuf;
use std::sync::Arc;

use thiserror::Error;
use tokio::sync::{mpsc, watch};

use crate::cohort::{self, CohortInput, CohortReport};
use crate::review::board::{Applied, Board};
use crate::review::carry::{carry_comments, carry_over};
use crate::review::coverage::Coverage;
use crate::review::derived;
use crate::review::events::{EventKind, ReviewEvent, RunId};
use crate::review::level::Level;
use crate::review::level::Role;
use crate::review::status::apply_suppression_hints;
use crate::review::verdict::Outcome;
use crate::reviewers::deterministic::secrets::{
    SECRET_SCAN, SecretScanner, SecretSetup, SetupError,
};
use crate::reviewers::deterministic::{self, DeterministicInput, intake};
use crate::reviewers::model::dispatch;
use crate::reviewers::model::passes::{self, PassNote};
use crate::reviewers::redact;
use crate::session::prepare::Prepared;
use crate::session::snapshot::{self, RoundSnapshot};
use crate::space::{Ladder, SpaceError, StateError, StoreError};

mod models;
pub use models::{
    Estimate, ModelSetup, anchored_lines, fingerprint_model_nodes, redactor, sandbox_tools,
};

#[derive(Debug, Clone)]
pub struct ReviewOptions {
    pub level: Level,
    /// Run the zero-token reviewers alone, asked for explicitly; the verdict says so.
    pub deterministic_only: bool,
    pub sarif_files: Vec<PathBuf>,
    /// Try the gitleaks binary (found on PATH) beside the built-in secret scan.
    pub gitleaks: Option<String>,
    /// The gitleaks configuration the person chose for the secret scan, if any.
    pub secret_config: Option<crate::reviewers::deterministic::secrets::UserConfig>,
    /// Review again even if this head already has a completed round (starts a new round).
    pub force: bool,
    /// The rule catalog with the configuration's overrides applied.
    pub catalog: crate::reviewers::deterministic::rules::Catalog,
    /// The model reviewers; `None` when no provider is configured (they are then skipped and
    /// the verdict is Inconclusive unless the run is deterministic-only).
    pub models: Option<ModelSetup>,
    /// Notes from setting up (ignored config sections), for the coverage.
    pub notes: Vec<String>,
    /// `[api_contract]`: where the apiContract axis warns instead of gating, by whose choice.
    pub api_advisory: Vec<crate::config::Advisory>,
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
        /// Whether the run was asked for without model reviewers: a live view's verdict must
        /// read the run's skipped reviewers as the recorded verdict does.
        deterministic_only: bool,
    },
    Event(crate::review::events::ReviewEvent),
    /// The pre-run estimate of what the model reviewers will read, before dispatch.
    Estimate(String),
    /// The pass the run entered after the reviewers; `None` once the passes are over.
    Phase(Option<Phase>),
    /// What the running pass says: its progress, a retry, a wait for a slow server.
    Pass(Phase, PassNote),
}

/// The passes after the reviewers, in the order they run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    PeerRound,
    Verification,
    Scoring,
    RootCause,
    Lead,
}

impl std::fmt::Display for Phase {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Phase::PeerRound => "peer round",
            Phase::Verification => "verification",
            Phase::Scoring => "confidence scoring",
            Phase::RootCause => "root cause",
            Phase::Lead => "lead pass",
        })
    }
}

/// The board and whoever watches it: the run's one writer. Every event — the reviewers' and
/// the passes' — is shown to the live view and applied to the board here, in order.
struct Live<'a> {
    board: Board,
    run: RunId,
    tap: Option<&'a mpsc::UnboundedSender<Tap>>,
    /// Every detector: whatever a reviewer or a pass quotes, no secret reaches the board, the
    /// live view, the state or a report.
    redactor: &'a SecretScanner,
}

impl Live<'_> {
    /// The one writer: every event is redacted, shown and applied here, in order.
    fn apply(&mut self, mut event: ReviewEvent) -> Applied {
        redact::redact_event(&mut event, self.redactor);
        self.show(Tap::Event(event.clone()));
        self.board.apply(event, &now())
    }

    /// A pass's result on a finding, under the pass's name.
    fn pass(&mut self, pass: &str, kind: EventKind) -> Applied {
        self.apply(ReviewEvent::new(self.run, pass, kind))
    }

    fn phase(&self, phase: Option<Phase>) {
        self.show(Tap::Phase(phase));
    }

    /// Runs `pass` (built on `kit`, a kit saying its notes to `notes`) as `phase`, showing
    /// what it says while it runs.
    async fn noting<F: std::future::Future>(
        &self,
        phase: Phase,
        mut notes: mpsc::UnboundedReceiver<PassNote>,
        pass: F,
    ) -> F::Output {
        self.phase(Some(phase));
        tokio::pin!(pass);
        let out = loop {
            tokio::select! {
                out = &mut pass => break out,
                Some(note) = notes.recv() => self.show(Tap::Pass(phase, note)),
            }
        };
        while let Ok(note) = notes.try_recv() {
            self.show(Tap::Pass(phase, note));
        }
        out
    }

    fn show(&self, tap: Tap) {
        if let Some(sender) = self.tap {
            let _ = sender.send(tap);
        }
    }
}

impl Default for ReviewOptions {
    fn default() -> Self {
        ReviewOptions {
            level: Level::Balanced,
            deterministic_only: false,
            sarif_files: Vec::new(),
            gitleaks: Some(crate::reviewers::deterministic::secrets::GITLEAKS.to_string()),
            secret_config: crate::reviewers::deterministic::secrets::UserConfig::from_env(),
            force: false,
            catalog: crate::reviewers::deterministic::rules::Catalog::builtin()
                .with_overrides(&crate::config::Config::default()),
            tap: None,
            models: None,
            notes: Vec::new(),
            api_advisory: Vec::new(),
        }
    }
}

#[derive(Debug, Error)]
pub enum PipelineError {
    #[error(transparent)]
    Space(#[from] SpaceError),
    #[error(transparent)]
    State(#[from] StateError),
    /// The space was opened offline: a round needs the PR as GitHub has it now.
    #[error("{0}")]
    Offline(String),
    /// The secret rules the person configured cannot be used.
    #[error(transparent)]
    Secrets(#[from] SetupError),
    /// A round on a head whose last round completed, without `--force`.
    #[error("this head was already reviewed in a completed round: pass --force to review it again")]
    AlreadyReviewed,
    /// A task of the round (`what`) panicked or was cancelled.
    #[error("{what} failed: {source}")]
    Task {
        what: &'static str,
        source: tokio::task::JoinError,
    },
}

impl PipelineError {
    /// The failure of the round's task `what` as it was awaited.
    fn task(what: &'static str) -> impl FnOnce(tokio::task::JoinError) -> PipelineError {
        move |source| PipelineError::Task { what, source }
    }
}

impl From<StoreError> for PipelineError {
    fn from(e: StoreError) -> Self {
        PipelineError::Space(e.into())
    }
}

/// git's renames commit by commit between the base and the head (see
/// [`crate::diff::git::earlier_names`]), read on a blocking thread: they depend only on the
/// two commits, so the round starts them beside the cohort build and takes them when every
/// finding is in ([`earlier_names`]).
fn start_earlier_names(
    prepared: &Prepared,
) -> tokio::task::JoinHandle<Option<crate::review::fingerprint::EarlierNames>> {
    let mirror = prepared.space.mirror().to_path_buf();
    let (base, head) = {
        let state = prepared.space.state();
        (state.base_sha.clone(), state.head_sha.clone())
    };
    tokio::task::spawn_blocking(move || {
        let repo = git2::Repository::open(&mirror).ok()?;
        crate::diff::git::earlier_names(&repo, &base, &head).ok()
    })
}

/// The earlier names of the PR's files: git's renames commit by commit (`history`, from
/// [`start_earlier_names`]), and at least the renames of the reviewed diff (all a shallow or
/// rewritten history leaves).
async fn earlier_names(
    prepared: &Prepared,
    history: tokio::task::JoinHandle<Option<crate::review::fingerprint::EarlierNames>>,
) -> crate::review::fingerprint::EarlierNames {
    let mut names = history.await.ok().flatten().unwrap_or_default();
    for file in &prepared.diff.files {
        if let (crate::diff::FileStatus::Renamed, Some(old)) = (file.status, &file.old_path) {
            names
                .entry(file.path.clone())
                .or_insert_with(|| vec![old.clone()]);
        }
    }
    names
}

fn now() -> String {
    humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string()
}

/// The secret rules of the space's base and the redactor of every text bound for a model or a
/// person: every detector, and the values of the secrets this change holds, so that whatever
/// quotes one back (a model's prose, a tool's message) loses it, with or without the context a
/// rule needs.
pub async fn secrets(
    prepared: &Prepared,
    user: Option<crate::reviewers::deterministic::secrets::UserConfig>,
) -> Result<(SecretSetup, Arc<SecretScanner>), PipelineError> {
    let mirror = prepared.space.mirror().to_path_buf();
    let base = prepared.space.state().base_sha.clone();
    let setup = tokio::task::spawn_blocking(move || SecretSetup::for_space(&mirror, &base, user))
        .await
        .map_err(PipelineError::task("loading the secret rules"))??;
    // The values of the secrets in this change and in the PR's texts join the redaction:
    // whatever quotes one back (a model's prose, a tool's message, a comment repeating the
    // description's password) loses it, with or without the context a rule needs.
    let files = crate::reviewers::deterministic::scan_files(&prepared.diff);
    let mut known = setup.redactor.known_values(&files);
    known.extend(intake::secret_values(&pr_texts(prepared), &setup.redactor));
    let redactor = Arc::new((*setup.redactor).clone().with_known(known));
    Ok((setup, redactor))
}

/// Runs one round. Model reviewers join here when a provider is configured; without one they
/// are recorded as skipped, which keeps the verdict Inconclusive unless the run is explicitly
/// deterministic-only.
pub async fn review(
    prepared: &mut Prepared,
    options: &ReviewOptions,
) -> Result<RoundSnapshot, PipelineError> {
    // A space opened offline shows its stored round; a new one needs the PR as GitHub has it
    // now (its description and discussion are what the reviewers are checked against).
    if let Some(offline) = &prepared.offline {
        return Err(PipelineError::Offline(offline.needs_network("a new round")));
    }
    let started = now();
    // Cohorts are deterministic, and their symbol index serves `find_symbol`. They start
    // first, on a thread of their own, and run beside the secret setup, the round's start and
    // the zero-token reviewers (none of which they need); the models wait for them. They only
    // write caches, so a round that stops before using them leaves nothing half done.
    let cohorts = start_cohorts(prepared, &options.api_advisory);
    // Which secret rules run and what every text is redacted with; read before the round
    // starts, so a configuration the person chose and cannot be used leaves the space as it was.
    let (secret_setup, redactor) = secrets(prepared, options.secret_config.clone()).await?;
    // Everything the PR's author and commenters wrote, through one intake: the injection scan
    // and the secret scan read all of it.
    let pr_text = pr_texts(prepared);
    let round = start_round(prepared, options.force, &started)?;
    let run = RunId(round as u64);
    // Needed only once every finding is in, but read now, beside the cohort build and the
    // reviewers: awaited at the end, it was the last second of a large range on one core.
    let history = start_earlier_names(prepared);

    let models = options
        .models
        .as_ref()
        .filter(|_| !options.deterministic_only);
    let mut live = Live {
        board: planned_board(run, options, models),
        run,
        tap: options.tap.as_ref(),
        redactor: &redactor,
    };

    // The zero-token reviewers start beside the cohort build: their events wait in the
    // channel until the board takes them, after the plan is shown, as before.
    let (sender, receiver) = mpsc::channel(256);
    let input = deterministic_input(prepared, options, &secret_setup, &started, pr_text);
    let reviewers = tokio::spawn(deterministic::run(input, run, sender.clone()));
    let cohorts = finish_cohorts(cohorts).await;
    let (stop, never_stopped) = watch::channel(false);
    let cancel = models
        .and_then(|m| m.cancel.clone())
        .unwrap_or(never_stopped);
    let mut coverage = starting_coverage(prepared, options, &secret_setup);
    let model_run = match models {
        Some(setup) => {
            let model_run = models::prepare(
                prepared,
                setup,
                cohorts.as_ref().ok(),
                redactor.clone(),
                cancel.clone(),
            )
            .await;
            queue_models(model_run, setup, &mut live, &mut coverage)
        }
        None => None,
    };

    if let Some(tap) = &options.tap {
        let _ = tap.send(Tap::Started {
            run,
            round,
            reviewers: live.board.reviewers.values().cloned().collect(),
            deterministic_only: options.deterministic_only,
        });
    }

    let dispatched = start_dispatch(model_run.as_ref(), models, run, &sender, &cancel);
    drop(sender);
    take_events(&mut live, receiver, reviewers, dispatched).await?;
    models::fingerprint_model_nodes(
        &mut live.board.nodes,
        prepared.space.worktree(),
        &prepared.diff,
    );

    let mut walkthrough = String::new();
    if let (Some(model_run), Some(setup)) = (&model_run, models) {
        walkthrough = run_passes(
            prepared,
            &mut live,
            model_run,
            setup,
            cohorts.as_ref().ok(),
            cancel.clone(),
            options.level,
            &mut coverage,
        )
        .await;
        coverage.spent = Some(match setup.roster.budget.limit() {
            Some(limit) => format!("{} of a {limit} budget", setup.roster.budget.spent_text()),
            None => setup.roster.budget.spent_text(),
        });
    }
    if let Some(sources) = model_run.as_ref().and_then(|m| m.sources.as_ref()) {
        settle_sources(sources, &mut live, &mut coverage).await;
    }
    drop(stop);
    let mut board = live.board;

    settle_findings(prepared, &mut board, history, round, &mut coverage).await;
    // Again after the passes (peer notes, verifier quotes, rescoring) and for carried nodes.
    redact_round(&mut board.nodes, &mut coverage, &mut walkthrough, &redactor);
    apply_suppression_hints(&mut board.nodes, &prepared.space.state().suppression_hints);
    derived::problems(&mut board.nodes);

    coverage.dropped = board.notes.clone();
    let axes = axes(&cohorts, &mut coverage);
    record_round(prepared, options, board, axes, coverage, walkthrough)?;
    debug_assert_eq!(
        prepared.space.state().current_round().map(|r| r.number),
        Some(round)
    );

    let mut snapshot = RoundSnapshot::of(prepared.space.state(), options.level, &prepared.diff);
    snapshot.cohorts = cohorts.ok();
    Ok(snapshot)
}

/// Starts the round in the space (a new one when the head's round is completed and `force`
/// asks for it) and marks it in progress: its number.
fn start_round(prepared: &mut Prepared, force: bool, started: &str) -> Result<u32, PipelineError> {
    let (round, started_now) =
        prepared
            .space
            .update(|state| -> Result<(u32, bool), PipelineError> {
                let completed = state.current_round().is_none_or(|r| r.completed);
                if completed && force {
                    let head = state.head_sha.clone();
                    state.start_round(&head, started);
                } else if completed {
                    return Err(PipelineError::AlreadyReviewed);
                }
                state.advance(Ladder::InProgress)?;
                Ok((state.current_round().map_or(1, |r| r.number), completed))
            })?;
    // The report's `space.new_round` says whether this run started a round, here as when the
    // space was opened at a new head.
    if started_now {
        prepared.opened.new_round = Some(round);
    }
    Ok(round)
}

/// The board before anything runs: every reviewer of the round queued, or skipped with why.
fn planned_board(run: RunId, options: &ReviewOptions, models: Option<&ModelSetup>) -> Board {
    let mut board = Board::default();
    board.start_run(run);
    board.queue(crate::reviewers::deterministic::rules::REVIEWER, true);
    board.queue(SECRET_SCAN, true);
    match models {
        Some(setup) => {
            for member in &setup.roster.members {
                board.queue(member.role.as_str(), true);
            }
            for (role, why) in &setup.roster.unavailable {
                board.skip(role.as_str(), true, why);
            }
        }
        None => {
            for role in options.level.roster() {
                let why = if options.deterministic_only {
                    "deterministic-only run: no model reviewer asked for".to_string()
                } else {
                    super::no_model::SKIPPED.to_string()
                };
                board.skip(role.as_str(), true, &why);
            }
        }
    }
    board
}

/// What the zero-token reviewers read.
fn deterministic_input(
    prepared: &Prepared,
    options: &ReviewOptions,
    secret_setup: &SecretSetup,
    started: &str,
    pr_text: Vec<crate::reviewers::deterministic::injection::PrText>,
) -> DeterministicInput {
    DeterministicInput {
        diff: prepared.diff.clone(),
        worktree: prepared.space.worktree().to_path_buf(),
        sarif_files: options.sarif_files.clone(),
        secret_scanner: secret_setup.scanner.clone(),
        catalog: options.catalog.clone(),
        gitleaks: options.gitleaks.clone(),
        now: started.to_string(),
        pr_text,
        author_is_bot: prepared.pr.author_is_bot,
        title: prepared.pr.title.clone(),
    }
}

/// The coverage's notes before anything runs: the setup's, the secret rules', the threads'.
fn starting_coverage(
    prepared: &Prepared,
    options: &ReviewOptions,
    secret_setup: &SecretSetup,
) -> Coverage {
    let mut coverage = Coverage {
        notes: options.notes.clone(),
        ..Coverage::default()
    };
    coverage.notes.extend(secret_setup.notes.iter().cloned());
    coverage
        .notes
        .extend(prepared.threads.notice.iter().cloned());
    coverage
}

/// The model reviewers' dispatch, started when they can run.
fn start_dispatch(
    model_run: Option<&models::ModelRun>,
    models: Option<&ModelSetup>,
    run: RunId,
    sender: &mpsc::Sender<ReviewEvent>,
    cancel: &watch::Receiver<bool>,
) -> Option<tokio::task::JoinHandle<Vec<dispatch::Finished>>> {
    let (model_run, setup) = model_run.zip(models)?;
    Some(tokio::spawn(dispatch::dispatch(
        model_run.assignments.clone(),
        run,
        setup.concurrency,
        sender.clone(),
        cancel.clone(),
        setup.stop_reviewers.clone(),
    )))
}

/// Applies every reviewer event to the board, in order, until the zero-token reviewers and
/// the model dispatch are done.
async fn take_events(
    live: &mut Live<'_>,
    mut receiver: mpsc::Receiver<ReviewEvent>,
    reviewers: tokio::task::JoinHandle<()>,
    dispatched: Option<tokio::task::JoinHandle<Vec<dispatch::Finished>>>,
) -> Result<(), PipelineError> {
    while let Some(event) = receiver.recv().await {
        live.apply(event);
    }
    reviewers
        .await
        .map_err(PipelineError::task("a reviewer task"))?;
    if let Some(dispatched) = dispatched {
        dispatched
            .await
            .map_err(PipelineError::task("the model dispatch"))?;
    }
    Ok(())
}

/// The model reviewers on the board once prepared: the estimate shown and each context source
/// queued; when they cannot run, each member failed with the reason (and no run).
fn queue_models(
    model_run: Result<models::ModelRun, models::ModelsUnavailable>,
    setup: &ModelSetup,
    live: &mut Live<'_>,
    coverage: &mut Coverage,
) -> Option<models::ModelRun> {
    let run = live.run;
    match model_run {
        Ok(model_run) => {
            // Shown before anything is dispatched, so a person can stop an
            // unexpectedly large review before it spends.
            if let Some(tap) = live.tap {
                let _ = tap.send(Tap::Estimate(model_run.estimate.to_string()));
            }
            coverage.estimate = Some(model_run.estimate);
            coverage.notes.extend(model_run.notes.iter().cloned());
            // Each context source has a row of its own, required or not as declared.
            for (name, required) in model_run.sources.iter().flat_map(|s| s.reviewers()) {
                live.board.queue(&name, required);
                live.board.apply(
                    ReviewEvent::new(run, name, EventKind::Started { required }),
                    &now(),
                );
            }
            Some(model_run)
        }
        Err(reason) => {
            for member in &setup.roster.members {
                live.board.apply(
                    ReviewEvent::new(
                        run,
                        member.role.as_str(),
                        EventKind::Failed {
                            outcome: Outcome::Failed,
                            reason: reason.to_string(),
                        },
                    ),
                    &now(),
                );
            }
            None
        }
    }
}

/// Every finding is in: identical lines of a file get told apart by their occurrence, and a
/// renamed file's findings keep the identity they had under its first name; then what earlier
/// rounds, earlier posts and the person owe is carried into this round.
async fn settle_findings(
    prepared: &Prepared,
    board: &mut Board,
    history: tokio::task::JoinHandle<Option<crate::review::fingerprint::EarlierNames>>,
    round: u32,
    coverage: &mut Coverage,
) {
    let names = earlier_names(prepared, history).await;
    crate::review::fingerprint::settle(&mut board.nodes, &names);
    // Earlier decisions follow their fingerprints into this round.
    let previous = prepared.space.state().nodes.clone();
    let mut nodes = carry_over(&previous, std::mem::take(&mut board.nodes));
    // What the previous round owes and no reviewer reported again counts on, its anchor
    // re-checked against this head.
    let owed = carried_forward(prepared, &previous, &nodes, round);
    nodes.extend(owed);
    // What this tool posted on the PR earlier and no record here knows (a new space on another
    // machine): owed the same way, recognised by our account and our marker.
    let posted = posted_findings(prepared, &previous);
    let owed = carried_forward_posted(prepared, &posted, &nodes, round);
    nodes.extend(owed);
    // A person's own findings are the person's decisions: they stay until the person deletes
    // them (no reviewer of the round saw them), their anchors re-checked against this head.
    nodes.extend(carried_persons(prepared, &previous, round));
    // The files' names are stored with the round: redacted with the rest after this.
    coverage.files_reviewed = snapshot::files_reviewed(&prepared.diff);
    coverage.files_skipped = snapshot::files_skipped(&prepared.diff);
    board.nodes = nodes;
}

/// The round's axes from its cohorts; without cohorts, a note and an unavailable apiContract
/// (never a green gate).
fn axes(
    cohorts: &Result<CohortReport, CohortsUnavailable>,
    coverage: &mut Coverage,
) -> Vec<crate::review::axes::Axis> {
    match cohorts {
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
    }
}

/// The verdict, by code, and the round's record: everything the snapshot, and so every
/// report, publish and view, is built from.
fn record_round(
    prepared: &mut Prepared,
    options: &ReviewOptions,
    mut board: Board,
    axes: Vec<crate::review::axes::Axis>,
    coverage: Coverage,
    walkthrough: String,
) -> Result<(), PipelineError> {
    let model_verdict = model_verdict(&board);
    let verdict = derived::verdict(
        &board.nodes,
        derived::Context {
            axes: axes.clone(),
            reviewers: board.reviewer_runs(),
            deterministic_only: options.deterministic_only,
            model_verdict: model_verdict.clone(),
        },
    );

    let finished = now();
    let fingerprints: Vec<String> = board
        .nodes
        .iter()
        .filter(|n| !n.fingerprint.is_empty())
        .map(|n| n.fingerprint.clone())
        .collect();
    let decision = verdict.decision.as_str();
    let reviewers = board.reviewer_runs();
    let reviewer_states: Vec<_> = board.reviewers.values().cloned().collect();
    let nodes = std::mem::take(&mut board.nodes);
    prepared
        .space
        .update(|state| -> Result<(), PipelineError> {
            state.comments = carry_comments(&state.comments, &state.nodes, &nodes);
            state.nodes = nodes;
            state.complete_round(fingerprints, decision, &finished)?;
            if let Some(round) = state.rounds.last_mut() {
                round.reviewers = reviewers;
                round.axes = axes;
                round.deterministic_only = options.deterministic_only;
                round.walkthrough = walkthrough;
                round.coverage = coverage;
                round.level = Some(options.level);
                round.model_verdict = model_verdict;
                round.reviewer_states = reviewer_states;
            }
            state.advance(Ladder::AwaitingApproval)?;
            Ok(())
        })?;
    Ok(())
}

/// The round's context sources: stopped, what their answers carried on the board, and each
/// one's use in the coverage and its row (a required source that failed fails its row, so the
/// review is Inconclusive; any other failure is a note).
async fn settle_sources(
    sources: &crate::reviewers::model::mcp::Sources,
    live: &mut Live<'_>,
    coverage: &mut Coverage,
) {
    sources.stop().await;
    let reports = sources.reports();
    let flagged = sources.take_flagged();
    for node in flagged {
        // Under the source whose answer carried it (its name is in the finding's title).
        let reviewer = reports
            .iter()
            .find(|r| node.text.title.contains(&format!("{}/", r.reviewer)))
            .map_or_else(|| "context sources".to_string(), |r| r.reviewer.clone());
        live.apply(ReviewEvent::new(
            live.run,
            reviewer,
            EventKind::NodeAdded {
                node: Box::new(node),
            },
        ));
    }
    for report in reports {
        let note = report.note();
        coverage.notes.push(note.clone());
        let kind = if report.required && report.failed() {
            EventKind::Failed {
                outcome: Outcome::Failed,
                reason: note,
            }
        } else {
            EventKind::Done { summary: note }
        };
        live.apply(ReviewEvent::new(live.run, report.reviewer, kind));
    }
}

/// The model findings the previous completed round owes this one (see
/// [`crate::review::carry_forward`]), each anchor re-checked: the anchored lines as the
/// previous head had them (read from the mirror), sought in the worktree at this head.
fn carried_forward(
    prepared: &Prepared,
    previous: &[crate::review::node::ReviewNode],
    fresh: &[crate::review::node::ReviewNode],
    round: u32,
) -> Vec<crate::review::node::ReviewNode> {
    use crate::review::carry_forward::{AnchorCheck, Previous, carry_forward};
    let state = prepared.space.state();
    let Some(last) = state
        .rounds
        .iter()
        .rev()
        .find(|r| r.completed && r.number < round)
    else {
        return Vec::new();
    };
    let head = state.head_sha.clone();
    let old_head = last.head_sha.clone();
    let repo = git2::Repository::open_bare(prepared.space.mirror()).ok();
    let check = |node: &crate::review::node::ReviewNode| match &repo {
        Some(repo) => anchor_check(prepared, repo, old_head.as_str(), node),
        None => AnchorCheck::Unchecked,
    };
    carry_forward(
        Previous {
            nodes: previous,
            round: last.number,
        },
        fresh,
        check,
        head.as_str(),
        &now(),
    )
}

/// The person's own findings of `previous`, into `round`: each anchor re-checked against the
/// new head with the lines as the last completed round's head had them (see
/// `carry_forward::carry_person`).
fn carried_persons(
    prepared: &Prepared,
    previous: &[crate::review::node::ReviewNode],
    round: u32,
) -> Vec<crate::review::node::ReviewNode> {
    use crate::review::carry_forward::{AnchorCheck, carry_person};
    let state = prepared.space.state();
    let head = state.head_sha.clone();
    let old_head = state
        .rounds
        .iter()
        .rev()
        .find(|r| r.completed && r.number < round)
        .map(|r| r.head_sha.clone());
    let repo = git2::Repository::open_bare(prepared.space.mirror()).ok();
    let check = |node: &crate::review::node::ReviewNode| match (&repo, &old_head) {
        (Some(repo), Some(old_head)) => anchor_check(prepared, repo, old_head, node),
        _ => AnchorCheck::Unchecked,
    };
    let at = now();
    previous
        .iter()
        .filter(|n| crate::review::person::is_person(n))
        .map(|n| carry_person(n, round, check, &head, &at))
        .collect()
}

/// Our blocking findings posted on the PR earlier (see [`super::own_findings`]) that this
/// space's records do not hold under their fingerprint (those carry, or were decided on by a
/// person, here). A re-report in this round is weighed by `carry_forward`, like any other.
fn posted_findings(
    prepared: &Prepared,
    previous: &[crate::review::node::ReviewNode],
) -> Vec<super::own_findings::Posted> {
    let known: std::collections::HashSet<&str> = previous.iter().flat_map(|n| n.prints()).collect();
    super::own_findings::owed(&prepared.history, prepared.login.as_deref())
        .into_iter()
        .filter(|p| !known.contains(p.node.fingerprint.as_str()))
        .collect()
}

/// [`carried_forward`] for our findings rebuilt from the forge: each anchor re-checked with
/// the lines as the commit its comment was posted on had them.
fn carried_forward_posted(
    prepared: &Prepared,
    posted: &[super::own_findings::Posted],
    fresh: &[crate::review::node::ReviewNode],
    round: u32,
) -> Vec<crate::review::node::ReviewNode> {
    use crate::review::carry_forward::{AnchorCheck, Previous, carry_forward};
    if posted.is_empty() {
        return Vec::new();
    }
    let nodes: Vec<_> = posted.iter().map(|p| p.node.clone()).collect();
    let commit_of = |node: &crate::review::node::ReviewNode| {
        let from = node.carried.as_ref()?;
        posted
            .iter()
            .find(|p| p.node.carried.as_ref().is_some_and(|c| c.id == from.id))
            .map(|p| p.commit.clone())
    };
    let head = prepared.space.state().head_sha.clone();
    let repo = git2::Repository::open_bare(prepared.space.mirror()).ok();
    let check = |node: &crate::review::node::ReviewNode| match (commit_of(node), &repo) {
        (Some(commit), Some(repo)) => anchor_check(prepared, repo, &commit, node),
        _ => AnchorCheck::Unchecked,
    };
    carry_forward(
        Previous {
            nodes: &nodes,
            round: round.saturating_sub(1),
        },
        fresh,
        check,
        head.as_str(),
        &now(),
    )
}

/// Where `node`'s anchored lines, as `old_head` had them, stand in the worktree at this head.
fn anchor_check(
    prepared: &Prepared,
    repo: &git2::Repository,
    old_head: &str,
    node: &crate::review::node::ReviewNode,
) -> crate::review::carry_forward::AnchorCheck {
    use crate::review::carry_forward::{AnchorCheck, recheck};
    let Some(anchor) = &node.anchor else {
        return AnchorCheck::Unchecked;
    };
    // Removed lines live in the base, not in the head: nothing at the head to look for.
    if anchor.side != crate::review::side::Side::Right {
        return AnchorCheck::Unchecked;
    }
    let Some(old) = blob_text(repo, old_head, &anchor.path) else {
        // The old head's text cannot be read: nothing to compare, the finding stays.
        return AnchorCheck::Unchecked;
    };
    let old: Vec<String> = old
        .lines()
        .skip(anchor.start_line.saturating_sub(1) as usize)
        .take((anchor.end_line.saturating_sub(anchor.start_line) + 1) as usize)
        .map(str::to_string)
        .collect();
    let now = crate::reviewers::model::passes::read_worktree_file_lossy(
        prepared.space.worktree(),
        &anchor.path,
    );
    recheck(anchor, &old, now.as_deref())
}

/// The text of `path` at commit `sha` in `repo` (lossy: a byte that is not UTF-8 does not
/// make the file unreadable).
fn blob_text(repo: &git2::Repository, sha: &str, path: &str) -> Option<String> {
    let commit = repo.find_commit(git2::Oid::from_str(sha).ok()?).ok()?;
    let entry = commit
        .tree()
        .ok()?
        .get_path(std::path::Path::new(path))
        .ok()?;
    let blob = entry.to_object(repo).ok()?.peel_to_blob().ok()?;
    Some(String::from_utf8_lossy(blob.content()).into_owned())
}

/// Every text of the round that is stored or shown, redacted with every secret detector.
fn redact_round(
    nodes: &mut [crate::review::node::ReviewNode],
    coverage: &mut Coverage,
    walkthrough: &mut String,
    scanner: &SecretScanner,
) {
    let redact = |text: &mut String| *text = redact::redact_text(text, scanner).0;
    for node in nodes {
        redact::redact_node(node, scanner);
    }
    coverage.notes.iter_mut().for_each(redact);
    // A file's name can hold a secret.
    coverage.files_reviewed.iter_mut().for_each(redact);
    for (path, _) in &mut coverage.files_skipped {
        redact(path);
    }
    for (_, reason) in &mut coverage.dropped {
        redact(reason);
    }
    for refutation in &mut coverage.refuted {
        for text in [
            &mut refutation.title,
            &mut refutation.path,
            &mut refutation.quote,
            &mut refutation.reason,
        ] {
            redact(text);
        }
    }
    redact(walkthrough);
}

/// The passes after the reviewers, in order: peer round, verification, confidence scoring,
/// root cause (thorough only), the lead's walkthrough. Each announces itself and speaks
/// through the board. Returns the walkthrough.
#[allow(clippy::too_many_arguments)]
async fn run_passes(
    prepared: &Prepared,
    live: &mut Live<'_>,
    model_run: &models::ModelRun,
    setup: &ModelSetup,
    cohorts: Option<&CohortReport>,
    cancel: watch::Receiver<bool>,
    level: Level,
    coverage: &mut Coverage,
) -> String {
    let walkthrough = passes_in_order(
        prepared, live, model_run, setup, cohorts, cancel, level, coverage,
    )
    .await;
    live.phase(None);
    walkthrough
}

#[allow(clippy::too_many_arguments)]
async fn passes_in_order(
    prepared: &Prepared,
    live: &mut Live<'_>,
    model_run: &models::ModelRun,
    setup: &ModelSetup,
    cohorts: Option<&CohortReport>,
    cancel: watch::Receiver<bool>,
    level: Level,
    coverage: &mut Coverage,
) -> String {
    let stopped = |cancel: &watch::Receiver<bool>| *cancel.borrow();
    live.phase(Some(Phase::PeerRound));
    let notes = models::peer_round(
        &mut live.board,
        &model_run.agents,
        setup,
        live.run,
        cancel.clone(),
        &now,
        live.tap,
    )
    .await;
    coverage.notes.extend(notes);
    models::fingerprint_model_nodes(
        &mut live.board.nodes,
        prepared.space.worktree(),
        &prepared.diff,
    );
    let kit = &model_run.kit;
    let Some(lead) = setup.roster.lead_provider() else {
        return String::new();
    };

    if !stopped(&cancel) {
        let (kit, notes) = kit.noting();
        let verification = live
            .noting(
                Phase::Verification,
                notes,
                passes::verify::run(&kit, &lead, &live.board.nodes, setup.verify_calls),
            )
            .await;
        for refutation in &verification.refuted {
            let refuted = EventKind::Refuted {
                node_id: refutation.node_id.clone(),
                quote: refutation.quote.clone(),
            };
            if let Applied::Refused(reason) = live.pass(passes::verify::VERIFIER, refuted) {
                coverage.notes.push(reason);
            }
        }
        // These hold the merge: the refutation is the verifier's dispute, a disagreement for a
        // person, and the finding stays counted.
        for contested in &verification.contested {
            let disputed = EventKind::Contested {
                node_id: contested.node_id.clone(),
                note: passes::verify::dispute_note(contested),
            };
            if let Applied::Refused(reason) = live.pass(passes::verify::VERIFIER, disputed) {
                coverage.notes.push(reason);
            }
        }
        if verification.upheld > 0 {
            coverage.notes.push(format!(
                "verification upheld {} model finding(s) against the code",
                verification.upheld
            ));
        }
        coverage.notes.extend(verification.notes);
        coverage.refuted = verification.refuted;
    }

    if !stopped(&cancel) {
        let scorer = |reviewer: &str| models::scorer_for(&setup.roster, reviewer);
        let (kit, notes) = kit.noting();
        let (scored, notes) = live
            .noting(
                Phase::Scoring,
                notes,
                passes::score::run(&kit, &live.board.nodes, &scorer, setup.score_calls),
            )
            .await;
        for score in scored {
            let scored = EventKind::Scored {
                node_id: score.node_id,
                score: score.score,
                reasoning: score.reasoning,
            };
            live.pass(SCORING, scored);
        }
        coverage.notes.extend(notes);
    }

    if !stopped(&cancel) && level == Level::Thorough {
        let engineer = setup
            .roster
            .member(Role::Engineer)
            .or_else(|| setup.roster.members.first());
        if let Some(engineer) = engineer {
            let (kit, notes) = kit.noting();
            let (traced, notes) = live
                .noting(
                    Phase::RootCause,
                    notes,
                    passes::root_cause::run(
                        &kit,
                        &engineer.provider,
                        &engineer.brief,
                        &live.board.nodes,
                        setup.root_cause_calls,
                    ),
                )
                .await;
            for (node_id, cause) in traced {
                live.pass(ROOT_CAUSE, EventKind::Traced { node_id, cause });
            }
            coverage.notes.extend(notes);
        }
    }

    if stopped(&cancel) {
        return String::new();
    }
    let changed: Vec<String> = prepared.diff.files.iter().map(|f| f.path.clone()).collect();
    let cohort_list = cohorts.map(|c| c.cohorts.as_slice()).unwrap_or(&[]);
    let (kit, notes) = kit.noting();
    let walkthrough = live.noting(
        Phase::Lead,
        notes,
        passes::lead::run(
            &kit,
            &lead,
            &prepared.pr.title,
            cohort_list,
            &changed,
            &live.board.nodes,
        ),
    );
    match walkthrough.await {
        Ok(text) => text,
        Err(reason) => {
            coverage
                .notes
                .push(format!("no walkthrough: the lead pass failed ({reason})"));
            String::new()
        }
    }
}

/// The names the scoring and root-cause passes write under.
const SCORING: &str = "scoring";
const ROOT_CAUSE: &str = "root cause";

/// A model's own verdict ("APPROVE"), kept for audit: a reviewer that ended with a JSON object
/// carrying `verdict` instead of findings. `decide` never reads it.
fn model_verdict(board: &Board) -> Option<String> {
    board.reviewers.values().find_map(|r| {
        let value: serde_json::Value = serde_json::from_str(r.note.trim()).ok()?;
        let verdict = value.get("verdict")?.as_str()?;
        Some(format!("{}: {verdict}", r.name))
    })
}

/// Cohorts run on a blocking thread (tree-sitter and git2), started by [`start_cohorts`] and
/// awaited by [`finish_cohorts`]; failure degrades to a note and an unavailable apiContract,
/// never to a green gate.
fn start_cohorts(
    prepared: &mut Prepared,
    api_advisory: &[crate::config::Advisory],
) -> tokio::task::JoinHandle<Result<CohortReport, CohortsUnavailable>> {
    let job = CohortJob::of(prepared, api_advisory);
    tokio::task::spawn_blocking(move || job.run())
}

async fn finish_cohorts(
    job: tokio::task::JoinHandle<Result<CohortReport, CohortsUnavailable>>,
) -> Result<CohortReport, CohortsUnavailable> {
    job.await
        .map_err(|e| CohortsUnavailable::Task(e.to_string()))?
}

/// Why a round has no cohorts (a coverage note and an unavailable apiContract say it).
#[derive(Debug, Error)]
pub enum CohortsUnavailable {
    /// The mirror cannot be opened, or the base and head do not name commits in it.
    #[error("{}", .0.message())]
    Git(#[from] git2::Error),
    #[error(transparent)]
    Build(#[from] cohort::CohortError),
    #[error("{0}")]
    Task(String),
}

/// Everything a cohort build needs from a prepared space, owned so it can move to a blocking
/// thread. The round and the cockpit reopening a space both build through it, so both read
/// the base from the mirror and share the space's cache.
pub struct CohortJob {
    diff: crate::diff::Diff,
    worktree: std::path::PathBuf,
    mirror: std::path::PathBuf,
    cache: std::path::PathBuf,
    head: crate::commit_id::CommitId,
    base: crate::commit_id::CommitId,
    early_index: Option<cohort::EarlyIndex>,
    api_advisory: Vec<crate::config::Advisory>,
    pr: crate::pr::forge::PullRequest,
}

impl CohortJob {
    pub fn of(prepared: &mut Prepared, api_advisory: &[crate::config::Advisory]) -> CohortJob {
        CohortJob {
            diff: prepared.diff.clone(),
            worktree: prepared.space.worktree().to_path_buf(),
            mirror: prepared.space.mirror().to_path_buf(),
            cache: cohort::cache_dir_in(prepared.space.path()),
            head: prepared.space.state().head_sha.clone(),
            base: prepared.space.state().base_sha.clone(),
            early_index: prepared.early_index.take(),
            api_advisory: api_advisory.to_vec(),
            pr: prepared.pr.clone(),
        }
    }

    /// Blocks: parses with tree-sitter and reads git objects.
    pub fn run(self) -> Result<CohortReport, CohortsUnavailable> {
        let repo = git2::Repository::open_bare(&self.mirror)?;
        let oid = |sha: &str| git2::Oid::from_str(sha);
        let base_oid =
            crate::diff::merge_base::merge_base(&repo, oid(&self.base)?, oid(&self.head)?)?;
        let report = crate::session::cohort_build::build_cached(
            CohortInput {
                diff: &self.diff,
                worktree: &self.worktree,
                base: Some((&repo, base_oid)),
                cache_dir: Some(&self.cache),
                head_sha: &self.head,
                api_advisory: &self.api_advisory,
                pr: Some(&self.pr),
            },
            self.early_index,
        );
        // The job's copy of the diff and the repository's caches are freed aside: the round
        // waits for the report, not for them.
        let diff = self.diff;
        let _ = std::thread::Builder::new().spawn(move || drop((diff, repo)));
        Ok(report?)
    }
}

/// Every text of the PR its author or a commenter controls (`intake::pr_texts`), with the
/// reviews this space posted left out.
fn pr_texts(prepared: &Prepared) -> Vec<crate::reviewers::deterministic::injection::PrText> {
    let state = prepared.space.state();
    let own: Vec<u64> = state
        .publishes
        .iter()
        .filter_map(|p| p.review_id.as_deref()?.parse().ok())
        .collect();
    let commits = intake::commits(prepared.space.mirror(), &state.base_sha, &state.head_sha);
    intake::pr_texts(
        &prepared.pr,
        &prepared.history,
        &prepared.diff,
        commits,
        &own,
    )
}
