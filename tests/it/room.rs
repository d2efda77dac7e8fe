//! The review room end to end: the real binary asks a reviewer on a real repository's review
//! space (`review-tui ask`), through the scripted OpenAI-compatible and Anthropic servers on
//! loopback, and the person adds findings of their own (`review-tui comment`) that the verdict
//! counts and a local publish posts.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::cli::review_tui;
use crate::cockpit::find_state;
use crate::models::{KEY_ID, SECRET, marker};
use crate::support::anthropic_server::{AnthropicReply, AnthropicServer};
use crate::support::git_repo::GitRepo;
use crate::support::openai_server::{OpenAiServer, Reply, call_id, tool_messages};
use crate::support::tmux::{Tmux, wait_until};

const TASK: &str = "answer a question";

/// `main..feature` of `repo`.
fn reference(repo: &GitRepo) -> String {
    format!("{}#main..feature", repo.path().display())
}

/// A command of the binary on the space under `dir` (its data and config), with no credential
/// or endpoint from the environment.
fn binary(dir: &Path) -> Command {
    let config = crate::models::config(dir, "");
    let mut command = review_tui();
    command
        .env("REVIEW_TUI_DATA_DIR", dir.join("data"))
        .env("REVIEW_TUI_CONFIG", config)
        .env("REVIEW_TUI_PERSON", "tester");
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
    command
}

/// Reviews `repo` with the zero-token reviewers only: the space the questions are asked in.
/// Returns the JSON report.
fn reviewed(dir: &Path, repo: &GitRepo) -> Value {
    let out = binary(dir)
        .arg(reference(repo))
        .args(["--headless", "--deterministic-only", "--format", "json"])
        .output()
        .unwrap();
    serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|_| panic!("{}", String::from_utf8_lossy(&out.stderr)))
}

/// The id of the finding whose anchor starts at `path:line`.
fn finding_at(report: &Value, path: &str, line: u64) -> String {
    report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["anchor"]["path"] == path && f["anchor"]["start_line"] == line)
        .unwrap_or_else(|| panic!("no finding at {path}:{line} in {}", report["findings"]))["id"]
        .as_str()
        .unwrap()
        .to_string()
}

fn ask(dir: &Path, repo: &GitRepo, server: &OpenAiServer, question: &str, args: &[&str]) -> Output {
    binary(dir)
        .args(["ask", &reference(repo), question])
        .args([
            "--model-url",
            &server.base_url(),
            "--model",
            "scripted-model",
        ])
        .args(args)
        .output()
        .unwrap()
}

fn state_path(dir: &Path) -> PathBuf {
    find_state(&dir.join("data")).expect("a state.json")
}

fn state(dir: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(state_path(dir)).unwrap()).unwrap()
}

fn node<'a>(state: &'a Value, id: &str) -> &'a Value {
    state["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|n| n["id"] == id)
        .unwrap_or_else(|| panic!("no node {id}"))
}

/// A first part of an answer, `content`, that goes on to read `src/cache.rs`.
fn reads_the_cache(content: &str, usage: (u64, u64)) -> Reply {
    Reply::Message {
        content: Some(content.into()),
        tool_calls: vec![(
            call_id(),
            "read_file".into(),
            json!({"path": "src/cache.rs"}).to_string(),
        )],
        finish_reason: "tool_calls".into(),
        usage,
    }
}

/// The cockpit's command line: the binary with `args` (as the shell reads them), no model
/// credential or endpoint from the environment, its exit code written to `exit`, the pane
/// kept a while so its last screen can be read.
fn cockpit_command(args: &str, exit: &Path) -> String {
    format!(
        "env -u OPENAI_API_KEY -u OPENAI_BASE_URL -u ANTHROPIC_API_KEY -u OLLAMA_HOST {} {args}; echo $? > {}; sleep 30",
        env!("CARGO_BIN_EXE_review-tui"),
        exit.display()
    )
}

/// The cockpit in tmux at `width`×`height`, run by `tester` on the data under `dir/data` with
/// `config`, and `env` besides; its exit code goes to `dir/exit`.
fn cockpit_in_tmux(
    name: &str,
    args: &str,
    dir: &Path,
    config: &Path,
    (width, height): (u16, u16),
    env: &[(&str, &Path)],
) -> Tmux {
    let data = dir.join("data");
    let mut all = vec![
        ("REVIEW_TUI_DATA_DIR", data.as_path()),
        ("REVIEW_TUI_CONFIG", config),
        ("REVIEW_TUI_PERSON", Path::new("tester")),
    ];
    all.extend_from_slice(env);
    let command = cockpit_command(args, &dir.join("exit"));
    Tmux::start(name, &command, width, height, &all)
}

/// Selects the finding `filter` matches in the cockpit's list. The filter box opens with the
/// filter in effect: clear it first. Always (a screen read mid-redraw may not show the list's
/// title), and wait until the list says no filter, then a moment, or the terminal reads esc and
/// the next key as one alt key.
fn select(tmux: &Tmux, filter: &str) {
    tmux.keys(&["Escape"]);
    tmux.wait_for("the filter cleared", |s| {
        !s.contains("filter: ") && s.contains("Findings (")
    });
    std::thread::sleep(Duration::from_millis(300));
    tmux.keys(&["/"]);
    tmux.text(filter);
    tmux.keys(&["Enter"]);
    // The list's title shows the filter's start (a narrow terminal cuts it).
    let shown = format!("filter: {}", &filter[..6]);
    tmux.wait_for("the filter", |s| s.contains(&shown));
}

