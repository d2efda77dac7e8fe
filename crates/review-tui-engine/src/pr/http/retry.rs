//! When a call is worth trying again, and what the server asked to wait: its `Retry-After`
//! and rate-limit headers, in each service's spelling (GitHub's `x-ratelimit-*`, GitLab's and
//! Gitea's `RateLimit-*`, OpenAI's `retry-after-ms` and per-requests and per-tokens limits);
//! how long to wait is the one policy's ([`crate::retry::RetryPolicy`]).
//!
//! Pure functions over the headers and a given instant, so they are tested without a clock.

use std::time::Duration;

use crate::retry::whole_seconds;

/// The remaining-calls and reset headers of each limit a service may send: GitHub's,
/// GitLab's and Gitea's, and OpenAI's limits on requests and on tokens.
const LIMITS: [(&str, &str); 4] = [
    ("x-ratelimit-remaining", "x-ratelimit-reset"),
    ("ratelimit-remaining", "ratelimit-reset"),
    (
        "x-ratelimit-remaining-requests",
        "x-ratelimit-reset-requests",
    ),
    ("x-ratelimit-remaining-tokens", "x-ratelimit-reset-tokens"),
];

/// A reset this large is an instant (seconds since the epoch), a smaller one a wait.
const EPOCH_RESETS_FROM: u64 = 1_000_000_000;

/// The rate-limit headers of one response.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct RateHints {
    /// `retry-after-ms` (OpenAI), else `Retry-After` in seconds, fractions allowed. (The
    /// HTTP-date form is not worth a date parser: the backoff covers it.)
    pub retry_after: Option<Duration>,
    /// A limit is used up: its remaining count is 0.
    pub used_up: bool,
    /// When that limit resets, seconds since the Unix epoch, where it says.
    pub reset_epoch: Option<u64>,
}

impl RateHints {
    /// The hints of `headers`, a relative reset read against `now_epoch_secs`.
    pub(crate) fn from_headers(headers: &reqwest::header::HeaderMap, now_epoch_secs: u64) -> Self {
        let text = |name: &str| {
            headers
                .get(name)
                .and_then(|v| v.to_str().ok())
                .map(str::trim)
        };
        let seconds = |value: &str| {
            value
                .parse::<f64>()
                .ok()
                .and_then(|secs| Duration::try_from_secs_f64(secs).ok())
        };
        let retry_after = match text("retry-after-ms").and_then(seconds) {
            Some(thousands) => Some(thousands / 1000),
            None => text("retry-after").and_then(seconds),
        };
        // The first used-up limit whose reset reads; else any used-up limit.
        let used_up: Vec<Option<u64>> = LIMITS
            .iter()
            .filter(|(remaining, _)| {
                text(remaining)
                    .and_then(|v| v.parse::<f64>().ok())
                    .is_some_and(|left| left <= 0.0)
            })
            .map(|(_, reset)| text(reset).and_then(|r| reset_epoch(r, now_epoch_secs)))
            .collect();
        RateHints {
            retry_after,
            used_up: !used_up.is_empty(),
            reset_epoch: used_up.into_iter().flatten().next(),
        }
    }

    /// When a limit is used up and says when it resets: the reset instant and how long until
    /// then.
    pub(crate) fn exhausted_until(&self, now_epoch_secs: u64) -> Option<(u64, Duration)> {
        let reset = self.reset_epoch.filter(|_| self.used_up)?;
        Some((
            reset,
            Duration::from_secs(reset.saturating_sub(now_epoch_secs)),
        ))
    }

    /// The wait the server asked for: `Retry-After`, else the time until a used-up limit
    /// resets.
    pub(crate) fn asked_wait(&self, now_epoch_secs: u64) -> Option<Duration> {
        self.retry_after
            .or_else(|| self.exhausted_until(now_epoch_secs).map(|(_, wait)| wait))
    }

    /// Whether the headers say a limit holds the call back: a wait was asked, or a limit is
    /// used up.
    pub(crate) fn rate_limited(&self) -> bool {
        self.retry_after.is_some() || self.used_up
    }
}

