//! Reviewing a partial clone (`git clone --filter=…`, as large monorepos are cloned): the
//! repository holds every commit and tree but not every file's contents. The real binary on a
//! real partial clone of a `file://` server repository (no network).

use std::path::Path;
use std::process::Output;

use serde_json::Value;

use crate::cli::review_tui;
use crate::support::git_repo::GitRepo;

/// A server repository that serves partial clones: `main` holds a large data file, and
/// `feature` changes `src/lib.rs` only.
fn server() -> GitRepo {
    let server = GitRepo::init();
    server.write("src/lib.rs", "pub fn a() -> i32 {\n    1\n}\n");
    server.write("data/big.txt", &"a line of a large data file\n".repeat(200));
    server.commit_all("initial");
    server.git(&["checkout", "--quiet", "-b", "feature"]);
    server.write(
        "src/lib.rs",
        "pub fn a() -> i32 {\n    1\n}\n\npub fn b() -> i32 {\n    2\n}\n",
    );
    server.commit_all("feature");
    server.git(&["checkout", "--quiet", "main"]);
    server.git(&["config", "uploadpack.allowFilter", "true"]);
    server
}

/// A partial clone of `server` under `into`, nothing checked out.
fn partial_clone(server: &GitRepo, filter: &str, into: &Path) -> std::path::PathBuf {
    let clone = into.join("clone");
    let url = format!("file://{}", server.path().display());
    server.git(&[
        "clone",
        "--quiet",
        "--no-checkout",
        &format!("--filter={filter}"),
        &url,
        clone.to_str().unwrap(),
    ]);
    clone
}

fn review(data: &Path, clone: &Path, format: &str) -> Output {
    review_tui()
        .arg(format!("{}#origin/main..origin/feature", clone.display()))
        .args(["--headless", "--deterministic-only", "--format", format])
        .env("REVIEW_TUI_DATA_DIR", data)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env_remove("GITHUB_API_URL")
        .env_remove("GH_TOKEN")
        .env_remove("GITHUB_TOKEN")
        .output()
        .unwrap()
}

fn report(out: &Output) -> Value {
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "not JSON ({e}): {}\nstderr: {}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    })
}

#[test]
fn a_partial_clone_downloads_what_the_review_reads_from_its_promisor() {
    let server = server();
    let scratch = tempfile::tempdir().unwrap();
    let clone = partial_clone(&server, "blob:none", scratch.path());
    let data = scratch.path().join("data");

    let out = review(&data, &clone, "json");
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report = report(&out);
    assert_eq!(report["files"][0]["path"], "src/lib.rs");
    assert_eq!(report["space"]["absent_files"], serde_json::json!([]));
    // The file the range does not touch was downloaded too: reviewers read the whole head.
    let worktree = Path::new(report["space"]["worktree"].as_str().unwrap());
    let big = std::fs::read_to_string(worktree.join("data/big.txt")).unwrap();
    assert!(big.starts_with("a line of a large data file"));
}

#[test]
fn files_a_repository_lacks_are_left_out_of_the_checkout_and_named_not_refused() {
    let server = server();
    let scratch = tempfile::tempdir().unwrap();
    // Blobs over 1 KiB are left on the server, which is then gone: what a snapshot without
    // its large files is too.
    let clone = partial_clone(&server, "blob:limit=1k", scratch.path());
    let gone = scratch.path().join("server-gone");
    std::fs::rename(server.path(), &gone).unwrap();
    let data = scratch.path().join("data");

    let out = review(&data, &clone, "json");
    std::fs::rename(&gone, server.path()).unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report = report(&out);
    assert_eq!(report["files"][0]["path"], "src/lib.rs");
    assert_eq!(
        report["space"]["absent_files"],
        serde_json::json!(["data/big.txt"])
    );
    let worktree = Path::new(report["space"]["worktree"].as_str().unwrap());
    assert!(worktree.join("src/lib.rs").exists());
    assert!(!worktree.join("data/big.txt").exists());

    // The text report says it, and a second run (the worktree already at the head) too.
    let out = review(&data, &clone, "text");
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(
        text.contains(
            "WARNING the repository lacks the contents of 1 file(s) of the head (data/big.txt)"
        ),
        "{text}"
    );
}

/// A server repository whose `feature` changes the source file `src/table.rs`: `old_big` makes
/// its base side larger than 1 KiB (left on the server by `blob:limit=1k`), otherwise its head
/// side is. A source file: what it exports could be anything, so the gate must hold it (a
/// data file whose path carries no API would not).
fn server_changing_a_large_file(old_big: bool) -> GitRepo {
    let server = GitRepo::init();
    let (big, small) = (
        "pub const ROW: &str = \"a row of a large table\";\n".repeat(60),
        "pub const ROW: &str = \"a small table\";\n".to_string(),
    );
    let (old, new) = if old_big { (big, small) } else { (small, big) };
    server.write("src/lib.rs", "pub fn a() -> i32 {\n    1\n}\n");
    server.write("src/table.rs", &old);
    server.commit_all("initial");
    server.git(&["checkout", "--quiet", "-b", "feature"]);
    server.write("src/table.rs", &new);
    server.commit_all("feature");
    server.git(&["checkout", "--quiet", "main"]);
    server.git(&["config", "uploadpack.allowFilter", "true"]);
    server
}

/// Reviews the change to `src/table.rs` from a `blob:limit=1k` clone whose server is gone,
/// with one side of the file missing: the review goes on, names the file and which side is
/// missing, shows no invented diff, and does not ship what it could not read.
fn a_changed_file_missing_one_side_is_named_and_holds_the_verdict(old_big: bool) {
    let server = server_changing_a_large_file(old_big);
    let scratch = tempfile::tempdir().unwrap();
    let clone = partial_clone(&server, "blob:limit=1k", scratch.path());
    let gone = scratch.path().join("server-gone");
    std::fs::rename(server.path(), &gone).unwrap();
    let data = scratch.path().join("data");

    let out = review(&data, &clone, "json");
    let side = if old_big { "base" } else { "head" };
    assert_ne!(
        out.status.code(),
        Some(4),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report = report(&out);
    let absent = report["space"]["absent_files"].to_string();
    assert!(absent.contains("src/table.rs"), "{absent}");
    // What could not be read is never cleared: the gate holds it.
    let decision = report["verdict"]["decision"].as_str();
    assert!(matches!(decision, Some("hold" | "block")), "{report}");
    let file = report["files"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["path"] == "src/table.rs")
        .unwrap_or_else(|| panic!("{report}"));
    // Nothing invented: the side that could be read is not shown as the whole change.
    assert_eq!(file["unavailable"], side, "{file}");
    assert_eq!(
        (&file["additions"], &file["deletions"]),
        (&0.into(), &0.into())
    );

    let out = review(&data, &clone, "text");
    std::fs::rename(&gone, server.path()).unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert_ne!(out.status.code(), Some(4), "{text}");
    assert!(text.contains("src/table.rs"), "{text}");
    assert!(text.contains(&format!("{side} side unavailable")), "{text}");
}

#[test]
fn a_changed_file_whose_base_side_is_missing_is_named_and_holds_the_verdict() {
    a_changed_file_missing_one_side_is_named_and_holds_the_verdict(true);
}

#[test]
fn a_changed_file_whose_head_side_is_missing_is_named_and_holds_the_verdict() {
    a_changed_file_missing_one_side_is_named_and_holds_the_verdict(false);
}
