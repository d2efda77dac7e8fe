//! GitHub's size limits, against the fake GitHub that enforces them with GitHub's real answers:
//! a body over 65,536 characters is refused (422), and the diff media type is refused (406)
//! past 300 files or 20,000 lines. Every body posted stays under the limit, cut with a note and
//! its markers kept last; a PR too big for the diff media type is published with its anchors
//! checked against the files API.

use std::path::Path;
use std::process::Output;

use serde_json::json;

use crate::support::bot_pr;
use crate::support::git_repo::{ASKS_UNWRAP_USED, GitRepo};
use crate::support::github_server::GithubServer;
use review_tui::publish::markers;

const TOKEN: &str = "ghp_limitscanary5";
const REVIEWS: &str = "POST /repos/acme/widgets/pulls/7/reviews";
const MAX: usize = 65_536;

const BASE_LIB: &str = "pub fn add(a: i32, b: i32) -> i32 {\n    a + b\n}\n";
const FEATURE_LIB: &str = "pub fn add(a: i32, b: i32) -> i32 {\n    a + b\n}\n\npub fn port(text: &str) -> u16 {\n    text.parse().unwrap()\n}\n";

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn serve(extra: impl FnOnce(&GitRepo)) -> GithubServer {
    let repo = GitRepo::init();
    repo.write("src/lib.rs", BASE_LIB);
    repo.write("Cargo.toml", ASKS_UNWRAP_USED);
    repo.commit_all("initial import");
    repo.git(&["checkout", "--quiet", "-b", "feature"]);
    repo.write("src/lib.rs", FEATURE_LIB);
    extra(&repo);
    repo.commit_all("feature");
    bot_pr::serve(repo, TOKEN)
}

fn publish(server: &GithubServer, data: &Path, extra: &[&str]) -> Output {
    bot_pr::publish(server, data, TOKEN, extra)
}

/// Every text the publisher sent: review bodies, inline comments, summary edits, replies,
/// dismissal messages.
fn sent_texts(server: &GithubServer) -> Vec<String> {
    let mut texts = Vec::new();
    for request in server.requests().iter().filter(|r| !r.is_read()) {
        for body in server.bodies_to(&request.call()) {
            for key in ["body", "message"] {
                if let Some(t) = body[key].as_str() {
                    texts.push(t.to_string());
                }
            }
            for c in body["comments"].as_array().into_iter().flatten() {
                texts.push(c["body"].as_str().unwrap().to_string());
            }
        }
    }
    texts
}

/// A SARIF log: one error on the diff's `unwrap()` line whose message is `huge` characters
/// long (none when 0), and `many` warnings in files outside the diff (each listed in the
/// summary).
fn sarif(dir: &Path, huge: usize, many: usize) -> std::path::PathBuf {
    let mut results = vec![json!({
        "ruleId": "L1",
        "level": "error",
        "message": {"text": format!("Port parsing can panic\n\n{}", "overflow detail ".repeat(huge / 16))},
        "locations": [{"physicalLocation": {
            "artifactLocation": {"uri": "src/lib.rs"},
            "region": {"startLine": 6}
        }}]
    })];
    if huge == 0 {
        results.clear();
    }
    for i in 0..many {
        results.push(json!({
            "ruleId": "L2",
            "level": "warning",
            "message": {"text": format!("Finding {i} of a chatty linter: {}", "words ".repeat(40))},
            "locations": [{"physicalLocation": {
                "artifactLocation": {"uri": format!("vendor/generated_{i}.rs")},
                "region": {"startLine": i + 1}
            }}]
        }));
    }
    let log = json!({
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {"name": "chatty", "rules": [{"id": "L1"}, {"id": "L2"}]}},
            "results": results
        }]
    });
    let path = dir.join("chatty.sarif");
    std::fs::write(&path, serde_json::to_string(&log).unwrap()).unwrap();
    path
}

