//! The HTTP side of GitHub: its headers, its token, its answers' shapes and its errors, over
//! the one request loop every forge shares ([`Exchange`]: retries, rate limits, pages).

use std::fmt;
use std::time::Duration;

use reqwest::header::{AUTHORIZATION, HeaderName, HeaderValue};
use reqwest::{Method, Url};
use serde::Serialize;
use serde::de::DeserializeOwned;

use super::dialect::GithubDialect;
use super::error::{Call, GithubError};
use super::wire::ErrorBody;
use crate::pr::connect::Notices;
use crate::pr::http::exchange::clip;
use crate::pr::http::{Answer, Exchange, Failure, Setup, SetupError};
use crate::pr::token::Token;
use crate::retry::RetryPolicy;

pub const DEFAULT_API_URL: &str = "https://api.github.com";
const API_VERSION: &str = "2022-11-28";
const JSON_MEDIA_TYPE: &str = "application/vnd.github+json";
const DIFF_MEDIA_TYPE: &str = "application/vnd.github.diff";
const PER_PAGE: &str = "100";

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
    exchange: Exchange,
    login: Option<String>,
    installation_login: Option<String>,
}

impl fmt::Debug for GithubClient {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("GithubClient")
            .field("exchange", &self.exchange)
            .finish()
    }
}

impl GithubClient {
    pub fn new(config: GithubConfig) -> Result<Self, GithubError> {
        let auth = config
            .token
            .as_ref()
            .map(|token| (AUTHORIZATION, format!("Bearer {}", token.expose())));
        let exchange = Exchange::new(Setup {
            service: "GitHub",
            api_url: config.api_url.clone(),
            auth,
            token: config.token,
            headers: vec![(
                HeaderName::from_static("x-github-api-version"),
                HeaderValue::from_static(API_VERSION),
            )],
            // GitHub answers a renamed repository with a redirect; reqwest drops
            // `Authorization` when one leads to another host.
            redirects: reqwest::redirect::Policy::default(),
            retry: config.retry,
            timeout: config.timeout,
            notices: config.notices,
            dialect: &GithubDialect,
        })
        .map_err(|e| match e {
            SetupError::ApiUrl(reason) => GithubError::InvalidApiUrl {
                url: config.api_url,
                reason,
            },
            SetupError::Client(detail) => GithubError::Client(detail),
        })?;
        Ok(GithubClient {
            exchange,
            login: config.login.filter(|l| !l.trim().is_empty()),
            installation_login: config.installation_login,
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
        self.exchange.api_url()
    }

    pub fn has_token(&self) -> bool {
        self.exchange.has_token()
    }

    /// An endpoint under the API base. Segments are percent-encoded one by one, so an owner or
    /// repository name can never add path components.
    pub fn endpoint(&self, segments: &[&str]) -> Url {
        self.exchange.endpoint(segments)
    }

    /// One JSON document.
    pub async fn get_json<T: DeserializeOwned>(
        &self,
        url: Url,
        what: &str,
    ) -> Result<T, GithubError> {
        let call = Call::of(&Method::GET, &url);
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
        url: Url,
        what: &str,
    ) -> Result<Vec<T>, GithubError> {
        self.exchange
            .pages(
                url,
                Some(("per_page", PER_PAGE)),
                JSON_MEDIA_TYPE,
                |answer, call| self.decode(answer, call),
                |failure| self.fail(failure, what),
            )
            .await
    }

    /// Every item of a list that GitHub wraps in an object (the search API's `items`),
    /// following `Link: rel="next"` like [`GithubClient::get_all`].
    pub async fn get_all_in<T: DeserializeOwned>(
        &self,
        url: Url,
        field: &str,
        what: &str,
    ) -> Result<Vec<T>, GithubError> {
        let page = |answer: &Answer, call: &Call| -> Result<Vec<T>, GithubError> {
            let mut page: serde_json::Map<String, serde_json::Value> = self.decode(answer, call)?;
            let list = page.remove(field).unwrap_or_default();
            serde_json::from_value(list).map_err(|e| GithubError::Decode {
                call: call.clone(),
                detail: format!("`{field}`: {e}"),
            })
        };
        self.exchange
            .pages(
                url,
                Some(("per_page", PER_PAGE)),
                JSON_MEDIA_TYPE,
                page,
                |failure| self.fail(failure, what),
            )
            .await
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
        let call = Call::of(&method, &url);
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
        let mut url = self.api_url().clone();
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
        let call = Call::of(&Method::POST, &url);
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

    /// Sends a request through the shared loop ([`Exchange::send`]): retried as the policy
    /// allows, a POST only when GitHub refused it unprocessed (a rate limit).
    async fn send(
        &self,
        method: Method,
        url: Url,
        accept: Accept,
        body: Option<Vec<u8>>,
        what: &str,
    ) -> Result<Answer, GithubError> {
        self.exchange
            .send(method, url, accept.media_type(), body)
            .await
            .map_err(|failure| self.fail(failure, what))
    }

    /// A failed call in GitHub's words.
    fn fail(&self, failure: Failure, what: &str) -> GithubError {
        match failure {
            Failure::Timeout {
                call,
                attempts,
                stage,
            } => GithubError::Timeout {
                call,
                attempts,
                timeout: self.exchange.timeout(),
                stage,
            },
            Failure::Transport {
                call,
                attempts,
                detail,
                reading: true,
            } => GithubError::BrokenAnswer {
                call,
                attempts,
                detail,
            },
            Failure::Transport {
                call,
                attempts,
                detail,
                reading: false,
            } => GithubError::Transport {
                call,
                attempts,
                detail,
            },
            Failure::CutShort {
                call,
                attempts,
                detail,
            } => GithubError::CutShort {
                call,
                attempts,
                detail,
            },
            Failure::RateLimited {
                call,
                status,
                reset_epoch,
                resets_in,
                ..
            } => GithubError::RateLimited {
                call,
                status,
                reset_epoch,
                resets_in_secs: crate::retry::whole_seconds(resets_in),
                anonymous: !self.has_token(),
            },
            Failure::Refused {
                call,
                status: 401,
                message,
                ..
            } if self.has_token() => GithubError::Unauthorized { call, message },
            Failure::Refused {
                call,
                status: 401,
                message,
                ..
            } => GithubError::AuthenticationRequired { call, message },
            Failure::Refused {
                call, status: 404, ..
            } => GithubError::NotFound {
                call,
                what: what.to_owned(),
            },
            Failure::Refused {
                call,
                status,
                message,
                details,
                attempts,
            } => GithubError::Status {
                call,
                status,
                message,
                errors: details,
                attempts,
            },
            Failure::Unreadable { call, detail } => GithubError::Decode { call, detail },
            Failure::ForeignPageLink { call, host } => GithubError::ForeignPageLink { call, host },
        }
    }

    /// The answer as `T`; when it is not, says whether it was a web page, an error dressed as
    /// a success, or JSON of another shape.
    fn decode<T: DeserializeOwned>(&self, answer: &Answer, call: &Call) -> Result<T, GithubError> {
        let error = match serde_json::from_slice(&answer.body) {
            Ok(value) => return Ok(value),
            Err(error) => error,
        };
        let content_type = answer.media_type();
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
        self.exchange.scrub(text)
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
}
