//! The binary's commands, each a client of the library: the headless flow (`headless.rs`) and
//! the cockpit (`cockpit.rs`, which hands the terminal to `ui::app`) are the two clients of one
//! review's session; `inbox.rs` is every review waiting, `drafts.rs` the person's questions,
//! comments and thread drafts, `maintenance.rs` `config`, `gc` and `evaluate`. `setup.rs` turns
//! the resolved flags (`cli::resolve`) into a session; `output.rs` is what reaches the terminal;
//! `signals.rs` stops a run on Ctrl-C, SIGTERM or SIGHUP. `anyhow` stays here, at the edge.

pub(crate) mod cockpit;
pub(crate) mod drafts;
pub(crate) mod headless;
pub(crate) mod inbox;
pub(crate) mod maintenance;
pub(crate) mod output;
pub(crate) mod setup;
pub(crate) mod signals;
