//! The report of a reviewed round: the decision and one line of facts first, then findings,
//! disagreements, cohorts, reviewers and coverage. JSON extends the prepare report's shape.

use serde_json::{Value, json};

use crate::printable::Lines;
use crate::report::headless;
use crate::report::headline::{facts_line, headline};
use crate::report::verdict_text::round3;
use crate::review::consolidate::join_names;
use crate::review::level::Placement;
use crate::review::node::ReviewNode;
use crate::session::prepare::Prepared;
use crate::session::snapshot::RoundSnapshot;

fn plural<'a>(n: usize, one: &'a str, many: &'a str) -> &'a str {
    if n == 1 { one } else { many }
}

/// Reviewers who found the node's problem, primary first ("engineer and secret scan").
fn found_by(result: &RoundSnapshot, node: &ReviewNode) -> String {
    result
        .problems
        .iter()
        .find(|p| p.primary == node.id)
        .map(|p| p.found_by_phrase())
        .unwrap_or_else(|| join_names(std::slice::from_ref(&node.origin.reviewer)))
}

fn finding_json(result: &RoundSnapshot, node: &ReviewNode) -> Value {
    let cohort = node.anchor.as_ref().and_then(|a| {
        result
            .cohorts
            .as_ref()
            .and_then(|c| c.cohort_of(&a.path))
            .map(|c| c.key.clone())
    });
    json!({
        "id": node.id,
        "rule": node.rule,
        "title": node.text.title,
        "kind": node.kind,
        "priority": node.priority,
        "category": node.triage.category,
        "severity": node.triage.severity,
        "confidence": round3(node.confidence),
        "status": node.status,
        "in_scope": node.in_scope(),
        "source": node.origin.source,
        "reviewer": node.origin.reviewer,
        "found_by": found_by(result, node),
        "anchor": node.anchor,
        "fingerprint": node.fingerprint,
        "cohort": cohort,
        "placement": match result.level.placement(node) {
            Placement::Main => "main",
            Placement::BelowThreshold => "below_threshold",
        },
        "duplicate_of": node.duplicate_of,
        "previously_dismissed": node.previously_dismissed,
        // Carried from an earlier round: no reviewer of this one reported it again.
        "carried_from": node.carried.as_ref().map(|c| json!({"round": c.round, "id": c.id})),
        // Why a closed finding is closed, and by whom (a person, or the anchor check).
        "closed": (!node.status.is_active()).then(|| node.history.last()).flatten().map(|t| {
            json!({"by": t.by.to_string(), "reason": t.reason})
        }),
        "evidence": node.text.evidence,
        // Context sources the evidence came from (each really consulted by its reviewer).
        "consulted": node.consulted,
        "impact": node.text.impact,
        "verification": node.text.verification,
        "confirmations": node.confirmations,
        "disputes": node.disputes,
        "root_cause": node.root_cause,
        "scoring": node.scoring,
    })
}

/// The verdict as recorded: what `review-tui evaluate` reads back (`model_verdict`, `axes`,
/// `deterministic_only`) beside what it recomputes.
pub fn verdict_json(result: &RoundSnapshot) -> Value {
    let verdict = &result.verdict;
    json!({
        "decision": verdict.decision.as_str(),
        "confidence": round3(verdict.confidence),
        "reasons": verdict.reasons,
        "counts": verdict.counts,
        "axes": result.cohorts.as_ref().map(|c| &c.axes),
        "deterministic_only": result.deterministic_only,
        "level": result.level.as_str(),
        "model_verdict": verdict.model_verdict,
        // The person's decision beside the code's, when their overrides change it.
        "person": result.persons.as_ref().map(|p| json!({
            "decision": p.decision.as_str(),
            "overrides": p.overrides.iter().map(|o| json!({
                "axis": o.axis,
                "by": crate::reviewers::redact::outbound(&o.by),
                "reason": crate::reviewers::redact::outbound(&o.reason),
            })).collect::<Vec<_>>(),
        })),
    })
}

/// Every finding, duplicates included (each names its primary in `duplicate_of`).
pub fn findings_json(result: &RoundSnapshot) -> Value {
    Value::Array(
        result
            .board
            .nodes
            .iter()
            .map(|node| finding_json(result, node))
            .collect(),
    )
}

