//! The HTTP side shared by the HTTP providers: one POST of JSON on the one request loop
//! every HTTP client shares ([`crate::pr::http::Exchange`]: retries, `Retry-After`, rate
//! limits, timeouts, each retry said before its wait), in the model servers' words
//! ([`ModelDialect`]), with errors that name the provider and the call and never the key.

use std::fmt;
use std::time::Duration;

use reqwest::header::{HeaderName, HeaderValue};
use reqwest::{Method, Url};
use serde_json::Value;

use super::error::{Call, ProviderError};
use super::retry_note::{RetryNote, RetryNotes};
use crate::pr::http::{
    Dialect, ErrorText, Exchange, Failure, RateHints, Retrying, Setup, SetupError, clip,
};
use crate::pr::token::Token;
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

/// The model servers' words (OpenAI, Anthropic, Ollama and the OpenAI-compatible ones): a 408
/// or a 429 is "try later", and so is a 5xx that asks a wait (`Retry-After`) and a 403 whose
/// quota is used up; an error body is `{"error": {"message": …}}`, `{"error": "…"}` or
/// `{"message": …}`.
#[derive(Debug, Clone, Copy)]
pub(crate) struct ModelDialect;

impl Dialect for ModelDialect {
    fn refused_for_now(&self, status: u16, hints: &RateHints, _body: &str) -> bool {
        match status {
            408 | 429 => true,
            403 => hints.used_up && hints.reset_epoch.is_some(),
            500..=599 => hints.retry_after.is_some(),
            _ => false,
        }
    }

    fn error_text(&self, body: &str) -> Option<ErrorText> {
        let body = serde_json::from_str::<Value>(body).ok()?;
        let message = body
            .pointer("/error/message")
            .or_else(|| body.get("error").filter(|e| e.is_string()))
            .or_else(|| body.get("message"))
            .and_then(Value::as_str)?;
        Some(ErrorText {
            message: message.to_owned(),
            details: Vec::new(),
        })
    }
}

/// One JSON endpoint of one provider.
pub(crate) struct Endpoint {
    provider: &'static str,
    exchange: Exchange,
    url: Url,
    call: Call,
    /// Named in 401/403 errors even when no key was found.
    key_var: String,
    timeout: Duration,
}

impl fmt::Debug for Endpoint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Endpoint")
            .field("provider", &self.provider)
            .field("call", &self.call)
            .field("exchange", &self.exchange)
            .field("timeout", &self.timeout)
            .finish()
    }
}

