//! Pull requests on Gitea and Forgejo (Codeberg and self-hosted servers) over the REST API v1.
//!
//! Reading maps Gitea's pull request, its diff, reviews, review comments and conversation
//! comments into the port's neutral types. Gitea cannot edit a review's body, so the summary
//! this tool keeps up to date lives in a conversation comment that the review points to (see
//! `review.rs`); reading shows that review with the comment's text, so the publisher sees one
//! review it can edit, as on GitHub.

mod error;
mod inbox;
mod reference;
mod review;
mod settings;
mod wire;

pub use error::GiteaError;
pub use reference::{GITEA, Gitea};
pub use settings::{GITEA_HOST, GiteaSettings};

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex, OnceLock};

use reqwest::Method;

use crate::commit_id::CommitId;
use crate::pr::forge::{
    ChangedFile, CheckRun, FileStatus, Forge, ForgeFuture, IssueComment, NewReview, PostedReview,
    PrHistory, PullRequest, Review, ReviewComment, Side,
};
use crate::pr::hosted::HostedPr;
use crate::pr::http::RestClient;

/// Gitea's largest page by default (`MAX_RESPONSE_ITEMS`).
const LIMIT: &str = "50";

/// The trailer line of a summary comment this tool keeps.
const SUMMARY_TAG: &str = "<!-- review-tui:gitea-summary -->";
/// The trailer line of a review whose summary is in comment `ID`: `…summary-comment=ID -->`.
const LINK_PREFIX: &str = "<!-- review-tui:gitea-summary-comment=";

/// Where an inline comment sits, for an answer in its conversation.
#[derive(Debug, Clone)]
struct Place {
    path: String,
    line: u32,
    side: Side,
    commit_id: String,
}

/// One pull request on a Gitea or Forgejo server.
#[derive(Debug, Clone)]
pub struct GiteaForge {
    client: RestClient,
    owner: String,
    repo: String,
    number: u64,
    /// Who the token acts as, once asked.
    login: Arc<OnceLock<String>>,
    /// Review id → where it is shown (its summary comment's address, when it has one).
    urls: Arc<Mutex<HashMap<u64, String>>>,
    /// Inline comment id → its place, from the last reading.
    places: Arc<Mutex<HashMap<u64, Place>>>,
}

/// Everything read about the conversation, before it is mapped into the port's history.
struct Conversation {
    reviews: Vec<wire::Review>,
    review_comments: Vec<wire::ReviewComment>,
    comments: Vec<wire::Comment>,
}

impl GiteaForge {
    pub fn new(client: RestClient, pr: &HostedPr) -> GiteaForge {
        GiteaForge {
            client,
            owner: pr.owner.clone(),
            repo: pr.repo.clone(),
            number: pr.number,
            login: Arc::default(),
            urls: Arc::default(),
            places: Arc::default(),
        }
    }

    fn describe(&self) -> String {
        format!("pull request {}/{}#{}", self.owner, self.repo, self.number)
    }

    /// `…/repos/OWNER/REPO/REST…`
    fn repo_endpoint(&self, rest: &[&str]) -> reqwest::Url {
        let mut segments = vec!["repos", &self.owner, &self.repo];
        segments.extend_from_slice(rest);
        self.client.endpoint(&segments)
    }

    /// `…/repos/OWNER/REPO/pulls/N/REST…`
    fn pull_endpoint(&self, rest: &[&str]) -> reqwest::Url {
        let number = self.number.to_string();
        let mut segments = vec!["pulls", number.as_str()];
        segments.extend_from_slice(rest);
        self.repo_endpoint(&segments)
    }

    async fn pull(&self) -> Result<wire::Pull, GiteaError> {
        Ok(self
            .client
            .get_json(self.pull_endpoint(&[]), &self.describe())
            .await?)
    }

    pub async fn pull_request(&self) -> Result<PullRequest, GiteaError> {
        self.pull()
            .await?
            .into_forge()
            .map_err(|e| GiteaError::Unreadable(e.0))
    }

    /// The unified diff of base...head, as Gitea serves it (`…/pulls/N.diff`).
    pub async fn diff(&self) -> Result<String, GiteaError> {
        let name = format!("{}.diff", self.number);
        let url = self.repo_endpoint(&["pulls", &name]);
        let answer = self
            .client
            .send(Method::GET, url, None, &self.describe())
            .await?;
        Ok(String::from_utf8_lossy(&answer.body).into_owned())
    }

