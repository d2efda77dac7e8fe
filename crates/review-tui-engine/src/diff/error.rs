//! What can go wrong when reading or producing a diff.

/// A diff could not be read, or a repository could not produce one.
#[derive(Debug, thiserror::Error)]
pub enum DiffError {
    /// The text is not a well-formed diff; `line` is 1-based in the input.
    #[error("diff line {line}: {problem}")]
    Malformed { line: usize, problem: Problem },
    /// The text is a diff, but in a format this parser refuses rather than misreads.
    #[error("diff line {line}: {format} is not supported; expected a git or unified diff")]
    Unsupported { line: usize, format: &'static str },
    /// The text is not empty but contains no file changes at all.
    #[error("no file changes found: the input is not a git or unified diff")]
    NoDiff,
    /// libgit2 failed while `action` was being done.
    #[error("git: {action}: {source}")]
    Git {
        action: String,
        #[source]
        source: git2::Error,
    },
}

/// Why a line made the diff malformed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Problem {
    #[error("bad hunk header {0:?}")]
    BadHunkHeader(String),
    #[error("hunk header outside any file (no `diff --git` or `---`/`+++` before it)")]
    HunkOutsideFile,
    #[error(
        "hunk starting at line {hunk_line} ended early: {old_seen} of {old_expected} old and \
         {new_seen} of {new_expected} new lines"
    )]
    HunkTooShort {
        hunk_line: usize,
        old_seen: u32,
        old_expected: u32,
        new_seen: u32,
        new_expected: u32,
    },
    #[error("line goes past the counts of the hunk starting at line {hunk_line}")]
    HunkTooLong { hunk_line: usize },
    #[error("unexpected line inside the hunk starting at line {hunk_line}: {text:?}")]
    UnexpectedHunkLine { hunk_line: usize, text: String },
    #[error("cannot tell the file names from {0:?}")]
    BadFileHeader(String),
    #[error("bad file mode {0:?}")]
    BadMode(String),
}

impl DiffError {
    /// The 1-based input line the error is about, when it is about one.
    pub fn line(&self) -> Option<usize> {
        match self {
            DiffError::Malformed { line, .. } | DiffError::Unsupported { line, .. } => Some(*line),
            DiffError::NoDiff | DiffError::Git { .. } => None,
        }
    }

    pub(crate) fn git(action: impl Into<String>, source: git2::Error) -> DiffError {
        DiffError::Git {
            action: action.into(),
            source,
        }
    }
}
