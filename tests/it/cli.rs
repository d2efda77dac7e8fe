//! The binary as a user runs it: help, version, evaluate and exit codes.

use std::io::Write;
use std::process::{Command, Output, Stdio};

pub(crate) fn review_tui() -> Command {
    Command::new(env!("CARGO_BIN_EXE_review-tui"))
}

fn run_with_stdin(args: &[&str], stdin: &str) -> Output {
    let mut child = review_tui()
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn help_and_version_exit_zero() {
    let help = review_tui().arg("--help").output().unwrap();
    assert_eq!(help.status.code(), Some(0));
    let out = text(&help.stdout);
    assert!(out.contains("evaluate"), "{out}");
    assert!(out.contains("Exit codes"), "{out}");
    let version = review_tui().arg("--version").output().unwrap();
    assert_eq!(version.status.code(), Some(0));
    assert_eq!(
        text(&version.stdout).trim(),
        format!("review-tui {}", env!("CARGO_PKG_VERSION"))
    );
}

#[test]
fn usage_errors_exit_4_not_2() {
    let out = review_tui().arg("--no-such-flag").output().unwrap();
    assert_eq!(out.status.code(), Some(4));
    assert!(text(&out.stderr).contains("--no-such-flag"));
}

#[test]
fn evaluate_recomputes_the_verdict_and_exits_by_decision() {
    let cases = [
        (r#"{"findings": []}"#, 0, "SHIP"),
        (
            r#"{"findings": [{"priority": "P1", "category": "correctness"}]}"#,
            5,
            "HOLD",
        ),
        (
            r#"{"findings": [{"priority": "P0", "category": "security", "confidence": 0.9}]}"#,
            6,
            "BLOCK",
        ),
        (
            r#"{"findings": [], "reviewers": [{"role": "qa", "required": true, "outcome": "failed"}]}"#,
            7,
            "INCONCLUSIVE",
        ),
    ];
    for (report, code, headline) in cases {
        let out = run_with_stdin(&["evaluate", "-"], report);
        assert_eq!(out.status.code(), Some(code), "{report}");
        assert!(
            text(&out.stdout).starts_with(headline),
            "{}",
            text(&out.stdout)
        );
    }
}

#[test]
fn evaluate_json_never_takes_the_models_word() {
    let report = r#"{"verdict": "APPROVE", "findings": [{"severity": "high", "category": "implementation",
                    "inScope": true, "description": "retry reuses the expired token"}]}"#;
    let out = run_with_stdin(&["evaluate", "--format", "json", "-"], report);
    assert_eq!(out.status.code(), Some(5));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["decision"], "hold");
    assert_eq!(json["model_verdict"], "APPROVE");
    assert_eq!(json["counts"]["p1"], 1);
    assert!(json["confidence"].as_f64().unwrap() > 0.0);
    assert!(
        json["reasons"][0]
            .as_str()
            .unwrap()
            .contains("expired token")
    );
}

#[test]
fn evaluate_reads_files_and_reports_bad_input_with_exit_4() {
    let dir = tempfile::tempdir().unwrap();
    let good = dir.path().join("report.json");
    std::fs::write(
        &good,
        r#"{"findings": [{"priority": "P3", "category": "docs"}]}"#,
    )
    .unwrap();
    let out = review_tui().arg("evaluate").arg(&good).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));

    let out = run_with_stdin(&["evaluate", "-"], "definitely not json");
    assert_eq!(out.status.code(), Some(4));
    let err = text(&out.stderr);
    assert_eq!(err.lines().count(), 1, "one clear line: {err}");
    assert!(err.contains("not JSON"), "{err}");

    let missing = dir.path().join("nope.json");
    let out = review_tui().arg("evaluate").arg(&missing).output().unwrap();
    assert_eq!(out.status.code(), Some(4));
    assert!(text(&out.stderr).contains("nope.json"));

    let out = run_with_stdin(&["evaluate", "-"], r#"{"findings": [{"priority": "P5"}]}"#);
    assert_eq!(out.status.code(), Some(4));
    assert!(text(&out.stderr).contains("findings[0].priority"));

    // A confidence above 1 is refused, never read as a percentage (1.5 → 0.015 would turn a
    // blocking P0 into a Hold).
    for confidence in ["1.5", "85", "-0.1"] {
        let report = format!(
            r#"{{"findings": [{{"priority": "P0", "category": "security", "confidence": {confidence}}}]}}"#
        );
        let out = run_with_stdin(&["evaluate", "-"], &report);
        assert_eq!(out.status.code(), Some(4), "{confidence}");
        let err = text(&out.stderr);
        assert!(err.contains("findings[0].confidence"), "{err}");
        assert!(err.contains("0.0 to 1.0"), "{err}");
    }
}