    /// The changed files, read from the diff (this API version lists no files of its own).
    pub async fn changed_files(&self) -> Result<Vec<ChangedFile>, GiteaError> {
        Ok(files_of(&self.diff().await?))
    }

    pub async fn authenticated_user(&self) -> Result<Option<String>, GiteaError> {
        Ok(self
            .client
            .token_login(&self.login, |user: wire::User| user.login)
            .await?)
    }

    async fn reviews(&self) -> Result<Vec<wire::Review>, GiteaError> {
        Ok(self
            .client
            .get_pages(
                self.pull_endpoint(&["reviews"]),
                Some(("limit", LIMIT)),
                &self.describe(),
            )
            .await?)
    }

    /// The conversation comments (this API version returns them all in one answer; a newer
    /// server's `Link` pages are followed).
    async fn issue_comments(&self) -> Result<Vec<wire::Comment>, GiteaError> {
        let number = self.number.to_string();
        let url = self.repo_endpoint(&["issues", &number, "comments"]);
        Ok(self.client.get_pages(url, None, &self.describe()).await?)
    }

    async fn conversation(&self) -> Result<Conversation, GiteaError> {
        let (reviews, comments) = tokio::try_join!(self.reviews(), self.issue_comments())?;
        let mut review_comments = Vec::new();
        for review in &reviews {
            let id = review.id.to_string();
            let list: Vec<wire::ReviewComment> = self
                .client
                .get_json(
                    self.pull_endpoint(&["reviews", &id, "comments"]),
                    &format!("the comments of review {id} on {}", self.describe()),
                )
                .await?;
            review_comments.extend(list);
        }
        review_comments.sort_by_key(|c| c.id);
        Ok(Conversation {
            reviews,
            review_comments,
            comments,
        })
    }

    pub async fn history(&self) -> Result<PrHistory, GiteaError> {
        let conversation = self.conversation().await?;
        let pr_url = self.pull().await?.html_url;
        let mut urls = self.urls.lock().unwrap_or_else(|e| e.into_inner());
        let mut places = self.places.lock().unwrap_or_else(|e| e.into_inner());
        Ok(history_of(conversation, &pr_url, &mut urls, &mut places))
    }

    pub async fn check_runs(&self, sha: &str) -> Result<Vec<CheckRun>, GiteaError> {
        let url = self.repo_endpoint(&["commits", sha, "status"]);
        let combined: wire::CombinedStatus = self
            .client
            .get_json(url, &format!("the commit statuses of {sha}"))
            .await?;
        Ok(combined
            .statuses
            .unwrap_or_default()
            .into_iter()
            .map(|status| {
                let (state, conclusion) = match status.status.as_str() {
                    "success" => ("completed", Some("success")),
                    "failure" | "error" => ("completed", Some("failure")),
                    "warning" => ("completed", Some("neutral")),
                    _ => ("queued", None),
                };
                CheckRun {
                    name: status.context,
                    status: state.to_string(),
                    conclusion: conclusion.map(str::to_string),
                    html_url: status.target_url.filter(|u| !u.is_empty()),
                }
            })
            .collect())
    }

    /// The merge base Gitea computed for the pull request: only for the head it shows now
    /// (this API version compares no other pair).
    pub async fn merge_base(&self, head: &CommitId) -> Result<Option<CommitId>, GiteaError> {
        let pull = self.pull().await?;
        if pull.head.sha != head.as_str() {
            return Ok(None);
        }
        Ok(pull
            .merge_base
            .as_deref()
            .and_then(|sha| CommitId::parse(sha).ok()))
    }
}

/// Our trailer lines of a body (written last, so nothing from outside can stand there).
fn trailer(body: &str) -> impl Iterator<Item = &str> {
    body.lines()
        .rev()
        .map(str::trim)
        .skip_while(|line| line.is_empty())
        .take_while(|line| line.starts_with("<!-- review-tui:") && line.ends_with(" -->"))
}

/// The summary comment a review's trailer points to.
fn linked_comment(body: &str) -> Option<u64> {
    trailer(body).find_map(|line| {
        line.strip_prefix(LINK_PREFIX)?
            .strip_suffix(" -->")?
            .parse()
            .ok()
    })
}

fn is_summary_comment(body: &str) -> bool {
    trailer(body).any(|line| line == SUMMARY_TAG)
}

