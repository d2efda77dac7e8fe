//! The HTTP side of GitHub: headers, authentication, retries and pagination.

use std::collections::HashSet;
use std::fmt;
use std::time::Duration;

use reqwest::header::{ACCEPT, AUTHORIZATION, HeaderMap, HeaderValue};
use reqwest::{Method, Response, StatusCode, Url};
use serde::Serialize;
use serde::de::DeserializeOwned;

use super::error::{Call, GithubError};
use super::link;
use super::notice::GithubNotice;
use super::wire::ErrorBody;
use crate::pr::connect::Notices;
use crate::pr::http::retry::{RateHints, is_retryable};
use crate::pr::http::setup::{endpoint, http_client, secret_header};
use crate::pr::token::Token;
use crate::retry::{RetryPolicy, now_epoch};

pub const DEFAULT_API_URL: &str = "https://api.github.com";
const API_VERSION: &str = "2022-11-28";
const JSON_MEDIA_TYPE: &str = "application/vnd.github+json";
const DIFF_MEDIA_TYPE: &str = "application/vnd.github.diff";
const PER_PAGE: &str = "100";
/// GitHub error messages are one line; anything longer is an HTML error page from a proxy.
const MAX_MESSAGE_CHARS: usize = 300;

/// How to reach GitHub. The binary wires `--api-url` / `GITHUB_API_URL` into `api_url`.
#[derive(Debug, Clone)]
pub struct GithubConfig {
    /// `https://api.github.com`, or `https://HOST/api/v3` for GitHub Enterprise Server.
    pub api_url: String,
    pub token: Option<Token>,
    pub retry: RetryPolicy,
    /// Per request, including reading the body.
    pub timeout: Duration,
    /// Who the token acts as, when known without asking (`[github] login`): `GET /user` is
    /// then never called.
    pub login: Option<String>,
    /// Who an installation token acts as when `GET /user` refuses it ("Resource not accessible
    /// by integration"): `github-actions[bot]` inside GitHub Actions, unknown elsewhere.
    pub installation_login: Option<String>,
    /// Where "still waiting" and "trying again" notices go; none are made without it.
    pub notices: Option<Notices>,
}

impl GithubConfig {
    pub fn new(api_url: impl Into<String>, token: Option<Token>) -> Self {
        GithubConfig {
            api_url: api_url.into(),
            token,
            retry: RetryPolicy::default(),
            timeout: Duration::from_secs(60),
            login: None,
            installation_login: None,
            notices: None,
        }
    }
}

/// The body we ask GitHub for.
#[derive(Debug, Clone, Copy)]
pub enum Accept {
    Json,
    Diff,
}

impl Accept {
    fn media_type(self) -> &'static str {
        match self {
            Accept::Json => JSON_MEDIA_TYPE,
            Accept::Diff => DIFF_MEDIA_TYPE,
        }
    }
}

/// A GitHub REST client. Cheap to clone: the connection pool is shared.
#[derive(Clone)]
pub struct GithubClient {
    http: reqwest::Client,
    api: Url,
    /// The prepared `Authorization` header, marked sensitive so reqwest never prints it.
    auth: Option<HeaderValue>,
    /// Kept only to scrub it from anything a server echoes back into an error message.
    token: Option<Token>,
    retry: RetryPolicy,
    timeout: Duration,
    login: Option<String>,
    installation_login: Option<String>,
    notices: Option<Notices>,
}

impl fmt::Debug for GithubClient {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("GithubClient")
            .field("api", &self.api.as_str())
            .field("token", &self.token)
            .field("retry", &self.retry)
            .finish()
    }
}

impl GithubClient {
    pub fn new(config: GithubConfig) -> Result<Self, GithubError> {
        let api = parse_api_url(&config.api_url)?;
        let auth = match &config.token {
            Some(token) => Some(
                secret_header(&format!("Bearer {}", token.expose())).ok_or_else(|| {
                    GithubError::Client(
                        "the token contains characters that cannot go in an HTTP header".into(),
                    )
                })?,
            ),
            None => None,
        };
        // GitHub answers a renamed repository with a redirect; reqwest drops `Authorization`
        // when one leads to another host.
        let http = http_client(config.timeout, reqwest::redirect::Policy::default())
            .map_err(|e| GithubError::Client(crate::error_text::chain(&e)))?;
        Ok(GithubClient {
            http,
            api,
            auth,
            token: config.token,
            retry: config.retry,
            timeout: config.timeout,
            login: config.login.filter(|l| !l.trim().is_empty()),
            installation_login: config.installation_login,
            notices: config.notices,
        })
    }

