//! The cockpit as a program: opens the terminal and makes the loop a client of the session —
//! each effect of a key is a session command, each session event an action. The cockpit never
//! touches the space: every triage decision is written by the session at once, so quitting —
//! or being killed — loses nothing.

use std::io::IsTerminal;
use std::path::Path;
use std::sync::Arc;

use tokio::sync::mpsc;

use crate::diff::LineKind;
use crate::publish::Publishing;
use crate::session::prepare::{PrepareEvent, Progress};
use crate::session::{Command, EventOf, RoundSnapshot, Session, SessionEvent};
use crate::space::Ladder;
use crate::ui::action::{Action, Report};
use crate::ui::run::{Engine, Inbox, RunOutcome};
use crate::ui::state::{AppState, CohortView, PatchData, PrHeader, PreviewData};
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
    pub fn progress(&self) -> (Progress, crate::pr::connect::Notices) {
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
        let notices = crate::pr::connect::Notices::new(move |notice| {
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
            Effect::Publish => Command::Publish,
            Effect::Quit | Effect::StopRun => Command::Cancel,
            Effect::StopReviewer(name) => Command::StopReviewer(name),
        };
        let _ = self.commands.send(command);
    }
}

/// What the session says, as the cockpit's actions.
async fn relay(
    mut events: mpsc::UnboundedReceiver<EventOf<Publishing>>,
    inbox: Inbox,
    diff: Arc<crate::diff::Diff>,
    worktree: std::path::PathBuf,
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
                    inbox.send(Action::Engine(Report::Cohorts(cohort_views(
                        &report, &diff, &worktree,
                    ))));
                });
                Vec::new()
            }
            SessionEvent::Preview(preview) => {
                vec![Action::Engine(Report::PublishPreview(PreviewData {
                    event: preview_event(&preview),
                    inline_comments: preview.inline_comments.len(),
                    moved_to_body: preview
                        .moved_to_body
                        .iter()
                        .map(|m| format!("{} {} ({})", m.location, m.title, m.reason))
                        .collect(),
                    body: preview.body.clone(),
                    target: preview.target.to_string(),
                }))]
            }
            SessionEvent::Published {
                published,
                snapshot,
            } => vec![
                Action::Engine(Report::Published {
                    target: published.target.clone(),
                }),
                Action::Engine(Report::Ladder(snapshot.ladder)),
            ],
            SessionEvent::Notice(text) => vec![Action::Engine(Report::Notice(text))],
            SessionEvent::PatchWritten(written) => vec![Action::Engine(Report::PatchWritten {
                patch: patch_data(&written),
                summary: written.summary.clone(),
            })],
            SessionEvent::Failed { title, message } => {
                vec![Action::Engine(Report::EngineError { title, message })]
            }
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
    vec![
        Action::Engine(Report::Phase(None)),
        Action::Engine(Report::Findings(snapshot.board.nodes.clone())),
        Action::Engine(Report::Comments(snapshot.comments.clone())),
        Action::Engine(Report::Axes(snapshot.axes.clone())),
        Action::Engine(Report::Ladder(snapshot.ladder)),
    ]
}

