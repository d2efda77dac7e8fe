use std::path::{Path, PathBuf};

use serde_json::json;

use super::*;
use crate::diff::Side;
use crate::review::{Anchor, Category, Kind, Priority, Scope, Source, Status};

const NOW: &str = "2025-01-01T00:00:00Z";

fn fixtures() -> PathBuf {
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

fn sample(name: &str) -> SarifImport {
    let path = fixtures().join("samples").join(name);
    import_sarif_file(&path, &options(&nothing_changed))
        .unwrap_or_else(|e| panic!("{name} should import: {e}"))
}

#[test]
fn every_sample_imports_with_its_number_of_results() {
    // (file, results read, nodes, anchored nodes)
    let expected = [
        ("CodeFlows.sarif", 1, 1, 1),
        ("Empty-runs.sarif", 0, 0, 0),
        ("One-run-with-results.sarif", 1, 1, 0),
        ("OriginalUriBaseIds.sarif", 3, 3, 0),
        ("RegionVariants.sarif", 18, 18, 10),
        ("RuleMetadata.sarif", 1, 1, 1),
        ("Suppressions.sarif", 9, 9, 0),
        ("bad-eval-related-locations.sarif", 1, 1, 1),
        ("bad-eval.sarif", 1, 1, 1),
        ("simple-example.sarif", 1, 1, 0),
    ];
    let mut names: Vec<String> = std::fs::read_dir(fixtures().join("samples"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".sarif"))
        .collect();
    names.sort();
    let mut listed: Vec<&str> = expected.iter().map(|e| e.0).collect();
    listed.sort();
    assert_eq!(names, listed, "every sample has an expectation");

    for (name, results, nodes, anchored) in expected {
        let import = sample(name);
        assert_eq!(import.results, results, "{name} results");
        assert_eq!(import.nodes.len(), nodes, "{name} nodes");
        assert_eq!(
            import.nodes.iter().filter(|n| n.anchor.is_some()).count(),
            anchored,
            "{name} anchored"
        );
        for node in &import.nodes {
            assert!(node.validate().is_ok(), "{name}: {:?}", node.validate());
            assert_eq!(node.origin.source, Source::Scanner);
            assert!(node.origin.reviewer.starts_with("sarif:"));
            assert!(!node.fingerprint.is_empty());
        }
        let mut ids: Vec<&str> = import.nodes.iter().map(|n| n.id.as_str()).collect();
        ids.sort();
        ids.dedup();
        assert_eq!(ids.len(), import.nodes.len(), "{name}: ids are unique");
    }
}

#[test]
fn bad_eval_is_a_valid_log_about_eval() {
    let import = sample("bad-eval.sarif");
    let node = &import.nodes[0];
    assert_eq!(node.rule.as_deref(), Some("sarif/pythonscanner/py2335"));
    assert_eq!(node.origin.reviewer, "sarif:PythonScanner");
    assert_eq!(
        node.anchor,
        Some(Anchor {
            path: crate::repo_path::RepoPath::parse("3-Beyond-basics/bad-eval.py").unwrap(),
            side: Side::Right,
            start_line: 4,
            end_line: 4
        })
    );
    assert_eq!(
        node.priority,
        Priority::P2,
        "no level: SARIF's default, warning"
    );
    assert_eq!(
        node.scope,
        Scope::OutOfScope,
        "line 4 is not a changed line here"
    );
    assert!(node.text.title.contains("insecure function 'eval'"));

    let changed = |path: &str, line: u32| path == "3-Beyond-basics/bad-eval.py" && line == 4;
    let path = fixtures().join("samples/bad-eval-related-locations.sarif");
    let import = import_sarif_file(&path, &options(&changed)).unwrap();
    assert_eq!(import.nodes[0].scope, Scope::InScope);
}

#[test]
fn messages_come_from_rule_metadata_when_the_result_has_only_an_id() {
    let node = &sample("RuleMetadata.sarif").nodes[0];
    assert_eq!(node.text.title, "The URI '//C:/code/dev' is invalid.");
    assert_eq!(node.priority, Priority::P1, "level error");
    assert_eq!(node.rule.as_deref(), Some("sarif/sarifsamples/tut1001"));
    assert_eq!(node.anchor.as_ref().unwrap().to_string(), "test.json:15");
}

#[test]
fn uri_base_ids_resolve_through_original_uri_base_ids() {
    let import = sample("OriginalUriBaseIds.sarif");
    let bodies: Vec<&str> = import.nodes.iter().map(|n| n.text.body.as_str()).collect();
    assert!(
        bodies[0].contains("at README.md (no line region)"),
        "{}",
        bodies[0]
    );
    assert!(
        bodies[1].contains("at src/io/kb.c (no line region)"),
        "{}",
        bodies[1]
    );
    assert!(
        bodies[2].contains("no location"),
        "the repository itself is not a file"
    );
    assert_eq!(import.notes.len(), 1);
    assert!(
        import.notes[0].contains("does not name a file"),
        "{:?}",
        import.notes
    );
}

#[test]
fn absolute_file_uris_are_placed_under_the_repository_root_only() {
    let without_root = sample("simple-example.sarif");
    assert!(without_root.nodes[0].anchor.is_none());
    assert!(
        without_root.notes[0].contains("no repository root"),
        "{:?}",
        without_root.notes
    );

    let path = fixtures().join("samples/simple-example.sarif");
    let everything = |_: &str, _: u32| true;
    let with_root = import_sarif_file(
        &path,
        &ImportOptions {
            repo_root: Some("C:/dev/sarif/sarif-tutorials/samples"),
            is_changed: &everything,
            now: NOW,
        },
    )
    .unwrap();
    let node = &with_root.nodes[0];
    assert_eq!(
        node.anchor.as_ref().unwrap().to_string(),
        "Introduction/simple-example.js:1"
    );
    assert_eq!(node.rule.as_deref(), Some("sarif/eslint/no-unused-vars"));
    assert_eq!(node.priority, Priority::P1);
    assert_eq!(node.scope, Scope::InScope);
    // ESLint's own category ("Variables") names no known cause: correctness, kept in the body.
    assert_eq!(*node.category(), Category::Correctness);
    assert!(node.text.body.contains("Variables"));

    let elsewhere = import_sarif_file(
        &path,
        &ImportOptions {
            repo_root: Some("/home/me/repo"),
            is_changed: &everything,
            now: NOW,
        },
    )
    .unwrap();
    assert!(elsewhere.nodes[0].anchor.is_none());
    assert!(elsewhere.notes[0].contains("outside the repository"));
}

#[test]
fn suppressed_results_are_imported_dismissed_with_their_reason() {
    let import = sample("Suppressions.sarif");
    let statuses: Vec<Status> = import.nodes.iter().map(|n| n.status).collect();
    use Status::{Dismissed as D, Open as O};
    assert_eq!(statuses, vec![O, D, D, O, D, O, D, D, O]);
    let dismissed = &import.nodes[1];
    let transition = dismissed.history.last().unwrap();
    assert_eq!(transition.at, NOW);
    assert_eq!(
        transition.reason.as_deref(),
        Some("suppressed (inSource) in SarifSamples: no justification given")
    );
    assert!(import.nodes[5].text.body.contains("under review"));
}

#[test]
fn levels_security_severity_tags_and_kinds_map_deliberately() {
    let log = json!({
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {"name": "CodeQL", "rules": [
                {"id": "js/sql-injection", "defaultConfiguration": {"level": "error"},
                 "properties": {"security-severity": "9.8", "tags": ["security", "external/cwe/cwe-089"],
                                "precision": "high"}},
                {"id": "js/slow-regex", "properties": {"tags": ["performance"], "security-severity": 7.5}},
                {"id": "js/unused", "defaultConfiguration": {"level": "note"},
                 "properties": {"tags": ["maintainability"]}}
            ]}},
            "results": [
                {"ruleId": "js/sql-injection", "ruleIndex": 0, "message": {"text": "SQL built from user input"},
                 "locations": [{"physicalLocation": {"artifactLocation": {"uri": "src/db.js"},
                                "region": {"startLine": 10, "endLine": 12}}}]},
                {"ruleId": "js/slow-regex", "level": "warning", "message": {"text": "Slow regex"}},
                {"ruleId": "js/unused", "message": {"text": "Unused"}},
                {"ruleId": "js/unused", "kind": "pass", "message": {"text": "fine"}},
                {"rule": {"index": 2}, "level": "weird", "message": {"text": "odd level"}}
            ]
        }]
    });
    let changed = |path: &str, line: u32| path == "src/db.js" && line == 11;
    let import = import_sarif(
        "inline.sarif",
        log.to_string().as_bytes(),
        &options(&changed),
    )
    .unwrap();
    assert_eq!(import.results, 5);
    assert_eq!(import.skipped.len(), 1);
    assert!(import.skipped[0].reason.contains("pass"));
    assert_eq!(
        import.notes,
        vec!["CodeQL: unknown level `weird` read as warning".to_string()]
    );

    let [sql, slow, unused, odd] = &import.nodes[..] else {
        panic!("four nodes: {:?}", import.nodes);
    };
    assert_eq!(sql.priority, Priority::P0, "security-severity 9.8");
    assert_eq!(*sql.category(), Category::Security);
    assert_eq!(sql.confidence, 0.9);
    assert_eq!(sql.rule.as_deref(), Some("sarif/codeql/js/sql-injection"));
    assert_eq!(sql.scope, Scope::InScope, "line 11 of 10-12 changed");
    assert_eq!(sql.kind, Kind::Bug);
    assert_eq!(slow.priority, Priority::P1, "7.5 raises a warning to P1");
    assert_eq!(
        *slow.category(),
        Category::Security,
        "a security score is a security claim"
    );
    assert_eq!(unused.priority, Priority::P3);
    assert_eq!(unused.kind, Kind::Suggestion);
    assert_eq!(*unused.category(), Category::Maintainability);
    assert_eq!(odd.priority, Priority::P2);
    assert_eq!(odd.rule.as_deref(), Some("sarif/codeql/js/unused"));
}

#[test]
fn unusable_input_is_refused_naming_the_file_and_the_problem() {
    let opts = options(&nothing_changed);
    let refused = |bytes: &[u8]| {
        import_sarif("lint.sarif", bytes, &opts)
            .unwrap_err()
            .to_string()
    };
    assert!(refused(b"not json").starts_with("lint.sarif: not a SARIF log:"));
    assert_eq!(
        refused(br#"{"version": "2.0.0", "runs": []}"#),
        "lint.sarif: SARIF version 2.0.0 is not supported (only 2.1.0 is)"
    );
    assert_eq!(
        refused(br#"{"version": "2.1.0"}"#),
        "lint.sarif: not a SARIF log: no `runs`"
    );
    assert!(
        refused(br#"{"version": "2.1.0", "runs": [{"results": [{"locations": 3}]}]}"#)
            .contains("invalid type")
    );
    let missing = import_sarif_file(Path::new("/nonexistent/x.sarif"), &opts).unwrap_err();
    assert!(
        missing
            .to_string()
            .starts_with("/nonexistent/x.sarif: cannot be read")
    );
}
