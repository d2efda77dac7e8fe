//! The review model: nodes, the status service, consolidation, rounds and the verdict.
//! Pure: data in, data out, no IO (not even the clock: callers pass timestamps in).

pub(crate) mod axes;
pub mod axis_override;
pub(crate) mod board;
pub(crate) mod cap;
pub(crate) mod carry;
pub(crate) mod carry_forward;
pub(crate) mod consolidate;
pub(crate) mod coverage;
pub(crate) mod derived;
pub(crate) mod disagreement;
pub(crate) mod events;
pub(crate) mod fingerprint;
pub(crate) mod level;
pub mod markers;
pub(crate) mod node;
pub mod person;
pub(crate) mod print;
pub(crate) mod reclassify;
pub(crate) mod role;
pub(crate) mod rounds;
pub(crate) mod schema;
pub(crate) mod side;
pub mod status;
pub mod thread;
pub(crate) mod validate;
pub(crate) mod verdict;

pub use axes::{API_CONTRACT, Axis, AxisVerdict, CORRECTNESS, PERFORMANCE, SECURITY, TEST_GAP};
pub use board::{Applied, Board, ReviewerPhase, ReviewerState, Stall};
pub use consolidate::{Problem, consolidate, join_names};
pub use derived::{Context, persons_decision, problems, verdict};
pub use disagreement::{Disagreement, DisagreementKind, disagreements};
pub use events::{EventKind, ReviewEvent, RunId, retry_note, waiting_note};
pub use fingerprint::fingerprint;
pub use level::Placement;
pub use level::{Level, Role};
pub use node::{
    Actor, Anchor, Category, Effort, Fix, Kind, NodeDraft, NodeText, Origin, Priority, ReviewNode,
    Scope, Severity, Source, Status, Triage,
};
pub use person::PersonDraft;
pub use schema::node_draft_schema;
pub use side::Side;
pub use status::{Change, SuppressionHint};
pub use thread::{Proposal, ProposedChange, Thread, ThreadState, interrupt_open, upsert};
pub use verdict::{Decision, Verdict, VerdictInput, decide};
pub use verdict::{Outcome, VerdictFinding, percent};

#[cfg(test)]
pub(crate) mod tests;
