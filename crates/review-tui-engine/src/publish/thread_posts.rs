//! Posting the person's replies and resolutions on the PR's review threads, each exactly once:
//! a reply carries a marker naming its draft, and a re-run (after a crash, a kill) looks for
//! it among the publishing account's comments before posting; a resolution is posted only
//! while the thread is not already so. The forge's answer, not the space's record, decides.

use super::{Destination, PublishError, outgoing};
use crate::pr::forge::Forge;
use crate::space::Space;
use crate::space::thread_draft::{ThreadAction, ThreadDraft};

/// The marker a reply ends with: hidden in the rendered comment, found by the next run.
fn marker(draft: &ThreadDraft) -> String {
    let stamp: String = draft.at.chars().filter(char::is_ascii_digit).collect();
    format!("<!-- review-tui:thread-reply:{}:{stamp} -->", draft.id)
}

/// What a publish would post: one line per draft not posted yet.
pub fn pending(space: &Space) -> Vec<String> {
    space
        .state()
        .thread_drafts
        .iter()
        .filter(|d| !d.posted)
        .map(ThreadDraft::describe)
        .collect()
}

/// Posts every draft not posted yet, in the order drafted; returns a line for each posted.
pub async fn post(
    destination: &Destination,
    space: &mut Space,
) -> Result<Vec<String>, PublishError> {
    let drafts: Vec<ThreadDraft> = space
        .state()
        .thread_drafts
        .iter()
        .filter(|d| !d.posted)
        .cloned()
        .collect();
    if drafts.is_empty() {
        return Ok(Vec::new());
    }
    let Destination::Forge(forge) = destination else {
        return Err(PublishError::NoThreads);
    };
    let forge: &dyn Forge = forge.as_ref();
    let login = forge
        .authenticated_user()
        .await
        .map_err(PublishError::forge("reading the authenticated user"))?
        .ok_or(PublishError::NoLogin {
            forge: forge.name(),
            hint: forge.token_hint(),
        })?;
    let history = forge
        .history()
        .await
        .map_err(PublishError::forge("reading the pull request's comments"))?;
    let threads = forge.review_threads().await.map_err(PublishError::forge(
        "reading the pull request's review threads",
    ))?;
    let mut said = Vec::new();
    for draft in drafts {
        // By the thread's id, or by one of its comments' numbers: a draft made where only the
        // REST comments could be read names its thread by the first comment's.
        let thread = crate::session::thread_drafts::find(&threads, &draft.thread);
        let done = match &draft.action {
            ThreadAction::Reply { text } => {
                let marker = marker(&draft);
                let already = history
                    .review_comments
                    .iter()
                    .any(|c| c.author.eq_ignore_ascii_case(&login) && c.body.contains(&marker));
                if !already {
                    let reply_to = draft
                        .reply_to
                        .or_else(|| thread.and_then(|t| t.reply_target()))
                        .ok_or_else(|| PublishError::ThreadGone {
                            draft: draft.id.clone(),
                        })?;
                    forge
                        .reply_to_comment(reply_to, &outgoing(&format!("{text}\n\n{marker}\n")))
                        .await
                        .map_err(PublishError::forge("replying in a review thread"))?;
                }
                !already
            }
            ThreadAction::Resolve | ThreadAction::Unresolve => {
                let want = matches!(draft.action, ThreadAction::Resolve);
                let Some(thread) = thread else {
                    return Err(PublishError::ThreadGone {
                        draft: draft.id.clone(),
                    });
                };
                if thread.resolved != want {
                    forge
                        .resolve_thread(&thread.id, want)
                        .await
                        .map_err(PublishError::forge("resolving a review thread"))?;
                }
                thread.resolved != want
            }
        };
        let id = draft.id.clone();
        space.update(|state| -> Result<(), PublishError> {
            if let Some(d) = state.thread_drafts.iter_mut().find(|d| d.id == id) {
                d.posted = true;
            }
            Ok(())
        })?;
        if done {
            said.push(format!("posted: {}", draft.describe()));
        } else {
            said.push(format!("already on the pull request: {}", draft.describe()));
        }
    }
    Ok(said)
}
