//! A person's own findings: what the person at the keyboard saw in the change, on a line or a
//! range of either side, as a finding of source `person`. It is counted like any other finding
//! (a person's P0 blocks), shown with the person's name, published with the round, and never
//! sent to a model unless the person asks about it.
//!
//! The id is chosen before the finding is applied (`person-N`, see [`next_id`]): the client
//! that shows it at once, the decision journal that replays it and the undo that deletes it
//! again all name it the same way.

use serde::{Deserialize, Serialize};
use thiserror::Error;

use super::node::{
    Anchor, Category, Effort, Fix, Kind, NodeText, Origin, Priority, ReviewNode, Scope, Severity,
    Source, Triage,
};

/// The prefix of every person's finding id.
pub const ID_PREFIX: &str = "person-";

/// The rule key a person's finding is fingerprinted under: never the key of a rule or a
/// model's category, so a person's finding is not taken for a duplicate of a machine's by
/// its print alone.
pub const RULE_KEY: &str = "person";

/// What the person writes: where, what kind, how urgent, the words and, optionally, the exact
/// lines that should replace the anchored ones.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PersonDraft {
    pub anchor: Anchor,
    #[serde(default = "default_kind")]
    pub kind: Kind,
    #[serde(default = "default_priority")]
    pub priority: Priority,
    /// The first line is the title, the rest the body.
    pub text: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub replacement: Option<Vec<String>>,
}

fn default_kind() -> Kind {
    Kind::Suggestion
}

fn default_priority() -> Priority {
    Priority::P2
}

impl PersonDraft {
    /// A P2 suggestion at `anchor`: the defaults a new comment starts from.
    pub fn new(anchor: Anchor, text: impl Into<String>) -> PersonDraft {
        PersonDraft {
            anchor,
            kind: default_kind(),
            priority: default_priority(),
            text: text.into(),
            replacement: None,
        }
    }

    /// The draft of an existing person's finding, for editing it.
    pub fn of(node: &ReviewNode) -> Option<PersonDraft> {
        if !is_person(node) {
            return None;
        }
        let mut text = node.text.title.clone();
        if !node.text.body.is_empty() {
            text.push('\n');
            text.push_str(&node.text.body);
        }
        Some(PersonDraft {
            anchor: node.anchor.clone()?,
            kind: node.kind,
            priority: node.priority,
            text,
            replacement: node.fix.as_ref().and_then(|f| f.replacement.clone()),
        })
    }
}

/// Why a draft cannot become a finding.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum DraftError {
    #[error("a comment needs some text")]
    Empty,
    #[error(
        "the lines {start}-{end} are not a range (the first line is 1, the end not before the start)"
    )]
    BadRange { start: u32, end: u32 },
    #[error("the anchor names no file")]
    NoPath,
    #[error("{0:?} is not the id of a person's finding (person-N)")]
    BadId(String),
}

/// True when `node` is a person's own finding.
pub fn is_person(node: &ReviewNode) -> bool {
    node.origin.source == Source::Person
}

/// The id a new finding of a person gets among `nodes`: one past the highest `person-N`.
pub fn next_id<'a>(nodes: impl IntoIterator<Item = &'a ReviewNode>) -> String {
    let highest = nodes
        .into_iter()
        .filter_map(|n| n.id.strip_prefix(ID_PREFIX)?.parse::<u64>().ok())
        .max()
        .unwrap_or(0);
    format!("{ID_PREFIX}{}", highest + 1)
}

/// Checks a draft and the id it is put under.
pub fn check(id: &str, draft: &PersonDraft) -> Result<(), DraftError> {
    let numbered = id
        .strip_prefix(ID_PREFIX)
        .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()));
    if !numbered {
        return Err(DraftError::BadId(id.to_string()));
    }
    if draft.text.trim().is_empty() {
        return Err(DraftError::Empty);
    }
    if draft.anchor.path.trim().is_empty() {
        return Err(DraftError::NoPath);
    }
    let (start, end) = (draft.anchor.start_line, draft.anchor.end_line);
    if start == 0 || end < start {
        return Err(DraftError::BadRange { start, end });
    }
    Ok(())
}

/// The category a kind of comment is counted under: a bug is a correctness problem, anything
/// else a maintainability one. Always a known category, so a person's suggestion never holds
/// the verdict for an unknown cause.
fn category(kind: Kind) -> Category {
    match kind {
        Kind::Bug => Category::Correctness,
        _ => Category::Maintainability,
    }
}

fn severity(priority: Priority) -> Severity {
    match priority {
        Priority::P0 => Severity::Critical,
        Priority::P1 => Severity::High,
        Priority::P2 => Severity::Medium,
        Priority::P3 => Severity::Low,
    }
}

/// The words: the first non-blank line is the title, what follows the body.
fn words(text: &str) -> NodeText {
    let text = text.trim();
    let (title, body) = text.split_once('\n').unwrap_or((text, ""));
    NodeText {
        title: title.trim().to_string(),
        body: body.trim().to_string(),
        ..NodeText::default()
    }
}

