//! A JSON REST client for the forges reached by host (GitLab, Gitea/Forgejo): their token
//! header, bounded retries (5xx, 429, `Retry-After`, `RateLimit-*`), pagination (`X-Next-Page`
//! or `Link: rel="next"`, never to another origin), notices while a call is slow, and errors
//! that name the call and never the token. GitHub keeps its own client (`pr/github`), whose
//! answers have more shapes.

use std::collections::HashSet;
use std::fmt;
use std::time::Duration;

use reqwest::header::{ACCEPT, CONTENT_TYPE, HeaderMap, HeaderName, HeaderValue};
use reqwest::{Method, StatusCode, Url};
use serde::Serialize;
use serde::de::DeserializeOwned;

use super::link;
use super::retry::{RateHints, is_retryable};
use super::setup::{http_client, secret_header};
use crate::pr::connect::{Notices, parse_api_url};
use crate::pr::token::Token;
use crate::retry::{RetryPolicy, now_epoch};

/// Answers longer than this are a proxy's HTML page, not a forge's one-line message.
const MAX_MESSAGE_CHARS: usize = 300;

/// One API call, as shown in errors and notices: `GET /api/v4/projects/g%2Fp on gitlab.com`.
/// The query is left out: it could carry anything.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Call(Box<str>);

impl Call {
    /// A step that is not one HTTP call (finding a thread among the discussions read).
    pub fn named(what: &str) -> Call {
        Call(what.into())
    }

    fn of(method: &Method, url: &Url) -> Call {
        let host = match url.port() {
            Some(port) => format!("{}:{port}", url.host_str().unwrap_or("?")),
            None => url.host_str().unwrap_or("?").to_string(),
        };
        Call(format!("{method} {} on {host}", url.path()).into_boxed_str())
    }
}

impl fmt::Display for Call {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// How to reach one forge's API.
#[derive(Clone)]
pub struct RestConfig {
    /// The forge's name, in every message (`GitLab`).
    pub forge: &'static str,
    pub api_url: String,
    /// The header the token goes in and its whole value (`PRIVATE-TOKEN`, the token;
    /// `Authorization`, `token …`), when there is a token.
    pub auth: Option<(HeaderName, String)>,
    /// Kept only to scrub it from anything a server echoes back.
    pub token: Option<Token>,
    pub retry: RetryPolicy,
    pub timeout: Duration,
    /// The setting that lengthens `timeout`, for the advice when a call runs out of it.
    pub timeout_setting: &'static str,
    pub notices: Option<Notices>,
}

/// What went wrong talking to a forge: each names the call, never the token.
#[derive(Debug, thiserror::Error)]
pub enum HttpError {
    #[error("invalid {forge} API URL {url:?}: {reason}")]
    InvalidApiUrl {
        forge: &'static str,
        url: String,
        reason: String,
    },

    #[error("could not set up the HTTP client: {0}")]
    Client(String),

    #[error(
        "{call}: {forge} refused the token ({status}: {message}) — the token is not shown here"
    )]
    Unauthorized {
        forge: &'static str,
        call: Call,
        status: u16,
        message: String,
    },

    #[error("{call}: authentication required ({status}: {message}); {hint}")]
    AuthenticationRequired {
        call: Call,
        status: u16,
        message: String,
        /// Where a token is found.
        hint: &'static str,
    },

    #[error(
        "{call}: {what} was not found (404); check the address, and that the token can see it if the project is private"
    )]
    NotFound { call: Call, what: String },

    #[error("{call}: {forge} answered {status} after {attempts} attempt(s): {message}")]
    Status {
        forge: &'static str,
        call: Call,
        status: u16,
        message: String,
        attempts: u32,
    },

    #[error(
        "{call}: {forge} is rate limiting this client ({status}) and asked to wait {wait_secs} s, longer than the longest wait allowed; run again later"
    )]
    RateLimited {
        forge: &'static str,
        call: Call,
        status: u16,
        wait_secs: u64,
    },

    #[error("{call}: could not reach {forge} after {attempts} attempt(s): {detail}")]
    Transport {
        forge: &'static str,
        call: Call,
        attempts: u32,
        detail: String,
    },

    #[error("{call}, {attempts} attempt(s): {advice}")]
    Timeout {
        call: Call,
        attempts: u32,
        advice: String,
    },

    #[error("{call}: {forge}'s answer was not what was asked for: {detail}")]
    Decode {
        forge: &'static str,
        call: Call,
        detail: String,
    },

    #[error("{call}: refusing to follow a pagination link to another host ({host})")]
    ForeignPageLink { call: Call, host: String },
}

