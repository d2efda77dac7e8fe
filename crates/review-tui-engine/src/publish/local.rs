//! Publishing a local range: the review is written into the review space as `review.md` (the
//! same summary a PR would get) and `review.json` (the same content as data), and the space's
//! publish record makes a second publish of the same round refuse, naming the first.

use std::path::Path;

use serde_json::json;

use super::comment::{self, MovedFinding};
use super::select;
use super::{
    Action, InlineComment, Preview, PublishError, PublishInput, Published, Target, intended_event,
    markers, now, redact,
};
use crate::report::markdown::{self, CiStatus, SummaryExtras};
use crate::space::{Space, SpaceState};

pub(super) const MARKDOWN_FILE: &str = "review.md";
pub(super) const JSON_FILE: &str = "review.json";

pub(super) fn plan(dir: &Path, state: &SpaceState, input: &PublishInput<'_>) -> Preview {
    let result = input.result;
    let selected = select::select(result, input.options.selection, &input.options.collapse);
    let mut inline = Vec::new();
    let mut moved = Vec::new();
    for item in selected
        .items
        .iter()
        .filter(|i| i.node.anchor.is_some() && i.node.in_scope() && !i.collapsed)
    {
        match comment::place(item, input.diff) {
            Ok(placement) => {
                let mut new = comment::new_comment(item, placement);
                new.body = redact(&new.body);
                inline.push(InlineComment {
                    fingerprint: item.fingerprint().to_string(),
                    comment: new,
                });
            }
            Err(reason) => moved.push(MovedFinding {
                fingerprint: item.fingerprint().to_string(),
                location: item.node.location(),
                title: item.node.text.title.clone(),
                reason: reason.to_string(),
            }),
        }
    }
    let not_refound: Vec<String> =
        if result.verdict.decision == crate::review::verdict::Decision::Inconclusive {
            Vec::new()
        } else {
            result
                .delta
                .not_refound
                .iter()
                .map(|fp| format!("finding `{fp}` of the previous round"))
                .collect()
        };
    let ci = CiStatus::NotVerified("a local range has no CI checks to read".into());
    let notices: Vec<String> = super::unread_notice(result, input.options)
        .into_iter()
        .collect();
    let text = markdown::summary(
        result,
        &selected,
        &SummaryExtras {
            walkthrough: Some(&input.result.walkthrough),
            ci: Some(&ci),
            moved: &moved,
            not_refound: &not_refound,
            collapse: &input.options.collapse,
            notices: &notices,
            ..SummaryExtras::default()
        },
    );
    let body = redact(&format!(
        "{text}\n{}\n",
        markers::revision(
            result.round,
            input.head_sha,
            super::revision(state, result).number
        )
    ));
    let event = intended_event(result, input.options);
    Preview {
        target: Target::Local {
            markdown: dir.join(MARKDOWN_FILE),
            json: dir.join(JSON_FILE),
        },
        round: result.round,
        head_sha: input.head_sha.clone(),
        decision: result.verdict.decision,
        event,
        intended_event: event,
        inline_comments: inline,
        listed_in_body: selected.items.len(),
        already_commented: Vec::new(),
        already_raised: Vec::new(),
        moved_to_body: moved,
        resolved_replies: Vec::new(),
        bodies: super::Bodies::same(&body),
        round_bodies: None,
        body,
        notices: Vec::new(),
        action: Action::WriteFiles,
        dismissals: Vec::new(),
        settle: Vec::new(),
        replace_pending: Vec::new(),
    }
}

pub(super) fn publish(
    dir: &Path,
    space: &mut Space,
    input: &PublishInput<'_>,
    confirmed: &Preview,
) -> Result<Published, PublishError> {
    let fresh = plan(dir, space.state(), input);
    if fresh.body != confirmed.body || fresh.inline_comments != confirmed.inline_comments {
        return Err(PublishError::PreviewChanged {
            what: "the report".into(),
        });
    }
    let target = fresh.target.to_string();
    let at = now();
    // The first publish of the round, or the files written again for the person's triage
    // since (refused when nothing changed).
    let revision = super::revision(space.state(), input.result);
    space.update(|state| {
        state
            .begin_publish(&target, &at, revision.number, revision.posted.clone())
            .map_err(PublishError::from)
    })?;
    let markdown_path = dir.join(MARKDOWN_FILE);
    let json_path = dir.join(JSON_FILE);
    let report = json!({
        "round": fresh.round,
        "head_sha": fresh.head_sha,
        "decision": fresh.decision.as_str(),
        "event": fresh.event,
        "facts": crate::report::headline::facts_line(input.result),
        // The findings as data too, so `review-tui evaluate review.json` recomputes the verdict.
        "verdict": crate::report::review::verdict_json(input.result),
        "findings": crate::report::review::findings_json(input.result),
        "reviewers": crate::report::review::reviewers_json(input.result),
        "inline_comments": fresh.inline_comments,
        "moved_to_body": fresh.moved_to_body,
        "body": fresh.body,
    });
    let json_text = serde_json::to_string_pretty(&report).unwrap_or_default() + "\n";
    write_atomically(&markdown_path, &fresh.body)?;
    write_atomically(&json_path, &redact(&json_text))?;
    space.update(|state| {
        state
            .finish_publish(None, &now())
            .map_err(PublishError::from)
    })?;
    Ok(Published {
        forge: "local",
        round: fresh.round,
        target,
        review_id: None,
        event: fresh.event,
        inline_comments: fresh.inline_comments.len(),
        resent_without_inline: None,
        downgraded: None,
        dismissed: Vec::new(),
        summary_edited: false,
        resolved_replies: 0,
        moved_to_body: fresh.moved_to_body.len(),
    })
}

/// Whole or not at all, fsynced: the space's atomic writer.
fn write_atomically(path: &Path, text: &str) -> Result<(), PublishError> {
    crate::space::write_atomically(path, text.as_bytes()).map_err(|source| PublishError::Write {
        path: path.display().to_string(),
        source,
    })
}
