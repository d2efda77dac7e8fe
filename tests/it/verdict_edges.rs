//! The edges of the verdict (issue 33): what a reviewer, a PR's author or its commenters
//! control must never take a blocking finding away, leak a secret, or get a review posted for
//! a state the person did not review. Each test goes through the real binary, with the scripted
//! model server and, where GitHub is involved, the fake GitHub.

use serde_json::{Value, json};

use crate::models::{finding, marker, pass_defaults, review};
use crate::support::git_repo::GitRepo;
use crate::support::openai_server::{OpenAiServer, Reply};

const SHIP: i32 = 0;
const BLOCK: i32 = 6;

/// The engineer alone (`--level light`) answers `replies`; every pass answers its default.
fn light(repo: &GitRepo, replies: Vec<Reply>) -> (crate::models::Run, OpenAiServer) {
    let server = OpenAiServer::start();
    server.route(&marker("engineer", "review"), replies);
    pass_defaults(&server);
    let run = review(repo, Some(&server), "", &["--level", "light"]);
    (run, server)
}

fn findings_of<'a>(report: &'a Value, reviewer: &str) -> Vec<&'a Value> {
    report["findings"]
        .as_array()
        .map(|all| all.iter().filter(|f| f["reviewer"] == reviewer).collect())
        .unwrap_or_default()
}

// ---- 4. Paths by string ------------------------------------------------------------------------

/// main has a cache and a link to it; `feature` adds `last()`, which reads one past the end on
/// line 11 of src/cache.rs (an added line).
fn cache_repository() -> GitRepo {
    let repo = crate::models::repository(false);
    repo.git(&["checkout", "--quiet", "main"]);
    std::os::unix::fs::symlink("cache.rs", repo.path().join("src/alias.rs")).unwrap();
    repo.commit_all("an alias of the cache module");
    repo.git(&["checkout", "--quiet", "feature"]);
    repo.git(&["merge", "--quiet", "--no-edit", "main"]);
    repo.git(&["checkout", "--quiet", "main"]);
    repo
}

#[test]
fn a_p0_on_an_added_line_is_in_scope_whatever_spelling_its_path_has() {
    let repo = cache_repository();
    for spelling in [
        "./src/cache.rs",
        "src//cache.rs",
        "src/./cache.rs",
        "src/cache.rs/",
        // A link inside the worktree: the bytes are src/cache.rs, where the diff adds line 11.
        "src/alias.rs",
    ] {
        let mut p0 = finding(
            "last() indexes one past the end",
            spelling,
            11,
            "P0",
            "correctness",
        );
        // The model calls it out of scope: the code decides, from the diff.
        p0["scope"] = json!("out_of_scope");
        let (run, _server) = light(
            &repo,
            vec![Reply::tool_calls(&[
                ("add_review_node", p0),
                ("finish", json!({"summary": "one bug"})),
            ])],
        );
        assert_eq!(
            run.code, BLOCK,
            "{spelling}: a P0 on an added line must block\n{}\n{}",
            run.report, run.stderr
        );
        let found = findings_of(&run.report, "engineer");
        assert_eq!(found.len(), 1, "{spelling}: {}", run.report);
        assert_eq!(found[0]["in_scope"], true, "{spelling}: {}", found[0]);
        // One spelling of the file wherever the finding is stored and shown.
        assert_eq!(found[0]["anchor"]["path"], "src/cache.rs", "{spelling}");
    }
}

#[test]
fn a_control_the_same_p0_out_of_the_change_does_not_block() {
    // Line 3 of src/cache.rs is not a line the change touched: the model's scope label stands,
    // so the test above is about the spelling, not about every P0.
    let repo = cache_repository();
    let mut p0 = finding("items is not pub", "./src/cache.rs", 3, "P0", "correctness");
    p0["scope"] = json!("out_of_scope");
    let (run, _server) = light(
        &repo,
        vec![Reply::tool_calls(&[
            ("add_review_node", p0),
            ("finish", json!({"summary": "one remark"})),
        ])],
    );
    assert_eq!(run.code, SHIP, "{}\n{}", run.report, run.stderr);
}

// ---- 8. Git's own words ------------------------------------------------------------------------

/// A line of a private key's body: unchanged by the PR, above the hunk.
const KEY_BODY: &str = "aFDrBz9vFqU4yT8Zx2ZbXq3Ew7tq8E9tG4pJ8vZ1nQwV3xJ8yK2mN5pL7rT9sU0a";

/// main holds a test key in a Rust string; `feature` changes a line below it, so git's
/// function context for the hunk (the nearest line above it that starts with a letter) is the
/// key's last body line.
fn key_above_a_change() -> GitRepo {
    let repo = GitRepo::init();
    let file = |value: &str| {
        format!(
            "pub const KEY: &str = r#\"\n-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA0Z3VS5JJcds3xfnaygWyF8PbnGy0AHB7MhgHcTz6sE2I2yPB\n{KEY_BODY}\n-----END RSA PRIVATE KEY-----\n\"#;\n// ----\n// ----\n// ----\n// ----\n// ----\n// ----\n   pub const RETRIES: u32 = {value};\n// ----\n"
        )
    };
    repo.write("src/lib.rs", "pub mod keys;\n");
    repo.write("src/keys.rs", &file("3"));
    repo.commit_all("test key");
    repo.git(&["checkout", "--quiet", "-b", "feature"]);
    repo.write("src/keys.rs", &file("5"));
    repo.commit_all("More retries");
    repo.git(&["checkout", "--quiet", "main"]);
    repo
}

#[test]
fn the_text_git_writes_after_a_hunk_header_never_reaches_a_model() {
    let repo = key_above_a_change();
    // git itself puts the key's line in the hunk header: the case is real.
    let diff = repo.git(&["diff", "main...feature"]);
    assert!(
        diff.lines()
            .any(|l| l.starts_with("@@ ") && l.ends_with(KEY_BODY)),
        "{diff}"
    );
    let server = OpenAiServer::start();
    server.route(
        &marker("engineer", "review"),
        [Reply::tool_calls(&[("finish", json!({"summary": "nothing"}))])],
    );
    pass_defaults(&server);
    let run = review(&repo, Some(&server), "", &["--level", "light"]);
    let requests = server.requests();
    assert!(!requests.is_empty(), "{}", run.stderr);
    for request in &requests {
        assert!(
            !request.raw.contains(KEY_BODY),
            "a line of the key reached the model: {}",
            request.raw
        );
    }
}
