//! The one request loop of every HTTP client (the forges', the model providers'): send, read
//! the answer whole, tell what it says, wait and try again as the one policy allows
//! ([`crate::retry::RetryPolicy`]), saying each retry before its wait, follow the pages
//! (`X-Next-Page` or `Link: rel="next"`, never to another origin, never without end), and stop
//! on a used-up rate limit saying when it resets. What a service says its own way comes from
//! its [`Dialect`]; each client turns a [`Failure`] into its own error.

use std::collections::HashSet;
use std::fmt;
use std::time::Duration;

use reqwest::header::{ACCEPT, CONTENT_TYPE, HeaderMap, HeaderName, HeaderValue};
use reqwest::{Method, Url};

use super::Call;
use super::dialect::{Dialect, ErrorText};
use super::link;
use super::notice::{Notice, RetryCause, Retrying};
use super::retry::RateHints;
use super::setup::{http_client, secret_header};
use crate::error_text::TimedOut;
use crate::pr::connect::{Notices, parse_api_url};
use crate::pr::token::Token;
use crate::retry::{RetryPolicy, now_epoch, whole_seconds};

/// Answers longer than this are a proxy's HTML page, not a forge's one-line message.
const MAX_MESSAGE_CHARS: usize = 300;
/// More pages than any list a review reads (100 000 items at 100 a page): a server whose every
/// page names another is stopped here rather than read without end.
pub(crate) const MAX_PAGES: usize = 1000;

/// How to reach one service's API.
pub(crate) struct Setup {
    /// The service's name, in notices (`GitHub`, `GitLab`, `openai`).
    pub service: &'static str,
    pub api_url: String,
    /// The header the token goes in and its whole value (`Authorization`, `Bearer …`).
    pub auth: Option<(HeaderName, String)>,
    /// Kept only to scrub it from anything a server echoes back.
    pub token: Option<Token>,
    /// Sent with every call (GitHub's API version).
    pub headers: Vec<(HeaderName, HeaderValue)>,
    /// GitHub follows a renamed repository's redirect (reqwest drops `Authorization` when one
    /// leads to another host); a forge whose token goes in a header of its own follows none.
    pub redirects: reqwest::redirect::Policy,
    pub retry: RetryPolicy,
    /// Per call, the answer's body included.
    pub timeout: Duration,
    pub notices: Option<Notices>,
    pub dialect: &'static dyn Dialect,
}

/// Why a client could not be built.
#[derive(Debug)]
pub(crate) enum SetupError {
    /// The API address is not one (`parse_api_url`'s reason).
    ApiUrl(String),
    /// The HTTP client or the token's header could not be made.
    Client(String),
}

/// How a call failed, before a client names it in its own error.
#[derive(Debug)]
pub(crate) enum Failure {
    /// No answer in time: never connected, no answer, or an answer still arriving.
    Timeout {
        call: Call,
        attempts: u32,
        stage: TimedOut,
    },
    /// The connection failed before an answer (`reading` false) or while it arrived.
    Transport {
        call: Call,
        attempts: u32,
        detail: String,
        reading: bool,
    },
    /// A JSON answer that stopped mid-document every time.
    CutShort {
        call: Call,
        attempts: u32,
        detail: String,
    },
    /// The service's limit is used up (or asks a wait longer than the longest allowed) until
    /// `reset_epoch`.
    RateLimited {
        call: Call,
        status: u16,
        /// The server's words (scrubbed, one line).
        message: String,
        reset_epoch: u64,
        resets_in: Duration,
    },
    /// Any other failure status, with the service's words (scrubbed, one line each).
    Refused {
        call: Call,
        status: u16,
        message: String,
        details: Vec<String>,
        attempts: u32,
    },
    /// The answer could not be what was asked for (a request that could not be encoded,
    /// pages that loop or do not end, an unreadable next-page link).
    Unreadable { call: Call, detail: String },
    /// A next-page link to another origin: the token would go with it.
    ForeignPageLink { call: Call, host: String },
}

