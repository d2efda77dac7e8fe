//! A session owns one review space for its lifetime. Its clients — the headless flow and the
//! cockpit — never touch the space: they call the session's methods, or send it [`Command`]s
//! and read its [`SessionEvent`]s ([`serve`]). Every write to `state.json` after preparing
//! goes through here, and every report, publish and view reads the [`RoundSnapshot`] it
//! builds from what was written.

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::sync::Arc;

use thiserror::Error;
use tokio::sync::{mpsc, watch};

use crate::cohort::CohortReport;
use crate::diff::Diff;
use crate::pr::forge::PullRequest;
use crate::review::board::ReviewerState;
use crate::review::events::RunId;
use crate::review::level::Level;
use crate::review::node::Actor;
use crate::review::status::{self, Change, StatusError};
use crate::session::command::Command;
use crate::session::fix;
use crate::session::journal;
use crate::session::prepare::Prepared;
use crate::session::prompt;
use crate::session::publisher::Publisher;
use crate::session::round::{self, PipelineError, ReviewOptions, Tap};
use crate::session::snapshot::RoundSnapshot;
use crate::space::journal::{Journal, JournalEntry};
use crate::space::{SpaceState, StoreError};

/// Everything a session needs besides the prepared space.
#[derive(Debug, Clone)]
pub struct SessionSetup {
    pub review: ReviewOptions,
    /// `[fix] command`: where the gate hands findings that carry only a fix prompt.
    pub fix_command: Option<String>,
    /// What the person at the keyboard is called in the space's records.
    pub person: String,
    /// The review room's reviewers; `None` when no model provider is configured.
    pub room: Option<crate::session::ask::RoomSetup>,
}

#[derive(Debug, Error)]
pub enum SessionError {
    #[error("no finding {0} in this round")]
    NoSuchFinding(String),
    #[error(transparent)]
    Status(#[from] StatusError),
    #[error("could not save: {0}")]
    Store(#[from] StoreError),
    #[error(transparent)]
    Draft(crate::review::person::DraftError),
    #[error("{0} is not your own finding: only a person's own findings are edited or deleted")]
    NotPersons(String),
    #[error(
        "no model provider is configured to answer: set {}",
        crate::reviewers::model::roster::PROVIDER_ENV_VARS
    )]
    NoModel,
    #[error("no {0} reviewer is configured to answer")]
    NoReviewer(crate::review::level::Role),
    #[error("the question is empty")]
    EmptyQuestion,
    #[error("no question {0} in this space")]
    NoSuchThread(String),
    #[error("the answer in {0} proposes nothing")]
    NoProposal(String),
    #[error("the review room could not be opened: {0}")]
    Room(String),
    #[error("the review is still running: {0} when it is done")]
    Running(&'static str),
    #[error("no review thread {0} on this pull request")]
    NoSuchReviewThread(String),
}

/// What a session tells its client. `Pv` and `Pd` are its publisher's preview and record of
/// what was posted ([`Publisher::Preview`], [`Publisher::Published`]).
#[derive(Debug, Clone)]
pub enum SessionEvent<Pv, Pd> {
    /// A round started: its reviewers, queued.
    RoundStarted {
        run: RunId,
        round: u32,
        reviewers: Vec<ReviewerState>,
        /// The round runs no model reviewer, as asked: their skips do not make it inconclusive.
        deterministic_only: bool,
    },
    /// A reviewer's or a pass's event, in the order the board applied it.
    Board(crate::review::events::ReviewEvent),
    /// The pre-run estimate of what the model reviewers will read.
    Estimate(String),
    /// The pass the run is in after the reviewers; `None` when the passes are over.
    Phase(Option<round::Phase>),
    /// What the running pass says: its progress, a retry, a wait for a slow server.
    Pass(round::Phase, crate::reviewers::model::passes::PassNote),
    /// The round as recorded, with every decision made meanwhile.
    RoundDone(Box<RoundSnapshot>),
    /// The cohorts of the round (built by the run, or read from the space's cache).
    Cohorts(Box<CohortReport>),
    Preview(Box<Pv>),
    Published {
        published: Box<Pd>,
        snapshot: Box<RoundSnapshot>,
    },
    /// Something worth a line on the screen (the round still running, a fix command's work).
    Notice(String),
    /// The person's drafts on the PR's review threads as the space holds them (after a
    /// publish posted some).
    ThreadDrafts(Vec<crate::space::thread_draft::ThreadDraft>),
    /// The PR's review threads read again (a publish posted replies or resolutions on them).
    ReviewThreads(Vec<crate::pr::threads::ReviewThread>),
    /// The gate wrote a patch: the cockpit announces it and can show it.
    PatchWritten(Box<fix::WrittenPatch>),
    /// The prompt for the coding agent (redacted), written to `path`, with how many findings
    /// it holds.
    HandedBack {
        text: String,
        path: PathBuf,
        findings: usize,
    },
    /// The uncommitted work under review changed: the space moved to its new snapshot, whose
    /// PR and diff these are; a new round follows.
    Moved {
        pr: Box<PullRequest>,
        diff: Arc<Diff>,
    },
    /// A thread of the review room as it stands now: asked, a piece of its answer, a
    /// proposal, its end.
    Thread(Box<crate::review::thread::Thread>),
    /// Something the session could not do.
    Failed {
        title: String,
        message: String,
    },
}

/// How a running round is stopped: all of it (its reviewers and passes), or single model
/// reviewers by name.
#[derive(Debug, Clone)]
pub struct RunStops {
    pub all: watch::Receiver<bool>,
    pub reviewers: watch::Receiver<BTreeSet<String>>,
}

/// What a client shows before anything runs: the PR, the space's record and the diff.
#[derive(Debug, Clone)]
pub struct Opening {
    /// `OWNER/REPO`, or the local range's key.
    pub repo: String,
    pub pr: PullRequest,
    pub state: SpaceState,
    pub snapshot: RoundSnapshot,
    pub diff: Arc<Diff>,
    /// The reviewed checkout, read for the code shown beside a finding.
    pub worktree: PathBuf,
    /// The review space's folder (private to the person: the editor's file goes there).
    pub space: PathBuf,
    /// The patch the gate wrote for this round earlier, if any.
    pub patch: Option<fix::WrittenPatch>,
    /// "offline: showing round N as of <time>; not refreshed" when GitHub could not be
    /// reached: the client shows it for as long as the session lives.
    pub offline: Option<String>,
    /// The review threads people hold on the PR (empty when unread, and for a local range).
    pub review_threads: Vec<crate::pr::threads::ReviewThread>,
    /// No model reviewer is configured and the run did not ask for `--deterministic-only`: a
    /// round this session runs can only be Inconclusive (see `no_model`).
    pub no_model: bool,
}

/// The events a session publishing through `P` sends.
pub type EventOf<P> = SessionEvent<<P as Publisher>::Preview, <P as Publisher>::Published>;

pub struct Session<P: Publisher> {
    pub(super) prepared: Prepared,
    pub(super) setup: SessionSetup,
    publisher: P,
    /// What the person is looking at in the gate: publishing posts exactly this or nothing.
    pub(super) preview: Option<P::Preview>,
    cohorts: Option<CohortReport>,
    /// The review room's tools and redactor, built for the first question.
    pub(super) room_kit: Option<crate::reviewers::model::passes::Kit>,
}

impl<P: Publisher> Session<P> {
    pub fn new(prepared: Prepared, setup: SessionSetup, publisher: P) -> Session<P> {
        Session {
            prepared,
            setup,
            publisher,
            preview: None,
            cohorts: None,
            room_kit: None,
        }
    }