fn login_of(user: &Option<wire::User>) -> (String, bool) {
    user.as_ref()
        .map_or((String::new(), false), |u| (u.login.clone(), u.is_bot()))
}

/// The reviews (a review pointing to its author's summary comment shows that comment's text
/// and address), the inline comments (a later comment on the same line of the same file
/// answers the first, as Gitea shows them as one conversation), and the other conversation
/// comments.
fn history_of(
    conversation: Conversation,
    pr_url: &str,
    urls: &mut HashMap<u64, String>,
    places: &mut HashMap<u64, Place>,
) -> PrHistory {
    let mut history = PrHistory::default();
    let mut linked = HashSet::new();
    for review in &conversation.reviews {
        let Some(state) = review.port_state() else {
            continue;
        };
        let (author, author_is_bot) = login_of(&review.user);
        let summary = linked_comment(&review.body).and_then(|id| {
            conversation.comments.iter().find(|c| {
                c.id == id
                    && login_of(&c.user).0.eq_ignore_ascii_case(&author)
                    && is_summary_comment(&c.body)
            })
        });
        let body = match summary {
            Some(comment) => {
                linked.insert(comment.id);
                urls.insert(review.id, comment_url(pr_url, comment));
                comment.body.clone()
            }
            None => {
                if !review.html_url.is_empty() {
                    urls.insert(review.id, review.html_url.clone());
                }
                review.body.clone()
            }
        };
        history.reviews.push(Review {
            id: review.id,
            author,
            author_is_bot,
            body,
            state: state.into(),
            commit_id: review.commit_id.clone(),
            submitted_at: review.submitted_at.clone(),
        });
    }
    let mut roots: HashMap<(String, u32, bool), u64> = HashMap::new();
    for comment in &conversation.review_comments {
        let (author, author_is_bot) = login_of(&comment.user);
        let (line, side) = comment.place();
        let in_reply_to = match (line, side) {
            (Some(line), Some(side)) => {
                let key = (comment.path.clone(), line, side == Side::Left);
                let root = *roots.entry(key).or_insert(comment.id);
                places.insert(
                    comment.id,
                    Place {
                        path: comment.path.clone(),
                        line,
                        side,
                        commit_id: comment.commit_id.clone(),
                    },
                );
                (root != comment.id).then_some(root)
            }
            _ => None,
        };
        history.review_comments.push(ReviewComment {
            id: comment.id,
            review_id: comment.pull_request_review_id,
            author,
            author_is_bot,
            body: comment.body.clone(),
            path: comment.path.clone(),
            line,
            start_line: None,
            side,
            commit_id: comment.commit_id.clone(),
            original_commit_id: comment.original_commit_id.clone(),
            // Gitea keeps a comment's lines in the numbering of the commit it was posted on.
            original_line: line,
            original_start_line: None,
            in_reply_to,
            created_at: comment.created_at.clone(),
            updated_at: comment.updated_at.clone(),
        });
    }
    for comment in conversation.comments {
        if linked.contains(&comment.id) {
            continue;
        }
        let (author, author_is_bot) = login_of(&comment.user);
        history.issue_comments.push(IssueComment {
            id: comment.id,
            author,
            author_is_bot,
            body: comment.body,
            created_at: comment.created_at,
            updated_at: comment.updated_at,
        });
    }
    history
}

/// Where a conversation comment is shown: Gitea's own address, else its anchor on the PR.
fn comment_url(pr_url: &str, comment: &wire::Comment) -> String {
    if comment.html_url.is_empty() {
        format!("{pr_url}#issuecomment-{}", comment.id)
    } else {
        comment.html_url.clone()
    }
}

