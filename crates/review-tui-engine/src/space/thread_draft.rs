//! What the person wants to say or do on the PR's review threads (reply, resolve, unresolve):
//! drafts kept in the space until a publish posts them, each once.

use serde::{Deserialize, Serialize};

/// One reply or resolution, as drafted.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ThreadDraft {
    /// `reply-1`, `resolve-2`: what `--delete` names.
    pub id: String,
    /// The forge's id of the thread.
    pub thread: String,
    /// The comment a reply answers (the thread's first).
    #[serde(default)]
    pub reply_to: Option<u64>,
    /// `path:line`, for what is said about it.
    pub location: String,
    /// Who opened the thread, for what is said about it.
    pub opened_by: String,
    pub action: ThreadAction,
    /// When it was drafted (RFC 3339): with `id`, what the posted reply's marker names, so a
    /// re-run finds it and another space's `reply-1` is not taken for it.
    pub at: String,
    /// Set once the forge took it.
    #[serde(default)]
    pub posted: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ThreadAction {
    /// Redacted when drafted, and again when posted.
    Reply {
        text: String,
    },
    Resolve,
    Unresolve,
}

impl ThreadDraft {
    /// One line for the preview: `reply to @alice on src/lib.rs:9`.
    pub fn describe(&self) -> String {
        let what = match self.action {
            ThreadAction::Reply { .. } => "reply to",
            ThreadAction::Resolve => "resolve the thread of",
            ThreadAction::Unresolve => "reopen the thread of",
        };
        format!(
            "{} {what} @{} on {}",
            self.id, self.opened_by, self.location
        )
    }
}
