//! A round published, then changed by the person: publishing again posts the change once (a
//! new review for a changed event or new inline comments, the summary edited), by the same
//! rules as a later round, and a publish killed after the post never posts it twice. The real
//! binary against the fake GitHub on 127.0.0.1, and a local range's `review.md`.

use std::path::Path;
use std::process::Output;

use serde_json::Value;

use crate::cli::review_tui;
use crate::support::git_repo::{ASKS_UNWRAP_USED, GitRepo};
use crate::support::github_server::{Fault, GithubServer, PullSpec, UserSpec};
use crate::support::tmux::Tmux;

const TOKEN: &str = "ghp_republishcanary3";
const LOGIN: &str = "review-bot";
const REVIEWS: &str = "POST /repos/acme/widgets/pulls/7/reviews";

const BASE_LIB: &str = "pub fn add(a: i32, b: i32) -> i32 {\n    a + b\n}\n";
/// One `unwrap()`: a P3 observation, so the round ships.
const FEATURE_LIB: &str = "pub fn add(a: i32, b: i32) -> i32 {\n    a + b\n}\n\npub fn port(text: &str) -> u16 {\n    text.parse().unwrap()\n}\n";

/// A fake AWS key (a P0 secret) for the cockpit walk, which dismisses and reopens it.
const AWS_KEY: &str = "AKIAZ4DEMQ7Q2LXWRT5W";

fn repo() -> GitRepo {
    repo_with(FEATURE_LIB)
}

fn repo_with(feature: &str) -> GitRepo {
    let repo = GitRepo::init();
    repo.write("src/lib.rs", BASE_LIB);
    repo.write("Cargo.toml", ASKS_UNWRAP_USED);
    repo.commit_all("initial import");
    repo.git(&["checkout", "--quiet", "-b", "feature"]);
    repo.write("src/lib.rs", feature);
    repo.commit_all("feature: parse a port");
    repo.git(&["update-ref", "refs/pull/7/head", "feature"]);
    repo
}

fn start() -> GithubServer {
    start_with(repo())
}

