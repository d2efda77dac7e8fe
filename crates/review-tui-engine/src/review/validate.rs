//! Validation of review nodes: a payload that does not validate is dropped and counted, never
//! shown. Each problem names the field and the reason so coverage notes can say why.

use std::fmt;

use serde_json::Value;

use super::node::{NodeDraft, ReviewNode, Source};

/// One reason a node is invalid.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Invalid {
    pub field: &'static str,
    pub reason: String,
}

impl fmt::Display for Invalid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.field, self.reason)
    }
}

/// Longest title we accept: a title is a line in a list, not a paragraph.
pub(crate) const MAX_TITLE_CHARS: usize = 200;

impl NodeDraft {
    /// Checks a reviewer's payload. `from_model` adds the rule that model findings must say what
    /// proves them (evidence), what breaks (impact) and how to check (verification).
    pub fn validate(&self, from_model: bool) -> Result<(), Vec<Invalid>> {
        let mut problems = Vec::new();
        let mut fail =
            |field: &'static str, reason: String| problems.push(Invalid { field, reason });

        let title = self.text.title.trim();
        if title.is_empty() {
            fail("text.title", "must not be empty".into());
        } else if title.chars().count() > MAX_TITLE_CHARS {
            fail(
                "text.title",
                format!("longer than {MAX_TITLE_CHARS} characters"),
            );
        }
        if !self.confidence.is_finite() || !(0.0..=1.0).contains(&self.confidence) {
            fail(
                "confidence",
                format!("must be between 0.0 and 1.0, got {}", self.confidence),
            );
        }
        if let Some(rule) = self.rule.as_ref().filter(|rule| !is_rule_id(rule)) {
            fail(
                "rule",
                format!("`{rule}` is not a rule id of the form category/name"),
            );
        }
        // The anchor's path is a `RepoPath`: relative, inside and canonical by construction.
        if let Some(anchor) = &self.anchor {
            if anchor.start_line == 0 {
                fail("anchor.start_line", "lines are numbered from 1".into());
            }
            if anchor.end_line < anchor.start_line {
                fail(
                    "anchor.end_line",
                    format!(
                        "ends ({}) before it starts ({})",
                        anchor.end_line, anchor.start_line
                    ),
                );
            }
        }
        let replaces = self
            .fix
            .as_ref()
            .is_some_and(|fix| fix.replacement.is_some());
        if replaces && self.anchor.is_none() {
            fail(
                "fix.replacement",
                "replacement lines need an anchor to replace".into(),
            );
        }
        if from_model {
            for (field, value) in [
                ("text.evidence", &self.text.evidence),
                ("text.impact", &self.text.impact),
                ("text.verification", &self.text.verification),
            ] {
                if value.trim().is_empty() {
                    fail(field, "a model finding must not leave it empty".into());
                }
            }
        }
        if problems.is_empty() {
            Ok(())
        } else {
            Err(problems)
        }
    }
}

/// The fields of a finding a reviewer writes, as dotted paths: what a refusal names.
const DRAFT_FIELDS: &[&str] = &[
    "reasoning",
    "kind",
    "priority",
    "triage",
    "triage.category",
    "triage.severity",
    "triage.effort",
    "rule",
    "anchor",
    "anchor.path",
    "anchor.side",
    "anchor.start_line",
    "anchor.end_line",
    "text",
    "text.title",
    "text.body",
    "text.evidence",
    "text.impact",
    "text.verification",
    "fix",
    "fix.replacement",
    "fix.diff",
    "fix.prompt",
    "confidence",
    "scope",
];

impl NodeDraft {
    /// Reads a reviewer's payload and validates it. A payload of the wrong shape is refused
    /// naming the field it failed on (a missing `text.title`, a string where `confidence`
    /// should be a number), so a model can correct that field and the coverage notes can say
    /// why; a well-shaped payload is then held to [`NodeDraft::validate`].
    pub fn from_payload(payload: &Value, from_model: bool) -> Result<NodeDraft, Vec<Invalid>> {
        if !payload.is_object() {
            return Err(vec![Invalid {
                field: "finding",
                reason: "must be a JSON object".into(),
            }]);
        }
        let draft: NodeDraft = serde_path_to_error::deserialize(payload).map_err(|error| {
            let inner = error.inner().to_string();
            let mut path: Vec<&str> = Vec::new();
            for segment in error.path() {
                match segment {
                    serde_path_to_error::Segment::Map { key } => path.push(key),
                    _ => break,
                }
            }
            // "missing field `title`" is reported at its parent, `text`.
            let missing = inner
                .strip_prefix("missing field `")
                .and_then(|rest| rest.split('`').next());
            let mut dotted = path.join(".");
            if let Some(name) = missing {
                if !dotted.is_empty() {
                    dotted.push('.');
                }
                dotted.push_str(name);
            }
            let field = DRAFT_FIELDS
                .iter()
                .find(|known| **known == dotted)
                .copied()
                .unwrap_or("finding");
            vec![Invalid {
                field,
                reason: inner,
            }]
        })?;
        draft.validate(from_model).map(|()| draft)
    }
}

impl ReviewNode {
    /// Validates the reviewer-supplied part plus the engine's own invariants.
    pub fn validate(&self) -> Result<(), Vec<Invalid>> {
        let draft = NodeDraft {
            reasoning: self.reasoning.clone(),
            kind: self.kind,
            priority: self.priority,
            triage: self.triage.clone(),
            rule: self.rule.clone(),
            anchor: self.anchor.clone(),
            text: self.text.clone(),
            fix: self.fix.clone(),
            confidence: self.confidence,
            scope: self.scope,
        };
        let mut problems = match draft.validate(self.origin.source == Source::Model) {
            Ok(()) => Vec::new(),
            Err(problems) => problems,
        };
        if self.id.trim().is_empty() {
            problems.push(Invalid {
                field: "id",
                reason: "must not be empty".into(),
            });
        }
        if self.origin.reviewer.trim().is_empty() {
            problems.push(Invalid {
                field: "origin.reviewer",
                reason: "must name the reviewer".into(),
            });
        }
        if problems.is_empty() {
            Ok(())
        } else {
            Err(problems)
        }
    }
}

/// `category/name`, lowercase words joined by `-` or `_`, optionally with more `/` parts.
pub(crate) fn is_rule_id(rule: &str) -> bool {
    let parts: Vec<&str> = rule.split('/').collect();
    parts.len() >= 2
        && parts.iter().all(|part| {
            !part.is_empty()
                && part.chars().all(|c| {
                    c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '_' || c == '.'
                })
        })
}
