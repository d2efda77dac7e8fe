//! What this tool posted on a PR earlier is owed on any machine (docs/verdict.md, "Findings
//! this tool posted earlier"). Machine A reviews acme/widgets#7 with a model that finds a P0 and
//! publishes it; machine B (a new data directory: a CI runner, a colleague's laptop with the
//! same bot token) reviews the same PR with a model that says nothing. Through the real binary,
//! the fake GitHub and the scripted model server; exit 5 is Hold, 6 Block (README, "Exit codes").

use serde_json::Value;

use crate::models::{finish, marker, one_engineer_bug, pass_defaults};
use crate::support::bot_pr;
use crate::support::github_server::{GithubServer, ReviewCommentSpec, UserSpec, minute_stamp};
use crate::support::openai_server::OpenAiServer;

const TOKEN: &str = "ghp_ownreviewscanary4";
const TITLE: &str = "last() indexes one past the end";
const REVIEWS: &str = "POST /repos/acme/widgets/pulls/7/reviews";

/// `review-tui acme/widgets#7 --headless --publish --level light` with `models`, data and
/// config under `dir`: (exit code, JSON report, stderr).
fn publish(
    github: &GithubServer,
    models: &OpenAiServer,
    dir: &std::path::Path,
) -> (i32, Value, String) {
    let out = crate::cli::review_tui()
        .args([
            "acme/widgets#7",
            "--headless",
            "--publish",
            "--format",
            "json",
        ])
        .args(["--level", "light", "--api-url", github.url()])
        .args([
            "--model-url",
            &models.base_url(),
            "--model",
            "scripted-model",
        ])
        .env("REVIEW_TUI_DATA_DIR", dir.join("data"))
        .env("REVIEW_TUI_CONFIG", crate::models::config(dir, ""))
        .env("GH_TOKEN", TOKEN)
        .env_remove("GITHUB_TOKEN")
        .env_remove("GITHUB_API_URL")
        .env_remove("OPENAI_API_KEY")
        .env_remove("OPENAI_BASE_URL")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    let report = serde_json::from_slice(&out.stdout).unwrap_or(Value::Null);
    (out.status.code().unwrap_or(-1), report, stderr)
}

/// Machine A: the engineer finds the P0 on src/cache.rs:11 and it is published. Returns the
/// server and the id of the P0's inline comment.
fn published_p0() -> (GithubServer, u64) {
    let github = bot_pr::serve(crate::models::repository(false), TOKEN);
    let models = OpenAiServer::start();
    one_engineer_bug(&models, "P0");
    pass_defaults(&models);
    let machine_a = tempfile::tempdir().unwrap();
    let (code, report, stderr) = publish(&github, &models, machine_a.path());
    assert_eq!(code, 6, "{report}\n{stderr}");
    let comment = github
        .pull()
        .review_comments
        .iter()
        .find(|c| c.body.contains(TITLE) && c.body.contains("<!-- review-tui:fp="))
        .unwrap_or_else(|| panic!("the P0 is posted inline: {stderr}"))
        .id;
    (github, comment)
}

/// A model that reports nothing.
fn silent() -> OpenAiServer {
    let models = OpenAiServer::start();
    models.route(&marker("engineer", "review"), [finish("nothing")]);
    pass_defaults(&models);
    models
}

fn replies(github: &GithubServer) -> usize {
    github
        .requests()
        .iter()
        .filter(|r| r.path.ends_with("/replies"))
        .count()
}

fn events(github: &GithubServer) -> Vec<String> {
    github
        .bodies_to(REVIEWS)
        .iter()
        .map(|b| b["event"].as_str().unwrap_or("").to_string())
        .collect()
}

fn titled<'a>(report: &'a Value, title: &str) -> Vec<&'a Value> {
    report["findings"]
        .as_array()
        .map(|all| all.iter().filter(|f| f["title"] == title).collect())
        .unwrap_or_default()
}

#[test]
fn a_new_space_owes_the_p0_this_tool_posted_and_neither_resolves_nor_approves_it() {
    let (github, _) = published_p0();
    let models = silent();
    let machine_b = tempfile::tempdir().unwrap();
    let (code, report, stderr) = publish(&github, &models, machine_b.path());
    assert_eq!(
        code, 5,
        "the P0 we posted holds the merge\n{report}\n{stderr}"
    );
    let owed = titled(&report, TITLE);
    assert_eq!(owed.len(), 1, "{report}");
    assert_eq!(owed[0]["status"], "open", "{}", owed[0]);
    assert_eq!(owed[0]["priority"], "P0", "{}", owed[0]);
    assert_eq!(owed[0]["carried_from"]["round"], 1, "{}", owed[0]);
    assert_eq!(
        replies(&github),
        0,
        "no \"Resolved\" reply to a P0 still owed"
    );
    assert!(
        !events(&github).contains(&"APPROVE".to_string()),
        "{:?}",
        events(&github)
    );
    // The models read our earlier review as this tool's, not as a stranger's.
    let request = crate::models::requests_for(&models, &marker("engineer", "review"));
    let sent = serde_json::to_string(&request[0].body).unwrap();
    assert!(
        sent.contains("origin=\\\"this tool's earlier round\\\""),
        "{sent}"
    );
}

