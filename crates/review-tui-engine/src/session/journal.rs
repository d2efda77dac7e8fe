//! The session's side of the decision journal (`space::journal`): which commands are
//! decisions, how they are written, and how journaled decisions find their finding again.

use crate::review::level::Level;
use crate::review::status::Change;
use crate::session::command::Command;
use crate::space::SpaceState;
use crate::space::journal::{Decision, JournalEntry};

/// The journal line for `command` when it is a person's decision; `None` otherwise.
pub(super) fn entry_of(command: &Command, state: &SpaceState, at: &str) -> Option<JournalEntry> {
    let (node_id, decision) = match command {
        Command::Apply { node_id, change } => (
            node_id.clone(),
            match change.clone() {
                Change::Confirm { note } => Decision::Confirm { note },
                Change::Dispute { note } => Decision::Dispute { note },
                Change::Resolve { note } => Decision::Resolve { note },
                Change::Dismiss { reason } => Decision::Dismiss { reason },
                Change::Reopen => Decision::Reopen,
                Change::Withdraw => Decision::Withdraw,
            },
        ),
        Command::EditComment { node_id, text } => {
            (node_id.clone(), Decision::Comment { text: text.clone() })
        }
        Command::SetLevel(level) => (
            String::new(),
            Decision::Level {
                level: level.as_str().to_string(),
            },
        ),
        Command::PutFinding { node_id, draft } => (
            node_id.clone(),
            Decision::PutFinding {
                draft: draft.clone(),
            },
        ),
        Command::DeleteFinding { node_id } => (node_id.clone(), Decision::DeleteFinding),
        Command::Reclassify {
            node_id,
            priority,
            kind,
            reason,
        } => (
            node_id.clone(),
            Decision::Reclassify {
                priority: *priority,
                kind: *kind,
                reason: reason.clone(),
            },
        ),
        Command::Proposal { thread, accepted } => (
            state
                .threads
                .iter()
                .find(|t| &t.id == thread)
                .and_then(|t| t.finding.clone())
                .unwrap_or_default(),
            Decision::Proposal {
                thread: thread.clone(),
                accepted: *accepted,
            },
        ),
        _ => return None,
    };
    // A finding already in the space has a fingerprint: a re-run round may number it
    // differently, the fingerprint still finds it.
    let fingerprint = state
        .nodes
        .iter()
        .find(|n| n.id == node_id)
        .map(|n| n.fingerprint.clone())
        .unwrap_or_default();
    Some(JournalEntry {
        at: at.to_string(),
        node_id,
        fingerprint,
        decision,
    })
}

/// The command a journaled decision replays as, on the round as it stands now: the finding is
/// looked up by id, then by fingerprint. `None` for a line this version cannot read back.
pub(super) fn command_of(entry: JournalEntry, state: &SpaceState) -> Option<Command> {
    let by_id = state.nodes.iter().any(|n| n.id == entry.node_id);
    let node_id = if by_id || entry.fingerprint.is_empty() {
        entry.node_id
    } else {
        state
            .nodes
            .iter()
            .find(|n| n.fingerprint == entry.fingerprint)
            .map_or(entry.node_id, |n| n.id.clone())
    };
    let change = |change| Command::Apply {
        node_id: node_id.clone(),
        change,
    };
    Some(match entry.decision {
        Decision::Confirm { note } => change(Change::Confirm { note }),
        Decision::Dispute { note } => change(Change::Dispute { note }),
        Decision::Resolve { note } => change(Change::Resolve { note }),
        Decision::Dismiss { reason } => change(Change::Dismiss { reason }),
        Decision::Reopen => change(Change::Reopen),
        Decision::Withdraw => change(Change::Withdraw),
        Decision::Comment { text } => Command::EditComment {
            node_id: node_id.clone(),
            text,
        },
        Decision::Level { level } => Command::SetLevel(level.parse::<Level>().ok()?),
        // A person's own finding keeps its id across rounds: it is never renumbered.
        Decision::PutFinding { draft } => Command::PutFinding { node_id, draft },
        Decision::DeleteFinding => Command::DeleteFinding { node_id },
        Decision::Reclassify {
            priority,
            kind,
            reason,
        } => Command::Reclassify {
            node_id,
            priority,
            kind,
            reason,
        },
        Decision::Proposal { thread, accepted } => Command::Proposal { thread, accepted },
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::commit_id::CommitId;
    use crate::space::state::PrIdentity;

    /// Accepting a proposal (and taking it back) while a round runs is journaled against the
    /// finding the thread is about, and replays as the same command.
    #[test]
    fn a_proposals_answer_is_journaled_and_replays() {
        let id = |d: char| CommitId::parse(&d.to_string().repeat(40)).unwrap();
        let mut state = SpaceState::new(
            PrIdentity {
                key: crate::space::key::tests::github_key("o", "r", 3),
                title: "Fix it".into(),
                number: "#3".into(),
                url: "https://github.com/o/r/pull/3".into(),
            },
            id('a'),
            id('0'),
        );
        let thread: crate::review::thread::Thread = serde_json::from_value(serde_json::json!({
            "id": "thread-1", "round": 1, "finding": "engineer-1", "asked_by": "ana",
            "reviewer": "engineer", "question": "why?", "asked_at": "t",
        }))
        .unwrap();
        state.threads.push(thread);
        for accepted in [Some(true), None] {
            let command = Command::Proposal {
                thread: "thread-1".into(),
                accepted,
            };
            let entry = entry_of(&command, &state, "t").expect("journaled");
            assert_eq!(entry.node_id, "engineer-1");
            let line = serde_json::to_string(&entry).unwrap();
            let read: JournalEntry = serde_json::from_str(&line).unwrap();
            assert!(
                matches!(
                    command_of(read, &state),
                    Some(Command::Proposal { thread, accepted: a }) if thread == "thread-1" && a == accepted
                ),
                "{line}"
            );
        }
    }
}
