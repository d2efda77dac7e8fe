//! Property tests of the node validator and the node deserialisation: hostile input never
//! panics, every generated valid node is accepted and survives a JSON round trip, and a node
//! broken in exactly one field is refused naming exactly that field.

use proptest::prelude::*;
use serde_json::{Value, json};

use crate::review::node::*;
use crate::review::side::Side;
use crate::review::validate::{Invalid, MAX_TITLE_CHARS};

/// Any JSON value, small: scalars of every kind, nested arrays and objects whose keys are often
/// the node's own field names, so the deserialiser gets past the first field.
fn any_json() -> impl Strategy<Value = Value> {
    let key = prop_oneof![
        prop::sample::select(vec![
            "id",
            "reasoning",
            "kind",
            "priority",
            "triage",
            "category",
            "severity",
            "effort",
            "rule",
            "anchor",
            "path",
            "side",
            "start_line",
            "end_line",
            "text",
            "title",
            "evidence",
            "impact",
            "verification",
            "fix",
            "replacement",
            "confidence",
            "scope",
            "origin",
            "reviewer",
            "source",
            "status",
        ])
        .prop_map(str::to_owned),
        "[a-z_]{0,6}",
    ];
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        any::<f64>().prop_map(|f| json!(f)),
        prop::sample::select(vec![
            "bug", "P0", "P3", "security", "RIGHT", "LEFT", "in_scope", "model", "", " ", "..",
            "/etc", "a/b", "open",
        ])
        .prop_map(Value::from),
        ".{0,12}".prop_map(Value::from),
    ];
    leaf.prop_recursive(4, 48, 8, move |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::vec((key.clone(), inner), 0..8)
                .prop_map(|pairs| Value::Object(pairs.into_iter().collect())),
        ]
    })
}

fn category() -> impl Strategy<Value = Category> {
    prop_oneof![
        6 => prop::sample::select(Category::KNOWN.to_vec()),
        1 => "[a-z]{1,10}".prop_map(|s| Category::parse(&s)),
    ]
}

/// A path a reviewer may anchor to: relative, no `..`, no NUL.
fn rel_path() -> impl Strategy<Value = String> {
    prop::collection::vec("[a-zA-Z0-9_-][a-zA-Z0-9_.-]{0,8}", 1..4).prop_map(|parts| {
        parts
            .into_iter()
            .map(|p| if p == ".." { "x".into() } else { p })
            .collect::<Vec<_>>()
            .join("/")
    })
}

fn rule_id() -> impl Strategy<Value = String> {
    prop::collection::vec("[a-z0-9_.-]{1,8}", 2..4).prop_map(|parts| parts.join("/"))
}

/// Non-blank text of up to `max` characters (any Unicode; never only whitespace).
fn words(max: usize) -> impl Strategy<Value = String> {
    (
        "[a-zA-Z0-9]",
        proptest::string::string_regex(&format!(".{{0,{}}}", max - 1)).unwrap(),
    )
        .prop_map(|(first, rest)| format!("{first}{rest}"))
}

prop_compose! {
    fn anchor()(
        path in rel_path(),
        side in prop::sample::select(vec![Side::Left, Side::Right]),
        start in 1u32..100_000,
        span in 0u32..50,
    ) -> Anchor {
        let path = crate::repo_path::RepoPath::parse(&path).unwrap();
        Anchor { path, side, start_line: start, end_line: start + span }
    }
}

