//! Reports: reading external review reports and writing ours (text, JSON, SARIF, Markdown).

pub mod escape;
pub mod evaluate;
pub mod fields;
pub mod headless;
pub mod headline;
pub mod markdown;
pub mod review;
pub mod sarif;
pub mod select;
pub mod verdict_text;

#[cfg(test)]
mod evaluate_tests;
