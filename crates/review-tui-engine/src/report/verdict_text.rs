//! The verdict as a reader sees it: a text block for people, a JSON object for pipelines.

use serde_json::{Value, json};

use crate::review::verdict::Verdict;

/// `HOLD (confidence 72)` then the reasons, the counts and the model's verdict for audit.
pub fn text(verdict: &Verdict) -> String {
    let mut out = format!(
        "{} (confidence {})\n",
        verdict.decision.label().to_uppercase(),
        crate::review::verdict::percent(verdict.confidence)
    );
    for reason in &verdict.reasons {
        out.push_str(&format!("  - {reason}\n"));
    }
    let c = &verdict.counts;
    out.push_str(&format!(
        "findings: {} counted (P0 {} · P1 {} · P2 {} · P3 {}), {} blocking, {} of unknown category, {} out of scope, {} duplicates, {} resolved, {} dismissed\n",
        c.counted, c.p0, c.p1, c.p2, c.p3, c.blocking, c.unknown_category, c.out_of_scope, c.duplicates, c.resolved, c.dismissed
    ));
    if let Some(model) = &verdict.model_verdict {
        out.push_str(&format!(
            "model verdict (kept for audit, never read): {model}\n"
        ));
    }
    out
}

pub fn json(verdict: &Verdict) -> Value {
    json!({
        "decision": verdict.decision.as_str(),
        "confidence": round3(verdict.confidence),
        "reasons": verdict.reasons,
        "model_verdict": verdict.model_verdict,
        "counts": verdict.counts,
    })
}

/// Three decimals: enough to compare, free of float noise like 0.7000000000000001.
pub fn round3(x: f64) -> f64 {
    (x * 1000.0).round() / 1000.0
}
