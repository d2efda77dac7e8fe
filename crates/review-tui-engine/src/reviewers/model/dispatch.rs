//! Dispatch: every model reviewer of a round runs at once on tokio, at most `concurrency`
//! conversations at a time, each streaming its `ReviewEvent`s over the one bounded channel the
//! pipeline's loop drains. Cancelling (the watch channel turning true) stops them all: a reviewer
//! waiting for a slot starts, sees the cancellation and ends `failed: cancelled`.
//!
//! A diff too big for one conversation comes in parts; each part is its own conversation under
//! the same reviewer, run one after the other; the wall-clock and token bounds are shared across
//! them (what one part used, the next cannot), the tool-call bound applies per conversation. The board sees one reviewer: one `Started`, the nodes
//! of every part (ids of later parts carry the part number), one `Done` or the first `Failed`.

use std::collections::BTreeSet;
use std::sync::Arc;
use std::time::Instant;

use tokio::sync::{Semaphore, mpsc, watch};

use crate::review::events::{EventKind, ReviewEvent, RunId};
use crate::review::verdict::Outcome;
use crate::reviewers::model::agent::{
    Agent, Bounds, ContextPart, Pricing, ReviewerSpec, RunReport,
};

/// One model reviewer to run.
#[derive(Clone)]
pub struct Assignment {
    /// The reviewer's name (its role): node ids, events and stances carry it.
    pub name: String,
    pub required: bool,
    pub agent: Agent,
    /// The whole system brief: header, role brief, standing rules.
    pub brief: String,
    /// One conversation per entry, in order.
    pub conversations: Vec<Vec<ContextPart>>,
    pub bounds: Bounds,
    pub pricing: Option<Pricing>,
}

/// How one reviewer ended, over all its conversations.
#[derive(Debug, Clone, PartialEq)]
pub struct Finished {
    pub name: String,
    pub report: RunReport,
}

/// Runs every assignment, at most `concurrency` conversations at once; returns when all ended.
/// `cancel` stops them all; a name in `stop_one` stops that reviewer alone.
pub async fn dispatch(
    assignments: Vec<Assignment>,
    run: RunId,
    concurrency: usize,
    events: mpsc::Sender<ReviewEvent>,
    cancel: watch::Receiver<bool>,
    stop_one: Option<watch::Receiver<BTreeSet<String>>>,
) -> Vec<Finished> {
    let slots = Arc::new(Semaphore::new(concurrency.max(1)));
    let mut tasks = tokio::task::JoinSet::new();
    for (index, assignment) in assignments.into_iter().enumerate() {
        let slots = slots.clone();
        let events = events.clone();
        let mut cancel = match &stop_one {
            Some(one) => either(cancel.clone(), one.clone(), assignment.name.clone()),
            None => cancel.clone(),
        };
        tasks.spawn(async move {
            // A cancelled reviewer does not wait for a slot: it starts and stops at once.
            let _slot = tokio::select! {
                slot = slots.acquire_owned() => slot.ok(),
                _ = cancelled(&mut cancel) => None,
            };
            let name = assignment.name.clone();
            let report = run_reviewer(assignment, run, &events, cancel).await;
            (index, Finished { name, report })
        });
    }
    drop(events);
    let mut finished: Vec<(usize, Finished)> = Vec::new();
    while let Some(joined) = tasks.join_next().await {
        match joined {
            Ok(done) => finished.push(done),
            // A panicking reviewer is a bug; the board still counts it as unfinished (failed).
            Err(e) => eprintln!("review-tui: a reviewer task failed: {e}"),
        }
    }
    finished.sort_by_key(|(index, _)| *index);
    finished.into_iter().map(|(_, f)| f).collect()
}

/// A cancellation that turns true when `all` does or when `one` names `name`: one reviewer
/// stopped by the person, the others going on.
fn either(
    mut all: watch::Receiver<bool>,
    mut one: watch::Receiver<BTreeSet<String>>,
    name: String,
) -> watch::Receiver<bool> {
    let (tx, rx) = watch::channel(false);
    tokio::spawn(async move {
        // A sender gone means nobody can stop through it any more: stop watching it.
        let (mut all_open, mut one_open) = (true, true);
        loop {
            if *all.borrow_and_update() || one.borrow_and_update().contains(&name) {
                let _ = tx.send(true);
                return;
            }
            tokio::select! {
                changed = all.changed(), if all_open => all_open = changed.is_ok(),
                changed = one.changed(), if one_open => one_open = changed.is_ok(),
                // The reviewer ended: nobody listens.
                _ = tx.closed() => return,
            }
        }
    });
    rx
}

/// Resolves when `cancel` turns true; never if its sender is gone.
pub async fn cancelled(cancel: &mut watch::Receiver<bool>) {
    if cancel.wait_for(|stop| *stop).await.is_err() {
        std::future::pending::<()>().await;
    }
}

