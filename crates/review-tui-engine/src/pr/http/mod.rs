//! What every HTTP client shares, the forges' and the model providers': the one request loop
//! (`exchange`: retries, rate limits, pages, notices), told by each service's `dialect` what
//! it says its own way; when to try a call again and how long to wait (`Retry-After` and the
//! rate-limit headers of GitHub, GitLab, Gitea and OpenAI); the `Link` header's next page; the
//! client they are built on (`setup`).

pub mod call;
pub mod client;
pub mod dialect;
pub mod exchange;
pub mod link;
pub mod notice;
pub mod retry;
pub mod setup;

pub use crate::retry::{RetryPolicy, now_epoch, utc_time};
pub use call::Call;
pub use client::{HttpError, RestClient, RestConfig};
pub use dialect::{Dialect, ErrorText, MessageDialect};
pub use exchange::{Answer, Exchange, Failure, Setup, SetupError, clip};
pub use link::next_page;
pub use notice::{Notice, RetryCause, Retrying};
pub use retry::RateHints;
pub use setup::{endpoint, http_client, secret_header};
