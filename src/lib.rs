//! review-tui's library: the cockpit (`ui`) and the command line (`cli`) over the engine
//! (the `review-tui-engine` crate, whose modules the cockpit, the binary and the tests use are
//! re-exported here so `crate::review`, `review_tui::session`, … name the same items as before
//! the split).
//!
//! Only `ui` (and the binary's `main.rs`) may touch ratatui, crossterm, ratatui-textarea or
//! syntect; `tests/architecture.rs` enforces it so the same pipeline runs headless in CI.

pub use review_tui_engine::{
    api, base64, cohort, commit_id, config, demo, diff, error_text, gc, pr, printable, publish,
    repo_path, report, retry, review, reviewers, session, space,
};

pub mod cli;
pub mod headless;
pub mod ui;
