//! The review model: nodes, the status service, consolidation, rounds and the verdict.
//! Pure: data in, data out, no IO (not even the clock: callers pass timestamps in).

pub mod axes;
pub mod axis_override;
pub mod board;
pub mod cap;
pub mod carry;
pub mod carry_forward;
pub mod consolidate;
pub mod coverage;
pub mod derived;
pub mod disagreement;
pub mod events;
pub mod fingerprint;
pub mod level;
pub mod markers;
pub mod node;
pub mod person;
pub mod print;
pub mod reclassify;
pub mod role;
pub mod rounds;
pub mod schema;
pub mod side;
pub mod status;
pub mod thread;
pub mod validate;
pub mod verdict;

pub use axes::{Axis, AxisVerdict};
pub use level::{Level, Role};
pub use node::{
    Actor, Anchor, Category, Effort, Fix, Kind, NodeDraft, NodeText, Origin, Priority, ReviewNode,
    Scope, Severity, Source, Status, Triage,
};
pub use verdict::{Decision, Verdict, VerdictInput, decide};

#[cfg(test)]
pub(crate) mod tests;