    /// Where this space journals decisions made while a round runs.
    pub fn journal(&self) -> Journal {
        Journal::of_space(self.prepared.space.path())
    }

    /// The prepared space, for the headless reports of what was prepared.
    pub fn prepared(&self) -> &Prepared {
        &self.prepared
    }

    pub fn state(&self) -> &SpaceState {
        self.prepared.space.state()
    }

    pub fn opening(&self) -> Opening {
        let repo = match &self.prepared.reference {
            crate::pr::reference::PrRef::Hosted(pr) => format!("{}/{}", pr.owner, pr.repo),
            // The refs as the person typed them (`repo#v1.38.0..v1.40.0`), not the commits the
            // space is keyed by (a tag or a moving branch is keyed by its commit).
            typed @ crate::pr::reference::PrRef::Local {
                base: Some(_),
                head: Some(_),
                uncommitted: None,
                ..
            } => typed.to_string(),
            crate::pr::reference::PrRef::Local { .. } => self.state().pr.key.to_string(),
        };
        Opening {
            repo,
            pr: self.prepared.pr.clone(),
            state: self.state().clone(),
            snapshot: self.snapshot(),
            diff: Arc::new(self.prepared.diff.clone()),
            worktree: self.prepared.space.worktree().to_path_buf(),
            space: self.prepared.space.path().to_path_buf(),
            patch: fix::last_patch(&self.prepared),
            offline: self.prepared.offline.as_ref().map(|o| o.banner()),
            review_threads: self.prepared.threads.threads.clone(),
            no_model: self.setup.review.models.is_none() && !self.setup.review.deterministic_only,
        }
    }

    /// The current round as recorded, every decision included.
    pub fn snapshot(&self) -> RoundSnapshot {
        let mut snapshot = RoundSnapshot::of(
            self.prepared.space.state(),
            self.setup.review.level,
            &self.prepared.diff,
        );
        snapshot.cohorts = self.cohorts.clone();
        snapshot
    }

    /// Runs a round; `tap` sees it live. Stopped, whole or one reviewer at a time, through
    /// `stops`.
    pub async fn run_round(
        &mut self,
        tap: Option<mpsc::UnboundedSender<Tap>>,
        stops: Option<RunStops>,
    ) -> Result<RoundSnapshot, PipelineError> {
        let mut options = self.setup.review.clone();
        options.tap = tap;
        if let (Some(models), Some(stops)) = (options.models.as_mut(), stops) {
            models.cancel = Some(stops.all);
            models.stop_reviewers = Some(stops.reviewers);
        }
        self.preview = None;
        let snapshot = round::review(&mut self.prepared, &options).await?;
        self.cohorts = snapshot.cohorts.clone();
        Ok(snapshot)
    }

    /// The cohorts of a reopened space, from the space's cache (built again if it is gone).
    pub async fn cohorts(&mut self) -> Option<CohortReport> {
        if self.cohorts.is_none() {
            let job = round::CohortJob::of(&mut self.prepared, &self.setup.review.api_advisory);
            self.cohorts = tokio::task::spawn_blocking(move || job.run().ok())
                .await
                .ok()
                .flatten();
        }
        self.cohorts.clone()
    }

