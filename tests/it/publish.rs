//! Publishing a reviewed round: the real binary (and the library, where a step must happen
//! between two calls) against the fake GitHub on 127.0.0.1, which records reviews, comments and
//! replies, answers GitHub's real 422s and checks every request body against the description.
//! The feature branch plants an `unwrap()` (a P3 advisory observation) and a fake AWS key (a P0 secret),
//! which the deterministic reviewers find.

use std::path::Path;
use std::process::Output;

use serde_json::Value;

use crate::cli::review_tui;
use crate::support::git_repo::{ASKS_UNWRAP_USED, GitRepo};
use crate::support::github_server::{
    Fault, GithubServer, PullSpec, ReviewCommentSpec, ReviewSpec, UserSpec, minute_stamp,
};

const TOKEN: &str = "ghp_publishercanary7";
const LOGIN: &str = "review-bot";
const AWS_KEY: &str = "AKIAZ4DEMQ7Q2LXWRT5W";
const REVIEWS: &str = "POST /repos/acme/widgets/pulls/7/reviews";
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

pub(crate) fn planted_repo() -> GitRepo {
    let repo = GitRepo::init();
    repo.write("src/lib.rs", BASE_LIB);
    repo.write("README.md", "# widgets\n");
    repo.write("Cargo.toml", ASKS_UNWRAP_USED);
    repo.commit_all("initial import");
    repo.git(&["checkout", "--quiet", "-b", "feature"]);
    repo.write("src/lib.rs", &feature_lib(true, false));
    repo.commit_all("feature: parse a port");
    repo.git(&["update-ref", "refs/pull/7/head", "feature"]);
    repo
}

/// The PR, opened by `author`; the token authenticates as `LOGIN`.
fn start(author: &str) -> GithubServer {
    let repo = planted_repo();
    let mut pull = PullSpec::from_repo(&repo, "acme", "widgets", 7);
    pull.author = UserSpec::user(author);
    let server = GithubServer::start(repo, pull);
    server.accept_token(TOKEN, LOGIN);
    server
}

fn run(server: &GithubServer, data: &Path, extra: &[&str]) -> Output {
    review_tui()
        .args(["acme/widgets#7", "--headless", "--deterministic-only"])
        // These tests are about what an approval does; without the person's choice a Ship no
        // model read is a comment (`a_ship_no_model_read_is_a_comment_unless_chosen`).
        .arg("--approve-without-models")
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

fn comments(review: &Value) -> Vec<Value> {
    review["comments"].as_array().cloned().unwrap_or_default()
}

/// Every body the publisher sent, and everything it printed: no secret, no token.
fn assert_nothing_leaked(server: &GithubServer, outputs: &[&Output]) {
    for request in server.requests() {
        if !request.is_read() {
            let bodies = server.bodies_to(&request.call());
            let text = serde_json::to_string(&bodies).unwrap();
            assert!(!text.contains(AWS_KEY), "{}: {text}", request.call());
        }
    }
    for out in outputs {
        for stream in [text(&out.stdout), text(&out.stderr)] {
            assert!(!stream.contains(AWS_KEY), "{stream}");
            assert!(!stream.contains(TOKEN), "{stream}");
        }
    }
}

/// The fingerprints the review finds, by rule, from a run that publishes nothing.
fn fingerprints(server: &GithubServer) -> Vec<(String, String)> {
    let data = tempfile::tempdir().unwrap();
    let out = run(server, data.path(), &["--format", "json"]);
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                f["rule"].as_str().unwrap().to_string(),
                f["fingerprint"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

fn fingerprint_of(server: &GithubServer, rule_prefix: &str) -> String {
    fingerprints(server)
        .into_iter()
        .find(|(rule, _)| rule.starts_with(rule_prefix))
        .unwrap()
        .1
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
fn a_round_is_one_review_with_inline_comments_and_the_summary_and_never_twice() {
    let server = start("octocat");
    let head = server.pull().head_sha;
    server.set_check_runs(&head, &[("build", "completed", Some("success"))]);
    let data = tempfile::tempdir().unwrap();
    let out = run(&server, data.path(), &["--publish", "--format", "markdown"]);
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(6), "{err}");
    assert!(
        err.contains("published round 1 as REQUEST_CHANGES"),
        "{err}"
    );

    let posted = server.bodies_to(REVIEWS);
    assert_eq!(posted.len(), 1);
    let review = &posted[0];
    assert_eq!(review["event"], "REQUEST_CHANGES");
    assert_eq!(review["commit_id"], head.as_str());
    let body = review["body"].as_str().unwrap();
    assert!(
        body.starts_with("> [!CAUTION]\n> **Blocked: 1 problem must be fixed**\n\nBLOCK · "),
        "{body}"
    );
    for needle in [
        "### Fix before merge",
        "found by secret scan",
        "### Observations",
        "`src/lib.rs:6` `unwrap()` outside tests can panic · P3 · rust/unwrap-outside-tests",
        "<details>",
        "- build: success (",
        SUMMARY,
        &format!("<!-- review-tui:round=1 head={head} -->"),
    ] {
        assert!(body.contains(needle), "{needle:?} missing from:\n{body}");
    }
    let inline = comments(review);
    assert_eq!(inline.len(), 2, "{inline:?}");
    for comment in &inline {
        assert_eq!(comment["side"], "RIGHT");
        assert!(comment.get("start_line").is_none(), "{comment}");
        let text = comment["body"].as_str().unwrap();
        assert!(text.contains("\n— review-tui · "), "{text}");
        assert!(text.contains("<!-- review-tui:fp="), "{text}");
    }
    // --format markdown prints the posted body, without its hidden markers.
    let printed = text(&out.stdout);
    let visible: Vec<&str> = body
        .lines()
        .filter(|l| !l.starts_with("<!-- review-tui:"))
        .collect();
    assert_eq!(printed.trim_end(), visible.join("\n").trim_end());

    // A second run of the same round on the same head (a fresh CI space) finds the round's
    // marker and posts nothing.
    let again_dir = tempfile::tempdir().unwrap();
    let again = run(&server, again_dir.path(), &["--publish"]);
    let err = text(&again.stderr);
    assert_eq!(again.status.code(), Some(6), "{err}");
    assert!(err.contains("already published"), "{err}");
    assert!(err.contains("#pullrequestreview-"), "{err}");
    assert_eq!(server.bodies_to(REVIEWS).len(), 1);
    assert_eq!(server.pull().reviews.len(), 1);
    assert_nothing_leaked(&server, &[&out, &again]);
}

/// A token-shaped secret in the PR's own text (its title and description) and GitHub quoting one
/// back in a refusal: through the one redaction point, none of it is posted to GitHub, printed
/// on stdout or stderr, or written to the space.
#[test]
fn secrets_in_the_pr_text_and_in_githubs_answers_are_never_posted_printed_or_stored() {
    let pat = "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";
    let server = start("octocat");
    server.update_pull(|pull| {
        pull.title = format!("Parse a port (deploy token {pat})");
        pull.body = Some(format!("Deploy with GH_TOKEN={pat} once merged."));
    });
    let data = tempfile::tempdir().unwrap();
    let out = run(&server, data.path(), &["--publish", "--format", "text"]);
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(6), "{err}");
    assert_eq!(server.bodies_to(REVIEWS).len(), 1, "{err}");
    // The PR's title is in the report, redacted where it stands.
    assert!(
        text(&out.stdout).contains("deploy token ghp_…"),
        "{}",
        text(&out.stdout)
    );

    // Another PR with the same text, whose review GitHub refuses, quoting the token back.
    let refusing = start("octocat");
    refusing.update_pull(|pull| {
        pull.title = format!("Parse a port (deploy token {pat})");
        pull.body = Some(format!("Deploy with GH_TOKEN={pat} once merged."));
    });
    refusing.fail_always(
        REVIEWS,
        Fault::Says {
            status: 422,
            message: format!("Validation Failed: body contains {pat}"),
        },
    );
    let refused_dir = tempfile::tempdir().unwrap();
    let refused = run(
        &refusing,
        refused_dir.path(),
        &["--publish", "--format", "json"],
    );
    let refused_err = text(&refused.stderr);
    assert!(refused_err.contains("Validation Failed"), "{refused_err}");

    assert_nothing_leaked(&server, &[&out]);
    assert_nothing_leaked(&refusing, &[&refused]);
    let mut written = Vec::new();
    for dir in [data.path(), refused_dir.path()] {
        collect_files(dir, &mut written);
    }
    assert!(written.iter().any(|p| p.ends_with("state.json")));
    for (place, text) in server
        .requests()
        .into_iter()
        .filter(|r| !r.is_read())
        .map(|r| {
            let bodies = server.bodies_to(&r.call());
            (r.call(), serde_json::to_string(&bodies).unwrap())
        })
        .chain([
            ("stdout".to_string(), text(&out.stdout)),
            ("stderr".to_string(), err.clone()),
            ("refused stdout".to_string(), text(&refused.stdout)),
            ("refused stderr".to_string(), refused_err.clone()),
        ])
        .chain(written.iter().map(|path| {
            let bytes = std::fs::read(path).unwrap_or_default();
            (
                path.display().to_string(),
                String::from_utf8_lossy(&bytes).into_owned(),
            )
        }))
    {
        assert!(
            !text.contains(&pat[4..]),
            "{place} holds the token:\n{text}"
        );
    }
}

/// Every regular file under `dir`, outside git's compressed objects.
fn collect_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        if path.is_dir() {
            if entry.file_name() != "objects" {
                collect_files(&path, out);
            }
        } else {
            out.push(path);
        }
    }
}

