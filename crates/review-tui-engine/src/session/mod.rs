//! The application layer: one review space for its lifetime. Preparing it (the PR, the space,
//! the diff), running a round over it, the round snapshot that report, publish and the cockpit
//! read, and the gate's fix. The headless flow and the cockpit are two clients of this layer;
//! neither decides anything on its own.

pub(crate) mod ask;
mod command;
pub use command::{Ask, Command};
mod axis_override;
pub(crate) mod fix;
pub mod inbox;
mod journal;
pub mod no_model;
pub(crate) mod own_findings;
pub mod posted;
pub(crate) mod prepare;
pub(crate) mod prompt;
pub(crate) mod publisher;
mod raised;
pub use publisher::Publisher;
pub mod cohort_build;
pub(crate) mod room;
pub mod round;
pub(crate) mod snapshot;
pub mod thread_drafts;
pub(crate) mod watch;
pub use snapshot::RoundSnapshot;
mod service;
pub use ask::{RoomSetup, proposal_line};
pub use fix::WrittenPatch;
pub use prepare::{
    Offline, PrepareError, PrepareEvent, PrepareOptions, Prepared, Progress, prepare,
};
pub use round::{ModelSetup, PipelineError, ReviewOptions, Tap};
pub use service::{
    EventOf, Fix, Opening, RunStops, Session, SessionError, SessionEvent, SessionSetup,
    person_name, serve,
};
