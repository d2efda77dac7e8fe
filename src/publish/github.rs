//! Publishing to a forge that takes reviews (GitHub): plan from what the forge shows now, then
//! post in the order that keeps every step checkable on a re-run.
//!
//! Order: the one non-idempotent call that matters (submitting the review, which carries this
//! round's marker) goes first, so a crash before it leaves nothing posted and a crash after it
//! is recognised by the marker; the summary edit (`PUT`, idempotent) and the "Resolved" replies
//! (each checked against the login's earlier replies) follow.

use std::collections::{HashMap, HashSet};

use super::comment::{self, MovedFinding};
use super::markers;
use super::select::{self, Item};
use super::{
    Action, InlineComment, Preview, PublishError, PublishInput, Published, ResolvedReply, Target,
    intended_event, now, redact,
};
use crate::pr::forge::{Forge, ForgeError, NewReview, PrHistory, PullRequest, ReviewEvent};
use crate::report::markdown::{self, CiStatus, SummaryExtras};
use crate::review::verdict::Decision;
use crate::space::{PublishState, Space, SpaceState};

/// Replaced, at resend time, by GitHub's reason for refusing the inline comments.
const REFUSAL: &str = "\u{1}review-tui-refusal\u{1}";

/// What the publishing login already wrote on the PR. Anything by anyone else is ignored: a
/// planted marker must not stop a comment from being posted.
#[derive(Debug, Default)]
struct Own {
    /// The earliest of our reviews carrying the summary marker.
    summary: Option<u64>,
    /// The event of our latest review (one with any of our markers).
    last_event: Option<ReviewEvent>,
    /// Our reviews, (id, body), oldest first.
    reviews: Vec<(u64, String)>,
    /// fingerprint → (comment id, `path:line`, title line) of our inline comments.
    commented: HashMap<String, (u64, String, String)>,
    /// Comment ids we already replied "Resolved" to.
    resolved: HashSet<u64>,
}

impl Own {
    fn read(history: &PrHistory, login: &str) -> Own {
        let mine = |author: &str| author.eq_ignore_ascii_case(login);
        let mut own = Own::default();
        for review in history.reviews.iter().filter(|r| mine(&r.author)) {
            if !markers::is_ours(&review.body) {
                continue;
            }
            if own.summary.is_none() && review.body.contains(markers::SUMMARY) {
                own.summary = Some(review.id);
            }
            if let Some(event) = ReviewEvent::from_state(&review.state) {
                own.last_event = Some(event);
            }
            own.reviews.push((review.id, review.body.clone()));
        }
        for c in history.review_comments.iter().filter(|c| mine(&c.author)) {
            match c.in_reply_to {
                None => {
                    if let Some(fp) = markers::fingerprint_in(&c.body) {
                        let location = match c.line {
                            Some(line) => format!("{}:{line}", c.path),
                            None => c.path.clone(),
                        };
                        let title = c
                            .body
                            .lines()
                            .next()
                            .unwrap_or("")
                            .trim_matches('*')
                            .to_string();
                        own.commented
                            .entry(fp.to_string())
                            .or_insert((c.id, location, title));
                    }
                }
                Some(parent) => {
                    if markers::resolved_in(&c.body).is_some() {
                        own.resolved.insert(parent);
                    }
                }
            }
        }
        own
    }

    /// Our review carrying `round`'s marker on `head`.
    fn posted_round(&self, round: u32, head: &str) -> Option<u64> {
        let marker = markers::round(round, head);
        self.reviews
            .iter()
            .find(|(_, body)| body.contains(&marker))
            .map(|(id, _)| *id)
    }
}

fn review_url(pr: &PullRequest, id: u64) -> String {
    format!("{}#pullrequestreview-{id}", pr.html_url)
}

fn short(sha: &str) -> &str {
    &sha[..sha.len().min(10)]
}

