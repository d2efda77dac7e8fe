//! Reviewers: the roster, model providers, the sandboxed read-only tools, the deterministic
//! reviewers and the dispatcher that runs them in parallel.

pub mod agent;
pub mod context;
pub mod deterministic;
pub mod events;
pub mod provider;
pub mod rules;
pub mod sarif;
pub mod scan_input;
pub mod secrets;
pub mod toolbox;
pub mod tools;
