//! Reopening a GitHub review space when GitHub cannot be reached: the real binary, first
//! reviewing through the GitHub-like server, then reopening with the server gone (connection
//! refused), silent (timeout), or answering with an error that is not "offline" (404, 401, a
//! captive portal's HTML page), headless and in the cockpit at 80×24.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

use crate::cli::review_tui;
use crate::support::faults::Fault;
use crate::support::git_repo;
use crate::support::github_server::{GithubServer, PullSpec};
use crate::support::json_schema::Schema;
use crate::support::tmux::Tmux;

const GH_TOKEN: &str = "ghp_OFFLINEcanary00000000000000000000";
const PULL: &str = "GET /repos/acme/widgets/pulls/7";
/// One attempt, a short timeout: an unreachable GitHub is found out at once.
const CONFIG: &str = "[github]\nrequest_timeout = \"2s\"\nmax_attempts = 1\nbackoff = \"10ms\"\n";

fn github_server() -> GithubServer {
    let repo = git_repo::pr_repository();
    repo.git(&["update-ref", "refs/pull/7/head", "feature"]);
    let pull = PullSpec::from_repo(&repo, "acme", "widgets", 7);
    let server = GithubServer::start(repo, pull);
    server.accept_token(GH_TOKEN, "reviewer");
    server
}

/// An API address where nothing listens: a port that was just free.
fn closed_port() -> String {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    drop(listener);
    url
}

/// The binary with its data and config in `dir` and nothing from the environment.
fn command(dir: &Path) -> Command {
    let config = dir.join("config.toml");
    std::fs::write(&config, CONFIG).unwrap();
    let mut command = review_tui();
    command
        .env("REVIEW_TUI_DATA_DIR", dir.join("data"))
        .env("REVIEW_TUI_CONFIG", &config)
        .env("GH_TOKEN", GH_TOKEN);
    for var in [
        "OPENAI_API_KEY",
        "OPENAI_BASE_URL",
        "ANTHROPIC_API_KEY",
        "ANTHROPIC_BASE_URL",
        "OLLAMA_HOST",
        "GITHUB_API_URL",
        "GITHUB_TOKEN",
    ] {
        command.env_remove(var);
    }
    command
}

fn headless(dir: &Path, api: &str, extra: &[&str]) -> Output {
    command(dir)
        .args(["acme/widgets#7", "--api-url", api])
        .args(["--headless", "--deterministic-only"])
        .args(extra)
        .output()
        .unwrap()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn json_of(out: &Output) -> Value {
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "not JSON ({e}): {}\nstderr: {}",
            String::from_utf8_lossy(&out.stdout),
            stderr(out)
        )
    })
}

fn state_path(dir: &Path) -> PathBuf {
    dir.join("data/spaces/github/acme/widgets/pr-7/state.json")
}

/// A first review through the server; returns its JSON report and exit code.
fn review_online(dir: &Path, server: &GithubServer) -> (i32, Value) {
    let out = headless(dir, server.url(), &["--format", "json"]);
    let report = json_of(&out);
    assert!(report.get("offline").is_none(), "{report}");
    (out.status.code().unwrap(), report)
}

#[test]
fn a_reviewed_pr_reopens_offline_with_its_stored_round_and_verdict() {
    let dir = tempfile::tempdir().unwrap();
    let server = github_server();
    let (online_code, online) = review_online(dir.path(), &server);
    drop(server);
    let offline_api = closed_port();
    let state_before = std::fs::read(state_path(dir.path())).unwrap();

    let out = headless(dir.path(), &offline_api, &["--format", "json"]);
    let err = stderr(&out);
    let report = json_of(&out);
    // The stored verdict, with its exit code: not 4, nothing was asked that needs GitHub.
    assert_eq!(out.status.code(), Some(online_code), "{err}");
    assert_eq!(report["verdict"]["decision"], online["verdict"]["decision"]);
    assert_eq!(report["round"]["number"], 1);
    assert_eq!(report["findings"], online["findings"]);
    // Said on stderr and in the report: the stored round, not refreshed, and why.
    let offline = &report["offline"];
    assert_eq!(offline["refreshed"], false, "{report}");
    assert_eq!(offline["round"], 1);
    let as_of = offline["as_of"].as_str().unwrap();
    assert!(as_of.starts_with("20"), "{as_of}");
    let message = offline["message"].as_str().unwrap();
    assert!(
        message.starts_with("offline: showing round 1 as of ")
            && message.ends_with("; not refreshed"),
        "{message}"
    );
    assert!(err.contains(message), "{err}");
    assert!(err.contains("GitHub could not be reached"), "{err}");
    assert!(err.contains(PULL), "{err}");
    // The report keeps its published shape (assets/review-report.schema.json).
    let schema_path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/review-report.schema.json");
    let schema: Value =
        serde_json::from_str(&std::fs::read_to_string(schema_path).unwrap()).unwrap();
    let errors = Schema::new(schema.clone()).errors(&report);
    assert!(errors.is_empty(), "{errors:#?}\n{report:#}");
    assert!(jsonschema::draft202012::is_valid(&schema, &report));
    assert!(
        online.get("offline").is_none(),
        "online reports carry no offline key"
    );
    // What only GitHub knows is not guessed.
    assert!(report["pr"]["author"].is_null(), "{report}");
    assert!(report["pr"]["state"].is_null(), "{report}");
    assert_eq!(report["pr"]["head"]["sha"], online["pr"]["head"]["sha"]);
    // Nothing was sent anywhere and no round was started.
    assert!(!err.contains(GH_TOKEN));
    let state: Value =
        serde_json::from_slice(&std::fs::read(state_path(dir.path())).unwrap()).unwrap();
    let before: Value = serde_json::from_slice(&state_before).unwrap();
    assert_eq!(state["rounds"], before["rounds"]);
    assert_eq!(state["publishes"], before["publishes"]);

    // The text report says it above the decision; Markdown opens with it.
    let text = headless(dir.path(), &offline_api, &[]);
    let text_out = String::from_utf8_lossy(&text.stdout);
    let first = text_out.lines().next().unwrap_or_default();
    assert!(
        first.starts_with("OFFLINE offline: showing round 1 as of "),
        "{text_out}"
    );
    assert!(
        text_out.contains("(offline: not read from GitHub)"),
        "{text_out}"
    );
    assert_eq!(text.status.code(), Some(online_code));
    let markdown = headless(dir.path(), &offline_api, &["--format", "markdown"]);
    let markdown_out = String::from_utf8_lossy(&markdown.stdout);
    assert!(
        markdown_out.starts_with("> [!CAUTION]\n> offline: showing round 1 as of "),
        "{markdown_out}"
    );
}

