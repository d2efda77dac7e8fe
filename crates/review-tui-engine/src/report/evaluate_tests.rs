use super::evaluate::{Shape, parse_report};
use crate::review::node::{Category, Priority, Status};
use crate::review::verdict::{Decision, Outcome, decide};

fn decision(text: &str) -> Decision {
    decide(&parse_report(text).unwrap().1).decision
}

fn error(text: &str) -> String {
    parse_report(text).unwrap_err().to_string()
}

#[test]
fn the_native_shape_with_defaults() {
    let (shape, input) = parse_report(
        r#"{"findings": [{"kind": "bug", "priority": "P0", "category": "correctness", "confidence": 0.9,
             "title": "retry reuses the expired token", "reviewer": "engineer"}]}"#,
    )
    .unwrap();
    assert_eq!(shape, Shape::Native);
    let f = &input.findings[0];
    assert_eq!(f.status, Status::Open);
    assert!(f.in_scope);
    assert_eq!(f.priority, Priority::P0);
    assert!(input.axes.is_empty() && input.reviewers.is_empty());
    assert_eq!(decide(&input).decision, Decision::Block);
}

#[test]
fn native_axes_and_reviewers_are_read() {
    let (_, input) = parse_report(
        r#"{"findings": [],
            "axes": [{"name": "apiContract", "verdict": "fail", "gated": true}],
            "reviewers": [{"role": "engineer", "required": true, "outcome": "invalid_output"}]}"#,
    )
    .unwrap();
    assert_eq!(input.reviewers[0].outcome, Outcome::InvalidOutput);
    assert_eq!(decide(&input).decision, Decision::Block);
}

#[test]
fn the_agent_pipeline_shape_ignores_the_models_approve() {
    let text = r#"{"verdict": "APPROVE", "findings": [{"severity": "high", "category": "implementation",
                   "inScope": true, "description": "retry reuses the expired token"}]}"#;
    let (shape, input) = parse_report(text).unwrap();
    assert_eq!(shape, Shape::AgentPipeline);
    assert_eq!(input.model_verdict.as_deref(), Some("APPROVE"));
    let verdict = decide(&input);
    assert_eq!(verdict.decision, Decision::Hold);
    assert_eq!(verdict.model_verdict.as_deref(), Some("APPROVE"));
}

#[test]
fn agent_severities_map_to_priorities() {
    for (severity, expected) in [
        ("critical", Decision::Block),
        ("high", Decision::Hold),
        ("medium", Decision::Ship),
        ("low", Decision::Ship),
    ] {
        let text = format!(
            r#"{{"verdict": "REQUEST_CHANGES", "findings": [{{"severity": "{severity}", "category": "spec", "inScope": true, "description": "d"}}]}}"#
        );
        assert_eq!(decision(&text), expected, "{severity}");
    }
}

#[test]
fn out_of_scope_findings_do_not_block() {
    assert_eq!(
        decision(
            r#"{"verdict": "X", "findings": [{"severity": "critical", "category": "implementation", "inScope": false, "description": "d"}]}"#
        ),
        Decision::Ship
    );
    assert_eq!(
        decision(
            r#"{"verdict": "X", "findings": [{"severity": "critical", "category": "out-of-scope", "description": "d"}]}"#
        ),
        Decision::Ship
    );
}

#[test]
fn legacy_and_missing_categories_fail_closed() {
    for category in [r#""bug""#, r#""style""#, r#""other""#, r#""""#] {
        let text = format!(
            r#"{{"verdict": "APPROVE", "findings": [{{"severity": "low", "category": {category}, "inScope": true, "description": "d"}}]}}"#
        );
        assert_eq!(decision(&text), Decision::Hold, "{category}");
    }
    let (_, input) = parse_report(r#"{"findings": [{"priority": "P3"}]}"#).unwrap();
    assert!(matches!(input.findings[0].category, Category::Unknown(_)));
    assert_eq!(decide(&input).decision, Decision::Hold);
}

#[test]
fn errors_name_the_first_problem_with_its_path() {
    let cases = [
        ("not json", "(document): not JSON"),
        ("[1, 2]", "(document): expected an object"),
        (r#"{"items": []}"#, "findings: missing"),
        (
            r#"{"findings": {}}"#,
            "findings: expected an array, got an object",
        ),
        (
            r#"{"findings": [1]}"#,
            "findings[0]: expected an object, got a number",
        ),
        (
            r#"{"findings": [{"priority": "P1"}, {"priority": "P9"}]}"#,
            "findings[1].priority: expected one of P0",
        ),
        (
            r#"{"findings": [{"priority": "P1", "confidence": 140}]}"#,
            "findings[0].confidence",
        ),
        (
            r#"{"findings": [{"priority": "P1", "confidence": "high"}]}"#,
            "findings[0].confidence: expected a number, got a string",
        ),
        (
            r#"{"findings": [{"priority": "P1", "status": "closed"}]}"#,
            "findings[0].status",
        ),
        (
            r#"{"findings": [{"priority": "P1", "in_scope": "yes"}]}"#,
            "findings[0].in_scope: expected true or false",
        ),
        (
            r#"{"findings": [{"priority": "P1", "kind": "rant"}]}"#,
            "findings[0].kind",
        ),
        (
            r#"{"verdict": "APPROVE", "findings": [{"severity": "huge", "description": "d"}]}"#,
            "findings[0].severity",
        ),
        (
            r#"{"findings": [], "axes": [{"name": "apiContract", "verdict": "green"}]}"#,
            "axes[0].verdict",
        ),
        (
            r#"{"findings": [], "reviewers": [{"role": "qa", "outcome": "meh"}]}"#,
            "reviewers[0].outcome",
        ),
        (
            r#"{"findings": [], "reviewers": [{"outcome": "ok"}]}"#,
            "reviewers[0].role: missing",
        ),
        (
            r#"{"verdict": 3, "findings": []}"#,
            "verdict: expected a string",
        ),
    ];
    for (text, expected) in cases {
        let message = error(text);
        assert!(
            message.starts_with(expected),
            "{text}\n  gave {message}\n  wanted {expected}"
        );
    }
}

#[test]
fn a_confidence_above_one_is_refused_not_read_as_a_percentage() {
    // 1.5 read as 1.5 % would turn a sure P0 (Block) into a doubtful one (Hold).
    for confidence in ["85", "1.5", "100", "-1"] {
        let report =
            format!(r#"{{"findings": [{{"priority": "P0", "confidence": {confidence}}}]}}"#);
        let message = parse_report(&report).unwrap_err().to_string();
        assert!(message.contains("findings[0].confidence"), "{message}");
        assert!(message.contains("0.0 to 1.0"), "{message}");
    }
    let (_, input) =
        parse_report(r#"{"findings": [{"priority": "P0", "confidence": 1}]}"#).unwrap();
    assert_eq!(input.findings[0].confidence, 1.0);
}