    /// The configured login, if any (see [`GithubConfig::login`]).
    pub fn configured_login(&self) -> Option<&str> {
        self.login.as_deref()
    }

    /// Who an installation token acts as where that is known (see
    /// [`GithubConfig::installation_login`]).
    pub fn installation_login(&self) -> Option<&str> {
        self.installation_login.as_deref()
    }

    /// The API base this client talks to.
    pub fn api_url(&self) -> &Url {
        &self.api
    }

    pub fn has_token(&self) -> bool {
        self.auth.is_some()
    }

    /// An endpoint under the API base. Segments are percent-encoded one by one, so an owner or
    /// repository name can never add path components.
    pub fn endpoint(&self, segments: &[&str]) -> Url {
        endpoint(&self.api, segments)
    }

    /// One JSON document.
    pub async fn get_json<T: DeserializeOwned>(
        &self,
        url: Url,
        what: &str,
    ) -> Result<T, GithubError> {
        let call = call_of(&Method::GET, &url);
        let answer = self
            .send(Method::GET, url, Accept::Json, None, what)
            .await?;
        self.decode(&answer, &call)
    }

    /// One text document in the given media type (the diff).
    pub async fn get_text(
        &self,
        url: Url,
        accept: Accept,
        what: &str,
    ) -> Result<String, GithubError> {
        let answer = self.send(Method::GET, url, accept, None, what).await?;
        Ok(String::from_utf8_lossy(&answer.body).into_owned())
    }

    /// Every item of a list endpoint, following `Link: rel="next"` until the last page.
    pub async fn get_all<T: DeserializeOwned>(
        &self,
        mut url: Url,
        what: &str,
    ) -> Result<Vec<T>, GithubError> {
        url.query_pairs_mut().append_pair("per_page", PER_PAGE);
        let first_call = call_of(&Method::GET, &url);
        let mut items = Vec::new();
        let mut seen = HashSet::new();
        let mut next = Some(url);
        while let Some(url) = next.take() {
            let call = call_of(&Method::GET, &url);
            if !seen.insert(url.clone()) {
                return Err(GithubError::Decode {
                    call,
                    detail: "the pagination links loop back to a page already read".into(),
                });
            }
            let answer = self
                .send(Method::GET, url, Accept::Json, None, what)
                .await?;
            next = self.next_page(&answer.headers, &first_call)?;
            let page: Vec<T> = self.decode(&answer, &call)?;
            items.extend(page);
        }
        Ok(items)
    }

    /// Every item of a list that GitHub wraps in an object (the search API's `items`),
    /// following `Link: rel="next"` like [`GithubClient::get_all`].
    pub async fn get_all_in<T: DeserializeOwned>(
        &self,
        mut url: Url,
        field: &str,
        what: &str,
    ) -> Result<Vec<T>, GithubError> {
        url.query_pairs_mut().append_pair("per_page", PER_PAGE);
        let first_call = call_of(&Method::GET, &url);
        let mut items = Vec::new();
        let mut seen = HashSet::new();
        let mut next = Some(url);
        while let Some(url) = next.take() {
            let call = call_of(&Method::GET, &url);
            if !seen.insert(url.clone()) {
                return Err(GithubError::Decode {
                    call,
                    detail: "the pagination links loop back to a page already read".into(),
                });
            }
            let answer = self
                .send(Method::GET, url, Accept::Json, None, what)
                .await?;
            next = self.next_page(&answer.headers, &first_call)?;
            let mut page: serde_json::Map<String, serde_json::Value> =
                self.decode(&answer, &call)?;
            let list = page.remove(field).unwrap_or_default();
            let page: Vec<T> = serde_json::from_value(list).map_err(|e| GithubError::Decode {
                call: call.clone(),
                detail: format!("`{field}`: {e}"),
            })?;
            items.extend(page);
        }
        Ok(items)
    }

