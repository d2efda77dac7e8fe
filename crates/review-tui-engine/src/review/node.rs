//! The ReviewNode: every finding from every reviewer, as data (DESIGN §4).

use serde::{Deserialize, Serialize};
use std::fmt;

use crate::repo_path::RepoPath;
use crate::review::role::same_agent;
use crate::review::side::Side;

/// What a finding is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    Bug,
    Suggestion,
    Recommendation,
    Question,
    Ticket,
}

impl Kind {
    pub const ALL: [Kind; 5] = [
        Kind::Bug,
        Kind::Suggestion,
        Kind::Recommendation,
        Kind::Question,
        Kind::Ticket,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Bug => "bug",
            Kind::Suggestion => "suggestion",
            Kind::Recommendation => "recommendation",
            Kind::Question => "question",
            Kind::Ticket => "ticket",
        }
    }
}

/// P0 is critical, P3 a detail. The derived order puts the most severe first, so `min()` of a
/// set of priorities is its most severe member.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Priority {
    P0,
    P1,
    P2,
    P3,
}

impl Priority {
    pub const ALL: [Priority; 4] = [Priority::P0, Priority::P1, Priority::P2, Priority::P3];

    /// 0 for P0 … 3 for P3.
    pub fn level(self) -> u8 {
        self as u8
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Priority::P0 => "P0",
            Priority::P1 => "P1",
            Priority::P2 => "P2",
            Priority::P3 => "P3",
        }
    }

    pub fn parse(text: &str) -> Option<Priority> {
        match text.trim().to_ascii_uppercase().as_str() {
            "P0" => Some(Priority::P0),
            "P1" => Some(Priority::P1),
            "P2" => Some(Priority::P2),
            "P3" => Some(Priority::P3),
            _ => None,
        }
    }
}

impl fmt::Display for Priority {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The cause a finding names. Anything outside the known list is kept verbatim as `Unknown` so
/// the verdict can fail closed on it instead of the parser throwing the finding away.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Category {
    Security,
    Stability,
    Correctness,
    Performance,
    Maintainability,
    Compatibility,
    Tests,
    Docs,
    Implementation,
    Spec,
    Evidence,
    Policy,
    Unknown(String),
}

impl Category {
    pub const KNOWN: [Category; 12] = [
        Category::Security,
        Category::Stability,
        Category::Correctness,
        Category::Performance,
        Category::Maintainability,
        Category::Compatibility,
        Category::Tests,
        Category::Docs,
        Category::Implementation,
        Category::Spec,
        Category::Evidence,
        Category::Policy,
    ];

    pub fn parse(text: &str) -> Category {
        let lower = text.trim().to_ascii_lowercase();
        Category::KNOWN
            .iter()
            .find(|known| known.as_str() == lower)
            .cloned()
            .unwrap_or(Category::Unknown(text.trim().to_string()))
    }

    pub fn as_str(&self) -> &str {
        match self {
            Category::Security => "security",
            Category::Stability => "stability",
            Category::Correctness => "correctness",
            Category::Performance => "performance",
            Category::Maintainability => "maintainability",
            Category::Compatibility => "compatibility",
            Category::Tests => "tests",
            Category::Docs => "docs",
            Category::Implementation => "implementation",
            Category::Spec => "spec",
            Category::Evidence => "evidence",
            Category::Policy => "policy",
            Category::Unknown(text) => text,
        }
    }

    pub fn is_known(&self) -> bool {
        !matches!(self, Category::Unknown(_))
    }
}

impl fmt::Display for Category {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Serialize for Category {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for Category {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        Ok(Category::parse(&text))
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Severity {
    Critical,
    High,
    Medium,
    Low,
    Info,
}

impl Severity {
    pub const ALL: [Severity; 5] = [
        Severity::Critical,
        Severity::High,
        Severity::Medium,
        Severity::Low,
        Severity::Info,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Critical => "critical",
            Severity::High => "high",
            Severity::Medium => "medium",
            Severity::Low => "low",
            Severity::Info => "info",
        }
    }

