//! The GitHub forge against a GitHub-like server on loopback serving a real git repository.

use std::time::Duration;

use review_tui::pr::Token;
use review_tui::pr::forge::{FileStatus, Forge, PrState, Side};
use review_tui::pr::github::{GithubClient, GithubConfig, GithubError, GithubForge, RetryPolicy};
use serde_json::Value;

use crate::support::git_repo;
use crate::support::github_server::{
    Fault, GithubServer, IssueCommentSpec, PullSpec, ReviewCommentSpec, ReviewSpec, UserSpec,
    many_issue_comments, minute_stamp,
};
use crate::support::openapi;

const PULL: &str = "GET /repos/acme/widgets/pulls/7";
const GOOD_TOKEN: &str = "ghp_goodtoken0000";

fn start() -> GithubServer {
    let repo = git_repo::pr_repository();
    let pull = PullSpec::from_repo(&repo, "acme", "widgets", 7);
    let server = GithubServer::start(repo, pull);
    server.accept_token(GOOD_TOKEN, "reviewer");
    server
}

/// Retries as in production, with waits short enough that tests never notice them.
fn fast_retries() -> RetryPolicy {
    RetryPolicy {
        max_attempts: 4,
        base_backoff: Duration::from_millis(1),
        max_wait: Duration::from_millis(5),
    }
}

fn forge_for(server: &GithubServer, token: Option<&str>, number: u64) -> GithubForge {
    let mut config = GithubConfig::new(server.url(), token.and_then(Token::new));
    config.retry = fast_retries();
    let client = GithubClient::new(config).unwrap();
    GithubForge::new(client, "acme", "widgets", number).unwrap()
}

fn forge(server: &GithubServer) -> GithubForge {
    forge_for(server, Some(GOOD_TOKEN), 7)
}

/// A forge whose longest wait is long enough for a one-second `Retry-After`: a wait asked past
/// the longest is not waited for at all.
fn patient_forge(server: &GithubServer) -> GithubForge {
    let mut config = GithubConfig::new(server.url(), Token::new(GOOD_TOKEN));
    config.retry = RetryPolicy {
        max_wait: Duration::from_secs(2),
        ..fast_retries()
    };
    GithubForge::new(GithubClient::new(config).unwrap(), "acme", "widgets", 7).unwrap()
}

#[tokio::test]
async fn reads_pull_request_metadata_through_the_trait() {
    let server = start();
    let forge: Box<dyn Forge> = Box::new(forge(&server));
    let pr = forge.pull_request().await.unwrap();
    let spec = server.pull();
    let (base_sha, head_sha, clone_url) = (spec.base_sha, spec.head_sha, spec.clone_url);
    assert_eq!(pr.number, 7);
    assert_eq!(pr.title, "Checked arithmetic and a parser");
    assert_eq!(pr.body, "Makes `add` panic on overflow.");
    assert_eq!(pr.author, "octocat");
    assert!(!pr.author_is_bot);
    assert_eq!(pr.state, PrState::Open);
    assert!(!pr.draft);
    assert_eq!(
        (pr.base.ref_name.as_str(), pr.base.sha.as_str()),
        ("main", base_sha.as_str())
    );
    assert_eq!(
        (pr.head.ref_name.as_str(), pr.head.sha.as_str()),
        ("feature", head_sha.as_str())
    );
    assert_eq!(pr.clone_url, clone_url);
    assert_eq!(pr.html_url, "https://github.example/acme/widgets/pull/7");
}

#[tokio::test]
async fn merged_closed_and_draft_states_are_told_apart() {
    let server = start();
    let forge = forge(&server);
    server.update_pull(|p| p.draft = true);
    let draft = forge.pull_request().await.unwrap();
    assert_eq!((draft.state, draft.draft), (PrState::Open, true));

    server.update_pull(|p| {
        p.draft = false;
        p.state = "closed".into();
    });
    assert_eq!(forge.pull_request().await.unwrap().state, PrState::Closed);

    server.update_pull(|p| p.merged = true);
    assert_eq!(forge.pull_request().await.unwrap().state, PrState::Merged);

    server.update_pull(|p| p.body = None);
    assert_eq!(forge.pull_request().await.unwrap().body, "");
}

