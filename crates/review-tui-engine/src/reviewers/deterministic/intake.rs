//! The one intake of what a PR's author and its commenters wrote: the title, the description,
//! the branch names, the commit messages, the conversation, every review and review comment,
//! and the names of the changed files. Each of these reaches the model reviewers (as context,
//! or as names the tools list), so each passes the same two scans: the prompt-injection scan
//! (text that tries to steer a model is a finding a person sees) and the secret scan (a
//! credential pasted into a comment is a leak, and its value joins the round's redaction, so a
//! model that read it in the description and quotes it back, or meets it again in a comment
//! without the context a rule needs, never sends it on).
//!
//! What this tool itself posted (the reviews, and their inline comments, that the space's
//! publish records name) is left out: it quotes what an earlier round found, and must not be
//! found again. Anything else carrying our hidden markers is scanned like any text: a marker
//! is only a string.

use crate::diff::{Diff, Side};
use crate::pr::forge::{PrHistory, PullRequest};
use crate::review::node::{Priority, ReviewNode, Scope};

use super::injection::{PrText, commit_messages};
use super::scan_input::ScanFile;
use super::secrets::{SecretHit, SecretScanner};

/// A PR with more commits than this has its newest ones read.
const MAX_COMMITS: usize = 250;

/// Every text of the PR its author or a commenter controls, labelled by where it comes from.
/// A label never holds the text itself (a file's name can be the secret). `own_reviews` are
/// the ids of the reviews this tool posted on the PR.
pub fn pr_texts(
    pr: &PullRequest,
    history: &PrHistory,
    diff: &Diff,
    commits: Vec<PrText>,
    own_reviews: &[u64],
) -> Vec<PrText> {
    let mut texts = vec![PrText::new("the PR title", pr.title.as_str())];
    if !pr.body.trim().is_empty() {
        texts.push(PrText::new("the PR description", pr.body.as_str()));
    }
    texts.push(PrText::new(
        "the name of the PR's branch",
        pr.head.ref_name.as_str(),
    ));
    texts.push(PrText::new(
        "the name of the PR's base branch",
        pr.base.ref_name.as_str(),
    ));
    // A local range's description is made of its commit messages: not read twice.
    texts.extend(
        commits
            .into_iter()
            .filter(|commit| !pr.body.contains(commit.text.trim())),
    );
    for comment in &history.issue_comments {
        texts.push(PrText::new(
            format!("conversation comment {} by {}", comment.id, comment.author),
            comment.body.as_str(),
        ));
    }
    for review in &history.reviews {
        if own_reviews.contains(&review.id) || review.body.trim().is_empty() {
            continue;
        }
        texts.push(PrText::new(
            format!("review {} by {}", review.id, review.author),
            review.body.as_str(),
        ));
    }
    for comment in &history.review_comments {
        if comment
            .review_id
            .is_some_and(|id| own_reviews.contains(&id))
        {
            continue;
        }
        texts.push(PrText::new(
            format!("review comment {} by {}", comment.id, comment.author),
            comment.body.as_str(),
        ));
    }
    for file in &diff.files {
        for name in std::iter::once(&file.path).chain(file.old_path.as_ref()) {
            texts.push(PrText::new("the name of a changed file", name.as_str()));
        }
    }
    texts
}

/// The commit messages of `base..head` in the bare `mirror`, for [`pr_texts`]; none when the
/// mirror cannot be read.
pub fn commits(mirror: &std::path::Path, base: &str, head: &str) -> Vec<PrText> {
    git2::Repository::open_bare(mirror)
        .and_then(|repo| commit_messages(&repo, base, head, MAX_COMMITS))
        .unwrap_or_default()
}

/// Each text as the secret scan reads a file: its lines, numbered from 1, under its label.
fn as_files(texts: &[PrText]) -> Vec<ScanFile<'_>> {
    texts
        .iter()
        .map(|text| {
            ScanFile::new(
                &text.source,
                text.text
                    .lines()
                    .enumerate()
                    .map(|(i, line)| (Side::Right, i as u32 + 1, line)),
            )
        })
        .collect()
}

/// The raw values of the secrets in the PR's texts, for the round's redaction
/// ([`SecretScanner::with_known`]); kept in memory only.
pub fn secret_values(texts: &[PrText], scanner: &SecretScanner) -> Vec<String> {
    scanner.known_values(&as_files(texts))
}

/// The secrets in the PR's texts as the secret scan's findings: a credential written into a
/// PR is leaked like one committed (everyone who reads the PR has it), so each is a blocking
/// security finding about this PR, with no line of code to anchor to.
pub fn secret_findings(
    texts: &[PrText],
    scanner: &SecretScanner,
    reviewer: &str,
) -> Vec<ReviewNode> {
    let hits: Vec<SecretHit> = scanner.scan(&as_files(texts));
    super::secrets::to_nodes(&hits, reviewer)
        .into_iter()
        .zip(&hits)
        .map(|(mut node, hit)| {
            node.anchor = None;
            node.scope = Scope::InScope;
            node.priority = Priority::P0;
            node.text.title = format!("Secret in {}: {}", hit.path, hit.label);
            node.text.body = format!(
                "{} It was written into the pull request, where everyone who can read the PR \
                 (and every notification and mirror of it) has it.",
                hit.description
            );
            node.text.verification = format!(
                "Read {} on the pull request; if the credential is live, revoke and rotate it, \
                 and edit the text.",
                hit.path
            );
            node
        })
        .collect()
}
