//! What a new headless run does with a head the space already reviewed. Eligibility says
//! "already reviewed"; that is not the whole answer:
//!
//! - a round that ran without models (`--deterministic-only`) does not stand in for a review
//!   with them: a run with models reviews the head again, as a new round;
//! - `--publish` on a reviewed head whose round never reached the forge (run without
//!   `--publish`, or cut short by an error or a kill) publishes that recorded round, no new
//!   round; the publisher's marker check keeps it from being posted twice.

use crate::pr::eligibility::Ineligible;
use crate::space::SpaceState;

/// What to do about a reviewed head.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rerun {
    /// Nothing special: eligibility decides.
    AsUsual,
    /// Review again as a new round (the earlier one was deterministic-only).
    NewRound,
    /// Publish the recorded round instead of reviewing.
    PublishRecorded,
}

/// Decides, and drops "already reviewed" from `eligibility` when it no longer applies.
/// `publish` is `--publish` without `--force` (which always means a new round).
pub fn rerun(
    state: &SpaceState,
    eligibility: &mut Vec<Ineligible>,
    deterministic_only: bool,
    publish: bool,
) -> Rerun {
    let reviewed = eligibility
        .iter()
        .any(|r| matches!(r, Ineligible::AlreadyReviewed { .. }));
    let Some(round) = state.current_round().filter(|r| r.completed) else {
        return Rerun::AsUsual;
    };
    if !reviewed || !state.reviewed_now(round) {
        return Rerun::AsUsual;
    }
    if round.deterministic_only && !deterministic_only {
        eligibility.retain(|r| !matches!(r, Ineligible::AlreadyReviewed { .. }));
        return Rerun::NewRound;
    }
    let only_reviewed = eligibility
        .iter()
        .all(|r| matches!(r, Ineligible::AlreadyReviewed { .. }));
    if publish && only_reviewed {
        // Published already or not, the publisher decides: it says where a published round is
        // and posts nothing.
        return Rerun::PublishRecorded;
    }
    Rerun::AsUsual
}