    /// Sends a JSON body (`POST`, `PUT`) and decodes the JSON answer. A `POST` is never
    /// repeated once it may have reached GitHub (see `send`).
    pub async fn send_json<B: Serialize + ?Sized, T: DeserializeOwned>(
        &self,
        method: Method,
        url: Url,
        body: &B,
        what: &str,
    ) -> Result<T, GithubError> {
        let call = call_of(&method, &url);
        let body = serde_json::to_vec(body).map_err(|e| GithubError::Decode {
            call: call.clone(),
            detail: format!("could not encode the request: {e}"),
        })?;
        let answer = self
            .send(method, url, Accept::Json, Some(body), what)
            .await?;
        self.decode(&answer, &call)
    }

    /// GitHub's GraphQL endpoint beside this REST base: `/graphql` on api.github.com,
    /// `/api/graphql` beside an Enterprise Server's `/api/v3`.
    pub fn graphql_endpoint(&self) -> Url {
        let mut url = self.api.clone();
        let path = url.path().trim_end_matches('/').to_owned();
        match path.strip_suffix("/v3") {
            Some(prefix) => url.set_path(&format!("{prefix}/graphql")),
            None => url.set_path(&format!("{path}/graphql")),
        }
        url
    }

    /// One GraphQL query (a read: GraphQL takes every query as a `POST`). An answer carrying
    /// `errors` is an error, with GitHub's messages, even when some `data` came with it: a
    /// partial answer would pass for a complete one.
    pub async fn graphql<T: DeserializeOwned>(
        &self,
        query: &str,
        variables: serde_json::Value,
        what: &str,
    ) -> Result<T, GithubError> {
        #[derive(serde::Deserialize)]
        struct Envelope<T> {
            data: Option<T>,
            #[serde(default)]
            errors: Vec<GraphqlError>,
        }
        #[derive(serde::Deserialize)]
        struct GraphqlError {
            message: String,
        }
        let url = self.graphql_endpoint();
        let call = call_of(&Method::POST, &url);
        let body = serde_json::json!({ "query": query, "variables": variables });
        let envelope: Envelope<T> = self.send_json(Method::POST, url, &body, what).await?;
        if !envelope.errors.is_empty() {
            let messages: Vec<String> = envelope.errors.into_iter().map(|e| e.message).collect();
            return Err(GithubError::ErrorInSuccess {
                call,
                message: self.scrub(&clip(&messages.join("; "))),
            });
        }
        envelope.data.ok_or_else(|| GithubError::Decode {
            call,
            detail: "a GraphQL answer with neither data nor errors".into(),
        })
    }

    fn next_page(&self, headers: &HeaderMap, call: &Call) -> Result<Option<Url>, GithubError> {
        let Some(target) = headers
            .get("link")
            .and_then(|v| v.to_str().ok())
            .and_then(link::next_page)
        else {
            return Ok(None);
        };
        let url = Url::parse(target).map_err(|e| GithubError::Decode {
            call: call.clone(),
            detail: format!("unreadable next-page link: {e}"),
        })?;
        // The token goes with every page; only ever send it back to the API it was meant for.
        if url.origin() != self.api.origin() {
            return Err(GithubError::ForeignPageLink {
                call: call.clone(),
                host: url.host_str().unwrap_or("?").to_owned(),
            });
        }
        Ok(Some(url))
    }

