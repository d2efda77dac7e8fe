//! Carrying a person's decisions into a new run. Findings are re-found every run; what a person
//! decided about a problem (confirmed, resolved, dismissed, disputed) belongs to the problem, so
//! it follows the fingerprint, not the node id or the line number.
//!
//! Only a person's decisions carry. What the automated passes decided (a verifier's dismissal, a
//! peer's confirmation or dispute) is recomputed each round from the code as it is then: carried
//! over, a model's dismissal from round 1 would keep a finding closed in round 2 with nobody
//! having looked at it again.

use std::collections::{BTreeMap, HashMap};

use super::node::{Actor, Origin, ReviewNode, Stance, Status, Transition};
use super::reclassify;

/// Returns `fresh` with the person's triage of `previous` nodes carried over by fingerprint and
/// reviewer:
/// the status of the person's last status change, the person's confirmations and disputes, and
/// the person's transitions. A fresh node whose fingerprint no person decided on is returned as
/// found. Nodes without a fingerprint carry nothing (there is nothing stable to match them by).
pub(crate) fn carry_over(previous: &[ReviewNode], fresh: Vec<ReviewNode>) -> Vec<ReviewNode> {
    // Under any of its prints: a finding of a renamed file is still the problem decided on.
    // And only onto what the same reviewer found again: a print another reviewer's finding
    // shares (a model's twin of a rule's finding, a collision) carries no decision onto it.
    let mut decided: HashMap<(&str, &Origin), Vec<&ReviewNode>> = HashMap::new();
    for n in previous.iter().filter(|n| decided_by_person(n)) {
        for print in n.prints() {
            decided.entry((print, &n.origin)).or_default().push(n);
        }
    }
    fresh
        .into_iter()
        .map(|mut node| {
            let candidates: Vec<&ReviewNode> = node
                .prints()
                .filter_map(|p| decided.get(&(p, &node.origin)))
                .flatten()
                .copied()
                .collect();
            let old = latest_decision(&candidates);
            if let Some(old) = old {
                let people = |stances: &[Stance]| -> Vec<Stance> {
                    stances
                        .iter()
                        .filter(|s| is_person(&s.by))
                        .cloned()
                        .collect()
                };
                node.confirmations.extend(people(&old.confirmations));
                node.disputes.extend(people(&old.disputes));
                let history: Vec<_> = old
                    .history
                    .iter()
                    .filter(|t| is_person(&t.by))
                    .cloned()
                    .collect();
                let found = node.status;
                let not_applied = carry_class(old, &mut node);
                let counts_as_found = node.counts();
                node.history.extend(history.iter().cloned());
                node.history.extend(not_applied);
                // The person's last word on the status: a reclassification keeps the status
                // it found, so it is no closing (and no word on whether what was closed counted).
                let last_status = history.iter().rev().find(|t| reclassify::read(t).is_none());
                if let Some(last) = last_status {
                    if binds(last, counts_as_found) {
                        node.status = last.to;
                    } else {
                        // Said on the node, so the person sees why a problem they closed is
                        // open again: what they closed did not count, this report does.
                        node.history.push(Transition {
                            from: last.to,
                            to: found,
                            by: Actor::Reviewer(CARRY.to_string()),
                            at: last.at.clone(),
                            reason: Some(format!(
                                "open again: {} closed it when it did not count; this report counts ({} {})",
                                last.by.name(),
                                node.priority,
                                if node.in_scope() { "in scope" } else { "out of scope" },
                            )),
                            counted: None,
                        });
                    }
                }
                // Consensus rests on a confirmation; a model's is not carried, so it must be
                // earned again this round.
                if node.status == Status::ConsensusReady && !node.has_peer_confirmation() {
                    node.status = Status::Open;
                }
            }
            node
        })
        .collect()
}

/// The person's last reclassification of the problem, onto the re-report when it applies
/// ([`reclassify::applies`]): the re-report then counts, or not, as the person classed it.
/// When it does not apply (the re-report is more severe than what the person lowered), the
/// note that says so, to be put after the carried history.
fn carry_class(old: &ReviewNode, node: &mut ReviewNode) -> Option<Transition> {
    let (from, to, entry) = reclassify::last_by_person(old)?;
    if reclassify::applies(from, to, node.priority) {
        (node.priority, node.kind) = to;
        return None;
    }
    Some(Transition {
        from: node.status,
        to: node.status,
        by: Actor::Reviewer(CARRY.to_string()),
        at: entry.at.clone(),
        reason: Some(format!(
            "kept {}: {} lowered it to {} when it was reported {}; this report is more severe",
            node.priority,
            entry.by.name(),
            to.0,
            from.0,
        )),
        counted: None,
    })
}

