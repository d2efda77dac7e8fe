//! Fault injection: the real binary in `--headless` mode against the loopback servers while they
//! misbehave on the wire: a connection closed mid-answer, an answer that trickles, truncated
//! JSON, an HTML page, a 200 carrying an error, a rejected token, an exhausted rate limit, and
//! bursts of 5xx. Whatever happens, the run never says Ship on a failure, exits within a bound,
//! says on stderr in one line what went wrong and what to do, and never shows a token.

use std::io::Read;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::cli::review_tui;
use crate::support::anthropic_server::{AnthropicReply, AnthropicServer};
use crate::support::faults::Fault;
use crate::support::git_repo::{self, GitRepo};
use crate::support::github_server::{GithubServer, PullSpec};
use crate::support::openai_server::{OpenAiServer, Reply};

/// No run may take longer than this; a hang is a failure, not a slow test.
const BOUND: Duration = Duration::from_secs(60);
/// Faster than any client timeout below, slow enough that a timeout is the only way out.
const DRIP: Duration = Duration::from_millis(400);
pub(crate) const GH_TOKEN: &str = "ghp_FAULTScanary0000000000000000000000";
const MODEL_KEY: &str = "sk-FAULTScanary000000000000000000";
pub(crate) const PULL: &str = "GET /repos/acme/widgets/pulls/7";

pub(crate) struct Run {
    pub(crate) code: i32,
    pub(crate) stdout: String,
    pub(crate) stderr: String,
    /// Every file the run left under its data directory, as text.
    files: Vec<(String, String)>,
}

impl Run {
    fn report(&self) -> Value {
        serde_json::from_str(&self.stdout).unwrap_or(Value::Null)
    }

    pub(crate) fn decision(&self) -> String {
        self.report()["verdict"]["decision"]
            .as_str()
            .unwrap_or("none")
            .to_owned()
    }

    /// The stderr lines that are not the pre-run estimate or the reminder that nothing was
    /// published.
    pub(crate) fn messages(&self) -> Vec<&str> {
        // A reviewer's or pass's retry: `…: attempt 1 of 3, again in 1 s`.
        let retrying = |l: &str| l.contains(": attempt ") && l.contains(", again in ");
        self.stderr
            .lines()
            .filter(|l| {
                !l.trim().is_empty()
                    && !l.starts_with("review-tui: estimate:")
                    && !l.starts_with("review-tui: nothing was published")
                    // Progress while a call waits or is tried again, not what happened.
                    && !l.starts_with("review-tui: waiting for ")
                    && !l.contains("; trying again in ")
                    && !retrying(l)
            })
            .collect()
    }

    /// The run is not Ship, and its verdict and exit code agree.
    fn assert_not_ship(&self, case: &str) {
        assert_ne!(self.code, 0, "{case}: exit 0 is Ship\n{}", self.stderr);
        assert_ne!(self.decision(), "ship", "{case}: {}", self.stdout);
    }

    /// Exactly one line on stderr says what happened, and it contains every needle.
    fn assert_one_message(&self, case: &str, needles: &[&str]) {
        let messages = self.messages();
        assert_eq!(messages.len(), 1, "{case}: {}", self.stderr);
        for needle in needles {
            assert!(
                messages[0].contains(needle),
                "{case}: no {needle:?} in {}",
                messages[0]
            );
        }
    }

    pub(crate) fn assert_never_shows(&self, case: &str, secret: &str) {
        assert!(!self.stdout.contains(secret), "{case}: stdout shows it");
        assert!(!self.stderr.contains(secret), "{case}: stderr shows it");
        for (path, text) in &self.files {
            assert!(!text.contains(secret), "{case}: {path} holds it");
        }
    }
}

/// Runs `command` to completion, killing it (and failing) if it outlives [`BOUND`].
pub(crate) fn bounded(mut command: Command, data: &Path, case: &str) -> Run {
    let mut child = command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let drain = |mut pipe: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut text = String::new();
            let _ = pipe.read_to_string(&mut text);
            text
        })
    };
    let stdout = drain(Box::new(child.stdout.take().unwrap()));
    let stderr = drain(Box::new(child.stderr.take().unwrap()));
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if started.elapsed() > BOUND {
            let _ = child.kill();
            let _ = child.wait();
            panic!(
                "{case}: still running after {BOUND:?}; stderr so far: {}",
                stderr.join().unwrap()
            );
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let mut files = Vec::new();
    collect_files(data, &mut files);
    Run {
        code: status.code().unwrap_or(-1),
        stdout: stdout.join().unwrap(),
        stderr: stderr.join().unwrap(),
        files,
    }
}

