//! The review space: one directory per PR with a bare mirror, a worktree at the head SHA and
//! `state.json`.

mod fsutil;
pub mod key;
pub mod layout;
pub mod lock;
pub mod state;
pub mod store;

#[cfg(test)]
mod test_repo;
