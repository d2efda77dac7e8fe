//! `review-tui inbox`: the search API with pagination, a requested team review, a PR with new
//! commits since my round, a closed PR disappearing, and `--review-all` (one failure, one
//! skip, a kill -9 in the middle) against the GitHub test server.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::Arc;

use serde_json::Value;

use crate::cli::review_tui;
use crate::support::git_repo::pr_repository;
use crate::support::github_inbox_server::{InboxPull, InboxServer, Requested};
use crate::support::github_server::{GithubServer, PullSpec};

const TOKEN: &str = "ghp_inboxcanary0123456789";
const ME: &str = "reviewer";

fn command(data: &Path, server: &InboxServer) -> Command {
    let mut command = review_tui();
    command
        .env("REVIEW_TUI_DATA_DIR", data)
        .env("REVIEW_TUI_CONFIG", data.join("no-config.toml"))
        .env("GH_TOKEN", TOKEN)
        .env_remove("GITHUB_API_URL")
        .env_remove("GITHUB_TOKEN")
        .env_remove("GITLAB_TOKEN")
        .env_remove("OPENAI_API_KEY")
        .env_remove("ANTHROPIC_API_KEY")
        .env_remove("OLLAMA_HOST")
        .env_remove("OPENAI_BASE_URL")
        .env("NO_COLOR", "1");
    let _ = server;
    command
}

/// `review-tui inbox ARGS --api-url SERVER`.
fn inbox(data: &Path, server: &InboxServer, args: &[&str]) -> Command {
    let mut command = command(data, server);
    command
        .arg("inbox")
        .args(args)
        .args(["--api-url", server.url()]);
    command
}

/// PR `n` of its own repository `acme/app<n>`, waiting for the reason given.
fn pull(n: u64, requested: Requested) -> InboxPull {
    let repo = pr_repository();
    repo.git(&["update-ref", &format!("refs/pull/{n}/head"), "feature"]);
    let mut spec = PullSpec::from_repo(&repo, "acme", &format!("app{n}"), n);
    spec.title = format!("Change number {n}");
    spec.author =
        crate::support::github_server::UserSpec::user(if requested == Requested::Authored {
            ME
        } else {
            "octocat"
        });
    InboxPull {
        server: Arc::new(GithubServer::start(repo, spec)),
        requested,
        updated_at: format!("2026-02-0{n}T10:00:00Z"),
    }
}

fn url_of(n: u64) -> String {
    format!("https://github.example/acme/app{n}/pull/{n}")
}

fn inbox_json(data: &Path, server: &InboxServer) -> Value {
    let out = inbox(data, server, &["--format", "json"]).output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("{e}: {stdout}"))
}

/// The user's config for a self-hosted forge's inbox: `host` with its API and its own token
/// variable (no other host ever gets the token), a second named host where nothing listens,
/// and quick retries; `extra` is appended (an `[inbox]` scope).
pub(crate) fn self_hosted_config(
    dir: &Path,
    section: &str,
    host: &str,
    api: &str,
    token_env: &str,
    extra: &str,
) -> std::path::PathBuf {
    let path = dir.join("inbox.toml");
    let api_path = api.split_once("/api/").map_or("", |(_, rest)| rest);
    std::fs::write(
        &path,
        format!(
            "[{section}]\nhosts = [\"{host}\", \"127.0.0.1:9\"]\nmax_attempts = 2\nbackoff = \"10ms\"\nrequest_timeout = \"5s\"\n\n[{section}.host.\"{host}\"]\napi_url = \"{api}\"\ntoken_env = \"{token_env}\"\n\n[{section}.host.\"127.0.0.1:9\"]\napi_url = \"http://127.0.0.1:9/api/{api_path}\"\ntoken_env = \"{token_env}\"\n{extra}"
        ),
    )
    .unwrap();
    path
}

/// `review-tui inbox --format json` as `command` runs it, with no forge's token but what
/// `command` sets: exit 0, `token` printed nowhere, the list.
pub(crate) fn printed_list(mut command: Command, token: &str) -> Value {
    command.args(["inbox", "--format", "json"]);
    for var in [
        "GH_TOKEN",
        "GITHUB_TOKEN",
        "GITLAB_TOKEN",
        "GITEA_TOKEN",
        "FORGEJO_TOKEN",
    ] {
        command.env_remove(var);
    }
    let out = command.output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stdout}{stderr}");
    assert!(!stdout.contains(token) && !stderr.contains(token));
    serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("{e}: {stdout}"))
}

/// The rows of `forge` (its name) in `section`.
pub(crate) fn forge_rows<'a>(list: &'a Value, section: &str, forge: &str) -> Vec<&'a Value> {
    rows(list, section)
        .into_iter()
        .filter(|r| r["forge"] == forge)
        .collect()
}

