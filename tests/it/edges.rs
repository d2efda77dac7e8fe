//! The edges a new user and a hostile PR reach first: where the token goes, what a bad flag or
//! a broken file says, what a terminal is shown.

use std::path::Path;
use std::process::Command;

use crate::cli::review_tui;
use crate::support::git_repo::pr_repository;
use crate::support::github_server::{GithubServer, PullSpec};

const TOKEN: &str = "ghp_edgecanary0123456789";

/// The binary with a clean environment: no GitHub settings, no user config but `config`.
fn command(data: &Path, config: &Path) -> Command {
    let mut command = review_tui();
    command
        .env("REVIEW_TUI_DATA_DIR", data)
        .env("REVIEW_TUI_CONFIG", config)
        .env_remove("GITHUB_API_URL")
        .env_remove("GH_TOKEN")
        .env_remove("GITHUB_TOKEN")
        .env_remove("NO_COLOR");
    command
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn github_server() -> GithubServer {
    let repo = pr_repository();
    repo.git(&["update-ref", "refs/pull/7/head", "feature"]);
    let pull = PullSpec::from_repo(&repo, "acme", "widgets", 7);
    let server = GithubServer::start(repo, pull);
    server.accept_token(TOKEN, "reviewer");
    server
}

fn authorized(server: &GithubServer) -> usize {
    server
        .requests()
        .iter()
        .filter(|r| r.header("authorization").is_some())
        .count()
}

// ---- 1. The token goes only to github.com's API or an API the person configured ----

#[test]
fn a_pr_url_on_an_unconfigured_host_is_refused_and_gets_no_token() {
    let server = github_server();
    let dir = tempfile::tempdir().unwrap();
    let host = server.url().trim_start_matches("http://").to_string();
    let pasted = format!("{}/acme/widgets/pull/7", server.url());
    let out = command(&dir.path().join("data"), &dir.path().join("none.toml"))
        .args([&pasted, "--headless", "--deterministic-only"])
        .env("GH_TOKEN", TOKEN)
        .output()
        .unwrap();
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(4), "{err}");
    assert!(server.requests().is_empty(), "{:?}", server.requests());
    assert!(err.contains(&format!("{host} is not github.com")), "{err}");
    assert!(err.contains("--api-url"), "{err}");
    assert!(err.contains(&format!("[github.hosts.\"{host}\"]")), "{err}");
    assert!(!err.contains(TOKEN), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
}

#[test]
fn the_token_goes_to_an_api_configured_by_flag_or_for_the_host() {
    let server = github_server();
    let dir = tempfile::tempdir().unwrap();
    let host = server.url().trim_start_matches("http://").to_string();
    let pasted = format!("{}/acme/widgets/pull/7", server.url());

    // --api-url: the person named the API for this run.
    let out = command(&dir.path().join("data"), &dir.path().join("none.toml"))
        .args([&pasted, "--headless", "--deterministic-only"])
        .args(["--api-url", server.url()])
        .env("GH_TOKEN", TOKEN)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let sent = authorized(&server);
    assert!(sent > 0, "{:?}", server.requests());
    for request in server.requests() {
        assert_eq!(
            request.header("authorization"),
            Some(format!("Bearer {TOKEN}").as_str())
        );
    }

    // The host's entry in the user's config file does the same, with no flag.
    let config = dir.path().join("config.toml");
    std::fs::write(
        &config,
        format!(
            "[github.hosts.\"{host}\"]\napi_url = \"{}\"\n",
            server.url()
        ),
    )
    .unwrap();
    let out = command(&dir.path().join("data2"), &config)
        .args([&pasted, "--headless", "--deterministic-only"])
        .env("GH_TOKEN", TOKEN)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(authorized(&server) > sent);
}

#[test]
fn a_network_error_names_the_host() {
    // A port nobody listens on: bound, then released.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("config.toml");
    std::fs::write(&config, "[github]\nmax_attempts = 1\n").unwrap();
    let out = command(&dir.path().join("data"), &config)
        .args(["acme/widgets#7", "--headless", "--deterministic-only"])
        .args(["--api-url", &format!("http://127.0.0.1:{port}")])
        .output()
        .unwrap();
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(4), "{err}");
    assert!(err.contains(&format!("on 127.0.0.1:{port}")), "{err}");
}

