//! The verdict's invariant through the real binary (docs/verdict.md, "How the verdict is decided"): a
//! finding the code validated as in scope and blocking counts until a person closes it. Each
//! case is a way a scripted model (or an honest tool beside it) once took such a finding out of
//! the verdict: folding it under an out-of-scope twin, refuting it, sending it in JSON that
//! does not parse or repeats a key, or confirming its own agent's finding as a peer. The change
//! is the clean fixture's off-by-one (src/cache.rs:11); exit 0 is Ship, 5 Hold, 6 Block,
//! 7 Inconclusive.

use serde_json::{Value, json};

use crate::models::{Run, finding, finish, marker, pass_defaults, repository, review};
use crate::support::openai_server::{OpenAiServer, Reply, tool_messages};

const ENGINEER: &str = "Role: engineer. Task: review.";

fn p0() -> Value {
    finding(
        "last() indexes one past the end",
        "src/cache.rs",
        11,
        "P0",
        "correctness",
    )
}

fn nit() -> Value {
    let mut nit = finding(
        "last() could be named newest()",
        "src/cache.rs",
        10,
        "P3",
        "docs",
    );
    nit["kind"] = json!("suggestion");
    nit
}

fn call(name: &str, arguments: &str) -> Value {
    json!({"id": format!("call_{name}_{}", arguments.len()), "type": "function",
           "function": {"name": name, "arguments": arguments}})
}

fn calls(calls: Vec<Value>) -> Reply {
    Reply::message(
        json!({"role": "assistant", "content": null, "refusal": null, "tool_calls": calls}),
        "tool_calls",
    )
}

fn found<'a>(run: &'a Run, id: &str) -> &'a Value {
    run.report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["id"] == id)
        .unwrap_or_else(|| panic!("no finding {id}: {}", run.report))
}

// ---- 1. Folding is presentation ------------------------------------------------------------------

#[test]
fn an_out_of_scope_twin_folds_nothing_out_of_the_verdict() {
    let repo = repository(false);
    let server = OpenAiServer::start();
    // The engineer's P0 has no anchor (in scope, as a finding about the change is); the QA
    // reviewer sends its twin — the same title, so the same problem — more confident and
    // labelled out of scope.
    let mut real = p0();
    real["anchor"] = Value::Null;
    let mut twin = real.clone();
    twin["scope"] = json!("out_of_scope");
    twin["confidence"] = json!(1.0);
    server.route(
        ENGINEER,
        [Reply::tool_calls(&[
            ("add_review_node", real),
            ("finish", json!({"summary": "one bug"})),
        ])],
    );
    server.route(
        &marker("qa", "review"),
        [Reply::tool_calls(&[
            ("add_review_node", twin),
            ("finish", json!({"summary": "seen before"})),
        ])],
    );
    server.route(&marker("architect", "review"), [finish("nothing")]);
    pass_defaults(&server);
    let run = review(&repo, Some(&server), "", &[]);
    assert_eq!(
        run.code, 6,
        "the in-scope P0 blocks\n{}\n{}",
        run.report, run.stderr
    );
    // Folded still, for the reader, under the in-scope finding.
    assert_eq!(
        found(&run, "qa-1")["duplicate_of"],
        "engineer-1",
        "{}",
        run.report
    );
    assert_eq!(run.report["verdict"]["counts"]["p0"], 1);
}

// ---- 2. A verifier is not a person ---------------------------------------------------------------

#[test]
fn a_refuted_p0_is_disputed_for_a_person_never_dismissed() {
    let repo = repository(false);
    let server = OpenAiServer::start();
    server.route(
        ENGINEER,
        [Reply::tool_calls(&[
            ("add_review_node", p0()),
            ("finish", json!({"summary": "one bug"})),
        ])],
    );
    // The very line that proves the bug, quoted as its refutation.
    server.route(
        "Role: verifier.",
        [Reply::text(
            &json!({"reasoning": "I read it.", "verdict": "refuted",
                    "quote": "&self.items[self.items.len()].1", "reason": "the code is fine"})
            .to_string(),
        )],
    );
    pass_defaults(&server);
    let run = review(&repo, Some(&server), "", &["--level", "light"]);
    assert_eq!(run.code, 6, "{}\n{}", run.report, run.stderr);
    let p0 = found(&run, "engineer-1");
    assert_eq!(p0["status"], "open", "{p0}");
    assert!(p0["disputes"].to_string().contains("verifier"), "{p0}");
    let disagreements = run.report["disagreements"].to_string();
    assert!(
        disagreements.contains("\"disputed\"") && disagreements.contains("engineer-1"),
        "{disagreements}"
    );
}

// ---- 3. Parsing never settles or drops -----------------------------------------------------------

