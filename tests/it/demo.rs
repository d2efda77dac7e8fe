//! The demo's bundled cassette, produced honestly, and the offline demo that replays it.
//!
//! `the_bundled_cassette_is_what_the_scripted_session_records` runs `review-tui --demo` against
//! the scripted OpenAI-compatible server, with model answers written here (tool calls that read
//! the real demo files, findings anchored to the real lines), recording with `--record`. The
//! recording must equal `assets/demo/cassette.json`. After changing prompts, context or the demo,
//! regenerate it with
//!
//! ```text
//! REVIEW_TUI_UPDATE_CASSETTE=1 cargo test --test it demo::the_bundled
//! ```
//!
//! then rebuild (the binary compiles the cassette in) and run the tests again.

use std::path::Path;
use std::process::{Command, Output};

use serde_json::{Value, json};

use crate::cli::review_tui;
use crate::support::openai_server::{OpenAiServer, Reply};

const CASSETTE_PATH: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/assets/demo/cassette.json");
const MODEL: &str = "scripted-demo-model";

fn clean_env(command: &mut Command, data: &Path) {
    command.env("REVIEW_TUI_DATA_DIR", data);
    command.env("REVIEW_TUI_CONFIG", data.join("no-config.toml"));
    for var in [
        "OPENAI_API_KEY",
        "OPENAI_BASE_URL",
        "ANTHROPIC_API_KEY",
        "ANTHROPIC_BASE_URL",
        "OLLAMA_HOST",
        "GITHUB_API_URL",
        "GH_TOKEN",
        "GITHUB_TOKEN",
    ] {
        command.env_remove(var);
    }
}

/// Tool calls with fixed ids: the cassette must not depend on a counter shared by other tests.
fn calls(reviewer: &str, turn: u32, calls: &[(&str, Value)]) -> Reply {
    Reply::Message {
        content: None,
        tool_calls: calls
            .iter()
            .enumerate()
            .map(|(i, (name, args))| {
                (
                    format!("call_{reviewer}_{turn}_{}", i + 1),
                    name.to_string(),
                    args.to_string(),
                )
            })
            .collect(),
        finish_reason: "tool_calls".into(),
        usage: (1200, 150),
    }
}

fn answer(value: Value) -> Reply {
    Reply::text(&value.to_string()).with_usage(900, 120)
}

#[allow(clippy::too_many_arguments)]
fn finding(
    reasoning: &str,
    kind: &str,
    priority: &str,
    category: &str,
    path: &str,
    lines: (u32, u32),
    title: &str,
    text: [&str; 4],
    confidence: f64,
) -> Value {
    let [body, evidence, impact, verification] = text;
    json!({
        "reasoning": reasoning,
        "kind": kind,
        "priority": priority,
        "triage": {"category": category, "severity": if priority == "P1" { "high" } else { "medium" }, "effort": "small"},
        "rule": null,
        "anchor": {"path": path, "side": "RIGHT", "start_line": lines.0, "end_line": lines.1},
        "text": {"title": title, "body": body, "evidence": evidence, "impact": impact, "verification": verification},
        "fix": null,
        "confidence": confidence,
        "scope": "in_scope"
    })
}

fn marker(role: &str, task: &str) -> String {
    format!("Role: {role}. Task: {task}.")
}

