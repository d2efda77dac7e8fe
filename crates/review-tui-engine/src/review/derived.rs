//! What a round's findings add up to: the problems (duplicates folded), the disagreements and
//! the verdict. Computed here and only here, so the run, the recorded snapshot and the cockpit
//! can never disagree about what the same findings mean.

use crate::review::axes::Axis;
use crate::review::axis_override::{self, AxisOverride, PersonsDecision};
use crate::review::consolidate::{self, Problem};
use crate::review::disagreement::{Disagreement, disagreements};
use crate::review::node::ReviewNode;
use crate::review::verdict::{ReviewerRun, Verdict, VerdictFinding, VerdictInput, decide};

/// The derived part of a round.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Derived {
    pub problems: Vec<Problem>,
    pub disagreements: Vec<Disagreement>,
    pub verdict: Verdict,
}

/// What the verdict reads besides the findings.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Context {
    pub axes: Vec<Axis>,
    pub reviewers: Vec<ReviewerRun>,
    pub deterministic_only: bool,
    /// A model's own "APPROVE", for audit only: `decide` never reads it.
    pub model_verdict: Option<String>,
}

/// Folds duplicates (marking each demoted node with its primary), then finds the
/// disagreements and computes the verdict over the result.
pub(crate) fn derive(nodes: &mut [ReviewNode], context: Context) -> Derived {
    let problems = problems(nodes);
    let disagreements = disagreements(nodes);
    let verdict = verdict(nodes, context);
    Derived {
        problems,
        disagreements,
        verdict,
    }
}

/// The consolidation alone, applied to the nodes.
pub fn problems(nodes: &mut [ReviewNode]) -> Vec<Problem> {
    let problems = consolidate::consolidate(nodes);
    consolidate::apply(nodes, &problems);
    problems
}

/// The verdict alone, for a change that leaves problems and disagreements as they are.
pub fn verdict(nodes: &[ReviewNode], context: Context) -> Verdict {
    decide(&input(nodes, context))
}

/// The person's decision beside the code's `verdict`, from the same evidence with the axes
/// the person overrode cleared (`review::axis_override`); `None` when it is the code's.
pub fn persons_decision(
    nodes: &[ReviewNode],
    context: Context,
    verdict: &Verdict,
    overrides: &[AxisOverride],
) -> Option<PersonsDecision> {
    if overrides.is_empty() {
        return None;
    }
    axis_override::persons_decision(&input(nodes, context), verdict, overrides)
}

fn input(nodes: &[ReviewNode], context: Context) -> VerdictInput {
    VerdictInput {
        findings: nodes.iter().map(VerdictFinding::from).collect(),
        axes: context.axes,
        reviewers: context.reviewers,
        deterministic_only: context.deterministic_only,
        model_verdict: context.model_verdict,
    }
}
