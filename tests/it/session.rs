//! The session's two clients, end to end: what the cockpit publishes after a reopen is what
//! the headless flow publishes, the person's edited comment is what is posted, and a published
//! round is completed. The real binary on the demo (its bundled cassette: model reviewers, a
//! walkthrough, coverage notes), the cockpit in tmux.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

use crate::cockpit::find_state;
use crate::support::tmux::{Tmux, wait_until};

/// `review-tui --demo --headless ARGS` on the data dir, offline: no provider but the cassette.
fn headless(data: &Path, args: &[&str]) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_review-tui"));
    command
        .args(["--demo", "--headless"])
        .args(args)
        .env("REVIEW_TUI_DATA_DIR", data)
        .env("REVIEW_TUI_CONFIG", data.join("no-config.toml"));
    for var in [
        "OPENAI_API_KEY",
        "OPENAI_BASE_URL",
        "ANTHROPIC_API_KEY",
        "ANTHROPIC_BASE_URL",
        "OLLAMA_HOST",
        "GH_TOKEN",
        "GITHUB_TOKEN",
    ] {
        command.env_remove(var);
    }
    command.output().unwrap()
}

/// The cockpit on the demo space in `data`, which a headless run already reviewed: it resumes.
fn cockpit(name: &str, data: &Path, exit_file: &Path) -> Tmux {
    let binary = env!("CARGO_BIN_EXE_review-tui");
    let command = format!(
        "{binary} --demo; echo $? > {}; sleep 30",
        exit_file.display()
    );
    Tmux::start(
        name,
        &command,
        160,
        48,
        &[
            ("REVIEW_TUI_DATA_DIR", data),
            ("REVIEW_TUI_CONFIG", &data.join("no-config.toml")),
            ("REVIEW_TUI_PERSON", Path::new("tester")),
        ],
    )
}

fn space_of(data: &Path) -> PathBuf {
    find_state(data)
        .expect("a state.json in the data dir")
        .parent()
        .unwrap()
        .to_path_buf()
}

fn state(data: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(space_of(data).join("state.json")).unwrap())
        .unwrap()
}

/// Publishes from the gate: preview, confirm, and the gate then says where it went.
fn publish_from_the_gate(tmux: &Tmux) {
    tmux.keys(&["g"]);
    tmux.wait_for("the gate", |s| s.contains("Approval gate"));
    tmux.keys(&["p"]);
    tmux.wait_for("the preview", |s| s.contains("REQUEST_CHANGES"));
    tmux.keys(&["Enter"]);
    tmux.wait_for("the publish", |s| s.contains("published:"));
    tmux.wait_for("the completed ladder", |s| s.contains("completed"));
    tmux.keys(&["g"]);
    // Waited for whole: under load tmux can show the gate's frame before its last lines.
    let gate = tmux.wait_for("the published gate", |s| {
        s.contains("Approval gate") && s.contains("Published  round 1:")
    });
    assert!(gate.contains("Published  round 1:"), "{gate}");
    // A round is published once: the gate no longer offers it, and asking anyway is refused.
    assert!(!gate.contains("publish: preview"), "{gate}");
    tmux.keys(&["p"]);
    tmux.wait_for("the refusal", |s| s.contains("round 1 was published"));
    tmux.keys(&["Escape"]);
    tmux.wait_for("the gate to close", |s| !s.contains("Approval gate"));
}

