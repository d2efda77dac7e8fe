//! GitLab merge requests end to end: the real binary against the GitLab-like API on 127.0.0.1
//! (built from GitLab's API documentation, `support/gitlab_server.rs`), a real repository
//! holding `refs/merge-requests/7/head`. The feature branch plants an `unwrap()` (an
//! observation) and a fake AWS key (a blocking secret), which the deterministic reviewers find.

use std::path::Path;
use std::process::{Command, Output};
use std::time::{Duration, Instant};

use crate::cli::review_tui;
use crate::inbox::{forge_rows, printed_list, self_hosted_config};
use crate::publish::planted_repo;
use crate::support::faults::Fault;
use crate::support::gitlab_server::{GitlabServer, IID, PROJECT};

pub(crate) const TOKEN: &str = "glpat-GITLABcanary00000000";
const LOGIN: &str = "review-bot";
const AWS_KEY: &str = "AKIAZ4DEMQ7Q2LXWRT5W";
const SUMMARY: &str = "<!-- review-tui:summary -->";
const BASE_LIB: &str = "pub fn add(a: i32, b: i32) -> i32 {\n    a + b\n}\n";

fn feature_lib(with_key: bool, moved: bool) -> String {
    let mut text = String::new();
    if moved {
        text.push_str("//! Arithmetic and parsing.\n\n");
    }
    text.push_str(BASE_LIB);
    text.push_str("\npub fn port(text: &str) -> u16 {\n    text.parse().unwrap()\n}\n");
    if with_key {
        text.push_str(&format!("\npub const AWS_KEY: &str = \"{AWS_KEY}\";\n"));
    }
    text
}

pub(crate) fn start() -> GitlabServer {
    let server = GitlabServer::start(planted_repo(), "octocat");
    server.accept_token(TOKEN, LOGIN);
    server
}

/// The user's config: the server's host named under `[gitlab]`, its API, quick retries.
fn config(dir: &Path, server: &GitlabServer) -> std::path::PathBuf {
    let path = dir.join("config.toml");
    std::fs::write(
        &path,
        format!(
            "[gitlab]\nhosts = [\"{host}\"]\nmax_attempts = 3\nbackoff = \"10ms\"\nrequest_timeout = \"5s\"\n\n[gitlab.host.\"{host}\"]\napi_url = \"{api}\"\n",
            host = server.host(),
            api = server.api()
        ),
    )
    .unwrap();
    path
}

pub(crate) fn command(server: &GitlabServer, dir: &Path, extra: &[&str]) -> Command {
    let mut command = review_tui();
    command
        .arg(server.mr_url())
        .args(["--headless", "--deterministic-only"])
        // About what an approval does: the person chooses to approve a Ship no model read.
        .arg("--approve-without-models")
        .args(extra)
        .env("REVIEW_TUI_DATA_DIR", dir.join("data"))
        .env("REVIEW_TUI_CONFIG", config(dir, server))
        .env("GITLAB_TOKEN", TOKEN);
    for var in [
        "GH_TOKEN",
        "GITHUB_TOKEN",
        "GITHUB_API_URL",
        "OPENAI_API_KEY",
        "ANTHROPIC_API_KEY",
        "OLLAMA_HOST",
    ] {
        command.env_remove(var);
    }
    command
}

