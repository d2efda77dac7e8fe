//! Gitea's and Forgejo's answer to the inbox: `GET /repos/issues/search?type=pulls` with
//! `review_requested=true` and `created=true`, on codeberg.org and every host named in
//! `[gitea]`, for the account each host's token acts as. The search lists issues: it gives no
//! head, size or CI state, so those stay unknown.

use serde::Deserialize;

use super::error::GiteaError;
use super::settings::{AUTH, GiteaSettings};
use super::wire;
use crate::pr::connect::Connection;
use crate::pr::hosted::ForgeKind;
use crate::pr::http::RestClient;
use crate::pr::inbox::{InboxAnswer, InboxQuery, ListedPr, Waiting, WaitingPr};
use crate::pr::self_hosted::{self, InboxHost};

/// Page size of the search (Gitea caps pages at its `MAX_RESPONSE_ITEMS`, 50 by default).
const LIMIT: &str = "50";

/// One hit of the issue search.
#[derive(Debug, Deserialize)]
struct Listed {
    number: u64,
    title: String,
    user: wire::User,
    html_url: String,
    created_at: String,
    updated_at: String,
    repository: Option<RepositoryMeta>,
    /// Present only on pull requests.
    pull_request: Option<PullMeta>,
}

#[derive(Debug, Deserialize)]
struct RepositoryMeta {
    full_name: String,
}

#[derive(Debug, Deserialize)]
struct PullMeta {
    #[serde(default)]
    merged: bool,
    /// Newer servers say it; older ones mark drafts in the title only.
    #[serde(default)]
    draft: Option<bool>,
}

pub(super) async fn inbox(
    forge: &dyn ForgeKind,
    connection: &Connection,
    query: &InboxQuery,
) -> Result<InboxAnswer, GiteaError> {
    let ask = |host| host_inbox(forge, host, query);
    self_hosted::inbox::<GiteaSettings, _, _, _>(connection, forge.id(), &AUTH, ask).await
}

/// What one host lists for the account its token acts as.
async fn host_inbox(
    forge: &dyn ForgeKind,
    InboxHost { host, client }: InboxHost,
    query: &InboxQuery,
) -> Result<Vec<WaitingPr>, GiteaError> {
    let mut prs: Vec<WaitingPr> = Vec::new();
    {
        for (filter, waiting) in query.searches("review_requested", "created") {
            let mut url = client.endpoint(&["repos", "issues", "search"]);
            url.query_pairs_mut()
                .append_pair("type", "pulls")
                .append_pair("state", "open")
                .append_pair(filter, "true");
            let listed: Vec<Listed> = client
                .get_pages(
                    url,
                    Some(("limit", LIMIT)),
                    "the pull requests waiting for you",
                )
                .await?;
            for hit in listed {
                if let Some(pr) = waiting_pr(forge, &host, hit, &waiting)
                    && query.covers(&pr.repo)
                    && !prs.iter().any(|p| p.url == pr.url)
                {
                    prs.push(pr);
                }
            }
        }
    }
    for pr in &mut prs {
        add_details(&client, pr).await;
    }
    Ok(prs)
}

/// The pull request's own record: its head, its size where the server says it (Gitea 1.19
/// and later), and its head's combined status. The search gives none of these; one that
/// cannot be read leaves them unknown, never the row out.
async fn add_details(client: &RestClient, pr: &mut WaitingPr) {
    let Some((owner, repo)) = pr.repo.split_once('/') else {
        return;
    };
    let number = pr.number.to_string();
    let url = client.endpoint(&["repos", owner, repo, "pulls", &number]);
    let Ok(detail) = client.get_json::<PullDetail>(url, "a pull request").await else {
        return;
    };
    (pr.additions, pr.deletions, pr.changed_files) =
        (detail.additions, detail.deletions, detail.changed_files);
    let url = client.endpoint(&["repos", owner, repo, "commits", &detail.head.sha, "status"]);
    if let Ok(status) = client.get_json::<Status>(url, "the head's status").await {
        pr.ci = match status.state.as_str() {
            "success" => Some("success".into()),
            "failure" | "error" => Some("failure".into()),
            "pending" => Some("pending".into()),
            _ => None,
        };
    }
    pr.head_sha = Some(detail.head.sha);
}