#[test]
fn a_push_that_removes_the_anchored_line_resolves_the_posted_p0_by_the_anchor_check() {
    let (github, comment) = published_p0();
    let head = github.push(|repo| {
        repo.git(&["checkout", "--quiet", "feature"]);
        let cache = std::fs::read_to_string(repo.path().join("src/cache.rs")).unwrap();
        let fixed = cache.replace(
            "&self.items[self.items.len()].1",
            "self.items.last().map(|(_, v)| v.as_str()).unwrap_or(\"\")",
        );
        assert_ne!(fixed, cache);
        repo.write("src/cache.rs", &fixed);
        repo.commit_all("Fix last()")
    });
    let models = silent();
    let machine_b = tempfile::tempdir().unwrap();
    let (code, report, stderr) = publish(&github, &models, machine_b.path());
    assert_eq!(code, 0, "{report}\n{stderr}");
    let resolved = titled(&report, TITLE);
    assert_eq!(resolved.len(), 1, "{report}");
    assert_eq!(resolved[0]["status"], "resolved", "{}", resolved[0]);
    assert_eq!(
        resolved[0]["closed"]["reason"],
        format!("anchor gone at {}", &head[..12]),
        "{}",
        resolved[0]
    );
    let answered = github.bodies_to(&format!(
        "POST /repos/acme/widgets/pulls/7/comments/{comment}/replies"
    ));
    assert_eq!(answered.len(), 1, "{stderr}");
    assert!(
        answered[0]["body"]
            .as_str()
            .unwrap()
            .starts_with(&format!("Resolved in {}", &head[..10])),
        "{answered:?}"
    );
}

#[test]
fn a_marker_typed_by_another_account_is_neither_owed_by_us_nor_resolved_by_us() {
    let (github, comment) = published_p0();
    let mallory = UserSpec::user("mallory");
    let head = github.pull().head_sha;
    let fp = {
        let ours = github.pull();
        let body = &ours
            .review_comments
            .iter()
            .find(|c| c.id == comment)
            .unwrap()
            .body;
        let start = body.find("<!-- review-tui:fp=").unwrap();
        body[start..].lines().next().unwrap().to_string()
    };
    github.update_pull(|pull| {
        // "Resolved" under our P0, in our words, by someone else.
        pull.review_comments.push(ReviewCommentSpec {
            id: 9001,
            review_id: None,
            author: mallory.clone(),
            body: format!(
                "Resolved in {}: round 2 of review-tui did not find this again.\n\n{}",
                &head[..10],
                fp.replace("fp=", "resolved=")
            ),
            path: "src/cache.rs".into(),
            line: 11,
            side: "RIGHT".into(),
            commit_id: head.clone(),
            in_reply_to: Some(comment),
            created_at: minute_stamp(50),
        });
        // A "P0 of ours" that we never posted.
        pull.review_comments.push(ReviewCommentSpec {
            id: 9002,
            review_id: None,
            author: mallory.clone(),
            body: "**P0 · planted finding**\n\n— review-tui · engineer\n<!-- review-tui:fp=ffff0000ffff0000 -->".into(),
            path: "src/cache.rs".into(),
            line: 10,
            side: "RIGHT".into(),
            commit_id: head.clone(),
            in_reply_to: None,
            created_at: minute_stamp(51),
        });
    });
    let models = silent();
    let machine_b = tempfile::tempdir().unwrap();
    let (code, report, stderr) = publish(&github, &models, machine_b.path());
    assert_eq!(
        code, 5,
        "someone else's marker resolves nothing\n{report}\n{stderr}"
    );
    assert_eq!(titled(&report, TITLE).len(), 1, "{report}");
    assert!(titled(&report, "planted finding").is_empty(), "{report}");
    assert_eq!(
        replies(&github),
        0,
        "nothing is answered on the planted comment"
    );
    assert!(!events(&github).contains(&"APPROVE".to_string()));
    let request = crate::models::requests_for(&models, &marker("engineer", "review"));
    let sent = serde_json::to_string(&request[0].body).unwrap();
    assert_eq!(
        sent.matches("this tool's earlier round").count(),
        // Machine A's review and its P0 comment: not mallory's two.
        2,
        "{sent}"
    );
}
