//! A forge reached by host (GitLab, Gitea/Forgejo): its public host is known without any
//! configuration; any other host only once the person named it in their own config file
//! (`[gitlab] hosts = ["git.corp.example"]`). A PR URL is typed or pasted, often from a message
//! someone else wrote, so its host is untrusted: a host no one named gets no request and no
//! token, and the error says what to write to allow it.

use std::collections::BTreeMap;
use std::time::Duration;

use thiserror::Error;

use reqwest::header::HeaderName;

use super::connect::{Connected, Connection, SettingError, TokenChoice, parse_api_url};
use super::forge::{Forge, ForgeError};
use super::hosted::HostedPr;
use super::http::{HttpError, RestClient, RestConfig, RetryPolicy};
use super::inbox::{HostFailure, InboxAnswer, WaitingPr};
use super::token::Token;
use crate::config::{ForgeHostLayer, HostedForgeLayer};

/// One forge's hosts and how its API is called, from its section of the user's config.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HostedSettings {
    /// The section's name (`gitlab`), as the errors name it.
    pub section: &'static str,
    /// The forge's name (`GitLab`).
    pub forge: &'static str,
    /// The host known without configuration (`gitlab.com`).
    pub public_host: &'static str,
    /// Where the API lives on a host when its entry does not say (`/api/v4`).
    pub api_path: &'static str,
    /// Every known host besides the public one, lower case.
    pub hosts: Vec<String>,
    /// Each host's own entry, by lower-case host.
    pub per_host: BTreeMap<String, ForgeHostLayer>,
    pub retry: RetryPolicy,
    pub timeout: Duration,
}

impl HostedSettings {
    /// The defaults: only the public host known, 60 s per call, 4 tries.
    pub fn new(
        section: &'static str,
        forge: &'static str,
        public_host: &'static str,
        api_path: &'static str,
    ) -> HostedSettings {
        HostedSettings {
            section,
            forge,
            public_host,
            api_path,
            hosts: Vec::new(),
            per_host: BTreeMap::new(),
            retry: RetryPolicy::default(),
            timeout: Duration::from_secs(60),
        }
    }

    /// The section over the defaults; a duration or an API address that is not one is an
    /// error naming it.
    pub fn with_layer(mut self, layer: &HostedForgeLayer) -> Result<HostedSettings, SettingError> {
        let section = self.section;
        let duration = |value: &Option<String>,
                        key: &'static str|
         -> Result<Option<Duration>, SettingError> {
            value
                .as_deref()
                .map(|text| {
                    humantime::parse_duration(text.trim()).map_err(|_| SettingError::NotADuration {
                        section,
                        key,
                        value: text.to_string(),
                    })
                })
                .transpose()
        };
        if let Some(timeout) = duration(&layer.request_timeout, "request_timeout")? {
            self.timeout = timeout;
        }
        if let Some(backoff) = duration(&layer.backoff, "backoff")? {
            self.retry.base_backoff = backoff;
        }
        if let Some(max_wait) = duration(&layer.max_wait, "max_wait")? {
            self.retry.max_wait = max_wait;
        }
        if let Some(attempts) = layer.max_attempts {
            self.retry.max_attempts = attempts.max(1);
        }
        for host in &layer.hosts {
            let host = host.trim().to_ascii_lowercase();
            if !host.is_empty() && !self.hosts.contains(&host) {
                self.hosts.push(host);
            }
        }
        for (host, entry) in &layer.host {
            if let Some(url) = &entry.api_url {
                parse_api_url(url).map_err(|e| SettingError::NotAnApiUrl {
                    setting: format!("[{section}.host.{host:?}] api_url"),
                    url: url.clone(),
                    reason: e.0,
                })?;
            }
            let host = host.trim().to_ascii_lowercase();
            if !self.hosts.contains(&host) {
                self.hosts.push(host.clone());
            }
            self.per_host.insert(host, entry.clone());
        }
        Ok(self)
    }

