//! Which API a pull request's host is reached through, and so where the token may go.
//!
//! A PR URL is typed or pasted by the person, often from a message someone else wrote: the
//! host in it is untrusted. Deriving `https://HOST/api/v3` from it and sending the token there
//! would hand the token to whoever owns HOST. So, as `gh` keeps credentials per host, the
//! token (and any request at all) goes only to github.com's API or to an API the person
//! configured: `--api-url` / `GITHUB_API_URL`, or `[github] api_url` / `[github.hosts]` in
//! their own config file. Any other host is refused with what to write to allow it.

use std::collections::BTreeMap;

use super::client::DEFAULT_API_URL;
use super::error::GithubError;

/// The host whose API is [`DEFAULT_API_URL`] without any configuration.
pub const GITHUB_HOST: &str = "github.com";

/// The API URLs the person configured, by how specific they are.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ApiHosts {
    /// `[github] api_url`: the API for every PR, whatever host its URL names.
    pub default: Option<String>,
    /// `[github.hosts."HOST"] api_url`: the API of one host (a GitHub Enterprise Server).
    pub per_host: BTreeMap<String, String>,
}

impl ApiHosts {
    /// The API base for a PR on `host`. `explicit` is `--api-url` / `GITHUB_API_URL`, which wins:
    /// the person named it for this run. Then the host's own entry, then `[github] api_url`,
    /// then api.github.com for github.com. Any other host is an error saying how to allow it.
    pub fn api_for(&self, host: &str, explicit: Option<&str>) -> Result<String, GithubError> {
        let host = host.trim().to_ascii_lowercase();
        let configured = explicit
            .map(str::trim)
            .filter(|url| !url.is_empty())
            .map(str::to_string)
            .or_else(|| {
                self.per_host
                    .iter()
                    .find(|(name, _)| name.trim().eq_ignore_ascii_case(&host))
                    .map(|(_, url)| url.clone())
            })
            .or_else(|| self.default.clone());
        match configured {
            Some(url) => Ok(url),
            None if host == GITHUB_HOST => Ok(DEFAULT_API_URL.to_string()),
            None => Err(GithubError::UnconfiguredHost { host }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn github_com_needs_no_configuration() {
        let hosts = ApiHosts::default();
        assert_eq!(hosts.api_for("github.com", None).unwrap(), DEFAULT_API_URL);
        assert_eq!(hosts.api_for("GitHub.com", None).unwrap(), DEFAULT_API_URL);
    }

    #[test]
    fn any_other_host_is_refused_unless_configured() {
        let hosts = ApiHosts::default();
        for host in ["evil.example", "127.0.0.1:8080", "github.com.evil.example"] {
            let err = hosts.api_for(host, None).unwrap_err().to_string();
            assert!(err.contains(host), "{err}");
            assert!(err.contains("--api-url"), "{err}");
            assert!(err.contains("[github.hosts."), "{err}");
        }
        let err = hosts.api_for("github.com@evil.example", None).unwrap_err();
        assert!(matches!(err, GithubError::UnconfiguredHost { .. }));
    }

    #[test]
    fn the_flag_wins_then_the_hosts_entry_then_the_default() {
        let mut hosts = ApiHosts {
            default: Some("https://default.example/api/v3".into()),
            per_host: BTreeMap::new(),
        };
        hosts
            .per_host
            .insert("GHE.corp".into(), "https://ghe.corp/api/v3".into());
        assert_eq!(
            hosts.api_for("ghe.corp", None).unwrap(),
            "https://ghe.corp/api/v3"
        );
        assert_eq!(
            hosts.api_for("other.example", None).unwrap(),
            "https://default.example/api/v3"
        );
        assert_eq!(
            hosts
                .api_for("ghe.corp", Some("http://127.0.0.1:9"))
                .unwrap(),
            "http://127.0.0.1:9"
        );
        // An empty flag (`GITHUB_API_URL=`) configures nothing.
        assert_eq!(
            hosts.api_for("github.com", Some(" ")).unwrap(),
            "https://default.example/api/v3"
        );
    }
}