#[test]
fn the_persons_edited_comment_is_posted_in_place_of_the_generated_one_and_follows_its_finding() {
    let server = start("octocat");
    let data = tempfile::tempdir().unwrap();
    let first = run(&server, data.path(), &[]);
    assert_eq!(first.status.code(), Some(6), "{}", text(&first.stderr));
    // `e` in the cockpit writes the person's text into state.json, by node id.
    let state_path = crate::cockpit::find_state(data.path()).unwrap();
    let mut state: Value =
        serde_json::from_str(&std::fs::read_to_string(&state_path).unwrap()).unwrap();
    let node = state["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|n| n["rule"].as_str().is_some_and(|r| r.contains("unwrap")))
        .unwrap()
        .clone();
    let edited = "Parse with `?` and say which port was bad. <!-- review-tui:fp=0000 -->";
    state["comments"] = serde_json::json!({ node["id"].as_str().unwrap(): edited });
    std::fs::write(&state_path, serde_json::to_string_pretty(&state).unwrap()).unwrap();

    // A new round finds the same problem under a new id: the edit follows its fingerprint.
    let out = run(&server, data.path(), &["--force", "--publish"]);
    assert_eq!(out.status.code(), Some(6), "{}", text(&out.stderr));
    let posted = server.bodies_to(REVIEWS);
    assert_eq!(posted.len(), 1);
    let inline = comments(&posted[0]);
    let fingerprint = node["fingerprint"].as_str().unwrap();
    let on_unwrap = inline
        .iter()
        .map(|c| c["body"].as_str().unwrap())
        .find(|body| body.contains(&format!("<!-- review-tui:fp={fingerprint} -->")))
        .expect("the unwrap finding's inline comment");
    assert!(
        on_unwrap.contains("Parse with `?` and say which port was bad."),
        "{on_unwrap}"
    );
    // The generated title is replaced, and the person's text cannot plant a marker.
    assert!(
        !on_unwrap.contains("outside tests can panic"),
        "{on_unwrap}"
    );
    assert!(
        !on_unwrap.contains("<!-- review-tui:fp=0000"),
        "{on_unwrap}"
    );
    // The summary lists the observation with the person's comment under it.
    let body = posted[0]["body"].as_str().unwrap();
    assert!(
        body.contains("  - **Comment:** Parse with `?` and say which port was bad."),
        "{body}"
    );
    let state = state_json(data.path());
    assert_eq!(state["ladder"], "completed");
    assert_eq!(state["comments"].as_object().unwrap().len(), 1, "{state:#}");
    assert_nothing_leaked(&server, &[&first, &out]);
}

#[test]
fn without_publish_nothing_is_posted_and_it_says_how() {
    let server = start("octocat");
    let data = tempfile::tempdir().unwrap();
    let out = run(&server, data.path(), &[]);
    assert_eq!(out.status.code(), Some(6));
    let err = text(&out.stderr);
    assert!(
        err.contains("nothing was published: add --publish"),
        "{err}"
    );
    assert!(server.requests().iter().all(|r| r.is_read()));
    // The text report opens with the same decision and facts line as the summary would.
    let report = text(&out.stdout);
    assert!(
        report.starts_with(
            "Blocked: 1 problem must be fixed\nBLOCK · no model reviewer read this change"
        ),
        "{report}"
    );
}

#[test]
fn on_ones_own_pr_the_intended_decision_is_stated_in_a_comment() {
    let server = start(LOGIN);
    let data = tempfile::tempdir().unwrap();
    let out = run(&server, data.path(), &["--publish"]);
    assert_eq!(out.status.code(), Some(6), "{}", text(&out.stderr));
    let posted = server.bodies_to(REVIEWS);
    assert_eq!(posted.len(), 1);
    assert_eq!(posted[0]["event"], "COMMENT");
    let body = posted[0]["body"].as_str().unwrap();
    assert!(
        body.contains("Intended decision: **REQUEST_CHANGES**"),
        "{body}"
    );
}

#[test]
fn a_ship_no_model_read_is_a_comment_unless_chosen() {
    // The feature without the key: the rules find only an observation, so the round Ships.
    let clean = || {
        let repo = GitRepo::init();
        repo.write("src/lib.rs", BASE_LIB);
        repo.commit_all("initial import");
        repo.git(&["checkout", "--quiet", "-b", "feature"]);
        repo.write("src/lib.rs", &feature_lib(false, false));
        repo.commit_all("feature: parse a port");
        repo.git(&["update-ref", "refs/pull/7/head", "feature"]);
        let mut pull = PullSpec::from_repo(&repo, "acme", "widgets", 7);
        pull.author = UserSpec::user("octocat");
        let server = GithubServer::start(repo, pull);
        server.accept_token(TOKEN, LOGIN);
        server
    };
    let server = clean();
    let data = tempfile::tempdir().unwrap();
    let out = review_tui()
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
        .output()
        .unwrap();
    let report = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    // No confidence is claimed for a verdict no model checked.
    let facts = report.lines().nth(1).unwrap_or_default();
    assert!(
        facts.starts_with("SHIP · no model reviewer read this change"),
        "{report}"
    );
    assert!(!facts.contains("confidence"), "{facts}");
    let posted = server.bodies_to(REVIEWS);
    assert_eq!(posted.len(), 1);
    assert_eq!(posted[0]["event"], "COMMENT", "{}", posted[0]);
    let body = posted[0]["body"].as_str().unwrap();
    assert!(body.contains("not an approval"), "{body}");
    assert!(body.contains("`--approve-without-models`"), "{body}");

    // The person's choice approves.
    let server = clean();
    let data = tempfile::tempdir().unwrap();
    let out = run(&server, data.path(), &["--publish"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let posted = server.bodies_to(REVIEWS);
    assert_eq!(posted[0]["event"], "APPROVE", "{}", posted[0]);
    assert!(
        !posted[0]["body"]
            .as_str()
            .unwrap()
            .contains("not an approval")
    );
}

#[test]
fn the_fake_answers_bad_reviews_with_githubs_real_422s() {
    use review_tui::pr::forge::{NewReview, NewReviewComment, ReviewEvent, Side};
    use review_tui::pr::github::{GithubClient, GithubConfig, GithubForge};
    let server = start(LOGIN);
    let head = server.pull().head_sha;
    let client = GithubClient::new(GithubConfig::new(
        server.url(),
        review_tui::pr::Token::new(TOKEN),
    ))
    .unwrap();
    let forge = GithubForge::new(client, "acme", "widgets", 7).unwrap();
    let comment = |path: &str, start_line: Option<u32>, line: u32| NewReviewComment {
        path: path.into(),
        line,
        side: Side::Right,
        start_line,
        start_side: start_line.map(|_| Side::Right),
        body: "x".into(),
    };
    let review = |event, comments| NewReview {
        commit_id: review_tui::commit_id::CommitId::parse(&head).unwrap(),
        event,
        body: "b".into(),
        comments,
        replace_pending: Vec::new(),
        summary: true,
    };
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let cases = [
        (
            review(ReviewEvent::Approve, vec![]),
            "Can not approve your own pull request",
        ),
        (
            review(ReviewEvent::RequestChanges, vec![]),
            "Can not request changes on your own pull request",
        ),
        (
            review(
                ReviewEvent::Comment,
                vec![comment("src/lib.rs", Some(6), 6)],
            ),
            "start line must precede the end line",
        ),
        (
            review(ReviewEvent::Comment, vec![comment("nope.rs", None, 1)]),
            "path is invalid",
        ),
        (
            review(ReviewEvent::Comment, vec![comment("src/lib.rs", None, 40)]),
            "line must be part of the diff",
        ),
    ];
    for (bad, expected) in cases {
        let err = runtime.block_on(forge.create_review(&bad)).unwrap_err();
        assert!(err.is_unprocessable(), "{err}");
        assert!(err.to_string().contains(expected), "{err}");
        assert!(
            err.to_string()
                .contains("POST /repos/acme/widgets/pulls/7/reviews")
        );
    }
    assert!(server.pull().reviews.is_empty());
}

#[test]
fn when_github_refuses_an_anchor_the_review_is_resent_once_with_every_finding_in_the_body() {
    let server = start("octocat");
    server.refuse_anchors_in("src/lib.rs");
    let data = tempfile::tempdir().unwrap();
    let out = run(&server, data.path(), &["--publish"]);
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(6), "{err}");
    assert!(err.contains("refused the inline comments"), "{err}");
    let posted = server.bodies_to(REVIEWS);
    assert_eq!(posted.len(), 2);
    assert_eq!(comments(&posted[0]).len(), 2);
    assert!(comments(&posted[1]).is_empty());
    let body = posted[1]["body"].as_str().unwrap();
    for needle in [
        "GitHub refused the inline comments (Pull request review thread line must be part of the diff",
        "### Findings on lines",
        "Hardcoded secret: AWS access key id",
        "`unwrap()` outside tests can panic",
        SUMMARY,
    ] {
        assert!(body.contains(needle), "{needle:?} missing from:\n{body}");
    }
    assert_eq!(server.pull().reviews.len(), 1);
    assert_nothing_leaked(&server, &[&out]);
}

#[test]
fn a_connection_dropped_after_the_review_was_created_never_leads_to_a_second_review() {
    let server = start("octocat");
    server.script(REVIEWS, [Fault::DropAfterHandling]);
    let data = tempfile::tempdir().unwrap();
    let first = run(&server, data.path(), &["--publish"]);
    let err = text(&first.stderr);
    assert_eq!(first.status.code(), Some(4), "{err}");
    assert!(err.contains("submitting the review"), "{err}");
    assert!(err.contains("may or may not have been created"), "{err}");
    // GitHub has it; the space says "publishing".
    assert_eq!(server.pull().reviews.len(), 1);
    let state = state_json(data.path());
    assert_eq!(state["publishes"][0]["state"], "publishing", "{state}");

    // A re-run (a new round over the same head) finds round 1's marker, records it, and edits
    // that review's summary instead of posting another review.
    let second = run(&server, data.path(), &["--publish", "--force"]);
    let err = text(&second.stderr);
    assert_eq!(second.status.code(), Some(6), "{err}");
    assert_eq!(server.requests_to(REVIEWS).len(), 1, "{err}");
    assert_eq!(server.pull().reviews.len(), 1);
    let id = server.pull().reviews[0].id;
    let put = format!("PUT /repos/acme/widgets/pulls/7/reviews/{id}");
    assert_eq!(server.bodies_to(&put).len(), 1);
    let state = state_json(data.path());
    assert_eq!(state["publishes"][0]["round"], 1, "{state}");
    assert_eq!(state["publishes"][0]["state"], "published", "{state}");
    assert_eq!(state["publishes"][0]["review_id"], id.to_string());
    assert_eq!(state["publishes"][1]["round"], 2, "{state}");
}

#[test]
fn the_next_round_edits_the_summary_repeats_no_comment_and_resolves_what_is_gone() {
    let server = start("octocat");
    let data = tempfile::tempdir().unwrap();
    let first = run(&server, data.path(), &["--publish"]);
    assert_eq!(first.status.code(), Some(6), "{}", text(&first.stderr));
    let summary_id = server.pull().reviews[0].id;
    let secret_comment = server
        .pull()
        .review_comments
        .iter()
        .find(|c| c.body.contains("AWS access key"))
        .unwrap()
        .id;

    // The push removes the key and moves the unwrap() two lines down.
    let new_head = server.push(|repo| {
        repo.git(&["checkout", "--quiet", "feature"]);
        repo.write("src/lib.rs", &feature_lib(false, true));
        repo.commit_all("feature: drop the key")
    });
    let second = run(&server, data.path(), &["--publish"]);
    let err = text(&second.stderr);
    assert_eq!(second.status.code(), Some(0), "{err}");
    // Round 1's REQUEST_CHANGES no longer stands: Ship dismissed it, naming the round.
    assert!(
        err.contains(&format!(
            "dismissed our earlier REQUEST_CHANGES (review {summary_id})"
        )),
        "{err}"
    );
    let dismissals = server.bodies_to(&format!(
        "PUT /repos/acme/widgets/pulls/7/reviews/{summary_id}/dismissals"
    ));
    assert_eq!(dismissals.len(), 1);
    assert!(
        dismissals[0]["message"]
            .as_str()
            .unwrap()
            .starts_with(&format!(
                "Superseded by review-tui round 2 on {}",
                &new_head[..10]
            )),
        "{dismissals:?}"
    );
    let states: Vec<String> = server
        .pull()
        .reviews
        .iter()
        .map(|r| r.state.clone())
        .collect();
    assert_eq!(states, ["DISMISSED", "APPROVED"]);

    let put = format!("PUT /repos/acme/widgets/pulls/7/reviews/{summary_id}");
    let edits = server.bodies_to(&put);
    assert_eq!(edits.len(), 1, "{err}");
    let summary = edits[0]["body"].as_str().unwrap();
    assert!(
        summary.starts_with("> [!NOTE]\n> **Approved with 1 observation**"),
        "{summary}"
    );
    assert!(summary.contains(SUMMARY));
    assert!(summary.contains(&format!("round=2 head={new_head}")));
    assert!(
        summary.contains("#### Previous rounds not re-found"),
        "{summary}"
    );

    // The decision changed, so round 2 has its own review: a pointer, no summary, no repeat.
    let posted = server.bodies_to(REVIEWS);
    assert_eq!(posted.len(), 2);
    assert_eq!(posted[1]["event"], "APPROVE");
    assert!(comments(&posted[1]).is_empty(), "{:?}", posted[1]);
    let pointer = posted[1]["body"].as_str().unwrap();
    assert!(!pointer.contains(SUMMARY), "{pointer}");
    assert!(
        pointer.contains(&format!("pullrequestreview-{summary_id}")),
        "{pointer}"
    );

    let replies = server.bodies_to(&format!(
        "POST /repos/acme/widgets/pulls/7/comments/{secret_comment}/replies"
    ));
    assert_eq!(replies.len(), 1);
    let reply = replies[0]["body"].as_str().unwrap();
    assert!(
        reply.starts_with(&format!("Resolved in {}", &new_head[..10])),
        "{reply}"
    );
    let all_replies = server
        .requests()
        .iter()
        .filter(|r| r.path.ends_with("/replies"))
        .count();
    assert_eq!(all_replies, 1);
    assert_nothing_leaked(&server, &[&first, &second]);
}

#[test]
fn markers_planted_by_another_user_are_ignored() {
    let server = start("octocat");
    let head = server.pull().head_sha;
    let unwrap_fp = fingerprint_of(&server, "rust/unwrap");
    let mallory = UserSpec::user("mallory");
    server.update_pull(|pull| {
        pull.reviews.push(ReviewSpec {
            id: 100,
            author: mallory.clone(),
            body: format!("{SUMMARY}\n<!-- review-tui:round=1 head={head} -->"),
            state: "COMMENTED".into(),
            commit_id: head.clone(),
        });
        pull.review_comments.push(ReviewCommentSpec {
            id: 101,
            review_id: Some(100),
            author: mallory.clone(),
            body: format!("<!-- review-tui:fp={unwrap_fp} -->"),
            path: "src/lib.rs".into(),
            line: 6,
            side: "RIGHT".into(),
            commit_id: head.clone(),
            in_reply_to: None,
            created_at: minute_stamp(1),
        });
    });
    let data = tempfile::tempdir().unwrap();
    let out = run(&server, data.path(), &["--publish"]);
    assert_eq!(out.status.code(), Some(6), "{}", text(&out.stderr));
    let posted = server.bodies_to(REVIEWS);
    assert_eq!(posted.len(), 1);
    assert!(posted[0]["body"].as_str().unwrap().contains(SUMMARY));
    assert_eq!(comments(&posted[0]).len(), 2);
    assert!(server.requests().iter().all(|r| r.method != "PUT"));
}

#[test]
fn an_earlier_comment_on_a_later_page_is_found_and_not_repeated() {
    let server = start("octocat");
    let head = server.pull().head_sha;
    let unwrap_fp = fingerprint_of(&server, "rust/unwrap");
    let someone = UserSpec::user("someone");
    server.update_pull(|pull| {
        for i in 0..120 {
            pull.review_comments.push(ReviewCommentSpec {
                id: 200 + i,
                review_id: None,
                author: someone.clone(),
                body: format!("note {i}"),
                path: "src/lib.rs".into(),
                line: 6,
                side: "RIGHT".into(),
                commit_id: head.clone(),
                in_reply_to: None,
                created_at: minute_stamp(i),
            });
        }
        // Ours, from an earlier round, on the second page.
        pull.review_comments.push(ReviewCommentSpec {
            id: 400,
            review_id: None,
            author: UserSpec::user(LOGIN),
            body: format!("**P2 · unwrap**\n<!-- review-tui:fp={unwrap_fp} -->"),
            path: "src/lib.rs".into(),
            line: 6,
            side: "RIGHT".into(),
            commit_id: head.clone(),
            in_reply_to: None,
            created_at: minute_stamp(200),
        });
    });
    let data = tempfile::tempdir().unwrap();
    let out = run(&server, data.path(), &["--publish"]);
    assert_eq!(out.status.code(), Some(6), "{}", text(&out.stderr));
    let pages = server.requests_to("GET /repos/acme/widgets/pulls/7/comments");
    assert!(
        pages
            .iter()
            .any(|r| r.query.as_deref().is_some_and(|q| q.contains("page=2"))),
        "{pages:?}"
    );
    let posted = server.bodies_to(REVIEWS);
    assert_eq!(posted.len(), 1);
    let inline = comments(&posted[0]);
    assert_eq!(inline.len(), 1, "{inline:?}");
    assert!(!inline[0]["body"].as_str().unwrap().contains(&unwrap_fp));
    // Still reported in the body.
    assert!(posted[0]["body"].as_str().unwrap().contains("unwrap()"));
}

#[test]
fn consensus_only_publishes_only_peer_confirmed_findings_and_says_what_it_left_out() {
    let server = start("octocat");
    let data = tempfile::tempdir().unwrap();
    let out = run(&server, data.path(), &["--publish", "--consensus-only"]);
    assert_eq!(out.status.code(), Some(6), "{}", text(&out.stderr));
    let posted = server.bodies_to(REVIEWS);
    assert_eq!(posted.len(), 1);
    // Deterministic findings have no peer's confirmation: none is published, the decision
    // still reads the whole run.
    assert_eq!(posted[0]["event"], "REQUEST_CHANGES");
    assert!(comments(&posted[0]).is_empty());
    let body = posted[0]["body"].as_str().unwrap();
    assert!(
        body.contains("Consensus-only: 2 findings without a peer's confirmation"),
        "{body}"
    );
    assert!(!body.contains("### Fix before merge"), "{body}");
}

#[test]
fn collapsed_severities_fold_into_one_line_but_blocking_findings_never_do() {
    let repo = planted_repo();
    // The base branch's configuration: a PR cannot rewrite its own reviewer's preferences.
    repo.git(&["checkout", "--quiet", "main"]);
    repo.write(
        ".review-tui.toml",
        "[presentation]\ncollapse = [\"medium\", \"critical\"]\n",
    );
    repo.commit_all("review preferences");
    let mut pull = PullSpec::from_repo(&repo, "acme", "widgets", 7);
    pull.author = UserSpec::user("octocat");
    let server = GithubServer::start(repo, pull);
    server.accept_token(TOKEN, LOGIN);
    let data = tempfile::tempdir().unwrap();
    let out = run(&server, data.path(), &["--publish"]);
    assert_eq!(out.status.code(), Some(6), "{}", text(&out.stderr));
    let posted = server.bodies_to(REVIEWS);
    let body = posted[0]["body"].as_str().unwrap();
    // The P3 unwrap() (medium) is one line in the details, not an inline comment; the P0
    // secret (critical) blocks, so it is never folded.
    assert!(
        body.contains(
            "Collapsed by presentation.collapse (medium, critical): medium `rust/unwrap-outside-tests` src/lib.rs:6"
        ),
        "{body}"
    );
    assert!(!body.contains("### Observations"), "{body}");
    assert!(body.contains("### Fix before merge"), "{body}");
    let inline = comments(&posted[0]);
    assert_eq!(inline.len(), 1, "{inline:?}");
    assert!(
        inline[0]["body"]
            .as_str()
            .unwrap()
            .contains("AWS access key")
    );
}

mod in_process {
    //! Steps that must happen between two library calls: a push between review and publish,
    //! a second publish of the same round.

    use super::*;
    use review_tui::pr::reference;
    use review_tui::publish::{self, PublishError, PublishInput, PublishOptions};
    use review_tui::session::round::{self, ReviewOptions};
    use review_tui::session::{PrepareOptions, Prepared, prepare};

    fn reviewed(
        runtime: &tokio::runtime::Runtime,
        reference: &str,
        options: &PrepareOptions,
    ) -> (Prepared, review_tui::session::RoundSnapshot) {
        let reference = reference::parse(reference, None, None).unwrap();
        let mut prepared = runtime.block_on(prepare(reference, options)).unwrap();
        let review_options = ReviewOptions {
            deterministic_only: true,
            gitleaks: None,
            ..ReviewOptions::default()
        };
        let result = runtime
            .block_on(round::review(&mut prepared, &review_options))
            .unwrap();
        (prepared, result)
    }

    #[test]
    fn a_local_publish_writes_the_report_and_refuses_a_second_time() {
        let repo = planted_repo();
        let data = tempfile::tempdir().unwrap();
        let runtime = tokio::runtime::Runtime::new().unwrap();
        let options = PrepareOptions {
            data_dir: Some(data.path().to_path_buf()),
            ..PrepareOptions::default()
        };
        let reference = format!("{}#main..feature", repo.path().display());
        let (mut prepared, mut result) = reviewed(&runtime, &reference, &options);
        // The lead's walkthrough travels in the round snapshot.
        result.walkthrough = "Read `src/lib.rs` first.".into();
        let destination = publish::destination(&prepared, None, None).unwrap();
        let head = prepared.space.state().head_sha.clone();
        let diff = prepared.diff.clone();
        let publish_options = PublishOptions::default();
        let input = PublishInput {
            result: &result,
            head_sha: &head,
            diff: &diff,
            options: &publish_options,
        };
        let state = prepared.space.state().clone();
        let preview = runtime
            .block_on(publish::preview(&destination, &state, &input))
            .unwrap();
        assert_eq!(preview.inline_comments.len(), 2);
        let published = runtime
            .block_on(publish::publish(
                &destination,
                &mut prepared.space,
                &input,
                &preview,
            ))
            .unwrap();
        let markdown = prepared.space.path().join("review.md");
        let json = prepared.space.path().join("review.json");
        assert!(published.target.contains("review.md"), "{published}");
        let body = std::fs::read_to_string(&markdown).unwrap();
        assert!(body.starts_with("> [!CAUTION]"), "{body}");
        assert!(body.contains("### Walkthrough\nRead `src/lib.rs` first."));
        assert!(!body.contains(AWS_KEY));
        let report: Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
        assert_eq!(report["event"], "REQUEST_CHANGES");
        assert_eq!(report["inline_comments"].as_array().unwrap().len(), 2);
        assert!(!report.to_string().contains(AWS_KEY));

        let again = runtime.block_on(publish::publish(
            &destination,
            &mut prepared.space,
            &input,
            &preview,
        ));
        match again {
            Err(PublishError::AlreadyPublished { round, target }) => {
                assert_eq!(round, 1);
                assert!(target.contains("review.md"), "{target}");
            }
            other => panic!("expected a refusal, got {other:?}"),
        }
    }

    #[test]
    fn a_head_that_moved_after_the_review_is_refused_before_anything_is_posted() {
        let server = start("octocat");
        let data = tempfile::tempdir().unwrap();
        let runtime = tokio::runtime::Runtime::new().unwrap();
        let mut connection = review_tui::pr::Connection::default();
        connection.api_url = Some(server.url().to_string());
        connection.token =
            review_tui::pr::TokenChoice::Given(review_tui::pr::Token::new(TOKEN).unwrap());
        let options = PrepareOptions {
            data_dir: Some(data.path().to_path_buf()),
            connection,
            ..PrepareOptions::default()
        };
        let (prepared, result) = reviewed(&runtime, "acme/widgets#7", &options);
        let reviewed_head = prepared.space.state().head_sha.clone();
        server.push(|repo| {
            repo.git(&["checkout", "--quiet", "feature"]);
            repo.write("src/lib.rs", &feature_lib(false, false));
            repo.commit_all("feature: drop the key")
        });
        let destination = publish::destination(
            &prepared,
            Some(server.url().to_string()),
            review_tui::pr::Token::new(TOKEN),
        )
        .unwrap();
        let publish_options = PublishOptions::default();
        let input = PublishInput {
            result: &result,
            head_sha: &reviewed_head,
            diff: &prepared.diff,
            options: &publish_options,
        };
        let err = runtime
            .block_on(publish::preview(
                &destination,
                prepared.space.state(),
                &input,
            ))
            .unwrap_err();
        assert!(matches!(err, PublishError::HeadMoved { .. }), "{err}");
        assert!(err.to_string().contains("review again"), "{err}");
        assert!(server.requests().iter().all(|r| r.is_read()));
    }
}

mod again {
    //! A round whose publish did not complete is published again by the next `--publish`,
    //! with no new round and no `--force`; a round never published likewise.

    use super::*;

    fn rounds(data: &Path) -> usize {
        state_json(data)["rounds"].as_array().unwrap().len()
    }

    #[test]
    fn a_round_reviewed_without_publish_is_published_by_the_next_publish() {
        let server = start("octocat");
        let data = tempfile::tempdir().unwrap();
        let first = run(&server, data.path(), &[]);
        assert_eq!(first.status.code(), Some(6), "{}", text(&first.stderr));
        assert!(server.bodies_to(REVIEWS).is_empty());

        let second = run(&server, data.path(), &["--publish"]);
        let err = text(&second.stderr);
        assert_eq!(second.status.code(), Some(6), "{err}");
        assert!(err.contains("publishing its recorded round"), "{err}");
        assert!(
            err.contains("published round 1 as REQUEST_CHANGES"),
            "{err}"
        );
        assert_eq!(rounds(data.path()), 1, "no new round");
        assert_eq!(server.bodies_to(REVIEWS).len(), 1);
        assert_eq!(server.pull().reviews.len(), 1);

        // Published now: a third run posts nothing and says where it is.
        let third = run(&server, data.path(), &["--publish"]);
        let err = text(&third.stderr);
        assert_eq!(third.status.code(), Some(6), "{err}");
        assert!(err.contains("already published"), "{err}");
        assert_eq!(server.bodies_to(REVIEWS).len(), 1);
    }

    #[test]
    fn a_publish_that_failed_on_the_post_is_published_again_without_force() {
        for fault in [
            Fault::Status(500),
            Fault::Status(502),
            Fault::Status(401),
            Fault::Status(403),
            Fault::Status(404),
        ] {
            let server = start("octocat");
            server.script(REVIEWS, [fault.clone()]);
            let data = tempfile::tempdir().unwrap();
            let first = run(&server, data.path(), &["--publish"]);
            let err = text(&first.stderr);
            assert_eq!(first.status.code(), Some(4), "{fault:?}: {err}");
            assert!(err.contains("submitting the review"), "{fault:?}: {err}");
            assert!(server.pull().reviews.is_empty(), "{fault:?}");

            let second = run(&server, data.path(), &["--publish"]);
            let err = text(&second.stderr);
            assert_eq!(second.status.code(), Some(6), "{fault:?}: {err}");
            assert!(
                err.contains("published round 1 as REQUEST_CHANGES"),
                "{fault:?}: {err}"
            );
            assert_eq!(rounds(data.path()), 1, "{fault:?}");
            assert_eq!(server.pull().reviews.len(), 1, "{fault:?}");
            let state = state_json(data.path());
            assert_eq!(state["publishes"][0]["state"], "published", "{state}");
        }
    }

    #[test]
    fn a_post_that_reached_github_is_found_by_its_marker_not_posted_again() {
        let server = start("octocat");
        server.script(REVIEWS, [Fault::DropAfterHandling]);
        let data = tempfile::tempdir().unwrap();
        let first = run(&server, data.path(), &["--publish"]);
        assert_eq!(first.status.code(), Some(4), "{}", text(&first.stderr));
        assert_eq!(server.pull().reviews.len(), 1);

        let second = run(&server, data.path(), &["--publish"]);
        let err = text(&second.stderr);
        assert_eq!(second.status.code(), Some(6), "{err}");
        assert!(err.contains("already published"), "{err}");
        assert_eq!(server.requests_to(REVIEWS).len(), 1, "{err}");
        assert_eq!(rounds(data.path()), 1);
        let state = state_json(data.path());
        assert_eq!(state["publishes"][0]["state"], "published", "{state}");
    }

    #[test]
    fn a_failed_summary_edit_in_a_later_round_is_finished_by_the_next_publish() {
        let server = start("octocat");
        let data = tempfile::tempdir().unwrap();
        let first = run(&server, data.path(), &["--publish"]);
        assert_eq!(first.status.code(), Some(6), "{}", text(&first.stderr));
        let summary_id = server.pull().reviews[0].id;
        let put = format!("PUT /repos/acme/widgets/pulls/7/reviews/{summary_id}");
        let new_head = server.push(|repo| {
            repo.git(&["checkout", "--quiet", "feature"]);
            repo.write("src/lib.rs", &feature_lib(false, true));
            repo.commit_all("feature: drop the key")
        });
        server.script(&put, [Fault::Status(403)]);
        let second = run(&server, data.path(), &["--publish"]);
        let err = text(&second.stderr);
        assert_eq!(second.status.code(), Some(4), "{err}");
        assert!(err.contains("editing the summary review"), "{err}");
        assert_eq!(
            server.pull().reviews.len(),
            2,
            "round 2's own review is posted"
        );

        let third = run(&server, data.path(), &["--publish"]);
        let err = text(&third.stderr);
        assert_eq!(third.status.code(), Some(0), "{err}");
        assert_eq!(rounds(data.path()), 2);
        assert_eq!(server.pull().reviews.len(), 2, "{err}");
        // The refused edit never reached the handler; the finishing one did.
        assert_eq!(server.requests_to(&put).len(), 2, "{err}");
        let edits = server.bodies_to(&put);
        assert_eq!(edits.len(), 1, "{err}");
        let summary = edits[0]["body"].as_str().unwrap();
        assert!(
            summary.contains(&format!("round=2 head={new_head}")),
            "{summary}"
        );
        let served = server.pull().reviews[0].body.clone();
        assert_eq!(served, summary);
        // The dismissal round 2 never reached is done as well.
        let states: Vec<String> = server
            .pull()
            .reviews
            .iter()
            .map(|r| r.state.clone())
            .collect();
        assert_eq!(states, ["DISMISSED", "APPROVED"]);
    }

    #[test]
    fn an_approval_is_dismissed_when_a_later_round_blocks() {
        let repo = GitRepo::init();
        repo.write("src/lib.rs", BASE_LIB);
        repo.commit_all("initial import");
        repo.git(&["checkout", "--quiet", "-b", "feature"]);
        repo.write("src/lib.rs", &feature_lib(false, false));
        repo.commit_all("feature: parse a port");
        repo.git(&["update-ref", "refs/pull/7/head", "feature"]);
        let mut pull = PullSpec::from_repo(&repo, "acme", "widgets", 7);
        pull.author = UserSpec::user("octocat");
        let server = GithubServer::start(repo, pull);
        server.accept_token(TOKEN, LOGIN);
        let data = tempfile::tempdir().unwrap();
        let first = run(&server, data.path(), &["--publish"]);
        assert_eq!(first.status.code(), Some(0), "{}", text(&first.stderr));
        let approval = server.pull().reviews[0].id;
        assert_eq!(server.pull().reviews[0].state, "APPROVED");

        server.push(|repo| {
            repo.git(&["checkout", "--quiet", "feature"]);
            repo.write("src/lib.rs", &feature_lib(true, false));
            repo.commit_all("feature: a key")
        });
        let second = run(&server, data.path(), &["--publish"]);
        let err = text(&second.stderr);
        assert_eq!(second.status.code(), Some(6), "{err}");
        assert!(
            err.contains(&format!(
                "dismissed our earlier APPROVE (review {approval})"
            )),
            "{err}"
        );
        let states: Vec<String> = server
            .pull()
            .reviews
            .iter()
            .map(|r| r.state.clone())
            .collect();
        assert_eq!(states, ["DISMISSED", "CHANGES_REQUESTED"]);
        // A third round that stands for the same decision dismisses nothing more.
        let third = run(&server, data.path(), &["--publish", "--force"]);
        let err = text(&third.stderr);
        assert_eq!(third.status.code(), Some(6), "{err}");
        assert!(!err.contains("dismissed"), "{err}");
        let dismissals = server
            .requests()
            .iter()
            .filter(|r| r.path.ends_with("/dismissals"))
            .count();
        assert_eq!(dismissals, 1);
    }

    #[test]
    fn a_deterministic_only_round_does_not_stop_a_review_with_models() {
        let server = start("octocat");
        let data = tempfile::tempdir().unwrap();
        let first = run(&server, data.path(), &[]);
        assert_eq!(first.status.code(), Some(6), "{}", text(&first.stderr));
        // The same head, without --deterministic-only (and, here, without a provider: the
        // model reviewers are skipped, so the round is Inconclusive, not "already reviewed").
        let out = review_tui()
            .args(["acme/widgets#7", "--headless"])
            .args(["--api-url", server.url()])
            .env("REVIEW_TUI_DATA_DIR", data.path())
            .env("GH_TOKEN", TOKEN)
            .env_remove("GITHUB_TOKEN")
            .env_remove("GITHUB_API_URL")
            .env_remove("OPENAI_API_KEY")
            .env_remove("ANTHROPIC_API_KEY")
            .env_remove("OLLAMA_HOST")
            .env_remove("OPENAI_BASE_URL")
            .env_remove("ANTHROPIC_BASE_URL")
            .output()
            .unwrap();
        let err = text(&out.stderr);
        assert_ne!(out.status.code(), Some(1), "{err}");
        assert!(!err.contains("not eligible"), "{err}");
        assert_eq!(rounds(data.path()), 2, "{err}");
        // That round was Inconclusive: it reviewed nothing, so a deterministic-only run of the
        // head is a new round again, not "already reviewed".
        let again = run(&server, data.path(), &[]);
        assert_eq!(again.status.code(), Some(6), "{}", text(&again.stderr));
        assert_eq!(rounds(data.path()), 3);
        // The same reviewers over an unpublished round: that round is reported as recorded.
        let reported = run(&server, data.path(), &[]);
        let err = text(&reported.stderr);
        assert_eq!(reported.status.code(), Some(6), "{err}");
        assert!(
            err.contains("not published: reporting its recorded round"),
            "{err}"
        );
        assert_eq!(rounds(data.path()), 3);
        // Published, the head is already reviewed.
        let published = run(&server, data.path(), &["--publish"]);
        assert_eq!(
            published.status.code(),
            Some(6),
            "{}",
            text(&published.stderr)
        );
        let refused = run(&server, data.path(), &[]);
        let err = text(&refused.stderr);
        assert_eq!(refused.status.code(), Some(1), "{err}");
        assert!(
            err.contains("already reviewed in a published round"),
            "{err}"
        );
        assert_eq!(rounds(data.path()), 3);
    }
}

mod refusals {
    //! Each kind of 422 gets its own handling: only a refused anchor is resent in the body.

    use super::*;

    #[test]
    fn a_pending_review_of_the_account_stops_the_publish_before_anything_is_posted() {
        let server = start("octocat");
        let head = server.pull().head_sha;
        server.update_pull(|pull| {
            pull.reviews.push(ReviewSpec {
                id: 77,
                author: UserSpec::user(LOGIN),
                body: String::new(),
                state: "PENDING".into(),
                commit_id: head.clone(),
            });
        });
        let data = tempfile::tempdir().unwrap();
        let out = run(&server, data.path(), &["--publish"]);
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(4), "{err}");
        let line = err
            .lines()
            .find(|l| l.contains("publishing failed"))
            .unwrap();
        assert!(line.contains("pending"), "{line}");
        assert!(line.contains("review 77"), "{line}");
        assert!(line.contains("submit or delete it"), "{line}");
        assert!(server.requests().iter().all(|r| r.is_read()));
    }

    #[test]
    fn a_422_that_is_not_about_anchors_is_reported_and_not_resent() {
        let server = start("octocat");
        // A 422 with no `errors` at all: nothing says the anchors are at fault.
        server.script(REVIEWS, [Fault::Status(422)]);
        let data = tempfile::tempdir().unwrap();
        let out = run(&server, data.path(), &["--publish"]);
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(4), "{err}");
        let line = err
            .lines()
            .find(|l| l.contains("publishing failed"))
            .unwrap();
        assert!(line.contains("422"), "{line}");
        assert!(line.contains("nothing was posted"), "{line}");
        assert_eq!(server.requests_to(REVIEWS).len(), 1, "not resent");
        assert!(server.pull().reviews.is_empty());
    }
}