// ---- 2. File names and PR text cannot drive the terminal or fake report lines ----

const RED: &str = "\x1b[31mred.py";
const SPLIT: &str = "fake\nSHIP · confidence 100.py";

/// A repository whose feature branch adds files named with an escape and a line break, each
/// holding code a rule flags, so the names appear in the files list and in the findings.
fn hostile_names() -> crate::support::git_repo::GitRepo {
    let repo = crate::support::git_repo::GitRepo::init();
    repo.write("README.md", "# app\n");
    repo.commit_all("initial");
    repo.git(&["checkout", "--quiet", "-b", "feature"]);
    repo.write(RED, "eval(user_input)\n");
    repo.write(SPLIT, "eval(other_input)\n");
    repo.commit_all("\x1b]0;pwned\x07title with a \x1b[2J clear");
    repo
}

#[test]
fn the_text_report_shows_hostile_file_names_escaped_on_their_own_line() {
    let repo = hostile_names();
    let dir = tempfile::tempdir().unwrap();
    let reference = format!("{}#main..feature", repo.path().display());
    let out = command(&dir.path().join("data"), &dir.path().join("none.toml"))
        .args([&reference, "--headless", "--deterministic-only"])
        .output()
        .unwrap();
    let report = text(&out.stdout);
    let err = text(&out.stderr);
    assert!(matches!(out.status.code(), Some(5 | 6)), "{err}\n{report}");
    for (what, shown) in [("stdout", &report), ("stderr", &err)] {
        assert!(!shown.contains('\x1b'), "raw ESC on {what}: {shown:?}");
        assert!(
            !shown.contains('\x07') && !shown.contains('\r'),
            "{what}: {shown:?}"
        );
    }
    // Each name is on one line, escaped, in the files list and in the findings.
    let red = report
        .lines()
        .filter(|l| l.contains("\\x1b[31mred.py"))
        .count();
    let split = report
        .lines()
        .filter(|l| l.contains("fake\\nSHIP · confidence 100.py"))
        .count();
    assert!(red >= 2, "{report}");
    assert!(split >= 2, "{report}");
    assert!(
        !report.lines().any(|l| l.starts_with("SHIP")),
        "a file name faked a line: {report}"
    );
    assert!(report.contains("\\x1b]0;pwned\\x07title"), "{report}");

    // JSON keeps the real names (escaped by JSON itself): a pipeline reads what git has.
    let out = command(&dir.path().join("data"), &dir.path().join("none.toml"))
        .args([&reference, "--headless", "--deterministic-only", "--force"])
        .args(["--format", "json"])
        .output()
        .unwrap();
    let value: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let paths: Vec<&str> = value["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["path"].as_str().unwrap())
        .collect();
    assert!(paths.contains(&RED) && paths.contains(&SPLIT), "{paths:?}");
}

// ---- 7, 12, 18. Flags checked before any work; output that cannot be written ----

/// Runs a headless deterministic review of `args` and returns (code, stderr), asserting that a
/// refused run created nothing under the data directory.
fn refused(args: &[&str], config_text: Option<&str>) -> (i32, String) {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("config.toml");
    if let Some(text) = config_text {
        std::fs::write(&config, text).unwrap();
    }
    let data = dir.path().join("data");
    let out = command(&data, &config)
        .args(args)
        .args(["--headless", "--deterministic-only"])
        .output()
        .unwrap();
    let err = text(&out.stderr);
    assert!(!data.exists(), "{args:?} did work before refusing: {err}");
    (out.status.code().unwrap(), err)
}

#[test]
fn every_bad_flag_is_refused_before_any_work() {
    let repo = pr_repository();
    let path = repo.path().display().to_string();
    let range = format!("{path}#main..feature");
    for (args, expected) in [
        (vec![&range[..], "--budget", "abc"], "--budget \"abc\""),
        (vec![&range[..], "--budget", "$-1"], "--budget \"$-1\""),
        (vec![&range[..], "--budget", "0"], "--budget \"0\""),
        (vec![&range[..], "--theme", "nope"], "unknown theme `nope`"),
        (
            vec![&range[..], "-o", "/nonexistent/r.txt"],
            "the directory /nonexistent does not exist",
        ),
        (
            vec![&range[..], "--base", "main"],
            "already names a range: drop --base/--head",
        ),
        (vec![&range[..], "--sarif", "/nonexistent.sarif"], "--sarif"),
        (vec![&range[..], "--api-url", "ftp://x"], "--api-url"),
        // It exists and reads as a file, but its directory takes no new file: the report
        // would be lost after the round was recorded.
        (
            vec![&range[..], "-o", "/proc/version"],
            "cannot write /proc/version",
        ),
    ] {
        let (code, err) = refused(&args, None);
        assert_eq!(code, 4, "{args:?}: {err}");
        assert!(err.contains(expected), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
    }
}

/// `-o /dev/null` discards the report as a shell redirection would; renaming a finished report
/// over it (as root) would replace the device itself.
#[cfg(unix)]
#[test]
fn a_report_sent_to_dev_null_leaves_the_device_a_device() {
    use std::os::unix::fs::FileTypeExt;
    let repo = pr_repository();
    let dir = tempfile::tempdir().unwrap();
    let out = command(&dir.path().join("data"), &dir.path().join("none.toml"))
        .arg(format!("{}#main..feature", repo.path().display()))
        .args(["--headless", "--deterministic-only", "-o", "/dev/null"])
        .output()
        .unwrap();
    let err = text(&out.stderr);
    assert!(matches!(out.status.code(), Some(0 | 5 | 6)), "{err}");
    assert!(!err.contains("could not write"), "{err}");
    let meta = std::fs::metadata("/dev/null").unwrap();
    assert!(meta.file_type().is_char_device());
}

#[test]
fn three_dots_mean_the_merge_base_like_two() {
    let repo = pr_repository();
    let dir = tempfile::tempdir().unwrap();
    let files = |range: &str| {
        let out = command(&dir.path().join("data"), &dir.path().join("none.toml"))
            .arg(format!("{}#{range}", repo.path().display()))
            .args(["--headless", "--deterministic-only", "--force"])
            .args(["--format", "json"])
            .output()
            .unwrap();
        let value: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        value["files"].clone()
    };
    let two = files("main..feature");
    assert_eq!(two.as_array().unwrap().len(), 4, "{two}");
    assert_eq!(files("main...feature"), two);
}

#[test]
fn an_empty_data_dir_variable_is_named_as_the_variable() {
    let repo = pr_repository();
    let dir = tempfile::tempdir().unwrap();
    let out = command(dir.path(), &dir.path().join("none.toml"))
        .env("REVIEW_TUI_DATA_DIR", "")
        .arg(repo.path())
        .args(["--headless", "--deterministic-only"])
        .output()
        .unwrap();
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(4), "{err}");
    assert!(
        err.contains("REVIEW_TUI_DATA_DIR is set but empty"),
        "{err}"
    );
    assert!(!err.contains("--data-dir"), "{err}");
}

/// A port on 127.0.0.1 that nothing listens on: bound, then released.
fn closed_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// Each cause once: an error that quotes its cause and also returns it as its source must not
/// print it twice (`Not a directory (os error 20): Not a directory (os error 20)`).
fn assert_causes_once(err: &str, cause: &str) {
    assert_eq!(
        err.matches(cause).count(),
        1,
        "{cause:?} not said exactly once: {err}"
    );
    assert_eq!(err.matches("os error").count(), 1, "{err}");
}

#[test]
fn a_failing_cause_is_said_once_whatever_failed() {
    let repo = pr_repository();
    let dir = tempfile::tempdir().unwrap();
    let range = format!("{}#main..feature", repo.path().display());
    let config = dir.path().join("none.toml");

    // The file system: a data directory below a regular file.
    let file = dir.path().join("a-file");
    std::fs::write(&file, "").unwrap();
    let out = command(&file.join("data"), &config)
        .args([&range, "--headless", "--deterministic-only"])
        .output()
        .unwrap();
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(4), "{err}");
    assert!(err.contains(&file.display().to_string()), "{err}");
    assert_causes_once(&err, "Not a directory");

    // The network, to a model server: hyper's connect error quotes its io::Error too.
    let out = command(&dir.path().join("data"), &config)
        .args([&range, "--headless", "--require-model", "--model", "m"])
        .args([
            "--model-url",
            &format!("http://127.0.0.1:{}/v1", closed_port()),
        ])
        .output()
        .unwrap();
    let err = text(&out.stderr);
    assert_ne!(out.status.code(), Some(0), "{err}");
    assert_causes_once(&err, "Connection refused");

    // The network, to a GitHub API the person configured.
    let out = command(&dir.path().join("data"), &config)
        .env(
            "GITHUB_API_URL",
            format!("http://127.0.0.1:{}", closed_port()),
        )
        .args(["acme/widgets#7", "--headless", "--deterministic-only"])
        .output()
        .unwrap();
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(4), "{err}");
    assert_causes_once(&err, "Connection refused");
}

