//! The one retry policy of every network client (the forges, the model providers): how many
//! tries, the doubling backoff, the cap on any single wait, and the clock rate-limit resets are
//! read against. Which answers are worth another try, and what a server asks to wait, are the
//! client's own (each reads its own headers); how long to wait is decided here.

use std::time::Duration;

/// Bounded retries: `max_attempts` tries, waiting the server's hint or a doubling backoff,
/// never longer than `max_wait` at a time.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RetryPolicy {
    /// Total tries per call, the first included. `1` disables retrying.
    pub max_attempts: u32,
    /// The first wait when the server gave no hint; it doubles on each retry.
    pub base_backoff: Duration,
    /// No single wait is longer than this, whatever the server asks: a run should fail with a
    /// clear error rather than hang for the hour a used-up quota can take to reset.
    pub max_wait: Duration,
}

impl Default for RetryPolicy {
    fn default() -> Self {
        RetryPolicy {
            max_attempts: 4,
            base_backoff: Duration::from_secs(1),
            max_wait: Duration::from_secs(60),
        }
    }
}

impl RetryPolicy {
    /// The wait after `attempt` (1-based) failed: what the server asked (`asked`) if it asked,
    /// else the doubling backoff; capped at `max_wait`.
    pub fn delay(&self, attempt: u32, asked: Option<Duration>) -> Duration {
        asked
            .unwrap_or_else(|| self.backoff(attempt))
            .min(self.max_wait)
    }

    fn backoff(&self, attempt: u32) -> Duration {
        let doublings = attempt.saturating_sub(1).min(16);
        self.base_backoff.saturating_mul(1 << doublings)
    }
}

/// Now, in the epoch seconds rate-limit resets are given in.
pub fn now_epoch() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

/// The last instant an RFC 3339 time can name: 9999-12-31 23:59:59 UTC.
const LAST_NAMEABLE_EPOCH: u64 = 253_402_300_799;

/// A rate limit's reset instant for people: `2026-01-02 03:04:05 UTC`. The instant is a
/// server's number: one past year 9999 is shown as the last second of it, never a crash.
pub fn utc_time(epoch_secs: u64) -> String {
    let at = std::time::UNIX_EPOCH + Duration::from_secs(epoch_secs.min(LAST_NAMEABLE_EPOCH));
    humantime::format_rfc3339_seconds(at)
        .to_string()
        .replace('T', " ")
        .replace('Z', " UTC")
}

/// A wait in whole seconds, rounded up: "retry at" must never be too early.
pub fn whole_seconds(wait: Duration) -> u64 {
    wait.as_secs() + u64::from(wait.subsec_nanos() > 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_backoff_doubles_a_hint_wins_and_every_wait_is_capped() {
        let policy = RetryPolicy {
            max_attempts: 10,
            base_backoff: Duration::from_millis(100),
            max_wait: Duration::from_secs(60),
        };
        let waits: Vec<_> = (1..=4).map(|a| policy.delay(a, None)).collect();
        assert_eq!(
            waits,
            [100, 200, 400, 800].map(Duration::from_millis).to_vec()
        );
        assert_eq!(
            policy.delay(3, Some(Duration::from_secs(7))),
            Duration::from_secs(7)
        );
        assert_eq!(
            policy.delay(1, Some(Duration::from_secs(600))),
            Duration::from_secs(60)
        );
        assert_eq!(policy.delay(40, None), Duration::from_secs(60));
    }

    #[test]
    fn reset_instants_are_shown_in_utc_and_waits_round_up() {
        assert_eq!(utc_time(1_700_000_000), "2023-11-14 22:13:20 UTC");
        assert_eq!(utc_time(u64::MAX), "9999-12-31 23:59:59 UTC");
        assert_eq!(whole_seconds(Duration::from_millis(1500)), 2);
        assert_eq!(whole_seconds(Duration::from_secs(3)), 3);
    }
}