/// Every reviewer with its outcome (`null` when it never finished).
pub fn reviewers_json(result: &RoundSnapshot) -> Value {
    Value::Array(
        result
            .board
            .reviewers
            .values()
            .map(|r| {
                json!({
                    "name": r.name,
                    "required": r.required,
                    "state": r.phase,
                    "outcome": r.outcome,
                    "findings": r.findings,
                    "dropped": r.dropped,
                    "tokens_used": r.tokens_used,
                    "cost_usd": r.cost_usd,
                    "note": r.note,
                })
            })
            .collect(),
    )
}

pub fn json(prepared: &Prepared, result: &RoundSnapshot, forced: bool) -> Value {
    let mut report = headless::json(prepared, forced);
    let object = report
        .as_object_mut()
        .expect("the prepare report is an object");
    object.insert("facts".into(), Value::String(facts_line(result)));
    object.insert("verdict".into(), verdict_json(result));
    object.insert(
        "round".into(),
        json!({
            "number": result.round,
            "new": result.delta.new,
            "still_present": result.delta.still_present,
            "not_refound": result.delta.not_refound,
        }),
    );
    object.insert(
        "cohorts".into(),
        json!(
            result
                .cohorts
                .as_ref()
                .map(|c| &c.cohorts)
                .cloned()
                .unwrap_or_default()
        ),
    );
    object.insert("findings".into(), findings_json(result));
    object.insert("disagreements".into(), json!(result.disagreements));
    object.insert("reviewers".into(), reviewers_json(result));
    object.insert(
        "coverage".into(),
        json!({
            "files_reviewed": result.coverage.files_reviewed.len(),
            "files_skipped": result.coverage.files_skipped.iter().map(|(p, why)| json!({"path": p, "why": why})).collect::<Vec<_>>(),
            "dropped": result.coverage.dropped.iter().map(|(r, why)| json!({"reviewer": r, "reason": why})).collect::<Vec<_>>(),
            "notes": result.coverage.notes,
            "estimate": result.coverage.estimate,
            "refuted": result.coverage.refuted,
            "spent": result.coverage.spent,
        }),
    );
    object.insert(
        "walkthrough".into(),
        Value::String(result.walkthrough.clone()),
    );
    report
}

pub fn text(prepared: &Prepared, result: &RoundSnapshot, forced: bool) -> String {
    // The same decision and facts line the posted summary opens with.
    let (_, decision) = headline(result);
    let mut out = Lines::new();
    // Above the decision: a stored round must never be read as a fresh review.
    if let Some(offline) = &prepared.offline {
        out.line(format!(
            "OFFLINE {} ({} could not be reached)",
            offline.banner(),
            offline.forge
        ));
    }
    out.line(decision);
    out.line(facts_line(result));
    for reason in &result.verdict.reasons {
        out.line(format!("  - {reason}"));
    }
    out.blank();
    out.extend(headless::lines(prepared, forced));

    findings_text(&mut out, result);
    disagreements_text(&mut out, result);
    cohorts_text(&mut out, result);
    reviewers_text(&mut out, result);
    walkthrough_text(&mut out, result);
    model_review_text(&mut out, result);
    coverage_text(&mut out, result);
    out.into_string()
}

/// "findings": those shown (duplicates folded), by priority and place, the ones below the
/// threshold last.
fn findings_text(out: &mut Lines, result: &RoundSnapshot) {
    let mut shown: Vec<&ReviewNode> = result
        .board
        .nodes
        .iter()
        .filter(|n| n.duplicate_of.is_none())
        .collect();
    shown.sort_by(|a, b| {
        (a.priority, a.location())
            .cmp(&(b.priority, b.location()))
            .then(b.confidence.total_cmp(&a.confidence))
    });
    let (main, below): (Vec<&ReviewNode>, Vec<&ReviewNode>) = shown
        .iter()
        .partition(|n| result.level.placement(n) == Placement::Main);
    out.blank();
    out.line(format!(
        "findings {} ({} below threshold, {} duplicates folded)",
        shown.len(),
        below.len(),
        result.board.nodes.len() - shown.len()
    ));
    for node in main.iter().chain(below.iter()) {
        finding_text(out, result, node);
    }
}