/// What each model says in the demo session.
fn script(server: &OpenAiServer) {
    let retry_bug = finding(
        "get_with_retry copies the token value into `bearer` on line 33, before the loop. On a 401 \
         line 38 replaces self.token, but line 43 sends `bearer` again: the retry uses the expired \
         token.",
        "bug",
        "P1",
        "correctness",
        "src/client.rs",
        (43, 43),
        "Retry after a token refresh still sends the expired bearer token",
        [
            "The refreshed token is stored in self.token but never used: `bearer` was captured \
             before the loop and is reused for every attempt.",
            "line 33: `let bearer = self.token.value.clone();` … line 43: `response = \
             self.transport.get(url, &bearer);`",
            "Every request that meets an expired token fails with 401 on all three attempts and \
             also burns a token refresh per attempt; callers see an authentication error after \
             expiry instead of a successful retry.",
            "Use a transport that answers 401 to the old token and 200 to the new one: \
             get_with_retry returns 401.",
        ],
        0.92,
    );
    let false_positive = finding(
        "Client::new calls issuer.issue(); I assumed its error is dropped.",
        "bug",
        "P1",
        "stability",
        "src/client.rs",
        (23, 23),
        "Client::new ignores a failure to issue the first token",
        [
            "If the issuer fails, the client is built without a valid token.",
            "Client::new calls issuer.issue() on line 23.",
            "The first request is sent with no token.",
            "Make issue() fail and call Client::new.",
        ],
        0.6,
    );
    server.route(
        &marker("engineer", "review"),
        [
            calls("engineer", 1, &[("read_file", json!({"path": "src/client.rs"}))]),
            calls(
                "engineer",
                2,
                &[
                    ("add_review_node", retry_bug),
                    ("add_review_node", false_positive),
                    (
                        "finish",
                        json!({"summary": "The retry path reuses the stale bearer token after a refresh."}),
                    ),
                ],
            ),
        ],
    );

    let unchecked = finding(
        "session::save discards the result of create_dir_all (line 8) and unwraps both the \
         parent() lookup and the write (lines 8-9).",
        "bug",
        "P1",
        "stability",
        "src/session.rs",
        (8, 9),
        "Session save discards and unwraps I/O errors",
        [
            "A failure to create the directory is ignored, then the write panics.",
            "line 8: `let _ = fs::create_dir_all(path.parent().unwrap());` line 9: \
             `fs::write(path, &token.value).unwrap();`",
            "A read-only or full disk crashes the caller's process instead of returning an error; \
             a path without a parent panics.",
            "Call save() with a path under a read-only directory: it panics.",
        ],
        0.88,
    );
    let untested = json!({
        "reasoning": "No test in the change exercises a 401 followed by a refresh.",
        "kind": "recommendation",
        "priority": "P2",
        "triage": {"category": "tests", "severity": "medium", "effort": "small"},
        "rule": null,
        "anchor": {"path": "src/client.rs", "side": "RIGHT", "start_line": 37, "end_line": 39},
        "text": {
            "title": "No test covers the 401 → refresh → retry path",
            "body": "The retry logic is new and has no test; the stale-token bug would have been caught by one.",
            "evidence": "The pull request adds get_with_retry and no tests.",
            "impact": "Regressions in token refresh reach production unnoticed.",
            "verification": "Add a test with a transport that rejects the first token and accepts the refreshed one."
        },
        "fix": {"replacement": null, "diff": null, "prompt": "Write a unit test: a fake Transport answering 401 for token A and 200 for token B, an Issuer returning B; assert get_with_retry returns 200."},
        "confidence": 0.85,
        "scope": "in_scope"
    });
    server.route(
        &marker("qa", "review"),
        [
            calls("qa", 1, &[("read_file", json!({"path": "src/session.rs"}))]),
            calls(
                "qa",
                2,
                &[
                    ("add_review_node", unchecked),
                    ("add_review_node", untested),
                    (
                        "finish",
                        json!({"summary": "Session persistence crashes on I/O errors; the retry path is untested."}),
                    ),
                ],
            ),
        ],
    );

    let clear_text = finding(
        "session::save writes token.value as is to a file whose mode is the process default.",
        "bug",
        "P1",
        "security",
        "src/session.rs",
        (9, 9),
        "The bearer token is written to disk in clear text",
        [
            "Anyone who can read the session file can impersonate the user until the token expires.",
            "line 9: `fs::write(path, &token.value).unwrap();`",
            "Token theft from backups, shared machines or world-readable home directories.",
            "Run save() and check the file's contents and permissions.",
        ],
        0.8,
    );
    server.route(
        &marker("architect", "review"),
        [
            calls("architect", 1, &[("get_diff", json!({"path": "src/session.rs"}))]),
            calls(
                "architect",
                2,
                &[
                    ("add_review_node", clear_text),
                    (
                        "finish",
                        json!({"summary": "Credentials are persisted unprotected; the cloud key belongs in configuration, not code."}),
                    ),
                ],
            ),
        ],
    );

    // The peer round.
    server.route(
        &marker("engineer", "peer round"),
        [calls(
            "engineer-peer",
            1,
            &[
                (
                    "confirm_node",
                    json!({"id": "qa-1", "note": "session.rs line 9 unwraps fs::write."}),
                ),
                (
                    "confirm_node",
                    json!({"id": "architect-1", "note": "line 9 writes token.value unencrypted."}),
                ),
                ("finish", json!({"summary": "confirmed two"})),
            ],
        )],
    );
    server.route(
        &marker("qa", "peer round"),
        [calls(
            "qa-peer",
            1,
            &[
                (
                    "confirm_node",
                    json!({"id": "engineer-1", "note": "line 43 sends `bearer`, captured on line 33."}),
                ),
                ("finish", json!({"summary": "confirmed the retry bug"})),
            ],
        )],
    );
    server.route(
        &marker("architect", "peer round"),
        [calls(
            "architect-peer",
            1,
            &[
                (
                    "confirm_node",
                    json!({"id": "engineer-1", "note": "the refreshed token is never read."}),
                ),
                ("finish", json!({"summary": "confirmed the retry bug"})),
            ],
        )],
    );

    // Verification: the false positive is refuted by the line that contradicts it (a P1: the
    // refutation is a dispute for the person).
    let upheld = |reason: &str| {
        answer(
            json!({"reasoning": "Read the cited lines.", "verdict": "upheld", "quote": "", "reason": reason}),
        )
    };
    server.route(
        &marker("verifier", "verify engineer-1"),
        [upheld("line 43 passes the bearer captured on line 33")],
    );
    server.route(
        &marker("verifier", "verify engineer-2"),
        [answer(json!({
            "reasoning": "Line 23 propagates the issuer's error with `?`.",
            "verdict": "refuted",
            "quote": "let token = issuer.issue()?;",
            "reason": "the error is returned to the caller, not ignored"
        }))],
    );
    server.route(
        &marker("verifier", "verify qa-1"),
        [upheld("both results are discarded or unwrapped")],
    );
    server.route(
        &marker("verifier", "verify qa-2"),
        [upheld("no test file is changed")],
    );
    server.route(
        &marker("verifier", "verify architect-1"),
        [upheld("the value is written as is")],
    );
    server.route(
        &marker("lead", "walkthrough"),
        [answer(json!({
            "reasoning": "One cohort around the client and its token.",
            "walkthrough": "The change adds a retrying GET that refreshes the token on 401, session persistence, and storage configuration. Read src/client.rs first (get_with_retry: follow which token each attempt sends), then src/session.rs (what happens when the disk fails), then src/config.rs (where credentials live); src/lib.rs only declares the new modules."
        }))],
    );
}

