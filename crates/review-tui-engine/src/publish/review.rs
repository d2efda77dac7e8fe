//! Publishing to a forge that takes reviews (GitHub, GitLab, Gitea), through the forge port:
//! plan from what the forge shows now, then post in the order that keeps every step checkable
//! on a re-run. Every forge's refusals arrive here as the port's neutral kinds
//! ([`Refusal`]); nothing here knows which forge it talks to.
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
    Action, Bodies, DOWNGRADE, Dismissal, InlineComment, Preview, PublishError, PublishInput,
    Published, REFUSAL, ResolvedReply, Target, intended_event, now, outgoing,
};
use crate::pr::forge::{
    Forge, ForgeError, ForgeErrorKind, NewReview, PostedReview, PrHistory, Refusal, ReviewEvent,
};
use crate::report::markdown::{self, CiStatus, SummaryExtras};
use crate::review::verdict::Decision;
use crate::space::{PublishState, Space, SpaceState};

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
    /// Our reviews that still stand (APPROVED, CHANGES_REQUESTED): (id, event).
    standing: Vec<(u64, ReviewEvent)>,
    /// Unsubmitted reviews of ours an interrupted publish left (a forge that stages inline
    /// comments as drafts): replaced, never stacked.
    pending: Vec<u64>,
}

