//! Confidence scoring: a cheaper model rescores each model finding 0–100 with a fixed rubric
//! (the seed's scoring phase). The score is stored beside the original confidence; the finding's
//! confidence becomes the lower of the two, so a scorer can make a finding less certain but never
//! lift it above what its reviewer and its evidence claimed.

use std::sync::Arc;

use serde_json::json;

use crate::review::node::{ReviewNode, Source};
use crate::reviewers::model::provider::{OutputSchema, Provider};
use crate::reviewers::model::roster::header;

use super::{Kit, Question, converse, describe};

pub const SCORER: &str = "scorer";

/// The rubric, as the seed gives it.
pub const RUBRIC: &str = "\
Rate how confident you are that this finding is real and matters, from 0 to 100. Follow this \
rubric exactly:
0 = a false positive that does not hold up to scrutiny, a pre-existing problem, or it does not \
actually violate anything.
25 = maybe real: it might be a bug but might be a false positive; could not verify; a style \
issue not in the project's guidance.
50 = real but minor: confirmed, but a nitpick, unlikely to happen in practice, low importance.
75 = highly confident: very likely real and important, verified, will affect functionality, or \
explicitly named in the project's guidance.
100 = absolutely certain: confirmed real, happens frequently, direct evidence, no doubt.
Do not score high: pre-existing problems (not introduced by this change), what a linter, type \
checker or compiler would catch, nitpicks a senior engineer would not raise, style not in the \
guidance, intentional changes that are the point of the pull request, lines the author did not \
modify, problems silenced by lint-ignore comments.";

#[derive(Debug, Clone, PartialEq)]
pub struct Scored {
    pub node_id: String,
    /// 0–100, clamped.
    pub score: u8,
    pub reasoning: String,
}

fn schema() -> OutputSchema {
    OutputSchema {
        name: "confidence_score".into(),
        schema: json!({
            "type": "object",
            "additionalProperties": false,
            "properties": {
                "reasoning": {"type": "string", "description": "One or two sentences, written before the score."},
                "score": {"type": "integer", "minimum": 0, "maximum": 100}
            },
            "required": ["reasoning", "score"]
        }),
    }
}

/// Scores `nodes` (each with the scorer of its reviewer's role); returns scores and notes.
pub async fn run(
    kit: &Kit,
    nodes: &[ReviewNode],
    scorer_for: &(dyn Fn(&str) -> Option<Arc<dyn Provider>> + Sync),
    cap: usize,
) -> (Vec<Scored>, Vec<String>) {
    let mut notes = Vec::new();
    let slots = Arc::new(tokio::sync::Semaphore::new(kit.concurrency.max(1)));
    let mut tasks = tokio::task::JoinSet::new();
    let mut count = 0;
    for node in nodes
        .iter()
        .filter(|n| n.origin.source == Source::Model && n.status.is_active())
    {
        let Some(provider) = scorer_for(&node.origin.reviewer) else {
            continue;
        };
        count += 1;
        if count > cap {
            notes.push(format!(
                "confidence scoring stopped at its cap of {cap} findings"
            ));
            break;
        }
        let (kit, node, slots) = (kit.clone(), node.clone(), slots.clone());
        tasks.spawn(async move {
            let _slot = slots.acquire_owned().await.ok();
            let answer = converse(
                &kit,
                Question {
                    key: format!("{SCORER}:{}", node.id),
                    system: format!(
                        "{}\n\n{RUBRIC}",
                        header(SCORER, &format!("score {}", node.id))
                    ),
                    user: format!("The finding:\n{}", describe(&node)),
                    schema: schema(),
                    tools: false,
                    provider: &provider,
                },
            )
            .await;
            (node.id, answer)
        });
    }
    let asked = tasks.len();
    kit.notes.progress(0, asked);
    let mut scored = Vec::new();
    let mut done = 0;
    while let Some(Ok((id, answer))) = tasks.join_next().await {
        done += 1;
        kit.notes.progress(done, asked);
        match answer {
            Ok((value, _)) => match value["score"].as_f64() {
                Some(score) => scored.push(Scored {
                    node_id: id,
                    score: score.clamp(0.0, 100.0).round() as u8,
                    reasoning: value["reasoning"].as_str().unwrap_or("").trim().to_string(),
                }),
                None => notes.push(format!("the scorer gave {id} no score; unchanged")),
            },
            Err(reason) => notes.push(format!("scoring {id} failed ({reason}); unchanged")),
        }
    }
    scored.sort_by(|a, b| a.node_id.cmp(&b.node_id));
    notes.sort();
    (scored, notes)
}
