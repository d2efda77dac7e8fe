//! A person's override of a gated axis that holds the verdict (`x` on the axis's reason row,
//! with a required reason). The verdict by code is never rewritten: the person's decision is
//! computed beside it, from the same evidence with the overridden axes cleared. An override is
//! bound to the axis's exact result (its status and detail): a round whose result differs is
//! not overridden, the axis holds again.

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::review::Decision;
use crate::review::axes::{Axis, AxisVerdict};
use crate::review::verdict::{Verdict, VerdictInput, decide};

/// One override, as the space keeps it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AxisOverride {
    /// The axis's name (`apiContract`).
    pub axis: String,
    /// [`result_hash`] of the axis's result the person saw.
    pub result: String,
    /// Who overrode it.
    pub by: String,
    /// Why, as the person typed it (redacted and escaped where it leaves).
    pub reason: String,
}

/// The axis's exact result, as a hash of its status and detail.
pub fn result_hash(axis: &Axis) -> String {
    let mut hasher = Sha256::new();
    hasher.update(axis.verdict.as_str().as_bytes());
    hasher.update([0]);
    hasher.update(axis.detail.as_bytes());
    format!("{:x}", hasher.finalize())
}

/// Whether `axis`, as it stands, is overridden: a gated axis not cleared, with an override
/// bound to this very result.
pub fn applies<'a>(axis: &Axis, overrides: &'a [AxisOverride]) -> Option<&'a AxisOverride> {
    if !axis.gated || axis.verdict.clears_gate() {
        return None;
    }
    let hash = result_hash(axis);
    overrides
        .iter()
        .rev()
        .find(|o| o.axis == axis.name && o.result == hash)
}

/// Overrides of an axis whose result changed since: they no longer apply.
pub fn stale<'a>(axes: &[Axis], overrides: &'a [AxisOverride]) -> Vec<&'a AxisOverride> {
    overrides
        .iter()
        .filter(|o| {
            axes.iter()
                .filter(|a| a.name == o.axis && a.gated && !a.verdict.clears_gate())
                .any(|a| result_hash(a) != o.result)
        })
        .filter(|o| {
            !axes
                .iter()
                .any(|a| applies(a, std::slice::from_ref(*o)).is_some())
        })
        .collect()
}

/// The person's decision beside the code's.
#[derive(Debug, Clone, PartialEq)]
pub struct PersonsDecision {
    /// What the evidence decides with the overridden axes cleared.
    pub decision: Decision,
    /// The overrides that apply, in the axes' order.
    pub overrides: Vec<AxisOverride>,
}

/// The decision with every applying override's axis cleared; `None` when no override applies
/// or clearing them changes nothing (something else holds the verdict as strictly).
pub fn persons_decision(
    input: &VerdictInput,
    code: &Verdict,
    overrides: &[AxisOverride],
) -> Option<PersonsDecision> {
    let mut applied = Vec::new();
    let mut cleared = input.clone();
    for axis in &mut cleared.axes {
        if let Some(o) = applies(axis, overrides) {
            applied.push(o.clone());
            axis.verdict = AxisVerdict::Pass;
        }
    }
    if applied.is_empty() {
        return None;
    }
    let decision = decide(&cleared).decision;
    (decision != code.decision).then_some(PersonsDecision {
        decision,
        overrides: applied,
    })
}

/// "overridden by ana: <reason>" for each override, one line each.
pub fn lines(decision: &PersonsDecision) -> Vec<String> {
    decision
        .overrides
        .iter()
        .map(|o| format!("{} overridden by {}: {}", o.axis, o.by, o.reason))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn axis(verdict: AxisVerdict, detail: &str) -> Axis {
        Axis {
            name: "apiContract".to_string(),
            verdict,
            gated: true,
            detail: detail.to_string(),
        }
    }

    fn input(axes: Vec<Axis>) -> VerdictInput {
        VerdictInput {
            findings: Vec::new(),
            axes,
            reviewers: Vec::new(),
            deterministic_only: true,
            model_verdict: None,
        }
    }

    fn over(a: &Axis) -> AxisOverride {
        AxisOverride {
            axis: a.name.clone(),
            result: result_hash(a),
            by: "ana".to_string(),
            reason: "the break is intended".to_string(),
        }
    }

    /// The code still blocks; the person's decision beside it ships.
    #[test]
    fn an_override_of_the_only_reason_ships_beside_the_codes_block() {
        let failing = axis(AxisVerdict::Fail, "src/a.rs: `f` removed");
        let input = input(vec![failing.clone()]);
        let code = decide(&input);
        assert_eq!(code.decision, Decision::Block);
        let person = persons_decision(&input, &code, &[over(&failing)]).unwrap();
        assert_eq!(person.decision, Decision::Ship);
        assert_eq!(decide(&input).decision, Decision::Block);
        assert_eq!(
            lines(&person),
            ["apiContract overridden by ana: the break is intended"]
        );
    }

    /// Bound to the exact result: another detail or status is not overridden, and says so.
    #[test]
    fn an_override_does_not_apply_to_a_different_result() {
        let seen = axis(AxisVerdict::Fail, "src/a.rs: `f` removed");
        let o = over(&seen);
        for now in [
            axis(AxisVerdict::Fail, "src/a.rs: `g` removed"),
            axis(AxisVerdict::Unavailable, "src/a.rs: `f` removed"),
        ] {
            let input = input(vec![now.clone()]);
            let code = decide(&input);
            assert_eq!(
                persons_decision(&input, &code, std::slice::from_ref(&o)),
                None
            );
            assert_eq!(stale(&[now], std::slice::from_ref(&o)), [&o]);
        }
        assert!(stale(&[seen], std::slice::from_ref(&o)).is_empty());
    }

    /// Something else still holding (another gated axis) leaves no person's decision.
    #[test]
    fn nothing_changes_while_another_reason_holds() {
        let a = axis(AxisVerdict::Fail, "x");
        let mut b = axis(AxisVerdict::Fail, "y");
        b.name = "performance".to_string();
        let input = input(vec![a.clone(), b]);
        let code = decide(&input);
        assert_eq!(persons_decision(&input, &code, &[over(&a)]), None);
    }
}
