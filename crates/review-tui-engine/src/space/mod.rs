//! The review space: one directory per PR with a bare mirror, a worktree at the head SHA and
//! `state.json`.
//!
//! [`Space::open`] is the entry point: it resolves the directory from a [`SpaceKey`] (see
//! `layout` for what lives where), takes the space's lock, fetches into the repository's
//! shared mirror, places the worktree and loads or creates the state. [`Space::update`] is the
//! only way to change the state, and every change is on disk before it returns.

pub(crate) mod fsutil;
pub(crate) mod journal;
pub(crate) mod key;
pub(crate) mod layout;
mod linked_objects;
pub(crate) mod lock;
pub(crate) mod mirror;
pub(crate) mod open;
mod packed_refs;
mod promisor;
pub(crate) mod state;
pub(crate) mod store;
pub(crate) mod summary;
pub(crate) mod thread_draft;
pub(crate) mod token;
pub(crate) mod version_tags;
pub(crate) mod worktree;
pub(crate) mod worktree_file;

#[cfg(test)]
pub(crate) mod test_repo;

pub use key::{KeyError, SpaceKey};
pub use layout::{LayoutError, data_root, mirror_dir, space_dir};
pub use lock::{Holder, LockError};
pub use open::{CommitsFetched, OpenReport, Source, Space, SpaceError};
pub use state::Posted;
pub use state::{
    Ladder, PrIdentity, PublishRecord, PublishState, Round, SCHEMA_VERSION, SpaceState, StateError,
};
pub use store::{Corruption, StoreError};
pub use thread_draft::{ThreadAction, ThreadDraft};
pub use token::Token;
pub use worktree::WorktreeChange;

/// Writes a file whole or not at all (temp file, fsync, rename): for reports and patches
/// written into a space.
pub fn write_atomically(path: &std::path::Path, bytes: &[u8]) -> std::io::Result<()> {
    fsutil::atomic_write(path, bytes)
}

/// Replaces a cache file whose torn copy reads as a miss, without flushing it to disk (see
/// `fsutil::replace_cache_file`).
pub fn replace_cache_file(path: &std::path::Path, bytes: &[u8]) -> std::io::Result<()> {
    fsutil::replace_cache_file(path, bytes)
}

/// Writes a file named on the command line: atomically when it is a file, into it when it is a
/// device or a FIFO (see `fsutil::write_output`).
pub fn write_output(path: &std::path::Path, bytes: &[u8]) -> std::io::Result<()> {
    fsutil::write_output(path, bytes)
}

/// Whether [`write_output`] can write `path`: checked before any work, changing nothing.
pub fn check_output(path: &std::path::Path) -> std::io::Result<()> {
    fsutil::check_output(path)
}
