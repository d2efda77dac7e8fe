//! Reports: reading external review reports and writing ours (text, JSON, SARIF, Markdown).

pub(crate) mod escape;
pub mod evaluate;
pub(crate) mod fields;
pub mod headless;
pub(crate) mod headline;
pub(crate) mod markdown;
pub mod review;
pub(crate) mod sarif;
pub mod select;
pub mod verdict_text;

pub use sarif::to_sarif;

#[cfg(test)]
mod evaluate_tests;
