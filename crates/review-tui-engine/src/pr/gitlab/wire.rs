//! GitLab's JSON, as its API documentation describes it, and its mapping into the port's
//! forge-neutral types.

use serde::{Deserialize, Serialize};

use crate::commit_id::CommitId;
use crate::pr::forge::{BranchTip, PrState, PullRequest, Side, is_bot};

#[derive(Debug, Clone, Deserialize)]
pub(super) struct User {
    pub username: String,
    /// Present on `GET /user` and on newer user objects; project and group access tokens act as
    /// bot users.
    #[serde(default)]
    pub bot: Option<bool>,
}

impl User {
    /// Bots: the `bot` flag, the names project and group access tokens' users get
    /// (`project_123_bot_…`, `group_45_bot_…`), and the usual dependency updaters.
    pub(super) fn is_bot(&self) -> bool {
        let name = self.username.to_ascii_lowercase();
        self.bot == Some(true)
            || ((name.starts_with("project_") || name.starts_with("group_"))
                && name.contains("_bot"))
            || is_bot(&self.username, None)
    }
}

#[derive(Debug, Clone, Deserialize)]
pub(super) struct DiffRefs {
    pub base_sha: Option<String>,
    pub head_sha: Option<String>,
    pub start_sha: Option<String>,
}

/// `GET /projects/:id/merge_requests/:iid`.
#[derive(Debug, Clone, Deserialize)]
pub(super) struct MergeRequest {
    pub iid: u64,
    pub title: String,
    #[serde(default)]
    pub description: Option<String>,
    pub state: String,
    #[serde(default)]
    pub draft: Option<bool>,
    #[serde(default)]
    pub work_in_progress: Option<bool>,
    pub author: User,
    pub source_branch: String,
    pub target_branch: String,
    pub sha: Option<String>,
    #[serde(default)]
    pub diff_refs: Option<DiffRefs>,
    pub web_url: String,
}

/// GitLab marks drafts with the `draft` field (formerly `work_in_progress`) and, in titles,
/// with `Draft:`, `[Draft]`, `(Draft)` (and the older `WIP:`, `[WIP]`).
pub(super) fn is_draft_title(title: &str) -> bool {
    let lower = title.trim_start().to_ascii_lowercase();
    ["draft:", "[draft]", "(draft)", "wip:", "[wip]"]
        .iter()
        .any(|prefix| lower.starts_with(prefix))
}

/// `GET /projects/:id`: where the repository is cloned from.
#[derive(Debug, Clone, Deserialize)]
pub(super) struct Project {
    pub http_url_to_repo: String,
}

/// The merge request has no diff refs yet (GitLab fills them in after creation).
#[derive(Debug)]
pub(super) struct Unready;

impl MergeRequest {
    /// The port's view. `clone_url` is the project's; the base tip is the diff's `start_sha`
    /// (the target branch's head when the latest version was made).
    pub(super) fn into_forge(self, clone_url: String) -> Result<PullRequest, Unready> {
        let sha = |text: Option<&String>| text.and_then(|t| CommitId::parse(t).ok()).ok_or(Unready);
        let refs = self.diff_refs.as_ref();
        let head = sha(self.sha.as_ref().or(refs.and_then(|r| r.head_sha.as_ref())))?;
        let base = sha(refs.and_then(|r| r.start_sha.as_ref().or(r.base_sha.as_ref())))?;
        let state = match self.state.as_str() {
            "merged" => PrState::Merged,
            "opened" | "locked" => PrState::Open,
            _ => PrState::Closed,
        };
        let draft =
            self.draft.or(self.work_in_progress).unwrap_or(false) || is_draft_title(&self.title);
        Ok(PullRequest {
            number: self.iid,
            author_is_bot: self.author.is_bot(),
            author: self.author.username,
            title: self.title,
            body: self.description.unwrap_or_default(),
            state,
            draft,
            base: BranchTip {
                ref_name: self.target_branch,
                sha: base,
            },
            head: BranchTip {
                ref_name: self.source_branch,
                sha: head,
            },
            clone_url,
            html_url: self.web_url,
        })
    }
}

/// One entry of `GET …/merge_requests/:iid/diffs`.
#[derive(Debug, Clone, Deserialize)]
pub(super) struct FileDiff {
    pub old_path: String,
    pub new_path: String,
    #[serde(default)]
    pub diff: String,
    #[serde(default)]
    pub new_file: bool,
    #[serde(default)]
    pub renamed_file: bool,
    #[serde(default)]
    pub deleted_file: bool,
}