/// A written patch as the viewer shows it.
fn patch_data(written: &crate::session::fix::WrittenPatch) -> PatchData {
    PatchData {
        path: written.path.display().to_string(),
        text: written.text.clone(),
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

/// The cohorts as the cockpit shows them, with the links of the diagram: two files are linked
/// by a symbol when both mention it (head version, or removed lines for what the head no
/// longer has). Reads the changed files: call it off the loop.
fn cohort_views(
    report: &crate::cohort::CohortReport,
    diff: &crate::diff::Diff,
    worktree: &Path,
) -> Vec<CohortView> {
    report
        .cohorts
        .iter()
        .map(|c| {
            let (symbols, edges) = if c.fallback {
                (Vec::new(), Vec::new())
            } else {
                (
                    c.symbols.clone(),
                    cohort_edges(&c.files, &c.symbols, diff, worktree),
                )
            };
            CohortView {
                key: c.key.clone(),
                label: c.label.clone(),
                files: c.files.clone(),
                fallback: c.fallback,
                blast_radius: c.blast_radius as u32,
                symbols,
                edges,
            }
        })
        .collect()
}

/// (file, file, symbol) for consecutive files, in reading order, that mention the symbol.
fn cohort_edges(
    files: &[String],
    symbols: &[String],
    diff: &crate::diff::Diff,
    worktree: &Path,
) -> Vec<(String, String, String)> {
    /// Head files larger than this are read from the diff's lines only.
    const MAX_READ: u64 = 2 << 20;
    let texts: Vec<String> = files
        .iter()
        .map(|path| {
            let mut text = String::new();
            let inside = !path.split('/').any(|part| part == "..");
            let file = worktree.join(path);
            if inside
                && std::fs::metadata(&file).is_ok_and(|m| m.is_file() && m.len() <= MAX_READ)
                && let Ok(head) = std::fs::read_to_string(&file)
            {
                text = head;
            }
            for hunk in diff
                .files
                .iter()
                .filter(|f| &f.path == path)
                .flat_map(|f| &f.hunks)
            {
                for line in hunk.lines.iter().filter(|l| l.kind == LineKind::Removed) {
                    text.push('\n');
                    text.push_str(&line.text);
                }
            }
            text
        })
        .collect();
    let mut edges = Vec::new();
    for symbol in symbols {
        let at: Vec<usize> = (0..files.len())
            .filter(|&i| mentions(&texts[i], symbol))
            .collect();
        for pair in at.windows(2) {
            edges.push((
                files[pair[0]].clone(),
                files[pair[1]].clone(),
                symbol.clone(),
            ));
        }
    }
    edges
}

/// Whether `text` has `symbol` as a whole identifier.
fn mentions(text: &str, symbol: &str) -> bool {
    if symbol.is_empty() {
        return false;
    }
    let ident = |c: char| c.is_alphanumeric() || c == '_';
    text.match_indices(symbol).any(|(at, _)| {
        let before = text[..at].chars().next_back();
        let after = text[at + symbol.len()..].chars().next();
        !before.is_some_and(ident) && !after.is_some_and(ident)
    })
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
    cx: &ViewContext,
    screen: Screen,
) -> std::io::Result<(RunOutcome, Option<crate::review::verdict::Decision>)> {
    let mut screen = screen;
    let person = crate::session::person_name();
    let opening = session.opening();
    let mut header = PrHeader::from_pull_request(&opening.repo, &opening.pr);
    if opening.pr.number == 0 {
        header.number = String::new();
    }
    let mut state = AppState::from_space(header, &opening.state, &person);
    state.offline = opening.offline.clone();
    let snapshot = &opening.snapshot;
    state.level = snapshot.level;
    state.deterministic_only = snapshot.deterministic_only;
    state.comments = snapshot.comments.clone();
    state.patch = opening.patch.as_ref().map(patch_data);
    state.worktree = Some(opening.worktree.clone());
    if !run_review && opening.state.current_round().is_some() {
        state.axes = snapshot.axes.clone();
        state.board.reviewers = snapshot.board.reviewers.clone();
        crate::ui::update::refresh(&mut state);
    }
    // From here the screen shows the space.
    screen.state = state;

    let changed: Vec<String> = opening
        .diff
        .files
        .iter()
        .filter(|f| !f.binary)
        .map(|f| f.path.clone())
        .collect();
    let inbox = screen.inbox.clone();
    let (commands, command_rx) = mpsc::unbounded_channel();
    let (events_tx, events) = mpsc::unbounded_channel();
    tokio::spawn(crate::session::serve(session, command_rx, events_tx));
    tokio::spawn(relay(
        events,
        inbox.clone(),
        opening.diff.clone(),
        opening.worktree.clone(),
    ));
    let mut bridge = Bridge {
        commands: commands.clone(),
    };
    load_code(&opening.worktree, changed, inbox.clone());
    inbox.send(Action::Engine(Report::Diff(opening.diff.clone())));
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
    // The decision the cockpit shows when the person leaves: recomputed by code from the
    // findings as they stand after triage.
    Ok((outcome, screen.state.verdict.as_ref().map(|v| v.decision)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn symbols_link_the_files_that_mention_them_as_whole_identifiers() {
        assert!(mentions("let t = Token::new();", "Token"));
        assert!(!mentions("let t = TokenStore::new();", "Token"));
        assert!(!mentions("my_refresh()", "refresh"));
        assert!(mentions("refresh()", "refresh"));
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("src")).unwrap();
        std::fs::write(dir.path().join("src/a.rs"), "pub struct Token;\n").unwrap();
        std::fs::write(dir.path().join("src/b.rs"), "fn f(t: Token) {}\n").unwrap();
        // c.rs no longer uses Token at the head, but its removed line did.
        std::fs::write(dir.path().join("src/c.rs"), "fn g() {}\n").unwrap();
        let diff = crate::diff::parse(
            "diff --git a/src/c.rs b/src/c.rs\n--- a/src/c.rs\n+++ b/src/c.rs\n@@ -1 +1 @@\n-fn g(t: Token) {}\n+fn g() {}\n",
        )
        .unwrap();
        let files: Vec<String> = ["src/a.rs", "src/b.rs", "src/c.rs"]
            .map(String::from)
            .to_vec();
        let edges = cohort_edges(&files, &["Token".into(), "g".into()], &diff, dir.path());
        assert_eq!(
            edges,
            vec![
                ("src/a.rs".into(), "src/b.rs".into(), "Token".into()),
                ("src/b.rs".into(), "src/c.rs".into(), "Token".into()),
            ]
        );
    }
}
