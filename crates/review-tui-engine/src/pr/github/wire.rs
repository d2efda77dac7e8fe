//! GitHub's JSON, reduced to the fields we read, and its mapping to the forge types.
//!
//! Everything GitHub documents as nullable (or may drop) is an `Option` here, so one odd record
//! (a deleted user, a pending review) cannot fail a whole page.

use serde::Deserialize;

use crate::pr::forge::{
    BranchTip, ChangedFile, FileStatus, IssueComment, PrState, PullRequest, Review, ReviewComment,
    Side, is_bot,
};

/// A deleted account shows up as `null`; GitHub's own UI calls it "ghost".
const GHOST: &str = "ghost";

#[derive(Debug, Deserialize)]
pub(super) struct User {
    pub login: String,
    #[serde(rename = "type")]
    pub account_type: Option<String>,
}

fn author(user: Option<&User>) -> (String, bool) {
    match user {
        Some(u) => (u.login.clone(), is_bot(&u.login, u.account_type.as_deref())),
        None => (GHOST.to_owned(), false),
    }
}

#[derive(Debug, Deserialize)]
pub(super) struct Pull {
    number: u64,
    title: String,
    body: Option<String>,
    user: Option<User>,
    state: String,
    draft: Option<bool>,
    merged: Option<bool>,
    merged_at: Option<String>,
    base: Branch,
    head: Branch,
    html_url: String,
}

#[derive(Debug, Deserialize)]
struct Branch {
    #[serde(rename = "ref")]
    ref_name: String,
    /// Checked as it is read: an answer whose tip is not a full commit id is not a PR.
    sha: crate::commit_id::CommitId,
    repo: Option<Repo>,
}

#[derive(Debug, Deserialize)]
struct Repo {
    clone_url: String,
}

impl Pull {
    pub(super) fn into_forge(self) -> PullRequest {
        let (author, author_is_bot) = author(self.user.as_ref());
        // `merged` is only in the single-PR response; `merged_at` is everywhere.
        let merged = self.merged.unwrap_or(false) || self.merged_at.is_some();
        let state = match (self.state.as_str(), merged) {
            (_, true) => PrState::Merged,
            ("open", _) => PrState::Open,
            _ => PrState::Closed,
        };
        let clone_url = self
            .base
            .repo
            .as_ref()
            .map(|r| r.clone_url.clone())
            .unwrap_or_default();
        PullRequest {
            number: self.number,
            title: self.title,
            body: self.body.unwrap_or_default(),
            author,
            author_is_bot,
            state,
            draft: self.draft.unwrap_or(false),
            base: BranchTip {
                ref_name: self.base.ref_name,
                sha: self.base.sha,
            },
            head: BranchTip {
                ref_name: self.head.ref_name,
                sha: self.head.sha,
            },
            clone_url,
            html_url: self.html_url,
        }
    }
}

#[derive(Debug, Deserialize)]
pub(super) struct DiffEntry {
    filename: String,
    previous_filename: Option<String>,
    status: String,
    additions: u32,
    deletions: u32,
    patch: Option<String>,
}

impl DiffEntry {
    pub(super) fn into_forge(self) -> ChangedFile {
        let status = match self.status.as_str() {
            "added" => FileStatus::Added,
            "removed" => FileStatus::Removed,
            "renamed" => FileStatus::Renamed,
            "copied" => FileStatus::Copied,
            "changed" => FileStatus::Changed,
            "unchanged" => FileStatus::Unchanged,
            // "modified", and anything GitHub adds later: the file is in the diff either way.
            _ => FileStatus::Modified,
        };
        ChangedFile {
            path: self.filename,
            previous_path: self.previous_filename,
            status,
            additions: self.additions,
            deletions: self.deletions,
            patch: self.patch,
        }
    }
}

#[derive(Debug, Deserialize)]
pub(super) struct PullReview {
    id: u64,
    user: Option<User>,
    body: Option<String>,
    state: String,
    commit_id: Option<String>,
    submitted_at: Option<String>,
}

impl PullReview {
    pub(super) fn into_forge(self) -> Review {
        let (author, author_is_bot) = author(self.user.as_ref());
        Review {
            id: self.id,
            author,
            author_is_bot,
            body: self.body.unwrap_or_default(),
            state: self.state,
            commit_id: self.commit_id,
            submitted_at: self.submitted_at,
        }
    }
}

