//! What can go wrong talking to GitHub, phrased so the person knows what to fix.
//!
//! Every variant names the call (method and path, never the host or a token) because "GitHub
//! failed" is useless when a review makes a dozen calls.

pub(crate) use crate::pr::http::Call;

#[derive(Debug, thiserror::Error)]
pub enum GithubError {
    #[error("invalid GitHub API URL {url:?}: {reason}")]
    InvalidApiUrl { url: String, reason: String },

    #[error("{name:?} is not a valid GitHub owner or repository name")]
    InvalidName { name: String },

    #[error("could not set up the HTTP client: {0}")]
    Client(String),

    #[error(
        "{call}: GitHub rejected the token (401: {message}); check GH_TOKEN / GITHUB_TOKEN \
         (or `gh auth login`) — the token is not shown here"
    )]
    Unauthorized { call: Call, message: String },

    #[error(
        "{call}: authentication required (401: {message}); set GH_TOKEN or GITHUB_TOKEN, \
         or log in with `gh auth login`"
    )]
    AuthenticationRequired { call: Call, message: String },

    #[error(
        "{call}: the token is a GitHub App installation token (403: {message}), so GitHub will \
         not say who it acts as; name it with `login = \"APP-SLUG[bot]\"` under [github] in the \
         config file, or REVIEW_TUI_GITHUB_LOGIN, so review-tui can find its own earlier reviews"
    )]
    InstallationLogin { call: Call, message: String },

    #[error(
        "{call}: {what} was not found (404); check the owner, repository and number, and that \
         the token can see it if the repository is private"
    )]
    NotFound { call: Call, what: String },

    #[error(
        "{call}: GitHub answered {status} after {attempts} attempt(s): {message}{}",
        status_hint(*status)
    )]
    Status {
        call: Call,
        status: u16,
        message: String,
        /// GitHub's `errors`, one text each: what a 422 is really about.
        errors: Vec<String>,
        attempts: u32,
    },

    #[error("{call}: could not reach GitHub after {attempts} attempt(s): {detail}")]
    Transport {
        call: Call,
        attempts: u32,
        detail: String,
    },

    #[error(
        "{call}: the connection broke while GitHub's answer was arriving, {attempts} attempt(s) \
         in a row ({detail}); check the network or any proxy in between, then run again"
    )]
    BrokenAnswer {
        call: Call,
        attempts: u32,
        detail: String,
    },

    #[error(
        "{call}: GitHub's answer was cut short, {attempts} attempt(s) in a row ({detail}); check \
         the network or any proxy in between, then run again"
    )]
    CutShort {
        call: Call,
        attempts: u32,
        detail: String,
    },

    #[error(
        "{call}, {attempts} attempt(s): {}",
        stage.advice(*timeout, "the GitHub API", "[github] request_timeout")
    )]
    Timeout {
        call: Call,
        attempts: u32,
        timeout: std::time::Duration,
        /// Never connected, no answer, or an answer still arriving: each has its own advice.
        stage: crate::error_text::TimedOut,
    },

    #[error(
        "{call}: GitHub's API rate limit is used up ({status}); it resets at {} \
         (in {}); run again after that{}",
        crate::retry::utc_time(*reset_epoch),
        humantime::format_duration(std::time::Duration::from_secs(*resets_in_secs)),
        if *anonymous { ", or set GH_TOKEN / GITHUB_TOKEN for a higher limit" } else { "" }
    )]
    RateLimited {
        call: Call,
        status: u16,
        /// Seconds since the Unix epoch, shown as `2026-01-02 03:04:05 UTC`.
        reset_epoch: u64,
        resets_in_secs: u64,
        /// No token was sent: the anonymous limit is 60 requests an hour.
        anonymous: bool,
    },

    #[error(
        "{call}: GitHub answered {answered}, not JSON; check that \
         --api-url / GITHUB_API_URL is the API's address (https://api.github.com, or \
         https://HOST/api/v3 for GitHub Enterprise), not a web page or a proxy's login"
    )]
    NotJson {
        call: Call,
        /// The media type and the start of the body: `text/html (it starts "<!DOCTYPE")`.
        answered: String,
    },

    #[error(
        "{call}: GitHub answered with a success status but the body is an error, not the data \
         asked for: {message}; run again later (https://www.githubstatus.com)"
    )]
    ErrorInSuccess { call: Call, message: String },

    #[error("{call}: GitHub's answer did not have the expected shape: {detail}")]
    Decode { call: Call, detail: String },

    #[error("{call}: refusing to follow a pagination link to another host ({host})")]
    ForeignPageLink { call: Call, host: String },

    /// A PR URL named a host whose API the person never configured: nothing is sent there,
    /// least of all the token (see `hosts`).
    #[error(
        "{host} is not github.com and no GitHub API is configured for it, so nothing was sent \
         there (a token goes only to api.github.com or to an API you configured); if {host} is \
         a GitHub Enterprise Server you trust, pass --api-url https://{host}/api/v3 (or set \
         GITHUB_API_URL), or add to the config file (`review-tui config path` shows where): \
         [github.hosts.\"{host}\"] api_url = \"https://{host}/api/v3\""
    )]
    UnconfiguredHost { host: String },
}

