//! Where a rule reads the repository beyond the diff: the head worktree and its file list.

use std::collections::BTreeSet;
use std::path::Path;

/// Where the repository is read (the base side, the project's lint configuration): the head
/// worktree and its file list, when known.
#[derive(Clone, Copy)]
pub(super) struct Repo<'r> {
    pub worktree: Option<&'r Path>,
    pub files: Option<&'r BTreeSet<String>>,
}