#[derive(Debug, Deserialize)]
pub(super) struct PullReviewComment {
    id: u64,
    pull_request_review_id: Option<u64>,
    user: Option<User>,
    body: String,
    path: String,
    line: Option<u32>,
    start_line: Option<u32>,
    side: Option<String>,
    commit_id: String,
    original_commit_id: String,
    #[serde(default)]
    original_line: Option<u32>,
    #[serde(default)]
    original_start_line: Option<u32>,
    in_reply_to_id: Option<u64>,
    created_at: String,
    updated_at: String,
}

impl PullReviewComment {
    pub(super) fn into_forge(self) -> ReviewComment {
        let (author, author_is_bot) = author(self.user.as_ref());
        let side = match self.side.as_deref() {
            Some("LEFT") => Some(Side::Left),
            Some("RIGHT") => Some(Side::Right),
            _ => None,
        };
        ReviewComment {
            id: self.id,
            review_id: self.pull_request_review_id,
            author,
            author_is_bot,
            body: self.body,
            path: self.path,
            line: self.line,
            start_line: self.start_line,
            side,
            commit_id: self.commit_id,
            original_commit_id: self.original_commit_id,
            original_line: self.original_line,
            original_start_line: self.original_start_line,
            in_reply_to: self.in_reply_to_id,
            created_at: self.created_at,
            updated_at: self.updated_at,
        }
    }
}

#[derive(Debug, Deserialize)]
pub(super) struct IssueCommentWire {
    id: u64,
    user: Option<User>,
    body: Option<String>,
    created_at: String,
    updated_at: String,
}

impl IssueCommentWire {
    pub(super) fn into_forge(self) -> IssueComment {
        let (author, author_is_bot) = author(self.user.as_ref());
        IssueComment {
            id: self.id,
            author,
            author_is_bot,
            body: self.body.unwrap_or_default(),
            created_at: self.created_at,
            updated_at: self.updated_at,
        }
    }
}

/// The body of a GitHub error response.
#[derive(Debug, Deserialize)]
pub(super) struct ErrorBody {
    pub message: Option<String>,
    /// Strings, or objects with a `message` (or `code` and `field`), depending on the endpoint.
    #[serde(default)]
    pub errors: Vec<serde_json::Value>,
}

impl ErrorBody {
    /// Each entry of `errors` as one text.
    pub(super) fn details(&self) -> Vec<String> {
        self.errors
            .iter()
            .filter_map(|e| match e {
                serde_json::Value::String(text) => Some(text.clone()),
                serde_json::Value::Object(map) => map
                    .get("message")
                    .and_then(|m| m.as_str())
                    .map(str::to_owned)
                    .or_else(|| {
                        let code = map.get("code")?.as_str()?;
                        let field = map.get("field").and_then(|f| f.as_str()).unwrap_or("?");
                        Some(format!("{field}: {code}"))
                    }),
                _ => None,
            })
            .collect()
    }

    /// `message: error; error`, or `None` when there is neither.
    pub(super) fn describe(&self) -> Option<String> {
        let details = self.details();
        match (&self.message, details.is_empty()) {
            (Some(message), true) => Some(message.clone()),
            (Some(message), false) => Some(format!("{message}: {}", details.join("; "))),
            (None, false) => Some(details.join("; ")),
            (None, true) => None,
        }
    }
}

/// A created or edited review, as far as publishing needs it.
#[derive(Debug, Deserialize)]
pub(super) struct PostedReviewWire {
    pub id: u64,
    pub html_url: String,
    pub state: String,
}

impl PostedReviewWire {
    pub(super) fn into_forge(self) -> crate::pr::forge::PostedReview {
        crate::pr::forge::PostedReview {
            id: self.id,
            html_url: self.html_url,
            state: self.state,
        }
    }
}

/// The id of a created comment.
#[derive(Debug, Deserialize)]
pub(super) struct CreatedComment {
    pub id: u64,
}

/// `GET /repos/{o}/{r}/compare/{base}...{head}`: only the merge base is read.
#[derive(Debug, Deserialize)]
pub(super) struct Comparison {
    pub merge_base_commit: CommitSha,
}

#[derive(Debug, Deserialize)]
pub(super) struct CommitSha {
    pub sha: String,
}

#[derive(Debug, Deserialize)]
pub(super) struct CheckRunList {
    pub check_runs: Vec<CheckRunWire>,
}

#[derive(Debug, Deserialize)]
pub(super) struct CheckRunWire {
    pub name: String,
    pub status: String,
    pub conclusion: Option<String>,
    pub html_url: Option<String>,
}
