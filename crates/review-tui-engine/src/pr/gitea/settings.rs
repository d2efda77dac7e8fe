//! Connecting to Gitea or Forgejo: `[gitea]` in the user's config (its hosts, each one's API
//! and token variable, timeouts), the token (the host's `token_env`, else `GITEA_TOKEN`, else
//! `FORGEJO_TOKEN`, else `tea`'s login for that host), the header it goes in, and where git may
//! send it.

use std::path::PathBuf;
use std::sync::Arc;

use reqwest::header::AUTHORIZATION;

use super::GiteaForge;
use super::error::GiteaError;
use crate::config::Config;
use crate::pr::connect::{Connected, Connection, ForgeSettings, SettingError};
use crate::pr::forge::ForgeError;
use crate::pr::hosted::HostedPr;
use crate::pr::self_hosted::{
    HostedAuth, HostedForgeSettings, HostedSettings, connect as connect_hosted,
};
use crate::pr::token::Token;

/// The public host known without configuration.
pub const GITEA_HOST: &str = "codeberg.org";

/// Where a Gitea token is found, for the errors that say one is missing.
pub(super) const TOKEN_HINT: &str = "GITEA_TOKEN, FORGEJO_TOKEN, `tea login add`, or token_env in the host's [gitea.host.\"HOST\"] entry";

/// Gitea's settings: its hosts and how its API is called.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GiteaSettings(pub HostedSettings);

impl Default for GiteaSettings {
    fn default() -> Self {
        GiteaSettings(HostedSettings::new("gitea", "Gitea", GITEA_HOST, "/api/v1"))
    }
}

pub(super) fn settings(config: &Config) -> Result<Arc<dyn ForgeSettings>, SettingError> {
    let settings = GiteaSettings::default().0.with_layer(&config.gitea)?;
    Ok(Arc::new(GiteaSettings(settings)))
}

/// The token `tea` keeps for `host`: the one of its login whose URL is on that host.
fn tea_login_token(host: &str) -> Option<String> {
    let config = tea_config(
        std::env::var_os("XDG_CONFIG_HOME").map(PathBuf::from),
        std::env::var_os("HOME").map(PathBuf::from),
    )?;
    let text = std::fs::read_to_string(config).ok()?;
    tea_token(&text, host)
}

/// `tea`'s config file: `$XDG_CONFIG_HOME/tea/config.yml`, else `~/.config/tea/config.yml`.
fn tea_config(xdg: Option<PathBuf>, home: Option<PathBuf>) -> Option<PathBuf> {
    let base = xdg
        .filter(|p| p.is_absolute())
        .or_else(|| home.map(|h| h.join(".config")))?;
    Some(base.join("tea").join("config.yml"))
}

/// The token of the login in `tea`'s config whose `url` is on `host` (the host and port
/// exactly: a token is never offered to another server). The file is YAML in the one shape
/// `tea` writes (`logins:` then `- name: …` entries of `key: value` lines), read line by line.
fn tea_token(text: &str, host: &str) -> Option<String> {
    let mut entries: Vec<Vec<(String, String)>> = Vec::new();
    for line in text.lines() {
        let trimmed = line.trim_start();
        let (starts_entry, rest) = match trimmed.strip_prefix("- ") {
            Some(rest) => (true, rest),
            None => (false, trimmed),
        };
        if starts_entry {
            entries.push(Vec::new());
        }
        let Some((key, value)) = rest.split_once(':') else {
            continue;
        };
        let value = value.trim().trim_matches(['"', '\'']).to_string();
        if let Some(entry) = entries.last_mut() {
            entry.push((key.trim().to_string(), value));
        }
    }
    entries.into_iter().find_map(|entry| {
        let field = |name: &str| {
            entry
                .iter()
                .find(|(k, _)| k == name)
                .map(|(_, v)| v.as_str())
        };
        let url = reqwest::Url::parse(field("url")?).ok()?;
        let on = match url.port() {
            Some(port) => format!("{}:{port}", url.host_str()?),
            None => url.host_str()?.to_string(),
        };
        on.eq_ignore_ascii_case(host)
            .then(|| field("token").map(str::to_string))
            .flatten()
    })
}

/// The header Gitea and Forgejo take a token in.
fn auth_header(token: &Token) -> (reqwest::header::HeaderName, String) {
    (AUTHORIZATION, format!("token {}", token.expose()))
}

/// How Gitea is reached: its name, the header its token goes in, where its token is found.
pub(super) const AUTH: HostedAuth = HostedAuth {
    forge: "Gitea",
    timeout_setting: "[gitea] request_timeout",
    token_hint: TOKEN_HINT,
    token_variables: &["GITEA_TOKEN", "FORGEJO_TOKEN"],
    tool_token: tea_login_token,
    header: auth_header,
};

impl HostedForgeSettings for GiteaSettings {
    fn hosted(&self) -> &HostedSettings {
        &self.0
    }
}

pub(super) fn connect(pr: &HostedPr, connection: &Connection) -> Result<Connected, ForgeError> {
    let connected = connect_hosted::<GiteaSettings>(pr, connection, &AUTH, |client| {
        Box::new(GiteaForge::new(client, pr))
    });
    Ok(connected.map_err(GiteaError::from)?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pr::token::env_of;

    #[test]
    fn gitea_then_forgejo_then_tea() {
        // A host's own variable comes first and alone: `pr::self_hosted` tests that.
        let settings = GiteaSettings::default().0;
        let found = |env: &'static [(&'static str, &'static str)]| {
            settings
                .discover_token("codeberg.org", env_of(env), AUTH.token_variables, |_| {
                    Some("from-tea".into())
                })
                .map(|t| t.expose().to_string())
        };
        let both = &[("GITEA_TOKEN", "gitea"), ("FORGEJO_TOKEN", "forgejo")];
        assert_eq!(found(both).as_deref(), Some("gitea"));
        assert_eq!(
            found(&[("FORGEJO_TOKEN", "forgejo")]).as_deref(),
            Some("forgejo")
        );
        assert_eq!(found(&[]).as_deref(), Some("from-tea"));
    }

    #[test]
    fn teas_token_is_the_one_of_the_login_on_that_host() {
        let config = "logins:\n- name: codeberg\n  url: https://codeberg.org\n  token: cb-token\n  default: true\n- name: work\n  url: \"https://git.corp.example:3000/\"\n  token: work-token\npreferences:\n  editor: false\n";
        assert_eq!(
            tea_token(config, "codeberg.org").as_deref(),
            Some("cb-token")
        );
        assert_eq!(
            tea_token(config, "git.corp.example:3000").as_deref(),
            Some("work-token")
        );
        assert_eq!(tea_token(config, "git.corp.example"), None);
        assert_eq!(tea_token(config, "evil.example"), None);
        assert_eq!(
            tea_config(None, Some("/h".into())),
            Some(PathBuf::from("/h/.config/tea/config.yml"))
        );
        assert_eq!(
            tea_config(Some("/x".into()), Some("/h".into())),
            Some(PathBuf::from("/x/tea/config.yml"))
        );
    }

    #[test]
    fn the_token_goes_in_authorization_as_token() {
        let (name, value) = auth_header(&Token::new("abc").unwrap());
        assert_eq!(
            (name.as_str(), value.as_str()),
            ("authorization", "token abc")
        );
    }
}
