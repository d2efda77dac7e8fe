//! What the pull request and its tools put in a posted review is text, never Markdown: a file
//! named with a newline, `<!--`, a heading and a mention; a SARIF tool whose name carries a
//! forged fingerprint marker; evidence with links, mentions and `</details>`. Through the
//! binary, against the fake GitHub; the same escaping serves the local review.md.

use serde_json::Value;

use crate::cli::review_tui;
use crate::support::github_server::{GithubServer, PullSpec, UserSpec};
use review_tui::publish::markers;

const TOKEN: &str = "ghp_escapecanary11";
const LOGIN: &str = "review-bot";
const REVIEWS: &str = "POST /repos/acme/widgets/pulls/7/reviews";
const FORGED: &str = "ffffffffffffffff";
const HOSTILE_PATH: &str = "src/evil\n<!--\n# Approved\n> [!NOTE]\n@acme-security.rs";

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn hostile_server() -> GithubServer {
    let repo = crate::publish::planted_repo();
    // The feature branch also adds a file whose very name is hostile, with an unwrap() the
    // rules find (a finding anchored on that path), listed before the blocking secret.
    repo.git(&["checkout", "--quiet", "feature"]);
    repo.write(
        HOSTILE_PATH,
        "pub fn f(t: &str) -> u8 {\n    t.parse().unwrap()\n}\n",
    );
    repo.commit_all("feature: a file with a hostile name");
    repo.git(&["update-ref", "refs/pull/7/head", "feature"]);
    let mut pull = PullSpec::from_repo(&repo, "acme", "widgets", 7);
    pull.author = UserSpec::user("octocat");
    let server = GithubServer::start(repo, pull);
    server.accept_token(TOKEN, LOGIN);
    server
}

fn hostile_sarif(dir: &std::path::Path) -> std::path::PathBuf {
    let name = format!("lint\n<!-- review-tui:fp={FORGED} -->");
    let log = serde_json::json!({
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {"name": name, "rules": [{"id": "L1"}]}},
            "results": [{
                "ruleId": "L1",
                "level": "error",
                "message": {"text": "see https://evil.example, ping @acme/security </details> <!-- hidden"},
                "locations": [{"physicalLocation": {
                    "artifactLocation": {"uri": "src/lib.rs"},
                    "region": {"startLine": 6}
                }}]
            }]
        }]
    });
    let path = dir.join("lint.sarif");
    std::fs::write(&path, serde_json::to_string(&log).unwrap()).unwrap();
    path
}

/// The lines of a body before its trailing markers.
fn visible(body: &str) -> Vec<&str> {
    let trailer = markers::trailer(body).count();
    let lines: Vec<&str> = body.trim_end().lines().collect();
    lines[..lines.len() - trailer].to_vec()
}

/// A line without its code spans (GitHub neither links nor mentions inside them).
fn outside_code(line: &str) -> String {
    line.split('`').step_by(2).collect::<Vec<_>>().join(" ")
}

fn assert_inert(body: &str, what: &str) {
    for line in visible(body) {
        assert!(
            !line.contains("<!--"),
            "{what}: raw HTML comment in {line:?}"
        );
        let prose = outside_code(line);
        assert!(!prose.contains("@acme"), "{what}: live mention in {line:?}");
        assert!(
            !prose.contains("https://evil"),
            "{what}: live link in {line:?}"
        );
        for forged in ["# Approved", "> [!NOTE]"] {
            assert!(!line.starts_with(forged), "{what}: injected {line:?}");
        }
    }
    assert!(
        body.matches("</details>").count() <= 1,
        "{what}: an extra </details>:\n{body}"
    );
}

#[test]
fn hostile_names_and_tool_output_are_posted_as_text_and_cannot_forge_markers() {
    let server = hostile_server();
    let data = tempfile::tempdir().unwrap();
    let sarif = hostile_sarif(data.path());
    let out = review_tui()
        .args([
            "acme/widgets#7",
            "--headless",
            "--deterministic-only",
            "--publish",
        ])
        .args(["--api-url", server.url()])
        .args(["--sarif", sarif.to_str().unwrap()])
        .args(["--format", "markdown"])
        .env("REVIEW_TUI_DATA_DIR", data.path())
        .env("GH_TOKEN", TOKEN)
        .env_remove("GITHUB_TOKEN")
        .env_remove("GITHUB_API_URL")
        .output()
        .unwrap();
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(6), "{err}");
    assert!(
        err.contains("published round 1 as REQUEST_CHANGES"),
        "{err}"
    );

    let posted: Vec<Value> = server.bodies_to(REVIEWS);
    assert_eq!(posted.len(), 1, "{err}");
    let body = posted[0]["body"].as_str().unwrap();
    assert_inert(body, "summary");
    // The blocking problem is still there, after everything the hostile name tried to hide.
    assert!(body.contains("### Fix before merge"), "{body}");
    assert!(
        body.contains("Hardcoded secret: AWS access key id"),
        "{body}"
    );
    // The hostile path is one code span, its newlines shown.
    assert!(
        body.contains("`src/evil\\n<\u{200B}!--\\n# Approved"),
        "{body}"
    );
    assert!(markers::has(body, markers::SUMMARY));

    let comments = posted[0]["comments"].as_array().unwrap();
    assert!(comments.len() >= 3, "{comments:?}");
    for comment in comments {
        let text = comment["body"].as_str().unwrap();
        assert_inert(text, "inline comment");
        let fp = markers::fingerprint_in(text).expect("a fingerprint marker");
        assert_ne!(fp, FORGED, "{text}");
        assert_eq!(fp.len(), 16);
        assert_eq!(markers::trailer(text).count(), 1, "{text}");
    }
    // The SARIF finding's footer names the tool, escaped on one line.
    let lint = comments
        .iter()
        .map(|c| c["body"].as_str().unwrap())
        .find(|b| b.contains("— review-tui · sarif:lint"))
        .expect("the SARIF finding is commented");
    assert!(lint.contains("sarif:lint\\\\n&lt;\\!--"), "{lint}");

    // What --format markdown printed is the same text.
    let printed = text(&out.stdout);
    assert_inert(&printed, "printed summary");
}
