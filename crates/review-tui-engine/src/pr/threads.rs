//! The review threads people already hold on a pull request: inline comments with their
//! replies, and whether each is resolved or outdated. REST alone does not say the latter
//! (GitHub keeps it in GraphQL's `reviewThreads`), hence a read of its own, apart from
//! [`super::forge::PrHistory`].

use serde::{Deserialize, Serialize};

use crate::diff::Side;

/// One thread, as the forge reports it. Every text in it is untrusted: the PR's participants
/// wrote it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReviewThread {
    /// The forge's own id for the thread (GitHub's GraphQL node id, GitLab's discussion id):
    /// what a resolution names.
    pub id: String,
    pub path: String,
    /// The thread's (last) line on the current diff; `None` once the forge cannot place it
    /// there any more (outdated) or for a comment on the whole file.
    pub line: Option<u32>,
    /// The first line of a multi-line thread.
    pub start_line: Option<u32>,
    /// The line it was written on, in the diff it was written on.
    pub original_line: Option<u32>,
    pub side: Side,
    pub resolved: bool,
    pub outdated: bool,
    /// Whether it is resolved could not be known: GitHub's REST API, all there is without a
    /// token, does not say. Such a thread counts as open (`resolved` is false): it is never
    /// taken for settled talk.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub resolution_unknown: bool,
    /// Oldest first; the first is the one that opened the thread.
    pub comments: Vec<ThreadComment>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ThreadComment {
    /// The comment's number on the forge's REST API (what a reply answers); `None` when the
    /// forge did not say.
    pub id: Option<u64>,
    pub author: String,
    pub author_is_bot: bool,
    pub body: String,
    /// RFC 3339, as the forge sent it.
    pub created_at: String,
}

impl ReviewThread {
    /// Who opened the thread.
    pub fn author(&self) -> &str {
        self.comments.first().map_or("", |c| c.author.as_str())
    }

    /// Whether people still discuss it: neither resolved nor outdated.
    pub fn is_open(&self) -> bool {
        !self.resolved && !self.outdated
    }

    /// The lines it covers on its side of the current diff, first to last; `None` when it is
    /// not placed on the current diff.
    pub fn lines(&self) -> Option<(u32, u32)> {
        let end = self.line?;
        let start = self.start_line.filter(|s| *s <= end).unwrap_or(end);
        Some((start, end))
    }

    /// Whether `wanted` names this thread: its own id, or the number of one of its comments
    /// (what a draft made where only the REST comments were read names it by).
    pub fn is_named(&self, wanted: &str) -> bool {
        self.id == wanted
            || self
                .comments
                .iter()
                .any(|c| c.id.is_some_and(|id| id.to_string() == wanted))
    }

    /// The comment a reply answers: the thread's first with a known id.
    pub fn reply_target(&self) -> Option<u64> {
        self.comments.iter().find_map(|c| c.id)
    }

    /// The time of its last comment, for "how long ago".
    pub fn last_activity(&self) -> Option<&str> {
        self.comments.last().map(|c| c.created_at.as_str())
    }
}

/// What was read of a pull request's threads: every thread, or why they could not be read.
/// A failure to read is a notice, never a failed review.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ThreadsRead {
    pub threads: Vec<ReviewThread>,
    pub notice: Option<String>,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn thread(line: Option<u32>, start: Option<u32>) -> ReviewThread {
        ReviewThread {
            id: "T1".into(),
            path: "src/a.rs".into(),
            line,
            start_line: start,
            original_line: line,
            side: Side::Right,
            resolved: false,
            outdated: false,
            resolution_unknown: false,
            comments: vec![],
        }
    }

    #[test]
    fn lines_are_a_range_only_when_placed_and_ordered() {
        assert_eq!(thread(Some(5), None).lines(), Some((5, 5)));
        assert_eq!(thread(Some(5), Some(3)).lines(), Some((3, 5)));
        // A start past the end is the forge's noise, not a range.
        assert_eq!(thread(Some(5), Some(9)).lines(), Some((5, 5)));
        assert_eq!(thread(None, Some(3)).lines(), None);
    }
}