    /// A person's decision, through the status service, written at once.
    pub fn apply(&mut self, node_id: &str, change: Change) -> Result<(), SessionError> {
        let actor = Actor::Person(self.setup.person.clone());
        let at = now();
        self.prepared
            .space
            .update(|state| -> Result<(), SessionError> {
                let node = state
                    .nodes
                    .iter_mut()
                    .find(|n| n.id == node_id)
                    .ok_or_else(|| SessionError::NoSuchFinding(node_id.to_string()))?;
                let applied = status::apply(node, change, &actor, &at)?;
                state.suppression_hints.extend(applied.suppression);
                Ok(())
            })?;
        self.preview = None;
        Ok(())
    }

    /// The person's text for a finding's comment; `None` or blank goes back to the generated.
    pub fn edit_comment(
        &mut self,
        node_id: &str,
        text: Option<String>,
    ) -> Result<(), SessionError> {
        self.prepared
            .space
            .update(|state| -> Result<(), SessionError> {
                if !state.nodes.iter().any(|n| n.id == node_id) {
                    return Err(SessionError::NoSuchFinding(node_id.to_string()));
                }
                match text.filter(|t| !t.trim().is_empty()) {
                    Some(text) => {
                        state.comments.insert(node_id.to_string(), text);
                    }
                    None => {
                        state.comments.remove(node_id);
                    }
                }
                Ok(())
            })?;
        self.preview = None;
        Ok(())
    }

    /// The level the round is read at, kept with the round.
    pub fn set_level(&mut self, level: Level) -> Result<(), SessionError> {
        self.setup.review.level = level;
        self.prepared
            .space
            .update(|state| -> Result<(), SessionError> {
                if let Some(round) = state.rounds.last_mut() {
                    round.level = Some(level);
                }
                Ok(())
            })?;
        Ok(())
    }

    /// What publishing the current round would post, read fresh from the destination. Kept:
    /// [`Session::publish`] posts exactly this or nothing.
    pub async fn preview(&mut self) -> Result<P::Preview, P::Error> {
        self.preview = None;
        let snapshot = self.snapshot();
        let preview = self.publisher.preview(&self.prepared, &snapshot).await?;
        self.preview = Some(preview.clone());
        Ok(preview)
    }

    /// Publishes the last preview. The ladder reaches `completed`.
    pub async fn publish(&mut self) -> Result<P::Published, P::Error> {
        let confirmed = self.preview.take();
        let snapshot = self.snapshot();
        let published = self
            .publisher
            .publish(&mut self.prepared, &snapshot, confirmed)
            .await?;
        // What was posted (`posted`: its decision and triage digest) is in the publish record,
        // written with it, so a later change of the triage is seen.
        Ok(published)
    }

    /// Posts the person's thread drafts not posted yet (after the round's review); a line for
    /// each posted.
    pub async fn post_thread_drafts(&mut self) -> Result<Vec<String>, P::Error> {
        self.publisher.post_thread_drafts(&mut self.prepared).await
    }

    /// The summary `--format markdown` prints without publishing.
    pub fn offline_body(&self) -> String {
        let snapshot = self.snapshot();
        let body = self.publisher.offline_body(&self.prepared, &snapshot);
        match &self.prepared.offline {
            // Before the summary's own alert: this is the stored round, not a fresh review.
            Some(offline) => format!(
                "> [!CAUTION]\n> {} ({} could not be reached)\n\n{body}",
                offline.banner(),
                offline.forge
            ),
            None => body,
        }
    }

    /// The gate's fix: a patch from exact replacement lines, written now; or, when the chosen
    /// findings carry only fix prompts and a fix command is configured, the command's work to
    /// run off the session (it may take minutes).
    pub fn fix(&self, node_ids: &[String]) -> Fix {
        if let Some(command) = &self.setup.fix_command
            && fix::prompts_only(&self.prepared, node_ids)
        {
            return match fix::FixJobs::collect(&self.prepared, node_ids) {
                Ok(jobs) => Fix::Command {
                    command: command.clone(),
                    jobs,
                },
                Err(message) => Fix::Done(Err(message)),
            };
        }
        Fix::Done(fix::write_patch(&self.prepared, node_ids))
    }
}

impl<P: Publisher> Session<P> {
    /// What the review is of, as a prompt names it: `main..feature (worktree)`, `OWNER/REPO#12`.
    pub fn change_name(&self) -> String {
        match &self.prepared.reference {
            crate::pr::reference::PrRef::Hosted(pr) => pr.to_string(),
            // The refs as the person typed them (`v1.38.0..v1.40.0`), not the commits the
            // space is keyed by (a tag or a moving branch is keyed by its commit).
            crate::pr::reference::PrRef::Local {
                base: Some(base),
                head: Some(head),
                uncommitted: None,
                ..
            } => format!("{base}..{head}"),
            crate::pr::reference::PrRef::Local { .. } => self.state().pr.key.display_number(),
        }
    }

    /// What `--watch` looks at: the checkout of a review of uncommitted work; `None` for a
    /// review of commits (nothing there to watch) or a space opened offline.
    pub fn watcher(&self) -> Option<crate::session::watch::Watcher> {
        match &self.prepared.reference {
            crate::pr::reference::PrRef::Local {
                path,
                uncommitted: Some(_),
                ..
            } if self.prepared.offline.is_none() => Some(crate::session::watch::Watcher {
                checkout: path.clone(),
                exclude: vec![self.prepared.data_root.clone()],
            }),
            _ => None,
        }
    }

    /// The kept findings of the current round as one prompt for a coding agent, redacted.
    pub fn prompt(&self) -> String {
        let snapshot = self.snapshot();
        prompt::prompt(&prompt::PromptInput {
            change: &self.change_name(),
            snapshot: &snapshot,
            diff: &self.prepared.diff,
            worktree: self.prepared.space.worktree(),
        })
    }

