//! Pull requests on GitHub (and GitHub Enterprise Server) over the REST API.

mod client;
mod dialect;
mod error;
mod hosts;
mod inbox;
mod reference;
mod refusal;
mod rest_threads;
mod settings;
mod threads;
mod token;
mod wire;

pub use crate::retry::RetryPolicy;
pub use client::{Accept, DEFAULT_API_URL, GithubClient, GithubConfig};
pub(crate) use error::Call;
pub use error::GithubError;
pub use hosts::{ApiHosts, GITHUB_HOST};
pub use reference::{GITHUB, Github};
pub use refusal::{Refusal, classify as classify_refusal};
pub use settings::GithubSettings;
pub use token::{TokenSource, discover as discover_token};

use reqwest::Method;

use crate::commit_id::CommitId;
use crate::pr::forge::{
    ChangedFile, CheckRun, Forge, ForgeFuture, NewReview, PostedReview, PrHistory, PullRequest,
};
use crate::pr::threads::ReviewThread;

/// One pull request on GitHub.
#[derive(Debug, Clone)]
pub struct GithubForge {
    client: GithubClient,
    owner: String,
    repo: String,
    number: u64,
    /// Who the token acts as, once found: the preview and the publish ask the same question.
    login: std::sync::Arc<std::sync::OnceLock<String>>,
}

impl GithubForge {
    /// Binds a client to `owner/repo#number`. Names are checked against GitHub's character set
    /// so that a bad reference fails here, not as a confusing 404.
    pub fn new(
        client: GithubClient,
        owner: impl Into<String>,
        repo: impl Into<String>,
        number: u64,
    ) -> Result<Self, GithubError> {
        let (owner, repo) = (owner.into(), repo.into());
        for name in [&owner, &repo] {
            if !is_valid_name(name) {
                return Err(GithubError::InvalidName { name: name.clone() });
            }
        }
        Ok(GithubForge {
            client,
            owner,
            repo,
            number,
            login: Default::default(),
        })
    }

    pub fn client(&self) -> &GithubClient {
        &self.client
    }

    fn pull_segments<'a>(&'a self, number: &'a str, rest: &[&'a str]) -> Vec<&'a str> {
        let mut segments = vec!["repos", &self.owner, &self.repo, "pulls", number];
        segments.extend_from_slice(rest);
        segments
    }

    fn describe_pr(&self) -> String {
        format!("pull request {}/{}#{}", self.owner, self.repo, self.number)
    }

    pub async fn pull_request(&self) -> Result<PullRequest, GithubError> {
        let number = self.number.to_string();
        let url = self.client.endpoint(&self.pull_segments(&number, &[]));
        let pull: wire::Pull = self.client.get_json(url, &self.describe_pr()).await?;
        Ok(pull.into_forge())
    }

    pub async fn changed_files(&self) -> Result<Vec<ChangedFile>, GithubError> {
        let number = self.number.to_string();
        let url = self
            .client
            .endpoint(&self.pull_segments(&number, &["files"]));
        let files: Vec<wire::DiffEntry> = self.client.get_all(url, &self.describe_pr()).await?;
        Ok(files.into_iter().map(wire::DiffEntry::into_forge).collect())
    }

    pub async fn diff(&self) -> Result<String, GithubError> {
        let number = self.number.to_string();
        let url = self.client.endpoint(&self.pull_segments(&number, &[]));
        self.client
            .get_text(url, Accept::Diff, &self.describe_pr())
            .await
    }

    pub async fn history(&self) -> Result<PrHistory, GithubError> {
        let number = self.number.to_string();
        let what = self.describe_pr();
        let reviews_url = self
            .client
            .endpoint(&self.pull_segments(&number, &["reviews"]));
        let comments_url = self
            .client
            .endpoint(&self.pull_segments(&number, &["comments"]));
        let issue_url = self.client.endpoint(&[
            "repos",
            &self.owner,
            &self.repo,
            "issues",
            &number,
            "comments",
        ]);
        let (reviews, review_comments, issue_comments) = tokio::try_join!(
            self.client.get_all::<wire::PullReview>(reviews_url, &what),
            self.client
                .get_all::<wire::PullReviewComment>(comments_url, &what),
            self.client
                .get_all::<wire::IssueCommentWire>(issue_url, &what),
        )?;
        Ok(PrHistory {
            reviews: reviews
                .into_iter()
                .map(wire::PullReview::into_forge)
                .collect(),
            review_comments: review_comments
                .into_iter()
                .map(wire::PullReviewComment::into_forge)
                .collect(),
            issue_comments: issue_comments
                .into_iter()
                .map(wire::IssueCommentWire::into_forge)
                .collect(),
        })
    }

    /// Who the token acts as; `None` without a token. A configured login is taken as given
    /// (no call). Otherwise `GET /user`, which GitHub refuses to installation tokens (the
    /// `github.token` of Actions among them) with 403 "Resource not accessible by
    /// integration": then the installation's known login, or an error saying how to name it.
    pub async fn authenticated_user(&self) -> Result<Option<String>, GithubError> {
        if let Some(login) = self.client.configured_login() {
            return Ok(Some(login.to_owned()));
        }
        if !self.client.has_token() {
            return Ok(None);
        }
        if let Some(login) = self.login.get() {
            return Ok(Some(login.clone()));
        }
        let url = self.client.endpoint(&["user"]);
        let found = match self
            .client
            .get_json::<wire::User>(url, "the authenticated user")
            .await
        {
            Ok(user) => user.login,
            Err(GithubError::Status {
                status: 403,
                call,
                message,
                ..
            }) if is_integration_refusal(&message) => match self.client.installation_login() {
                Some(login) => login.to_owned(),
                None => return Err(GithubError::InstallationLogin { call, message }),
            },
            Err(other) => return Err(other),
        };
        Ok(Some(self.login.get_or_init(|| found).clone()))
    }
}

