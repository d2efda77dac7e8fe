//! The HTTP side shared by the HTTP providers: one POST of JSON, retried within bounds, with
//! errors that name the provider and the call and never the key.

use std::fmt;
use std::time::Duration;

use reqwest::header::{HeaderMap, HeaderName, HeaderValue};
use reqwest::{StatusCode, Url};
use serde_json::Value;

use super::error::{Call, ProviderError};
use super::retry_note::{RetryNote, RetryNotes};
use crate::pr::token::Token;

/// Server error messages are a line; anything longer is an HTML page from a proxy.
const MAX_MESSAGE_CHARS: usize = 300;

/// An API key and the environment variable it came from, so errors can say where to fix it.
/// `Debug` shows the variable, never the key.
#[derive(Clone, PartialEq, Eq)]
pub struct ApiKey {
    token: Token,
    env_var: String,
}

impl ApiKey {
    /// `None` for an empty value (an exported but unset variable).
    pub fn new(value: impl Into<String>, env_var: impl Into<String>) -> Option<ApiKey> {
        Token::new(value).map(|token| ApiKey {
            token,
            env_var: env_var.into(),
        })
    }

    pub fn env_var(&self) -> &str {
        &self.env_var
    }

    pub(crate) fn expose(&self) -> &str {
        self.token.expose()
    }
}

impl fmt::Debug for ApiKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "ApiKey({}: ***)", self.env_var)
    }
}

/// Retries for timeouts, connection failures, 408, 429 and 5xx follow the one policy.
pub use crate::retry::RetryPolicy;
use crate::retry::{now_epoch, utc_time, whole_seconds};

/// `Retry-After` in seconds, or OpenAI's `retry-after-ms`. (The HTTP-date form is not worth a
/// date parser: the backoff covers it.)
pub(crate) fn retry_after(headers: &HeaderMap) -> Option<Duration> {
    let text = |name: &str| headers.get(name).and_then(|v| v.to_str().ok());
    if let Some(ms) = text("retry-after-ms").and_then(|v| v.trim().parse::<f64>().ok()) {
        return Duration::try_from_secs_f64(ms / 1000.0).ok();
    }
    text("retry-after")
        .and_then(|v| v.trim().parse::<f64>().ok())
        .and_then(|secs| Duration::try_from_secs_f64(secs).ok())
}

fn is_retryable(status: StatusCode) -> bool {
    matches!(status.as_u16(), 408 | 429 | 500..=599)
}

/// One JSON endpoint of one provider.
pub(crate) struct Endpoint {
    provider: String,
    http: reqwest::Client,
    url: Url,
    call: Call,
    headers: HeaderMap,
    key: Option<ApiKey>,
    /// Named in 401/403 errors even when no key was found.
    key_var: String,
    retry: RetryPolicy,
    timeout: Duration,
}

impl fmt::Debug for Endpoint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Endpoint")
            .field("provider", &self.provider)
            .field("call", &self.call)
            .field("key", &self.key)
            .field("retry", &self.retry)
            .field("timeout", &self.timeout)
            .finish()
    }
}

pub(crate) struct EndpointConfig<'a> {
    pub provider: &'a str,
    pub base_url: &'a str,
    /// Appended to the base's path: `chat/completions`, `v1/messages`.
    pub path: &'a str,
    /// Sent with every request; secret ones must be marked sensitive by the caller.
    pub headers: Vec<(&'static str, HeaderValue)>,
    pub key: Option<ApiKey>,
    pub key_var: &'a str,
    pub retry: RetryPolicy,
    pub timeout: Duration,
}