    pub fn parse(text: &str) -> Option<Severity> {
        Severity::ALL
            .into_iter()
            .find(|s| s.as_str() == text.trim().to_ascii_lowercase())
    }

    /// The priority a severity maps to when a source gives only a severity.
    pub fn priority(self) -> Priority {
        match self {
            Severity::Critical => Priority::P0,
            Severity::High => Priority::P1,
            Severity::Medium => Priority::P2,
            Severity::Low | Severity::Info => Priority::P3,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Effort {
    Trivial,
    Small,
    Medium,
    Large,
}

impl Effort {
    pub const ALL: [Effort; 4] = [
        Effort::Trivial,
        Effort::Small,
        Effort::Medium,
        Effort::Large,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Effort::Trivial => "trivial",
            Effort::Small => "small",
            Effort::Medium => "medium",
            Effort::Large => "large",
        }
    }
}

/// The triage trio.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Triage {
    pub category: Category,
    pub severity: Severity,
    pub effort: Effort,
}

/// Where a finding points. Lines are 1-based and inclusive, in the numbering of `side`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Anchor {
    /// Canonical whatever spelling came in (`./src/a.rs` is `src/a.rs`): scope, placement and
    /// identity compare it as a string.
    pub path: RepoPath,
    pub side: Side,
    pub start_line: u32,
    pub end_line: u32,
}

impl Anchor {
    pub fn overlaps(&self, other: &Anchor) -> bool {
        self.path == other.path
            && self.side == other.side
            && self.start_line <= other.end_line
            && other.start_line <= self.end_line
    }
}

impl fmt::Display for Anchor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.start_line == self.end_line {
            write!(f, "{}:{}", self.path, self.start_line)
        } else {
            write!(f, "{}:{}-{}", self.path, self.start_line, self.end_line)
        }
    }
}

/// The words of a finding. Model findings must carry evidence, impact and verification.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct NodeText {
    pub title: String,
    #[serde(default)]
    pub body: String,
    #[serde(default)]
    pub evidence: String,
    #[serde(default)]
    pub impact: String,
    #[serde(default)]
    pub verification: String,
}

/// How a finding could be fixed. A one-click suggestion is only ever offered from `replacement`:
/// exact lines for the anchored range, never inferred from a diff.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Fix {
    #[serde(default)]
    pub replacement: Option<Vec<String>>,
    #[serde(default)]
    pub diff: Option<String>,
    #[serde(default)]
    pub prompt: Option<String>,
}

impl Fix {
    pub fn is_empty(&self) -> bool {
        self.replacement.is_none() && self.diff.is_none() && self.prompt.is_none()
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Scope {
    #[default]
    InScope,
    /// Pre-existing: on lines the change did not touch.
    OutOfScope,
}

/// What kind of reviewer produced a finding.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Source {
    Model,
    Deterministic,
    Scanner,
    Person,
}

impl Source {
    pub fn as_str(self) -> &'static str {
        match self {
            Source::Model => "model",
            Source::Deterministic => "deterministic",
            Source::Scanner => "scanner",
            Source::Person => "person",
        }
    }
}

/// Who found it: the reviewer's name (a role such as `engineer`, or `rules`, `secret scan`,
/// `sarif:clippy`) and its source kind.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Origin {
    pub reviewer: String,
    pub source: Source,
}

#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord, Serialize, Deserialize,
)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    #[default]
    Open,
    ConsensusReady,
    Resolved,
    Dismissed,
}

impl Status {
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Open => "open",
            Status::ConsensusReady => "consensus_ready",
            Status::Resolved => "resolved",
            Status::Dismissed => "dismissed",
        }
    }

    /// Open and consensus-ready nodes are the ones the verdict and the publisher read.
    pub fn is_active(self) -> bool {
        matches!(self, Status::Open | Status::ConsensusReady)
    }
}

impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Who acts on a node: a reviewer (by name) or the person at the keyboard.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "type", content = "name", rename_all = "snake_case")]
pub enum Actor {
    Reviewer(String),
    Person(String),
}

impl Actor {
    pub fn name(&self) -> &str {
        match self {
            Actor::Reviewer(name) | Actor::Person(name) => name,
        }
    }

    /// True when this actor produced the node: its confirmation would be a self-confirmation.
    /// A reviewer is its agent: security is the architect under another brief, performance the
    /// engineer, so neither confirms (or disputes) the other's finding as a peer.
    pub fn is_author_of(&self, origin: &Origin) -> bool {
        match self {
            Actor::Reviewer(name) => {
                origin.source != Source::Person && same_agent(name, &origin.reviewer)
            }
            Actor::Person(name) => origin.source == Source::Person && *name == origin.reviewer,
        }
    }
}

impl fmt::Display for Actor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Actor::Reviewer(name) => write!(f, "{name}"),
            Actor::Person(name) => write!(f, "{name} (person)"),
        }
    }
}

/// A confirmation or dispute by a peer, with its note.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Stance {
    pub by: Actor,
    #[serde(default)]
    pub note: String,
    pub at: String,
}

/// One recorded status change.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Transition {
    pub from: Status,
    pub to: Status,
    pub by: Actor,
    pub at: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// For a closing: whether the node counted towards the verdict when it was closed. A
    /// person's closing of what did not count (a P2 twin, a finding labelled out of scope) is
    /// no word on a later report of the problem that counts, so it does not carry onto one.
    /// `None` where it was not recorded (not a closing, or a space written before it was).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub counted: Option<bool>,
}

/// What a reviewer submits: the finding without the fields the engine owns (id, origin, status,
/// history). Field order matters: `reasoning` comes first so a model filling the object in schema
/// order writes its analysis before its conclusion.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NodeDraft {
    #[serde(default)]
    pub reasoning: String,
    pub kind: Kind,
    pub priority: Priority,
    pub triage: Triage,
    #[serde(default)]
    pub rule: Option<String>,
    #[serde(default)]
    pub anchor: Option<Anchor>,
    pub text: NodeText,
    #[serde(default)]
    pub fix: Option<Fix>,
    pub confidence: f64,
    #[serde(default)]
    pub scope: Scope,
}

/// A finding as the engine keeps it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ReviewNode {
    pub id: String,
    #[serde(default)]
    pub reasoning: String,
    pub kind: Kind,
    pub priority: Priority,
    pub triage: Triage,
    #[serde(default)]
    pub rule: Option<String>,
    #[serde(default)]
    pub anchor: Option<Anchor>,
    pub text: NodeText,
    #[serde(default)]
    pub fix: Option<Fix>,
    pub confidence: f64,
    #[serde(default)]
    pub scope: Scope,
    pub origin: Origin,
    #[serde(default)]
    pub status: Status,
    /// Stable identity across rounds (see `fingerprint`); empty until the pipeline computes it.
    #[serde(default)]
    pub fingerprint: String,
    /// The same problem's prints under its file's later names (a rename within the pull
    /// request): a match on any of them is a match on the problem (see `fingerprint::settle`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub aliases: Vec<String>,
    /// What the fingerprint is made of, until the round settles it. Never stored: it holds
    /// the anchored code.
    #[serde(skip)]
    pub print: Option<super::print::Print>,
    #[serde(default)]
    pub confirmations: Vec<Stance>,
    #[serde(default)]
    pub disputes: Vec<Stance>,
    #[serde(default)]
    pub history: Vec<Transition>,
    /// Set by consolidation: the node that stands for the problem this one duplicates.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub duplicate_of: Option<String>,
    /// Set when an earlier round dismissed a node with the same fingerprint: shown, never hidden.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub previously_dismissed: Option<String>,
    /// Where the problem originates, traced by the root-cause pass (thorough level, blocking
    /// findings only). A cause, never a fix.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub root_cause: Option<String>,
    /// The confidence-scoring pass's rescore, with the confidence the reviewer gave.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scoring: Option<Scoring>,
    /// Set when no reviewer of this round reported the finding again and it was carried from
    /// an earlier round (see `carry::carry_forward`): a blocking finding counts until a person
    /// closes it or its anchor is gone.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub carried: Option<CarriedFrom>,
    /// The context sources (`mcp:<name>/<tool>`) the finding's evidence came from: those its
    /// words name and that really answered its reviewer in the run that found it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub consulted: Vec<String>,
}

