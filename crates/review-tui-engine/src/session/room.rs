//! The review room, the session's side: the person's own findings (put, edited, deleted like
//! any triage decision), the questions asked of the reviewers and their threads, and the
//! proposals an answer carries, which only the person's acceptance applies.
//!
//! A question runs off the session (its answer can take minutes; triage goes on meanwhile):
//! [`Session::start_ask`] records the thread as answering and hands back an
//! [`AskJob`](crate::session::ask::AskJob); the job streams updates, and the session's one
//! writer records each ([`Session::record_thread`]). A process that dies while an answer is
//! coming leaves the thread answering on disk; the next session marks it interrupted
//! ([`Session::settle_threads`]).

use tokio::sync::watch;

use crate::review::level::Role;
use crate::review::node::{Actor, Kind, Priority, ReviewNode, Source};
use crate::review::person::{self, PersonDraft};
use crate::review::reclassify;
use crate::review::status::Change;
use crate::review::thread::{self, ProposedChange, Thread, ThreadState};
use crate::reviewers::model::ask::AskInput;
use crate::reviewers::model::passes::Kit;
use crate::reviewers::redact;
use crate::session::ask::{AskJob, RoomSetup, thread_journal};
use crate::session::command::Ask;
use crate::session::publisher::Publisher;
use crate::session::service::{Session, SessionError, now};

impl<P: Publisher> Session<P> {
    /// The person's own finding under `node_id`: a new one, or an edit of theirs. Its text is
    /// redacted before it is stored, as everything a round stores is.
    pub fn put_finding(&mut self, node_id: &str, draft: PersonDraft) -> Result<(), SessionError> {
        person::check(node_id, &draft).map_err(SessionError::Draft)?;
        let mut draft = draft;
        draft.text = redact::outbound(&draft.text);
        draft.replacement = draft
            .replacement
            .map(|lines| lines.iter().map(|l| redact::outbound(l)).collect());
        let name = self.setup.person.clone();
        let worktree = self.prepared.space.worktree().to_path_buf();
        let diff = self.prepared.diff.clone();
        self.prepared
            .space
            .update(|state| -> Result<(), SessionError> {
                let index = match state.nodes.iter().position(|n| n.id == node_id) {
                    Some(i) if !person::is_person(&state.nodes[i]) => {
                        return Err(SessionError::NotPersons(node_id.to_string()));
                    }
                    Some(i) => {
                        person::edit(&mut state.nodes[i], &draft);
                        i
                    }
                    None => {
                        state.nodes.push(person::finding(node_id, &name, &draft));
                        state.nodes.len() - 1
                    }
                };
                crate::session::round::fingerprint_model_nodes(
                    std::slice::from_mut(&mut state.nodes[index]),
                    &worktree,
                    &diff,
                );
                state.nodes[index].print = None;
                Ok(())
            })?;
        self.preview = None;
        Ok(())
    }

    /// Deletes one of the person's own findings (and the comment edited for it).
    pub fn delete_finding(&mut self, node_id: &str) -> Result<(), SessionError> {
        self.prepared
            .space
            .update(|state| -> Result<(), SessionError> {
                let index = state
                    .nodes
                    .iter()
                    .position(|n| n.id == node_id)
                    .ok_or_else(|| SessionError::NoSuchFinding(node_id.to_string()))?;
                if !person::is_person(&state.nodes[index]) {
                    return Err(SessionError::NotPersons(node_id.to_string()));
                }
                state.nodes.remove(index);
                state.comments.remove(node_id);
                Ok(())
            })?;
        self.preview = None;
        Ok(())
    }