pub(super) async fn plan(
    forge: &dyn Forge,
    state: &SpaceState,
    input: &PublishInput<'_>,
) -> Result<Preview, PublishError> {
    let result = input.result;
    let round = result.round;
    let head = input.head_sha.to_string();

    // Never wrong: a review is only posted on the head it reviewed.
    let pr = forge
        .pull_request()
        .await
        .map_err(PublishError::forge("reading the pull request again"))?;
    if pr.head.sha != head {
        return Err(PublishError::HeadMoved {
            reviewed: head,
            current: pr.head.sha,
        });
    }
    let login = forge
        .authenticated_user()
        .await
        .map_err(PublishError::forge("reading the authenticated user"))?
        .ok_or(PublishError::NoLogin)?;
    let diff_text = forge.diff().await.map_err(PublishError::forge(
        "reading the pull request's current diff",
    ))?;
    let diff = crate::diff::parse(&diff_text)?;
    let history = forge.history().await.map_err(PublishError::forge(
        "reading the pull request's reviews and comments",
    ))?;
    let ci = match forge.check_runs(&head).await {
        Ok(runs) => CiStatus::Reported(runs),
        Err(e) => CiStatus::NotVerified(format!("the check runs could not be read ({e})")),
    };
    let own = Own::read(&history, &login);

    let decision = result.verdict.decision;
    let intended = intended_event(decision, input.options.approve_on_ship);
    let own_pr = pr.author.eq_ignore_ascii_case(&login);
    let event = if own_pr && intended != ReviewEvent::Comment {
        ReviewEvent::Comment
    } else {
        intended
    };
    let mut notices = Vec::new();
    if event != intended {
        notices.push(format!(
            "Intended decision: **{intended}**. GitHub does not let an account approve or request changes on its own pull request ({login} opened it), so this review is posted as a comment."
        ));
    }

    let selected = select::select(result, input.options.selection, &input.options.collapse);
    let mut inline = Vec::new();
    let mut inline_items: Vec<&Item> = Vec::new();
    let mut already = Vec::new();
    let mut moved = Vec::new();
    for item in selected
        .items
        .iter()
        .filter(|i| i.node.anchor.is_some() && i.node.in_scope() && !i.collapsed)
    {
        match comment::place(item, &diff) {
            Ok(placement) => {
                if own.commented.contains_key(item.fingerprint()) {
                    // Commented by an earlier round, even if its line moved: not repeated,
                    // still counted and still in the body.
                    already.push(format!("{} {}", item.node.location(), item.node.text.title));
                    continue;
                }
                let mut new = comment::new_comment(item, placement);
                new.body = redact(&new.body);
                inline.push(InlineComment {
                    fingerprint: item.fingerprint().to_string(),
                    comment: new,
                });
                inline_items.push(item);
            }
            Err(reason) => moved.push(MovedFinding {
                fingerprint: item.fingerprint().to_string(),
                location: item.node.location(),
                title: item.node.text.title.clone(),
                reason,
            }),
        }
    }

    // Earlier comments whose finding is gone. An Inconclusive round proves nothing gone.
    let found: HashSet<&str> = result
        .board
        .nodes
        .iter()
        .map(|n| n.fingerprint.as_str())
        .filter(|fp| !fp.is_empty())
        .collect();
    let mut resolved_replies = Vec::new();
    let mut not_refound = Vec::new();
    if decision != Decision::Inconclusive {
        let mut gone: Vec<(&String, &(u64, String, String))> = own
            .commented
            .iter()
            .filter(|(fp, (id, _, _))| !found.contains(fp.as_str()) && !own.resolved.contains(id))
            .collect();
        gone.sort_by_key(|(_, (id, _, _))| *id);
        for (fp, (id, location, title)) in gone {
            resolved_replies.push(ResolvedReply {
                comment_id: *id,
                fingerprint: fp.clone(),
                location: location.clone(),
                body: format!(
                    "Resolved in {}: round {round} of review-tui did not find this again.\n\n{}",
                    short(&head),
                    markers::resolved(fp)
                ),
            });
            not_refound.push(format!(
                "`{location}` {title}: resolved in {}",
                short(&head)
            ));
        }
        let commented: HashSet<&str> = own.commented.keys().map(String::as_str).collect();
        for fp in &result.delta.not_refound {
            if !commented.contains(fp.as_str()) {
                not_refound.push(format!(
                    "finding `{fp}` of the previous round (not commented inline)"
                ));
            }
        }
    }

    let ci_ref = &ci;
    let summary_with = |unplaced: &[&Item], notices: &[String]| {
        let text = markdown::summary(
            result,
            &selected,
            &SummaryExtras {
                walkthrough: Some(&input.result.walkthrough),
                ci: Some(ci_ref),
                notices,
                moved: &moved,
                unplaced,
                not_refound: &not_refound,
                collapse: &input.options.collapse,
            },
        );
        redact(&format!(
            "{text}\n{}\n{}\n",
            markers::SUMMARY,
            markers::round(round, &head)
        ))
    };
    let body = summary_with(&[], &notices);
    let mut fallback_notices = notices.clone();
    fallback_notices.push(format!(
        "GitHub refused the inline comments ({REFUSAL}), so every finding is in this body instead."
    ));
    let fallback_body = summary_with(&inline_items, &fallback_notices);

    let target_pr = format!("{}#{}", pr_slug(&pr), pr.number);
    let action = match (own.posted_round(round, &head), own.summary) {
        (Some(id), summary) => Action::AlreadyPosted {
            review_id: id,
            url: review_url(&pr, id),
            summary_review_id: summary.filter(|s| *s != id),
        },
        (None, None) => Action::CreateReview,
        (None, Some(summary)) => {
            let needs_review = !inline.is_empty() || own.last_event != Some(event);
            Action::EditSummary {
                summary_review_id: summary,
                summary_url: review_url(&pr, summary),
                round_review: needs_review.then(|| {
                    format!(
                        "review-tui round {round} on {}: {} — the summary is [here]({}).\n\n{}\n",
                        short(&head),
                        markdown::headline(result).1,
                        review_url(&pr, summary),
                        markers::round(round, &head)
                    )
                }),
            }
        }
    };
    let target_url = match &action {
        Action::AlreadyPosted { url, .. } => url.clone(),
        Action::EditSummary { summary_url, .. } => summary_url.clone(),
        _ => pr.html_url.clone(),
    };

    // Rounds a crash left at "publishing": what the forge shows decides.
    let settle = state
        .publishes
        .iter()
        .filter(|p| p.state == PublishState::Publishing)
        .map(|p| {
            let round_head = state
                .rounds
                .iter()
                .find(|r| r.number == p.round)
                .map(|r| r.head_sha.as_str())
                .unwrap_or("");
            let found = own
                .posted_round(p.round, round_head)
                .map(|id| (review_url(&pr, id), id));
            (p.round, found)
        })
        .collect();

    Ok(Preview {
        target: Target::Github {
            pr: target_pr,
            url: target_url,
        },
        round,
        head_sha: head,
        decision,
        event,
        intended_event: intended,
        inline_comments: inline,
        already_commented: already,
        moved_to_body: moved,
        resolved_replies,
        body,
        fallback_body,
        notices,
        action,
        settle,
    })
}

