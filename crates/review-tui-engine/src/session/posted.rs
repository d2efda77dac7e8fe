//! What a publish was made from, so a later change by the person is seen: the decision and a
//! digest of the triage the posted text reads (each finding's status and where it is folded,
//! the person's comments, the level). The session notes it when a publish is done; the
//! cockpit compares it with what is on screen now and says when they differ.

use std::collections::{BTreeMap, BTreeSet};

use sha2::{Digest, Sha256};

use crate::review::node::ReviewNode;
use crate::review::{Decision, Level};
use crate::space::state::Posted;

/// The digest of what the posted text is made from, in a stable order (by finding id):
/// with the findings the person chose to post though already raised in a thread (`included`,
/// by fingerprint; none hashes as before they existed).
pub fn triage_digest(
    nodes: &[ReviewNode],
    comments: &BTreeMap<String, String>,
    level: Level,
    included: &BTreeSet<String>,
) -> String {
    let mut hasher = Sha256::new();
    let mut ordered: Vec<&ReviewNode> = nodes.iter().collect();
    ordered.sort_by(|a, b| a.id.cmp(&b.id));
    for node in ordered {
        // Lengths first, so no two different lists of fields hash alike.
        for field in [
            node.id.as_str(),
            node.status.as_str(),
            node.duplicate_of.as_deref().unwrap_or(""),
        ] {
            hasher.update((field.len() as u64).to_le_bytes());
            hasher.update(field.as_bytes());
        }
    }
    for (id, text) in comments {
        for field in [id, text] {
            hasher.update((field.len() as u64).to_le_bytes());
            hasher.update(field.as_bytes());
        }
    }
    hasher.update(level.as_str().as_bytes());
    for fingerprint in included {
        hasher.update(b"include");
        hasher.update((fingerprint.len() as u64).to_le_bytes());
        hasher.update(fingerprint.as_bytes());
    }
    let digest = hasher.finalize();
    digest.iter().map(|b| format!("{b:02x}")).collect()
}

/// What a publish of `decision` over this triage posted.
pub fn posted(
    decision: Decision,
    nodes: &[ReviewNode],
    comments: &BTreeMap<String, String>,
    level: Level,
    included: &BTreeSet<String>,
) -> Posted {
    Posted {
        decision,
        triage: triage_digest(nodes, comments, level, included),
    }
}

/// How what is on screen now differs from what was posted: `None` when it does not.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Changed {
    /// The decision by code is another one now.
    Decision { was: Decision, now: Decision },
    /// The decision is the same; the text the triage makes is not.
    Text,
}

pub fn changed(posted: &Posted, now: &Posted) -> Option<Changed> {
    if posted.decision != now.decision {
        Some(Changed::Decision {
            was: posted.decision,
            now: now.decision,
        })
    } else if posted.triage != now.triage {
        Some(Changed::Text)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::review::node::Status;

    fn node(id: &str) -> ReviewNode {
        crate::review::tests::node(id, "qa", crate::review::Priority::P1, 0.9)
    }

    #[test]
    fn a_status_a_comment_or_the_level_changes_the_digest_and_order_does_not() {
        let nodes = vec![node("a"), node("b")];
        let none = BTreeMap::new();
        let no = BTreeSet::new();
        let base = triage_digest(&nodes, &none, Level::Balanced, &no);
        let reversed: Vec<_> = nodes.iter().rev().cloned().collect();
        assert_eq!(triage_digest(&reversed, &none, Level::Balanced, &no), base);
        let mut dismissed = nodes.clone();
        dismissed[0].status = Status::Dismissed;
        assert_ne!(triage_digest(&dismissed, &none, Level::Balanced, &no), base);
        let comments = BTreeMap::from([("a".to_string(), "reworded".to_string())]);
        assert_ne!(triage_digest(&nodes, &comments, Level::Balanced, &no), base);
        assert_ne!(triage_digest(&nodes, &none, Level::Thorough, &no), base);
        // A finding included though already raised posts another text.
        let included = BTreeSet::from(["fp".to_string()]);
        assert_ne!(
            triage_digest(&nodes, &none, Level::Balanced, &included),
            base
        );
    }
}
