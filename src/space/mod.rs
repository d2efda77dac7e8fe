//! The review space: one directory per PR with a bare mirror, a worktree at the head SHA and
//! `state.json`.

mod fsutil;
pub mod key;
pub mod layout;
pub mod lock;
pub mod mirror;
pub mod state;
pub mod store;
pub mod token;
pub mod worktree;

#[cfg(test)]
mod test_repo;