fn collect_files(dir: &Path, out: &mut Vec<(String, String)>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            collect_files(&path, out);
        } else if let Ok(bytes) = std::fs::read(&path) {
            out.push((
                path.display().to_string(),
                String::from_utf8_lossy(&bytes).into_owned(),
            ));
        }
    }
}

/// A command with no credentials or endpoints from the environment, its data and config in
/// `dir`.
pub(crate) fn command(dir: &Path, config: &str) -> Command {
    let config_path = dir.join("config.toml");
    std::fs::write(&config_path, config).unwrap();
    let mut command = review_tui();
    command
        .env("REVIEW_TUI_DATA_DIR", dir.join("data"))
        .env("REVIEW_TUI_CONFIG", &config_path);
    for var in [
        "OPENAI_API_KEY",
        "OPENAI_BASE_URL",
        "ANTHROPIC_API_KEY",
        "ANTHROPIC_BASE_URL",
        "OLLAMA_HOST",
        "GITHUB_API_URL",
        "GH_TOKEN",
        "GITHUB_TOKEN",
    ] {
        command.env_remove(var);
    }
    command
}

// ---- The GitHub-like API, while the PR is read for a review ----

pub(crate) const GITHUB_CONFIG: &str =
    "[github]\nrequest_timeout = \"1s\"\nmax_attempts = 3\nbackoff = \"10ms\"\n";

pub(crate) fn github_server() -> GithubServer {
    let repo = git_repo::pr_repository();
    repo.git(&["update-ref", "refs/pull/7/head", "feature"]);
    let pull = PullSpec::from_repo(&repo, "acme", "widgets", 7);
    let server = GithubServer::start(repo, pull);
    server.accept_token(GH_TOKEN, "reviewer");
    server
}

pub(crate) fn review_github_pr(server: &GithubServer, token: &str, case: &str) -> Run {
    let dir = tempfile::tempdir().unwrap();
    let mut command = command(dir.path(), GITHUB_CONFIG);
    command
        .args(["acme/widgets#7", "--api-url", server.url()])
        .args(["--headless", "--deterministic-only", "--format", "json"])
        .env("GH_TOKEN", token);
    bounded(command, dir.path(), case)
}

/// How a fault on the PR's metadata call ends.
enum GithubEnd {
    /// Retried, then read like a clean run: the same report as without the fault.
    Recovers,
    /// Exit 4 after this many calls, with one stderr line carrying these needles.
    Fails(usize, &'static [&'static str]),
}

struct GithubCase {
    name: &'static str,
    /// Faults for the first calls, then normal answers.
    first: Vec<Fault>,
    /// A fault for every call after `first`.
    always: Option<Fault>,
    token: &'static str,
    end: GithubEnd,
}

fn github_cases() -> Vec<GithubCase> {
    let case = |name, first, always, end| GithubCase {
        name,
        first,
        always,
        token: GH_TOKEN,
        end,
    };
    vec![
        case(
            "connection closed mid-body, once",
            vec![Fault::ResetMidBody],
            None,
            GithubEnd::Recovers,
        ),
        case(
            "connection closed mid-body, every time",
            vec![],
            Some(Fault::ResetMidBody),
            GithubEnd::Fails(3, &[PULL, "3 attempt", "connection", "network"]),
        ),
        case(
            "slow drip past the request timeout",
            vec![],
            Some(Fault::SlowDrip { interval: DRIP }),
            GithubEnd::Fails(3, &[PULL, "1s", "3 attempt", "[github] request_timeout"]),
        ),
        case(
            "truncated JSON",
            vec![],
            Some(Fault::Truncated),
            GithubEnd::Fails(3, &[PULL, "cut short", "3 attempt"]),
        ),
        case(
            "an HTML page instead of JSON",
            vec![],
            Some(Fault::Html),
            GithubEnd::Fails(1, &[PULL, "text/html", "--api-url"]),
        ),
        case(
            "a 200 carrying an error",
            vec![],
            Some(Fault::ErrorIn200),
            GithubEnd::Fails(
                1,
                &[PULL, "Server Error: the request could not be completed"],
            ),
        ),
        GithubCase {
            name: "a rejected token",
            first: vec![],
            always: None,
            token: "ghp_REJECTEDcanary000000000000000000000",
            end: GithubEnd::Fails(1, &[PULL, "401", "GH_TOKEN", "not shown"]),
        },
        case(
            "a rate limit that resets in an hour",
            vec![],
            Some(Fault::PrimaryRateLimit {
                reset_in_secs: 3600,
            }),
            GithubEnd::Fails(1, &[PULL, "rate limit", "resets at", "UTC"]),
        ),
        case(
            "a rate limit that resets in a second",
            vec![Fault::PrimaryRateLimit { reset_in_secs: 1 }],
            None,
            GithubEnd::Recovers,
        ),
        case(
            "a burst of 502 and 503",
            vec![Fault::Status(502), Fault::Status(503)],
            None,
            GithubEnd::Recovers,
        ),
        case(
            "503 forever",
            vec![],
            Some(Fault::Status(503)),
            GithubEnd::Fails(
                3,
                &[
                    PULL,
                    "503",
                    "3 attempt",
                    "Service Unavailable",
                    "run again later",
                ],
            ),
        ),
    ]
}