#[tokio::test]
async fn lists_changed_files_with_renames_and_patches() {
    let server = start();
    let files = forge(&server).changed_files().await.unwrap();
    let by_path = |path: &str| {
        files
            .iter()
            .find(|f| f.path == path)
            .unwrap_or_else(|| panic!("{path} missing from {files:#?}"))
    };
    assert_eq!(files.len(), 4, "{files:#?}");

    let lib = by_path("src/lib.rs");
    assert_eq!(lib.status, FileStatus::Modified);
    assert_eq!((lib.additions, lib.deletions), (3, 1));
    let patch = lib.patch.as_deref().unwrap();
    assert!(patch.starts_with("@@ "), "{patch}");
    assert!(patch.contains("+    a.checked_add(b).expect(\"overflow\")"));

    let parse = by_path("src/parse.rs");
    assert_eq!(
        (parse.status, parse.additions, parse.deletions),
        (FileStatus::Added, 3, 0)
    );

    let guide = by_path("docs/new-name.md");
    assert_eq!(guide.status, FileStatus::Renamed);
    assert_eq!(guide.previous_path.as_deref(), Some("docs/old-name.md"));
    assert_eq!((guide.additions, guide.deletions), (1, 1));

    let gone = by_path("obsolete.txt");
    assert_eq!((gone.status, gone.deletions), (FileStatus::Removed, 1));

    // main's README change after the fork is not part of the PR.
    assert!(files.iter().all(|f| f.path != "README.md"));
    let request = &server.requests_to("GET /repos/acme/widgets/pulls/7/files")[0];
    assert_eq!(request.query.as_deref(), Some("per_page=100"));
}

#[tokio::test]
async fn fetches_the_diff_in_the_diff_media_type() {
    let server = start();
    let diff = forge(&server).diff().await.unwrap();
    assert_eq!(diff, server.served_diff());
    assert!(diff.contains("diff --git a/src/lib.rs b/src/lib.rs"));
    assert!(diff.contains("rename from docs/old-name.md"));
    assert!(
        !diff.contains("README"),
        "the diff is from the merge base: {diff}"
    );
    let request = &server.requests_to(PULL)[0];
    assert_eq!(
        request.header("accept"),
        Some("application/vnd.github.diff")
    );
}

#[tokio::test]
async fn reads_the_whole_history_across_pages() {
    let server = start();
    let human = UserSpec::user("alice");
    let head = forge(&server).pull_request().await.unwrap().head.sha;
    server.update_pull(|p| {
        p.issue_comments = many_issue_comments(250, &human);
        p.reviews = vec![
            ReviewSpec {
                id: 11,
                author: UserSpec::bot("review-helper[bot]"),
                body: "Automated review".into(),
                state: "COMMENTED".into(),
                commit_id: head.to_string(),
            },
            ReviewSpec {
                id: 12,
                author: human.clone(),
                body: String::new(),
                state: "APPROVED".into(),
                commit_id: head.to_string(),
            },
        ];
        p.review_comments = vec![
            ReviewCommentSpec {
                id: 21,
                review_id: Some(12),
                author: human.clone(),
                body: "Why drop the old behaviour?".into(),
                path: "src/lib.rs".into(),
                line: 2,
                side: "LEFT".into(),
                commit_id: head.to_string(),
                in_reply_to: None,
                created_at: minute_stamp(1),
            },
            ReviewCommentSpec {
                id: 22,
                review_id: Some(12),
                author: UserSpec::user("octocat"),
                body: "Overflow used to wrap silently.".into(),
                path: "src/lib.rs".into(),
                line: 2,
                side: "RIGHT".into(),
                commit_id: head.to_string(),
                in_reply_to: Some(21),
                created_at: minute_stamp(2),
            },
        ];
    });

    let history = forge(&server).history().await.unwrap();

    let ids: Vec<u64> = history.issue_comments.iter().map(|c| c.id).collect();
    assert_eq!(ids, (1000..1250).collect::<Vec<_>>());
    let pages = server.requests_to("GET /repos/acme/widgets/issues/7/comments");
    let queries: Vec<_> = pages
        .iter()
        .map(|r| r.query.clone().unwrap_or_default())
        .collect();
    assert_eq!(
        queries,
        ["per_page=100", "per_page=100&page=2", "per_page=100&page=3"]
    );
    assert_eq!(history.issue_comments[249].body, "comment number 249");
    assert_eq!(history.issue_comments[0].created_at, "2024-05-02T00:00:00Z");

    assert_eq!(history.reviews.len(), 2);
    assert!(history.reviews[0].author_is_bot);
    assert_eq!(history.reviews[1].state, "APPROVED");
    assert_eq!(history.reviews[1].commit_id.as_deref(), Some(head.as_str()));
    assert!(history.reviews[1].submitted_at.is_some());

    let reply = &history.review_comments[1];
    assert_eq!(reply.in_reply_to, Some(21));
    assert_eq!(
        (reply.path.as_str(), reply.line, reply.side),
        ("src/lib.rs", Some(2), Some(Side::Right))
    );
    assert_eq!(history.review_comments[0].side, Some(Side::Left));
    assert_eq!(reply.review_id, Some(12));
    assert_eq!(reply.commit_id, head);
}

