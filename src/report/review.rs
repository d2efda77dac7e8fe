//! The report of a reviewed round: the decision and one line of facts first, then findings,
//! disagreements, cohorts, reviewers and coverage. JSON extends the prepare report's shape.

use serde_json::{Value, json};

use crate::report::headless;
use crate::report::verdict_text::round3;
use crate::review::consolidate::join_names;
use crate::review::level::Placement;
use crate::review::node::ReviewNode;
use crate::review::verdict::Decision;
use crate::session::prepare::Prepared;
use crate::session::snapshot::RoundSnapshot;

/// "BLOCK · confidence 0.95 · gate failed · 4 files reviewed · deterministic-only": the first
/// line of every report and of the posted summary.
pub fn facts_line(result: &RoundSnapshot) -> String {
    let verdict = &result.verdict;
    let gate = if verdict.decision == Decision::Ship {
        "gate passed"
    } else {
        "gate failed"
    };
    let mut parts = vec![
        verdict.decision.label().to_uppercase(),
        format!("confidence {:.2}", verdict.confidence),
        gate.to_string(),
        format!("{} files reviewed", result.coverage.files_reviewed.len()),
    ];
    if !result.coverage.files_skipped.is_empty() {
        parts.push(format!("{} skipped", result.coverage.files_skipped.len()));
    }
    parts.push(format!("level {}", result.level));
    if result.deterministic_only {
        parts.push("deterministic-only".into());
    }
    parts.join(" · ")
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
        "evidence": node.text.evidence,
        "impact": node.text.impact,
        "verification": node.text.verification,
        "confirmations": node.confirmations,
        "disputes": node.disputes,
        "root_cause": node.root_cause,
        "scoring": node.scoring,
    })
}

pub fn json(prepared: &Prepared, result: &RoundSnapshot, forced: bool) -> Value {
    let mut report = headless::json(prepared, forced);
    let verdict = &result.verdict;
    let object = report
        .as_object_mut()
        .expect("the prepare report is an object");
    object.insert("facts".into(), Value::String(facts_line(result)));
    object.insert(
        "verdict".into(),
        json!({
            "decision": verdict.decision.as_str(),
            "confidence": round3(verdict.confidence),
            "reasons": verdict.reasons,
            "counts": verdict.counts,
            "axes": result.cohorts.as_ref().map(|c| &c.axes),
            "deterministic_only": result.deterministic_only,
            "level": result.level.as_str(),
            "model_verdict": verdict.model_verdict,
        }),
    );
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
    object.insert(
        "findings".into(),
        Value::Array(
            result
                .board
                .nodes
                .iter()
                .map(|node| finding_json(result, node))
                .collect(),
        ),
    );
    object.insert("disagreements".into(), json!(result.disagreements));
    object.insert(
        "reviewers".into(),
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
        ),
    );
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
    let (_, decision) = crate::report::markdown::headline(result);
    let mut out = format!("{decision}\n{}\n", facts_line(result));
    for reason in &result.verdict.reasons {
        out.push_str(&format!("  - {reason}\n"));
    }
    out.push('\n');
    out.push_str(&headless::text(prepared, forced));

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
    out.push_str(&format!(
        "\nfindings {} ({} below threshold, {} duplicates folded)\n",
        shown.len(),
        below.len(),
        result.board.nodes.len() - shown.len()
    ));
    for node in main.iter().chain(below.iter()) {
        out.push_str(&format!(
            "  {} {:<14} {:<15} {:>3}  {}  {}  [{}]{}{}\n",
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
    }
    if !result.disagreements.is_empty() {
        out.push_str(&format!("\ndisagreements {}\n", result.disagreements.len()));
        for d in &result.disagreements {
            out.push_str(&format!("  {} vs {} on {}\n", d.a, d.b, d.path));
        }
    }
    if let Some(cohorts) = &result.cohorts {
        out.push_str(&format!("\ncohorts {}\n", cohorts.cohorts.len()));
        for (i, cohort) in cohorts.cohorts.iter().enumerate() {
            let how = cohort
                .reason
                .as_deref()
                .map(|r| format!(", {r}"))
                .unwrap_or_default();
            out.push_str(&format!(
                "  {}. {} (blast radius {}{how}): {}\n",
                i + 1,
                cohort.label,
                cohort.blast_radius,
                cohort.files.join(", ")
            ));
        }
        for axis in &cohorts.axes {
            let gated = if axis.gated { "gated" } else { "advisory" };
            out.push_str(&format!(
                "  axis {} {} ({gated}): {}\n",
                axis.name, axis.verdict, axis.detail
            ));
        }
    }
    out.push_str("\nreviewers\n");
    for r in result.board.reviewers.values() {
        let outcome = r.outcome.map(|o| o.as_str()).unwrap_or("unfinished");
        out.push_str(&format!(
            "  {:<14} {:<14} {} findings  {}\n",
            r.name, outcome, r.findings, r.note
        ));
    }
    if !result.walkthrough.is_empty() {
        out.push_str("\nwalkthrough\n");
        for line in result.walkthrough.lines() {
            out.push_str(&format!("  {line}\n"));
        }
    }
    let coverage = &result.coverage;
    if coverage.estimate.is_some() || !coverage.refuted.is_empty() || coverage.spent.is_some() {
        out.push_str("\nmodel review\n");
        if let Some(estimate) = &coverage.estimate {
            out.push_str(&format!("  {estimate}\n"));
        }
        if let Some(spent) = &coverage.spent {
            out.push_str(&format!("  spent: {spent}\n"));
        }
        for refuted in &coverage.refuted {
            out.push_str(&format!(
                "  removed by verification: {} ({}) in {}: {} — quote: {}\n",
                refuted.node_id, refuted.title, refuted.path, refuted.reason, refuted.quote
            ));
        }
    }
    if !result.coverage.dropped.is_empty() || !result.coverage.notes.is_empty() {
        out.push_str("\ncoverage\n");
        for (reviewer, reason) in &result.coverage.dropped {
            out.push_str(&format!("  dropped from {reviewer}: {reason}\n"));
        }
        for note in &result.coverage.notes {
            out.push_str(&format!("  {note}\n"));
        }
    }
    out
}
