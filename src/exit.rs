//! Process exit codes, one per outcome, shared by every command.

/// The binary's exit codes. The README lists them; scripts depend on them, so never renumber.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Exit {
    Ship = 0,
    NotEligible = 1,
    Aborted = 2,
    NothingToReview = 3,
    Error = 4,
    Hold = 5,
    Block = 6,
    Inconclusive = 7,
    /// The PR's head moved while publishing: nothing was posted; the new head needs a review.
    HeadMoved = 8,
}

impl Exit {
    pub(crate) fn code(self) -> i32 {
        self as i32
    }
}

/// A verdict's exit code: mapped here, at the binary's edge, so the review model knows nothing
/// of processes.
impl From<review_tui::review::Decision> for Exit {
    fn from(decision: review_tui::review::Decision) -> Exit {
        use review_tui::review::Decision;
        match decision {
            Decision::Ship => Exit::Ship,
            Decision::Hold => Exit::Hold,
            Decision::Inconclusive => Exit::Inconclusive,
            Decision::Block => Exit::Block,
        }
    }
}
