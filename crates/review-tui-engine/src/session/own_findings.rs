//! The blocking findings this tool posted on the PR earlier, rebuilt from the forge. A space
//! keeps its own publish records, but a new space for a PR this tool already reviewed (a CI
//! runner, a colleague's machine with the same account) has none: without this, its first round
//! would not know the P0 it posted last week, a silent model would make it Ship, and the
//! publisher would answer "Resolved" under the P0's comment and approve.
//!
//! A comment is ours only when BOTH hold: the forge says its author is the account the
//! credentials authenticate as, and it ends with our fingerprint marker. Anyone can type a
//! marker: a marked comment by anyone else is a participant's word (context for the models),
//! never a finding of ours, and a "resolved" marker by anyone else resolves nothing. Without
//! credentials we cannot know who we are, so nothing is taken for ours.
//!
//! What is rebuilt is what a round owes (see `review::carry_forward`): our inline comment of a
//! P0 or P1 that we never marked resolved. It enters the round as a carried finding: its anchor
//! is re-checked against the new head (the lines as the commented commit had them), and only
//! a person or a gone anchor takes it out.

use std::collections::HashSet;

use crate::pr::forge::{PrHistory, ReviewComment};
use crate::review::markers;
use crate::review::node::{
    Anchor, CarriedFrom, Category, Effort, Kind, NodeDraft, NodeText, Origin, Priority, ReviewNode,
    Scope, Severity, Source, Triage,
};

/// The prefix of a rebuilt finding's id: `posted-<comment id>`.
pub(crate) const ID_PREFIX: &str = "posted-";

/// Reviewers that run again every round from the code: their silence is a re-check, so what
/// they found is not rebuilt.
const RERUN: [&str; 3] = [
    crate::reviewers::deterministic::rules::REVIEWER,
    crate::reviewers::deterministic::secrets::SECRET_SCAN,
    crate::reviewers::deterministic::injection::REVIEWER,
];

/// One finding of ours, rebuilt: the node (already marked carried) and the commit its
/// comment was posted on, which holds the anchored lines' text.
#[derive(Debug, Clone)]
pub(crate) struct Posted {
    pub node: ReviewNode,
    pub commit: String,
}

/// Our blocking findings on the PR that we never marked resolved, oldest first. `login` is
/// who the credentials authenticate as; `None` gives nothing.
pub(crate) fn owed(history: &PrHistory, login: Option<&str>) -> Vec<Posted> {
    let Some(login) = login.filter(|l| !l.trim().is_empty()) else {
        return Vec::new();
    };
    let mine = |author: &str| author.eq_ignore_ascii_case(login);
    let resolved: HashSet<u64> = history
        .review_comments
        .iter()
        .filter(|c| mine(&c.author) && markers::resolved_in(&c.body).is_some())
        .filter_map(|c| c.in_reply_to)
        .collect();
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    for comment in history
        .review_comments
        .iter()
        .filter(|c| c.in_reply_to.is_none() && mine(&c.author) && !resolved.contains(&c.id))
    {
        let Some(fp) = markers::fingerprint_in(&comment.body) else {
            continue;
        };
        if seen.contains(fp) {
            continue;
        }
        let Some(node) = rebuild(comment, fp, round_of(history, comment, login)) else {
            continue;
        };
        seen.insert(fp.to_string());
        out.push(Posted {
            node,
            commit: comment.original_commit_id.clone(),
        });
    }
    out
}

/// Whether any review or comment on the PR ends with one of our markers (whoever wrote it):
/// only then is it worth asking the forge who we are.
pub(crate) fn any_marked(history: &PrHistory) -> bool {
    history.reviews.iter().any(|r| markers::is_ours(&r.body))
        || history
            .review_comments
            .iter()
            .any(|c| markers::is_ours(&c.body))
        || history
            .issue_comments
            .iter()
            .any(|c| markers::is_ours(&c.body))
}

/// The round our review holding `comment` was posted for (its round marker), else 0.
fn round_of(history: &PrHistory, comment: &ReviewComment, login: &str) -> u32 {
    history
        .reviews
        .iter()
        .filter(|r| Some(r.id) == comment.review_id && r.author.eq_ignore_ascii_case(login))
        .find_map(|r| markers::round_in(&r.body))
        .unwrap_or(0)
}