#[test]
fn a_closed_pipe_ends_quietly_and_a_full_disk_is_exit_4() {
    let repo = pr_repository();
    let dir = tempfile::tempdir().unwrap();
    let range = format!("{}#main..feature", repo.path().display());
    // The reader is gone before the report is written: `| head -0`.
    let mut child = command(&dir.path().join("data"), &dir.path().join("none.toml"))
        .args([&range, "--headless", "--deterministic-only"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert!(!err.contains("panicked"), "{err}");

    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .unwrap();
    let out = command(&dir.path().join("data"), &dir.path().join("none.toml"))
        .args([&range, "--headless", "--deterministic-only", "--force"])
        .stdout(full)
        .output()
        .unwrap();
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(4), "{err}");
    assert!(err.contains("could not write to standard output"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
}

// ---- 11. The config file: where it is, what is in it, what is wrong with it ----

#[test]
fn config_errors_name_the_line_and_the_key() {
    let repo = pr_repository();
    let range = format!("{}#main..feature", repo.path().display());
    for (config, expected) in [
        (
            "theme = \"dark\"\n\n[models]\nconcurrency = \"three\"\n",
            "line 4, [models] concurrency: invalid type: string \"three\"",
        ),
        (
            "[models]\nconcurrency = 0\n",
            "line 2, [models] concurrency: must be at least 1",
        ),
        (
            "[github]\nmax_attempts = 0\n",
            "[github] max_attempts: must be at least 1",
        ),
        ("level = \"balanced\"\n[github\n", "line 2, "),
        ("[github]\ntimeout = \"5s\"\n", "unknown field `timeout`"),
        (
            "[rules]\ndisable = [\"rust/no-such-rule\"]\n",
            "`rust/no-such-rule` names no rule",
        ),
    ] {
        let (code, err) = refused(&[&range], Some(config));
        assert_eq!(code, 4, "{config}: {err}");
        assert!(err.contains("config.toml: "), "{config}: {err}");
        assert!(err.contains(expected), "{config}: {err}");
    }
}

#[test]
fn config_path_and_show_say_where_and_what() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("my-config.toml");
    let out = command(dir.path(), &config)
        .args(["config", "path"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(text(&out.stdout).trim(), config.display().to_string());

    std::fs::write(&config, "[github]\nmax_attempts = 2\n").unwrap();
    let out = command(dir.path(), &config)
        .args(["config", "show"])
        .output()
        .unwrap();
    let shown = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(
        shown.contains(&format!(
            "github.max_attempts = 2  # {}:2",
            config.display()
        )),
        "{shown}"
    );
    assert!(
        shown.contains("theme = \"dark\"  # built-in default"),
        "{shown}"
    );

    let help = text(&review_tui().arg("--help").output().unwrap().stdout);
    assert!(help.contains("review-tui/config.toml"), "{help}");
    assert!(help.contains("config path"), "{help}");
}

// ---- 5. `evaluate` reads our own reports; 21. one confidence scale, "gate failed" honestly ----

#[test]
fn evaluate_reads_our_json_report_and_review_json_with_the_same_decision() {
    let repo = hostile_names();
    let dir = tempfile::tempdir().unwrap();
    let reference = format!("{}#main..feature", repo.path().display());
    let report_path = dir.path().join("report.json");
    let out = command(&dir.path().join("data"), &dir.path().join("none.toml"))
        .args([
            &reference,
            "--headless",
            "--deterministic-only",
            "--publish",
        ])
        .args(["--format", "json", "-o"])
        .arg(&report_path)
        .output()
        .unwrap();
    let code = out.status.code().unwrap();
    assert!(matches!(code, 5 | 6), "{}", text(&out.stderr));
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&report_path).unwrap()).unwrap();
    let decision = report["verdict"]["decision"].as_str().unwrap().to_string();
    let review_json =
        std::path::Path::new(report["space"]["path"].as_str().unwrap()).join("review.json");
    for file in [&report_path, &review_json] {
        let out = review_tui()
            .args(["evaluate", "--format", "json"])
            .arg(file)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(code), "{}", text(&out.stderr));
        let verdict: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(verdict["decision"], decision.as_str(), "{}", file.display());
    }

    // The facts line: a Hold or Block for findings is not a failed check; a round no model
    // read claims no confidence and says why.
    let facts = report["facts"].as_str().unwrap();
    assert!(facts.contains("gated checks passed"), "{facts}");
    assert!(
        facts.contains("no model reviewer read this change"),
        "{facts}"
    );
    assert!(!facts.contains("confidence"), "{facts}");
    let confidence = report["verdict"]["confidence"].as_f64().unwrap();
    let evaluated = review_tui()
        .arg("evaluate")
        .arg(&report_path)
        .output()
        .unwrap();
    let first = text(&evaluated.stdout).lines().next().unwrap().to_string();
    assert!(
        first.ends_with(&format!("(confidence {})", (confidence * 100.0).round())),
        "{first}"
    );
}

#[test]
fn one_file_is_one_file() {
    let repo = crate::support::git_repo::GitRepo::init();
    repo.write("README.md", "# app\n");
    repo.commit_all("initial");
    repo.git(&["checkout", "--quiet", "-b", "feature"]);
    repo.write("notes.txt", "a note\n");
    repo.commit_all("one file");
    let dir = tempfile::tempdir().unwrap();
    let out = command(&dir.path().join("data"), &dir.path().join("none.toml"))
        .arg(format!("{}#main..feature", repo.path().display()))
        .args(["--headless", "--deterministic-only"])
        .output()
        .unwrap();
    let report = text(&out.stdout);
    assert!(report.contains(" 1 file reviewed"), "{report}");
    assert!(!report.contains("1 files reviewed"), "{report}");
}

// ---- 10. A damaged state.json is said loudly, kept, and its decisions recovered ----

#[test]
fn a_damaged_state_is_reported_and_its_readable_decisions_kept() {
    let repo = hostile_names();
    let dir = tempfile::tempdir().unwrap();
    let reference = format!("{}#main..feature", repo.path().display());
    let run = |extra: &[&str]| {
        command(&dir.path().join("data"), &dir.path().join("none.toml"))
            .args([&reference, "--headless", "--deterministic-only"])
            .args(["--format", "json"])
            .args(extra)
            .output()
            .unwrap()
    };
    let first: serde_json::Value = serde_json::from_slice(&run(&[]).stdout).unwrap();
    let space = std::path::PathBuf::from(first["space"]["path"].as_str().unwrap());
    let state_path = space.join("state.json");
    let mut state: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&state_path).unwrap()).unwrap();
    let nodes = state["nodes"].as_array_mut().unwrap();
    assert!(nodes.len() >= 2, "{nodes:?}");
    // A person's decision on the first finding; the second finding is damaged.
    nodes[0]["status"] = serde_json::json!("resolved");
    let kept_id = nodes[0]["id"].as_str().unwrap().to_string();
    nodes[1]["priority"] = serde_json::json!("P9");
    std::fs::write(&state_path, serde_json::to_string_pretty(&state).unwrap()).unwrap();

    let out = run(&[]);
    let err = text(&out.stderr);
    assert!(
        err.contains("warning: the review space's state.json was damaged"),
        "{err}"
    );
    assert!(err.contains("state.json.corrupt-"), "{err}");
    assert!(
        err.contains("recovered 1 of 2 findings (1 with a decision), 1 of 1 rounds"),
        "{err}"
    );
    assert!(
        err.contains("not published: reporting its recorded round"),
        "{err}"
    );
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let kept = report["space"]["corruption"]["preserved_at"]
        .as_str()
        .unwrap();
    assert!(std::path::Path::new(kept).exists(), "{kept}");
    // The second run reports the recorded round: the recovered state is what the space holds
    // now, the person's decision included.
    let state: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&state_path).unwrap()).unwrap();
    let resolved = state["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|n| n["id"] == kept_id.as_str())
        .map(|n| n["status"].clone());
    assert_eq!(resolved, Some(serde_json::json!("resolved")), "{state}");
}

