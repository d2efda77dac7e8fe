//! The first hour of a new user: a review without any model, then with one, on the same head,
//! without `--force`; a model endpoint without a model; what `--help` tells.

use std::path::Path;
use std::process::{Command, Output};

use serde_json::Value;

use crate::cli::review_tui;
use crate::models::{one_engineer_bug, pass_defaults, repository};
use crate::support::openai_server::OpenAiServer;

/// `review-tui PATH#main..feature --headless --format json` with nothing from the machine's
/// own setup: no model variable, no config file, its own data directory.
fn first_hour(data: &Path, reference: &str) -> Command {
    let mut command = review_tui();
    command
        .args([reference, "--headless", "--format", "json"])
        .env("REVIEW_TUI_DATA_DIR", data.join("data"))
        .env("REVIEW_TUI_CONFIG", data.join("no-config.toml"));
    for var in [
        "OPENAI_API_KEY",
        "OPENAI_BASE_URL",
        "ANTHROPIC_API_KEY",
        "ANTHROPIC_BASE_URL",
        "OLLAMA_HOST",
        "GITHUB_API_URL",
        "GH_TOKEN",
        "GITHUB_TOKEN",
        "CI",
    ] {
        command.env_remove(var);
    }
    command
}

fn report(out: &Output) -> Value {
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "not JSON ({e}): {}\n{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    })
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn a_review_without_a_model_says_why_and_does_not_use_up_the_head() {
    let repo = repository(false);
    let dir = tempfile::tempdir().unwrap();
    let reference = format!("{}#main..feature", repo.path().display());

    // 1. No model: Inconclusive, and one line says what did not run and the two ways on.
    let first = first_hour(dir.path(), &reference).output().unwrap();
    let err = stderr(&first);
    assert_eq!(first.status.code(), Some(7), "{err}");
    let line = err
        .lines()
        .find(|l| l.contains("no model configured"))
        .unwrap_or_else(|| panic!("no line about the missing model: {err}"));
    for needed in [
        "did not run",
        "--deterministic-only",
        "OPENAI_API_KEY",
        "ANTHROPIC_API_KEY",
        "OLLAMA_HOST",
    ] {
        assert!(line.contains(needed), "{needed} missing from: {line}");
    }
    let reasons = report(&first)["verdict"]["reasons"].to_string();
    assert!(reasons.contains("--deterministic-only"), "{reasons}");

    // 2. The same again: an Inconclusive round reviewed nothing, so this is a new round.
    let again = first_hour(dir.path(), &reference).output().unwrap();
    assert_eq!(again.status.code(), Some(7), "{}", stderr(&again));
    assert_eq!(report(&again)["space"]["round"], 2);

    // 3. --deterministic-only: other reviewers, a new round with a decision.
    let rules = first_hour(dir.path(), &reference)
        .arg("--deterministic-only")
        .output()
        .unwrap();
    let err = stderr(&rules);
    assert!(!err.contains("not eligible"), "{err}");
    assert!(!err.contains("no model configured"), "{err}");
    let decided = report(&rules);
    assert_eq!(decided["space"]["round"], 3, "{err}");
    assert_ne!(decided["verdict"]["decision"], "inconclusive", "{err}");

    // 4. A model configured (the server a copy-paste of the README points at): a new round
    //    with the model reviewers, still without --force.
    let server = OpenAiServer::start();
    one_engineer_bug(&server, "P1");
    pass_defaults(&server);
    let with_model = first_hour(dir.path(), &reference)
        .env("OPENAI_BASE_URL", server.base_url())
        .args(["--model", "scripted-model"])
        .output()
        .unwrap();
    let err = stderr(&with_model);
    assert!(matches!(with_model.status.code(), Some(0 | 5 | 6)), "{err}");
    let reviewed = report(&with_model);
    assert_eq!(reviewed["space"]["round"], 4, "{err}");
    assert_eq!(reviewed["space"]["new_round"], true);
    let engineer = reviewed["reviewers"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["name"] == "engineer")
        .cloned()
        .unwrap();
    assert_eq!(engineer["outcome"], "ok", "{reviewed:#}");

    // 5. The same reviewers again over that unpublished round: it is reported, not refused and
    //    not reviewed again.
    let reported = first_hour(dir.path(), &reference)
        .env("OPENAI_BASE_URL", server.base_url())
        .args(["--model", "scripted-model"])
        .output()
        .unwrap();
    let err = stderr(&reported);
    assert_eq!(reported.status.code(), with_model.status.code(), "{err}");
    assert!(err.contains("reporting its recorded round"), "{err}");
    let reported = report(&reported);
    assert_eq!(reported["space"]["round"], 4);
    assert_eq!(reported["space"]["new_round"], false);
}

#[test]
fn a_model_server_without_a_model_is_refused_before_any_work() {
    let repo = repository(false);
    let dir = tempfile::tempdir().unwrap();
    let reference = format!("{}#main..feature", repo.path().display());
    for (var, value) in [
        ("OLLAMA_HOST", "127.0.0.1:9"),
        ("OPENAI_BASE_URL", "http://127.0.0.1:9/v1"),
    ] {
        let out = first_hour(dir.path(), &reference)
            .env(var, value)
            .output()
            .unwrap();
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(4), "{err}");
        assert!(err.contains(var), "{err}");
        assert!(err.contains("--model NAME"), "{err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        // Refused up front: no review space was made.
        assert!(!dir.path().join("data").exists(), "{var}: {err}");
    }
}

#[test]
fn help_names_every_exit_code_the_token_and_the_model_variables() {
    let out = review_tui().arg("--help").output().unwrap();
    let help = String::from_utf8_lossy(&out.stdout);
    for needed in [
        "8 the PR's head moved",
        "7 Inconclusive",
        "GH_TOKEN",
        "GITHUB_TOKEN",
        "ANTHROPIC_API_KEY",
        "OPENAI_API_KEY",
        "OLLAMA_HOST",
    ] {
        assert!(
            help.contains(needed),
            "{needed} missing from --help:\n{help}"
        );
    }
}
