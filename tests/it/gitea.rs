//! Gitea and Forgejo pull requests end to end: the real binary against the Gitea-like API on
//! 127.0.0.1 (checked against Gitea's swagger, `support/gitea_server.rs`), a real repository
//! holding `refs/pull/7/head`. The feature branch plants an `unwrap()` (an observation) and a
//! fake AWS key (a blocking secret), which the deterministic reviewers find.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

use crate::cli::review_tui;
use crate::inbox::{forge_rows, printed_list, self_hosted_config};
use crate::publish::planted_repo;
use crate::support::faults::Fault;
use crate::support::gitea_server::{GiteaServer, INDEX};

pub(crate) const TOKEN: &str = "gitea-canary-0123456789abcdef";
const LOGIN: &str = "review-bot";
const AWS_KEY: &str = "AKIAZ4DEMQ7Q2LXWRT5W";
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

pub(crate) fn start() -> GiteaServer {
    let server = GiteaServer::start(planted_repo(), "octocat");
    server.accept_token(TOKEN, LOGIN);
    server
}

/// The user's config: the server's host named under `[gitea]`, its API, quick retries.
fn config(dir: &Path, server: &GiteaServer) -> PathBuf {
    let path = dir.join("config.toml");
    std::fs::write(
        &path,
        format!(
            "[gitea]\nhosts = [\"{host}\"]\nmax_attempts = 3\nbackoff = \"10ms\"\nrequest_timeout = \"5s\"\n\n[gitea.host.\"{host}\"]\napi_url = \"{api}\"\n",
            host = server.host(),
            api = server.api()
        ),
    )
    .unwrap();
    path
}

/// The binary on the pull request, with no token of any forge but what `env` sets, and a
/// config home of its own (no real `tea` login is ever read).
fn bare(server: &GiteaServer, dir: &Path, config: &Path, extra: &[&str]) -> Command {
    let mut command = review_tui();
    command
        .arg(server.pr_url())
        .args(["--headless", "--deterministic-only"])
        // About what an approval does: the person chooses to approve a Ship no model read.
        .arg("--approve-without-models")
        .args(extra)
        .env("REVIEW_TUI_DATA_DIR", dir.join("data"))
        .env("REVIEW_TUI_CONFIG", config)
        .env("XDG_CONFIG_HOME", dir.join("xdg"));
    for var in [
        "GH_TOKEN",
        "GITHUB_TOKEN",
        "GITHUB_API_URL",
        "GITLAB_TOKEN",
        "GITEA_TOKEN",
        "FORGEJO_TOKEN",
        "OPENAI_API_KEY",
        "ANTHROPIC_API_KEY",
        "OLLAMA_HOST",
    ] {
        command.env_remove(var);
    }
    command
}

pub(crate) fn command(server: &GiteaServer, dir: &Path, extra: &[&str]) -> Command {
    let mut command = bare(server, dir, &config(dir, server), extra);
    command.env("GITEA_TOKEN", TOKEN);
    command
}