/// One entry of `GET …/merge_requests/:iid/versions`, newest first.
#[derive(Debug, Clone, Deserialize)]
pub(super) struct Version {
    pub head_commit_sha: String,
    pub base_commit_sha: String,
    pub start_commit_sha: String,
}

#[derive(Debug, Clone, Deserialize)]
pub(super) struct Position {
    #[serde(default)]
    pub old_path: Option<String>,
    #[serde(default)]
    pub new_path: Option<String>,
    #[serde(default)]
    pub old_line: Option<u32>,
    #[serde(default)]
    pub new_line: Option<u32>,
    #[serde(default)]
    pub head_sha: Option<String>,
}

impl Position {
    /// The path, line and side a comment is on: the new side when it has a new line.
    pub(super) fn place(&self) -> (String, Option<u32>, Option<Side>) {
        match (self.new_line, self.old_line) {
            (Some(line), _) => (
                self.new_path.clone().unwrap_or_default(),
                Some(line),
                Some(Side::Right),
            ),
            (None, Some(line)) => (
                self.old_path
                    .clone()
                    .or(self.new_path.clone())
                    .unwrap_or_default(),
                Some(line),
                Some(Side::Left),
            ),
            (None, None) => (self.new_path.clone().unwrap_or_default(), None, None),
        }
    }
}

#[derive(Debug, Clone, Deserialize)]
pub(super) struct Note {
    pub id: u64,
    #[serde(default)]
    pub body: String,
    pub author: User,
    #[serde(default)]
    pub system: bool,
    #[serde(default)]
    pub created_at: String,
    #[serde(default)]
    pub updated_at: String,
    #[serde(default)]
    pub position: Option<Position>,
    /// Set on the notes of a resolved thread.
    #[serde(default)]
    pub resolved: bool,
}

/// One entry of `GET …/merge_requests/:iid/discussions`.
#[derive(Debug, Clone, Deserialize)]
pub(super) struct Discussion {
    pub id: String,
    #[serde(default)]
    pub individual_note: bool,
    #[serde(default)]
    pub notes: Vec<Note>,
}

/// One entry of `GET …/merge_requests/:iid/draft_notes`: visible to its author only.
#[derive(Debug, Clone, Deserialize)]
pub(super) struct DraftNote {
    pub id: u64,
    #[serde(default)]
    pub note: String,
}

/// `GET …/merge_requests/:iid/approvals`.
#[derive(Debug, Clone, Deserialize)]
pub(super) struct Approvals {
    #[serde(default)]
    pub approved_by: Vec<Approver>,
}

#[derive(Debug, Clone, Deserialize)]
pub(super) struct Approver {
    pub user: User,
}

/// One entry of `GET /projects/:id/repository/commits/:sha/statuses`.
#[derive(Debug, Clone, Deserialize)]
pub(super) struct CommitStatus {
    pub name: String,
    pub status: String,
    #[serde(default)]
    pub target_url: Option<String>,
}

/// The body of `POST …/draft_notes`: a note, and where it goes when it is inline.
#[derive(Debug, Clone, Serialize)]
pub(super) struct NewDraftNote<'a> {
    pub note: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub position: Option<NewPosition<'a>>,
}

/// A text position against one diff version's three SHAs.
#[derive(Debug, Clone, Serialize)]
pub(super) struct NewPosition<'a> {
    pub position_type: &'static str,
    pub base_sha: &'a str,
    pub start_sha: &'a str,
    pub head_sha: &'a str,
    pub old_path: &'a str,
    pub new_path: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub new_line: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub old_line: Option<u32>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn drafts_are_found_by_field_and_by_title() {
        assert!(is_draft_title("Draft: tidy"));
        assert!(is_draft_title("[Draft] tidy"));
        assert!(is_draft_title("  (draft) tidy"));
        assert!(is_draft_title("WIP: tidy"));
        assert!(!is_draft_title("Drafting the release notes"));
    }

    #[test]
    fn token_bots_are_bots() {
        let user = |name: &str, bot| User {
            username: name.into(),
            bot,
        };
        assert!(user("project_42_bot_3f2a", None).is_bot());
        assert!(user("group_7_bot", None).is_bot());
        assert!(user("renovate", None).is_bot());
        assert!(user("alice", Some(true)).is_bot());
        assert!(!user("project_lead", None).is_bot());
    }
}
