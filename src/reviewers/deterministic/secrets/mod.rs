//! The secret scan: built-in rules and gitleaks configurations run over the changed lines,
//! findings as P0 security nodes whose evidence and fingerprint never hold the secret, and the
//! redaction every text passes through before it reaches a model, a report or a comment.

mod builtin;
mod entropy;
mod gitleaks_cli;
mod gitleaks_config;
mod ignore;
mod node;
mod re2;
mod redact;
mod rule;
mod scanner;
mod setup;
mod stored;

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
pub use node::{SECRET_SCAN, to_nodes};
pub use redact::{redact_builtin, redact_secret, redact_text, redact_text_keeping_lines};
pub use rule::{Allowlist, Condition, RegexTarget, RuleRegex, SecretGroup, SecretRule};
pub use scanner::{GITLEAKS_ALLOW, SecretHit, SecretScanner};
pub use setup::{
    GITLEAKS_CONFIG_ENV, GITLEAKS_CONFIG_TOML_ENV, GITLEAKS_TOML, SecretSetup, SetupError,
    UserConfig,
};
pub use stored::{redact_event, redact_json, redact_node};

#[cfg(test)]
mod tests;
