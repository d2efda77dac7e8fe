//! A round published, then changed by the person: publishing again posts the change once (a
//! new review for a changed event or new inline comments, the summary edited), by the same
//! rules as a later round, and a publish killed after the post never posts it twice. The real
//! binary against the fake GitHub on 127.0.0.1, and a local range's `review.md`.

use std::path::Path;
use std::process::Output;

use serde_json::Value;

use crate::cli::review_tui;
use crate::support::git_repo::GitRepo;
use crate::support::github_server::{Fault, GithubServer, PullSpec, UserSpec};

const TOKEN: &str = "ghp_republishcanary3";
const LOGIN: &str = "review-bot";
const REVIEWS: &str = "POST /repos/acme/widgets/pulls/7/reviews";

const BASE_LIB: &str = "pub fn add(a: i32, b: i32) -> i32 {\n    a + b\n}\n";
/// One `unwrap()`: a P3 observation, so the round ships.
const FEATURE_LIB: &str = "pub fn add(a: i32, b: i32) -> i32 {\n    a + b\n}\n\npub fn port(text: &str) -> u16 {\n    text.parse().unwrap()\n}\n";

fn repo() -> GitRepo {
    let repo = GitRepo::init();
    repo.write("src/lib.rs", BASE_LIB);
    repo.commit_all("initial import");
    repo.git(&["checkout", "--quiet", "-b", "feature"]);
    repo.write("src/lib.rs", FEATURE_LIB);
    repo.commit_all("feature: parse a port");
    repo.git(&["update-ref", "refs/pull/7/head", "feature"]);
    repo
}

fn start() -> GithubServer {
    let repo = repo();
    let mut pull = PullSpec::from_repo(&repo, "acme", "widgets", 7);
    pull.author = UserSpec::user("octocat");
    let server = GithubServer::start(repo, pull);
    server.accept_token(TOKEN, LOGIN);
    server
}

