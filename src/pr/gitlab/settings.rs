//! Connecting to GitLab: `[gitlab]` in the user's config (its hosts, each one's API and token
//! variable, timeouts), the token (the host's `token_env`, else `GITLAB_TOKEN`, else `glab`'s
//! stored token for that host), the header it goes in, and where git may send it.

use std::sync::Arc;

use reqwest::header::{AUTHORIZATION, HeaderName};

use super::GitlabForge;
use super::error::GitlabError;
use crate::config::Config;
use crate::pr::connect::{Connected, Connection, ForgeSettings, SettingError};
use crate::pr::forge::ForgeError;
use crate::pr::hosted::HostedPr;
use crate::pr::self_hosted::{HostedAuth, HostedSettings, reach};
use crate::pr::token::{Token, tool_output};

/// The host `GROUP/PROJECT!N` names, and the one known without configuration.
pub const GITLAB_HOST: &str = "gitlab.com";

/// Where a GitLab token is found, for the errors that say one is missing.
pub const TOKEN_HINT: &str =
    "GITLAB_TOKEN, `glab auth login`, or token_env in the host's [gitlab.host.\"HOST\"] entry";

/// GitLab's settings: its hosts and how its API is called.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GitlabSettings(pub HostedSettings);

impl Default for GitlabSettings {
    fn default() -> Self {
        GitlabSettings(HostedSettings::new(
            "gitlab",
            "GitLab",
            GITLAB_HOST,
            "/api/v4",
        ))
    }
}

pub(super) fn settings(config: &Config) -> Result<Arc<dyn ForgeSettings>, SettingError> {
    let settings = GitlabSettings::default().0.with_layer(&config.gitlab)?;
    Ok(Arc::new(GitlabSettings(settings)))
}

/// The token for `host`: the variable its entry names, else `GITLAB_TOKEN`, else what `glab`
/// keeps for that host. Only ever asked for a known host (an unknown one is refused first).
pub(super) fn discover(settings: &HostedSettings, host: &str) -> Option<Token> {
    discover_with(
        settings,
        host,
        |name| std::env::var(name).ok(),
        |host| {
            tool_output(
                std::env::var_os("PATH").as_deref(),
                "glab",
                &["config", "get", "token", "--host", host],
            )
        },
    )
}

fn discover_with(
    settings: &HostedSettings,
    host: &str,
    env: impl Fn(&str) -> Option<String>,
    glab: impl FnOnce(&str) -> Option<String>,
) -> Option<Token> {
    if let Some(name) = settings.token_env(host) {
        // Named for this host: nothing else stands in for it.
        return env(name).and_then(Token::new);
    }
    env("GITLAB_TOKEN")
        .and_then(Token::new)
        .or_else(|| glab(host).and_then(Token::new))
}

/// The header a token goes in: personal, project and group access tokens (`glpat-…`) as
/// `PRIVATE-TOKEN`; anything else (an OAuth token, a CI job token) as `Authorization: Bearer`,
/// which GitLab also takes for access tokens.
pub(super) fn auth_header(token: &Token) -> (HeaderName, String) {
    if token.expose().starts_with("glpat-") {
        (
            HeaderName::from_static("private-token"),
            token.expose().to_string(),
        )
    } else {
        (AUTHORIZATION, format!("Bearer {}", token.expose()))
    }
}

/// How GitLab is reached: its name, the header its token goes in, where its token is found.
pub(super) const AUTH: HostedAuth = HostedAuth {
    forge: "GitLab",
    timeout_setting: "[gitlab] request_timeout",
    token_hint: TOKEN_HINT,
    discover,
    header: auth_header,
};

pub(super) fn connect(pr: &HostedPr, connection: &Connection) -> Result<Connected, ForgeError> {
    let defaults = GitlabSettings::default();
    let settings = &connection
        .settings_of::<GitlabSettings>(&pr.forge)
        .unwrap_or(&defaults)
        .0;
    let reached = reach(pr, connection, settings, &AUTH).map_err(GitlabError::from)?;
    let forge = GitlabForge::new(reached.client.clone(), pr);
    Ok(reached.connected(Box::new(forge), pr))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{ForgeHostLayer, HostedForgeLayer};

    fn env_of(pairs: &'static [(&'static str, &'static str)]) -> impl Fn(&str) -> Option<String> {
        move |name| {
            pairs
                .iter()
                .find(|(k, _)| *k == name)
                .map(|(_, v)| (*v).to_owned())
        }
    }

    #[test]
    fn the_hosts_variable_then_gitlab_token_then_glab() {
        let mut layer = HostedForgeLayer::default();
        layer.host.insert(
            "git.corp".into(),
            ForgeHostLayer {
                api_url: None,
                token_env: Some("CORP_TOKEN".into()),
            },
        );
        let settings = GitlabSettings::default().0.with_layer(&layer).unwrap();
        let env = env_of(&[("CORP_TOKEN", "corp"), ("GITLAB_TOKEN", "public")]);
        let found = |host: &str| {
            discover_with(&settings, host, &env, |_| Some("from-glab".into()))
                .map(|t| t.expose().to_string())
        };
        assert_eq!(found("git.corp").as_deref(), Some("corp"));
        assert_eq!(found("gitlab.com").as_deref(), Some("public"));
        let from_glab = discover_with(&settings, "gitlab.com", env_of(&[]), |host| {
            assert_eq!(host, "gitlab.com");
            Some("glab-token\n".into())
        });
        assert_eq!(from_glab.unwrap().expose(), "glab-token");
        // A host whose entry names a variable that is unset gets no other token.
        assert!(
            discover_with(
                &settings,
                "git.corp",
                env_of(&[("GITLAB_TOKEN", "x")]),
                |_| None
            )
            .is_none()
        );
    }

    #[test]
    fn access_tokens_go_in_private_token_and_others_as_bearer() {
        let (name, value) = auth_header(&Token::new("glpat-abc").unwrap());
        assert_eq!(
            (name.as_str(), value.as_str()),
            ("private-token", "glpat-abc")
        );
        let (name, value) = auth_header(&Token::new("oauth-xyz").unwrap());
        assert_eq!(
            (name.as_str(), value.as_str()),
            ("authorization", "Bearer oauth-xyz")
        );
    }
}
