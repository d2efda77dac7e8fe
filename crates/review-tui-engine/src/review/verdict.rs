//! The verdict is code, not the model's word (DESIGN §7). A pure function over the findings, the
//! axes and the reviewer runs. A model's own "APPROVE" is carried for audit and never read.

use serde::{Deserialize, Serialize};
use std::fmt;

use super::axes::Axis;
use super::node::{Category, Priority, ReviewNode, Status};

/// Ordered by strictness: a later variant is stricter. Inconclusive sits below Block because a
/// proven blocking problem is worth more to the reader than "a reviewer failed", and neither
/// ever lets a change Ship.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Decision {
    Ship,
    Hold,
    Inconclusive,
    Block,
}

impl Decision {
    pub fn as_str(self) -> &'static str {
        match self {
            Decision::Ship => "ship",
            Decision::Hold => "hold",
            Decision::Inconclusive => "inconclusive",
            Decision::Block => "block",
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            Decision::Ship => "Ship",
            Decision::Hold => "Hold",
            Decision::Inconclusive => "Inconclusive",
            Decision::Block => "Block",
        }
    }
}

impl fmt::Display for Decision {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.label())
    }
}

/// A P0 at or above this confidence blocks.
pub(crate) const BLOCK_CONFIDENCE: f64 = 0.7;

/// A confidence (0.0–1.0) as people read it everywhere, the cockpit, reports and what is
/// posted: a whole number 0–100, rounded the same way, so one verdict has one figure.
/// Machine formats (JSON, SARIF) keep the fraction.
pub fn percent(confidence: f64) -> u32 {
    (confidence.clamp(0.0, 1.0) * 100.0).round() as u32
}

/// What the verdict needs to know about one finding.
#[derive(Debug, Clone, PartialEq)]
pub struct VerdictFinding {
    pub id: String,
    pub title: String,
    /// `path:line`, or empty.
    pub location: String,
    pub reviewer: String,
    pub priority: Priority,
    pub confidence: f64,
    pub category: Category,
    pub in_scope: bool,
    pub status: Status,
    /// Someone other than its author confirmed it.
    pub peer_confirmed: bool,
    /// Folded by consolidation under this primary: the same problem. Presentation only: the
    /// decision reads every in-scope finding whatever its problem; the problem only keeps one
    /// problem from being listed and counted as several.
    pub duplicate_of: Option<String>,
}

impl VerdictFinding {
    /// How strongly it argues against shipping: 2 blocks, 1 holds, 0 neither.
    fn weight(&self) -> u8 {
        if is_blocking(self) {
            2
        } else if self.priority <= Priority::P1 || !self.category.is_known() {
            1
        } else {
            0
        }
    }
}

impl From<&ReviewNode> for VerdictFinding {
    fn from(node: &ReviewNode) -> Self {
        VerdictFinding {
            id: node.id.clone(),
            title: node.text.title.clone(),
            location: node
                .anchor
                .as_ref()
                .map(|a| a.to_string())
                .unwrap_or_default(),
            reviewer: node.origin.reviewer.clone(),
            priority: node.priority,
            confidence: node.confidence,
            category: node.triage.category.clone(),
            in_scope: node.in_scope(),
            status: node.status,
            peer_confirmed: node.has_peer_confirmation(),
            duplicate_of: node.duplicate_of.clone(),
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    Ok,
    Failed,
    InvalidOutput,
    Skipped,
}

impl Outcome {
    pub fn as_str(self) -> &'static str {
        match self {
            Outcome::Ok => "ok",
            Outcome::Failed => "failed",
            Outcome::InvalidOutput => "invalid_output",
            Outcome::Skipped => "skipped",
        }
    }

    pub fn parse(text: &str) -> Option<Outcome> {
        [
            Outcome::Ok,
            Outcome::Failed,
            Outcome::InvalidOutput,
            Outcome::Skipped,
        ]
        .into_iter()
        .find(|o| o.as_str() == text.trim().to_ascii_lowercase())
    }
}

/// How one reviewer's run ended.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ReviewerRun {
    pub role: String,
    #[serde(default)]
    pub required: bool,
    pub outcome: Outcome,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Default)]