    /// Sends a request, retrying what `retry` allows, and returns the first success read whole:
    /// an answer that breaks off on the way is as transient as one that never came.
    async fn send(
        &self,
        method: Method,
        url: Url,
        accept: Accept,
        body: Option<Vec<u8>>,
        what: &str,
    ) -> Result<Answer, GithubError> {
        let call = call_of(&method, &url);
        let max_attempts = self.retry.max_attempts.max(1);
        // Once a request may have reached GitHub, only an idempotent one is safe to repeat:
        // a POSTed review that got a 502 back may well have been created.
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
                .header(ACCEPT, accept.media_type())
                .header("X-GitHub-Api-Version", API_VERSION);
            if let Some(auth) = &self.auth {
                request = request.header(AUTHORIZATION, auth.clone());
            }
            if let Some(body) = &body {
                request = request
                    .header(reqwest::header::CONTENT_TYPE, "application/json")
                    .body(body.clone());
            }
            let backoff = self.retry.delay(attempt, None);
            let response = match self.noting(&call, false, request.send()).await {
                Ok(response) => response,
                Err(e) => {
                    let retryable = idempotent || e.is_connect();
                    if retryable && attempt < max_attempts {
                        let cause = if e.is_timeout() {
                            "no answer in time"
                        } else if e.is_connect() {
                            "the connection failed"
                        } else {
                            "the request failed on the way"
                        };
                        self.retrying(&call, cause, backoff, attempt, max_attempts);
                        tokio::time::sleep(backoff).await;
                        continue;
                    }
                    return Err(self.transport_error(call, attempt, e, false));
                }
            };
            let status = response.status();
            if status.is_success() {
                let headers = response.headers().clone();
                let failure = match self.noting(&call, true, response.bytes()).await {
                    Ok(body) => match cut_short(accept, &headers, &body) {
                        None => {
                            return Ok(Answer {
                                headers,
                                body: body.to_vec(),
                            });
                        }
                        Some(detail) => GithubError::CutShort {
                            call: call.clone(),
                            attempts: attempt,
                            detail,
                        },
                    },
                    Err(e) => self.transport_error(call.clone(), attempt, e, true),
                };
                if idempotent && attempt < max_attempts {
                    self.retrying(
                        &call,
                        "the answer broke off",
                        backoff,
                        attempt,
                        max_attempts,
                    );
                    tokio::time::sleep(backoff).await;
                    continue;
                }
                return Err(failure);
            }
            let hints = RateHints::from_headers(response.headers());
            let now = now_epoch();
            let rejected_unprocessed =
                status == StatusCode::TOO_MANY_REQUESTS || status == StatusCode::FORBIDDEN;
            let may_retry =
                is_retryable(status.as_u16(), &hints) && (idempotent || rejected_unprocessed);
            // Waiting the longest wait allowed and asking again is pointless when GitHub has
            // said the limit stays used up for longer (and named no sooner `Retry-After`): say
            // when it resets instead.
            let exhausted = rejected_unprocessed
                .then(|| hints.exhausted_until(now))
                .flatten();
            let resets_too_late = hints.retry_after_secs.is_none()
                && exhausted.is_some_and(|(_, wait)| wait > self.retry.max_wait);
            if may_retry && attempt < max_attempts && !resets_too_late {
                let wait = self.retry.delay(attempt, hints.asked_wait(now));
                let cause = if hints.retry_after_secs.is_some() || exhausted.is_some() {
                    format!("rate limited ({})", status.as_u16())
                } else {
                    format!("answered {}", status.as_u16())
                };
                self.retrying(&call, &cause, wait, attempt, max_attempts);
                tokio::time::sleep(wait).await;
                continue;
            }
            let (message, errors) = self.error_message(response).await;
            if let Some((reset_epoch, resets_in)) = exhausted {
                return Err(GithubError::RateLimited {
                    call,
                    status: status.as_u16(),
                    reset_epoch,
                    resets_in_secs: resets_in.as_secs(),
                    anonymous: !self.has_token(),
                });
            }
            return Err(match status {
                StatusCode::UNAUTHORIZED if self.has_token() => {
                    GithubError::Unauthorized { call, message }
                }
                StatusCode::UNAUTHORIZED => GithubError::AuthenticationRequired { call, message },
                StatusCode::NOT_FOUND => GithubError::NotFound {
                    call,
                    what: what.to_owned(),
                },
                _ => GithubError::Status {
                    call,
                    status: status.as_u16(),
                    message,
                    errors,
                    attempts: attempt,
                },
            });
        }
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
            notices.say(GithubNotice::Waiting {
                call: call.clone(),
                waited_secs,
                arriving,
            })
        })
        .await
    }

    /// Says that `call` failed (`cause`) and is tried again after `wait`.
    fn retrying(&self, call: &Call, cause: &str, wait: Duration, attempt: u32, max: u32) {
        if let Some(notices) = &self.notices {
            notices.say(GithubNotice::Retrying {
                call: call.clone(),
                cause: cause.to_owned(),
                wait_secs: wait.as_secs_f64().round() as u64,
                next_attempt: attempt + 1,
                max_attempts: max,
            });
        }
    }

    /// A request that failed on the wire: before any answer (`reading` false) or while the
    /// answer's body was arriving.
    fn transport_error(
        &self,
        call: Call,
        attempts: u32,
        error: reqwest::Error,
        reading: bool,
    ) -> GithubError {
        if error.is_timeout() {
            return GithubError::Timeout {
                call,
                attempts,
                timeout: self.timeout,
                stage: crate::error_text::TimedOut::of(error.is_connect(), reading),
            };
        }
        let detail = self.scrub(&crate::error_text::chain(&error.without_url()));
        if reading {
            GithubError::BrokenAnswer {
                call,
                attempts,
                detail,
            }
        } else {
            GithubError::Transport {
                call,
                attempts,
                detail,
            }
        }
    }

    /// The answer as `T`; when it is not, says whether it was a web page, an error dressed as
    /// a success, or JSON of another shape.
    fn decode<T: DeserializeOwned>(&self, answer: &Answer, call: &Call) -> Result<T, GithubError> {
        let error = match serde_json::from_slice(&answer.body) {
            Ok(value) => return Ok(value),
            Err(error) => error,
        };
        let content_type = answer
            .headers
            .get(reqwest::header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.split(';').next())
            .unwrap_or("")
            .trim()
            .to_owned();
        if !content_type.is_empty() && !content_type.contains("json") {
            let start: String = String::from_utf8_lossy(&answer.body)
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ")
                .chars()
                .take(40)
                .collect();
            return Err(GithubError::NotJson {
                call: call.clone(),
                answered: format!("{content_type} (it starts {:?})", self.scrub(&start)),
            });
        }
        if let Some(message) = error_in_success(&answer.body) {
            return Err(GithubError::ErrorInSuccess {
                call: call.clone(),
                message: self.scrub(&clip(&message)),
            });
        }
        Err(GithubError::Decode {
            call: call.clone(),
            detail: error.to_string(),
        })
    }

    fn scrub(&self, text: &str) -> String {
        match &self.token {
            Some(token) => text.replace(token.expose(), "***"),
            None => text.to_owned(),
        }
    }

    /// GitHub's `message` (or the start of whatever else came back) and its `errors`, each
    /// one line; never the token, even if a misbehaving server echoed it.
    async fn error_message(&self, response: Response) -> (String, Vec<String>) {
        let text = response.text().await.unwrap_or_default();
        // A 422's `message` is only "Unprocessable Entity"; the reason is in `errors`.
        let body = serde_json::from_str::<ErrorBody>(&text).ok();
        let errors = body
            .as_ref()
            .map(|b| b.details().iter().map(|e| clip(&self.scrub(e))).collect())
            .unwrap_or_default();
        let message = body.and_then(|body| body.describe()).unwrap_or(text);
        let message = clip(&self.scrub(&message));
        let message = if message.is_empty() {
            "no message".into()
        } else {
            message
        };
        (message, errors)
    }
}

