//! Pull request references and the forges that serve them (GitHub REST, local git).

pub mod connect;
pub mod eligibility;
pub mod forge;
pub mod gitea;
pub mod github;
pub mod gitlab;
pub mod hosted;
pub mod http;
pub mod inbox;
pub mod local;
pub mod ref_error;
pub mod reference;
pub mod registry;
pub mod self_hosted;
pub mod threads;
pub mod token;
pub mod uncommitted;
pub mod url_parts;