/// A successful answer, read whole.
pub struct Answer {
    pub status: u16,
    pub headers: HeaderMap,
    pub body: Vec<u8>,
}

impl Answer {
    /// The answer's media type (`Content-Type` without its parameters); empty when it has
    /// none.
    pub fn media_type(&self) -> String {
        self.headers
            .get(CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.split(';').next())
            .unwrap_or("")
            .trim()
            .to_owned()
    }
}

/// One service's connection: the loop and what it needs. Cheap to clone: the connection pool
/// is shared.
#[derive(Clone)]
pub(crate) struct Exchange {
    service: &'static str,
    http: reqwest::Client,
    api: Url,
    /// The token's header, marked sensitive so that nothing prints it.
    auth: Option<(HeaderName, HeaderValue)>,
    headers: Vec<(HeaderName, HeaderValue)>,
    token: Option<Token>,
    retry: RetryPolicy,
    timeout: Duration,
    notices: Option<Notices>,
    dialect: &'static dyn Dialect,
}

impl fmt::Debug for Exchange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Exchange")
            .field("service", &self.service)
            .field("api", &self.api.as_str())
            .field("token", &self.token)
            .field("retry", &self.retry)
            .finish()
    }
}

impl Exchange {
    pub(crate) fn new(setup: Setup) -> Result<Exchange, SetupError> {
        let api = parse_api_url(&setup.api_url).map_err(|e| SetupError::ApiUrl(e.0))?;
        let auth = match setup.auth {
            Some((name, value)) => Some((
                name,
                secret_header(&value).ok_or_else(|| {
                    SetupError::Client(
                        "the token contains characters that cannot go in an HTTP header".into(),
                    )
                })?,
            )),
            None => None,
        };
        let http = http_client(setup.timeout, setup.redirects)
            .map_err(|e| SetupError::Client(crate::error_text::chain(&e)))?;
        Ok(Exchange {
            service: setup.service,
            http,
            api,
            auth,
            headers: setup.headers,
            token: setup.token,
            retry: setup.retry,
            timeout: setup.timeout,
            notices: setup.notices,
            dialect: setup.dialect,
        })
    }

    pub(crate) fn api_url(&self) -> &Url {
        &self.api
    }

    pub(crate) fn has_token(&self) -> bool {
        self.auth.is_some()
    }

    pub(crate) fn timeout(&self) -> Duration {
        self.timeout
    }

    /// An endpoint under the API base (see [`super::endpoint`]).
    pub(crate) fn endpoint(&self, segments: &[&str]) -> Url {
        super::endpoint(&self.api, segments)
    }

    /// `text` without the token, even if a misbehaving server echoed it.
    pub(crate) fn scrub(&self, text: &str) -> String {
        match &self.token {
            Some(token) => token.scrub(text),
            None => text.to_owned(),
        }
    }

    /// Every item of a list endpoint, page by page, `size` (a query parameter and its value:
    /// `per_page`, Gitea's `limit`) asked on the first. `decode` reads one page's items;
    /// `fail` names a failure in the forge's own error.
    pub(crate) async fn pages<T, E>(
        &self,
        mut url: Url,
        size: Option<(&str, &str)>,
        accept: &'static str,
        decode: impl Fn(&Answer, &Call) -> Result<Vec<T>, E>,
        fail: impl Fn(Failure) -> E,
    ) -> Result<Vec<T>, E> {
        if let Some((name, value)) = size {
            url.query_pairs_mut().append_pair(name, value);
        }
        let mut items = Vec::new();
        let mut seen = HashSet::new();
        let mut next = Some(url);
        while let Some(url) = next.take() {
            let call = Call::of(&Method::GET, &url);
            if !seen.insert(url.clone()) {
                return Err(fail(Failure::Unreadable {
                    call,
                    detail: "the pagination loops back to a page already read".into(),
                }));
            }
            if seen.len() > MAX_PAGES {
                return Err(fail(Failure::Unreadable {
                    call,
                    detail: format!("the pagination goes on past {MAX_PAGES} pages"),
                }));
            }
            let answer = self
                .send(Method::GET, url.clone(), accept, None)
                .await
                .map_err(&fail)?;
            next = self
                .next_page(&url, &answer.headers, &call)
                .map_err(&fail)?;
            items.extend(decode(&answer, &call)?);
        }
        Ok(items)
    }

