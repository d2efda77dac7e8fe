//! The headless review report of the zero-token reviewers, as CI reads it: the demo PR's
//! planted problems, the JSON fields, SARIF out and in, and the repository's rule overrides
//! read from the base branch.

use std::path::Path;
use std::process::Output;

use serde_json::Value;

use crate::cli::review_tui;
use crate::support::git_repo::{ASKS_UNWRAP_USED, GitRepo};

const AWS_KEY: &str = "AKIAZ4DEMQ7Q2LXWRT5W";

fn run(data: &Path, args: &[&str]) -> Output {
    review_tui()
        .args(args)
        .env("REVIEW_TUI_DATA_DIR", data)
        .env_remove("OPENAI_BASE_URL")
        .env_remove("OPENAI_API_KEY")
        .env_remove("ANTHROPIC_API_KEY")
        .env_remove("OLLAMA_HOST")
        .output()
        .unwrap()
}

fn demo_json(data: &Path, extra: &[&str]) -> (i32, Value, String) {
    let mut args = vec![
        "--demo",
        "--headless",
        "--deterministic-only",
        "--format",
        "json",
    ];
    args.extend_from_slice(extra);
    let out = run(data, &args);
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let json = serde_json::from_str(&stdout)
        .unwrap_or_else(|e| panic!("{e}: {stdout}\n{}", String::from_utf8_lossy(&out.stderr)));
    (out.status.code().unwrap(), json, stdout)
}

#[test]
fn the_demo_blocks_on_its_secret_and_says_it_was_deterministic_only() {
    let data = tempfile::tempdir().unwrap();
    let (code, report, raw) = demo_json(data.path(), &[]);
    assert_eq!(code, 6, "Block");
    assert_eq!(report["verdict"]["decision"], "block");
    assert_eq!(report["verdict"]["deterministic_only"], true);
    assert!(
        report["facts"]
            .as_str()
            .unwrap()
            .contains("deterministic-only")
    );
    assert!(
        !raw.contains(AWS_KEY),
        "the raw secret leaked into the report"
    );

    let findings = report["findings"].as_array().unwrap();
    let secret = findings
        .iter()
        .find(|f| f["rule"] == "secret/aws-access-token")
        .expect("the AWS key is found");
    assert_eq!(secret["priority"], "P0");
    assert_eq!(secret["source"], "scanner");
    assert_eq!(secret["anchor"]["path"], "src/config.rs");
    assert_eq!(secret["anchor"]["side"], "RIGHT");
    assert!(secret["evidence"].as_str().unwrap().contains("AKIA…"));
    assert_eq!(secret["fingerprint"].as_str().unwrap().len(), 16);
    assert!(secret["cohort"].is_string());
    let unwraps = findings
        .iter()
        .filter(|f| f["rule"] == "rust/unwrap-outside-tests")
        .count();
    assert!(unwraps >= 2, "{findings:#?}");

    let cohorts = report["cohorts"].as_array().unwrap();
    assert!(!cohorts.is_empty());
    for cohort in cohorts {
        for field in ["key", "label", "files", "blast_radius", "fallback"] {
            assert!(cohort.get(field).is_some(), "{field} missing in {cohort}");
        }
    }
    let reviewers: Vec<&str> = report["reviewers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["name"].as_str().unwrap())
        .collect();
    assert!(reviewers.contains(&"rules") && reviewers.contains(&"secret scan"));
    assert_eq!(report["coverage"]["files_reviewed"], 4);
}

#[test]
fn sarif_out_validates_and_sarif_in_becomes_findings() {
    let data = tempfile::tempdir().unwrap();
    let out = run(
        data.path(),
        &[
            "--demo",
            "--headless",
            "--deterministic-only",
            "--format",
            "sarif",
        ],
    );
    assert_eq!(out.status.code(), Some(6));
    let log: Value = serde_json::from_slice(&out.stdout).unwrap();
    let schema: Value = serde_json::from_str(
        &std::fs::read_to_string(
            Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("tests/fixtures/sarif/sarif-schema-2.1.0.json"),
        )
        .unwrap(),
    )
    .unwrap();
    let validator = jsonschema::options()
        .with_draft(jsonschema::Draft::Draft4)
        .build(&schema)
        .unwrap();
    let errors: Vec<String> = validator.iter_errors(&log).map(|e| e.to_string()).collect();
    assert!(errors.is_empty(), "{errors:#?}");
    let results = log["runs"][0]["results"].as_array().unwrap();
    assert!(
        results
            .iter()
            .all(|r| r["partialFingerprints"]["reviewTui/v1"].is_string())
    );

    // A linter's SARIF about a changed line of the demo comes in as a finding.
    let sarif = data.path().join("clippy.sarif");
    std::fs::write(
        &sarif,
        r#"{"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "clippy", "rules": [{"id": "clippy::let_underscore_must_use"}]}},
            "results": [{"ruleId": "clippy::let_underscore_must_use", "level": "warning",
                         "message": {"text": "non-binding let on a result of a `#[must_use]` function"},
                         "locations": [{"physicalLocation": {"artifactLocation": {"uri": "src/session.rs"},
                                                              "region": {"startLine": 8}}}]}]}]}"#,
    )
    .unwrap();
    let (_, report, _) = demo_json(
        &data.path().join("second"),
        &["--sarif", sarif.to_str().unwrap()],
    );
    let imported = report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["reviewer"] == "sarif:clippy")
        .expect("the SARIF result is a finding");
    assert_eq!(imported["in_scope"], true);
    assert_eq!(imported["anchor"]["start_line"], 8);
}

