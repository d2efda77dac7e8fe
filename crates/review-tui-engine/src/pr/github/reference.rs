//! How GitHub pull requests are named: the references people type (`https://HOST/OWNER/REPO/
//! pull/N`, `OWNER/REPO#N`), their one spelling, GitHub's directory under the data root, and
//! `refs/pull/N/head`.

use std::path::Path;

use std::sync::Arc;

use crate::config::Config;
use crate::pr::connect::{Connected, Connection, ForgeSettings, SettingError};
use crate::pr::forge::{ForgeError, ForgeFuture};
use crate::pr::hosted::{ForgeKind, HostedPr};
use crate::pr::inbox::{InboxAnswer, InboxQuery};
use crate::pr::ref_error::RefError;
use crate::pr::url_parts::{check_host, check_name, check_number};

use super::hosts::GITHUB_HOST;

/// GitHub (and GitHub Enterprise Server) as a registered forge.
#[derive(Debug, Clone, Copy)]
pub struct Github;

pub static GITHUB: Github = Github;

impl ForgeKind for Github {
    fn id(&self) -> &'static str {
        "github"
    }

    fn name(&self) -> &'static str {
        "GitHub"
    }

    fn reference_forms(&self) -> &'static str {
        "https://github.com/OWNER/REPO/pull/N, OWNER/REPO#N"
    }

    fn public_host(&self) -> &'static str {
        GITHUB_HOST
    }

    fn parse_url(&self, given: &str, parts: &[&str]) -> Result<Option<HostedPr>, RefError> {
        parse_url(given, parts)
    }

    fn parse_short(&self, given: &str) -> Result<Option<HostedPr>, RefError> {
        parse_short(given)
    }

    /// `refs/pull/N/head` is on the base repository, so a fork's PR (even one whose fork was
    /// deleted) is fetched from the same place as the base branch.
    fn head_ref(&self, number: u64) -> String {
        format!("refs/pull/{number}/head")
    }

    fn settings(&self, config: &Config) -> Result<Arc<dyn ForgeSettings>, SettingError> {
        super::settings::settings(config)
    }

    fn connect(&self, pr: &HostedPr, connection: &Connection) -> Result<Connected, ForgeError> {
        super::settings::connect(pr, connection)
    }

    fn inbox<'a>(
        &'a self,
        connection: &'a Connection,
        query: &'a InboxQuery,
    ) -> ForgeFuture<'a, InboxAnswer> {
        Box::pin(async move { Ok(super::inbox::inbox(self.id(), connection, query).await?) })
    }
}

/// GitHub's one spelling: host, owner and repository are case-insensitive there, so
/// `Foo/Bar#1` and `foo/bar#1` are one PR (and one space).
fn hosted(host: &str, owner: &str, repo: &str, number: u64) -> HostedPr {
    let repo = repo.strip_suffix(".git").unwrap_or(repo);
    HostedPr::case_folded(&GITHUB, host, owner, repo, number)
}

/// `https://HOST/OWNER/REPO/pull/N[/files|/commits…][?query][#fragment]`; `None` for any other
/// URL (another forge's, or not a PR).
fn parse_url(given: &str, parts: &[&str]) -> Result<Option<HostedPr>, RefError> {
    if parts.len() < 5 || parts[3] != "pull" {
        return Ok(None);
    }
    let host = parts[0].to_ascii_lowercase();
    let host = host.strip_prefix("www.").unwrap_or(&host);
    if host.is_empty() {
        return Ok(None);
    }
    let host = check_host(given, host)?;
    let number = check_number(given, "pull request", parts[4])?;
    let (owner, repo) = (parts[1], parts[2].trim_end_matches(".git"));
    check_name(given, "owner", owner)?;
    check_name(given, "repository", repo)?;
    Ok(Some(hosted(&host, owner, repo, number)))
}

/// `OWNER/REPO#N`. `None` when the text does not have that shape, so it can still be a local
/// path.
fn parse_short(given: &str) -> Result<Option<HostedPr>, RefError> {
    let Some((slug, number)) = given.rsplit_once('#') else {
        return Ok(None);
    };
    let Some((owner, repo)) = slug.split_once('/') else {
        return Ok(None);
    };
    let plausible = !owner.is_empty()
        && !repo.is_empty()
        && !repo.contains('/')
        && !owner.starts_with('.')
        && !number.contains("..")
        && !number.is_empty();
    if !plausible || Path::new(slug).is_dir() && !number.chars().all(|c| c.is_ascii_digit()) {
        return Ok(None);
    }
    let number = check_number(given, "pull request", number)?;
    check_name(given, "owner", owner)?;
    check_name(given, "repository", repo)?;
    Ok(Some(hosted(GITHUB_HOST, owner, repo, number)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pr::hosted::FetchRefs;

    fn parse(text: &str) -> Result<Option<HostedPr>, RefError> {
        GITHUB.parse_reference(text)
    }

    #[test]
    fn spellings_of_one_pr_are_one_value() {
        let a = parse("https://GitHub.com/Foo/Bar.git/pull/7")
            .unwrap()
            .unwrap();
        let b = parse("foo/bar#7").unwrap().unwrap();
        assert_eq!(a, b);
        assert_eq!(a.to_string(), "foo/bar#7");
        assert_eq!(a.site, "github");
    }

    #[test]
    fn an_enterprise_host_has_its_own_site() {
        let pr = parse("https://GHE.example.com/o/r/pull/1")
            .unwrap()
            .unwrap();
        assert_eq!(pr.host, "ghe.example.com");
        assert_eq!(pr.site, "github-ghe.example.com");
        assert_eq!(pr.to_string(), "ghe.example.com/o/r#1");
    }

    #[test]
    fn other_shapes_are_left_to_other_forges() {
        for text in [
            "https://gitlab.com/group/project/-/merge_requests/3",
            "https://github.com/rust-lang/rust/issues/5",
            "../repo#main..topic",
            "/tmp/r",
        ] {
            assert_eq!(parse(text), Ok(None), "{text}");
        }
    }

    #[test]
    fn the_head_is_fetched_from_the_pull_ref() {
        let pr = parse("o/r#12").unwrap().unwrap();
        assert_eq!(
            GITHUB.fetch_refs(&pr, "refs/heads/main"),
            FetchRefs {
                head: "refs/pull/12/head".into(),
                base: "refs/heads/main".into()
            }
        );
        assert_eq!(GITHUB.fetch_refs(&pr, "dev").base, "refs/heads/dev");
    }
}
