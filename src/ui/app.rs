//! The cockpit as a program: opens the terminal, runs (or resumes) a round over a prepared
//! space, and connects the loop's effects to the engine. Every triage decision is written to
//! the space at once, so quitting — or being killed — loses nothing.

use std::io::IsTerminal;
use std::path::Path;
use std::sync::Arc;

use tokio::sync::Mutex;

use tokio::sync::mpsc;

use crate::diff::LineKind;
use crate::pipeline::{self, ReviewOptions, Tap};
use crate::prepare::Prepared;
use crate::review::board::{ReviewerPhase, ReviewerState};
use crate::review::node::ReviewNode;
use crate::review::status::{self, Change};
use crate::review::verdict::Outcome;
use crate::space::Ladder;
use crate::ui::action::Action;
use crate::ui::run::{Engine, Inbox, RunOutcome};
use crate::ui::state::{AppState, CohortView, PrHeader, PreviewData};
use crate::ui::update::Effect;
use crate::ui::view::ViewContext;

/// What the person at the keyboard is called in the space's records.
pub fn person_name() -> String {
    std::env::var("REVIEW_TUI_PERSON")
        .or_else(|_| std::env::var("USER"))
        .unwrap_or_else(|_| "you".into())
}

/// The cockpit needs a terminal on both ends.
pub fn check_terminal() -> Result<(), String> {
    let not_terminal = match (
        std::io::stdin().is_terminal(),
        std::io::stdout().is_terminal(),
    ) {
        (true, true) => return Ok(()),
        (false, true) => "standard input is not one",
        (true, false) => "standard output is not one",
        (false, false) => "neither standard input nor standard output is one",
    };
    Err(format!(
        "the cockpit needs a terminal: {not_terminal}. Use --headless to print a report instead"
    ))
}

/// The space and what the cockpit changed while a run was still writing it.
struct Session {
    prepared: Option<Prepared>,
    /// The preview the person is looking at: publishing posts exactly this or nothing.
    preview: Option<crate::publish::Preview>,
    /// Person changes made while the pipeline owned the space, applied once it hands it back.
    pending: Vec<(String, Change)>,
    pending_comments: Vec<(String, Option<String>)>,
}

pub struct Bridge {
    session: Arc<Mutex<Session>>,
    /// Triage decisions go to one worker, in order: two quick changes to the same finding
    /// must land in the order they were made.
    saves: mpsc::UnboundedSender<Save>,
    level: crate::review::level::Level,
    publish_options: crate::publish::PublishOptions,
    api_url: Option<String>,
    /// The gate's fix command for findings with only a fix prompt (`[fix] command`).
    fix_command: Option<String>,
}

/// A decision to write to the space.
enum Save {
    Status {
        node_id: String,
        change: Change,
        node: Box<ReviewNode>,
        suppression: Option<crate::review::status::SuppressionHint>,
    },
    Comment {
        node_id: String,
        text: Option<String>,
    },
}

/// Applies saves in order. While a run owns the space they wait in the session, and the run
/// replays them on its result.
async fn save_worker(
    session: Arc<Mutex<Session>>,
    mut saves: mpsc::UnboundedReceiver<Save>,
    inbox: Inbox,
) {
    while let Some(save) = saves.recv().await {
        let mut guard = session.lock().await;
        let session = &mut *guard;
        let Some(prepared) = session.prepared.as_mut() else {
            match save {
                Save::Status {
                    node_id, change, ..
                } => session.pending.push((node_id, change)),
                Save::Comment { node_id, text } => session.pending_comments.push((node_id, text)),
            }
            continue;
        };
        // A small atomic write (temp file, fsync, rename): done in place, off the UI's task.
        let written = tokio::task::block_in_place(|| {
            prepared
                .space
                .update(|state| -> Result<(), crate::space::StoreError> {
                    match save {
                        Save::Status {
                            node, suppression, ..
                        } => {
                            upsert(&mut state.nodes, *node);
                            state.suppression_hints.extend(suppression);
                        }
                        Save::Comment {
                            node_id,
                            text: Some(text),
                        } => {
                            state.comments.insert(node_id, text);
                        }
                        Save::Comment {
                            node_id,
                            text: None,
                        } => {
                            state.comments.remove(&node_id);
                        }
                    }
                    Ok(())
                })
        });
        if let Err(err) = written {
            inbox.send(Action::EngineError {
                title: "Could not save".into(),
                message: err.to_string(),
            });
        }
    }
}

fn upsert(nodes: &mut Vec<ReviewNode>, node: ReviewNode) {
    match nodes.iter_mut().find(|n| n.id == node.id) {
        Some(existing) => *existing = node,
        None => nodes.push(node),
    }
}

