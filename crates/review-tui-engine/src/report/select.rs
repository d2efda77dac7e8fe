//! Which findings a round publishes, and how each one is presented: one entry per problem
//! (demoted duplicates are folded into their primary, naming every source), blocking problems
//! apart from observations, and the `presentation.collapse` preference applied.

use serde::{Deserialize, Serialize};

use crate::review::node::{Priority, ReviewNode, Severity};
use crate::session::snapshot::RoundSnapshot;

/// Which open findings are published.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Selection {
    /// Every open and consensus-ready finding (resolved and dismissed never are).
    #[default]
    AllOpen,
    /// Only findings a peer confirmed, checked again here from the confirmations themselves.
    ConsensusOnly,
}

/// One problem as published.
#[derive(Debug, Clone, PartialEq)]
pub struct Item {
    /// The problem's primary node.
    pub node: ReviewNode,
    /// Every reviewer that reported it, primary first.
    pub found_by: Vec<String>,
    /// (reviewer, evidence) from each report.
    pub evidence: Vec<(String, String)>,
    /// How many reports were folded into this one.
    pub reports: usize,
    /// In scope and serious enough to hold the merge: listed under "Fix before merge".
    pub blocking: bool,
    /// Folded into one line by `presentation.collapse` (never a blocking problem).
    pub collapsed: bool,
    /// The comment text the person wrote for this finding (`e` in the cockpit): posted in
    /// place of the generated title, body and fields.
    pub edited: Option<String>,
}

impl Item {
    pub fn fingerprint(&self) -> &str {
        &self.node.fingerprint
    }
}

/// The published problems, and what the selection left out (so the body can say so).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Selected {
    pub items: Vec<Item>,
    /// Problems left out by `ConsensusOnly`, as `path:line title`.
    pub left_out: Vec<String>,
}

/// Serious enough to hold the merge: the findings the verdict's Block and Hold rules read.
pub fn is_blocking(node: &ReviewNode) -> bool {
    node.in_scope() && (node.priority <= Priority::P1 || !node.triage.category.is_known())
}

pub fn select(result: &RoundSnapshot, selection: Selection, collapse: &[Severity]) -> Selected {
    let nodes = &result.board.nodes;
    let mut selected = Selected::default();
    for node in nodes
        .iter()
        .filter(|n| n.status.is_active() && n.duplicate_of.is_none())
    {
        let problem = result.problems.iter().find(|p| p.primary == node.id);
        let members: Vec<&ReviewNode> = match problem {
            Some(p) => p
                .members
                .iter()
                .filter_map(|id| nodes.iter().find(|n| n.id == *id))
                .collect(),
            None => vec![node],
        };
        // The consensus rule is re-checked from the confirmations, not from the status label:
        // a node marked consensus-ready without a peer's confirmation is not consensus.
        if selection == Selection::ConsensusOnly
            && !members.iter().any(|m| m.has_peer_confirmation())
        {
            selected
                .left_out
                .push(format!("{} {}", node.location(), node.text.title));
            continue;
        }
        let blocking = members.iter().any(|m| is_blocking(m));
        let (found_by, evidence) = match problem {
            Some(p) => (p.found_by.clone(), p.evidence.clone()),
            None => (
                vec![node.origin.reviewer.clone()],
                if node.text.evidence.trim().is_empty() {
                    Vec::new()
                } else {
                    vec![(node.origin.reviewer.clone(), node.text.evidence.clone())]
                },
            ),
        };
        selected.items.push(Item {
            node: node.clone(),
            found_by,
            evidence,
            reports: members.len(),
            blocking,
            collapsed: !blocking && collapse.contains(&node.triage.severity),
            // The primary's edit, else one made on a report folded into it.
            edited: std::iter::once(node)
                .chain(members.iter().copied())
                .find_map(|m| result.comment(&m.id))
                .map(str::to_string),
        });
    }
    selected.items.sort_by(|a, b| {
        (!a.blocking, a.node.priority, a.node.location()).cmp(&(
            !b.blocking,
            b.node.priority,
            b.node.location(),
        ))
    });
    selected
}
