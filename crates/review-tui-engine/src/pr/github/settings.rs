//! Connecting to GitHub: its settings (`[github]` in the configuration, then the environment),
//! the token found the way `gh` finds it, the API a PR's host is read through, and the one
//! rule for where git may send the token.

use std::sync::Arc;
use std::time::Duration;

use crate::config::{Config, GithubLayer};
use crate::pr::connect::{
    Connected, Connection, ForgeSettings, Notices, SettingError, TokenChoice,
};
use crate::pr::forge::ForgeError;
use crate::pr::hosted::HostedPr;
use crate::pr::token::Token;

use super::GithubForge;
use super::client::{DEFAULT_API_URL, GithubClient, GithubConfig};
use super::hosts::{ApiHosts, GITHUB_HOST};
use crate::retry::RetryPolicy;

/// How the GitHub API is called: the client's defaults unless `[github]` says otherwise.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GithubSettings {
    pub retry: RetryPolicy,
    pub timeout: Duration,
    /// The APIs configured per host: with github.com's, the only places a token is sent.
    pub apis: ApiHosts,
    /// Who the token acts as, when named (`[github] login`, `REVIEW_TUI_GITHUB_LOGIN`).
    pub login: Option<String>,
    /// Who an installation token acts as when `GET /user` refuses it (inside GitHub Actions).
    pub installation_login: Option<String>,
    /// `GITHUB_API_URL`: the API every GitHub PR of this run is read through, under
    /// `--api-url` and over the configuration (as Actions sets it for its own server).
    pub env_api_url: Option<String>,
}

impl Default for GithubSettings {
    fn default() -> Self {
        let defaults = GithubConfig::new(DEFAULT_API_URL, None);
        GithubSettings {
            retry: defaults.retry,
            timeout: defaults.timeout,
            apis: ApiHosts::default(),
            login: None,
            installation_login: None,
            env_api_url: None,
        }
    }
}

impl GithubSettings {
    /// `[github]` over the defaults; a value that is not a duration is an error naming it.
    pub fn from_layer(layer: &GithubLayer) -> Result<GithubSettings, SettingError> {
        let mut settings = GithubSettings::default();
        let duration = |value: &Option<String>,
                        key: &'static str|
         -> Result<Option<Duration>, SettingError> {
            value
                .as_deref()
                .map(|text| {
                    humantime::parse_duration(text.trim()).map_err(|_| SettingError::NotADuration {
                        section: "github",
                        key,
                        value: text.to_string(),
                    })
                })
                .transpose()
        };
        if let Some(timeout) = duration(&layer.request_timeout, "request_timeout")? {
            settings.timeout = timeout;
        }
        if let Some(backoff) = duration(&layer.backoff, "backoff")? {
            settings.retry.base_backoff = backoff;
        }
        if let Some(max_wait) = duration(&layer.max_wait, "max_wait")? {
            settings.retry.max_wait = max_wait;
        }
        if let Some(attempts) = layer.max_attempts {
            settings.retry.max_attempts = attempts.max(1);
        }
        settings.apis = ApiHosts {
            default: layer.api_url.clone(),
            per_host: (layer.hosts.iter())
                .map(|(host, entry)| (host.clone(), entry.api_url.clone()))
                .collect(),
        };
        settings.login = layer.login.clone().filter(|l| !l.trim().is_empty());
        Ok(settings)
    }

    /// What the environment says: `REVIEW_TUI_GITHUB_LOGIN` over `[github] login`, GitHub
    /// Actions' own token login inside Actions, and `GITHUB_API_URL`. An empty variable is
    /// unset; an address that is not one is refused in [`GithubSettings::checked_env`].
    pub fn with_env(mut self) -> GithubSettings {
        self.env_api_url = std::env::var("GITHUB_API_URL")
            .ok()
            .filter(|url| !url.trim().is_empty());
        if let Ok(login) = std::env::var("REVIEW_TUI_GITHUB_LOGIN")
            && !login.trim().is_empty()
        {
            self.login = Some(login.trim().to_owned());
        }
        self.installation_login = super::installation_login_from_env();
        self
    }

    /// A client configuration for `api_url` with these timeouts and retries.
    pub fn config(
        &self,
        api_url: String,
        token: Option<Token>,
        notices: Option<Notices>,
    ) -> GithubConfig {
        let mut config = GithubConfig::new(api_url, token);
        config.retry = self.retry.clone();
        config.timeout = self.timeout;
        config.login = self.login.clone();
        config.installation_login = self.installation_login.clone();
        config.notices = notices;
        config
    }
}

