//! Pull request references and the forges that serve them (GitHub REST, local git).

pub mod forge;
pub mod github;
pub mod token;