#[test]
fn github_faults_while_reading_the_pr_never_ship_and_say_what_to_do() {
    let clean = {
        let server = github_server();
        let run = review_github_pr(&server, GH_TOKEN, "clean");
        assert_eq!(server.requests_to(PULL).len(), 1);
        run
    };
    // The baseline the recovered runs must match: deterministic-only, so Ship is allowed.
    assert_eq!(clean.code, 0, "{}", clean.stderr);
    assert_eq!(clean.decision(), "ship", "{}", clean.stdout);
    assert!(clean.report()["verdict"]["deterministic_only"] == true);
    clean.assert_never_shows("clean", GH_TOKEN);

    for case in github_cases() {
        let server = github_server();
        server.script(PULL, case.first.clone());
        if let Some(fault) = case.always.clone() {
            server.fail_always(PULL, fault);
        }
        let run = review_github_pr(&server, case.token, case.name);
        run.assert_never_shows(case.name, case.token);
        let calls = server.requests_to(PULL).len();
        match case.end {
            GithubEnd::Recovers => {
                assert_eq!(run.code, clean.code, "{}: {}", case.name, run.stderr);
                assert_eq!(run.decision(), clean.decision(), "{}", case.name);
                assert_eq!(
                    run.report()["files"],
                    clean.report()["files"],
                    "{}",
                    case.name
                );
                assert_eq!(calls, case.first.len() + 1, "{}", case.name);
            }
            GithubEnd::Fails(expected_calls, needles) => {
                assert_eq!(run.code, 4, "{}: {}", case.name, run.stderr);
                run.assert_not_ship(case.name);
                assert_eq!(run.stdout, "", "{}: no report without a PR", case.name);
                run.assert_one_message(case.name, needles);
                // Every retry was said while it happened, naming the call and the attempt.
                let retries: Vec<&str> = (run.stderr.lines())
                    .filter(|l| l.contains("; trying again in "))
                    .collect();
                assert_eq!(
                    retries.len(),
                    expected_calls - 1,
                    "{}: {}",
                    case.name,
                    run.stderr
                );
                for (n, line) in retries.iter().enumerate() {
                    assert!(line.contains(PULL), "{}: {line}", case.name);
                    let attempt = format!("(attempt {} of 3)", n + 2);
                    assert!(line.ends_with(&attempt), "{}: {line}", case.name);
                }
                assert!(
                    run.stderr.contains("on 127.0.0.1:"),
                    "{}: the host is named: {}",
                    case.name,
                    run.stderr
                );
                assert_eq!(calls, expected_calls, "{}", case.name);
            }
        }
    }
}

/// A GitHub that takes seconds to answer is said while it lasts: the call, the host and the
/// time waited, a line at each quarter of the request timeout, and then the review goes on.
#[test]
fn a_slow_github_is_reported_while_waiting_and_the_review_goes_on() {
    let server = github_server();
    server.script(
        PULL,
        [Fault::Late {
            after: Duration::from_millis(2600),
        }],
    );
    let dir = tempfile::tempdir().unwrap();
    // Notices every second (a quarter of 4 s): at least two before the answer comes.
    let mut command = command(
        dir.path(),
        "[github]\nrequest_timeout = \"4s\"\nmax_attempts = 3\nbackoff = \"10ms\"\n",
    );
    command
        .args(["acme/widgets#7", "--api-url", server.url()])
        .args(["--headless", "--deterministic-only", "--format", "json"])
        .env("GH_TOKEN", GH_TOKEN);
    let run = bounded(command, dir.path(), "late");
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.decision(), "ship", "{}", run.stdout);
    run.assert_never_shows("late", GH_TOKEN);
    let waiting: Vec<&str> = (run.stderr.lines())
        .filter(|l| l.starts_with("review-tui: waiting for GitHub ("))
        .collect();
    assert!(
        waiting.len() >= 2,
        "no progress while waiting:\n{}",
        run.stderr
    );
    let mut last = 0;
    for line in &waiting {
        assert!(
            line.contains(PULL) && line.contains(" on 127.0.0.1:"),
            "{line}"
        );
        let secs: u64 = (line.strip_suffix(" s, no answer yet"))
            .and_then(|l| l.rsplit(": ").next())
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("no seconds waited in {line}"));
        assert!(secs >= 1 && secs >= last, "{line}");
        last = secs;
    }
    assert_eq!(server.requests_to(PULL).len(), 1, "waited, never re-sent");
}