/// The changed files of a unified diff: paths, what happened, lines added and removed, hunks.
fn files_of(diff: &str) -> Vec<ChangedFile> {
    let mut files = Vec::new();
    for chunk in diff.split("\ndiff --git ").filter(|c| !c.trim().is_empty()) {
        let chunk = chunk.strip_prefix("diff --git ").unwrap_or(chunk);
        let mut old: Option<String> = None;
        let mut new: Option<String> = None;
        let mut status = FileStatus::Modified;
        let mut header_end = chunk.len();
        let mut offset = 0;
        for line in chunk.split_inclusive('\n') {
            let text = line.trim_end_matches('\n');
            if text.starts_with("@@") {
                header_end = offset;
                break;
            }
            if let Some(p) = text.strip_prefix("--- a/") {
                old = Some(p.to_string());
            } else if let Some(p) = text.strip_prefix("+++ b/") {
                new = Some(p.to_string());
            } else if let Some(p) = text.strip_prefix("rename from ") {
                old = Some(p.to_string());
                status = FileStatus::Renamed;
            } else if let Some(p) = text.strip_prefix("rename to ") {
                new = Some(p.to_string());
            } else if text.starts_with("new file mode") {
                status = FileStatus::Added;
            } else if text.starts_with("deleted file mode") {
                status = FileStatus::Removed;
            }
            offset += line.len();
        }
        // Without `---`/`+++` lines (a binary or mode-only change) the paths are in the first
        // line, `a/OLD b/NEW`.
        let first = chunk.lines().next().unwrap_or("");
        let (fallback_old, fallback_new) = first
            .strip_prefix("a/")
            .and_then(|rest| rest.split_once(" b/"))
            .map_or((String::new(), String::new()), |(o, n)| {
                (o.to_string(), n.to_string())
            });
        let new_path = new.unwrap_or(fallback_new);
        let old_path = old.unwrap_or(fallback_old);
        let path = if status == FileStatus::Removed {
            old_path.clone()
        } else {
            new_path
        };
        let hunks = &chunk[header_end.min(chunk.len())..];
        let (additions, deletions) = hunks.lines().fold((0, 0), |(a, d), line| {
            if line.starts_with('+') {
                (a + 1, d)
            } else if line.starts_with('-') {
                (a, d + 1)
            } else {
                (a, d)
            }
        });
        files.push(ChangedFile {
            previous_path: (status == FileStatus::Renamed).then_some(old_path),
            path,
            status,
            additions,
            deletions,
            patch: (!hunks.is_empty()).then(|| {
                let mut patch = hunks.to_string();
                if !patch.ends_with('\n') {
                    patch.push('\n');
                }
                patch
            }),
        });
    }
    files
}

