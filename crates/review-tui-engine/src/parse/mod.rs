//! Syntax trees of source files: the grammars with a tag query (`grammar`), the tags read
//! from a tree (`tags`), and a head version's tree reparsed from its base's where the diff
//! changed it (`reparse`).
//!
//! Below both readers of a changed file's trees: the cohorts read its tags, the apiContract
//! axis its surfaces, and each file side is parsed once for both (see
//! `cohort::changes::read_all`).

pub(crate) mod grammar;
mod overload;
pub(crate) mod reparse;
mod rust_tags;
pub(crate) mod tags;

pub use grammar::Grammar;
