//! Secret hits as review nodes.
//!
//! The fingerprint hashes the rule, the path and the anchored line(s) *as redacted*. It must be
//! published (hidden markers in comments, SARIF `partialFingerprints`), so it must not be a
//! function of the hidden part of the secret: a 64-bit hash of a line holding a short or
//! low-entropy password could otherwise be brute-forced offline to recover it. The redacted
//! line reveals nothing beyond what the evidence already shows (the first four characters of a
//! long secret, nothing of a short one). The cost: replacing a leaked secret with another of
//! the same prefix on an otherwise identical line keeps the fingerprint, which is right: the
//! problem (a hardcoded credential at that spot) is still present.

use super::scanner::SecretHit;
use crate::diff::Side;
use crate::review::fingerprint::{fingerprint, stamp};
use crate::review::{
    Anchor, Category, Effort, Fix, Kind, NodeDraft, NodeText, Origin, Priority, ReviewNode, Scope,
    Severity, Source, Triage,
};

/// The reviewer name of the built-in scan.
pub const SECRET_SCAN: &str = "secret scan";

impl SecretHit {
    pub fn fingerprint(&self) -> String {
        let lines: Vec<&str> = self.evidence.lines().collect();
        fingerprint(&self.rule, &self.path, &lines)
    }

    pub fn to_draft(&self) -> NodeDraft {
        let added = self.side == Side::Right;
        let shown = if self.redacted.is_empty() {
            String::new()
        } else {
            format!(" ({})", self.redacted)
        };
        NodeDraft {
            reasoning: format!(
                "Rule {} matched {}{shown} at {}:{}.",
                self.rule, self.label, self.path, self.start_line
            ),
            kind: Kind::Bug,
            priority: Priority::P0,
            triage: Triage {
                category: Category::Security,
                severity: Severity::Critical,
                effort: Effort::Small,
            },
            rule: Some(self.rule.clone()),
            anchor: crate::repo_path::RepoPath::parse(&self.path)
                .ok()
                .map(|path| Anchor {
                    path,
                    side: self.side,
                    start_line: self.start_line,
                    end_line: self.end_line,
                }),
            text: NodeText {
                title: format!("Hardcoded secret: {}", self.label),
                body: format!(
                    "{} A secret that reached a pushed commit must be treated as leaked: \
                     removing it in a later commit does not take it out of the history.",
                    self.description
                ),
                evidence: self.evidence.clone(),
                impact: "Anyone who can read the repository, a fork, a clone or a CI log can use \
                         the credential until it is revoked."
                    .to_string(),
                verification: format!(
                    "Check in the provider whether the credential{shown} is live; if it is, \
                     revoke and rotate it."
                ),
            },
            fix: Some(Fix {
                replacement: None,
                diff: None,
                prompt: Some(
                    "Remove the hardcoded credential and read it from the environment or a \
                     secret store; rotate the leaked value."
                        .to_string(),
                ),
            }),
            confidence: self.confidence,
            // A secret on a removed line is not introduced by this change, but it is still in
            // the history: reported, as a pre-existing observation.
            scope: if added {
                Scope::InScope
            } else {
                Scope::OutOfScope
            },
        }
    }

    pub fn to_node(&self, id: impl Into<String>, reviewer: &str) -> ReviewNode {
        let mut node = ReviewNode::from_draft(
            id,
            Origin {
                reviewer: reviewer.to_string(),
                source: Source::Scanner,
            },
            self.to_draft(),
        );
        let lines: Vec<&str> = self.evidence.lines().collect();
        stamp(&mut node, &self.rule, &self.path, &lines);
        node
    }
}

/// Nodes for a batch of hits. Ids are `<reviewer>-<fingerprint>`, with `-2`, `-3`… when the
/// same fingerprint repeats in the batch, so they are stable across rounds.
pub fn to_nodes(hits: &[SecretHit], reviewer: &str) -> Vec<ReviewNode> {
    let prefix: String = reviewer
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect();
    let mut seen: Vec<String> = Vec::new();
    hits.iter()
        .map(|hit| {
            let base = format!("{prefix}-{}", hit.fingerprint());
            let repeats = seen.iter().filter(|s| **s == base).count();
            seen.push(base.clone());
            let id = if repeats == 0 {
                base
            } else {
                format!("{base}-{}", repeats + 1)
            };
            hit.to_node(id, reviewer)
        })
        .collect()
}