/// The finding an inline comment of ours stands for, when it is blocking and not one that a
/// reviewer running every round would find again.
fn rebuild(comment: &ReviewComment, fp: &str, round: u32) -> Option<ReviewNode> {
    let (priority, title) = heading(comment.body.lines().next().unwrap_or(""))?;
    if priority > Priority::P1 {
        return None;
    }
    let found_by = footer(&comment.body);
    if !found_by.is_empty() && found_by.iter().all(|name| RERUN.contains(&name.as_str())) {
        return None;
    }
    let end = comment.original_line.or(comment.line);
    let start = comment
        .original_start_line
        .or(comment.start_line)
        .or(end)
        .filter(|s| end.is_some_and(|e| *s <= e));
    let anchor = match (start, end) {
        (Some(start_line), Some(end_line)) => crate::repo_path::RepoPath::parse(&comment.path)
            .ok()
            .map(|path| Anchor {
                path,
                side: comment.side.unwrap_or(crate::diff::Side::Right),
                start_line,
                end_line,
            }),
        _ => None,
    };
    let id = format!("{ID_PREFIX}{}", comment.id);
    let mut node = ReviewNode::from_draft(
        &id,
        Origin {
            reviewer: found_by
                .into_iter()
                .next()
                .unwrap_or_else(|| "review-tui".to_string()),
            source: Source::Model,
        },
        NodeDraft {
            reasoning: String::new(),
            kind: Kind::Bug,
            priority,
            triage: Triage {
                category: Category::Correctness,
                severity: if priority == Priority::P0 {
                    Severity::Critical
                } else {
                    Severity::High
                },
                effort: Effort::Small,
            },
            rule: None,
            anchor,
            text: NodeText {
                title: markers::neutralize(&title),
                body: format!(
                    "Posted by this tool on the pull request in an earlier review (comment {}) and not resolved since; no reviewer of this round reported it again.",
                    comment.id
                ),
                ..NodeText::default()
            },
            fix: None,
            // What the round that found it gave is not on the comment: a blocking finding
            // of unknown confidence holds the merge (Hold), it does not block outright.
            confidence: 0.5,
            scope: Scope::InScope,
        },
    );
    node.fingerprint = fp.to_string();
    node.carried = Some(CarriedFrom {
        round,
        id,
        gone_at: None,
    });
    Some(node)
}

/// `**P0 · title**` (a generated comment) or `**P1**` followed by a rule (a person's edited
/// text): the priority and the title.
fn heading(line: &str) -> Option<(Priority, String)> {
    let rest = line.trim().strip_prefix("**")?;
    let priority = match rest.get(..2)? {
        "P0" => Priority::P0,
        "P1" => Priority::P1,
        "P2" => Priority::P2,
        "P3" => Priority::P3,
        _ => return None,
    };
    let after = &rest[2..];
    let title = match after.strip_prefix(" · ") {
        Some(title) => title.trim_end().trim_end_matches("**").to_string(),
        None if after.starts_with("**") => "finding posted earlier".to_string(),
        None => return None,
    };
    Some((priority, title))
}

