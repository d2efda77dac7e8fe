//! Carrying a person's decisions into a new run. Findings are re-found every run; what a person
//! decided about a problem (confirmed, resolved, dismissed, the edited comment) belongs to the
//! problem, so it follows the fingerprint, not the node id or the line number.

use std::collections::{BTreeMap, HashMap};

use super::node::ReviewNode;

/// Returns `fresh` with the triage of `previous` nodes carried over by fingerprint: status,
/// confirmations, disputes and history. A fresh node whose fingerprint nobody decided on is
/// returned as found. Nodes without a fingerprint carry nothing (there is nothing stable to
/// match them by).
pub fn carry_over(previous: &[ReviewNode], fresh: Vec<ReviewNode>) -> Vec<ReviewNode> {
    let decided: HashMap<&str, &ReviewNode> = previous
        .iter()
        .filter(|n| {
            !n.fingerprint.is_empty()
                && (!n.history.is_empty() || !n.confirmations.is_empty() || !n.disputes.is_empty())
        })
        .map(|n| (n.fingerprint.as_str(), n))
        .collect();
    fresh
        .into_iter()
        .map(|mut node| {
            if let Some(old) = decided.get(node.fingerprint.as_str()) {
                node.status = old.status;
                node.confirmations = old.confirmations.clone();
                node.disputes = old.disputes.clone();
                node.history = old.history.clone();
            }
            node
        })
        .collect()
}

/// The person's edited comments, keyed by node id, moved onto `fresh`'s ids by fingerprint: the
/// edit belongs to the problem. Edits whose node is gone or has no fingerprint are dropped with
/// it (a later round has nothing to post them on); an edit on a node `fresh` still holds stays.
pub fn carry_comments(
    comments: &BTreeMap<String, String>,
    previous: &[ReviewNode],
    fresh: &[ReviewNode],
) -> BTreeMap<String, String> {
    let by_fingerprint: HashMap<&str, &str> = previous
        .iter()
        .filter(|n| !n.fingerprint.is_empty())
        .filter_map(|n| Some((n.fingerprint.as_str(), comments.get(&n.id)?.as_str())))
        .collect();
    fresh
        .iter()
        .filter_map(|node| {
            let text = comments.get(&node.id).map(String::as_str).or_else(|| {
                (!node.fingerprint.is_empty())
                    .then(|| by_fingerprint.get(node.fingerprint.as_str()).copied())
                    .flatten()
            })?;
            Some((node.id.clone(), text.to_string()))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::review::node::{Actor, Priority, Status};
    use crate::review::status::{Change, apply};
    use crate::review::tests::node;

    #[test]
    fn decisions_follow_the_fingerprint_even_when_the_line_moves() {
        let mut dismissed = node("r1-a", "rules", Priority::P2, 1.0);
        dismissed.fingerprint = "fp-a".into();
        apply(
            &mut dismissed,
            Change::Dismiss {
                reason: "generated file".into(),
            },
            &Actor::Person("ana".into()),
            "t0",
        )
        .unwrap();
        let mut untouched = node("r1-b", "rules", Priority::P2, 1.0);
        untouched.fingerprint = "fp-b".into();

        let mut again = node("r2-a", "rules", Priority::P2, 1.0);
        again.fingerprint = "fp-a".into();
        again.anchor.as_mut().unwrap().start_line = 40;
        let mut other = node("r2-b", "rules", Priority::P2, 1.0);
        other.fingerprint = "fp-b".into();
        let mut new = node("r2-c", "rules", Priority::P2, 1.0);
        new.fingerprint = "fp-c".into();

        let carried = carry_over(&[dismissed, untouched], vec![again, other, new]);
        assert_eq!(carried[0].status, Status::Dismissed);
        assert_eq!(carried[0].history.len(), 1);
        assert_eq!(carried[0].anchor.as_ref().unwrap().start_line, 40);
        assert_eq!(carried[1].status, Status::Open);
        assert_eq!(carried[2].status, Status::Open);
    }

    #[test]
    fn an_edited_comment_follows_its_finding_into_the_next_round() {
        let mut first = node("r1-a", "rules", Priority::P2, 1.0);
        first.fingerprint = "fp-a".into();
        let mut gone = node("r1-b", "rules", Priority::P2, 1.0);
        gone.fingerprint = "fp-b".into();
        let comments: BTreeMap<String, String> = [
            ("r1-a".to_string(), "say it kindly".to_string()),
            ("r1-b".to_string(), "no longer found".to_string()),
        ]
        .into();
        let mut again = node("r2-a", "rules", Priority::P2, 1.0);
        again.fingerprint = "fp-a".into();
        let new = node("r2-c", "rules", Priority::P2, 1.0);
        let carried = carry_comments(&comments, &[first, gone], &[again, new]);
        assert_eq!(
            carried,
            [("r2-a".to_string(), "say it kindly".to_string())].into()
        );
    }
}
