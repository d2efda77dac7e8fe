//! What every forge's HTTP client shares: when to try a call again and how long to wait
//! (`Retry-After` and the rate-limit headers of GitHub, GitLab and Gitea), and the `Link`
//! header's next page; the client they are built on (`setup`).

pub mod client;
pub mod link;
pub mod retry;
pub mod setup;

pub use crate::retry::{RetryPolicy, now_epoch, utc_time};
pub use client::{Answer, Call, HttpError, RestClient, RestConfig};
pub use link::next_page;
pub use retry::{RateHints, is_retryable};
pub use setup::{endpoint, http_client, secret_header};
