//! The deterministic rule catalog: rules are data (TOML in `assets/rules/`, compiled in, and
//! extendable from the user's files), run over a diff's added lines, and each match becomes a
//! ReviewNode from the reviewer `rules`. It spends no tokens and always runs (DESIGN §5).
//!
//! A line rule is a regex on one added line (or removed line, with `side = "LEFT"`), narrowed
//! by `require`/`forbid` on the same line, `context_require`/`context_forbid` on the file or
//! hunk, path and language targets, and test-code tracking. A file rule (`check = "…"`) is
//! logic in `checks` that needs more than a line: file sizes, lock files and manifests,
//! workflow triggers, Dockerfile stages. Both carry the same metadata from TOML.

mod best_effort;
mod build_backend;
mod catalog;
mod checks;
mod ci_script;
mod constant_command;
mod counterpart;
mod coverage;
mod error;
mod examples;
mod finding;
mod go_results;
mod house;
mod import_probe;
// The path glob lives at the foundation: configuration and the apiContract axis match with it too.
use crate::path_glob as glob;
mod line_facts;
mod printer;
mod published;
mod repo;
mod rule;
mod samples;
mod scan;
mod seen_before;
mod shell_set;
mod spec;
mod sql_builder;
mod sql_tag;
mod statement;
mod suppressed;
mod syntax;
mod unsafe_before;
mod workflow_reach;

pub use crate::diff::is_test_path;
pub use catalog::Catalog;
pub use checks::{CHECK_NAMES, Check};
pub use coverage::{CappedRule, Coverage, SkipReason, SkippedFile};
pub use error::RuleError;
pub use examples::ExampleProblem;
pub use finding::REVIEWER;
pub use glob::Glob;
pub use rule::{DEFAULT_CONFIDENCE, RULE_CATEGORIES, Rule, RuleMeta};
pub(crate) use samples::python_packages;
pub use scan::{ScanOptions, ScanResult};
pub use spec::ContextScope;

#[cfg(test)]
mod tests;
