//! Real git repositories in temporary directories for the space tests, built with the `git`
//! binary the way a user would.

use std::path::{Path, PathBuf};
use std::process::Command;

/// Runs `git` in `dir` with a fixed identity and no user or system config, panicking with
/// git's own message on failure. Returns trimmed stdout.
pub(crate) fn git(dir: &Path, args: &[&str]) -> String {
    let out = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(args)
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_AUTHOR_NAME", "Test")
        .env("GIT_AUTHOR_EMAIL", "test@example.com")
        .env("GIT_COMMITTER_NAME", "Test")
        .env("GIT_COMMITTER_EMAIL", "test@example.com")
        .env_remove("GIT_DIR")
        .env_remove("GIT_WORK_TREE")
        .output()
        .expect("git runs");
    assert!(
        out.status.success(),
        "git {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap().trim().to_string()
}

/// `git init` on `main` in `dir`.
pub(crate) fn init(dir: &Path) {
    git(dir, &["init", "-q", "-b", "main"]);
}

/// Commits everything in the work tree of `dir`; returns the new commit's SHA.
pub(crate) fn commit_all(dir: &Path, message: &str) -> String {
    git(dir, &["add", "-A"]);
    git(dir, &["commit", "-q", "--allow-empty", "-m", message]);
    git(dir, &["rev-parse", "HEAD"])
}

/// A temp dir holding a repository on `main` whose one commit is `files` (path, text).
pub(crate) fn committed(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    init(dir.path());
    for (path, text) in files {
        let path = dir.path().join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    commit_all(dir.path(), "initial");
    dir
}

/// A non-bare repository on `main` with one commit, inside a temp dir that also has room for
/// data roots, bare remotes and symlinks.
pub(crate) struct TestRepo {
    dir: tempfile::TempDir,
}

impl TestRepo {
    pub(crate) fn new() -> TestRepo {
        let dir = tempfile::tempdir().unwrap();
        let repo = dir.path().join("repo");
        std::fs::create_dir(&repo).unwrap();
        git(&repo, &["init", "-q", "-b", "main"]);
        let this = TestRepo { dir };
        this.commit("README.md", "hello\n", "initial");
        this
    }

    pub(crate) fn path(&self) -> PathBuf {
        self.dir.path().join("repo")
    }

    /// The temp dir around the repository, for everything else a test needs on disk.
    pub(crate) fn scratch(&self) -> &Path {
        self.dir.path()
    }

    /// Writes `file` and commits it on the current branch; returns the new head SHA.
    pub(crate) fn commit(&self, file: &str, content: &str, message: &str) -> String {
        let path = self.path().join(file);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).unwrap();
        }
        std::fs::write(&path, content).unwrap();
        git(&self.path(), &["add", "-A"]);
        git(&self.path(), &["commit", "-q", "-m", message]);
        self.sha("HEAD")
    }

    pub(crate) fn sha(&self, rev: &str) -> String {
        git(&self.path(), &["rev-parse", rev])
    }

    /// A bare copy of the repository that looks like GitHub: `refs/pull/<number>/head` points
    /// at `head`. Returns its path.
    pub(crate) fn github_like_remote(&self, number: u64, head: &str) -> PathBuf {
        let remote = self.dir.path().join("remote.git");
        if !remote.exists() {
            git(
                self.dir.path(),
                &["clone", "-q", "--bare", "repo", "remote.git"],
            );
        }
        git(
            &remote,
            &["fetch", "-q", "../repo", "+refs/heads/*:refs/heads/*"],
        );
        git(
            &remote,
            &["update-ref", &format!("refs/pull/{number}/head"), head],
        );
        remote
    }
}