#[tokio::test]
async fn a_server_error_is_retried_until_success() {
    let server = start();
    server.script(PULL, [Fault::Status(500), Fault::Status(502)]);
    let pr = forge(&server).pull_request().await.unwrap();
    assert_eq!(pr.number, 7);
    assert_eq!(server.requests_to(PULL).len(), 3);
}

#[tokio::test]
async fn too_many_requests_is_retried() {
    let server = start();
    server.script(
        PULL,
        [Fault::TooManyRequests {
            retry_after_secs: 1,
        }],
    );
    patient_forge(&server).pull_request().await.unwrap();
    assert_eq!(server.requests_to(PULL).len(), 2);
}

#[tokio::test]
async fn rate_limited_forbidden_is_retried_but_a_plain_forbidden_is_not() {
    let server = start();
    let files = "GET /repos/acme/widgets/pulls/7/files";
    server.script(
        files,
        [Fault::SecondaryRateLimit {
            retry_after_secs: 1,
        }],
    );
    // A reset within the longest wait is waited for; a later one fails at once, saying when.
    server.script(PULL, [Fault::PrimaryRateLimit { reset_in_secs: 0 }]);
    let forge = patient_forge(&server);
    forge.changed_files().await.unwrap();
    forge.pull_request().await.unwrap();
    assert_eq!(server.requests_to(files).len(), 2);
    assert_eq!(server.requests_to(PULL).len(), 2);

    let diff_server = start();
    diff_server.script(PULL, [Fault::Status(403)]);
    let err = forge_for(&diff_server, Some(GOOD_TOKEN), 7)
        .diff()
        .await
        .unwrap_err();
    assert!(
        matches!(
            err,
            GithubError::Status {
                status: 403,
                attempts: 1,
                ..
            }
        ),
        "{err:?}"
    );
    assert_eq!(diff_server.requests_to(PULL).len(), 1);
}

#[tokio::test]
async fn a_rate_limit_resetting_after_the_longest_wait_fails_at_once_saying_when() {
    let server = start();
    server.fail_always(PULL, Fault::PrimaryRateLimit { reset_in_secs: 600 });
    let err = forge_for(&server, None, 7)
        .pull_request()
        .await
        .unwrap_err();
    assert!(matches!(err, GithubError::RateLimited { .. }), "{err:?}");
    let message = err.to_string();
    assert!(message.contains("rate limit is used up"), "{message}");
    assert!(message.contains(" UTC (in "), "{message}");
    assert!(message.contains("GH_TOKEN"), "anonymous: {message}");
    assert_eq!(server.requests_to(PULL).len(), 1, "waiting could not help");

    let with_token = forge(&server).pull_request().await.unwrap_err().to_string();
    assert!(!with_token.contains("GH_TOKEN"), "{with_token}");
}

#[tokio::test]
async fn persistent_failure_names_the_call_after_bounded_attempts() {
    let server = start();
    let comments = "GET /repos/acme/widgets/pulls/7/comments";
    server.fail_always(comments, Fault::Status(500));
    let err = forge(&server).history().await.unwrap_err();
    let message = err.to_string();
    assert!(message.starts_with(comments), "{message}");
    assert!(message.contains("500"), "{message}");
    assert!(message.contains("Internal Server Error"), "{message}");
    assert!(message.contains("4 attempt"), "{message}");
    // The host is named: which server failed is half of the message.
    assert!(
        message.contains(&format!(
            "on {}",
            server.url().trim_start_matches("http://")
        )),
        "the host is named: {message}"
    );
    assert_eq!(server.requests_to(comments).len(), 4);
}

