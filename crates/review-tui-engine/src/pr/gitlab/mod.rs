//! Merge requests on GitLab (gitlab.com and self-managed hosts) over the REST API v4.
//!
//! Reading maps GitLab's merge request, diffs, discussions, approvals and drafts into the port's
//! neutral types: general notes are the reviews (the latest one of an account that approved
//! stands as its approval), diff discussions the inline comments and their replies, and the
//! account's own draft notes its pending review. Publishing is in `review.rs`.

mod error;
mod inbox;
mod reference;
mod review;
mod settings;
mod threads;
mod wire;

pub use error::GitlabError;
pub use reference::{GITLAB, Gitlab};
pub use settings::{GITLAB_HOST, GitlabSettings};

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex, OnceLock};

use crate::pr::forge::{
    ChangedFile, CheckRun, FileStatus, Forge, ForgeFuture, IssueComment, NewReview, PostedReview,
    PrHistory, PullRequest, Review, ReviewComment,
};
use crate::pr::hosted::HostedPr;
use crate::pr::http::RestClient;

/// GitLab's largest page.
const PER_PAGE: &str = "100";

/// One merge request on GitLab.
#[derive(Debug, Clone)]
pub struct GitlabForge {
    client: RestClient,
    /// `group/subgroup/project`: one URL-encoded path segment in every call.
    project: String,
    iid: u64,
    /// Who the token acts as, once asked.
    login: Arc<OnceLock<String>>,
    /// Root note id → discussion id of the diff threads read, for replies and resolving.
    threads: Arc<Mutex<HashMap<u64, String>>>,
}

impl GitlabForge {
    pub fn new(client: RestClient, pr: &HostedPr) -> GitlabForge {
        GitlabForge {
            client,
            project: format!("{}/{}", pr.owner, pr.repo),
            iid: pr.number,
            login: Arc::default(),
            threads: Arc::default(),
        }
    }

    fn describe(&self) -> String {
        format!("merge request {}!{}", self.project, self.iid)
    }

    /// `…/projects/:id/merge_requests/:iid/REST…`
    fn mr_endpoint(&self, rest: &[&str]) -> reqwest::Url {
        let iid = self.iid.to_string();
        let mut segments = vec!["projects", &self.project, "merge_requests", &iid];
        segments.extend_from_slice(rest);
        self.client.endpoint(&segments)
    }

    pub async fn pull_request(&self) -> Result<PullRequest, GitlabError> {
        let what = self.describe();
        let project_what = format!("project {}", self.project);
        let project_url = self.client.endpoint(&["projects", &self.project]);
        let (mr, project) = tokio::try_join!(
            self.client
                .get_json::<wire::MergeRequest>(self.mr_endpoint(&[]), &what),
            self.client
                .get_json::<wire::Project>(project_url, &project_what),
        )?;
        mr.into_forge(project.http_url_to_repo)
            .map_err(|_| GitlabError::NoVersion)
    }

    async fn file_diffs(&self) -> Result<Vec<wire::FileDiff>, GitlabError> {
        Ok(self
            .client
            .get_all(self.mr_endpoint(&["diffs"]), PER_PAGE, &self.describe())
            .await?)
    }

    pub async fn changed_files(&self) -> Result<Vec<ChangedFile>, GitlabError> {
        Ok(self
            .file_diffs()
            .await?
            .into_iter()
            .map(|file| {
                let (additions, deletions) = count_lines(&file.diff);
                ChangedFile {
                    status: if file.new_file {
                        FileStatus::Added
                    } else if file.deleted_file {
                        FileStatus::Removed
                    } else if file.renamed_file {
                        FileStatus::Renamed
                    } else {
                        FileStatus::Modified
                    },
                    previous_path: file.renamed_file.then(|| file.old_path.clone()),
                    path: file.new_path,
                    additions,
                    deletions,
                    patch: (!file.diff.is_empty()).then_some(file.diff),
                }
            })
            .collect())
    }

    /// The unified diff of the latest version, put together from GitLab's per-file hunks.
    pub async fn diff(&self) -> Result<String, GitlabError> {
        Ok(unified_diff(&self.file_diffs().await?))
    }

    pub async fn authenticated_user(&self) -> Result<Option<String>, GitlabError> {
        Ok(self
            .client
            .token_login(&self.login, |user: wire::User| user.username)
            .await?)
    }

