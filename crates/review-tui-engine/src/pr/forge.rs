//! What the rest of the engine needs from wherever a pull request lives (GitHub, a local
//! repository): its metadata, changed files, diff and history, in forge-neutral types.

use std::fmt;
use std::future::Future;
use std::pin::Pin;

use crate::commit_id::CommitId;

/// A boxed future, so that `Forge` stays object safe (`Box<dyn Forge>` picked at runtime from the
/// PR reference) and `Send` (forge calls run in tokio tasks). `async fn` in traits would give
/// neither `dyn` nor a `Send` bound we can name, and one allocation per network call is nothing.
pub type ForgeFuture<'a, T> = Pin<Box<dyn Future<Output = Result<T, ForgeError>> + Send + 'a>>;

/// One pull request on one forge. A value is bound to its PR, so the calls take no coordinates
/// and a local `base..head` range can implement the same trait.
///
/// The publishing calls (create and edit a review, reply to a review comment, read the head's
/// check runs) are mutating or publish-only; only `crate::publish` calls them, after a person's
/// confirmation. A forge that cannot publish (a local range) answers them with an error.
pub trait Forge: Send + Sync {
    /// The forge's name as people know it (`GitHub`, `GitLab`), for what is said about it.
    fn name(&self) -> &'static str;
    /// The pull request as people on this forge write it (`o/r#7`, `group/project!7`).
    fn label(&self) -> String;
    /// Where one of its reviews (as [`Review::id`] names it) is shown.
    fn review_url(&self, pr: &PullRequest, review_id: u64) -> String;
    /// Where a token for this forge is found, for the error that says one is missing.
    fn token_hint(&self) -> &'static str;
    /// Title, author, state, base and head.
    fn pull_request(&self) -> ForgeFuture<'_, PullRequest>;
    /// Every changed file, across all pages.
    fn changed_files(&self) -> ForgeFuture<'_, Vec<ChangedFile>>;
    /// The unified diff of base...head (merge-base semantics, like the PR page shows).
    fn diff(&self) -> ForgeFuture<'_, String>;
    /// Reviews, review comments and conversation comments, oldest first within each list.
    fn history(&self) -> ForgeFuture<'_, PrHistory>;
    /// The review threads people hold on the PR (inline comments with their replies, resolved
    /// and outdated), every page. A forge without threads (a local range) has none.
    fn review_threads(&self) -> ForgeFuture<'_, Vec<crate::pr::threads::ReviewThread>> {
        Box::pin(async { Ok(Vec::new()) })
    }
    /// Marks a thread resolved (or open again). A forge without threads refuses.
    fn resolve_thread<'a>(&'a self, thread_id: &'a str, resolved: bool) -> ForgeFuture<'a, ()> {
        let _ = (thread_id, resolved);
        Box::pin(async move {
            Err(ForgeError::new(
                ForgeErrorKind::Other,
                std::io::Error::other(format!("{} has no review threads to resolve", self.name())),
            ))
        })
    }
    /// The login the forge sees us as; `None` when working anonymously.
    fn authenticated_user(&self) -> ForgeFuture<'_, Option<String>>;
    /// Submits one review (event, body, inline comments) as one event on the forge: all or
    /// nothing. A refusal says what it was about in [`ForgeError::refusal`].
    fn create_review<'a>(&'a self, review: &'a NewReview) -> ForgeFuture<'a, PostedReview>;
    /// Replaces the body of an earlier review.
    fn update_review<'a>(&'a self, review_id: u64, body: &'a str) -> ForgeFuture<'a, PostedReview>;
    /// Dismisses an earlier standing review (APPROVED or CHANGES_REQUESTED) with a message.
    fn dismiss_review<'a>(
        &'a self,
        review_id: u64,
        message: &'a str,
    ) -> ForgeFuture<'a, PostedReview>;
    /// Answers an inline comment in its thread; returns the reply's id.
    fn reply_to_comment<'a>(&'a self, comment_id: u64, body: &'a str) -> ForgeFuture<'a, u64>;
    /// The check runs reported for a commit, as the forge reports them.
    fn check_runs<'a>(&'a self, sha: &'a str) -> ForgeFuture<'a, Vec<CheckRun>>;
    /// The merge base of `base` and `head` as the forge computes it (where a PR's diff
    /// starts); `None` from a forge that cannot tell, which publishing takes as "moved".
    fn merge_base<'a>(
        &'a self,
        base: &'a CommitId,
        head: &'a CommitId,
    ) -> ForgeFuture<'a, Option<CommitId>> {
        let _ = (base, head);
        Box::pin(async { Ok(None) })
    }
}

