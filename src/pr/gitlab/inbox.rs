//! GitLab's answer to the inbox: `GET /merge_requests?reviewer_username=…&state=opened` and
//! `author_username=…`, on gitlab.com and every host named in `[gitlab]`, for the account each
//! host's token acts as. The list gives no size and no pipeline: those stay unknown.

use serde::Deserialize;

use super::error::GitlabError;
use super::settings::{GitlabSettings, TOKEN_HINT, auth_header, discover};
use super::wire;
use crate::pr::connect::{Connection, TokenChoice};
use crate::pr::http::{RestClient, RestConfig};
use crate::pr::inbox::{InboxAnswer, InboxQuery, Waiting, WaitingPr};

#[derive(Debug, Deserialize)]
struct ListedMr {
    iid: u64,
    title: String,
    author: wire::User,
    web_url: String,
    created_at: String,
    updated_at: String,
    #[serde(default)]
    draft: Option<bool>,
    #[serde(default)]
    sha: Option<String>,
    references: Option<References>,
}

#[derive(Debug, Deserialize)]
struct References {
    /// `group/project!7`.
    full: String,
}

pub(super) async fn inbox(
    forge: &str,
    connection: &Connection,
    query: &InboxQuery,
) -> Result<InboxAnswer, GitlabError> {
    let defaults = GitlabSettings::default();
    let settings = &connection
        .settings_of::<GitlabSettings>(forge)
        .unwrap_or(&defaults)
        .0;
    let mut answer = InboxAnswer::default();
    let hosts = std::iter::once(settings.public_host.to_string()).chain(settings.hosts.clone());
    for host in hosts {
        let token = match &connection.token {
            TokenChoice::Given(token) => Some(token.clone()),
            TokenChoice::Anonymous => None,
            TokenChoice::Discover => discover(settings, &host),
        };
        let Some(token) = token else {
            // Only the public host is looked at without being asked: a missing token there is
            // the ordinary case of someone not on GitLab, said only for hosts they named.
            if host != settings.public_host {
                answer.notes.push(format!(
                    "GitLab {host}: no token ({TOKEN_HINT}), so its merge requests are not listed"
                ));
            }
            continue;
        };
        // The host's own API, never `--api-url`: a flag naming another forge's API for this
        // run must not receive this host's token.
        let api_url = settings.api_for(&host, None)?;
        let client = RestClient::new(
            RestConfig {
                forge: "GitLab",
                api_url,
                auth: Some(auth_header(&token)),
                token: Some(token),
                retry: settings.retry.clone(),
                timeout: settings.timeout,
                timeout_setting: "[gitlab] request_timeout",
                notices: connection.notices.clone(),
            },
            TOKEN_HINT,
        )?;
        let me: wire::User = client
            .get_json(client.endpoint(&["user"]), "the authenticated user")
            .await?;
        let mut wanted = Vec::new();
        if query.requested {
            wanted.push(("reviewer_username", Waiting::ReviewRequested));
        }
        if query.authored {
            wanted.push(("author_username", Waiting::Authored));
        }
        for (filter, waiting) in wanted {
            let mut url = client.endpoint(&["merge_requests"]);
            url.query_pairs_mut()
                .append_pair(filter, &me.username)
                .append_pair("state", "opened")
                .append_pair("scope", "all");
            let listed: Vec<ListedMr> = client
                .get_all(url, "100", "the merge requests waiting for you")
                .await?;
            for mr in listed {
                let Some(project) = mr
                    .references
                    .as_ref()
                    .and_then(|r| r.full.rsplit_once('!'))
                    .map(|(project, _)| project.to_string())
                else {
                    continue;
                };
                if !in_scope(&project, query) || answer.prs.iter().any(|p| p.url == mr.web_url) {
                    continue;
                }
                answer.prs.push(WaitingPr {
                    forge: forge.to_string(),
                    host: host.clone(),
                    repo: project,
                    number: mr.iid,
                    url: mr.web_url,
                    draft: mr.draft.unwrap_or(false) || wire::is_draft_title(&mr.title),
                    title: mr.title,
                    author: mr.author.username,
                    created_at: mr.created_at,
                    updated_at: mr.updated_at,
                    head_sha: mr.sha,
                    commits: None,
                    additions: None,
                    deletions: None,
                    changed_files: None,
                    ci: None,
                    waiting: waiting.clone(),
                });
            }
        }
    }
    Ok(answer)
}

/// Whether `project` (`group/sub/project`) is in the configured scope: a listed project, or
/// under a listed group. An empty scope is everything.
fn in_scope(project: &str, query: &InboxQuery) -> bool {
    if query.repos.is_empty() && query.orgs.is_empty() {
        return true;
    }
    let project = project.to_ascii_lowercase();
    query
        .repos
        .iter()
        .any(|r| r.trim().eq_ignore_ascii_case(&project))
        || query
            .orgs
            .iter()
            .any(|group| project.starts_with(&format!("{}/", group.trim().to_ascii_lowercase())))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_scope_takes_listed_projects_and_everything_under_a_listed_group() {
        let query = InboxQuery {
            repos: vec!["a/b".into()],
            orgs: vec!["corp".into()],
            ..InboxQuery::default()
        };
        assert!(in_scope("A/B", &query));
        assert!(in_scope("corp/sub/p", &query));
        assert!(!in_scope("corpus/p", &query));
        assert!(in_scope("x/y", &InboxQuery::default()));
    }
}