// ---- 8, 9, 16. A local repository: on its base branch, with uncommitted files, shallow ----

#[test]
fn the_base_branch_itself_is_nothing_to_review_and_uncommitted_files_are_named() {
    let repo = crate::support::git_repo::GitRepo::init();
    repo.write("README.md", "# app\n");
    repo.commit_all("initial");
    repo.write("README.md", "# app\npassword = hunter2\n");
    repo.write("untracked.txt", "new\n");
    let dir = tempfile::tempdir().unwrap();
    let out = command(&dir.path().join("data"), &dir.path().join("none.toml"))
        .arg(repo.path())
        .args(["--headless", "--deterministic-only"])
        .output()
        .unwrap();
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(3), "{err}");
    let lines: Vec<&str> = err.lines().collect();
    assert!(
        lines[0].contains("2 uncommitted files are not part of this review"),
        "{err}"
    );
    assert!(err.contains("main is the base branch"), "{err}");
    assert!(err.contains("nothing to review"), "{err}");
    assert!(!err.contains("no `main` or `master`"), "{err}");
}

#[test]
fn a_shallow_clone_without_a_merge_base_says_to_unshallow() {
    let origin = pr_repository();
    let dir = tempfile::tempdir().unwrap();
    let clone = dir.path().join("clone");
    let url = format!("file://{}", origin.path().display());
    let status = Command::new("git")
        .args([
            "clone",
            "--quiet",
            "--depth",
            "1",
            "--no-single-branch",
            &url,
        ])
        .arg(&clone)
        .status()
        .unwrap();
    assert!(status.success());
    let out = command(&dir.path().join("data"), &dir.path().join("none.toml"))
        .arg(format!("{}#origin/main..origin/feature", clone.display()))
        .args(["--headless", "--deterministic-only"])
        .output()
        .unwrap();
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(4), "{err}");
    assert!(err.contains("git fetch --unshallow"), "{err}");
}
