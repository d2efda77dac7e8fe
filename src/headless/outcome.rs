//! What a headless run ends in: the outcome the binary maps to an exit code, the report it
//! writes, and the line it says after the report.

use crate::pr::Ineligible;
use crate::publish::Publishing;
use crate::review::Decision;
use crate::session::Session;

/// How a headless run ended. Each is its own exit code, mapped by the binary.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// The range has no changes: nothing was reviewed.
    NothingToReview,
    /// The PR may not be reviewed (and `--force` was not given): why.
    NotEligible(Vec<Ineligible>),
    /// A round ran, or the head's recorded round was reported or published: its verdict and
    /// what publishing did.
    Reviewed {
        decision: Decision,
        published: Published,
    },
    /// The space was opened offline: the stored round's verdict. `refused` is the line saying
    /// what was asked that needs the network (`--publish`, `--force`), when something was.
    Offline {
        decision: Decision,
        refused: Option<String>,
    },
}

/// What `--publish` did with a reviewed round.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Published {
    /// `--publish` was not given: nothing left the machine.
    NotAsked,
    /// Posted, or already on the PR (publishing is idempotent), with the person's thread drafts.
    Posted,
    /// The PR's head moved while publishing: nothing was posted; the new head needs a review.
    HeadMoved,
    /// Publishing the round or the thread drafts failed (said on the way).
    Failed,
}

impl Outcome {
    /// The line said after the report is out, when the outcome has one.
    pub fn last_word(&self) -> Option<String> {
        match self {
            Outcome::NothingToReview => Some("nothing to review: the range has no changes".into()),
            Outcome::NotEligible(reasons) => {
                let reasons: Vec<String> = reasons.iter().map(|r| r.to_string()).collect();
                Some(format!(
                    "not eligible: {} (pass --force to review anyway)",
                    reasons.join("; ")
                ))
            }
            Outcome::Offline { refused, .. } => Some(refused.clone().unwrap_or_else(|| {
                "nothing was published: this is the stored round, and publishing needs the network"
                    .into()
            })),
            Outcome::Reviewed { .. } => None,
        }
    }
}

/// A headless run's end: its outcome and its report, in the format asked for, redacted.
pub struct Finished {
    pub outcome: Outcome,
    /// The report to write (standard output, or `--output`).
    pub report: String,
    /// The reviewed round's session, kept alive: a process that ends right after the report
    /// need not free it (see [`Finished::held`]).
    held: Option<Session<Publishing>>,
}

impl Finished {
    pub(crate) fn new(outcome: Outcome, report: String) -> Finished {
        Finished {
            outcome,
            report,
            held: None,
        }
    }

    pub(crate) fn holding(mut self, session: Session<Publishing>) -> Finished {
        self.held = Some(session);
        self
    }

    /// Whether a round's session (the diff, the cohorts, the board: on a large range tens of
    /// milliseconds of freeing) is still held. Dropping `Finished` frees it; a process that
    /// exits instead leaves it to the OS.
    pub fn held(&self) -> bool {
        self.held.is_some()
    }
}
