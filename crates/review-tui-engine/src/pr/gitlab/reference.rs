//! How GitLab merge requests are named: `https://HOST/GROUP/SUBGROUP/PROJECT/-/merge_requests/N`
//! (any depth of groups) and `GROUP/PROJECT!N` on gitlab.com, their one spelling, GitLab's
//! directory under the data root, and `refs/merge-requests/N/head`.

use std::sync::Arc;

use crate::config::Config;
use crate::pr::connect::{Connected, Connection, ForgeSettings, SettingError};
use crate::pr::forge::ForgeError;
use crate::pr::hosted::{ForgeKind, HostedPr};
use crate::pr::ref_error::RefError;
use crate::pr::url_parts::{check_host, check_name, check_number};

use super::settings::GITLAB_HOST;

/// GitLab (gitlab.com and self-managed hosts) as a registered forge.
#[derive(Debug, Clone, Copy)]
pub struct Gitlab;

pub static GITLAB: Gitlab = Gitlab;

impl ForgeKind for Gitlab {
    fn id(&self) -> &'static str {
        "gitlab"
    }

    fn name(&self) -> &'static str {
        "GitLab"
    }

    fn reference_forms(&self) -> &'static str {
        "https://gitlab.com/GROUP/PROJECT/-/merge_requests/N, GROUP/PROJECT!N"
    }

    fn public_host(&self) -> &'static str {
        GITLAB_HOST
    }

    fn parse_url(&self, given: &str, parts: &[&str]) -> Result<Option<HostedPr>, RefError> {
        parse_url(given, parts)
    }

    fn parse_short(&self, given: &str) -> Result<Option<HostedPr>, RefError> {
        parse_short(given)
    }

    /// `refs/merge-requests/N/head` is on the target project, so a fork's merge request is
    /// fetched from the same place as the target branch.
    fn head_ref(&self, number: u64) -> String {
        format!("refs/merge-requests/{number}/head")
    }

    fn settings(&self, config: &Config) -> Result<Arc<dyn ForgeSettings>, SettingError> {
        super::settings::settings(config)
    }

    fn connect(&self, pr: &HostedPr, connection: &Connection) -> Result<Connected, ForgeError> {
        super::settings::connect(pr, connection)
    }

    fn number_mark(&self) -> &'static str {
        "!"
    }

    fn inbox<'a>(
        &'a self,
        connection: &'a crate::pr::connect::Connection,
        query: &'a crate::pr::inbox::InboxQuery,
    ) -> crate::pr::forge::ForgeFuture<'a, crate::pr::inbox::InboxAnswer> {
        Box::pin(async move { Ok(super::inbox::inbox(self, connection, query).await?) })
    }
}

/// GitLab's one spelling: host and paths are matched case-insensitively there.
fn hosted(host: &str, namespace: &str, project: &str, number: u64) -> HostedPr {
    HostedPr::case_folded(&GITLAB, host, namespace, project, number)
}

/// `https://HOST/NAMESPACE…/PROJECT/-/merge_requests/N[/diffs…][?query][#fragment]`; `None`
/// for any other URL.
fn parse_url(given: &str, parts: &[&str]) -> Result<Option<HostedPr>, RefError> {
    let Some(dash) = parts.iter().position(|p| *p == "-") else {
        return Ok(None);
    };
    if parts.get(dash + 1) != Some(&"merge_requests") || parts.len() < dash + 3 {
        return Ok(None);
    }
    let host = check_host(given, parts[0])?;
    let path = &parts[1..dash];
    if path.len() < 2 {
        return Err(RefError::Invalid {
            given: given.to_string(),
            reason: "a GitLab merge request URL names a group and a project before `/-/`".into(),
        });
    }
    for name in path {
        check_name(given, "GitLab group or project", name)?;
    }
    let number = check_number(given, "merge request", parts[dash + 2])?;
    let (project, namespace) = path.split_last().expect("two parts at least");
    Ok(Some(hosted(&host, &namespace.join("/"), project, number)))
}

/// `GROUP[/SUBGROUP…]/PROJECT!N` on gitlab.com. `None` when the text does not have that shape.
fn parse_short(given: &str) -> Result<Option<HostedPr>, RefError> {
    let Some((path, number)) = given.rsplit_once('!') else {
        return Ok(None);
    };
    let parts: Vec<&str> = path.split('/').collect();
    // `dir/name!x` may be a local path: only digits after `!` make it a merge request.
    let digits = !number.is_empty() && number.chars().all(|c| c.is_ascii_digit());
    if parts.len() < 2 || parts.iter().any(|p| p.is_empty()) || !digits {
        return Ok(None);
    }
    for name in &parts {
        check_name(given, "GitLab group or project", name)?;
    }
    let number = check_number(given, "merge request", number)?;
    let (project, namespace) = parts.split_last().expect("two parts at least");
    Ok(Some(hosted(
        GITLAB_HOST,
        &namespace.join("/"),
        project,
        number,
    )))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pr::hosted::FetchRefs;

    fn parse(text: &str) -> Result<Option<HostedPr>, RefError> {
        GITLAB.parse_reference(text)
    }

    #[test]
    fn spellings_of_one_merge_request_are_one_value_at_any_depth() {
        let url = parse("https://GitLab.com/Group/Sub/Project/-/merge_requests/7/diffs?x=1#note_3")
            .unwrap()
            .unwrap();
        let short = parse("group/sub/project!7").unwrap().unwrap();
        assert_eq!(url, short);
        assert_eq!(url.owner, "group/sub");
        assert_eq!(url.repo, "project");
        assert_eq!(url.site, "gitlab");
        let two = parse("https://gitlab.com/g/p/-/merge_requests/1")
            .unwrap()
            .unwrap();
        assert_eq!((two.owner.as_str(), two.repo.as_str()), ("g", "p"));
    }

    #[test]
    fn a_self_managed_host_has_its_own_site() {
        let pr = parse("https://git.corp.example/a/b/c/d/-/merge_requests/12")
            .unwrap()
            .unwrap();
        assert_eq!(pr.host, "git.corp.example");
        assert_eq!(pr.owner, "a/b/c");
        assert_eq!(pr.site, "gitlab-git.corp.example");
    }

    #[test]
    fn other_shapes_are_left_to_other_forges_and_bad_ones_refused() {
        for text in [
            "https://github.com/o/r/pull/3",
            "https://codeberg.org/o/r/pulls/3",
            "o/r#3",
            "https://gitlab.com/g/p/-/issues/3",
            "/tmp/r",
            "just!text",
            "some/dir!name",
        ] {
            assert_eq!(parse(text), Ok(None), "{text}");
        }
        for text in [
            "https://gitlab.com/g/../p/-/merge_requests/3",
            "https://gitlab.com/p/-/merge_requests/3",
            "https://gitlab.com/g/p/-/merge_requests/x",
            "https://gitlab.com@evil.example/g/p/-/merge_requests/3",
            "g/p!0",
        ] {
            assert!(parse(text).is_err(), "{text}");
        }
    }

    #[test]
    fn the_head_is_fetched_from_the_merge_request_ref() {
        let pr = parse("g/p!12").unwrap().unwrap();
        assert_eq!(
            GITLAB.fetch_refs(&pr, "main"),
            FetchRefs {
                head: "refs/merge-requests/12/head".into(),
                base: "refs/heads/main".into()
            }
        );
    }
}
