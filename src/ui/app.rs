//! The cockpit as a program: opens the terminal, runs (or resumes) a round over a prepared
//! space, and connects the loop's effects to the engine. Every triage decision is written to
//! the space at once, so quitting — or being killed — loses nothing.

use std::io::IsTerminal;
use std::path::Path;
use std::sync::Arc;

use tokio::sync::Mutex;

use tokio::sync::mpsc;

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
    if std::io::stdout().is_terminal() && std::io::stdin().is_terminal() {
        Ok(())
    } else {
        Err("the cockpit needs a terminal: standard output is not one. Use --headless to print a report instead".into())
    }
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
                tokio::spawn(async move {
                    let guard = session.lock().await;
                    let Some(prepared) = guard.prepared.as_ref() else {
                        inbox.send(Action::Notice(
                            "the review is still running: try again when it is done".into(),
                        ));
                        return;
                    };
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
            Effect::Quit | Effect::Abort => {}
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

fn cohort_views(report: &crate::cohort::CohortReport) -> Vec<CohortView> {
    report
        .cohorts
        .iter()
        .map(|c| CohortView {
            key: c.key.clone(),
            label: c.label.clone(),
            files: c.files.clone(),
            fallback: c.fallback,
            blast_radius: c.blast_radius as u32,
        })
        .collect()
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

/// Runs the cockpit over `prepared`. With `run_review`, a new round is reviewed live; without,
/// the space's last round is shown as recorded (reopening resumes).
pub async fn run_cockpit(
    prepared: Prepared,
    mut options: ReviewOptions,
    run_review: bool,
    publish_options: crate::publish::PublishOptions,
    api_url: Option<String>,
    cx: &ViewContext,
) -> anyhow::Result<RunOutcome> {
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
    };
    load_code(&worktree, changed, inbox.clone());

    let (_events_tx, events_rx) = mpsc::channel(1);
    if run_review {
        state.loading = None;
        let (tap_tx, mut tap_rx) = mpsc::unbounded_channel();
        options.tap = Some(tap_tx);
        let forward = inbox.clone();
        tokio::spawn(async move {
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
                    if let Some(cohorts) = &result.cohorts {
                        done.send(Action::Cohorts(cohort_views(cohorts)));
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
        let cache = crate::cohort::cache_dir_in(prepared.space.path());
        let head = prepared.space.state().head_sha.clone();
        tokio::task::spawn_blocking(move || {
            if let Ok(report) = crate::cohort::build(crate::cohort::CohortInput {
                diff: &diff,
                worktree: &worktree,
                base: None,
                cache_dir: Some(&cache),
                head_sha: &head,
            }) {
                cohort_inbox.send(Action::Cohorts(cohort_views(&report)));
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
    Ok(outcome?)
}
