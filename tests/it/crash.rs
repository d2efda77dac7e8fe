//! Crash safety: the binary killed with SIGKILL at arbitrary points of preparing a review leaves
//! a space that always reopens, with no corrupt state.

use std::path::Path;
use std::process::Stdio;
use std::time::Duration;

use crate::cli::review_tui;
use crate::support::git_repo::pr_repository;

fn corrupt_files(dir: &Path) -> Vec<String> {
    let mut found = Vec::new();
    if let Ok(entries) = std::fs::read_dir(dir) {
        for entry in entries.flatten() {
            let path = entry.path();
            let name = entry.file_name().to_string_lossy().into_owned();
            if name.contains(".corrupt-") {
                found.push(path.display().to_string());
            } else if path.is_dir() && name != "worktree" && !name.ends_with(".git") {
                found.extend(corrupt_files(&path));
            }
        }
    }
    found
}

#[test]
fn a_kill_at_any_point_leaves_a_space_that_reopens() {
    let repo = pr_repository();
    let reference = format!("{}#main..feature", repo.path().display());
    let head = repo.rev_parse("feature");
    let base = tempfile::tempdir().unwrap();
    for i in 0..50u64 {
        // A fresh data dir every other run, so kills land in the cold path too (mirror, worktree,
        // first state write), not only in reopening.
        let data = base.path().join(format!("data-{}", i / 2));
        // Spread the kill points over the run (a cold run takes tens of milliseconds).
        let delay = Duration::from_micros((i * 7_919) % 60_000);
        let mut child = review_tui()
            .args([
                reference.as_str(),
                "--headless",
                "--deterministic-only",
                "--force",
                "--format",
                "json",
            ])
            .env("REVIEW_TUI_DATA_DIR", &data)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(delay);
        let _ = child.kill();
        let _ = child.wait();

        let out = review_tui()
            .args([
                reference.as_str(),
                "--headless",
                "--deterministic-only",
                "--force",
                "--format",
                "json",
            ])
            .env("REVIEW_TUI_DATA_DIR", &data)
            .output()
            .unwrap();
        assert_eq!(
            out.status.code(),
            Some(0),
            "run {i} (killed after {delay:?}) did not reopen: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(report["pr"]["head"]["sha"], head.as_str(), "run {i}");
        let worktree = Path::new(report["space"]["worktree"].as_str().unwrap());
        assert!(
            worktree.join("src/parse.rs").is_file(),
            "run {i}: worktree incomplete"
        );
        assert_eq!(corrupt_files(&data), Vec::<String>::new(), "run {i}");
    }
}