/// Steps grouped by conversation, each conversation in its own order: parallel reviewers finish
/// in any order, what each one was asked and answered does not change.
fn normalised(cassette: &Value) -> Value {
    let mut cassette = cassette.clone();
    if let Some(steps) = cassette["steps"].as_array_mut() {
        steps.sort_by(|a, b| {
            let key = |s: &Value| s["request"]["reviewer"].as_str().unwrap_or("").to_string();
            key(a).cmp(&key(b))
        });
    }
    cassette
}

fn first_difference(recorded: &Value, committed: &Value) -> String {
    let empty = Vec::new();
    let a = recorded["steps"].as_array().unwrap_or(&empty);
    let b = committed["steps"].as_array().unwrap_or(&empty);
    for (i, (x, y)) in a.iter().zip(b).enumerate() {
        if x != y {
            return format!(
                "step {i} differs:\nrecorded: {}\ncommitted: {}",
                clip(&x.to_string(), 1500),
                clip(&y.to_string(), 1500)
            );
        }
    }
    format!("{} recorded steps, {} committed", a.len(), b.len())
}

#[test]
fn the_bundled_cassette_is_what_the_scripted_session_records() {
    let server = OpenAiServer::start();
    script(&server);
    let data = tempfile::tempdir().unwrap();
    let recording = data.path().join("recorded.json");
    let mut command = review_tui();
    clean_env(&mut command, data.path());
    let out: Output = command
        .args(["--demo", "--headless", "--format", "json"])
        .args(["--model-url", &server.base_url(), "--model", MODEL])
        .arg("--record")
        .arg(&recording)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(6),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let recorded: Value =
        serde_json::from_str(&std::fs::read_to_string(&recording).unwrap()).unwrap();
    let recorded = normalised(&recorded);
    if std::env::var("REVIEW_TUI_UPDATE_CASSETTE").is_ok_and(|v| v == "1") {
        let text = serde_json::to_string_pretty(&recorded).unwrap() + "\n";
        std::fs::write(CASSETTE_PATH, text).unwrap();
        return;
    }
    let committed: Value =
        serde_json::from_str(&std::fs::read_to_string(CASSETTE_PATH).unwrap()).unwrap();
    assert!(
        recorded == normalised(&committed),
        "assets/demo/cassette.json is stale; regenerate it with \
         REVIEW_TUI_UPDATE_CASSETTE=1 cargo test --test it demo::the_bundled\n{}",
        first_difference(&recorded, &normalised(&committed))
    );
}

