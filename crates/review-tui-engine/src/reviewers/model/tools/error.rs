//! What a tool call can refuse or fail with. The `Display` text is what the model sees, so it
//! names the problem and, where useful, what to do instead; it never shows host paths outside the
//! worktree.

use thiserror::Error;

#[derive(Debug, Error)]
pub enum ToolError {
    #[error("unknown tool {0:?}; the tools are: {1}")]
    UnknownTool(String, String),
    /// A name the reviewer was never offered (the loop checks before it calls the toolbox).
    #[error("there is no tool named {0}")]
    NoSuchTool(String),
    /// A toolbox without a reader (a reviewer that works from the context alone).
    #[error("{0}: this toolbox reads no files")]
    NoFiles(String),
    /// The tool's thread panicked: the model is told, the review goes on.
    #[error("the {0} tool crashed")]
    Crashed(String),
    #[error("{tool}: bad arguments: {reason}")]
    BadArguments { tool: &'static str, reason: String },
    #[error("path escapes the worktree: {0}")]
    Escapes(String),
    #[error("path escapes the worktree through a symbolic link: {0}")]
    EscapesThroughSymlink(String),
    #[error("absolute paths are refused: {0}; give a path relative to the worktree root")]
    Absolute(String),
    #[error("symbolic link loop: {0}")]
    SymlinkLoop(String),
    #[error("path contains a NUL byte: {0}")]
    NulByte(String),
    #[error("path is too long ({bytes} bytes; the limit is {limit}): {path}")]
    PathTooLong {
        path: String,
        bytes: usize,
        limit: usize,
    },
    #[error("a path component is too long ({bytes} bytes; the limit is {limit}): {path}")]
    ComponentTooLong {
        path: String,
        bytes: usize,
        limit: usize,
    },
    #[error("refused: {0} is inside .git; repository internals are not part of the review")]
    GitInternals(String),
    #[error("no such file or directory in the worktree: {0}")]
    NotFound(String),
    #[error("not a regular file ({kind}): {path}")]
    NotRegularFile { path: String, kind: &'static str },
    #[error("binary file, not shown: {0}")]
    Binary(String),
    #[error("the file changed while it was being opened, refused: {0}")]
    Raced(String),
    #[error("{0}")]
    BadRange(String),
    #[error("invalid regex: {0}")]
    BadRegex(String),
    #[error("invalid glob {glob:?}: {reason}")]
    BadGlob { glob: String, reason: String },
    #[error(
        "invalid symbol name {0:?}: give one identifier, such as `parse_diff` or `Diff::files`"
    )]
    BadSymbol(String),
    #[error("{path} is not changed by this pull request; changed files: {changed}")]
    NotInDiff { path: String, changed: String },
    #[error("no diff was given to this reviewer")]
    NoDiff,
    #[error("could not read {path}: {reason}")]
    Io { path: String, reason: String },
    /// The worktree itself could not be opened: a setup error for the lead, not the model.
    #[error("the worktree {path} cannot be used: {source}")]
    Worktree {
        path: String,
        #[source]
        source: std::io::Error,
    },
    /// A context source (an MCP server) gave no usable answer: the model is told, the review
    /// goes on.
    #[error("{0}")]
    Source(String),
    #[error("the diff given to the tools does not parse: {0}")]
    DiffText(#[from] crate::diff::DiffError),
}

/// How a path the model sent is echoed back: control characters escaped and long paths cut, so
/// an error message can neither break the transcript nor repeat a 5000-byte input.
pub(crate) fn shown(path: &str) -> String {
    const MAX: usize = 160;
    let mut out = String::new();
    for (count, c) in path.chars().enumerate() {
        if count == MAX {
            out.push_str(&format!("… ({} bytes in all)", path.len()));
            break;
        }
        if c.is_control() {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    out
}