impl HttpError {
    /// The forge could not be reached at all (no connection, no answer in time).
    pub fn is_unreachable(&self) -> bool {
        matches!(
            self,
            HttpError::Transport { .. } | HttpError::Timeout { .. }
        )
    }

    /// The status the forge answered, when it answered with a failure.
    pub fn status(&self) -> Option<u16> {
        match self {
            HttpError::Unauthorized { status, .. }
            | HttpError::AuthenticationRequired { status, .. }
            | HttpError::Status { status, .. }
            | HttpError::RateLimited { status, .. } => Some(*status),
            HttpError::NotFound { .. } => Some(404),
            _ => None,
        }
    }

    /// The forge's own words for a failure status.
    pub fn message(&self) -> Option<&str> {
        match self {
            HttpError::Unauthorized { message, .. }
            | HttpError::AuthenticationRequired { message, .. }
            | HttpError::Status { message, .. } => Some(message),
            _ => None,
        }
    }

    /// The port's kind of this failure.
    pub fn kind(&self) -> crate::pr::forge::ForgeErrorKind {
        use crate::pr::forge::ForgeErrorKind as Kind;
        match self {
            HttpError::Unauthorized { .. } | HttpError::AuthenticationRequired { .. } => Kind::Auth,
            HttpError::NotFound { .. } => Kind::NotFound,
            HttpError::RateLimited { .. } => Kind::RateLimited,
            HttpError::Status { status, .. } if (400..500).contains(status) => {
                Kind::Rejected { status: *status }
            }
            HttpError::Transport { .. } | HttpError::Timeout { .. } => Kind::Unreachable,
            _ => Kind::Other,
        }
    }
}

/// A forge's REST client. Cheap to clone: the connection pool is shared.
#[derive(Clone)]
pub struct RestClient {
    forge: &'static str,
    http: reqwest::Client,
    api: Url,
    auth: Option<(HeaderName, HeaderValue)>,
    token: Option<Token>,
    retry: RetryPolicy,
    timeout: Duration,
    timeout_setting: &'static str,
    notices: Option<Notices>,
    /// Where a token is found, for "authentication required".
    token_hint: &'static str,
}

impl fmt::Debug for RestClient {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RestClient")
            .field("forge", &self.forge)
            .field("api", &self.api.as_str())
            .field("token", &self.token)
            .finish()
    }
}

/// A successful answer, read whole.
pub struct Answer {
    pub headers: HeaderMap,
    pub body: Vec<u8>,
}

impl RestClient {
    pub fn new(config: RestConfig, token_hint: &'static str) -> Result<RestClient, HttpError> {
        let api = parse_api_url(&config.api_url).map_err(|e| HttpError::InvalidApiUrl {
            forge: config.forge,
            url: config.api_url.clone(),
            reason: e.0,
        })?;
        let auth = match config.auth {
            Some((name, value)) => Some((
                name,
                secret_header(&value).ok_or_else(|| {
                    HttpError::Client(
                        "the token contains characters that cannot go in an HTTP header".into(),
                    )
                })?,
            )),
            None => None,
        };
        // A redirect could carry the token's header to another host.
        let http = http_client(config.timeout, reqwest::redirect::Policy::none())
            .map_err(|e| HttpError::Client(crate::error_text::chain(&e)))?;
        Ok(RestClient {
            forge: config.forge,
            http,
            api,
            auth,
            token: config.token,
            retry: config.retry,
            timeout: config.timeout,
            timeout_setting: config.timeout_setting,
            notices: config.notices,
            token_hint,
        })
    }

    pub fn has_token(&self) -> bool {
        self.auth.is_some()
    }

    pub fn api_url(&self) -> &Url {
        &self.api
    }

