//! What a provider says while it retries: a failed attempt and the wait before the next one.
//! The HTTP providers retry inside one turn; without these notes a reviewer sitting out a
//! rate limit looks exactly like one that hangs.

use std::fmt;
use std::time::Duration;

use tokio::sync::mpsc;

/// One failed attempt that will be tried again after `wait`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RetryNote {
    /// The attempt that failed (1-based).
    pub attempt: u32,
    /// The most attempts the policy allows.
    pub of: u32,
    pub wait: Duration,
    /// Why, in our words (`HTTP 503`, `no answer within 60 s`): never the server's text.
    pub reason: String,
    /// The server asked for the wait (429, `Retry-After`, a used-up quota).
    pub rate_limited: bool,
}

impl RetryNote {
    /// The wait in whole seconds, rounded up: what every note and event shows.
    pub fn wait_secs(&self) -> u64 {
        self.wait.as_secs_f64().ceil() as u64
    }

    /// `rate limited (HTTP 429): attempt 1 of 4, again in 20 s`, the one wording of a retry.
    pub fn said(&self) -> String {
        crate::review::events::retry_note(self.attempt, self.of, self.wait_secs(), &self.reason)
    }
}

/// Where a provider sends its retry notes for one turn. Not part of what is asked: two
/// requests that differ only here are the same request (cassettes, comparisons).
#[derive(Clone, Default)]
pub struct RetryNotes(Option<mpsc::UnboundedSender<RetryNote>>);

impl RetryNotes {
    pub fn channel() -> (RetryNotes, mpsc::UnboundedReceiver<RetryNote>) {
        let (tx, rx) = mpsc::unbounded_channel();
        (RetryNotes(Some(tx)), rx)
    }

    /// Says `note` to whoever listens; nobody listening is fine.
    pub fn say(&self, note: RetryNote) {
        if let Some(tx) = &self.0 {
            let _ = tx.send(note);
        }
    }
}

impl PartialEq for RetryNotes {
    fn eq(&self, _: &RetryNotes) -> bool {
        true
    }
}

impl fmt::Debug for RetryNotes {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(if self.0.is_some() {
            "RetryNotes(listened)"
        } else {
            "RetryNotes(none)"
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notes_reach_the_listener_and_never_make_requests_differ() {
        let (notes, mut rx) = RetryNotes::channel();
        let note = RetryNote {
            attempt: 1,
            of: 4,
            wait: Duration::from_secs(2),
            reason: "HTTP 503".into(),
            rate_limited: false,
        };
        notes.say(note.clone());
        assert_eq!(rx.try_recv().unwrap(), note);
        RetryNotes::default().say(note);
        assert_eq!(notes, RetryNotes::default());
    }
}
