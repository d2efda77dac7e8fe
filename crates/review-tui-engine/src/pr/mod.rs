//! Pull request references and the forges that serve them (GitHub REST, local git).

pub(crate) mod connect;
pub(crate) mod eligibility;
pub mod forge;
pub mod gitea;
pub mod github;
pub mod gitlab;
pub(crate) mod hosted;
pub(crate) mod http;
pub(crate) mod inbox;
pub(crate) mod local;
pub(crate) mod ref_error;
pub mod reference;
pub(crate) mod registry;
pub(crate) mod self_hosted;
pub(crate) mod threads;
pub(crate) mod token;
pub(crate) mod uncommitted;
pub(crate) mod url_parts;

pub use connect::{Connection, InvalidApiUrl, Notices, SettingError, TokenChoice, parse_api_url};
pub use eligibility::Ineligible;
pub use hosted::HostedPr;
pub use inbox::{InboxQuery, Waiting, WaitingPr};
pub use local::{LocalError, uncommitted};
pub use ref_error::RefError;
pub use reference::PrRef;
pub use registry::connection;
pub use threads::{ReviewThread, ThreadComment};
pub use token::Token;
pub use uncommitted::Uncommitted;