fn pr_slug(pr: &PullRequest) -> String {
    // `https://github.com/o/r/pull/7` → `o/r`.
    let path = pr.html_url.split("/pull/").next().unwrap_or(&pr.html_url);
    let parts: Vec<&str> = path.rsplitn(3, '/').collect();
    match parts.as_slice() {
        [repo, owner, ..] => format!("{owner}/{repo}"),
        _ => path.to_string(),
    }
}

/// The parts of a preview a person confirms; any difference means they confirmed something
/// else.
fn differences(confirmed: &Preview, fresh: &Preview) -> Option<String> {
    let fps = |p: &Preview| {
        let mut v: Vec<String> = p
            .inline_comments
            .iter()
            .map(|c| c.fingerprint.clone())
            .collect();
        v.sort();
        v
    };
    let moved = |p: &Preview| {
        let mut v: Vec<String> = p
            .moved_to_body
            .iter()
            .map(|m| m.fingerprint.clone())
            .collect();
        v.sort();
        v
    };
    let replies = |p: &Preview| {
        let mut v: Vec<u64> = p.resolved_replies.iter().map(|r| r.comment_id).collect();
        v.sort();
        v
    };
    let kind = |a: &Action| std::mem::discriminant(a);
    if confirmed.head_sha != fresh.head_sha {
        Some("the head".into())
    } else if confirmed.round != fresh.round {
        Some("the round".into())
    } else if confirmed.event != fresh.event {
        Some(format!("the event is now {}", fresh.event))
    } else if fps(confirmed) != fps(fresh) {
        Some("the inline comments".into())
    } else if moved(confirmed) != moved(fresh) {
        Some("the findings moved into the body".into())
    } else if replies(confirmed) != replies(fresh) {
        Some("the comments to mark resolved".into())
    } else if kind(&confirmed.action) != kind(&fresh.action) {
        Some("whether the summary is created, edited or already there".into())
    } else {
        None
    }
}

