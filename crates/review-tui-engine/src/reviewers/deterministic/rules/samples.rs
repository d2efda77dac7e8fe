//! Sample code as the deterministic reviewers read it ([`crate::diff::is_sample_path_in`]): a
//! folder of examples, demos or benchmarks counts only where no package ships it, outside
//! every source root and Python package, the packages read from the repository on either
//! side of the change.

use std::collections::BTreeSet;
use std::path::Path;

use super::repo::Repo;
use crate::diff::{Diff, FileStatus, is_sample_path_in};

/// The folders that are Python import packages (hold an `__init__.py`) at the head, in `files`,
/// or before the change: a change that deletes a package's `__init__.py` does not thereby turn
/// the `examples/` module it adds into a sample.
pub(crate) fn python_packages(diff: &Diff, files: Option<&BTreeSet<String>>) -> BTreeSet<String> {
    let removed = diff.files.iter().filter_map(|file| match file.status {
        FileStatus::Deleted => Some(file.path.as_str()),
        FileStatus::Renamed => file.old_path.as_deref(),
        _ => None,
    });
    files
        .into_iter()
        .flatten()
        .map(String::as_str)
        .chain(removed)
        .filter_map(|path| path.strip_suffix("/__init__.py"))
        .map(String::from)
        .collect()
}

pub(super) struct Samples<'a> {
    /// [`python_packages`].
    packages: BTreeSet<String>,
    /// Without the head's file list, the worktree is asked whether a folder holds an
    /// `__init__.py`.
    worktree: Option<&'a Path>,
}

impl<'a> Samples<'a> {
    pub(super) fn new(diff: &Diff, repo: Repo<'a>) -> Samples<'a> {
        Samples {
            packages: python_packages(diff, repo.files),
            worktree: repo.files.is_none().then_some(repo.worktree).flatten(),
        }
    }

    /// Whether the file at `path` is sample code no package ships. Without the repository,
    /// the path alone decides.
    pub(super) fn sample_code(&self, path: &str) -> bool {
        let package = |dir: &str| {
            self.packages.contains(dir)
                || self.worktree.is_some_and(|root| {
                    crate::space::worktree_file::size(root, &format!("{dir}/__init__.py")).is_ok()
                })
        };
        is_sample_path_in(path, &package)
    }
}
