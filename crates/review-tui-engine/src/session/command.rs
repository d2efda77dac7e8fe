//! What a client asks of a session: the one vocabulary the cockpit, the headless flow and the
//! decision journal (which replays a person's decisions as commands) share.

use crate::review::level::{Level, Role};
use crate::review::node::{Kind, Priority};
use crate::review::person::PersonDraft;
use crate::review::status::Change;

/// What a client asks of a session.
#[derive(Debug, Clone)]
pub enum Command {
    /// Review the head (again): a new round, shown live.
    RunRound,
    /// A person's triage decision on a finding, through the status service.
    Apply { node_id: String, change: Change },
    /// The person's text for a finding's comment (`None`: back to the generated text).
    EditComment {
        node_id: String,
        text: Option<String>,
    },
    /// The level the person reads the round at.
    SetLevel(Level),
    /// Work out what publishing would post; answered with `SessionEvent::Preview`.
    Preview,
    /// Publish exactly the last preview.
    Publish,
    /// The gate's fix for these findings (every blocking one when empty).
    WritePatch { node_ids: Vec<String> },
    /// Stop the running round's model reviewers and passes.
    Cancel,
    /// Stop one model reviewer of the running round; the others go on.
    StopReviewer(String),
    /// The cohorts of the round on screen (a reopened space): answered with
    /// `SessionEvent::Cohorts`.
    Cohorts,
    /// The kept findings as one prompt for the coding agent that wrote the change
    /// (`session::prompt`): written into the space, answered with `SessionEvent::HandedBack`,
    /// and piped to the fix command when one is configured.
    HandBack,
    /// A review of uncommitted work: snapshot the work again and, when it changed, review it
    /// in a new round (after the running one, if any).
    Refresh,
    /// The person's own finding under `node_id` (`person-N`, see `review::person::next_id`):
    /// a new one, or an edit of theirs.
    PutFinding { node_id: String, draft: PersonDraft },
    /// Deletes one of the person's own findings.
    DeleteFinding { node_id: String },
    /// The person gives a finding another priority and kind (accepting a reviewer's proposal,
    /// or undoing that), with the reason.
    Reclassify {
        node_id: String,
        priority: Priority,
        kind: Kind,
        reason: String,
    },
    /// A question to a reviewer: about a finding, or (`finding: None`) the whole change. The
    /// answer streams as `SessionEvent::Thread`.
    Ask(Ask),
    /// Stops the answer of a thread still coming.
    CancelAsk { thread: String },
    /// The person accepts (`Some(true)`) or declines (`Some(false)`) a thread's proposal, or
    /// takes that back (`None`, the undo). Accepting applies the change as the person's
    /// decision, with the reviewer's reason.
    Proposal {
        thread: String,
        accepted: Option<bool>,
    },
    /// A reply or resolution on one of the PR's review threads, kept until a publish posts it
    /// (`session::thread_drafts`); one of the same id is replaced.
    PutThreadDraft(Box<crate::space::thread_draft::ThreadDraft>),
    /// Drops a thread draft not yet posted.
    DeleteThreadDraft { id: String },
    /// Post the finding `fingerprint` though an open thread already raises it (`include`),
    /// or leave it out again (`session::raised`).
    IncludeRaised { fingerprint: String, include: bool },
    /// The person's override of the gated axis `axis` set (`Some`) or taken back (`None`):
    /// only a person's key press sends it (`session::axis_override`).
    OverrideAxis {
        axis: String,
        over: Option<crate::review::axis_override::AxisOverride>,
    },
}

/// A question for the review room.
#[derive(Debug, Clone, PartialEq)]
pub struct Ask {
    /// The thread's id (`ask-N`, see `review::thread::next_id`); `None`: the session picks.
    pub thread: Option<String>,
    pub finding: Option<String>,
    /// Who answers: by default the reviewer that raised the finding, else the engineer.
    pub role: Option<Role>,
    pub question: String,
}
