//! The verdict's invariant as a property (docs/verdict.md, "How the verdict is decided"): a finding the
//! code validated as in scope and blocking counts until a person closes it. For any sequence of
//! reviewer events — findings of every source with colliding anchors, titles, rules and
//! fingerprints, any scope label, stances, the passes' refutations and rescores, dropped and
//! invalid answers, finishes — and any decisions of a person, the set of such findings shrinks
//! only by a person's dismissal or resolution, and the verdict never Ships while it is not
//! empty: a P0 at the blocking confidence keeps it at Block, anything else in it at Hold.

use std::collections::BTreeSet;

use proptest::prelude::*;

use super::{T0, from_source, node};
use crate::review::board::Board;
use crate::review::derived::{self, Context};
use crate::review::events::{EventKind, ReviewEvent, RunId};
use crate::review::node::*;
use crate::review::side::Side;
use crate::review::status::{self, Change};
use crate::review::verdict::{BLOCK_CONFIDENCE, Decision, Outcome};

/// Who reports: model roles (security rides on the architect's agent), a rule, the secret
/// scan, a SARIF import and the injection scan.
const REPORTERS: [(&str, Source); 7] = [
    ("engineer", Source::Model),
    ("qa", Source::Model),
    ("security", Source::Model),
    ("rules", Source::Deterministic),
    ("secret scan", Source::Scanner),
    ("sarif:clippy", Source::Scanner),
    ("injection scan", Source::Deterministic),
];

#[derive(Debug, Clone)]
struct Finding {
    reporter: usize,
    priority: Priority,
    confidence: f64,
    unknown_category: bool,
    in_scope: bool,
    /// `None`: no anchor; else a line of one of two files.
    anchor: Option<(bool, u32)>,
    title: u8,
    rule: Option<&'static str>,
    fingerprint: Option<&'static str>,
}

#[derive(Debug, Clone)]
enum Step {
    Add(Finding),
    Stance {
        reporter: usize,
        target: usize,
        confirm: bool,
    },
    Refuted {
        target: usize,
    },
    Contested {
        target: usize,
    },
    Scored {
        target: usize,
        score: u8,
    },
    Dropped {
        reporter: usize,
    },
    End {
        reporter: usize,
        outcome: Option<Outcome>,
    },
    Person {
        target: usize,
        action: u8,
    },
}

fn finding() -> impl Strategy<Value = Finding> {
    (
        (
            0..REPORTERS.len(),
            prop::sample::select(Priority::ALL.to_vec()),
            prop::sample::select(vec![0.3, 0.69, BLOCK_CONFIDENCE, 0.9, 1.0]),
            prop::bool::weighted(0.1),
            any::<bool>(),
        ),
        (
            prop::option::weighted(0.8, (any::<bool>(), 1u32..4)),
            0u8..3,
            prop::option::of(prop::sample::select(vec![
                "secret/generic-key",
                "rust/unwrap",
                "injection/instructions",
            ])),
            prop::option::of(prop::sample::select(vec!["fp-a", "fp-b"])),
        ),
    )
        .prop_map(
            |(
                (reporter, priority, confidence, unknown_category, in_scope),
                (anchor, title, rule, fingerprint),
            )| Finding {
                reporter,
                priority,
                confidence,
                unknown_category,
                in_scope,
                anchor,
                title,
                rule,
                fingerprint,
            },
        )
}

fn step() -> impl Strategy<Value = Step> {
    let target = 0usize..12;
    prop_oneof![
        6 => finding().prop_map(Step::Add),
        2 => (0..REPORTERS.len(), target.clone(), any::<bool>())
            .prop_map(|(reporter, target, confirm)| Step::Stance { reporter, target, confirm }),
        2 => target.clone().prop_map(|target| Step::Refuted { target }),
        1 => target.clone().prop_map(|target| Step::Contested { target }),
        1 => (target.clone(), 0u8..=100).prop_map(|(target, score)| Step::Scored { target, score }),
        1 => (0..REPORTERS.len()).prop_map(|reporter| Step::Dropped { reporter }),
        2 => (
            0..REPORTERS.len(),
            prop::option::of(prop::sample::select(vec![
                Outcome::Ok,
                Outcome::Failed,
                Outcome::InvalidOutput,
            ])),
        )
            .prop_map(|(reporter, outcome)| Step::End { reporter, outcome }),
        2 => (target, 0u8..5).prop_map(|(target, action)| Step::Person { target, action }),
    ]
}

fn review_node(id: &str, f: &Finding) -> ReviewNode {
    let (reviewer, source) = REPORTERS[f.reporter];
    let mut n = node(id, reviewer, f.priority, f.confidence);
    n.origin.source = source;
    n.text.title = format!("title {}", f.title);
    n.anchor = f.anchor.map(|(first, line)| Anchor {
        path: if first { "src/a.rs" } else { "src/b.rs" }
            .try_into()
            .unwrap(),
        side: Side::Right,
        start_line: line,
        end_line: line,
    });
    n.rule = f.rule.map(str::to_owned);
    n.fingerprint = f.fingerprint.unwrap_or_default().to_owned();
    n.scope = if f.in_scope {
        Scope::InScope
    } else {
        Scope::OutOfScope
    };
    if f.unknown_category {
        n.triage.category = Category::Unknown("style".into());
    }
    n
}