impl Own {
    fn read(history: &PrHistory, login: &str) -> Own {
        let mine = |author: &str| author.eq_ignore_ascii_case(login);
        let mut own = Own::default();
        for review in history.reviews.iter().filter(|r| mine(&r.author)) {
            if !markers::is_ours(&review.body) {
                continue;
            }
            if review.state == "PENDING" {
                own.pending.push(review.id);
                continue;
            }
            if own.summary.is_none() && markers::has(&review.body, markers::SUMMARY) {
                own.summary = Some(review.id);
            }
            if let Some(event) = ReviewEvent::from_state(&review.state) {
                own.last_event = Some(event);
                if event != ReviewEvent::Comment {
                    own.standing.push((review.id, event));
                }
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

    /// Our review carrying `marker` (one publish of a round: `markers::revision`).
    fn posted(&self, marker: &str) -> Option<u64> {
        self.reviews
            .iter()
            .find(|(_, body)| markers::has(body, marker))
            .map(|(id, _)| *id)
    }
}

fn short(sha: &str) -> &str {
    &sha[..sha.len().min(10)]
}

/// What publishing `input` would post now, read fresh from the forge: the steps below, each
/// its own function, in the order they depend on each other.
pub(super) async fn plan(
    forge: &dyn Forge,
    state: &SpaceState,
    input: &PublishInput<'_>,
) -> Result<Preview, PublishError> {
    let result = input.result;
    let round = result.round;
    let head = input.head_sha.clone();
    // The round's first publish, or the same round again after the person's triage changed
    // it: each has its own marker, so each is posted once.
    let revision = super::revision(state, result).number;
    let marker = markers::revision(round, &head, revision);
    let read = read(forge, state, input).await?;
    let Read {
        pr,
        login,
        diff,
        history,
        ci,
        own,
        threads,
        notices: read_notices,
    } = &read;

    let decision = result.verdict.decision;
    let intended = intended_event(result, input.options);
    let own_pr = pr.author.eq_ignore_ascii_case(login);
    let event = if own_pr && intended != ReviewEvent::Comment {
        ReviewEvent::Comment
    } else {
        intended
    };
    let mut notices = read_notices.clone();
    notices.extend(super::unread_notice(result, input.options));
    if event != intended {
        notices.push(format!(
            "Intended decision: **{intended}**. {} does not let an account approve or request changes on its own pull request ({} opened it), so this review is posted as a comment.",
            forge.name(),
            crate::report::escape::inline(login)
        ));
    }

    let selected = select::select(result, input.options.selection, &input.options.collapse);
    let placed = place(
        &selected,
        diff,
        own,
        threads,
        login,
        input,
        &state.include_raised,
    );
    let gone = gone(state, history, own, login, input);
    let event = if !gone.unweighed.is_empty() && event == ReviewEvent::Approve {
        notices.push(format!(
            "Not approved: {} blocking finding(s) this tool posted on this pull request earlier are not in this round, which did not weigh them (was it reviewed without {}'s credentials?). Review again with them to carry those findings.",
            gone.unweighed.len(),
            forge.name()
        ));
        ReviewEvent::Comment
    } else {
        event
    };
    let bodies = summary_bodies(
        forge, input, &selected, &placed, &gone, ci, &notices, &marker,
    );
    let body = bodies.plain.clone();

    let review_url = |id: u64| forge.review_url(pr, id);
    let mut round_bodies = None;
    let action = match (own.posted(&marker), own.summary) {
        (Some(id), summary) => Action::AlreadyPosted {
            review_id: id,
            url: review_url(id),
            summary_review_id: summary.filter(|s| *s != id),
        },
        (None, None) => Action::CreateReview,
        (None, Some(summary)) => {
            let needs_review = !placed.inline.is_empty() || own.last_event != Some(event);
            if needs_review {
                let again = if revision > 0 {
                    ", published again after the person's triage"
                } else {
                    ""
                };
                let one_line = format!(
                    "review-tui round {round} on {}{again}: {} — the summary is [here]({}).",
                    short(&head),
                    crate::report::escape::inline(&crate::report::headline::headline(result).1),
                    review_url(summary),
                );
                round_bodies = Some(round_review_bodies(
                    forge.name(),
                    &one_line,
                    &marker,
                    intended,
                ));
            }
            Action::EditSummary {
                summary_review_id: summary,
                summary_url: review_url(summary),
                round_review: round_bodies.as_ref().map(|b| b.plain.clone()),
            }
        }
    };
    let target_url = match &action {
        Action::AlreadyPosted { url, .. } => url.clone(),
        Action::EditSummary { summary_url, .. } => summary_url.clone(),
        _ => pr.html_url.clone(),
    };
    let settle = settle(forge, state, &read);
    let dismissals = dismissals(own, intended, &gone, result, &head);

    Ok(Preview {
        target: Target::Forge {
            forge: forge.name(),
            pr: forge.label(),
            url: target_url,
        },
        round,
        head_sha: head,
        decision,
        event,
        intended_event: intended,
        inline_comments: placed.inline,
        listed_in_body: selected.items.len(),
        already_commented: placed.already,
        already_raised: placed.already_raised,
        moved_to_body: placed.moved,
        resolved_replies: gone.resolved_replies,
        body,
        bodies,
        round_bodies,
        notices,
        action,
        dismissals,
        settle,
        replace_pending: read.own.pending,
    })
}

/// What the forge shows now, read once for a plan.
struct Read {
    pr: crate::pr::forge::PullRequest,
    login: String,
    /// The PR's current diff, which anchors are checked against.
    diff: crate::diff::Diff,
    history: PrHistory,
    ci: CiStatus,
    own: Own,
    /// The PR's review threads (empty when they could not be read: a notice says so).
    threads: Vec<crate::pr::threads::ReviewThread>,
    /// What the reads could not do, said in the summary.
    notices: Vec<String>,
}

/// Reads the PR again (its head must still be the reviewed one, its range unmoved), the
/// publishing login, the current diff, the history, CI and the review threads; refuses a
/// pending review of the login's that is not ours.
async fn read(
    forge: &dyn Forge,
    state: &SpaceState,
    input: &PublishInput<'_>,
) -> Result<Read, PublishError> {
    let head = input.head_sha;
    // Never wrong: a review is only posted on the head it reviewed.
    let pr = forge
        .pull_request()
        .await
        .map_err(PublishError::forge("reading the pull request again"))?;
    if pr.head.sha != *head {
        return Err(PublishError::HeadMoved {
            reviewed: head.clone(),
            current: pr.head.sha.clone(),
        });
    }
    let reviewed = state.rounds.iter().find(|r| r.number == input.result.round);
    super::range::unmoved(forge, reviewed, &pr).await?;
    let login = forge
        .authenticated_user()
        .await
        .map_err(PublishError::forge("reading the authenticated user"))?
        .ok_or(PublishError::NoLogin {
            forge: forge.name(),
            hint: forge.token_hint(),
        })?;
    let (diff, diff_notice) = current_diff(forge).await?;
    let mut notices: Vec<String> = diff_notice.into_iter().collect();
    let history = forge.history().await.map_err(PublishError::forge(
        "reading the pull request's reviews and comments",
    ))?;
    let ci = match forge.check_runs(head).await {
        Ok(runs) => CiStatus::Reported(runs),
        Err(e) => CiStatus::NotVerified(format!("the check runs could not be read ({e})")),
    };
    let own = Own::read(&history, &login);
    // The threads people hold, for the findings they already raised; unread, nothing is
    // left out (and the preview says why).
    let threads = match forge.review_threads().await {
        Ok(threads) => threads,
        Err(e) => {
            notices.push(format!(
                "The pull request's review threads could not be read ({}), so findings already raised in them may be repeated.",
                crate::report::escape::prose(&e.to_string())
            ));
            Vec::new()
        }
    };
    // A forge takes one pending (unsubmitted) review per account and pull request, and shows
    // it only to its author: found here, it would refuse our review (or, where pending comments
    // are published together, go out with it). Ours, left by an interrupted publish, are
    // replaced instead.
    if let Some(pending) = history.reviews.iter().find(|r| {
        r.state == "PENDING"
            && r.author.eq_ignore_ascii_case(&login)
            && !own.pending.contains(&r.id)
    }) {
        return Err(PublishError::PendingReview {
            forge: forge.name(),
            login,
            review_id: pending.id,
        });
    }
    Ok(Read {
        pr,
        login,
        diff,
        history,
        ci,
        own,
        threads,
        notices,
    })
}

/// Where each selected finding goes: inline, already commented by an earlier round, already
/// raised in someone's open thread, or into the body (its line left the diff).
#[derive(Default)]
struct Placed<'a> {
    inline: Vec<InlineComment>,
    inline_items: Vec<&'a Item>,
    already: Vec<String>,
    already_raised: Vec<super::raised::RaisedFinding>,
    moved: Vec<MovedFinding>,
}

fn place<'a>(
    selected: &'a select::Selected,
    diff: &crate::diff::Diff,
    own: &Own,
    threads: &[crate::pr::threads::ReviewThread],
    login: &str,
    input: &PublishInput<'_>,
    included: &std::collections::BTreeSet<String>,
) -> Placed<'a> {
    let mut placed = Placed::default();
    for item in selected
        .items
        .iter()
        .filter(|i| i.node.anchor.is_some() && i.node.in_scope() && !i.collapsed)
    {
        match comment::place(item, diff) {
            Ok(placement) => {
                if item.node.prints().any(|fp| own.commented.contains_key(fp)) {
                    // Commented by an earlier round, even if its line moved: not repeated,
                    // still counted and still in the body.
                    (placed.already).push(format!(
                        "{} {}",
                        item.node.location(),
                        item.node.text.title
                    ));
                    continue;
                }
                if let Some(thread) = super::raised::raised_by(item, threads, login) {
                    // Someone already said it on these lines: not said twice, unless the
                    // person chose to. It still counts in the verdict and stays in the summary.
                    let fingerprint = item.fingerprint().to_string();
                    let include = input.options.include_raised || included.contains(&fingerprint);
                    placed.already_raised.push(super::raised::RaisedFinding {
                        fingerprint,
                        location: item.node.location(),
                        title: item.node.text.title.clone(),
                        by: thread.author().to_string(),
                        included: include,
                    });
                    if !include {
                        continue;
                    }
                }
                let mut new = comment::new_comment(item, placement);
                new.body = outgoing(&new.body);
                placed.inline.push(InlineComment {
                    fingerprint: item.fingerprint().to_string(),
                    comment: new,
                });
                placed.inline_items.push(item);
            }
            Err(reason) => placed.moved.push(MovedFinding {
                fingerprint: item.fingerprint().to_string(),
                location: item.node.location(),
                title: item.node.text.title.clone(),
                reason: reason.to_string(),
            }),
        }
    }
    placed
}

