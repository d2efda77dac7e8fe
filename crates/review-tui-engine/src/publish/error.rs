//! What can stop a publish, phrased so the person knows what happened and what to do.

use crate::commit_id::CommitId;
use thiserror::Error;

use crate::pr::forge::ForgeError;
use crate::space::{StateError, StoreError};

#[derive(Debug, Error)]
pub enum PublishError {
    #[error(
        "the pull request's head moved from {reviewed} to {current} since this round was reviewed: nothing was published; review again (re-run) and publish the new round"
    )]
    HeadMoved {
        reviewed: CommitId,
        current: CommitId,
    },

    #[error(
        "the pull request's range moved since this round was reviewed: {what}; the round does not describe its diff now, so nothing was published; review again (re-run) and publish the new round"
    )]
    BaseMoved { what: String },

    #[error(
        "the pull request's head moved from {reviewed} to {current} while publishing, and {forge} refused the review on the old head ({said}): nothing was published; review again (re-run) and publish the new round"
    )]
    HeadMovedWhilePosting {
        forge: &'static str,
        reviewed: String,
        current: String,
        /// The forge's words.
        said: String,
    },

    #[error("round {round} was already published: {target}; a round is published at most once")]
    AlreadyPublished { round: u32, target: String },

    #[error(
        "a local range has no review threads: the replies and resolutions drafted were not posted"
    )]
    NoThreads,

    #[error(
        "{draft}: its review thread is no longer on the pull request (deleted?): not posted; `--delete {draft}` drops the draft"
    )]
    ThreadGone { draft: String },

    #[error("publishing to {forge} needs a token ({hint}): nothing was published")]
    NoLogin {
        forge: &'static str,
        /// Where the forge's token is found.
        hint: &'static str,
    },

    #[error(
        "{login} holds an unsubmitted (pending) review on this pull request (review {review_id}), and {forge} takes one pending review per account: nothing was published; submit or delete it on the pull request, then publish again"
    )]
    PendingReview {
        forge: &'static str,
        login: String,
        review_id: u64,
    },

    #[error(
        "what would be published changed since the preview ({what}): nothing was published; look at the new preview and confirm again"
    )]
    PreviewChanged { what: String },

    #[error(
        "no round to publish: the review of this head has not completed (the space is at {ladder})"
    )]
    NotReviewed { ladder: String },

    #[error("nothing was confirmed: look at the preview of what would be posted first")]
    NotPreviewed,

    /// The space was opened offline: its stored round is never published (it may be stale).
    #[error("{0}")]
    Offline(String),

    #[error("{doing}: {source}{}", after.as_deref().map(|a| format!(" ({a})")).unwrap_or_default())]
    Forge {
        /// What the publisher was doing: "reading the pull request", "submitting the review".
        doing: &'static str,
        /// Boxed: a forge error is large, and this error travels through every `Result`.
        #[source]
        source: Box<ForgeError>,
        /// What already happened and what a re-run does about it.
        after: Option<String>,
    },

    #[error("the current diff from the forge could not be read: {0}")]
    Diff(#[from] crate::diff::DiffError),

    #[error(transparent)]
    State(StateError),

    #[error(transparent)]
    Store(#[from] StoreError),

    #[error("writing the local report {path}: {source}")]
    Write {
        path: String,
        #[source]
        source: std::io::Error,
    },
}

impl From<StateError> for PublishError {
    /// The space's own refusal of a second publish reads the same as the forge's.
    fn from(error: StateError) -> Self {
        match error {
            StateError::AlreadyPublished { round, target, .. } => {
                PublishError::AlreadyPublished { round, target }
            }
            other => PublishError::State(other),
        }
    }
}

impl PublishError {
    /// The range moved under the round (its head, its base branch or its merge base):
    /// nothing was posted, the new range needs its own review.
    pub fn is_head_moved(&self) -> bool {
        matches!(
            self,
            PublishError::HeadMoved { .. }
                | PublishError::HeadMovedWhilePosting { .. }
                | PublishError::BaseMoved { .. }
        )
    }

    pub(crate) fn forge(doing: &'static str) -> impl FnOnce(ForgeError) -> PublishError {
        move |source| PublishError::Forge {
            doing,
            source: Box::new(source),
            after: None,
        }
    }
}