#[test]
fn every_body_posted_stays_under_githubs_limit_cut_with_a_note_and_its_markers_last() {
    let server = serve(|_| {});
    let head = server.pull().head_sha;
    let dir = tempfile::tempdir().unwrap();
    let log = sarif(dir.path(), 120_000, 600);
    let data = tempfile::tempdir().unwrap();
    let out = publish(&server, data.path(), &["--sarif", log.to_str().unwrap()]);
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(5), "{err}");
    assert!(err.contains("published round 1"), "{err}");

    // One review, taken at once: no 422, no resend.
    let posted = server.bodies_to(REVIEWS);
    assert_eq!(posted.len(), 1, "{err}");
    assert_eq!(server.pull().reviews.len(), 1);
    let body = posted[0]["body"].as_str().unwrap();
    assert!(body.chars().count() <= MAX, "{}", body.chars().count());
    assert!(body.starts_with("> [!WARNING]"), "{}", &body[..200]);
    assert!(body.contains("Cut here: this text is "), "the cut is said");
    assert!(markers::has(body, markers::SUMMARY));
    assert!(markers::has(body, &markers::round(1, &head)));
    // The huge finding's inline comment: cut too, its fingerprint marker still last.
    let inline = posted[0]["comments"].as_array().unwrap();
    let huge = inline
        .iter()
        .map(|c| c["body"].as_str().unwrap())
        .find(|b| b.contains("Port parsing can panic"))
        .expect("the huge finding is commented inline");
    assert!(huge.chars().count() <= MAX);
    // Its 120,000-character message was already capped where it entered the board (every
    // reviewer-written field is), and the cap says how much it cut.
    assert!(
        huge.contains("(truncated: "),
        "{}",
        &huge[huge.len() - 400..]
    );
    assert!(markers::fingerprint_in(huge).is_some());

    // The next round (both findings on the diff fixed) edits the summary and resolves its comment:
    // those bodies fit too, and the edited summary is still ours.
    server.push(|repo| {
        repo.write(
            "src/lib.rs",
            &FEATURE_LIB.replace(".unwrap()", ".unwrap_or(0)"),
        );
        repo.commit_all("feature: no panic")
    });
    let log = sarif(dir.path(), 0, 600);
    let again = publish(&server, data.path(), &["--sarif", log.to_str().unwrap()]);
    let err = text(&again.stderr);
    assert_eq!(again.status.code(), Some(0), "{err}");
    assert!(err.contains("(summary edited)"), "{err}");
    // The huge finding and the unwrap() are gone.
    assert!(err.contains("2 marked resolved"), "{err}");
    let summary_id = server.pull().reviews[0].id;
    let edits = server.bodies_to(&format!(
        "PUT /repos/acme/widgets/pulls/7/reviews/{summary_id}"
    ));
    assert_eq!(edits.len(), 1);
    let edited = edits[0]["body"].as_str().unwrap();
    assert!(edited.contains("Cut here"));
    assert!(markers::has(edited, markers::SUMMARY));
    for t in sent_texts(&server) {
        assert!(
            t.chars().count() <= MAX,
            "{} characters sent",
            t.chars().count()
        );
    }
}

#[test]
fn a_pr_too_big_for_the_diff_media_type_is_published_with_anchors_from_the_files_api() {
    // 120 files: the files API lists them over two pages (100 a page); the finding is in the
    // last one.
    let server = serve(|repo| {
        for i in 0..120 {
            repo.write(&format!("src/m{i:03}.rs"), &format!("pub fn f{i}() {{}}\n"));
        }
        repo.write(
            "src/m119.rs",
            "pub fn last(text: &str) -> u16 {\n    text.parse().unwrap()\n}\n",
        );
    });
    server.set_diff_limits(100, 20_000);
    let data = tempfile::tempdir().unwrap();
    let out = publish(&server, data.path(), &[]);
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert!(err.contains("published round 1"), "{err}");
    // The diff media type was refused, the files were read page by page.
    let diff_reads = server.requests_to("GET /repos/acme/widgets/pulls/7");
    assert!(!diff_reads.is_empty());
    let pages = server.requests_to("GET /repos/acme/widgets/pulls/7/files");
    assert!(
        pages
            .iter()
            .any(|r| r.query.as_deref().is_some_and(|q| q.contains("page=2"))),
        "{pages:?}"
    );
    let posted = server.bodies_to(REVIEWS);
    assert_eq!(posted.len(), 1);
    let mut inline: Vec<(String, u64)> = posted[0]["comments"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["path"].as_str().unwrap().to_string(),
                c["line"].as_u64().unwrap(),
            )
        })
        .collect();
    inline.sort();
    assert_eq!(
        inline,
        [
            ("src/lib.rs".to_string(), 6),
            ("src/m119.rs".to_string(), 2)
        ]
    );
    let body = posted[0]["body"].as_str().unwrap();
    assert!(
        body.contains("GitHub does not show this pull request's diff whole (Sorry, the diff exceeded the maximum number of files"),
        "{body}"
    );
}
