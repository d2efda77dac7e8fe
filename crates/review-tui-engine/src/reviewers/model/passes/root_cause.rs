//! Root cause (thorough level, blocking findings only): the engineer traces where the bad value
//! or the wrong behaviour originates, with the read-only tools, and writes a short note. It
//! proposes no fix: a fix chosen before the cause is understood is a guess.

use std::sync::Arc;

use serde_json::json;

use crate::review::node::{Priority, ReviewNode};
use crate::reviewers::model::provider::{OutputSchema, Provider};
use crate::reviewers::model::roster::header;

use super::{Kit, Question, converse, describe};

const RULES: &str = "\
Trace the root cause of the finding below, in the code at the pull request's head. Use the \
read-only tools: find where the bad value or the wrong behaviour originates (follow it upstream \
to where it is produced), and why. Report the cause and where it is, in a few sentences. Do not \
propose a fix. If the cause is unclear, say so.";

/// Findings that get a root-cause note: active, in scope, not duplicates, P0 or P1.
pub fn blocking(nodes: &[ReviewNode]) -> Vec<&ReviewNode> {
    nodes
        .iter()
        .filter(|n| n.status.is_active() && n.in_scope() && n.duplicate_of.is_none())
        .filter(|n| n.priority <= Priority::P1)
        .collect()
}

fn schema() -> OutputSchema {
    OutputSchema {
        name: "root_cause".into(),
        schema: json!({
            "type": "object",
            "additionalProperties": false,
            "properties": {
                "reasoning": {"type": "string"},
                "origin": {"type": "string", "description": "path:line where the cause is."},
                "root_cause": {"type": "string", "description": "The cause, without a fix."}
            },
            "required": ["reasoning", "origin", "root_cause"]
        }),
    }
}

/// (node id, note) for each traced finding, and coverage notes.
pub async fn run(
    kit: &Kit,
    engineer: &Arc<dyn Provider>,
    brief: &str,
    nodes: &[ReviewNode],
    cap: usize,
) -> (Vec<(String, String)>, Vec<String>) {
    let mut notes = Vec::new();
    let mut targets = blocking(nodes);
    if targets.len() > cap {
        notes.push(format!(
            "root cause traced for {cap} of {} blocking findings (the cap)",
            targets.len()
        ));
        targets.truncate(cap);
    }
    let slots = Arc::new(tokio::sync::Semaphore::new(kit.concurrency.max(1)));
    let mut tasks = tokio::task::JoinSet::new();
    for node in targets {
        let (kit, node, slots) = (kit.clone(), node.clone(), slots.clone());
        let (provider, brief) = (engineer.clone(), brief.to_string());
        tasks.spawn(async move {
            let _slot = slots.acquire_owned().await.ok();
            let answer = converse(
                &kit,
                Question {
                    key: format!("root-cause:{}", node.id),
                    system: format!(
                        "{}\n\n{}\n\n{RULES}",
                        header("engineer", &format!("root cause of {}", node.id)),
                        brief.trim()
                    ),
                    user: format!("The finding:\n{}", describe(&node)),
                    schema: schema(),
                    tools: true,
                    provider: &provider,
                },
            )
            .await;
            (node.id, answer)
        });
    }
    let asked = tasks.len();
    kit.notes.progress(0, asked);
    let mut traced = Vec::new();
    let mut done = 0;
    while let Some(Ok((id, answer))) = tasks.join_next().await {
        done += 1;
        kit.notes.progress(done, asked);
        match answer {
            Ok((value, _)) => {
                let cause = value["root_cause"].as_str().unwrap_or("").trim();
                let origin = value["origin"].as_str().unwrap_or("").trim();
                if cause.is_empty() {
                    notes.push(format!("root cause of {id}: no answer"));
                } else if origin.is_empty() {
                    traced.push((id, cause.to_string()));
                } else {
                    traced.push((id, format!("{cause} (origin: {origin})")));
                }
            }
            Err(reason) => notes.push(format!("root cause of {id} failed ({reason})")),
        }
    }
    traced.sort();
    notes.sort();
    (traced, notes)
}
