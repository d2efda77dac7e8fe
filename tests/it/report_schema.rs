//! The `--format json` report against its published schema (`assets/review-report.schema.json`):
//! every case a pipeline meets — the demo, a deterministic-only review, a model review with
//! findings, an inconclusive run, a PR that is not eligible, a range with nothing to review, a
//! GitHub PR and a damaged space — is produced by the binary and validated. Every object in the
//! schema forbids fields it does not describe, so a field added without documentation fails here.

use std::path::Path;

use serde_json::{Value, json};

use crate::cli::review_tui;
use crate::models::{marker, one_engineer_bug, pass_defaults, repository, review, review_in};
use crate::support::git_repo::pr_repository;
use crate::support::github_server::{GithubServer, PullSpec};
use crate::support::json_schema::Schema;
use crate::support::openai_server::{OpenAiServer, Reply};

fn schema_value() -> Value {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/review-report.schema.json");
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// Valid by our validator and, as a cross-check of the validator, by the `jsonschema` crate.
#[track_caller]
fn assert_valid(case: &str, report: &Value) {
    let schema = schema_value();
    let errors = Schema::new(schema.clone()).errors(report);
    assert!(errors.is_empty(), "{case}: {errors:#?}\n{report:#}");
    assert!(
        jsonschema::draft202012::is_valid(&schema, report),
        "{case}: the jsonschema crate disagrees"
    );
    assert_eq!(report["schema_version"], 1, "{case}");
}

/// The binary's JSON report for `args`, with its exit code.
fn run(data: &Path, args: &[&str]) -> (i32, Value) {
    let out = review_tui()
        .args(args)
        .args(["--headless", "--format", "json"])
        .env("REVIEW_TUI_DATA_DIR", data)
        .env("REVIEW_TUI_CONFIG", data.join("none.toml"))
        .env_remove("OPENAI_BASE_URL")
        .env_remove("OPENAI_API_KEY")
        .env_remove("ANTHROPIC_API_KEY")
        .env_remove("OLLAMA_HOST")
        .env_remove("GITHUB_API_URL")
        .env_remove("GH_TOKEN")
        .env_remove("GITHUB_TOKEN")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let report = serde_json::from_str(&stdout).unwrap_or_else(|e| {
        panic!(
            "{args:?}: not JSON ({e}): {stdout}\n{}",
            String::from_utf8_lossy(&out.stderr)
        )
    });
    (out.status.code().unwrap(), report)
}

#[test]
fn the_schema_is_a_valid_2020_12_schema_and_closed_everywhere() {
    let schema = schema_value();
    jsonschema::draft202012::meta::validate(&schema).expect("a valid draft 2020-12 schema");
    let parsed = Schema::new(schema);
    let objects = parsed.object_schemas();
    assert!(objects.len() > 20, "{}", objects.len());
    for (at, object) in objects {
        assert_eq!(
            object.get("additionalProperties"),
            Some(&json!(false)),
            "{at}"
        );
        let properties = object["properties"].as_object().unwrap();
        for (name, property) in properties {
            assert!(
                property.get("description").is_some(),
                "{at}/properties/{name} is not described"
            );
        }
        for required in object["required"].as_array().unwrap() {
            assert!(
                properties.contains_key(required.as_str().unwrap()),
                "{at}: {required}"
            );
        }
    }
}

/// `pr.base.sha`, `findings[].anchor.side`: every field the schema describes, by its path.
fn field_paths(schema: &Value, node: &Value, prefix: &str, out: &mut Vec<String>) {
    let resolve = |node: &Value| -> Option<Value> {
        let reference = node["$ref"].as_str().or_else(|| {
            node["anyOf"]
                .as_array()?
                .iter()
                .find_map(|b| b["$ref"].as_str())
        })?;
        let name = reference.trim_start_matches("#/$defs/");
        Some(schema["$defs"][name].clone())
    };
    let Some(properties) = node["properties"].as_object() else {
        return;
    };
    for (name, property) in properties {
        let path = format!("{prefix}{name}");
        out.push(path.clone());
        if let Some(object) = resolve(property) {
            field_paths(schema, &object, &format!("{path}."), out);
        } else if let Some(object) = resolve(&property["items"]) {
            field_paths(schema, &object, &format!("{path}[]."), out);
        }
    }
}

#[test]
fn the_documentation_describes_every_field_of_the_schema() {
    let schema = schema_value();
    let mut paths = Vec::new();
    field_paths(&schema, &schema, "", &mut paths);
    assert!(paths.len() > 150, "{}", paths.len());
    let readme =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/json-report.md"))
            .unwrap();
    let missing: Vec<&String> = paths
        .iter()
        .filter(|p| !readme.contains(&format!("| `{p}` |")))
        .collect();
    assert!(
        missing.is_empty(),
        "docs/json-report.md's field table lacks {missing:?}"
    );
}

#[test]
fn the_schema_catches_an_undocumented_field_and_a_wrong_type() {
    let data = tempfile::tempdir().unwrap();
    let (_, mut report) = run(data.path(), &["--demo", "--deterministic-only"]);
    let schema = Schema::new(schema_value());
    report["findings"][0]["anchor"]["column"] = json!(3);
    report["verdict"]["decision"] = json!("approve");
    let errors = schema.errors(&report).join("\n");
    assert!(
        errors.contains("/findings/0/anchor: undocumented field \"column\""),
        "{errors}"
    );
    assert!(errors.contains("/verdict/decision"), "{errors}");
}

#[test]
fn the_demo_and_a_deterministic_review_match_the_schema() {
    let data = tempfile::tempdir().unwrap();
    let (code, demo) = run(data.path(), &["--demo"]);
    assert_eq!(code, 6, "the demo blocks");
    assert_valid("demo", &demo);
    // The demo's recorded models confirm, dispute and refute (a P1: into a dispute): those
    // shapes are checked too.
    assert!(
        demo["disagreements"].to_string().contains("\"disputed\""),
        "{demo:#}"
    );
    assert!(
        !demo["disagreements"].as_array().unwrap().is_empty(),
        "{demo:#}"
    );

    let repo = repository(true);
    let range = format!("{}#main..feature", repo.path().display());
    let (code, report) = run(data.path(), &[&range, "--deterministic-only"]);
    assert_eq!(code, 6, "the planted key blocks: {report:#}");
    assert_valid("deterministic-only", &report);
    assert_eq!(report["verdict"]["deterministic_only"], true);
    assert!(report["findings"].as_array().unwrap().len() >= 2);

    // A damaged state.json: the report names where it was kept.
    let space = Path::new(report["space"]["path"].as_str().unwrap());
    std::fs::write(space.join("state.json"), "{ not json").unwrap();
    let (_, damaged) = run(data.path(), &[&range, "--deterministic-only", "--force"]);
    assert!(damaged["space"]["corruption"].is_object(), "{damaged:#}");
    assert_valid("corrupt state", &damaged);
}

#[test]
fn a_model_review_with_findings_matches_the_schema() {
    let repo = repository(false);
    let server = OpenAiServer::start();
    one_engineer_bug(&server, "P0");
    server.route(
        &marker("qa", "peer round"),
        [Reply::tool_calls(&[
            (
                "confirm_node",
                json!({"id": "engineer-1", "note": "line 11 indexes len()"}),
            ),
            ("finish", json!({"summary": "confirmed"})),
        ])],
    );
    server.route(
        &marker("scorer", "score engineer-1"),
        [Reply::text(
            r#"{"reasoning": "real, and every caller reaches it", "score": 95}"#,
        )],
    );
    pass_defaults(&server);
    let args = ["--level", "thorough", "--scoring-model", "cheap-model"];
    let run = review(&repo, Some(&server), "", &args);
    assert_eq!(run.code, 6, "a P0 blocks: {}\n{}", run.report, run.stderr);
    assert_valid("model review", &run.report);
    let bug = run.report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["id"] == "engineer-1")
        .unwrap()
        .clone();
    assert_eq!(bug["confirmations"][0]["by"]["name"], "qa", "{bug:#}");
    assert!(bug["root_cause"].is_string(), "{bug:#}");
    assert_eq!(bug["scoring"]["score"], 95, "{bug:#}");
    assert!(run.report["coverage"]["estimate"].is_object());
}