fn run(server: &GitlabServer, dir: &Path, extra: &[&str]) -> Output {
    command(server, dir, extra).output().unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn bulk_publish() -> String {
    GitlabServer::call("POST", "/draft_notes/bulk_publish")
}

/// Nothing secret posted or printed, every call with the token in `PRIVATE-TOKEN`.
fn assert_clean(server: &GitlabServer, outputs: &[&Output]) {
    for seen in server.seen() {
        assert!(!seen.body.to_string().contains(AWS_KEY), "{}", seen.call());
        assert_eq!(
            seen.private_token.as_deref(),
            Some(TOKEN),
            "{}",
            seen.call()
        );
        assert!(seen.authorization.is_none(), "{}", seen.call());
    }
    for note in server.mr().notes {
        assert!(!note.body.contains(AWS_KEY), "{}", note.body);
    }
    for out in outputs {
        for stream in [text(&out.stdout), text(&out.stderr)] {
            assert!(!stream.contains(AWS_KEY), "{stream}");
            assert!(!stream.contains(TOKEN), "{stream}");
        }
    }
}

#[test]
fn a_merge_request_is_reviewed_published_in_rounds_and_a_later_block_unapproves() {
    let server = start();
    let dir = tempfile::tempdir().unwrap();
    let first = run(&server, dir.path(), &["--publish"]);
    let err = text(&first.stderr);
    assert_eq!(first.status.code(), Some(6), "{err}");
    assert!(
        err.contains("published round 1 as REQUEST_CHANGES"),
        "{err}"
    );
    assert!(err.contains("/-/merge_requests/7#note_"), "{err}");

    // One review event: two inline threads and the summary, all through one bulk_publish.
    assert_eq!(server.seen_to(&bulk_publish()).len(), 1);
    assert!(server.mr().drafts.is_empty());
    let threads = server.diff_notes();
    assert_eq!(threads.len(), 2, "{threads:#?}");
    for note in &threads {
        assert!(note.body.contains("<!-- review-tui:fp="), "{}", note.body);
        assert_eq!(note.position.as_ref().unwrap()["new_path"], "src/lib.rs");
    }
    let general = server.general_notes();
    assert_eq!(general.len(), 1);
    let summary_id = general[0].id;
    let head = server.mr().head;
    assert!(general[0].body.contains(SUMMARY));
    assert!(
        general[0]
            .body
            .contains(&format!("<!-- review-tui:round=1 head={head} -->"))
    );
    assert!(
        general[0].body.contains("### Fix before merge"),
        "{}",
        general[0].body
    );
    assert!(server.mr().approved_by.is_empty());

    // The same round from a fresh space (a CI job run again): found by its marker.
    let again_dir = tempfile::tempdir().unwrap();
    let again = run(&server, again_dir.path(), &["--publish"]);
    let again_err = text(&again.stderr);
    assert!(again_err.contains("already published"), "{again_err}");
    assert!(
        again_err.contains(&format!("#note_{summary_id}")),
        "{again_err}"
    );
    assert_eq!(server.seen_to(&bulk_publish()).len(), 1);
    assert_eq!(server.mr().notes.len(), 3);

    // A push removes the key and moves the unwrap(): Ship, approved on the new head.
    let new_head = server.push(|repo| {
        repo.git(&["checkout", "--quiet", "feature"]);
        repo.write("src/lib.rs", &feature_lib(false, true));
        repo.commit_all("feature: drop the key")
    });
    let second = run(&server, dir.path(), &["--publish"]);
    let err = text(&second.stderr);
    assert_eq!(second.status.code(), Some(0), "{err}");
    assert_eq!(server.mr().approved_by, [LOGIN]);
    let approvals = server.seen_to(&GitlabServer::call("POST", "/approve"));
    assert_eq!(approvals.len(), 1);
    assert_eq!(approvals[0].body["sha"], new_head.as_str());
    // The summary is edited in place.
    let edits = server.seen_to(&GitlabServer::call("PUT", &format!("/notes/{summary_id}")));
    assert_eq!(edits.len(), 1, "{err}");
    let summary = server
        .general_notes()
        .into_iter()
        .find(|n| n.id == summary_id)
        .unwrap();
    assert!(
        summary.body.contains(&format!("round=2 head={new_head}")),
        "{}",
        summary.body
    );
    // The key's thread is resolved with the Resolved note; the unwrap() is not repeated.
    let mr = server.mr();
    let resolved: Vec<_> = mr.discussions.iter().filter(|d| d.resolved).collect();
    assert_eq!(resolved.len(), 1, "{:#?}", mr.discussions);
    let threads = server.diff_notes();
    assert_eq!(threads.len(), 3, "{threads:#?}");
    let reply = threads.last().unwrap();
    assert!(
        reply
            .body
            .starts_with(&format!("Resolved in {}", &new_head[..10])),
        "{}",
        reply.body
    );
    assert_eq!(resolved[0].notes, [resolved[0].notes[0], reply.id]);
    // The decision changed, so round 2 has its own one-line note pointing at the summary.
    let general = server.general_notes();
    assert_eq!(general.len(), 2);
    assert!(!general[1].body.contains(SUMMARY));
    assert!(
        general[1].body.contains(&format!("#note_{summary_id}")),
        "{}",
        general[1].body
    );

    // A push brings a key back: Block, and the earlier approval no longer stands.
    server.push(|repo| {
        repo.git(&["checkout", "--quiet", "feature"]);
        repo.write("src/lib.rs", &feature_lib(true, true));
        repo.commit_all("feature: a key again")
    });
    let third = run(&server, dir.path(), &["--publish"]);
    let err = text(&third.stderr);
    assert_eq!(third.status.code(), Some(6), "{err}");
    assert!(err.contains("dismissed our earlier APPROVE"), "{err}");
    assert!(server.mr().approved_by.is_empty());
    assert_eq!(
        server
            .seen_to(&GitlabServer::call("POST", "/unapprove"))
            .len(),
        1
    );
    assert_clean(&server, &[&first, &again, &second, &third]);
}

#[test]
fn a_position_gitlab_refuses_falls_into_the_summary_and_nothing_is_left_staged() {
    let server = start();
    server.refuse_positions_on("src/lib.rs");
    let dir = tempfile::tempdir().unwrap();
    let out = run(&server, dir.path(), &["--publish"]);
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(6), "{err}");
    assert!(err.contains("GitLab refused the inline comments"), "{err}");
    assert!(server.diff_notes().is_empty());
    assert!(server.mr().drafts.is_empty());
    let general = server.general_notes();
    assert_eq!(general.len(), 1);
    let body = &general[0].body;
    assert!(
        body.contains("GitLab refused the inline comments"),
        "{body}"
    );
    // Both findings are in the body, none dropped.
    assert!(body.contains("unwrap()"), "{body}");
    assert!(body.contains("secret scan"), "{body}");
    assert_eq!(server.seen_to(&bulk_publish()).len(), 1);
    assert_clean(&server, &[&out]);
}