#[test]
fn publishing_offline_exits_4_in_one_line_and_loses_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let server = github_server();
    review_online(dir.path(), &server);
    drop(server);
    let state_before = std::fs::read(state_path(dir.path())).unwrap();

    for flag in ["--publish", "--force"] {
        let out = headless(dir.path(), &closed_port(), &[flag, "--format", "json"]);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(4), "{flag}: {err}");
        // The stored report is still written, marked as such.
        assert_eq!(json_of(&out)["offline"]["refreshed"], false);
        let refusal: Vec<&str> = err
            .lines()
            .filter(|l| l.contains("needs the network"))
            .collect();
        assert_eq!(refusal.len(), 1, "{flag}: {err}");
        assert!(
            refusal[0].contains("acme/widgets#7") && refusal[0].contains("nothing was sent"),
            "{err}"
        );
        if flag == "--publish" {
            assert!(refusal[0].contains("publishing needs the network"), "{err}");
        }
        // Not a byte of the space changed: no publish record, no new round.
        assert_eq!(
            std::fs::read(state_path(dir.path())).unwrap(),
            state_before,
            "{flag}"
        );
    }
}

#[test]
fn offline_with_no_round_yet_is_one_clear_error_naming_the_pr() {
    let dir = tempfile::tempdir().unwrap();
    let out = headless(dir.path(), &closed_port(), &[]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(4), "{err}");
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 1, "{err}");
    for part in [
        "could not reach GitHub for acme/widgets#7",
        "no review of it yet",
        "connect to the network",
        PULL,
    ] {
        assert!(lines[0].contains(part), "{part}: {err}");
    }
    assert!(!state_path(dir.path()).exists());
    assert!(
        !dir.path()
            .join("data/spaces/github/acme/widgets/pr-7")
            .exists()
    );
}

#[test]
fn a_server_that_never_answers_is_offline_too() {
    let dir = tempfile::tempdir().unwrap();
    let server = github_server();
    let (online_code, online) = review_online(dir.path(), &server);
    // Accepts, then drips slower than the request timeout: no answer in time.
    server.fail_always(
        PULL,
        Fault::SlowDrip {
            interval: std::time::Duration::from_secs(3),
        },
    );
    let out = headless(dir.path(), server.url(), &["--format", "json"]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(online_code), "{err}");
    let report = json_of(&out);
    assert_eq!(report["offline"]["refreshed"], false, "{report}");
    assert_eq!(report["verdict"]["decision"], online["verdict"]["decision"]);
    // The answer began (a drip), so the timeout is told as a slow answer.
    assert!(err.contains("still arriving after 2s"), "{err}");
}

#[test]
fn an_answer_that_refuses_is_not_offline_and_fails_as_before() {
    let dir = tempfile::tempdir().unwrap();
    let server = github_server();
    review_online(dir.path(), &server);
    let state_before = std::fs::read(state_path(dir.path())).unwrap();

    // A wrong token: 401, its own message.
    let out = command(dir.path())
        .args(["acme/widgets#7", "--api-url", server.url()])
        .args(["--headless", "--deterministic-only"])
        .env("GH_TOKEN", "ghp_wrong000000000000000000000000000")
        .output()
        .unwrap();
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(4), "{err}");
    assert!(err.contains("rejected the token (401"), "{err}");
    assert!(!err.contains("offline"), "{err}");
    assert!(out.stdout.is_empty());

    // 404, 403 and a captive portal's page: GitHub (or something) answered.
    for (fault, says) in [
        (Fault::Status(404), "was not found (404)"),
        (Fault::Status(403), "403"),
        (Fault::Html, "text/html"),
    ] {
        server.fail_always(PULL, fault);
        let out = headless(dir.path(), server.url(), &[]);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(4), "{says}: {err}");
        assert!(err.contains(says), "{says}: {err}");
        assert!(!err.contains("offline"), "{says}: {err}");
        assert!(out.stdout.is_empty(), "{says}");
    }
    assert_eq!(std::fs::read(state_path(dir.path())).unwrap(), state_before);
}