/// Where a carried finding comes from: the round that found it, and the round whose head its
/// anchor was last checked against.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CarriedFrom {
    pub round: u32,
    /// The id the finding had in the round that found it (ids are reused every round).
    pub id: String,
    /// The head at which the anchored text was found gone. The anchor then points at nothing
    /// and is not read again; what a person decided on the problem stays with it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gone_at: Option<String>,
}

/// A rescore by the scoring model (0–100, clamped). The node's confidence becomes the lower of
/// `original` and `score / 100`: a scorer can lower a finding, never lift it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Scoring {
    pub original: f64,
    pub score: u8,
    #[serde(default)]
    pub reasoning: String,
}

impl ReviewNode {
    pub fn from_draft(id: impl Into<String>, origin: Origin, draft: NodeDraft) -> ReviewNode {
        ReviewNode {
            id: id.into(),
            reasoning: draft.reasoning,
            kind: draft.kind,
            priority: draft.priority,
            triage: draft.triage,
            rule: draft.rule,
            anchor: draft.anchor,
            text: draft.text,
            fix: draft.fix,
            confidence: draft.confidence,
            scope: draft.scope,
            origin,
            status: Status::Open,
            fingerprint: String::new(),
            aliases: Vec::new(),
            print: None,
            confirmations: Vec::new(),
            disputes: Vec::new(),
            history: Vec::new(),
            duplicate_of: None,
            previously_dismissed: None,
            root_cause: None,
            scoring: None,
            carried: None,
            consulted: Vec::new(),
        }
    }

    pub fn category(&self) -> &Category {
        &self.triage.category
    }

    pub fn in_scope(&self) -> bool {
        self.scope == Scope::InScope
    }

    /// The rule id, or `category/<name>` for findings that cite no rule: the key used by
    /// fingerprints and duplicate detection.
    pub fn rule_key(&self) -> String {
        match &self.rule {
            Some(rule) if !rule.is_empty() => rule.clone(),
            _ => format!("category/{}", self.triage.category),
        }
    }

    /// Secrets are one problem whoever finds them; consolidation relies on this.
    pub fn is_secret(&self) -> bool {
        self.rule
            .as_deref()
            .is_some_and(|rule| rule.starts_with("secret/") || rule.starts_with("secrets/"))
    }

    /// What the verdict holds a merge on when it is in scope: a P0 or P1, or a finding of no
    /// known cause (which fails closed). Only a person closes such a finding.
    pub fn holds_merge(&self) -> bool {
        self.priority <= Priority::P1 || !self.triage.category.is_known()
    }

    /// Whether the node counts towards the verdict: open, in scope and holding the merge.
    pub fn counts(&self) -> bool {
        self.status.is_active() && self.in_scope() && self.holds_merge()
    }

    /// True when someone other than the node's author confirmed it.
    pub fn has_peer_confirmation(&self) -> bool {
        self.confirmations
            .iter()
            .any(|stance| !stance.by.is_author_of(&self.origin))
    }

    /// The fingerprint and its aliases: every print this problem answers to.
    pub fn prints(&self) -> impl Iterator<Item = &str> {
        std::iter::once(self.fingerprint.as_str())
            .chain(self.aliases.iter().map(String::as_str))
            .filter(|p| !p.is_empty())
    }

    /// `engineer:src/lib.rs:12` style location for messages.
    pub fn location(&self) -> String {
        match &self.anchor {
            Some(anchor) => anchor.to_string(),
            None => "(no anchor)".to_string(),
        }
    }
}
