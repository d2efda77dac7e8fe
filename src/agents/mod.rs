//! Reviewers: the roster, model providers, the sandboxed read-only tools, the deterministic
//! reviewers and the dispatcher that runs them in parallel.

pub mod agent;
pub mod budget;
pub mod context;
pub mod deterministic;
pub mod dispatch;
/// Reviewer events belong to the review model (the board applies them); kept reachable here.
pub use crate::review::events;
pub mod injection;
pub mod passes;
pub mod provider;
pub mod roster;
pub mod rules;
pub mod sandbox_tools;
pub mod sarif;
pub mod scan_input;
pub mod secrets;
pub mod toolbox;
pub mod tools;