#[test]
fn the_demo_runs_offline_on_its_cassette() {
    let data = tempfile::tempdir().unwrap();
    let mut command = review_tui();
    clean_env(&mut command, data.path());
    let out = command
        .args(["--demo", "--headless", "--format", "json"])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    let report: Value = serde_json::from_str(&stdout)
        .unwrap_or_else(|e| panic!("not JSON ({e}): {stdout}\n{stderr}"));
    assert_eq!(out.status.code(), Some(6), "{report}\n{stderr}");
    assert_eq!(report["verdict"]["decision"], "block");
    for name in ["engineer", "qa", "architect"] {
        let reviewer = report["reviewers"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["name"] == name)
            .unwrap();
        assert_eq!(reviewer["outcome"], "ok", "{reviewer}");
    }
    let findings = report["findings"].as_array().unwrap();
    let retry = findings
        .iter()
        .find(|f| f["title"].as_str().unwrap().contains("expired bearer"))
        .expect("the retry bug is found");
    assert_eq!(retry["anchor"]["path"], "src/client.rs");
    assert_eq!(retry["status"], "consensus_ready");
    assert!(!retry["confirmations"].as_array().unwrap().is_empty());
    let secret = findings
        .iter()
        .find(|f| {
            f["rule"].as_str().is_some_and(|r| r.starts_with("secret"))
                && f["anchor"]["path"] == "src/config.rs"
        })
        .expect("the AWS key is found");
    assert_eq!(secret["priority"], "P0");
    assert!(secret["confidence"].as_f64().unwrap() >= 0.95 - 1e-9);
    // The verifier refutes the P1 false positive, quoting the line that contradicts it: a
    // verifier is not a person, so the finding stays open, disputed, for the person.
    let disputed = findings.iter().find(|f| f["id"] == "engineer-2").unwrap();
    assert_eq!(disputed["status"], "open");
    assert!(
        disputed["disputes"]
            .to_string()
            .contains("let token = issuer.issue()?;"),
        "{disputed}"
    );
    assert!(
        report["disagreements"]
            .as_array()
            .unwrap()
            .iter()
            .any(|d| d["a"] == "engineer-2" && d["kind"]["type"] == "disputed"),
        "{}",
        report["disagreements"]
    );
    assert!(!report["walkthrough"].as_str().unwrap().is_empty());
    // Offline: the keys in the demo never left through the cassette.
    let cassette = std::fs::read_to_string(CASSETTE_PATH).unwrap();
    assert!(!cassette.contains("AKIAZ4DEMQ7Q2LXWRT5W"));
}

fn clip(text: &str, max: usize) -> String {
    text.chars().take(max).collect()
}
