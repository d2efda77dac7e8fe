//! The lead pass: a short walkthrough of the change and a suggested reading order per cohort.
//! It is editorial. It is given the cohorts and how many findings each file has — never the
//! findings themselves — so it cannot re-list them; the findings list is the one record.

use std::collections::BTreeMap;
use std::sync::Arc;

use serde_json::json;

use crate::cohort::Cohort;
use crate::review::node::ReviewNode;
use crate::reviewers::model::provider::{OutputSchema, Provider};
use crate::reviewers::model::roster::header;

use super::{Kit, PassError, Question, converse};

pub const LEAD: &str = "lead";

const RULES: &str = "\
Write the walkthrough a reviewer reads before the findings: what the change does, in a few \
sentences, then for each group of files (cohort) the order to read them in and what to look at \
in each. Do not list or repeat findings; the findings are shown separately. No praise. Plain \
text, at most about 200 words.";

fn schema() -> OutputSchema {
    OutputSchema {
        name: "walkthrough".into(),
        schema: json!({
            "type": "object",
            "additionalProperties": false,
            "properties": {
                "reasoning": {"type": "string"},
                "walkthrough": {"type": "string"}
            },
            "required": ["reasoning", "walkthrough"]
        }),
    }
}

/// The walkthrough text, or why there is none.
pub async fn run(
    kit: &Kit,
    provider: &Arc<dyn Provider>,
    title: &str,
    cohorts: &[Cohort],
    changed: &[String],
    nodes: &[ReviewNode],
) -> Result<String, PassError> {
    let mut per_file: BTreeMap<&str, usize> = BTreeMap::new();
    for node in nodes.iter().filter(|n| n.status.is_active()) {
        if let Some(anchor) = &node.anchor {
            *per_file.entry(anchor.path.as_str()).or_default() += 1;
        }
    }
    let mut user =
        format!("Pull request title (untrusted): {title}\n\nCohorts, ranked by blast radius:\n");
    for (i, cohort) in cohorts.iter().enumerate() {
        user.push_str(&format!(
            "{}. {} (blast radius {}): {}\n",
            i + 1,
            cohort.label,
            cohort.blast_radius,
            cohort.files.join(", ")
        ));
    }
    if cohorts.is_empty() {
        user.push_str(&format!(
            "(no cohorts) changed files: {}\n",
            changed.join(", ")
        ));
    }
    user.push_str("\nFindings per file (count only):\n");
    for path in changed {
        user.push_str(&format!(
            "- {path}: {}\n",
            per_file.get(path.as_str()).unwrap_or(&0)
        ));
    }
    kit.notes.progress(0, 1);
    let answer = converse(
        kit,
        Question {
            key: LEAD.into(),
            system: format!("{}\n\n{RULES}", header(LEAD, "walkthrough")),
            user,
            schema: schema(),
            tools: false,
            provider,
        },
    )
    .await;
    kit.notes.progress(1, 1);
    let (value, _) = answer?;
    let mut text = value["walkthrough"]
        .as_str()
        .unwrap_or("")
        .trim()
        .to_string();
    // A model-written field like any other: capped, the cut marked.
    crate::review::cap::cap(&mut text);
    if text.is_empty() {
        Err(PassError::NoWalkthrough)
    } else {
        Ok(text)
    }
}