/// The reviewers named in the comment's footer (`— review-tui · engineer, qa`).
fn footer(body: &str) -> Vec<String> {
    body.lines()
        .rev()
        .find_map(|line| line.trim().strip_prefix("— review-tui · "))
        .map(|names| {
            names
                .split(", ")
                .map(|n| n.trim().to_string())
                .filter(|n| !n.is_empty())
                .collect()
        })
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pr::forge::Review;

    fn comment(id: u64, author: &str, body: &str, in_reply_to: Option<u64>) -> ReviewComment {
        ReviewComment {
            id,
            review_id: Some(1),
            author: author.into(),
            author_is_bot: false,
            body: body.into(),
            path: "src/lib.rs".into(),
            line: Some(6),
            start_line: None,
            side: Some(crate::diff::Side::Right),
            commit_id: "a".repeat(40),
            original_commit_id: "b".repeat(40),
            original_line: Some(5),
            original_start_line: None,
            in_reply_to,
            created_at: "2026-01-01T00:00:00Z".into(),
            updated_at: "2026-01-01T00:00:00Z".into(),
        }
    }

    fn p0(author: &str, id: u64, fp: &str) -> ReviewComment {
        comment(
            id,
            author,
            &format!(
                "**P0 · port() panics**\n\ntext\n\n— review-tui · engineer\n{}",
                markers::fingerprint(fp)
            ),
            None,
        )
    }

    fn history(comments: Vec<ReviewComment>) -> PrHistory {
        PrHistory {
            reviews: vec![Review {
                id: 1,
                author: "bot".into(),
                author_is_bot: false,
                body: format!("summary\n{}\n", markers::round(3, "abc")),
                state: "COMMENTED".into(),
                commit_id: None,
                submitted_at: None,
            }],
            review_comments: comments,
            issue_comments: Vec::new(),
        }
    }

    #[test]
    fn only_our_accounts_marked_blocking_comments_are_owed() {
        let h = history(vec![
            p0("Bot", 10, "aaaa"),
            p0("mallory", 11, "bbbb"),
            comment(12, "bot", "**P3 · nit**\n<!-- review-tui:fp=cccc -->", None),
        ]);
        let owed = owed(&h, Some("bot"));
        assert_eq!(owed.len(), 1, "{owed:?}");
        let node = &owed[0].node;
        assert_eq!(node.fingerprint, "aaaa");
        assert_eq!(node.priority, Priority::P0);
        assert_eq!(node.text.title, "port() panics");
        assert_eq!(node.origin.reviewer, "engineer");
        assert_eq!(node.anchor.as_ref().unwrap().start_line, 5);
        assert_eq!(node.carried.as_ref().unwrap().round, 3);
        assert_eq!(owed[0].commit, "b".repeat(40));
        assert!(crate::review::carry_forward::owed(node));
        // Without credentials, nothing is ours.
        assert!(super::owed(&h, None).is_empty());
    }

    #[test]
    fn only_our_own_resolved_reply_resolves() {
        let resolved = |author: &str| comment(20, author, &markers::resolved("aaaa"), Some(10));
        let h = history(vec![p0("bot", 10, "aaaa"), resolved("mallory")]);
        assert_eq!(owed(&h, Some("bot")).len(), 1);
        let h = history(vec![p0("bot", 10, "aaaa"), resolved("bot")]);
        assert!(owed(&h, Some("bot")).is_empty());
    }

    mod props {
        use super::*;
        use proptest::prelude::*;

        /// One comment: (author: 0 us, 1 us in another case, 2 mallory), a reply to an
        /// earlier comment (its index), the fingerprint (0..4) and what it is (0 a P0, 1 a P1,
        /// 2 a P3, 3 a "resolved" reply's marker, 4 no marker).
        type Spec = (u8, Option<usize>, u8, u8);

        fn comments(specs: &[Spec]) -> Vec<ReviewComment> {
            specs
                .iter()
                .enumerate()
                .map(|(i, (who, reply, fp, what))| {
                    let author = ["bot", "BOT", "mallory"][*who as usize % 3];
                    let fp = format!("f{fp}");
                    let body = match what % 5 {
                        0 => format!("**P0 · a**\n{}", markers::fingerprint(&fp)),
                        1 => format!("**P1 · b**\n{}", markers::fingerprint(&fp)),
                        2 => format!("**P3 · c**\n{}", markers::fingerprint(&fp)),
                        3 => markers::resolved(&fp),
                        _ => "just words".to_string(),
                    };
                    let parent = reply
                        .map(|r| 100 + (r % (i.max(1))) as u64)
                        .filter(|_| i > 0);
                    comment(100 + i as u64, author, &body, parent)
                })
                .collect()
        }

        proptest! {
            /// Exactly our account's unresolved blocking marked comments are owed: another
            /// account's comments, markers and "resolved" replies neither add nor remove one.
            #[test]
            fn only_our_account_and_our_marker_make_a_finding_owed(
                specs in proptest::collection::vec(
                    (0u8..3, proptest::option::of(0usize..8), 0u8..4, 0u8..5),
                    0..12,
                )
            ) {
                let all = comments(&specs);
                let ours: Vec<ReviewComment> = all
                    .iter()
                    .filter(|c| c.author.eq_ignore_ascii_case("bot"))
                    .cloned()
                    .collect();
                let prints = |list: Vec<ReviewComment>| {
                    owed(&history(list), Some("bot"))
                        .into_iter()
                        .map(|p| p.node.fingerprint)
                        .collect::<Vec<_>>()
                };
                let owed_all = prints(all.clone());
                prop_assert_eq!(&owed_all, &prints(ours.clone()));
                // Every owed one is a top-level blocking comment of ours, never answered
                // "resolved" by us; and every such comment's print is owed.
                for c in ours.iter().filter(|c| c.in_reply_to.is_none()) {
                    let blocking = c.body.starts_with("**P0") || c.body.starts_with("**P1");
                    let answered = ours.iter().any(|r| {
                        r.in_reply_to == Some(c.id) && markers::resolved_in(&r.body).is_some()
                    });
                    let fp = markers::fingerprint_in(&c.body).map(str::to_string);
                    if let (true, false, Some(fp)) = (blocking, answered, fp) {
                        prop_assert!(owed_all.contains(&fp), "{fp} not owed: {owed_all:?}");
                    }
                }
                prop_assert!(owed(&history(all), None).is_empty());
            }
        }
    }

    #[test]
    fn what_a_rule_found_is_found_again_by_the_rule() {
        let body = format!(
            "**P0 · key**\n— review-tui · secret scan\n{}",
            markers::fingerprint("dddd")
        );
        let h = history(vec![comment(30, "bot", &body, None)]);
        assert!(owed(&h, Some("bot")).is_empty());
    }
}
