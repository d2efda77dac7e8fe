//! Reviewers: the roster, model providers, the sandboxed read-only tools, the deterministic
//! reviewers and the dispatcher that runs them in parallel.

pub mod agent;
pub mod events;
pub mod provider;
pub mod toolbox;
