//! The one redaction point. Every text that leaves the machine or lands in a file passes here
//! first: what a model is sent (brief, context, every tool result), what is posted (inline
//! comments, the summary, `review.md`), the reports (text, Markdown, JSON, SARIF), the findings
//! and reviewer messages as they enter the board (and so `state.json` and the journal), and
//! what is printed on stderr (error texts can quote a server's answer).
//!
//! Two strengths, one mechanism (the secret scanner's rules, see
//! `reviewers::deterministic::secrets`):
//! - [`outbound`] and [`outbound_json`]: every default rule (the built-ins and gitleaks'
//!   defaults). For what leaves outside a round (a posted review, a report, an error).
//! - a round's [`SecretScanner`] as a [`Redactor`]: the rules the round runs (a repository's or
//!   the person's gitleaks configuration) plus the values of the secrets the change holds, so
//!   a credential quoted back by a model is caught even where no rule would match it.
//!
//! A secret is shown as its first four characters and `…` (`redact_secret`), never more.

mod stored;

use crate::reviewers::deterministic::secrets::{SecretScanner, default_scanner};

pub use crate::reviewers::deterministic::secrets::redact_secret;
pub use stored::{redact_event, redact_json, redact_node};

/// Returns `text` with anything that must not leave the machine replaced. The agent loop and
/// the passes hold one for the round; tests may hand them [`NoRedaction`].
pub trait Redactor: Send + Sync {
    fn redact(&self, text: &str) -> String;
}

impl<F> Redactor for F
where
    F: Fn(&str) -> String + Send + Sync,
{
    fn redact(&self, text: &str) -> String {
        self(text)
    }
}

/// A round's scanner redacts with the round's rules and the change's known secret values.
impl Redactor for SecretScanner {
    fn redact(&self, text: &str) -> String {
        redact_text(text, self).0
    }
}

/// Sends text as is. Only for tests and for providers that never leave the machine.
#[derive(Debug, Clone, Copy, Default)]
pub struct NoRedaction;

impl Redactor for NoRedaction {
    fn redact(&self, text: &str) -> String {
        text.to_owned()
    }
}

/// `text` as it may leave the machine: every secret any default rule recognises replaced.
pub fn outbound(text: &str) -> String {
    redact_text(text, default_scanner()).0
}

/// A JSON document as it may leave the machine: every string redacted where it stands, so the
/// document stays valid.
pub fn outbound_json(value: &mut serde_json::Value) {
    redact_json(value, default_scanner());
}

/// Replaces every secret `scanner` recognizes in `text` by its redaction; returns the text and
/// how many secrets were replaced. Path-scoped rules are applied regardless of path (free text
/// belongs to no file, and over-redacting a prompt costs less than leaking into it).
pub fn redact_text(text: &str, scanner: &SecretScanner) -> (String, usize) {
    scanner.redact(text)
}

/// [`redact_text`] that keeps the line count: a secret spanning lines (a key block) becomes its
/// redaction on its first line and leaves the others empty, so line numbers computed on the
/// original text still point at the same lines (what the read-only tools number).
pub fn redact_text_keeping_lines(text: &str, scanner: &SecretScanner) -> (String, usize) {
    scanner.redact_keeping_lines(text)
}