/// Validated in scope and blocking: what the invariant keeps counted.
fn blocking(n: &ReviewNode) -> bool {
    n.in_scope() && n.priority <= Priority::P1
}

fn event(reviewer: &str, kind: EventKind) -> ReviewEvent {
    ReviewEvent::new(RunId(1), reviewer, kind)
}

/// Plays `steps`; after each, checks the verdict against the set the invariant keeps.
fn play(steps: &[Step]) -> Result<(), TestCaseError> {
    let mut board = Board::default();
    board.start_run(RunId(1));
    let mut ids: Vec<String> = Vec::new();
    // The validated in-scope blocking findings no person has closed.
    let mut kept: BTreeSet<String> = BTreeSet::new();
    let person = Actor::Person("ana".into());
    for (n, step) in steps.iter().enumerate() {
        let target = |t: &usize| (!ids.is_empty()).then(|| ids[t % ids.len()].clone());
        match step {
            Step::Add(f) => {
                let id = format!("n{n}");
                let found = review_node(&id, f);
                let reviewer = found.origin.reviewer.clone();
                let applied = board.apply(
                    event(
                        &reviewer,
                        EventKind::NodeAdded {
                            node: Box::new(found.clone()),
                        },
                    ),
                    T0,
                );
                if matches!(applied, crate::review::board::Applied::NodeAdded(_)) {
                    if blocking(&found) {
                        kept.insert(id.clone());
                    }
                    ids.push(id);
                }
            }
            Step::Stance {
                reporter,
                target: t,
                confirm,
            } => {
                if let Some(node_id) = target(t) {
                    let kind = EventKind::Stance {
                        node_id,
                        confirm: *confirm,
                        note: "read it".into(),
                    };
                    board.apply(event(REPORTERS[*reporter].0, kind), T0);
                }
            }
            Step::Refuted { target: t } => {
                if let Some(node_id) = target(t) {
                    // The quote is the anchored line itself: it proves nothing either way.
                    let kind = EventKind::Refuted {
                        node_id,
                        quote: "let token = cache.get(key);".into(),
                    };
                    board.apply(event("verifier", kind), T0);
                }
            }
            Step::Contested { target: t } => {
                if let Some(node_id) = target(t) {
                    let kind = EventKind::Contested {
                        node_id,
                        note: "refuted by verification".into(),
                    };
                    board.apply(event("verifier", kind), T0);
                }
            }
            Step::Scored { target: t, score } => {
                if let Some(node_id) = target(t) {
                    let kind = EventKind::Scored {
                        node_id,
                        score: *score,
                        reasoning: "rubric".into(),
                    };
                    board.apply(event("scoring", kind), T0);
                }
            }
            Step::Dropped { reporter } => {
                let kind = EventKind::Dropped {
                    reason: "finding 3 rejected: the arguments are not valid JSON".into(),
                };
                board.apply(event(REPORTERS[*reporter].0, kind), T0);
            }
            Step::End { reporter, outcome } => {
                let kind = match outcome {
                    Some(Outcome::Ok) | None => EventKind::Done {
                        summary: "done".into(),
                    },
                    Some(outcome) => EventKind::Failed {
                        outcome: *outcome,
                        reason: "the answer did not parse".into(),
                    },
                };
                board.apply(event(REPORTERS[*reporter].0, kind), T0);
            }
            Step::Person { target: t, action } => {
                let Some(node_id) = target(t) else { continue };
                let node = board.nodes.iter_mut().find(|x| x.id == node_id).unwrap();
                let change = match action {
                    0 => Change::Dismiss {
                        reason: "not a problem".into(),
                    },
                    1 => Change::Resolve { note: None },
                    2 => Change::Reopen,
                    3 => Change::Confirm { note: "yes".into() },
                    _ => Change::Dispute { note: "no".into() },
                };
                if let Ok(applied) = status::apply(node, change, &person, T0)
                    && let Some(transition) = applied.transition
                {
                    if !transition.to.is_active() {
                        kept.remove(&node_id);
                    } else if !transition.from.is_active() && blocking(node) {
                        kept.insert(node_id.clone());
                    }
                }
            }
        }

        let mut nodes = board.nodes.clone();
        let derived = derived::derive(
            &mut nodes,
            Context {
                reviewers: board.reviewer_runs(),
                ..Context::default()
            },
        );
        if kept.is_empty() {
            continue;
        }
        let strictest = nodes
            .iter()
            .filter(|x| kept.contains(&x.id))
            .map(|x| {
                if x.priority == Priority::P0 && x.confidence >= BLOCK_CONFIDENCE {
                    Decision::Block
                } else {
                    Decision::Hold
                }
            })
            .max()
            .unwrap();
        for id in &kept {
            let node = nodes.iter().find(|x| &x.id == id).unwrap();
            prop_assert!(
                node.status.is_active(),
                "{id} was closed by something other than a person: {:?}",
                node.history
            );
        }
        prop_assert!(
            derived.verdict.decision >= strictest,
            "after step {n} the verdict is {:?} ({:?}) while {kept:?} must keep it at least {strictest:?}",
            derived.verdict.decision,
            derived.verdict.reasons,
        );
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn only_a_person_takes_a_validated_blocking_finding_out_of_the_verdict(
        steps in prop::collection::vec(step(), 1..24),
    ) {
        play(&steps)?;
    }
}

/// The derived verdict of `nodes` with every reviewer finished.
fn decided(mut nodes: Vec<ReviewNode>) -> (Decision, Vec<ReviewNode>) {
    let derived = derived::derive(&mut nodes, Context::default());
    (derived.verdict.decision, nodes)
}

#[test]
fn an_out_of_scope_twin_never_stands_for_an_in_scope_finding() {
    // An honest SARIF result from before the change, more confident, on the reviewer's spot.
    let mut sarif = from_source(
        node("sarif-1", "sarif:clippy", Priority::P0, 1.0),
        "sarif:clippy",
        Source::Scanner,
    );
    sarif.scope = Scope::OutOfScope;
    let reviewer = node("engineer-1", "engineer", Priority::P0, 0.9);
    let (decision, nodes) = decided(vec![sarif, reviewer]);
    assert_eq!(decision, Decision::Block);
    assert_eq!(nodes[0].duplicate_of.as_deref(), Some("engineer-1"));

    // A model's out-of-scope twin of a rule's finding: the same anchor, rule and print.
    let mut rule = from_source(
        node("rules-1", "rules", Priority::P1, 1.0),
        "rules",
        Source::Deterministic,
    );
    rule.rule = Some("security/sql-injection".into());
    rule.fingerprint = "fp".into();
    let mut twin = node("qa-1", "qa", Priority::P0, 1.0);
    twin.rule = rule.rule.clone();
    twin.fingerprint = "fp".into();
    twin.scope = Scope::OutOfScope;
    let (decision, nodes) = decided(vec![twin, rule]);
    assert_eq!(decision, Decision::Hold);
    assert_eq!(nodes[0].duplicate_of.as_deref(), Some("rules-1"));

    // A more severe out-of-scope copy, by title with no anchor, of the injection scan's finding.
    let mut injection = from_source(
        node("inj-1", "injection scan", Priority::P1, 1.0),
        "injection scan",
        Source::Deterministic,
    );
    injection.anchor = None;
    injection.fingerprint = "fp-i".into();
    let mut copy = node("engineer-2", "engineer", Priority::P0, 1.0);
    copy.anchor = None;
    copy.fingerprint = "fp-i".into();
    copy.scope = Scope::OutOfScope;
    let (decision, _) = decided(vec![copy, injection]);
    assert_eq!(decision, Decision::Hold);
}

#[test]
fn a_persons_decision_carries_only_onto_what_the_same_reviewer_found_again() {
    let mut dismissed = node("r1", "engineer", Priority::P0, 0.9);
    dismissed.fingerprint = "fp".into();
    status::apply(
        &mut dismissed,
        Change::Dismiss {
            reason: "not real".into(),
        },
        &Actor::Person("ana".into()),
        T0,
    )
    .unwrap();
    let mut again = node("r2", "engineer", Priority::P0, 0.9);
    again.fingerprint = "fp".into();
    let mut scanner = from_source(
        node("r2-s", "secret scan", Priority::P0, 1.0),
        "secret scan",
        Source::Scanner,
    );
    scanner.fingerprint = "fp".into();
    let carried = crate::review::carry::carry_over(&[dismissed], vec![again, scanner]);
    assert_eq!(carried[0].status, Status::Dismissed);
    assert_eq!(
        carried[1].status,
        Status::Open,
        "a collision carries nothing"
    );
}

#[test]
fn security_is_the_architects_agent_not_its_peer() {
    let mut found = node("architect-1", "architect", Priority::P1, 0.9);
    let security = Actor::Reviewer("security".into());
    assert!(
        status::apply(
            &mut found,
            Change::Confirm { note: "yes".into() },
            &security,
            T0
        )
        .is_err()
    );
    assert!(!found.has_peer_confirmation());
    assert_eq!(found.status, Status::Open);
    status::apply(
        &mut found,
        Change::Confirm { note: "yes".into() },
        &Actor::Reviewer("qa".into()),
        T0,
    )
    .unwrap();
    assert!(found.has_peer_confirmation());
}
