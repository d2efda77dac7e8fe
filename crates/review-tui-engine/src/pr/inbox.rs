//! What a forge answers to "what is waiting for me?": the open pull requests whose review is
//! asked of the account (or of one of its teams) and the account's own open pull requests, in
//! forge-neutral types. Each forge answers through [`ForgeKind::inbox`](super::hosted::ForgeKind::inbox)
//! (a forge that cannot search answers nothing); `pr::registry::inbox` asks every one.

use serde::{Deserialize, Serialize};

use super::forge::ForgeError;

/// What to search for, and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InboxQuery {
    /// Pull requests whose review is requested from the account or one of its teams.
    pub requested: bool,
    /// The account's own open pull requests.
    pub authored: bool,
    /// `OWNER/REPO` names the search is limited to (with `orgs`: either matches); empty: all.
    pub repos: Vec<String>,
    /// Organisations (GitLab: groups) the search is limited to; empty: all.
    pub orgs: Vec<String>,
}

impl Default for InboxQuery {
    fn default() -> Self {
        InboxQuery {
            requested: true,
            authored: true,
            repos: Vec::new(),
            orgs: Vec::new(),
        }
    }
}

impl InboxQuery {
    /// Whether `repo` (`owner/repo`, GitLab's `group/sub/project`) is in the configured scope:
    /// a listed repository, or under a listed organisation or group. An empty scope is
    /// everything.
    pub fn covers(&self, repo: &str) -> bool {
        if self.repos.is_empty() && self.orgs.is_empty() {
            return true;
        }
        let repo = repo.to_ascii_lowercase();
        self.repos
            .iter()
            .any(|r| r.trim().eq_ignore_ascii_case(&repo))
            || self
                .orgs
                .iter()
                .any(|org| repo.starts_with(&format!("{}/", org.trim().to_ascii_lowercase())))
    }

    /// The searches this query asks of a forge that filters on `requested` (the account's
    /// review asked) and on `authored` (the account's own), each with why its hits wait.
    pub fn searches<'a>(&self, requested: &'a str, authored: &'a str) -> Vec<(&'a str, Waiting)> {
        let mut searches = Vec::new();
        if self.requested {
            searches.push((requested, Waiting::ReviewRequested));
        }
        if self.authored {
            searches.push((authored, Waiting::Authored));
        }
        searches
    }
}

/// Why a pull request is in the inbox.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Waiting {
    /// The account's review is requested.
    ReviewRequested,
    /// A team the account is in is requested (`org/team`).
    TeamRequested { team: String },
    /// The account opened it.
    Authored,
}

/// One open pull request as a forge's search lists it. Every text in it is the PR author's or
/// the forge's: untrusted, escaped wherever it is shown.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct WaitingPr {
    /// The forge's id (`pr::registry`), as in a space key.
    pub forge: String,
    /// The host the PR lives on.
    pub host: String,
    /// `owner/repo` (GitLab: `group/project`).
    pub repo: String,
    pub number: u64,
    /// What `review-tui` is given to open it: the PR's web address.
    pub url: String,
    pub title: String,
    pub author: String,
    pub draft: bool,
    /// RFC 3339, as the forge sent it.
    pub created_at: String,
    pub updated_at: String,
    /// The head commit, when the forge said it: a space reviewed at another head has new
    /// commits to review.
    #[serde(default)]
    pub head_sha: Option<String>,
    /// How many commits the PR has, when the forge said it.
    #[serde(default)]
    pub commits: Option<u32>,
    #[serde(default)]
    pub additions: Option<u32>,
    #[serde(default)]
    pub deletions: Option<u32>,
    #[serde(default)]
    pub changed_files: Option<u32>,
    /// The head's CI as the forge reports it: `success`, `failure`, `pending`; `None` when the
    /// forge said nothing.
    #[serde(default)]
    pub ci: Option<String>,
    pub waiting: Waiting,
}

/// What a forge's search lists of one pull request, before anything is asked of the pull
/// request itself (its head, size and CI).
pub struct ListedPr {
    pub repo: String,
    pub number: u64,
    pub url: String,
    pub title: String,
    pub author: String,
    pub draft: bool,
    pub created_at: String,
    pub updated_at: String,
}

impl WaitingPr {
    /// The row of a listed pull request on `forge`'s `host`; what the search did not say is
    /// unknown until the forge says it.
    pub fn listed(forge: &str, host: &str, listed: ListedPr, waiting: Waiting) -> WaitingPr {
        WaitingPr {
            forge: forge.to_string(),
            host: host.to_string(),
            repo: listed.repo,
            number: listed.number,
            url: listed.url,
            title: listed.title,
            author: listed.author,
            draft: listed.draft,
            created_at: listed.created_at,
            updated_at: listed.updated_at,
            head_sha: None,
            commits: None,
            additions: None,
            deletions: None,
            changed_files: None,
            ci: None,
            waiting,
        }
    }
}

/// One forge's answer: its pull requests, and what it could not list (no token, a scope it
/// cannot search), said to the person.
#[derive(Debug, Default)]
pub struct InboxAnswer {
    pub prs: Vec<WaitingPr>,
    pub notes: Vec<String>,
    /// Hosts of this forge that failed while others answered: one server down hides nothing
    /// the others list, and the failed one's last list is kept (`session::inbox`).
    pub failed_hosts: Vec<HostFailure>,
}

/// A host of a forge that could not answer the inbox's search.
#[derive(Debug)]
pub struct HostFailure {
    pub host: String,
    pub error: ForgeError,
}

/// The CI state of a head from its check runs' `(status, conclusion)`: any failure fails it,
/// anything still running keeps it pending, and only finished, passing runs make it pass.
pub(crate) fn ci_state<'a>(
    runs: impl IntoIterator<Item = (&'a str, Option<&'a str>)>,
) -> Option<String> {
    let mut any = false;
    let mut pending = false;
    for (status, conclusion) in runs {
        any = true;
        match (status, conclusion) {
            (
                _,
                Some("failure" | "timed_out" | "cancelled" | "action_required" | "startup_failure"),
            ) => return Some("failure".into()),
            ("completed", _) => {}
            _ => pending = true,
        }
    }
    any.then(|| if pending { "pending" } else { "success" }.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_scope_takes_listed_repositories_and_everything_under_a_listed_owner() {
        let query = InboxQuery {
            repos: vec!["a/b".into()],
            orgs: vec!["corp".into()],
            ..InboxQuery::default()
        };
        assert!(query.covers("A/B"));
        assert!(query.covers("corp/sub/p"));
        assert!(!query.covers("corpus/p"));
        assert!(!query.covers("a/bc"));
        assert!(InboxQuery::default().covers("x/y"));
    }

    #[test]
    fn one_failed_run_fails_the_head_and_a_running_one_keeps_it_pending() {
        assert_eq!(ci_state([]), None);
        assert_eq!(
            ci_state([
                ("completed", Some("success")),
                ("completed", Some("skipped"))
            ])
            .as_deref(),
            Some("success")
        );
        assert_eq!(
            ci_state([("in_progress", None), ("completed", Some("success"))]).as_deref(),
            Some("pending")
        );
        assert_eq!(
            ci_state([("in_progress", None), ("completed", Some("failure"))]).as_deref(),
            Some("failure")
        );
    }
}
