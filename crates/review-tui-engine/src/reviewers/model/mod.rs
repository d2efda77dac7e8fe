//! The model reviewers: the roster (who runs, with which brief), the providers they talk to
//! (HTTP, command, replay), the agent loop and its read-only sandboxed tools, the context they are
//! given, the token budget, the dispatcher that runs them in parallel, and the passes after them
//! (peer round, verification, scoring, root cause, lead), and the review room's questions (`ask`).

pub mod agent;
pub mod ask;
pub mod budget;
pub mod context;
pub mod dispatch;
pub mod mcp;
pub mod passes;
pub mod provider;
pub mod roster;
pub mod sandbox_tools;
pub mod strict_json;
pub mod toolbox;
pub mod tools;