impl Endpoint {
    pub(crate) fn new(config: EndpointConfig<'_>) -> Result<Endpoint, ProviderError> {
        let provider = config.provider;
        let url = endpoint_url(config.base_url, config.path)
            .map_err(|reason| ProviderError::config(provider, reason.to_string()))?;
        let mut headers = HeaderMap::new();
        for (name, value) in config.headers {
            headers.insert(HeaderName::from_static(name), value);
        }
        // reqwest is built without a default crypto provider so the binary picks one; a second
        // install (another client, a test) fails harmlessly.
        let _ = rustls::crypto::ring::default_provider().install_default();
        let http = reqwest::Client::builder()
            .user_agent(concat!("review-tui/", env!("CARGO_PKG_VERSION")))
            .connect_timeout(Duration::from_secs(10))
            .build()
            .map_err(|e| {
                ProviderError::config(
                    provider,
                    format!("HTTP client: {}", crate::error_text::chain(&e)),
                )
            })?;
        Ok(Endpoint {
            provider: provider.to_owned(),
            // The host is named: "which server did not answer" is half of a network error.
            call: Call(format!(
                "POST {} on {}{}",
                url.path(),
                url.host_str().unwrap_or("?"),
                url.port().map(|p| format!(":{p}")).unwrap_or_default()
            )),
            http,
            url,
            headers,
            key: config.key,
            key_var: config.key_var.to_owned(),
            retry: config.retry,
            timeout: config.timeout,
        })
    }

    pub(crate) fn provider(&self) -> &str {
        &self.provider
    }

    /// `host:port` and the request timeout, for "waiting for HOST" notices.
    pub(crate) fn waits_on(&self) -> (String, Duration) {
        let host = self.url.host_str().unwrap_or("?");
        let host = match self.url.port() {
            Some(port) => format!("{host}:{port}"),
            None => host.to_owned(),
        };
        (host, self.timeout)
    }

    /// POSTs `body` and returns the parsed JSON answer, retrying what the policy allows: an
    /// answer that breaks off or arrives cut short is as transient as one that never came.
    /// Each retry is said on `notes` before its wait.
    pub(crate) async fn post_json(
        &self,
        body: &Value,
        notes: &RetryNotes,
    ) -> Result<Value, ProviderError> {
        let max_attempts = self.retry.max_attempts.max(1);
        let mut attempt = 0;
        loop {
            attempt += 1;
            let backoff = self.retry.delay(attempt, None);
            let retrying = |wait: Duration, reason: String, rate_limited: bool| {
                notes.say(RetryNote {
                    attempt,
                    of: max_attempts,
                    wait,
                    reason,
                    rate_limited,
                });
            };
            let sent = self
                .http
                .post(self.url.clone())
                .headers(self.headers.clone())
                .timeout(self.timeout)
                .json(body)
                .send()
                .await;
            let response = match sent {
                Ok(response) => response,
                Err(e) => {
                    if attempt < max_attempts {
                        retrying(backoff, self.why_transport(&e), false);
                        tokio::time::sleep(backoff).await;
                        continue;
                    }
                    return Err(self.transport_error(e, attempt, false));
                }
            };
            let status = response.status();
            if status.is_success() {
                let content_type = content_type(response.headers());
                let (failure, why) = match response.bytes().await {
                    Ok(bytes) => match self.read_answer(status, &content_type, &bytes, attempt) {
                        Ok(value) => return Ok(value),
                        Err(Retry::No(error)) => return Err(error),
                        Err(Retry::Yes(error)) => (error, "the answer was cut short".to_owned()),
                    },
                    Err(e) => (
                        self.transport_error(e, attempt, true),
                        "the answer broke off".to_owned(),
                    ),
                };
                if attempt < max_attempts {
                    retrying(backoff, why, false);
                    tokio::time::sleep(backoff).await;
                    continue;
                }
                return Err(failure);
            }
            // A wait the server asks for (`Retry-After`, or a used-up quota's reset) that is
            // longer than the longest wait is not sat out in capped slices, attempt after
            // attempt: the call fails at once, saying when to run again.
            let now = now_epoch();
            let exhausted = matches!(status.as_u16(), 403 | 429)
                .then(|| exhausted_until(response.headers(), now))
                .flatten();
            let asked = retry_after(response.headers())
                .map(|wait| (now + whole_seconds(wait), wait))
                .or(exhausted);
            let retryable = is_retryable(status) || exhausted.is_some();
            let too_long = retryable && asked.is_some_and(|(_, wait)| wait > self.retry.max_wait);
            if retryable && attempt < max_attempts && !too_long {
                let wait = self.retry.delay(attempt, asked.map(|(_, wait)| wait));
                let rate_limited = status.as_u16() == 429 || asked.is_some();
                let why = if rate_limited {
                    format!("rate limited (HTTP {})", status.as_u16())
                } else {
                    format!("HTTP {}", status.as_u16())
                };
                retrying(wait, why, rate_limited);
                tokio::time::sleep(wait).await;
                continue;
            }
            let message = self.error_message(response).await;
            if let Some((reset_epoch, resets_in)) = if too_long { asked } else { exhausted } {
                return Err(ProviderError::RateLimited {
                    provider: self.provider.clone(),
                    call: self.call.clone(),
                    status: status.as_u16(),
                    message,
                    resets_at: utc_time(reset_epoch),
                    resets_in,
                });
            }
            return Err(match status {
                StatusCode::UNAUTHORIZED | StatusCode::FORBIDDEN => ProviderError::Unauthorized {
                    provider: self.provider.clone(),
                    call: self.call.clone(),
                    status: status.as_u16(),
                    message,
                    key_var: self.key_var.clone(),
                },
                _ => ProviderError::Status {
                    provider: self.provider.clone(),
                    call: self.call.clone(),
                    status: status.as_u16(),
                    message,
                    attempts: attempt,
                },
            });
        }
    }

