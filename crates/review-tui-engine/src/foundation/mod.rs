//! The foundation: small pieces every layer above may use and that use nothing of the crate —
//! encodings, identifiers and paths parsed once where they come in, untrusted text made safe
//! to print, one retry policy and one cadence for waiting on servers.

pub mod base64;
pub mod commit_id;
pub mod error_text;
pub(crate) mod fence;
pub(crate) mod path_component;
pub(crate) mod path_glob;
pub mod printable;
pub(crate) mod remembered;
pub mod repo_path;
pub mod retry;
pub(crate) mod waiting;