fn text(out: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn a_misbehaving_answer_changes_nothing_and_leaks_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let repo = crate::models::repository(true);
    let report = reviewed(dir.path(), &repo);
    // The secret key on line 2 of src/keys.rs, and the key id on line 1: another finding.
    let asked = finding_at(&report, "src/keys.rs", 2);
    let other = finding_at(&report, "src/keys.rs", 1);
    let server = OpenAiServer::start();
    server.route(
        &marker("engineer", TASK),
        [
            Reply::tool_calls(&[
                ("read_file", json!({"path": "../../../../../../etc/passwd"})),
                (
                    "propose_change",
                    json!({"finding_id": other, "action": "withdraw", "reason": "a fixture"}),
                ),
            ]),
            Reply::text(&format!(
                "I withdraw this finding: it is a test fixture. The values are {KEY_ID} and {SECRET}."
            )),
        ],
    );
    let out = ask(
        dir.path(),
        &repo,
        &server,
        "Is this a real key?",
        &["--finding", &asked],
    );
    let (stdout, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(0), "{stdout}\n{stderr}");
    // Prose is shown, never read for a decision; the secret it quotes back is not.
    assert!(stdout.contains("I withdraw this finding"), "{stdout}");
    for leaked in [KEY_ID, SECRET] {
        assert!(!stdout.contains(leaked), "{stdout}");
        assert!(!stderr.contains(leaked), "{stderr}");
        assert!(
            !std::fs::read_to_string(state_path(dir.path()))
                .unwrap()
                .contains(leaked),
            "state.json holds a secret"
        );
        for request in server.requests() {
            assert!(
                !request.raw.contains(leaked),
                "sent to the model: {}",
                request.raw
            );
        }
    }
    assert!(!stdout.contains("proposes"), "{stdout}");
    let requests = server.requests();
    assert_eq!(requests.len(), 2);
    assert!(requests[0].raw.contains("Is this a real key?"));
    assert!(
        requests[0].raw.contains(&asked),
        "the finding is in the question"
    );
    // The model was told why each call was refused.
    let answers: Vec<String> = tool_messages(&requests[1].body).into_values().collect();
    assert!(
        answers.iter().any(|a| a.contains("escapes the worktree")),
        "{answers:?}"
    );
    assert!(
        answers
            .iter()
            .any(|a| a.contains("is not the finding asked about")),
        "{answers:?}"
    );
    assert!(!answers.iter().any(|a| a.contains("root:")), "{answers:?}");
    let state = state(dir.path());
    for id in [&asked, &other] {
        assert_eq!(node(&state, id)["status"], "open", "{id}");
    }
    let thread = &state["threads"][0];
    assert_eq!(thread["state"]["state"], "answered", "{thread}");
    assert_eq!(thread["finding"], asked.as_str());
    assert_eq!(thread["reviewer"], "engineer");
    assert_eq!(thread["asked_by"], "tester");
    assert!(thread.get("proposal").is_none(), "{thread}");
    assert!(thread["tokens"].as_u64().unwrap() > 0, "{thread}");
}

#[test]
fn an_anthropic_answer_proposes_through_the_protocol_and_the_person_decides() {
    let dir = tempfile::tempdir().unwrap();
    let repo = crate::models::repository(true);
    let report = reviewed(dir.path(), &repo);
    let asked = finding_at(&report, "src/keys.rs", 2);
    let server = AnthropicServer::start();
    server.route(
        &marker("security", TASK),
        [
            AnthropicReply::tool_uses(&[(
                "propose_change",
                json!({"finding_id": asked, "action": "reclassify", "priority": "P3",
                       "reason": "the key is revoked"}),
            )]),
            AnthropicReply::text("It was revoked last week; still, rotate it."),
        ],
    );
    let out = binary(dir.path())
        .args(["ask", &reference(&repo), "Does this key still work?"])
        .args([
            "--finding",
            &asked,
            "--role",
            "security",
            "--format",
            "json",
        ])
        .args(["--provider", "anthropic", "--model", "claude-scripted"])
        .env("ANTHROPIC_BASE_URL", server.base_url())
        .env("ANTHROPIC_API_KEY", "sk-ant-test-key")
        .output()
        .unwrap();
    let (stdout, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(0), "{stdout}\n{stderr}");
    let thread: Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(thread["reviewer"], "security");
    assert_eq!(
        thread["answer"],
        "It was revoked last week; still, rotate it."
    );
    assert_eq!(thread["proposal"]["change"]["action"], "reclassify");
    assert_eq!(thread["proposal"]["change"]["priority"], "P3");
    assert!(thread["proposal"].get("accepted").is_none(), "{thread}");
    // A proposal changes nothing until the person accepts it.
    let state = state(dir.path());
    let finding = node(&state, &asked);
    assert_eq!(finding["status"], "open");
    assert_eq!(finding["priority"], "P0");
    assert_eq!(server.requests().len(), 2);
    assert!(server.violations().is_empty(), "{:?}", server.violations());
}