    /// The prompt, written into the space (`prompt.md`) for the person and their agent; the
    /// fix command's work when one is configured.
    pub fn hand_back(&self) -> Result<HandedBack, fix::FixError> {
        let text = self.prompt();
        let path = self.prepared.space.path().join(prompt::PROMPT_FILE);
        crate::space::write_atomically(&path, text.as_bytes()).map_err(|source| {
            fix::FixError::Write {
                path: path.clone(),
                source,
            }
        })?;
        let findings = prompt::kept(&self.snapshot()).len();
        let command = self.setup.fix_command.clone().map(|command| {
            let jobs = fix::FixJobs {
                worktree: self.prepared.space.worktree().to_path_buf(),
                dir: self.prepared.space.path().join("fixes"),
                jobs: vec![("prompt".to_string(), text.clone())],
            };
            (command, jobs)
        });
        Ok(HandedBack {
            text,
            path,
            findings,
            command,
        })
    }

    /// A review of uncommitted work, snapshotted again: `true` when the work changed and the
    /// space moved to it (a new round waits to be run there).
    pub async fn refresh(&mut self) -> Result<bool, crate::session::prepare::PrepareError> {
        let moved = crate::session::prepare::refresh(&mut self.prepared).await?;
        if moved {
            self.preview = None;
            self.cohorts = None;
        }
        Ok(moved)
    }
}

/// The prompt the gate handed back, where it was written, and the fix command's run of it.
pub struct HandedBack {
    pub text: String,
    pub path: PathBuf,
    pub findings: usize,
    pub command: Option<(String, fix::FixJobs)>,
}

/// The gate's fix, as [`Session::fix`] decided it.
pub enum Fix {
    Done(Result<fix::WrittenPatch, fix::FixError>),
    Command { command: String, jobs: fix::FixJobs },
}

/// What the person at the keyboard is called in the space's records.
/// `REVIEW_TUI_PERSON`, else git's `user.name`, else the login (`USER`).
pub fn person_name() -> String {
    let git_name = || {
        git2::Config::open_default()
            .and_then(|config| config.get_string("user.name"))
            .ok()
            .map(|name| name.trim().to_string())
            .filter(|name| !name.is_empty())
    };
    std::env::var("REVIEW_TUI_PERSON")
        .ok()
        .filter(|name| !name.trim().is_empty())
        .or_else(git_name)
        .or_else(|| std::env::var("USER").ok())
        .unwrap_or_else(|| "you".into())
}

pub(super) fn now() -> String {
    humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string()
}

/// Serves `commands` until the client hangs up, telling it what happened on `events`.
/// While a round runs, triage decisions wait and are applied to its result, in order.
pub async fn serve<P: Publisher>(
    session: Session<P>,
    commands: mpsc::UnboundedReceiver<Command>,
    events: mpsc::UnboundedSender<EventOf<P>>,
) {
    let mut serving = Serving::start(session, commands, events).await;
    // A command the loop gives itself: the round after a refresh, the refresh a running
    // round held back.
    let mut next: Option<Command> = None;
    loop {
        let command = match next.take() {
            Some(command) => command,
            None => tokio::select! {
                command = serving.commands.recv() => match command {
                    Some(command) => command,
                    None => break,
                },
                Some(update) = serving.room.updates.recv() => {
                    serving.record_answer(update);
                    continue;
                }
            },
        };
        next = serving.command(command).await;
    }
}

/// Tells the client `event`, through the one redaction point.
fn tell<Pv, Pd>(events: &mpsc::UnboundedSender<SessionEvent<Pv, Pd>>, event: SessionEvent<Pv, Pd>) {
    let _ = events.send(redacted(event));
}

/// A session being served, between its commands.
struct Serving<P: Publisher> {
    session: Session<P>,
    commands: mpsc::UnboundedReceiver<Command>,
    events: mpsc::UnboundedSender<EventOf<P>>,
    room: Room,
    /// Where decisions made while a round holds the space are journaled.
    decisions: Journal,
    /// Journaled decisions waiting for a round's result.
    replay: Vec<JournalEntry>,
}

impl<P: Publisher> Serving<P> {
    /// The session as an earlier process left it: its journaled decisions and threads settled.
    async fn start(
        mut session: Session<P>,
        commands: mpsc::UnboundedReceiver<Command>,
        events: mpsc::UnboundedSender<EventOf<P>>,
    ) -> Serving<P> {
        // Decisions journaled by an earlier process that died before they reached state.json:
        // onto a completed round they go now; a round the kill interrupted is run again by the
        // client, and they go onto its result.
        let decisions = session.journal();
        let mut replay: Vec<JournalEntry> = match decisions.read::<JournalEntry>() {
            Ok((entries, _torn)) => entries,
            Err(err) => {
                tell(
                    &events,
                    SessionEvent::Failed {
                        title: "Could not read the decision journal".into(),
                        message: format!("{}: {err}", decisions.path().display()),
                    },
                );
                Vec::new()
            }
        };
        // Answers an earlier process was still receiving are marked interrupted; threads it
        // journaled during a round are recorded.
        if let Err(err) = session.settle_threads() {
            tell(
                &events,
                SessionEvent::Failed {
                    title: "Could not save".into(),
                    message: err.to_string(),
                },
            );
        }
        let interrupted = session
            .state()
            .current_round()
            .is_some_and(|round| !round.completed);
        if !replay.is_empty() && !interrupted {
            replay_journal(&mut session, std::mem::take(&mut replay), &events).await;
            let _ = decisions.clear();
            tell(
                &events,
                SessionEvent::RoundDone(Box::new(session.snapshot())),
            );
        }
        Serving {
            session,
            commands,
            events,
            room: Room::default(),
            decisions,
            replay,
        }
    }

