//! What can go wrong asking a model, phrased so the person knows what to fix. Every variant
//! names the provider and the call; none ever contains an API key.

use std::time::Duration;

/// One call, as shown in errors: `POST /v1/chat/completions on 127.0.0.1:11434`, or a command
/// line. The host is named, never the query or any credential.
pub(crate) use crate::pr::http::Call;

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

    #[error(
        "{provider}: {call} answered {status} after {attempts} attempt(s): {message}{}",
        if (500..600).contains(status) { "; the model server is failing, not the request: run again later" } else { "" }
    )]
    Status {
        provider: String,
        call: Call,
        status: u16,
        message: String,
        attempts: u32,
    },

    #[error(
        "{provider}: {call}, {attempts} attempt(s): {}",
        stage.advice(*timeout, "the model server", "[models] request_timeout")
    )]
    Timeout {
        provider: String,
        call: Call,
        attempts: u32,
        timeout: Duration,
        /// Never connected, no answer, or an answer still arriving: each has its own advice.
        stage: crate::error_text::TimedOut,
    },

    #[error("{provider}: could not reach {call} after {attempts} attempt(s): {detail}")]
    Transport {
        provider: String,
        call: Call,
        attempts: u32,
        detail: String,
    },

    #[error(
        "{provider}: the connection broke while the answer to {call} was arriving, {attempts} \
         attempt(s) in a row ({detail}); check the network or any proxy in between, then run again"
    )]
    BrokenAnswer {
        provider: String,
        call: Call,
        attempts: u32,
        detail: String,
    },

    #[error(
        "{provider}: the answer to {call} was cut short, {attempts} attempt(s) in a row ({detail}); \
         check the network or any proxy in between, then run again"
    )]
    CutShort {
        provider: String,
        call: Call,
        attempts: u32,
        detail: String,
    },

    #[error(
        "{provider}: {call} answered {content_type}, not JSON (it starts {start:?}); check that \
         --model-url (or OPENAI_BASE_URL) is the API's base, such as http://HOST:PORT/v1, not a \
         web page or a proxy's login"
    )]
    NotJson {
        provider: String,
        call: Call,
        content_type: String,
        start: String,
    },

    #[error(
        "{provider}: {call} answered {status} but the body is an error, not a completion: \
         {message}; the model server failed: run again later"
    )]
    ErrorInSuccess {
        provider: String,
        call: Call,
        status: u16,
        message: String,
    },

    #[error(
        "{provider}: {call} is rate limited ({status}: {message}); the limit resets at \
         {resets_at} (in {}), later than this review waits; run again after that, or lower \
         [models] concurrency",
        humantime::format_duration(*resets_in)
    )]
    RateLimited {
        provider: String,
        call: Call,
        status: u16,
        message: String,
        /// `2026-01-02 03:04:05 UTC`.
        resets_at: String,
        resets_in: Duration,
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