/// The cockpit at 80×24 with GitHub gone: the banner in the header, triage saved to the
/// space, and the gate's publish saying in one line that it needs the network.
#[test]
fn the_cockpit_reopens_offline_at_80x24_saves_triage_and_will_not_publish() {
    crate::require_tmux!(
        "offline::the_cockpit_reopens_offline_at_80x24_saves_triage_and_will_not_publish"
    );
    let dir = tempfile::tempdir().unwrap();
    let server = github_server();
    review_online(dir.path(), &server);
    drop(server);
    let before: Value =
        serde_json::from_slice(&std::fs::read(state_path(dir.path())).unwrap()).unwrap();
    let open_before = before["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|n| n["status"] == "open")
        .count();
    assert!(open_before > 0, "the PR needs an open finding: {before}");

    let config = dir.path().join("config.toml");
    std::fs::write(&config, CONFIG).unwrap();
    let exit_file = dir.path().join("exit");
    let binary = env!("CARGO_BIN_EXE_review-tui");
    let command = format!(
        "{binary} acme/widgets#7 --api-url {} --deterministic-only; echo $? > {}; sleep 30",
        closed_port(),
        exit_file.display()
    );
    let data = dir.path().join("data");
    let tmux = Tmux::start(
        "offline",
        &command,
        80,
        24,
        &[
            ("REVIEW_TUI_DATA_DIR", &data),
            ("REVIEW_TUI_CONFIG", &config),
            ("REVIEW_TUI_PERSON", Path::new("tester")),
            ("GH_TOKEN", Path::new(GH_TOKEN)),
        ],
    );
    let screen = tmux.wait_for("the offline banner", |s| {
        s.contains("offline: showing round 1 as of") && s.contains("; not refreshed")
    });
    // The banner is whole at 80 columns, in the header, above the stored verdict.
    let banner_row = screen
        .lines()
        .position(|l| l.contains("offline: showing round 1 as of"))
        .unwrap();
    assert!(banner_row < 3, "{screen}");
    assert!(!screen.contains("RUNNING"), "{screen}");

    // Triage: unfold the cohort's "below threshold" group, confirm its finding; it is saved
    // to the space at once.
    // The cohorts come from the space's cache after the first frame; they regroup the list.
    tmux.wait_for("the cohorts", |s| s.contains("Reading order"));
    tmux.keys(&["j"]);
    tmux.wait_for("the group selected", |s| s.contains("▶  ▸ below threshold"));
    tmux.keys(&["Enter"]);
    tmux.wait_for("the unfolded group", |s| s.contains("▾ below threshold"));
    tmux.keys(&["j"]);
    tmux.keys(&["c"]);
    tmux.wait_for("the confirmation saved", |_| {
        std::fs::read(state_path(dir.path()))
            .ok()
            .and_then(|b| serde_json::from_slice::<Value>(&b).ok())
            .is_some_and(|s| {
                s["nodes"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .any(|n| n["confirmations"].as_array().is_some_and(|c| !c.is_empty()))
            })
    });

    // The gate's publish: one line saying it needs the network; nothing recorded.
    tmux.keys(&["g"]);
    tmux.wait_for("the gate", |s| s.contains("Approval gate"));
    tmux.keys(&["p"]);
    let refused = tmux.wait_for("the refusal", |s| s.contains("needs the network"));
    assert!(refused.contains("publishing"), "{refused}");
    // Escape then a key at once reads as Alt+key (a loaded machine delivers them together):
    // each Escape waits for its screen before the next key.
    tmux.keys(&["Escape"]);
    let screen = tmux.wait_for("the refusal dismissed", |s| s != refused);
    if screen.contains("Approval gate") {
        tmux.keys(&["Escape"]);
        tmux.wait_for("the gate to close", |s| !s.contains("Approval gate"));
    }
    tmux.keys(&["q"]);
    let code = tmux.exit_code(&exit_file);
    assert!((0..=7).contains(&code) && code != 2 && code != 4, "{code}");

    let after: Value =
        serde_json::from_slice(&std::fs::read(state_path(dir.path())).unwrap()).unwrap();
    assert_eq!(after["rounds"], before["rounds"], "no round was started");
    assert!(
        after["publishes"].as_array().is_none_or(|p| p.is_empty()),
        "{after}"
    );
    let confirmed = after["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|n| n["confirmations"].as_array().is_some_and(|c| !c.is_empty()))
        .expect("the confirmed finding");
    assert_eq!(
        confirmed["history"][0]["by"]["name"], "tester",
        "{confirmed}"
    );
}