/// The review events, spelled as GitHub's API wants them; each forge maps them to its own.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum ReviewEvent {
    Approve,
    RequestChanges,
    Comment,
}

impl ReviewEvent {
    pub fn as_str(self) -> &'static str {
        match self {
            ReviewEvent::Approve => "APPROVE",
            ReviewEvent::RequestChanges => "REQUEST_CHANGES",
            ReviewEvent::Comment => "COMMENT",
        }
    }

    /// The event behind a submitted review's `state` (`APPROVED`, ...); `None` for states no
    /// event produces (`DISMISSED`, `PENDING`).
    pub fn from_state(state: &str) -> Option<ReviewEvent> {
        match state {
            "APPROVED" => Some(ReviewEvent::Approve),
            "CHANGES_REQUESTED" => Some(ReviewEvent::RequestChanges),
            "COMMENTED" => Some(ReviewEvent::Comment),
            _ => None,
        }
    }
}

impl fmt::Display for ReviewEvent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A review to submit.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct NewReview {
    /// The head the review is about: GitHub places the comments on this commit's diff.
    pub commit_id: CommitId,
    pub event: ReviewEvent,
    pub body: String,
    pub comments: Vec<NewReviewComment>,
    /// Unsubmitted (`PENDING`) reviews of the publishing account that an earlier, interrupted
    /// publish of ours left (a forge that stages inline comments before publishing them):
    /// the forge removes them before staging this review, so nothing is posted twice.
    #[serde(skip)]
    pub replace_pending: Vec<u64>,
    /// This review's body is the pull request's summary, which later rounds edit in place
    /// ([`Forge::update_review`]): a forge that cannot edit a review's body keeps it where it
    /// can.
    #[serde(skip)]
    pub summary: bool,
}

/// One inline comment of a new review. `start_line`/`start_side` only for a true range: GitHub
/// refuses `start_line == line` (422 "start line must precede the end line").
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct NewReviewComment {
    pub path: String,
    pub line: u32,
    pub side: Side,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub start_line: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub start_side: Option<Side>,
    pub body: String,
}

/// What the forge answered for a submitted or edited review.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PostedReview {
    pub id: u64,
    pub html_url: String,
    /// APPROVED, CHANGES_REQUESTED, COMMENTED.
    pub state: String,
}

/// One CI check run on a commit, as the forge reported it; never a model's claim.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct CheckRun {
    pub name: String,
    /// queued, in_progress, completed, ...
    pub status: String,
    /// success, failure, neutral, cancelled, skipped, timed_out, action_required; `None` until
    /// completed.
    pub conclusion: Option<String>,
    pub html_url: Option<String>,
}

/// What kind of failure a forge reported, for callers that decide by it (give up, wait,
/// "nothing was posted") without knowing which forge it was.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ForgeErrorKind {
    /// The credentials are missing, wrong or not allowed to do this.
    Auth,
    /// What was asked for does not exist (or is hidden from these credentials).
    NotFound,
    /// The forge asks to wait before calling again.
    RateLimited,
    /// The forge answered and refused the request, with this status (a 4xx).
    Rejected { status: u16 },
    /// The forge could not be reached: no connection, or no answer in time.
    Unreachable,
    /// Anything else: a broken answer, a server error after the retries, a local repository's
    /// problem.
    Other,
}