/// What to do about a status, where there is something to say.
fn status_hint(status: u16) -> &'static str {
    match status {
        500..=599 => {
            "; GitHub is failing, not the request: run again later (https://www.githubstatus.com)"
        }
        429 => "; GitHub is throttling this client: wait a few minutes and run again",
        _ => "",
    }
}

impl GithubError {
    /// GitHub's 422: the request was understood and refused (an inline anchor outside the
    /// diff, an event the account may not use). Never retried; the message says why.
    pub fn is_unprocessable(&self) -> bool {
        matches!(self, GithubError::Status { status: 422, .. })
    }

    /// What a 422 refused, read from GitHub's `errors`; `None` for any other error.
    pub fn refusal(&self) -> Option<super::Refusal> {
        match self {
            GithubError::Status {
                status: 422,
                message,
                errors,
                ..
            } => Some(super::refusal::classify(message, errors)),
            _ => None,
        }
    }

    /// GitHub could not be reached at all: no connection (refused, no route, a name that
    /// does not resolve) or no answer in time. An answer of any kind — 401, 403, 404, a
    /// 5xx, a broken body — is not this: the server is there and said something.
    pub fn is_unreachable(&self) -> bool {
        matches!(
            self,
            GithubError::Transport { .. } | GithubError::Timeout { .. }
        )
    }

    /// The call that failed, when there was one.
    pub fn call(&self) -> Option<&Call> {
        match self {
            GithubError::InvalidApiUrl { .. }
            | GithubError::InvalidName { .. }
            | GithubError::UnconfiguredHost { .. }
            | GithubError::Client(_) => None,
            GithubError::Unauthorized { call, .. }
            | GithubError::InstallationLogin { call, .. }
            | GithubError::AuthenticationRequired { call, .. }
            | GithubError::NotFound { call, .. }
            | GithubError::Status { call, .. }
            | GithubError::Transport { call, .. }
            | GithubError::BrokenAnswer { call, .. }
            | GithubError::CutShort { call, .. }
            | GithubError::Timeout { call, .. }
            | GithubError::RateLimited { call, .. }
            | GithubError::NotJson { call, .. }
            | GithubError::ErrorInSuccess { call, .. }
            | GithubError::Decode { call, .. }
            | GithubError::ForeignPageLink { call, .. } => Some(call),
        }
    }
}

/// GitHub's errors as the forge port sees them: by kind, with the error itself kept for what
/// it says (and for the GitHub publisher, which reads GitHub's refusal reasons back).
impl From<GithubError> for crate::pr::forge::ForgeError {
    fn from(error: GithubError) -> Self {
        use crate::pr::forge::ForgeErrorKind as Kind;
        let kind = match &error {
            GithubError::Unauthorized { .. }
            | GithubError::AuthenticationRequired { .. }
            | GithubError::InstallationLogin { .. } => Kind::Auth,
            GithubError::NotFound { .. } => Kind::NotFound,
            GithubError::RateLimited { .. } => Kind::RateLimited,
            GithubError::Status { status, .. } if (400..500).contains(status) => {
                Kind::Rejected { status: *status }
            }
            GithubError::Transport { .. } | GithubError::Timeout { .. } => Kind::Unreachable,
            _ => Kind::Other,
        };
        let refusal = error.neutral_refusal();
        let forge_error = crate::pr::forge::ForgeError::new(kind, error);
        match refusal {
            Some((refusal, reason, advice)) => {
                let refused = forge_error.refused(refusal, reason);
                match advice {
                    Some(advice) => refused.advising(advice),
                    None => refused,
                }
            }
            None => forge_error,
        }
    }
}

impl GithubError {
    /// What GitHub refused, as the publisher's neutral kinds: a 422 by its `errors`, a 406 on
    /// the diff (too large to show whole). With GitHub's words and, where there is one, how to
    /// allow it.
    fn neutral_refusal(&self) -> Option<(crate::pr::forge::Refusal, String, Option<String>)> {
        use super::Refusal;
        use crate::pr::forge::Refusal as Neutral;
        if let GithubError::Status {
            status: 406,
            message,
            ..
        } = self
        {
            return Some((Neutral::DiffTooLarge, message.clone(), None));
        }
        let refusal = self.refusal()?;
        let reason = match self {
            GithubError::Status {
                message, errors, ..
            } if errors.is_empty() => message.clone(),
            GithubError::Status { errors, .. } => errors.join("; "),
            other => other.to_string(),
        };
        let mut advice = None;
        let neutral = match refusal {
            Refusal::Anchor => Neutral::Anchor,
            Refusal::ActionsMayNotApprove => {
                advice = Some(
                    "the repository does not let GitHub Actions approve; Settings → Actions → General → \"Allow GitHub Actions to create and approve pull requests\" allows it"
                        .to_string(),
                );
                Neutral::EventNotPermitted
            }
            Refusal::OwnPullRequest => Neutral::OwnPullRequest,
            Refusal::PendingReview => Neutral::PendingReview,
            Refusal::BodyTooLong => Neutral::BodyTooLong,
            Refusal::CommitNotInPullRequest => Neutral::HeadMoved,
            // A second dismissal of one review: already done.
            Refusal::Other if reason.to_ascii_lowercase().contains("dismissed") => {
                Neutral::AlreadyDone
            }
            Refusal::Other => Neutral::Other,
        };
        Some((neutral, reason, advice))
    }
}
