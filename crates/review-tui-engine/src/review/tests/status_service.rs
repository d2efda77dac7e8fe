use super::*;
use crate::review::status::{Change, StatusError, apply, apply_suppression_hints};

fn engineer() -> Actor {
    Actor::Reviewer("engineer".into())
}
fn qa() -> Actor {
    Actor::Reviewer("qa".into())
}
fn person() -> Actor {
    Actor::Person("ana".into())
}
fn confirm() -> Change {
    Change::Confirm {
        note: "agreed".into(),
    }
}

#[test]
fn a_peer_confirmation_makes_it_consensus_ready_and_is_recorded() {
    let mut n = node("n1", "engineer", Priority::P1, 0.9);
    let applied = apply(&mut n, confirm(), &qa(), T0).unwrap();
    assert_eq!(n.status, Status::ConsensusReady);
    let t = applied.transition.unwrap();
    assert_eq!((t.from, t.to), (Status::Open, Status::ConsensusReady));
    assert_eq!(t.by, qa());
    assert_eq!(t.at, T0);
    assert_eq!(n.history, vec![t]);
    assert_eq!(n.confirmations.len(), 1);
    assert!(n.has_peer_confirmation());
}

#[test]
fn the_person_is_a_peer() {
    let mut n = node("n1", "engineer", Priority::P1, 0.9);
    apply(&mut n, confirm(), &person(), T0).unwrap();
    assert_eq!(n.status, Status::ConsensusReady);
}

#[test]
fn self_confirmation_is_refused_and_changes_nothing() {
    let mut n = node("n1", "engineer", Priority::P1, 0.9);
    let before = n.clone();
    let err = apply(&mut n, confirm(), &engineer(), T0).unwrap_err();
    assert!(matches!(err, StatusError::SelfConfirmation { .. }));
    assert!(err.to_string().contains("own finding"));
    assert_eq!(n, before);
}

#[test]
fn a_person_cannot_confirm_a_finding_they_wrote() {
    let mut n = from_source(node("n1", "x", Priority::P2, 1.0), "ana", Source::Person);
    assert!(matches!(
        apply(&mut n, confirm(), &person(), T0),
        Err(StatusError::SelfConfirmation { .. })
    ));
    // A reviewer that happens to share the name is a different actor.
    apply(&mut n, confirm(), &Actor::Reviewer("ana".into()), T0).unwrap();
    assert_eq!(n.status, Status::ConsensusReady);
}

#[test]
fn a_second_confirmation_adds_a_stance_without_a_transition() {
    let mut n = node("n1", "engineer", Priority::P1, 0.9);
    apply(&mut n, confirm(), &qa(), T0).unwrap();
    let applied = apply(&mut n, confirm(), &person(), T0).unwrap();
    assert!(applied.transition.is_none());
    assert_eq!(n.confirmations.len(), 2);
    assert_eq!(n.history.len(), 1);
}

#[test]
fn disputes_are_recorded_but_move_nothing_and_never_by_the_author() {
    let mut n = node("n1", "engineer", Priority::P1, 0.9);
    let applied = apply(
        &mut n,
        Change::Dispute {
            note: "the token is refreshed upstream".into(),
        },
        &qa(),
        T0,
    )
    .unwrap();
    assert!(applied.transition.is_none());
    assert_eq!(n.status, Status::Open);
    assert_eq!(n.disputes[0].note, "the token is refreshed upstream");
    assert!(matches!(
        apply(
            &mut n,
            Change::Dispute { note: "no".into() },
            &engineer(),
            T0
        ),
        Err(StatusError::SelfDispute { .. })
    ));
}

#[test]
fn resolve_from_open_and_from_consensus_ready() {
    for confirmed in [false, true] {
        let mut n = node("n1", "engineer", Priority::P1, 0.9);
        if confirmed {
            apply(&mut n, confirm(), &qa(), T0).unwrap();
        }
        apply(&mut n, Change::Resolve { note: None }, &person(), T0).unwrap();
        assert_eq!(n.status, Status::Resolved);
    }
}

#[test]
fn closed_nodes_cannot_be_confirmed_resolved_or_dismissed_again() {
    let mut n = node("n1", "engineer", Priority::P1, 0.9);
    apply(&mut n, Change::Resolve { note: None }, &person(), T0).unwrap();
    for change in [
        confirm(),
        Change::Resolve { note: None },
        Change::Dismiss {
            reason: "dup".into(),
        },
        Change::Dispute { note: "x".into() },
    ] {
        let err = apply(&mut n, change, &qa(), T0).unwrap_err();
        assert!(
            matches!(
                err,
                StatusError::NotAllowed {
                    from: Status::Resolved,
                    ..
                }
            ),
            "{err}"
        );
    }
}

#[test]
fn dismiss_needs_a_reason_and_leaves_a_low_confidence_hint() {
    let mut n = node("n1", "engineer", Priority::P1, 0.9);
    n.fingerprint = "abcd".into();
    for empty in ["", "   "] {
        assert!(matches!(
            apply(
                &mut n,
                Change::Dismiss {
                    reason: empty.into()
                },
                &person(),
                T0
            ),
            Err(StatusError::MissingReason { .. })
        ));
    }
    assert_eq!(n.status, Status::Open);
    let applied = apply(
        &mut n,
        Change::Dismiss {
            reason: " intended: the token is refreshed upstream ".into(),
        },
        &person(),
        T0,
    )
    .unwrap();
    assert_eq!(n.status, Status::Dismissed);
    let t = applied.transition.unwrap();
    assert_eq!(
        t.reason.as_deref(),
        Some("intended: the token is refreshed upstream")
    );
    let hint = applied.suppression.unwrap();
    assert_eq!(hint.fingerprint, "abcd");
    assert!(hint.confidence < 0.5);
}