#[test]
fn a_sarif_file_that_is_not_sarif_is_named_as_invalid_output() {
    let data = tempfile::tempdir().unwrap();
    let bad = data.path().join("bad.sarif");
    std::fs::write(&bad, "{\"version\": \"1.0\"}").unwrap();
    let (code, report, _) = demo_json(data.path(), &["--sarif", bad.to_str().unwrap()]);
    // The secret still blocks; the broken import is named.
    assert_eq!(code, 6);
    let reviewer = report["reviewers"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["name"] == "sarif:bad")
        .unwrap();
    assert_eq!(reviewer["outcome"], "invalid_output");
    assert!(reviewer["note"].as_str().unwrap().contains("bad.sarif"));
}

#[test]
fn the_repository_config_is_read_from_the_base_branch() {
    let repo = GitRepo::init();
    repo.write(
        ".review-tui.toml",
        "[rules]\ndisable = [\"rust/unwrap-outside-tests\"]\n",
    );
    repo.write("src/lib.rs", "pub fn one() -> i32 {\n    1\n}\n");
    repo.write("Cargo.toml", ASKS_UNWRAP_USED);
    repo.commit_all("base with config");
    repo.git(&["checkout", "--quiet", "-b", "feature"]);
    // The PR tries to switch the secret scan's neighbour rules off for itself…
    repo.write(
        ".review-tui.toml",
        "[rules]\ndisable = [\"rust/unwrap-outside-tests\", \"rust/todo-macro\"]\n",
    );
    repo.write(
        "src/lib.rs",
        "pub fn one() -> i32 {\n    \"1\".parse().unwrap()\n}\n\npub fn two() -> i32 {\n    todo!()\n}\n",
    );
    repo.commit_all("feature");
    let data = tempfile::tempdir().unwrap();
    let reference = format!("{}#main..feature", repo.path().display());
    let out = run(
        data.path(),
        &[
            &reference,
            "--headless",
            "--deterministic-only",
            "--format",
            "json",
        ],
    );
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    let rules: Vec<&str> = report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|f| f["rule"].as_str())
        .collect();
    // …but only the base's configuration counts: unwrap is off (base), todo! still fires.
    assert!(!rules.contains(&"rust/unwrap-outside-tests"), "{rules:?}");
    assert!(rules.contains(&"rust/todo-macro"), "{rules:?}");
}

#[test]
fn the_model_estimate_is_shown_before_the_reviewers_run() {
    let data = tempfile::tempdir().unwrap();
    let out = run(data.path(), &["--demo", "--headless", "--format", "json"]);
    assert_eq!(out.status.code(), Some(6));
    let err = String::from_utf8_lossy(&out.stderr);
    let first = err.lines().next().unwrap_or_default();
    assert!(
        first.starts_with("review-tui: estimate: about ") && first.contains("3 reviewer(s)"),
        "{err}"
    );
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(
        report["coverage"]["estimate"].is_object(),
        "{}",
        report["coverage"]
    );
}

/// A change blocked by its gate (an exported function removed in a 1.x crate) that also holds
/// a P1 finding: every report says the gate blocked it, first. "1 problem must be fixed"
/// would promise that fixing the finding clears the Block, and it does not.
#[test]
fn a_gated_block_is_explained_by_its_gate_not_by_a_finding_found_first() {
    let repo = GitRepo::init();
    repo.write(
        "Cargo.toml",
        "[package]\nname = \"widgets\"\nversion = \"1.2.0\"\nedition = \"2021\"\n",
    );
    repo.write(
        "src/lib.rs",
        "pub fn keep() -> u32 {\n    1\n}\n\npub fn gone() -> u32 {\n    2\n}\n",
    );
    let base = repo.commit_all("widgets 1.2.0");
    repo.write(
        "src/lib.rs",
        "pub fn keep() -> u32 {\n    1\n}\n\npub fn later() -> u32 {\n    todo!()\n}\n",
    );
    let head = repo.commit_all("drop gone, stub later");
    let range = format!("{}#{base}..{head}", repo.path().display());

    let data = tempfile::tempdir().unwrap();
    let json = run(
        data.path(),
        &[
            &range,
            "--headless",
            "--deterministic-only",
            "--format",
            "json",
        ],
    );
    let report: Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!(report["verdict"]["decision"], "block", "{report}");
    let reasons: Vec<&str> = report["verdict"]["reasons"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r.as_str().unwrap())
        .collect();
    assert!(
        reasons[0].starts_with("Block: gated axis apiContract failed"),
        "{reasons:?}"
    );
    assert!(
        reasons
            .iter()
            .any(|r| r.starts_with("Hold: 1 P0/P1 finding")),
        "{reasons:?}"
    );

    let data = tempfile::tempdir().unwrap();
    let text = run(data.path(), &[&range, "--headless", "--deterministic-only"]);
    let text = String::from_utf8_lossy(&text.stdout);
    assert!(
        text.starts_with("Blocked: gated axis apiContract failed"),
        "{text}"
    );
}