fn run(server: &GiteaServer, dir: &Path, extra: &[&str]) -> Output {
    command(server, dir, extra).output().unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn reviews_call() -> String {
    GiteaServer::call("POST", &format!("/pulls/{INDEX}/reviews"))
}

fn summary_call() -> String {
    GiteaServer::call("POST", &format!("/issues/{INDEX}/comments"))
}

/// Nothing secret posted or printed; every call with the token as Gitea takes it.
fn assert_clean(server: &GiteaServer, outputs: &[&Output]) {
    for seen in server.seen() {
        assert!(!seen.body.to_string().contains(AWS_KEY), "{}", seen.call());
        assert_eq!(
            seen.authorization.as_deref(),
            Some(format!("token {TOKEN}").as_str()),
            "{}",
            seen.call()
        );
    }
    let pull = server.pull();
    for body in pull
        .comments
        .iter()
        .map(|c| &c.body)
        .chain(pull.reviews.iter().map(|r| &r.body))
        .chain(pull.inline.iter().map(|c| &c.body))
    {
        assert!(!body.contains(AWS_KEY), "{body}");
    }
    for out in outputs {
        for stream in [text(&out.stdout), text(&out.stderr)] {
            assert!(!stream.contains(AWS_KEY), "{stream}");
            assert!(!stream.contains(TOKEN), "{stream}");
        }
    }
}

#[test]
fn a_pull_request_is_reviewed_published_in_rounds_and_a_later_block_dismisses_the_approval() {
    let server = start();
    // One review a page: reading the reviews follows Gitea's `Link` across pages.
    server.max_items(1);
    let dir = tempfile::tempdir().unwrap();
    let first = run(&server, dir.path(), &["--publish"]);
    let err = text(&first.stderr);
    assert_eq!(first.status.code(), Some(6), "{err}");
    assert!(
        err.contains("published round 1 as REQUEST_CHANGES"),
        "{err}"
    );

    // One summary comment, one review with the event and both inline comments.
    let pull = server.pull();
    assert_eq!(pull.comments.len(), 1);
    let summary = pull.comments[0].clone();
    assert!(summary.body.contains(SUMMARY), "{}", summary.body);
    assert!(
        summary.body.contains("### Fix before merge"),
        "{}",
        summary.body
    );
    let head = pull.head.clone();
    assert!(
        summary
            .body
            .contains(&format!("<!-- review-tui:round=1 head={head} -->"))
    );
    assert!(
        err.contains(&format!("#issuecomment-{}", summary.id)),
        "{err}"
    );
    assert_eq!(pull.reviews.len(), 1);
    assert_eq!(pull.reviews[0].state, "REQUEST_CHANGES");
    assert!(
        pull.reviews[0]
            .body
            .contains(&format!("#issuecomment-{}", summary.id))
    );
    assert_eq!(pull.inline.len(), 2, "{:#?}", pull.inline);
    for comment in &pull.inline {
        assert!(
            comment.body.contains("<!-- review-tui:fp="),
            "{}",
            comment.body
        );
        assert_eq!(comment.path, "src/lib.rs");
        assert!(comment.position > 0);
    }
    let posted = server.seen_to(&reviews_call());
    assert_eq!(posted.len(), 1);
    assert_eq!(posted[0].body["commit_id"], head.as_str());

    // The same round from a fresh space (a CI job run again): found by its marker.
    let again_dir = tempfile::tempdir().unwrap();
    let again = run(&server, again_dir.path(), &["--publish"]);
    let again_err = text(&again.stderr);
    assert!(again_err.contains("already published"), "{again_err}");
    assert!(
        again_err.contains(&format!("#issuecomment-{}", summary.id)),
        "{again_err}"
    );
    assert_eq!(server.seen_to(&reviews_call()).len(), 1);
    assert_eq!(server.seen_to(&summary_call()).len(), 1);

    // A push removes the key and moves the unwrap(): Ship, approved on the new head.
    let new_head = server.push(|repo| {
        repo.git(&["checkout", "--quiet", "feature"]);
        repo.write("src/lib.rs", &feature_lib(false, true));
        repo.commit_all("feature: drop the key")
    });
    let second = run(&server, dir.path(), &["--publish"]);
    let err = text(&second.stderr);
    assert_eq!(second.status.code(), Some(0), "{err}");
    let pull = server.pull();
    // The summary is edited in place, never posted again.
    assert_eq!(pull.comments.len(), 1);
    assert_eq!(server.seen_to(&summary_call()).len(), 1);
    let edits = server.seen_to(&GiteaServer::call(
        "PATCH",
        &format!("/issues/comments/{}", summary.id),
    ));
    assert_eq!(edits.len(), 1, "{err}");
    assert!(
        pull.comments[0]
            .body
            .contains(&format!("round=2 head={new_head}")),
        "{}",
        pull.comments[0].body
    );
    // Round 2's own review approves the new head and points at the summary.
    let approval = pull
        .reviews
        .iter()
        .find(|r| r.state == "APPROVED")
        .expect("an approval");
    assert_eq!(approval.commit_id, new_head);
    assert!(
        approval
            .body
            .contains(&format!("#issuecomment-{}", summary.id))
    );
    // Round 1's REQUEST_CHANGES no longer stands.
    assert!(pull.reviews[0].dismissed, "{:#?}", pull.reviews);
    // The unwrap() is not repeated; the key's comment is answered "Resolved" in its place.
    let fresh: Vec<_> = pull.inline.iter().skip(2).collect();
    assert_eq!(fresh.len(), 1, "{:#?}", pull.inline);
    assert!(
        fresh[0]
            .body
            .starts_with(&format!("Resolved in {}", &new_head[..10])),
        "{}",
        fresh[0].body
    );
    let key_comment = pull
        .inline
        .iter()
        .take(2)
        .find(|c| c.body.contains("secret"))
        .expect("the key's comment");
    assert_eq!(
        (fresh[0].path.as_str(), fresh[0].position),
        (key_comment.path.as_str(), key_comment.position)
    );

    // A push brings a key back: Block, and the earlier approval is dismissed.
    server.push(|repo| {
        repo.git(&["checkout", "--quiet", "feature"]);
        repo.write("src/lib.rs", &feature_lib(true, true));
        repo.commit_all("feature: a key again")
    });
    let before_third = server.seen().len();
    let third = run(&server, dir.path(), &["--publish"]);
    let err = text(&third.stderr);
    assert_eq!(third.status.code(), Some(6), "{err}");
    assert!(err.contains("dismissed our earlier APPROVE"), "{err}");
    let dismissals: Vec<_> = server
        .seen()
        .into_iter()
        .skip(before_third)
        .filter(|s| s.method == "POST" && s.path.ends_with("/dismissals"))
        .collect();
    assert_eq!(dismissals.len(), 1);
    assert!(
        dismissals[0]
            .path
            .ends_with(&format!("/reviews/{}/dismissals", approval.id)),
        "{}",
        dismissals[0].path
    );
    let pull = server.pull();
    assert!(
        pull.reviews
            .iter()
            .find(|r| r.id == approval.id)
            .unwrap()
            .dismissed
    );
    assert_eq!(pull.comments.len(), 1);
    // The reviews were read page by page.
    assert!(
        server.seen().iter().any(|s| s.path.ends_with("/reviews")
            && s.query.as_deref().is_some_and(|q| q.contains("page=2"))),
        "the second page of reviews was never read"
    );
    assert_clean(&server, &[&first, &again, &second, &third]);
}

#[test]
fn a_position_gitea_refuses_falls_into_the_summary() {
    let server = start();
    server.refuse_positions_on("src/lib.rs");
    let dir = tempfile::tempdir().unwrap();
    let out = run(&server, dir.path(), &["--publish"]);
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(6), "{err}");
    assert!(err.contains("Gitea refused the inline comments"), "{err}");
    let pull = server.pull();
    assert!(pull.inline.is_empty());
    assert_eq!(pull.reviews.len(), 1);
    // The refused attempt's summary comment is the one the resend used: one comment.
    assert_eq!(pull.comments.len(), 1);
    let body = &pull.comments[0].body;
    assert!(body.contains("Gitea refused the inline comments"), "{body}");
    // Both findings are in the summary, none dropped.
    assert!(body.contains("unwrap()"), "{body}");
    assert!(body.contains("secret scan"), "{body}");
    assert_eq!(server.seen_to(&reviews_call()).len(), 2);
    assert_clean(&server, &[&out]);
}

