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

fn thread_command(server: &GithubServer, data: &Path, args: &[&str]) -> Output {
    review_tui()
        .args(args)
        .args(["--api-url", server.url()])
        .env("REVIEW_TUI_DATA_DIR", data)
        .env("GH_TOKEN", TOKEN)
        .env_remove("GITHUB_TOKEN")
        .env_remove("GITHUB_API_URL")
        .output()
        .unwrap()
}

/// The publishing account's replies in alice's thread.
fn our_replies(server: &GithubServer) -> Vec<String> {
    server
        .pull()
        .review_comments
        .iter()
        .filter(|c| c.in_reply_to == Some(10) && c.author.login == LOGIN)
        .map(|c| c.body.clone())
        .collect()
}

#[test]
fn a_reply_and_a_resolve_are_posted_once_after_a_kill_between_the_two() {
    let server = start();
    let data = tempfile::tempdir().unwrap();
    let first = run(&server, data.path(), &[]);
    assert_eq!(first.status.code(), Some(6), "{}", text(&first.stderr));
    let key = "AKIAZ4DEMQ7Q2LXWRT5W";
    let reply = thread_command(
        &server,
        data.path(),
        &[
            "reply",
            "acme/widgets#7",
            &format!("Agreed: {key} moves to the environment."),
            "--thread",
            "PRRT_alice",
        ],
    );
    assert_eq!(reply.status.code(), Some(0), "{}", text(&reply.stderr));
    // The thread named by one of its comments' numbers.
    let resolve = thread_command(
        &server,
        data.path(),
        &["resolve", "acme/widgets#7", "--thread", "10"],
    );
    assert_eq!(resolve.status.code(), Some(0), "{}", text(&resolve.stderr));
    assert!(
        server
            .bodies_to("POST /repos/acme/widgets/pulls/7/comments/10/replies")
            .is_empty()
    );

    // Killed (SIGKILL) while the resolution is on its way, after the reply went out.
    server.hold_mutations(true);
    let mut child = review_tui()
        .args([
            "acme/widgets#7",
            "--headless",
            "--deterministic-only",
            "--publish",
        ])
        .args(["--api-url", server.url()])
        .env("REVIEW_TUI_DATA_DIR", data.path())
        .env("GH_TOKEN", TOKEN)
        .env_remove("GITHUB_TOKEN")
        .env_remove("GITHUB_API_URL")
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mutation_seen = || {
        server
            .bodies_to("POST /graphql")
            .iter()
            .any(|b| b["query"].as_str().unwrap_or("").starts_with("mutation"))
    };
    let mut waited = 0;
    while !mutation_seen() {
        assert!(waited < 1200, "the resolution never came");
        assert!(
            child.try_wait().unwrap().is_none(),
            "the publish ended before resolving"
        );
        std::thread::sleep(std::time::Duration::from_millis(50));
        waited += 1;
    }
    child.kill().unwrap();
    child.wait().unwrap();
    server.hold_mutations(false);
    assert_eq!(our_replies(&server).len(), 1);
    assert!(!server.threads()[0].resolved);
    // A kill a moment earlier, after the reply's POST and before the space recorded it: the
    // space then says the reply is still to post, and only the forge's answer can tell.
    let state_file = find_state(data.path()).expect("the space's state.json");
    let mut state: Value =
        serde_json::from_str(&std::fs::read_to_string(&state_file).unwrap()).unwrap();
    let drafts = state["thread_drafts"].as_array_mut().unwrap();
    assert_eq!(drafts[0]["id"], "reply-1");
    assert_eq!(drafts[0]["posted"], true, "recorded once the forge took it");
    drafts[0]["posted"] = Value::Bool(false);
    std::fs::write(&state_file, serde_json::to_vec_pretty(&state).unwrap()).unwrap();

    let again = run(&server, data.path(), &["--publish"]);
    let err = text(&again.stderr);
    assert_eq!(again.status.code(), Some(6), "{err}");
    assert!(
        err.contains("already on the pull request: reply-1"),
        "{err}"
    );
    assert!(err.contains("posted: resolve-1"), "{err}");
    let replies = our_replies(&server);
    assert_eq!(replies.len(), 1, "{replies:?}");
    assert!(
        replies[0].contains("moves to the environment"),
        "{}",
        replies[0]
    );
    assert!(
        !replies[0].contains(key),
        "the reply is redacted: {}",
        replies[0]
    );
    assert!(server.threads()[0].resolved);
    assert_eq!(
        server.bodies_to(REVIEWS).len(),
        1,
        "the review is posted once"
    );

    // A third publish posts nothing more.
    let third = run(&server, data.path(), &["--publish"]);
    assert_eq!(third.status.code(), Some(6), "{}", text(&third.stderr));
    assert_eq!(our_replies(&server).len(), 1);
    let mutations = server
        .bodies_to("POST /graphql")
        .iter()
        .filter(|b| b["query"].as_str().unwrap_or("").starts_with("mutation"))
        .count();
    assert_eq!(mutations, 2, "the held one and the one that resolved");
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

/// The cockpit at 80×24 on the same PR: the `¶` mark in the diff, the threads list, a reply
/// and a resolution drafted on alice's thread, the publish preview listing both, and the
/// publish posting them once.
#[test]
fn the_cockpit_lists_threads_drafts_a_reply_and_a_resolution_and_publishes_them_at_80x24() {
    use crate::support::tmux::{Tmux, wait_until};
    crate::require_tmux!("threads::the_cockpit_lists_threads_at_80x24");
    let server = start();
    let data = tempfile::tempdir().unwrap();
    let first = run(&server, data.path(), &[]);
    assert_eq!(first.status.code(), Some(6), "{}", text(&first.stderr));
    let exit = data.path().join("exit");
    let tmux = Tmux::review_tui(
        "threads",
        &format!(
            "acme/widgets#7 --deterministic-only --api-url {}",
            server.url()
        ),
        &exit,
        80,
        24,
        &[
            ("REVIEW_TUI_DATA_DIR", data.path()),
            ("REVIEW_TUI_CONFIG", &data.path().join("no-config.toml")),
            ("REVIEW_TUI_PERSON", Path::new("tester")),
            ("GH_TOKEN", Path::new(TOKEN)),
        ],
    );
    tmux.wait_for("the verdict", |s| s.contains("BLOCK"));

    // The diff marks the threads' lines.
    tmux.keys(&["d"]);
    // The diff's own frame: the detail pane below the findings has a `¶` too.
    tmux.wait_for("the thread mark in the diff", |s| {
        s.contains("┌ Diff ·") && s.contains("◆0¶")
    });
    tmux.keys(&["Escape"]);
    // The selected finding's detail shows alice's thread on its line.
    tmux.wait_for("the thread in the finding's detail", |s| {
        !s.contains("┌ Diff ·") && s.contains("Findings (2)") && s.contains("¶ src/lib.rs:9 · open")
    });

    // The list: open threads first, settled ones last; alice's is the last open one.
    tmux.keys(&["t"]);
    // It opens on the thread of the selected finding's lines, among 124.
    tmux.wait_for("the threads list on alice's thread", |s| {
        s.contains("Review threads (124)") && s.contains("▶ src/lib.rs:9")
    });
    tmux.keys(&["G"]);
    tmux.wait_for("the last thread", |s| s.contains("▶ src/lib.rs:6"));
    tmux.keys(&["k", "k"]);
    let list = tmux.wait_for("alice's thread", |s| {
        s.contains("▶ src/lib.rs:9") && s.contains("@alice")
    });
    assert!(list.contains("0 replies · open"), "{list}");

    // A reply in the comment box, then a resolution.
    tmux.keys(&["R"]);
    tmux.wait_for("the reply box", |s| s.contains("Reply to @alice"));
    tmux.text("Agreed, the key moves to the environment.");
    tmux.keys(&["C-s"]);
    tmux.wait_for("the reply drafted", |s| s.contains("draft: reply"));
    tmux.keys(&["r"]);
    tmux.wait_for("the resolution drafted", |s| {
        s.contains("draft: reply, resolve")
    });
    tmux.keys(&["Escape"]);
    tmux.wait_for("the list closed", |s| !s.contains("Review threads ("));

    // The preview lists both drafts and what was left out as already raised.
    tmux.keys(&["g"]);
    tmux.wait_for("the gate", |s| s.contains("Approval gate"));
    tmux.keys(&["p"]);
    let preview = tmux.wait_for("the preview with the drafts", |s| {
        s.contains("enter publish exactly this")
            && s.contains("reply-1 reply to @alice on src/lib.rs:9")
            && s.contains("resolve-1 resolve the thread of @alice")
    });
    assert!(preview.contains("left out"), "{preview}");
    assert!(server.bodies_to(REVIEWS).is_empty(), "nothing posted yet");
    tmux.keys(&["Enter"]);
    wait_until("the reply and the resolution posted", || {
        (our_replies(&server).len() == 1 && server.threads()[0].resolved).then_some(())
    });
    assert_eq!(server.bodies_to(REVIEWS).len(), 1);
    assert!(our_replies(&server)[0].contains("the key moves to the environment"));
    // Read again after the publish: the finding's thread is resolved, with the reply in it.
    tmux.wait_for("the thread read again", |s| {
        s.contains("¶ src/lib.rs:9 · resolved")
    });
    tmux.keys(&["q"]);
    wait_until("the cockpit's exit", || exit.exists().then_some(()));
}

/// A cockpit on the planted PR in one 80×24 terminal that outlives it: each `launch` starts
/// review-tui afresh in the same pane (`exec`: the pane's process is review-tui itself, so a
/// kill reaches it and nothing else).
fn cockpit(name: &str, data: &Path) -> crate::support::tmux::Tmux {
    let tmux = crate::support::tmux::Tmux::start(
        name,
        "cat",
        80,
        24,
        &[
            ("REVIEW_TUI_DATA_DIR", data),
            ("REVIEW_TUI_CONFIG", &data.join("no-config.toml")),
            ("REVIEW_TUI_PERSON", Path::new("tester")),
            ("GH_TOKEN", Path::new(TOKEN)),
        ],
    );
    tmux.keep_dead_panes();
    tmux
}

fn launch(tmux: &crate::support::tmux::Tmux, server: &GithubServer) {
    let binary = env!("CARGO_BIN_EXE_review-tui");
    tmux.respawn(&format!(
        "exec env -u GITHUB_TOKEN -u GITHUB_API_URL '{binary}' acme/widgets#7 --deterministic-only --api-url {}",
        server.url()
    ));
    tmux.wait_for("the verdict", |s| s.contains("BLOCK"));
}

/// The gate's publish preview, with the key's finding listed as already raised.
fn open_preview(tmux: &crate::support::tmux::Tmux) -> String {
    tmux.keys(&["g"]);
    tmux.wait_for("the gate", |s| s.contains("Approval gate"));
    tmux.keys(&["p"]);
    tmux.wait_for("the preview", |s| {
        s.contains("enter publish exactly this") && s.contains("src/lib.rs:9 Hardcoded")
    })
}

/// In the preview, `i` includes the finding alice's open thread already raises: the list and
/// the counts say so, the choice survives a kill -9, and the publish after the restart posts
/// it exactly once, beside the `unwrap()`.
#[test]
fn the_preview_includes_a_finding_already_raised_and_the_publish_posts_it_once_at_80x24() {
    use crate::support::tmux::wait_until;
    crate::require_tmux!("threads::the_preview_includes_a_finding_already_raised");
    let server = start();
    let data = tempfile::tempdir().unwrap();
    let first = run(&server, data.path(), &[]);
    assert_eq!(first.status.code(), Some(6), "{}", text(&first.stderr));
    let tmux = cockpit("include", data.path());
    launch(&tmux, &server);

    // Left out by default: one comment on its line (the unwrap()), one left out.
    let preview = open_preview(&tmux);
    assert!(preview.contains("left out src/lib.rs:9"), "{preview}");
    assert!(preview.contains("· 1 also as"), "{preview}");
    assert!(preview.contains("i include/leave out"), "{preview}");
    tmux.keys(&["i"]);
    let included = tmux.wait_for("the finding included", |s| {
        s.contains("posted   src/lib.rs:9") && s.contains("enter publish exactly this")
    });
    assert!(!included.contains("left out src/"), "{included}");
    assert!(included.contains("· 2 also as"), "{included}");
    assert!(server.bodies_to(REVIEWS).is_empty(), "nothing posted yet");

    // Killed before publishing: the choice is in the space.
    let (pid, _) = tmux.pane_process();
    let killed = std::process::Command::new("kill")
        .args(["-KILL", &pid.to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    wait_until("the killed cockpit's pane to die", || {
        tmux.pane_process().1.then_some(())
    });
    launch(&tmux, &server);
    let preview = open_preview(&tmux);
    assert!(preview.contains("posted   src/lib.rs:9"), "{preview}");
    tmux.keys(&["Enter"]);
    wait_until("the review posted", || {
        (!server.bodies_to(REVIEWS).is_empty()).then_some(())
    });
    let mut lines = posted_lines(&server);
    lines.sort();
    assert_eq!(lines, vec![6, 9]);
    tmux.wait_for("published", |s| s.contains("published"));
    tmux.keys(&["q"]);
    wait_until("the cockpit's exit", || tmux.pane_process().1.then_some(()));
    assert_eq!(server.bodies_to(REVIEWS).len(), 1, "posted once");
}

/// Included, then left out again (`i` twice), or included and taken back with `u`: the
/// publish posts nothing for it.
#[test]
fn a_finding_already_raised_left_out_again_or_undone_is_not_posted_at_80x24() {
    use crate::support::tmux::wait_until;
    crate::require_tmux!("threads::a_finding_already_raised_left_out_again");
    let server = start();
    let data = tempfile::tempdir().unwrap();
    let first = run(&server, data.path(), &[]);
    assert_eq!(first.status.code(), Some(6), "{}", text(&first.stderr));
    let tmux = cockpit("leave-out", data.path());
    launch(&tmux, &server);

    open_preview(&tmux);
    tmux.keys(&["i"]);
    tmux.wait_for("included", |s| s.contains("posted   src/lib.rs:9"));
    tmux.keys(&["i"]);
    tmux.wait_for("left out again", |s| {
        s.contains("left out src/lib.rs:9") && s.contains("enter publish exactly this")
    });
    // Included once more, then the preview cancelled and the choice undone with `u`.
    tmux.keys(&["i"]);
    tmux.wait_for("included", |s| s.contains("posted   src/lib.rs:9"));
    tmux.keys(&["Escape"]);
    tmux.wait_for("the preview cancelled", |s| s.contains("publish cancelled"));
    // One key at a time: an escape with a key right behind it reads as alt and that key.
    tmux.keys(&["Escape"]);
    tmux.wait_for("the gate closed", |s| !s.contains("Approval gate"));
    tmux.keys(&["u"]);
    tmux.wait_for("the choice undone", |s| s.contains("undone: left out"));
    let preview = open_preview(&tmux);
    assert!(preview.contains("left out src/lib.rs:9"), "{preview}");
    tmux.keys(&["Enter"]);
    wait_until("the review posted", || {
        (!server.bodies_to(REVIEWS).is_empty()).then_some(())
    });
    assert_eq!(posted_lines(&server), vec![6]);
    tmux.keys(&["q"]);
    wait_until("the cockpit's exit", || tmux.pane_process().1.then_some(()));
}

/// Without a token (a public repository), GraphQL is not asked (it takes no anonymous
/// calls): the threads are the REST review comments, every page (more than 250 comments in
/// three pages of 100), grouped by what each replies to. Whether each is resolved is unknown,
/// and said: the report's notes say so, the cockpit shows it on the finding's thread and in
/// the list, and none is taken for settled.
#[test]
fn without_a_token_the_threads_come_from_rest_with_their_resolution_unknown_at_80x24() {
    use crate::support::tmux::wait_until;
    crate::require_tmux!("threads::without_a_token_the_threads_come_from_rest");
    let server = start();
    let data = tempfile::tempdir().unwrap();
    let out = review_tui()
        .args(["acme/widgets#7", "--headless", "--deterministic-only"])
        .args(["--api-url", server.url(), "--format", "json"])
        .env("REVIEW_TUI_DATA_DIR", data.path())
        .env_remove("GH_TOKEN")
        .env_remove("GITHUB_TOKEN")
        .env_remove("GITHUB_API_URL")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(6), "{}", text(&out.stderr));
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    let notes = report["coverage"]["notes"].to_string();
    assert!(notes.contains("resolved is unknown"), "{notes}");
    // 124 threads: alice's, bob's, carol's, dave's long one and 120 fillers.
    assert!(notes.contains("124 review thread"), "{notes}");
    assert!(
        server.bodies_to("POST /graphql").is_empty(),
        "no GraphQL without a token"
    );
    assert!(
        server.schema_violations().is_empty(),
        "{:?}",
        server.schema_violations()
    );

    let tmux = crate::support::tmux::Tmux::start(
        "tokenless",
        "cat",
        80,
        24,
        &[
            ("REVIEW_TUI_DATA_DIR", data.path()),
            ("REVIEW_TUI_CONFIG", &data.path().join("no-config.toml")),
            ("REVIEW_TUI_PERSON", Path::new("tester")),
        ],
    );
    tmux.keep_dead_panes();
    let binary = env!("CARGO_BIN_EXE_review-tui");
    tmux.respawn(&format!(
        "exec env -u GH_TOKEN -u GITHUB_TOKEN -u GITHUB_API_URL '{binary}' acme/widgets#7 --deterministic-only --api-url {}",
        server.url()
    ));
    // The selected finding (the key on line 9) shows alice's thread, its resolution unknown.
    tmux.wait_for("the thread in the finding's detail", |s| {
        s.contains("BLOCK") && s.contains("¶ src/lib.rs:9 · resolution unknown")
    });
    tmux.keys(&["t"]);
    tmux.wait_for("the threads list", |s| s.contains("Review threads (124)"));
    // Bob's thread is resolved on GitHub; REST cannot say so, and it is not taken for it.
    tmux.keys(&["G"]);
    let last = tmux.wait_for("the last thread", |s| s.contains("▶ src/lib.rs:"));
    assert!(!last.contains("· resolved"), "{last}");
    tmux.keys(&["Escape"]);
    tmux.wait_for("the list closed", |s| !s.contains("Review threads ("));
    tmux.keys(&["q"]);
    wait_until("the cockpit's exit", || tmux.pane_process().1.then_some(()));
}

/// Without a token, GitHub's rate limit (60 an hour) is soon used up: the line comments'
/// read refused with 403 and `x-ratelimit-remaining: 0` is a note naming the limit and when it
/// resets, never a failed review.
#[test]
fn a_rate_limit_on_the_tokenless_threads_read_is_a_notice_not_a_failed_review() {
    let server = start();
    server.fail_always(
        "GET /repos/acme/widgets/pulls/7/comments",
        crate::support::github_server::Fault::PrimaryRateLimit {
            reset_in_secs: 3600,
        },
    );
    let data = tempfile::tempdir().unwrap();
    let out = review_tui()
        .args(["acme/widgets#7", "--headless", "--deterministic-only"])
        .args(["--api-url", server.url(), "--format", "json"])
        .env("REVIEW_TUI_DATA_DIR", data.path())
        .env_remove("GH_TOKEN")
        .env_remove("GITHUB_TOKEN")
        .env_remove("GITHUB_API_URL")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(6), "{}", text(&out.stderr));
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    let notes = report["coverage"]["notes"].to_string();
    assert!(
        notes.contains("review threads could not be read"),
        "{notes}"
    );
    assert!(notes.contains("rate limit"), "{notes}");
    assert!(notes.contains("resets at"), "{notes}");
}
