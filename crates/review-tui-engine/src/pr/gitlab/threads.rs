//! A merge request's diff discussions as the port's review threads. GitLab says whether a
//! thread is resolved (on its notes); it does not say "outdated", so a thread is taken as
//! outdated when it was written on another head than the merge request's current one (as
//! GitLab's page shows it: "changed this line in version N").

use super::{GitlabError, GitlabForge, wire};
use crate::diff::Side;
use crate::pr::threads::{ReviewThread, ThreadComment};

impl GitlabForge {
    pub async fn review_threads(&self) -> Result<Vec<ReviewThread>, GitlabError> {
        let (discussions, pr) = tokio::try_join!(self.discussions(), self.pull_request())?;
        Ok(threads_of(discussions, pr.head.sha.as_str()))
    }

    /// `PUT …/discussions/:id?resolved=true|false`: setting what already holds is no change.
    pub async fn set_resolved(&self, discussion: &str, resolved: bool) -> Result<(), GitlabError> {
        let mut url = self.mr_endpoint(&["discussions", discussion]);
        url.query_pairs_mut()
            .append_pair("resolved", if resolved { "true" } else { "false" });
        self.client
            .send_only::<()>(reqwest::Method::PUT, url, None, &self.describe())
            .await?;
        Ok(())
    }
}

/// The diff discussions (not the general notes), each with its notes but GitLab's system notes.
fn threads_of(discussions: Vec<wire::Discussion>, head: &str) -> Vec<ReviewThread> {
    discussions
        .into_iter()
        .filter(|d| !d.individual_note)
        .filter_map(|d| {
            let notes: Vec<wire::Note> = d.notes.into_iter().filter(|n| !n.system).collect();
            let position = notes.first()?.position.clone()?;
            let (path, line, side) = position.place();
            let outdated = position.head_sha.as_deref().is_some_and(|sha| sha != head);
            Some(ReviewThread {
                id: d.id,
                path,
                line: if outdated { None } else { line },
                start_line: None,
                original_line: line,
                side: side.unwrap_or(Side::Right),
                resolved: notes.iter().any(|n| n.resolved),
                outdated,
                resolution_unknown: false,
                comments: notes
                    .into_iter()
                    .map(|n| ThreadComment {
                        id: Some(n.id),
                        author_is_bot: n.author.is_bot(),
                        author: n.author.username,
                        body: n.body,
                        created_at: n.created_at,
                    })
                    .collect(),
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn diff_discussions_become_threads_with_their_state() {
        let discussions: Vec<wire::Discussion> = serde_json::from_value(serde_json::json!([
            { "id": "d1", "individual_note": false, "notes": [
                { "id": 1, "body": "leaks the key", "author": { "username": "alice" },
                  "created_at": "t1", "resolved": false,
                  "position": { "new_path": "src/lib.rs", "new_line": 9, "head_sha": "h" } },
                { "id": 2, "body": "changed this line", "author": { "username": "alice" },
                  "system": true, "created_at": "t2" },
                { "id": 3, "body": "agreed", "author": { "username": "bob" },
                  "created_at": "t3", "resolved": false,
                  "position": { "new_path": "src/lib.rs", "new_line": 9, "head_sha": "h" } }
            ]},
            { "id": "d2", "individual_note": false, "notes": [
                { "id": 4, "body": "old", "author": { "username": "carol" }, "created_at": "t4",
                  "resolved": true,
                  "position": { "old_path": "a.rs", "old_line": 3, "head_sha": "older" } }
            ]},
            { "id": "d3", "individual_note": true, "notes": [
                { "id": 5, "body": "general", "author": { "username": "dave" }, "created_at": "t5" }
            ]}
        ]))
        .unwrap();
        let threads = threads_of(discussions, "h");
        assert_eq!(threads.len(), 2);
        assert_eq!(threads[0].id, "d1");
        assert_eq!(threads[0].lines(), Some((9, 9)));
        assert!(threads[0].is_open());
        assert_eq!(threads[0].comments.len(), 2, "system notes are left out");
        assert_eq!(threads[0].reply_target(), Some(1));
        assert!(threads[1].resolved && threads[1].outdated);
        assert_eq!(threads[1].side, Side::Left);
        assert_eq!(threads[1].lines(), None);
    }
}
