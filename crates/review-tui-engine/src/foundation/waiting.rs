//! One cadence for saying that a call to a server is still waiting: a model reviewer's turn and
//! a GitHub request alike. Minutes of silence look like a hang; a line every few seconds tells
//! the person which server is slow and for how long, while it lasts.

use std::future::Future;
use std::time::Duration;

/// How often a call still waiting for its server is reported: a quarter of the request timeout,
/// at least 1 s (a short timeout still gets a notice before it fires) and at most 30 s.
pub(crate) fn notice_interval(timeout: Duration) -> Duration {
    (timeout / 4).clamp(Duration::from_secs(1), Duration::from_secs(30))
}

/// Runs `work` to its end, calling `tick` with the whole seconds waited so far at every
/// `every` while it has not finished.
pub(crate) async fn noting<F: Future>(
    work: F,
    every: Duration,
    mut tick: impl FnMut(u64),
) -> F::Output {
    tokio::pin!(work);
    let started = tokio::time::Instant::now();
    let mut ticks = tokio::time::interval_at(started + every, every);
    // After a stall, one notice rather than a burst of them.
    ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Skip);
    loop {
        tokio::select! {
            out = &mut work => return out,
            _ = ticks.tick() => tick(started.elapsed().as_secs()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_interval_is_a_quarter_of_the_timeout_within_bounds() {
        assert_eq!(
            notice_interval(Duration::from_secs(60)),
            Duration::from_secs(15)
        );
        assert_eq!(
            notice_interval(Duration::from_secs(2)),
            Duration::from_secs(1)
        );
        assert_eq!(
            notice_interval(Duration::from_secs(600)),
            Duration::from_secs(30)
        );
    }

    #[tokio::test]
    async fn a_slow_call_is_noted_until_it_ends_and_a_quick_one_never() {
        use std::sync::atomic::{AtomicU32, Ordering};
        let ticks = AtomicU32::new(0);
        // The work ends only once it has been noted three times: no clock is compared.
        let out = noting(
            async {
                while ticks.load(Ordering::SeqCst) < 3 {
                    tokio::time::sleep(Duration::from_millis(1)).await;
                }
                7
            },
            Duration::from_millis(5),
            |_| {
                ticks.fetch_add(1, Ordering::SeqCst);
            },
        )
        .await;
        assert_eq!(out, 7);
        // At least three: on a loaded machine one more tick may come before the work sees it.
        assert!(ticks.load(Ordering::SeqCst) >= 3);

        let mut quick = Vec::new();
        noting(async {}, Duration::from_secs(1), |secs| quick.push(secs)).await;
        assert!(quick.is_empty());
    }
}