/// A new person's finding from `draft` (checked with [`check`]). In scope: the person put it
/// there; a person's word is not a model's scope label to be second-guessed. Confidence 1.0:
/// a person's P0 blocks.
pub fn finding(id: &str, person: &str, draft: &PersonDraft) -> ReviewNode {
    let mut node = ReviewNode::from_draft(
        id,
        Origin {
            reviewer: person.to_string(),
            source: Source::Person,
        },
        super::node::NodeDraft {
            reasoning: String::new(),
            kind: draft.kind,
            priority: draft.priority,
            triage: Triage {
                category: category(draft.kind),
                severity: severity(draft.priority),
                effort: Effort::Small,
            },
            rule: None,
            anchor: Some(draft.anchor.clone()),
            text: words(&draft.text),
            fix: None,
            confidence: 1.0,
            scope: Scope::InScope,
        },
    );
    set_replacement(&mut node, draft.replacement.clone());
    node
}

/// Changes an existing person's finding to what `draft` says; its status, history and
/// stances stay. The fingerprint is the caller's to compute again (it reads the code).
pub fn edit(node: &mut ReviewNode, draft: &PersonDraft) {
    node.kind = draft.kind;
    node.priority = draft.priority;
    node.triage.category = category(draft.kind);
    node.triage.severity = severity(draft.priority);
    if node.anchor.as_ref() != Some(&draft.anchor) {
        // Anchored again by the person: the new lines are read in the next rounds.
        if let Some(from) = node.carried.as_mut() {
            from.gone_at = None;
        }
    }
    node.anchor = Some(draft.anchor.clone());
    node.text = words(&draft.text);
    set_replacement(node, draft.replacement.clone());
    node.fingerprint.clear();
    node.aliases.clear();
    node.print = None;
}

fn set_replacement(node: &mut ReviewNode, replacement: Option<Vec<String>>) {
    node.fix = replacement.map(|lines| Fix {
        replacement: Some(lines),
        ..Fix::default()
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::review::side::Side;

    fn anchor(start: u32, end: u32) -> Anchor {
        Anchor {
            path: "src/a.rs".try_into().unwrap(),
            side: Side::Right,
            start_line: start,
            end_line: end,
        }
    }

    #[test]
    fn a_new_comment_is_a_p2_suggestion_counted_as_the_person() {
        let draft = PersonDraft::new(anchor(3, 5), "Name this better\nIt reads as a count.");
        check("person-1", &draft).unwrap();
        let node = finding("person-1", "ana", &draft);
        assert_eq!(node.priority, Priority::P2);
        assert_eq!(node.kind, Kind::Suggestion);
        assert_eq!(node.origin.source, Source::Person);
        assert_eq!(node.origin.reviewer, "ana");
        assert_eq!(node.text.title, "Name this better");
        assert_eq!(node.text.body, "It reads as a count.");
        assert!(node.category().is_known());
        assert!(node.in_scope());
        assert_eq!(PersonDraft::of(&node), Some(draft));
    }

    #[test]
    fn ids_follow_the_highest_person_id_and_bad_drafts_are_refused() {
        let draft = PersonDraft::new(anchor(1, 1), "x");
        let nodes = vec![
            finding("person-2", "ana", &draft),
            finding("person-9", "ana", &draft),
        ];
        assert_eq!(next_id(&nodes), "person-10");
        assert_eq!(next_id(&[]), "person-1");
        assert_eq!(
            check("engineer-1", &draft),
            Err(DraftError::BadId("engineer-1".into()))
        );
        assert_eq!(
            check("person-", &draft),
            Err(DraftError::BadId("person-".into()))
        );
        assert_eq!(
            check("person-1", &PersonDraft::new(anchor(1, 1), "  \n")),
            Err(DraftError::Empty)
        );
        assert_eq!(
            check("person-1", &PersonDraft::new(anchor(4, 2), "x")),
            Err(DraftError::BadRange { start: 4, end: 2 })
        );
        assert_eq!(
            check("person-1", &PersonDraft::new(anchor(0, 2), "x")),
            Err(DraftError::BadRange { start: 0, end: 2 })
        );
    }

    #[test]
    fn an_edit_keeps_the_status_and_a_p1_bug_is_a_correctness_problem() {
        let mut node = finding("person-1", "ana", &PersonDraft::new(anchor(1, 1), "x"));
        node.status = crate::review::Status::Resolved;
        node.fingerprint = "old".into();
        let mut draft = PersonDraft::new(anchor(2, 3), "off by one");
        draft.kind = Kind::Bug;
        draft.priority = Priority::P1;
        draft.replacement = Some(vec!["let n = len - 1;".into()]);
        edit(&mut node, &draft);
        assert_eq!(node.status, crate::review::Status::Resolved);
        assert_eq!(node.priority, Priority::P1);
        assert_eq!(node.triage.category, Category::Correctness);
        assert!(node.fingerprint.is_empty());
        assert_eq!(PersonDraft::of(&node), Some(draft));
    }
}
