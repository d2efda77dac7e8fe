//! Integration tests: the real binary, real git repositories in temp dirs, real HTTP servers on
//! 127.0.0.1. One test binary, one module per area sharing `support`, keeps link time low on
//! small CI machines.

mod anthropic;
mod api_advisory;
mod cli;
mod cockpit;
mod context_sources;
mod crash;
mod demo;
mod diff;
mod edges;
mod faults;
mod first_frame;
mod first_run;
mod gc;
mod gitea;
mod github;
mod gitlab;
mod headless;
mod inbox;
mod models;
mod offline;
mod own_reviews;
mod partial_clone;
mod picture;
mod protocol;
mod providers;
mod publish;
mod publish_ci;
mod publish_escape;
mod publish_head;
mod publish_identity;
mod publish_limits;
mod report_schema;
mod review_report;
mod room;
mod secrets;
mod secrets_corpus;
mod session;
mod support;
mod threads;
mod verdict_carry;
mod verdict_edges;
mod verdict_invariant;
mod workflow_lint;
mod worktree;