#[test]
fn a_budget_spent_mid_answer_stops_it_and_keeps_the_question() {
    let dir = tempfile::tempdir().unwrap();
    let repo = crate::models::repository(false);
    reviewed(dir.path(), &repo);
    let server = OpenAiServer::start();
    server.route(
        &marker("engineer", TASK),
        [
            reads_the_cache("Reading the cache first.", (900, 200)),
            Reply::text("never sent"),
        ],
    );
    let out = ask(
        dir.path(),
        &repo,
        &server,
        "What does last() return on an empty cache?",
        &["--budget", "1000"],
    );
    let (stdout, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(4), "{stdout}\n{stderr}");
    assert!(stderr.contains("budget"), "{stderr}");
    assert!(stdout.contains("Reading the cache first."), "{stdout}");
    assert_eq!(
        server.requests().len(),
        1,
        "the hard cap stops the next turn"
    );
    let state = state(dir.path());
    let thread = &state["threads"][0];
    assert_eq!(thread["state"]["state"], "failed", "{thread}");
    assert!(
        thread["state"]["reason"]
            .as_str()
            .unwrap()
            .contains("budget"),
        "{thread}"
    );
    assert_eq!(
        thread["question"],
        "What does last() return on an empty cache?"
    );
    assert_eq!(thread["answer"], "Reading the cache first.");
    assert!(
        thread.get("finding").is_none(),
        "a question about the whole change"
    );
}

#[test]
fn asking_without_a_model_says_how_to_configure_one() {
    let dir = tempfile::tempdir().unwrap();
    let repo = crate::models::repository(false);
    reviewed(dir.path(), &repo);
    let out = binary(dir.path())
        .args(["ask", &reference(&repo), "Why?"])
        .output()
        .unwrap();
    let (stdout, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(7), "{stdout}\n{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.contains("no model provider is configured"),
        "{stderr}"
    );
    assert!(stderr.contains("--model-url"), "{stderr}");
    assert!(stdout.is_empty(), "{stdout}");
    // An unknown finding is an error (4), said in one line.
    let server = OpenAiServer::start();
    let out = ask(
        dir.path(),
        &repo,
        &server,
        "Why?",
        &["--finding", "engineer-99"],
    );
    let (_, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(4), "{stderr}");
    assert!(stderr.contains("no finding engineer-99"), "{stderr}");
    assert!(server.requests().is_empty());
}

#[test]
fn a_persons_p1_moves_the_verdict_and_is_published_while_no_thread_is() {
    let dir = tempfile::tempdir().unwrap();
    let repo = crate::models::repository(false);
    let report = reviewed(dir.path(), &repo);
    assert_eq!(
        report["verdict"]["decision"], "ship",
        "{}",
        report["verdict"]
    );
    // A question first: its answer stays in the space, never in what is posted.
    let server = OpenAiServer::start();
    server.route(
        &marker("engineer", TASK),
        [Reply::text(
            "THREAD-ANSWER-MARKER: it panics on every call.",
        )],
    );
    let out = ask(
        dir.path(),
        &repo,
        &server,
        "THREAD-QUESTION-MARKER does it panic?",
        &[],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out).1);

    let out = binary(dir.path())
        .args(["comment", &reference(&repo)])
        .arg("last() reads one past the end\nIndexing with len() panics on every call.")
        .args([
            "--at",
            "src/cache.rs:10-11",
            "--priority",
            "P1",
            "--kind",
            "bug",
        ])
        .output()
        .unwrap();
    let (stdout, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(5), "Hold: {stdout}\n{stderr}");
    assert!(stderr.contains("person-1 saved"), "{stderr}");
    assert!(stdout.starts_with("HOLD"), "{stdout}");
    let state = state(dir.path());
    let mine = node(&state, "person-1");
    assert_eq!(mine["origin"]["source"], "person");
    assert_eq!(mine["origin"]["reviewer"], "tester");
    assert_eq!(mine["priority"], "P1");
    assert!(!mine["fingerprint"].as_str().unwrap().is_empty());

    // A local publish of the recorded round posts the person's finding, inline, by name.
    let out = binary(dir.path())
        .arg(reference(&repo))
        .args([
            "--headless",
            "--deterministic-only",
            "--publish",
            "--format",
            "json",
        ])
        .output()
        .unwrap();
    let (stdout, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(5), "{stderr}");
    let report: Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(report["verdict"]["decision"], "hold");
    let posted =
        std::fs::read_to_string(state_path(dir.path()).with_file_name("review.md")).unwrap();
    assert!(posted.contains("last() reads one past the end"), "{posted}");
    assert!(posted.contains("tester"), "{posted}");
    for thread_text in ["THREAD-ANSWER-MARKER", "THREAD-QUESTION-MARKER"] {
        assert!(!posted.contains(thread_text), "{posted}");
    }

    // Deleted, it no longer counts.
    let out = binary(dir.path())
        .args(["comment", &reference(&repo), "--delete", "person-1"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out).1);
    // Another's finding cannot be deleted as the person's.
    let out = binary(dir.path())
        .args(["comment", &reference(&repo), "--delete", "engineer-1"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(4), "{}", text(&out).1);
}

