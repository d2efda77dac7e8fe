//! The people already on the PR: their review threads are read (GraphQL `reviewThreads`, every
//! page, checked against GitHub's schema by the test server), and a finding an open thread of
//! a colleague already raises on the same lines is not posted again, while it still counts.

use std::path::Path;
use std::process::Output;

use serde_json::Value;

use crate::cli::review_tui;
use crate::publish::planted_repo;
use crate::support::github_graphql::ThreadSpec;
use crate::support::github_server::{GithubServer, PullSpec, ReviewCommentSpec, UserSpec};

const TOKEN: &str = "ghp_threadscanary42";
const LOGIN: &str = "review-bot";
const REVIEWS: &str = "POST /repos/acme/widgets/pulls/7/reviews";

fn comment(
    id: u64,
    author: &str,
    line: u32,
    body: &str,
    reply_to: Option<u64>,
) -> ReviewCommentSpec {
    ReviewCommentSpec {
        id,
        review_id: None,
        author: UserSpec::user(author),
        body: body.into(),
        path: "src/lib.rs".into(),
        line,
        side: "RIGHT".into(),
        commit_id: String::new(),
        in_reply_to: reply_to,
        created_at: format!("2026-01-01T10:{:02}:{:02}Z", (id / 60) % 60, id % 60),
    }
}

/// The planted PR (an `unwrap()` on line 6, an AWS key on line 9) with: alice's open thread
/// on the key's line about the key; bob's resolved thread on the `unwrap()`; an outdated one;
/// 120 more threads (two pages of 100) and a thread of 130 comments (two pages of comments).
fn start() -> GithubServer {
    let repo = planted_repo();
    let pull = PullSpec::from_repo(&repo, "acme", "widgets", 7);
    let server = GithubServer::start(repo, pull);
    server.accept_token(TOKEN, LOGIN);
    let head = server.pull().head_sha;
    let add = |node: &str,
               root: ReviewCommentSpec,
               replies: Vec<ReviewCommentSpec>,
               resolved,
               outdated| {
        let mut all = vec![ReviewCommentSpec {
            commit_id: head.clone(),
            ..root.clone()
        }];
        all.extend(replies.into_iter().map(|r| ReviewCommentSpec {
            commit_id: head.clone(),
            ..r
        }));
        server.add_thread(
            ThreadSpec {
                node_id: node.into(),
                root: root.id,
                resolved,
                outdated,
            },
            all,
        );
    };
    add(
        "PRRT_alice",
        comment(
            10,
            "alice",
            9,
            "Hardcoded AWS secret here: this access key must come from the environment.",
            None,
        ),
        vec![],
        false,
        false,
    );
    add(
        "PRRT_bob",
        comment(11, "bob", 6, "This unwrap() can panic outside tests.", None),
        vec![comment(12, "octocat", 6, "Fine for now.", Some(11))],
        true,
        false,
    );
    add(
        "PRRT_old",
        comment(13, "carol", 6, "unwrap() panics outside tests", None),
        vec![],
        false,
        true,
    );
    let long: Vec<ReviewCommentSpec> = (0..129)
        .map(|i| comment(2000 + i, "dave", 2, &format!("reply {i}"), Some(1999)))
        .collect();
    add(
        "PRRT_long",
        comment(1999, "dave", 2, "A long talk about addition.", None),
        long,
        false,
        false,
    );
    for i in 0..120u64 {
        add(
            &format!("PRRT_filler{i}"),
            comment(100 + i, "erin", 1, "nit: naming", None),
            vec![],
            false,
            false,
        );
    }
    server
}