prop_compose! {
    /// A finding that must validate, as from a model (evidence, impact and verification set).
    pub fn valid_draft()(
        reasoning in ".{0,40}",
        kind in prop::sample::select(Kind::ALL.to_vec()),
        priority in prop::sample::select(Priority::ALL.to_vec()),
        category in category(),
        severity in prop::sample::select(Severity::ALL.to_vec()),
        effort in prop::sample::select(Effort::ALL.to_vec()),
        rule in proptest::option::of(rule_id()),
        anchor in proptest::option::of(anchor()),
        title in words(MAX_TITLE_CHARS),
        body in ".{0,40}",
        evidence in words(40),
        impact in words(40),
        verification in words(40),
        replacement in proptest::option::of(prop::collection::vec(".{0,20}", 0..3)),
        diff in proptest::option::of(".{0,20}"),
        prompt in proptest::option::of(".{0,20}"),
        confidence in 0.0f64..=1.0,
        scope in prop::sample::select(vec![Scope::InScope, Scope::OutOfScope]),
    ) -> NodeDraft {
        // Replacement lines need an anchor to replace.
        let replacement = if anchor.is_some() { replacement } else { None };
        let fix = (replacement.is_some() || diff.is_some() || prompt.is_some())
            .then_some(Fix { replacement, diff, prompt });
        NodeDraft {
            reasoning,
            kind,
            priority,
            triage: Triage { category, severity, effort },
            rule,
            anchor,
            text: NodeText { title, body, evidence, impact, verification },
            fix,
            confidence,
            scope,
        }
    }
}

prop_compose! {
    fn valid_node()(
        draft in valid_draft(),
        id in "[a-z]{1,8}-[0-9]{1,3}",
        reviewer in "[a-z][a-z :]{0,12}",
        source in prop::sample::select(vec![
            Source::Model, Source::Deterministic, Source::Scanner, Source::Person,
        ]),
        status in prop::sample::select(vec![
            Status::Open, Status::ConsensusReady, Status::Resolved, Status::Dismissed,
        ]),
        fingerprint in "[0-9a-f]{0,16}",
    ) -> ReviewNode {
        let mut node = ReviewNode::from_draft(id, Origin { reviewer, source }, draft);
        node.status = status;
        node.fingerprint = fingerprint;
        node
    }
}

/// One way to break a valid node, and the field the refusal must name.
#[derive(Debug, Clone)]
enum Breakage {
    BlankTitle(String),
    LongTitle(usize),
    Confidence(f64),
    Rule(String),
    StartLineZero,
    EndBeforeStart(u32),
    ReplacementWithoutAnchor,
    BlankEvidence(String),
    BlankImpact,
    BlankVerification,
}

fn breakage() -> impl Strategy<Value = Breakage> {
    prop_oneof![
        "[ \t\n]{0,4}".prop_map(Breakage::BlankTitle),
        (MAX_TITLE_CHARS + 1..MAX_TITLE_CHARS + 40).prop_map(Breakage::LongTitle),
        prop_oneof![
            Just(f64::NAN),
            Just(f64::INFINITY),
            Just(f64::NEG_INFINITY),
            1.0f64.next_up()..1e9,
            -1e9f64..-f64::MIN_POSITIVE,
        ]
        .prop_map(Breakage::Confidence),
        prop_oneof![
            "[a-z]{1,8}",
            "[a-z]{1,8}/",
            "/[a-z]{1,8}",
            "[a-z]{1,4}//[a-z]{1,4}",
            "[A-Z][a-z]{0,4}/[a-z]{1,4}",
            "[a-z]{1,4}/[a-z ]{0,3} [a-z]{0,3}",
        ]
        .prop_map(Breakage::Rule),
        Just(Breakage::StartLineZero),
        (1u32..1000).prop_map(Breakage::EndBeforeStart),
        Just(Breakage::ReplacementWithoutAnchor),
        "[ \t]{0,3}".prop_map(Breakage::BlankEvidence),
        Just(Breakage::BlankImpact),
        Just(Breakage::BlankVerification),
    ]
}