#[test]
fn a_kill_while_an_answer_streams_leaves_the_question_and_a_reopen_marks_it_interrupted() {
    let dir = tempfile::tempdir().unwrap();
    let repo = crate::models::repository(false);
    reviewed(dir.path(), &repo);
    let server = OpenAiServer::start();
    server.route(
        &marker("engineer", TASK),
        [
            reads_the_cache("First I read the cache.", (100, 20)),
            Reply::Hang,
        ],
    );
    let mut child = binary(dir.path())
        .args(["ask", &reference(&repo), "Is last() safe?"])
        .args([
            "--model-url",
            &server.base_url(),
            "--model",
            "scripted-model",
        ])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    // Killed once the first part of the answer is on disk and the second is awaited.
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        let on_disk = find_state(&dir.path().join("data"))
            .and_then(|p| std::fs::read_to_string(p).ok())
            .and_then(|t| serde_json::from_str::<Value>(&t).ok())
            .is_some_and(|s| s["threads"][0]["answer"] == "First I read the cache.");
        if on_disk && server.requests().len() == 2 {
            break;
        }
        assert!(Instant::now() < deadline, "the answer never started");
        std::thread::sleep(Duration::from_millis(50));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let killed = state(dir.path());
    assert_eq!(killed["threads"][0]["state"]["state"], "answering");

    // The next session (another question) finds it and marks it interrupted, kept whole.
    server.route(&marker("engineer", TASK), [Reply::text("Yes, now.")]);
    let out = ask(dir.path(), &repo, &server, "And now?", &[]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out).1);
    let reopened = state(dir.path());
    let first = &reopened["threads"][0];
    assert_eq!(first["state"]["state"], "interrupted", "{first}");
    assert_eq!(first["question"], "Is last() safe?");
    assert_eq!(first["answer"], "First I read the cache.");
    assert_eq!(reopened["threads"][1]["id"], "ask-2");
    assert_eq!(reopened["threads"][1]["state"]["state"], "answered");
}