/// A reset as an instant: seconds since the epoch (GitHub, GitLab), seconds from now, or a
/// duration such as `6m0s` or `20ms` (OpenAI).
fn reset_epoch(reset: &str, now_epoch_secs: u64) -> Option<u64> {
    let wait = match reset.parse::<u64>() {
        Ok(epoch) if epoch >= EPOCH_RESETS_FROM => return Some(epoch),
        Ok(secs) => Duration::from_secs(secs),
        Err(_) => humantime::parse_duration(reset).ok()?,
    };
    Some(now_epoch_secs.saturating_add(whole_seconds(wait)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::retry::{RetryPolicy, utc_time};

    const NOW: u64 = 1_700_000_000;

    fn hints(retry_after: Option<u64>, remaining: Option<u64>, reset: Option<u64>) -> RateHints {
        RateHints {
            retry_after: retry_after.map(Duration::from_secs),
            used_up: remaining == Some(0),
            reset_epoch: reset,
        }
    }

    fn headers(pairs: &[(&'static str, &'static str)]) -> reqwest::header::HeaderMap {
        let mut map = reqwest::header::HeaderMap::new();
        for (name, value) in pairs {
            map.insert(*name, reqwest::header::HeaderValue::from_static(value));
        }
        map
    }

    #[test]
    fn retry_after_is_read_in_seconds_or_milliseconds() {
        let read = |pairs| RateHints::from_headers(&headers(pairs), NOW).retry_after;
        assert_eq!(read(&[("retry-after", "3")]), Some(Duration::from_secs(3)));
        assert_eq!(
            read(&[("retry-after", "1.5")]),
            Some(Duration::from_millis(1500))
        );
        assert_eq!(
            read(&[("retry-after", "3"), ("retry-after-ms", "250")]),
            Some(Duration::from_millis(250))
        );
        assert_eq!(
            read(&[("retry-after", "Wed, 21 Oct 2015 07:28:00 GMT")]),
            None
        );
        assert_eq!(read(&[("retry-after", "-1")]), None);
    }

    #[test]
    fn every_service_s_used_up_limit_knows_its_reset() {
        let until = |pairs| RateHints::from_headers(&headers(pairs), NOW).exhausted_until(NOW);
        let github = [
            ("x-ratelimit-remaining", "0"),
            ("x-ratelimit-reset", "1700000090"),
        ];
        assert_eq!(until(&github), Some((NOW + 90, Duration::from_secs(90))));
        let gitlab = [
            ("ratelimit-remaining", "0"),
            ("ratelimit-reset", "1700000030"),
        ];
        assert_eq!(until(&gitlab), Some((NOW + 30, Duration::from_secs(30))));
        let openai = [
            ("x-ratelimit-remaining-requests", "3"),
            ("x-ratelimit-reset-requests", "1s"),
            ("x-ratelimit-remaining-tokens", "0"),
            ("x-ratelimit-reset-tokens", "6m0s"),
        ];
        assert_eq!(until(&openai), Some((NOW + 360, Duration::from_secs(360))));
        let in_seconds = [("x-ratelimit-remaining", "0"), ("x-ratelimit-reset", "20")];
        assert_eq!(
            until(&in_seconds),
            Some((NOW + 20, Duration::from_secs(20)))
        );
        let left = [
            ("x-ratelimit-remaining", "4"),
            ("x-ratelimit-reset", "1700000090"),
        ];
        assert_eq!(until(&left), None);
        assert_eq!(until(&[]), None);
        // Used up without a readable reset: held back, with no instant to wait for.
        let unknown = RateHints::from_headers(&headers(&[("x-ratelimit-remaining", "0")]), NOW);
        assert!(unknown.rate_limited());
        assert_eq!(unknown.exhausted_until(NOW), None);
    }

    #[test]
    fn a_limit_holds_back_when_a_wait_is_asked_or_nothing_remains() {
        assert!(!RateHints::default().rate_limited());
        assert!(hints(Some(30), None, None).rate_limited());
        assert!(hints(None, Some(0), Some(NOW + 5)).rate_limited());
        assert!(!hints(None, Some(12), Some(NOW + 5)).rate_limited());
    }

    #[test]
    fn retry_after_is_honoured() {
        let policy = RetryPolicy::default();
        let wait = policy.delay(1, hints(Some(7), None, None).asked_wait(NOW));
        assert_eq!(wait, Duration::from_secs(7));
    }

    #[test]
    fn exhausted_limit_waits_until_reset() {
        let policy = RetryPolicy::default();
        let wait = policy.delay(1, hints(None, Some(0), Some(NOW + 42)).asked_wait(NOW));
        assert_eq!(wait, Duration::from_secs(42));
        let past = policy.delay(1, hints(None, Some(0), Some(NOW - 3)).asked_wait(NOW));
        assert_eq!(past, Duration::ZERO);
    }

    #[test]
    fn reset_is_ignored_while_requests_remain() {
        let policy = RetryPolicy::default();
        let wait = policy.delay(1, hints(None, Some(10), Some(NOW + 42)).asked_wait(NOW));
        assert_eq!(wait, Duration::from_secs(1));
    }

    #[test]
    fn reset_instants_are_shown_in_utc() {
        assert_eq!(utc_time(NOW), "2023-11-14 22:13:20 UTC");
    }

    #[test]
    fn an_exhausted_limit_knows_its_reset() {
        let used_up = hints(None, Some(0), Some(NOW + 90));
        assert_eq!(
            used_up.exhausted_until(NOW),
            Some((NOW + 90, Duration::from_secs(90)))
        );
        assert_eq!(
            used_up.exhausted_until(NOW + 100),
            Some((NOW + 90, Duration::ZERO))
        );
        assert_eq!(
            hints(None, Some(3), Some(NOW + 90)).exhausted_until(NOW),
            None
        );
        assert_eq!(hints(Some(5), None, None).exhausted_until(NOW), None);
    }

    #[test]
    fn backoff_doubles_without_hints() {
        let policy = RetryPolicy {
            max_attempts: 10,
            base_backoff: Duration::from_millis(100),
            max_wait: Duration::from_secs(60),
        };
        let none = RateHints::default();
        let waits: Vec<_> = (1..=4)
            .map(|a| policy.delay(a, none.asked_wait(NOW)))
            .collect();
        assert_eq!(
            waits,
            [100, 200, 400, 800].map(Duration::from_millis).to_vec()
        );
    }

    #[test]
    fn every_wait_is_capped() {
        let policy = RetryPolicy::default();
        let hour = policy.delay(1, hints(None, Some(0), Some(NOW + 3600)).asked_wait(NOW));
        assert_eq!(hour, Duration::from_secs(60));
        let asked = policy.delay(1, hints(Some(600), None, None).asked_wait(NOW));
        assert_eq!(asked, Duration::from_secs(60));
        let backoff = policy.delay(40, RateHints::default().asked_wait(NOW));
        assert_eq!(backoff, Duration::from_secs(60));
    }
}
