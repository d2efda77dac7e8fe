//! The review space: one directory per PR with a bare mirror, a worktree at the head SHA and
//! `state.json`.

pub mod key;
pub mod layout;

#[cfg(test)]
mod test_repo;