/// Our earlier comments whose finding is gone (answered "Resolved"), what the summary lists as
/// not re-found, and our blocking comments this round never weighed.
struct Gone {
    resolved_replies: Vec<ResolvedReply>,
    not_refound: Vec<String>,
    /// Fingerprints of blocking comments of ours this round does not hold at all.
    unweighed: Vec<String>,
}

fn gone(
    state: &SpaceState,
    history: &PrHistory,
    own: &Own,
    login: &str,
    input: &PublishInput<'_>,
) -> Gone {
    let result = input.result;
    let head = input.head_sha;
    let round = result.round;
    // Earlier comments whose finding is gone: resolved in this round (by a person, or by the
    // anchor check), or not in it. An Inconclusive round proves nothing gone.
    let found: HashSet<&str> = result
        .board
        .nodes
        .iter()
        .filter(|n| n.status != crate::review::node::Status::Resolved)
        .flat_map(|n| n.prints())
        .collect();
    let known: HashSet<&str> = result.board.nodes.iter().flat_map(|n| n.prints()).collect();
    // A blocking comment of ours that this round does not hold at all was never weighed by
    // it (a round run without knowing our account, say): it is not "gone", and nothing is
    // approved over it.
    // What this space ever recorded counts as weighed: its rounds carried what they owed.
    let recorded: HashSet<&str> = state
        .rounds
        .iter()
        .flat_map(|r| r.fingerprints.iter().map(String::as_str))
        .collect();
    let owed_on_forge = crate::session::own_findings::owed(history, Some(login));
    let unweighed: Vec<String> = own
        .commented
        .keys()
        .filter(|fp| {
            !known.contains(fp.as_str())
                && !recorded.contains(fp.as_str())
                && owed_on_forge.iter().any(|p| &p.node.fingerprint == *fp)
        })
        .cloned()
        .collect();
    let mut resolved_replies = Vec::new();
    let mut not_refound = Vec::new();
    if result.verdict.decision != Decision::Inconclusive {
        let mut gone: Vec<(&String, &(u64, String, String))> = own
            .commented
            .iter()
            .filter(|(fp, (id, _, _))| {
                !found.contains(fp.as_str())
                    && !own.resolved.contains(id)
                    && !unweighed.contains(fp)
            })
            .collect();
        gone.sort_by_key(|(_, (id, _, _))| *id);
        for (fp, (id, location, title)) in gone {
            resolved_replies.push(ResolvedReply {
                comment_id: *id,
                fingerprint: fp.clone(),
                location: location.clone(),
                body: format!(
                    "Resolved in {}: round {round} of review-tui did not find this again.\n\n{}",
                    short(head),
                    markers::resolved(fp)
                ),
            });
            // The location is the PR's path; the title is the first line of our own comment,
            // Markdown we wrote (and only our account's comments are read).
            not_refound.push(format!(
                "{} {}: resolved in {}",
                crate::report::escape::code(location),
                markers::neutralize(title),
                short(head)
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
    Gone {
        resolved_replies,
        not_refound,
        unweighed,
    }
}

/// The summary in the four forms a refusal can call for, ending with the summary marker and
/// this publish's `marker`.
#[allow(clippy::too_many_arguments)]
fn summary_bodies(
    forge: &dyn Forge,
    input: &PublishInput<'_>,
    selected: &select::Selected,
    placed: &Placed<'_>,
    gone: &Gone,
    ci: &CiStatus,
    notices: &[String],
    marker: &str,
) -> Bodies {
    let summary_with = |unplaced: &[&Item], notices: &[String]| {
        let text = markdown::summary(
            input.result,
            selected,
            &SummaryExtras {
                walkthrough: Some(&input.result.walkthrough),
                ci: Some(ci),
                notices,
                moved: &placed.moved,
                unplaced,
                not_refound: &gone.not_refound,
                collapse: &input.options.collapse,
            },
        );
        outgoing(&format!("{text}\n{}\n{marker}\n", markers::SUMMARY))
    };
    let refused_notice = format!(
        "{} refused the inline comments ({REFUSAL}), so every finding is in this body instead.",
        forge.name()
    );
    let comment_notice = downgrade_notice(intended_event(input.result, input.options));
    let with = |extra: &[&String]| {
        let mut all = notices.to_vec();
        all.extend(extra.iter().map(|n| n.to_string()));
        all
    };
    Bodies {
        plain: summary_with(&[], notices),
        without_inline: summary_with(&placed.inline_items, &with(&[&refused_notice])),
        as_comment: summary_with(&[], &with(&[&comment_notice])),
        as_comment_without_inline: summary_with(
            &placed.inline_items,
            &with(&[&comment_notice, &refused_notice]),
        ),
    }
}

/// Publishes a crash left at "publishing" (any round, any revision), and what the forge shows
/// of each: found by its marker, or not.
fn settle(forge: &dyn Forge, state: &SpaceState, read: &Read) -> Vec<super::Settle> {
    state
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
            let found = (read.own)
                .posted(&markers::revision(p.round, round_head, p.revision))
                .map(|id| (forge.review_url(&read.pr, id), id));
            ((p.round, p.revision), found)
        })
        .collect()
}

/// Our earlier APPROVE or REQUEST_CHANGES stands on the forge until dismissed: when this round
/// stands for something else, it goes, naming the round that replaced it.
fn dismissals(
    own: &Own,
    intended: ReviewEvent,
    gone: &Gone,
    result: &crate::session::snapshot::RoundSnapshot,
    head: &crate::commit_id::CommitId,
) -> Vec<Dismissal> {
    own.standing
        .iter()
        .filter(|(_, standing)| *standing != intended)
        // Our earlier REQUEST_CHANGES stands while findings it asked for are not weighed.
        .filter(|(_, standing)| gone.unweighed.is_empty() || *standing == ReviewEvent::Approve)
        .map(|(id, standing)| Dismissal {
            review_id: *id,
            event: *standing,
            message: format!(
                "Superseded by review-tui round {} on {}: {}",
                result.round,
                short(head),
                crate::report::escape::inline(&crate::report::headline::headline(result).1)
            ),
        })
        .collect()
}

/// The forge's current diff of the PR, which anchors are checked against, and a notice when it
/// came from the files API: past 300 files or 20,000 lines the diff media type answers 406.
async fn current_diff(
    forge: &dyn Forge,
) -> Result<(crate::diff::Diff, Option<String>), PublishError> {
    let refused = match forge.diff().await {
        Ok(text) => return Ok((crate::diff::parse(&text)?, None)),
        Err(e) if e.refusal() == Some(Refusal::DiffTooLarge) => e,
        Err(e) => {
            return Err(PublishError::forge(
                "reading the pull request's current diff",
            )(e));
        }
    };
    let files = forge.changed_files().await.map_err(PublishError::forge(
        "listing the pull request's files (the forge refused its diff as too large)",
    ))?;
    let (diff, without_patch) = super::files_diff::diff_from_files(&files)?;
    let reason = refused.reason();
    let mut notice = format!(
        "{} does not show this pull request's diff whole ({}), so inline comments were placed on its list of files",
        forge.name(),
        crate::report::escape::prose(&reason)
    );
    if without_patch > 0 {
        notice.push_str(&format!(
            "; {without_patch} file(s) come without lines there (binary or too large), so their findings are in this body"
        ));
    }
    if files.len() >= super::files_diff::MAX_LISTED_FILES {
        notice.push_str(&format!(
            "; the list stops at {} files, so findings in files past it are in this body",
            super::files_diff::MAX_LISTED_FILES
        ));
    }
    notice.push('.');
    Ok((diff, Some(notice)))
}

/// The line a COMMENT carries when the forge refused the event the decision maps to.
fn downgrade_notice(intended: ReviewEvent) -> String {
    format!(
        "Intended decision: **{intended}**. {DOWNGRADE}, so this review is posted as a comment."
    )
}

/// The one-line review a later round posts, in the forms a refusal can call for; its marker
/// stays last, where markers are read.
fn round_review_bodies(forge: &str, one_line: &str, marker: &str, intended: ReviewEvent) -> Bodies {
    let refused = format!(
        "{forge} refused the inline comments ({REFUSAL}); every finding is in the summary."
    );
    let comment = downgrade_notice(intended);
    let form = |extra: &[&str]| {
        let mut text = one_line.to_string();
        for line in extra {
            text.push_str("\n\n");
            text.push_str(line);
        }
        outgoing(&format!("{text}\n\n{marker}\n"))
    };
    Bodies {
        plain: form(&[]),
        without_inline: form(&[&refused]),
        as_comment: form(&[&comment]),
        as_comment_without_inline: form(&[&comment, &refused]),
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
    let dismissed = |p: &Preview| {
        let mut v: Vec<u64> = p.dismissals.iter().map(|d| d.review_id).collect();
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
    } else if dismissed(confirmed) != dismissed(fresh) {
        Some("the earlier reviews to dismiss".into())
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
    // Published, and nothing changed since: said where it is, nothing posted. (Changed since:
    // the next revision of the round, planned like any publish.)
    let revision = super::revision(space.state(), input.result);
    if let (true, Some(done)) = (revision.unchanged, space.state().published()) {
        return Err(PublishError::AlreadyPublished {
            round,
            target: done.target.clone(),
        });
    }
    let fresh = plan(forge, space.state(), input).await?;
    if let Some(what) = differences(confirmed, &fresh) {
        return Err(PublishError::PreviewChanged { what });
    }

    let at = now();
    settle_crashed(space, &fresh, &at)?;

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
                .settle_publish(
                    (round, revision.number),
                    Some((url.as_str(), id.as_str())),
                    Some(&revision.posted),
                    &at,
                )
                .map_err(PublishError::from)
        })?;
        finish_already_posted(forge, &fresh, *review_id, *summary_review_id).await?;
        return Err(PublishError::AlreadyPublished {
            round,
            target: url.clone(),
        });
    }

    head_unmoved_before_posting(forge, space, &fresh, round).await?;

    let target = fresh.target.to_string();
    space.update(|state| {
        state
            .begin_publish(&target, &at, revision.number, revision.posted.clone())
            .map_err(PublishError::from)
    })?;

    let outcome = post(forge, space, &fresh, round).await?;
    finish_posted(forge, space, &fresh, outcome).await
}

/// Settles crashed rounds first: found on the forge → published there; not found → the stuck
/// record goes and the round may be posted.
fn settle_crashed(space: &mut Space, fresh: &Preview, at: &str) -> Result<(), PublishError> {
    for (stuck, found) in &fresh.settle {
        let found = found
            .as_ref()
            .map(|(url, id)| (url.clone(), id.to_string()));
        space.update(|state| {
            state
                .settle_publish(
                    *stuck,
                    found.as_ref().map(|(u, i)| (u.as_str(), i.as_str())),
                    None,
                    at,
                )
                .map_err(PublishError::from)
        })?;
    }
    Ok(())
}

/// The idempotent steps a run that posted `review_id` but did not live to record it may have
/// missed: the summary edit, the dismissals and the checked replies.
async fn finish_already_posted(
    forge: &dyn Forge,
    fresh: &Preview,
    review_id: u64,
    summary_review_id: Option<u64>,
) -> Result<(), PublishError> {
    if let Some(summary) = summary_review_id {
        forge
            .update_review(summary, &fresh.body)
            .await
            .map_err(PublishError::forge("editing the summary review"))?;
    }
    dismiss_superseded(forge, fresh, Some(review_id)).await?;
    reply_resolved(forge, fresh).await?;
    Ok(())
}

/// The head, once more, right before anything is posted: the reads of the plan take a while,
/// and a review belongs to the head it reviewed. (`commit_id` makes the forge check it as well.)
async fn head_unmoved_before_posting(
    forge: &dyn Forge,
    space: &Space,
    fresh: &Preview,
    round: u32,
) -> Result<(), PublishError> {
    let current = forge.pull_request().await.map_err(PublishError::forge(
        "reading the pull request's head before posting",
    ))?;
    if current.head.sha != fresh.head_sha {
        return Err(PublishError::HeadMoved {
            reviewed: fresh.head_sha.clone(),
            current: current.head.sha.clone(),
        });
    }
    let reviewed = space.state().rounds.iter().find(|r| r.number == round);
    super::range::unmoved(forge, reviewed, &current).await
}

/// Posts the planned review: a new one carrying the summary, or this round's own review and
/// the summary edited in place.
async fn post(
    forge: &dyn Forge,
    space: &mut Space,
    fresh: &Preview,
    round: u32,
) -> Result<Published, PublishError> {
    let comments: Vec<_> = fresh
        .inline_comments
        .iter()
        .map(|c| c.comment.clone())
        .collect();
    let mut outcome = Published {
        forge: forge.name(),
        round,
        target: String::new(),
        review_id: None,
        event: fresh.event,
        inline_comments: comments.len(),
        resent_without_inline: None,
        downgraded: None,
        dismissed: Vec::new(),
        summary_edited: false,
        resolved_replies: 0,
        moved_to_body: fresh.moved_to_body.len(),
    };
    match &fresh.action {
        Action::CreateReview => {
            // The commit the forge places the review on.
            let review = NewReview {
                commit_id: fresh.head_sha.clone(),
                event: fresh.event,
                body: fresh.body.clone(),
                comments,
                replace_pending: fresh.replace_pending.clone(),
                summary: true,
            };
            let submitted =
                submit(forge, space, review, &fresh.bodies, "submitting the review").await?;
            outcome.record(&submitted);
        }
        Action::EditSummary {
            summary_review_id,
            summary_url,
            round_review,
        } => {
            let summary_body = post_round_review(
                forge,
                space,
                fresh,
                round_review.as_deref(),
                comments,
                summary_url,
                &mut outcome,
            )
            .await?;
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
    Ok(outcome)
}

/// A later round's own review, posted only for new inline comments or a changed event; the
/// summary body that goes with what the forge took.
async fn post_round_review(
    forge: &dyn Forge,
    space: &mut Space,
    fresh: &Preview,
    round_review: Option<&str>,
    comments: Vec<crate::pr::forge::NewReviewComment>,
    summary_url: &str,
    outcome: &mut Published,
) -> Result<String, PublishError> {
    let (Some(one_line), Some(bodies)) = (round_review, &fresh.round_bodies) else {
        outcome.inline_comments = 0;
        outcome.target = summary_url.to_string();
        return Ok(fresh.body.clone());
    };
    // The commit the forge places the review on.
    let review = NewReview {
        commit_id: fresh.head_sha.clone(),
        event: fresh.event,
        body: one_line.to_string(),
        comments,
        replace_pending: fresh.replace_pending.clone(),
        summary: false,
    };
    let submitted = submit(
        forge,
        space,
        review,
        bodies,
        "submitting this round's review",
    )
    .await?;
    outcome.record(&submitted);
    Ok(fresh.bodies.pick(
        submitted.refused.as_deref(),
        submitted.comment_note.as_deref(),
    ))
}

/// After the review is posted: the superseded reviews dismissed, the "Resolved" replies sent,
/// and the publish recorded as done.
async fn finish_posted(
    forge: &dyn Forge,
    space: &mut Space,
    fresh: &Preview,
    mut outcome: Published,
) -> Result<Published, PublishError> {
    outcome.dismissed = dismiss_superseded(forge, fresh, outcome.review_id).await?;
    outcome.resolved_replies = reply_resolved(forge, fresh)
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

/// A review that the forge took, and what it refused on the way.
struct Submitted {
    posted: PostedReview,
    /// The forge's reason for refusing the inline comments (they went into the body).
    refused: Option<String>,
    /// The event the forge refused and its reason (posted as a COMMENT instead).
    downgraded: Option<(ReviewEvent, String)>,
    /// What the COMMENT said about the refused event.
    comment_note: Option<String>,
}

impl Published {
    fn record(&mut self, submitted: &Submitted) {
        self.review_id = Some(submitted.posted.id);
        self.target = submitted.posted.html_url.clone();
        self.resent_without_inline = submitted.refused.clone();
        if submitted.refused.is_some() {
            self.inline_comments = 0;
        }
        if let Some((intended, message)) = &submitted.downgraded {
            self.downgraded = Some((*intended, message.clone()));
            self.event = ReviewEvent::Comment;
        }
    }
}

/// Submits a review and acts on the forge's refusal by what it refused (the port's neutral
/// kinds, never a status alone): inline anchors → resent once with every finding in the body;
/// an event the token may not use (Actions approving, one's own PR) → resent once as a COMMENT
/// stating the intended decision. Anything else is reported, not resent. A definite refusal
/// removes the "publishing" record (nothing was created); anything in doubt keeps it, so a
/// re-run looks for the marker before posting.
async fn submit(
    forge: &dyn Forge,
    space: &mut Space,
    mut review: NewReview,
    bodies: &Bodies,
    doing: &'static str,
) -> Result<Submitted, PublishError> {
    let mut refused: Option<String> = None;
    let mut downgraded: Option<(ReviewEvent, String)> = None;
    // What the COMMENT says about the refused event, once there is one.
    let mut comment_note: Option<String> = None;
    let mut doing = doing;
    loop {
        let error = match forge.create_review(&review).await {
            Ok(posted) => {
                return Ok(Submitted {
                    posted,
                    refused,
                    downgraded,
                    comment_note,
                });
            }
            Err(error) => error,
        };
        let kind = error.refusal();
        let reason = error.reason();
        match kind {
            Some(Refusal::Anchor) if !review.comments.is_empty() && refused.is_none() => {
                refused = Some(reason);
                review.comments.clear();
                doing = "resending the review with every finding in the body";
            }
            Some(Refusal::EventNotPermitted | Refusal::OwnPullRequest)
                if review.event != ReviewEvent::Comment && downgraded.is_none() =>
            {
                let why = match error.advice() {
                    Some(advice) => format!("{} refused it (\"{reason}\"): {advice}", forge.name()),
                    None => format!("{} refused it (\"{reason}\")", forge.name()),
                };
                downgraded = Some((review.event, reason));
                comment_note = Some(why);
                review.event = ReviewEvent::Comment;
                doing = "resending the review as a comment";
            }
            // Our `commit_id` is no longer the pull request's: the head was force-pushed
            // after our last read. Nothing was created; the new head is another round.
            Some(Refusal::HeadMoved) => {
                if clear_publishing(space).is_err() {
                    // Reported the general way, which says the space could not record it.
                    return Err(failed_post(space, forge, error, doing));
                }
                let current = match forge.pull_request().await {
                    Ok(pr) => pr.head.sha.to_string(),
                    Err(_) => "a head that could not be read".into(),
                };
                return Err(PublishError::HeadMovedWhilePosting {
                    forge: forge.name(),
                    reviewed: review.commit_id.to_string(),
                    current,
                    said: reason,
                });
            }
            _ => return Err(failed_post(space, forge, error, doing)),
        }
        review.body = bodies.pick(refused.as_deref(), comment_note.as_deref());
    }
}

fn failed_post(
    space: &mut Space,
    forge: &dyn Forge,
    error: ForgeError,
    doing: &'static str,
) -> PublishError {
    // The forge answered and refused: the review was not created. (A broken or missing answer
    // says nothing about whether it was.)
    let definite = matches!(
        error.kind(),
        ForgeErrorKind::Rejected { .. }
            | ForgeErrorKind::NotFound
            | ForgeErrorKind::Auth
            | ForgeErrorKind::RateLimited
    );
    let name = forge.name();
    let advice = match error.refusal() {
        Some(Refusal::PendingReview) => format!(
            " ({name} takes one pending review per account and pull request, and this account holds an unsubmitted one: submit or delete it on the pull request, then publish again)"
        ),
        Some(Refusal::BodyTooLong) => format!(
            " (a body over {name}'s limit; this is a bug in review-tui's size limits, please report it)"
        ),
        Some(Refusal::HeadMoved) => {
            " (the reviewed head is no longer part of the pull request, after a force-push: review the new head)".to_string()
        }
        Some(Refusal::Anchor) => " (resent once already with every finding in the body)".to_string(),
        _ => String::new(),
    };
    let after = if definite {
        match clear_publishing(space) {
            Ok(()) => format!("nothing was posted{advice}; publishing this round again is allowed"),
            Err(e) => {
                format!("nothing was posted{advice}, but the space could not record that: {e}")
            }
        }
    } else {
        "the review may or may not have been created; the round stays recorded as being published, and publishing again looks for its marker on the pull request before posting anything".to_string()
    };
    PublishError::Forge {
        doing,
        source: Box::new(error),
        after: Some(after),
    }
}

/// The forge definitely created nothing: the round's "publishing" record goes, so publishing
/// it again is allowed without a marker check.
fn clear_publishing(space: &mut Space) -> Result<(), PublishError> {
    let round = space.state().current_round().map_or(0, |r| r.number);
    let revision = (space.state().publishes.iter())
        .find(|p| p.round == round && p.state == PublishState::Publishing)
        .map_or(0, |p| p.revision);
    space.update(|state| {
        state
            .settle_publish((round, revision), None, None, &now())
            .map_err(PublishError::from)
    })
}

fn after_post(error: ForgeError, doing: &'static str, review: Option<u64>) -> PublishError {
    PublishError::Forge {
        doing,
        source: Box::new(error),
        after: Some(match review {
            Some(id) => format!(
                "review {id} is posted; running again finds its marker and finishes the summary edit"
            ),
            None => "running again finishes the summary edit".into(),
        }),
    }
}

/// Dismisses our earlier standing reviews this round supersedes; returns them. One the forge
/// already shows as dismissed (a re-run) counts as done.
async fn dismiss_superseded(
    forge: &dyn Forge,
    fresh: &Preview,
    posted: Option<u64>,
) -> Result<Vec<(u64, ReviewEvent)>, PublishError> {
    let mut done = Vec::new();
    for dismissal in &fresh.dismissals {
        match forge
            .dismiss_review(dismissal.review_id, &outgoing(&dismissal.message))
            .await
        {
            Ok(_) => done.push((dismissal.review_id, dismissal.event)),
            Err(e) if e.refusal() == Some(Refusal::AlreadyDone) => {
                done.push((dismissal.review_id, dismissal.event));
            }
            Err(error) => {
                let posted = posted.map_or("this round's review is posted".to_string(), |id| {
                    format!("review {id} is posted")
                });
                return Err(PublishError::Forge {
                    doing: "dismissing an earlier review this round supersedes",
                    source: Box::new(error),
                    after: Some(format!(
                        "{posted}, but our earlier {} (review {}) still stands: dismiss it on the pull request, or publish again to retry",
                        dismissal.event, dismissal.review_id
                    )),
                });
            }
        }
    }
    Ok(done)
}

/// Sends the "Resolved" replies not sent yet; returns how many were sent.
async fn reply_resolved(forge: &dyn Forge, fresh: &Preview) -> Result<usize, PublishError> {
    for reply in &fresh.resolved_replies {
        forge
            .reply_to_comment(reply.comment_id, &outgoing(&reply.body))
            .await
            .map_err(PublishError::forge(
                "replying \"Resolved\" to an earlier comment",
            ))?;
    }
    Ok(fresh.resolved_replies.len())
}