/// What a forge refused about a review, in one set of kinds every forge maps its own answers
/// into, so the publisher decides by the kind (resend, downgrade, stop) without knowing which
/// forge said it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    /// An inline comment's place (line, range, path) is not on the forge's diff.
    Anchor,
    /// The event (approve, request changes) is not allowed to these credentials; the review
    /// can be resent as a comment. [`ForgeError::advice`] may say how to allow it.
    EventNotPermitted,
    /// The event is not allowed on one's own pull request.
    OwnPullRequest,
    /// The account holds an unsubmitted review of its own that the forge will not stack with
    /// another.
    PendingReview,
    /// A body longer than the forge takes.
    BodyTooLong,
    /// The commit the review names is no longer the pull request's head (a force-push).
    HeadMoved,
    /// What was asked is already so (a review already dismissed, an approval already gone).
    AlreadyDone,
    /// The diff is too large for the forge to show whole.
    DiffTooLarge,
    /// Anything else: reported with the forge's words, nothing resent.
    Other,
}

/// An error from any forge: its kind, and the backend's own error (which says what happened
/// in the forge's terms). Each backend converts its errors (`From`), so this port names none
/// of them; what a refusal was about travels as a neutral [`Refusal`] with the forge's words.
#[derive(Debug)]
pub struct ForgeError {
    kind: ForgeErrorKind,
    error: Box<dyn std::error::Error + Send + Sync + 'static>,
    /// What a refusal was about, when the forge refused a request it understood.
    refusal: Option<Refusal>,
    /// The forge's own words for a refusal, one line (its `errors`, or its message).
    reason: Option<String>,
    /// How to allow what was refused, in the forge's terms, when there is a way.
    advice: Option<String>,
}

impl ForgeError {
    pub fn new(
        kind: ForgeErrorKind,
        error: impl std::error::Error + Send + Sync + 'static,
    ) -> ForgeError {
        ForgeError {
            kind,
            error: Box::new(error),
            refusal: None,
            reason: None,
            advice: None,
        }
    }

    /// The same error, saying what the forge refused and in which words.
    pub fn refused(mut self, refusal: Refusal, reason: impl Into<String>) -> ForgeError {
        self.refusal = Some(refusal);
        self.reason = Some(reason.into());
        self
    }

    /// The same error, saying what the forge refused and in which words if it refused
    /// (a forge's own error tells, `None` when it was no refusal).
    pub fn refused_if(self, refusal: Option<(Refusal, String)>) -> ForgeError {
        match refusal {
            Some((refusal, reason)) => self.refused(refusal, reason),
            None => self,
        }
    }

    /// The same error, saying how to allow what was refused.
    pub fn advising(mut self, advice: impl Into<String>) -> ForgeError {
        self.advice = Some(advice.into());
        self
    }

    /// What the forge refused, when it refused a request it understood.
    pub fn refusal(&self) -> Option<Refusal> {
        self.refusal
    }

    /// The forge's words for the refusal, else the error's own text.
    pub fn reason(&self) -> String {
        self.reason.clone().unwrap_or_else(|| self.to_string())
    }

    /// How to allow what was refused, when the forge knows a way.
    pub fn advice(&self) -> Option<&str> {
        self.advice.as_deref()
    }

    pub fn kind(&self) -> ForgeErrorKind {
        self.kind
    }

    /// The forge could not be reached; a local repository always can.
    pub fn is_unreachable(&self) -> bool {
        self.kind == ForgeErrorKind::Unreachable
    }

    /// The backend's own error, when it is an `E`.
    pub fn downcast_ref<E: std::error::Error + 'static>(&self) -> Option<&E> {
        self.error.downcast_ref()
    }
}

/// Says what the backend's error says: this is only its envelope (as `#[error(transparent)]`).
impl fmt::Display for ForgeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.error.fmt(f)
    }
}

impl std::error::Error for ForgeError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.error.source()
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PullRequest {
    pub number: u64,
    pub title: String,
    /// The description; GitHub sends `null` for an empty one, which becomes `""`.
    pub body: String,
    pub author: String,
    pub author_is_bot: bool,
    pub state: PrState,
    pub draft: bool,
    pub base: BranchTip,
    pub head: BranchTip,
    /// Clone URL of the base repository: `refs/pull/N/head` is fetched from there, which also
    /// works for PRs from forks (whose head repository may have been deleted).
    pub clone_url: String,
    pub html_url: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PrState {
    Open,
    Closed,
    Merged,
}

impl fmt::Display for PrState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            PrState::Open => "open",
            PrState::Closed => "closed",
            PrState::Merged => "merged",
        })
    }
}