pub(super) async fn publish(
    forge: &dyn Forge,
    space: &mut Space,
    input: &PublishInput<'_>,
    confirmed: &Preview,
) -> Result<Published, PublishError> {
    let round = input.result.round;
    if let Some(done) = space
        .state()
        .publishes
        .iter()
        .find(|p| p.round == round && p.state == PublishState::Published)
    {
        return Err(PublishError::AlreadyPublished {
            round,
            target: done.target.clone(),
        });
    }
    let fresh = plan(forge, space.state(), input).await?;
    if let Some(what) = differences(confirmed, &fresh) {
        return Err(PublishError::PreviewChanged { what });
    }

    // Settle crashed rounds first: found on the forge → published there; not found → the
    // stuck record goes and the round may be posted.
    let at = now();
    for (stuck, found) in &fresh.settle {
        let found = found
            .as_ref()
            .map(|(url, id)| (url.clone(), id.to_string()));
        space.update(|state| {
            state
                .settle_publish(
                    *stuck,
                    found.as_ref().map(|(u, i)| (u.as_str(), i.as_str())),
                    &at,
                )
                .map_err(PublishError::from)
        })?;
    }

    if let Action::AlreadyPosted {
        review_id,
        url,
        summary_review_id,
    } = &fresh.action
    {
        // Posted by a run that did not live to record it: record it, finish the idempotent
        // steps (summary edit, checked replies) it may have missed, and say where it is.
        let id = review_id.to_string();
        space.update(|state| {
            state
                .settle_publish(round, Some((url.as_str(), id.as_str())), &at)
                .map_err(PublishError::from)
        })?;
        if let Some(summary) = summary_review_id {
            forge
                .update_review(*summary, &fresh.body)
                .await
                .map_err(PublishError::forge("editing the summary review"))?;
        }
        reply_resolved(forge, &fresh).await?;
        return Err(PublishError::AlreadyPublished {
            round,
            target: url.clone(),
        });
    }

    let target = fresh.target.to_string();
    space.update(|state| {
        state
            .begin_publish(&target, &at)
            .map_err(PublishError::from)
    })?;

    let comments: Vec<_> = fresh
        .inline_comments
        .iter()
        .map(|c| c.comment.clone())
        .collect();
    let mut outcome = Published {
        round,
        target: String::new(),
        review_id: None,
        event: fresh.event,
        inline_comments: comments.len(),
        resent_without_inline: None,
        summary_edited: false,
        resolved_replies: 0,
        moved_to_body: fresh.moved_to_body.len(),
    };
    let mut summary_body = fresh.body.clone();
    match &fresh.action {
        Action::CreateReview => {
            let review = NewReview {
                commit_id: fresh.head_sha.clone(),
                event: fresh.event,
                body: fresh.body.clone(),
                comments,
            };
            let (posted, refusal) = submit(
                forge,
                space,
                review,
                &fresh.fallback_body,
                "submitting the review",
            )
            .await?;
            outcome.resent_without_inline = refusal;
            outcome.review_id = Some(posted.id);
            outcome.target = posted.html_url;
        }
        Action::EditSummary {
            summary_review_id,
            summary_url,
            round_review,
        } => {
            if let Some(one_line) = round_review {
                let review = NewReview {
                    commit_id: fresh.head_sha.clone(),
                    event: fresh.event,
                    body: redact(one_line),
                    comments,
                };
                let fallback = format!(
                    "{}\n\nGitHub refused the inline comments ({REFUSAL}); every finding is in the summary.\n",
                    redact(one_line).trim_end()
                );
                let (posted, refusal) = submit(
                    forge,
                    space,
                    review,
                    &fallback,
                    "submitting this round's review",
                )
                .await?;
                if let Some(message) = &refusal {
                    summary_body = fresh.fallback_body.replace(REFUSAL, message);
                }
                outcome.resent_without_inline = refusal;
                outcome.review_id = Some(posted.id);
                outcome.target = posted.html_url;
            } else {
                outcome.inline_comments = 0;
                outcome.target = summary_url.clone();
            }
            forge
                .update_review(*summary_review_id, &summary_body)
                .await
                .map_err(|e| after_post(e, "editing the summary review", outcome.review_id))?;
            outcome.summary_edited = true;
            outcome.review_id.get_or_insert(*summary_review_id);
        }
        Action::AlreadyPosted { .. } | Action::WriteFiles => {
            unreachable!("handled above / local only")
        }
    }
    outcome.resolved_replies = reply_resolved(forge, &fresh)
        .await
        .map_err(|e| match e {
            PublishError::Forge { doing, source, .. } => PublishError::Forge {
                doing,
                source,
                after: Some(
                    "the review is posted; running again finds its marker and sends the missing replies"
                        .into(),
                ),
            },
            other => other,
        })?;
    let id = outcome.review_id.map(|id| id.to_string());
    space.update(|state| {
        state
            .finish_publish(id.as_deref(), &now())
            .map_err(PublishError::from)
    })?;
    Ok(outcome)
}