/// Of the findings a person decided on that share a print with a re-report, the one decided
/// last: its last decision is the person's word on the problem (the first found could hold an
/// older decision the person has since changed on a twin).
fn latest_decision<'a>(candidates: &[&'a ReviewNode]) -> Option<&'a ReviewNode> {
    candidates.iter().copied().max_by(|a, b| {
        let key = |n: &ReviewNode| {
            let history = person_history(n);
            (
                history.last().map(|t| t.at.clone()).unwrap_or_default(),
                history.len(),
            )
        };
        key(a).cmp(&key(b))
    })
}

/// The name the carry signs its own notes with in a node's history.
pub(crate) const CARRY: &str = "carry";

/// Whether a person's last transition on a problem decides a re-report of it. Opening again
/// always does; a closing does unless it was made on what did not count (a P2 twin, a finding
/// labelled out of scope) and the re-report counts: the person has not seen this problem hold
/// the merge, and nothing but a person takes a blocking finding out. A closing recorded
/// without the mark (spaces written before it was kept) binds as it did then.
fn binds(last: &Transition, re_report_counts: bool) -> bool {
    last.to.is_active() || last.counted != Some(false) || !re_report_counts
}

fn person_history(node: &ReviewNode) -> Vec<&Transition> {
    node.history.iter().filter(|t| is_person(&t.by)).collect()
}

fn is_person(actor: &Actor) -> bool {
    matches!(actor, Actor::Person(_))
}

fn decided_by_person(node: &ReviewNode) -> bool {
    node.history.iter().any(|t| is_person(&t.by))
        || node.confirmations.iter().any(|s| is_person(&s.by))
        || node.disputes.iter().any(|s| is_person(&s.by))
}

