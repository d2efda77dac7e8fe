//! The one status service. Every status change of a node goes through `apply`, so a status
//! always means the same thing whoever changed it: the cockpit, a reviewer's tool call or the
//! pipeline. The consensus rule is enforced here and checked again by the verdict and the
//! publisher (`ReviewNode::has_peer_confirmation`).

use serde::{Deserialize, Serialize};
use thiserror::Error;

use super::node::{Actor, ReviewNode, Source, Stance, Status, Transition};

/// A requested change.
#[derive(Debug, Clone, PartialEq)]
pub enum Change {
    /// A peer agrees: `open → consensus_ready`.
    Confirm {
        note: String,
    },
    /// A peer disagrees: recorded for the person, the status does not move.
    Dispute {
        note: String,
    },
    Resolve {
        note: Option<String>,
    },
    Dismiss {
        reason: String,
    },
    /// Back to the status the node had before it was resolved or dismissed.
    Reopen,
    /// Take back one's own confirmation: without another peer's, `consensus_ready → open`.
    Withdraw,
}

#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum StatusError {
    #[error("{actor} cannot confirm its own finding {node}: a confirmation must come from a peer")]
    SelfConfirmation { node: String, actor: String },
    #[error("{actor} cannot dispute its own finding {node}")]
    SelfDispute { node: String, actor: String },
    #[error(
        "{actor} cannot {action} {node}: a deterministic reviewer's finding is closed only by a \
         person"
    )]
    PersonOnly {
        node: String,
        actor: String,
        action: &'static str,
    },
    #[error(
        "{actor} cannot {action} {node}: a P0, a P1 or a finding of unknown category is closed \
         only by a person"
    )]
    BlockingPersonOnly {
        node: String,
        actor: String,
        action: &'static str,
    },
    #[error("dismissing {node} needs a reason")]
    MissingReason { node: String },
    #[error("{actor} has not confirmed {node}: there is no confirmation to take back")]
    NotConfirmed { node: String, actor: String },
    #[error("{node} is {from}: cannot {action} it")]
    NotAllowed {
        node: String,
        from: Status,
        action: &'static str,
    },
}

/// A soft, low-confidence memory of a dismissal: a later round shows the same problem as
/// "previously dismissed: <reason>" instead of hiding it. A dismissal is a preference, not a rule.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SuppressionHint {
    pub fingerprint: String,
    pub reason: String,
    pub by: Actor,
    pub at: String,
    pub confidence: f64,
}

/// How much a dismissal hint is trusted: low, because a person dismissing once is not a policy.
pub const SUPPRESSION_CONFIDENCE: f64 = 0.3;

/// What a successful change produced.
#[derive(Debug, Clone, PartialEq)]
pub struct Applied {
    /// The status transition, when the status moved.
    pub transition: Option<Transition>,
    pub suppression: Option<SuppressionHint>,
}

/// Applies `change` by `by` at time `at` (RFC 3339, supplied by the caller: this module does no
/// IO, not even reading the clock).
pub fn apply(
    node: &mut ReviewNode,
    change: Change,
    by: &Actor,
    at: &str,
) -> Result<Applied, StatusError> {
    let from = node.status;
    closing_allowed(node, &change, by)?;
    let (to, reason, suppression) = match change {
        Change::Confirm { note } => confirm(node, note, by, at)?,
        Change::Dispute { note } => dispute(node, note, by, at)?,
        Change::Resolve { note } => {
            if !from.is_active() {
                return Err(not_allowed(node, "resolve"));
            }
            (Status::Resolved, note, None)
        }
        Change::Dismiss { reason } => dismiss(node, reason, by, at)?,
        Change::Withdraw => withdraw(node, by)?,
        Change::Reopen => {
            if from.is_active() {
                return Err(not_allowed(node, "reopen"));
            }
            (status_before_closing(node), None, None)
        }
    };
    if to == from {
        return Ok(Applied {
            transition: None,
            suppression,
        });
    }
    let transition = Transition {
        from,
        to,
        by: by.clone(),
        at: at.to_string(),
        reason,
        counted: (!to.is_active()).then(|| node.counts()),
    };
    node.status = to;
    node.history.push(transition.clone());
    Ok(Applied {
        transition: Some(transition),
        suppression,
    })
}

/// Where a change moves a node: its status, the transition's reason, the dismissal's hint.
/// The node's own status means no transition.
type Move = (Status, Option<String>, Option<SuppressionHint>);

/// The change is not allowed from the node's status.
fn not_allowed(node: &ReviewNode, action: &'static str) -> StatusError {
    StatusError::NotAllowed {
        node: node.id.clone(),
        from: node.status,
        action,
    }
}