#[test]
fn a_rate_limit_is_waited_out_and_a_5xx_mid_publish_is_finished_exactly_once_by_a_rerun() {
    let server = start();
    server.script(
        &GiteaServer::call("GET", &format!("/pulls/{INDEX}")),
        [Fault::TooManyRequests {
            retry_after_secs: 1,
        }],
    );
    server.script(&reviews_call(), [Fault::Status(502)]);
    let dir = tempfile::tempdir().unwrap();
    let first = run(&server, dir.path(), &["--publish"]);
    let err = text(&first.stderr);
    assert_eq!(first.status.code(), Some(4), "{err}");
    assert!(err.contains("502"), "{err}");
    assert!(
        err.contains("publishing again looks for its marker"),
        "{err}"
    );
    let reads = server.seen_to(&GiteaServer::call("GET", &format!("/pulls/{INDEX}")));
    assert!(reads.len() >= 2, "the 429 was retried: {reads:#?}");
    // The summary comment is posted, the review is not.
    assert_eq!(server.pull().comments.len(), 1);
    assert!(server.pull().reviews.is_empty());

    let second = run(&server, dir.path(), &["--publish"]);
    let err = text(&second.stderr);
    assert_eq!(second.status.code(), Some(6), "{err}");
    assert!(err.contains("publishing its recorded round"), "{err}");
    let pull = server.pull();
    assert_eq!(pull.comments.len(), 1, "the left summary comment is reused");
    assert_eq!(pull.reviews.len(), 1);
    assert_eq!(pull.inline.len(), 2);
    assert_eq!(server.seen_to(&summary_call()).len(), 1);
    assert_clean(&server, &[&first, &second]);
}