/// The demo reviewed headless, then its cockpit in tmux at `width`×`height`: ask about a
/// finding and about the whole change (the demo's recorded answers), accept a reviewer's
/// withdrawal and undo it, add a P1 of one's own on a range of the diff, publish locally.
fn walk_the_room_in_the_cockpit(width: u16, height: u16) {
    let dir = tempfile::tempdir().unwrap();
    let dir = dir.path();
    let no_config = dir.join("no-config.toml");
    let mut headless = review_tui();
    headless
        .args(["--demo", "--headless"])
        .env("REVIEW_TUI_DATA_DIR", dir.join("data"))
        .env("REVIEW_TUI_CONFIG", &no_config);
    for var in [
        "OPENAI_API_KEY",
        "OPENAI_BASE_URL",
        "ANTHROPIC_API_KEY",
        "OLLAMA_HOST",
    ] {
        headless.env_remove(var);
    }
    assert_eq!(headless.output().unwrap().status.code(), Some(6));
    // The person's editor: it makes a P1 a P0 and adds a line, as a person would.
    let editor = dir.join("editor.sh");
    std::fs::write(
        &editor,
        "#!/bin/sh\nsed -i 's/^P1 bug:/P0 bug:/' \"$1\"\nprintf 'FROM-THE-EDITOR\\n' >> \"$1\"\n",
    )
    .unwrap();
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&editor, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let tmux = cockpit_in_tmux(
        &format!("room-{width}"),
        "--demo",
        dir,
        &no_config,
        (width, height),
        &[("EDITOR", editor.as_path()), ("VISUAL", Path::new(""))],
    );
    let state = || state(dir);
    let select = |filter: &str| select(&tmux, filter);
    tmux.wait_for("the resumed review", |s| s.contains("BLOCK"));

    // A question on the engineer's finding: the recorded answer streams into the detail.
    select("expired bearer");
    tmux.keys(&["a"]);
    tmux.wait_for("the question box", |s| s.contains("Ask about"));
    tmux.text("Why does the refresh not help?");
    // ctrl-e: the question goes on in the person's editor, and the box comes back with it.
    tmux.keys(&["C-e"]);
    tmux.wait_for("the box back from the editor", |s| {
        s.contains("FROM-THE-EDITOR") && s.contains("Ask about")
    });
    tmux.keys(&["C-s"]);
    tmux.wait_for("the answer", |s| {
        s.contains("engineer answered") && s.contains("answered")
    });
    let thread = wait_until("the thread in state.json", || {
        let state = state();
        let thread = state["threads"].as_array()?.first()?.clone();
        (thread["state"]["state"] == "answered").then_some(thread)
    });
    assert_eq!(thread["finding"], "engineer-1", "{thread}");
    assert_eq!(
        thread["question"], "Why does the refresh not help?\nFROM-THE-EDITOR",
        "{thread}"
    );
    assert!(
        thread["answer"]
            .as_str()
            .unwrap()
            .contains("the refresh never helps"),
        "{thread}"
    );

    // QA proposes to withdraw its finding: nothing changes until it is accepted; undo works.
    // (No esc before a key: a terminal reads esc and the next key as alt and that key.)
    select("No test covers");
    tmux.keys(&["a"]);
    tmux.wait_for("the question box", |s| s.contains("Ask about"));
    tmux.text("Is this gap real?");
    tmux.keys(&["C-s"]);
    tmux.wait_for("the proposal", |s| s.contains("qa proposes to withdraw"));
    assert_eq!(node(&state(), "qa-2")["status"], "open");
    tmux.keys(&["Y"]);
    // Shown at once as the person's dismissal (the list's status column).
    tmux.wait_for("the acceptance", |s| s.contains("dismissed"));
    wait_until("qa-2 dismissed in state.json", || {
        (node(&state(), "qa-2")["status"] == "dismissed").then_some(())
    });
    let reason = node(&state(), "qa-2")["history"]
        .as_array()
        .unwrap()
        .last()
        .unwrap()["reason"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(reason.contains("qa proposes to withdraw"), "{reason}");
    tmux.keys(&["u"]);
    // Undone exactly: the finding open again and the proposal waiting for an answer again.
    wait_until("qa-2 reopened in state.json, its proposal open", || {
        let state = state();
        let proposal = state["threads"]
            .as_array()?
            .iter()
            .find(|t| t["finding"] == "qa-2")?["proposal"]
            .clone();
        (node(&state, "qa-2")["status"] == "open" && proposal["accepted"].is_null()).then_some(())
    });

    // A question about the whole change.
    tmux.keys(&["A"]);
    tmux.wait_for("the question box", |s| s.contains("whole change"));
    tmux.text("Where should I start reading?");
    tmux.keys(&["C-s"]);
    wait_until("the general thread", || {
        let state = state();
        state["threads"]
            .as_array()?
            .iter()
            .find(|t| t.get("finding").is_none() && t["state"]["state"] == "answered")
            .map(|_| ())
    });

    // A P1 of one's own on two lines of the diff.
    select("expired bearer");
    tmux.keys(&["d"]);
    tmux.wait_for("the diff view", |s| s.contains(" Diff · "));
    // The cursor opens on the finding's line: a range from it to the next line.
    tmux.keys(&["V", "j", "C"]);
    tmux.wait_for("the comment box", |s| s.contains("Your comment at"));
    tmux.text("P1 bug: the retry keeps the old token");
    tmux.keys(&["C-s"]);
    // The diff view marks it at once (its footer names the finding under the cursor).
    tmux.wait_for("the comment added", |s| {
        s.contains("the retry keeps the old token")
    });
    let mine = wait_until("the person's finding in state.json", || {
        let state = state();
        state["nodes"]
            .as_array()?
            .iter()
            .find(|n| n["origin"]["source"] == "person")
            .cloned()
    });
    assert_eq!(mine["priority"], "P1");
    assert_eq!(mine["origin"]["reviewer"], "tester");
    assert_eq!(mine["text"]["title"], "the retry keeps the old token");
    tmux.keys(&["d"]);
    tmux.wait_for("the diff view closed", |s| s.contains("Findings ("));

    // Edited in the editor (`E` on one's own finding: its words, priority and kind), then
    // the edit undone.
    select("retry keeps");
    tmux.keys(&["E"]);
    tmux.wait_for("the finding's box back from the editor", |s| {
        s.contains("P0 bug: the retry keeps") && s.contains("FROM-THE-EDITOR")
    });
    tmux.keys(&["C-s"]);
    wait_until("the edit in state.json", || {
        (node(&state(), "person-1")["priority"] == "P0").then_some(())
    });
    tmux.keys(&["u"]);
    wait_until("the edit undone in state.json", || {
        let state = state();
        let mine = node(&state, "person-1");
        let body = mine["text"]["body"].as_str().unwrap_or("");
        (mine["priority"] == "P1" && body.is_empty()).then_some(())
    });

    // Published locally: the person's finding is in it, the threads are not.
    tmux.keys(&["g"]);
    tmux.wait_for("the gate", |s| s.contains("Approval gate"));
    tmux.keys(&["p"]);
    tmux.wait_for("the preview", |s| s.contains("REQUEST_CHANGES"));
    tmux.keys(&["Enter"]);
    tmux.wait_for("the publish", |s| s.contains("published:"));
    tmux.keys(&["q"]);
    assert_eq!(tmux.exit_code(&dir.join("exit")), 6);
    let space = state_path(dir).parent().unwrap().to_path_buf();
    let posted = std::fs::read_to_string(space.join("review.md")).unwrap();
    assert!(posted.contains("the retry keeps the old token"), "{posted}");
    for thread_text in [
        "Where should I start reading?",
        "the refresh never helps",
        "Is this gap real?",
    ] {
        assert!(!posted.contains(thread_text), "{posted}");
    }
}

#[test]
fn the_room_in_the_cockpit_at_120x40() {
    walk_the_room_in_the_cockpit(120, 40);
}

#[test]
fn the_room_in_the_cockpit_at_80x24() {
    walk_the_room_in_the_cockpit(80, 24);
}

/// The pids of `parent`'s children.
fn children(parent: u32) -> Vec<u32> {
    let out = Command::new("pgrep")
        .args(["-P", &parent.to_string()])
        .output()
        .unwrap();
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| l.trim().parse().ok())
        .collect()
}

