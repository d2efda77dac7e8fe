//! How Gitea and Forgejo pull requests are named: `https://HOST/OWNER/REPO/pulls/N`, their one
//! spelling, Gitea's directory under the data root, and `refs/pull/N/head`.

use std::sync::Arc;

use crate::config::Config;
use crate::pr::connect::{Connected, Connection, ForgeSettings, SettingError};
use crate::pr::forge::{ForgeError, ForgeFuture};
use crate::pr::hosted::{ForgeKind, HostedPr};
use crate::pr::inbox::{InboxAnswer, InboxQuery};
use crate::pr::ref_error::RefError;
use crate::pr::url_parts::{check_host, check_name, check_number};

use super::settings::GITEA_HOST;

/// Gitea and Forgejo (Codeberg and self-hosted servers) as a registered forge.
#[derive(Debug, Clone, Copy)]
pub struct Gitea;

pub static GITEA: Gitea = Gitea;

impl ForgeKind for Gitea {
    fn id(&self) -> &'static str {
        "gitea"
    }

    fn name(&self) -> &'static str {
        "Gitea"
    }

    fn reference_forms(&self) -> &'static str {
        "https://codeberg.org/OWNER/REPO/pulls/N"
    }

    fn public_host(&self) -> &'static str {
        GITEA_HOST
    }

    fn parse_url(&self, given: &str, parts: &[&str]) -> Result<Option<HostedPr>, RefError> {
        parse_url(given, parts)
    }

    /// `refs/pull/N/head` is on the base repository, so a fork's pull request is fetched from
    /// the same place as the base branch.
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
        Box::pin(async move { Ok(super::inbox::inbox(self, connection, query).await?) })
    }
}

/// `https://HOST/OWNER/REPO/pulls/N[/files…][?query][#fragment]`; `None` for any other URL.
fn parse_url(given: &str, parts: &[&str]) -> Result<Option<HostedPr>, RefError> {
    if parts.len() < 5 || parts[3] != "pulls" {
        return Ok(None);
    }
    let host = check_host(given, parts[0])?;
    for name in &parts[1..3] {
        check_name(given, "Gitea owner or repository", name)?;
    }
    let number = check_number(given, "pull request", parts[4])?;
    // Gitea matches owner and repository names case-insensitively: one spelling, one space.
    Ok(Some(HostedPr::case_folded(
        &GITEA, &host, parts[1], parts[2], number,
    )))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pr::hosted::FetchRefs;

    fn parse(text: &str) -> Result<Option<HostedPr>, RefError> {
        GITEA.parse_reference(text)
    }

    #[test]
    fn spellings_of_one_pull_request_are_one_value() {
        let a =
            parse("https://Codeberg.org/Forgejo/Forgejo/pulls/7/files?style=split#issuecomment-3")
                .unwrap()
                .unwrap();
        let b = parse("https://codeberg.org/forgejo/forgejo/pulls/7")
            .unwrap()
            .unwrap();
        assert_eq!(a, b);
        assert_eq!(a.site, "gitea");
        assert_eq!((a.owner.as_str(), a.repo.as_str()), ("forgejo", "forgejo"));
        let own = parse("https://git.corp.example:3000/o/r/pulls/12")
            .unwrap()
            .unwrap();
        assert_eq!(own.host, "git.corp.example:3000");
        assert_eq!(own.site, "gitea-git.corp.example-3000");
    }

    #[test]
    fn other_shapes_are_left_to_other_forges_and_bad_ones_refused() {
        for text in [
            "https://github.com/o/r/pull/3",
            "https://gitlab.com/g/p/-/merge_requests/3",
            "https://codeberg.org/o/r/issues/3",
            "o/r#3",
            "/tmp/r",
        ] {
            assert_eq!(parse(text), Ok(None), "{text}");
        }
        for text in [
            "https://codeberg.org/../r/pulls/3",
            "https://codeberg.org/o/r/pulls/x",
            "https://codeberg.org/o/r/pulls/0",
            "https://codeberg.org@evil.example/o/r/pulls/3",
        ] {
            assert!(parse(text).is_err(), "{text}");
        }
    }

    #[test]
    fn the_head_is_fetched_from_the_pull_ref() {
        let pr = parse("https://codeberg.org/o/r/pulls/12").unwrap().unwrap();
        assert_eq!(
            GITEA.fetch_refs(&pr, "main"),
            FetchRefs {
                head: "refs/pull/12/head".into(),
                base: "refs/heads/main".into()
            }
        );
    }
}