#[test]
fn a_rate_limit_is_waited_out_and_a_5xx_mid_publish_is_finished_exactly_once_by_a_rerun() {
    let server = start();
    server.script(
        &format!("GET /api/v4/projects/{PROJECT}/merge_requests/{IID}"),
        [Fault::TooManyRequests {
            retry_after_secs: 1,
        }],
    );
    server.script(&bulk_publish(), [Fault::Status(502)]);
    let dir = tempfile::tempdir().unwrap();
    let first = run(&server, dir.path(), &["--publish"]);
    let err = text(&first.stderr);
    assert_eq!(first.status.code(), Some(4), "{err}");
    assert!(err.contains("502"), "{err}");
    assert!(
        err.contains("publishing again looks for its marker"),
        "{err}"
    );
    // The 429 was retried: the merge request was read.
    let reads = server.seen_to(&format!(
        "GET /api/v4/projects/{PROJECT}/merge_requests/{IID}"
    ));
    assert!(reads.len() >= 2, "{reads:#?}");
    // The drafts are staged, nothing published.
    assert_eq!(server.mr().drafts.len(), 3);
    assert!(server.mr().notes.is_empty());

    let second = run(&server, dir.path(), &["--publish"]);
    let err = text(&second.stderr);
    assert_eq!(second.status.code(), Some(6), "{err}");
    assert!(err.contains("publishing its recorded round"), "{err}");
    assert!(server.mr().drafts.is_empty());
    assert_eq!(server.general_notes().len(), 1);
    assert_eq!(server.diff_notes().len(), 2);
    let deleted = server
        .seen()
        .into_iter()
        .filter(|s| s.method == "DELETE" && s.path.contains("/draft_notes/"))
        .count();
    assert_eq!(
        deleted, 3,
        "the stale drafts of ours are deleted before staging again"
    );
    assert_clean(&server, &[&first, &second]);
}