    fn send(&self, event: EventOf<P>) {
        tell(&self.events, event);
    }

    /// An answer as it arrives while no round runs: recorded, and shown.
    fn record_answer(&mut self, update: crate::session::ask::ThreadUpdate) {
        if let Some(thread) = self.room.apply(update) {
            if let Err(err) = self.session.record_thread(thread.clone()) {
                self.send(SessionEvent::Failed {
                    title: "Could not save".into(),
                    message: err.to_string(),
                });
            }
            self.send(SessionEvent::Thread(Box::new(thread)));
        }
    }

    /// One command while no round runs; the command it leads to.
    async fn command(&mut self, command: Command) -> Option<Command> {
        match command {
            Command::Refresh => return self.refresh().await,
            Command::RunRound => return self.run_round().await,
            Command::Ask(ask) => self.ask(ask).await,
            Command::CancelAsk { thread } => self.room.cancel(&thread),
            command => handle(&mut self.session, command, &self.events).await,
        }
        None
    }

    /// The uncommitted work snapshotted again; when it moved, the client is told and a round
    /// follows.
    async fn refresh(&mut self) -> Option<Command> {
        match self.session.refresh().await {
            Ok(true) => {
                self.send(SessionEvent::Moved {
                    pr: Box::new(self.session.prepared().pr.clone()),
                    diff: Arc::new(self.session.prepared().diff.clone()),
                });
                return Some(Command::RunRound);
            }
            Ok(false) => {}
            Err(err) => self.send(SessionEvent::Failed {
                title: "Could not snapshot the uncommitted work".into(),
                message: err.to_string(),
            }),
        }
        None
    }

    /// A question to the review room, asked now.
    async fn ask(&mut self, ask: crate::session::command::Ask) {
        match self.session.start_ask(ask).await {
            Ok((thread, job)) => {
                self.send(SessionEvent::Thread(Box::new(thread.clone())));
                self.room.start(thread, job);
            }
            Err(err) => self.send(SessionEvent::Failed {
                title: "Could not ask".into(),
                message: err.to_string(),
            }),
        }
    }

    /// Runs a round, taking the commands that arrive meanwhile ([`Running`]); then the
    /// decisions and questions that waited. The refresh it held back, if any.
    async fn run_round(&mut self) -> Option<Command> {
        let (stop, cancel) = watch::channel(false);
        let (stop_one, stopped_ones) = watch::channel(BTreeSet::new());
        let (tap, taps) = mpsc::unbounded_channel();
        let relay = tokio::spawn(relay(taps, self.events.clone()));
        let mut running = Running {
            stop,
            stop_one,
            waiting: Vec::new(),
            questions: Vec::new(),
            refresh_after: false,
            person: self.session.setup.person.clone(),
            space_dir: self.session.prepared.space.path().to_path_buf(),
            before: self.session.state().clone(),
        };
        let result = {
            let stops = RunStops {
                all: cancel,
                reviewers: stopped_ones,
            };
            let run = self.session.run_round(Some(tap), Some(stops));
            tokio::pin!(run);
            loop {
                tokio::select! {
                    result = &mut run => break result,
                    Some(update) = self.room.updates.recv() => {
                        running.journal_answer(&mut self.room, update, &self.events);
                    }
                    Some(command) = self.commands.recv() => {
                        running.command(command, &mut self.room, &self.decisions, &self.events);
                    }
                }
            }
        };
        // Everything the run streamed reaches the client before its result: a late
        // reviewer event would put a fresh node back over the person's decision.
        let _ = relay.await;
        // Threads journaled meanwhile join state.json now that the round let it go.
        if let Err(err) = self.session.settle_threads() {
            self.send(SessionEvent::Failed {
                title: "Could not save".into(),
                message: err.to_string(),
            });
        }
        self.room.reopen_running(&mut self.session);
        self.round_done(result, running.waiting).await;
        // The questions that waited, asked now that the space is free.
        for (_, ask) in running.questions {
            self.ask(ask).await;
        }
        running.refresh_after.then_some(Command::Refresh)
    }

    /// The round's end: the decisions that waited applied to its result, the client told.
    async fn round_done(
        &mut self,
        result: Result<RoundSnapshot, PipelineError>,
        waiting: Vec<JournalEntry>,
    ) {
        // A failed round's decisions stay journaled for the next round's result.
        self.replay.extend(waiting);
        match result {
            Ok(snapshot) => {
                let replay = std::mem::take(&mut self.replay);
                replay_journal(&mut self.session, replay, &self.events).await;
                if let Err(err) = self.decisions.clear() {
                    self.send(SessionEvent::Failed {
                        title: "Could not clear the decision journal".into(),
                        message: format!("{}: {err}", self.decisions.path().display()),
                    });
                }
                if let Some(cohorts) = snapshot.cohorts.clone() {
                    self.send(SessionEvent::Cohorts(Box::new(cohorts)));
                }
                self.send(SessionEvent::RoundDone(Box::new(self.session.snapshot())));
            }
            Err(err) => self.send(SessionEvent::Failed {
                title: "The review failed".into(),
                message: err.to_string(),
            }),
        }
    }
}

/// A round that runs, and what waits for its end: the round owns state.json until then.
struct Running {
    stop: watch::Sender<bool>,
    stop_one: watch::Sender<BTreeSet<String>>,
    /// Decisions made meanwhile, journaled: applied to the round's result.
    waiting: Vec<JournalEntry>,
    /// Questions asked meanwhile: asked when the round ends.
    questions: Vec<(crate::review::thread::Thread, crate::session::command::Ask)>,
    /// A refresh asked for meanwhile: the running round finishes first, the work is looked at
    /// again after it.
    refresh_after: bool,
    person: String,
    space_dir: PathBuf,
    /// The findings as they stood when the round began: what a decision made meanwhile is
    /// journaled against.
    before: SpaceState,
}

impl Running {
    /// An answer asked before the round goes on: journaled, as the round owns state.json
    /// until it ends.
    fn journal_answer<Pv, Pd>(
        &self,
        room: &mut Room,
        update: crate::session::ask::ThreadUpdate,
        events: &mpsc::UnboundedSender<SessionEvent<Pv, Pd>>,
    ) {
        if let Some(thread) = room.apply(update) {
            self.journal_thread(&thread, events);
            tell(events, SessionEvent::Thread(Box::new(thread)));
        }
    }

