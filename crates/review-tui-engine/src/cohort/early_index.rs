//! The symbol index opened from the mirror while the worktree is still being checked out,
//! and the changed files' base versions parsed meanwhile ([`EarlyBases`]).
//!
//! On a first review the checkout (file creation, mostly kernel time) and the index (walking
//! the head's tree, reading the store of tags by blob) were back to back. Both only need the
//! head commit, which the mirror holds once the fetch is done, so the index starts then, on its
//! own thread, and the cohort build picks it up.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::thread::JoinHandle;

use super::early_bases::EarlyBases;
use super::index::HeadTags;
use super::lazy_index::LazyIndex;
use super::report_files::has_report_of;
use crate::commit_id::CommitId;

/// An index build running in the background.
pub struct EarlyIndex {
    head_sha: CommitId,
    job: JoinHandle<Option<(LazyIndex, HeadTags)>>,
    bases: Option<EarlyBases>,
}

impl std::fmt::Debug for EarlyIndex {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("EarlyIndex")
            .field("head_sha", &self.head_sha)
            .finish_non_exhaustive()
    }
}

impl EarlyIndex {
    /// Starts indexing `head` from the bare repository at `git_dir`, and parsing the base
    /// versions of the files changed from the merge base of `base` and `head`. `None` when the
    /// space's cache in `cache_dir` already holds a cohort report of this head: then neither
    /// is likely needed at all.
    pub fn start(
        git_dir: &Path,
        cache_dir: &Path,
        base: git2::Oid,
        head: git2::Oid,
    ) -> Option<EarlyIndex> {
        let head_sha = CommitId::from(head);
        if has_report_of(cache_dir, &head_sha) {
            return None;
        }
        let bases = EarlyBases::start(git_dir, base, head);
        let git_dir: PathBuf = git_dir.to_path_buf();
        let job = std::thread::Builder::new()
            .name("early-index".into())
            .spawn(move || {
                // The changed files are parsed by the cohort build, reparsing their base's
                // tree, and handed to the index then (see `LazyIndex::learn`).
                LazyIndex::from_tree(&git_dir, head, &BTreeSet::new()).ok()
            })
            .ok()?;
        Some(EarlyIndex {
            head_sha,
            job,
            bases,
        })
    }

    /// The finished index when it is of `head_sha` and was built (`None` sends the caller to
    /// its own build: a failed early build is not an error, only a lost head start), and the
    /// base parse, still running. Its trees are keyed by blob id, so they serve any head.
    pub(super) fn finish(
        self,
        head_sha: &CommitId,
    ) -> (Option<(LazyIndex, HeadTags)>, Option<EarlyBases>) {
        let built = self.job.join().ok().flatten();
        let built = built.filter(|_| self.head_sha == *head_sha);
        (built, self.bases)
    }

    /// Waits until the base parse is done: tests hand over a complete set this way.
    #[cfg(test)]
    pub(crate) fn wait_for_bases(&mut self) {
        if let Some(bases) = &mut self.bases {
            bases.wait();
        }
    }
}