fn parse_api_url(raw: &str) -> Result<Url, GithubError> {
    crate::pr::connect::parse_api_url(raw).map_err(|e| GithubError::InvalidApiUrl {
        url: raw.to_owned(),
        reason: e.0,
    })
}

/// A successful answer, read whole.
struct Answer {
    headers: HeaderMap,
    body: Vec<u8>,
}

/// Why a JSON answer is incomplete, if it stops mid-document (a proxy that closed early). Any
/// other parse failure is left to `decode`, which can tell a wrong shape from a web page.
fn cut_short(accept: Accept, headers: &HeaderMap, body: &[u8]) -> Option<String> {
    let json = headers
        .get(reqwest::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_none_or(|v| v.contains("json"));
    // An empty body is a 204's, not a document that stopped.
    if !matches!(accept, Accept::Json) || !json || body.is_empty() {
        return None;
    }
    match serde_json::from_slice::<serde::de::IgnoredAny>(body) {
        Err(e) if e.classify() == serde_json::error::Category::Eof => {
            Some(format!("{} bytes, then {e}", body.len()))
        }
        _ => None,
    }
}

/// GitHub's error shape (`{"message": ..., "documentation_url": ...}`) where data was expected.
fn error_in_success(body: &[u8]) -> Option<String> {
    let value: serde_json::Value = serde_json::from_slice(body).ok()?;
    let object = value.as_object()?;
    let known = ["message", "documentation_url", "status", "errors"];
    if !object.keys().all(|k| known.contains(&k.as_str())) {
        return None;
    }
    let body: ErrorBody = serde_json::from_value(value.clone()).ok()?;
    body.describe()
}

/// One line, at most [`MAX_MESSAGE_CHARS`].
fn clip(message: &str) -> String {
    let message = message.split_whitespace().collect::<Vec<_>>().join(" ");
    if message.chars().count() > MAX_MESSAGE_CHARS {
        message.chars().take(MAX_MESSAGE_CHARS).collect::<String>() + "…"
    } else {
        message
    }
}

fn call_of(method: &Method, url: &Url) -> Call {
    let method = match *method {
        Method::GET => "GET",
        Method::POST => "POST",
        Method::PUT => "PUT",
        Method::PATCH => "PATCH",
        Method::DELETE => "DELETE",
        Method::HEAD => "HEAD",
        _ => "REQUEST",
    };
    let host = url.host_str().unwrap_or("?");
    match url.port() {
        Some(port) => Call::new(method, url.path(), &format!("{host}:{port}")),
        None => Call::new(method, url.path(), host),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn client(api: &str) -> GithubClient {
        GithubClient::new(GithubConfig::new(api, None)).unwrap()
    }

    #[test]
    fn graphql_sits_beside_the_rest_base() {
        assert_eq!(
            client("https://api.github.com").graphql_endpoint().as_str(),
            "https://api.github.com/graphql"
        );
        assert_eq!(
            client("https://ghe.example/api/v3/")
                .graphql_endpoint()
                .as_str(),
            "https://ghe.example/api/graphql"
        );
        assert_eq!(
            client("http://127.0.0.1:9/").graphql_endpoint().as_str(),
            "http://127.0.0.1:9/graphql"
        );
    }

    #[test]
    fn endpoints_keep_an_enterprise_prefix_and_encode_names() {
        let ghe = client("https://ghe.example.com/api/v3/");
        assert_eq!(
            ghe.endpoint(&["repos", "o", "r", "pulls", "7"]).as_str(),
            "https://ghe.example.com/api/v3/repos/o/r/pulls/7"
        );
        let dotcom = client(DEFAULT_API_URL);
        assert_eq!(
            dotcom.endpoint(&["repos", "a/b", "r"]).path(),
            "/repos/a%2Fb/r"
        );
    }

    #[test]
    fn api_urls_with_credentials_or_odd_schemes_are_refused() {
        for bad in [
            "ftp://x",
            "https://user:pw@x",
            "not a url",
            "https://x/?q=1",
        ] {
            let err = GithubClient::new(GithubConfig::new(bad, None)).unwrap_err();
            assert!(
                matches!(err, GithubError::InvalidApiUrl { .. }),
                "{bad}: {err}"
            );
        }
    }

    #[test]
    fn debug_never_shows_the_token() {
        let token = Token::new("ghp_debugcanary42").unwrap();
        let client = GithubClient::new(GithubConfig::new(DEFAULT_API_URL, Some(token))).unwrap();
        let printed = format!("{client:?}");
        assert!(!printed.contains("ghp_debugcanary42"), "{printed}");
        let config = GithubConfig::new(DEFAULT_API_URL, Token::new("ghp_debugcanary42"));
        assert!(!format!("{config:?}").contains("ghp_debugcanary42"));
    }

    #[test]
    fn only_a_json_document_that_stops_is_cut_short() {
        let mut json = HeaderMap::new();
        json.insert(
            reqwest::header::CONTENT_TYPE,
            HeaderValue::from_static("application/json; charset=utf-8"),
        );
        let cut = cut_short(Accept::Json, &json, br#"{"number": 7, "title": "Che"#).unwrap();
        assert!(cut.starts_with("27 bytes, then EOF"), "{cut}");
        assert_eq!(cut_short(Accept::Json, &json, br#"{"number": 7}"#), None);
        assert_eq!(cut_short(Accept::Json, &json, b""), None, "a 204");
        assert_eq!(cut_short(Accept::Json, &json, b"{\"a\": nope}"), None);
        assert_eq!(cut_short(Accept::Diff, &json, b"{"), None);
        let mut html = HeaderMap::new();
        html.insert(
            reqwest::header::CONTENT_TYPE,
            HeaderValue::from_static("text/html"),
        );
        assert_eq!(cut_short(Accept::Json, &html, b"<html><body"), None);
    }

    #[test]
    fn calls_are_named_with_their_host_and_without_the_query() {
        let url = Url::parse("https://api.github.com/repos/o/r/pulls/1/files?per_page=100&page=2")
            .unwrap();
        assert_eq!(
            call_of(&Method::GET, &url).to_string(),
            "GET /repos/o/r/pulls/1/files on api.github.com"
        );
        let local = Url::parse("http://127.0.0.1:8080/repos/o/r").unwrap();
        assert_eq!(
            call_of(&Method::GET, &local).to_string(),
            "GET /repos/o/r on 127.0.0.1:8080"
        );
    }
}
