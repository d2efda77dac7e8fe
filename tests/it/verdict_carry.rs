//! A blocking finding outlives a model's silence (docs/verdict.md, "Carried findings"): round 1's
//! P0 counts in every later round until a person closes it or a push takes its anchored lines
//! away. Through the real binary, one review space, three rounds, a scripted model server each
//! round; exit 6 is Block (README, "Exit codes").

use serde_json::{Value, json};

use crate::models::{Run, finding, finish, marker, pass_defaults, repository, review_in};
use crate::support::git_repo::GitRepo;
use crate::support::openai_server::{OpenAiServer, Reply};

const ROLES: [&str; 5] = ["engineer", "qa", "architect", "security", "performance"];

/// A server on which the engineer reports `findings` and every other reviewer nothing.
fn server_with(findings: Vec<Value>) -> OpenAiServer {
    let server = OpenAiServer::start();
    let mut calls: Vec<(&str, Value)> = findings
        .into_iter()
        .map(|f| ("add_review_node", f))
        .collect();
    calls.push(("finish", json!({"summary": "done"})));
    server.route(&marker("engineer", "review"), [Reply::tool_calls(&calls)]);
    for role in &ROLES[1..] {
        server.route(&marker(role, "review"), [finish("nothing")]);
    }
    pass_defaults(&server);
    server
}

fn round(dir: &std::path::Path, repo: &GitRepo, findings: Vec<Value>) -> Run {
    let server = server_with(findings);
    review_in(dir, repo, Some(&server), "", &[])
}

fn findings(run: &Run) -> Vec<Value> {
    run.report["findings"]
        .as_array()
        .unwrap_or_else(|| panic!("no findings: {}\n{}", run.report, run.stderr))
        .clone()
}

fn push(repo: &GitRepo, path: &str, text: &str, message: &str) -> String {
    repo.git(&["checkout", "--quiet", "feature"]);
    repo.write(path, text);
    let sha = repo.commit_all(message);
    repo.git(&["checkout", "--quiet", "main"]);
    sha
}

#[test]
fn a_p0_the_model_stops_reporting_blocks_until_a_push_takes_its_lines_away() {
    let repo = repository(false);
    let data = tempfile::tempdir().unwrap();
    let p0 = finding(
        "last() indexes one past the end",
        "src/cache.rs",
        11,
        "P0",
        "correctness",
    );
    let first = round(data.path(), &repo, vec![p0]);
    assert_eq!(first.code, 6, "{}\n{}", first.report, first.stderr);

    // An unrelated push: two lines above the function, so the anchored line moves to 13.
    let cache = std::fs::read_to_string(repo.path().join("src/cache.rs")).unwrap();
    repo.git(&["checkout", "--quiet", "feature"]);
    let feature_cache = std::fs::read_to_string(repo.path().join("src/cache.rs")).unwrap();
    repo.git(&["checkout", "--quiet", "main"]);
    assert_ne!(cache, feature_cache);
    push(
        &repo,
        "src/cache.rs",
        &format!("//! A small cache.\n//! Newest last.\n{feature_cache}"),
        "Document the cache",
    );
    // The model says nothing this round.
    let second = round(data.path(), &repo, vec![]);
    assert_eq!(second.report["space"]["round"], 2, "{}", second.report);
    assert_eq!(
        second.code, 6,
        "a model's silence takes no P0 out\n{}\n{}",
        second.report, second.stderr
    );
    let carried: Vec<Value> = findings(&second)
        .into_iter()
        .filter(|f| f["title"] == "last() indexes one past the end")
        .collect();
    assert_eq!(carried.len(), 1, "{}", second.report);
    let carried = &carried[0];
    assert_eq!(carried["status"], "open", "{carried}");
    assert_eq!(carried["carried_from"]["round"], 1, "{carried}");
    assert_eq!(
        carried["anchor"]["start_line"], 13,
        "re-anchored: {carried}"
    );
    assert_eq!(
        second.report["verdict"]["counts"]["p0"], 1,
        "{}",
        second.report
    );

    // The push that removes the anchored line: round 3, the model silent again.
    let fixed = feature_cache.replace(
        "&self.items[self.items.len()].1",
        "self.items.last().map(|(_, v)| v.as_str()).unwrap_or(\"\")",
    );
    assert_ne!(fixed, feature_cache);
    let head = push(&repo, "src/cache.rs", &fixed, "Fix last()");
    let third = round(data.path(), &repo, vec![]);
    assert_eq!(third.report["space"]["round"], 3, "{}", third.report);
    assert_ne!(third.code, 6, "{}\n{}", third.report, third.stderr);
    assert_eq!(
        third.report["verdict"]["counts"]["p0"], 0,
        "{}",
        third.report
    );
    let resolved = findings(&third)
        .into_iter()
        .find(|f| f["title"] == "last() indexes one past the end")
        .unwrap_or_else(|| panic!("the resolution is reported: {}", third.report));
    assert_eq!(resolved["status"], "resolved", "{resolved}");
    assert_eq!(
        resolved["closed"]["reason"],
        format!("anchor gone at {}", &head[..12]),
        "{resolved}"
    );
}

