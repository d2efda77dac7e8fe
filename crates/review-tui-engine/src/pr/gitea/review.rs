//! Publishing a review on Gitea or Forgejo. Gitea cannot edit a review's body afterwards, so
//! the summary (the body later rounds edit in place) goes into a conversation comment of the
//! pull request, and the review, carrying the event and the inline comments, points to it.
//!
//! Order, so that nothing is posted twice whenever a run stops: the summary comment first
//! (one an interrupted publish of ours left, pointed to by no review, is edited and reused,
//! never posted again), then the review, the one call that makes the round visible as posted.
//! A refused position leaves only that comment, which the resend (or a re-run) reuses.

use std::collections::HashSet;

use reqwest::Method;
use serde_json::json;

use super::error::GiteaError;
use super::{
    GiteaForge, LINK_PREFIX, Place, SUMMARY_TAG, comment_url, is_summary_comment, linked_comment,
    wire,
};
use crate::pr::forge::{
    ForgeError, ForgeErrorKind, NewReview, PostedReview, Refusal, ReviewEvent, Side,
};
use crate::pr::http::HttpError;

/// Gitea's spelling of an event.
fn event_of(event: ReviewEvent) -> &'static str {
    match event {
        ReviewEvent::Approve => "APPROVED",
        ReviewEvent::RequestChanges => "REQUEST_CHANGES",
        ReviewEvent::Comment => "COMMENT",
    }
}

/// A summary as its comment holds it: the text, then the tag that says it is one.
fn summary_text(body: &str) -> String {
    format!("{}\n{SUMMARY_TAG}\n", body.trim_end())
}

fn new_comment<'a>(path: &'a str, line: u32, side: Side, body: &'a str) -> wire::NewComment<'a> {
    wire::NewComment {
        path,
        body,
        new_position: (side == Side::Right).then_some(line),
        old_position: (side == Side::Left).then_some(line),
    }
}

impl GiteaForge {
    pub(super) async fn submit_review(
        &self,
        review: &NewReview,
    ) -> Result<PostedReview, ForgeError> {
        for id in &review.replace_pending {
            self.delete_review(*id).await?;
        }
        // Gitea places the comments on whatever `commit_id` names, head or not: the head is
        // checked here, right before anything is posted.
        let pull = self.pull().await?;
        if pull.head.sha != review.commit_id.as_str() {
            return Err(GiteaError::HeadMoved {
                reviewed: review.commit_id.to_string(),
                current: pull.head.sha,
            }
            .into());
        }
        let (body, summary_url) = if review.summary {
            let comment = self.keep_summary(&review.body).await?;
            // Posting the summary took a call: the head once more, and a summary of a head no
            // longer the pull request's is taken back.
            let now = self.pull().await?.head.sha;
            if now != review.commit_id.as_str() {
                let _ = self.delete_comment(comment.id).await;
                return Err(GiteaError::HeadMoved {
                    reviewed: review.commit_id.to_string(),
                    current: now,
                }
                .into());
            }
            let url = comment_url(&pull.html_url, &comment);
            (
                format!(
                    "review-tui's summary of this review is [in the conversation]({url}); later rounds update it there.\n\n{LINK_PREFIX}{} -->\n",
                    comment.id
                ),
                Some(url),
            )
        } else {
            (review.body.clone(), None)
        };
        let comments = review
            .comments
            .iter()
            .map(|c| new_comment(&c.path, c.line, c.side, &c.body))
            .collect();
        let posted: wire::Review = self
            .client
            .send_json(
                Method::POST,
                self.pull_endpoint(&["reviews"]),
                Some(&wire::NewReview {
                    commit_id: review.commit_id.as_str(),
                    event: event_of(review.event),
                    body: &body,
                    comments,
                }),
                &self.describe(),
            )
            .await
            .map_err(GiteaError::from)?;
        let html_url = summary_url
            .or_else(|| (!posted.html_url.is_empty()).then(|| posted.html_url.clone()))
            .unwrap_or_else(|| pull.html_url.clone());
        self.urls
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(posted.id, html_url.clone());
        Ok(PostedReview {
            id: posted.id,
            html_url,
            state: posted.port_state().unwrap_or("COMMENTED").into(),
        })
    }

    /// The summary comment for a new review: one of ours that no review of ours points to
    /// (left by an interrupted publish) is edited to `body`; else a new one is posted.
    async fn keep_summary(&self, body: &str) -> Result<wire::Comment, GiteaError> {
        let login = self.authenticated_user().await?.unwrap_or_default();
        let mine = |user: &Option<wire::User>| {
            user.as_ref()
                .is_some_and(|u| u.login.eq_ignore_ascii_case(&login))
        };
        let (reviews, comments) = tokio::try_join!(self.reviews(), self.issue_comments())?;
        let pointed: HashSet<u64> = reviews
            .iter()
            .filter(|r| mine(&r.user))
            .filter_map(|r| linked_comment(&r.body))
            .collect();
        let left = comments
            .iter()
            .find(|c| mine(&c.user) && is_summary_comment(&c.body) && !pointed.contains(&c.id));
        let text = json!({ "body": summary_text(body) });
        match left {
            Some(comment) => self.edit_comment(comment.id, &text).await,
            None => {
                let number = self.number.to_string();
                Ok(self
                    .client
                    .send_json(
                        Method::POST,
                        self.repo_endpoint(&["issues", &number, "comments"]),
                        Some(&text),
                        &self.describe(),
                    )
                    .await?)
            }
        }
    }