fn binary(server: &GithubServer, data: &Path, args: &[&str]) -> Output {
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

fn publish(server: &GithubServer, data: &Path) -> Output {
    binary(
        server,
        data,
        &[
            "acme/widgets#7",
            "--headless",
            "--deterministic-only",
            "--approve-without-models",
            "--publish",
        ],
    )
}

/// The person's own P0 on the `unwrap()` line: the round blocks now.
fn add_p0(server: &GithubServer, data: &Path) {
    let out = binary(
        server,
        data,
        &[
            "comment",
            "acme/widgets#7",
            "A bad port panics\nThe server dies on the first typo in its configuration.",
            "--at",
            "src/lib.rs:6",
            "--priority",
            "P0",
            "--kind",
            "bug",
        ],
    );
    assert_eq!(out.status.code(), Some(6), "{}", text(&out.stderr));
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn state_json(data: &Path) -> Value {
    fn find(dir: &Path) -> Option<std::path::PathBuf> {
        for entry in std::fs::read_dir(dir).ok()?.flatten() {
            let path = entry.path();
            if path.is_dir() {
                if let Some(found) = find(&path) {
                    return Some(found);
                }
            } else if path.file_name().is_some_and(|n| n == "state.json") {
                return Some(path);
            }
        }
        None
    }
    let path = find(data).expect("a state.json");
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

#[test]
fn a_change_after_publishing_is_published_again_as_one_new_review_and_never_twice() {
    let server = start();
    let data = tempfile::tempdir().unwrap();
    let first = publish(&server, data.path());
    assert_eq!(first.status.code(), Some(0), "{}", text(&first.stderr));
    let summary_id = server.pull().reviews[0].id;
    assert_eq!(server.bodies_to(REVIEWS)[0]["event"], "APPROVE");

    add_p0(&server, data.path());
    let again = publish(&server, data.path());
    let err = text(&again.stderr);
    assert_eq!(again.status.code(), Some(6), "{err}");
    assert!(
        err.contains("published round 1 as REQUEST_CHANGES (summary edited)"),
        "{err}"
    );
    // Exactly one new review: the changed event, with the person's finding inline and a
    // pointer to the summary, which is edited in place for the new decision.
    let posted = server.bodies_to(REVIEWS);
    assert_eq!(posted.len(), 2, "{err}");
    assert_eq!(posted[1]["event"], "REQUEST_CHANGES");
    let inline = posted[1]["comments"].as_array().unwrap();
    assert_eq!(inline.len(), 1, "{inline:?}");
    assert!(
        inline[0]["body"]
            .as_str()
            .unwrap()
            .contains("A bad port panics"),
        "{inline:?}"
    );
    let pointer = posted[1]["body"].as_str().unwrap();
    assert!(
        pointer.contains("published again after the person's triage"),
        "{pointer}"
    );
    let head = server.pull().head_sha;
    assert!(
        pointer.contains(&format!("round=1 head={head} revision=1")),
        "{pointer}"
    );
    let edits = server.bodies_to(&format!(
        "PUT /repos/acme/widgets/pulls/7/reviews/{summary_id}"
    ));
    assert_eq!(edits.len(), 1, "{err}");
    let summary = edits[0]["body"].as_str().unwrap();
    assert!(summary.contains("A bad port panics"), "{summary}");
    // The earlier APPROVE no longer stands.
    let states: Vec<String> = server
        .pull()
        .reviews
        .iter()
        .map(|r| r.state.clone())
        .collect();
    assert_eq!(states, ["DISMISSED", "CHANGES_REQUESTED"], "{err}");
    let state = state_json(data.path());
    let publishes = state["publishes"].as_array().unwrap();
    assert_eq!(publishes.len(), 2, "{state}");
    assert_eq!(publishes[1]["revision"], 1, "{state}");
    assert_eq!(publishes[1]["posted"]["decision"], "block", "{state}");

    // Nothing changed since: nothing more is posted, and it says where the round is.
    let third = publish(&server, data.path());
    let err = text(&third.stderr);
    assert_eq!(third.status.code(), Some(6), "{err}");
    assert!(err.contains("round 1 was already published"), "{err}");
    assert_eq!(server.bodies_to(REVIEWS).len(), 2, "{err}");
}

#[test]
fn a_republish_cut_after_the_post_is_found_by_its_marker_and_not_posted_twice() {
    let server = start();
    let data = tempfile::tempdir().unwrap();
    let first = publish(&server, data.path());
    assert_eq!(first.status.code(), Some(0), "{}", text(&first.stderr));
    add_p0(&server, data.path());

    // GitHub creates the new review, the answer never arrives (a kill -9 of the publisher
    // right after its request looks the same from the space: "publishing").
    server.script(REVIEWS, [Fault::DropAfterHandling]);
    let cut = publish(&server, data.path());
    let err = text(&cut.stderr);
    assert_eq!(cut.status.code(), Some(4), "{err}");
    assert!(err.contains("may or may not have been created"), "{err}");
    assert_eq!(server.pull().reviews.len(), 2, "{err}");
    let state = state_json(data.path());
    assert_eq!(state["publishes"][1]["state"], "publishing", "{state}");

    let rerun = publish(&server, data.path());
    let err = text(&rerun.stderr);
    assert_eq!(rerun.status.code(), Some(6), "{err}");
    assert!(err.contains("round 1 was already published"), "{err}");
    assert_eq!(server.requests_to(REVIEWS).len(), 2, "{err}");
    assert_eq!(server.pull().reviews.len(), 2, "{err}");
    let state = state_json(data.path());
    assert_eq!(state["publishes"][1]["state"], "published", "{state}");
    assert_eq!(state["publishes"][1]["revision"], 1, "{state}");
}

#[test]
fn a_local_reports_files_are_written_again_for_the_new_decision() {
    let repo = repo();
    let data = tempfile::tempdir().unwrap();
    let reference = format!("{}#main..feature", repo.path().display());
    let run = |args: &[&str]| {
        review_tui()
            .args(args)
            .env("REVIEW_TUI_DATA_DIR", data.path())
            .env_remove("GH_TOKEN")
            .env_remove("GITHUB_TOKEN")
            .env_remove("GITHUB_API_URL")
            .output()
            .unwrap()
    };
    let publish = || {
        run(&[
            &reference,
            "--headless",
            "--deterministic-only",
            "--approve-without-models",
            "--publish",
        ])
    };
    let first = publish();
    assert_eq!(first.status.code(), Some(0), "{}", text(&first.stderr));
    let state = state_json(data.path());
    let space = find_dir_of(data.path(), "review.md").expect("review.md");
    let review_md = || std::fs::read_to_string(space.join("review.md")).unwrap();
    assert!(!review_md().contains("A bad port panics"), "{}", review_md());
    assert_eq!(state["publishes"][0]["posted"]["decision"], "ship");

    let added = run(&[
        "comment",
        &reference,
        "A bad port panics\nThe server dies on the first typo in its configuration.",
        "--at",
        "src/lib.rs:6",
        "--priority",
        "P0",
        "--kind",
        "bug",
    ]);
    assert_eq!(added.status.code(), Some(6), "{}", text(&added.stderr));
    let again = publish();
    let err = text(&again.stderr);
    assert_eq!(again.status.code(), Some(6), "{err}");
    let md = review_md();
    assert!(md.contains("A bad port panics"), "{md}");
    assert!(md.contains("revision=1"), "{md}");
    let json: Value =
        serde_json::from_str(&std::fs::read_to_string(space.join("review.json")).unwrap())
            .unwrap();
    assert_eq!(json["decision"], "block", "{json}");
}

fn find_dir_of(dir: &Path, name: &str) -> Option<std::path::PathBuf> {
    for entry in std::fs::read_dir(dir).ok()?.flatten() {
        let path = entry.path();
        if path.is_dir() {
            if let Some(found) = find_dir_of(&path, name) {
                return Some(found);
            }
        } else if path.file_name().is_some_and(|n| n == name) {
            return Some(dir.to_path_buf());
        }
    }
    None
}