#[derive(Debug, Deserialize)]
struct PullDetail {
    head: wire::Branch,
    #[serde(default)]
    additions: Option<u32>,
    #[serde(default)]
    deletions: Option<u32>,
    #[serde(default)]
    changed_files: Option<u32>,
}

/// `GET /repos/{owner}/{repo}/commits/{ref}/status`: the combined state (empty when no
/// status was ever set).
#[derive(Debug, Deserialize)]
struct Status {
    #[serde(default)]
    state: String,
}

/// The hit as an inbox row; `None` for an issue, a merged pull request (a search that ignores
/// `type` or `state` must not fill the inbox with them), or one without its repository.
fn waiting_pr(
    forge: &dyn ForgeKind,
    host: &str,
    hit: Listed,
    waiting: &Waiting,
) -> Option<WaitingPr> {
    let pull = hit.pull_request?;
    if pull.merged {
        return None;
    }
    let repo = hit.repository?.full_name;
    repo.split_once('/')?;
    // The address `enter` opens must name the pull request the row shows, on this host.
    if !forge.names(&hit.html_url, host, &repo, hit.number) {
        return None;
    }
    let listed = ListedPr {
        repo,
        number: hit.number,
        url: hit.html_url,
        draft: pull.draft.unwrap_or(false) || wire::is_draft_title(&hit.title),
        title: hit.title,
        author: hit.user.login,
        created_at: hit.created_at,
        updated_at: hit.updated_at,
    };
    Some(WaitingPr::listed(forge.id(), host, listed, waiting.clone()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hit(json: serde_json::Value) -> Listed {
        serde_json::from_value(json).unwrap()
    }

    fn base() -> serde_json::Value {
        serde_json::json!({
            "number": 4, "title": "WIP: parser", "user": {"login": "ana"},
            "html_url": "https://codeberg.org/o/r/pulls/4",
            "created_at": "2026-01-01T00:00:00Z", "updated_at": "2026-01-02T00:00:00Z",
            "repository": {"full_name": "o/r", "name": "r", "owner": "o", "id": 1},
            "pull_request": {"merged": false}
        })
    }

    #[test]
    fn a_hit_is_a_row_only_when_it_is_an_open_pull_request_of_a_named_repository() {
        let row = waiting_pr(
            &super::super::GITEA,
            "codeberg.org",
            hit(base()),
            &Waiting::Authored,
        )
        .unwrap();
        assert_eq!(row.url, "https://codeberg.org/o/r/pulls/4");
        assert_eq!((row.repo.as_str(), row.number), ("o/r", 4));
        assert!(
            row.draft,
            "a WIP title is a draft on servers that do not say"
        );
        let mut issue = base();
        issue["pull_request"] = serde_json::Value::Null;
        assert!(waiting_pr(&super::super::GITEA, "h", hit(issue), &Waiting::Authored).is_none());
        let mut merged = base();
        merged["pull_request"]["merged"] = true.into();
        assert!(waiting_pr(&super::super::GITEA, "h", hit(merged), &Waiting::Authored).is_none());
        let mut elsewhere = base();
        elsewhere["html_url"] = "https://codeberg.org/o/r/pulls/5".into();
        assert!(
            waiting_pr(
                &super::super::GITEA,
                "codeberg.org",
                hit(elsewhere),
                &Waiting::Authored
            )
            .is_none()
        );
        let mut nameless = base();
        nameless["repository"]["full_name"] = "r".into();
        assert!(waiting_pr(&super::super::GITEA, "h", hit(nameless), &Waiting::Authored).is_none());
    }
}