    /// A successful answer's body as JSON; says whether a failure is a web page, an error
    /// dressed as a success, a document cut short (worth another try) or another shape.
    fn read_answer(
        &self,
        status: StatusCode,
        content_type: &str,
        bytes: &[u8],
        attempt: u32,
    ) -> Result<Value, Retry> {
        let error = match serde_json::from_slice::<Value>(bytes) {
            Ok(value) => {
                // A repeated key (in a tool call's input, say) means two readers of one answer
                // read two answers: refused whole, never read as whichever came last.
                if let Some(key) = crate::reviewers::model::strict_json::duplicate_in(bytes) {
                    return Err(Retry::No(self.decode(format!(
                        "the answer repeats a key ({key}); which value is meant cannot be told"
                    ))));
                }
                return match error_in_success(&value) {
                    Some(message) => Err(Retry::No(ProviderError::ErrorInSuccess {
                        provider: self.provider.clone(),
                        call: self.call.clone(),
                        status: status.as_u16(),
                        message: truncate(&self.scrub(&message), MAX_MESSAGE_CHARS),
                    })),
                    None => Ok(value),
                };
            }
            Err(error) => error,
        };
        if !content_type.is_empty() && !content_type.contains("json") {
            let start = String::from_utf8_lossy(bytes)
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ");
            return Err(Retry::No(ProviderError::NotJson {
                provider: self.provider.clone(),
                call: self.call.clone(),
                content_type: content_type.to_owned(),
                start: self.scrub(&start.chars().take(40).collect::<String>()),
            }));
        }
        if error.classify() == serde_json::error::Category::Eof {
            return Err(Retry::Yes(ProviderError::CutShort {
                provider: self.provider.clone(),
                call: self.call.clone(),
                attempts: attempt,
                detail: format!("{} bytes, then {error}", bytes.len()),
            }));
        }
        Err(Retry::No(self.decode(error.to_string())))
    }

    pub(crate) fn decode(&self, detail: impl Into<String>) -> ProviderError {
        ProviderError::Decode {
            provider: self.provider.clone(),
            call: self.call.clone(),
            detail: self.scrub(&detail.into()),
        }
    }

    /// A request that failed on the wire: before any answer (`reading` false) or while the
    /// answer's body was arriving.
    /// A failed send in a retry note's words: what happened, never the error's own text.
    fn why_transport(&self, error: &reqwest::Error) -> String {
        if error.is_timeout() {
            format!("no answer within {} s", self.timeout.as_secs())
        } else if error.is_connect() {
            "could not connect".to_owned()
        } else {
            "the connection failed".to_owned()
        }
    }

    fn transport_error(
        &self,
        error: reqwest::Error,
        attempts: u32,
        reading: bool,
    ) -> ProviderError {
        if error.is_timeout() {
            return ProviderError::Timeout {
                provider: self.provider.clone(),
                call: self.call.clone(),
                attempts,
                timeout: self.timeout,
                stage: crate::error_text::TimedOut::of(error.is_connect(), reading),
            };
        }
        // The call names the path; the host is known.
        let detail = self.scrub(&crate::error_text::chain(&error.without_url()));
        if reading {
            return ProviderError::BrokenAnswer {
                provider: self.provider.clone(),
                call: self.call.clone(),
                attempts,
                detail,
            };
        }
        ProviderError::Transport {
            provider: self.provider.clone(),
            call: self.call.clone(),
            attempts,
            detail,
        }
    }

