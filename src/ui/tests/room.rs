//! The review room's keys in the cockpit: a reviewer's proposal accepted and taken back
//! exactly, and the person's own finding written, edited and deleted, each undone and redone
//! like any triage change.

use super::fixtures::*;
use crate::review::{Kind, Priority, Status};
use crate::review::{Proposal, ProposedChange, Thread, ThreadState};
use crate::ui::action::{Action, Command};
use crate::ui::state::{AppState, InputPurpose, Overlay, RowKey};
use crate::ui::update::{Effect, update};

/// The finished review with an answer about n1 that proposes `change`.
fn proposing(change: ProposedChange) -> AppState {
    let mut state = finished();
    state.threads.push(Thread {
        id: "thread-1".into(),
        round: 1,
        finding: Some("n1".into()),
        fingerprint: String::new(),
        asked_by: "tester".into(),
        reviewer: "engineer".into(),
        question: "is it real?".into(),
        asked_at: "2026-12-01T00:00:00Z".into(),
        answer: "Looking again, no.".into(),
        answered_at: Some("2026-12-01T00:00:05Z".into()),
        tokens: 10,
        state: ThreadState::Answered,
        proposal: Some(Proposal {
            change,
            reason: "the caller checks first".into(),
            accepted: None,
        }),
    });
    select(&mut state, "n1");
    state
}

fn accepted(state: &AppState) -> Option<bool> {
    state.threads[0].proposal.as_ref().unwrap().accepted
}

fn run(state: &mut AppState, command: Command) -> Vec<Effect> {
    update(state, Action::Command(command))
}

#[test]
fn undoing_an_accepted_proposal_puts_the_finding_and_the_proposal_back_exactly() {
    for change in [
        ProposedChange::Withdraw,
        ProposedChange::Reclassify {
            priority: Some(Priority::P3),
            kind: Some(Kind::Question),
        },
    ] {
        let mut state = proposing(change.clone());
        let before = state.node("n1").unwrap().clone();
        let verdict = state.verdict.clone();
        let effects = run(&mut state, Command::AcceptProposal);
        assert_eq!(
            effects,
            vec![Effect::Proposal {
                thread: "thread-1".into(),
                accepted: Some(true),
            }],
            "{change:?}: the session applies it through the thread, nothing else"
        );
        let after = state.node("n1").unwrap().clone();
        match change {
            ProposedChange::Withdraw => assert_eq!(after.status, Status::Dismissed),
            ProposedChange::Reclassify { .. } => {
                assert_eq!((after.priority, after.kind), (Priority::P3, Kind::Question))
            }
        }
        assert_eq!(accepted(&state), Some(true));

        // `u`: the finding as it was, the proposal open again (and `Y` takes it again).
        let effects = run(&mut state, Command::Undo);
        assert_eq!(
            effects,
            vec![Effect::Proposal {
                thread: "thread-1".into(),
                accepted: None,
            }],
            "{change:?}"
        );
        assert_eq!(state.node("n1").unwrap(), &before, "{change:?}");
        assert_eq!(state.verdict, verdict, "{change:?}");
        assert_eq!(accepted(&state), None);

        // `ctrl-r`: accepted again, exactly as the first time.
        let effects = run(&mut state, Command::Redo);
        assert_eq!(
            effects,
            vec![Effect::Proposal {
                thread: "thread-1".into(),
                accepted: Some(true),
            }]
        );
        assert_eq!(state.node("n1").unwrap(), &after, "{change:?}");
        assert_eq!(accepted(&state), Some(true));
    }
}

#[test]
fn a_proposal_can_be_accepted_while_a_round_runs() {
    use crate::ui::keymap::Context;
    use crate::ui::update::for_context;
    let mut state = proposing(ProposedChange::Withdraw);
    state.ladder = crate::space::Ladder::InProgress;
    assert!(state.review_running());
    // Offered (the session journals it with the round's other decisions).
    assert!(for_context(Context::Main).available(&state, Command::AcceptProposal));
    let effects = run(&mut state, Command::AcceptProposal);
    assert_eq!(effects.len(), 1, "{effects:?}");
}

