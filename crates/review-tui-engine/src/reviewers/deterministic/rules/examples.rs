//! Every rule carries examples next to it in its TOML file: code it must flag and code it must
//! leave alone. Checking them runs the real scanner on a small diff built from each example, so
//! the examples test the whole path a finding takes (targets, test tracking, context, checks).

use std::collections::BTreeSet;
use std::fmt;

use super::catalog::Catalog;
use super::rule::{Example, Rule};
use super::scan::ScanOptions;
use crate::diff::{self, Side};

/// A rule whose examples are missing or do not behave.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExampleProblem {
    pub rule: String,
    pub problem: String,
}

impl fmt::Display for ExampleProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.rule, self.problem)
    }
}

impl Catalog {
    /// Checks every rule's examples: at least one positive and one negative each, positives
    /// flagged by the rule, negatives not. Empty when all is well.
    pub fn verify_examples(&self) -> Vec<ExampleProblem> {
        let mut problems = Vec::new();
        for rule in self.rules() {
            let mut problem = |problem: String| {
                problems.push(ExampleProblem {
                    rule: rule.id.clone(),
                    problem,
                })
            };
            if rule.examples.positive.is_empty() {
                problem("has no positive example".into());
            }
            if rule.examples.negative.is_empty() {
                problem("has no negative example".into());
            }
            let cases = rule
                .examples
                .positive
                .iter()
                .map(|e| (true, e))
                .chain(rule.examples.negative.iter().map(|e| (false, e)));
            for (should_fire, example) in cases {
                match self.fires_on(rule, example) {
                    Ok(fired) if fired == should_fire => {}
                    Ok(fired) => problem(format!(
                        "{} example {} flagged: {}",
                        if should_fire { "positive" } else { "negative" },
                        if fired { "was" } else { "was not" },
                        describe(example)
                    )),
                    Err(reason) => problem(format!("example does not parse ({reason})")),
                }
            }
        }
        problems
    }

    pub(super) fn fires_on(&self, rule: &Rule, example: &Example) -> Result<bool, diff::DiffError> {
        let (text, repo_files) = match example {
            Example::Snippet { path, text } => (snippet_diff(path, text, rule.side), None),
            Example::Diff { text, repo_files } => (text.clone(), repo_files.clone()),
        };
        let parsed = diff::parse(&text)?;
        let options = ScanOptions {
            repo_files: repo_files.map(|files| files.into_iter().collect::<BTreeSet<_>>()),
            ..ScanOptions::default()
        };
        let result = self.scan(&parsed, &options);
        Ok(result
            .nodes
            .iter()
            .any(|node| node.rule.as_deref() == Some(rule.id.as_str())))
    }
}

fn describe(example: &Example) -> String {
    match example {
        Example::Snippet { path, text } => format!("{path}: {text:?}"),
        Example::Diff { text, .. } => format!("diff {:?}", text.lines().next().unwrap_or("")),
    }
}

/// A diff adding `text` as a new file (RIGHT rules), or removing it from a file (LEFT rules).
pub(crate) fn snippet_diff(path: &str, text: &str, side: Side) -> String {
    let lines: Vec<&str> = text.split('\n').collect();
    let count = lines.len();
    let mut out = format!("diff --git a/{path} b/{path}\n");
    match side {
        Side::Right => {
            out.push_str(&format!(
                "new file mode 100644\n--- /dev/null\n+++ b/{path}\n@@ -0,0 +1,{count} @@\n"
            ));
            for line in lines {
                out.push_str(&format!("+{line}\n"));
            }
        }
        Side::Left => {
            out.push_str(&format!(
                "--- a/{path}\n+++ b/{path}\n@@ -1,{} +1,1 @@\n",
                count + 1
            ));
            for line in lines {
                out.push_str(&format!("-{line}\n"));
            }
            out.push_str(" // the rest of the file\n");
        }
    }
    out
}
