//! A person's reclassification of a finding: another priority and kind, with the reason, kept in
//! the finding's history so it can be undone and carried into later rounds.
//!
//! The history entry is a transition that keeps the status, whose reason reads
//! `reclassified from P0 bug to P2 suggestion: why`. Spaces written before the target was named
//! hold `reclassified from P0 bug: why`; the node's own priority and kind are then the target.

use super::node::{Actor, Kind, Priority, ReviewNode, Transition};

/// The marker that starts a reclassification's reason in a node's history.
const RECLASSIFIED: &str = "reclassified from ";

/// A priority and kind: what a reclassification changes.
pub(crate) type Class = (Priority, Kind);

/// A person's reclassification read back from a history entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Reclassification {
    pub from: Class,
    /// `None` in entries written before the target was recorded.
    pub to: Option<Class>,
}

/// Gives `node` another priority and kind as `by`, recording what it had and what it has now in
/// its history.
pub(crate) fn reclassify(
    node: &mut ReviewNode,
    (priority, kind): Class,
    reason: &str,
    by: Actor,
    at: &str,
) {
    let from = format!("{} {}", node.priority, node.kind.as_str());
    node.priority = priority;
    node.kind = kind;
    node.history.push(Transition {
        from: node.status,
        to: node.status,
        by,
        at: at.to_string(),
        reason: Some(format!(
            "{RECLASSIFIED}{from} to {priority} {}: {reason}",
            kind.as_str()
        )),
        counted: None,
    });
}

/// The reclassification a history entry records, if it records one. Only an entry that keeps
/// the status is one: a dismissal's reason is someone else's text (a model's withdrawal the
/// person accepted) and may read like a reclassification without being one.
pub(crate) fn read(transition: &Transition) -> Option<Reclassification> {
    if transition.from != transition.to {
        return None;
    }
    let rest = transition.reason.as_deref()?.strip_prefix(RECLASSIFIED)?;
    let head = rest.split_once(':').map_or(rest, |(head, _)| head);
    let words: Vec<&str> = head.split_whitespace().collect();
    let class = |p: &str, k: &str| -> Option<Class> {
        let kind = Kind::ALL.into_iter().find(|x| x.as_str() == k)?;
        Some((Priority::parse(p)?, kind))
    };
    match words.as_slice() {
        [p, k] => Some(Reclassification {
            from: class(p, k)?,
            to: None,
        }),
        [p, k, "to", p2, k2] => Some(Reclassification {
            from: class(p, k)?,
            to: Some(class(p2, k2)?),
        }),
        _ => None,
    }
}

/// The priority and kind a node had before its last reclassification.
pub(crate) fn before(node: &ReviewNode) -> Option<Class> {
    node.history.iter().rev().find_map(read).map(|r| r.from)
}

/// The person's last reclassification of `old`, with its target: the recorded one, or for
/// entries without it `old`'s own class. `None` when no person reclassified it.
pub(crate) fn last_by_person(old: &ReviewNode) -> Option<(Class, Class, &Transition)> {
    let transition = old
        .history
        .iter()
        .rev()
        .filter(|t| matches!(t.by, Actor::Person(_)))
        .find(|t| read(t).is_some())?;
    let r = read(transition)?;
    Some((r.from, r.to.unwrap_or((old.priority, old.kind)), transition))
}

/// Whether a person's reclassification `from → to` applies to a re-report found at `found`:
/// raising always does (more caution); lowering does only onto a report no more severe than the
/// one the person lowered. A re-report more severe than what the person saw is a claim they
/// have not judged, and nothing but a person takes a blocking finding out of the verdict.
pub(crate) fn applies(from: Class, to: Class, found: Priority) -> bool {
    to.0 <= from.0 || found >= from.0
}
