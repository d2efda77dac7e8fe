//! A round is published only for the range it reviewed: its head, the branch it merges into,
//! and the merge base the diff starts at. A stacked PR reviewed against its parent branch is
//! retargeted to `main` when the parent merges: the head is the same, the diff now holds the
//! parent's code, and the round's verdict says nothing about it. Any of the three moved →
//! nothing is posted (exit 8, as for a moved head); the next run reviews the new range.
//!
//! The base branch's tip moving on is not a move of the range by itself: the merge base, which
//! the forge is asked for only then, says whether the diff changed.

use super::PublishError;
use crate::commit_id::CommitId;
use crate::pr::forge::{Forge, PullRequest};
use crate::space::Round;

/// Checks `pr`, as the forge shows it now, against the range `round` reviewed.
pub(super) async fn unmoved(
    forge: &dyn Forge,
    round: Option<&Round>,
    pr: &PullRequest,
) -> Result<(), PublishError> {
    let moved = |what: String| Err(PublishError::BaseMoved { what });
    let (Some(round), Some(base_ref)) = (round, round.and_then(|r| r.base_ref.as_deref())) else {
        return moved("the round records no base it was reviewed against".into());
    };
    if pr.head.sha != round.head_sha {
        return Err(PublishError::HeadMoved {
            reviewed: round.head_sha.clone(),
            current: pr.head.sha.clone(),
        });
    }
    // Recorded as it may be stored: redacted.
    let now_ref = crate::reviewers::redact::outbound(&pr.base.ref_name);
    if now_ref != base_ref {
        return moved(format!(
            "its base branch changed from {base_ref} to {now_ref}"
        ));
    }
    if round.base_sha.as_ref() == Some(&pr.base.sha) {
        return Ok(());
    }
    let now: Option<CommitId> = forge
        .merge_base(&pr.base.sha, &pr.head.sha)
        .await
        .map_err(PublishError::forge("reading the pull request's merge base"))?;
    match (now, &round.merge_base) {
        (Some(now), Some(reviewed)) if now == *reviewed => Ok(()),
        (Some(now), Some(reviewed)) => moved(format!(
            "its merge base moved from {reviewed} to {now} (the base branch {base_ref} was \
             rewritten or took the PR's commits)"
        )),
        (None, _) | (_, None) => moved(format!(
            "its base branch {base_ref} moved on and the merge base could not be compared"
        )),
    }
}
