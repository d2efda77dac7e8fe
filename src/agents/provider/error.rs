//! What can go wrong asking a model, phrased so the person knows what to fix. Every variant
//! names the provider and the call; none ever contains an API key.

use std::fmt;
use std::time::Duration;

/// One call, as shown in errors: `POST /v1/chat/completions`, or a command line. The host is
/// left out: it is known, and a URL could carry anything.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Call(pub String);

impl fmt::Display for Call {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

#[derive(Debug, thiserror::Error)]
pub enum ProviderError {
    #[error("{provider}: {reason}")]
    Config { provider: String, reason: String },

    #[error(
        "{provider}: {call} was refused ({status}: {message}); check {key_var} — the key is not shown"
    )]
    Unauthorized {
        provider: String,
        call: Call,
        status: u16,
        message: String,
        /// The environment variable the key came from, or where it should be set.
        key_var: String,
    },

    #[error("{provider}: {call} answered {status} after {attempts} attempt(s): {message}")]
    Status {
        provider: String,
        call: Call,
        status: u16,
        message: String,
        attempts: u32,
    },

    #[error(
        "{provider}: {call} timed out after {attempts} attempt(s) (request timeout {timeout:?})"
    )]
    Timeout {
        provider: String,
        call: Call,
        attempts: u32,
        timeout: Duration,
    },

    #[error("{provider}: could not reach {call} after {attempts} attempt(s): {detail}")]
    Transport {
        provider: String,
        call: Call,
        attempts: u32,
        detail: String,
    },

    #[error("{provider}: {call}: the answer did not have the expected shape: {detail}")]
    Decode {
        provider: String,
        call: Call,
        detail: String,
    },

    #[error("{provider}: `{call}` {failure}; stderr: {stderr}")]
    Command {
        provider: String,
        call: Call,
        /// "exited with status 2", "could not be started: ...".
        failure: String,
        /// The end of what it printed on stderr, truncated.
        stderr: String,
    },

    #[error("replay step {step} ({reviewer}): {detail}")]
    Replay {
        step: usize,
        reviewer: String,
        detail: String,
    },
}

impl ProviderError {
    pub(crate) fn config(provider: &str, reason: impl Into<String>) -> ProviderError {
        ProviderError::Config {
            provider: provider.to_owned(),
            reason: reason.into(),
        }
    }
}
