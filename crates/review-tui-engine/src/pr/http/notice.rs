//! What a forge's client says while a call is slow or waits to be tried again, so a hanging
//! API server or a rate limit is seen while it lasts, not after minutes of silence.
//!
//! Notices name the call (method, path and host: never a query or a token), like the errors.

use std::fmt;

use super::Call;

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
        /// What went wrong: "answered 502", "rate limited (429)", "the connection failed".
        cause: String,
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
            cause: "answered 502".into(),
            wait_secs: 2,
            next_attempt: 2,
            max_attempts: 4,
        };
        assert_eq!(
            retrying.to_string(),
            "GitHub (GET /repos/o/r/pulls/7 on 127.0.0.1:8080): answered 502; trying again in \
             2 s (attempt 2 of 4)"
        );
    }
}
