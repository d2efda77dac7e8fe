//! Asking a reviewer, the part that runs off the session: what the review room needs
//! ([`RoomSetup`]), the question on its way ([`AskJob`]), what its answer says as it comes
//! ([`ThreadUpdate`]) and how that changes the thread ([`apply_update`]). The session
//! (`service::serve`) runs the jobs and records the updates; `room` starts them.

use std::sync::Arc;

use tokio::sync::{mpsc, watch};

use crate::review::thread::{Proposal, Thread, ThreadState};
use crate::reviewers::model::agent::Bounds;
use crate::reviewers::model::ask::{self, AskError, AskEvent, AskInput};
use crate::reviewers::model::passes::Kit;
use crate::reviewers::model::provider::{Provider, Usage};
use crate::reviewers::model::roster::Roster;
use crate::reviewers::redact;
use crate::space::journal::Journal;

/// What asking needs: every role's reviewer (the roster of the thorough level, metered against
/// the review's budget), their bounds, and the secret configuration the redaction reads.
#[derive(Debug, Clone)]
pub struct RoomSetup {
    pub roster: Roster,
    pub bounds: Bounds,
    pub secret_config: Option<crate::reviewers::deterministic::secrets::UserConfig>,
}

/// One question on its way: run it with [`AskJob::run`], off the session.
pub struct AskJob {
    pub(super) thread: String,
    pub(super) kit: Kit,
    pub(super) provider: Arc<dyn Provider>,
    pub(super) input: AskInput,
}

/// What an answer did, for the session to record.
#[derive(Debug)]
pub struct ThreadUpdate {
    pub thread: String,
    pub event: ThreadEvent,
}

#[derive(Debug)]
pub enum ThreadEvent {
    Said(AskEvent),
    Ended(Result<Usage, (AskError, Usage)>),
}

impl AskJob {
    /// Runs the conversation, saying each step on `updates`; `stop` turning true cancels it.
    pub async fn run(
        self,
        updates: mpsc::UnboundedSender<ThreadUpdate>,
        stop: watch::Receiver<bool>,
    ) {
        let (said, mut heard) = mpsc::unbounded_channel();
        let relay = {
            let updates = updates.clone();
            let thread = self.thread.clone();
            tokio::spawn(async move {
                while let Some(event) = heard.recv().await {
                    let _ = updates.send(ThreadUpdate {
                        thread: thread.clone(),
                        event: ThreadEvent::Said(event),
                    });
                }
            })
        };
        let ended = ask::answer(&self.kit, &self.provider, &self.input, &said, stop).await;
        drop(said);
        let _ = relay.await;
        let _ = updates.send(ThreadUpdate {
            thread: self.thread,
            event: ThreadEvent::Ended(ended),
        });
    }
}

/// The file a thread's updates are journaled in while a round owns `state.json`.
pub(crate) fn thread_journal(space: &std::path::Path) -> Journal {
    Journal::of_space_named(space, "threads.jsonl")
}

/// Applies `update` to `thread` (pure: the caller records the result).
pub(crate) fn apply_update(thread: &mut Thread, event: ThreadEvent, at: &str) {
    match event {
        ThreadEvent::Said(AskEvent::Text(text)) => {
            if !thread.answer.is_empty() {
                thread.answer.push_str("\n\n");
            }
            thread.answer.push_str(text.trim());
        }
        ThreadEvent::Said(AskEvent::Tool { .. }) => {}
        ThreadEvent::Said(AskEvent::Proposal(proposal)) => thread.proposal = Some(proposal),
        ThreadEvent::Said(AskEvent::Tokens(tokens)) => thread.tokens = tokens,
        ThreadEvent::Ended(result) => {
            let (state, usage) = match result {
                Ok(usage) => (ThreadState::Answered, usage),
                Err((AskError::Cancelled, usage)) => (ThreadState::Cancelled, usage),
                Err((error, usage)) => (
                    ThreadState::Failed(redact::outbound(&error.to_string())),
                    usage,
                ),
            };
            thread.state = state;
            thread.tokens = thread.tokens.max(usage.total());
            thread.answered_at = Some(at.to_string());
        }
    }
}

/// A thread's proposal, for a client to show (`engineer proposes to withdraw: …`).
pub fn proposal_line(thread: &Thread) -> Option<String> {
    let proposal: &Proposal = thread.proposal.as_ref()?;
    Some(format!("{} {}", thread.reviewer, proposal.describe()))
}

/// A question asked while a review round runs waits for the round to end (the round has the
/// space until then): its thread as the client shows it meanwhile (answering: it will be), and
/// as the journal keeps it (interrupted: what a process killed before the round ends leaves, the
/// question kept, to ask again). `state` is the space as the round began, `waiting` the
/// questions already waiting, `at` the time it is asked; `None` for an empty question.
pub(crate) fn queued(
    state: &crate::space::SpaceState,
    waiting: &[Thread],
    person: &str,
    ask: &crate::session::command::Ask,
    at: &str,
) -> Option<Thread> {
    use crate::review::level::Role;
    use crate::review::node::Source;
    use crate::review::thread;
    let question = redact::outbound(ask.question.trim());
    if question.is_empty() {
        return None;
    }
    let finding = ask
        .finding
        .as_ref()
        .and_then(|id| state.nodes.iter().find(|n| &n.id == id));
    let raised_by = finding
        .filter(|n| n.origin.source == Source::Model)
        .and_then(|n| n.origin.reviewer.parse::<Role>().ok());
    let role = ask.role.or(raised_by).unwrap_or(Role::Engineer);
    let taken = |id: &str| state.threads.iter().chain(waiting).any(|t| t.id == id);
    let id = match &ask.thread {
        Some(id) if id.starts_with(thread::ID_PREFIX) && !taken(id) => id.clone(),
        _ => thread::next_id(state.threads.iter().chain(waiting)),
    };
    Some(Thread {
        id,
        round: state.current_round().map_or(0, |r| r.number),
        finding: ask.finding.clone(),
        fingerprint: finding.map(|n| n.fingerprint.clone()).unwrap_or_default(),
        asked_by: person.to_string(),
        reviewer: role.as_str().to_string(),
        question,
        asked_at: at.to_string(),
        answer: String::new(),
        answered_at: None,
        tokens: 0,
        state: ThreadState::Answering,
        proposal: None,
    })
}