    /// Whether the person (or the forge itself) named `host`.
    pub fn is_known(&self, host: &str) -> bool {
        let host = host.trim().to_ascii_lowercase();
        host == self.public_host || self.hosts.contains(&host)
    }

    /// The API base for a PR on `host`: `explicit` (`--api-url`, named for this run) wins, then
    /// the host's entry, then `https://HOST` and the forge's API path for a known host. An
    /// unknown host is an error saying how to allow it.
    pub fn api_for(&self, host: &str, explicit: Option<&str>) -> Result<String, UnknownHost> {
        if let Some(url) = explicit.map(str::trim).filter(|u| !u.is_empty()) {
            return Ok(url.to_string());
        }
        let host = host.trim().to_ascii_lowercase();
        if !self.is_known(&host) {
            return Err(UnknownHost {
                forge: self.forge,
                section: self.section,
                public_host: self.public_host,
                host,
            });
        }
        Ok(self
            .per_host
            .get(&host)
            .and_then(|entry| entry.api_url.clone())
            .unwrap_or_else(|| format!("https://{host}{}", self.api_path)))
    }

    /// The variable the host's entry names for its token, when it names one.
    pub fn token_env(&self, host: &str) -> Option<&str> {
        self.per_host
            .get(&host.trim().to_ascii_lowercase())
            .and_then(|entry| entry.token_env.as_deref())
            .filter(|name| !name.trim().is_empty())
    }

    /// The token for a known `host`: the variable its entry names, and then nothing else
    /// stands in for it; else the forge's `variables` in order (`env` reads one), else what
    /// the forge's own command-line `tool` keeps for that host.
    pub fn discover_token(
        &self,
        host: &str,
        env: impl Fn(&str) -> Option<String>,
        variables: &[&str],
        tool: impl FnOnce(&str) -> Option<String>,
    ) -> Option<Token> {
        if let Some(name) = self.token_env(host) {
            return env(name).and_then(Token::new);
        }
        variables
            .iter()
            .find_map(|name| env(name).and_then(Token::new))
            .or_else(|| tool(host).and_then(Token::new))
    }
}

/// A forge's own settings type: its [`HostedSettings`], whose `Default` holds the forge's
/// defaults (public host, API path). The type is how the forge finds its settings among the
/// connection's.
pub(crate) trait HostedForgeSettings: Default + 'static {
    fn hosted(&self) -> &HostedSettings;
}

/// The settings of the forge `forge` as this run read them, its defaults where none were.
pub(crate) fn settings_in<S: HostedForgeSettings>(
    connection: &Connection,
    forge: &str,
) -> HostedSettings {
    match connection.settings_of::<S>(forge) {
        Some(settings) => settings.hosted().clone(),
        None => S::default().hosted().clone(),
    }
}

/// A PR URL naming a host no one configured for this forge: nothing is sent there.
#[derive(Debug, Clone, Error, PartialEq, Eq)]
#[error(
    "{host} is not {public_host} and is not a {forge} host named in your config, so nothing was sent there (a token goes only to {public_host} or to a host you named); if {host} is a {forge} server you trust, add it to your config file: [{section}] hosts = [\"{host}\"]"
)]
pub struct UnknownHost {
    pub forge: &'static str,
    pub section: &'static str,
    pub public_host: &'static str,
    pub host: String,
}

/// How a forge reached by host authenticates, for [`reach`].
pub(crate) struct HostedAuth {
    /// The forge's name in every message (`Gitea`).
    pub forge: &'static str,
    /// The setting that lengthens a call's timeout (`[gitea] request_timeout`).
    pub timeout_setting: &'static str,
    /// Where a token is found, for the error that says one is missing.
    pub token_hint: &'static str,
    /// The variables holding a token for any of its hosts, in the order they are tried.
    pub token_variables: &'static [&'static str],
    /// The token the forge's command-line tool keeps for a host (`glab`, `tea`), tried last.
    pub tool_token: fn(&str) -> Option<String>,
    /// The header a token goes in, and its whole value.
    pub header: fn(&Token) -> (HeaderName, String),
}