/// The publisher calls GitHub with the same `[github]` settings: a review POST whose answer
/// trickles times out at the configured second (the default minute would outlive the bound),
/// is never sent twice, and the message says the review may exist.
#[test]
fn publishing_through_a_trickling_answer_times_out_and_is_never_repeated() {
    let reviews = "POST /repos/acme/widgets/pulls/7/reviews";
    let server = github_server();
    server.script(reviews, [Fault::SlowDrip { interval: DRIP }]);
    let dir = tempfile::tempdir().unwrap();
    let mut command = command(dir.path(), GITHUB_CONFIG);
    command
        .args(["acme/widgets#7", "--api-url", server.url()])
        .args(["--headless", "--deterministic-only", "--publish"])
        .env("GH_TOKEN", GH_TOKEN);
    let run = bounded(command, dir.path(), "publish");
    assert_eq!(run.code, 4, "{}", run.stderr);
    run.assert_never_shows("publish", GH_TOKEN);
    run.assert_one_message(
        "publish",
        &[
            "submitting the review",
            // The answer had begun: slow, not silent, so a longer timeout is the advice.
            "still arriving after 1s",
            "raise [github] request_timeout",
            "may or may not have been created",
        ],
    );
    assert_eq!(
        server.requests_to(reviews).len(),
        1,
        "a POST is never repeated"
    );
}

// ---- The model server, during an AI review ----

const CACHE_BASE: &str = "pub struct Cache {\n    items: Vec<String>,\n}\n";
const CACHE_PR: &str = "pub struct Cache {\n    items: Vec<String>,\n}\n\nimpl Cache {\n    pub fn last(&self) -> &str {\n        &self.items[self.items.len()]\n    }\n}\n";
const ENGINEER: &str = "Role: engineer. Task: review.";

fn model_repository() -> GitRepo {
    let repo = GitRepo::init();
    repo.write("src/lib.rs", CACHE_BASE);
    repo.commit_all("cache");
    repo.git(&["checkout", "--quiet", "-b", "feature"]);
    repo.write("src/lib.rs", CACHE_PR);
    repo.commit_all("Add Cache::last");
    repo.git(&["checkout", "--quiet", "main"]);
    repo
}

fn finish() -> Reply {
    Reply::tool_calls(&[("finish", json!({"summary": "nothing to report"}))])
}

