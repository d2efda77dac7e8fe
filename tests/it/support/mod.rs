//! Shared test support: real servers on loopback and real git repositories.
//!
//! Not every test module uses every helper.
#![allow(dead_code)]

pub(crate) mod anthropic_server;
pub(crate) mod bot_pr;
pub(crate) mod faults;
pub(crate) mod git_repo;
pub(crate) mod gitea_server;
pub(crate) mod gitea_swagger;
pub(crate) mod github_graphql;
pub(crate) mod github_inbox_server;
pub(crate) mod github_json;
pub(crate) mod github_publish;
pub(crate) mod github_server;
pub(crate) mod gitlab_server;
pub(crate) mod json_schema;
pub(crate) mod openai_server;
pub(crate) mod openapi;
pub(crate) mod serve;
pub(crate) mod svg;
pub(crate) mod tmux;
pub(crate) mod tokens;