impl Engine for Bridge {
    fn handle(&mut self, effect: Effect, inbox: &Inbox) {
        match effect {
            Effect::PersistStatus {
                node_id,
                change,
                node,
                suppression,
            } => {
                let _ = self.saves.send(Save::Status {
                    node_id,
                    change,
                    node,
                    suppression,
                });
            }
            Effect::SaveComment { node_id, text } => {
                let _ = self.saves.send(Save::Comment { node_id, text });
            }
            // Reviewer findings are recorded by the pipeline at the end of its run.
            Effect::PersistNode(_) => {}
            Effect::SetLevel(_) => {}
            Effect::WritePatch { node_ids } => {
                let inbox = inbox.clone();
                let session = self.session.clone();
                let command = self.fix_command.clone();
                tokio::spawn(async move {
                    let guard = session.lock().await;
                    let Some(prepared) = guard.prepared.as_ref() else {
                        inbox.send(Action::Notice(
                            "the review is still running: try again when it is done".into(),
                        ));
                        return;
                    };
                    // Only prompts, and a command to hand them to: run it without holding
                    // the space, so triage keeps being saved meanwhile.
                    if let Some(command) = command
                        && crate::fix::prompts_only(prepared, &node_ids)
                    {
                        let jobs = crate::fix::FixJobs::collect(prepared, &node_ids);
                        drop(guard);
                        inbox.send(Action::Notice(format!(
                            "running the fix command `{command}`… (review-tui changes no code)"
                        )));
                        let ran = tokio::task::spawn_blocking(move || {
                            jobs.and_then(|jobs| jobs.run(&command, crate::fix::FIX_TIMEOUT))
                        })
                        .await
                        .unwrap_or_else(|e| Err(format!("the fix command's task failed: {e}")));
                        match ran {
                            Ok(written) => inbox.send(Action::Notice(written)),
                            Err(message) => inbox.send(Action::EngineError {
                                title: "The fix command did not answer".into(),
                                message,
                            }),
                        };
                        return;
                    }
                    let written = tokio::task::block_in_place(|| {
                        crate::fix::write_patch(prepared, &node_ids)
                    });
                    match written {
                        Ok(written) => inbox.send(Action::Notice(written)),
                        Err(message) => inbox.send(Action::EngineError {
                            title: "No patch written".into(),
                            message,
                        }),
                    };
                });
            }
            Effect::PreviewPublish => {
                let inbox = inbox.clone();
                let session = self.session.clone();
                let (level, options, api_url) = (
                    self.level,
                    self.publish_options.clone(),
                    self.api_url.clone(),
                );
                tokio::spawn(async move {
                    let mut guard = session.lock().await;
                    let Some(prepared) = guard.prepared.as_ref() else {
                        inbox.send(Action::Notice("the review is still running".into()));
                        return;
                    };
                    let result = crate::recorded::recorded_result(prepared, level);
                    let head = prepared.space.state().head_sha.clone();
                    let input = crate::publish::PublishInput {
                        result: &result,
                        head_sha: &head,
                        diff: &prepared.diff,
                        options: &options,
                        walkthrough: None,
                    };
                    let planned = match crate::publish::destination(prepared, api_url, None) {
                        Ok(destination) => {
                            crate::publish::preview(&destination, prepared.space.state(), &input)
                                .await
                        }
                        Err(err) => Err(err),
                    };
                    match planned {
                        Ok(preview) => {
                            let data = PreviewData {
                                event: preview_event(&preview),
                                inline_comments: preview.inline_comments.len(),
                                moved_to_body: preview
                                    .moved_to_body
                                    .iter()
                                    .map(|m| format!("{} {} ({})", m.location, m.title, m.reason))
                                    .collect(),
                                body: preview.body.clone(),
                                target: preview.target.to_string(),
                            };
                            guard.preview = Some(preview);
                            inbox.send(Action::PublishPreview(data));
                        }
                        Err(err) => {
                            inbox.send(Action::EngineError {
                                title: "Nothing to publish".into(),
                                message: err.to_string(),
                            });
                        }
                    }
                });
            }
            Effect::Publish => {
                let inbox = inbox.clone();
                let session = self.session.clone();
                let (level, options, api_url) = (
                    self.level,
                    self.publish_options.clone(),
                    self.api_url.clone(),
                );
                tokio::spawn(async move {
                    let mut guard = session.lock().await;
                    let Some(confirmed) = guard.preview.take() else {
                        inbox.send(Action::EngineError {
                            title: "Not published".into(),
                            message: "no preview was confirmed".into(),
                        });
                        return;
                    };
                    let Some(prepared) = guard.prepared.as_mut() else {
                        inbox.send(Action::Notice("the review is still running".into()));
                        return;
                    };
                    let result = crate::recorded::recorded_result(prepared, level);
                    let head = prepared.space.state().head_sha.clone();
                    let diff = prepared.diff.clone();
                    let input = crate::publish::PublishInput {
                        result: &result,
                        head_sha: &head,
                        diff: &diff,
                        options: &options,
                        walkthrough: None,
                    };
                    let outcome = match crate::publish::destination(prepared, api_url, None) {
                        Ok(destination) => {
                            crate::publish::publish(
                                &destination,
                                &mut prepared.space,
                                &input,
                                &confirmed,
                            )
                            .await
                        }
                        Err(err) => Err(err),
                    };
                    match outcome {
                        Ok(published) => {
                            inbox.send(Action::Published {
                                target: published.target.clone(),
                            });
                            inbox.send(Action::Ladder(prepared.space.state().ladder()));
                        }
                        Err(err) => {
                            inbox.send(Action::EngineError {
                                title: "Not published".into(),
                                message: err.to_string(),
                            });
                        }
                    }
                });
            }
            Effect::Quit => {}
        }
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

/// The fix command: `REVIEW_TUI_FIX_COMMAND`, else `[fix] command` in the user's config.
fn fix_command() -> Option<String> {
    if let Some(command) = std::env::var("REVIEW_TUI_FIX_COMMAND")
        .ok()
        .filter(|c| !c.trim().is_empty())
    {
        return Some(command);
    }
    let path = crate::config::user_config_path()?;
    let layer = crate::config::read_layer(&path).ok().flatten()?;
    let mut config = crate::config::Config::default();
    config.apply(layer, &path.display().to_string());
    config.fix_command
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
                inbox.send(Action::Code {
                    path,
                    lines: Arc::new(lines),
                });
            }
        }
    });
}