fn rows<'a>(list: &'a Value, section: &str) -> Vec<&'a Value> {
    list["rows"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["section"] == section)
        .collect()
}

fn review(data: &Path, server: &InboxServer, n: u64) {
    let out = command(data, server)
        .args([&url_of(n), "--headless", "--deterministic-only"])
        .args(["--api-url", server.url()])
        .output()
        .unwrap();
    assert!(
        matches!(out.status.code(), Some(0 | 5 | 6)),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn the_inbox_pages_through_the_search_and_names_a_team_request_and_my_own_prs() {
    let server = InboxServer::start(
        ME,
        TOKEN,
        vec![
            pull(1, Requested::Me),
            pull(2, Requested::Team("core".into())),
            pull(3, Requested::Me),
            pull(4, Requested::Authored),
        ],
    );
    // Pages of one: three pages of review requests, read to the end.
    server.page_size(1);
    let dir = tempfile::tempdir().unwrap();
    let list = inbox_json(dir.path(), &server);
    assert_eq!(list["schema_version"], 1);
    let requested = rows(&list, "requested");
    let numbers: Vec<&str> = requested
        .iter()
        .map(|r| r["number"].as_str().unwrap())
        .collect();
    assert_eq!(numbers.len(), 3, "{list:#}");
    for n in ["#1", "#2", "#3"] {
        assert!(numbers.contains(&n), "{numbers:?}");
    }
    let team = requested.iter().find(|r| r["number"] == "#2").unwrap();
    assert_eq!(team["waiting"]["kind"], "team_requested", "{team:#}");
    assert_eq!(team["waiting"]["team"], "acme/core");
    let direct = requested.iter().find(|r| r["number"] == "#1").unwrap();
    assert_eq!(direct["waiting"]["kind"], "review_requested");
    assert_eq!(direct["repo"], "acme/app1");
    assert_eq!(direct["forge"], "GitHub");
    assert!(direct["additions"].as_u64().unwrap() > 0, "{direct:#}");
    let mine = rows(&list, "mine");
    assert_eq!(mine.len(), 1, "{list:#}");
    assert_eq!(mine[0]["number"], "#4");
    let searches = server.searches();
    assert!(
        searches
            .iter()
            .any(|q| q.contains("is:pr is:open review-requested:@me")),
        "{searches:?}"
    );
    assert!(
        searches.iter().any(|q| q.contains("author:@me")),
        "{searches:?}"
    );
    // Three pages of requests, one of mine.
    assert_eq!(searches.len(), 4, "{searches:?}");

    // A PR closed since: gone from the list at the next refresh.
    server.pull(0).update_pull(|p| p.state = "closed".into());
    let list = inbox_json(dir.path(), &server);
    let numbers: Vec<&str> = rows(&list, "requested")
        .iter()
        .map(|r| r["number"].as_str().unwrap())
        .collect();
    assert_eq!(numbers.len(), 2, "{numbers:?}");
    assert!(!numbers.contains(&"#1"), "{numbers:?}");
}

#[test]
fn a_pr_pushed_to_after_my_round_says_how_many_commits_are_new() {
    let server = InboxServer::start(ME, TOKEN, vec![pull(1, Requested::Me)]);
    let dir = tempfile::tempdir().unwrap();
    review(dir.path(), &server, 1);
    let list = inbox_json(dir.path(), &server);
    let row = rows(&list, "requested")[0].clone();
    assert_eq!(row["space"]["moved"], false, "{row:#}");
    assert_eq!(row["space"]["state"], "awaiting approval", "{row:#}");
    assert!(row["space"]["verdict"].is_string(), "{row:#}");

    server.pull(0).push(|repo| {
        repo.git(&["checkout", "--quiet", "feature"]);
        repo.write("src/new.rs", "pub fn new() {}\n");
        repo.commit_all("one more")
    });
    let list = inbox_json(dir.path(), &server);
    let row = rows(&list, "requested")[0].clone();
    assert_eq!(row["space"]["moved"], true, "{row:#}");
    assert_eq!(row["space"]["new_commits"], 1, "{row:#}");
    // The space's own row says the same, and the text form reads it out.
    let space = rows(&list, "spaces")[0].clone();
    assert_eq!(space["space"]["new_commits"], 1, "{space:#}");
    let out = inbox(dir.path(), &server, &["--format", "text"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("1 new commit since your round"), "{text}");
    assert!(text.contains("review requested (1)"), "{text}");
}

#[test]
fn offline_the_inbox_shows_the_cache_and_the_spaces_with_a_notice() {
    let server = InboxServer::start(ME, TOKEN, vec![pull(1, Requested::Me)]);
    let dir = tempfile::tempdir().unwrap();
    review(dir.path(), &server, 1);
    let list = inbox_json(dir.path(), &server);
    assert!(list["offline"].is_null(), "{list:#}");
    // The forge is gone: nothing answers on its address.
    let address = server.url().to_string();
    drop(server);
    // One try: the test is about what is shown, not about the retries.
    let config = dir.path().join("config.toml");
    std::fs::write(&config, "[github]\nmax_attempts = 1\n").unwrap();
    let out = review_tui()
        .env("REVIEW_TUI_DATA_DIR", dir.path())
        .env("REVIEW_TUI_CONFIG", &config)
        .env("GH_TOKEN", TOKEN)
        .env_remove("GITLAB_TOKEN")
        .env_remove("GITHUB_API_URL")
        .args(["inbox", "--format", "json", "--api-url", &address])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let list: Value = serde_json::from_str(&stdout).unwrap();
    assert!(
        list["offline"]
            .as_str()
            .is_some_and(|o| o.starts_with("offline")),
        "{list:#}"
    );
    assert_eq!(rows(&list, "requested").len(), 1, "{list:#}");
    assert_eq!(rows(&list, "spaces").len(), 1, "{list:#}");
}

/// Each space's completed rounds, by directory.
fn completed_rounds(data: &Path) -> Vec<(String, usize)> {
    let mut found = Vec::new();
    for n in 1..=5 {
        let dir = data
            .join("spaces/github-github.example/acme")
            .join(format!("app{n}"))
            .join(format!("pr-{n}"));
        let Ok(bytes) = std::fs::read(dir.join("state.json")) else {
            continue;
        };
        let state: Value = serde_json::from_slice(&bytes).expect("state.json is whole JSON");
        let done = state["rounds"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|r| r["completed"] == true)
            .count();
        found.push((format!("app{n}"), done));
    }
    found
}

#[test]
fn review_all_reviews_what_waits_reports_a_failure_and_skips_reviewed_heads() {
    let pulls: Vec<InboxPull> = (1..=5).map(|n| pull(n, Requested::Me)).collect();
    let server = InboxServer::start(ME, TOKEN, pulls);
    // PR 4's commits cannot be fetched.
    server
        .pull(3)
        .update_pull(|p| p.clone_url = "file:///nonexistent/review-tui/app4".into());
    let dir = tempfile::tempdir().unwrap();
    // PR 5 was reviewed at its head already.
    review(dir.path(), &server, 5);

    let run = || {
        inbox(
            dir.path(),
            &server,
            &[
                "--review-all",
                "--headless",
                "--jobs",
                "2",
                "--deterministic-only",
            ],
        )
        .output()
        .unwrap()
    };
    let out = run();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(4), "{stdout}{stderr}");
    let reviewed: Vec<&str> = stdout
        .lines()
        .filter(|l| l.starts_with("reviewed "))
        .collect();
    assert_eq!(reviewed.len(), 3, "{stdout}{stderr}");
    let skipped: Vec<&str> = stdout
        .lines()
        .filter(|l| l.starts_with("skipped "))
        .collect();
    assert_eq!(skipped.len(), 1, "{stdout}");
    assert!(skipped[0].contains("acme/app5#5"), "{stdout}");
    let errors: Vec<&str> = stderr
        .lines()
        .filter(|l| l.contains("acme/app4#4"))
        .collect();
    assert_eq!(errors.len(), 1, "{stderr}");
    assert!(
        stdout.contains("3 reviewed, 1 failed, 1 skipped"),
        "{stdout}"
    );
    // Never published: no review was posted anywhere.
    for i in 0..5 {
        let n = i + 1;
        let posted = server
            .pull(i)
            .requests_to(&format!("POST /repos/acme/app{n}/pulls/{n}/reviews"));
        assert!(posted.is_empty(), "app{n}: {posted:?}");
    }

    // Again: every reviewed head is skipped, the broken one fails again.
    let out = run();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        stdout.contains("0 reviewed, 1 failed, 4 skipped"),
        "{stdout}"
    );
    for (space, done) in completed_rounds(dir.path()) {
        assert_eq!(done, 1, "{space} was reviewed {done} times");
    }
}

#[test]
fn review_all_killed_in_the_middle_resumes_without_reviewing_anything_twice() {
    let pulls: Vec<InboxPull> = (1..=5).map(|n| pull(n, Requested::Me)).collect();
    let server = InboxServer::start(ME, TOKEN, pulls);
    let dir = tempfile::tempdir().unwrap();
    let mut child = inbox(
        dir.path(),
        &server,
        &[
            "--review-all",
            "--headless",
            "--jobs",
            "1",
            "--deterministic-only",
        ],
    )
    .stdout(Stdio::piped())
    .stderr(Stdio::null())
    .spawn()
    .unwrap();
    // Killed (SIGKILL: nothing of it runs again) as soon as its first PR is reviewed.
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let first = lines.next().and_then(Result::ok).unwrap_or_default();
    child.kill().unwrap();
    let _ = child.wait();
    assert!(first.starts_with("reviewed "), "{first}");
    let before: usize = completed_rounds(dir.path()).iter().map(|(_, n)| n).sum();
    assert!(before >= 1);

    let out = inbox(
        dir.path(),
        &server,
        &[
            "--review-all",
            "--headless",
            "--jobs",
            "2",
            "--deterministic-only",
        ],
    )
    .output()
    .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let skipped = stdout.lines().filter(|l| l.starts_with("skipped ")).count();
    assert_eq!(skipped, before, "{stdout}");
    let rounds = completed_rounds(dir.path());
    assert_eq!(rounds.len(), 5, "{rounds:?}");
    for (space, done) in rounds {
        assert_eq!(done, 1, "{space} was reviewed {done} times");
    }
}

/// The inbox in tmux at `width`×`height`: open it, filter down to one PR, open the cockpit on
/// it (its first round runs), triage, leave, and find the row showing the space's new state.
/// `flags` are the inbox's review flags: the review opened from it is run with them.
fn walk_the_inbox(width: u16, height: u16, flags: &str) {
    use crate::support::tmux::Tmux;
    if !crate::support::tmux::available("walk_the_inbox") {
        return;
    }
    let server = InboxServer::start(
        ME,
        TOKEN,
        vec![
            pull(1, Requested::Me),
            pull(2, Requested::Team("core".into())),
        ],
    );
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path();
    let exit = data.join("exit");
    let binary = env!("CARGO_BIN_EXE_review-tui");
    let tmux = Tmux::start(
        &format!("inbox-{width}"),
        &format!(
            "{binary} inbox {flags} --api-url {}; echo $? > {}; sleep 30",
            server.url(),
            exit.display()
        ),
        width,
        height,
        &[
            ("REVIEW_TUI_DATA_DIR", data),
            ("REVIEW_TUI_CONFIG", &data.join("no-config.toml")),
            ("REVIEW_TUI_PERSON", Path::new("tester")),
            ("GH_TOKEN", Path::new(TOKEN)),
        ],
    );
    tmux.wait_for("both requests, refreshed", |s| {
        s.contains("review requested (2)") && !s.contains("refreshing")
    });
    tmux.keys(&["/"]);
    tmux.text("app2");
    tmux.keys(&["Enter"]);
    let screen = tmux.wait_for("the filter", |s| s.contains("review requested (1)"));
    assert!(screen.contains("team acme/core"), "{screen}");
    assert!(!screen.contains("app1#1"), "{screen}");
    tmux.keys(&["Enter"]);
    // The cockpit on PR 2: its first round runs and is recorded.
    // (A wide header names the round's step elsewhere: the last reviewer done says it too.)
    let deterministic = flags.contains("--deterministic-only");
    // The header lists every step ("→ awaiting approval →") and says RUNNING until the round
    // ends: wait for the round's end, not for a word the step list always holds.
    let screen = tmux.wait_for("the round's verdict in the cockpit", |s| {
        !s.contains("RUNNING")
            && (s.contains("awaiting approval") || s.contains("secret scan done"))
            && ["SHIP", "HOLD", "BLOCK", "INCONCLUSIVE"]
                .iter()
                .any(|v| s.contains(v))
    });
    // Without models a round cannot count for the head; with `--deterministic-only` given to
    // the inbox, the review opened from it is the zero-token review the person asked for.
    assert_eq!(screen.contains("INCONCLUSIVE"), !deterministic, "{screen}");
    // Triage: the selected finding (if the checks found any) confirmed.
    tmux.keys(&["c"]);
    std::thread::sleep(std::time::Duration::from_millis(300));
    tmux.keys(&["q"]);
    let screen = tmux.wait_for("the inbox again, the row's space recorded", |s| {
        s.contains("Inbox") && s.contains("awaiting approval")
    });
    // The filter is kept, and the space shows in "my spaces" too.
    assert!(screen.contains("filter: app2"), "{screen}");
    assert!(screen.contains("my spaces (1)"), "{screen}");
    tmux.keys(&["q"]);
    assert_eq!(tmux.exit_code(&exit), 0);
}

#[test]
fn the_inbox_walk_at_80_by_24() {
    walk_the_inbox(80, 24, "");
}

#[test]
fn the_inbox_walk_at_120_by_40_opens_reviews_with_the_inboxs_flags() {
    walk_the_inbox(120, 40, "--deterministic-only");
}
