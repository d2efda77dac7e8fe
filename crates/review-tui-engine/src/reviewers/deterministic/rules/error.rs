//! What can go wrong loading a rule file. Every error names the file; errors about one rule
//! also name the rule id and the field, so a user can fix their file without guessing.

use thiserror::Error;

#[derive(Debug, Error)]
pub enum RuleError {
    /// The file is not valid TOML, or not shaped like a rule file at all.
    #[error("{origin}: {reason}")]
    File { origin: String, reason: String },
    /// One field of one rule is missing or wrong.
    #[error("{origin}: rule `{rule}`: `{field}`: {reason}")]
    Field {
        origin: String,
        rule: String,
        field: String,
        reason: String,
    },
    #[error("could not read rule file {path}: {source}")]
    Read {
        path: String,
        #[source]
        source: std::io::Error,
    },
}

impl RuleError {
    pub(crate) fn field(
        origin: &str,
        rule: &str,
        field: &str,
        reason: impl Into<String>,
    ) -> RuleError {
        RuleError::Field {
            origin: origin.to_string(),
            rule: rule.to_string(),
            field: field.to_string(),
            reason: reason.into(),
        }
    }
}