    async fn discussions(&self) -> Result<Vec<wire::Discussion>, GitlabError> {
        let discussions: Vec<wire::Discussion> = self
            .client
            .get_all(
                self.mr_endpoint(&["discussions"]),
                PER_PAGE,
                &self.describe(),
            )
            .await?;
        let mut threads = self.threads.lock().unwrap_or_else(|e| e.into_inner());
        for discussion in discussions.iter().filter(|d| !d.individual_note) {
            if let Some(root) = discussion.notes.first() {
                threads.insert(root.id, discussion.id.clone());
            }
        }
        Ok(discussions)
    }

    /// Who approved the merge request; nothing without a token (the endpoint needs one).
    async fn approvers(&self) -> Result<HashSet<String>, GitlabError> {
        if !self.client.has_token() {
            return Ok(HashSet::new());
        }
        let approvals: wire::Approvals = self
            .client
            .get_json(self.mr_endpoint(&["approvals"]), &self.describe())
            .await?;
        Ok(approvals
            .approved_by
            .into_iter()
            .map(|a| a.user.username.to_ascii_lowercase())
            .collect())
    }

    /// The account's own drafts on the merge request (GitLab shows them to their author only).
    async fn drafts(&self) -> Result<Vec<wire::DraftNote>, GitlabError> {
        if !self.client.has_token() {
            return Ok(Vec::new());
        }
        Ok(self
            .client
            .get_all(
                self.mr_endpoint(&["draft_notes"]),
                PER_PAGE,
                &self.describe(),
            )
            .await?)
    }

    pub async fn history(&self) -> Result<PrHistory, GitlabError> {
        let (discussions, approvers, drafts, login) = tokio::try_join!(
            self.discussions(),
            self.approvers(),
            self.drafts(),
            self.authenticated_user(),
        )?;
        Ok(history_of(
            discussions,
            &approvers,
            drafts,
            login.as_deref(),
        ))
    }

    pub async fn check_runs(&self, sha: &str) -> Result<Vec<CheckRun>, GitlabError> {
        let url = self.client.endpoint(&[
            "projects",
            &self.project,
            "repository",
            "commits",
            sha,
            "statuses",
        ]);
        let statuses: Vec<wire::CommitStatus> = self
            .client
            .get_all(url, PER_PAGE, &format!("the pipeline statuses of {sha}"))
            .await?;
        Ok(statuses
            .into_iter()
            .map(|status| {
                let (state, conclusion) = match status.status.as_str() {
                    "success" => ("completed", Some("success")),
                    "failed" => ("completed", Some("failure")),
                    "canceled" => ("completed", Some("cancelled")),
                    "skipped" => ("completed", Some("skipped")),
                    "manual" => ("completed", Some("action_required")),
                    "pending" | "created" | "waiting_for_resource" | "scheduled" => {
                        ("queued", None)
                    }
                    _ => ("in_progress", None),
                };
                CheckRun {
                    name: status.name,
                    status: state.to_string(),
                    conclusion: conclusion.map(str::to_string),
                    html_url: status.target_url,
                }
            })
            .collect())
    }
}

