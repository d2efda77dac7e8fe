//! Reviewers, by how they work: `deterministic` (rules, the secret scan, the prompt-injection
//! scan and SARIF imports: zero tokens, always run) and `model` (the roster of model reviewers,
//! their providers, the sandboxed read-only tools, the context they read and the passes after
//! them). Both stream the same `review::events`; the session owns running them.

pub mod deterministic;
pub mod model;
pub mod redact;
