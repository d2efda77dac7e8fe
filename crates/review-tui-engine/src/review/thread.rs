//! A question the person asked a reviewer, and its answer: one thread of the review room.
//!
//! A thread is about one finding (found again in a later round by its fingerprint) or about
//! the whole change (it belongs to the round it was asked in). The answer is prose for the
//! person to read, never parsed for decisions: a reviewer changes its finding only by a
//! [`Proposal`] made through the reviewer protocol, and only the person's acceptance applies it
//! (as the person's own decision, with the reviewer's reason).

use serde::{Deserialize, Serialize};

use super::node::{Kind, Priority, ReviewNode};

/// The prefix of every thread id.
pub const ID_PREFIX: &str = "ask-";

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Thread {
    pub id: String,
    /// The round the question was asked in.
    pub round: u32,
    /// The finding asked about (its id then), `None` for a question about the whole change.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub finding: Option<String>,
    /// The finding's fingerprint: how the thread finds its finding in a later round.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub fingerprint: String,
    pub asked_by: String,
    /// The reviewer (a role) that answers.
    pub reviewer: String,
    pub question: String,
    pub asked_at: String,
    #[serde(default)]
    pub answer: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub answered_at: Option<String>,
    /// Input plus output tokens the answer cost.
    #[serde(default)]
    pub tokens: u64,
    #[serde(default)]
    pub state: ThreadState,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub proposal: Option<Proposal>,
}

/// Where an answer stands.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "state", content = "reason")]
pub enum ThreadState {
    /// Asked; the answer is coming.
    #[default]
    Answering,
    Answered,
    /// The process ended while the answer was coming: what arrived is kept, the question can
    /// be asked again.
    Interrupted,
    /// The person stopped it.
    Cancelled,
    /// No answer: the reason (a provider error, the budget spent, a bound).
    Failed(String),
}

impl ThreadState {
    pub fn is_open(&self) -> bool {
        matches!(self, ThreadState::Answering)
    }

    pub fn label(&self) -> String {
        match self {
            ThreadState::Answering => "answering…".into(),
            ThreadState::Answered => "answered".into(),
            ThreadState::Interrupted => "interrupted (ask again)".into(),
            ThreadState::Cancelled => "cancelled".into(),
            ThreadState::Failed(reason) => format!("failed: {reason}"),
        }
    }
}

/// What a reviewer proposes to do with its finding, through the protocol.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "action")]
pub enum ProposedChange {
    /// Withdraw the finding: accepted, the person dismisses it with the reviewer's reason.
    Withdraw,
    /// Another priority or kind (at least one).
    Reclassify {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        priority: Option<Priority>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        kind: Option<Kind>,
    },
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Proposal {
    pub change: ProposedChange,
    pub reason: String,
    /// `None` until the person accepts or declines.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub accepted: Option<bool>,
}

impl Proposal {
    /// "proposes to withdraw: …" / "proposes P3 suggestion: …", after the reviewer's name.
    pub fn describe(&self) -> String {
        let what = match &self.change {
            ProposedChange::Withdraw => "withdraw".to_string(),
            ProposedChange::Reclassify { priority, kind } => {
                let parts: Vec<&str> = priority
                    .map(Priority::as_str)
                    .into_iter()
                    .chain(kind.map(Kind::as_str))
                    .collect();
                format!("make it {}", parts.join(" "))
            }
        };
        format!("proposes to {what}: {}", self.reason)
    }
}

impl Thread {
    /// True when this thread is about `node`: by fingerprint when both have one (a later
    /// round's node of the same problem), else by id.
    pub fn is_about(&self, node: &ReviewNode) -> bool {
        if self.finding.is_none() {
            return false;
        }
        if !self.fingerprint.is_empty() && node.prints().any(|p| p == self.fingerprint) {
            return true;
        }
        self.finding.as_deref() == Some(node.id.as_str())
            && (self.fingerprint.is_empty() || node.fingerprint.is_empty())
    }
}

/// The id of the next thread among `threads`.
pub fn next_id<'a>(threads: impl IntoIterator<Item = &'a Thread>) -> String {
    let highest = threads
        .into_iter()
        .filter_map(|t| t.id.strip_prefix(ID_PREFIX)?.parse::<u64>().ok())
        .max()
        .unwrap_or(0);
    format!("{ID_PREFIX}{}", highest + 1)
}

/// Puts `thread` in `threads` (replacing the one with its id).
pub fn upsert(threads: &mut Vec<Thread>, thread: Thread) {
    match threads.iter_mut().find(|t| t.id == thread.id) {
        Some(old) => *old = thread,
        None => threads.push(thread),
    }
}

/// Every answer still coming when the process that asked ended: marked interrupted, what
/// arrived kept. Returns how many.
pub fn interrupt_open(threads: &mut [Thread]) -> usize {
    let mut count = 0;
    for thread in threads.iter_mut().filter(|t| t.state.is_open()) {
        thread.state = ThreadState::Interrupted;
        count += 1;
    }
    count
}

#[cfg(test)]
mod tests {
    use super::*;

    fn thread(id: &str, state: ThreadState) -> Thread {
        Thread {
            id: id.into(),
            round: 1,
            finding: Some("engineer-1".into()),
            fingerprint: "fp".into(),
            asked_by: "ana".into(),
            reviewer: "engineer".into(),
            question: "why?".into(),
            asked_at: "t".into(),
            answer: "because".into(),
            answered_at: None,
            tokens: 0,
            state,
            proposal: None,
        }
    }

    #[test]
    fn open_answers_are_interrupted_and_kept() {
        let mut threads = vec![
            thread("ask-1", ThreadState::Answered),
            thread("ask-2", ThreadState::Answering),
        ];
        assert_eq!(interrupt_open(&mut threads), 1);
        assert_eq!(threads[1].state, ThreadState::Interrupted);
        assert_eq!(threads[1].answer, "because");
        assert_eq!(next_id(&threads), "ask-3");
        let text = serde_json::to_string(&threads[1]).unwrap();
        let back: Thread = serde_json::from_str(&text).unwrap();
        assert_eq!(back, threads[1]);
        let mut failed = thread("ask-3", ThreadState::Failed("budget".into()));
        failed.proposal = Some(Proposal {
            change: ProposedChange::Reclassify {
                priority: Some(Priority::P3),
                kind: None,
            },
            reason: "only a style point".into(),
            accepted: None,
        });
        upsert(&mut threads, failed.clone());
        upsert(&mut threads, failed.clone());
        assert_eq!(threads.len(), 3);
        let text = serde_json::to_string(&failed).unwrap();
        assert_eq!(serde_json::from_str::<Thread>(&text).unwrap(), failed);
        assert_eq!(
            failed.proposal.unwrap().describe(),
            "proposes to make it P3: only a style point"
        );
    }

    #[test]
    fn a_thread_follows_its_finding_by_fingerprint() {
        let t = thread("ask-1", ThreadState::Answered);
        let draft = crate::review::person::PersonDraft::new(
            crate::review::node::Anchor {
                path: "a".try_into().unwrap(),
                side: crate::review::side::Side::Right,
                start_line: 1,
                end_line: 1,
            },
            "x",
        );
        let mut node = crate::review::person::finding("engineer-7", "ana", &draft);
        node.fingerprint = "fp".into();
        assert!(t.is_about(&node));
        node.fingerprint = "other".into();
        assert!(!t.is_about(&node));
        node.id = "engineer-1".into();
        assert!(!t.is_about(&node), "same id, another problem");
    }
}
