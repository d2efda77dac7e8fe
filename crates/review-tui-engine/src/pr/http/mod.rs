//! What every HTTP client shares, the forges' and the model providers': the one request loop
//! (`exchange`: retries, rate limits, pages, notices), told by each service's `dialect` what
//! it says its own way; when to try a call again and how long to wait (`Retry-After` and the
//! rate-limit headers of GitHub, GitLab, Gitea and OpenAI); the `Link` header's next page; the
//! client they are built on (`setup`).

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
pub(crate) use exchange::{Answer, Exchange, Failure, Setup, SetupError, clip};
pub(crate) use notice::Retrying;
pub(crate) use retry::RateHints;
pub(crate) use setup::endpoint;
