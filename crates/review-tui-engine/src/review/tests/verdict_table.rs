use crate::review::axes::{Axis, AxisVerdict};
use crate::review::node::{Category, Priority, Status};
use crate::review::verdict::*;

pub(super) fn finding(priority: Priority, confidence: f64) -> VerdictFinding {
    VerdictFinding {
        id: "f".into(),
        title: "t".into(),
        location: "a.rs:1".into(),
        reviewer: "engineer".into(),
        priority,
        confidence,
        category: Category::Correctness,
        in_scope: true,
        status: Status::Open,
        peer_confirmed: false,
        duplicate_of: None,
    }
}

fn with(f: VerdictFinding, change: impl FnOnce(&mut VerdictFinding)) -> VerdictFinding {
    let mut f = f;
    change(&mut f);
    f
}

fn run(role: &str, outcome: Outcome) -> ReviewerRun {
    ReviewerRun {
        role: role.into(),
        required: true,
        outcome,
        reason: None,
    }
}

fn axis(name: &str, verdict: AxisVerdict, gated: bool) -> Axis {
    Axis {
        name: name.into(),
        verdict,
        gated,
        detail: String::new(),
    }
}

fn decision(findings: Vec<VerdictFinding>) -> Decision {
    decide(&VerdictInput {
        findings,
        ..VerdictInput::default()
    })
    .decision
}

#[test]
fn findings_table() {
    use Decision::*;
    use Priority::*;
    let cases: Vec<(&str, Vec<VerdictFinding>, Decision)> = vec![
        ("nothing found", vec![], Ship),
        (
            "only details",
            vec![finding(P2, 0.9), finding(P3, 1.0)],
            Ship,
        ),
        ("confident P0", vec![finding(P0, 0.7)], Block),
        ("P0 just under the bar", vec![finding(P0, 0.69)], Hold),
        ("P1", vec![finding(P1, 1.0)], Hold),
        ("P1 with low confidence", vec![finding(P1, 0.1)], Hold),
        (
            "P0 out of scope",
            vec![with(finding(P0, 1.0), |f| f.in_scope = false)],
            Ship,
        ),
        (
            "P0 resolved",
            vec![with(finding(P0, 1.0), |f| f.status = Status::Resolved)],
            Ship,
        ),
        (
            "P0 dismissed",
            vec![with(finding(P0, 1.0), |f| f.status = Status::Dismissed)],
            Ship,
        ),
        (
            "P0 consensus-ready",
            vec![with(finding(P0, 0.9), |f| {
                f.status = Status::ConsensusReady
            })],
            Block,
        ),
        (
            "unknown category P3",
            vec![with(finding(P3, 0.2), |f| {
                f.category = Category::Unknown("style".into())
            })],
            Hold,
        ),
        (
            "unknown category out of scope",
            vec![with(finding(P3, 0.2), |f| {
                f.category = Category::Unknown("bug".into());
                f.in_scope = false;
            })],
            Ship,
        ),
        ("P0 and P1", vec![finding(P1, 1.0), finding(P0, 0.8)], Block),
    ];
    for (name, findings, expected) in cases {
        assert_eq!(decision(findings), expected, "{name}");
    }
}

#[test]
fn reviewer_runs_table() {
    use Decision::*;
    type Case = (
        &'static str,
        Vec<ReviewerRun>,
        bool,
        Vec<VerdictFinding>,
        Decision,
    );
    let cases: Vec<Case> = vec![
        (
            "all ok",
            vec![run("engineer", Outcome::Ok)],
            false,
            vec![],
            Ship,
        ),
        (
            "failed",
            vec![run("qa", Outcome::Failed)],
            false,
            vec![],
            Inconclusive,
        ),
        (
            "invalid output",
            vec![run("qa", Outcome::InvalidOutput)],
            false,
            vec![],
            Inconclusive,
        ),
        (
            "skipped",
            vec![run("qa", Outcome::Skipped)],
            false,
            vec![],
            Inconclusive,
        ),
        (
            "skipped, deterministic-only asked",
            vec![run("qa", Outcome::Skipped)],
            true,
            vec![],
            Ship,
        ),
        (
            "optional reviewer failed",
            vec![ReviewerRun {
                required: false,
                ..run("qa", Outcome::Failed)
            }],
            false,
            vec![],
            Ship,
        ),
        (
            "failed with a P1",
            vec![run("qa", Outcome::Failed)],
            false,
            vec![finding(Priority::P1, 1.0)],
            Inconclusive,
        ),
        (
            "failed with a blocking P0",
            vec![run("qa", Outcome::Failed)],
            false,
            vec![finding(Priority::P0, 1.0)],
            Block,
        ),
    ];
    for (name, reviewers, deterministic_only, findings, expected) in cases {
        let verdict = decide(&VerdictInput {
            findings,
            reviewers,
            deterministic_only,
            ..VerdictInput::default()
        });
        assert_eq!(verdict.decision, expected, "{name}");
    }
}

