//! Gitea's (and Forgejo's) JSON, as its swagger describes it, and its mapping into the port's
//! forge-neutral types.

use serde::{Deserialize, Serialize};

use crate::commit_id::CommitId;
use crate::pr::forge::{BranchTip, PrState, PullRequest, Side, is_bot};

#[derive(Debug, Clone, Deserialize)]
pub(super) struct User {
    pub login: String,
}

impl User {
    pub(super) fn is_bot(&self) -> bool {
        is_bot(&self.login, None)
    }
}

#[derive(Debug, Clone, Deserialize)]
pub(super) struct Repository {
    pub clone_url: String,
}

#[derive(Debug, Clone, Deserialize)]
pub(super) struct Branch {
    #[serde(rename = "ref")]
    pub ref_name: String,
    pub sha: String,
    #[serde(default)]
    pub repo: Option<Repository>,
}

/// `GET /repos/{owner}/{repo}/pulls/{index}`.
#[derive(Debug, Clone, Deserialize)]
pub(super) struct Pull {
    pub number: u64,
    pub title: String,
    #[serde(default)]
    pub body: Option<String>,
    pub user: User,
    /// `open` or `closed`; a merged pull request is `closed` with `merged`.
    pub state: String,
    #[serde(default)]
    pub merged: bool,
    /// Newer Gitea and Forgejo send it; older ones only mark drafts in the title.
    #[serde(default)]
    pub draft: Option<bool>,
    pub base: Branch,
    pub head: Branch,
    pub html_url: String,
    /// Where the pull request's diff starts.
    #[serde(default)]
    pub merge_base: Option<String>,
}

/// Gitea marks a work-in-progress pull request by its title (`WORK_IN_PROGRESS_PREFIXES`,
/// `WIP:` and `[WIP]` by default; Forgejo adds `Draft:`).
pub(super) fn is_draft_title(title: &str) -> bool {
    let lower = title.trim_start().to_ascii_lowercase();
    ["wip:", "[wip]", "draft:", "[draft]"]
        .iter()
        .any(|prefix| lower.starts_with(prefix))
}

/// A pull request whose head or base is not a commit id.
#[derive(Debug)]
pub(super) struct Unreadable(pub String);

impl Pull {
    pub(super) fn into_forge(self) -> Result<PullRequest, Unreadable> {
        let sha = |text: &str| CommitId::parse(text).map_err(|e| Unreadable(e.to_string()));
        let state = if self.merged {
            PrState::Merged
        } else if self.state == "open" {
            PrState::Open
        } else {
            PrState::Closed
        };
        Ok(PullRequest {
            number: self.number,
            draft: self.draft.unwrap_or(false) || is_draft_title(&self.title),
            title: self.title,
            body: self.body.unwrap_or_default(),
            author_is_bot: self.user.is_bot(),
            author: self.user.login,
            state,
            base: BranchTip {
                ref_name: self.base.ref_name,
                sha: sha(&self.base.sha)?,
            },
            head: BranchTip {
                ref_name: self.head.ref_name,
                sha: sha(&self.head.sha)?,
            },
            clone_url: self.base.repo.map(|r| r.clone_url).unwrap_or_default(),
            html_url: self.html_url,
        })
    }
}

/// `PullReview`.
#[derive(Debug, Clone, Deserialize)]
pub(super) struct Review {
    pub id: u64,
    /// Absent for a review requested from a team.
    #[serde(default)]
    pub user: Option<User>,
    #[serde(default)]
    pub body: String,
    /// APPROVED, PENDING, COMMENT, REQUEST_CHANGES, REQUEST_REVIEW.
    #[serde(default)]
    pub state: String,
    #[serde(default)]
    pub dismissed: bool,
    #[serde(default)]
    pub commit_id: Option<String>,
    #[serde(default)]
    pub submitted_at: Option<String>,
    #[serde(default)]
    pub html_url: String,
}

impl Review {
    /// The state as the port spells it (GitHub's words); `None` for a review request, which
    /// is nobody's review.
    pub(super) fn port_state(&self) -> Option<&'static str> {
        if self.dismissed {
            return Some("DISMISSED");
        }
        Some(match self.state.as_str() {
            "APPROVED" => "APPROVED",
            "REQUEST_CHANGES" => "CHANGES_REQUESTED",
            "COMMENT" => "COMMENTED",
            "PENDING" => "PENDING",
            _ => return None,
        })
    }
}

/// `PullReviewComment`: `position` is the line on the new side, `original_position` the line
/// on the old side when `position` is 0.
#[derive(Debug, Clone, Deserialize)]
pub(super) struct ReviewComment {
    pub id: u64,
    #[serde(default)]
    pub user: Option<User>,
    #[serde(default)]
    pub body: String,
    #[serde(default)]
    pub path: String,
    #[serde(default)]
    pub position: u32,
    #[serde(default)]
    pub original_position: u32,
    #[serde(default)]
    pub commit_id: String,
    #[serde(default)]
    pub original_commit_id: String,
    #[serde(default)]
    pub pull_request_review_id: Option<u64>,
    #[serde(default)]
    pub created_at: String,
    #[serde(default)]
    pub updated_at: String,
}

impl ReviewComment {
    /// The line and side it is on.
    pub(super) fn place(&self) -> (Option<u32>, Option<Side>) {
        if self.position > 0 {
            (Some(self.position), Some(Side::Right))
        } else if self.original_position > 0 {
            (Some(self.original_position), Some(Side::Left))
        } else {
            (None, None)
        }
    }
}

/// An issue (conversation) comment.
#[derive(Debug, Clone, Deserialize)]
pub(super) struct Comment {
    pub id: u64,
    #[serde(default)]
    pub user: Option<User>,
    #[serde(default)]
    pub body: String,
    #[serde(default)]
    pub html_url: String,
    #[serde(default)]
    pub created_at: String,
    #[serde(default)]
    pub updated_at: String,
}

/// `CreatePullReviewOptions`.
#[derive(Debug, Serialize)]
pub(super) struct NewReview<'a> {
    pub commit_id: &'a str,
    pub event: &'static str,
    pub body: &'a str,
    pub comments: Vec<NewComment<'a>>,
}

/// `CreatePullReviewComment`: a line on the new side, or one on the old side.
#[derive(Debug, Serialize)]
pub(super) struct NewComment<'a> {
    pub path: &'a str,
    pub body: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub new_position: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub old_position: Option<u32>,
}

/// `CommitStatus`, one per context.
#[derive(Debug, Clone, Deserialize)]
pub(super) struct CommitStatus {
    #[serde(default)]
    pub context: String,
    /// pending, success, error, failure, warning.
    #[serde(default)]
    pub status: String,
    #[serde(default)]
    pub target_url: Option<String>,
}

/// `CombinedStatus`.
#[derive(Debug, Clone, Deserialize)]
pub(super) struct CombinedStatus {
    #[serde(default)]
    pub statuses: Option<Vec<CommitStatus>>,
}
