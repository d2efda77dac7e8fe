//! Table and property tests of the pure review policy.

mod consolidation;
mod disagreements;
mod invariant_props;
mod invariant_rounds;
mod levels;
pub(crate) mod node_props;
mod nodes;
mod status_service;
mod verdict_props;
mod verdict_table;

use crate::review::node::*;
use crate::review::side::Side;

/// A valid model finding by `reviewer`, anchored at `path:line`.
pub(crate) fn node(id: &str, reviewer: &str, priority: Priority, confidence: f64) -> ReviewNode {
    ReviewNode::from_draft(
        id,
        Origin {
            reviewer: reviewer.to_string(),
            source: Source::Model,
        },
        NodeDraft {
            reasoning: "read the retry loop".into(),
            kind: Kind::Bug,
            priority,
            triage: Triage {
                category: Category::Correctness,
                severity: Severity::High,
                effort: Effort::Small,
            },
            rule: None,
            anchor: Some(Anchor {
                path: crate::repo_path::RepoPath::parse("src/retry.rs").unwrap(),
                side: Side::Right,
                start_line: 10,
                end_line: 12,
            }),
            text: NodeText {
                title: format!("finding {id}"),
                body: String::new(),
                evidence: "token is reused".into(),
                impact: "requests fail after expiry".into(),
                verification: "run the expiry test".into(),
            },
            fix: None,
            confidence,
            scope: Scope::InScope,
        },
    )
}

pub(crate) fn at(mut node: ReviewNode, path: &str, start: u32, end: u32) -> ReviewNode {
    node.anchor = Some(Anchor {
        path: crate::repo_path::RepoPath::parse(path).unwrap(),
        side: Side::Right,
        start_line: start,
        end_line: end,
    });
    node
}

pub(crate) fn from_source(mut node: ReviewNode, reviewer: &str, source: Source) -> ReviewNode {
    node.origin = Origin {
        reviewer: reviewer.into(),
        source,
    };
    node
}

pub(crate) const T0: &str = "2026-11-29T10:00:00Z";