/// Answers for the passes after the review, so only the engineer's conversation is faulty.
fn pass_defaults(server: &OpenAiServer) {
    server.route_always("Task: peer round.", finish());
    server.route_always(
        "Role: verifier.",
        Reply::text(r#"{"reasoning": "x", "verdict": "unsure", "quote": "", "reason": "n/a"}"#),
    );
    server.route_always(
        "Role: lead.",
        Reply::text(r#"{"reasoning": "x", "walkthrough": "Read src/lib.rs."}"#),
    );
}

fn ai_review(repo: &GitRepo, server: &OpenAiServer, key: &str, case: &str) -> Run {
    let dir = tempfile::tempdir().unwrap();
    let config = "[models]\nmax_attempts = 3\nbackoff = \"10ms\"\nrequest_timeout = \"1s\"\nreviewer_timeout = \"40s\"\n";
    let mut command = command(dir.path(), config);
    command
        .arg(format!("{}#main..feature", repo.path().display()))
        .args([
            "--headless",
            "--force",
            "--format",
            "json",
            "--level",
            "light",
        ])
        .args([
            "--model-url",
            &server.base_url(),
            "--model",
            "scripted-model",
        ])
        .env("OPENAI_API_KEY", key);
    bounded(command, dir.path(), case)
}

enum ModelEnd {
    /// The engineer finishes after retries; nothing was found, so the run ships (and stderr
    /// has nothing to report).
    Recovers,
    /// The engineer fails after this many calls: Inconclusive (exit 7), one stderr line with
    /// these needles.
    Fails(usize, &'static [&'static str]),
}

struct ModelCase {
    name: &'static str,
    replies: Vec<Reply>,
    always: Option<Reply>,
    /// The key the server accepts (others get a 401 quoting the key they sent).
    server_key: &'static str,
    end: ModelEnd,
}

fn model_cases() -> Vec<ModelCase> {
    let faulty = |fault| Reply::fault(fault, finish());
    let case = |name, replies, always, end| ModelCase {
        name,
        replies,
        always,
        server_key: MODEL_KEY,
        end,
    };
    vec![
        case(
            "connection closed mid-body, once",
            vec![faulty(Fault::ResetMidBody), finish()],
            None,
            ModelEnd::Recovers,
        ),
        case(
            "connection closed mid-body, every time",
            vec![],
            Some(faulty(Fault::ResetMidBody)),
            ModelEnd::Fails(3, &["engineer", "3 attempt", "connection"]),
        ),
        case(
            "slow drip past the request timeout",
            vec![],
            Some(faulty(Fault::SlowDrip { interval: DRIP })),
            ModelEnd::Fails(
                3,
                &[
                    "engineer",
                    "still arriving",
                    "raise [models] request_timeout",
                ],
            ),
        ),
        case(
            "truncated JSON",
            vec![],
            Some(faulty(Fault::Truncated)),
            ModelEnd::Fails(3, &["engineer", "cut short"]),
        ),
        case(
            "an HTML page instead of JSON",
            vec![],
            Some(faulty(Fault::Html)),
            ModelEnd::Fails(1, &["engineer", "text/html", "--model-url"]),
        ),
        case(
            "a 200 carrying an error",
            vec![],
            Some(faulty(Fault::ErrorIn200)),
            ModelEnd::Fails(
                1,
                &[
                    "engineer",
                    "Server Error: the request could not be completed",
                ],
            ),
        ),
        ModelCase {
            name: "a rejected key",
            replies: vec![],
            always: Some(finish()),
            server_key: "sk-the-only-key-the-server-takes",
            end: ModelEnd::Fails(1, &["engineer", "401", "OPENAI_API_KEY", "not shown"]),
        },
        case(
            "a rate limit that resets in an hour",
            vec![],
            Some(faulty(Fault::PrimaryRateLimit {
                reset_in_secs: 3600,
            })),
            ModelEnd::Fails(1, &["engineer", "rate limit", "resets at", "UTC"]),
        ),
        case(
            "a rate limit that resets in a second",
            vec![
                faulty(Fault::PrimaryRateLimit { reset_in_secs: 1 }),
                finish(),
            ],
            None,
            ModelEnd::Recovers,
        ),
        case(
            "a burst of 502 and 503",
            vec![
                faulty(Fault::Status(502)),
                faulty(Fault::Status(503)),
                finish(),
            ],
            None,
            ModelEnd::Recovers,
        ),
        case(
            "503 forever",
            vec![],
            Some(faulty(Fault::Status(503))),
            ModelEnd::Fails(
                3,
                &[
                    "engineer",
                    "503",
                    "3 attempt",
                    "Service Unavailable",
                    "run again later",
                ],
            ),
        ),
    ]
}

#[test]
fn model_faults_during_an_ai_review_never_ship_and_say_what_to_do() {
    let repo = model_repository();
    for case in model_cases() {
        let server = OpenAiServer::start();
        server.require_key(case.server_key);
        server.route(ENGINEER, case.replies.clone());
        if let Some(always) = case.always.clone() {
            server.route_always(ENGINEER, always);
        }
        pass_defaults(&server);
        let run = ai_review(&repo, &server, MODEL_KEY, case.name);
        run.assert_never_shows(case.name, MODEL_KEY);
        let report = run.report();
        let engineer = report["reviewers"]
            .as_array()
            .into_iter()
            .flatten()
            .find(|r| r["name"] == "engineer")
            .cloned()
            .unwrap_or_else(|| panic!("{}: no engineer in {}", case.name, run.stdout));
        let calls = server
            .requests()
            .iter()
            .filter(|r| r.raw.contains(ENGINEER))
            .count();
        match case.end {
            ModelEnd::Recovers => {
                assert_eq!(engineer["outcome"], "ok", "{}: {engineer}", case.name);
                assert_eq!(run.code, 0, "{}: {}", case.name, run.stderr);
                assert_eq!(run.decision(), "ship", "{}", case.name);
                assert_eq!(calls, case.replies.len(), "{}", case.name);
                assert_eq!(run.messages(), Vec::<&str>::new(), "{}", case.name);
            }
            ModelEnd::Fails(expected_calls, needles) => {
                assert_eq!(engineer["outcome"], "failed", "{}: {engineer}", case.name);
                assert_eq!(run.code, 7, "{}: {}", case.name, run.stderr);
                assert_eq!(run.decision(), "inconclusive", "{}", case.name);
                run.assert_not_ship(case.name);
                run.assert_one_message(case.name, needles);
                assert!(
                    run.stderr.contains("on 127.0.0.1:"),
                    "{}: the host is named: {}",
                    case.name,
                    run.stderr
                );
                assert_eq!(calls, expected_calls, "{}", case.name);
            }
        }
    }
}

// ---- The same faults through the Anthropic provider: the shared fault enum, its dialect ----

#[test]
fn anthropic_faults_take_the_same_path_and_never_ship() {
    let repo = model_repository();
    let finish = || AnthropicReply::tool_uses(&[("finish", json!({"summary": "nothing"}))]);
    let faulty = |fault| AnthropicReply::fault(fault, finish());
    let cases: Vec<(&str, Vec<AnthropicReply>, ModelEnd)> = vec![
        (
            "a burst of 529 and a reset mid-body",
            vec![faulty(Fault::Status(529)), faulty(Fault::ResetMidBody)],
            ModelEnd::Recovers,
        ),
        (
            "truncated JSON",
            vec![faulty(Fault::Truncated); 3],
            ModelEnd::Fails(3, &["engineer", "anthropic", "cut short"]),
        ),
        (
            "an HTML page instead of JSON",
            vec![faulty(Fault::Html)],
            ModelEnd::Fails(1, &["engineer", "anthropic", "text/html"]),
        ),
        (
            "a 200 carrying an error",
            vec![faulty(Fault::ErrorIn200)],
            ModelEnd::Fails(
                1,
                &[
                    "engineer",
                    "anthropic",
                    "body is an error",
                    "run again later",
                ],
            ),
        ),
        (
            "a rate limit that resets in an hour",
            vec![faulty(Fault::PrimaryRateLimit {
                reset_in_secs: 3600,
            })],
            ModelEnd::Fails(1, &["engineer", "anthropic", "rate limit", "resets at"]),
        ),
    ];
    for (name, replies, end) in cases {
        let server = AnthropicServer::start();
        server.require_key(MODEL_KEY);
        let replies_len = replies.len();
        server.script(replies);
        server.reply_always(finish());
        let dir = tempfile::tempdir().unwrap();
        let config = "[models]\nmax_attempts = 3\nbackoff = \"10ms\"\nrequest_timeout = \"5s\"\n";
        let mut command = command(dir.path(), config);
        command
            .arg(format!("{}#main..feature", repo.path().display()))
            .args([
                "--headless",
                "--force",
                "--format",
                "json",
                "--level",
                "light",
            ])
            .args(["--provider", "anthropic", "--model-url", &server.base_url()])
            .args(["--model", "claude-test"])
            .env("ANTHROPIC_API_KEY", MODEL_KEY);
        let run = bounded(command, dir.path(), name);
        run.assert_never_shows(name, MODEL_KEY);
        let calls = server
            .requests()
            .iter()
            .filter(|r| r.raw.contains(ENGINEER))
            .count();
        match end {
            ModelEnd::Recovers => {
                assert_eq!(calls, replies_len + 1, "{name}: retried, then answered");
                assert_eq!(run.code, 0, "{name}: {}", run.stderr);
                assert_eq!(run.decision(), "ship", "{name}");
                assert_eq!(run.messages(), Vec::<&str>::new(), "{name}");
            }
            ModelEnd::Fails(expected_calls, needles) => {
                // Retried up to the bound when retrying can help (cut short), asked once when
                // it cannot (a web page, an error, a far reset).
                assert_eq!(calls, expected_calls, "{name}");
                assert_eq!(run.code, 7, "{name}: {}", run.stderr);
                assert_eq!(run.decision(), "inconclusive", "{name}");
                run.assert_not_ship(name);
                run.assert_one_message(name, needles);
            }
        }
    }
}