/// One finding's line, with its evidence and where it was carried from.
fn finding_text(out: &mut Lines, result: &RoundSnapshot, node: &ReviewNode) {
    out.line(format!(
        "  {} {:<14} {:<15} {:>3}  {}  {}  [{}]{}{}",
        node.priority,
        node.kind.as_str(),
        node.status.as_str(),
        (node.confidence * 100.0).round() as u32,
        node.location(),
        node.text.title,
        found_by(result, node),
        if result.level.placement(node) == Placement::BelowThreshold {
            " (below threshold)"
        } else {
            ""
        },
        node.previously_dismissed
            .as_ref()
            .map(|r| format!(" (previously dismissed: {r})"))
            .unwrap_or_default(),
    ));
    if !node.consulted.is_empty() {
        out.line(format!(
            "      evidence: consulted {}",
            node.consulted.join(", ")
        ));
    }
    if let Some(from) = &node.carried {
        let closed = node
            .history
            .last()
            .filter(|_| !node.status.is_active())
            .and_then(|t| t.reason.as_deref())
            .map(|r| format!(", {r}"))
            .unwrap_or_default();
        out.line(format!(
            "      carried from round {} (not reported again){closed}",
            from.round
        ));
    }
}

fn disagreements_text(out: &mut Lines, result: &RoundSnapshot) {
    if !result.disagreements.is_empty() {
        out.blank();
        out.line(format!("disagreements {}", result.disagreements.len()));
        for d in &result.disagreements {
            out.line(format!("  {} vs {} on {}", d.a, d.b, d.path));
        }
    }
}

/// "cohorts": each with its blast radius and files, then the axes they decided.
fn cohorts_text(out: &mut Lines, result: &RoundSnapshot) {
    if let Some(cohorts) = &result.cohorts {
        out.blank();
        out.line(format!("cohorts {}", cohorts.cohorts.len()));
        for (i, cohort) in cohorts.cohorts.iter().enumerate() {
            let how = cohort
                .reason
                .as_deref()
                .map(|r| format!(", {r}"))
                .unwrap_or_default();
            out.line(format!(
                "  {}. {} (blast radius {}{how}): {}",
                i + 1,
                cohort.label,
                cohort.blast_radius,
                cohort.files.join(", ")
            ));
        }
        for axis in &cohorts.axes {
            let gated = if axis.gated { "gated" } else { "advisory" };
            out.line(format!(
                "  axis {} {} ({gated}): {}",
                axis.name, axis.verdict, axis.detail
            ));
        }
    }
}

fn reviewers_text(out: &mut Lines, result: &RoundSnapshot) {
    out.blank();
    out.line("reviewers");
    for r in result.board.reviewers.values() {
        let outcome = r.outcome.map(|o| o.as_str()).unwrap_or("unfinished");
        out.line(format!(
            "  {:<14} {:<14} {} {}  {}",
            r.name,
            outcome,
            r.findings,
            plural(r.findings, "finding", "findings"),
            r.note
        ));
    }
}

fn walkthrough_text(out: &mut Lines, result: &RoundSnapshot) {
    if !result.walkthrough.is_empty() {
        out.blank();
        out.line("walkthrough");
        for line in result.walkthrough.lines() {
            out.line(format!("  {line}"));
        }
    }
}

/// "model review": the estimate, what was spent, what verification removed.
fn model_review_text(out: &mut Lines, result: &RoundSnapshot) {
    let coverage = &result.coverage;
    if coverage.estimate.is_some() || !coverage.refuted.is_empty() || coverage.spent.is_some() {
        out.blank();
        out.line("model review");
        if let Some(estimate) = &coverage.estimate {
            out.line(format!("  {estimate}"));
        }
        if let Some(spent) = &coverage.spent {
            out.line(format!("  spent: {spent}"));
        }
        for refuted in &coverage.refuted {
            out.line(format!(
                "  removed by verification: {} ({}) in {}: {} — quote: {}",
                refuted.node_id, refuted.title, refuted.path, refuted.reason, refuted.quote
            ));
        }
    }
}

fn coverage_text(out: &mut Lines, result: &RoundSnapshot) {
    if !result.coverage.dropped.is_empty() || !result.coverage.notes.is_empty() {
        out.blank();
        out.line("coverage");
        for (reviewer, reason) in &result.coverage.dropped {
            out.line(format!("  dropped from {reviewer}: {reason}"));
        }
        for note in &result.coverage.notes {
            out.line(format!("  {note}"));
        }
    }
}
