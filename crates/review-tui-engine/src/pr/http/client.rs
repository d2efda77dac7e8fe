//! A JSON REST client for the forges reached by host (GitLab, Gitea/Forgejo): their token
//! header and their errors, over the one request loop every forge shares ([`Exchange`]: retries,
//! rate limits, pages, notices). Errors name the call and never the token.

use std::fmt;
use std::time::Duration;

use reqwest::header::HeaderName;
use reqwest::{Method, Url};
use serde::Serialize;
use serde::de::DeserializeOwned;

use super::Call;
use super::dialect::MessageDialect;
use super::exchange::{Answer, Exchange, Failure, Setup, SetupError};
use crate::pr::connect::Notices;
use crate::pr::token::Token;
use crate::retry::RetryPolicy;

const JSON: &str = "application/json";

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
        "{call}: {forge} is rate limiting this client ({status}); it takes calls again at {} (in {}); run again after that",
        crate::retry::utc_time(*reset_epoch),
        humantime::format_duration(Duration::from_secs(*resets_in_secs))
    )]
    RateLimited {
        forge: &'static str,
        call: Call,
        status: u16,
        /// Seconds since the Unix epoch, shown as `2026-01-02 03:04:05 UTC`.
        reset_epoch: u64,
        resets_in_secs: u64,
    },

    #[error(
        "{call}: {forge}'s answer was cut short, {attempts} attempt(s) in a row ({detail}); check the network or any proxy in between, then run again"
    )]
    CutShort {
        forge: &'static str,
        call: Call,
        attempts: u32,
        detail: String,
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
    exchange: Exchange,
    /// The setting that lengthens the timeout, for the advice when a call runs out of it.
    timeout_setting: &'static str,
    /// Where a token is found, for "authentication required".
    token_hint: &'static str,
}

impl fmt::Debug for RestClient {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RestClient")
            .field("forge", &self.forge)
            .field("exchange", &self.exchange)
            .finish()
    }
}

impl RestClient {
    pub fn new(config: RestConfig, token_hint: &'static str) -> Result<RestClient, HttpError> {
        let exchange = Exchange::new(Setup {
            service: config.forge,
            api_url: config.api_url.clone(),
            auth: config.auth,
            token: config.token,
            headers: Vec::new(),
            // A redirect could carry the token's header to another host.
            redirects: reqwest::redirect::Policy::none(),
            retry: config.retry,
            timeout: config.timeout,
            notices: config.notices,
            dialect: &MessageDialect,
        })
        .map_err(|e| match e {
            SetupError::ApiUrl(reason) => HttpError::InvalidApiUrl {
                forge: config.forge,
                url: config.api_url,
                reason,
            },
            SetupError::Client(detail) => HttpError::Client(detail),
        })?;
        Ok(RestClient {
            forge: config.forge,
            exchange,
            timeout_setting: config.timeout_setting,
            token_hint,
        })
    }

    pub fn has_token(&self) -> bool {
        self.exchange.has_token()
    }

    pub fn api_url(&self) -> &Url {
        self.exchange.api_url()
    }

    /// An endpoint under the API base. Segments are percent-encoded one by one, so a name can
    /// never add path components (`group/project` becomes one `group%2Fproject` segment).
    pub fn endpoint(&self, segments: &[&str]) -> Url {
        self.exchange.endpoint(segments)
    }

    /// The login the token acts as (`None` without a token), asked once (`/user`) and kept in
    /// `kept`; `login` reads it from the forge's user object.
    pub async fn token_login<U: DeserializeOwned>(
        &self,
        kept: &std::sync::OnceLock<String>,
        login: impl FnOnce(U) -> String,
    ) -> Result<Option<String>, HttpError> {
        if !self.has_token() {
            return Ok(None);
        }
        if let Some(known) = kept.get() {
            return Ok(Some(known.clone()));
        }
        let user: U = self
            .get_json(self.endpoint(&["user"]), "the authenticated user")
            .await?;
        Ok(Some(kept.get_or_init(|| login(user)).clone()))
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
        url: Url,
        size: Option<(&str, &str)>,
        what: &str,
    ) -> Result<Vec<T>, HttpError> {
        self.exchange
            .pages(
                url,
                size,
                JSON,
                |answer, call| self.decode(&answer.body, call),
                |failure| self.fail(failure, what),
            )
            .await
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

    /// Sends a request through the shared loop ([`Exchange::send`]): retried as the policy
    /// allows, a POST only when the forge refused it unprocessed (429).
    pub async fn send(
        &self,
        method: Method,
        url: Url,
        body: Option<Vec<u8>>,
        what: &str,
    ) -> Result<Answer, HttpError> {
        self.exchange
            .send(method, url, JSON, body)
            .await
            .map_err(|failure| self.fail(failure, what))
    }

    /// A failed call in this forge's words.
    fn fail(&self, failure: Failure, what: &str) -> HttpError {
        let forge = self.forge;
        match failure {
            Failure::Timeout {
                call,
                attempts,
                stage,
            } => HttpError::Timeout {
                call,
                attempts,
                advice: stage.advice(self.exchange.timeout(), forge, self.timeout_setting),
            },
            Failure::Transport {
                call,
                attempts,
                detail,
                ..
            } => HttpError::Transport {
                forge,
                call,
                attempts,
                detail,
            },
            Failure::CutShort {
                call,
                attempts,
                detail,
            } => HttpError::CutShort {
                forge,
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
            } => HttpError::RateLimited {
                forge,
                call,
                status,
                reset_epoch,
                resets_in_secs: crate::retry::whole_seconds(resets_in),
            },
            Failure::Refused {
                call,
                status: 401,
                message,
                ..
            } if self.has_token() => HttpError::Unauthorized {
                forge,
                call,
                status: 401,
                message,
            },
            Failure::Refused {
                call,
                status: 401,
                message,
                ..
            } => HttpError::AuthenticationRequired {
                call,
                status: 401,
                message,
                hint: self.token_hint,
            },
            Failure::Refused {
                call, status: 404, ..
            } => HttpError::NotFound {
                call,
                what: what.to_owned(),
            },
            Failure::Refused {
                call,
                status,
                message,
                attempts,
                ..
            } => HttpError::Status {
                forge,
                call,
                status,
                message,
                attempts,
            },
            Failure::Unreadable { call, detail } => HttpError::Decode {
                forge,
                call,
                detail,
            },
            Failure::ForeignPageLink { call, host } => HttpError::ForeignPageLink { call, host },
        }
    }

    fn decode<T: DeserializeOwned>(&self, body: &[u8], call: &Call) -> Result<T, HttpError> {
        serde_json::from_slice(body).map_err(|e| HttpError::Decode {
            forge: self.forge,
            call: call.clone(),
            detail: e.to_string(),
        })
    }
}
