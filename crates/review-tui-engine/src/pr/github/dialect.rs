//! How GitHub says what the shared request loop needs to know in its own words.

use super::wire::ErrorBody;
use crate::pr::http::{Dialect, ErrorText, RateHints};

/// GitHub's words: a rate limit is refused with 429 or 403 (the secondary limit with
/// `Retry-After` or only its message, the primary with `x-ratelimit-remaining: 0`), while any
/// other 403 is a permission that waiting will not grant; an error body is
/// `{"message": …, "errors": […]}`, where a 422's reason is in `errors`.
#[derive(Debug, Clone, Copy)]
pub(super) struct GithubDialect;

impl Dialect for GithubDialect {
    fn refused_for_now(&self, status: u16, hints: &RateHints, body: &str) -> bool {
        match status {
            429 => true,
            403 => hints.rate_limited() || names_a_rate_limit(body),
            _ => false,
        }
    }

    fn error_text(&self, body: &str) -> Option<ErrorText> {
        let body = serde_json::from_str::<ErrorBody>(body).ok()?;
        Some(ErrorText {
            message: body.describe()?,
            details: body.details(),
        })
    }
}

/// GitHub's secondary limit can come without any header ("You have exceeded a secondary rate
/// limit"), and so can a primary limit behind a proxy that drops them.
fn names_a_rate_limit(body: &str) -> bool {
    let message = serde_json::from_str::<ErrorBody>(body)
        .ok()
        .and_then(|b| b.message)
        .unwrap_or_default()
        .to_ascii_lowercase();
    message.contains("secondary rate limit") || message.contains("api rate limit exceeded")
}

#[cfg(test)]
mod tests {
    use super::*;

    const NOW: u64 = 1_700_000_000;

    fn hints(retry_after: Option<u64>, remaining: Option<u64>, reset: Option<u64>) -> RateHints {
        RateHints {
            retry_after: retry_after.map(std::time::Duration::from_secs),
            used_up: remaining == Some(0),
            reset_epoch: reset,
        }
    }

    #[test]
    fn only_a_rate_limit_is_refused_for_now() {
        let none = RateHints::default();
        let refused =
            |status, hints: &RateHints, body| GithubDialect.refused_for_now(status, hints, body);
        assert!(refused(429, &none, ""));
        assert!(
            !refused(403, &none, ""),
            "a plain 403 is a permission problem"
        );
        assert!(!refused(
            403,
            &none,
            r#"{"message": "Resource not accessible by integration"}"#
        ));
        assert!(refused(403, &hints(Some(30), None, None), ""));
        assert!(refused(403, &hints(None, Some(0), Some(NOW + 5)), ""));
        assert!(!refused(403, &hints(None, Some(12), Some(NOW + 5)), ""));
        assert!(refused(
            403,
            &none,
            r#"{"message": "You have exceeded a secondary rate limit. Please wait a few minutes before you try again."}"#
        ));
        for status in [401, 404, 422, 500, 502] {
            assert!(!refused(status, &none, ""), "{status}");
        }
    }

    #[test]
    fn a_422_reads_its_errors() {
        let said = GithubDialect
            .error_text(
                r#"{"message": "Validation Failed", "errors": [{"resource": "PullRequestReviewComment", "code": "custom", "field": "pull_request_review_thread.line", "message": "could not be resolved"}, "Line must be part of the diff"]}"#,
            )
            .unwrap();
        assert_eq!(
            said.details,
            ["could not be resolved", "Line must be part of the diff"]
        );
        assert!(said.message.starts_with("Validation Failed: could not be"));
        assert_eq!(GithubDialect.error_text("<html>"), None);
        assert_eq!(GithubDialect.error_text("{}"), None);
    }
}
