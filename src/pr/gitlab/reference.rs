//! How GitLab merge requests are named: `https://HOST/GROUP/SUBGROUP/PROJECT/-/merge_requests/N`
//! (any depth of groups) and `GROUP/PROJECT!N` on gitlab.com, their one spelling, GitLab's
//! directory under the data root, and `refs/merge-requests/N/head`.

use std::sync::Arc;

use crate::config::Config;
use crate::path_component::sanitize_component;
use crate::pr::connect::{Connected, Connection, ForgeSettings, SettingError};
use crate::pr::forge::ForgeError;
use crate::pr::hosted::{FetchRefs, ForgeKind, HostedPr};
use crate::pr::ref_error::RefError;
use crate::pr::url_parts::{check_name, is_host};

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

    fn parse_reference(&self, text: &str) -> Result<Option<HostedPr>, RefError> {
        let given = text.trim();
        match given
            .strip_prefix("https://")
            .or_else(|| given.strip_prefix("http://"))
        {
            Some(rest) => parse_url(given, rest),
            None => parse_short(given),
        }
    }

    /// `gitlab` for gitlab.com, `gitlab-<host>` for a self-managed host.
    fn site(&self, host: &str) -> String {
        if host == GITLAB_HOST {
            self.id().to_string()
        } else {
            format!("{}-{}", self.id(), sanitize_component(host))
        }
    }

    /// `refs/merge-requests/N/head` is on the target project, so a fork's merge request is
    /// fetched from the same place as the target branch.
    fn fetch_refs(&self, pr: &HostedPr, base_branch: &str) -> FetchRefs {
        let base_branch = base_branch
            .strip_prefix("refs/heads/")
            .unwrap_or(base_branch);
        FetchRefs {
            head: format!("refs/merge-requests/{}/head", pr.number),
            base: format!("refs/heads/{base_branch}"),
        }
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
    let host = host.to_ascii_lowercase();
    HostedPr {
        forge: GITLAB.id().to_string(),
        site: GITLAB.site(&host),
        host,
        owner: namespace.to_ascii_lowercase(),
        repo: project.to_ascii_lowercase(),
        number,
    }
}

/// `https://HOST/NAMESPACE…/PROJECT/-/merge_requests/N[/diffs…][?query][#fragment]`; `None`
/// for any other URL.
fn parse_url(given: &str, rest: &str) -> Result<Option<HostedPr>, RefError> {
    let rest = rest.split(['?', '#']).next().unwrap_or("");
    let parts: Vec<&str> = rest.split('/').collect();
    let Some(dash) = parts.iter().position(|p| *p == "-") else {
        return Ok(None);
    };
    if parts.get(dash + 1) != Some(&"merge_requests") || parts.len() < dash + 3 {
        return Ok(None);
    }
    let host = parts[0].to_ascii_lowercase();
    if !is_host(&host) {
        return Err(RefError::Invalid {
            given: given.to_string(),
            reason: format!("{host:?} is not a host name (letters, digits, dots, dashes, a :port)"),
        });
    }
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
    let number = parse_number(given, parts[dash + 2])?;
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
    let number = parse_number(given, number)?;
    let (project, namespace) = parts.split_last().expect("two parts at least");
    Ok(Some(hosted(
        GITLAB_HOST,
        &namespace.join("/"),
        project,
        number,
    )))
}

fn parse_number(given: &str, text: &str) -> Result<u64, RefError> {
    match text.parse::<u64>() {
        Ok(n) if n > 0 => Ok(n),
        _ => Err(RefError::Invalid {
            given: given.to_string(),
            reason: format!("`{text}` is not a merge request number"),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