#[test]
fn a_re_report_folds_with_the_carried_finding_and_a_lowered_one_does_not() {
    let repo = repository(false);
    let data = tempfile::tempdir().unwrap();
    let p0 = || {
        finding(
            "last() indexes one past the end",
            "src/cache.rs",
            11,
            "P0",
            "correctness",
        )
    };
    assert_eq!(round(data.path(), &repo, vec![p0()]).code, 6);
    // Round 2: the same finding again: one finding, not two, and no carried copy.
    let second = round(data.path(), &repo, vec![p0()]);
    assert_eq!(second.code, 6, "{}", second.report);
    let same: Vec<Value> = findings(&second)
        .into_iter()
        .filter(|f| f["title"] == "last() indexes one past the end")
        .collect();
    assert_eq!(same.len(), 1, "{}", second.report);
    assert_eq!(same[0]["carried_from"], Value::Null, "{}", second.report);
    // Round 3: the model lowers it to a P3 and calls it out of scope: the P0 is carried beside.
    let mut lowered = p0();
    lowered["priority"] = json!("P3");
    lowered["scope"] = json!("out_of_scope");
    let third = round(data.path(), &repo, vec![lowered]);
    assert_eq!(third.code, 6, "{}\n{}", third.report, third.stderr);
    assert_eq!(
        third.report["verdict"]["counts"]["p0"], 1,
        "{}",
        third.report
    );
}

#[test]
fn a_sarif_finding_still_counts_in_a_round_whose_log_was_not_given_again() {
    let repo = repository(false);
    let data = tempfile::tempdir().unwrap();
    let sarif = data.path().join("analyzer.sarif");
    std::fs::write(
        &sarif,
        r#"{"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "analyzer"}},
            "results": [{"ruleId": "index-out-of-bounds", "level": "error",
                         "message": {"text": "last() indexes one past the end"},
                         "locations": [{"physicalLocation": {"artifactLocation": {"uri": "src/cache.rs"},
                                                              "region": {"startLine": 11}}}]}]}]}"#,
    )
    .unwrap();
    let first = review_in(
        data.path(),
        &repo,
        Some(&server_with(vec![])),
        "",
        &["--sarif", sarif.to_str().unwrap()],
    );
    assert_ne!(first.code, 0, "{}\n{}", first.report, first.stderr);
    assert!(
        findings(&first)
            .iter()
            .any(|f| f["reviewer"] == "sarif:analyzer" && f["in_scope"] == true),
        "{}",
        first.report
    );

    // An unrelated push, and the next round is run without the log.
    repo.git(&["checkout", "--quiet", "feature"]);
    let feature_cache = std::fs::read_to_string(repo.path().join("src/cache.rs")).unwrap();
    repo.git(&["checkout", "--quiet", "main"]);
    push(
        &repo,
        "src/cache.rs",
        &format!("//! A small cache.\n{feature_cache}"),
        "Document the cache",
    );
    let second = round(data.path(), &repo, vec![]);
    assert_eq!(second.report["space"]["round"], 2, "{}", second.report);
    assert_eq!(
        second.code, first.code,
        "{}\n{}",
        second.report, second.stderr
    );
    let carried = findings(&second)
        .into_iter()
        .find(|f| f["reviewer"] == "sarif:analyzer")
        .unwrap_or_else(|| panic!("not carried: {}", second.report));
    assert_eq!(carried["carried_from"]["round"], 1, "{carried}");
    assert_eq!(carried["anchor"]["start_line"], 12, "{carried}");
}