impl Forge for GiteaForge {
    fn name(&self) -> &'static str {
        "Gitea"
    }

    fn label(&self) -> String {
        format!("{}/{}#{}", self.owner, self.repo, self.number)
    }

    fn review_url(&self, pr: &PullRequest, review_id: u64) -> String {
        self.urls
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(&review_id)
            .cloned()
            .unwrap_or_else(|| pr.html_url.clone())
    }

    fn token_hint(&self) -> &'static str {
        settings::TOKEN_HINT
    }

    fn pull_request(&self) -> ForgeFuture<'_, PullRequest> {
        Box::pin(async move { Ok(GiteaForge::pull_request(self).await?) })
    }

    fn changed_files(&self) -> ForgeFuture<'_, Vec<ChangedFile>> {
        Box::pin(async move { Ok(GiteaForge::changed_files(self).await?) })
    }

    fn diff(&self) -> ForgeFuture<'_, String> {
        Box::pin(async move { Ok(GiteaForge::diff(self).await?) })
    }

    fn history(&self) -> ForgeFuture<'_, PrHistory> {
        Box::pin(async move { Ok(GiteaForge::history(self).await?) })
    }

    fn authenticated_user(&self) -> ForgeFuture<'_, Option<String>> {
        Box::pin(async move { Ok(GiteaForge::authenticated_user(self).await?) })
    }

    fn create_review<'a>(&'a self, review: &'a NewReview) -> ForgeFuture<'a, PostedReview> {
        Box::pin(async move { self.submit_review(review).await })
    }

    fn update_review<'a>(&'a self, review_id: u64, body: &'a str) -> ForgeFuture<'a, PostedReview> {
        Box::pin(async move { Ok(self.edit_summary(review_id, body).await?) })
    }

    fn dismiss_review<'a>(
        &'a self,
        review_id: u64,
        message: &'a str,
    ) -> ForgeFuture<'a, PostedReview> {
        Box::pin(async move { self.dismiss(review_id, message).await })
    }

    fn reply_to_comment<'a>(&'a self, comment_id: u64, body: &'a str) -> ForgeFuture<'a, u64> {
        Box::pin(async move { Ok(self.answer(comment_id, body).await?) })
    }

    fn check_runs<'a>(&'a self, sha: &'a str) -> ForgeFuture<'a, Vec<CheckRun>> {
        Box::pin(async move { Ok(GiteaForge::check_runs(self, sha).await?) })
    }

    fn merge_base<'a>(
        &'a self,
        _base: &'a CommitId,
        head: &'a CommitId,
    ) -> ForgeFuture<'a, Option<CommitId>> {
        Box::pin(async move { Ok(GiteaForge::merge_base(self, head).await?) })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn user(login: &str) -> Option<wire::User> {
        Some(wire::User {
            login: login.into(),
        })
    }

    fn review(id: u64, login: &str, body: &str, state: &str) -> wire::Review {
        wire::Review {
            id,
            user: user(login),
            body: body.into(),
            state: state.into(),
            dismissed: false,
            commit_id: None,
            submitted_at: None,
            html_url: String::new(),
        }
    }

    fn comment(id: u64, login: &str, body: &str) -> wire::Comment {
        wire::Comment {
            id,
            user: user(login),
            body: body.into(),
            html_url: String::new(),
            created_at: String::new(),
            updated_at: String::new(),
        }
    }

    fn inline(id: u64, path: &str, position: u32) -> wire::ReviewComment {
        serde_json::from_value(serde_json::json!({
            "id": id, "user": {"login": "bot"}, "body": "b", "path": path, "position": position,
            "pull_request_review_id": 1
        }))
        .unwrap()
    }

    #[test]
    fn a_review_shows_its_authors_summary_comment_and_only_its_authors() {
        let summary = format!("the summary\n{SUMMARY_TAG}");
        let conversation = Conversation {
            reviews: vec![
                review(1, "bot", &format!("see\n{LINK_PREFIX}10 -->"), "APPROVED"),
                // Someone else's review pointing at our comment keeps its own text.
                review(2, "mallory", &format!("x\n{LINK_PREFIX}10 -->"), "COMMENT"),
                review(3, "bot", "", "REQUEST_REVIEW"),
            ],
            review_comments: vec![
                inline(20, "a.rs", 4),
                inline(21, "a.rs", 4),
                inline(22, "a.rs", 5),
            ],
            comments: vec![comment(10, "bot", &summary), comment(11, "someone", "hi")],
        };
        let (mut urls, mut places) = (HashMap::new(), HashMap::new());
        let history = history_of(
            conversation,
            "https://h/o/r/pulls/7",
            &mut urls,
            &mut places,
        );
        let reviews: Vec<(u64, &str, &str)> = history
            .reviews
            .iter()
            .map(|r| (r.id, r.state.as_str(), r.body.as_str()))
            .collect();
        assert_eq!(reviews[0], (1, "APPROVED", summary.as_str()));
        assert_eq!(reviews[1].0, 2);
        assert!(reviews[1].2.starts_with("x\n"));
        assert_eq!(reviews.len(), 2, "a review request is nobody's review");
        assert_eq!(urls[&1], "https://h/o/r/pulls/7#issuecomment-10");
        // The summary comment is the review's, not another conversation comment.
        assert_eq!(history.issue_comments.len(), 1);
        let replies: Vec<Option<u64>> = history
            .review_comments
            .iter()
            .map(|c| c.in_reply_to)
            .collect();
        assert_eq!(replies, [None, Some(20), None]);
    }

    #[test]
    fn the_diff_gives_the_changed_files() {
        let diff = "diff --git a/src/lib.rs b/src/lib.rs\nindex 1..2 100644\n--- a/src/lib.rs\n+++ b/src/lib.rs\n@@ -1 +1,2 @@\n-x\n+y\n+z\ndiff --git a/new.rs b/new.rs\nnew file mode 100644\n--- /dev/null\n+++ b/new.rs\n@@ -0,0 +1 @@\n+n\ndiff --git a/old.rs b/old.rs\ndeleted file mode 100644\n--- a/old.rs\n+++ /dev/null\n@@ -1 +0,0 @@\n-o\n";
        let files = files_of(diff);
        let summary: Vec<(&str, FileStatus, u32, u32)> = files
            .iter()
            .map(|f| (f.path.as_str(), f.status, f.additions, f.deletions))
            .collect();
        assert_eq!(
            summary,
            [
                ("src/lib.rs", FileStatus::Modified, 2, 1),
                ("new.rs", FileStatus::Added, 1, 0),
                ("old.rs", FileStatus::Removed, 0, 1),
            ]
        );
        assert_eq!(
            files[0].patch.as_deref(),
            Some("@@ -1 +1,2 @@\n-x\n+y\n+z\n")
        );
    }
}
