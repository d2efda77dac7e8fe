//! A real git repository in a temp dir, built with the `git` binary, and a cohort build over
//! the branch checked out in it against `main`.

use std::path::PathBuf;

use crate::cohort::{CohortInput, CohortReport};
use crate::session::cohort_build::build;

/// One git runner for every test: a fixed identity, no user or system config.
pub(crate) use crate::space::test_repo::git;

pub(crate) struct Repo {
    dir: tempfile::TempDir,
}

impl Repo {
    /// A repository on `main` with `files` committed, then a `pr` branch checked out.
    pub(crate) fn new(files: &[(&str, &str)]) -> Repo {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("repo")).unwrap();
        let repo = Repo { dir };
        crate::space::test_repo::init(&repo.path());
        for (path, content) in files {
            repo.write(path, content);
        }
        repo.commit("base");
        git(&repo.path(), &["checkout", "-q", "-b", "pr"]);
        repo
    }

    pub(crate) fn path(&self) -> PathBuf {
        self.dir.path().join("repo")
    }

    /// The space's cache directory: outside the worktree, as in a real space.
    pub(crate) fn cache_dir(&self) -> PathBuf {
        self.dir.path().join("space").join("cache")
    }

    pub(crate) fn write(&self, path: &str, content: &str) {
        let full = self.path().join(path);
        std::fs::create_dir_all(full.parent().unwrap()).unwrap();
        std::fs::write(full, content).unwrap();
    }

    pub(crate) fn remove(&self, path: &str) {
        std::fs::remove_file(self.path().join(path)).unwrap();
    }

    pub(crate) fn commit(&self, message: &str) -> String {
        crate::space::test_repo::commit_all(&self.path(), message)
    }

    /// Builds the cohorts of `main...HEAD` (commit first), with the base read from the
    /// repository and the index cached in [`Repo::cache_dir`].
    pub(crate) fn build(&self) -> CohortReport {
        self.build_with(|input| build(input).unwrap())
    }

    /// [`Repo::build`] as if the object store lacked the head contents of `lacking` (a
    /// partial clone, a snapshot without large files): the diff marks their head side
    /// unavailable, as the checkout does for a blob it cannot read.
    pub(crate) fn build_lacking(&self, lacking: &[&str]) -> CohortReport {
        self.build_edited(
            |diff| {
                for file in &mut diff.files {
                    if lacking.contains(&file.path.as_str()) {
                        file.unavailable = Some(crate::diff::Unavailable::Head);
                    }
                }
            },
            |input| build(input).unwrap(),
        )
    }

    /// Hands `run` the input [`Repo::build`] uses: for the builders around `build`.
    pub(crate) fn build_with<T>(&self, run: impl FnOnce(CohortInput<'_>) -> T) -> T {
        self.build_edited(|_| {}, run)
    }

    fn build_edited<T>(
        &self,
        edit: impl FnOnce(&mut crate::diff::Diff),
        run: impl FnOnce(CohortInput<'_>) -> T,
    ) -> T {
        let head = git(&self.path(), &["rev-parse", "HEAD"]);
        let repo = git2::Repository::open(self.path()).unwrap();
        let mut diff = crate::diff::git::merge_base_diff(&repo, "main", "HEAD").unwrap();
        edit(&mut diff);
        let main = repo.revparse_single("main").unwrap().id();
        let base = repo
            .merge_base(main, git2::Oid::from_str(&head).unwrap())
            .unwrap();
        let cache = self.cache_dir();
        run(CohortInput {
            diff: &diff,
            worktree: &self.path(),
            base: Some((&repo, base)),
            cache_dir: Some(&cache),
            head_sha: &head.parse().unwrap(),
            api_advisory: &[],
            pr: None,
        })
    }
}