/// A local range reviewed with the scripted model server, then its cockpit in tmux at
/// `width`×`height`: a question on the engineer's finding whose answer is still coming while
/// the keys work, its withdrawal proposal accepted and undone, a question about the whole
/// change, a P1 of one's own on a range of the diff that moves the verdict, a local publish
/// with the person's comment and no thread text, and a kill -9 while an answer streams: the
/// reopened cockpit shows the thread interrupted.
fn walk_the_room_on_a_local_range(width: u16, height: u16) {
    let dir = tempfile::tempdir().unwrap();
    let dir = dir.path();
    let repo = crate::models::repository(false);
    let server = OpenAiServer::start();
    crate::models::one_engineer_bug(&server, "P2");
    crate::models::pass_defaults(&server);
    let first = crate::models::review_in(dir, &repo, Some(&server), "", &[]);
    let decision = first.report["verdict"]["decision"].clone();
    assert_ne!(decision, "hold", "{}\n{}", first.report, first.stderr);
    let asked = finding_at(&first.report, "src/cache.rs", 11);

    // The first answer reads a file, then takes a moment (the keys are tried meanwhile) and
    // proposes to withdraw the finding; the second answers the whole change.
    server.route(
        &marker("engineer", TASK),
        [
            Reply::tool_calls(&[("read_file", json!({"path": "src/cache.rs"}))]),
            Reply::fault(
                crate::support::faults::Fault::Late {
                    after: Duration::from_secs(3),
                },
                Reply::tool_calls(&[(
                    "propose_change",
                    json!({"finding_id": asked, "action": "withdraw",
                           "reason": "last() checks for an empty cache first"}),
                )]),
            ),
            Reply::text("THREAD-ANSWER-MARKER: the caller checks first."),
            Reply::text("THREAD-CHANGE-MARKER: start with src/cache.rs."),
            // The answer the kill interrupts: a first part, then nothing.
            reads_the_cache("KILLED-ANSWER-MARKER", (100, 20)),
            Reply::Hang,
        ],
    );
    let config = crate::models::config(dir, "");
    let args = format!(
        "'{}' --model-url {} --model scripted-model",
        reference(&repo),
        server.base_url()
    );
    let tmux = cockpit_in_tmux(
        &format!("room-local-{width}"),
        &args,
        dir,
        &config,
        (width, height),
        &[],
    );
    tmux.keep_dead_panes();
    let select = |filter: &str| select(&tmux, filter);
    let shown = decision.as_str().unwrap().to_uppercase();
    tmux.wait_for("the resumed review", |s| s.contains(&shown));

    // Asked; while the answer is still coming the keys work (help opens and closes).
    select("last() indexes");
    tmux.keys(&["a"]);
    tmux.wait_for("the question box", |s| s.contains("Ask about"));
    tmux.text("Is this real?");
    tmux.keys(&["C-s"]);
    tmux.wait_for("the answer coming", |s| s.contains("answering"));
    tmux.keys(&["?"]);
    tmux.wait_for("the help, while the answer comes", |s| {
        s.contains("any other key closes")
    });
    tmux.keys(&["Escape"]);
    tmux.wait_for("the help closed", |s| !s.contains("any other key closes"));
    tmux.wait_for("the proposal", |s| {
        s.contains("engineer proposes to withdraw")
    });
    wait_until("the answer in state.json", || {
        let state = state(dir);
        let thread = state["threads"].as_array()?.first()?.clone();
        (thread["state"]["state"] == "answered").then_some(())
    });

    // Accepted: the finding is dismissed; undone: open again, the proposal waiting again.
    tmux.keys(&["Y"]);
    wait_until("the withdrawal accepted in state.json", || {
        (node(&state(dir), &asked)["status"] == "dismissed").then_some(())
    });
    tmux.keys(&["u"]);
    wait_until("the acceptance undone in state.json", || {
        let state = state(dir);
        let proposal = state["threads"][0]["proposal"].clone();
        (node(&state, &asked)["status"] == "open" && proposal["accepted"].is_null()).then_some(())
    });

    // A question about the whole change.
    tmux.keys(&["A"]);
    tmux.wait_for("the question box", |s| s.contains("whole change"));
    tmux.text("Where should I start reading?");
    tmux.keys(&["C-s"]);
    wait_until("the general thread", || {
        let state = state(dir);
        state["threads"]
            .as_array()?
            .iter()
            .find(|t| t.get("finding").is_none() && t["state"]["state"] == "answered")
            .map(|_| ())
    });

    // A P1 of one's own on two lines of the diff: the verdict holds.
    select("last() indexes");
    tmux.keys(&["d"]);
    tmux.wait_for("the diff view", |s| s.contains(" Diff · "));
    tmux.keys(&["V", "j", "C"]);
    tmux.wait_for("the comment box", |s| s.contains("Your comment at"));
    tmux.text("P1 bug: the cache grows without bound");
    tmux.keys(&["C-s"]);
    tmux.wait_for("the comment added", |s| s.contains("grows without bound"));
    tmux.keys(&["d"]);
    tmux.wait_for("the verdict moved", |s| {
        s.contains("Findings (") && s.contains("HOLD")
    });

    // Published locally: the person's finding is in it, the threads are not.
    tmux.keys(&["g"]);
    tmux.wait_for("the gate", |s| s.contains("Approval gate"));
    tmux.keys(&["p"]);
    // The preview itself, not the box that says it is being prepared (also titled Publish):
    // enter publishes only what is on screen.
    tmux.wait_for("the preview", |s| s.contains("enter publish exactly this"));
    tmux.keys(&["Enter"]);
    tmux.wait_for("the publish", |s| s.contains("published:"));
    let space = state_path(dir).parent().unwrap().to_path_buf();
    let posted = std::fs::read_to_string(space.join("review.md")).unwrap();
    assert!(posted.contains("the cache grows without bound"), "{posted}");
    for thread_text in [
        "Is this real?",
        "THREAD-ANSWER-MARKER",
        "THREAD-CHANGE-MARKER",
        "Where should I start reading?",
    ] {
        assert!(!posted.contains(thread_text), "{posted}");
    }

    // Killed (-9) while an answer streams: the reopened cockpit shows the thread interrupted.
    select("last() indexes");
    tmux.keys(&["a"]);
    tmux.wait_for("the question box", |s| s.contains("Ask about"));
    tmux.text("And when it is empty?");
    tmux.keys(&["C-s"]);
    wait_until("the first part of the answer on disk", || {
        let state = state(dir);
        state["threads"]
            .as_array()?
            .iter()
            .find(|t| t["answer"] == "KILLED-ANSWER-MARKER" && t["state"]["state"] == "answering")
            .map(|_| ())
    });
    let (shell, _) = tmux.pane_process();
    let pids = children(shell);
    assert!(!pids.is_empty(), "no review-tui under the pane's shell");
    for pid in pids {
        let _ = Command::new("kill").args(["-9", &pid.to_string()]).status();
    }
    tmux.respawn(&cockpit_command(&args, &dir.join("exit")));
    // No key before the cockpit is drawn: at its start the terminal is asked where the
    // cursor is, and a key then would be read as the answer.
    tmux.wait_for("the reopened cockpit", |s| s.contains("Findings ("));
    select("last() indexes");
    // The detail, zoomed: the threads follow the finding's heading.
    tmux.wait_for("the finding's threads", |s| s.contains("tester asked"));
    tmux.keys(&["2", "z"]);
    tmux.wait_for("the interrupted thread", |s| s.contains("interrupted"));
    let reopened = state(dir);
    let killed = reopened["threads"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["question"] == "And when it is empty?")
        .unwrap_or_else(|| panic!("the question was lost: {reopened}"));
    assert_eq!(killed["state"]["state"], "interrupted", "{killed}");
    assert_eq!(killed["answer"], "KILLED-ANSWER-MARKER", "{killed}");
    tmux.keys(&["q"]);
}

