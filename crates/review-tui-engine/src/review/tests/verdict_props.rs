use proptest::prelude::*;

use super::verdict_table::finding;
use crate::review::axes::{Axis, AxisVerdict};
use crate::review::node::{Category, Priority, Status};
use crate::review::verdict::*;

fn priority() -> impl Strategy<Value = Priority> {
    prop::sample::select(Priority::ALL.to_vec())
}

fn status() -> impl Strategy<Value = Status> {
    prop::sample::select(vec![
        Status::Open,
        Status::ConsensusReady,
        Status::Resolved,
        Status::Dismissed,
    ])
}

fn category() -> impl Strategy<Value = Category> {
    prop_oneof![
        8 => prop::sample::select(Category::KNOWN.to_vec()),
        1 => "[a-z]{1,8}".prop_map(|s| Category::parse(&s)),
    ]
}

prop_compose! {
    fn any_finding()(
        priority in priority(),
        confidence in 0.0f64..=1.0,
        category in category(),
        in_scope in any::<bool>(),
        status in status(),
        peer_confirmed in any::<bool>(),
        duplicate in prop::bool::weighted(0.1).prop_map(|d| d.then(|| "f".to_string())),
    ) -> VerdictFinding {
        VerdictFinding { priority, confidence, category, in_scope, status, peer_confirmed, duplicate_of: duplicate, ..finding(Priority::P3, 0.0) }
    }
}

fn run() -> impl Strategy<Value = ReviewerRun> {
    (
        prop::sample::select(vec!["engineer", "qa", "architect"]),
        any::<bool>(),
        prop::sample::select(vec![
            Outcome::Ok,
            Outcome::Failed,
            Outcome::InvalidOutput,
            Outcome::Skipped,
        ]),
    )
        .prop_map(|(role, required, outcome)| ReviewerRun {
            role: role.into(),
            required,
            outcome,
            reason: None,
        })
}

fn axis() -> impl Strategy<Value = Axis> {
    (
        prop::sample::select(vec!["apiContract", "security", "testGap"]),
        prop::sample::select(AxisVerdict::ALL.to_vec()),
        any::<bool>(),
    )
        .prop_map(|(name, verdict, gated)| Axis {
            name: name.into(),
            verdict,
            gated,
            detail: String::new(),
        })
}

prop_compose! {
    fn any_input()(
        findings in prop::collection::vec(any_finding(), 0..12),
        axes in prop::collection::vec(axis(), 0..3),
        reviewers in prop::collection::vec(run(), 0..4),
        deterministic_only in any::<bool>(),
    ) -> VerdictInput {
        VerdictInput { findings, axes, reviewers, deterministic_only, model_verdict: None }
    }
}

proptest! {
    #[test]
    fn an_open_in_scope_confident_p0_always_blocks(
        mut input in any_input(),
        confidence in 0.7f64..=1.0,
        status in prop::sample::select(vec![Status::Open, Status::ConsensusReady]),
    ) {
        input.findings.push(VerdictFinding {
            status,
            ..finding(Priority::P0, confidence)
        });
        prop_assert_eq!(decide(&input).decision, Decision::Block);
    }

    #[test]
    fn a_failed_required_reviewer_never_ships(mut input in any_input(), outcome in prop::sample::select(vec![Outcome::Failed, Outcome::InvalidOutput])) {
        input.reviewers.push(ReviewerRun { role: "qa".into(), required: true, outcome, reason: None });
        prop_assert_ne!(decide(&input).decision, Decision::Ship);
    }

    #[test]
    fn adding_a_finding_never_makes_it_less_strict(input in any_input(), extra in any_finding()) {
        let before = decide(&input).decision;
        let mut more = input.clone();
        more.findings.push(extra);
        prop_assert!(decide(&more).decision >= before);
    }

    #[test]
    fn the_models_verdict_never_changes_the_output(input in any_input(), model in prop::option::of("[A-Z_]{0,16}")) {
        let mut without = input.clone();
        without.model_verdict = None;
        let mut with = input;
        with.model_verdict = model.clone();
        let mut a = decide(&without);
        let b = decide(&with);
        prop_assert_eq!(&b.model_verdict, &model);
        a.model_verdict = model;
        prop_assert_eq!(a, b);
    }

    #[test]
    fn confidence_is_always_between_zero_and_one(input in any_input()) {
        let c = decide(&input).confidence;
        prop_assert!((0.0..=1.0).contains(&c));
    }

    #[test]
    fn the_first_reason_argues_for_the_decision(input in any_input()) {
        let verdict = decide(&input);
        let first = verdict.reasons.first().expect("every verdict gives a reason");
        prop_assert!(
            first.starts_with(&format!("{}:", verdict.decision.label())),
            "{:?}: {:?}", verdict.decision, verdict.reasons
        );
    }

    #[test]
    fn a_failing_gated_axis_always_blocks(mut input in any_input()) {
        input.axes.push(Axis { name: "apiContract".into(), verdict: AxisVerdict::Fail, gated: true, detail: String::new() });
        prop_assert_eq!(decide(&input).decision, Decision::Block);
    }
}