    /// A thread as it stands, journaled: the round owns state.json until it ends.
    fn journal_thread<Pv, Pd>(
        &self,
        thread: &crate::review::thread::Thread,
        events: &mpsc::UnboundedSender<SessionEvent<Pv, Pd>>,
    ) {
        let journal = crate::session::ask::thread_journal(&self.space_dir);
        if let Err(err) = journal.append(thread) {
            tell(
                events,
                SessionEvent::Failed {
                    title: "Could not save".into(),
                    message: format!("{}: {err}", journal.path().display()),
                },
            );
        }
    }

    /// A command that arrives while the round runs: stops act now, decisions and questions
    /// wait for its end, the rest is refused with a notice.
    fn command<Pv, Pd>(
        &mut self,
        command: Command,
        room: &mut Room,
        decisions: &Journal,
        events: &mpsc::UnboundedSender<SessionEvent<Pv, Pd>>,
    ) {
        match command {
            Command::Cancel => {
                let _ = self.stop.send(true);
            }
            Command::CancelAsk { thread } => self.cancel_ask(&thread, room, events),
            Command::Ask(ask) => self.queue_ask(ask, events),
            Command::PutThreadDraft(_)
            | Command::DeleteThreadDraft { .. }
            | Command::IncludeRaised { .. }
            | Command::OverrideAxis { .. } => {
                tell(
                    events,
                    SessionEvent::Notice(
                        "the review is still running: draft on a thread when it is done".into(),
                    ),
                );
            }
            Command::StopReviewer(name) => {
                self.stop_one.send_modify(|names| {
                    names.insert(name);
                });
            }
            Command::Apply { .. }
            | Command::EditComment { .. }
            | Command::SetLevel(_)
            | Command::PutFinding { .. }
            | Command::DeleteFinding { .. }
            | Command::Reclassify { .. }
            | Command::Proposal { .. } => self.journal_decision(&command, decisions, events),
            Command::RunRound | Command::Cohorts => {}
            Command::Refresh => self.refresh_after = true,
            Command::Preview
            | Command::Publish
            | Command::WritePatch { .. }
            | Command::HandBack => {
                tell(
                    events,
                    SessionEvent::Notice(
                        "the review is still running: try again when it is done".into(),
                    ),
                );
            }
        }
    }

    /// A question waiting for the round's end is dropped (and recorded cancelled); one
    /// being answered is stopped.
    fn cancel_ask<Pv, Pd>(
        &mut self,
        thread: &str,
        room: &mut Room,
        events: &mpsc::UnboundedSender<SessionEvent<Pv, Pd>>,
    ) {
        if let Some(i) = self.questions.iter().position(|(t, _)| t.id == thread) {
            let (mut thread, _) = self.questions.remove(i);
            thread.state = crate::review::thread::ThreadState::Cancelled;
            let _ = crate::session::ask::thread_journal(&self.space_dir).append(&thread);
            tell(events, SessionEvent::Thread(Box::new(thread)));
        } else {
            room.cancel(thread);
        }
    }

    /// A question asked while the round runs: its thread shown and journaled now, asked when
    /// the round ends.
    fn queue_ask<Pv, Pd>(
        &mut self,
        ask: crate::session::command::Ask,
        events: &mpsc::UnboundedSender<SessionEvent<Pv, Pd>>,
    ) {
        let waiting: Vec<_> = self.questions.iter().map(|(t, _)| t.clone()).collect();
        let Some(thread) =
            crate::session::ask::queued(&self.before, &waiting, &self.person, &ask, &now())
        else {
            return;
        };
        // Kept before anything else: a kill before the round ends leaves the question, to
        // ask again.
        let mut kept = thread.clone();
        kept.state = crate::review::thread::ThreadState::Interrupted;
        self.journal_thread(&kept, events);
        tell(events, SessionEvent::Thread(Box::new(thread.clone())));
        tell(
            events,
            SessionEvent::Notice(format!(
                "the {} answers when the review round ends",
                thread.reviewer
            )),
        );
        self.questions.push((
            thread.clone(),
            crate::session::command::Ask {
                thread: Some(thread.id),
                ..ask
            },
        ));
    }

