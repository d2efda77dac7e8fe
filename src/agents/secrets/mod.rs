//! The secret scan: built-in rules and gitleaks configurations run over the changed lines,
//! findings as P0 security nodes whose evidence and fingerprint never hold the secret, and the
//! redaction every text passes through before it reaches a model, a report or a comment.

mod builtin;
mod entropy;
mod gitleaks_cli;
mod gitleaks_config;
mod node;
mod re2;
mod redact;
mod rule;
mod scanner;

pub use builtin::is_placeholder;
pub use entropy::shannon;
pub use gitleaks_cli::{
    GITLEAKS, GitleaksFinding, GitleaksRun, parse_report, report_to_nodes, run_gitleaks,
};
pub use gitleaks_config::{ConfigError, LoadedConfig, RuleProblem, load_gitleaks_config};
pub use node::{SECRET_SCAN, to_nodes};
pub use redact::{redact_builtin, redact_secret, redact_text, redact_text_keeping_lines};
pub use rule::{Allowlist, Condition, RegexTarget, SecretGroup, SecretRule};
pub use scanner::{SecretHit, SecretScanner};

#[cfg(test)]
mod tests;
