//! Publishing a review on GitLab, as one review event like GitHub's: the approval first (the
//! only step GitLab may refuse to this account, before anything is posted), then every inline
//! comment as a draft note positioned on the latest diff version's SHAs, the body as a general
//! draft note, and one `bulk_publish`. Drafts an interrupted publish of ours left are deleted
//! first, so a re-run never posts anything twice; a refused position deletes this publish's
//! drafts and says so (the publisher resends with every finding in the body).

use reqwest::Method;
use serde_json::json;

use super::GitlabForge;
use super::error::GitlabError;
use super::wire;
use crate::pr::forge::{
    ForgeError, ForgeErrorKind, NewReview, NewReviewComment, PostedReview, Refusal, ReviewEvent,
    Side,
};
use crate::pr::http::HttpError;

impl GitlabForge {
    async fn latest_version(&self) -> Result<wire::Version, GitlabError> {
        let versions: Vec<wire::Version> = self
            .client
            .get_json(self.mr_endpoint(&["versions"]), &self.describe())
            .await?;
        versions.into_iter().next().ok_or(GitlabError::NoVersion)
    }

    pub(super) async fn submit_review(
        &self,
        review: &NewReview,
    ) -> Result<PostedReview, ForgeError> {
        let version = self.latest_version().await?;
        if version.head_commit_sha != review.commit_id.as_str() {
            return Err(GitlabError::VersionMoved {
                reviewed: review.commit_id.to_string(),
                current: version.head_commit_sha,
            }
            .into());
        }
        for draft in &review.replace_pending {
            self.delete_draft(*draft).await?;
        }
        if review.event == ReviewEvent::Approve {
            self.approve(review.commit_id.as_str()).await?;
        }
        let files = self.file_diffs().await.map_err(ForgeError::from)?;
        let mut staged = Vec::new();
        for comment in &review.comments {
            let old_path = files
                .iter()
                .find(|f| f.new_path == comment.path)
                .map_or(comment.path.as_str(), |f| f.old_path.as_str());
            let note = suggestion_range(comment);
            let body = wire::NewDraftNote {
                note: &note,
                position: Some(position(&version, comment, old_path)),
            };
            match self.stage(&body).await {
                Ok(id) => staged.push(id),
                Err(error) => {
                    // Nothing of this publish stays staged: the resend (or a re-run) starts clean.
                    for id in staged {
                        let _ = self.delete_draft(id).await;
                    }
                    return Err(error.into());
                }
            }
        }
        self.stage(&wire::NewDraftNote {
            note: &review.body,
            position: None,
        })
        .await?;
        self.client
            .send_only::<()>(
                Method::POST,
                self.mr_endpoint(&["draft_notes", "bulk_publish"]),
                None,
                &self.describe(),
            )
            .await
            .map_err(GitlabError::from)?;
        let note = self.published_note(&review.body).await?;
        Ok(PostedReview {
            id: note,
            html_url: format!("{}#note_{note}", self.web_url().await?),
            state: match review.event {
                ReviewEvent::Approve => "APPROVED",
                _ => "COMMENTED",
            }
            .into(),
        })
    }

    async fn web_url(&self) -> Result<String, GitlabError> {
        let mr: wire::MergeRequest = self
            .client
            .get_json(self.mr_endpoint(&[]), &self.describe())
            .await?;
        Ok(mr.web_url)
    }

    /// `POST …/draft_notes`: its id.
    async fn stage(&self, draft: &wire::NewDraftNote<'_>) -> Result<u64, GitlabError> {
        let created: wire::DraftNote = self
            .client
            .send_json(
                Method::POST,
                self.mr_endpoint(&["draft_notes"]),
                Some(draft),
                &self.describe(),
            )
            .await?;
        Ok(created.id)
    }

