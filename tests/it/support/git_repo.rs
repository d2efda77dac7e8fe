//! Real git repositories built in temporary directories with the `git` binary.

use std::path::{Path, PathBuf};
use std::process::Command;

use tempfile::TempDir;

/// A manifest asking for clippy's `unwrap_used`, as a project that wants its unwraps looked at
/// writes it: `rust/unwrap-outside-tests` asks only there, so a feature's `unwrap()` is a finding.
pub(crate) const ASKS_UNWRAP_USED: &str = "[package]\nname = \"widgets\"\nversion = \"0.1.0\"\n\n[lints.clippy]\nunwrap_used = \"warn\"\n";

/// A repository on disk; deleted on drop.
pub(crate) struct GitRepo {
    dir: TempDir,
}

impl GitRepo {
    /// An empty repository whose first branch is `main`.
    pub(crate) fn init() -> GitRepo {
        let repo = GitRepo {
            dir: tempfile::tempdir().expect("create a temporary directory"),
        };
        repo.git(&["init", "--quiet", "--initial-branch=main"]);
        repo
    }

    pub(crate) fn path(&self) -> &Path {
        self.dir.path()
    }

    /// Runs git here with a fixed identity and no user or system config, so a developer's
    /// settings (signing, hooks, diff drivers) cannot change what the tests see. Panics with
    /// git's stderr on failure.
    pub(crate) fn git(&self, args: &[&str]) -> String {
        let output = Command::new("git")
            .args(args)
            .current_dir(self.path())
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("GIT_CONFIG_GLOBAL", "/dev/null")
            .env("GIT_AUTHOR_NAME", "Test Author")
            .env("GIT_AUTHOR_EMAIL", "author@example.com")
            .env("GIT_COMMITTER_NAME", "Test Author")
            .env("GIT_COMMITTER_EMAIL", "author@example.com")
            .env("GIT_AUTHOR_DATE", "2024-05-01T12:00:00Z")
            .env("GIT_COMMITTER_DATE", "2024-05-01T12:00:00Z")
            .output()
            .expect("run git (is it installed?)");
        assert!(
            output.status.success(),
            "git {args:?} failed: {}",
            String::from_utf8_lossy(&output.stderr)
        );
        String::from_utf8(output.stdout).expect("git printed UTF-8")
    }

    pub(crate) fn write(&self, path: &str, contents: &str) {
        let full: PathBuf = self.path().join(path);
        if let Some(parent) = full.parent() {
            std::fs::create_dir_all(parent).expect("create parent directories");
        }
        std::fs::write(full, contents).expect("write a file");
    }

    /// Stages everything and commits; returns the new commit's SHA.
    pub(crate) fn commit_all(&self, message: &str) -> String {
        self.git(&["add", "--all"]);
        self.git(&["commit", "--quiet", "--message", message]);
        self.rev_parse("HEAD")
    }

    pub(crate) fn rev_parse(&self, rev: &str) -> String {
        self.git(&["rev-parse", rev]).trim().to_owned()
    }
}

/// A repository with a `main` branch and a `feature` branch off it, where `main` moved on after
/// the fork: `main...feature` (what a PR shows) then differs from `main..feature`.
///
/// The feature modifies `src/lib.rs`, adds `src/parse.rs`, renames `docs/old-name.md` to
/// `docs/new-name.md` (with an edit) and deletes `obsolete.txt`.
pub(crate) fn pr_repository() -> GitRepo {
    let repo = GitRepo::init();
    repo.write(
        "src/lib.rs",
        "pub fn add(a: i32, b: i32) -> i32 {\n    a + b\n}\n\npub fn sub(a: i32, b: i32) -> i32 {\n    a - b\n}\n",
    );
    repo.write(
        "docs/old-name.md",
        "# Guide\n\nLine one of the guide.\nLine two of the guide.\nLine three of the guide.\nLine four.\n",
    );
    repo.write("obsolete.txt", "to be removed\n");
    repo.write("README.md", "# widgets\n");
    // The project asks for clippy's `expect_used`, so the feature's `expect` is a finding.
    repo.write(
        "Cargo.toml",
        "[package]\nname = \"widgets\"\nversion = \"0.1.0\"\n\n[lints.clippy]\nexpect_used = \"warn\"\n",
    );
    repo.commit_all("initial import");

    repo.git(&["checkout", "--quiet", "-b", "feature"]);
    repo.write(
        "src/lib.rs",
        "pub fn add(a: i32, b: i32) -> i32 {\n    a.checked_add(b).expect(\"overflow\")\n}\n\npub fn sub(a: i32, b: i32) -> i32 {\n    a - b\n}\n\npub mod parse;\n",
    );
    repo.write(
        "src/parse.rs",
        "pub fn parse(s: &str) -> Option<i32> {\n    s.trim().parse().ok()\n}\n",
    );
    repo.git(&["mv", "docs/old-name.md", "docs/new-name.md"]);
    repo.write(
        "docs/new-name.md",
        "# Guide\n\nLine one of the guide.\nLine two of the guide.\nLine three of the guide.\nLine 4.\n",
    );
    repo.git(&["rm", "--quiet", "obsolete.txt"]);
    repo.commit_all("feature: checked add, parser, guide rename");

    repo.git(&["checkout", "--quiet", "main"]);
    repo.write(
        "README.md",
        "# widgets\n\nNow with a README line from main.\n",
    );
    repo.commit_all("main moves on");
    repo
}

impl GitRepo {
    /// On [`pr_repository`]: a branch `fmt` off `main` that only reindents `src/lib.rs` (a
    /// whitespace-only change, not eligible for review unless forced).
    pub(crate) fn whitespace_only_branch(&self) {
        self.git(&["checkout", "--quiet", "-b", "fmt", "main"]);
        self.write(
            "src/lib.rs",
            "pub fn add(a: i32, b: i32) -> i32 {\n        a + b\n}\n\npub fn sub(a: i32, b: i32) -> i32 {\n    a - b\n}\n",
        );
        self.commit_all("reindent");
    }
}