    /// A triage decision made while the round runs: on disk before anything else (the round
    /// owns state.json until it ends, and a kill meanwhile must not lose it), applied to the
    /// round's result.
    fn journal_decision<Pv, Pd>(
        &mut self,
        command: &Command,
        decisions: &Journal,
        events: &mpsc::UnboundedSender<SessionEvent<Pv, Pd>>,
    ) {
        if let Some(entry) = journal::entry_of(command, &self.before, &now()) {
            if let Err(err) = decisions.append(&entry) {
                tell(
                    events,
                    SessionEvent::Failed {
                        title: "Could not save".into(),
                        message: format!("{}: {err}", decisions.path().display()),
                    },
                );
            }
            self.waiting.push(entry);
        }
    }
}

/// The answers being received: each thread as it stands, and how to stop it.
struct Room {
    updates: mpsc::UnboundedReceiver<crate::session::ask::ThreadUpdate>,
    sender: mpsc::UnboundedSender<crate::session::ask::ThreadUpdate>,
    running:
        std::collections::HashMap<String, (crate::review::thread::Thread, watch::Sender<bool>)>,
}

impl Default for Room {
    fn default() -> Room {
        let (sender, updates) = mpsc::unbounded_channel();
        Room {
            updates,
            sender,
            running: Default::default(),
        }
    }
}

impl Room {
    fn start(&mut self, thread: crate::review::thread::Thread, job: crate::session::ask::AskJob) {
        let (stop, stopped) = watch::channel(false);
        self.running.insert(thread.id.clone(), (thread, stop));
        tokio::spawn(job.run(self.sender.clone(), stopped));
    }

    fn cancel(&mut self, thread: &str) {
        if let Some((_, stop)) = self.running.get(thread) {
            let _ = stop.send(true);
        }
    }

    /// The thread `update` is about, updated; `None` for a thread no longer running.
    fn apply(
        &mut self,
        update: crate::session::ask::ThreadUpdate,
    ) -> Option<crate::review::thread::Thread> {
        let ended = matches!(update.event, crate::session::ask::ThreadEvent::Ended(_));
        let (thread, _) = self.running.get_mut(&update.thread)?;
        crate::session::ask::apply_update(thread, update.event, &now());
        let thread = thread.clone();
        if ended {
            self.running.remove(&update.thread);
        }
        Some(thread)
    }