/// Reviewer states for a resumed round, from how each reviewer's run ended and what it found.
fn reviewers_of_round(round: &crate::space::Round, nodes: &[ReviewNode]) -> Vec<ReviewerState> {
    round
        .reviewers
        .iter()
        .map(|run| {
            let mut state = ReviewerState::queued(&run.role, run.required);
            state.findings = nodes
                .iter()
                .filter(|n| n.origin.reviewer == run.role)
                .count();
            state.outcome = Some(run.outcome);
            state.phase = match run.outcome {
                Outcome::Ok => ReviewerPhase::Done,
                Outcome::Skipped => ReviewerPhase::Skipped,
                Outcome::Failed | Outcome::InvalidOutput => ReviewerPhase::Failed,
            };
            state.note = run.reason.clone().unwrap_or_default();
            state
        })
        .collect()
}

/// Runs the cockpit over `prepared`; returns how the loop ended and the decision on screen.
/// With `run_review`, a new round is reviewed live; without,
/// the space's last round is shown as recorded (reopening resumes).
pub async fn run_cockpit(
    mut prepared: Prepared,
    mut options: ReviewOptions,
    run_review: bool,
    publish_options: crate::publish::PublishOptions,
    api_url: Option<String>,
    cx: &ViewContext,
) -> anyhow::Result<(RunOutcome, Option<crate::review::verdict::Decision>)> {
    let person = person_name();
    let repo = match &prepared.reference {
        crate::pr::reference::PrRef::Github { owner, repo, .. } => format!("{owner}/{repo}"),
        crate::pr::reference::PrRef::Local { .. } => prepared.space.state().pr.key.to_string(),
    };
    let mut header = PrHeader::from_pull_request(&repo, &prepared.pr);
    if prepared.pr.number == 0 {
        header.number = String::new();
    }
    let mut state = AppState::from_space(header, prepared.space.state(), &person);
    state.level = options.level;
    state.deterministic_only = options.deterministic_only;
    state.comments = prepared.space.state().comments.clone();
    if let Some(round) = prepared
        .space
        .state()
        .current_round()
        .filter(|_| !run_review)
    {
        state.axes = round.axes.clone();
        state.deterministic_only = round.deterministic_only;
        for reviewer in reviewers_of_round(round, &prepared.space.state().nodes) {
            state
                .board
                .reviewers
                .insert(reviewer.name.clone(), reviewer);
        }
        crate::ui::update::refresh(&mut state);
    }

    let changed: Vec<String> = prepared
        .diff
        .files
        .iter()
        .filter(|f| !f.binary)
        .map(|f| f.path.clone())
        .collect();
    let worktree = prepared.space.worktree().to_path_buf();
    let session = Arc::new(Mutex::new(Session {
        prepared: None,
        preview: None,
        pending: Vec::new(),
        pending_comments: Vec::new(),
    }));
    let (inbox, receiver) = Inbox::channel();
    let (saves, saves_rx) = mpsc::unbounded_channel();
    tokio::spawn(save_worker(session.clone(), saves_rx, inbox.clone()));
    let mut bridge = Bridge {
        session: session.clone(),
        saves,
        level: options.level,
        publish_options,
        api_url,
        fix_command: fix_command(),
    };
    load_code(&worktree, changed, inbox.clone());
    let diff = Arc::new(prepared.diff.clone());
    inbox.send(Action::Diff(diff.clone()));

    let (_events_tx, events_rx) = mpsc::channel(1);
    if run_review {
        state.loading = None;
        let (tap_tx, mut tap_rx) = mpsc::unbounded_channel();
        options.tap = Some(tap_tx);
        let forward = inbox.clone();
        let forwarder = tokio::spawn(async move {
            while let Some(tap) = tap_rx.recv().await {
                let action = match tap {
                    Tap::Started {
                        run,
                        round,
                        reviewers,
                    } => {
                        forward.send(Action::RunStarted {
                            run,
                            round,
                            reviewers: Vec::new(),
                        });
                        forward.send(Action::Ladder(Ladder::InProgress));
                        Action::Reviewers(reviewers)
                    }
                    Tap::Event(event) => Action::Engine(event),
                    Tap::Estimate(estimate) => Action::Notice(estimate),
                };
                if !forward.send(action) {
                    break;
                }
            }
        });
        let done = inbox.clone();
        let session = session.clone();
        let person = person.clone();
        tokio::spawn(async move {
            let mut prepared = prepared;
            let result = pipeline::review(&mut prepared, &options).await;
            // Everything the run streamed reaches the screen before its result: a reviewer's
            // event relayed late would put the fresh, open node back over the one that carries
            // the person's earlier decision. Dropping the options closes the tap (its only
            // sender), so the relay ends once it has passed on the rest.
            drop(options);
            let _ = forwarder.await;
            match result {
                Ok(result) => {
                    let at =
                        humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string();
                    let mut guard = session.lock().await;
                    let pending = std::mem::take(&mut guard.pending);
                    let comments = std::mem::take(&mut guard.pending_comments);
                    let actor = crate::review::node::Actor::Person(person);
                    let _ =
                        prepared
                            .space
                            .update(|state| -> Result<(), crate::space::StoreError> {
                                for (id, change) in pending {
                                    if let Some(node) = state.nodes.iter_mut().find(|n| n.id == id)
                                        && let Ok(applied) =
                                            status::apply(node, change, &actor, &at)
                                    {
                                        state.suppression_hints.extend(applied.suppression);
                                    }
                                }
                                for (id, text) in comments {
                                    match text {
                                        Some(text) => {
                                            state.comments.insert(id, text);
                                        }
                                        None => {
                                            state.comments.remove(&id);
                                        }
                                    }
                                }
                                Ok(())
                            });
                    done.send(Action::Findings(prepared.space.state().nodes.clone()));
                    done.send(Action::Axes(
                        prepared
                            .space
                            .state()
                            .current_round()
                            .map(|r| r.axes.clone())
                            .unwrap_or_default(),
                    ));
                    if let Some(report) = result.cohorts.clone() {
                        let inbox = done.clone();
                        let diff = diff.clone();
                        let worktree = prepared.space.worktree().to_path_buf();
                        tokio::task::spawn_blocking(move || {
                            inbox.send(Action::Cohorts(cohort_views(&report, &diff, &worktree)));
                        });
                    }
                    done.send(Action::Ladder(prepared.space.state().ladder()));
                    guard.prepared = Some(prepared);
                }
                Err(err) => {
                    done.send(Action::EngineError {
                        title: "The review failed".into(),
                        message: err.to_string(),
                    });
                    let mut guard = session.lock().await;
                    guard.prepared = Some(prepared);
                }
            }
        });
    } else {
        // Cohorts are rebuilt from the cache on reopen; the findings are already on screen.
        let cohort_inbox = inbox.clone();
        let diff = prepared.diff.clone();
        let worktree = prepared.space.worktree().to_path_buf();
        let job = crate::pipeline::CohortJob::of(&mut prepared);
        tokio::task::spawn_blocking(move || {
            if let Ok(report) = job.run() {
                cohort_inbox.send(Action::Cohorts(cohort_views(&report, &diff, &worktree)));
            }
        });
        session.lock().await.prepared = Some(prepared);
    }

    let mut terminal = crate::ui::terminal::enter()?;
    let outcome = crate::ui::run::run_with_inbox(
        &mut terminal,
        &mut state,
        cx,
        events_rx,
        inbox,
        receiver,
        &mut bridge,
    )
    .await;
    crate::ui::terminal::restore()?;
    // The decision the cockpit shows when the person leaves: recomputed by code from the
    // findings as they stand after triage.
    Ok((outcome?, state.verdict.as_ref().map(|v| v.decision)))
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
