//! The Anthropic provider end to end: the real binary with `--provider anthropic`, a real git
//! repository, and the scripted Messages API server on loopback (its requests checked against
//! the API's shapes). The same verdict-integrity rules hold as on the OpenAI-compatible path:
//! a reviewer that did not finish through the protocol never lets a change Ship.

use std::path::Path;

use serde_json::{Value, json};

use crate::cli::review_tui;
use crate::support::anthropic_server::{AnthropicReply, AnthropicServer};
use crate::support::faults::Fault;
use crate::support::git_repo::GitRepo;

const KEY: &str = "sk-ant-test-9f8e7d6c5b4a39281706f5e4d3c2b1a0";

/// main has `add`; `feature` makes it panic on overflow: a change the deterministic reviewers
/// find nothing in, so only the models decide.
fn repository() -> GitRepo {
    let repo = GitRepo::init();
    repo.write(
        "src/lib.rs",
        "pub fn add(a: i32, b: i32) -> i32 {\n    a + b\n}\n",
    );
    repo.commit_all("add");
    repo.git(&["checkout", "--quiet", "-b", "feature"]);
    repo.write(
        "src/lib.rs",
        "pub fn add(a: i32, b: i32) -> i32 {\n    a.checked_add(b).unwrap_or(i32::MAX)\n}\n",
    );
    repo.commit_all("Saturate add");
    repo.git(&["checkout", "--quiet", "main"]);
    repo
}

struct Run {
    code: i32,
    report: Value,
    stderr: String,
}