    async fn edit_comment(
        &self,
        id: u64,
        body: &serde_json::Value,
    ) -> Result<wire::Comment, GiteaError> {
        let comment_id = id.to_string();
        Ok(self
            .client
            .send_json(
                Method::PATCH,
                self.repo_endpoint(&["issues", "comments", &comment_id]),
                Some(body),
                &format!("comment {id} on {}", self.describe()),
            )
            .await?)
    }

    async fn delete_comment(&self, id: u64) -> Result<(), GiteaError> {
        let comment_id = id.to_string();
        Ok(self
            .client
            .send_only::<()>(
                Method::DELETE,
                self.repo_endpoint(&["issues", "comments", &comment_id]),
                None,
                &format!("comment {id} on {}", self.describe()),
            )
            .await?)
    }

    async fn review(&self, id: u64) -> Result<wire::Review, GiteaError> {
        let review_id = id.to_string();
        Ok(self
            .client
            .get_json(
                self.pull_endpoint(&["reviews", &review_id]),
                &format!("review {id} on {}", self.describe()),
            )
            .await?)
    }

    /// The summary of review `id`, edited in place in the comment it points to.
    pub(super) async fn edit_summary(
        &self,
        id: u64,
        body: &str,
    ) -> Result<PostedReview, GiteaError> {
        let review = self.review(id).await?;
        let comment = linked_comment(&review.body).ok_or(GiteaError::NotEditable(id))?;
        let edited = self
            .edit_comment(comment, &json!({ "body": summary_text(body) }))
            .await?;
        let pr_url = self.pull().await?.html_url;
        Ok(PostedReview {
            id,
            html_url: comment_url(&pr_url, &edited),
            state: review.port_state().unwrap_or("COMMENTED").into(),
        })
    }

    /// `POST …/reviews/:id/dismissals`; one already dismissed is done.
    pub(super) async fn dismiss(&self, id: u64, message: &str) -> Result<PostedReview, ForgeError> {
        let review = self.review(id).await?;
        if review.dismissed {
            let error = GiteaError::AlreadyDismissed(id);
            let reason = error.to_string();
            return Err(
                ForgeError::new(ForgeErrorKind::Rejected { status: 422 }, error)
                    .refused(Refusal::AlreadyDone, reason),
            );
        }
        let review_id = id.to_string();
        let dismissed: wire::Review = self
            .client
            .send_json(
                Method::POST,
                self.pull_endpoint(&["reviews", &review_id, "dismissals"]),
                Some(&json!({ "message": message })),
                &format!("review {id} on {}", self.describe()),
            )
            .await
            .map_err(GiteaError::from)?;
        Ok(PostedReview {
            id,
            html_url: dismissed.html_url.clone(),
            state: "DISMISSED".into(),
        })
    }

    /// `DELETE …/reviews/:id` of a pending review an interrupted publish left; one already
    /// gone is deleted.
    async fn delete_review(&self, id: u64) -> Result<(), GiteaError> {
        let review_id = id.to_string();
        match self
            .client
            .send_only::<()>(
                Method::DELETE,
                self.pull_endpoint(&["reviews", &review_id]),
                None,
                &format!("pending review {id} on {}", self.describe()),
            )
            .await
        {
            Ok(()) | Err(HttpError::NotFound { .. }) => Ok(()),
            Err(other) => Err(other.into()),
        }
    }

    /// Answers inline comment `root` in its conversation: a comment on the same line of the
    /// same file (Gitea shows those as one conversation), in a review of its own.
    pub(super) async fn answer(&self, root: u64, body: &str) -> Result<u64, GiteaError> {
        let known = |forge: &GiteaForge| -> Option<Place> {
            forge
                .places
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .get(&root)
                .cloned()
        };
        let place = match known(self) {
            Some(place) => place,
            None => {
                self.history().await?;
                known(self).ok_or_else(|| {
                    GiteaError::Http(HttpError::NotFound {
                        call: crate::pr::http::Call::named(&format!("comment {root}")),
                        what: format!("inline comment {root}"),
                    })
                })?
            }
        };
        let head = self.pull().await?.head.sha;
        // On the commit the comment was made on, where its line is; a server that will not
        // place it there gets it on the head.
        let mut commits = vec![place.commit_id.clone(), head];
        commits.retain(|c| !c.is_empty());
        commits.dedup();
        let mut refused = None;
        for commit in &commits {
            let answer = self
                .client
                .send_json::<_, wire::Review>(
                    Method::POST,
                    self.pull_endpoint(&["reviews"]),
                    Some(&wire::NewReview {
                        commit_id: commit,
                        event: "COMMENT",
                        body: "",
                        comments: vec![new_comment(&place.path, place.line, place.side, body)],
                    }),
                    &self.describe(),
                )
                .await;
            match answer {
                Ok(posted) => return Ok(posted.id),
                Err(error @ HttpError::Status { status: 422, .. }) => refused = Some(error),
                Err(other) => return Err(other.into()),
            }
        }
        Err(refused.map_or_else(
            || GiteaError::Unreadable("the pull request names no head commit".into()),
            GiteaError::from,
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_summary_keeps_its_markers_last_with_the_tag() {
        let text = summary_text("body\n<!-- review-tui:summary -->\n");
        assert!(text.ends_with(&format!("<!-- review-tui:summary -->\n{SUMMARY_TAG}\n")));
        assert!(is_summary_comment(&text));
        assert!(!is_summary_comment(&format!("{SUMMARY_TAG}\nthen text")));
        let c = new_comment("a.rs", 3, Side::Left, "b");
        assert_eq!(
            serde_json::to_value(&c).unwrap(),
            json!({"path": "a.rs", "body": "b", "old_position": 3})
        );
    }
}