    /// `DELETE …/draft_notes/:id`; one already gone is deleted.
    async fn delete_draft(&self, id: u64) -> Result<(), GitlabError> {
        let id = id.to_string();
        match self
            .client
            .send_only::<()>(
                Method::DELETE,
                self.mr_endpoint(&["draft_notes", &id]),
                None,
                &format!("draft note {id} on {}", self.describe()),
            )
            .await
        {
            Ok(()) | Err(HttpError::NotFound { .. }) => Ok(()),
            Err(other) => Err(other.into()),
        }
    }

    /// `POST …/approve` with the reviewed head: GitLab refuses it (409) if the head moved. An
    /// approval already given by this account is not asked again (GitLab refuses a second).
    async fn approve(&self, sha: &str) -> Result<(), ForgeError> {
        let login = self.authenticated_user().await?;
        let approvers = self.approvers().await?;
        if login.is_some_and(|login| approvers.contains(&login.to_ascii_lowercase())) {
            return Ok(());
        }
        let answer = self
            .client
            .send_only(
                Method::POST,
                self.mr_endpoint(&["approve"]),
                Some(&json!({ "sha": sha })),
                &self.describe(),
            )
            .await;
        match answer {
            Ok(()) => Ok(()),
            Err(error) => {
                let status = error.status();
                let reason = error.message().unwrap_or("no message").to_string();
                let refusal = match status {
                    Some(409) => Some(Refusal::HeadMoved),
                    Some(401 | 403) => Some(Refusal::EventNotPermitted),
                    _ => None,
                };
                let forge_error = ForgeError::from(GitlabError::from(error));
                Err(match refusal {
                    Some(Refusal::EventNotPermitted) => forge_error
                        .refused(Refusal::EventNotPermitted, reason)
                        .advising(
                            "this account may not approve this merge request (its role, the project's approval rules, or its own merge request)",
                        ),
                    Some(refusal) => forge_error.refused(refusal, reason),
                    None => forge_error,
                })
            }
        }
    }

    /// The general note `bulk_publish` made of `body`: the account's newest note with that
    /// text.
    async fn published_note(&self, body: &str) -> Result<u64, GitlabError> {
        let login = self.authenticated_user().await?.unwrap_or_default();
        let mut url = self.mr_endpoint(&["notes"]);
        url.query_pairs_mut()
            .append_pair("sort", "desc")
            .append_pair("order_by", "created_at");
        let notes: Vec<wire::Note> = self.client.get_json(url, &self.describe()).await?;
        notes
            .iter()
            .find(|n| {
                n.author.username.eq_ignore_ascii_case(&login)
                    && n.position.is_none()
                    && n.body.trim() == body.trim()
            })
            .map(|n| n.id)
            .ok_or(GitlabError::PublishedNoteMissing)
    }

    /// `PUT …/notes/:id`: the summary, edited in place.
    pub(super) async fn edit_note(&self, id: u64, body: &str) -> Result<PostedReview, GitlabError> {
        let note_id = id.to_string();
        let note: wire::Note = self
            .client
            .send_json(
                Method::PUT,
                self.mr_endpoint(&["notes", &note_id]),
                Some(&json!({ "body": body })),
                &format!("note {id} on {}", self.describe()),
            )
            .await?;
        Ok(PostedReview {
            id: note.id,
            html_url: format!("{}#note_{}", self.web_url().await?, note.id),
            state: "COMMENTED".into(),
        })
    }

    /// `POST …/unapprove`: an approval is the account's, whichever note stood for it. GitLab
    /// answers 404 when there is none left: already done.
    pub(super) async fn unapprove(&self, note: u64) -> Result<PostedReview, ForgeError> {
        match self
            .client
            .send_only::<()>(
                Method::POST,
                self.mr_endpoint(&["unapprove"]),
                None,
                &self.describe(),
            )
            .await
        {
            Ok(()) => Ok(PostedReview {
                id: note,
                html_url: String::new(),
                state: "DISMISSED".into(),
            }),
            Err(error @ HttpError::NotFound { .. }) => {
                let reason = error.to_string();
                Err(
                    ForgeError::new(ForgeErrorKind::NotFound, GitlabError::from(error))
                        .refused(Refusal::AlreadyDone, reason),
                )
            }
            Err(other) => Err(GitlabError::from(other).into()),
        }
    }