/// A branch name and the commit it pointed at when the PR was read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BranchTip {
    pub ref_name: String,
    pub sha: CommitId,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChangedFile {
    pub path: String,
    /// Set for renames (and copies): where the file came from.
    pub previous_path: Option<String>,
    pub status: FileStatus,
    pub additions: u32,
    pub deletions: u32,
    /// The file's hunks; absent for binary files and for diffs GitHub deems too large.
    pub patch: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileStatus {
    Added,
    Removed,
    Modified,
    Renamed,
    Copied,
    /// GitHub's "changed": only the mode changed.
    Changed,
    Unchanged,
}

/// Which side of the diff a comment is on: one type for the whole engine.
pub use crate::diff::Side;

/// Everything people (and bots) already said on the PR. It enters prompts as untrusted data.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PrHistory {
    pub reviews: Vec<Review>,
    pub review_comments: Vec<ReviewComment>,
    pub issue_comments: Vec<IssueComment>,
}

/// Dates are kept as the RFC 3339 strings the forge sent: they are displayed and compared for
/// order, never computed with, so a date library would buy nothing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Review {
    pub id: u64,
    pub author: String,
    pub author_is_bot: bool,
    pub body: String,
    /// APPROVED, CHANGES_REQUESTED, COMMENTED, DISMISSED or PENDING, as GitHub spells it.
    pub state: String,
    pub commit_id: Option<String>,
    /// `None` for a pending review, which has not been submitted.
    pub submitted_at: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReviewComment {
    pub id: u64,
    pub review_id: Option<u64>,
    pub author: String,
    pub author_is_bot: bool,
    pub body: String,
    pub path: String,
    /// `None` when the comment is on a whole file or its line is no longer in the diff.
    pub line: Option<u32>,
    pub start_line: Option<u32>,
    pub side: Option<Side>,
    pub commit_id: String,
    pub original_commit_id: String,
    /// The lines the comment was posted on, in `original_commit_id`'s numbering: where an
    /// earlier finding of ours was found, even once the comment is outdated (`line` is `None`).
    pub original_line: Option<u32>,
    pub original_start_line: Option<u32>,
    pub in_reply_to: Option<u64>,
    pub created_at: String,
    pub updated_at: String,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IssueComment {
    pub id: u64,
    pub author: String,
    pub author_is_bot: bool,
    pub body: String,
    pub created_at: String,
    pub updated_at: String,
}

/// Logins of automation that posts as a plain user account rather than as a GitHub App.
const KNOWN_BOT_LOGINS: &[&str] = &[
    "dependabot",
    "dependabot-preview",
    "renovate",
    "renovate-bot",
];

/// Whether an account is automation: GitHub Apps (`type: Bot`, `name[bot]` logins) and the
/// dependency updaters that run under ordinary accounts.
pub fn is_bot(login: &str, account_type: Option<&str>) -> bool {
    let login = login.to_ascii_lowercase();
    account_type.is_some_and(|t| t.eq_ignore_ascii_case("bot"))
        || login.ends_with("[bot]")
        || KNOWN_BOT_LOGINS.contains(&login.as_str())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bots_are_recognised_by_type_suffix_and_name() {
        let cases = [
            ("octocat", Some("User"), false),
            ("dependabot[bot]", Some("Bot"), true),
            ("some-app[bot]", None, true),
            ("renovate", Some("User"), true),
            ("Dependabot", Some("User"), true),
            ("github-actions", Some("Bot"), true),
            ("renovated-human", Some("User"), false),
        ];
        for (login, kind, expected) in cases {
            assert_eq!(is_bot(login, kind), expected, "{login} {kind:?}");
        }
    }
}