pub(crate) struct EndpointConfig<'a> {
    pub provider: &'static str,
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
        let exchange = Exchange::new(Setup {
            service: provider,
            api_url: url.to_string(),
            // The key is among the headers, already marked sensitive.
            auth: None,
            token: config.key.map(|key| key.token),
            headers: config
                .headers
                .into_iter()
                .map(|(name, value)| (HeaderName::from_static(name), value))
                .collect(),
            // No redirect is followed: the key may be in a header of its own (`x-api-key`),
            // which a client does not strip on a cross-host redirect as it does
            // `Authorization`, and the body is the code under review. A completion API that
            // redirects is a failure the reviewer names.
            redirects: reqwest::redirect::Policy::none(),
            retry: config.retry,
            timeout: config.timeout,
            // A reviewer's waits are told by its own notes (`heard`), not a forge's notices.
            notices: None,
            dialect: &ModelDialect,
        })
        .map_err(|e| match e {
            SetupError::ApiUrl(reason) => ProviderError::config(provider, reason),
            SetupError::Client(detail) => {
                ProviderError::config(provider, format!("HTTP client: {detail}"))
            }
        })?;
        Ok(Endpoint {
            provider,
            call: Call::of(&Method::POST, &url),
            exchange,
            url,
            key_var: config.key_var.to_owned(),
            timeout: config.timeout,
        })
    }

    pub(crate) fn provider(&self) -> &str {
        self.provider
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

    /// POSTs `body` and returns the parsed JSON answer. A completion changes nothing on the
    /// server, so the loop repeats it after any failure the policy allows; each retry is said
    /// on `notes` before its wait.
    pub(crate) async fn post_json(
        &self,
        body: &Value,
        notes: &RetryNotes,
    ) -> Result<Value, ProviderError> {
        let bytes = serde_json::to_vec(body).map_err(|e| self.decode(e.to_string()))?;
        let heard = |retrying: Retrying<'_>| {
            notes.say(RetryNote {
                attempt: retrying.attempt,
                of: retrying.max_attempts,
                wait: retrying.wait,
                reason: retrying.cause.to_string(),
                rate_limited: retrying.cause.rate_limited(),
            })
        };
        let answer = self
            .exchange
            .send_repeatable(
                Method::POST,
                self.url.clone(),
                "application/json",
                Some(bytes),
                &heard,
            )
            .await
            .map_err(|failure| self.failed(failure))?;
        let content_type = answer.media_type();
        self.read_answer(answer.status, &content_type, &answer.body)
    }

    /// A successful answer's body as JSON; says whether a failure is a web page, an error
    /// dressed as a success or another shape. (One cut short was tried again by the loop.)
    fn read_answer(
        &self,
        status: u16,
        content_type: &str,
        bytes: &[u8],
    ) -> Result<Value, ProviderError> {
        let error = match serde_json::from_slice::<Value>(bytes) {
            Ok(value) => {
                // A repeated key (in a tool call's input, say) means two readers of one answer
                // read two answers: refused whole, never read as whichever came last.
                if let Some(key) = crate::reviewers::model::strict_json::duplicate_in(bytes) {
                    return Err(self.decode(format!(
                        "the answer repeats a key ({key}); which value is meant cannot be told"
                    )));
                }
                return match error_in_success(&value) {
                    Some(message) => Err(ProviderError::ErrorInSuccess {
                        provider: self.provider.to_owned(),
                        call: self.call.clone(),
                        status,
                        message: clip(&self.exchange.scrub(&message)),
                    }),
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
            return Err(ProviderError::NotJson {
                provider: self.provider.to_owned(),
                call: self.call.clone(),
                content_type: content_type.to_owned(),
                start: self
                    .exchange
                    .scrub(&start.chars().take(40).collect::<String>()),
            });
        }
        Err(self.decode(error.to_string()))
    }

    pub(crate) fn decode(&self, detail: impl Into<String>) -> ProviderError {
        ProviderError::Decode {
            provider: self.provider.to_owned(),
            call: self.call.clone(),
            detail: self.exchange.scrub(&detail.into()),
        }
    }

    /// A failure of the loop in the provider's own error.
    fn failed(&self, failure: Failure) -> ProviderError {
        let provider = self.provider.to_owned();
        match failure {
            Failure::Timeout {
                call,
                attempts,
                stage,
            } => ProviderError::Timeout {
                provider,
                call,
                attempts,
                timeout: self.timeout,
                stage,
            },
            Failure::Transport {
                call,
                attempts,
                detail,
                reading: true,
            } => ProviderError::BrokenAnswer {
                provider,
                call,
                attempts,
                detail,
            },
            Failure::Transport {
                call,
                attempts,
                detail,
                reading: false,
            } => ProviderError::Transport {
                provider,
                call,
                attempts,
                detail,
            },
            Failure::CutShort {
                call,
                attempts,
                detail,
            } => ProviderError::CutShort {
                provider,
                call,
                attempts,
                detail,
            },
            Failure::RateLimited {
                call,
                status,
                message,
                reset_epoch,
                resets_in,
            } => ProviderError::RateLimited {
                provider,
                call,
                status,
                message,
                resets_at: crate::retry::utc_time(reset_epoch),
                resets_in,
            },
            Failure::Refused {
                call,
                status: status @ (401 | 403),
                message,
                ..
            } => ProviderError::Unauthorized {
                provider,
                call,
                status,
                message,
                key_var: self.key_var.clone(),
            },
            Failure::Refused {
                call,
                status,
                message,
                attempts,
                ..
            } => ProviderError::Status {
                provider,
                call,
                status,
                message,
                attempts,
            },
            // One POST: no pages to follow.
            Failure::Unreadable { detail, .. } => self.decode(detail),
            Failure::ForeignPageLink { host, .. } => {
                self.decode(format!("a next-page link to another host ({host})"))
            }
        }
    }
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
    fn the_model_servers_refusals_for_now_and_error_bodies() {
        let none = RateHints::default();
        let used_up = RateHints {
            used_up: true,
            reset_epoch: Some(1_700_000_090),
            ..RateHints::default()
        };
        let asked = RateHints {
            retry_after: Some(Duration::from_secs(2)),
            ..RateHints::default()
        };
        assert!(ModelDialect.refused_for_now(429, &none, ""));
        assert!(ModelDialect.refused_for_now(408, &none, ""));
        assert!(ModelDialect.refused_for_now(403, &used_up, ""));
        assert!(!ModelDialect.refused_for_now(403, &asked, ""), "a bad key");
        assert!(ModelDialect.refused_for_now(503, &asked, ""));
        assert!(!ModelDialect.refused_for_now(503, &none, ""));
        assert!(!ModelDialect.refused_for_now(401, &used_up, ""));
        let said = |body: &str| ModelDialect.error_text(body).map(|t| t.message);
        assert_eq!(
            said(r#"{"error": {"message": "bad model", "type": "x"}}"#).as_deref(),
            Some("bad model")
        );
        assert_eq!(
            said(r#"{"error": "model not found"}"#).as_deref(),
            Some("model not found")
        );
        assert_eq!(
            said(r#"{"message": "overloaded"}"#).as_deref(),
            Some("overloaded")
        );
        assert_eq!(said("<html>"), None);
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
