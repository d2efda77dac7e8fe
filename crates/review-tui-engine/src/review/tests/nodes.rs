use super::*;
use crate::review::schema::node_draft_schema;

fn draft() -> NodeDraft {
    let n = node("n1", "engineer", Priority::P1, 0.9);
    NodeDraft {
        reasoning: n.reasoning,
        kind: n.kind,
        priority: n.priority,
        triage: n.triage,
        rule: Some("correctness/expired-token".into()),
        anchor: n.anchor,
        text: n.text,
        fix: Some(Fix {
            replacement: Some(vec!["    refresh(token)?;".into()]),
            diff: None,
            prompt: None,
        }),
        confidence: n.confidence,
        scope: n.scope,
    }
}

fn fields(result: Result<(), Vec<crate::review::validate::Invalid>>) -> Vec<&'static str> {
    result
        .err()
        .unwrap_or_default()
        .iter()
        .map(|i| i.field)
        .collect()
}

#[test]
fn a_complete_model_finding_validates() {
    assert_eq!(draft().validate(true), Ok(()));
    assert_eq!(node("n1", "engineer", Priority::P0, 1.0).validate(), Ok(()));
}

#[test]
fn model_findings_need_evidence_impact_and_verification() {
    let mut d = draft();
    d.text.evidence = " ".into();
    d.text.impact.clear();
    d.text.verification.clear();
    assert_eq!(
        fields(d.validate(true)),
        vec!["text.evidence", "text.impact", "text.verification"]
    );
    // A deterministic rule's finding carries its texts from the catalog; not required here.
    assert_eq!(d.validate(false), Ok(()));
}

#[test]
fn each_bad_field_is_named_with_a_reason() {
    type Breakage = Box<dyn Fn(&mut NodeDraft)>;
    let cases: Vec<(&str, Breakage)> = vec![
        ("text.title", Box::new(|d| d.text.title = "  ".into())),
        ("text.title", Box::new(|d| d.text.title = "x".repeat(201))),
        ("confidence", Box::new(|d| d.confidence = 1.5)),
        ("confidence", Box::new(|d| d.confidence = -0.1)),
        ("confidence", Box::new(|d| d.confidence = f64::NAN)),
        ("rule", Box::new(|d| d.rule = Some("NoSlash".into()))),
        ("rule", Box::new(|d| d.rule = Some("security/".into()))),
        (
            "anchor.start_line",
            Box::new(|d| d.anchor.as_mut().unwrap().start_line = 0),
        ),
        (
            "anchor.end_line",
            Box::new(|d| d.anchor.as_mut().unwrap().end_line = 3),
        ),
        ("fix.replacement", Box::new(|d| d.anchor = None)),
    ];
    for (field, break_it) in cases {
        let mut d = draft();
        break_it(&mut d);
        let problems = d.validate(true).unwrap_err();
        assert!(
            problems
                .iter()
                .any(|p| p.field == field && !p.reason.is_empty()),
            "expected a problem on {field}, got {problems:?}"
        );
    }
}

#[test]
fn engine_fields_are_validated_too() {
    let mut n = node("", "", Priority::P1, 0.9);
    n.id = " ".into();
    assert_eq!(fields(n.validate()), vec!["id", "origin.reviewer"]);
}

#[test]
fn nodes_round_trip_through_json_in_snake_case() {
    let mut n = node("n1", "engineer", Priority::P0, 0.75);
    n.triage.category = Category::Unknown("style".into());
    n.status = Status::ConsensusReady;
    let json = serde_json::to_value(&n).unwrap();
    assert_eq!(json["status"], "consensus_ready");
    assert_eq!(json["priority"], "P0");
    assert_eq!(json["anchor"]["side"], "RIGHT");
    assert_eq!(json["scope"], "in_scope");
    assert_eq!(json["triage"]["category"], "style");
    let back: ReviewNode = serde_json::from_value(json).unwrap();
    assert_eq!(back, n);
}

#[test]
fn the_schema_lists_reasoning_first_and_requires_every_property() {
    let schema = node_draft_schema();
    let properties: Vec<&String> = schema["properties"].as_object().unwrap().keys().collect();
    assert_eq!(properties[0], "reasoning");
    let required: Vec<&str> = schema["required"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    assert_eq!(required.len(), properties.len());
    assert_eq!(required[0], "reasoning");
}

#[test]
fn the_schema_accepts_our_drafts_and_rejects_broken_ones() {
    let validator = jsonschema::validator_for(&node_draft_schema()).unwrap();
    let good = serde_json::to_value(draft()).unwrap();
    assert!(validator.is_valid(&good), "{:?}", validator.validate(&good));

    let mut no_anchor = draft();
    no_anchor.anchor = None;
    no_anchor.fix = None;
    no_anchor.rule = None;
    assert!(validator.is_valid(&serde_json::to_value(no_anchor).unwrap()));

    for (pointer, bad) in [
        ("/priority", serde_json::json!("P7")),
        ("/confidence", serde_json::json!(1.2)),
        ("/anchor/side", serde_json::json!("MIDDLE")),
        ("/triage/category", serde_json::json!("vibes")),
    ] {
        let mut value = good.clone();
        *value.pointer_mut(pointer).unwrap() = bad;
        assert!(!validator.is_valid(&value), "{pointer} should be rejected");
    }
    let mut extra = good.clone();
    extra["verdict"] = serde_json::json!("APPROVE");
    assert!(!validator.is_valid(&extra));
}
