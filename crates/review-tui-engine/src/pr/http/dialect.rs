//! What one service says its own way, for the one request loop (`exchange`): which refusals
//! mean "not done, try again later", and how its error bodies read. Everything else about a
//! call (the retries, the waits, the pages, the limits) is the same for every service.

use super::retry::RateHints;

/// A service's words, as the request loop needs them.
pub(crate) trait Dialect: Send + Sync {
    /// Whether a failure `status` (with its rate-limit headers and its body) is the forge
    /// refusing the call before doing anything, asking to be tried later: such a call is
    /// repeated whatever its method, and its limit's reset is waited for or reported.
    fn refused_for_now(&self, status: u16, hints: &RateHints, body: &str) -> bool;

    /// The error body's message and, where the forge lists them, its details (each one text).
    /// `None` when the body is not in the forge's shape: the loop then shows its start.
    fn error_text(&self, body: &str) -> Option<ErrorText>;
}

/// What an error body says.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct ErrorText {
    pub message: String,
    /// What a refusal is really about, where the message is only its status (GitHub's 422).
    pub details: Vec<String>,
}

/// GitLab's and Gitea's (and Forgejo's) words: `429 Too Many Requests` is their only "try
/// later" (with `Retry-After` and `RateLimit-*`), and an error body is `{"message": …}` (a
/// string, a list, or an object of lists) or `{"error": …}`.
#[derive(Debug, Clone, Copy)]
pub(crate) struct MessageDialect;

impl Dialect for MessageDialect {
    fn refused_for_now(&self, status: u16, _hints: &RateHints, _body: &str) -> bool {
        status == 429
    }

    fn error_text(&self, body: &str) -> Option<ErrorText> {
        let value = serde_json::from_str::<serde_json::Value>(body).ok()?;
        let said = value.get("message").or_else(|| value.get("error"))?;
        Some(ErrorText {
            message: flatten_message(said),
            details: Vec::new(),
        })
    }
}

/// A message of any of the shapes forges use, as one line: `"text"`, `["a", "b"]`,
/// `{"note": ["is too long"]}` → `note is too long`.
fn flatten_message(value: &serde_json::Value) -> String {
    use serde_json::Value;
    match value {
        Value::String(text) => text.clone(),
        Value::Array(items) => items
            .iter()
            .map(flatten_message)
            .collect::<Vec<_>>()
            .join("; "),
        Value::Object(fields) => fields
            .iter()
            .map(|(key, value)| format!("{key} {}", flatten_message(value)))
            .collect::<Vec<_>>()
            .join("; "),
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_message_shape_is_one_line() {
        let of = |text: &str| flatten_message(&serde_json::from_str(text).unwrap());
        assert_eq!(of(r#""403 Forbidden""#), "403 Forbidden");
        assert_eq!(
            of(r#"{"note": ["is too long", "is blank"]}"#),
            "note is too long; is blank"
        );
        assert_eq!(of(r#"["a", "b"]"#), "a; b");
    }

    #[test]
    fn only_a_429_is_a_refusal_for_now_and_odd_bodies_say_nothing() {
        let none = RateHints::default();
        assert!(MessageDialect.refused_for_now(429, &none, ""));
        assert!(!MessageDialect.refused_for_now(403, &none, ""));
        assert!(!MessageDialect.refused_for_now(503, &none, ""));
        assert_eq!(MessageDialect.error_text("<html>"), None);
        assert_eq!(MessageDialect.error_text(r#"{"url": "x"}"#), None);
        assert_eq!(
            MessageDialect.error_text(r#"{"error": "insufficient_scope"}"#),
            Some(ErrorText {
                message: "insufficient_scope".into(),
                details: vec![],
            })
        );
    }
}
