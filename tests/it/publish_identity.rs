//! Which finding is which across rounds, as the fake GitHub sees it: identical offending lines
//! in one file are separate problems (each gets its comment, each matches itself later), and a
//! file renamed within the pull request keeps its findings' comments (no repeat, no false
//! "Resolved").

use std::path::Path;
use std::process::Output;

use serde_json::Value;

use crate::support::bot_pr;
use crate::support::git_repo::{ASKS_UNWRAP_USED, GitRepo};
use crate::support::github_server::GithubServer;
use review_tui::publish::markers;

const TOKEN: &str = "ghp_identitycanary3";
const REVIEWS: &str = "POST /repos/acme/widgets/pulls/7/reviews";

const BASE_LIB: &str = "pub fn add(a: i32, b: i32) -> i32 {\n    a + b\n}\n";
/// Two identical offending lines (`rust/unwrap`) in one file.
const TWICE: &str = "\npub fn ports(a: &str, b: &str) -> (u16, u16) {\n    let x = a.parse().unwrap();\n    let y = b.parse().unwrap();\n    (x, y)\n}\n\npub fn port(text: &str) -> u16 {\n    text.parse().unwrap()\n}\n\npub fn again(text: &str) -> u16 {\n    text.parse().unwrap()\n}\n";

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A PR whose feature branch writes `path` with `content`.
fn server_with(path: &str, content: &str) -> GithubServer {
    let repo = GitRepo::init();
    repo.write("src/lib.rs", BASE_LIB);
    repo.write("README.md", "# widgets\n");
    repo.write("Cargo.toml", ASKS_UNWRAP_USED);
    repo.commit_all("initial import");
    repo.git(&["checkout", "--quiet", "-b", "feature"]);
    repo.write(path, content);
    repo.commit_all("feature");
    bot_pr::serve(repo, TOKEN)
}

fn publish(server: &GithubServer, data: &Path) -> Output {
    bot_pr::publish(server, data, TOKEN, &[])
}

/// (path, line, fingerprint) of each inline comment of a posted review.
fn inline(review: &Value) -> Vec<(String, u64, String)> {
    let mut all: Vec<_> = review["comments"]
        .as_array()
        .cloned()
        .unwrap_or_default()
        .iter()
        .map(|c| {
            let body = c["body"].as_str().unwrap();
            (
                c["path"].as_str().unwrap().to_string(),
                c["line"].as_u64().unwrap(),
                markers::fingerprint_in(body).unwrap().to_string(),
            )
        })
        .collect();
    all.sort();
    all
}

fn replies(server: &GithubServer) -> usize {
    server
        .requests()
        .iter()
        .filter(|r| r.method == "POST" && r.path.ends_with("/replies"))
        .count()
}

#[test]
fn identical_offending_lines_each_get_a_comment_and_each_matches_itself_next_round() {
    let server = server_with("src/lib.rs", &format!("{BASE_LIB}{TWICE}"));
    let data = tempfile::tempdir().unwrap();
    let first = publish(&server, data.path());
    assert_eq!(first.status.code(), Some(0), "{}", text(&first.stderr));
    let posted = server.bodies_to(REVIEWS);
    assert_eq!(posted.len(), 1);
    let round1 = inline(&posted[0]);
    let lines: Vec<u64> = round1.iter().map(|(_, line, _)| *line).collect();
    // Lines 6 and 7 (`a`/`b` differ, so not identical), 12 and 16 (identical): four comments,
    // four different fingerprints.
    assert_eq!(lines, [6, 7, 12, 16], "{round1:?}");
    let mut prints: Vec<&String> = round1.iter().map(|(_, _, fp)| fp).collect();
    prints.sort();
    prints.dedup();
    assert_eq!(prints.len(), 4, "{round1:?}");
    // The first of the identical pair keeps the print it had before occurrences counted, so a
    // PR published by an earlier version matches it.
    let plain = review_tui::review::fingerprint(
        "rust/unwrap-outside-tests",
        "src/lib.rs",
        &["    text.parse().unwrap()"],
    );
    assert_eq!(round1[2].2, plain, "{round1:?}");

    // The next push adds a line above everything: the same four problems, nothing new, nothing
    // resolved.
    server.push(|repo| {
        repo.write("src/lib.rs", &format!("//! Widgets.\n{BASE_LIB}{TWICE}"));
        repo.commit_all("feature: a doc line")
    });
    let second = publish(&server, data.path());
    let err = text(&second.stderr);
    assert_eq!(second.status.code(), Some(0), "{err}");
    assert!(err.contains("0 inline comment(s)"), "{err}");
    assert!(err.contains("0 marked resolved"), "{err}");
    assert_eq!(replies(&server), 0);
    assert_eq!(server.pull().review_comments.len(), 4);

    // A third identical line, added below: one more comment, on it; still nothing resolved.
    server.push(|repo| {
        repo.write(
            "src/lib.rs",
            &format!(
                "//! Widgets.\n{BASE_LIB}{TWICE}\npub fn third(text: &str) -> u16 {{\n    text.parse().unwrap()\n}}\n"
            ),
        );
        repo.commit_all("feature: a third port")
    });
    let third = publish(&server, data.path());
    let err = text(&third.stderr);
    assert_eq!(third.status.code(), Some(0), "{err}");
    let posted = server.bodies_to(REVIEWS);
    let added = inline(posted.last().unwrap());
    assert_eq!(added.len(), 1, "{added:?}");
    assert_eq!(added[0].1, 21, "{added:?}");
    assert!(!prints.contains(&&added[0].2), "{added:?}");
    assert_eq!(replies(&server), 0);
}

