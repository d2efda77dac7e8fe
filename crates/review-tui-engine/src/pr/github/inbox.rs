//! GitHub's answer to the inbox: the search API (`is:pr is:open review-requested:@me`,
//! `author:@me`, scoped by `repo:` and `org:`), then each pull request read for what the search
//! leaves out (its head, size, requested reviewers and teams) and its head's check runs.

use std::collections::BTreeMap;

use serde::Deserialize;

use super::GithubForge;
use super::client::{DEFAULT_API_URL, GithubClient};
use super::error::GithubError;
use super::hosts::GITHUB_HOST;
use super::settings::GithubSettings;
use super::wire;
use crate::pr::connect::{Connection, TokenChoice};
use crate::pr::inbox::{InboxAnswer, InboxQuery, Waiting, WaitingPr, ci_state};

/// How many pull requests are read at once after the search: enough to hide the latency, few
/// enough to stay far from GitHub's secondary rate limits.
const AT_ONCE: usize = 4;

#[derive(Debug, Deserialize)]
struct Issue {
    number: u64,
    title: String,
    user: Option<wire::User>,
    html_url: String,
    /// `https://api.github.com/repos/OWNER/REPO`.
    repository_url: String,
    created_at: String,
    updated_at: String,
    #[serde(default)]
    draft: Option<bool>,
}

#[derive(Debug, Deserialize)]
struct PullDetail {
    head: Head,
    #[serde(default)]
    commits: Option<u32>,
    #[serde(default)]
    additions: Option<u32>,
    #[serde(default)]
    deletions: Option<u32>,
    #[serde(default)]
    changed_files: Option<u32>,
    #[serde(default)]
    requested_reviewers: Vec<wire::User>,
    #[serde(default)]
    requested_teams: Vec<Team>,
}

#[derive(Debug, Deserialize)]
struct Head {
    sha: String,
}

#[derive(Debug, Deserialize)]
struct Team {
    slug: String,
}

#[derive(Debug, Deserialize)]
struct CheckRuns {
    #[serde(default)]
    check_runs: Vec<CheckRunState>,
}

#[derive(Debug, Deserialize)]
struct CheckRunState {
    status: String,
    conclusion: Option<String>,
}

/// The inbox on the API this run reads GitHub through (`--api-url`, `GITHUB_API_URL`,
/// `[github] api_url`, else api.github.com). Without a token there is no "me": a note says so.
pub(super) async fn inbox(
    forge: &str,
    connection: &Connection,
    query: &InboxQuery,
) -> Result<InboxAnswer, GithubError> {
    let defaults = GithubSettings::default();
    let settings = connection
        .settings_of::<GithubSettings>(forge)
        .unwrap_or(&defaults);
    let api_url = (connection.api_url.clone())
        .or_else(|| settings.env_api_url.clone())
        .or_else(|| settings.apis.default.clone())
        .unwrap_or_else(|| DEFAULT_API_URL.to_string());
    let token = match &connection.token {
        TokenChoice::Given(token) => Some(token.clone()),
        TokenChoice::Anonymous => None,
        TokenChoice::Discover => super::token::discover().map(|(token, _)| token),
    };
    if token.is_none() {
        return Ok(InboxAnswer {
            prs: Vec::new(),
            notes: vec![
                "GitHub: no token (GH_TOKEN, GITHUB_TOKEN or `gh auth login`), so no GitHub pull request is listed".into(),
            ],
            ..InboxAnswer::default()
        });
    }
    let client = GithubClient::new(settings.config(api_url, token, connection.notices.clone()))?;
    // Who "me" is, to tell a request of mine from one of my team's.
    let me = GithubForge::new(client.clone(), "me", "me", 0)?
        .authenticated_user()
        .await?
        .unwrap_or_default();
    let scope = scope_qualifiers(query);
    let mut found: BTreeMap<String, (Issue, Waiting)> = BTreeMap::new();
    if query.requested {
        for issue in search(
            &client,
            &format!("is:pr is:open review-requested:@me{scope}"),
        )
        .await?
        {
            found
                .entry(issue.html_url.clone())
                .or_insert((issue, Waiting::ReviewRequested));
        }
    }
    if query.authored {
        for issue in search(&client, &format!("is:pr is:open author:@me{scope}")).await? {
            found
                .entry(issue.html_url.clone())
                .or_insert((issue, Waiting::Authored));
        }
    }
    let mut jobs = tokio::task::JoinSet::new();
    let mut prs = Vec::new();
    let mut notes = Vec::new();
    let mut pending = found.into_values();
    loop {
        while jobs.len() < AT_ONCE {
            let Some((issue, waiting)) = pending.next() else {
                break;
            };
            let (client, me) = (client.clone(), me.clone());
            let forge = forge.to_string();
            jobs.spawn(async move { detail(&forge, &client, issue, waiting, &me).await });
        }
        let Some(done) = jobs.join_next().await else {
            break;
        };
        match done {
            Ok(Ok(pr)) => prs.push(pr),
            Ok(Err(e)) => notes.push(format!("GitHub: {e}")),
            Err(e) => notes.push(format!("GitHub: a pull request could not be read: {e}")),
        }
    }
    prs.sort_by(|a, b| (&a.repo, a.number).cmp(&(&b.repo, b.number)));
    Ok(InboxAnswer {
        prs,
        notes,
        ..InboxAnswer::default()
    })
}