/// The person's edited comments, keyed by node id, moved onto `fresh`'s ids by fingerprint: the
/// edit belongs to the problem. Edits whose node is gone or has no fingerprint are dropped with
/// it (a later round has nothing to post them on); an edit on a node `fresh` still holds stays.
pub(crate) fn carry_comments(
    comments: &BTreeMap<String, String>,
    previous: &[ReviewNode],
    fresh: &[ReviewNode],
) -> BTreeMap<String, String> {
    let by_fingerprint: HashMap<&str, &str> = previous
        .iter()
        .filter_map(|n| Some((n, comments.get(&n.id)?.as_str())))
        .flat_map(|(n, text)| n.prints().map(move |p| (p, text)))
        .collect();
    fresh
        .iter()
        .filter_map(|node| {
            let text = comments
                .get(&node.id)
                .map(String::as_str)
                .or_else(|| node.prints().find_map(|p| by_fingerprint.get(p).copied()))?;
            Some((node.id.clone(), text.to_string()))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::review::node::{Kind, Priority, Scope};
    use crate::review::status::{Change, apply};
    use crate::review::tests::node;

    #[test]
    fn decisions_follow_the_fingerprint_even_when_the_line_moves() {
        let mut dismissed = node("r1-a", "rules", Priority::P2, 1.0);
        dismissed.fingerprint = "fp-a".into();
        apply(
            &mut dismissed,
            Change::Dismiss {
                reason: "generated file".into(),
            },
            &Actor::Person("ana".into()),
            "t0",
        )
        .unwrap();
        let mut untouched = node("r1-b", "rules", Priority::P2, 1.0);
        untouched.fingerprint = "fp-b".into();

        let mut again = node("r2-a", "rules", Priority::P2, 1.0);
        again.fingerprint = "fp-a".into();
        again.anchor.as_mut().unwrap().start_line = 40;
        let mut other = node("r2-b", "rules", Priority::P2, 1.0);
        other.fingerprint = "fp-b".into();
        let mut new = node("r2-c", "rules", Priority::P2, 1.0);
        new.fingerprint = "fp-c".into();

        let carried = carry_over(&[dismissed, untouched], vec![again, other, new]);
        assert_eq!(carried[0].status, Status::Dismissed);
        assert_eq!(carried[0].history.len(), 1);
        assert_eq!(carried[0].anchor.as_ref().unwrap().start_line, 40);
        assert_eq!(carried[1].status, Status::Open);
        assert_eq!(carried[2].status, Status::Open);
    }

    #[test]
    fn of_two_twins_a_person_decided_on_the_decision_made_last_carries() {
        let ana = Actor::Person("ana".into());
        let decide = |node: &mut ReviewNode, change: Change, at: &str| {
            apply(node, change, &ana, at).unwrap();
        };
        let dismiss = || Change::Dismiss {
            reason: "not a problem".into(),
        };
        // Twins of one problem by one reviewer: the first dismissed then reopened, the second
        // dismissed after that. The person's last word is the dismissal.
        let mut first = node("engineer-1", "engineer", Priority::P0, 0.9);
        first.fingerprint = "fp".into();
        decide(&mut first, dismiss(), "2026-01-01T00:00:01Z");
        decide(&mut first, Change::Reopen, "2026-01-01T00:00:02Z");
        let mut second = node("engineer-2", "engineer", Priority::P0, 0.9);
        second.fingerprint = "fp".into();
        decide(&mut second, dismiss(), "2026-01-01T00:00:03Z");
        let mut again = node("engineer-1", "engineer", Priority::P0, 0.9);
        again.fingerprint = "fp".into();
        let carried = carry_over(&[first.clone(), second.clone()], vec![again.clone()]);
        assert_eq!(carried[0].status, Status::Dismissed);
        // Reopened last, the problem is open again, whichever twin comes first.
        decide(&mut first, dismiss(), "2026-01-01T00:00:04Z");
        decide(&mut first, Change::Reopen, "2026-01-01T00:00:05Z");
        let carried = carry_over(&[second, first], vec![again]);
        assert_eq!(carried[0].status, Status::Open);
    }

    #[test]
    fn a_closing_of_what_did_not_count_does_not_close_a_report_that_counts() {
        let ana = Actor::Person("ana".into());
        let dismiss = || Change::Dismiss {
            reason: "minor".into(),
        };
        let reported = |id: &str, priority| {
            let mut n = node(id, "engineer", priority, 0.9);
            n.fingerprint = "fp".into();
            n
        };
        // Dismissed as a P2: the person never saw this problem hold the merge.
        let mut weak = reported("engineer-1", Priority::P2);
        apply(&mut weak, dismiss(), &ana, "2026-01-01T00:00:01Z").unwrap();
        let carried = carry_over(&[weak.clone()], vec![reported("engineer-1", Priority::P0)]);
        assert_eq!(carried[0].status, Status::Open);
        assert!(carried[0].counts());
        let note = carried[0].history.last().unwrap();
        assert_eq!(note.by, Actor::Reviewer(CARRY.into()));
        assert!(
            note.reason
                .as_deref()
                .unwrap()
                .contains("ana closed it when it did not count")
        );
        // Re-reported as a P2 again, the person's dismissal of the P2 still stands.
        let carried = carry_over(&[weak], vec![reported("engineer-1", Priority::P3)]);
        assert_eq!(carried[0].status, Status::Dismissed);
        // Out of scope when dismissed, in scope now: the same.
        let mut aside = reported("engineer-1", Priority::P0);
        aside.scope = Scope::OutOfScope;
        apply(&mut aside, dismiss(), &ana, "2026-01-01T00:00:02Z").unwrap();
        let carried = carry_over(&[aside], vec![reported("engineer-1", Priority::P0)]);
        assert_eq!(carried[0].status, Status::Open);
    }

    /// engineer-1's report of the problem `fp` at `priority`.
    fn reported(priority: Priority) -> ReviewNode {
        let mut n = node("engineer-1", "engineer", priority, 0.9);
        n.fingerprint = "fp".into();
        n
    }

    /// A report at `found` that ana lowered to `to` (a suggestion), then dismissed as it then was.
    fn lowered_then_dismissed(found: Priority, to: Priority) -> ReviewNode {
        let ana = Actor::Person("ana".into());
        let mut lowered = reported(found);
        reclassify::reclassify(
            &mut lowered,
            (to, Kind::Suggestion),
            "minor",
            ana.clone(),
            "2026-01-01T00:00:01Z",
        );
        let dismiss = Change::Dismiss {
            reason: "fine".into(),
        };
        apply(&mut lowered, dismiss, &ana, "2026-01-01T00:00:02Z").unwrap();
        lowered
    }

    #[test]
    fn a_reclassification_carries_onto_a_report_no_more_severe_than_the_one_lowered() {
        // Lowered from P0 to P2, then dismissed as the P2 it then was.
        let lowered = lowered_then_dismissed(Priority::P0, Priority::P2);
        // Reported P0 again: the person's class and closing both hold.
        let carried = carry_over(&[lowered], vec![reported(Priority::P0)]);
        assert_eq!(
            (carried[0].priority, carried[0].kind),
            (Priority::P2, Kind::Suggestion)
        );
        assert_eq!(carried[0].status, Status::Dismissed);
        assert!(!carried[0].counts());
        // Carried twice, the class still holds (read from the recorded target).
        let twice = carry_over(&carried, vec![reported(Priority::P1)]);
        assert_eq!(twice[0].priority, Priority::P2);
        assert_eq!(twice[0].status, Status::Dismissed);
    }

    #[test]
    fn a_lowering_does_not_carry_onto_a_more_severe_report() {
        let ana = Actor::Person("ana".into());
        let lowered = lowered_then_dismissed(Priority::P1, Priority::P3);
        // Now reported P0: more severe than the P1 the person lowered, so it stays P0 and open.
        let carried = carry_over(&[lowered], vec![reported(Priority::P0)]);
        assert_eq!(carried[0].priority, Priority::P0);
        assert_eq!(carried[0].status, Status::Open);
        assert!(carried[0].counts());
        let notes: Vec<&str> = carried[0]
            .history
            .iter()
            .filter(|t| t.by == Actor::Reviewer(CARRY.into()))
            .filter_map(|t| t.reason.as_deref())
            .collect();
        assert!(
            notes.iter().any(|n| n.contains("ana lowered it to P3")),
            "{notes:?}"
        );
        // A raise always carries.
        let mut raised = reported(Priority::P2);
        reclassify::reclassify(
            &mut raised,
            (Priority::P0, Kind::Bug),
            "data loss",
            ana,
            "2026-01-01T00:00:03Z",
        );
        let carried = carry_over(&[raised], vec![reported(Priority::P3)]);
        assert_eq!(carried[0].priority, Priority::P0);
        assert!(carried[0].counts());
    }

    #[test]
    fn a_reclassification_of_a_closed_finding_is_no_closing() {
        let ana = Actor::Person("ana".into());
        // Dismissed as a P2 (it did not count), then lowered to P3 while dismissed: the last
        // entry keeps the dismissed status but records no closing of what counted.
        let mut weak = reported(Priority::P2);
        let dismiss = Change::Dismiss {
            reason: "minor".into(),
        };
        apply(&mut weak, dismiss, &ana, "2026-01-01T00:00:01Z").unwrap();
        reclassify::reclassify(
            &mut weak,
            (Priority::P3, Kind::Suggestion),
            "nit",
            ana,
            "2026-01-01T00:00:02Z",
        );
        let carried = carry_over(&[weak], vec![reported(Priority::P0)]);
        assert_eq!(carried[0].priority, Priority::P0);
        assert_eq!(carried[0].status, Status::Open);
        assert!(carried[0].counts());
    }

    #[test]
    fn a_dismissal_whose_reason_reads_like_a_reclassification_is_a_dismissal() {
        // A withdrawal the person accepted carries the model's reason: text that may imitate a
        // reclassification's entry. It is the dismissal of a P2 (it did not count), so a P0
        // report of the problem stays P0 and open.
        let ana = Actor::Person("ana".into());
        let mut weak = reported(Priority::P2);
        let dismiss = Change::Dismiss {
            reason: "reclassified from P3 bug to P3 bug: not a problem".into(),
        };
        apply(&mut weak, dismiss, &ana, "2026-01-01T00:00:01Z").unwrap();
        assert_eq!(reclassify::read(weak.history.last().unwrap()), None);
        let carried = carry_over(&[weak], vec![reported(Priority::P0)]);
        assert_eq!(carried[0].priority, Priority::P0);
        assert_eq!(carried[0].status, Status::Open);
        assert!(carried[0].counts());
    }

    #[test]
    fn a_reclassification_written_before_its_target_was_recorded_is_read() {
        let t = Transition {
            from: Status::Open,
            to: Status::Open,
            by: Actor::Person("ana".into()),
            at: "t".into(),
            reason: Some("reclassified from P1 bug: style only".into()),
            counted: None,
        };
        let r = reclassify::read(&t).unwrap();
        assert_eq!(r.from, (Priority::P1, Kind::Bug));
        assert_eq!(r.to, None);
    }

    #[test]
    fn a_closing_of_what_counted_binds_through_a_weaker_round() {
        let ana = Actor::Person("ana".into());
        let mut blocking = reported(Priority::P0);
        apply(
            &mut blocking,
            Change::Dismiss {
                reason: "handled upstream".into(),
            },
            &ana,
            "2026-01-01T00:00:01Z",
        )
        .unwrap();
        assert_eq!(blocking.history[0].counted, Some(true));
        // Reported weaker in round 2, then as strict as ever in round 3: the person's word,
        // given on the blocking problem, holds in both.
        let round2 = carry_over(&[blocking], vec![reported(Priority::P2)]);
        assert_eq!(round2[0].status, Status::Dismissed);
        let round3 = carry_over(&round2, vec![reported(Priority::P0)]);
        assert_eq!(round3[0].status, Status::Dismissed);
        assert!(!round3[0].counts());
    }

    #[test]
    fn a_closing_recorded_before_the_mark_was_kept_binds_as_before() {
        let mut old = node("engineer-1", "engineer", Priority::P2, 0.9);
        old.fingerprint = "fp".into();
        apply(
            &mut old,
            Change::Resolve { note: None },
            &Actor::Person("ana".into()),
            "t0",
        )
        .unwrap();
        old.history[0].counted = None;
        let mut again = node("engineer-1", "engineer", Priority::P0, 0.9);
        again.fingerprint = "fp".into();
        let carried = carry_over(&[old], vec![again]);
        assert_eq!(carried[0].status, Status::Resolved);
    }

    #[test]
    fn automated_decisions_are_recomputed_not_carried() {
        let model = Actor::Reviewer("verifier".into());
        // A P2: a P0 or P1 is never dismissed by a verifier at all.
        let mut refuted = node("r1-a", "engineer", Priority::P2, 0.9);
        refuted.fingerprint = "fp-a".into();
        apply(
            &mut refuted,
            Change::Confirm { note: "yes".into() },
            &Actor::Reviewer("qa".into()),
            "t0",
        )
        .unwrap();
        apply(
            &mut refuted,
            Change::Dismiss {
                reason: "refuted by verification: a quote".into(),
            },
            &model,
            "t0",
        )
        .unwrap();
        let mut again = node("r2-a", "engineer", Priority::P2, 0.9);
        again.fingerprint = "fp-a".into();
        let carried = carry_over(&[refuted.clone()], vec![again.clone()]);
        assert_eq!(carried[0].status, Status::Open);
        assert!(carried[0].history.is_empty());
        assert!(carried[0].confirmations.is_empty());

        // A person reopened it after the verifier: the person's word is what carries.
        apply(
            &mut refuted,
            Change::Reopen,
            &Actor::Person("ana".into()),
            "t1",
        )
        .unwrap();
        apply(
            &mut refuted,
            Change::Dispute {
                note: "this is real".into(),
            },
            &Actor::Person("ana".into()),
            "t1",
        )
        .unwrap();
        let carried = carry_over(&[refuted], vec![again]);
        assert!(carried[0].status.is_active(), "{:?}", carried[0].status);
        assert_eq!(carried[0].history.len(), 1);
        assert!(matches!(carried[0].history[0].by, Actor::Person(_)));
        assert_eq!(carried[0].disputes.len(), 1);
        assert!(carried[0].confirmations.is_empty());
    }

    #[test]
    fn an_edited_comment_follows_its_finding_into_the_next_round() {
        let mut first = node("r1-a", "rules", Priority::P2, 1.0);
        first.fingerprint = "fp-a".into();
        let mut gone = node("r1-b", "rules", Priority::P2, 1.0);
        gone.fingerprint = "fp-b".into();
        let comments: BTreeMap<String, String> = [
            ("r1-a".to_string(), "say it kindly".to_string()),
            ("r1-b".to_string(), "no longer found".to_string()),
        ]
        .into();
        let mut again = node("r2-a", "rules", Priority::P2, 1.0);
        again.fingerprint = "fp-a".into();
        let new = node("r2-c", "rules", Priority::P2, 1.0);
        let carried = carry_comments(&comments, &[first, gone], &[again, new]);
        assert_eq!(
            carried,
            [("r2-a".to_string(), "say it kindly".to_string())].into()
        );
    }
}