/// Applies `breakage`; returns the one field it breaks.
fn break_draft(draft: &mut NodeDraft, breakage: &Breakage) -> &'static str {
    fn anchor(d: &mut NodeDraft) -> &mut Anchor {
        d.anchor.get_or_insert_with(|| Anchor {
            path: crate::repo_path::RepoPath::parse("src/lib.rs").unwrap(),
            side: Side::Right,
            start_line: 1,
            end_line: 1,
        })
    }
    match breakage {
        Breakage::BlankTitle(blank) => {
            draft.text.title = blank.clone();
            "text.title"
        }
        Breakage::LongTitle(n) => {
            draft.text.title = "é".repeat(*n);
            "text.title"
        }
        Breakage::Confidence(c) => {
            draft.confidence = *c;
            "confidence"
        }
        Breakage::Rule(rule) => {
            draft.rule = Some(rule.clone());
            "rule"
        }
        Breakage::StartLineZero => {
            anchor(draft).start_line = 0;
            "anchor.start_line"
        }
        Breakage::EndBeforeStart(by) => {
            let a = anchor(draft);
            a.start_line = a.start_line.max(1) + by;
            a.end_line = a.start_line - by;
            "anchor.end_line"
        }
        Breakage::ReplacementWithoutAnchor => {
            draft.anchor = None;
            draft.fix = Some(Fix {
                replacement: Some(vec!["x".into()]),
                ..Fix::default()
            });
            "fix.replacement"
        }
        Breakage::BlankEvidence(blank) => {
            draft.text.evidence = blank.clone();
            "text.evidence"
        }
        Breakage::BlankImpact => {
            draft.text.impact.clear();
            "text.impact"
        }
        Breakage::BlankVerification => {
            draft.text.verification = "\n".into();
            "text.verification"
        }
    }
}

fn named(result: Result<(), Vec<Invalid>>) -> Vec<&'static str> {
    result
        .err()
        .unwrap_or_default()
        .iter()
        .map(|i| i.field)
        .collect()
}

/// A JSON corruption of one field of a well-formed payload, and the field it must be named by.
fn shape_breakage() -> impl Strategy<Value = (&'static str, Value)> {
    prop_oneof![
        (
            prop::sample::select(vec![
                "kind",
                "priority",
                "triage.severity",
                "triage.effort",
                "anchor.side",
                "scope",
            ]),
            prop_oneof![
                "[a-z]{1,8}".prop_map(Value::from),
                any::<i64>().prop_map(Value::from),
                Just(json!({})),
            ]
        ),
        (
            prop::sample::select(vec!["confidence", "anchor.start_line", "anchor.end_line",]),
            prop_oneof![
                "[a-z]{0,8}".prop_map(Value::from),
                Just(json!(true)),
                Just(json!([1])),
                (-1_000_000i64..0).prop_map(Value::from),
            ]
        ),
        (
            prop::sample::select(vec![
                "text.title",
                "text.body",
                "text.evidence",
                "anchor.path",
                "rule",
                "reasoning",
                "fix.diff",
            ]),
            prop_oneof![
                any::<i64>().prop_map(Value::from),
                Just(json!(true)),
                Just(json!({"a": 1})),
                Just(json!(["x"])),
            ]
        ),
        (
            prop::sample::select(vec!["fix.replacement"]),
            prop_oneof![
                Just(json!("one line")),
                Just(json!([1, 2])),
                Just(json!({"a": 1})),
            ]
        ),
        (
            prop::sample::select(vec!["triage", "text", "anchor", "fix"]),
            prop_oneof![Just(json!("x")), Just(json!(3)), Just(json!(false)),]
        ),
    ]
}

/// Sets (or, for `Value::Null` on a required field, removes) the value at a dotted path.
fn set_path(payload: &mut Value, dotted: &str, value: Value) {
    let mut at = payload;
    let parts: Vec<&str> = dotted.split('.').collect();
    for part in &parts[..parts.len() - 1] {
        if at[*part].is_null() {
            at[*part] = json!({});
        }
        at = &mut at[*part];
    }
    at[parts[parts.len() - 1]] = value;
}

/// A payload whose anchor and fix are objects, so nested corruptions have a parent to live in.
fn full_payload(mut draft: NodeDraft) -> Value {
    draft.anchor.get_or_insert(Anchor {
        path: crate::repo_path::RepoPath::parse("src/lib.rs").unwrap(),
        side: Side::Right,
        start_line: 3,
        end_line: 4,
    });
    draft.fix.get_or_insert_with(Fix::default);
    serde_json::to_value(&draft).unwrap()
}

