//! The cockpit as a program: opens the terminal, runs (or resumes) a round over a prepared
//! space, and connects the loop's effects to the engine. Every triage decision is written to
//! the space at once, so quitting — or being killed — loses nothing.

use std::io::IsTerminal;
use std::path::Path;
use std::sync::{Arc, Mutex};

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
    if std::io::stdout().is_terminal() && std::io::stdin().is_terminal() {
        Ok(())
    } else {
        Err("the cockpit needs a terminal: standard output is not one. Use --headless to print a report instead".into())
    }
}

/// The space and what the cockpit changed while a run was still writing it.
struct Session {
    prepared: Option<Prepared>,
    /// Person changes made while the pipeline owned the space, applied once it hands it back.
    pending: Vec<(String, Change)>,
    pending_comments: Vec<(String, Option<String>)>,
}

pub struct Bridge {
    session: Arc<Mutex<Session>>,
    person: String,
    /// The gate's fix command for findings with only a fix prompt (`[fix] command`).
    fix_command: Option<String>,
}

impl Bridge {
    fn persist(
        &self,
        inbox: &Inbox,
        job: impl FnOnce(&mut Prepared) -> Result<(), String> + Send + 'static,
    ) {
        let session = self.session.clone();
        let inbox = inbox.clone();
        tokio::task::spawn_blocking(move || {
            let mut guard = session.lock().unwrap_or_else(|p| p.into_inner());
            if let Some(prepared) = guard.prepared.as_mut()
                && let Err(message) = job(prepared)
            {
                inbox.send(Action::EngineError {
                    title: "Could not save".into(),
                    message,
                });
            }
        });
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
                let mut guard = self.session.lock().unwrap_or_else(|p| p.into_inner());
                if guard.prepared.is_none() {
                    // A run holds the space: replay the change on its result when it is done.
                    guard.pending.push((node_id, change));
                    return;
                }
                drop(guard);
                self.persist(inbox, move |prepared| {
                    prepared
                        .space
                        .update(|state| -> Result<(), crate::space::StoreError> {
                            upsert(&mut state.nodes, *node);
                            if let Some(hint) = suppression {
                                state.suppression_hints.push(hint);
                            }
                            Ok(())
                        })
                        .map_err(|e| e.to_string())
                });
            }
            // Reviewer findings are recorded by the pipeline at the end of its run.
            Effect::PersistNode(_) => {}
            Effect::SaveComment { node_id, text } => {
                let mut guard = self.session.lock().unwrap_or_else(|p| p.into_inner());
                if guard.prepared.is_none() {
                    guard.pending_comments.push((node_id, text));
                    return;
                }
                drop(guard);
                self.persist(inbox, move |prepared| {
                    prepared
                        .space
                        .update(|state| -> Result<(), crate::space::StoreError> {
                            match text {
                                Some(text) => {
                                    state.comments.insert(node_id, text);
                                }
                                None => {
                                    state.comments.remove(&node_id);
                                }
                            }
                            Ok(())
                        })
                        .map_err(|e| e.to_string())
                });
            }
            Effect::SetLevel(_) => {}
            Effect::WritePatch { node_ids } => {
                let inbox = inbox.clone();
                let session = self.session.clone();
                let command = self.fix_command.clone();
                tokio::task::spawn_blocking(move || {
                    let guard = session.lock().unwrap_or_else(|p| p.into_inner());
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
                        match jobs.and_then(|jobs| jobs.run(&command, crate::fix::FIX_TIMEOUT)) {
                            Ok(written) => inbox.send(Action::Notice(written)),
                            Err(message) => inbox.send(Action::EngineError {
                                title: "The fix command did not answer".into(),
                                message,
                            }),
                        };
                        return;
                    }
                    match crate::fix::write_patch(prepared, &node_ids) {
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
                tokio::task::spawn_blocking(move || {
                    let guard = session.lock().unwrap_or_else(|p| p.into_inner());
                    let Some(prepared) = guard.prepared.as_ref() else {
                        inbox.send(Action::Notice("the review is still running".into()));
                        return;
                    };
                    inbox.send(Action::PublishPreview(local_preview(prepared)));
                });
            }
            Effect::Publish => {
                let inbox = inbox.clone();
                let session = self.session.clone();
                let person = self.person.clone();
                tokio::task::spawn_blocking(move || {
                    let mut guard = session.lock().unwrap_or_else(|p| p.into_inner());
                    let Some(prepared) = guard.prepared.as_mut() else {
                        inbox.send(Action::Notice("the review is still running".into()));
                        return;
                    };
                    match publish_local(prepared, &person) {
                        Ok(target) => {
                            inbox.send(Action::Published { target });
                            inbox.send(Action::Ladder(Ladder::Completed));
                        }
                        Err(message) => {
                            inbox.send(Action::EngineError {
                                title: "Not published".into(),
                                message,
                            });
                        }
                    }
                });
            }
            Effect::Quit | Effect::Abort => {}
        }
    }
}