#[test]
fn inconclusive_not_eligible_and_empty_runs_match_the_schema() {
    // No model provider and no --deterministic-only: nobody read the change.
    let repo = repository(false);
    let dir = tempfile::tempdir().unwrap();
    let inconclusive = review_in(dir.path(), &repo, None, "", &[]);
    assert_eq!(inconclusive.code, 7, "{}", inconclusive.stderr);
    assert_eq!(inconclusive.report["verdict"]["decision"], "inconclusive");
    assert_valid("inconclusive", &inconclusive.report);

    let repo = pr_repository();
    repo.whitespace_only_branch();
    let data = tempfile::tempdir().unwrap();
    let range = format!("{}#main..fmt", repo.path().display());
    let (code, report) = run(data.path(), &[&range, "--deterministic-only"]);
    assert_eq!(code, 1, "not eligible: {report:#}");
    assert!(report.get("verdict").is_none(), "{report:#}");
    assert_valid("not eligible", &report);

    // A commit that changes nothing: a range with no changes still gets its report.
    repo.git(&["checkout", "--quiet", "-b", "empty", "main"]);
    repo.git(&["commit", "--quiet", "--allow-empty", "-m", "nothing"]);
    let range = format!("{}#main..empty", repo.path().display());
    let (code, report) = run(data.path(), &[&range, "--deterministic-only"]);
    assert_eq!(code, 3, "nothing to review: {report:#}");
    assert_valid("nothing to review", &report);
}

#[test]
fn a_github_pr_report_matches_the_schema() {
    let repo = pr_repository();
    repo.git(&["update-ref", "refs/pull/7/head", "feature"]);
    let pull = PullSpec::from_repo(&repo, "acme", "widgets", 7);
    let server = GithubServer::start(repo, pull);
    let data = tempfile::tempdir().unwrap();
    let (_, report) = run(
        data.path(),
        &[
            "acme/widgets#7",
            "--api-url",
            server.url(),
            "--deterministic-only",
        ],
    );
    assert_eq!(report["pr"]["forge"], "github");
    assert_valid("github", &report);
}