proptest! {
    #[test]
    fn arbitrary_bytes_never_panic_the_parser_or_the_validator(
        bytes in prop::collection::vec(any::<u8>(), 0..512),
    ) {
        if let Ok(node) = serde_json::from_slice::<ReviewNode>(&bytes) {
            let _ = node.validate();
        }
        if let Ok(draft) = serde_json::from_slice::<NodeDraft>(&bytes) {
            let _ = draft.validate(true);
        }
        if let Ok(value) = serde_json::from_slice::<Value>(&bytes) {
            let _ = NodeDraft::from_payload(&value, true);
        }
    }

    #[test]
    fn arbitrary_json_never_panics_and_what_is_accepted_is_valid(value in any_json()) {
        match NodeDraft::from_payload(&value, true) {
            Ok(draft) => prop_assert_eq!(draft.validate(true), Ok(())),
            Err(problems) => {
                prop_assert!(!problems.is_empty());
                for problem in problems {
                    prop_assert!(!problem.reason.is_empty(), "{:?}", problem);
                }
            }
        }
        if let Ok(node) = serde_json::from_value::<ReviewNode>(value) {
            let _ = node.validate();
        }
    }

    #[test]
    fn a_valid_node_with_one_field_replaced_by_anything_never_panics(
        node in valid_node(),
        field in prop::sample::select(vec![
            "kind", "priority", "triage", "rule", "anchor", "text", "fix", "confidence",
            "scope", "origin", "status", "id", "history", "confirmations",
        ]),
        replacement in any_json(),
    ) {
        let mut value = serde_json::to_value(&node).unwrap();
        value[field] = replacement;
        if let Ok(node) = serde_json::from_value::<ReviewNode>(value.clone()) {
            let _ = node.validate();
        }
        let _ = NodeDraft::from_payload(&value, true);
    }

    #[test]
    fn generated_valid_findings_are_accepted_and_round_trip(draft in valid_draft()) {
        prop_assert_eq!(draft.validate(true), Ok(()));
        prop_assert_eq!(draft.validate(false), Ok(()));
        let payload = serde_json::to_value(&draft).unwrap();
        prop_assert_eq!(NodeDraft::from_payload(&payload, true), Ok(draft.clone()));
        let text = serde_json::to_string(&draft).unwrap();
        prop_assert_eq!(serde_json::from_str::<NodeDraft>(&text).unwrap(), draft);
    }

    #[test]
    fn generated_valid_nodes_are_accepted_and_round_trip(node in valid_node()) {
        prop_assert_eq!(node.validate(), Ok(()));
        let text = serde_json::to_string(&node).unwrap();
        let back: ReviewNode = serde_json::from_str(&text).unwrap();
        prop_assert_eq!(&back, &node);
        prop_assert_eq!(back.validate(), Ok(()));
    }

    #[test]
    fn one_broken_field_is_refused_naming_exactly_that_field(
        draft in valid_draft(),
        breakage in breakage(),
    ) {
        let mut draft = draft;
        let field = break_draft(&mut draft, &breakage);
        prop_assert_eq!(named(draft.validate(true)), vec![field]);
        // The same payload through the model's door: refused for the same field.
        if draft.confidence.is_finite() {
            let payload = serde_json::to_value(&draft).unwrap();
            let refused = NodeDraft::from_payload(&payload, true).unwrap_err();
            prop_assert_eq!(refused.iter().map(|i| i.field).collect::<Vec<_>>(), vec![field]);
        }
        // Evidence, impact and verification are only owed by model findings.
        let model_only = matches!(
            breakage,
            Breakage::BlankEvidence(_) | Breakage::BlankImpact | Breakage::BlankVerification
        );
        if model_only {
            prop_assert_eq!(draft.validate(false), Ok(()));
        } else {
            prop_assert_eq!(named(draft.validate(false)), vec![field]);
        }
    }

    #[test]
    fn a_node_broken_in_one_field_is_refused_naming_it(
        node in valid_node(),
        breakage in proptest::option::of(breakage()),
        blank_id in any::<bool>(),
    ) {
        let mut node = node;
        let field = match &breakage {
            // The engine's own fields.
            None if blank_id => {
                node.id = " ".into();
                "id"
            }
            None => {
                node.origin.reviewer.clear();
                "origin.reviewer"
            }
            // The reviewer's part, on a model node (which owes evidence, impact, verification).
            Some(breakage) => {
                let mut draft = NodeDraft {
                    reasoning: node.reasoning.clone(),
                    kind: node.kind,
                    priority: node.priority,
                    triage: node.triage.clone(),
                    rule: node.rule.clone(),
                    anchor: node.anchor.clone(),
                    text: node.text.clone(),
                    fix: node.fix.clone(),
                    confidence: node.confidence,
                    scope: node.scope,
                };
                let field = break_draft(&mut draft, breakage);
                let origin = Origin { source: Source::Model, ..node.origin.clone() };
                node = ReviewNode::from_draft(node.id.clone(), origin, draft);
                field
            }
        };
        prop_assert_eq!(named(node.validate()), vec![field]);
    }

    /// An anchor's path is a `RepoPath`: one naming no file inside the repository cannot be
    /// built, so it is refused where the payload is read, naming the field.
    #[test]
    fn a_path_that_names_no_file_inside_is_refused_at_the_payload(
        draft in valid_draft(),
        path in prop_oneof![
            Just(String::new()),
            prop::sample::select(vec![".", "./", "/", "//", "./.", "..", "../x", "/."])
                .prop_map(str::to_string),
            "/[a-z]{1,8}",
            "\\\\[a-z]{1,8}",
            "[A-Z]:[a-z\\\\]{0,8}",
            "[a-z]{1,4}/\\.\\./[a-z]{1,4}",
            "\\.\\.",
            "[a-z]{1,4}\0[a-z]{0,4}",
        ],
    ) {
        let mut payload = full_payload(draft);
        payload["anchor"] = serde_json::json!({
            "path": path, "side": "RIGHT", "start_line": 1, "end_line": 1
        });
        let refused = NodeDraft::from_payload(&payload, true).unwrap_err();
        prop_assert_eq!(refused.len(), 1, "{:?}", refused);
        prop_assert_eq!(refused[0].field, "anchor.path", "{:?} for {}", refused, payload);
    }

    /// Every spelling of a file is read as its one canonical path.
    #[test]
    fn every_spelling_of_a_path_is_read_canonical(
        draft in valid_draft(),
        parts in prop::collection::vec("[a-z]{1,6}(\\.rs)?", 1..4),
        before in prop::sample::select(vec!["", "./", "././", ".//"]),
        between in prop::sample::select(vec!["/", "//", "/./", "/.//./"]),
        after in prop::sample::select(vec!["", "/", "/.", "//"]),
    ) {
        let canonical = parts.join("/");
        let spelled = format!("{before}{}{after}", parts.join(between));
        let mut payload = full_payload(draft);
        payload["anchor"] = serde_json::json!({
            "path": spelled, "side": "RIGHT", "start_line": 1, "end_line": 1
        });
        let read = NodeDraft::from_payload(&payload, true).unwrap();
        let path = read.anchor.unwrap().path;
        prop_assert_eq!(path.as_str(), canonical.as_str(), "{}", spelled);
    }

    #[test]
    fn a_payload_of_the_wrong_shape_is_refused_naming_the_field(
        draft in valid_draft(),
        (field, value) in shape_breakage(),
    ) {
        let mut payload = full_payload(draft);
        set_path(&mut payload, field, value);
        let refused = NodeDraft::from_payload(&payload, true).unwrap_err();
        prop_assert_eq!(refused.len(), 1, "{:?}", refused);
        prop_assert_eq!(refused[0].field, field, "{:?} for {}", refused, payload);
    }

    #[test]
    fn a_payload_missing_a_required_field_is_refused_naming_it(
        draft in valid_draft(),
        field in prop::sample::select(vec![
            "kind", "priority", "triage", "triage.category", "triage.severity",
            "triage.effort", "text", "text.title", "confidence", "anchor.path",
            "anchor.side", "anchor.start_line", "anchor.end_line",
        ]),
    ) {
        let mut payload = full_payload(draft);
        let (parent, name) = field.rsplit_once('.').map_or((None, field), |(p, n)| (Some(p), n));
        let object = match parent {
            Some(parent) => &mut payload[parent],
            None => &mut payload,
        };
        object.as_object_mut().unwrap().remove(name);
        let refused = NodeDraft::from_payload(&payload, true).unwrap_err();
        prop_assert_eq!(refused[0].field, field, "{:?}", refused);
        prop_assert!(refused[0].reason.contains(name), "{:?}", refused);
    }
}
