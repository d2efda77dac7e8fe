//! What a new run does with a head the space already holds a completed round of. Only a round
//! that was published, and was not Inconclusive, makes the head "already reviewed"
//! (eligibility says so); everything else is decided here:
//!
//! - an Inconclusive round (a reviewer failed or did not run: no model was configured) never
//!   stands for a review of the head: the next run reviews it again, as a new round;
//! - a run with other reviewers than the round had (models now, or `--deterministic-only` now)
//!   is a new round;
//! - `--publish` on a head whose round never reached the forge (run without `--publish`, or
//!   cut short by an error or a kill) publishes that recorded round, no new round; the
//!   publisher's marker check keeps it from being posted twice;
//! - otherwise a round that was not published is reported as it was recorded (the cockpit
//!   resumes it): `--force` reviews the head again.

use crate::pr::eligibility::Ineligible;
use crate::review::verdict::Decision;
use crate::space::SpaceState;

/// What to do about a head with a completed round.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rerun {
    /// Nothing special: eligibility decides.
    AsUsual,
    /// Review again as a new round (the earlier one was Inconclusive, or ran with other
    /// reviewers).
    NewRound,
    /// Publish the recorded round instead of reviewing.
    PublishRecorded,
    /// Report the recorded round, which was not published, instead of reviewing it again.
    ReportRecorded,
}

/// What the person asked of this run.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Asked {
    /// `--deterministic-only`.
    pub deterministic_only: bool,
    /// `--publish`.
    pub publish: bool,
    /// `--force`: always a new round.
    pub force: bool,
}

/// Decides, and drops "already reviewed" from `eligibility` when it no longer applies.
pub fn rerun(state: &SpaceState, eligibility: &mut Vec<Ineligible>, asked: Asked) -> Rerun {
    let Some(round) = state
        .current_round()
        .filter(|r| r.completed && state.reviewed_now(r))
    else {
        return Rerun::AsUsual;
    };
    if asked.force {
        return Rerun::AsUsual;
    }
    let inconclusive = round.decision.as_deref() == Some(Decision::Inconclusive.as_str());
    if inconclusive || round.deterministic_only != asked.deterministic_only {
        eligibility.retain(|r| !matches!(r, Ineligible::AlreadyReviewed { .. }));
        return Rerun::NewRound;
    }
    let only_reviewed = eligibility
        .iter()
        .all(|r| matches!(r, Ineligible::AlreadyReviewed { .. }));
    if asked.publish && only_reviewed {
        // Published already or not, the publisher decides: it says where a published round is
        // and posts nothing.
        return Rerun::PublishRecorded;
    }
    if eligibility.is_empty() {
        return Rerun::ReportRecorded;
    }
    Rerun::AsUsual
}
