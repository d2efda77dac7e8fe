//! An error and its causes as one line, each cause said once.
//!
//! Many errors already quote their cause in their own message (`space {path}: {source}`, or
//! hyper's `tcp connect error: Connection refused`) *and* return it from `source()`, so a
//! plain walk down the chain prints it twice (`Permission denied (os error 13): Permission
//! denied (os error 13)`). A cause whose text is already in the line adds nothing and is left
//! out; nothing is lost, because its words are already there.

use std::error::Error;

/// `error`'s message followed by each cause not already said, joined by `": "`.
pub fn chain(error: &(dyn Error + 'static)) -> String {
    let mut out = String::new();
    let mut next = Some(error);
    while let Some(cause) = next {
        push_once(&mut out, &cause.to_string());
        next = cause.source();
    }
    out
}

fn push_once(out: &mut String, text: &str) {
    let text = text.trim();
    if text.is_empty() || out.contains(text) {
        return;
    }
    if !out.is_empty() {
        out.push_str(": ");
    }
    out.push_str(text);
}

/// Where a request ran out of time: the advice differs. A server that never answers is down or
/// stuck (waiting longer does not help); one whose answer is still arriving is slow (a longer
/// timeout does).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TimedOut {
    /// The connection was never accepted.
    Connecting,
    /// Connected and sent, but no answer (not even its status line) came.
    NoAnswer,
    /// The answer began and was still arriving.
    SlowAnswer,
}

impl TimedOut {
    /// From what the HTTP client says (`connecting`) and whether the answer had begun.
    pub fn of(connecting: bool, answer_began: bool) -> TimedOut {
        if answer_began {
            TimedOut::SlowAnswer
        } else if connecting {
            TimedOut::Connecting
        } else {
            TimedOut::NoAnswer
        }
    }

    /// "… within 5m: the server accepted the connection but never answered; check that it is up
    /// (…)": what happened and what to do; `raise` names the setting that lengthens the wait.
    pub fn advice(self, timeout: std::time::Duration, server: &str, raise: &str) -> String {
        let timeout = humantime::format_duration(timeout);
        match self {
            TimedOut::Connecting => format!(
                "could not connect: {server} did not accept the connection; check that it is up \
                 and that the URL names it"
            ),
            TimedOut::NoAnswer => format!(
                "{server} accepted the connection but sent no answer within {timeout}: it is not \
                 answering (down, stuck, or something in between holding the request); check that \
                 it is up and that the URL names its API; a longer timeout will not help"
            ),
            TimedOut::SlowAnswer => format!(
                "the answer began but was still arriving after {timeout}: {server} is answering \
                 slowly; raise {raise} in the config file"
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, thiserror::Error)]
    #[error("space {path}: {source}")]
    struct Quoting {
        path: &'static str,
        source: std::io::Error,
    }

    #[derive(Debug, thiserror::Error)]
    #[error("could not open the space")]
    struct Silent {
        #[source]
        source: Quoting,
    }

    fn denied() -> std::io::Error {
        std::io::Error::from_raw_os_error(13)
    }

    #[test]
    fn a_quoted_cause_is_said_once() {
        let error = Quoting {
            path: "/data",
            source: denied(),
        };
        let line = chain(&error);
        assert_eq!(line.matches("os error 13").count(), 1, "{line}");
        assert!(line.starts_with("space /data: "), "{line}");
    }

    #[test]
    fn a_cause_not_yet_said_is_appended_in_order() {
        let error = Silent {
            source: Quoting {
                path: "/data",
                source: denied(),
            },
        };
        let line = chain(&error);
        assert!(
            line.starts_with("could not open the space: space /data: "),
            "{line}"
        );
        assert_eq!(line.matches("os error 13").count(), 1, "{line}");
    }

    #[test]
    fn only_a_slow_answer_is_told_to_raise_the_timeout() {
        let wait = std::time::Duration::from_secs(3);
        let slow = TimedOut::of(false, true).advice(wait, "the model server", "[models] t");
        assert!(slow.contains("raise [models] t"), "{slow}");
        for silent in [TimedOut::of(false, false), TimedOut::of(true, false)] {
            let advice = silent.advice(wait, "the model server", "[models] t");
            assert!(!advice.contains("raise"), "{advice}");
            assert!(advice.contains("check that it is up"), "{advice}");
        }
    }

    #[test]
    fn empty_messages_add_no_separator() {
        #[derive(Debug, thiserror::Error)]
        #[error("")]
        struct Empty;
        assert_eq!(chain(&Empty), "");
    }
}
