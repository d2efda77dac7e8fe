//! Disagreements: where reviewers' opinions diverge is where a person's judgement is worth most,
//! so these are shown above the findings list.

use serde::Serialize;

use super::node::{Actor, Kind, ReviewNode};

#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum DisagreementKind {
    /// Priorities two or more levels apart.
    Priority {
        a: super::node::Priority,
        b: super::node::Priority,
    },
    /// One reviewer calls it a bug, the other a suggestion.
    BugOrSuggestion,
    /// One finding (`a` and `b` both name it) a peer confirmed and another reviewer — the
    /// verifier, say — disputed: nobody but a person settles that.
    ConfirmedAndDisputed {
        confirmed_by: String,
        disputed_by: String,
    },
    /// A finding that holds the merge (P0, P1, unknown category) that a reviewer other than its
    /// author — the verifier refuting it, a peer — disputed and no peer confirmed: it stays
    /// counted until a person decides.
    Disputed { disputed_by: String },
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Disagreement {
    pub a: String,
    pub b: String,
    pub path: String,
    pub kind: DisagreementKind,
}

/// Pairs of active nodes by different reviewers on overlapping lines of the same file and side
/// that disagree on priority (≥ 2 levels) or on bug vs suggestion; then active nodes that a peer
/// confirmed and another reviewer disputed, and active blocking ones a reviewer disputed.
pub fn disagreements(nodes: &[ReviewNode]) -> Vec<Disagreement> {
    let mut found = pairs(nodes);
    for node in nodes.iter().filter(|n| n.status.is_active()) {
        let peer = |s: &&super::node::Stance| !s.by.is_author_of(&node.origin);
        let reviewer = |s: &&super::node::Stance| peer(s) && matches!(s.by, Actor::Reviewer(_));
        let kind = match (
            node.confirmations.iter().find(peer),
            node.disputes.iter().find(peer),
        ) {
            (Some(confirmed), Some(disputed)) => DisagreementKind::ConfirmedAndDisputed {
                confirmed_by: confirmed.by.to_string(),
                disputed_by: disputed.by.to_string(),
            },
            (None, Some(_)) if node.holds_merge() => {
                let Some(disputed) = node.disputes.iter().find(reviewer) else {
                    continue;
                };
                DisagreementKind::Disputed {
                    disputed_by: disputed.by.to_string(),
                }
            }
            _ => continue,
        };
        found.push(Disagreement {
            a: node.id.clone(),
            b: node.id.clone(),
            path: node
                .anchor
                .as_ref()
                .map(|a| a.path.to_string())
                .unwrap_or_default(),
            kind,
        });
    }
    found
}

fn pairs(nodes: &[ReviewNode]) -> Vec<Disagreement> {
    let mut anchored: Vec<&ReviewNode> = nodes
        .iter()
        .filter(|n| n.status.is_active() && n.anchor.is_some())
        .collect();
    anchored.sort_by(|a, b| {
        let (x, y) = (a.anchor.as_ref().unwrap(), b.anchor.as_ref().unwrap());
        // The id breaks ties: the same findings give the same pairs in the same order,
        // whatever order the reviewers reported them in.
        (&x.path, x.side, x.start_line, &a.id).cmp(&(&y.path, y.side, y.start_line, &b.id))
    });
    let mut found = Vec::new();
    for (i, a) in anchored.iter().enumerate() {
        let anchor_a = a.anchor.as_ref().unwrap();
        for b in &anchored[i + 1..] {
            let anchor_b = b.anchor.as_ref().unwrap();
            // Sorted by (path, side, start): once b starts past a's end nothing later overlaps.
            if anchor_b.path != anchor_a.path
                || anchor_b.side != anchor_a.side
                || anchor_b.start_line > anchor_a.end_line
            {
                break;
            }
            if a.origin.reviewer == b.origin.reviewer || !anchor_a.overlaps(anchor_b) {
                continue;
            }
            if let Some(kind) = disagreement_kind(a, b) {
                found.push(Disagreement {
                    a: a.id.clone(),
                    b: b.id.clone(),
                    path: anchor_a.path.to_string(),
                    kind,
                });
            }
        }
    }
    found
}

fn disagreement_kind(a: &ReviewNode, b: &ReviewNode) -> Option<DisagreementKind> {
    if a.priority.level().abs_diff(b.priority.level()) >= 2 {
        return Some(DisagreementKind::Priority {
            a: a.priority,
            b: b.priority,
        });
    }
    let kinds = (a.kind, b.kind);
    if kinds == (Kind::Bug, Kind::Suggestion) || kinds == (Kind::Suggestion, Kind::Bug) {
        return Some(DisagreementKind::BugOrSuggestion);
    }
    None
}