    /// The person gives a finding another priority and kind, with the reason: recorded in its
    /// history as the person's.
    pub fn reclassify(
        &mut self,
        node_id: &str,
        priority: Priority,
        kind: Kind,
        reason: &str,
    ) -> Result<(), SessionError> {
        let by = Actor::Person(self.setup.person.clone());
        let at = now();
        let reason = redact::outbound(reason);
        self.prepared
            .space
            .update(|state| -> Result<(), SessionError> {
                let node = state
                    .nodes
                    .iter_mut()
                    .find(|n| n.id == node_id)
                    .ok_or_else(|| SessionError::NoSuchFinding(node_id.to_string()))?;
                reclassify::reclassify(node, (priority, kind), &reason, by, &at);
                Ok(())
            })?;
        self.preview = None;
        Ok(())
    }

    /// Threads an earlier process journaled during a round are recorded, and every answer that
    /// was still coming when it ended is marked interrupted. Run once, before anything is asked.
    pub fn settle_threads(&mut self) -> Result<(), SessionError> {
        let journal = thread_journal(self.prepared.space.path());
        let journaled: Vec<Thread> = journal.read::<Thread>().map(|(t, _)| t).unwrap_or_default();
        let open = self.state().threads.iter().any(|t| t.state.is_open());
        if journaled.is_empty() && !open {
            return Ok(());
        }
        self.prepared
            .space
            .update(|state| -> Result<(), SessionError> {
                for thread in journaled {
                    thread::upsert(&mut state.threads, thread);
                }
                thread::interrupt_open(&mut state.threads);
                Ok(())
            })?;
        let _ = journal.clear();
        Ok(())
    }

    /// Records a thread as it stands (an answer's progress, or a journaled one after a round).
    pub fn record_thread(&mut self, thread: Thread) -> Result<(), SessionError> {
        self.prepared
            .space
            .update(|state| -> Result<(), SessionError> {
                thread::upsert(&mut state.threads, thread);
                Ok(())
            })
    }

    /// True when a question can be asked: a model provider is configured.
    pub fn can_ask(&self) -> bool {
        self.setup.room.is_some()
    }

    /// Records the question as a thread (answering) and returns it with the job that answers
    /// it. The reviewer is the one asked for, else the model reviewer that raised the finding,
    /// else the engineer.
    pub async fn start_ask(&mut self, ask: Ask) -> Result<(Thread, AskJob), SessionError> {
        let room = self.setup.room.clone().ok_or(SessionError::NoModel)?;
        let question = redact::outbound(ask.question.trim());
        if question.is_empty() {
            return Err(SessionError::EmptyQuestion);
        }
        let finding: Option<ReviewNode> = match &ask.finding {
            Some(id) => Some(
                self.state()
                    .nodes
                    .iter()
                    .find(|n| &n.id == id)
                    .cloned()
                    .ok_or_else(|| SessionError::NoSuchFinding(id.clone()))?,
            ),
            None => None,
        };
        let raised_by = finding
            .as_ref()
            .filter(|n| n.origin.source == Source::Model)
            .and_then(|n| n.origin.reviewer.parse::<Role>().ok());
        let role = ask.role.or(raised_by).unwrap_or(Role::Engineer);
        let member = room
            .roster
            .member(role)
            .or_else(|| room.roster.member(role.agent()))
            .ok_or(SessionError::NoReviewer(role))?
            .clone();
        let kit = self.room_kit(&room).await?;
        let diff = match finding.as_ref().and_then(|n| n.anchor.as_ref()) {
            Some(anchor) => self
                .prepared
                .diff
                .files
                .iter()
                .filter(|f| f.path == anchor.path || f.old_path.as_deref() == Some(&anchor.path))
                .map(crate::reviewers::model::context::diff_text::file_text)
                .collect::<String>(),
            None => self
                .prepared
                .diff
                .files
                .iter()
                .map(crate::reviewers::model::context::diff_text::file_text)
                .collect::<String>(),
        };
        // The client's id when it names no thread yet (it may show the question under it
        // before the answer starts), else the next free one: an asked question never
        // replaces another.
        // A question that waited for a round (see `ask::queued`) takes up its own thread.
        let threads = &self.state().threads;
        let free = |id: &str| {
            threads
                .iter()
                .find(|t| t.id == id)
                .is_none_or(|t| waited(t, &question))
        };
        let id = match ask.thread {
            Some(id) if id.starts_with(thread::ID_PREFIX) && free(&id) => id,
            _ => thread::next_id(threads),
        };
        let thread = Thread {
            id: id.clone(),
            round: self.state().current_round().map_or(0, |r| r.number),
            finding: finding.as_ref().map(|n| n.id.clone()),
            fingerprint: finding
                .as_ref()
                .map(|n| n.fingerprint.clone())
                .unwrap_or_default(),
            asked_by: self.setup.person.clone(),
            reviewer: role.as_str().to_string(),
            question: question.clone(),
            asked_at: now(),
            answer: String::new(),
            answered_at: None,
            tokens: 0,
            state: ThreadState::Answering,
            proposal: None,
        };
        // On disk before a token is spent: a kill from here on leaves the question, answering.
        self.record_thread(thread.clone())?;
        let job = AskJob {
            thread: id,
            kit,
            provider: member.provider.clone(),
            input: AskInput {
                // By what is asked about, not by the thread's number: a recording of answers
                // (the demo's) finds the answer to a question on this finding.
                key: format!("ask:{}", thread.finding.as_deref().unwrap_or("change")),
                role: role.as_str().to_string(),
                brief: member.brief.clone(),
                finding,
                diff,
                question,
            },
        };
        Ok((thread, job))
    }