    /// The server's `error.message` (OpenAI, Anthropic) or `error` string (Ollama), or the
    /// start of whatever else came back; never the key, even if a server echoed it.
    async fn error_message(&self, response: reqwest::Response) -> String {
        let text = response.text().await.unwrap_or_default();
        let parsed = serde_json::from_str::<Value>(&text).ok();
        let message = parsed
            .as_ref()
            .and_then(|body| {
                body.pointer("/error/message")
                    .or_else(|| body.get("error").filter(|e| e.is_string()))
                    .or_else(|| body.get("message"))
                    .and_then(Value::as_str)
                    .map(str::to_owned)
            })
            .unwrap_or(text);
        let message = self.scrub(&message.split_whitespace().collect::<Vec<_>>().join(" "));
        let message = truncate(&message, MAX_MESSAGE_CHARS);
        if message.is_empty() {
            "no message".into()
        } else {
            message
        }
    }

    fn scrub(&self, text: &str) -> String {
        match &self.key {
            Some(key) => text.replace(key.expose(), "***"),
            None => text.to_owned(),
        }
    }
}

/// Whether a failed answer is worth another try.
enum Retry {
    Yes(ProviderError),
    No(ProviderError),
}

/// The media type, without parameters; empty when there is none.
fn content_type(headers: &HeaderMap) -> String {
    headers
        .get(reqwest::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .unwrap_or("")
        .trim()
        .to_owned()
}

/// The message of an error body (`{"error": {"message": ...}}`, `{"error": "..."}`) that came
/// with a success status. A real answer never has a top-level `error`.
fn error_in_success(body: &Value) -> Option<String> {
    let error = body.get("error").filter(|e| !e.is_null())?;
    let message = error
        .get("message")
        .and_then(Value::as_str)
        .or_else(|| error.as_str())
        .map(str::to_owned)
        .unwrap_or_else(|| error.to_string());
    Some(message.split_whitespace().collect::<Vec<_>>().join(" "))
}

/// When a quota is used up (`x-ratelimit-remaining[-requests|-tokens]: 0`): the reset instant
/// and how long until then. The reset is epoch seconds (GitHub style), seconds, or a duration
/// such as `6m0s` (OpenAI style).
pub(crate) fn exhausted_until(headers: &HeaderMap, now_epoch: u64) -> Option<(u64, Duration)> {
    let text = |name: String| {
        headers
            .get(name)
            .and_then(|v| v.to_str().ok())
            .map(str::trim)
    };
    ["", "-requests", "-tokens"].iter().find_map(|suffix| {
        let remaining = text(format!("x-ratelimit-remaining{suffix}"))?;
        if remaining.parse::<f64>().ok()? > 0.0 {
            return None;
        }
        let reset = text(format!("x-ratelimit-reset{suffix}"))?;
        let wait = match reset.parse::<u64>() {
            Ok(epoch) if epoch > 1_000_000_000 => {
                Duration::from_secs(epoch.saturating_sub(now_epoch))
            }
            Ok(secs) => Duration::from_secs(secs),
            Err(_) => humantime::parse_duration(reset).ok()?,
        };
        Some((now_epoch + whole_seconds(wait), wait))
    })
}

/// What is wrong with a configured base URL; the provider's config error carries the text.
#[derive(Debug, thiserror::Error)]
enum BaseUrlError {
    #[error("invalid base URL {0:?}: {1}")]
    Invalid(String, String),
    #[error("base URL {0:?}: only http and https are supported")]
    Scheme(String),
    #[error("the base URL must not carry credentials; use the API key variable")]
    Credentials,
    #[error("base URL {0:?} cannot have a path")]
    NoPath(String),
}

/// `base` + `path`, keeping any prefix the base has (`http://host/v1` + `chat/completions`).
fn endpoint_url(base: &str, path: &str) -> Result<Url, BaseUrlError> {
    let raw = base.trim();
    let mut url =
        Url::parse(raw).map_err(|e| BaseUrlError::Invalid(raw.to_owned(), e.to_string()))?;
    if !matches!(url.scheme(), "http" | "https") {
        return Err(BaseUrlError::Scheme(raw.to_owned()));
    }
    if !url.username().is_empty() || url.password().is_some() {
        return Err(BaseUrlError::Credentials);
    }
    url.set_query(None);
    url.set_fragment(None);
    url.path_segments_mut()
        .map_err(|_| BaseUrlError::NoPath(raw.to_owned()))?
        .pop_if_empty()
        .extend(path.split('/'));
    Ok(url)
}

pub(crate) fn truncate(text: &str, max_chars: usize) -> String {
    if text.chars().count() > max_chars {
        text.chars().take(max_chars).collect::<String>() + "…"
    } else {
        text.to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn endpoint_keeps_the_base_prefix() {
        let url = endpoint_url("http://127.0.0.1:11434/v1/", "chat/completions").unwrap();
        assert_eq!(url.as_str(), "http://127.0.0.1:11434/v1/chat/completions");
        let url = endpoint_url("https://api.anthropic.com", "v1/messages").unwrap();
        assert_eq!(url.as_str(), "https://api.anthropic.com/v1/messages");
        assert!(endpoint_url("ftp://x", "a").is_err());
        assert!(endpoint_url("https://user:pw@x", "a").is_err());
    }

    #[test]
    fn retry_after_forms() {
        let mut headers = HeaderMap::new();
        headers.insert("retry-after", HeaderValue::from_static("3"));
        assert_eq!(retry_after(&headers), Some(Duration::from_secs(3)));
        headers.insert("retry-after-ms", HeaderValue::from_static("250"));
        assert_eq!(retry_after(&headers), Some(Duration::from_millis(250)));
        let mut dated = HeaderMap::new();
        dated.insert(
            "retry-after",
            HeaderValue::from_static("Wed, 21 Oct 2015 07:28:00 GMT"),
        );
        assert_eq!(retry_after(&dated), None);
    }

    #[test]
    fn used_up_quotas_know_their_reset() {
        const NOW: u64 = 1_700_000_000;
        let headers = |pairs: &[(&'static str, &'static str)]| {
            let mut map = HeaderMap::new();
            for (k, v) in pairs {
                map.insert(*k, HeaderValue::from_static(v));
            }
            map
        };
        let github_style = headers(&[
            ("x-ratelimit-remaining", "0"),
            ("x-ratelimit-reset", "1700000090"),
        ]);
        assert_eq!(
            exhausted_until(&github_style, NOW),
            Some((NOW + 90, Duration::from_secs(90)))
        );
        let openai_style = headers(&[
            ("x-ratelimit-remaining-requests", "0"),
            ("x-ratelimit-reset-requests", "6m0s"),
        ]);
        assert_eq!(
            exhausted_until(&openai_style, NOW),
            Some((NOW + 360, Duration::from_secs(360)))
        );
        let left = headers(&[
            ("x-ratelimit-remaining", "4"),
            ("x-ratelimit-reset", "1700000090"),
        ]);
        assert_eq!(exhausted_until(&left, NOW), None);
        assert_eq!(exhausted_until(&HeaderMap::new(), NOW), None);
    }

    #[test]
    fn errors_dressed_as_answers_are_recognized() {
        let openai =
            serde_json::json!({"error": {"message": "overloaded", "type": "server_error"}});
        assert_eq!(error_in_success(&openai).as_deref(), Some("overloaded"));
        let ollama = serde_json::json!({"error": "model not found"});
        assert_eq!(
            error_in_success(&ollama).as_deref(),
            Some("model not found")
        );
        let answer = serde_json::json!({"choices": [], "error": null});
        assert_eq!(error_in_success(&answer), None);
    }

    #[test]
    fn api_key_debug_hides_the_key() {
        let key = ApiKey::new("sk-secret-value", "OPENAI_API_KEY").unwrap();
        let shown = format!("{key:?}");
        assert!(!shown.contains("sk-secret-value"));
        assert!(shown.contains("OPENAI_API_KEY"));
        assert!(ApiKey::new("  ", "X").is_none());
    }
}
