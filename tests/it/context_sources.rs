//! Context sources (`[[context.mcp]]`) end to end: the real binary, a real git repository, the
//! scripted model server, and a tiny MCP server (`support/mcp_server.py`, run with python3) over
//! stdio or streamable HTTP. The engineer calls the source's tools; what it answers is checked
//! where it lands: the model's next request, the report's findings and coverage, the process
//! table.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::models::{finish, marker, pass_defaults, repository, requests_for, review_in, reviewer};
use crate::support::openai_server::{OpenAiServer, Reply, tool_messages};

const KEY_ID: &str = "AKIAZ4DEMQ7Q2LXWRT5W";

fn script() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/it/support/mcp_server.py")
}

/// A `[[context.mcp]]` entry running the test server over stdio, logging under `dir`.
fn stdio_source(tools: &str, extra: &str) -> String {
    format!(
        "[[context.mcp]]\nname = \"tickets\"\ncommand = \"python3\"\nargs = [{:?}]\n\
         tools = [{tools}]\nenv = [\"MCP_LOG\", \"MCP_PID_FILE\"]\n{extra}\n",
        script().display().to_string()
    )
}

/// The messages the server read, as logged.
fn logged(dir: &Path) -> Vec<Value> {
    std::fs::read_to_string(dir.join("mcp.log"))
        .unwrap_or_default()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// The server's pid and the names of the variables it was started with.
fn started(dir: &Path) -> (u32, Vec<String>) {
    let text = std::fs::read_to_string(dir.join("mcp.pid")).expect("the server started");
    let mut lines = text.lines();
    let pid = lines.next().unwrap().parse().unwrap();
    (pid, lines.map(str::to_owned).collect())
}

/// Whether `pid` is a live process (a zombie is not).
fn alive(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .map(|stat| {
            let state = stat.rsplit(')').next().unwrap_or("").trim_start();
            !state.starts_with('Z')
        })
        .unwrap_or(false)
}

/// Runs the review with the MCP test server's log and pid file under `dir`, and a GitHub and a
/// model token in the environment that the server must not see.
fn run(dir: &Path, server: &OpenAiServer, config: &str) -> crate::models::Run {
    let repo = repository(false);
    let mut command = crate::models::review_command(dir, &repo, Some(server), config);
    command
        .args(["--format", "json"])
        .env("MCP_LOG", dir.join("mcp.log"))
        .env("MCP_PID_FILE", dir.join("mcp.pid"))
        .env("GITHUB_TOKEN", "ghp_mcpTestTokenThatMustNotLeak0000000000")
        .env("OPENAI_API_KEY", "sk-mcp-test-key-that-must-not-leak");
    let out = command.output().unwrap();
    crate::models::Run {
        code: out.status.code().unwrap_or(-1),
        report: serde_json::from_str(&String::from_utf8_lossy(&out.stdout)).unwrap_or(Value::Null),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

fn quiet_others(server: &OpenAiServer) {
    for role in ["qa", "architect"] {
        server.route(&marker(role, "review"), [finish("nothing")]);
    }
    pass_defaults(server);
}

/// The tool answers of the engineer's second request, by the tool called.
fn answers(server: &OpenAiServer) -> Vec<(String, String)> {
    let second = &requests_for(server, &marker("engineer", "review"))[1];
    let calls: Vec<(String, String)> = second.body["messages"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|m| m["tool_calls"].as_array().cloned().unwrap_or_default())
        .map(|c| {
            (
                c["id"].as_str().unwrap().to_owned(),
                c["function"]["name"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    let results = tool_messages(&second.body);
    calls
        .into_iter()
        .map(|(id, name)| (name, results.get(&id).cloned().unwrap_or_default()))
        .collect()
}

fn notes(report: &Value) -> String {
    report["coverage"]["notes"].to_string()
}

#[test]
fn an_allowed_tool_answers_as_untrusted_data_redacted_and_scanned_and_others_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let server = OpenAiServer::start();
    server.route(
        &marker("engineer", "review"),
        [
            Reply::tool_calls(&[
                ("mcp__tickets__get_issue", json!({"id": "7"})),
                ("mcp__tickets__get_issue", json!({"id": "secret"})),
                ("mcp__tickets__get_issue", json!({"id": "inject"})),
                ("mcp__tickets__delete_issue", json!({"id": "7"})),
            ]),
            finish("read the ticket"),
        ],
    );
    quiet_others(&server);
    let run = run(
        dir.path(),
        &server,
        &stdio_source("\"get_issue\"", "timeout = \"20s\""),
    );
    let report = &run.report;
    assert!(report.is_object(), "{}", run.stderr);

    // Offered beside the repository tools: the allowed tool only.
    let first = &requests_for(&server, &marker("engineer", "review"))[0];
    let offered: Vec<&str> = first.body["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["function"]["name"].as_str().unwrap())
        .collect();
    assert!(offered.contains(&"mcp__tickets__get_issue"), "{offered:?}");
    assert!(offered.contains(&"read_file"), "{offered:?}");
    assert!(
        !offered.contains(&"mcp__tickets__delete_issue"),
        "{offered:?}"
    );

    let answers = answers(&server);
    assert_eq!(answers.len(), 4, "{answers:?}");
    // The ticket reaches the model inside an untrusted block naming its origin.
    assert!(
        answers[0].1.starts_with(
            "<untrusted source=\"mcp:tickets/get_issue\">\nIssue 7: Cache::last must return"
        ),
        "{answers:?}"
    );
    // The key in an answer is redacted before the model reads it.
    assert!(answers[1].1.contains("AKIA…"), "{answers:?}");
    for request in server.requests() {
        assert!(!request.raw.contains(KEY_ID), "the key reached the model");
    }
    // The injection is said to the model and is a finding like the PR description's.
    assert!(answers[2].1.contains("prompt-injection"), "{answers:?}");
    let injected: Vec<&Value> = report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["rule"] == "security/prompt-injection")
        .collect();
    assert_eq!(injected.len(), 1, "{report}");
    assert!(
        injected[0]["title"]
            .as_str()
            .unwrap()
            .contains("mcp:tickets/get_issue"),
        "{report}"
    );
    assert_eq!(injected[0]["priority"], "P1");
    // A tool not on the allowlist is refused, and the server never hears of it.
    assert!(
        answers[3].1.contains("there is no tool named"),
        "{answers:?}"
    );
    let calls: Vec<Value> = logged(dir.path())
        .into_iter()
        .filter(|m| m["method"] == "tools/call")
        .map(|m| m["params"]["name"].clone())
        .collect();
    assert_eq!(calls, vec![json!("get_issue"); 3]);

    // The coverage and the source's row say how often it was consulted.
    assert!(
        notes(report).contains("context source mcp:tickets: consulted 3 times (get_issue ×3)"),
        "{report}"
    );
    assert_eq!(reviewer(report, "mcp:tickets")["outcome"], "ok");
    // The server saw neither token, and is gone once the review is.
    let (pid, env) = started(dir.path());
    assert!(env.contains(&"MCP_LOG".to_string()), "{env:?}");
    for secret in ["GITHUB_TOKEN", "OPENAI_API_KEY"] {
        assert!(!env.contains(&secret.to_string()), "{env:?}");
    }
    assert!(!alive(pid), "the server {pid} outlived the review");
}

#[test]
fn a_server_that_hangs_is_a_notice_after_its_timeout_and_is_killed() {
    let dir = tempfile::tempdir().unwrap();
    let server = OpenAiServer::start();
    server.route(
        &marker("engineer", "review"),
        [
            Reply::tool_calls(&[("mcp__tickets__hang", json!({}))]),
            finish("the ticket did not answer"),
        ],
    );
    quiet_others(&server);
    let run = run(
        dir.path(),
        &server,
        &stdio_source("\"hang\"", "timeout = \"2s\""),
    );
    let report = &run.report;
    assert!(report.is_object(), "{}", run.stderr);
    let answers = answers(&server);
    assert!(
        answers[0]
            .1
            .contains("mcp:tickets/hang gave no answer within 2s"),
        "{answers:?}"
    );
    // A notice, not a failed review: the source is not required.
    assert!(
        notes(report).contains("context source mcp:tickets: not consulted; hang: mcp:tickets/hang gave no answer within 2s"),
        "{report}"
    );
    assert_eq!(reviewer(report, "engineer")["outcome"], "ok");
    assert_ne!(report["verdict"]["decision"], "inconclusive", "{report}");
    // Still inside its hanging call when the review ended: killed, not left behind.
    let (pid, _) = started(dir.path());
    assert!(!alive(pid), "the server {pid} outlived the review");
}

#[test]
fn a_required_source_that_does_not_start_makes_the_review_inconclusive() {
    let dir = tempfile::tempdir().unwrap();
    let server = OpenAiServer::start();
    server.route(&marker("engineer", "review"), [finish("nothing")]);
    quiet_others(&server);
    let config = "[[context.mcp]]\nname = \"tickets\"\ncommand = \"/nonexistent/tickets-mcp\"\n\
                  tools = [\"get_issue\"]\nrequired = true\n";
    let run = run(dir.path(), &server, config);
    let report = &run.report;
    assert_eq!(run.code, 7, "Inconclusive: {report}\n{}", run.stderr);
    assert_eq!(report["verdict"]["decision"], "inconclusive");
    let row = reviewer(report, "mcp:tickets");
    assert_eq!(row["outcome"], "failed", "{report}");
    assert!(notes(report).contains("did not start"), "{report}");
    // Not required, the same failure is a notice only.
    let dir = tempfile::tempdir().unwrap();
    let run = run_again(dir.path(), &server, &config.replace("required = true", ""));
    assert_ne!(
        run.report["verdict"]["decision"], "inconclusive",
        "{}",
        run.report
    );
    assert!(
        notes(&run.report).contains("context source mcp:tickets: not consulted; did not start"),
        "{}",
        run.report
    );
}

fn run_again(dir: &Path, server: &OpenAiServer, config: &str) -> crate::models::Run {
    server.route(&marker("engineer", "review"), [finish("nothing")]);
    quiet_others(server);
    run(dir, server, config)
}

#[test]
fn a_streamable_http_source_answers_like_a_stdio_one() {
    let dir = tempfile::tempdir().unwrap();
    let port_file = dir.path().join("port");
    let mut mcp = std::process::Command::new("python3")
        .arg(script())
        .arg("--http")
        .arg(&port_file)
        .env("MCP_LOG", dir.path().join("mcp.log"))
        .stdin(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(30);
    let port = loop {
        if let Ok(port) = std::fs::read_to_string(&port_file) {
            break port;
        }
        assert!(
            Instant::now() < deadline,
            "the HTTP MCP server did not start"
        );
        std::thread::sleep(Duration::from_millis(50));
    };
    let server = OpenAiServer::start();
    server.route(
        &marker("engineer", "review"),
        [
            Reply::tool_calls(&[("mcp__tickets__get_issue", json!({"id": "7"}))]),
            finish("read the ticket"),
        ],
    );
    quiet_others(&server);
    let config = format!(
        "[[context.mcp]]\nname = \"tickets\"\nurl = \"http://127.0.0.1:{port}/mcp\"\n\
         tools = [\"get_issue\"]\ntimeout = \"20s\"\n"
    );
    let run = run(dir.path(), &server, &config);
    drop(mcp.stdin.take());
    let _ = mcp.wait();
    let report = &run.report;
    assert!(report.is_object(), "{}", run.stderr);
    let answers = answers(&server);
    assert!(
        answers[0]
            .1
            .starts_with("<untrusted source=\"mcp:tickets/get_issue\">\nIssue 7"),
        "{answers:?}"
    );
    assert!(
        notes(report).contains("context source mcp:tickets: consulted 1 time (get_issue ×1)"),
        "{report}"
    );
}

#[test]
fn a_repository_config_declaring_a_server_is_refused_with_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let marker_file = dir.path().join("ran");
    let repo = repository(false);
    repo.git(&["checkout", "--quiet", "main"]);
    repo.write(
        ".review-tui.toml",
        &format!(
            "[[context.mcp]]\nname = \"evil\"\ncommand = \"touch\"\nargs = [{:?}]\ntools = [\"x\"]\n",
            marker_file.display().to_string()
        ),
    );
    repo.commit_all("a context source in the repository's file");
    repo.git(&["checkout", "--quiet", "feature"]);
    repo.git(&["rebase", "--quiet", "main"]);
    let server = OpenAiServer::start();
    for role in ["engineer", "qa", "architect"] {
        server.route(&marker(role, "review"), [finish("nothing")]);
    }
    pass_defaults(&server);
    let run = review_in(dir.path(), &repo, Some(&server), "", &[]);
    let report = &run.report;
    assert!(report.is_object(), "{}", run.stderr);
    assert!(!marker_file.exists(), "the repository's server was started");
    let lines: Vec<&str> = report["coverage"]["notes"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(Value::as_str)
        .filter(|n| n.contains("MCP servers"))
        .collect();
    assert_eq!(
        lines,
        vec![
            ".review-tui.toml at the base revision declares MCP servers (evil); refused: a \
             repository cannot start a context source on your machine, declare it in your own \
             config file ([[context.mcp]])"
        ],
        "{report}"
    );
    assert!(
        report["reviewers"]
            .as_array()
            .unwrap()
            .iter()
            .all(|r| r["name"] != "mcp:evil")
    );
}

#[test]
fn a_sigkill_of_the_review_takes_its_stdio_server_with_it() {
    let dir = tempfile::tempdir().unwrap();
    let server = OpenAiServer::start();
    server.route(
        &marker("engineer", "review"),
        [
            Reply::tool_calls(&[("mcp__tickets__hang", json!({}))]),
            finish("the ticket did not answer"),
        ],
    );
    quiet_others(&server);
    let repo = repository(false);
    let mut command = crate::models::review_command(
        dir.path(),
        &repo,
        Some(&server),
        &stdio_source("\"hang\"", "timeout = \"300s\""),
    );
    command
        .args(["--format", "json"])
        .env("MCP_LOG", dir.path().join("mcp.log"))
        .env("MCP_PID_FILE", dir.path().join("mcp.pid"))
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null());
    let mut review = command.spawn().unwrap();
    // Until the server is inside the call that never answers.
    let deadline = Instant::now() + Duration::from_secs(120);
    while !logged(dir.path())
        .iter()
        .any(|m| m["method"] == "tools/call")
    {
        assert!(
            Instant::now() < deadline,
            "the hanging call never reached the server"
        );
        assert!(
            review.try_wait().unwrap().is_none(),
            "the review ended early"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    let (pid, _) = started(dir.path());
    assert!(alive(pid));
    review.kill().unwrap(); // SIGKILL: no drop, no signal handler runs.
    review.wait().unwrap();
    let deadline = Instant::now() + Duration::from_secs(30);
    while alive(pid) && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(50));
    }
    assert!(
        !alive(pid),
        "the server {pid} outlived a SIGKILL of the review"
    );
}

#[test]
fn a_finding_says_its_evidence_came_from_a_source_only_if_the_source_answered_its_reviewer() {
    let dir = tempfile::tempdir().unwrap();
    let server = OpenAiServer::start();
    let mut from_ticket = crate::models::finding(
        "last() contradicts the ticket",
        "src/cache.rs",
        11,
        "P2",
        "spec",
    );
    from_ticket["text"]["evidence"] =
        json!("mcp:tickets/get_issue says Cache::last must return the newest entry");
    // A claim of a source this reviewer never called.
    let mut claimed = crate::models::finding(
        "last() has no doc comment",
        "src/cache.rs",
        10,
        "P3",
        "docs",
    );
    claimed["kind"] = json!("suggestion");
    claimed["text"]["evidence"] = json!("as mcp:tickets/list_issues and mcp:docs/search show");
    server.route(
        &marker("engineer", "review"),
        [
            Reply::tool_calls(&[("mcp__tickets__get_issue", json!({"id": "7"}))]),
            Reply::tool_calls(&[
                ("add_review_node", from_ticket),
                ("add_review_node", claimed),
                ("finish", json!({"summary": "read the ticket"})),
            ]),
        ],
    );
    // Another reviewer claims the ticket without calling it.
    let mut qa_claim =
        crate::models::finding("last() is untested", "src/cache.rs", 11, "P3", "tests");
    qa_claim["kind"] = json!("suggestion");
    qa_claim["text"]["evidence"] = json!("mcp:tickets/get_issue asks for a test");
    server.route(
        &marker("qa", "review"),
        [Reply::tool_calls(&[
            ("add_review_node", qa_claim),
            ("finish", json!({"summary": "one gap"})),
        ])],
    );
    server.route(&marker("architect", "review"), [finish("nothing")]);
    pass_defaults(&server);
    let run = run(
        dir.path(),
        &server,
        &stdio_source("\"get_issue\", \"list_issues\"", "timeout = \"20s\""),
    );
    let report = &run.report;
    assert!(report.is_object(), "{}", run.stderr);
    let by_title = |title: &str| -> Value {
        report["findings"]
            .as_array()
            .unwrap()
            .iter()
            .find(|f| f["title"] == title)
            .cloned()
            .unwrap_or_else(|| panic!("no {title}: {report}"))
    };
    assert_eq!(
        by_title("last() contradicts the ticket")["consulted"],
        json!(["mcp:tickets/get_issue"]),
        "{report}"
    );
    assert_eq!(
        by_title("last() has no doc comment")["consulted"],
        json!([])
    );
    assert_eq!(by_title("last() is untested")["consulted"], json!([]));
}
