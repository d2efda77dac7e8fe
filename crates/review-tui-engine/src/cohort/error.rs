//! What can stop a cohort build. Everything else (an unreadable file, a file that does not
//! parse, a cache that cannot be written) degrades to a path cohort or a note instead.

use std::path::PathBuf;

use thiserror::Error;

#[derive(Debug, Error)]
pub enum CohortError {
    #[error("reading the worktree at {path}: {source}")]
    Worktree {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("reading the tree of {sha} from the mirror: {message}")]
    Tree { sha: String, message: String },
}
