//! The application layer: one review space for its lifetime. Preparing it (the PR, the space,
//! the diff), running a round over it, the round snapshot that report, publish and the cockpit
//! read, and the gate's fix. The headless flow and the cockpit are two clients of this layer;
//! neither decides anything on its own.

pub mod ask;
mod command;
pub use command::{Ask, Command};
mod axis_override;
pub mod fix;
pub mod inbox;
mod journal;
pub mod no_model;
pub mod own_findings;
pub mod posted;
pub mod prepare;
pub mod prompt;
pub mod publisher;
mod raised;
pub use publisher::Publisher;
pub mod room;
pub mod round;
pub mod snapshot;
pub mod thread_drafts;
pub mod watch;
pub use snapshot::RoundSnapshot;
mod service;
pub use service::{
    EventOf, Fix, Opening, RunStops, Session, SessionError, SessionEvent, SessionSetup,
    person_name, serve,
};