#[tokio::test]
async fn missing_pull_request_says_which() {
    let server = start();
    let err = forge_for(&server, Some(GOOD_TOKEN), 99)
        .pull_request()
        .await
        .unwrap_err();
    assert!(matches!(err, GithubError::NotFound { .. }), "{err:?}");
    let message = err.to_string();
    assert!(message.contains("acme/widgets#99"), "{message}");
    assert!(
        message.contains("GET /repos/acme/widgets/pulls/99"),
        "{message}"
    );
    assert_eq!(
        server.requests_to("GET /repos/acme/widgets/pulls/99").len(),
        1
    );
}

#[tokio::test]
async fn rejected_token_is_named_but_never_printed() {
    let server = start();
    let planted = "ghp_PLANTEDcanary4242";
    let forge = forge_for(&server, Some(planted), 7);

    let err = forge.pull_request().await.unwrap_err();
    assert!(matches!(err, GithubError::Unauthorized { .. }), "{err:?}");
    let shown = format!("{err} {err:?} {forge:?}");
    assert!(!shown.contains(planted), "{shown}");
    assert!(!shown.contains("PLANTED"), "{shown}");
    assert!(err.to_string().contains("GH_TOKEN"), "{err}");
    assert!(err.to_string().contains("Bad credentials"), "{err}");

    let through_trait = Forge::authenticated_user(&forge).await.unwrap_err();
    let shown = format!("{through_trait} {through_trait:?}");
    assert!(!shown.contains(planted), "{shown}");
    // The server did receive it: the header was sent, only never shown.
    assert_eq!(
        server.requests_to(PULL)[0].header("authorization"),
        Some(format!("Bearer {planted}").as_str())
    );
}

#[tokio::test]
async fn sends_github_headers_and_the_token_only_when_given() {
    let server = start();
    let with_token = forge_for(&server, Some(GOOD_TOKEN), 7);
    with_token.pull_request().await.unwrap();
    assert_eq!(
        with_token.authenticated_user().await.unwrap().as_deref(),
        Some("reviewer")
    );
    let sent = &server.requests_to(PULL)[0];
    assert_eq!(
        sent.header("authorization"),
        Some(format!("Bearer {GOOD_TOKEN}").as_str())
    );
    assert_eq!(sent.header("accept"), Some("application/vnd.github+json"));
    assert_eq!(sent.header("x-github-api-version"), Some("2022-11-28"));
    assert!(
        sent.header("user-agent")
            .unwrap()
            .starts_with("review-tui/")
    );

    let anonymous = forge_for(&server, None, 7);
    anonymous.pull_request().await.unwrap();
    assert_eq!(anonymous.authenticated_user().await.unwrap(), None);
    let sent = server.requests_to(PULL).pop().unwrap();
    assert_eq!(sent.header("authorization"), None);
    assert_eq!(
        server.requests_to("GET /user").len(),
        1,
        "no /user call without a token"
    );
}

#[tokio::test]
async fn bots_are_detected_in_authors() {
    let server = start();
    let forge = forge(&server);
    for (author, is_bot) in [
        (UserSpec::bot("dependabot[bot]"), true),
        (UserSpec::user("renovate"), true),
        (UserSpec::user("octocat"), false),
    ] {
        let login = author.login.clone();
        server.update_pull(|p| {
            p.author = author;
            p.issue_comments = vec![IssueCommentSpec {
                id: 1,
                author: p.author.clone(),
                body: "hi".into(),
                created_at: minute_stamp(0),
            }];
        });
        let pr = forge.pull_request().await.unwrap();
        assert_eq!(
            (pr.author.as_str(), pr.author_is_bot),
            (login.as_str(), is_bot)
        );
        let history = forge.history().await.unwrap();
        assert_eq!(history.issue_comments[0].author_is_bot, is_bot, "{login}");
    }
}