/// GitHub's answer to a call an installation token may not make (`GET /user` among them).
fn is_integration_refusal(message: &str) -> bool {
    message
        .to_ascii_lowercase()
        .contains("not accessible by integration")
}

/// The login GitHub Actions' own token (`github.token`) acts as. `GITHUB_ACTOR` is not it: that
/// is the person or app whose event started the run.
pub const ACTIONS_LOGIN: &str = "github-actions[bot]";

/// Who an installation token acts as when nothing else says so: inside GitHub Actions
/// (`GITHUB_ACTIONS=true`), the token is most often `github.token`, which acts as
/// [`ACTIONS_LOGIN`]. An app token there is named with `[github] login`.
pub fn installation_login_from_env() -> Option<String> {
    (std::env::var("GITHUB_ACTIONS").as_deref() == Ok("true")).then(|| ACTIONS_LOGIN.to_owned())
}

impl GithubForge {
    /// `POST /repos/{o}/{r}/pulls/{n}/reviews`. Never retried after it may have reached GitHub:
    /// a second submission would be a second review.
    pub async fn create_review(&self, review: &NewReview) -> Result<PostedReview, GithubError> {
        let number = self.number.to_string();
        let url = self
            .client
            .endpoint(&self.pull_segments(&number, &["reviews"]));
        let posted: wire::PostedReviewWire = self
            .client
            .send_json(Method::POST, url, review, &self.describe_pr())
            .await?;
        Ok(posted.into_forge())
    }

    /// `PUT /repos/{o}/{r}/pulls/{n}/reviews/{id}`: idempotent, so retried like a read.
    pub async fn update_review(
        &self,
        review_id: u64,
        body: &str,
    ) -> Result<PostedReview, GithubError> {
        let (number, id) = (self.number.to_string(), review_id.to_string());
        let url = self
            .client
            .endpoint(&self.pull_segments(&number, &["reviews", &id]));
        let what = format!("review {review_id} on {}", self.describe_pr());
        let posted: wire::PostedReviewWire = self
            .client
            .send_json(
                Method::PUT,
                url,
                &serde_json::json!({ "body": body }),
                &what,
            )
            .await?;
        Ok(posted.into_forge())
    }

    /// `PUT /repos/{o}/{r}/pulls/{n}/reviews/{id}/dismissals`: idempotent in effect (a second
    /// dismissal is refused with a 422, never a second change), so retried like a read.
    pub async fn dismiss_review(
        &self,
        review_id: u64,
        message: &str,
    ) -> Result<PostedReview, GithubError> {
        let (number, id) = (self.number.to_string(), review_id.to_string());
        let url = self
            .client
            .endpoint(&self.pull_segments(&number, &["reviews", &id, "dismissals"]));
        let what = format!("review {review_id} on {}", self.describe_pr());
        let posted: wire::PostedReviewWire = self
            .client
            .send_json(
                Method::PUT,
                url,
                &serde_json::json!({ "message": message, "event": "DISMISS" }),
                &what,
            )
            .await?;
        Ok(posted.into_forge())
    }

    /// `POST /repos/{o}/{r}/pulls/{n}/comments/{id}/replies`.
    pub async fn reply_to_comment(&self, comment_id: u64, body: &str) -> Result<u64, GithubError> {
        let (number, id) = (self.number.to_string(), comment_id.to_string());
        let url = self
            .client
            .endpoint(&self.pull_segments(&number, &["comments", &id, "replies"]));
        let what = format!("review comment {comment_id} on {}", self.describe_pr());
        let created: wire::CreatedComment = self
            .client
            .send_json(
                Method::POST,
                url,
                &serde_json::json!({ "body": body }),
                &what,
            )
            .await?;
        Ok(created.id)
    }

    /// `GET /repos/{o}/{r}/commits/{sha}/check-runs`: the first 100, which is every check any
    /// ordinary workflow reports on one commit.
    pub async fn check_runs(&self, sha: &str) -> Result<Vec<CheckRun>, GithubError> {
        let mut url = self.client.endpoint(&[
            "repos",
            &self.owner,
            &self.repo,
            "commits",
            sha,
            "check-runs",
        ]);
        url.query_pairs_mut().append_pair("per_page", "100");
        let what = format!("the check runs of {sha}");
        let list: wire::CheckRunList = self.client.get_json(url, &what).await?;
        Ok(list
            .check_runs
            .into_iter()
            .map(|run| CheckRun {
                name: run.name,
                status: run.status,
                conclusion: run.conclusion,
                html_url: run.html_url,
            })
            .collect())
    }

