//! What the request loop says while a call is slow or waits to be tried again, so a hanging
//! server or a rate limit is seen while it lasts, not after minutes of silence: a forge's
//! client says it as a [`Notice`], a model provider as its reviewer's retry note; both word a
//! [`RetryCause`] alike.
//!
//! Notices name the call (method, path and host: never a query or a token), like the errors.

use std::fmt;
use std::time::Duration;

use super::Call;

/// Why a try failed and is made again, in our words: never the server's text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum RetryCause {
    /// A failure status; `rate_limited` when the server asked for the wait (429,
    /// `Retry-After`, a used-up limit).
    Status { code: u16, rate_limited: bool },
    /// No answer within the call's timeout.
    NoAnswer { within: Duration },
    /// The connection could not be made.
    NoConnection,
    /// The request failed on the way, after connecting.
    ConnectionFailed,
    /// The answer's body broke off while it arrived.
    BrokeOff,
    /// A JSON answer stopped mid-document.
    CutShort,
}

impl RetryCause {
    /// Whether the server asked for the wait.
    pub(crate) fn rate_limited(&self) -> bool {
        matches!(
            self,
            RetryCause::Status {
                rate_limited: true,
                ..
            }
        )
    }
}

impl fmt::Display for RetryCause {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RetryCause::Status {
                code,
                rate_limited: true,
            } => write!(f, "rate limited (HTTP {code})"),
            RetryCause::Status { code, .. } => write!(f, "HTTP {code}"),
            RetryCause::NoAnswer { within } => write!(f, "no answer within {} s", within.as_secs()),
            RetryCause::NoConnection => f.write_str("could not connect"),
            RetryCause::ConnectionFailed => f.write_str("the connection failed"),
            RetryCause::BrokeOff => f.write_str("the answer broke off"),
            RetryCause::CutShort => f.write_str("the answer was cut short"),
        }
    }
}

/// One failed try of `call` about to be made again after `wait`: what the loop tells its
/// listener before it waits.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Retrying<'a> {
    pub call: &'a Call,
    pub cause: RetryCause,
    pub wait: Duration,
    /// The attempt that failed (1-based), and the most there will be.
    pub attempt: u32,
    pub max_attempts: u32,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Notice {
    /// No answer yet (or, `arriving`, an answer whose body is still coming), `waited_secs`
    /// into the wait.
    Waiting {
        /// The forge's name: `GitHub`, `Gitea`.
        forge: &'static str,
        call: Call,
        waited_secs: u64,
        arriving: bool,
    },
    /// The call failed and is tried again after `wait_secs`.
    Retrying {
        forge: &'static str,
        call: Call,
        cause: RetryCause,
        wait_secs: u64,
        /// The attempt about to be made, and the most there will be.
        next_attempt: u32,
        max_attempts: u32,
    },
}

impl fmt::Display for Notice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Notice::Waiting {
                forge,
                call,
                waited_secs,
                arriving,
            } => {
                let state = if *arriving {
                    "the answer is still arriving"
                } else {
                    "no answer yet"
                };
                write!(f, "waiting for {forge} ({call}): {waited_secs} s, {state}")
            }
            Notice::Retrying {
                forge,
                call,
                cause,
                wait_secs,
                next_attempt,
                max_attempts,
            } => write!(
                f,
                "{forge} ({call}): {cause}; trying again in {wait_secs} s \
                 (attempt {next_attempt} of {max_attempts})"
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notices_name_the_call_and_never_more() {
        let call = Call::new("GET", "/repos/o/r/pulls/7", "127.0.0.1:8080");
        let waiting = Notice::Waiting {
            forge: "GitHub",
            call: call.clone(),
            waited_secs: 15,
            arriving: false,
        };
        assert_eq!(
            waiting.to_string(),
            "waiting for GitHub (GET /repos/o/r/pulls/7 on 127.0.0.1:8080): 15 s, no answer yet"
        );
        let retrying = Notice::Retrying {
            forge: "GitHub",
            call,
            cause: RetryCause::Status {
                code: 502,
                rate_limited: false,
            },
            wait_secs: 2,
            next_attempt: 2,
            max_attempts: 4,
        };
        assert_eq!(
            retrying.to_string(),
            "GitHub (GET /repos/o/r/pulls/7 on 127.0.0.1:8080): HTTP 502; trying again in \
             2 s (attempt 2 of 4)"
        );
        let limited = RetryCause::Status {
            code: 429,
            rate_limited: true,
        };
        assert_eq!(limited.to_string(), "rate limited (HTTP 429)");
        assert!(limited.rate_limited());
        let slow = RetryCause::NoAnswer {
            within: Duration::from_secs(60),
        };
        assert_eq!(slow.to_string(), "no answer within 60 s");
        assert!(!slow.rate_limited());
    }
}