#[test]
fn a_cockpit_publish_after_a_reopen_posts_what_a_headless_publish_posts() {
    crate::require_tmux!(
        "session::a_cockpit_publish_after_a_reopen_posts_what_a_headless_publish_posts"
    );
    // Headless, published at once.
    let headless_data = tempfile::tempdir().unwrap();
    let out = headless(headless_data.path(), &["--publish"]);
    assert_eq!(
        out.status.code(),
        Some(6),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let posted = std::fs::read_to_string(space_of(headless_data.path()).join("review.md")).unwrap();
    // The round's walkthrough and its coverage notes are part of the summary.
    assert!(posted.contains("### Walkthrough\n"), "{posted}");
    assert!(posted.contains("#### Coverage\n"), "{posted}");
    assert_eq!(state(headless_data.path())["ladder"], "completed");

    // The same review, recorded headless, then published from a reopened cockpit.
    let data = tempfile::tempdir().unwrap();
    let out = headless(data.path(), &[]);
    assert_eq!(out.status.code(), Some(6));
    assert_eq!(state(data.path())["ladder"], "awaiting_approval");
    let exit = data.path().join("exit");
    let tmux = cockpit("same-summary", data.path(), &exit);
    tmux.wait_for("the resumed review", |s| s.contains("BLOCK"));
    publish_from_the_gate(&tmux);
    tmux.keys(&["q"]);
    assert_eq!(tmux.exit_code(&exit), 6);

    let from_cockpit = std::fs::read_to_string(space_of(data.path()).join("review.md")).unwrap();
    assert_eq!(from_cockpit, posted);
    assert_eq!(state(data.path())["ladder"], "completed");
}

#[test]
fn the_comment_edited_in_the_cockpit_is_the_one_published() {
    crate::require_tmux!("session::the_comment_edited_in_the_cockpit_is_the_one_published");
    let data = tempfile::tempdir().unwrap();
    let out = headless(data.path(), &[]);
    assert_eq!(out.status.code(), Some(6));
    let exit = data.path().join("exit");
    let tmux = cockpit("edited", data.path(), &exit);
    tmux.wait_for("the resumed review", |s| s.contains("BLOCK"));
    // The access key id: filter to the secrets, the selection lands on the first.
    tmux.keys(&["/"]);
    tmux.text("secret access");
    tmux.keys(&["Enter"]);
    tmux.wait_for("the filter", |s| s.contains("filter: secret access"));
    tmux.keys(&["e"]);
    tmux.wait_for("the comment editor", |s| s.contains("ctrl-s"));
    tmux.text(" Rotate it in the vault before merging.");
    tmux.keys(&["C-s"]);
    tmux.wait_for("the saved comment", |s| s.contains("comment saved"));
    // The screen says so as the session is told; the session writes state.json right after.
    let edited: Vec<(String, String)> = wait_until("the edit in state.json", || {
        let comments = state(data.path())["comments"].as_object()?.clone();
        (!comments.is_empty()).then(|| {
            comments
                .iter()
                .map(|(id, text)| (id.clone(), text.as_str().unwrap().to_string()))
                .collect()
        })
    });
    assert_eq!(edited.len(), 1, "{edited:?}");
    assert!(
        edited[0]
            .1
            .contains("Rotate it in the vault before merging.")
    );
    publish_from_the_gate(&tmux);
    tmux.keys(&["q"]);
    assert_eq!(tmux.exit_code(&exit), 6);

    let space = space_of(data.path());
    let summary = std::fs::read_to_string(space.join("review.md")).unwrap();
    assert!(
        summary.contains("Rotate it in the vault before merging."),
        "{summary}"
    );
    let report: Value =
        serde_json::from_str(&std::fs::read_to_string(space.join("review.json")).unwrap()).unwrap();
    let inline: Vec<&str> = report["inline_comments"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|c| c["comment"]["body"].as_str().or(c["body"].as_str()))
        .filter(|body| body.contains("Rotate it in the vault before merging."))
        .collect();
    assert_eq!(inline.len(), 1, "{report:#}");
}

#[test]
fn every_format_is_honoured_when_the_head_is_not_eligible() {
    let data = tempfile::tempdir().unwrap();
    let out = headless(data.path(), &["--deterministic-only", "--publish"]);
    assert_eq!(out.status.code(), Some(6));
    // The same head again: reviewed and published, so not eligible (exit 1) in every format.
    let sarif = headless(data.path(), &["--deterministic-only", "--format", "sarif"]);
    assert_eq!(sarif.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&sarif.stderr).contains("not eligible"),
        "{}",
        String::from_utf8_lossy(&sarif.stderr)
    );
    let document: Value =
        serde_json::from_slice(&sarif.stdout).expect("SARIF, not the JSON report");
    assert_eq!(document["version"], "2.1.0");
    assert_eq!(document["runs"][0]["results"], serde_json::json!([]));
    let json = headless(data.path(), &["--deterministic-only", "--format", "json"]);
    let report: Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!(report["eligibility"]["eligible"], false, "{report:#}");
    // No review, no summary: Markdown prints nothing and stderr says why.
    let markdown = headless(
        data.path(),
        &["--deterministic-only", "--format", "markdown"],
    );
    assert_eq!(markdown.status.code(), Some(1));
    assert!(
        markdown.stdout.is_empty(),
        "{}",
        String::from_utf8_lossy(&markdown.stdout)
    );
    assert!(String::from_utf8_lossy(&markdown.stderr).contains("not eligible"));
}

/// `review-tui REFERENCE --headless --deterministic-only` with its own data dir.
fn review_local(reference: &str, data: &Path) -> Output {
    crate::cli::review_tui()
        .args([reference, "--headless", "--deterministic-only"])
        .env("REVIEW_TUI_DATA_DIR", data)
        .env("REVIEW_TUI_CONFIG", data.join("no-config.toml"))
        .output()
        .unwrap()
}

#[test]
fn two_spellings_of_one_commit_range_open_one_space_and_a_detached_head_is_its_commit() {
    let repo = crate::support::git_repo::pr_repository();
    let head = repo.rev_parse("feature");
    let data = tempfile::tempdir().unwrap();
    let path = repo.path().display().to_string();
    let first = review_local(&format!("{path}#{head}^1..{head}"), data.path());
    assert_ne!(
        first.status.code(),
        Some(4),
        "{}",
        String::from_utf8_lossy(&first.stderr)
    );
    // The same commits, abbreviated: that space's round, reported as recorded.
    let short = &head[..8];
    let again = review_local(&format!("{path}#{short}^..{short}"), data.path());
    let err = String::from_utf8_lossy(&again.stderr);
    assert_eq!(again.status.code(), first.status.code(), "{err}");
    assert!(err.contains("reporting its recorded round"), "{err}");
    let spaces = |data: &Path| {
        let mut found = Vec::new();
        let mut stack = vec![data.to_path_buf()];
        while let Some(dir) = stack.pop() {
            for entry in std::fs::read_dir(&dir).unwrap().flatten() {
                let p = entry.path();
                if p.file_name().is_some_and(|n| n == "state.json") {
                    found.push(p);
                } else if p.is_dir() && !p.ends_with("worktree") && !p.ends_with("mirrors") {
                    stack.push(p);
                }
            }
        }
        found
    };
    assert_eq!(spaces(data.path()).len(), 1);

    // `review-tui PATH` on a detached HEAD reviews that commit, keyed by it, not by `HEAD`.
    repo.git(&["checkout", "--quiet", "--detach", "feature"]);
    let detached_data = tempfile::tempdir().unwrap();
    let out = review_local(&path, detached_data.path());
    assert_ne!(
        out.status.code(),
        Some(4),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let state: Value =
        serde_json::from_str(&std::fs::read_to_string(&spaces(detached_data.path())[0]).unwrap())
            .unwrap();
    assert_eq!(
        state["pr"]["key"]["head"],
        head.as_str(),
        "{:#}",
        state["pr"]
    );
}