/// The discussions, approvals and drafts as the port's history. General notes are reviews: an
/// account that approved stands by its latest one (`APPROVED`), the others are `COMMENTED`.
/// Diff threads are inline comments, their later notes replies. The account's drafts are its
/// one pending review, one `PENDING` entry each.
fn history_of(
    discussions: Vec<wire::Discussion>,
    approvers: &HashSet<String>,
    drafts: Vec<wire::DraftNote>,
    login: Option<&str>,
) -> PrHistory {
    let mut history = PrHistory::default();
    for discussion in discussions {
        let mut notes = discussion.notes.into_iter().filter(|n| !n.system);
        let Some(root) = notes.next() else {
            continue;
        };
        match &root.position {
            Some(position) => {
                let (path, line, side) = position.place();
                let commit = position.head_sha.clone().unwrap_or_default();
                let comment = |note: &wire::Note, in_reply_to: Option<u64>| ReviewComment {
                    id: note.id,
                    review_id: None,
                    author: note.author.username.clone(),
                    author_is_bot: note.author.is_bot(),
                    body: note.body.clone(),
                    path: path.clone(),
                    line,
                    start_line: None,
                    side,
                    commit_id: commit.clone(),
                    original_commit_id: commit.clone(),
                    original_line: line,
                    original_start_line: None,
                    in_reply_to,
                    created_at: note.created_at.clone(),
                    updated_at: note.updated_at.clone(),
                };
                history.review_comments.push(comment(&root, None));
                for reply in notes {
                    history.review_comments.push(comment(&reply, Some(root.id)));
                }
            }
            None => {
                history.reviews.push(Review {
                    id: root.id,
                    author: root.author.username.clone(),
                    author_is_bot: root.author.is_bot(),
                    body: root.body.clone(),
                    state: "COMMENTED".into(),
                    commit_id: None,
                    submitted_at: Some(root.created_at.clone()),
                });
                for reply in notes {
                    history.issue_comments.push(IssueComment {
                        id: reply.id,
                        author: reply.author.username.clone(),
                        author_is_bot: reply.author.is_bot(),
                        body: reply.body,
                        created_at: reply.created_at,
                        updated_at: reply.updated_at,
                    });
                }
            }
        }
    }
    // An approval is the account's, not a note's: its latest general note stands for it.
    history.reviews.sort_by_key(|r| r.id);
    for approver in approvers {
        if let Some(latest) = history
            .reviews
            .iter_mut()
            .rev()
            .find(|r| r.author.eq_ignore_ascii_case(approver))
        {
            latest.state = "APPROVED".into();
        }
    }
    if let Some(login) = login {
        for draft in drafts {
            history.reviews.push(Review {
                id: draft.id,
                author: login.to_string(),
                author_is_bot: false,
                body: draft.note,
                state: "PENDING".into(),
                commit_id: None,
                submitted_at: None,
            });
        }
    }
    history
}

/// Lines added and removed in one file's hunks.
fn count_lines(diff: &str) -> (u32, u32) {
    diff.lines().fold((0, 0), |(added, removed), line| {
        if line.starts_with('+') && !line.starts_with("+++") {
            (added + 1, removed)
        } else if line.starts_with('-') && !line.starts_with("---") {
            (added, removed + 1)
        } else {
            (added, removed)
        }
    })
}

/// A `git diff`-shaped text from GitLab's per-file entries (each only its hunks).
fn unified_diff(files: &[wire::FileDiff]) -> String {
    let mut out = String::new();
    for file in files {
        let (old, new) = (&file.old_path, &file.new_path);
        out.push_str(&format!("diff --git a/{old} b/{new}\n"));
        if file.new_file {
            out.push_str("new file mode 100644\n");
        } else if file.deleted_file {
            out.push_str("deleted file mode 100644\n");
        } else if file.renamed_file {
            out.push_str(&format!("rename from {old}\nrename to {new}\n"));
        }
        if file.diff.is_empty() {
            continue;
        }
        let from = if file.new_file {
            "/dev/null".to_string()
        } else {
            format!("a/{old}")
        };
        let to = if file.deleted_file {
            "/dev/null".to_string()
        } else {
            format!("b/{new}")
        };
        out.push_str(&format!("--- {from}\n+++ {to}\n"));
        out.push_str(&file.diff);
        if !file.diff.ends_with('\n') {
            out.push('\n');
        }
    }
    out
}