    /// An endpoint under the API base. Segments are percent-encoded one by one, so a name can
    /// never add path components (`group/project` becomes one `group%2Fproject` segment).
    pub fn endpoint(&self, segments: &[&str]) -> Url {
        super::endpoint(&self.api, segments)
    }

    pub async fn get_json<T: DeserializeOwned>(
        &self,
        url: Url,
        what: &str,
    ) -> Result<T, HttpError> {
        let call = Call::of(&Method::GET, &url);
        let answer = self.send(Method::GET, url, None, what).await?;
        self.decode(&answer.body, &call)
    }

    /// Every item of a list endpoint: `X-Next-Page` (GitLab), else `Link: rel="next"`.
    pub async fn get_all<T: DeserializeOwned>(
        &self,
        url: Url,
        per_page: &str,
        what: &str,
    ) -> Result<Vec<T>, HttpError> {
        self.get_pages(url, Some(("per_page", per_page)), what)
            .await
    }

    /// Every item of a list endpoint whose page size is asked for by `size` (its query
    /// parameter and value: Gitea's `limit`), or not at all.
    pub async fn get_pages<T: DeserializeOwned>(
        &self,
        mut url: Url,
        size: Option<(&str, &str)>,
        what: &str,
    ) -> Result<Vec<T>, HttpError> {
        if let Some((name, value)) = size {
            url.query_pairs_mut().append_pair(name, value);
        }
        let mut items = Vec::new();
        let mut seen = HashSet::new();
        let mut next = Some(url);
        while let Some(url) = next.take() {
            let call = Call::of(&Method::GET, &url);
            if !seen.insert(url.clone()) {
                return Err(HttpError::Decode {
                    forge: self.forge,
                    call,
                    detail: "the pagination loops back to a page already read".into(),
                });
            }
            let answer = self.send(Method::GET, url.clone(), None, what).await?;
            next = self.next_page(&url, &answer.headers, &call)?;
            let page: Vec<T> = self.decode(&answer.body, &call)?;
            items.extend(page);
        }
        Ok(items)
    }

    /// Sends `body` as JSON (or nothing) and decodes the JSON answer.
    pub async fn send_json<B: Serialize + ?Sized, T: DeserializeOwned>(
        &self,
        method: Method,
        url: Url,
        body: Option<&B>,
        what: &str,
    ) -> Result<T, HttpError> {
        let call = Call::of(&method, &url);
        let answer = self.send_body(method, url, body, what, &call).await?;
        self.decode(&answer.body, &call)
    }

    /// Sends `body` as JSON (or nothing); the answer's body is not read for data (a `204`).
    pub async fn send_only<B: Serialize + ?Sized>(
        &self,
        method: Method,
        url: Url,
        body: Option<&B>,
        what: &str,
    ) -> Result<(), HttpError> {
        let call = Call::of(&method, &url);
        self.send_body(method, url, body, what, &call).await?;
        Ok(())
    }

    async fn send_body<B: Serialize + ?Sized>(
        &self,
        method: Method,
        url: Url,
        body: Option<&B>,
        what: &str,
        call: &Call,
    ) -> Result<Answer, HttpError> {
        let body = body
            .map(serde_json::to_vec)
            .transpose()
            .map_err(|e| HttpError::Decode {
                forge: self.forge,
                call: call.clone(),
                detail: format!("could not encode the request: {e}"),
            })?;
        self.send(method, url, body, what).await
    }

