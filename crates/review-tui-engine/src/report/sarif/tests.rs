//! The SARIF export checked against the 2.1.0 schema and read back by our own importer.

use std::path::Path;

use serde_json::{Value, json};

use super::*;
use crate::diff::Side;
use crate::review::{
    Anchor, Category, Effort, Kind, NodeDraft, NodeText, Origin, Priority, ReviewNode, Scope,
    Severity, Source, Status, Triage,
};
use crate::reviewers::deterministic::sarif::{ImportOptions, import_sarif};
use crate::reviewers::deterministic::scan_input::ScanFile;
use crate::reviewers::deterministic::secrets::{SECRET_SCAN, SecretScanner, to_nodes};

const NOW: &str = "2025-01-01T00:00:00Z";

fn fixtures() -> std::path::PathBuf {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../..")).join("tests/fixtures/sarif")
}

fn nothing_changed(_: &str, _: u32) -> bool {
    false
}

fn options<'a>(is_changed: &'a dyn Fn(&str, u32) -> bool) -> ImportOptions<'a> {
    ImportOptions {
        repo_root: None,
        is_changed,
        now: NOW,
    }
}

fn schema_validator() -> jsonschema::Validator {
    let schema: Value = serde_json::from_str(
        &std::fs::read_to_string(fixtures().join("sarif-schema-2.1.0.json")).unwrap(),
    )
    .unwrap();
    jsonschema::options()
        .with_draft(jsonschema::Draft::Draft4)
        .build(&schema)
        .expect("the SARIF schema compiles")
}

fn assert_valid(validator: &jsonschema::Validator, log: &Value) {
    let errors: Vec<String> = validator
        .iter_errors(log)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect();
    assert!(errors.is_empty(), "{errors:#?}\n{log:#}");
}

fn node(id: &str, priority: Priority, anchor: Option<Anchor>) -> ReviewNode {
    let mut node = ReviewNode::from_draft(
        id,
        Origin {
            reviewer: "engineer".into(),
            source: Source::Model,
        },
        NodeDraft {
            reasoning: "read it".into(),
            kind: Kind::Bug,
            priority,
            triage: Triage {
                category: Category::Correctness,
                severity: Severity::High,
                effort: Effort::Small,
            },
            rule: Some("correctness/off-by-one".into()),
            anchor,
            text: NodeText {
                title: "Loop skips the last item".into(),
                evidence: "for i in 0..len - 1".into(),
                ..NodeText::default()
            },
            fix: None,
            confidence: 0.8,
            scope: Scope::InScope,
        },
    );
    node.fingerprint = format!("{id}0000000000");
    node
}

