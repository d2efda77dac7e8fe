//! What every forge's HTTP client shares: the one request loop (`exchange`: retries, rate
//! limits, pages, notices), told by each forge's `dialect` what it says its own way; when to
//! try a call again and how long to wait (`Retry-After` and the rate-limit headers of GitHub,
//! GitLab and Gitea); the `Link` header's next page; the client they are built on (`setup`).

pub(crate) mod call;
pub(crate) mod client;
pub(crate) mod dialect;
pub(crate) mod exchange;
pub(crate) mod link;
pub(crate) mod notice;
pub(crate) mod retry;
pub(crate) mod setup;

pub(crate) use crate::retry::{RetryPolicy, now_epoch, utc_time};
pub(crate) use call::Call;
pub(crate) use client::{HttpError, RestClient, RestConfig};
pub(crate) use dialect::{Dialect, ErrorText};
pub(crate) use exchange::{Answer, Exchange, Failure, Setup, SetupError};
pub(crate) use retry::RateHints;
pub(crate) use setup::endpoint;
