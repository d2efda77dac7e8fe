//! What can go wrong talking to GitLab, and how its refusals map into the port's neutral kinds.

use crate::pr::forge::{ForgeError, ForgeErrorKind, Refusal};
use crate::pr::http::HttpError;
use crate::pr::self_hosted::{ReachError, UnknownHost};

#[derive(Debug, thiserror::Error)]
pub enum GitlabError {
    #[error(transparent)]
    Http(#[from] HttpError),

    #[error(transparent)]
    UnknownHost(#[from] UnknownHost),

    /// The latest diff version is not the head the review is about: positions computed against
    /// it would land on other lines, and approving would approve another head.
    #[error(
        "the merge request's latest diff version is on {current}, not on the reviewed head {reviewed}"
    )]
    VersionMoved { reviewed: String, current: String },

    /// `bulk_publish` answered, but the published review's note is not among the merge
    /// request's notes.
    #[error(
        "GitLab published the review, but its note is not among the merge request's notes; running again finds it by its marker"
    )]
    PublishedNoteMissing,

    /// The merge request has no diff version yet (GitLab computes them after creation).
    #[error(
        "the merge request has no diff version yet; GitLab is still preparing it, run again shortly"
    )]
    NoVersion,
}

impl GitlabError {
    /// What GitLab's refusal of a note was about, from its words: a position GitLab cannot
    /// place (`line_code`, `position`) or a note over its length limit.
    fn refusal(&self) -> Option<(Refusal, String)> {
        match self {
            GitlabError::Http(
                error @ HttpError::Status {
                    status: 400 | 422, ..
                },
            ) => {
                let message = error.message().unwrap_or_default().to_string();
                let lower = message.to_ascii_lowercase();
                let refusal = if lower.contains("too long") {
                    Refusal::BodyTooLong
                } else if lower.contains("line_code")
                    || lower.contains("line code")
                    || lower.contains("position")
                {
                    Refusal::Anchor
                } else {
                    Refusal::Other
                };
                Some((refusal, message))
            }
            GitlabError::VersionMoved { .. } => Some((Refusal::HeadMoved, self.to_string())),
            _ => None,
        }
    }
}

impl From<ReachError> for GitlabError {
    fn from(error: ReachError) -> Self {
        match error {
            ReachError::UnknownHost(host) => GitlabError::UnknownHost(host),
            ReachError::Http(http) => GitlabError::Http(http),
        }
    }
}

impl From<GitlabError> for ForgeError {
    fn from(error: GitlabError) -> Self {
        let kind = match &error {
            GitlabError::Http(http) => http.kind(),
            GitlabError::VersionMoved { .. } => ForgeErrorKind::Rejected { status: 409 },
            _ => ForgeErrorKind::Other,
        };
        let refusal = error.refusal();
        ForgeError::new(kind, error).refused_if(refusal)
    }
}
