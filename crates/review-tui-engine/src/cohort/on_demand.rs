//! The full symbol index, built the first time someone asks for it.
//!
//! Only `find_symbol` (a model reviewer's tool) needs every name of the head; a review without
//! model reviewers, or whose reviewers never call it, never pays for it. When it is asked for,
//! it is built from the mirror's store of tags by blob, so only blobs never seen are parsed.

use std::path::PathBuf;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicUsize, Ordering};

use super::index::SymbolIndex;
use crate::commit_id::CommitId;

/// A head's full index, built on first use and then kept.
#[derive(Debug)]
pub struct OnDemandIndex {
    mirror: PathBuf,
    worktree: PathBuf,
    head_sha: CommitId,
    index: OnceLock<Option<SymbolIndex>>,
    builds: AtomicUsize,
}

impl OnDemandIndex {
    /// The index of `head_sha`, read from the mirror at `mirror` (its tag store and its
    /// blobs), else from `worktree`, the head's checkout.
    pub fn new(mirror: PathBuf, worktree: PathBuf, head_sha: CommitId) -> OnDemandIndex {
        OnDemandIndex {
            mirror,
            worktree,
            head_sha,
            index: OnceLock::new(),
            builds: AtomicUsize::new(0),
        }
    }

    /// The index, built now if it was not yet; `None` when neither the mirror nor the worktree
    /// could be read.
    pub fn get(&self) -> Option<&SymbolIndex> {
        self.index
            .get_or_init(|| {
                self.builds.fetch_add(1, Ordering::Relaxed);
                let from_tree = git2::Oid::from_str(&self.head_sha).ok().and_then(|head| {
                    SymbolIndex::build_from_tree(&self.mirror, head, &Default::default()).ok()
                });
                from_tree
                    .map(|(index, _)| index)
                    .or_else(|| SymbolIndex::build(&self.worktree, &self.head_sha).ok())
            })
            .as_ref()
    }

    /// How many times the index was built: 0 until first asked for, then 1.
    pub fn builds(&self) -> usize {
        self.builds.load(Ordering::Relaxed)
    }
}
