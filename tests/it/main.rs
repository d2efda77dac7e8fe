//! The single integration-test binary: one module per area, sharing `support`.

mod github;
mod support;
