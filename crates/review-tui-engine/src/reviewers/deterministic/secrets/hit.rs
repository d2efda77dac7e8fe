//! What the scan reports of one secret. Its own module because the scanner makes hits and
//! `.gitleaksignore` entries judge them, and the scanner applies those entries.

use crate::diff::Side;

/// One secret found in the changed lines. It holds no raw secret: only its redaction and the
/// anchored lines with every recognized secret redacted.
#[derive(Debug, Clone, PartialEq)]
pub struct SecretHit {
    /// `secret/<name>`.
    pub rule: String,
    /// The rule's name in its source (the gitleaks id), what `.gitleaksignore` names.
    pub source_id: String,
    pub label: String,
    pub description: String,
    pub path: String,
    pub side: Side,
    pub start_line: u32,
    pub end_line: u32,
    /// `redact_secret` of the secret.
    pub redacted: String,
    /// The full anchored line(s), secrets redacted; long lines are cut around the secret.
    pub evidence: String,
    pub confidence: f64,
}
