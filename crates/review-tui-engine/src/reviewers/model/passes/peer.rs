//! The peer round: each model reviewer that finished is shown the other reviewers' open
//! findings and confirms or disputes them with `confirm_node` / `dispute_node`. It runs as the
//! same reviewer (a stance is that reviewer's), so a confirmation of its own finding is refused by
//! the status service when the board applies it. Its events reach the board through a relay that
//! keeps the reviewer's own lifecycle (started, done) untouched: a peer round that fails is a
//! coverage note, not a failed reviewer.

use tokio::sync::mpsc;

use crate::review::events::{ReviewEvent, RunId};
use crate::review::node::{ReviewNode, Source};
use crate::review::role::same_agent;
use crate::review::verdict::Outcome;
use crate::reviewers::model::agent::{Agent, Bounds, ContextPart, Pricing, ReviewerSpec};
use crate::reviewers::model::dispatch::Relay;
use crate::reviewers::model::roster::header;

use super::describe;

/// At most this many findings are put before one peer: blocking ones first.
pub const MAX_SHOWN: usize = 40;

const PEER_RULES: &str = "\
This is the peer round. The other reviewers' open findings are listed in the context. For each \
one you can check, read the code it points at (read_file, search_text, find_symbol), then call \
confirm_node when the code supports it or dispute_node when the code contradicts it, with a note \
that cites what you read. Leave alone what you cannot check. You cannot confirm or dispute your \
own findings. Add a new finding only for a serious problem nobody reported. Then call finish.";

/// One reviewer to put through the peer round.
pub struct Peer {
    pub name: String,
    pub agent: Agent,
    pub brief: String,
    pub pricing: Option<Pricing>,
    /// Tokens it used so far, so the board keeps showing its total.
    pub tokens_so_far: u64,
}

/// The findings `name` is asked about: every other agent's active, in-scope finding, model and
/// deterministic alike, most severe first, at most [`MAX_SHOWN`] (security is not shown the
/// architect's findings: it is the same agent).
pub fn shown_to<'a>(name: &str, nodes: &'a [ReviewNode]) -> Vec<&'a ReviewNode> {
    let mut shown: Vec<&ReviewNode> = nodes
        .iter()
        .filter(|n| n.status.is_active() && n.in_scope() && n.duplicate_of.is_none())
        .filter(|n| !(same_agent(&n.origin.reviewer, name) && n.origin.source == Source::Model))
        .collect();
    shown.sort_by(|a, b| {
        (a.priority, &a.id)
            .cmp(&(b.priority, &b.id))
            .then(b.confidence.total_cmp(&a.confidence))
    });
    shown.truncate(MAX_SHOWN);
    shown
}

/// Runs the peer round for every peer at once (at most `concurrency`); returns coverage notes.
pub async fn run(
    peers: Vec<Peer>,
    nodes: &[ReviewNode],
    run: RunId,
    bounds: &Bounds,
    concurrency: usize,
    events: mpsc::Sender<ReviewEvent>,
    cancel: tokio::sync::watch::Receiver<bool>,
) -> Vec<String> {
    let slots = std::sync::Arc::new(tokio::sync::Semaphore::new(concurrency.max(1)));
    let mut tasks = tokio::task::JoinSet::new();
    for (index, peer) in peers.into_iter().enumerate() {
        let shown = shown_to(&peer.name, nodes);
        if shown.is_empty() {
            continue;
        }
        let listing: String = shown.iter().map(|n| describe(n)).collect();
        let spec = ReviewerSpec {
            run,
            name: peer.name.clone(),
            required: true,
            brief: format!(
                "{}\n\n{}\n\n{PEER_RULES}",
                header(&peer.name, "peer round"),
                peer.brief.trim()
            ),
            // The titles and evidence quote the pull request (a prompt injection's finding
            // quotes the injection itself): data, never instructions.
            context: vec![ContextPart::untrusted(
                "findings of the other reviewers (their titles and evidence quote the pull \
                 request)",
                listing,
            )],
            bounds: bounds.clone(),
            pricing: peer.pricing,
        };
        let relay = Relay {
            keep_started: false,
            keep_end: false,
            id_tag: Some("peer".into()),
            token_offset: peer.tokens_so_far,
        };
        let (slots, events, cancel) = (slots.clone(), events.clone(), cancel.clone());
        tasks.spawn(async move {
            let _slot = slots.acquire_owned().await.ok();
            let report = relay.run(&peer.agent, spec, &events, cancel).await;
            (index, peer.name, report)
        });
    }
    drop(events);
    let mut notes = Vec::new();
    while let Some(Ok((index, name, report))) = tasks.join_next().await {
        if report.outcome != Outcome::Ok {
            notes.push((
                index,
                format!(
                    "peer round: {name} did not finish ({}); its stances so far count",
                    report.note
                ),
            ));
        }
    }
    notes.sort();
    notes.into_iter().map(|(_, note)| note).collect()
}
