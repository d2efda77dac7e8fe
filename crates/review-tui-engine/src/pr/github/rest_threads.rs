//! A pull request's review threads without a token. GitHub's GraphQL API, which says which
//! thread is resolved, takes no anonymous calls; its REST API serves a public repository's
//! review comments to anyone. Each comment names the one it replies to (`in_reply_to_id`):
//! a thread is a first comment and every reply that leads back to it. Whether a thread is
//! resolved REST does not say: such threads are marked so, and count as open.

use std::collections::HashMap;

use super::{GithubError, GithubForge, wire};
use crate::diff::Side;
use crate::pr::forge::ReviewComment;
use crate::pr::threads::{ReviewThread, ThreadComment};

impl GithubForge {
    /// Every review comment of the PR (`GET /repos/{owner}/{repo}/pulls/{n}/comments`, every
    /// page), grouped into threads.
    pub(super) async fn review_threads_rest(&self) -> Result<Vec<ReviewThread>, GithubError> {
        let number = self.number.to_string();
        let url = self
            .client
            .endpoint(&self.pull_segments(&number, &["comments"]));
        let comments = self
            .client
            .get_all::<wire::PullReviewComment>(url, &self.describe_pr())
            .await?;
        Ok(group(
            comments
                .into_iter()
                .map(wire::PullReviewComment::into_forge)
                .collect(),
        ))
    }
}

/// The threads `comments` make, in the order their first comments came, each thread's
/// comments oldest first. A reply whose comment is gone (deleted) opens a thread of its own:
/// it is still someone's word on those lines.
pub(crate) fn group(comments: Vec<ReviewComment>) -> Vec<ReviewThread> {
    let parent: HashMap<u64, Option<u64>> =
        comments.iter().map(|c| (c.id, c.in_reply_to)).collect();
    // The first comment a reply leads back to. A loop (a server's noise) has none: its
    // lowest number stands for it, the same whichever of its comments the walk starts from.
    let root = |mut id: u64| {
        let mut seen = vec![id];
        while let Some(Some(up)) = parent.get(&id) {
            if !parent.contains_key(up) {
                break;
            }
            if let Some(at) = seen.iter().position(|s| s == up) {
                return seen[at..].iter().copied().min().unwrap_or(id);
            }
            id = *up;
            seen.push(id);
        }
        id
    };
    let mut order: Vec<u64> = Vec::new();
    let mut members: HashMap<u64, Vec<ReviewComment>> = HashMap::new();
    for comment in comments {
        let top = root(comment.id);
        if !members.contains_key(&top) {
            order.push(top);
        }
        members.entry(top).or_default().push(comment);
    }
    order
        .into_iter()
        .filter_map(|top| {
            let mut all = members.remove(&top)?;
            // The first comment opens the thread; the rest by time (RFC 3339 sorts as text).
            all.sort_by(|a, b| {
                (a.id != top, &a.created_at, a.id).cmp(&(b.id != top, &b.created_at, b.id))
            });
            let first = all.first()?;
            Some(ReviewThread {
                // The first comment's number: what a reply answers and what a draft's
                // `--thread` names; with a token, the same thread is found by it.
                id: top.to_string(),
                path: first.path.clone(),
                line: first.line,
                start_line: first.start_line,
                original_line: first.original_line,
                side: first.side.unwrap_or(Side::Right),
                resolved: false,
                // REST drops a comment's `line` once its lines left the diff.
                outdated: first.line.is_none() && first.original_line.is_some(),
                resolution_unknown: true,
                comments: all
                    .into_iter()
                    .map(|c| ThreadComment {
                        id: Some(c.id),
                        author: c.author,
                        author_is_bot: c.author_is_bot,
                        body: c.body,
                        created_at: c.created_at,
                    })
                    .collect(),
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn comment(id: u64, reply_to: Option<u64>, line: Option<u32>, at: &str) -> ReviewComment {
        ReviewComment {
            id,
            review_id: None,
            author: format!("user{id}"),
            author_is_bot: false,
            body: format!("comment {id}"),
            path: "src/lib.rs".into(),
            line,
            start_line: None,
            side: Some(Side::Right),
            commit_id: "c".into(),
            original_commit_id: "c".into(),
            original_line: Some(9),
            original_start_line: None,
            in_reply_to: reply_to,
            created_at: at.into(),
            updated_at: at.into(),
        }
    }

    #[test]
    fn replies_join_the_thread_they_lead_back_to_and_resolution_stays_unknown() {
        let threads = group(vec![
            comment(10, None, Some(9), "2026-01-01T10:00:00Z"),
            comment(12, Some(11), Some(9), "2026-01-01T10:02:00Z"),
            comment(11, Some(10), Some(9), "2026-01-01T10:01:00Z"),
            comment(20, None, None, "2026-01-01T11:00:00Z"),
            // Its parent is gone: a thread of its own.
            comment(31, Some(30), Some(4), "2026-01-01T12:00:00Z"),
            // A loop opens a thread where it closes, and loses no comment.
            comment(41, Some(42), Some(5), "2026-01-01T13:00:00Z"),
            comment(42, Some(41), Some(5), "2026-01-01T13:01:00Z"),
        ]);
        let ids: Vec<&str> = threads.iter().map(|t| t.id.as_str()).collect();
        assert_eq!(ids, ["10", "20", "31", "41"]);
        let first = &threads[0];
        let order: Vec<u64> = first.comments.iter().filter_map(|c| c.id).collect();
        assert_eq!(order, [10, 11, 12]);
        assert_eq!(first.reply_target(), Some(10));
        assert!(first.resolution_unknown && !first.resolved && first.is_open());
        // No line on the current diff: outdated, as GitHub shows it.
        assert!(threads[1].outdated);
        assert_eq!(threads[3].comments.len(), 2);
        let total: usize = threads.iter().map(|t| t.comments.len()).sum();
        assert_eq!(total, 7);
    }
}