    /// Resolves the thread `root` opened, then answers in it (the answer carries the marker a
    /// re-run looks for, so it comes last: resolving again is harmless, answering twice is not).
    pub(super) async fn resolve_thread(&self, root: u64, body: &str) -> Result<u64, GitlabError> {
        let known = self
            .threads
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(&root)
            .cloned();
        let discussion = match known {
            Some(id) => id,
            None => {
                self.discussions().await?;
                self.threads
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .get(&root)
                    .cloned()
                    .ok_or_else(|| {
                        GitlabError::Http(HttpError::NotFound {
                            call: crate::pr::http::Call::named(&format!("thread of note {root}")),
                            what: format!("the thread of note {root}"),
                        })
                    })?
            }
        };
        let mut resolve = self.mr_endpoint(&["discussions", &discussion]);
        resolve.query_pairs_mut().append_pair("resolved", "true");
        self.client
            .send_only::<()>(Method::PUT, resolve, None, &self.describe())
            .await?;
        let reply: wire::Note = self
            .client
            .send_json(
                Method::POST,
                self.mr_endpoint(&["discussions", &discussion, "notes"]),
                Some(&json!({ "body": body })),
                &self.describe(),
            )
            .await?;
        Ok(reply.id)
    }
}

/// The comment's text for GitLab: a GitLab suggestion replaces only the line its note sits on
/// (a range's last) unless it says how many lines above it also go (`suggestion:-N+0`); the
/// publisher writes GitHub's form, which replaces the whole commented range.
fn suggestion_range(comment: &NewReviewComment) -> String {
    let above = comment
        .start_line
        .map_or(0, |start| comment.line.saturating_sub(start));
    if above == 0 {
        return comment.body.clone();
    }
    let mut out = String::with_capacity(comment.body.len() + 8);
    for line in comment.body.split_inclusive('\n') {
        let bare = line.trim_end_matches('\n');
        let fence = bare.len() - bare.trim_start_matches('`').len();
        if fence >= 3 && &bare[fence..] == "suggestion" {
            out.push_str(&format!("{}suggestion:-{above}+0", &bare[..fence]));
            out.push_str(&line[bare.len()..]);
        } else {
            out.push_str(line);
        }
    }
    out
}

/// A text position on `version`: the new line for a comment on the new side, the old line for
/// one on the old side. GitLab places a range by line codes; the comment sits on its last line.
fn position<'a>(
    version: &'a wire::Version,
    comment: &'a NewReviewComment,
    old_path: &'a str,
) -> wire::NewPosition<'a> {
    let (new_line, old_line) = match comment.side {
        Side::Right => (Some(comment.line), None),
        Side::Left => (None, Some(comment.line)),
    };
    wire::NewPosition {
        position_type: "text",
        base_sha: &version.base_commit_sha,
        start_sha: &version.start_commit_sha,
        head_sha: &version.head_commit_sha,
        old_path,
        new_path: &comment.path,
        new_line,
        old_line,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_range_suggestion_says_how_many_lines_above_it_replaces() {
        let comment = |start: Option<u32>, body: &str| NewReviewComment {
            path: "a.rs".into(),
            line: 12,
            side: Side::Right,
            start_line: start,
            start_side: start.map(|_| Side::Right),
            body: body.into(),
        };
        let body = "**P2 · t**\n\n```suggestion\nx\ny\n```\n";
        assert_eq!(
            suggestion_range(&comment(Some(10), body)),
            "**P2 · t**\n\n```suggestion:-2+0\nx\ny\n```\n"
        );
        assert_eq!(suggestion_range(&comment(None, body)), body);
        let quoted = "````suggestion\n```\n````\n";
        assert_eq!(
            suggestion_range(&comment(Some(11), quoted)),
            "````suggestion:-1+0\n```\n````\n"
        );
        // Text that only mentions the word is left alone.
        let prose = "use a suggestion\n";
        assert_eq!(suggestion_range(&comment(Some(10), prose)), prose);
    }
}