pub struct VerdictInput {
    pub findings: Vec<VerdictFinding>,
    pub axes: Vec<Axis>,
    pub reviewers: Vec<ReviewerRun>,
    /// The person asked for a run without model reviewers; skipped model reviewers then do not
    /// make the run Inconclusive, and the reasons say so.
    pub deterministic_only: bool,
    /// The model's own verdict, kept for audit. `decide` never reads it.
    pub model_verdict: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Counts {
    pub total: usize,
    /// Problems with an open or consensus-ready in-scope finding: what the decision reads
    /// (every in-scope finding of a problem weighs; the problem is counted once).
    pub counted: usize,
    pub p0: usize,
    pub p1: usize,
    pub p2: usize,
    pub p3: usize,
    /// P0 at or above the blocking confidence.
    pub blocking: usize,
    pub unknown_category: usize,
    pub out_of_scope: usize,
    pub duplicates: usize,
    pub resolved: usize,
    pub dismissed: usize,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Verdict {
    pub decision: Decision,
    /// 0.0–1.0; see `aggregate_confidence`.
    pub confidence: f64,
    /// Human-readable, most important first.
    pub reasons: Vec<String>,
    /// The model's own verdict, for audit only.
    pub model_verdict: Option<String>,
    pub counts: Counts,
    /// The findings that hold the decision at Hold or Block, by id, the blocking ones first (one
    /// per problem): what the cockpit's "why" names, each closed only by a person's decision.
    /// Recomputed with the decision, never stored.
    #[serde(skip)]
    pub holding: Vec<String>,
    /// The findings counted (`counts.counted`), one per problem, by id: what the gate's fix
    /// and every other count of "the counted findings" reads. Never stored.
    #[serde(skip)]
    pub counted: Vec<String>,
}

/// Recomputes the decision from the evidence: each rule of `RULES` asks for a decision with
/// its reasons, the strictest wins, and the audit notes follow.
pub fn decide(input: &VerdictInput) -> Verdict {
    let (counts, counted) = count(input);
    let facts = Facts {
        input,
        blocking: counted.iter().copied().filter(|f| is_blocking(f)).collect(),
        holding: (counted.iter().copied())
            .filter(|f| !is_blocking(f) && (f.priority <= Priority::P1 || !f.category.is_known()))
            .collect(),
    };
    let mut decision = Decision::Ship;
    let mut reasons = Vec::new();
    let mut contributing: Vec<(f64, bool)> = Vec::new();
    for rule in RULES {
        let ruling = rule(&facts);
        decision = decision.max(ruling.decision);
        reasons.extend(ruling.reasons);
        contributing.extend(ruling.contributing);
    }
    reasons.extend(audit_notes(input, &counts));
    if decision == Decision::Ship {
        reasons.insert(0, ship_reason(&counts));
    }

    let confidence = match decision {
        Decision::Inconclusive => 0.0,
        Decision::Ship => coverage(&input.reviewers, input.deterministic_only),
        Decision::Hold | Decision::Block => aggregate_confidence(&contributing),
    };

    // Most important first: the reasons that decided come before the milder ones (a gated
    // axis's Block before a finding's Hold, found first), then the audit notes. Every view that
    // shows one reason (the cockpit's header, the posted headline) shows the deciding one.
    reasons.sort_by_key(|reason| std::cmp::Reverse(reason_decision(reason)));

    Verdict {
        decision,
        confidence,
        reasons,
        model_verdict: input.model_verdict.clone(),
        counts,
        holding: (facts.blocking.iter().chain(facts.holding.iter()))
            .map(|f| f.id.clone())
            .collect(),
        counted: counted.iter().map(|f| f.id.clone()).collect(),
    }
}

/// The verdict's rules, in the order their reasons are found (the reasons are then sorted by
/// the decision they ask for). A new rule is one function here.
const RULES: &[fn(&Facts) -> Ruling] = &[
    required_reviewers,
    blocking_findings,
    holding_findings,
    gated_axes,
];

/// What the rules read: the input, and the counted findings (one per problem) that block or
/// hold.
struct Facts<'a> {
    input: &'a VerdictInput,
    blocking: Vec<&'a VerdictFinding>,
    holding: Vec<&'a VerdictFinding>,
}

/// What one rule asks for: a decision (the strictest of all rules wins), why, and the
/// confidences of the findings that back it (`aggregate_confidence` reads them).
struct Ruling {
    decision: Decision,
    reasons: Vec<String>,
    contributing: Vec<(f64, bool)>,
}

impl Ruling {
    /// A rule that has nothing to say.
    fn ship() -> Ruling {
        Ruling {
            decision: Decision::Ship,
            reasons: Vec::new(),
            contributing: Vec::new(),
        }
    }
}

/// The counts, and the findings that weigh: every open in-scope finding weighs, whatever
/// consolidation folded it under (folding is presentation, and a primary out of scope or
/// closed never takes its members with it), one per problem.
fn count(input: &VerdictInput) -> (Counts, Vec<&VerdictFinding>) {
    let mut counts = Counts {
        total: input.findings.len(),
        ..Counts::default()
    };
    let mut weighing: Vec<&VerdictFinding> = Vec::new();
    for finding in &input.findings {
        match finding.status {
            Status::Resolved => counts.resolved += 1,
            Status::Dismissed => counts.dismissed += 1,
            Status::Open | Status::ConsensusReady => {
                if finding.in_scope {
                    weighing.push(finding);
                } else {
                    counts.out_of_scope += 1;
                }
            }
        }
    }
    let counted = representatives(&weighing);
    counts.duplicates = weighing.len() - counted.len();
    counts.counted = counted.len();
    for finding in &counted {
        match finding.priority {
            Priority::P0 => counts.p0 += 1,
            Priority::P1 => counts.p1 += 1,
            Priority::P2 => counts.p2 += 1,
            Priority::P3 => counts.p3 += 1,
        }
        if is_blocking(finding) {
            counts.blocking += 1;
        }
        if !finding.category.is_known() {
            counts.unknown_category += 1;
        }
    }
    (counts, counted)
}

/// Rule 1: a required reviewer that did not complete makes the review Inconclusive. Reviewers
/// that fail for the same reason are named together.
fn required_reviewers(facts: &Facts) -> Ruling {
    let input = facts.input;
    let mut inconclusive: Vec<(String, Vec<String>)> = Vec::new();
    for run in input.reviewers.iter().filter(|r| r.required) {
        let what = match run.outcome {
            Outcome::Ok => continue,
            Outcome::Skipped if input.deterministic_only => continue,
            Outcome::Failed => "failed",
            Outcome::InvalidOutput => "gave output that did not validate",
            Outcome::Skipped => "did not run",
        };
        let why = run
            .reason
            .as_deref()
            .map(|r| format!(": {r}"))
            .unwrap_or_default();
        let key = format!("{what}{why}");
        match inconclusive.iter_mut().find(|(k, _)| *k == key) {
            Some((_, roles)) => roles.push(run.role.clone()),
            None => inconclusive.push((key, vec![run.role.clone()])),
        }
    }
    let mut ruling = Ruling::ship();
    if inconclusive.is_empty() {
        return ruling;
    }
    ruling.decision = Decision::Inconclusive;
    for (what, roles) in inconclusive {
        let who = if roles.len() == 1 {
            format!("required reviewer {}", roles[0])
        } else {
            format!(
                "required reviewers {}",
                super::consolidate::join_names(&roles)
            )
        };
        ruling.reasons.push(format!("Inconclusive: {who} {what}"));
    }
    ruling
}

/// Rule 2: a P0 finding at blocking confidence blocks.
fn blocking_findings(facts: &Facts) -> Ruling {
    let blocking = &facts.blocking;
    if blocking.is_empty() {
        return Ruling::ship();
    }
    Ruling {
        decision: Decision::Block,
        reasons: vec![format!(
            "Block: {} at confidence ≥ {}: {}",
            plural(blocking.len(), "P0 finding"),
            percent(BLOCK_CONFIDENCE),
            list_findings(blocking)
        )],
        contributing: blocking
            .iter()
            .map(|f| (f.confidence, f.peer_confirmed))
            .collect(),
    }
}

/// Rules 3-4: any other P0/P1 finding holds, and so does one of unknown category (a finding
/// without a known cause fails closed). Their confidence counts only when nothing blocks.
fn holding_findings(facts: &Facts) -> Ruling {
    let holding = &facts.holding;
    if holding.is_empty() {
        return Ruling::ship();
    }
    let mut ruling = Ruling::ship();
    ruling.decision = Decision::Hold;
    let (serious, unknown): (Vec<&VerdictFinding>, Vec<&VerdictFinding>) =
        holding.iter().partition(|f| f.category.is_known());
    if !serious.is_empty() {
        ruling.reasons.push(format!(
            "Hold: {}: {}",
            plural(serious.len(), "P0/P1 finding"),
            list_findings(&serious)
        ));
    }
    if !unknown.is_empty() {
        ruling.reasons.push(format!(
            "Hold: {} of unknown category (a finding without a known cause fails closed): {}",
            plural(unknown.len(), "in-scope finding"),
            list_findings(&unknown)
        ));
    }
    if facts.blocking.is_empty() {
        ruling.contributing = holding
            .iter()
            .map(|f| (f.confidence, f.peer_confirmed))
            .collect();
    }
    ruling
}

/// Rule 5: gated axes only make it stricter: a failed one blocks, one not cleared holds.
fn gated_axes(facts: &Facts) -> Ruling {
    let mut ruling = Ruling::ship();
    for axis in facts.input.axes.iter().filter(|a| a.gated) {
        if axis.verdict.clears_gate() {
            continue;
        }
        let detail = if axis.detail.is_empty() {
            String::new()
        } else {
            format!(" ({})", axis.detail)
        };
        if axis.verdict == super::axes::AxisVerdict::Fail {
            ruling.decision = ruling.decision.max(Decision::Block);
            (ruling.reasons).push(format!("Block: gated axis {} failed{detail}", axis.name));
        } else {
            ruling.decision = ruling.decision.max(Decision::Hold);
            ruling.reasons.push(format!(
                "Hold: gated axis {} is {}{detail}; absence of evidence never clears a gate",
                axis.name, axis.verdict
            ));
        }
        ruling.contributing.push((1.0, false));
    }
    ruling
}

/// Audit notes that do not change the decision.
fn audit_notes(input: &VerdictInput, counts: &Counts) -> Vec<String> {
    let mut notes = Vec::new();
    if input.deterministic_only {
        notes.push(
            "deterministic-only run, asked for explicitly: no model reviewer read this change"
                .to_string(),
        );
    }
    let unbacked = (input.findings.iter())
        .filter(|f| f.status == Status::ConsensusReady && !f.peer_confirmed)
        .count();
    if unbacked > 0 {
        notes.push(format!(
            "{} marked consensus-ready without a peer confirmation; counted as open",
            plural(unbacked, "finding")
        ));
    }
    if counts.out_of_scope > 0 {
        notes.push(format!(
            "{} outside the change recorded as observations, not counted",
            plural(counts.out_of_scope, "finding")
        ));
    }
    notes
}

/// Why a change ships: nothing holds it, and how many observations it carries.
fn ship_reason(counts: &Counts) -> String {
    let observations = counts.p2 + counts.p3;
    if observations == 0 {
        "Ship: no P0 or P1 finding in scope".to_string()
    } else {
        format!(
            "Ship: no P0 or P1 finding in scope; {}",
            plural(observations, "observation")
        )
    }
}

/// One finding per problem among `weighing` (open, in scope): its weightiest member, then the
/// most severe, then the most confident, then the first. The decision over these is the
/// decision over every member, since each problem is represented by its weightiest. A member
/// joins its primary's problem (or, its primary not weighing, its fellow members'); a finding
/// folded under nothing is a problem of its own.
fn representatives<'a>(weighing: &[&'a VerdictFinding]) -> Vec<&'a VerdictFinding> {
    let mut groups: Vec<&'a VerdictFinding> = Vec::new();
    let mut by_primary: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
    for &finding in weighing.iter().filter(|f| f.duplicate_of.is_none()) {
        by_primary
            .entry(finding.id.as_str())
            .or_insert(groups.len());
        groups.push(finding);
    }
    for &finding in weighing {
        let Some(primary) = finding.duplicate_of.as_deref() else {
            continue;
        };
        match by_primary.get(primary) {
            None => {
                by_primary.insert(primary, groups.len());
                groups.push(finding);
            }
            Some(&at) => {
                let held = groups[at];
                let stricter = (std::cmp::Reverse(finding.weight()), finding.priority)
                    .cmp(&(std::cmp::Reverse(held.weight()), held.priority))
                    .then(held.confidence.total_cmp(&finding.confidence));
                if stricter == std::cmp::Ordering::Less {
                    groups[at] = finding;
                }
            }
        }
    }
    groups
}

