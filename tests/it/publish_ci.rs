//! Publishing where users run it: GitHub Actions, whose `github.token` is an installation
//! token. GitHub refuses it `GET /user` (403 "Resource not accessible by integration") and, by
//! default on new repositories, refuses it APPROVE (422 "GitHub Actions is not permitted to
//! approve pull requests."). The fake GitHub answers both with GitHub's real bodies.

use std::path::Path;
use std::process::{Command, Output};

use serde_json::Value;

use crate::cli::review_tui;
use crate::support::git_repo::GitRepo;
use crate::support::github_server::{GithubServer, PullSpec, UserSpec};

const ACTIONS_TOKEN: &str = "ghs_actionsinstallation42";
const ACTIONS_LOGIN: &str = "github-actions[bot]";
const REVIEWS: &str = "POST /repos/acme/widgets/pulls/7/reviews";
const SUMMARY: &str = "<!-- review-tui:summary -->";

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A PR whose change the deterministic review finds nothing in: Ship.
fn clean_repo() -> GitRepo {
    let repo = GitRepo::init();
    repo.write(
        "src/lib.rs",
        "pub fn add(a: i32, b: i32) -> i32 {\n    a + b\n}\n",
    );
    repo.commit_all("initial import");
    repo.git(&["checkout", "--quiet", "-b", "feature"]);
    repo.write(
        "src/lib.rs",
        "pub fn add(a: i32, b: i32) -> i32 {\n    a + b\n}\n\npub fn double(a: i32) -> i32 {\n    add(a, a)\n}\n",
    );
    repo.commit_all("feature: double");
    repo.git(&["update-ref", "refs/pull/7/head", "feature"]);
    repo
}

fn serve(repo: GitRepo) -> GithubServer {
    let mut pull = PullSpec::from_repo(&repo, "acme", "widgets", 7);
    pull.author = UserSpec::user("octocat");
    let server = GithubServer::start(repo, pull);
    server.accept_installation_token(ACTIONS_TOKEN, ACTIONS_LOGIN);
    server
}

/// The binary as a GitHub Actions step runs it: `GITHUB_ACTIONS=true`, the API URL from
/// `GITHUB_API_URL`, the token in `GH_TOKEN`, nothing from the machine's own setup.
fn in_actions(command: &mut Command, server: &GithubServer, data: &Path) {
    command
        .env("GITHUB_ACTIONS", "true")
        .env("GITHUB_API_URL", server.url())
        .env("GITHUB_ACTOR", "octocat")
        .env("GH_TOKEN", ACTIONS_TOKEN)
        .env("REVIEW_TUI_DATA_DIR", data)
        .env_remove("GITHUB_TOKEN")
        .env_remove("REVIEW_TUI_GITHUB_LOGIN");
    for key in [
        "OPENAI_API_KEY",
        "OPENAI_BASE_URL",
        "ANTHROPIC_API_KEY",
        "ANTHROPIC_BASE_URL",
        "OLLAMA_HOST",
    ] {
        command.env_remove(key);
    }
}

fn run_in_actions(server: &GithubServer, data: &Path, extra: &[&str]) -> Output {
    let mut command = review_tui();
    command.args([
        "acme/widgets#7",
        "--headless",
        "--deterministic-only",
        "--approve-without-models",
        "--publish",
    ]);
    command.args(extra);
    in_actions(&mut command, server, data);
    command.output().unwrap()
}

/// The `run:` script of the step named `step` in the workflow, with the `${{ ... }}`
/// expressions Actions would substitute.
fn workflow_step(step: &str, substitutions: &[(&str, &str)]) -> String {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/assets/github-workflow.yml");
    let workflow = std::fs::read_to_string(path).unwrap();
    let lines: Vec<&str> = workflow.lines().collect();
    let named = lines
        .iter()
        .position(|l| l.trim() == format!("- name: {step}"))
        .unwrap_or_else(|| panic!("no step named {step:?}"));
    let run = (named..lines.len())
        .find(|&i| lines[i].trim() == "run: |")
        .expect("a run: | block");
    let indent = |l: &str| l.len() - l.trim_start().len();
    let block_indent = indent(lines[run + 1]);
    let mut script = String::new();
    for line in &lines[run + 1..] {
        if !line.trim().is_empty() && indent(line) < block_indent {
            break;
        }
        script.push_str(line.get(block_indent..).unwrap_or(""));
        script.push('\n');
    }
    for (expression, value) in substitutions {
        script = script.replace(&format!("${{{{ {expression} }}}}"), value);
    }
    assert!(
        !script.contains("${{"),
        "unsubstituted expression in:\n{script}"
    );
    script
}

