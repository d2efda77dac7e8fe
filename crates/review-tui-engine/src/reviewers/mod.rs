//! Reviewers, by how they work: `deterministic` (rules, the secret scan, the prompt-injection
//! scan and SARIF imports: zero tokens, always run) and `model` (the roster of model reviewers,
//! their providers, the sandboxed read-only tools, the context they read and the passes after
//! them). Both stream the same `review::events`; the session owns running them. `redact` is the
//! one redaction point (built on the secret scan's rules, used by the model reviewers and every
//! outbound text); `hidden` finds text a person on the forge does not see (both kinds ask it).

pub mod deterministic;
pub mod hidden;
pub mod model;
pub mod redact;