/// The decision a reason argues for (`"Block: …"`), or none for an audit note.
fn reason_decision(reason: &str) -> Option<Decision> {
    [
        Decision::Block,
        Decision::Inconclusive,
        Decision::Hold,
        Decision::Ship,
    ]
    .into_iter()
    .find(|d| {
        reason
            .strip_prefix(d.label())
            .is_some_and(|rest| rest.starts_with(':'))
    })
}

fn is_blocking(finding: &VerdictFinding) -> bool {
    finding.priority == Priority::P0 && finding.confidence >= BLOCK_CONFIDENCE
}

/// The aggregate confidence of a Hold or Block: the mean of the contributing confidences minus
/// their spread (population standard deviation), so disagreeing evidence lowers it; then peer
/// agreement closes up to half of what is left to 1.0: `c = b + (1 − b) · a / 2` with
/// `b = clamp(mean − σ, 0, 1)` and `a` the share of contributions a peer confirmed.
pub(crate) fn aggregate_confidence(contributions: &[(f64, bool)]) -> f64 {
    if contributions.is_empty() {
        return 0.0;
    }
    let n = contributions.len() as f64;
    let mean = contributions.iter().map(|(c, _)| c).sum::<f64>() / n;
    let variance = contributions
        .iter()
        .map(|(c, _)| (c - mean).powi(2))
        .sum::<f64>()
        / n;
    let base = (mean - variance.sqrt()).clamp(0.0, 1.0);
    let agreement = contributions.iter().filter(|(_, peer)| *peer).count() as f64 / n;
    (base + (1.0 - base) * agreement / 2.0).clamp(0.0, 1.0)
}