    /// The tools and redactor every question shares, built on the first.
    async fn room_kit(&mut self, room: &RoomSetup) -> Result<Kit, SessionError> {
        if let Some(kit) = &self.room_kit {
            return Ok(kit.clone());
        }
        let (_, secrets) =
            crate::session::round::secrets(&self.prepared, room.secret_config.clone())
                .await
                .map_err(|e| SessionError::Room(e.to_string()))?;
        let (tools, worktree) =
            crate::session::round::sandbox_tools(&self.prepared, false, secrets.clone())
                .map_err(|e| SessionError::Room(e.to_string()))?;
        let kit = Kit {
            tools,
            redactor: crate::session::round::redactor(secrets),
            worktree,
            concurrency: 1,
            cancel: watch::channel(false).1,
            bounds: room.bounds.clone(),
            notes: Default::default(),
        };
        self.room_kit = Some(kit.clone());
        Ok(kit)
    }

    /// The person accepts, declines or takes back their answer to a thread's proposal.
    /// Accepting applies it as the person's decision with the reviewer's reason (a withdrawal
    /// dismisses the finding, a reclassification changes it); taking an acceptance back undoes
    /// that (reopens it, or restores the priority and kind it had).
    pub fn settle_proposal(
        &mut self,
        thread_id: &str,
        accepted: Option<bool>,
    ) -> Result<(), SessionError> {
        let thread = self
            .state()
            .threads
            .iter()
            .find(|t| t.id == thread_id)
            .cloned()
            .ok_or_else(|| SessionError::NoSuchThread(thread_id.to_string()))?;
        let proposal = thread
            .proposal
            .clone()
            .ok_or_else(|| SessionError::NoProposal(thread_id.to_string()))?;
        if proposal.accepted == accepted {
            return Ok(());
        }
        let node = self
            .state()
            .nodes
            .iter()
            .find(|n| thread.is_about(n))
            .cloned()
            .ok_or_else(|| {
                SessionError::NoSuchFinding(thread.finding.clone().unwrap_or_default())
            })?;
        let why = format!("{} {}", thread.reviewer, proposal.describe());
        match (
            &proposal.change,
            proposal.accepted == Some(true),
            accepted == Some(true),
        ) {
            (ProposedChange::Withdraw, false, true) => {
                self.apply(&node.id, Change::Dismiss { reason: why })?
            }
            (ProposedChange::Withdraw, true, false) => self.apply(&node.id, Change::Reopen)?,
            (ProposedChange::Reclassify { priority, kind }, false, true) => self.reclassify(
                &node.id,
                priority.unwrap_or(node.priority),
                kind.unwrap_or(node.kind),
                &why,
            )?,
            (ProposedChange::Reclassify { .. }, true, false) => {
                let (priority, kind) =
                    reclassify::before(&node).unwrap_or((node.priority, node.kind));
                self.reclassify(&node.id, priority, kind, &format!("undone: {why}"))?
            }
            _ => {}
        }
        self.prepared
            .space
            .update(|state| -> Result<(), SessionError> {
                if let Some(t) = state.threads.iter_mut().find(|t| t.id == thread_id)
                    && let Some(p) = t.proposal.as_mut()
                {
                    p.accepted = accepted;
                }
                Ok(())
            })?;
        Ok(())
    }
}

