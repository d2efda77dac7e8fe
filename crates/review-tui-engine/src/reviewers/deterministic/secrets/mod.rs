//! The secret scan: built-in rules and gitleaks configurations run over the changed lines, and
//! findings as P0 security nodes whose evidence and fingerprint never hold the secret. The same
//! rules drive the redaction every outbound text passes (`crate::reviewers::redact`).

mod armour;
mod builtin;
mod checksum;
mod docs_site;
mod entropy;
mod gitleaks_cli;
mod gitleaks_config;
mod hit;
mod ignore;
mod jwt;
mod mask;
mod node;
mod re2;
mod report_upload;
mod rule;
mod sample_keys;
mod scanner;
mod setup;

pub use crate::diff::sample_dir;
pub use armour::public_armour_lines;
pub use builtin::is_placeholder;
pub use entropy::shannon;
pub use gitleaks_cli::{
    GITLEAKS, GitleaksFinding, GitleaksRun, ReportError, parse_report, report_to_nodes,
    run_gitleaks,
};
pub use gitleaks_config::{
    ConfigError, GITLEAKS_DEFAULT_TOML, LoadedConfig, RuleProblem, default_scanner,
    load_gitleaks_config,
};
pub use ignore::{GITLEAKSIGNORE, IgnoreEntry, parse_gitleaksignore};
pub use mask::redact_secret;
pub use node::{SECRET_SCAN, fixture_dir, settle_keys_read_by_tests, to_nodes, to_nodes_reading};
pub use rule::{Allowlist, Condition, RegexTarget, RuleRegex, SecretGroup, SecretRule};
pub use sample_keys::{KeyOrigin, settle_sample_keys};
pub use scanner::{GITLEAKS_ALLOW, SecretHit, SecretScanner};
pub use setup::{
    GITLEAKS_CONFIG_ENV, GITLEAKS_CONFIG_TOML_ENV, GITLEAKS_TOML, SecretSetup, SetupError,
    UserConfig,
};

#[cfg(test)]
mod tests;