#[tokio::test]
async fn unreachable_api_fails_with_the_call_named() {
    let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", closed.local_addr().unwrap());
    drop(closed);
    let mut config = GithubConfig::new(url, Token::new(GOOD_TOKEN));
    config.retry = fast_retries();
    let forge = GithubForge::new(GithubClient::new(config).unwrap(), "acme", "widgets", 7).unwrap();
    let err = forge.pull_request().await.unwrap_err();
    assert!(
        matches!(err, GithubError::Transport { attempts: 4, .. }),
        "{err:?}"
    );
    assert!(err.to_string().starts_with(PULL), "{err}");
    assert!(!format!("{err:?}").contains(GOOD_TOKEN));
}

/// Every JSON endpoint of the fake, fetched raw and checked against GitHub's schema, so the
/// fake cannot drift from the real API even where the forge ignores a field.
#[tokio::test]
async fn every_fake_response_matches_githubs_schema() {
    let server = start();
    server.update_pull(|p| {
        p.issue_comments = many_issue_comments(3, &UserSpec::user("alice"));
        p.reviews = vec![ReviewSpec {
            id: 5,
            author: UserSpec::user("alice"),
            body: "ok".into(),
            state: "PENDING".into(),
            commit_id: p.head_sha.clone(),
        }];
        p.review_comments = vec![ReviewCommentSpec {
            id: 6,
            review_id: None,
            author: UserSpec::bot("lint[bot]"),
            body: "nit".into(),
            path: "src/lib.rs".into(),
            line: 2,
            side: "RIGHT".into(),
            commit_id: p.head_sha.clone(),
            in_reply_to: None,
            created_at: minute_stamp(0),
        }];
    });
    let http = reqwest::Client::new();
    let endpoints = [
        ("/repos/{owner}/{repo}", "/repos/acme/widgets"),
        (
            "/repos/{owner}/{repo}/pulls/{pull_number}",
            "/repos/acme/widgets/pulls/7",
        ),
        (
            "/repos/{owner}/{repo}/pulls/{pull_number}/files",
            "/repos/acme/widgets/pulls/7/files",
        ),
        (
            "/repos/{owner}/{repo}/pulls/{pull_number}/reviews",
            "/repos/acme/widgets/pulls/7/reviews",
        ),
        (
            "/repos/{owner}/{repo}/pulls/{pull_number}/comments",
            "/repos/acme/widgets/pulls/7/comments",
        ),
        (
            "/repos/{owner}/{repo}/issues/{issue_number}/comments",
            "/repos/acme/widgets/issues/7/comments",
        ),
        ("/user", "/user"),
    ];
    for (template, path) in endpoints {
        let response = http
            .get(format!("{}{path}", server.url()))
            .bearer_auth(GOOD_TOKEN)
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), 200, "{path}");
        let body: Value = response.json().await.unwrap();
        if let Value::Array(items) = &body {
            assert!(!items.is_empty(), "{path} should have something to check");
        }
        openapi::github()
            .check("get", template, 200, &body)
            .unwrap();
    }
    assert!(
        server.schema_violations().is_empty(),
        "{:?}",
        server.schema_violations()
    );
}

/// The checker itself must reject what GitHub would never send, or the check above is hollow.
#[tokio::test]
async fn the_schema_check_rejects_what_github_would_not_send() {
    let server = start();
    let body: Value = reqwest::Client::new()
        .get(format!("{}/repos/acme/widgets/pulls/7", server.url()))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let spec = openapi::github();
    let template = "/repos/{owner}/{repo}/pulls/{pull_number}";
    spec.check("get", template, 200, &body).unwrap();

    let mut missing = body.clone();
    missing.as_object_mut().unwrap().remove("head");
    let err = spec.check("get", template, 200, &missing).unwrap_err();
    assert!(err.contains("head"), "{err}");

    let mut null_title = body.clone();
    null_title["title"] = Value::Null;
    assert!(spec.check("get", template, 200, &null_title).is_err());

    let mut bad_nested = body.clone();
    bad_nested["base"]["repo"]["owner"]["login"] = Value::from(5);
    assert!(spec.check("get", template, 200, &bad_nested).is_err());

    let mut bad_date = body.clone();
    bad_date["created_at"] = Value::from("yesterday");
    assert!(
        spec.check("get", template, 200, &bad_date).is_err(),
        "formats are checked"
    );

    // Nullable fields, including a nullable `$ref`, accept null.
    let mut nulls = body;
    nulls["body"] = Value::Null;
    nulls["merged_by"] = Value::Null;
    spec.check("get", template, 200, &nulls).unwrap();
}