#[test]
fn killed_while_posting_the_review_a_rerun_posts_everything_once() {
    let server = start();
    server.stall(&reviews_call());
    let dir = tempfile::tempdir().unwrap();
    let mut child = command(&server, dir.path(), &["--publish"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    // Bounded: the publish reaches the review well within this (it is not a timing claim).
    let deadline = Instant::now() + Duration::from_secs(120);
    while server.seen_to(&reviews_call()).is_empty() {
        assert!(Instant::now() < deadline, "{:#?}", server.seen());
        assert!(child.try_wait().unwrap().is_none(), "exited early");
        std::thread::sleep(Duration::from_millis(50));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    server.release();
    assert_eq!(server.pull().comments.len(), 1);
    assert!(server.pull().reviews.is_empty());

    let rerun = run(&server, dir.path(), &["--publish"]);
    let err = text(&rerun.stderr);
    assert_eq!(rerun.status.code(), Some(6), "{err}");
    let pull = server.pull();
    assert_eq!(pull.comments.len(), 1);
    assert_eq!(pull.reviews.len(), 1);
    assert_eq!(pull.inline.len(), 2);
    // And once more: nothing new.
    let again = run(&server, dir.path(), &["--publish"]);
    assert!(
        text(&again.stderr).contains("already published"),
        "{}",
        text(&again.stderr)
    );
    assert_eq!(server.pull().reviews.len(), 1);
    assert_eq!(server.pull().comments.len(), 1);
    assert_clean(&server, &[&rerun, &again]);
}

#[test]
fn a_reviewed_pull_request_reopens_offline() {
    let server = start();
    let dir = tempfile::tempdir().unwrap();
    let online = run(&server, dir.path(), &[]);
    assert_eq!(online.status.code(), Some(6), "{}", text(&online.stderr));
    let config = config(dir.path(), &server);
    let url = server.pr_url();
    drop(server);
    let out = review_tui()
        .arg(&url)
        .args(["--headless", "--deterministic-only"])
        .env("REVIEW_TUI_DATA_DIR", dir.path().join("data"))
        .env("REVIEW_TUI_CONFIG", &config)
        .env("XDG_CONFIG_HOME", dir.path().join("xdg"))
        .env("GITEA_TOKEN", TOKEN)
        .output()
        .unwrap();
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(6), "{err}");
    assert!(err.contains("offline: showing round 1"), "{err}");
    assert!(err.contains("Gitea could not be reached"), "{err}");
    assert!(!err.contains(TOKEN));
}

#[test]
fn a_host_no_one_named_is_refused_and_a_token_goes_only_to_its_own_host() {
    let server = start();
    let dir = tempfile::tempdir().unwrap();
    let empty = dir.path().join("empty.toml");
    std::fs::write(&empty, "").unwrap();
    let out = bare(&server, dir.path(), &empty, &[])
        .env("GITEA_TOKEN", TOKEN)
        .output()
        .unwrap();
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(4), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains(&format!("[gitea] hosts = [\"{}\"]", server.host())),
        "{err}"
    );
    assert!(!err.contains(TOKEN), "{err}");
    assert!(server.seen().is_empty(), "{:#?}", server.seen());

    // Known, but the tokens on offer are for other hosts: another host's entry names a
    // variable, and `tea` has a login on another server. Nothing goes: read anonymously.
    let other = dir.path().join("other.toml");
    std::fs::write(
        &other,
        format!(
            "{}\n[gitea.host.\"git.other.example\"]\ntoken_env = \"OTHER_TOKEN\"\n",
            std::fs::read_to_string(config(dir.path(), &server)).unwrap()
        ),
    )
    .unwrap();
    let tea = dir.path().join("xdg/tea");
    std::fs::create_dir_all(&tea).unwrap();
    std::fs::write(
        tea.join("config.yml"),
        format!("logins:\n- name: other\n  url: https://git.other.example\n  token: {TOKEN}\n"),
    )
    .unwrap();
    let anonymous = bare(&server, dir.path(), &other, &[])
        .env("OTHER_TOKEN", TOKEN)
        .output()
        .unwrap();
    assert_eq!(
        anonymous.status.code(),
        Some(6),
        "{}",
        text(&anonymous.stderr)
    );
    assert!(!server.seen().is_empty());
    for seen in server.seen() {
        assert!(seen.authorization.is_none(), "{}", seen.call());
    }
    // `tea`'s login on this server is used, and only here.
    std::fs::write(
        tea.join("config.yml"),
        format!(
            "logins:\n- name: here\n  url: {}\n  token: {TOKEN}\n  default: true\n",
            server.url()
        ),
    )
    .unwrap();
    let before = server.seen().len();
    let with_tea = bare(&server, dir.path(), &other, &["--publish"])
        .output()
        .unwrap();
    assert_eq!(
        with_tea.status.code(),
        Some(6),
        "{}",
        text(&with_tea.stderr)
    );
    let later = &server.seen()[before..];
    assert!(!later.is_empty());
    for seen in later {
        assert_eq!(
            seen.authorization.as_deref(),
            Some(format!("token {TOKEN}").as_str()),
            "{}",
            seen.call()
        );
    }
    assert_eq!(server.pull().reviews.len(), 1);
    // The space is Gitea's, under the host's site, holding the head of `refs/pull/7/head`.
    let site = format!("gitea-{}", server.host().replace(':', "-"));
    assert!(dir.path().join("data/spaces").join(&site).is_dir());
    for out in [&out, &anonymous, &with_tea] {
        for stream in [text(&out.stdout), text(&out.stderr)] {
            assert!(!stream.contains(TOKEN), "{stream}");
        }
    }
}

#[test]
fn a_head_moved_while_publishing_is_exit_8_and_nothing_stays_posted() {
    let server = start();
    let reviewed = server.pull().head;
    // A force-push lands after the publisher's last read, while the summary is being posted.
    server.push_before(&summary_call(), |repo| {
        repo.git(&["checkout", "--quiet", "feature"]);
        repo.write("src/lib.rs", &feature_lib(true, true));
        repo.commit_all("feature: moved")
    });
    let dir = tempfile::tempdir().unwrap();
    let out = run(&server, dir.path(), &["--publish"]);
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(8), "{err}");
    assert!(err.contains(&reviewed), "{err}");
    assert!(server.pull().reviews.is_empty());
    // The summary posted for the old head is taken back.
    assert_eq!(server.seen_to(&summary_call()).len(), 1);
    assert!(server.pull().comments.is_empty());
    assert_clean(&server, &[&out]);
}