#[test]
fn killed_between_the_drafts_and_bulk_publish_a_rerun_posts_everything_once() {
    let server = start();
    server.stall(&bulk_publish());
    let dir = tempfile::tempdir().unwrap();
    let mut child = command(&server, dir.path(), &["--publish"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    // Bounded: the publish reaches bulk_publish well within this (it is not a timing claim).
    let deadline = Instant::now() + Duration::from_secs(120);
    while server.seen_to(&bulk_publish()).is_empty() {
        assert!(Instant::now() < deadline, "{:#?}", server.seen());
        assert!(child.try_wait().unwrap().is_none(), "exited early");
        std::thread::sleep(Duration::from_millis(50));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    server.release();
    assert_eq!(server.mr().drafts.len(), 3);
    assert!(server.mr().notes.is_empty());

    let rerun = run(&server, dir.path(), &["--publish"]);
    let err = text(&rerun.stderr);
    assert_eq!(rerun.status.code(), Some(6), "{err}");
    assert!(server.mr().drafts.is_empty());
    assert_eq!(server.general_notes().len(), 1);
    assert_eq!(server.diff_notes().len(), 2);
    assert_clean(&server, &[&rerun]);
}

#[test]
fn a_reviewed_merge_request_reopens_offline() {
    let server = start();
    let dir = tempfile::tempdir().unwrap();
    let online = run(&server, dir.path(), &[]);
    assert_eq!(online.status.code(), Some(6), "{}", text(&online.stderr));
    // The config still names the server's host and API, but nothing listens there now.
    let config = config(dir.path(), &server);
    let url = server.mr_url();
    drop(server);
    let out = review_tui()
        .arg(&url)
        .args(["--headless", "--deterministic-only"])
        .env("REVIEW_TUI_DATA_DIR", dir.path().join("data"))
        .env("REVIEW_TUI_CONFIG", &config)
        .env("GITLAB_TOKEN", TOKEN)
        .output()
        .unwrap();
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(6), "{err}");
    assert!(err.contains("offline: showing round 1"), "{err}");
    assert!(err.contains("GitLab could not be reached"), "{err}");
    assert!(!err.contains(TOKEN));
}

#[test]
fn a_host_no_one_named_is_refused_and_gets_no_token() {
    let server = start();
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("empty.toml");
    std::fs::write(&config, "").unwrap();
    let out = review_tui()
        .arg(server.mr_url())
        .args(["--headless", "--deterministic-only"])
        .env("REVIEW_TUI_DATA_DIR", dir.path().join("data"))
        .env("REVIEW_TUI_CONFIG", &config)
        .env("GITLAB_TOKEN", TOKEN)
        .output()
        .unwrap();
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(4), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains(&format!("[gitlab] hosts = [\"{}\"]", server.host())),
        "{err}"
    );
    assert!(!err.contains(TOKEN), "{err}");
    assert!(server.seen().is_empty(), "{:#?}", server.seen());

    // Named, it is read with the token in GitLab's header, and only there.
    let named = run(&server, dir.path(), &[]);
    assert_eq!(named.status.code(), Some(6), "{}", text(&named.stderr));
    assert!(!server.seen().is_empty());
    // Its space is GitLab's, under the host's site, and holds the head fetched from
    // `refs/merge-requests/7/head`.
    let site = format!("gitlab-{}", server.host().replace(':', "-"));
    let spaces = dir.path().join("data/spaces").join(&site);
    let state = find_state(&spaces).expect("a space under the host's site");
    let state: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(state).unwrap()).unwrap();
    assert_eq!(state["pr"]["key"]["forge"], "gitlab", "{state}");
    assert_eq!(state["pr"]["key"]["owner"], "acme/tools", "{state}");
    assert_eq!(state["head_sha"], server.mr().head.as_str(), "{state}");
    assert_clean(&server, &[&out, &named]);
}

fn find_state(dir: &Path) -> Option<std::path::PathBuf> {
    for entry in std::fs::read_dir(dir).ok()?.flatten() {
        let path = entry.path();
        if path.is_dir() {
            if let Some(found) = find_state(&path) {
                return Some(found);
            }
        } else if path.file_name().is_some_and(|n| n == "state.json") {
            return Some(path);
        }
    }
    None
}

#[test]
fn a_head_moved_under_the_approval_is_exit_8_and_nothing_is_posted() {
    // No key: Ship, so the publish approves.
    let repo = crate::support::git_repo::GitRepo::init();
    repo.write("src/lib.rs", BASE_LIB);
    repo.write("Cargo.toml", crate::support::git_repo::ASKS_UNWRAP_USED);
    repo.commit_all("initial import");
    repo.git(&["checkout", "--quiet", "-b", "feature"]);
    repo.write("src/lib.rs", &feature_lib(false, false));
    repo.commit_all("feature: parse a port");
    let server = GitlabServer::start(repo, "octocat");
    server.accept_token(TOKEN, LOGIN);
    let reviewed = server.mr().head;
    // A force-push lands after the publisher's last read, right before its approval.
    server.push_before(&GitlabServer::call("POST", "/approve"), |repo| {
        repo.git(&["checkout", "--quiet", "feature"]);
        repo.write("src/lib.rs", &feature_lib(false, true));
        repo.commit_all("feature: moved")
    });
    let dir = tempfile::tempdir().unwrap();
    let out = run(&server, dir.path(), &["--publish"]);
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(8), "{err}");
    assert!(err.contains(&reviewed), "{err}");
    assert!(
        err.contains("GitLab refused the review on the old head"),
        "{err}"
    );
    assert!(server.mr().approved_by.is_empty());
    assert!(server.mr().notes.is_empty());
    assert!(server.mr().drafts.is_empty());
    assert_clean(&server, &[&out]);
}

#[test]
fn a_finding_a_colleague_raised_in_an_open_discussion_is_not_posted_again() {
    let server = start();
    server.add_diff_thread(
        "alice",
        "src/lib.rs",
        9,
        "Hardcoded AWS secret: this access key must come from the environment.",
        false,
    );
    // Resolved: settled talk, the unwrap() is posted.
    server.add_diff_thread(
        "bob",
        "src/lib.rs",
        6,
        "This unwrap() can panic outside tests.",
        true,
    );
    let dir = tempfile::tempdir().unwrap();
    let out = run(&server, dir.path(), &["--publish"]);
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(6), "{err}");
    assert!(err.contains("already raised by @alice"), "{err}");
    let ours: Vec<String> = server
        .diff_notes()
        .into_iter()
        .filter(|n| n.author == LOGIN)
        .map(|n| n.body)
        .collect();
    assert_eq!(ours.len(), 1, "{ours:?}");
    assert!(ours[0].contains("unwrap()"), "{ours:?}");
    assert!(server.violations().is_empty(), "{:?}", server.violations());
}

