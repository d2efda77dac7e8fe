//! The review-tui engine: everything a review needs except the terminal.
//!
//! The root package (`review-tui`: the cockpit in `src/ui`, the arguments in `src/cli`, the
//! binary) re-exports these modules. Only its `ui` and `main.rs` may touch ratatui, crossterm, ratatui-textarea or
//! syntect; `tests/architecture.rs` enforces it so the same pipeline runs headless in CI.

pub mod api;
pub mod cohort;
pub mod config;
pub mod demo;
pub mod diff;
mod foundation;
pub mod gc;
mod parse;
pub mod pr;
pub mod publish;
pub mod report;
pub mod review;
pub mod reviewers;
pub mod session;
pub mod space;

// The foundation's pieces keep their short paths (`crate::printable`): one name per piece,
// wherever it is used.
pub use foundation::{base64, commit_id, error_text, printable, repo_path, retry};
pub(crate) use foundation::{fence, path_component, path_glob, remembered, waiting};
