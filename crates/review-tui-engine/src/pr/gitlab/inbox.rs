//! GitLab's answer to the inbox: `GET /merge_requests?reviewer_username=…&state=opened` and
//! `author_username=…`, on gitlab.com and every host named in `[gitlab]`, for the account each
//! host's token acts as. The list gives no size and no pipeline: those stay unknown.

use serde::Deserialize;

use super::error::GitlabError;
use super::settings::{AUTH, GitlabSettings};
use super::wire;
use crate::pr::connect::Connection;
use crate::pr::hosted::ForgeKind;
use crate::pr::inbox::{InboxAnswer, InboxQuery, ListedPr, WaitingPr};
use crate::pr::self_hosted::{self, InboxHost};

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
    forge: &dyn ForgeKind,
    connection: &Connection,
    query: &InboxQuery,
) -> Result<InboxAnswer, GitlabError> {
    let ask = |host| host_inbox(forge, host, query);
    self_hosted::inbox::<GitlabSettings, _, _, _>(connection, forge.id(), &AUTH, ask).await
}

/// What one host lists for the account its token acts as.
async fn host_inbox(
    forge: &dyn ForgeKind,
    InboxHost { host, client }: InboxHost,
    query: &InboxQuery,
) -> Result<Vec<WaitingPr>, GitlabError> {
    let mut prs: Vec<WaitingPr> = Vec::new();
    {
        let me: wire::User = client
            .get_json(client.endpoint(&["user"]), "the authenticated user")
            .await?;
        for (filter, waiting) in query.searches("reviewer_username", "author_username") {
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
                // The address `enter` opens must name the merge request the row shows.
                if !query.covers(&project) || !forge.names(&mr.web_url, &host, &project, mr.iid) {
                    continue;
                }
                let listed = ListedPr {
                    repo: project,
                    number: mr.iid,
                    url: mr.web_url,
                    draft: mr.draft.unwrap_or(false) || wire::is_draft_title(&mr.title),
                    title: mr.title,
                    author: mr.author.username,
                    created_at: mr.created_at,
                    updated_at: mr.updated_at,
                };
                prs.push(WaitingPr {
                    head_sha: mr.sha,
                    ..WaitingPr::listed(forge.id(), &host, listed, waiting.clone())
                });
            }
        }
    }
    Ok(prs)
}