fn start_with(repo: GitRepo) -> GithubServer {
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
    assert!(
        !review_md().contains("A bad port panics"),
        "{}",
        review_md()
    );
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
        serde_json::from_str(&std::fs::read_to_string(space.join("review.json")).unwrap()).unwrap();
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

/// The cockpit on the PR at 60x15, 80x24, 120x40 and 200x60, the same walk at each: the
/// secret dismissed, the round published (a COMMENT), the secret reopened (BLOCK): a banner
/// names both; leaving says it on the terminal; reopened, the gate publishes the change as
/// one new review, and the banner goes. Every screen on the way: no panic, no action cut at
/// the edge, nothing that contradicts the header's verdict or what was published.
#[test]
fn triage_publish_change_and_republish_at_every_size_without_a_clipped_action_or_a_contradiction() {
    crate::require_tmux!(
        "republish::triage_publish_change_and_republish_at_every_size_without_a_clipped_action_or_a_contradiction"
    );
    for (width, height) in [(60, 15), (80, 24), (120, 40), (200, 60)] {
        walk(width, height);
    }
}

/// What every screen of the walk must hold at `width` columns: no panic, the hint line (the
/// last) whole with room to spare, and a "now X" banner agreeing with the header's badge.
fn sound(screen: &str, width: usize, published: bool) -> Result<(), String> {
    if screen.contains("panicked") {
        return Err("a panic".into());
    }
    let hints = screen.lines().last().unwrap_or_default().trim_end();
    if hints.chars().count() >= width {
        return Err(format!("the hint line runs off the edge: {hints}"));
    }
    if published && screen.contains("nothing was published") {
        return Err("says nothing was published after a publish".into());
    }
    // Where a badge (the header's, the gate's verdict) is in sight, it says what the
    // banner's "now" says ("published SHIP at" is what was posted, no badge).
    const DECISIONS: [&str; 4] = ["SHIP", "HOLD", "BLOCK", "INCONCLUSIVE"];
    let badges = |d: &str| {
        screen.matches(&format!(" {d} ")).count()
            - screen.matches(&format!("published {d} ")).count()
    };
    for decision in DECISIONS {
        let other = DECISIONS.iter().find(|d| **d != decision && badges(d) > 0);
        if screen.contains(&format!("now {decision}"))
            && badges(decision) == 0
            && let Some(other) = other
        {
            return Err(format!("the banner says now {decision}, a badge {other}"));
        }
    }
    // The gate offers what the banner says it does.
    if screen.contains("Approval gate")
        && screen.contains("publish again?")
        && !screen.contains("p publish")
    {
        return Err("the banner says publish again, the gate offers no p".into());
    }
    // A key and what it does stay on one line (`v` at a line's end, `view patch` below).
    for pair in screen.lines().collect::<Vec<_>>().windows(2) {
        // The line's end inside a box and its scroll bar.
        let mut end = pair[0].trim_end();
        for _ in 0..2 {
            end = end.strip_suffix(['│', '║', '█']).unwrap_or(end).trim_end();
        }
        let last = end.rsplit(' ').next().unwrap_or_default();
        if end.ends_with(&format!("  {last}"))
            && last.len() == 1
            && last.chars().all(|c| c.is_ascii_lowercase())
        {
            return Err(format!("a key cut from its word: {:?}", pair[0]));
        }
    }
    Ok(())
}

fn walk(width: u16, height: u16) {
    let size = format!("{width}x{height}");
    let server = start_with(repo_with(&format!(
        "{FEATURE_LIB}\npub const AWS_KEY: &str = \"{AWS_KEY}\";\n"
    )));
    let data = tempfile::tempdir().unwrap();
    let exit = data.path().join("exit");
    let binary = env!("CARGO_BIN_EXE_review-tui");
    let command = format!(
        "env -u GITHUB_TOKEN -u GITHUB_API_URL {binary} acme/widgets#7 --deterministic-only --api-url {}; echo $? > {}; sleep 30",
        server.url(),
        exit.display()
    );
    let mut tmux = Tmux::start(
        &format!("republish-{size}"),
        &command,
        width,
        height,
        &[
            ("REVIEW_TUI_DATA_DIR", data.path()),
            ("REVIEW_TUI_CONFIG", &data.path().join("no-config.toml")),
            ("REVIEW_TUI_PERSON", Path::new("tester")),
            ("GH_TOKEN", Path::new(TOKEN)),
        ],
    );
    tmux.poll_every(std::time::Duration::from_millis(50));
    let published = std::cell::Cell::new(false);
    // Waits for `ready`, holding every screen read on the way to `sound`.
    let wait = |what: &str, ready: &dyn Fn(&str) -> bool| {
        tmux.wait_for(&format!("{what} at {size}"), |s| {
            if let Err(wrong) = sound(s, width as usize, published.get()) {
                panic!("{size}, waiting for {what}: {wrong}\n{s}");
            }
            ready(s)
        })
    };
    wait("the verdict", &|s| s.contains("BLOCK"));
    tmux.keys(&["/"]);
    tmux.text("p0");
    tmux.keys(&["Enter"]);
    wait("the filter", &|s| s.contains("filter: p0"));
    tmux.keys(&["x"]);
    wait("the reason box", &|s| s.contains("why?"));
    tmux.text("a test key");
    tmux.keys(&["Enter"]);
    wait("the secret dismissed", &|s| !s.contains("BLOCK"));
    tmux.keys(&["g"]);
    wait("the gate", &|s| s.contains("Approval gate"));
    tmux.keys(&["p"]);
    wait("the preview", &|s| s.contains("enter publish"));
    tmux.keys(&["Enter"]);
    wait("the publication", &|s| s.contains("published:"));
    published.set(true);
    assert_eq!(server.bodies_to(REVIEWS).len(), 1, "{size}");
    // The gate right after: it names where the round went, never "nothing was published".
    tmux.keys(&["g"]);
    wait("the published gate", &|s| s.contains("Approval gate"));
    tmux.keys(&["a"]);
    wait("leaving the gate", &|s| s.contains("left the gate"));

    // Reopen the secret (undo the dismissal): BLOCK, and the banner says what was posted.
    tmux.keys(&["u"]);
    wait("the banner", &|s| {
        s.contains("BLOCK") && s.contains("now BLOCK") && s.contains("publish again")
    });
    tmux.keys(&["q"]);
    let left = wait("the line on leaving", &|s| {
        s.contains("review-tui: leaving at BLOCK")
    });
    assert!(left.contains("publish again"), "{size}: {left}");
    assert_eq!(tmux.exit_code(&exit), 6, "{size}: {left}");
    assert_eq!(server.bodies_to(REVIEWS).len(), 1, "{size}");

    // Reopened: the banner is still there; the gate publishes the change.
    std::fs::remove_file(&exit).unwrap();
    tmux.respawn(&command);
    wait("the banner after reopening", &|s| s.contains("now BLOCK"));
    tmux.keys(&["g"]);
    wait("the gate", &|s| s.contains("Approval gate"));
    tmux.keys(&["p"]);
    wait("the preview of publishing again", &|s| {
        s.contains("enter publish") && s.contains("round 1 again")
    });
    tmux.keys(&["Enter"]);
    wait("published again, the banner gone", &|s| {
        s.contains("published:") && !s.contains("now BLOCK")
    });
    let posted = server.bodies_to(REVIEWS);
    assert_eq!(posted.len(), 2, "{size}");
    assert_eq!(posted[1]["event"], "REQUEST_CHANGES", "{size}");
    // Nothing changed since: the gate offers nothing more.
    tmux.keys(&["g"]);
    wait("the gate", &|s| s.contains("Approval gate"));
    tmux.keys(&["p"]);
    wait("nothing to publish", &|s| {
        s.contains("changed since") && s.contains("was published")
    });
    tmux.keys(&["Escape"]);
    wait("the gate closed", &|s| !s.contains("Approval gate"));
    tmux.keys(&["q"]);
    assert_eq!(tmux.exit_code(&exit), 6, "{size}");
    let out = tmux.screen();
    assert!(!out.contains("review-tui: leaving at"), "{size}: {out}");
    assert_eq!(server.bodies_to(REVIEWS).len(), 2, "{size}");
}
