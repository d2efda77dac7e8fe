//! A small HTTP API client with token authentication.

pub mod auth;
pub mod client;