#[test]
fn axes_table() {
    use AxisVerdict::*;
    use Decision::*;
    let cases = [
        (axis("apiContract", Fail, true), Block),
        (axis("apiContract", Partial, true), Hold),
        (axis("apiContract", Unavailable, true), Hold),
        (axis("apiContract", Warn, true), Ship),
        (axis("apiContract", Pass, true), Ship),
        (axis("testGap", Fail, false), Ship),
    ];
    for (a, expected) in cases {
        let label = format!("{} {} gated={}", a.name, a.verdict, a.gated);
        let verdict = decide(&VerdictInput {
            axes: vec![a],
            ..VerdictInput::default()
        });
        assert_eq!(verdict.decision, expected, "{label}");
    }
}

#[test]
fn reasons_say_why_and_deterministic_runs_say_so() {
    let verdict = decide(&VerdictInput {
        findings: vec![with(finding(Priority::P0, 0.9), |f| {
            f.title = "retry reuses the expired token".into()
        })],
        reviewers: vec![run("engineer", Outcome::Skipped)],
        deterministic_only: true,
        ..VerdictInput::default()
    });
    assert_eq!(verdict.decision, Decision::Block);
    assert!(verdict.reasons[0].starts_with("Block: 1 P0 finding"));
    assert!(verdict.reasons[0].contains("retry reuses the expired token"));
    assert!(
        verdict
            .reasons
            .iter()
            .any(|r| r.contains("deterministic-only"))
    );
}

/// The first reason is the one that decided: a view with room for one reason (the cockpit's
/// header, the posted headline) must not explain a Block by a Hold or a failed reviewer.
#[test]
fn the_deciding_reason_comes_first_then_milder_ones_then_notes() {
    let verdict = decide(&VerdictInput {
        findings: vec![with(finding(Priority::P1, 0.9), |f| {
            f.title = "todo!() in the change".into()
        })],
        reviewers: vec![run("architect", Outcome::Failed)],
        axes: vec![axis("apiContract", AxisVerdict::Fail, true)],
        deterministic_only: true,
        ..VerdictInput::default()
    });
    assert_eq!(verdict.decision, Decision::Block);
    let prefixes: Vec<&str> = verdict
        .reasons
        .iter()
        .map(|r| r.split_once(':').map_or("note", |(p, _)| p))
        .collect();
    assert_eq!(
        prefixes,
        [
            "Block",
            "Inconclusive",
            "Hold",
            "deterministic-only run, asked for explicitly"
        ],
        "{:?}",
        verdict.reasons
    );
    assert!(verdict.reasons[0].contains("apiContract"));
}

#[test]
fn consensus_without_a_peer_is_flagged() {
    let verdict = decide(&VerdictInput {
        findings: vec![with(finding(Priority::P2, 0.9), |f| {
            f.status = Status::ConsensusReady
        })],
        ..VerdictInput::default()
    });
    assert!(
        verdict
            .reasons
            .iter()
            .any(|r| r.contains("without a peer confirmation"))
    );
}

#[test]
fn counts_split_the_findings() {
    let verdict = decide(&VerdictInput {
        findings: vec![
            finding(Priority::P0, 0.9),
            finding(Priority::P1, 0.5),
            with(finding(Priority::P1, 0.5), |f| {
                f.duplicate_of = Some("f".into())
            }),
            with(finding(Priority::P2, 0.5), |f| f.in_scope = false),
            with(finding(Priority::P3, 0.5), |f| f.status = Status::Resolved),
            with(finding(Priority::P3, 0.5), |f| f.status = Status::Dismissed),
        ],
        ..VerdictInput::default()
    });
    let c = verdict.counts;
    assert_eq!(
        (c.total, c.counted, c.p0, c.p1, c.blocking),
        (6, 2, 1, 1, 1)
    );
    assert_eq!(
        (c.duplicates, c.out_of_scope, c.resolved, c.dismissed),
        (1, 1, 1, 1)
    );
}

#[test]
fn confidence_rises_with_agreement_and_falls_with_spread() {
    let agreeing = aggregate_confidence(&[(0.9, false), (0.9, false)]);
    let spread = aggregate_confidence(&[(0.5, false), (1.0, false)]);
    let confirmed = aggregate_confidence(&[(0.9, true), (0.9, true)]);
    assert!((agreeing - 0.9).abs() < 1e-9);
    assert!(spread < 0.75 - 0.2, "spread {spread}");
    assert!(confirmed > agreeing && confirmed <= 1.0);
    assert_eq!(aggregate_confidence(&[]), 0.0);
}

#[test]
fn an_inconclusive_run_reports_no_confidence_and_ship_reports_coverage() {
    let inconclusive = decide(&VerdictInput {
        reviewers: vec![run("qa", Outcome::Failed)],
        ..VerdictInput::default()
    });
    assert_eq!(inconclusive.confidence, 0.0);
    let ship = decide(&VerdictInput {
        reviewers: vec![
            run("engineer", Outcome::Ok),
            ReviewerRun {
                required: false,
                ..run("qa", Outcome::Failed)
            },
        ],
        ..VerdictInput::default()
    });
    assert_eq!(ship.decision, Decision::Ship);
    assert_eq!(ship.confidence, 0.5);
}