#[test]
fn the_workflows_publish_step_posts_with_the_actions_token_and_no_get_user() {
    let server = serve(clean_repo());
    let data = tempfile::tempdir().unwrap();
    let work = tempfile::tempdir().unwrap();
    let summary = work.path().join("step-summary.md");
    let script = workflow_step(
        "Review and publish",
        &[
            ("github.repository", "acme/widgets"),
            ("github.event.pull_request.number", "7"),
        ],
    );
    // `review-tui` on the PATH, as `cargo install` leaves it.
    let binary = Path::new(env!("CARGO_BIN_EXE_review-tui"));
    let path = format!(
        "{}:{}",
        binary.parent().unwrap().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut command = Command::new("bash");
    command
        .args(["-e", "-c", &script])
        .current_dir(work.path())
        .env("PATH", path)
        .env("GITHUB_STEP_SUMMARY", &summary);
    in_actions(&mut command, &server, data.path());
    let out = command.output().unwrap();
    let err = text(&out.stderr);
    // No model provider in the test: Inconclusive (7), which the step turns into a failed
    // check, as the workflow documents.
    assert_eq!(out.status.code(), Some(7), "{err}");
    assert!(
        err.contains("published round 1 as COMMENT"),
        "one line saying what was posted: {err}"
    );
    // GitHub refused `/user` to the installation token once; the publisher went on as
    // github-actions[bot].
    let users = server.requests_to("GET /user");
    assert_eq!(users.len(), 1);
    let reviews = server.pull().reviews;
    assert_eq!(reviews.len(), 1, "{reviews:?}");
    assert_eq!(reviews[0].author.login, ACTIONS_LOGIN);
    assert_eq!(reviews[0].state, "COMMENTED");
    assert!(reviews[0].body.contains(SUMMARY));
    assert!(
        reviews[0].body.contains("Inconclusive"),
        "{}",
        reviews[0].body
    );
    let posted = server.bodies_to(REVIEWS);
    assert_eq!(posted.len(), 1);
    assert_eq!(posted[0]["event"], "COMMENT");
    assert!(posted[0]["comments"].as_array().unwrap().is_empty());
    // The step summary got the same report.
    let written = std::fs::read_to_string(&summary).unwrap();
    assert!(written.starts_with("> [!IMPORTANT]"), "{written}");

    // The next run (a fresh space, as every Actions run has) recognises its own review by
    // github-actions[bot]'s markers: nothing is posted twice.
    let again = tempfile::tempdir().unwrap();
    let mut command = Command::new("bash");
    command
        .args(["-e", "-c", &script])
        .current_dir(work.path())
        .env(
            "PATH",
            format!(
                "{}:{}",
                binary.parent().unwrap().display(),
                std::env::var("PATH").unwrap_or_default()
            ),
        )
        .env("GITHUB_STEP_SUMMARY", &summary);
    in_actions(&mut command, &server, again.path());
    let out = command.output().unwrap();
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(7), "{err}");
    assert!(err.contains("already published"), "{err}");
    assert_eq!(server.pull().reviews.len(), 1);
    assert_eq!(server.bodies_to(REVIEWS).len(), 1);
}

#[test]
fn outside_actions_an_installation_token_needs_its_login_named() {
    let server = serve(clean_repo());
    let data = tempfile::tempdir().unwrap();
    let mut command = review_tui();
    command.args([
        "acme/widgets#7",
        "--headless",
        "--deterministic-only",
        "--approve-without-models",
        "--publish",
    ]);
    in_actions(&mut command, &server, data.path());
    command.env_remove("GITHUB_ACTIONS");
    let out = command.output().unwrap();
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(4), "{err}");
    let line = err
        .lines()
        .find(|l| l.contains("publishing failed"))
        .unwrap_or_else(|| panic!("{err}"));
    assert!(line.contains("installation token"), "{line}");
    assert!(
        line.contains("Resource not accessible by integration"),
        "{line}"
    );
    assert!(line.contains("REVIEW_TUI_GITHUB_LOGIN"), "{line}");
    assert!(server.requests().iter().all(|r| r.is_read()));

    // Named, it publishes, and `/user` is not asked again.
    let named = tempfile::tempdir().unwrap();
    let mut command = review_tui();
    command.args([
        "acme/widgets#7",
        "--headless",
        "--deterministic-only",
        "--approve-without-models",
        "--publish",
    ]);
    in_actions(&mut command, &server, named.path());
    command
        .env_remove("GITHUB_ACTIONS")
        .env("REVIEW_TUI_GITHUB_LOGIN", ACTIONS_LOGIN);
    server.allow_actions_approval();
    let out = command.output().unwrap();
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert!(err.contains("published round 1 as APPROVE"), "{err}");
    assert_eq!(server.requests_to("GET /user").len(), 1);
    assert_eq!(server.pull().reviews[0].state, "APPROVED");
}

#[test]
fn where_actions_may_not_approve_a_ship_is_a_comment_stating_the_intended_approval() {
    let server = serve(clean_repo());
    let data = tempfile::tempdir().unwrap();
    let out = run_in_actions(&server, data.path(), &[]);
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{err}");
    let line = err
        .lines()
        .find(|l| l.contains("published round 1"))
        .unwrap_or_else(|| panic!("{err}"));
    assert!(line.contains("as COMMENT"), "{line}");
    assert!(
        line.contains("GitHub Actions is not permitted to approve pull requests"),
        "{line}"
    );
    assert!(line.contains("intended APPROVE"), "{line}");
    let posted: Vec<Value> = server.bodies_to(REVIEWS);
    assert_eq!(posted.len(), 2, "the APPROVE, then the COMMENT");
    assert_eq!(posted[0]["event"], "APPROVE");
    assert_eq!(posted[1]["event"], "COMMENT");
    let body = posted[1]["body"].as_str().unwrap();
    assert!(body.contains("Intended decision: **APPROVE**"), "{body}");
    assert!(
        body.contains("Allow GitHub Actions to create and approve pull requests"),
        "{body}"
    );
    assert!(body.contains(SUMMARY), "{body}");
    let reviews = server.pull().reviews;
    assert_eq!(reviews.len(), 1);
    assert_eq!(reviews[0].state, "COMMENTED");
    assert_eq!(reviews[0].author.login, ACTIONS_LOGIN);
}