fn review(dir: &Path, repo: &GitRepo, server: &AnthropicServer, args: &[&str]) -> Run {
    let config = dir.join("config.toml");
    std::fs::write(
        &config,
        "[models]\nmax_attempts = 3\nbackoff = \"10ms\"\nrequest_timeout = \"60s\"\n",
    )
    .unwrap();
    let mut command = review_tui();
    command
        .arg(format!("{}#main..feature", repo.path().display()))
        .args(["--headless", "--force", "--format", "json"])
        .args(["--provider", "anthropic", "--model", "claude-scripted"])
        .args(args)
        .env("REVIEW_TUI_DATA_DIR", dir.join("data"))
        .env("REVIEW_TUI_CONFIG", &config)
        .env("ANTHROPIC_BASE_URL", server.base_url())
        .env("ANTHROPIC_API_KEY", KEY);
    for var in [
        "OPENAI_API_KEY",
        "OPENAI_BASE_URL",
        "OLLAMA_HOST",
        "GITHUB_API_URL",
        "GH_TOKEN",
        "GITHUB_TOKEN",
    ] {
        command.env_remove(var);
    }
    let out = command.output().unwrap();
    Run {
        code: out.status.code().unwrap_or(-1),
        report: serde_json::from_slice(&out.stdout).unwrap_or(Value::Null),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

fn marker(role: &str, task: &str) -> String {
    format!("Role: {role}. Task: {task}.")
}

fn finish(summary: &str) -> AnthropicReply {
    AnthropicReply::tool_uses(&[("finish", json!({"summary": summary}))])
}

fn finding() -> Value {
    json!({
        "reasoning": "I read add() and its callers.",
        "kind": "bug",
        "priority": "P1",
        "triage": {"category": "correctness", "severity": "high", "effort": "small"},
        "rule": null,
        "anchor": {"path": "src/lib.rs", "side": "RIGHT", "start_line": 2, "end_line": 2},
        "text": {
            "title": "add() saturates instead of reporting overflow",
            "body": "Callers summing balances get i32::MAX silently.",
            "evidence": "a.checked_add(b).unwrap_or(i32::MAX)",
            "impact": "Wrong totals instead of an error.",
            "verification": "add(i32::MAX, 1) returns i32::MAX."
        },
        "fix": null,
        "confidence": 0.9,
        "scope": "in_scope"
    })
}

/// Answers for the passes nobody scripted: peers finish, verification is unsure, the lead
/// writes one line. Registered last, so specific routes win.
fn pass_defaults(server: &AnthropicServer) {
    server.route_always("Task: peer round.", finish("no stance"));
    server.route_always(
        "Role: verifier.",
        AnthropicReply::text(
            r#"{"reasoning": "x", "verdict": "unsure", "quote": "", "reason": "cannot tell"}"#,
        ),
    );
    server.route_always(
        "Role: lead.",
        AnthropicReply::text(r#"{"reasoning": "x", "walkthrough": "Read src/lib.rs."}"#),
    );
}

fn reviewer<'a>(report: &'a Value, name: &str) -> &'a Value {
    report["reviewers"]
        .as_array()
        .and_then(|all| all.iter().find(|r| r["name"] == name))
        .unwrap_or_else(|| panic!("no reviewer {name} in {report}"))
}

#[test]
fn anthropic_reviewers_use_tools_report_findings_and_the_verdict_reads_them() {
    let repo = repository();
    let dir = tempfile::tempdir().unwrap();
    let server = AnthropicServer::start();
    server.require_key(KEY);
    server.route(
        &marker("engineer", "review"),
        [
            AnthropicReply::tool_uses(&[("read_file", json!({"path": "src/lib.rs"}))]),
            AnthropicReply::tool_uses(&[
                ("add_review_node", finding()),
                ("finish", json!({"summary": "one bug"})),
            ]),
        ],
    );
    server.route(&marker("qa", "review"), [finish("nothing to test")]);
    server.route(
        &marker("architect", "review"),
        [finish("nothing structural")],
    );
    pass_defaults(&server);

    let run = review(dir.path(), &repo, &server, &[]);
    assert_eq!(
        run.code, 5,
        "Hold from a P1: {}\n{}",
        run.report, run.stderr
    );
    for name in ["engineer", "qa", "architect"] {
        assert_eq!(
            reviewer(&run.report, name)["outcome"],
            "ok",
            "{}",
            run.report
        );
    }
    let findings = run.report["findings"].as_array().unwrap();
    assert!(
        findings
            .iter()
            .any(|f| f["title"] == "add() saturates instead of reporting overflow"),
        "{findings:?}"
    );
    assert!(server.violations().is_empty(), "{:?}", server.violations());
    // The tool result carried the real file, read through the sandbox.
    let engineer: Vec<_> = server
        .requests()
        .into_iter()
        .filter(|r| r.raw.contains(&marker("engineer", "review")))
        .collect();
    assert!(engineer.len() >= 2, "{}", engineer.len());
    assert!(
        engineer[1]
            .raw
            .contains("checked_add(b).unwrap_or(i32::MAX)"),
        "the read_file result did not reach the model"
    );
    for request in server.requests() {
        assert_eq!(request.header("x-api-key"), Some(KEY));
        assert_eq!(request.header("anthropic-version"), Some("2023-06-01"));
    }
}

#[test]
fn a_reply_cut_at_max_tokens_is_inconclusive_never_ship() {
    let repo = repository();
    let dir = tempfile::tempdir().unwrap();
    let server = AnthropicServer::start();
    let cut = AnthropicReply::Message {
        text: Some("The change looks".into()),
        tool_uses: Vec::new(),
        stop_reason: "max_tokens".into(),
        usage: (200, 4096),
    };
    server.route_always(&marker("engineer", "review"), cut);
    server.route(&marker("qa", "review"), [finish("nothing")]);
    server.route(&marker("architect", "review"), [finish("nothing")]);
    pass_defaults(&server);

    let run = review(dir.path(), &repo, &server, &[]);
    assert_eq!(run.code, 7, "{}\n{}", run.report, run.stderr);
    assert_eq!(run.report["verdict"]["decision"], "inconclusive");
    assert_ne!(reviewer(&run.report, "engineer")["outcome"], "ok");
}

#[test]
fn a_refusal_is_inconclusive_never_ship() {
    let repo = repository();
    let dir = tempfile::tempdir().unwrap();
    let server = AnthropicServer::start();
    let refusal = AnthropicReply::Message {
        text: None,
        tool_uses: Vec::new(),
        stop_reason: "refusal".into(),
        usage: (200, 0),
    };
    server.route_always(&marker("engineer", "review"), refusal);
    server.route(&marker("qa", "review"), [finish("nothing")]);
    server.route(&marker("architect", "review"), [finish("nothing")]);
    pass_defaults(&server);

    let run = review(dir.path(), &repo, &server, &[]);
    assert_eq!(run.code, 7, "{}\n{}", run.report, run.stderr);
    assert_ne!(reviewer(&run.report, "engineer")["outcome"], "ok");
}

#[test]
fn an_overloaded_api_is_retried_and_the_review_completes() {
    let repo = repository();
    let dir = tempfile::tempdir().unwrap();
    let server = AnthropicServer::start();
    server.route(
        &marker("engineer", "review"),
        [
            AnthropicReply::status(529),
            AnthropicReply::Status {
                status: 429,
                retry_after: Some(0),
            },
            finish("nothing found"),
        ],
    );
    server.route(&marker("qa", "review"), [finish("nothing")]);
    server.route(&marker("architect", "review"), [finish("nothing")]);
    pass_defaults(&server);

    let run = review(dir.path(), &repo, &server, &[]);
    assert_eq!(run.code, 0, "{}\n{}", run.report, run.stderr);
    assert_eq!(reviewer(&run.report, "engineer")["outcome"], "ok");
    let engineer = server
        .requests()
        .into_iter()
        .filter(|r| r.raw.contains(&marker("engineer", "review")))
        .count();
    assert_eq!(engineer, 3, "two refusals, then the answer");
}

#[test]
fn an_api_overloaded_for_good_is_inconclusive_and_names_the_call() {
    let repo = repository();
    let dir = tempfile::tempdir().unwrap();
    let server = AnthropicServer::start();
    server.route_always(&marker("engineer", "review"), AnthropicReply::status(529));
    server.route(&marker("qa", "review"), [finish("nothing")]);
    server.route(&marker("architect", "review"), [finish("nothing")]);
    pass_defaults(&server);

    let run = review(dir.path(), &repo, &server, &[]);
    assert_eq!(run.code, 7, "{}\n{}", run.report, run.stderr);
    let engineer = reviewer(&run.report, "engineer");
    assert_eq!(engineer["outcome"], "failed", "{engineer}");
    let note = engineer["note"].as_str().unwrap_or_default();
    assert!(note.contains("529"), "{note}");
    assert!(note.contains("/v1/messages"), "{note}");
    // Bounded: max_attempts = 3 in the config.
    let engineer_calls = server
        .requests()
        .into_iter()
        .filter(|r| r.raw.contains(&marker("engineer", "review")))
        .count();
    assert_eq!(engineer_calls, 3);
    assert!(!run.stderr.contains(KEY), "the key was printed");
}

/// A model server that answers with a redirect to another host must not get the key (sent in
/// `x-api-key`, a header an HTTP client does not strip on a cross-host redirect as it does
/// `Authorization`) nor the prompt (the code under review) sent there: no redirect is followed.
#[test]
fn a_redirect_to_another_host_is_not_followed_and_the_key_and_the_code_stay_home() {
    let repo = repository();
    let dir = tempfile::tempdir().unwrap();
    let elsewhere = AnthropicServer::start();
    elsewhere.reply_always(finish("nothing"));
    let server = AnthropicServer::start();
    let moved = format!(
        "{}/v1/messages",
        elsewhere.base_url().replace("127.0.0.1", "localhost")
    );
    server.reply_always(AnthropicReply::Redirect { location: moved });

    let run = review(dir.path(), &repo, &server, &[]);
    assert!(
        elsewhere.requests().is_empty(),
        "the redirect was followed: {:?}",
        elsewhere.requests().len()
    );
    assert_eq!(run.code, 7, "{}\n{}", run.report, run.stderr);
    let engineer = reviewer(&run.report, "engineer");
    assert_eq!(engineer["outcome"], "failed", "{engineer}");
    assert!(
        engineer["note"]
            .as_str()
            .unwrap_or_default()
            .contains("307"),
        "{engineer}"
    );
    assert!(!run.stderr.contains(KEY), "the key was printed");
}

/// The reviewer protocol is the agent loop's, shared by every provider: on the Messages API too,
/// prose is not a finish, a finding still invalid at the end is not a finished review, and a
/// corrective turn followed by a valid `finish` is.
#[test]
fn the_reviewer_protocol_holds_on_the_messages_api() {
    let repo = repository();
    let mut bad = finding();
    bad["confidence"] = json!("high");
    let cases: Vec<(&str, Vec<AnthropicReply>, i32)> = vec![
        (
            "prose twice",
            vec![
                AnthropicReply::text("Looks fine. VERDICT: APPROVE"),
                AnthropicReply::text("{\"findings\": []}"),
            ],
            7,
        ),
        (
            "an invalid finding never resubmitted",
            vec![
                AnthropicReply::tool_uses(&[("add_review_node", bad)]),
                finish("one problem"),
                finish("one problem"),
            ],
            7,
        ),
        (
            "prose, then a valid finish",
            vec![AnthropicReply::text("All good."), finish("nothing found")],
            0,
        ),
    ];
    for (case, replies, code) in cases {
        let dir = tempfile::tempdir().unwrap();
        let server = AnthropicServer::start();
        server.route(&marker("engineer", "review"), replies);
        pass_defaults(&server);
        let run = review(dir.path(), &repo, &server, &["--level", "light"]);
        assert_eq!(run.code, code, "{case}\n{}\n{}", run.report, run.stderr);
        let outcome = &reviewer(&run.report, "engineer")["outcome"];
        if code == 7 {
            assert_eq!(outcome, "invalid_output", "{case}");
        } else {
            assert_eq!(outcome, "ok", "{case}");
        }
    }
}

/// A `tool_use` input that repeats a key is refused with the whole answer (which of the two
/// values is meant cannot be told). That is monotone: the reviewer's run fails, so the verdict
/// is Inconclusive or stricter, and what it recorded before stays counted.
#[test]
fn an_answer_repeating_a_key_fails_its_reviewer_and_keeps_what_it_recorded() {
    let repo = repository();
    let dir = tempfile::tempdir().unwrap();
    let server = AnthropicServer::start();
    let mut p0 = finding();
    p0["priority"] = json!("P0");
    p0["text"]["title"] = json!("add() hides overflow from every caller");
    server.route(
        &marker("engineer", "review"),
        [
            AnthropicReply::tool_uses(&[("add_review_node", finding())]),
            // A P0, then the same key again lowering it: refused whole, never read as a P3.
            AnthropicReply::fault(
                Fault::Rewrite {
                    from: "\"priority\":\"P0\"".into(),
                    to: "\"priority\":\"P0\",\"priority\":\"P3\"".into(),
                },
                AnthropicReply::tool_uses(&[
                    ("add_review_node", p0),
                    ("finish", json!({"summary": "done"})),
                ]),
            ),
        ],
    );
    for role in ["qa", "architect"] {
        server.route(&marker(role, "review"), [finish("nothing")]);
    }
    pass_defaults(&server);
    let run = review(dir.path(), &repo, &server, &[]);
    assert_eq!(run.code, 7, "Inconclusive\n{}\n{}", run.report, run.stderr);
    let engineer = reviewer(&run.report, "engineer");
    assert_ne!(engineer["outcome"], "ok", "{engineer}");
    assert!(
        engineer["note"]
            .as_str()
            .unwrap_or("")
            .contains("repeats a key"),
        "{engineer}"
    );
    // The P1 of the first answer is still there and counted.
    let findings = run.report["findings"].as_array().unwrap();
    let p1 = findings
        .iter()
        .find(|f| f["title"] == "add() saturates instead of reporting overflow")
        .unwrap_or_else(|| panic!("{}", run.report));
    assert_eq!(p1["status"], "open");
    assert_eq!(run.report["verdict"]["counts"]["p1"], 1, "{}", run.report);
    // Nothing of the refused answer was read as the lowered finding.
    assert!(
        !findings
            .iter()
            .any(|f| f["title"] == "add() hides overflow from every caller"),
        "{}",
        run.report
    );
}
