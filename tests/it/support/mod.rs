//! Shared test support: real servers on loopback and real git repositories.
//!
//! Not every test module uses every helper.
#![allow(dead_code)]

pub mod anthropic_server;
pub mod bot_pr;
pub mod faults;
pub mod git_repo;
pub mod gitea_server;
pub mod gitea_swagger;
pub mod github_graphql;
pub mod github_inbox_server;
pub mod github_json;
pub mod github_publish;
pub mod github_server;
pub mod gitlab_server;
pub mod json_schema;
pub mod openai_server;
pub mod openapi;
pub mod serve;
pub mod svg;
pub mod tmux;