/// `[github]` and the environment, as the registry asks each forge: an API address that is
/// not one is refused here, before any work.
pub(super) fn settings(config: &Config) -> Result<Arc<dyn ForgeSettings>, SettingError> {
    let settings = GithubSettings::from_layer(&config.github)?.with_env();
    if let Some(url) = &settings.env_api_url {
        crate::pr::connect::parse_api_url(url).map_err(|e| SettingError::NotAnApiUrl {
            setting: "GITHUB_API_URL".into(),
            url: url.clone(),
            reason: e.0,
        })?;
    }
    Ok(Arc::new(settings))
}

/// A client for `pr`: through the API its host is configured with (an unconfigured host gets
/// no request and no token), with the token the connection allows.
pub(super) fn connect(pr: &HostedPr, connection: &Connection) -> Result<Connected, ForgeError> {
    let defaults = GithubSettings::default();
    let settings = connection
        .settings_of::<GithubSettings>(&pr.forge)
        .unwrap_or(&defaults);
    // Refused before a token is even looked for.
    let explicit = connection
        .api_url
        .as_deref()
        .or(settings.env_api_url.as_deref());
    let api_url = settings.apis.api_for(&pr.host, explicit)?;
    let token = match &connection.token {
        TokenChoice::Given(token) => Some(token.clone()),
        TokenChoice::Anonymous => None,
        TokenChoice::Discover => super::token::discover().map(|(token, _)| token),
    };
    let client = GithubClient::new(settings.config(
        api_url.clone(),
        token.clone(),
        connection.notices.clone(),
    ))?;
    let forge = GithubForge::new(client, &pr.owner, &pr.repo, pr.number)?;
    let host = pr.host.clone();
    Ok(Connected::new(Box::new(forge), token, move |remote| {
        remote_may_get_token(remote, &host, &api_url)
    }))
}

/// Whether git may send the token to `remote`: only when it is on the PR's host or the API's
/// (github.com's clone URLs for api.github.com). A local path needs none and gets none.
fn remote_may_get_token(remote: &str, pr_host: &str, api_url: &str) -> bool {
    let host_of = |url: &str| {
        reqwest::Url::parse(url).ok().and_then(|u| {
            let host = u.host_str()?.to_ascii_lowercase();
            Some(match u.port() {
                Some(port) => format!("{host}:{port}"),
                None => host,
            })
        })
    };
    let Some(remote) = host_of(remote) else {
        return false;
    };
    let api = host_of(api_url);
    let api = match api.as_deref() {
        Some("api.github.com") => Some(GITHUB_HOST.to_string()),
        _ => api,
    };
    remote == pr_host.to_ascii_lowercase() || Some(remote) == api
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Layer;

    #[test]
    fn github_settings_come_from_the_users_github_section() {
        let mut config = Config::default();
        let layer = Layer::parse(
            "[github]\nrequest_timeout = \"5s\"\nmax_attempts = 2\nbackoff = \"50ms\"\nmax_wait = \"3s\"\n",
            "config.toml",
        )
        .unwrap();
        config.apply(layer, "config.toml");
        let settings = GithubSettings::from_layer(&config.github).unwrap();
        assert_eq!(settings.timeout, Duration::from_secs(5));
        assert_eq!(
            settings.retry,
            RetryPolicy {
                max_attempts: 2,
                base_backoff: Duration::from_millis(50),
                max_wait: Duration::from_secs(3),
            }
        );
        // Unset fields keep the client's defaults.
        let defaults = GithubSettings::from_layer(&GithubLayer::default()).unwrap();
        assert_eq!(defaults, GithubSettings::default());
        assert_eq!(defaults.timeout, Duration::from_secs(60));

        let bad = GithubLayer {
            request_timeout: Some("soon".into()),
            ..GithubLayer::default()
        };
        let err = GithubSettings::from_layer(&bad).unwrap_err().to_string();
        assert!(err.contains("[github] request_timeout \"soon\""), "{err}");
        assert!(Layer::parse("[github]\ntimeout = \"5s\"\n", "config.toml").is_err());
    }

    #[test]
    fn the_clone_url_gets_the_token_only_on_the_prs_or_the_apis_host() {
        let dotcom = DEFAULT_API_URL;
        assert!(remote_may_get_token(
            "https://github.com/o/r.git",
            "github.com",
            dotcom
        ));
        assert!(!remote_may_get_token(
            "https://evil.example/o/r.git",
            "github.com",
            dotcom
        ));
        assert!(remote_may_get_token(
            "https://ghe.corp/o/r.git",
            "ghe.corp",
            "https://ghe.corp/api/v3"
        ));
        assert!(remote_may_get_token(
            "http://127.0.0.1:9/o/r.git",
            "github.com",
            "http://127.0.0.1:9"
        ));
        assert!(!remote_may_get_token(
            "http://127.0.0.1:10/o/r.git",
            "github.com",
            "http://127.0.0.1:9"
        ));
        assert!(!remote_may_get_token("/tmp/repo", "github.com", dotcom));
    }
}
