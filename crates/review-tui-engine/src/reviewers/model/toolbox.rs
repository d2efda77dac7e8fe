//! The read-only tools a model reviewer may call (read_file, search_text, ...), as the agent
//! loop sees them. The sandboxed implementation lives in `reviewers::model::tools`; the loop only needs
//! this trait, so tests can hand it a small toolbox of their own.

use std::sync::Arc;

use crate::diff::Diff;
pub use crate::reviewers::model::provider::ToolSpec;
pub use crate::reviewers::model::tools::{FileText, ToolError};
use serde_json::Value;

/// `Ok(text)` is the tool's answer; `Err(error)` is shown to the model (its `Display` text) as a
/// failed call so it can correct itself (a path outside the worktree, a file that does not exist).
pub type ToolResult = Result<String, ToolError>;

/// Tools are synchronous (file reads, searches): the loop runs each call on a blocking thread.
pub trait ToolBox: Send + Sync {
    fn specs(&self) -> Vec<ToolSpec>;
    fn call(&self, name: &str, args: &Value) -> ToolResult;

    /// The pull request's diff, against which findings' anchors and scope are checked. `None`
    /// when the toolbox has none: anchors are then taken as written.
    fn diff(&self) -> Option<Arc<Diff>> {
        None
    }

    /// The context source a tool stands for (`mcp:tickets/get_issue`); `None` for the
    /// repository's own tools.
    fn origin(&self, _name: &str) -> Option<String> {
        None
    }

    /// A whole worktree file, confined, capped and redacted exactly as `read_file` reads it:
    /// what the verifier quotes and what anchors are checked against.
    fn read_text(&self, path: &str) -> Result<FileText, ToolError> {
        Err(ToolError::NoFiles(path.to_owned()))
    }
}

/// A toolbox with nothing in it: the reviewer works from the context alone.
#[derive(Debug, Clone, Copy, Default)]
pub struct NoTools;

impl ToolBox for NoTools {
    fn specs(&self) -> Vec<ToolSpec> {
        Vec::new()
    }

    fn call(&self, name: &str, _args: &Value) -> ToolResult {
        Err(ToolError::NoSuchTool(name.to_owned()))
    }
}
