//! What stops a headless run before it has an outcome.

use crate::cli::setup::SetupError;
use crate::session::PipelineError;
use crate::session::PrepareError;

use super::signals::Aborted;

#[derive(Debug, thiserror::Error)]
pub enum HeadlessError {
    #[error("no pull request given")]
    NoPullRequest,
    /// Stopped by a signal: the space keeps every decision recorded so far. Its own message,
    /// and its cause, so that a caller finds it in the chain (the binary's exit 2).
    #[error("{0}")]
    Aborted(#[from] Aborted),
    /// The space could not be prepared; in the chain too (an empty range is exit 3).
    #[error("{0}")]
    Prepare(#[from] PrepareError),
    #[error(transparent)]
    Setup(#[from] SetupError),
    #[error(transparent)]
    Round(#[from] PipelineError),
    #[error(transparent)]
    Json(#[from] serde_json::Error),
}