/// The Forgejo/Gitea Actions workflow works as shipped: only on `pull_request`, review-tui
/// installed `--locked` at a tag, the token from a secret (never the workflow's own), and its
/// script valid bash.
#[test]
fn the_actions_workflow_runs_on_pull_requests_with_a_secret_token_and_valid_bash() {
    use yaml_rust::YamlLoader;
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/assets/gitea-workflow.yml");
    let yaml = std::fs::read_to_string(path).unwrap();
    let workflow = YamlLoader::load_from_str(&yaml).unwrap().remove(0);
    assert!(!workflow["on"]["pull_request"].is_badvalue());
    assert!(!yaml.contains("pull_request_target:"));
    let steps = workflow["jobs"]["review"]["steps"].as_vec().unwrap();
    let scripts: Vec<&str> = steps.iter().filter_map(|s| s["run"].as_str()).collect();
    assert!(scripts.iter().any(|s| s.contains("cargo install --locked")));
    assert!(scripts.iter().all(|s| !s.contains("--branch")));
    let publish = steps
        .iter()
        .find(|s| s["run"].as_str().is_some_and(|r| r.contains("--publish")))
        .expect("a step that publishes");
    assert_eq!(
        publish["env"]["GITEA_TOKEN"].as_str(),
        Some("${{ secrets.REVIEW_TUI_GITEA_TOKEN }}")
    );
    let expression = regex::Regex::new(r"\$\{\{[^}]*\}\}").unwrap();
    for script in scripts {
        let script = expression.replace_all(script, "x");
        let out = Command::new("bash")
            .args(["-n", "-c", &script])
            .output()
            .unwrap();
        assert!(out.status.success(), "{}\n{script}", text(&out.stderr));
    }
}

#[test]
fn a_base_that_moved_on_is_checked_by_gitea_s_merge_base_and_published() {
    let server = start();
    let dir = tempfile::tempdir().unwrap();
    let review = run(&server, dir.path(), &[]);
    assert_eq!(review.status.code(), Some(6), "{}", text(&review.stderr));
    let merge_base = server.pull().merge_base;
    server.advance_base(|repo| {
        repo.git(&["checkout", "--quiet", "main"]);
        repo.write("README.md", "# widgets, documented\n");
        repo.commit_all("main: docs")
    });
    assert_eq!(server.pull().merge_base, merge_base);
    let out = run(&server, dir.path(), &["--publish"]);
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(6), "{err}");
    assert!(err.contains("published round 1"), "{err}");
    assert_eq!(server.pull().reviews.len(), 1);
    assert_clean(&server, &[&review, &out]);
}

