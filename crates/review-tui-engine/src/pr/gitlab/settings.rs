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
use crate::pr::self_hosted::{
    HostedAuth, HostedForgeSettings, HostedSettings, connect as connect_hosted,
};
use crate::pr::token::{Token, tool_output};

/// The host `GROUP/PROJECT!N` names, and the one known without configuration.
pub const GITLAB_HOST: &str = "gitlab.com";

/// Where a GitLab token is found, for the errors that say one is missing.
pub(super) const TOKEN_HINT: &str =
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

/// The token `glab` keeps for `host`.
fn glab_token(host: &str) -> Option<String> {
    tool_output(
        std::env::var_os("PATH").as_deref(),
        "glab",
        &["config", "get", "token", "--host", host],
    )
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
    token_variables: &["GITLAB_TOKEN"],
    tool_token: glab_token,
    header: auth_header,
};

impl HostedForgeSettings for GitlabSettings {
    fn hosted(&self) -> &HostedSettings {
        &self.0
    }
}

pub(super) fn connect(pr: &HostedPr, connection: &Connection) -> Result<Connected, ForgeError> {
    let connected = connect_hosted::<GitlabSettings>(pr, connection, &AUTH, |client| {
        Box::new(GitlabForge::new(client, pr))
    });
    Ok(connected.map_err(GitlabError::from)?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pr::token::env_of;

    #[test]
    fn gitlab_token_then_glab_for_that_host() {
        // A host's own variable comes first and alone: `pr::self_hosted` tests that.
        let settings = GitlabSettings::default().0;
        let discover = |env: &'static [(&'static str, &'static str)]| {
            settings.discover_token("gitlab.com", env_of(env), AUTH.token_variables, |asked| {
                assert_eq!(asked, "gitlab.com");
                Some("glab-token\n".into())
            })
        };
        let public = discover(&[("GITLAB_TOKEN", "public")]);
        assert_eq!(public.unwrap().expose(), "public");
        assert_eq!(discover(&[]).unwrap().expose(), "glab-token");
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