#[test]
fn a_blocking_finding_that_does_not_parse_is_owed_until_resubmitted() {
    let repo = repository(false);
    let p0_text = p0().to_string();
    let with_nan = p0_text.replace("\"confidence\":0.9", "\"confidence\":NaN");
    assert_ne!(with_nan, p0_text);
    let trailing = format!("{},}}", &p0_text[..p0_text.len() - 1]);
    let twice = p0_text.replace(
        "\"priority\":\"P0\"",
        "\"priority\":\"P0\",\"priority\":\"P3\"",
    );
    assert_ne!(twice, p0_text);
    let nit_call = call("add_review_node", &nit().to_string());
    let findings_as_text = json!({"summary": "one bug", "findings": json!([p0()]).to_string()});
    let findings_then_null =
        format!("{{\"summary\": \"one bug\", \"findings\": [{p0_text}], \"findings\": null}}");
    let cases: Vec<(&str, Reply)> = vec![
        (
            "NaN",
            calls(vec![call("add_review_node", &with_nan), nit_call.clone()]),
        ),
        (
            "a trailing comma",
            calls(vec![call("add_review_node", &trailing), nit_call.clone()]),
        ),
        (
            "priority twice",
            calls(vec![call("add_review_node", &twice), nit_call.clone()]),
        ),
        (
            "findings as a string",
            calls(vec![call("finish", &findings_as_text.to_string())]),
        ),
        (
            "findings, then findings null",
            calls(vec![call("finish", &findings_then_null)]),
        ),
    ];
    for (case, first) in cases {
        let server = OpenAiServer::start();
        server.route(
            ENGINEER,
            [first, finish("done"), finish("done"), finish("done")],
        );
        pass_defaults(&server);
        let run = review(&repo, Some(&server), "", &["--level", "light"]);
        assert_eq!(
            run.code, 7,
            "{case}: Inconclusive\n{}\n{}",
            run.report, run.stderr
        );
        let engineer = run.report["reviewers"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["name"] == "engineer")
            .unwrap();
        assert_eq!(
            engineer["outcome"], "invalid_output",
            "{case}: {}",
            run.report
        );
        assert!(
            !run.report["findings"]
                .to_string()
                .contains("\"P3\",\"category\":\"correctness\""),
            "{case}: the repeated key's last value is never read"
        );
    }

    // Resubmitted with the same identity, it counts and the review ends.
    let server = OpenAiServer::start();
    server.route(
        ENGINEER,
        [
            calls(vec![call("add_review_node", &with_nan), nit_call]),
            Reply::tool_calls(&[("add_review_node", p0())]),
            finish("one bug, one nit"),
        ],
    );
    pass_defaults(&server);
    let run = review(&repo, Some(&server), "", &["--level", "light"]);
    assert_eq!(run.code, 6, "{}\n{}", run.report, run.stderr);
    let told = tool_messages(&crate::models::requests_for(&server, ENGINEER)[1].body);
    assert!(
        told.values().any(|c| c.contains("not valid JSON")),
        "{told:?}"
    );
}

// ---- 9. One agent is not two; no field is a file ---------------------------------------------------

#[test]
fn security_does_not_confirm_the_architects_finding_and_fields_are_capped() {
    let repo = repository(false);
    let server = OpenAiServer::start();
    let mut bug = finding(
        "last() indexes one past the end",
        "src/cache.rs",
        11,
        "P1",
        "correctness",
    );
    bug["text"]["evidence"] = json!("x".repeat(200_000));
    server.route(
        &marker("architect", "review"),
        [Reply::tool_calls(&[
            ("add_review_node", bug),
            ("finish", json!({"summary": "one bug"})),
        ])],
    );
    for role in ["engineer", "qa", "security", "performance"] {
        server.route(&marker(role, "review"), [finish("nothing")]);
    }
    server.route(
        &marker("security", "peer round"),
        [
            Reply::tool_calls(&[(
                "confirm_node",
                json!({"id": "architect-1", "note": "len() is one past the end"}),
            )]),
            finish("confirmed"),
        ],
    );
    pass_defaults(&server);
    let run = review(&repo, Some(&server), "", &["--level", "thorough"]);
    assert_eq!(run.code, 5, "{}\n{}", run.report, run.stderr);
    let bug = found(&run, "architect-1");
    assert_eq!(
        bug["status"], "open",
        "the architect's own agent is no peer: {}",
        bug["confirmations"]
    );
    assert!(
        !bug["confirmations"].to_string().contains("security"),
        "{}",
        bug["confirmations"]
    );
    let evidence = bug["evidence"].as_str().unwrap();
    assert!(
        evidence.len() < 9_000,
        "{} characters stored",
        evidence.len()
    );
    assert!(
        evidence.ends_with("more characters)"),
        "{}",
        &evidence[evidence.len() - 60..]
    );
}

#[test]
fn a_finding_in_a_call_without_a_name_is_owed_until_resubmitted() {
    let repo = repository(false);
    let server = OpenAiServer::start();
    // The P0 arrives in a call with no function name, then the model just finishes.
    server.route(
        ENGINEER,
        [
            calls(vec![
                call("", &p0().to_string()),
                call("finish", r#"{"summary": "one bug"}"#),
            ]),
            finish("done"),
            finish("done"),
        ],
    );
    for role in ["qa", "architect"] {
        server.route(&marker(role, "review"), [finish("nothing")]);
    }
    pass_defaults(&server);
    let run = review(&repo, Some(&server), "", &["--level", "light"]);
    assert_eq!(
        run.code, 7,
        "the unread P0 was never resubmitted: Inconclusive, never Ship\n{}\n{}",
        run.report, run.stderr
    );
    assert_eq!(
        crate::models::reviewer(&run.report, "engineer")["outcome"],
        "invalid_output",
        "{}",
        run.report
    );

    // Resubmitted with its title and anchor: the debt is paid, and the P0 blocks.
    let server = OpenAiServer::start();
    server.route(
        ENGINEER,
        [
            calls(vec![call("", &p0().to_string())]),
            Reply::tool_calls(&[
                ("add_review_node", p0()),
                ("finish", json!({"summary": "one bug"})),
            ]),
        ],
    );
    for role in ["qa", "architect"] {
        server.route(&marker(role, "review"), [finish("nothing")]);
    }
    pass_defaults(&server);
    let run = review(&repo, Some(&server), "", &["--level", "light"]);
    assert_eq!(run.code, 6, "{}\n{}", run.report, run.stderr);
}