fn submit_text(state: &mut AppState, text: &str) -> Vec<Effect> {
    let Some(Overlay::Input(input)) = state.overlays.last_mut() else {
        panic!("no box open");
    };
    input.textarea.select_all();
    input.textarea.cut();
    input.textarea.insert_str(text);
    update(state, Action::Submit)
}

#[test]
fn the_persons_own_finding_is_edited_deleted_and_each_change_undone() {
    let mut state = finished();
    select(&mut state, "n1");
    run(&mut state, Command::AddComment);
    let effects = submit_text(&mut state, "P1 bug: the retry keeps the old token");
    assert!(
        matches!(&effects[..], [Effect::PutFinding { node_id, .. }] if node_id == "person-1"),
        "{effects:?}"
    );
    let written = state.node("person-1").unwrap().clone();
    assert_eq!(written.priority, Priority::P1);

    // `e` on it opens the box it was written in, with its priority, kind and words; the
    // replacement lines go in a suggestion block.
    assert_eq!(
        state.findings.selected,
        Some(RowKey::Node("person-1".into()))
    );
    run(&mut state, Command::EditComment);
    let Some(Overlay::Input(input)) = state.top_overlay() else {
        panic!("no box");
    };
    assert!(
        matches!(&input.purpose, InputPurpose::Comment { node_id, .. } if node_id == "person-1")
    );
    assert_eq!(input.text(), "P1 bug: the retry keeps the old token");
    let effects = submit_text(
        &mut state,
        "P0 bug: the retry sends the expired token\nEvery retry.\n```suggestion\n    token = refresh()?;\n```",
    );
    let [Effect::PutFinding { node_id, draft }] = &effects[..] else {
        panic!("{effects:?}");
    };
    assert_eq!(node_id, "person-1");
    assert_eq!(draft.priority, Priority::P0);
    assert_eq!(
        draft.text,
        "the retry sends the expired token\nEvery retry."
    );
    assert_eq!(
        draft.replacement,
        Some(vec!["    token = refresh()?;".to_string()])
    );
    let edited = state.node("person-1").unwrap().clone();
    assert_eq!(edited.priority, Priority::P0);
    assert_eq!(edited.text.title, "the retry sends the expired token");
    assert_eq!(
        state
            .board
            .nodes
            .iter()
            .filter(|n| n.id == "person-1")
            .count(),
        1
    );

    // Deleted, then each change undone, last first, and the session told each time.
    run(&mut state, Command::DeleteComment);
    assert!(state.node("person-1").is_none());
    let effects = run(&mut state, Command::Undo);
    assert!(
        matches!(&effects[..], [Effect::PutFinding { draft, .. }] if draft.priority == Priority::P0),
        "{effects:?}"
    );
    assert_eq!(state.node("person-1").unwrap(), &edited);
    let effects = run(&mut state, Command::Undo);
    assert!(
        matches!(&effects[..], [Effect::PutFinding { draft, .. }] if draft.priority == Priority::P1 && draft.replacement.is_none()),
        "{effects:?}"
    );
    assert_eq!(state.node("person-1").unwrap(), &written);
    let effects = run(&mut state, Command::Undo);
    assert_eq!(effects, vec![Effect::DeleteFinding("person-1".into())]);
    assert!(state.node("person-1").is_none());
    // And made again.
    run(&mut state, Command::Redo);
    assert_eq!(state.node("person-1").unwrap(), &written);
}

#[test]
fn e_on_a_reviewers_finding_still_edits_its_comment() {
    let mut state = finished();
    select(&mut state, "n1");
    run(&mut state, Command::EditComment);
    let Some(Overlay::Input(input)) = state.top_overlay() else {
        panic!("no box");
    };
    assert!(matches!(input.purpose, InputPurpose::EditComment { .. }));
}
