//! Cockpit tests: `update` fed with actions and engine events (state checked, no sleeps), the
//! keymap, the loop on a `TestBackend`, and insta snapshots of every screen state.

mod components;
mod diff;
mod fit;
mod fix_path;
mod fixtures;
mod focus;
mod keys;
mod log;
mod loop_;
mod reasons;
mod room;
mod rule_folds;
mod run_control;
mod sizes;
mod snapshots;
mod threads;
mod updates;