/// Submits a review; on a 422 with inline comments, resends it once with no comments and the
/// fallback body (every finding in it). Other failures: a definite refusal removes the
/// "publishing" record (nothing was created); anything in doubt keeps it, so a re-run looks
/// for the marker before posting.
async fn submit(
    forge: &dyn Forge,
    space: &mut Space,
    review: NewReview,
    fallback_body: &str,
    doing: &'static str,
) -> Result<(crate::pr::forge::PostedReview, Option<String>), PublishError> {
    let had_comments = !review.comments.is_empty();
    let first = forge.create_review(&review).await;
    let message = match first {
        Ok(posted) => return Ok((posted, None)),
        Err(ForgeError::Github(crate::pr::github::GithubError::Status {
            status: 422,
            message,
            ..
        })) if had_comments => format!("422: {message}"),
        Err(e) => return Err(failed_post(space, e, doing)),
    };
    let resend = NewReview {
        body: redact(&fallback_body.replace(REFUSAL, &message)),
        comments: Vec::new(),
        ..review
    };
    match forge.create_review(&resend).await {
        Ok(posted) => Ok((posted, Some(message))),
        Err(e) => Err(failed_post(
            space,
            e,
            "resending the review with every finding in the body",
        )),
    }
}

fn failed_post(space: &mut Space, error: ForgeError, doing: &'static str) -> PublishError {
    let definite = matches!(
        &error,
        ForgeError::Github(crate::pr::github::GithubError::Status { status, .. }) if (400..500).contains(status)
    ) || matches!(
        &error,
        ForgeError::Github(
            crate::pr::github::GithubError::NotFound { .. }
                | crate::pr::github::GithubError::Unauthorized { .. }
                | crate::pr::github::GithubError::AuthenticationRequired { .. }
                | crate::pr::github::GithubError::RateLimited { .. }
        )
    );
    let after = if definite {
        let round = space.state().current_round().map_or(0, |r| r.number);
        let cleared = space.update(|state| {
            state
                .settle_publish(round, None, &now())
                .map_err(PublishError::from)
        });
        match cleared {
            Ok(()) => "nothing was posted".to_string(),
            Err(e) => format!("nothing was posted, but the space could not record that: {e}"),
        }
    } else {
        "the review may or may not have been created; the round stays recorded as being published, and running again looks for its marker on the pull request before posting anything".to_string()
    };
    PublishError::Forge {
        doing,
        source: error,
        after: Some(after),
    }
}

fn after_post(error: ForgeError, doing: &'static str, review: Option<u64>) -> PublishError {
    PublishError::Forge {
        doing,
        source: error,
        after: Some(match review {
            Some(id) => format!(
                "review {id} is posted; running again finds its marker and finishes the summary edit"
            ),
            None => "running again finishes the summary edit".into(),
        }),
    }
}

/// Sends the "Resolved" replies not sent yet; returns how many were sent.
async fn reply_resolved(forge: &dyn Forge, fresh: &Preview) -> Result<usize, PublishError> {
    for reply in &fresh.resolved_replies {
        forge
            .reply_to_comment(reply.comment_id, &redact(&reply.body))
            .await
            .map_err(PublishError::forge(
                "replying \"Resolved\" to an earlier comment",
            ))?;
    }
    Ok(fresh.resolved_replies.len())
}