/// What stops a forge reached by host from being reached: a host no one named, or a client
/// that cannot be built.
#[derive(Debug, Error)]
pub enum ReachError {
    #[error(transparent)]
    UnknownHost(#[from] UnknownHost),
    #[error(transparent)]
    Http(#[from] HttpError),
}

/// A client for a PR's host, with the token it carries.
pub(crate) struct Reached {
    pub client: RestClient,
    pub token: Option<Token>,
    api_url: String,
}

impl Reached {
    /// The connected forge, with git allowed the token only on the PR's host or the API's.
    pub(crate) fn connected(self, forge: Box<dyn Forge>, pr: &HostedPr) -> Connected {
        let (host, api_url) = (pr.host.clone(), self.api_url);
        Connected::new(forge, self.token, move |remote| {
            remote_may_get_token(remote, &host, &api_url)
        })
    }
}

/// The forge of settings `S` connected for `pr` (see [`reach`]); `forge` builds it on the
/// host's client.
pub(crate) fn connect<S: HostedForgeSettings>(
    pr: &HostedPr,
    connection: &Connection,
    auth: &HostedAuth,
    forge: impl FnOnce(RestClient) -> Box<dyn Forge>,
) -> Result<Connected, ReachError> {
    let settings = settings_in::<S>(connection, &pr.forge);
    let reached = reach(pr, connection, &settings, auth)?;
    let forge = forge(reached.client.clone());
    Ok(reached.connected(forge, pr))
}

/// The API client for `pr`: the host refused before a token is even looked for when no one
/// named it, then the token (the one given for this run, none, or the forge's own discovery
/// for that host), in the forge's header.
pub(crate) fn reach(
    pr: &HostedPr,
    connection: &Connection,
    settings: &HostedSettings,
    auth: &HostedAuth,
) -> Result<Reached, ReachError> {
    let api_url = settings.api_for(&pr.host, connection.api_url.as_deref())?;
    let token = token_for(&pr.host, connection, settings, auth);
    let client = client_for(api_url.clone(), token.clone(), connection, settings, auth)?;
    Ok(Reached {
        client,
        token,
        api_url,
    })
}

/// The token for a known `host`: the one given for this run, none, or the forge's own.
fn token_for(
    host: &str,
    connection: &Connection,
    settings: &HostedSettings,
    auth: &HostedAuth,
) -> Option<Token> {
    match &connection.token {
        TokenChoice::Given(token) => Some(token.clone()),
        TokenChoice::Anonymous => None,
        TokenChoice::Discover => settings.discover_token(
            host,
            |name| std::env::var(name).ok(),
            auth.token_variables,
            auth.tool_token,
        ),
    }
}

fn client_for(
    api_url: String,
    token: Option<Token>,
    connection: &Connection,
    settings: &HostedSettings,
    auth: &HostedAuth,
) -> Result<RestClient, HttpError> {
    RestClient::new(
        RestConfig {
            forge: auth.forge,
            api_url,
            auth: token.as_ref().map(auth.header),
            token,
            retry: settings.retry.clone(),
            timeout: settings.timeout,
            timeout_setting: auth.timeout_setting,
            notices: connection.notices.clone(),
        },
        auth.token_hint,
    )
}

/// One host an inbox asks, with a client carrying that host's own token.
pub(crate) struct InboxHost {
    pub host: String,
    pub client: RestClient,
}

/// The hosts whose pull requests can be listed for the person: the public host and every host
/// they named, each through its own API (never `--api-url`: a flag naming another server for
/// this run must not receive this host's token) with the token found for that host alone. A
/// host without a token is skipped; for a host the person named, the returned notes say so
/// (on the public host no token is the ordinary case of someone not on that forge).
pub(crate) fn inbox_hosts(
    connection: &Connection,
    settings: &HostedSettings,
    auth: &HostedAuth,
) -> Result<(Vec<InboxHost>, Vec<String>), ReachError> {
    let mut hosts = Vec::new();
    let mut notes = Vec::new();
    let named = std::iter::once(settings.public_host.to_string()).chain(settings.hosts.clone());
    for host in named {
        let Some(token) = token_for(&host, connection, settings, auth) else {
            if host != settings.public_host {
                notes.push(format!(
                    "{} {host}: no token ({}), so nothing waiting for you there is listed",
                    auth.forge, auth.token_hint
                ));
            }
            continue;
        };
        let api_url = settings.api_for(&host, None)?;
        let client = client_for(api_url, Some(token), connection, settings, auth)?;
        hosts.push(InboxHost { host, client });
    }
    Ok((hosts, notes))
}

/// The inbox of the forge of settings `S`, registered as `forge`: every host it can list
/// ([`inbox_hosts`]), each asked with `ask` ([`ask_hosts`]).
pub(crate) async fn inbox<S, E, Ask, Fut>(
    connection: &Connection,
    forge: &str,
    auth: &HostedAuth,
    ask: Ask,
) -> Result<InboxAnswer, E>
where
    S: HostedForgeSettings,
    E: From<ReachError> + Into<ForgeError>,
    Ask: Fn(InboxHost) -> Fut,
    Fut: Future<Output = Result<Vec<WaitingPr>, E>>,
{
    let settings = settings_in::<S>(connection, forge);
    let (hosts, notes) = inbox_hosts(connection, &settings, auth)?;
    ask_hosts(hosts, notes, ask).await
}

/// Asks every host its part of the inbox (`ask`), one at a time: the rows of those that
/// answered (each pull request once), and the hosts that failed beside them. Only when every
/// host asked failed is the forge's answer that failure (the inbox then keeps its last list).
pub(crate) async fn ask_hosts<E, Ask, Fut>(
    hosts: Vec<InboxHost>,
    notes: Vec<String>,
    ask: Ask,
) -> Result<InboxAnswer, E>
where
    E: Into<ForgeError>,
    Ask: Fn(InboxHost) -> Fut,
    Fut: Future<Output = Result<Vec<WaitingPr>, E>>,
{
    let mut answer = InboxAnswer {
        notes,
        ..InboxAnswer::default()
    };
    let asked = hosts.len();
    let mut first_failure = None;
    for host in hosts {
        let name = host.host.clone();
        match ask(host).await {
            Ok(prs) => {
                for pr in prs {
                    if !answer.prs.iter().any(|p| p.url == pr.url) {
                        answer.prs.push(pr);
                    }
                }
            }
            Err(error) if first_failure.is_none() && answer.failed_hosts.is_empty() => {
                first_failure = Some((name, error));
            }
            Err(error) => answer.failed_hosts.push(HostFailure {
                host: name,
                error: error.into(),
            }),
        }
    }
    if let Some((host, error)) = first_failure {
        if answer.failed_hosts.len() + 1 == asked {
            return Err(error);
        }
        answer.failed_hosts.insert(
            0,
            HostFailure {
                host,
                error: error.into(),
            },
        );
    }
    Ok(answer)
}

/// Whether git may send the token to `remote`: only on the PR's host or the API's. A local
/// path needs none and gets none.
pub(crate) fn remote_may_get_token(remote: &str, pr_host: &str, api_url: &str) -> bool {
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
    remote == pr_host.to_ascii_lowercase() || Some(remote) == host_of(api_url)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pr::token::env_of;

    fn gitlab() -> HostedSettings {
        HostedSettings::new("gitlab", "GitLab", "gitlab.com", "/api/v4")
    }

    #[test]
    fn only_the_public_host_and_the_named_ones_are_known() {
        let settings = gitlab()
            .with_layer(&HostedForgeLayer {
                hosts: vec!["Git.Corp.example".into()],
                ..HostedForgeLayer::default()
            })
            .unwrap();
        assert_eq!(
            settings.api_for("gitlab.com", None).unwrap(),
            "https://gitlab.com/api/v4"
        );
        assert_eq!(
            settings.api_for("git.corp.example", None).unwrap(),
            "https://git.corp.example/api/v4"
        );
        let err = settings.api_for("evil.example", None).unwrap_err();
        let text = err.to_string();
        assert!(
            text.contains("[gitlab] hosts = [\"evil.example\"]"),
            "{text}"
        );
        assert!(text.contains("nothing was sent"), "{text}");
        // The flag names the API for this run.
        assert_eq!(
            settings
                .api_for("evil.example", Some("http://127.0.0.1:9/api/v4"))
                .unwrap(),
            "http://127.0.0.1:9/api/v4"
        );
    }

    #[test]
    fn a_hosts_entry_makes_it_known_with_its_api_and_token_variable() {
        let mut layer = HostedForgeLayer::default();
        layer.host.insert(
            "code.example".into(),
            ForgeHostLayer {
                api_url: Some("https://code.example/gitlab/api/v4".into()),
                token_env: Some("CODE_TOKEN".into()),
            },
        );
        let settings = gitlab().with_layer(&layer).unwrap();
        assert_eq!(
            settings.api_for("code.example", None).unwrap(),
            "https://code.example/gitlab/api/v4"
        );
        assert_eq!(settings.token_env("CODE.example"), Some("CODE_TOKEN"));
        assert_eq!(settings.token_env("gitlab.com"), None);

        layer.host.get_mut("code.example").unwrap().api_url = Some("ftp://x".into());
        let err = gitlab().with_layer(&layer).unwrap_err().to_string();
        assert!(
            err.starts_with("[gitlab.host.\"code.example\"] api_url \"ftp://x\""),
            "{err}"
        );
        let bad = HostedForgeLayer {
            max_wait: Some("later".into()),
            ..HostedForgeLayer::default()
        };
        let err = gitlab().with_layer(&bad).unwrap_err().to_string();
        assert_eq!(
            err,
            "[gitlab] max_wait \"later\" is not a duration (\"30s\", \"2m\")"
        );
    }

    #[test]
    fn a_hosts_own_variable_stands_alone_then_the_forges_in_order_then_its_tool() {
        let mut layer = HostedForgeLayer::default();
        layer.host.insert(
            "git.corp".into(),
            ForgeHostLayer {
                api_url: None,
                token_env: Some("CORP_TOKEN".into()),
            },
        );
        let settings = gitlab().with_layer(&layer).unwrap();
        let variables = &["FIRST", "SECOND"];
        let found = |host: &str, env: &'static [(&'static str, &'static str)]| {
            settings
                .discover_token(host, env_of(env), variables, |_| Some("tool".into()))
                .map(|t| t.expose().to_string())
        };
        let all = &[("CORP_TOKEN", "corp"), ("FIRST", "1"), ("SECOND", "2")];
        assert_eq!(found("git.corp", all).as_deref(), Some("corp"));
        assert_eq!(found("gitlab.com", all).as_deref(), Some("1"));
        assert_eq!(
            found("gitlab.com", &[("FIRST", " "), ("SECOND", "2")]).as_deref(),
            Some("2")
        );
        assert_eq!(found("gitlab.com", &[]).as_deref(), Some("tool"));
        // A host whose entry names a variable that is unset gets no other token.
        assert_eq!(found("git.corp", &[("FIRST", "1")]), None);
    }

    #[test]
    fn git_gets_the_token_only_on_the_prs_or_the_apis_host() {
        let api = "https://git.corp/api/v4";
        assert!(remote_may_get_token(
            "https://git.corp/g/p.git",
            "git.corp",
            api
        ));
        assert!(!remote_may_get_token(
            "https://evil.example/g/p.git",
            "git.corp",
            api
        ));
        assert!(!remote_may_get_token("/tmp/repo", "git.corp", api));
        assert!(remote_may_get_token(
            "http://127.0.0.1:9/g/p.git",
            "gitlab.com",
            "http://127.0.0.1:9/api/v4"
        ));
    }
}