#[test]
fn exported_sarif_validates_against_the_schema() {
    let validator = schema_validator();
    // The samples themselves validate: the validator is not vacuous.
    let sample: Value = serde_json::from_str(
        &std::fs::read_to_string(fixtures().join("samples/RuleMetadata.sarif")).unwrap(),
    )
    .unwrap();
    assert_valid(&validator, &sample);
    assert!(!validator.is_valid(&json!({"version": "2.1.0", "runs": [{"results": []}]})));

    let token = format!("ghp_{}", "aB3dE5gH7jK9mN1pQ3sT5vX7zA9cE12QM6Ej");
    let line = format!("TOKEN = \"{token}\"");
    let secret_nodes = to_nodes(
        &SecretScanner::builtin().scan(&[ScanFile::added("config/my app.py", 3, &[&line])]),
        SECRET_SCAN,
    );
    assert_eq!(secret_nodes.len(), 1);
    let right = Anchor {
        path: crate::repo_path::RepoPath::parse("src/lib.rs").unwrap(),
        side: Side::Right,
        start_line: 4,
        end_line: 6,
    };
    let left = Anchor {
        side: Side::Left,
        ..right.clone()
    };
    let mut dismissed = node("d", Priority::P3, Some(right.clone()));
    dismissed.status = Status::Dismissed;
    let mut duplicate = node("dup", Priority::P2, Some(right.clone()));
    duplicate.duplicate_of = Some("a".into());
    let mut nodes = vec![
        node("a", Priority::P1, Some(right)),
        node("b", Priority::P2, None),
        node("c", Priority::P0, Some(left)),
        dismissed,
        duplicate,
    ];
    nodes.extend(secret_nodes);

    let log = to_sarif(&nodes, "0.1.0");
    assert_valid(&validator, &log);
    let run = &log["runs"][0];
    let results = run["results"].as_array().unwrap();
    assert_eq!(
        results.len(),
        5,
        "the duplicate is exported once, by its primary"
    );
    assert_eq!(run["tool"]["driver"]["rules"].as_array().unwrap().len(), 2);
    assert_eq!(results[0]["level"], "error");
    assert_eq!(
        results[0]["locations"][0]["physicalLocation"]["region"],
        json!({"startLine": 4, "endLine": 6})
    );
    assert_eq!(
        results[0]["partialFingerprints"][PARTIAL_FINGERPRINT_KEY],
        "a0000000000"
    );
    assert_eq!(results[0]["properties"]["priority"], "P1");
    assert!(
        results[1].get("locations").is_none(),
        "no anchor, no location"
    );
    assert!(
        results[2]["locations"][0]["physicalLocation"]
            .get("region")
            .is_none(),
        "LEFT: file only"
    );
    assert_eq!(results[3]["level"], "note");
    assert_eq!(results[3]["suppressions"][0]["status"], "accepted");
    assert_eq!(results[3]["properties"]["status"], "dismissed");
    let secret = &results[4];
    assert_eq!(secret["ruleId"], "secret/github-token");
    assert_eq!(
        secret["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
        "config/my%20app.py"
    );
    let text = log.to_string();
    assert!(
        !text.contains(&token),
        "the secret never reaches the export"
    );
    assert!(
        secret["message"]["text"]
            .as_str()
            .unwrap()
            .contains("ghp_…")
    );

    assert_valid(&validator, &to_sarif(&[], "0.1.0"));
}

#[test]
fn an_export_imports_back_with_its_priorities_and_places() {
    let anchor = Anchor {
        path: crate::repo_path::RepoPath::parse("src/lib.rs").unwrap(),
        side: Side::Right,
        start_line: 4,
        end_line: 6,
    };
    let mut security = node("s", Priority::P0, Some(anchor.clone()));
    security.triage.category = Category::Security;
    let nodes = vec![security, node("a", Priority::P2, Some(anchor.clone()))];
    let log = to_sarif(&nodes, "0.1.0").to_string();
    let everything = |_: &str, _: u32| true;
    let import = import_sarif("export.sarif", log.as_bytes(), &options(&everything)).unwrap();
    let back: Vec<(Priority, Option<Anchor>, Category)> = import
        .nodes
        .iter()
        .map(|n| (n.priority, n.anchor.clone(), n.category().clone()))
        .collect();
    assert_eq!(
        back,
        vec![
            (Priority::P0, Some(anchor.clone()), Category::Security),
            (Priority::P2, Some(anchor), Category::Correctness),
        ]
    );
}

mod properties {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..512)) {
            let _ = import_sarif("fuzz.sarif", &bytes, &options(&nothing_changed));
        }

        #[test]
        fn sarif_shaped_input_never_panics(
            uri in "[a-zA-Z0-9:/%._ -]{0,20}",
            base in proptest::option::of("[A-Z]{1,3}"),
            start in -3i64..5,
            end in -3i64..5,
            index in -2i64..3,
            text in proptest::option::of("[{}0-9a-z ]{0,12}"),
        ) {
            let log = json!({
                "version": "2.1.0",
                "runs": [{
                    "tool": {"driver": {"name": "", "rules": [{"id": "R", "messageStrings": {"m": {"text": "{0} {1} {{"}}}]}},
                    "originalUriBaseIds": {"A": {"uri": "x/", "uriBaseId": "A"}, "B": {"uri": "file:///r/"}},
                    "results": [{
                        "ruleIndex": index,
                        "message": {"text": text, "id": "m", "arguments": ["z"]},
                        "locations": [{"physicalLocation": {
                            "artifactLocation": {"uri": uri, "uriBaseId": base},
                            "region": {"startLine": start, "endLine": end}
                        }}],
                        "suppressions": [{"status": "underReview"}]
                    }]
                }]
            });
            let everything = |_: &str, _: u32| true;
            let opts = ImportOptions { repo_root: Some("/r"), is_changed: &everything, now: NOW };
            if let Ok(import) = import_sarif("shaped.sarif", log.to_string().as_bytes(), &opts) {
                for node in &import.nodes {
                    prop_assert!(node.validate().is_ok(), "{:?}", node.validate());
                }
            }
        }
    }
}