fn inbox_json(server: &GiteaServer, dir: &Path) -> serde_json::Value {
    let config = self_hosted_config(
        dir,
        "gitea",
        &server.host(),
        &server.api(),
        "INBOX_GITEA_TOKEN",
        "",
    );
    let mut command = review_tui();
    command
        .env("REVIEW_TUI_DATA_DIR", dir.join("data"))
        .env("REVIEW_TUI_CONFIG", config)
        .env("XDG_CONFIG_HOME", dir.join("xdg"))
        .env("INBOX_GITEA_TOKEN", TOKEN);
    printed_list(command, TOKEN)
}

fn inbox_rows<'a>(list: &'a serde_json::Value, section: &str) -> Vec<&'a serde_json::Value> {
    forge_rows(list, section, "Gitea")
}

#[test]
fn the_inbox_pages_through_the_issue_search_of_each_named_host() {
    use crate::support::gitea_server::Listed;
    let server = start();
    server.request_review(LOGIN);
    // Pages of two: every list is read to its end through `Link`.
    server.max_items(2);
    let listed = |repo: &str, number: u64, author: &str, reviewers: &[&str]| Listed {
        repo: repo.into(),
        number,
        title: format!("Change {number}"),
        author: author.into(),
        reviewers: reviewers.iter().map(|r| r.to_string()).collect(),
        pull: true,
        open: true,
        merged: false,
    };
    for n in 20..24 {
        server.list(listed("acme/tools", n, "ana", &[LOGIN]));
    }
    server.list(listed("acme/cli", 3, LOGIN, &[]));
    server.list(Listed {
        pull: false,
        ..listed("acme/cli", 4, LOGIN, &[])
    });
    server.list(Listed {
        open: false,
        merged: true,
        ..listed("acme/old", 5, "ana", &[LOGIN])
    });
    server.list(listed("acme/other", 6, "ana", &["someone"]));
    let dir = tempfile::tempdir().unwrap();

    let list = inbox_json(&server, dir.path());
    let requested = inbox_rows(&list, "requested");
    let mut numbers: Vec<String> = requested
        .iter()
        .map(|r| {
            format!(
                "{}{}",
                r["repo"].as_str().unwrap(),
                r["number"].as_str().unwrap()
            )
        })
        .collect();
    numbers.sort();
    assert_eq!(
        numbers,
        [
            "acme/tools#20",
            "acme/tools#21",
            "acme/tools#22",
            "acme/tools#23",
            "acme/widgets#7"
        ],
        "{list:#}"
    );
    let seven = requested.iter().find(|r| r["number"] == "#7").unwrap();
    assert_eq!(seven["reference"], server.pr_url().as_str());
    // Its head, read from the pull request itself (the search does not give it).
    assert_eq!(seven["head_sha"], server.pull().head.as_str(), "{seven:#}");
    // Another repository's pull request the server will not show: listed, its head unknown.
    let other = requested.iter().find(|r| r["number"] == "#20").unwrap();
    assert!(other["head_sha"].is_null(), "{other:#}");
    let mine = inbox_rows(&list, "mine");
    let mine: Vec<&str> = mine.iter().map(|r| r["number"].as_str().unwrap()).collect();
    assert_eq!(mine, ["#3"], "an issue is not a pull request: {list:#}");
    // The named host where nothing listens is said, and hides nothing the other lists.
    assert!(
        list["notices"].to_string().contains("127.0.0.1:9"),
        "{list:#}"
    );
    assert!(list["offline"].is_null(), "another host answered: {list:#}");
    let searches = server.seen_to("GET /api/v1/repos/issues/search");
    // Five requested over pages of two, one of mine.
    assert_eq!(searches.len(), 4, "{searches:#?}");
    assert!(
        searches
            .iter()
            .all(|s| s.query.as_deref().unwrap_or("").contains("type=pulls")),
        "every page keeps the filters: {searches:#?}"
    );

    // Reviewed at its head, the row carries the space.
    let reviewed = run(&server, dir.path(), &[]);
    assert!(
        matches!(reviewed.status.code(), Some(0 | 5 | 6)),
        "{}",
        text(&reviewed.stderr)
    );
    let list = inbox_json(&server, dir.path());
    let seven = inbox_rows(&list, "requested")
        .into_iter()
        .find(|r| r["number"] == "#7")
        .cloned()
        .unwrap();
    assert!(!seven["space"].is_null(), "{seven:#}");
    assert_clean(&server, &[&reviewed]);
}