    /// The page after `url`: GitLab's `X-Next-Page`, else `Link: rel="next"`; never on
    /// another origin, since the token goes with every page.
    fn next_page(
        &self,
        url: &Url,
        headers: &HeaderMap,
        call: &Call,
    ) -> Result<Option<Url>, Failure> {
        let header = |name: &str| headers.get(name).and_then(|v| v.to_str().ok());
        if let Some(page) = header("x-next-page").map(str::trim) {
            if page.is_empty() {
                return Ok(None);
            }
            if !page.chars().all(|c| c.is_ascii_digit()) {
                return Err(Failure::Unreadable {
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
        let next = Url::parse(target).map_err(|e| Failure::Unreadable {
            call: call.clone(),
            detail: format!("unreadable next-page link: {e}"),
        })?;
        if next.origin() != self.api.origin() {
            return Err(Failure::ForeignPageLink {
                call: call.clone(),
                host: next.host_str().unwrap_or("?").to_owned(),
            });
        }
        Ok(Some(next))
    }

    /// Sends a request, retrying what the policy allows, and returns the first success read
    /// whole: an answer that breaks off, or a JSON document that stops, is as transient as one
    /// that never came. Once a request may have reached the forge, only an idempotent one is
    /// repeated (a POSTed review that got a 502 back may well have been created); one the
    /// forge refused for now (its [`Dialect`]) is repeated whatever the method. Each retry is
    /// said on the client's notices.
    pub(crate) async fn send(
        &self,
        method: Method,
        url: Url,
        accept: &'static str,
        body: Option<Vec<u8>>,
    ) -> Result<Answer, Failure> {
        let idempotent = matches!(
            method,
            Method::GET | Method::HEAD | Method::PUT | Method::DELETE
        );
        let say = |retrying: Retrying<'_>| self.say_retrying(retrying);
        self.exchange(method, url, accept, body, idempotent, &say)
            .await
    }

    /// [`Exchange::send`] for a call that changes nothing where it lands (a model's
    /// completion), so it is repeated after any failure whatever its method; each retry is
    /// told to `heard` before its wait, not to the client's notices.
    pub(crate) async fn send_repeatable(
        &self,
        method: Method,
        url: Url,
        accept: &'static str,
        body: Option<Vec<u8>>,
        heard: &(dyn Fn(Retrying<'_>) + Sync),
    ) -> Result<Answer, Failure> {
        self.exchange(method, url, accept, body, true, heard).await
    }

    /// The loop itself; `repeatable` says whether a call that may have reached the server is
    /// sent again.
    async fn exchange(
        &self,
        method: Method,
        url: Url,
        accept: &'static str,
        body: Option<Vec<u8>>,
        repeatable: bool,
        heard: &(dyn Fn(Retrying<'_>) + Sync),
    ) -> Result<Answer, Failure> {
        let call = Call::of(&method, &url);
        let max_attempts = self.retry.max_attempts.max(1);
        let retrying = |cause: RetryCause, wait: Duration, attempt: u32| {
            heard(Retrying {
                call: &call,
                cause,
                wait,
                attempt,
                max_attempts,
            })
        };
        let mut attempt = 0;
        loop {
            attempt += 1;
            let backoff = self.retry.delay(attempt, None);
            let request = self.request(&method, &url, accept, body.as_deref());
            let response = match self.noting(&call, false, request.send()).await {
                Ok(response) => response,
                Err(e) => {
                    if (repeatable || e.is_connect()) && attempt < max_attempts {
                        retrying(self.transport_cause(&e), backoff, attempt);
                        tokio::time::sleep(backoff).await;
                        continue;
                    }
                    return Err(self.transport_failure(call, attempt, e, false));
                }
            };
            let status = response.status();
            if status.is_success() {
                let headers = response.headers().clone();
                let (failure, cause) = match self.noting(&call, true, response.bytes()).await {
                    Ok(body) => match cut_short(accept, &headers, &body) {
                        None => {
                            return Ok(Answer {
                                status: status.as_u16(),
                                headers,
                                body: body.to_vec(),
                            });
                        }
                        Some(detail) => (
                            Failure::CutShort {
                                call: call.clone(),
                                attempts: attempt,
                                detail,
                            },
                            RetryCause::CutShort,
                        ),
                    },
                    Err(e) => (
                        self.transport_failure(call.clone(), attempt, e, true),
                        RetryCause::BrokeOff,
                    ),
                };
                if repeatable && attempt < max_attempts {
                    retrying(cause, backoff, attempt);
                    tokio::time::sleep(backoff).await;
                    continue;
                }
                return Err(failure);
            }
            let code = status.as_u16();
            let now = now_epoch();
            let hints = RateHints::from_headers(response.headers(), now);
            let text = response.text().await.unwrap_or_default();
            let for_now = self.dialect.refused_for_now(code, &hints, &text);
            // A 5xx may come after the work was done: only a repeatable call is repeated.
            let may_retry = for_now || (status.is_server_error() && repeatable);
            // What a refusal for now asks to wait: `Retry-After`, else until a used-up limit
            // resets. Waiting the longest wait allowed and asking again is pointless when the
            // server said it will refuse for longer: it is told when to run again instead.
            let asked = for_now.then(|| hints.asked_wait(now)).flatten();
            let too_long = asked.filter(|wait| *wait > self.retry.max_wait);
            if may_retry && attempt < max_attempts && too_long.is_none() {
                let wait = self.retry.delay(attempt, hints.asked_wait(now));
                let rate_limited = asked.is_some() || code == 429;
                retrying(RetryCause::Status { code, rate_limited }, wait, attempt);
                tokio::time::sleep(wait).await;
                continue;
            }
            let said = self.dialect.error_text(&text).unwrap_or_else(|| ErrorText {
                message: text,
                details: Vec::new(),
            });
            let message = clip(&self.scrub(&said.message));
            let message = if message.is_empty() {
                "no message".into()
            } else {
                message
            };
            let limited = match too_long {
                Some(wait) => Some((now.saturating_add(whole_seconds(wait)), wait)),
                None => for_now.then(|| hints.exhausted_until(now)).flatten(),
            };
            if let Some((reset_epoch, resets_in)) = limited {
                return Err(Failure::RateLimited {
                    call,
                    status: code,
                    message,
                    reset_epoch,
                    resets_in,
                });
            }
            return Err(Failure::Refused {
                call,
                status: code,
                message,
                details: said.details.iter().map(|d| clip(&self.scrub(d))).collect(),
                attempts: attempt,
            });
        }
    }

    fn request(
        &self,
        method: &Method,
        url: &Url,
        accept: &'static str,
        body: Option<&[u8]>,
    ) -> reqwest::RequestBuilder {
        let mut request = self
            .http
            .request(method.clone(), url.clone())
            .header(ACCEPT, accept);
        for (name, value) in &self.headers {
            request = request.header(name.clone(), value.clone());
        }
        if let Some((name, value)) = &self.auth {
            request = request.header(name.clone(), value.clone());
        }
        if let Some(body) = body {
            request = request
                .header(CONTENT_TYPE, "application/json")
                .body(body.to_vec());
        }
        request
    }

    /// `work` (a request or the reading of its answer), with a notice at each interval while
    /// it has not finished.
    async fn noting<F: std::future::Future>(
        &self,
        call: &Call,
        arriving: bool,
        work: F,
    ) -> F::Output {
        let Some(notices) = &self.notices else {
            return work.await;
        };
        let every = crate::waiting::notice_interval(self.timeout);
        crate::waiting::noting(work, every, |waited_secs| {
            notices.say(Notice::Waiting {
                forge: self.service,
                call: call.clone(),
                waited_secs,
                arriving,
            })
        })
        .await
    }

    /// Says on the client's notices that a call failed and is tried again.
    fn say_retrying(&self, retrying: Retrying<'_>) {
        if let Some(notices) = &self.notices {
            notices.say(Notice::Retrying {
                forge: self.service,
                call: retrying.call.clone(),
                cause: retrying.cause,
                wait_secs: retrying.wait.as_secs_f64().round() as u64,
                next_attempt: retrying.attempt + 1,
                max_attempts: retrying.max_attempts,
            });
        }
    }

    /// A failed send as a retry's cause.
    fn transport_cause(&self, error: &reqwest::Error) -> RetryCause {
        if error.is_timeout() {
            RetryCause::NoAnswer {
                within: self.timeout,
            }
        } else if error.is_connect() {
            RetryCause::NoConnection
        } else {
            RetryCause::ConnectionFailed
        }
    }

    fn transport_failure(
        &self,
        call: Call,
        attempts: u32,
        error: reqwest::Error,
        reading: bool,
    ) -> Failure {
        if error.is_timeout() {
            return Failure::Timeout {
                call,
                attempts,
                stage: TimedOut::of(error.is_connect(), reading),
            };
        }
        Failure::Transport {
            call,
            attempts,
            detail: self.scrub(&crate::error_text::chain(&error.without_url())),
            reading,
        }
    }
}

/// Why a JSON answer is incomplete, if it stops mid-document (a proxy that closed early). Any
/// other parse failure is left to the client's decoding, which can tell a wrong shape from a
/// web page.
fn cut_short(accept: &str, headers: &HeaderMap, body: &[u8]) -> Option<String> {
    let json = headers
        .get(CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_none_or(|v| v.contains("json"));
    // An empty body is a 204's, not a document that stopped.
    if !accept.contains("json") || !json || body.is_empty() {
        return None;
    }
    match serde_json::from_slice::<serde::de::IgnoredAny>(body) {
        Err(e) if e.classify() == serde_json::error::Category::Eof => {
            Some(format!("{} bytes, then {e}", body.len()))
        }
        _ => None,
    }
}

/// One line, at most [`MAX_MESSAGE_CHARS`].
pub(crate) fn clip(message: &str) -> String {
    let message = message.split_whitespace().collect::<Vec<_>>().join(" ");
    if message.chars().count() > MAX_MESSAGE_CHARS {
        message.chars().take(MAX_MESSAGE_CHARS).collect::<String>() + "…"
    } else {
        message
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const JSON: &str = "application/json";

    #[test]
    fn only_a_json_document_that_stops_is_cut_short() {
        let mut json = HeaderMap::new();
        json.insert(
            CONTENT_TYPE,
            HeaderValue::from_static("application/json; charset=utf-8"),
        );
        let cut = cut_short(JSON, &json, br#"{"number": 7, "title": "Che"#).unwrap();
        assert!(cut.starts_with("27 bytes, then EOF"), "{cut}");
        assert_eq!(cut_short(JSON, &json, br#"{"number": 7}"#), None);
        assert_eq!(cut_short(JSON, &json, b""), None, "a 204");
        assert_eq!(cut_short(JSON, &json, b"{\"a\": nope}"), None);
        assert_eq!(cut_short("application/vnd.github.diff", &json, b"{"), None);
        let mut html = HeaderMap::new();
        html.insert(CONTENT_TYPE, HeaderValue::from_static("text/html"));
        assert_eq!(cut_short(JSON, &html, b"<html><body"), None);
    }

    #[test]
    fn messages_are_one_clipped_line() {
        assert_eq!(clip("a\n  b"), "a b");
        let long = clip(&"x".repeat(400));
        assert_eq!(long.chars().count(), MAX_MESSAGE_CHARS + 1);
        assert!(long.ends_with('…'));
    }
}