#[test]
fn the_room_on_a_local_range_at_120x40() {
    walk_the_room_on_a_local_range(120, 40);
}

#[test]
fn the_room_on_a_local_range_at_80x24() {
    walk_the_room_on_a_local_range(80, 24);
}

/// A question asked while a review round runs waits for the round (the round has the space
/// until it ends) and is asked when it ends; meanwhile the keys work and the question is kept.
#[test]
fn a_question_asked_while_the_round_runs_is_asked_when_it_ends() {
    let dir = tempfile::tempdir().unwrap();
    let dir = dir.path();
    let repo = crate::models::repository(false);
    let server = OpenAiServer::start();
    // The engineer never answers its review: the round runs until it is stopped.
    server.route(&marker("engineer", "review"), [Reply::Hang]);
    for role in ["qa", "architect", "security", "performance"] {
        server.route(&marker(role, "review"), [crate::models::finish("nothing")]);
    }
    crate::models::pass_defaults(&server);
    server.route(
        &marker("engineer", TASK),
        [Reply::text(
            "QUEUED-ANSWER-MARKER: start with src/cache.rs.",
        )],
    );
    let config = crate::models::config(dir, "");
    let args = format!(
        "'{}' --force --model-url {} --model scripted-model",
        reference(&repo),
        server.base_url()
    );
    let tmux = cockpit_in_tmux("room-queued", &args, dir, &config, (120, 40), &[]);
    // The round waits for the engineer, which never answers.
    tmux.wait_for("the cockpit", |s| s.contains("Findings ("));
    wait_until("the engineer's review asked", || {
        server
            .requests()
            .iter()
            .any(|r| r.body.to_string().contains(&marker("engineer", "review")))
            .then_some(())
    });
    tmux.keys(&["A"]);
    tmux.wait_for("the question box", |s| s.contains("whole change"));
    tmux.text("Where should I start reading?");
    tmux.keys(&["C-s"]);
    tmux.wait_for("the question waiting", |s| {
        s.contains("answers when the review round ends")
    });
    // Not asked yet: the model has not seen it.
    assert!(
        !server
            .requests()
            .iter()
            .any(|r| r.body.to_string().contains(&marker("engineer", TASK))),
        "asked before the round ended"
    );
    // The round is stopped; the question is asked and answered.
    tmux.keys(&["X", "X"]);
    let thread = wait_until("the waiting question answered in state.json", || {
        let state = state(dir);
        state["threads"]
            .as_array()?
            .iter()
            .find(|t| t["state"]["state"] == "answered")
            .cloned()
    });
    assert_eq!(
        thread["question"], "Where should I start reading?",
        "{thread}"
    );
    assert!(
        thread["answer"]
            .as_str()
            .unwrap()
            .starts_with("QUEUED-ANSWER-MARKER"),
        "{thread}"
    );
    // One thread: the waiting one was taken up, not asked twice.
    assert_eq!(state(dir)["threads"].as_array().unwrap().len(), 1);
    tmux.keys(&["q"]);
}