fn inbox_json(server: &GitlabServer, dir: &Path) -> serde_json::Value {
    let config = self_hosted_config(
        dir,
        "gitlab",
        &server.host(),
        &server.api(),
        "INBOX_GITLAB_TOKEN",
        "\n[inbox]\norgs = [\"acme\"]\n",
    );
    let mut command = review_tui();
    command
        .env("REVIEW_TUI_DATA_DIR", dir.join("data"))
        .env("REVIEW_TUI_CONFIG", config)
        .env("INBOX_GITLAB_TOKEN", TOKEN);
    printed_list(command, TOKEN)
}

fn inbox_rows<'a>(list: &'a serde_json::Value, section: &str) -> Vec<&'a serde_json::Value> {
    forge_rows(list, section, "GitLab")
}

#[test]
fn the_inbox_lists_the_merge_requests_waiting_on_each_named_host() {
    use crate::support::gitlab_server::ListedMr;
    let server = start();
    server.request_review(LOGIN);
    let listed =
        |project: &str, iid: u64, author: &str, reviewers: &[&str], state: &str| ListedMr {
            project: project.into(),
            iid,
            title: format!("Change {iid}"),
            author: author.into(),
            reviewers: reviewers.iter().map(|r| r.to_string()).collect(),
            state: state.into(),
            head: "0123456789abcdef0123456789abcdef01234567".into(),
        };
    server.list(listed("acme/cli", 3, LOGIN, &[], "opened"));
    server.list(listed("acme/old", 4, "ana", &[LOGIN], "merged"));
    server.list(listed("other/x", 5, "ana", &[LOGIN], "opened"));
    server.list(listed("acme/tools/api", 6, "ana", &["someone"], "opened"));
    let dir = tempfile::tempdir().unwrap();

    let list = inbox_json(&server, dir.path());
    let requested = inbox_rows(&list, "requested");
    let numbers: Vec<(&str, &str)> = requested
        .iter()
        .map(|r| (r["repo"].as_str().unwrap(), r["number"].as_str().unwrap()))
        .collect();
    // Asked of me, open, in the `acme` group: only !7 (the merged one, the one outside the
    // scope and the one asked of someone else are not waiting for me).
    assert_eq!(numbers, [(PROJECT, "!7")], "{list:#}");
    assert_eq!(requested[0]["reference"], server.mr_url().as_str());
    assert_eq!(requested[0]["head_sha"], server.mr().head.as_str());
    let mine = inbox_rows(&list, "mine");
    assert_eq!(mine.len(), 1, "{list:#}");
    assert_eq!(mine[0]["repo"], "acme/cli");
    // The named host where nothing listens is said, and hides nothing the other one lists.
    let notices = list["notices"].to_string();
    assert!(notices.contains("127.0.0.1:9"), "{list:#}");
    assert!(list["offline"].is_null(), "another host answered: {list:#}");
    // Each list asked for every scope, the reviews by username.
    let asked: Vec<String> = server
        .seen()
        .into_iter()
        .filter(|s| s.path == "/api/v4/merge_requests")
        .filter_map(|s| s.query)
        .collect();
    assert!(
        asked
            .iter()
            .any(|q| q.contains(&format!("reviewer_username={LOGIN}")) && q.contains("scope=all")),
        "{asked:?}"
    );

    // Reviewed at its head, the row says so; the next list keeps it as reviewed.
    let reviewed = review_tui()
        .arg(server.mr_url())
        .args(["--headless", "--deterministic-only"])
        .env("REVIEW_TUI_DATA_DIR", dir.path().join("data"))
        .env("REVIEW_TUI_CONFIG", config(dir.path(), &server))
        .env("GITLAB_TOKEN", TOKEN)
        .output()
        .unwrap();
    assert!(
        matches!(reviewed.status.code(), Some(0 | 5 | 6)),
        "{}",
        text(&reviewed.stderr)
    );
    let list = inbox_json(&server, dir.path());
    let requested = inbox_rows(&list, "requested");
    assert_eq!(requested.len(), 1, "{list:#}");
    assert!(!requested[0]["space"].is_null(), "{list:#}");
    assert_clean(&server, &[]);
}