fn run(server: &GithubServer, data: &Path, extra: &[&str]) -> Output {
    review_tui()
        .args(["acme/widgets#7", "--headless", "--deterministic-only"])
        .args(["--api-url", server.url()])
        .args(extra)
        .env("REVIEW_TUI_DATA_DIR", data)
        .env("GH_TOKEN", TOKEN)
        .env_remove("GITHUB_TOKEN")
        .env_remove("GITHUB_API_URL")
        .output()
        .unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn posted_lines(server: &GithubServer) -> Vec<u64> {
    let reviews = server.bodies_to(REVIEWS);
    assert_eq!(reviews.len(), 1, "{reviews:?}");
    reviews[0]["comments"]
        .as_array()
        .cloned()
        .unwrap_or_default()
        .iter()
        .map(|c| c["line"].as_u64().unwrap())
        .collect()
}

#[test]
fn a_finding_a_colleague_already_raised_is_marked_and_not_posted_but_still_blocks() {
    let server = start();
    let data = tempfile::tempdir().unwrap();
    let out = run(&server, data.path(), &["--publish"]);
    let err = text(&out.stderr);
    // The key is a P0: the verdict still blocks on it.
    assert_eq!(out.status.code(), Some(6), "{err}");
    let left_out = err
        .lines()
        .find(|l| l.contains("left out:"))
        .unwrap_or_else(|| panic!("no left-out line: {err}"));
    assert!(left_out.contains("src/lib.rs:9"), "{left_out}");
    assert!(left_out.contains("already raised by @alice"), "{left_out}");
    // The key is not posted inline; the unwrap() is (bob's thread on it is resolved and
    // carol's is outdated: neither holds it any more).
    assert_eq!(posted_lines(&server), vec![6], "{err}");
    // Still in the summary, counted.
    let body = server.bodies_to(REVIEWS)[0]["body"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(body.contains("AWS access key"), "{body}");

    // Every page was read: two of threads, and the long thread's second page of comments.
    let graphql: Vec<Value> = server.bodies_to("POST /graphql");
    let after_pages = graphql
        .iter()
        .filter(|b| b["query"].as_str().unwrap().contains("reviewThreads"))
        .filter(|b| !b["variables"]["after"].is_null())
        .count();
    assert!(after_pages >= 1, "{graphql:?}");
    let comment_pages: Vec<&Value> = graphql
        .iter()
        .filter(|b| b["query"].as_str().unwrap().contains("node(id"))
        .collect();
    assert!(
        comment_pages
            .iter()
            .any(|b| b["variables"]["id"] == "PRRT_long"),
        "{comment_pages:?}"
    );
    assert!(
        server.schema_violations().is_empty(),
        "{:?}",
        server.schema_violations()
    );
}

#[test]
fn include_raised_posts_it_all_the_same() {
    let server = start();
    let data = tempfile::tempdir().unwrap();
    let out = run(&server, data.path(), &["--publish", "--include-raised"]);
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(6), "{err}");
    assert!(!err.contains("left out:"), "{err}");
    let mut lines = posted_lines(&server);
    lines.sort();
    assert_eq!(lines, vec![6, 9], "{err}");
}

#[test]
fn threads_that_cannot_be_read_are_a_notice_not_a_failed_review() {
    let server = start();
    server.fail_always(
        "POST /graphql",
        crate::support::github_server::Fault::Status(502),
    );
    let data = tempfile::tempdir().unwrap();
    let out = run(&server, data.path(), &["--publish"]);
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(6), "{err}");
    // Nothing is left out when nothing could be read: both findings are posted.
    let mut lines = posted_lines(&server);
    lines.sort();
    assert_eq!(lines, vec![6, 9], "{err}");
    let body = server.bodies_to(REVIEWS)[0]["body"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(body.contains("review threads could not be read"), "{body}");
}

#[test]
fn a_replacement_covering_exactly_its_lines_is_posted_as_a_suggestion_block() {
    let server = start();
    let data = tempfile::tempdir().unwrap();
    let first = run(&server, data.path(), &[]);
    assert_eq!(first.status.code(), Some(6), "{}", text(&first.stderr));
    let added = review_tui()
        .args([
            "comment",
            "acme/widgets#7",
            "Name the failure\nSay which text was not a port.",
        ])
        .args(["--at", "src/lib.rs:6", "--priority", "P3"])
        .args(["--replace", "    text.parse().expect(\"a port number\")"])
        .args(["--api-url", server.url()])
        .env("REVIEW_TUI_DATA_DIR", data.path())
        .env("GH_TOKEN", TOKEN)
        .env_remove("GITHUB_TOKEN")
        .env_remove("GITHUB_API_URL")
        .output()
        .unwrap();
    assert_eq!(added.status.code(), Some(6), "{}", text(&added.stderr));
    let out = run(&server, data.path(), &["--publish"]);
    assert_eq!(out.status.code(), Some(6), "{}", text(&out.stderr));
    let reviews = server.bodies_to(REVIEWS);
    let comments = reviews[0]["comments"].as_array().unwrap();
    let mine = comments
        .iter()
        .map(|c| c["body"].as_str().unwrap())
        .find(|b| b.contains("Name the failure"))
        .unwrap_or_else(|| panic!("{comments:?}"));
    assert!(
        mine.contains("\n```suggestion\n    text.parse().expect(\"a port number\")\n```\n"),
        "{mine}"
    );
    assert_eq!(mine.matches("```suggestion").count(), 1, "{mine}");
}
