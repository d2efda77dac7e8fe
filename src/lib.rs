//! The review-tui engine: everything a review needs except the terminal.
//!
//! Only `ui` (and the binary's `main.rs`) may touch ratatui, crossterm, ratatui-textarea or
//! syntect; `tests/architecture.rs` enforces it so the same pipeline runs headless in CI.

pub mod api;
pub mod base64;
pub mod cli;
pub mod cohort;
pub mod commit_id;
pub mod config;
pub mod demo;
pub mod diff;
pub mod error_text;
pub mod fence;
pub mod gc;
pub mod headless;
pub mod path_component;
pub mod path_glob;
pub mod pr;
pub mod printable;
pub mod publish;
pub mod repo_path;
pub mod report;
pub mod retry;
pub mod review;
pub mod reviewers;
pub mod session;
pub mod space;
pub mod ui;
pub mod waiting;