impl Forge for GitlabForge {
    fn name(&self) -> &'static str {
        "GitLab"
    }

    fn label(&self) -> String {
        format!("{}!{}", self.project, self.iid)
    }

    fn review_url(&self, pr: &PullRequest, review_id: u64) -> String {
        format!("{}#note_{review_id}", pr.html_url)
    }

    fn token_hint(&self) -> &'static str {
        settings::TOKEN_HINT
    }

    fn pull_request(&self) -> ForgeFuture<'_, PullRequest> {
        Box::pin(async move { Ok(GitlabForge::pull_request(self).await?) })
    }

    fn changed_files(&self) -> ForgeFuture<'_, Vec<ChangedFile>> {
        Box::pin(async move { Ok(GitlabForge::changed_files(self).await?) })
    }

    fn diff(&self) -> ForgeFuture<'_, String> {
        Box::pin(async move { Ok(GitlabForge::diff(self).await?) })
    }

    fn history(&self) -> ForgeFuture<'_, PrHistory> {
        Box::pin(async move { Ok(GitlabForge::history(self).await?) })
    }

    fn review_threads(&self) -> ForgeFuture<'_, Vec<crate::pr::threads::ReviewThread>> {
        Box::pin(async move { Ok(GitlabForge::review_threads(self).await?) })
    }

    fn resolve_thread<'a>(&'a self, thread_id: &'a str, resolved: bool) -> ForgeFuture<'a, ()> {
        Box::pin(async move { Ok(self.set_resolved(thread_id, resolved).await?) })
    }

    fn authenticated_user(&self) -> ForgeFuture<'_, Option<String>> {
        Box::pin(async move { Ok(GitlabForge::authenticated_user(self).await?) })
    }

    fn create_review<'a>(&'a self, review: &'a NewReview) -> ForgeFuture<'a, PostedReview> {
        Box::pin(async move { self.submit_review(review).await })
    }

    fn update_review<'a>(&'a self, review_id: u64, body: &'a str) -> ForgeFuture<'a, PostedReview> {
        Box::pin(async move { Ok(self.edit_note(review_id, body).await?) })
    }

    fn dismiss_review<'a>(
        &'a self,
        review_id: u64,
        _message: &'a str,
    ) -> ForgeFuture<'a, PostedReview> {
        Box::pin(async move { self.unapprove(review_id).await })
    }

    fn reply_to_comment<'a>(&'a self, comment_id: u64, body: &'a str) -> ForgeFuture<'a, u64> {
        Box::pin(async move { Ok(self.resolve_thread(comment_id, body).await?) })
    }

    fn check_runs<'a>(&'a self, sha: &'a str) -> ForgeFuture<'a, Vec<CheckRun>> {
        Box::pin(async move { Ok(GitlabForge::check_runs(self, sha).await?) })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn note(id: u64, author: &str, body: &str) -> wire::Note {
        serde_json::from_value(serde_json::json!({
            "id": id, "body": body, "author": {"username": author}, "system": false,
            "created_at": "2026-01-01T00:00:00Z", "updated_at": "2026-01-01T00:00:00Z"
        }))
        .unwrap()
    }

    #[test]
    fn notes_threads_approvals_and_drafts_become_the_ports_history() {
        let mut diff_root = note(10, "bot", "inline");
        diff_root.position = Some(
            serde_json::from_value(serde_json::json!({
                "new_path": "src/lib.rs", "old_path": "src/lib.rs", "new_line": 4, "head_sha": "abc"
            }))
            .unwrap(),
        );
        let discussions = vec![
            wire::Discussion {
                id: "d1".into(),
                individual_note: true,
                notes: vec![note(1, "bot", "first summary")],
            },
            wire::Discussion {
                id: "d2".into(),
                individual_note: false,
                notes: vec![diff_root, note(11, "bot", "reply")],
            },
            wire::Discussion {
                id: "d3".into(),
                individual_note: true,
                notes: vec![note(5, "bot", "a later note")],
            },
        ];
        let approvers = HashSet::from(["bot".to_string()]);
        let drafts = vec![wire::DraftNote {
            id: 77,
            note: "left over".into(),
        }];
        let history = history_of(discussions, &approvers, drafts, Some("bot"));
        let states: Vec<(u64, &str)> = history
            .reviews
            .iter()
            .map(|r| (r.id, r.state.as_str()))
            .collect();
        assert_eq!(states, [(1, "COMMENTED"), (5, "APPROVED"), (77, "PENDING")]);
        assert_eq!(history.review_comments.len(), 2);
        assert_eq!(history.review_comments[0].line, Some(4));
        assert_eq!(history.review_comments[1].in_reply_to, Some(10));
        assert_eq!(history.review_comments[1].path, "src/lib.rs");
    }

    #[test]
    fn per_file_hunks_make_one_unified_diff() {
        let file = |old: &str, new: &str, diff: &str, new_file, deleted_file| wire::FileDiff {
            old_path: old.into(),
            new_path: new.into(),
            diff: diff.into(),
            new_file,
            renamed_file: old != new,
            deleted_file,
        };
        let text = unified_diff(&[
            file("a.rs", "a.rs", "@@ -1 +1 @@\n-x\n+y\n", false, false),
            file("n.rs", "n.rs", "@@ -0,0 +1 @@\n+z", true, false),
        ]);
        let parsed = crate::diff::parse(&text).unwrap();
        assert_eq!(parsed.files.len(), 2);
        assert!(text.contains("--- /dev/null\n+++ b/n.rs\n@@ -0,0 +1 @@\n+z\n"));
        assert_eq!(count_lines("@@ -1 +1 @@\n-x\n+y\n+z\n"), (2, 1));
    }
}