#[test]
fn reopen_returns_to_where_the_node_was() {
    let mut n = node("n1", "engineer", Priority::P1, 0.9);
    apply(
        &mut n,
        Change::Dismiss {
            reason: "no".into(),
        },
        &person(),
        T0,
    )
    .unwrap();
    apply(&mut n, Change::Reopen, &person(), T0).unwrap();
    assert_eq!(n.status, Status::Open);

    let mut m = node("n2", "engineer", Priority::P1, 0.9);
    apply(&mut m, confirm(), &qa(), T0).unwrap();
    apply(&mut m, Change::Resolve { note: None }, &person(), T0).unwrap();
    apply(&mut m, Change::Reopen, &person(), T0).unwrap();
    assert_eq!(m.status, Status::ConsensusReady);
    assert_eq!(m.history.len(), 3);

    assert!(matches!(
        apply(&mut m, Change::Reopen, &person(), T0),
        Err(StatusError::NotAllowed { .. })
    ));
}

#[test]
fn a_later_round_marks_previously_dismissed_nodes_without_hiding_them() {
    let mut first = node("n1", "engineer", Priority::P1, 0.9);
    first.fingerprint = "f1".into();
    let hint = apply(
        &mut first,
        Change::Dismiss {
            reason: "by design".into(),
        },
        &person(),
        T0,
    )
    .unwrap()
    .suppression
    .unwrap();
    let mut again = node("n9", "qa", Priority::P1, 0.9);
    again.fingerprint = "f1".into();
    let mut other = node("n10", "qa", Priority::P1, 0.9);
    other.fingerprint = "f2".into();
    let mut round2 = vec![again, other];
    apply_suppression_hints(&mut round2, &[hint]);
    assert_eq!(round2[0].previously_dismissed.as_deref(), Some("by design"));
    assert_eq!(round2[0].status, Status::Open);
    assert_eq!(round2[1].previously_dismissed, None);
}

#[test]
fn confirming_twice_records_one_confirmation_by_that_peer() {
    let mut n = node("n1", "engineer", Priority::P1, 0.9);
    apply(&mut n, confirm(), &person(), T0).unwrap();
    let again = apply(&mut n, confirm(), &person(), T0).unwrap();
    assert_eq!(again.transition, None);
    assert_eq!(n.confirmations.len(), 1);
    assert_eq!(n.history.len(), 1);
    // Another peer still counts.
    apply(&mut n, confirm(), &qa(), T0).unwrap();
    assert_eq!(n.confirmations.len(), 2);
}

#[test]
fn withdrawing_a_confirmation_reopens_unless_another_peer_confirmed() {
    let mut n = node("n1", "engineer", Priority::P1, 0.9);
    apply(&mut n, confirm(), &person(), T0).unwrap();
    let applied = apply(&mut n, Change::Withdraw, &person(), T0).unwrap();
    let t = applied.transition.unwrap();
    assert_eq!((t.from, t.to), (Status::ConsensusReady, Status::Open));
    assert!(n.confirmations.is_empty());
    // Nothing to take back: refused, nothing changes.
    let before = n.clone();
    assert!(matches!(
        apply(&mut n, Change::Withdraw, &person(), T0),
        Err(StatusError::NotConfirmed { .. })
    ));
    assert_eq!(n, before);
    // With a second peer's confirmation, withdrawing one keeps it consensus-ready.
    apply(&mut n, confirm(), &person(), T0).unwrap();
    apply(&mut n, confirm(), &qa(), T0).unwrap();
    let applied = apply(&mut n, Change::Withdraw, &person(), T0).unwrap();
    assert_eq!(applied.transition, None);
    assert_eq!(n.status, Status::ConsensusReady);
    assert_eq!(n.confirmations.len(), 1);
}

#[test]
fn only_a_person_closes_a_deterministic_finding() {
    for source in [Source::Deterministic, Source::Scanner] {
        let mut n = node("r1", "rules", Priority::P1, 1.0);
        n.origin.source = source;
        for change in [
            Change::Dismiss {
                reason: "refuted by verification: a test fixture".into(),
            },
            Change::Resolve { note: None },
        ] {
            let err = apply(&mut n, change, &Actor::Reviewer("verifier".into()), T0).unwrap_err();
            assert!(matches!(err, StatusError::PersonOnly { .. }), "{err}");
            assert!(err.to_string().contains("only by a person"), "{err}");
        }
        assert_eq!(n.status, Status::Open);
        // A model may still dispute it: that is recorded for the person, nothing closes.
        apply(&mut n, Change::Dispute { note: "x".into() }, &qa(), T0).unwrap();
        apply(
            &mut n,
            Change::Dismiss {
                reason: "fixture".into(),
            },
            &person(),
            T0,
        )
        .unwrap();
        assert_eq!(n.status, Status::Dismissed);
    }
}
