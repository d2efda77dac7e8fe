//! A head that moves while publishing. The publisher reads the head again right before its
//! POST and names the reviewed head as the review's `commit_id`, so GitHub checks it too: here
//! the fake GitHub force-pushes the PR between that last read and the POST (a per-request rule),
//! and refuses the review with its real 422. Nothing is posted on the old head, the refusal is
//! one line with its own exit code, and the next run reviews and publishes the new head.

use std::path::Path;
use std::process::Output;

use crate::support::bot_pr;
use crate::support::git_repo::{ASKS_UNWRAP_USED, GitRepo};
use crate::support::github_server::GithubServer;

const TOKEN: &str = "ghp_headcanary8";
const REVIEWS: &str = "POST /repos/acme/widgets/pulls/7/reviews";
const PULL: &str = "GET /repos/acme/widgets/pulls/7";
const HEAD_MOVED: i32 = 8;

const BASE_LIB: &str = "pub fn add(a: i32, b: i32) -> i32 {\n    a + b\n}\n";
const FEATURE_LIB: &str = "pub fn add(a: i32, b: i32) -> i32 {\n    a + b\n}\n\npub fn port(text: &str) -> u16 {\n    text.parse().unwrap()\n}\n";

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn serve() -> GithubServer {
    let repo = GitRepo::init();
    repo.write("src/lib.rs", BASE_LIB);
    repo.write("Cargo.toml", ASKS_UNWRAP_USED);
    repo.commit_all("initial import");
    repo.git(&["checkout", "--quiet", "-b", "feature"]);
    repo.write("src/lib.rs", FEATURE_LIB);
    repo.commit_all("feature");
    bot_pr::serve(repo, TOKEN)
}

fn publish(server: &GithubServer, data: &Path) -> Output {
    bot_pr::publish(server, data, TOKEN, &[])
}

#[test]
fn a_force_push_between_the_last_read_and_the_post_posts_nothing_and_says_so_in_one_line() {
    let server = serve();
    let reviewed = server.pull().head_sha;
    // The amended commit replaces the reviewed one: it is no longer part of the pull request.
    server.push_before(REVIEWS, |repo| {
        repo.git(&["checkout", "--quiet", "feature"]);
        repo.write("src/lib.rs", &FEATURE_LIB.replace("port", "parse_port"));
        repo.git(&[
            "commit",
            "--quiet",
            "--amend",
            "-a",
            "-m",
            "feature, amended",
        ]);
        repo.rev_parse("HEAD")
    });
    let data = tempfile::tempdir().unwrap();
    let out = publish(&server, data.path());
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(HEAD_MOVED), "{err}");
    let current = server.pull().head_sha;
    assert_ne!(current, reviewed);

    // The head was read again right before the POST, and still showed the reviewed head; the
    // POST named it, and GitHub refused it once. Nothing else was sent.
    let requests = server.requests();
    let post = requests.iter().position(|r| r.call() == REVIEWS).unwrap();
    assert_eq!(requests[post - 1].call(), PULL, "{:?}", requests[post - 1]);
    assert_eq!(server.requests_to(REVIEWS).len(), 1);
    assert_eq!(server.bodies_to(REVIEWS)[0]["commit_id"], reviewed.as_str());
    assert!(requests.iter().all(|r| r.is_read() || r.call() == REVIEWS));
    assert!(server.pull().reviews.is_empty());
    assert!(server.pull().review_comments.is_empty());

    // One line: what happened, GitHub's words, what to do.
    let lines: Vec<&str> = err.lines().filter(|l| l.contains("head moved")).collect();
    assert_eq!(lines.len(), 1, "{err}");
    let line = lines[0];
    let moved =
        format!("the pull request's head moved from {reviewed} to {current} while publishing");
    for needle in [
        moved.as_str(),
        "commit_id is not part of the pull request",
        "nothing was published",
        "review again",
    ] {
        assert!(line.contains(needle), "{needle:?} missing from {line}");
    }

    // The round is not left "publishing": the next run reviews the new head and publishes it.
    let again = publish(&server, data.path());
    let err = text(&again.stderr);
    assert_eq!(again.status.code(), Some(0), "{err}");
    let posted = server.bodies_to(REVIEWS);
    assert_eq!(posted.len(), 2);
    assert_eq!(posted[1]["commit_id"], current.as_str());
    assert_eq!(server.pull().reviews.len(), 1);
    assert_eq!(server.pull().reviews[0].commit_id, current);
}
