//! Sample code as the line rules read it ([`crate::diff::is_sample_path_in`]): a folder of
//! examples, demos or benchmarks counts only where no package ships it, outside every source
//! root and Python package, the packages read from the repository on either side of the
//! change.

use std::collections::HashSet;

use super::repo::Repo;
use crate::diff::{Diff, FileStatus, is_sample_path_in};

pub(super) struct Samples<'a> {
    repo: Repo<'a>,
    /// Paths the base holds and the head does not: what the change deletes or renames away.
    removed: HashSet<&'a str>,
}

impl<'a> Samples<'a> {
    pub(super) fn new(diff: &'a Diff, repo: Repo<'a>) -> Samples<'a> {
        let removed = diff
            .files
            .iter()
            .filter_map(|file| match file.status {
                FileStatus::Deleted => Some(file.path.as_str()),
                FileStatus::Renamed => file.old_path.as_deref(),
                _ => None,
            })
            .collect();
        Samples { repo, removed }
    }

    /// Whether the file at `path` is sample code no package ships. A folder is a Python
    /// package when it holds an `__init__.py` at the head or before the change: a change
    /// that deletes the `__init__.py` does not thereby turn the package's `examples/` module
    /// it adds into a sample. Without the repository, the path alone decides.
    pub(super) fn sample_code(&self, path: &str) -> bool {
        let package = |dir: &str| {
            let init = format!("{dir}/__init__.py");
            self.removed.contains(init.as_str())
                || match (self.repo.files, self.repo.worktree) {
                    (Some(files), _) => files.contains(&init),
                    (None, Some(root)) => crate::space::worktree_file::size(root, &init).is_ok(),
                    (None, None) => false,
                }
        };
        is_sample_path_in(path, &package)
    }
}