/// A rule or a scanner found it from the code itself; no model's word closes it (a model
/// told by the PR that "this key is a test fixture" would otherwise hide the key).
fn closing_allowed(node: &ReviewNode, change: &Change, by: &Actor) -> Result<(), StatusError> {
    let closing = match change {
        Change::Dismiss { .. } => Some("dismiss"),
        Change::Resolve { .. } => Some("resolve"),
        _ => None,
    };
    if let (Some(action), Actor::Reviewer(_)) = (closing, by) {
        if matches!(node.origin.source, Source::Deterministic | Source::Scanner) {
            return Err(StatusError::PersonOnly {
                node: node.id.clone(),
                actor: by.to_string(),
                action,
            });
        }
        // Nor a blocking one, whoever found it: a verifier's refutation is a model's word
        // against a model's word, a disagreement for the person (see `Board`), never a verdict.
        if node.holds_merge() && node.status.is_active() {
            return Err(StatusError::BlockingPersonOnly {
                node: node.id.clone(),
                actor: by.to_string(),
                action,
            });
        }
    }
    Ok(())
}

/// A peer's confirmation: consensus-ready, never by the finding's own author.
fn confirm(node: &mut ReviewNode, note: String, by: &Actor, at: &str) -> Result<Move, StatusError> {
    if by.is_author_of(&node.origin) {
        return Err(StatusError::SelfConfirmation {
            node: node.id.clone(),
            actor: by.to_string(),
        });
    }
    if !node.status.is_active() {
        return Err(not_allowed(node, "confirm"));
    }
    // One peer is one confirmation, however often it says so: consensus counts
    // people and reviewers, not key presses.
    if node.confirmations.iter().any(|s| &s.by == by) {
        return Ok((node.status, None, None));
    }
    node.confirmations.push(Stance {
        by: by.clone(),
        note,
        at: at.to_string(),
    });
    Ok((Status::ConsensusReady, None, None))
}

/// A peer's dispute: recorded, the status unchanged; never by the finding's own author.
fn dispute(node: &mut ReviewNode, note: String, by: &Actor, at: &str) -> Result<Move, StatusError> {
    if by.is_author_of(&node.origin) {
        return Err(StatusError::SelfDispute {
            node: node.id.clone(),
            actor: by.to_string(),
        });
    }
    if !node.status.is_active() {
        return Err(not_allowed(node, "dispute"));
    }
    node.disputes.push(Stance {
        by: by.clone(),
        note,
        at: at.to_string(),
    });
    Ok((node.status, None, None))
}

/// A dismissal, with its reason; a fingerprinted finding leaves a suppression hint.
fn dismiss(node: &ReviewNode, reason: String, by: &Actor, at: &str) -> Result<Move, StatusError> {
    let reason = reason.trim().to_string();
    if reason.is_empty() {
        return Err(StatusError::MissingReason {
            node: node.id.clone(),
        });
    }
    if !node.status.is_active() {
        return Err(not_allowed(node, "dismiss"));
    }
    let hint = (!node.fingerprint.is_empty()).then(|| SuppressionHint {
        fingerprint: node.fingerprint.clone(),
        reason: reason.clone(),
        by: by.clone(),
        at: at.to_string(),
        confidence: SUPPRESSION_CONFIDENCE,
    });
    Ok((Status::Dismissed, Some(reason), hint))
}

/// A confirmation taken back: consensus-ready falls back to open when no peer's is left.
fn withdraw(node: &mut ReviewNode, by: &Actor) -> Result<Move, StatusError> {
    let from = node.status;
    if !from.is_active() {
        return Err(not_allowed(node, "withdraw a confirmation of"));
    }
    let before = node.confirmations.len();
    node.confirmations.retain(|s| &s.by != by);
    if node.confirmations.len() == before {
        return Err(StatusError::NotConfirmed {
            node: node.id.clone(),
            actor: by.to_string(),
        });
    }
    let to = if from == Status::ConsensusReady && !node.has_peer_confirmation() {
        Status::Open
    } else {
        from
    };
    Ok((to, None, None))
}

/// The status a closed node returns to: where it was when it was closed, but only
/// consensus-ready if a peer confirmation still backs it.
fn status_before_closing(node: &ReviewNode) -> Status {
    let before = node
        .history
        .iter()
        .rev()
        .find(|t| !t.to.is_active())
        .map(|t| t.from)
        .unwrap_or(Status::Open);
    if before == Status::ConsensusReady && node.has_peer_confirmation() {
        Status::ConsensusReady
    } else {
        Status::Open
    }
}

/// Marks nodes whose fingerprint an earlier round dismissed. They stay in the list, open.
pub fn apply_suppression_hints(nodes: &mut [ReviewNode], hints: &[SuppressionHint]) {
    for node in nodes.iter_mut() {
        if node.fingerprint.is_empty() {
            continue;
        }
        if let Some(hint) = hints
            .iter()
            .rev()
            .find(|h| h.fingerprint == node.fingerprint)
        {
            node.previously_dismissed = Some(hint.reason.clone());
        }
    }
}
