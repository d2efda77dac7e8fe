//! The binary's commands, each a client of the library: the headless flow (`headless.rs`, the
//! edge of `review_tui::headless`) and the cockpit (`cockpit.rs`, which hands the terminal to
//! `ui::app`) are the two clients of one review's session; `inbox.rs` is every review waiting,
//! `drafts.rs` the person's questions, comments and thread drafts, `maintenance.rs` `config`,
//! `gc` and `evaluate`. `setup.rs` adds the cockpit's look and stderr to the library's set-up
//! (`cli::setup`); `output.rs` is what reaches the terminal. `anyhow` stays here, at the edge.

pub(crate) mod cockpit;
pub(crate) mod drafts;
pub(crate) mod headless;
pub(crate) mod inbox;
pub(crate) mod maintenance;
pub(crate) mod output;
pub(crate) mod setup;