    /// `GET /repos/{o}/{r}/compare/{base}...{head}`: where GitHub starts the PR's diff. An
    /// answer that is not a commit id is no answer (`None`).
    pub async fn merge_base(
        &self,
        base: &CommitId,
        head: &CommitId,
    ) -> Result<Option<CommitId>, GithubError> {
        let range = format!("{base}...{head}");
        let url = self
            .client
            .endpoint(&["repos", &self.owner, &self.repo, "compare", &range]);
        let what = format!("the comparison {range}");
        let comparison: wire::Comparison = self.client.get_json(url, &what).await?;
        Ok(CommitId::parse(&comparison.merge_base_commit.sha).ok())
    }
}

impl Forge for GithubForge {
    fn name(&self) -> &'static str {
        "GitHub"
    }

    fn label(&self) -> String {
        format!("{}/{}#{}", self.owner, self.repo, self.number)
    }

    fn review_url(&self, pr: &PullRequest, review_id: u64) -> String {
        format!("{}#pullrequestreview-{review_id}", pr.html_url)
    }

    fn token_hint(&self) -> &'static str {
        "GH_TOKEN, GITHUB_TOKEN or `gh auth login`"
    }

    fn pull_request(&self) -> ForgeFuture<'_, PullRequest> {
        Box::pin(async move { Ok(GithubForge::pull_request(self).await?) })
    }

    fn changed_files(&self) -> ForgeFuture<'_, Vec<ChangedFile>> {
        Box::pin(async move { Ok(GithubForge::changed_files(self).await?) })
    }

    fn diff(&self) -> ForgeFuture<'_, String> {
        Box::pin(async move { Ok(GithubForge::diff(self).await?) })
    }

    fn history(&self) -> ForgeFuture<'_, PrHistory> {
        Box::pin(async move { Ok(GithubForge::history(self).await?) })
    }

    fn review_threads(&self) -> ForgeFuture<'_, Vec<ReviewThread>> {
        Box::pin(async move { Ok(GithubForge::review_threads(self).await?) })
    }

    fn resolve_thread<'a>(&'a self, thread_id: &'a str, resolved: bool) -> ForgeFuture<'a, ()> {
        Box::pin(async move { Ok(GithubForge::resolve_thread(self, thread_id, resolved).await?) })
    }

    fn authenticated_user(&self) -> ForgeFuture<'_, Option<String>> {
        Box::pin(async move { Ok(GithubForge::authenticated_user(self).await?) })
    }

    fn create_review<'a>(&'a self, review: &'a NewReview) -> ForgeFuture<'a, PostedReview> {
        Box::pin(async move { Ok(GithubForge::create_review(self, review).await?) })
    }

    fn update_review<'a>(&'a self, review_id: u64, body: &'a str) -> ForgeFuture<'a, PostedReview> {
        Box::pin(async move { Ok(GithubForge::update_review(self, review_id, body).await?) })
    }

    fn dismiss_review<'a>(
        &'a self,
        review_id: u64,
        message: &'a str,
    ) -> ForgeFuture<'a, PostedReview> {
        Box::pin(async move { Ok(GithubForge::dismiss_review(self, review_id, message).await?) })
    }

    fn reply_to_comment<'a>(&'a self, comment_id: u64, body: &'a str) -> ForgeFuture<'a, u64> {
        Box::pin(async move { Ok(GithubForge::reply_to_comment(self, comment_id, body).await?) })
    }

    fn check_runs<'a>(&'a self, sha: &'a str) -> ForgeFuture<'a, Vec<CheckRun>> {
        Box::pin(async move { Ok(GithubForge::check_runs(self, sha).await?) })
    }

    fn merge_base<'a>(
        &'a self,
        base: &'a CommitId,
        head: &'a CommitId,
    ) -> ForgeFuture<'a, Option<CommitId>> {
        Box::pin(async move { Ok(GithubForge::merge_base(self, base, head).await?) })
    }
}

/// GitHub owner and repository names: ASCII letters, digits, `-`, `_` and `.`, but never a
/// bare `.` or `..`, which would walk the URL path.
fn is_valid_name(name: &str) -> bool {
    !name.is_empty()
        && name != "."
        && name != ".."
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_that_could_walk_the_path_are_refused() {
        let client = GithubClient::new(GithubConfig::new(DEFAULT_API_URL, None)).unwrap();
        for (owner, repo) in [("..", "r"), ("o", "a/b"), ("", "r"), ("o", "r?x")] {
            let err = GithubForge::new(client.clone(), owner, repo, 1).unwrap_err();
            assert!(
                matches!(err, GithubError::InvalidName { .. }),
                "{owner}/{repo}"
            );
        }
        assert!(GithubForge::new(client, "rust-lang", "rust.vim_2", 1).is_ok());
    }
}