/// What publishing would post, computed from the space's last round.
fn local_preview(prepared: &Prepared) -> PreviewData {
    let state = prepared.space.state();
    let decision = state
        .current_round()
        .and_then(|r| r.decision.clone())
        .unwrap_or_else(|| "inconclusive".into());
    let event = match decision.as_str() {
        "block" => "REQUEST_CHANGES",
        "ship" => "APPROVE",
        _ => "COMMENT",
    };
    let active: Vec<&ReviewNode> = state
        .nodes
        .iter()
        .filter(|n| n.status.is_active() && n.duplicate_of.is_none())
        .collect();
    let (inline, body_only): (Vec<&ReviewNode>, Vec<&ReviewNode>) = active.iter().partition(|n| {
        n.anchor.as_ref().is_some_and(|a| {
            prepared
                .diff
                .range_in_diff(&a.path, a.side, a.start_line, a.end_line)
        })
    });
    let mut body = format!("Decision: {}\n\n", decision.to_uppercase());
    for node in &active {
        body.push_str(&format!(
            "- {} {} — {}\n",
            node.priority,
            node.location(),
            state.comments.get(&node.id).unwrap_or(&node.text.title)
        ));
    }
    PreviewData {
        event: event.to_string(),
        inline_comments: inline.len(),
        moved_to_body: body_only.iter().map(|n| n.location()).collect(),
        body,
        target: format!("{}", prepared.space.path().join("review.md").display()),
    }
}

/// Writes the round's review into the space (the local forge's publishing).
fn publish_local(prepared: &mut Prepared, _person: &str) -> Result<String, String> {
    let preview = local_preview(prepared);
    let at = humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string();
    let target = preview.target.clone();
    prepared
        .space
        .update(|state| -> Result<(), crate::space::SpaceError> {
            state.begin_publish(&target, &at)?;
            crate::space::write_atomically(std::path::Path::new(&target), preview.body.as_bytes())
                .map_err(|source| crate::space::SpaceError::Io {
                    path: target.clone().into(),
                    source,
                })?;
            state.finish_publish(None, &at)?;
            state.advance(Ladder::Completed)?;
            Ok(())
        })
        .map_err(|e| e.to_string())?;
    Ok(target)
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

/// Runs the cockpit over `prepared`. With `run_review`, a new round is reviewed live; without,
/// the space's last round is shown as recorded (reopening resumes).
pub async fn run_cockpit(
    prepared: Prepared,
    mut options: ReviewOptions,
    run_review: bool,
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
        pending: Vec::new(),
        pending_comments: Vec::new(),
    }));
    let mut bridge = Bridge {
        session: session.clone(),
        person: person.clone(),
        fix_command: fix_command(),
    };

    let (inbox, receiver) = Inbox::channel();
    load_code(&worktree, changed, inbox.clone());
    let diff = Arc::new(prepared.diff.clone());
    inbox.send(Action::Diff(diff.clone()));

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
                    let mut guard = session.lock().unwrap_or_else(|p| p.into_inner());
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
                    let mut guard = session.lock().unwrap_or_else(|p| p.into_inner());
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
                cohort_inbox.send(Action::Cohorts(cohort_views(&report, &diff, &worktree)));
            }
        });
        session.lock().unwrap_or_else(|p| p.into_inner()).prepared = Some(prepared);
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