/// ` repo:o/r org:o`: GitHub ORs qualifiers of one kind, so any listed place matches.
fn scope_qualifiers(query: &InboxQuery) -> String {
    let mut scope = String::new();
    let is_name = |text: &str| {
        !text.is_empty()
            && text
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.' | '/'))
    };
    for repo in query.repos.iter().map(|r| r.trim()).filter(|r| is_name(r)) {
        scope.push_str(&format!(" repo:{repo}"));
    }
    for org in query.orgs.iter().map(|o| o.trim()).filter(|o| is_name(o)) {
        scope.push_str(&format!(" org:{org}"));
    }
    scope
}

async fn search(client: &GithubClient, q: &str) -> Result<Vec<Issue>, GithubError> {
    let mut url = client.endpoint(&["search", "issues"]);
    url.query_pairs_mut()
        .append_pair("q", q)
        .append_pair("sort", "updated");
    client
        .get_all_in(url, "items", &format!("the search `{q}`"))
        .await
}

/// The search's issue, completed by the pull request it is (head, size, requested reviewers)
/// and its head's check runs (`None` when they cannot be read: CI is then unknown).
async fn detail(
    forge: &str,
    client: &GithubClient,
    issue: Issue,
    waiting: Waiting,
    me: &str,
) -> Result<WaitingPr, GithubError> {
    let (owner, repo) =
        repository_of(&issue.repository_url).ok_or_else(|| GithubError::Decode {
            call: super::Call::new(
                "GET",
                "/search/issues",
                client.api_url().host_str().unwrap_or("?"),
            ),
            detail: format!("{:?} names no repository", issue.repository_url),
        })?;
    let number = issue.number.to_string();
    let what = format!("pull request {owner}/{repo}#{number}");
    let pull: PullDetail = client
        .get_json(
            client.endpoint(&["repos", &owner, &repo, "pulls", &number]),
            &what,
        )
        .await?;
    let waiting = match waiting {
        Waiting::ReviewRequested
            if !pull
                .requested_reviewers
                .iter()
                .any(|u| u.login.eq_ignore_ascii_case(me)) =>
        {
            match pull.requested_teams.first() {
                Some(team) => Waiting::TeamRequested {
                    team: format!("{owner}/{}", team.slug),
                },
                None => Waiting::ReviewRequested,
            }
        }
        other => other,
    };
    let mut checks_url = client.endpoint(&[
        "repos",
        &owner,
        &repo,
        "commits",
        &pull.head.sha,
        "check-runs",
    ]);
    checks_url.query_pairs_mut().append_pair("per_page", "100");
    let ci = client
        .get_json::<CheckRuns>(checks_url, &format!("the check runs of {}", pull.head.sha))
        .await
        .ok()
        .and_then(|runs| {
            ci_state(
                runs.check_runs
                    .iter()
                    .map(|r| (r.status.as_str(), r.conclusion.as_deref())),
            )
        });
    let host = reqwest::Url::parse(&issue.html_url)
        .ok()
        .and_then(|u| {
            u.host_str().map(|h| match u.port() {
                Some(port) => format!("{h}:{port}"),
                None => h.to_string(),
            })
        })
        .unwrap_or_else(|| GITHUB_HOST.to_string());
    Ok(WaitingPr {
        forge: forge.to_string(),
        host,
        repo: format!("{owner}/{repo}"),
        number: issue.number,
        url: issue.html_url,
        title: issue.title,
        author: issue.user.map(|u| u.login).unwrap_or_default(),
        draft: issue.draft.unwrap_or(false),
        created_at: issue.created_at,
        updated_at: issue.updated_at,
        head_sha: Some(pull.head.sha),
        commits: pull.commits,
        additions: pull.additions,
        deletions: pull.deletions,
        changed_files: pull.changed_files,
        ci,
        waiting,
    })
}

/// `OWNER` and `REPO` from `…/repos/OWNER/REPO`.
fn repository_of(url: &str) -> Option<(String, String)> {
    let path = reqwest::Url::parse(url).ok()?.path().to_string();
    let mut parts = path.trim_end_matches('/').rsplit('/');
    let repo = parts.next()?.to_string();
    let owner = parts.next()?.to_string();
    (parts.next() == Some("repos") && !owner.is_empty() && !repo.is_empty())
        .then_some((owner, repo))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_scope_becomes_qualifiers_and_nothing_else() {
        let query = InboxQuery {
            repos: vec!["acme/app".into(), "x y:z".into()],
            orgs: vec!["acme".into()],
            ..InboxQuery::default()
        };
        assert_eq!(scope_qualifiers(&query), " repo:acme/app org:acme");
    }

    #[test]
    fn the_repository_is_read_from_its_api_address() {
        assert_eq!(
            repository_of("https://api.github.com/repos/acme/app"),
            Some(("acme".into(), "app".into()))
        );
        assert_eq!(
            repository_of("http://127.0.0.1:9/api/v3/repos/a/b/"),
            Some(("a".into(), "b".into()))
        );
        assert_eq!(repository_of("https://api.github.com/acme/app"), None);
    }
}