    /// After a round, a settled journal marked the answers still running as interrupted: they
    /// are not, so they are recorded as they stand.
    fn reopen_running<P: Publisher>(&self, session: &mut Session<P>) {
        for (thread, _) in self.running.values() {
            let _ = session.record_thread(thread.clone());
        }
    }
}

/// Applies journaled decisions, in the order they were made, to the round as it stands.
async fn replay_journal<P: Publisher>(
    session: &mut Session<P>,
    entries: Vec<JournalEntry>,
    events: &mpsc::UnboundedSender<EventOf<P>>,
) {
    for entry in entries {
        if let Some(command) = journal::command_of(entry, session.state()) {
            handle(session, command, events).await;
        }
    }
}

/// The run's live view, passed on as session events.
async fn relay<Pv, Pd>(
    mut taps: mpsc::UnboundedReceiver<Tap>,
    events: mpsc::UnboundedSender<SessionEvent<Pv, Pd>>,
) {
    while let Some(tap) = taps.recv().await {
        let event = match tap {
            Tap::Started {
                run,
                round,
                reviewers,
                deterministic_only,
            } => SessionEvent::RoundStarted {
                run,
                round,
                reviewers,
                deterministic_only,
            },
            Tap::Event(event) => SessionEvent::Board(event),
            Tap::Estimate(estimate) => SessionEvent::Estimate(estimate),
            Tap::Phase(phase) => SessionEvent::Phase(phase),
            Tap::Pass(phase, note) => SessionEvent::Pass(phase, note),
        };
        if events.send(event).is_err() {
            break;
        }
    }
}

/// What the session says in words (a failure's message can quote a server's answer or a
/// command's output; a notice, a fix command's) passes the one redaction point before any
/// client shows or logs it. Everything else it sends is built from the redacted board.
fn redacted<Pv, Pd>(event: SessionEvent<Pv, Pd>) -> SessionEvent<Pv, Pd> {
    match event {
        SessionEvent::Failed { title, message } => SessionEvent::Failed {
            title,
            message: crate::reviewers::redact::outbound(&message),
        },
        SessionEvent::Notice(text) => {
            SessionEvent::Notice(crate::reviewers::redact::outbound(&text))
        }
        // The fix command's answers are its output, which may quote what it read: shown
        // through the one redaction point like any message.
        SessionEvent::PatchWritten(written) if written.answers => {
            SessionEvent::PatchWritten(Box::new(crate::session::fix::WrittenPatch {
                text: crate::reviewers::redact::outbound(&written.text),
                summary: crate::reviewers::redact::outbound(&written.summary),
                ..*written
            }))
        }
        other => other,
    }
}

async fn handle<P: Publisher>(
    session: &mut Session<P>,
    command: Command,
    events: &mpsc::UnboundedSender<EventOf<P>>,
) {
    let send = |event: EventOf<P>| {
        let _ = events.send(redacted(event));
    };
    let failed = |title: &str, message: String| SessionEvent::Failed {
        title: title.into(),
        message,
    };
    match command {
        Command::Apply { node_id, change } => {
            if let Err(err) = session.apply(&node_id, change) {
                send(failed("Could not save", err.to_string()));
            }
        }
        Command::EditComment { node_id, text } => {
            if let Err(err) = session.edit_comment(&node_id, text) {
                send(failed("Could not save", err.to_string()));
            }
        }
        Command::SetLevel(level) => {
            if let Err(err) = session.set_level(level) {
                send(failed("Could not save", err.to_string()));
            }
        }
        Command::Preview => match session.preview().await {
            Ok(preview) => send(SessionEvent::Preview(Box::new(preview))),
            Err(err) => send(failed("Nothing to publish", err.to_string())),
        },
        Command::Publish => publish(session, events).await,
        Command::WritePatch { node_ids } => match session.fix(&node_ids) {
            Fix::Done(Ok(written)) => send(SessionEvent::PatchWritten(Box::new(written))),
            Fix::Done(Err(error)) => send(failed("No patch written", error.to_string())),
            Fix::Command { command, jobs } => {
                send(SessionEvent::Notice(format!(
                    "running the fix command `{command}`… (review-tui changes no code)"
                )));
                run_fix_command(command, jobs, events);
            }
        },
        Command::Cohorts => {
            if let Some(cohorts) = session.cohorts().await {
                send(SessionEvent::Cohorts(Box::new(cohorts)));
            }
        }
        Command::HandBack => match session.hand_back() {
            Ok(handed) => {
                send(SessionEvent::HandedBack {
                    text: handed.text,
                    path: handed.path,
                    findings: handed.findings,
                });
                if let Some((command, jobs)) = handed.command {
                    send(SessionEvent::Notice(format!(
                        "piping the prompt to the fix command `{command}`…"
                    )));
                    run_fix_command(command, jobs, events);
                }
            }
            Err(err) => send(failed("No prompt written", err.to_string())),
        },
        Command::PutFinding { node_id, draft } => {
            if let Err(err) = session.put_finding(&node_id, draft) {
                send(failed("Could not save", err.to_string()));
            }
        }
        Command::DeleteFinding { node_id } => {
            if let Err(err) = session.delete_finding(&node_id) {
                send(failed("Could not save", err.to_string()));
            }
        }
        Command::PutThreadDraft(draft) => {
            if let Err(err) = session.put_thread_draft(*draft) {
                send(failed("Could not save", err.to_string()));
            }
        }
        Command::DeleteThreadDraft { id } => {
            if let Err(err) = session.delete_thread_draft(&id) {
                send(failed("Could not save", err.to_string()));
            }
        }
        Command::IncludeRaised {
            fingerprint,
            include,
        } => {
            if let Err(err) = session.include_raised(&fingerprint, include) {
                send(failed("Could not save", err.to_string()));
            }
        }
        Command::OverrideAxis { axis, over } => {
            if let Err(err) = session.override_axis(&axis, over) {
                send(failed("Could not save", err.to_string()));
            }
        }
        Command::Reclassify {
            node_id,
            priority,
            kind,
            reason,
        } => {
            if let Err(err) = session.reclassify(&node_id, priority, kind, &reason) {
                send(failed("Could not save", err.to_string()));
            }
        }
        Command::Proposal { thread, accepted } => {
            match session.settle_proposal(&thread, accepted) {
                Ok(()) => {
                    if let Some(thread) = session.state().threads.iter().find(|t| t.id == thread) {
                        send(SessionEvent::Thread(Box::new(thread.clone())));
                    }
                }
                Err(err) => send(failed("Could not save", err.to_string())),
            }
        }
        Command::RunRound
        | Command::Refresh
        | Command::Cancel
        | Command::StopReviewer(_)
        | Command::Ask(_)
        | Command::CancelAsk { .. } => {}
    }
}

/// Publishes the round, then the person's replies and resolutions on the PR's threads; the
/// threads as they stand then, with them.
async fn publish<P: Publisher>(
    session: &mut Session<P>,
    events: &mpsc::UnboundedSender<EventOf<P>>,
) {
    let send = |event: EventOf<P>| tell(events, event);
    let failed = |title: &str, message: String| SessionEvent::Failed {
        title: title.into(),
        message,
    };
    match session.publish().await {
        Ok(published) => send(SessionEvent::Published {
            published: Box::new(published),
            snapshot: Box::new(session.snapshot()),
        }),
        // Published and unchanged: said, and what waits on the threads still goes.
        Err(err) if P::already_published(&err) => send(SessionEvent::Notice(err.to_string())),
        Err(err) => return send(failed("Not published", err.to_string())),
    }
    match session.post_thread_drafts().await {
        Ok(lines) if lines.is_empty() => {}
        Ok(lines) => {
            lines
                .into_iter()
                .for_each(|line| send(SessionEvent::Notice(line)));
            send(SessionEvent::ReviewThreads(
                session.prepared().threads.threads.clone(),
            ));
        }
        Err(err) => send(failed("Thread replies not posted", err.to_string())),
    }
    send(SessionEvent::ThreadDrafts(
        session.state().thread_drafts.clone(),
    ));
}

/// Runs the fix command off the session (triage keeps being saved while the command works);
/// its patch, or why not, arrives as an event.
fn run_fix_command<Pv: Send + 'static, Pd: Send + 'static>(
    command: String,
    jobs: fix::FixJobs,
    events: &mpsc::UnboundedSender<SessionEvent<Pv, Pd>>,
) {
    let events = events.clone();
    tokio::spawn(async move {
        let ran = tokio::task::spawn_blocking(move || jobs.run(&command, fix::FIX_TIMEOUT))
            .await
            .unwrap_or_else(|e| Err(fix::FixError::Task(e.to_string())));
        tell(
            &events,
            match ran {
                Ok(written) => SessionEvent::PatchWritten(Box::new(written)),
                Err(error) => SessionEvent::Failed {
                    title: "The fix command did not answer".into(),
                    message: error.to_string(),
                },
            },
        );
    });
}