/// A Ship is as sure as the share of listed reviewers that finished; with none listed, the
/// findings are all the evidence there is and the function reports full confidence in them.
/// In a deterministic-only run, the model reviewers nobody asked for do not count.
fn coverage(reviewers: &[ReviewerRun], deterministic_only: bool) -> f64 {
    let counted: Vec<&ReviewerRun> = reviewers
        .iter()
        .filter(|r| !(deterministic_only && r.outcome == Outcome::Skipped))
        .collect();
    if counted.is_empty() {
        return 1.0;
    }
    let ok = counted.iter().filter(|r| r.outcome == Outcome::Ok).count();
    ok as f64 / counted.len() as f64
}

fn plural(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

/// At most five findings named; the rest counted.
fn list_findings(findings: &[&VerdictFinding]) -> String {
    const SHOWN: usize = 5;
    let mut parts: Vec<String> = findings
        .iter()
        .take(SHOWN)
        .map(|f| {
            let mut part = format!("\"{}\"", f.title);
            if !f.location.is_empty() {
                part.push_str(&format!(" at {}", f.location));
            }
            if !f.reviewer.is_empty() {
                part.push_str(&format!(" by {}", f.reviewer));
            }
            part
        })
        .collect();
    if findings.len() > SHOWN {
        parts.push(format!("and {} more", findings.len() - SHOWN));
    }
    parts.join("; ")
}