/// A person's own finding follows a push like a model's blocking one: its lines moved, it is
/// re-anchored on them; its lines gone, it says so and still counts (only the person takes it
/// out).
#[test]
fn a_persons_finding_is_re_anchored_after_a_push_and_kept_when_its_lines_go() {
    let dir = tempfile::tempdir().unwrap();
    let dir = dir.path();
    let repo = crate::models::repository(false);
    let round = |server: &OpenAiServer| {
        crate::models::one_engineer_bug(server, "P3");
        crate::models::pass_defaults(server);
        crate::models::review_in(dir, &repo, Some(server), "", &[])
    };
    let first = round(&OpenAiServer::start());
    assert_eq!(
        first.report["verdict"]["decision"], "ship",
        "{}",
        first.report
    );
    let out = binary(dir)
        .args(["comment", &reference(&repo)])
        .arg("last() reads one past the end")
        .args([
            "--at",
            "src/cache.rs:11",
            "--priority",
            "P1",
            "--kind",
            "bug",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(5), "{}", text(&out).1);
    // The feature branch's cache, checked out to be changed and pushed.
    let feature = |repo: &GitRepo| {
        repo.git(&["checkout", "--quiet", "feature"]);
        std::fs::read_to_string(repo.path().join("src/cache.rs")).unwrap()
    };
    let push = |text: &str, message: &str| {
        repo.write("src/cache.rs", text);
        repo.commit_all(message);
        repo.git(&["checkout", "--quiet", "main"]);
    };
    // Two lines above: the commented line is now line 13.
    let cache = feature(&repo);
    push(
        &format!("//! A small cache.\n//! Newest last.\n{cache}"),
        "Document",
    );
    let second = round(&OpenAiServer::start());
    assert_eq!(
        second.code, 5,
        "still held: {}\n{}",
        second.report, second.stderr
    );
    let moved = state(dir);
    let mine = node(&moved, "person-1");
    assert_eq!(mine["anchor"]["start_line"], 13, "{mine}");
    assert_eq!(mine["status"], "open");

    // The line goes: said so on the finding, which stays open and counted.
    let cache = feature(&repo);
    let without: String = cache
        .lines()
        .filter(|l| !l.contains("self.items.len()]"))
        .map(|l| format!("{l}\n"))
        .collect();
    assert_ne!(without, cache);
    push(&without, "Drop the bad index");
    let third = round(&OpenAiServer::start());
    assert_eq!(
        third.code, 5,
        "still held: {}\n{}",
        third.report, third.stderr
    );
    let gone = state(dir);
    let mine = node(&gone, "person-1");
    assert_eq!(mine["status"], "open", "{mine}");
    let said = mine["history"].as_array().unwrap().last().unwrap()["reason"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    assert!(said.contains("anchor gone at"), "{mine}");
}

/// A reclassification the person accepts in the cockpit is theirs, and it stays with its
/// problem: after a push, the next round finds the key again as P0 and carries the person's P3.
#[test]
fn a_reclassification_accepted_in_the_cockpit_follows_its_finding_into_the_next_round() {
    let dir = tempfile::tempdir().unwrap();
    let dir = dir.path();
    let repo = crate::models::repository(true);
    let report = reviewed(dir, &repo);
    let asked = finding_at(&report, "src/keys.rs", 2);
    let found = report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["id"] == asked.as_str())
        .unwrap()
        .clone();
    assert_eq!(found["priority"], "P0", "{found}");
    let server = OpenAiServer::start();
    server.route(
        &marker("security", TASK),
        [
            Reply::tool_calls(&[(
                "propose_change",
                json!({"finding_id": asked, "action": "reclassify", "priority": "P3",
                       "kind": "suggestion", "reason": "a documented example key"}),
            )]),
            Reply::text("It is the documented example key."),
        ],
    );
    let out = ask(
        dir,
        &repo,
        &server,
        "Is this key live?",
        &["--finding", &asked, "--role", "security"],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out).1);
    assert_eq!(node(&state(dir), &asked)["priority"], "P0");

    let config = crate::models::config(dir, "");
    let args = format!("'{}' --deterministic-only", reference(&repo));
    let tmux = cockpit_in_tmux("room-reclassify", &args, dir, &config, (120, 40), &[]);
    tmux.keep_dead_panes();
    tmux.wait_for("the resumed review", |s| {
        s.contains("Findings (") && s.contains("q quit")
    });
    let title = found["title"].as_str().unwrap();
    select(&tmux, title);
    // The filter keeps the access key id's finding too (line 1): the secret's is the next row.
    if !tmux.screen().contains("P0 · src/keys.rs:2") {
        tmux.keys(&["j"]);
    }
    tmux.wait_for("the secret's finding", |s| s.contains("P0 · src/keys.rs:2"));
    tmux.wait_for("the proposal", |s| s.contains("security proposes"));
    tmux.keys(&["Y"]);
    wait_until("the reclassification in state.json", || {
        (node(&state(dir), &asked)["priority"] == "P3").then_some(())
    });
    tmux.keys(&["q"]);
    let _ = tmux.exit_code(&dir.join("exit"));

    // A push: the next round reviews a new head, where the scan finds the key again as P0.
    repo.git(&["checkout", "--quiet", "feature"]);
    repo.write("README.md", "A cache.\n");
    repo.commit_all("Document the cache");
    repo.git(&["checkout", "--quiet", "main"]);
    let next = reviewed(dir, &repo);
    let again = next["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["anchor"]["path"] == "src/keys.rs" && f["anchor"]["start_line"] == 2)
        .unwrap_or_else(|| panic!("the key again: {}", next["findings"]))
        .clone();
    assert_ne!(next["pr"]["head"]["sha"], report["pr"]["head"]["sha"]);
    assert_ne!(
        next["round"]["number"], report["round"]["number"],
        "{}",
        next["round"]
    );
    assert_eq!(again["priority"], "P3", "{again}");
    assert_eq!(again["kind"], "suggestion", "{again}");
}