async fn run_reviewer(
    assignment: Assignment,
    run: RunId,
    events: &mpsc::Sender<ReviewEvent>,
    cancel: watch::Receiver<bool>,
) -> RunReport {
    let count = assignment.conversations.len();
    let spec = |context: Vec<ContextPart>, bounds: Bounds| ReviewerSpec {
        run,
        name: assignment.name.clone(),
        required: assignment.required,
        brief: assignment.brief.clone(),
        context,
        bounds,
        pricing: assignment.pricing,
    };
    if count <= 1 {
        let context = assignment
            .conversations
            .into_iter()
            .next()
            .unwrap_or_default();
        return assignment
            .agent
            .run(
                spec(context, assignment.bounds.clone()),
                events.clone(),
                cancel,
            )
            .await;
    }
    let started = Instant::now();
    let mut total = RunReport {
        outcome: Outcome::Ok,
        note: String::new(),
        nodes_added: 0,
        dropped: 0,
        tokens_used: 0,
    };
    let mut summaries = Vec::new();
    for (index, context) in assignment.conversations.iter().enumerate() {
        let mut bounds = assignment.bounds.clone();
        bounds.timeout = assignment.bounds.timeout.saturating_sub(started.elapsed());
        bounds.max_tokens = assignment
            .bounds
            .max_tokens
            .saturating_sub(total.tokens_used);
        let relay = Relay {
            keep_started: index == 0,
            keep_end: false,
            id_tag: (index > 0).then(|| format!("p{}", index + 1)),
            token_offset: total.tokens_used,
        };
        let report = relay
            .run(
                &assignment.agent,
                spec(context.clone(), bounds),
                events,
                cancel.clone(),
            )
            .await;
        total.nodes_added += report.nodes_added;
        total.dropped += report.dropped;
        total.tokens_used = total.tokens_used.saturating_add(report.tokens_used);
        if report.outcome != Outcome::Ok {
            let reason = format!("part {} of {count}: {}", index + 1, report.note);
            let _ = events
                .send(ReviewEvent::new(
                    run,
                    assignment.name.clone(),
                    EventKind::Failed {
                        outcome: report.outcome,
                        reason: reason.clone(),
                    },
                ))
                .await;
            total.outcome = report.outcome;
            total.note = reason;
            return total;
        }
        if !report.note.is_empty() {
            summaries.push(format!("part {}: {}", index + 1, report.note));
        }
    }
    total.note = summaries.join(" ");
    let _ = events
        .send(ReviewEvent::new(
            run,
            assignment.name.clone(),
            EventKind::Done {
                summary: total.note.clone(),
            },
        ))
        .await;
    total
}

/// Runs one conversation of a reviewer whose events are rewritten on the way to the board: a
/// later part or a pass must not restart the reviewer, end it, reuse its node ids, or reset its
/// token count.
#[derive(Debug, Clone, Default)]
pub struct Relay {
    pub keep_started: bool,
    pub keep_end: bool,
    /// `engineer-3` becomes `engineer-<tag>-3`.
    pub id_tag: Option<String>,
    /// Added to progress reports: the board shows the reviewer's total.
    pub token_offset: u64,
}

impl Relay {
    pub async fn run(
        &self,
        agent: &Agent,
        spec: ReviewerSpec,
        events: &mpsc::Sender<ReviewEvent>,
        cancel: watch::Receiver<bool>,
    ) -> RunReport {
        let name = spec.name.clone();
        let (sender, mut receiver) = mpsc::channel(64);
        let work = agent.run(spec, sender, cancel);
        let forward = async {
            while let Some(mut event) = receiver.recv().await {
                let keep = match &mut event.kind {
                    EventKind::Started { .. } => self.keep_started,
                    EventKind::Done { .. } | EventKind::Failed { .. } => self.keep_end,
                    EventKind::NodeAdded { node } => {
                        if let Some(tag) = &self.id_tag
                            && let Some(n) = node.id.strip_prefix(&format!("{name}-"))
                        {
                            node.id = format!("{name}-{tag}-{n}");
                        }
                        true
                    }
                    EventKind::Progress { tokens_used, .. } => {
                        *tokens_used = tokens_used.saturating_add(self.token_offset);
                        true
                    }
                    EventKind::Stance { .. }
                    | EventKind::Dropped { .. }
                    | EventKind::Waiting { .. }
                    | EventKind::Retrying { .. } => true,
                    // Only the session's passes speak as a pass, never a reviewer.
                    EventKind::Refuted { .. }
                    | EventKind::Scored { .. }
                    | EventKind::Contested { .. }
                    | EventKind::Traced { .. } => false,
                };
                // Keep draining even if the board is gone, so the reviewer never blocks.
                if keep {
                    let _ = events.send(event).await;
                }
            }
        };
        let (report, ()) = tokio::join!(work, forward);
        report
    }
}
