//! What can go wrong talking to Gitea or Forgejo, and how its refusals map into the port's
//! neutral kinds.

use crate::pr::forge::{ForgeError, ForgeErrorKind, Refusal};
use crate::pr::http::HttpError;
use crate::pr::self_hosted::{ReachError, UnknownHost};

#[derive(Debug, thiserror::Error)]
pub enum GiteaError {
    #[error(transparent)]
    Http(#[from] HttpError),

    #[error(transparent)]
    UnknownHost(#[from] UnknownHost),

    /// The pull request's head is not the commit the review is about: Gitea would place the
    /// comments on another diff.
    #[error("the pull request's head is {current}, not the reviewed head {reviewed}")]
    HeadMoved { reviewed: String, current: String },

    /// The pull request as Gitea sent it cannot be read (a head that is not a commit id).
    #[error("Gitea sent a pull request that cannot be read: {0}")]
    Unreadable(String),

    /// A review whose body is not kept in a summary comment: Gitea cannot edit review bodies.
    /// A review already dismissed: what was asked is already so.
    #[error("review {0} is already dismissed")]
    AlreadyDismissed(u64),

    #[error(
        "review {0} keeps no summary comment, and Gitea cannot edit a review's body; running again posts the summary anew"
    )]
    NotEditable(u64),
}

impl GiteaError {
    /// What Gitea's refusal of a review was about, from its words.
    fn refusal(&self) -> Option<(Refusal, String)> {
        match self {
            GiteaError::Http(error @ HttpError::Status { status, .. }) => {
                let message = error.message().unwrap_or_default().to_string();
                let lower = message.to_ascii_lowercase();
                let refusal = match status {
                    400 | 422 if lower.contains("too long") => Refusal::BodyTooLong,
                    400 | 422
                        if ["position", "line", "path", "diff", "file"]
                            .iter()
                            .any(|w| lower.contains(w)) =>
                    {
                        Refusal::Anchor
                    }
                    422 if lower.contains("own pull") || lower.contains("your own") => {
                        Refusal::OwnPullRequest
                    }
                    403 if lower.contains("approve") || lower.contains("review") => {
                        Refusal::EventNotPermitted
                    }
                    422 if lower.contains("pending") => Refusal::PendingReview,
                    422 if lower.contains("dismissed") => Refusal::AlreadyDone,
                    400 | 403 | 409 | 422 => Refusal::Other,
                    _ => return None,
                };
                Some((refusal, message))
            }
            GiteaError::HeadMoved { .. } => Some((Refusal::HeadMoved, self.to_string())),
            _ => None,
        }
    }
}

impl From<ReachError> for GiteaError {
    fn from(error: ReachError) -> Self {
        match error {
            ReachError::UnknownHost(host) => GiteaError::UnknownHost(host),
            ReachError::Http(http) => GiteaError::Http(http),
        }
    }
}

impl From<GiteaError> for ForgeError {
    fn from(error: GiteaError) -> Self {
        let kind = match &error {
            GiteaError::Http(http) => http.kind(),
            GiteaError::HeadMoved { .. } => ForgeErrorKind::Rejected { status: 409 },
            _ => ForgeErrorKind::Other,
        };
        let refusal = error.refusal();
        ForgeError::new(kind, error).refused_if(refusal)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pr::http::Call;

    fn status(status: u16, message: &str) -> ForgeError {
        GiteaError::Http(HttpError::Status {
            call: Call::named("POST reviews"),
            forge: "Gitea",
            status,
            message: message.into(),
            attempts: 1,
        })
        .into()
    }

    #[test]
    fn refusals_are_named_by_what_gitea_said() {
        assert_eq!(
            status(422, "the line is not part of the diff").refusal(),
            Some(Refusal::Anchor)
        );
        assert_eq!(
            status(422, "approve your own pull is not allowed").refusal(),
            Some(Refusal::OwnPullRequest)
        );
        assert_eq!(status(500, "boom").refusal(), None);
        let moved: ForgeError = GiteaError::HeadMoved {
            reviewed: "a".into(),
            current: "b".into(),
        }
        .into();
        assert_eq!(moved.refusal(), Some(Refusal::HeadMoved));
    }
}