    fn next_page(
        &self,
        url: &Url,
        headers: &HeaderMap,
        call: &Call,
    ) -> Result<Option<Url>, HttpError> {
        let header = |name: &str| headers.get(name).and_then(|v| v.to_str().ok());
        if let Some(page) = header("x-next-page").map(str::trim) {
            if page.is_empty() {
                return Ok(None);
            }
            if !page.chars().all(|c| c.is_ascii_digit()) {
                return Err(HttpError::Decode {
                    forge: self.forge,
                    call: call.clone(),
                    detail: format!("unreadable X-Next-Page {page:?}"),
                });
            }
            let mut next = url.clone();
            let kept: Vec<(String, String)> = url
                .query_pairs()
                .filter(|(k, _)| k != "page")
                .map(|(k, v)| (k.into_owned(), v.into_owned()))
                .collect();
            next.query_pairs_mut()
                .clear()
                .extend_pairs(kept)
                .append_pair("page", page);
            return Ok(Some(next));
        }
        let Some(target) = header("link").and_then(link::next_page) else {
            return Ok(None);
        };
        let next = Url::parse(target).map_err(|e| HttpError::Decode {
            forge: self.forge,
            call: call.clone(),
            detail: format!("unreadable next-page link: {e}"),
        })?;
        // The token goes with every page: only back to the API it was meant for.
        if next.origin() != self.api.origin() {
            return Err(HttpError::ForeignPageLink {
                call: call.clone(),
                host: next.host_str().unwrap_or("?").to_owned(),
            });
        }
        Ok(Some(next))
    }

    /// Sends a request, retrying what the policy allows. Once a request may have reached the
    /// forge, only an idempotent one is repeated: a POSTed note that got a 502 back may well
    /// have been created. A 429 was refused unprocessed, so it is repeated whatever the method.
    pub async fn send(
        &self,
        method: Method,
        url: Url,
        body: Option<Vec<u8>>,
        what: &str,
    ) -> Result<Answer, HttpError> {
        let call = Call::of(&method, &url);
        let max_attempts = self.retry.max_attempts.max(1);
        let idempotent = matches!(
            method,
            Method::GET | Method::HEAD | Method::PUT | Method::DELETE
        );
        let mut attempt = 0;
        loop {
            attempt += 1;
            let mut request = self
                .http
                .request(method.clone(), url.clone())
                .header(ACCEPT, "application/json");
            if let Some((name, value)) = &self.auth {
                request = request.header(name.clone(), value.clone());
            }
            if let Some(body) = &body {
                request = request
                    .header(CONTENT_TYPE, "application/json")
                    .body(body.clone());
            }
            let backoff = self.retry.delay(attempt, None);
            let response = match self.noting(&call, request.send()).await {
                Ok(response) => response,
                Err(e) => {
                    if (idempotent || e.is_connect()) && attempt < max_attempts {
                        self.retrying(&call, "the connection failed", backoff, attempt);
                        tokio::time::sleep(backoff).await;
                        continue;
                    }
                    return Err(self.transport_error(call, attempt, e, false));
                }
            };
            let status = response.status();
            if status.is_success() {
                let headers = response.headers().clone();
                match self.noting(&call, response.bytes()).await {
                    Ok(bytes) => {
                        return Ok(Answer {
                            headers,
                            body: bytes.to_vec(),
                        });
                    }
                    Err(e) if idempotent && attempt < max_attempts => {
                        let _ = e;
                        self.retrying(&call, "the answer broke off", backoff, attempt);
                        tokio::time::sleep(backoff).await;
                        continue;
                    }
                    Err(e) => return Err(self.transport_error(call, attempt, e, true)),
                }
            }
            let hints = RateHints::from_headers(response.headers());
            let now = now_epoch();
            let throttled = status == StatusCode::TOO_MANY_REQUESTS;
            let may_retry = is_retryable(status.as_u16(), &hints) && (idempotent || throttled);
            let asked = hints
                .retry_after_secs
                .map(Duration::from_secs)
                .or_else(|| hints.exhausted_until(now).map(|(_, wait)| wait));
            if throttled && asked.is_some_and(|wait| wait > self.retry.max_wait) {
                return Err(HttpError::RateLimited {
                    forge: self.forge,
                    call,
                    status: status.as_u16(),
                    wait_secs: asked.map_or(0, |w| w.as_secs()),
                });
            }
            if may_retry && attempt < max_attempts {
                let wait = self.retry.delay(attempt, hints.asked_wait(now));
                let cause = if throttled {
                    format!("rate limited ({})", status.as_u16())
                } else {
                    format!("answered {}", status.as_u16())
                };
                self.retrying(&call, &cause, wait, attempt);
                tokio::time::sleep(wait).await;
                continue;
            }
            let text = response.text().await.unwrap_or_default();
            let message = self.error_message(&text);
            return Err(match status.as_u16() {
                401 if self.has_token() => HttpError::Unauthorized {
                    forge: self.forge,
                    call,
                    status: 401,
                    message,
                },
                401 => HttpError::AuthenticationRequired {
                    call,
                    status: 401,
                    message,
                    hint: self.token_hint,
                },
                404 => HttpError::NotFound {
                    call,
                    what: what.to_owned(),
                },
                code => HttpError::Status {
                    forge: self.forge,
                    call,
                    status: code,
                    message,
                    attempts: attempt,
                },
            });
        }
    }

