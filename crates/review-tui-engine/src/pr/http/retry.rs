//! When a forge's call is worth trying again, and what the forge asked to wait (its
//! `Retry-After` and rate-limit headers); how long to wait is the one policy's
//! ([`crate::retry::RetryPolicy`]).
//!
//! Pure functions over the status and headers, so they are tested without a clock.

use std::time::Duration;

/// The rate-limit headers of one response.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct RateHints {
    /// `Retry-After`, in seconds (GitHub never sends the HTTP-date form).
    pub retry_after_secs: Option<u64>,
    /// `x-ratelimit-remaining`.
    pub remaining: Option<u64>,
    /// `x-ratelimit-reset`, seconds since the Unix epoch.
    pub reset_epoch: Option<u64>,
}

impl RateHints {
    pub(crate) fn from_headers(headers: &reqwest::header::HeaderMap) -> Self {
        let number = |name: &str| {
            headers
                .get(name)
                .and_then(|v| v.to_str().ok())
                .and_then(|v| v.trim().parse::<u64>().ok())
        };
        RateHints {
            retry_after_secs: number("retry-after"),
            // GitHub's `x-ratelimit-*`; GitLab's and Gitea's `RateLimit-*`.
            remaining: number("x-ratelimit-remaining").or_else(|| number("ratelimit-remaining")),
            reset_epoch: number("x-ratelimit-reset").or_else(|| number("ratelimit-reset")),
        }
    }

    /// When the primary limit is used up (`x-ratelimit-remaining: 0` with a reset): the reset
    /// instant and how long until then.
    pub(crate) fn exhausted_until(&self, now_epoch_secs: u64) -> Option<(u64, Duration)> {
        let reset = self.reset_epoch.filter(|_| self.remaining == Some(0))?;
        Some((
            reset,
            Duration::from_secs(reset.saturating_sub(now_epoch_secs)),
        ))
    }

    /// The wait the forge asked for: `Retry-After`, else the time until a used-up limit resets.
    pub(crate) fn asked_wait(&self, now_epoch_secs: u64) -> Option<Duration> {
        self.retry_after_secs.map(Duration::from_secs).or_else(|| {
            (self.remaining == Some(0))
                .then_some(self.reset_epoch)
                .flatten()
                .map(|reset| Duration::from_secs(reset.saturating_sub(now_epoch_secs)))
        })
    }

    /// Whether the headers say a limit holds the call back: a wait was asked, or the limit
    /// is used up.
    pub(crate) fn rate_limited(&self) -> bool {
        self.retry_after_secs.is_some() || self.remaining == Some(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::retry::{RetryPolicy, utc_time};

    const NOW: u64 = 1_700_000_000;

    fn hints(retry_after: Option<u64>, remaining: Option<u64>, reset: Option<u64>) -> RateHints {
        RateHints {
            retry_after_secs: retry_after,
            remaining,
            reset_epoch: reset,
        }
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
