//! Findings a person already raised: a finding on the same lines and about the same subject as
//! an open thread someone else holds on the PR is not posted again (unless the person asks).
//! It still counts in the verdict and is still in the summary: only the repeat is left out.
//!
//! "The same subject" is decided by words, deterministically: the finding's title and the
//! thread's text share at least two significant words, or half of the title's. A model is
//! not asked: what is posted must not hang on a model's say.

use std::collections::HashSet;

use serde::Serialize;

use super::select::Item;
use crate::pr::threads::ReviewThread;

/// A finding an open thread already holds: left out, unless the person chose to post it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RaisedFinding {
    pub fingerprint: String,
    /// `path:line`.
    pub location: String,
    pub title: String,
    /// Who opened the thread (a login, as the forge spells it).
    pub by: String,
    /// Posted inline all the same: the person included it (the preview's include key, or
    /// `--include-raised`).
    pub included: bool,
}

/// Words that say nothing about a subject.
const COMMON: &[&str] = &[
    "this", "that", "these", "those", "with", "from", "into", "when", "then", "than", "there",
    "here", "where", "which", "while", "will", "would", "should", "could", "must", "have", "been",
    "does", "done", "make", "makes", "made", "only", "also", "just", "more", "most", "some",
    "every", "each", "other", "about", "after", "before", "over", "under", "line", "lines", "code",
    "file", "please", "maybe", "think", "seems", "like", "what", "they", "them", "their", "your",
    "were", "very", "because", "instead", "still", "again",
];

fn words(text: &str) -> HashSet<String> {
    text.split(|c: char| !c.is_alphanumeric() && c != '_')
        .map(str::to_lowercase)
        .filter(|w| w.chars().count() >= 4 && !COMMON.contains(&w.as_str()))
        .collect()
}

/// Whether `title` is about what `thread_text` says.
fn same_subject(title: &str, thread_text: &str) -> bool {
    let title = words(title);
    if title.is_empty() {
        return false;
    }
    let thread = words(thread_text);
    let shared = title.intersection(&thread).count();
    shared >= 2 || shared * 2 >= title.len()
}

/// The open thread, opened by someone else than `login` and not by automation, that already
/// raises `item`: same file, same side, overlapping lines, same subject.
pub(crate) fn raised_by<'a>(
    item: &Item,
    threads: &'a [ReviewThread],
    login: &str,
) -> Option<&'a ReviewThread> {
    let anchor = item.node.anchor.as_ref()?;
    let (start, end) = (anchor.start_line, anchor.end_line);
    threads.iter().find(|thread| {
        let Some((t_start, t_end)) = thread.lines() else {
            return false;
        };
        let opener = thread.comments.first();
        thread.is_open()
            && opener.is_some_and(|c| !c.author_is_bot && !c.author.eq_ignore_ascii_case(login))
            && thread.path == anchor.path.as_str()
            && thread.side == anchor.side
            && t_start <= end
            && start <= t_end
            && same_subject(
                &item.node.text.title,
                &thread
                    .comments
                    .iter()
                    .map(|c| c.body.as_str())
                    .collect::<Vec<_>>()
                    .join("\n"),
            )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_subject_needs_shared_significant_words() {
        assert!(same_subject(
            "last() reads one past the end",
            "This reads past the end of the slice when it is empty."
        ));
        assert!(same_subject(
            "Retry resends the expired token",
            "the retry here resends an old token"
        ));
        // The same lines about something else: not the same subject.
        assert!(!same_subject(
            "last() reads one past the end",
            "Could we name this function better?"
        ));
        // Common words alone do not make a subject.
        assert!(!same_subject("This should be here", "this should be there"));
        assert!(!same_subject("", "anything"));
    }
}