    async fn noting<F: std::future::Future>(&self, call: &Call, work: F) -> F::Output {
        let Some(notices) = &self.notices else {
            return work.await;
        };
        let forge = self.forge;
        let every = crate::waiting::notice_interval(self.timeout);
        crate::waiting::noting(work, every, |waited| {
            notices.say(format!("waiting for {forge} ({call}): {waited} s"))
        })
        .await
    }

    fn retrying(&self, call: &Call, cause: &str, wait: Duration, attempt: u32) {
        if let Some(notices) = &self.notices {
            notices.say(format!(
                "{} ({call}): {cause}; trying again in {} s (attempt {} of {})",
                self.forge,
                wait.as_secs_f64().round() as u64,
                attempt + 1,
                self.retry.max_attempts.max(1)
            ));
        }
    }

    fn transport_error(
        &self,
        call: Call,
        attempts: u32,
        error: reqwest::Error,
        reading: bool,
    ) -> HttpError {
        if error.is_timeout() {
            let stage = crate::error_text::TimedOut::of(error.is_connect(), reading);
            return HttpError::Timeout {
                call,
                attempts,
                advice: stage.advice(self.timeout, self.forge, self.timeout_setting),
            };
        }
        HttpError::Transport {
            forge: self.forge,
            call,
            attempts,
            detail: self.scrub(&crate::error_text::chain(&error.without_url())),
        }
    }

    fn decode<T: DeserializeOwned>(&self, body: &[u8], call: &Call) -> Result<T, HttpError> {
        serde_json::from_slice(body).map_err(|e| HttpError::Decode {
            forge: self.forge,
            call: call.clone(),
            detail: e.to_string(),
        })
    }

    /// The forge's `message` (GitLab: a string, a list or an object of lists; Gitea: a
    /// string), else `error`, else the start of the text: one line, never the token.
    fn error_message(&self, text: &str) -> String {
        let value = serde_json::from_str::<serde_json::Value>(text).ok();
        let said = value.as_ref().and_then(|v| {
            v.get("message")
                .or_else(|| v.get("error"))
                .map(flatten_message)
        });
        let message = said.unwrap_or_else(|| text.to_string());
        let message: String = self
            .scrub(&message)
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        let message: String = message.chars().take(MAX_MESSAGE_CHARS).collect();
        if message.is_empty() {
            "no message".into()
        } else {
            message
        }
    }

    fn scrub(&self, text: &str) -> String {
        match &self.token {
            Some(token) => token.scrub(text),
            None => text.to_owned(),
        }
    }
}

/// A message of any of the shapes forges use, as one line: `"text"`, `["a", "b"]`,
/// `{"note": ["is too long"]}` → `note is too long`.
fn flatten_message(value: &serde_json::Value) -> String {
    use serde_json::Value;
    match value {
        Value::String(text) => text.clone(),
        Value::Array(items) => items
            .iter()
            .map(flatten_message)
            .collect::<Vec<_>>()
            .join("; "),
        Value::Object(fields) => fields
            .iter()
            .map(|(key, value)| format!("{key} {}", flatten_message(value)))
            .collect::<Vec<_>>()
            .join("; "),
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_message_shape_is_one_line() {
        let of = |text: &str| flatten_message(&serde_json::from_str(text).unwrap());
        assert_eq!(of(r#""403 Forbidden""#), "403 Forbidden");
        assert_eq!(
            of(r#"{"note": ["is too long", "is blank"]}"#),
            "note is too long; is blank"
        );
        assert_eq!(of(r#"["a", "b"]"#), "a; b");
    }
}
