//! Real git repositories for tests, made with the `git` binary and no user or system config.

use std::path::Path;

/// One git runner for every test: a fixed identity, no user or system config.
pub use crate::space::test_repo::git;

pub fn init(dir: &Path) {
    git(dir, &["init", "-q", "-b", "main"]);
}

/// Commits everything in the work tree; returns the new commit's SHA.
pub fn commit_all(dir: &Path, message: &str) -> String {
    git(dir, &["add", "-A"]);
    git(dir, &["commit", "-q", "--allow-empty", "-m", message]);
    git(dir, &["rev-parse", "HEAD"])
}
