//! The cockpit as a program: opens the terminal and makes the loop a client of the session —
//! each effect of a key is a session command, each session event an action. The cockpit never
//! touches the space: every triage decision is written by the session at once, so quitting —
//! or being killed — loses nothing.

use std::io::IsTerminal;
use std::path::Path;
use std::sync::Arc;

use tokio::sync::mpsc;

use crate::publish::Publishing;
use crate::session::{Command, EventOf, RoundSnapshot, Session, SessionEvent};
use crate::session::{PrepareEvent, Progress};
use crate::space::Ladder;
use crate::ui::action::{Action, Report};
use crate::ui::cohort_links;
use crate::ui::run::{Engine, Inbox, RunOutcome};
use crate::ui::state::{AppState, PatchData, PostedAt, PrHeader, PreviewData};
use crate::ui::update::Effect;
use crate::ui::view::ViewContext;

/// The cockpit was started without a terminal on one end (or both): which one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("the cockpit needs a terminal: {0}. Use --headless to print a report instead")]
pub struct NoTerminal(&'static str);

/// The cockpit needs a terminal on both ends.
pub fn check_terminal() -> Result<(), NoTerminal> {
    let not_terminal = match (
        std::io::stdin().is_terminal(),
        std::io::stdout().is_terminal(),
    ) {
        (true, true) => return Ok(()),
        (false, true) => "standard input is not one",
        (true, false) => "standard output is not one",
        (false, false) => "neither standard input nor standard output is one",
    };
    Err(NoTerminal(not_terminal))
}

/// The cockpit's screen from its first frame on: the terminal, what it shows and its inbox.
/// It is opened before the review space is ready, so the PR and its files are on screen while
/// the space is prepared; dropping it gives the terminal back.
pub struct Screen {
    terminal: crate::ui::terminal::Tui,
    state: AppState,
    inbox: Inbox,
    rx: crate::ui::run::InboxReceiver,
}

/// Before the session exists there is nothing to send a key's effect to: leaving is all a
/// key can do, and the loop handles that itself.
struct Waiting;

impl Engine for Waiting {
    fn handle(&mut self, _effect: Effect, _inbox: &Inbox) {}
}

impl Screen {
    /// Takes the terminal and shows `header`, loading `what`.
    pub fn open(header: PrHeader, what: &str) -> std::io::Result<Screen> {
        let terminal = crate::ui::terminal::enter()?;
        let mut state = AppState::new(header, &crate::session::person_name());
        state.loading = Some(what.to_string());
        let (inbox, rx) = Inbox::channel();
        Ok(Screen {
            terminal,
            state,
            inbox,
            rx,
        })
    }

    /// Where the preparation reports to: the PR, its diff and each step as actions, and
    /// the forge's notices (a slow call, a retry) as notices, never on stderr under the screen.
    pub fn progress(&self) -> (Progress, crate::pr::Notices) {
        let inbox = self.inbox.clone();
        let progress = Progress::new(move |event| {
            inbox.send(match event {
                PrepareEvent::Pr { repo, pr } => {
                    let mut header = PrHeader::from_pull_request(&repo, &pr);
                    if pr.number == 0 {
                        header.number = String::new();
                    }
                    Action::Engine(Report::Pr(header))
                }
                PrepareEvent::Diff(diff) => Action::Engine(Report::Diff(diff)),
                PrepareEvent::Step(step) => {
                    Action::Engine(Report::Loading(Some(format!("{step}…"))))
                }
            });
        });
        let inbox = self.inbox.clone();
        let notices = crate::pr::Notices::new(move |notice| {
            inbox.send(Action::Engine(Report::Notice(notice)));
        });
        (progress, notices)
    }

    /// Shows the screen, live, while `work` runs; `Err` when the person left first.
    pub async fn show_while<T>(
        &mut self,
        cx: &ViewContext,
        work: impl std::future::Future<Output = T>,
    ) -> std::io::Result<Result<T, RunOutcome>> {
        crate::ui::run::run_until(
            &mut self.terminal,
            &mut self.state,
            cx,
            &self.inbox,
            &mut self.rx,
            &mut Waiting,
            work,
        )
        .await
    }

    /// Gives the terminal back for `job` (a question on the terminal), then takes it again.
    pub fn lend<R>(&mut self, job: impl FnOnce() -> R) -> std::io::Result<R> {
        crate::ui::terminal::restore()?;
        let result = job();
        crate::ui::terminal::resume()?;
        self.terminal.clear()?;
        Ok(result)
    }
}

impl Drop for Screen {
    fn drop(&mut self) {
        let _ = crate::ui::terminal::restore();
    }
}

/// The cockpit's side of the session: every effect of a key becomes a command.
pub struct Bridge {
    commands: mpsc::UnboundedSender<Command>,
}

impl Engine for Bridge {
    fn handle(&mut self, effect: Effect, _inbox: &Inbox) {
        let command = match effect {
            // The session applies the person's change through the status service and writes it.
            Effect::PersistStatus {
                node_id, change, ..
            } => Command::Apply { node_id, change },
            Effect::SaveComment { node_id, text } => Command::EditComment { node_id, text },
            // Reviewer findings are recorded by the session at the end of its round.
            Effect::PersistNode(_) => return,
            Effect::SetLevel(level) => Command::SetLevel(level),
            Effect::WritePatch { node_ids } => Command::WritePatch { node_ids },
            Effect::PreviewPublish => Command::Preview,
            Effect::HandBack => Command::HandBack,
            Effect::Publish => Command::Publish,
            Effect::Quit | Effect::OpenInbox | Effect::StopRun => Command::Cancel,
            Effect::StopReviewer(name) => Command::StopReviewer(name),
            Effect::Ask {
                thread,
                finding,
                question,
            } => Command::Ask(crate::session::Ask {
                thread: Some(thread),
                finding,
                role: None,
                question,
            }),
            Effect::CancelAsk(thread) => Command::CancelAsk { thread },
            Effect::Proposal { thread, accepted } => Command::Proposal { thread, accepted },
            Effect::PutFinding { node_id, draft } => Command::PutFinding { node_id, draft },
            Effect::DeleteFinding(node_id) => Command::DeleteFinding { node_id },
            Effect::PutThreadDraft(draft) => Command::PutThreadDraft(draft),
            Effect::DeleteThreadDraft(id) => Command::DeleteThreadDraft { id },
            Effect::IncludeRaised {
                fingerprint,
                include,
            } => Command::IncludeRaised {
                fingerprint,
                include,
            },
            Effect::OverrideAxis { axis, over } => Command::OverrideAxis { axis, over },
        };
        let _ = self.commands.send(command);
    }
}

/// What the session says, as the cockpit's actions.
async fn relay(
    mut events: mpsc::UnboundedReceiver<EventOf<Publishing>>,
    inbox: Inbox,
    mut diff: Arc<crate::diff::Diff>,
    worktree: std::path::PathBuf,
    repo: String,
) {
    while let Some(event) = events.recv().await {
        let actions = match event {
            SessionEvent::RoundStarted {
                run,
                round,
                reviewers,
                deterministic_only,
            } => vec![
                Action::Engine(Report::RunStarted {
                    run,
                    round,
                    reviewers: Vec::new(),
                    deterministic_only,
                }),
                Action::Engine(Report::Ladder(Ladder::InProgress)),
                Action::Engine(Report::Reviewers(reviewers)),
            ],
            SessionEvent::Board(event) => vec![Action::Engine(Report::Event(event))],
            SessionEvent::Estimate(estimate) => vec![Action::Engine(Report::Notice(estimate))],
            SessionEvent::Phase(phase) => {
                vec![Action::Engine(Report::Phase(phase.map(|p| p.to_string())))]
            }
            SessionEvent::Pass(phase, note) => vec![Action::Engine(Report::Pass {
                phase: phase.to_string(),
                note,
            })],
            SessionEvent::RoundDone(snapshot) => round_actions(&snapshot),
            SessionEvent::Cohorts(report) => {
                // Reading the changed files for the diagram's links: off the loop.
                let (inbox, diff, worktree) = (inbox.clone(), diff.clone(), worktree.clone());
                tokio::task::spawn_blocking(move || {
                    inbox.send(Action::Engine(Report::Cohorts(cohort_links::cohort_views(
                        &report, &diff, &worktree,
                    ))));
                });
                Vec::new()
            }
            SessionEvent::Preview(preview) => {
                vec![Action::Engine(Report::PublishPreview(PreviewData {
                    event: preview_event(&preview),
                    inline_comments: preview.inline_comments.len(),
                    listed_in_body: preview.listed_in_body,
                    local: matches!(preview.target, crate::publish::Target::Local { .. }),
                    moved_to_body: preview
                        .moved_to_body
                        .iter()
                        .map(|m| format!("{} {} ({})", m.location, m.title, m.reason))
                        .collect(),
                    already_raised: preview
                        .already_raised
                        .iter()
                        .map(|r| crate::ui::state::RaisedRow {
                            fingerprint: r.fingerprint.clone(),
                            location: r.location.clone(),
                            title: r.title.clone(),
                            by: r.by.clone(),
                            included: r.included,
                        })
                        .collect(),
                    body: preview.body.clone(),
                    target: preview.target.to_string(),
                }))]
            }
            SessionEvent::Published {
                published,
                snapshot,
            } => {
                let mut actions = vec![Action::Engine(Report::Published {
                    target: published.target.clone(),
                })];
                if let Some(record) = &snapshot.published
                    && let Some(posted) = &record.posted
                {
                    actions.push(Action::Engine(Report::Posted(PostedAt {
                        posted: posted.clone(),
                        at: record.at.clone(),
                    })));
                }
                actions.push(Action::Engine(Report::Ladder(snapshot.ladder)));
                actions
            }
            SessionEvent::Notice(text) => vec![Action::Engine(Report::Notice(text))],
            SessionEvent::ReviewThreads(threads) => {
                vec![Action::Engine(Report::ReviewThreads(Arc::new(threads)))]
            }
            SessionEvent::ThreadDrafts(drafts) => {
                vec![Action::Engine(Report::ThreadDrafts(drafts))]
            }
            SessionEvent::PatchWritten(written) => vec![Action::Engine(Report::PatchWritten {
                patch: patch_data(&written),
                summary: written.summary.clone(),
            })],
            SessionEvent::Failed { title, message } => {
                vec![Action::Engine(Report::EngineError { title, message })]
            }
            SessionEvent::HandedBack {
                text,
                path,
                findings,
            } => vec![Action::Engine(Report::HandedBack {
                text,
                path: path.display().to_string(),
                findings,
            })],
            // The work under review changed: its snapshot's files replace the last one's.
            SessionEvent::Moved { pr, diff: moved } => {
                diff = moved;
                let changed = (diff.files.iter())
                    .filter(|f| !f.binary)
                    .map(|f| f.path.clone())
                    .collect();
                load_code(&worktree, changed, inbox.clone());
                let mut header = PrHeader::from_pull_request(&repo, &pr);
                header.number = String::new();
                vec![
                    Action::Engine(Report::Pr(header)),
                    Action::Engine(Report::Diff(diff.clone())),
                ]
            }
            // The review room's threads are not shown by the cockpit yet.
            SessionEvent::Thread(thread) => vec![Action::Engine(Report::Thread(thread))],
        };
        for action in actions {
            if !inbox.send(action) {
                return;
            }
        }
    }
}

/// A finished round as the cockpit shows it: the findings as recorded (fingerprints, carried
/// decisions, duplicates folded), the comments moved onto them, the axes and the ladder.
fn round_actions(snapshot: &RoundSnapshot) -> Vec<Action> {
    let mut actions = vec![
        Action::Engine(Report::Phase(None)),
        Action::Engine(Report::Findings(snapshot.board.nodes.clone())),
        Action::Engine(Report::Comments(snapshot.comments.clone())),
        Action::Engine(Report::Axes(snapshot.axes.clone())),
        Action::Engine(Report::Ladder(snapshot.ladder)),
    ];
    // What a later round changed is said once: a fixed finding leaves the list silently.
    let delta = &snapshot.delta;
    if snapshot.round > 1 && (!delta.not_refound.is_empty() || !delta.new.is_empty()) {
        actions.push(Action::Engine(Report::Notice(format!(
            "round {}: {} finding(s) of the last round not found again (fixed), {} new",
            snapshot.round,
            delta.not_refound.len(),
            delta.new.len()
        ))));
    }
    actions
}

/// The cockpit's state as the session opens: the space's findings and decisions, and, when a
/// recorded round is shown rather than a new one run, its axes and reviewers.
pub fn opening_state(
    opening: &crate::session::Opening,
    run_review: bool,
    person: &str,
) -> AppState {
    let mut header = PrHeader::from_pull_request(&opening.repo, &opening.pr);
    if opening.pr.number == 0 {
        header.number = String::new();
    }
    let mut state = AppState::from_space(header, &opening.state, person);
    state.offline = opening.offline.clone();
    state.no_model = run_review && opening.no_model;
    let snapshot = &opening.snapshot;
    state.level = snapshot.level;
    state.deterministic_only = snapshot.deterministic_only;
    state.comments = snapshot.comments.clone();
    state.patch = opening.patch.as_ref().map(patch_data);
    state.worktree = Some(opening.worktree.clone());
    state.space = Some(opening.space.clone());
    state.thread_drafts = opening.state.thread_drafts.clone();
    if !run_review && opening.state.current_round().is_some() {
        state.axes = snapshot.axes.clone();
        state.board.reviewers = snapshot.board.reviewers.clone();
        crate::ui::update::refresh(&mut state);
    }
    state
}

/// A reopened space's first screen once everything it waits for has arrived (the diff, its
/// cohorts from the space's cache, the changed files' code), without a terminal or a loop:
/// the state a test draws into the documentation's picture of the cockpit.
pub fn reopened_state(
    opening: &crate::session::Opening,
    cohorts: Option<&crate::cohort::CohortReport>,
    person: &str,
) -> AppState {
    let mut state = opening_state(opening, false, person);
    let mut arrived = vec![
        Action::Engine(Report::Diff(opening.diff.clone())),
        Action::Engine(Report::ReviewThreads(Arc::new(
            opening.review_threads.clone(),
        ))),
    ];
    if let Some(report) = cohorts {
        arrived.push(Action::Engine(Report::Cohorts(cohort_links::cohort_views(
            report,
            &opening.diff,
            &opening.worktree,
        ))));
    }
    for file in opening.diff.files.iter().filter(|f| !f.binary) {
        if file.path.split('/').any(|part| part == "..") {
            continue;
        }
        if let Ok(text) = std::fs::read_to_string(opening.worktree.join(&file.path)) {
            arrived.push(Action::Engine(Report::Code {
                path: file.path.clone(),
                lines: Arc::new(text.lines().map(str::to_string).collect()),
            }));
        }
    }
    for action in arrived {
        crate::ui::update(&mut state, action);
    }
    state
}

/// A written patch as the viewer shows it.
fn patch_data(written: &crate::session::WrittenPatch) -> PatchData {
    PatchData {
        path: written.path.display().to_string(),
        text: written.text.clone(),
        answers: written.answers,
    }
}

/// `REQUEST_CHANGES`, or `COMMENT (intended: REQUEST_CHANGES)` on one's own PR.
fn preview_event(preview: &crate::publish::Preview) -> String {
    if preview.event == preview.intended_event {
        preview.event.to_string()
    } else {
        format!("{} (intended: {})", preview.event, preview.intended_event)
    }
}

/// Reads the changed files' head versions for the detail pane, off the loop.
fn load_code(worktree: &Path, paths: Vec<String>, inbox: Inbox) {
    let worktree = worktree.to_path_buf();
    tokio::task::spawn_blocking(move || {
        for path in paths {
            // A path from the diff, read inside the worktree only.
            if path.split('/').any(|part| part == "..") {
                continue;
            }
            if let Ok(text) = std::fs::read_to_string(worktree.join(&path)) {
                let lines: Vec<String> = text.lines().map(str::to_string).collect();
                inbox.send(Action::Engine(Report::Code {
                    path,
                    lines: Arc::new(lines),
                }));
            }
        }
    });
}

/// Runs the cockpit over `session` on `screen`; returns how the loop ended and the decision
/// on screen. With `run_review`, a new round is reviewed live; without, the space's last
/// round is shown as recorded (reopening resumes).
pub async fn run_cockpit(
    session: Session<Publishing>,
    run_review: bool,
    watch: bool,
    cx: &ViewContext,
    screen: Screen,
) -> std::io::Result<(RunOutcome, Option<crate::review::Decision>)> {
    let mut screen = screen;
    let person = crate::session::person_name();
    let opening = session.opening();
    // From here the screen shows the space.
    screen.state = opening_state(&opening, run_review, &person);

    let changed: Vec<String> = opening
        .diff
        .files
        .iter()
        .filter(|f| !f.binary)
        .map(|f| f.path.clone())
        .collect();
    let inbox = screen.inbox.clone();
    let (commands, command_rx) = mpsc::unbounded_channel();
    // `--watch`: each settled change to the work under review asks the session for a new
    // round (after the running one); the watcher stops when the session is gone.
    let watcher = watch.then(|| session.watcher()).flatten();
    screen.state.watching = watcher.is_some();
    if let Some(watcher) = watcher {
        let commands = commands.clone();
        watcher.start(move || commands.send(Command::Refresh).is_ok())?;
    }
    let (events_tx, events) = mpsc::unbounded_channel();
    tokio::spawn(crate::session::serve(session, command_rx, events_tx));
    tokio::spawn(relay(
        events,
        inbox.clone(),
        opening.diff.clone(),
        opening.worktree.clone(),
        opening.repo.clone(),
    ));
    let mut bridge = Bridge {
        commands: commands.clone(),
    };
    load_code(&opening.worktree, changed, inbox.clone());
    inbox.send(Action::Engine(Report::Diff(opening.diff.clone())));
    inbox.send(Action::Engine(Report::ReviewThreads(Arc::new(
        opening.review_threads.clone(),
    ))));
    let first = if run_review {
        screen.state.loading = None;
        Command::RunRound
    } else {
        // Cohorts come from the space's cache on reopen; the findings are already on screen.
        Command::Cohorts
    };
    let _ = commands.send(first);

    let Screen {
        terminal,
        state,
        rx,
        ..
    } = &mut screen;
    let ended = crate::ui::run::run_until(
        terminal,
        state,
        cx,
        &inbox,
        rx,
        &mut bridge,
        std::future::pending::<()>(),
    )
    .await;
    crate::ui::terminal::restore()?;
    let outcome = ended?.err().unwrap_or(RunOutcome::Closed);
    // Said on the terminal the exit code is read on, once the screen is gone.
    if let Some(text) = crate::ui::view::header::left_unpublished(&screen.state) {
        use std::io::Write;
        let line = crate::printable::line(&text).into_owned();
        let _ = writeln!(std::io::stderr(), "review-tui: {line}");
    }
    // The decision the cockpit shows when the person leaves: recomputed by code from the
    // findings as they stand after triage.
    Ok((outcome, screen.state.verdict.as_ref().map(|v| v.decision)))
}