const PORTS: &str = "pub fn port(text: &str) -> u16 {\n    text.parse().unwrap()\n}\n\npub fn again(text: &str) -> u16 {\n    text.parse().unwrap()\n}\n";

#[test]
fn a_renamed_file_keeps_its_comments_nothing_is_reposted_or_falsely_resolved() {
    let server = server_with("src/port.rs", PORTS);
    let local = tempfile::tempdir().unwrap();
    let first = publish(&server, local.path());
    assert_eq!(first.status.code(), Some(0), "{}", text(&first.stderr));
    let round1 = inline(&server.bodies_to(REVIEWS)[0]);
    assert_eq!(
        round1
            .iter()
            .map(|(p, l, _)| (p.as_str(), *l))
            .collect::<Vec<_>>(),
        [("src/port.rs", 2), ("src/port.rs", 6)],
        "{round1:?}"
    );

    // A pure `git mv`, then a rename with an edit above (git still sees a rename).
    server.push(|repo| {
        repo.git(&["mv", "src/port.rs", "src/net.rs"]);
        repo.commit_all("feature: move the ports")
    });
    let moved_head = server.push(|repo| {
        repo.git(&["mv", "src/net.rs", "src/ports.rs"]);
        repo.write("src/ports.rs", &format!("//! Ports.\n{PORTS}"));
        repo.commit_all("feature: name the module")
    });
    assert!(server.served_diff().contains("+++ b/src/ports.rs"));

    // A fresh CI space (no earlier round on this machine): the history says what the file was.
    let ci = tempfile::tempdir().unwrap();
    let second = publish(&server, ci.path());
    let err = text(&second.stderr);
    assert_eq!(second.status.code(), Some(0), "{err}");
    assert!(err.contains("0 inline comment(s)"), "{err}");
    assert!(err.contains("0 marked resolved"), "{err}");
    assert_eq!(replies(&server), 0);
    assert_eq!(server.pull().review_comments.len(), 2);
    // The summary (edited) lists both findings at their new place, and nothing as re-found.
    let summary_id = server.pull().reviews[0].id;
    let edits = server.bodies_to(&format!(
        "PUT /repos/acme/widgets/pulls/7/reviews/{summary_id}"
    ));
    let summary = edits.last().unwrap()["body"].as_str().unwrap();
    assert!(summary.contains("`src/ports.rs:3`"), "{summary}");
    assert!(summary.contains("`src/ports.rs:7`"), "{summary}");
    assert!(!summary.contains("not re-found"), "{summary}");
    assert!(summary.contains(&format!("head={moved_head}")), "{summary}");

    // The space that published round 1 agrees: its round 2 matches round 1's findings.
    let again = publish(&server, local.path());
    let err = text(&again.stderr);
    assert_eq!(again.status.code(), Some(0), "{err}");
    assert!(err.contains("0 inline comment(s)"), "{err}");
    assert_eq!(replies(&server), 0);
    assert_eq!(server.pull().review_comments.len(), 2);
    let state: Value = serde_json::from_str(
        &std::fs::read_to_string(crate::cockpit::find_state(local.path()).unwrap()).unwrap(),
    )
    .unwrap();
    let prints = |round: usize| -> Vec<String> {
        let mut v: Vec<String> = state["rounds"][round]["fingerprints"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| f.as_str().unwrap().to_string())
            .collect();
        v.sort();
        v
    };
    assert_eq!(prints(0), prints(1), "{state:#}");
}