/// Whether `thread` is a question that waited for a round and was not answered: asked again
/// under its own id.
fn waited(thread: &Thread, question: &str) -> bool {
    thread.state == ThreadState::Interrupted
        && thread.answer.is_empty()
        && thread.question == question
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::review::node::{Anchor, Kind, Priority};
    use crate::review::side::Side;
    use crate::reviewers::model::ask::{AskError, AskEvent};
    use crate::reviewers::model::provider::Usage;
    use crate::session::ask::{ThreadEvent, apply_update};

    fn thread() -> Thread {
        Thread {
            id: "ask-1".into(),
            round: 1,
            finding: Some("engineer-1".into()),
            fingerprint: "fp".into(),
            asked_by: "ana".into(),
            reviewer: "engineer".into(),
            question: "why?".into(),
            asked_at: "t0".into(),
            answer: String::new(),
            answered_at: None,
            tokens: 0,
            state: ThreadState::Answering,
            proposal: None,
        }
    }

    #[test]
    fn an_answer_grows_piece_by_piece_and_its_end_is_recorded() {
        let mut t = thread();
        apply_update(
            &mut t,
            ThreadEvent::Said(AskEvent::Text("First.".into())),
            "t1",
        );
        apply_update(&mut t, ThreadEvent::Said(AskEvent::Tokens(40)), "t1");
        apply_update(
            &mut t,
            ThreadEvent::Said(AskEvent::Text(" Second. ".into())),
            "t1",
        );
        assert_eq!(t.answer, "First.\n\nSecond.");
        assert!(t.state.is_open());
        let spent = Usage {
            input_tokens: 50,
            output_tokens: 10,
        };
        apply_update(
            &mut t,
            ThreadEvent::Ended(Err((AskError::OverToolCalls(3), spent))),
            "t2",
        );
        assert_eq!(
            t.state,
            ThreadState::Failed("stopped at 3 tool calls (the max_tool_calls bound)".into())
        );
        assert_eq!(t.tokens, 60);
        assert_eq!(t.answered_at.as_deref(), Some("t2"));
        let mut cancelled = thread();
        apply_update(
            &mut cancelled,
            ThreadEvent::Ended(Err((AskError::Cancelled, spent))),
            "t3",
        );
        assert_eq!(cancelled.state, ThreadState::Cancelled);
    }

    #[test]
    fn a_reclassification_remembers_what_it_replaced() {
        let draft = PersonDraft::new(
            Anchor {
                path: "a.rs".try_into().unwrap(),
                side: Side::Right,
                start_line: 1,
                end_line: 1,
            },
            "x",
        );
        let mut node = person::finding("engineer-1", "ana", &draft);
        node.priority = Priority::P1;
        node.kind = Kind::Bug;
        let by = Actor::Person("ana".into());
        reclassify::reclassify(
            &mut node,
            (Priority::P3, Kind::Suggestion),
            "style only",
            by,
            "t",
        );
        assert_eq!((node.priority, node.kind), (Priority::P3, Kind::Suggestion));
        assert_eq!(reclassify::before(&node), Some((Priority::P1, Kind::Bug)));
        assert_eq!(node.history.last().unwrap().from, node.status);
    }
}
