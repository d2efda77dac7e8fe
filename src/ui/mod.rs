//! The cockpit: a thin ratatui view over engine state plus keyboard actions.
//!
//! The Elm shape: one `AppState` (`state`), `update(state, action) -> effects` with no IO
//! (`update`), and `view::draw(frame, state, cx)` as a free function of the state. Keys become
//! `Action`s through the `keymap` (`translate`); `run` is the loop with one inbox (terminal events, engine
//! events, ticks) that redraws at most every ~16 ms and only when something changed. Effects go
//! to the engine through the `run::Engine` trait, which answers with actions.
//!
//! Layered, bottom up: `command`, `pane`, `text`, `log` (the event log's lines) and `keymap`;
//! `state` (plain data over those); `action`, `rows`, `diffview`, `translate`; `update` (its
//! components, triage with undo, what the log records); `view`; `run` and `app`
//! (`tests/architecture.rs` holds it).

pub mod action;
pub mod app;
mod cohort_links;
pub mod command;
pub mod diffview;
pub mod editor;
pub mod highlight;
pub mod inbox;
pub mod keymap;
pub mod log;
pub mod pane;
pub mod reasons;
pub mod rows;
pub mod run;
pub mod state;
pub mod terminal;
pub mod text;
pub mod theme;
pub mod thread_list;
pub mod translate;
pub mod update;
pub mod view;

#[cfg(test)]
mod tests;

pub use action::{Action, Report};
pub use command::Command;
pub use keymap::Keymap;
pub use run::{Engine, Inbox, RunOutcome, run};
pub use state::{AppState, CohortView, PrHeader, PreviewData};
pub use theme::Theme;
pub use update::{Effect, update};
pub use view::ViewContext;
