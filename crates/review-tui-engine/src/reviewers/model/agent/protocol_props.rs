//! The reviewer protocol as a property: for any sequence of model answers — prose, stray JSON,
//! broken and valid tool calls, invalid and corrected findings, failed turns — a clean change
//! (no deterministic finding) never Ships unless the reviewer ended through a valid `finish`,
//! made in a readable answer that did not fail, with every refused finding resubmitted valid.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

use proptest::prelude::*;
use serde_json::{Value, json};
use tokio::sync::{mpsc, watch};

use super::{Agent, NoRedaction, ReviewerSpec};
use crate::review::events::{EventKind, RunId};
use crate::review::node::NodeDraft;
use crate::review::tests::node_props::valid_draft;
use crate::review::verdict::{
    Decision, Outcome, ReviewerRun, VerdictFinding, VerdictInput, decide,
};
use crate::reviewers::model::provider::{
    BoxFuture, Capabilities, ChatRequest, ChatResponse, FinishReason, Provider, ProviderError,
    StructuredOutput, ToolCall, Usage,
};
use crate::reviewers::model::toolbox::NoTools;

/// Answers in order, then fails: a model that runs out of answers never ends a review.
struct Scripted(Mutex<VecDeque<ChatResponse>>);

impl Provider for Scripted {
    fn name(&self) -> &str {
        "scripted"
    }

    fn model(&self) -> &str {
        "scripted"
    }

    fn capabilities(&self) -> Capabilities {
        Capabilities {
            tools: true,
            structured: StructuredOutput::Text,
        }
    }

    fn chat<'a>(
        &'a self,
        _request: &'a ChatRequest,
    ) -> BoxFuture<'a, Result<ChatResponse, ProviderError>> {
        let next = self.0.lock().unwrap().pop_front();
        Box::pin(async move { next.ok_or_else(|| ProviderError::config("scripted", "no answer")) })
    }
}

/// One tool call of a scripted answer. Findings carry a title from a small pool, so a refusal
/// and its resubmission can meet.
#[derive(Debug, Clone)]
enum Call {
    Finish,
    FinishMalformed,
    FinishWith { title: u8, valid: bool },
    Add { title: u8, valid: bool },
    Unknown,
}

#[derive(Debug, Clone)]
enum Answer {
    Text(String),
    Empty,
    Calls {
        calls: Vec<Call>,
        failed: bool,
        malformed: bool,
    },
}

fn call() -> impl Strategy<Value = Call> {
    prop_oneof![
        Just(Call::Finish),
        Just(Call::FinishMalformed),
        (0u8..3, any::<bool>()).prop_map(|(title, valid)| Call::FinishWith { title, valid }),
        (0u8..3, any::<bool>()).prop_map(|(title, valid)| Call::Add { title, valid }),
        Just(Call::Unknown),
    ]
}

fn answer() -> impl Strategy<Value = Answer> {
    prop_oneof![
        prop::sample::select(vec![
            "Looks fine to me. VERDICT: APPROVE",
            "{\"findings\": []}",
            "{\"verdict\": \"APPROVE\"}",
            "{}",
            "null",
        ])
        .prop_map(|t| Answer::Text(t.to_owned())),
        Just(Answer::Empty),
        (
            prop::collection::vec(call(), 1..4),
            prop::bool::weighted(0.15),
            prop::bool::weighted(0.15),
        )
            .prop_map(|(calls, failed, malformed)| Answer::Calls {
                calls,
                failed,
                malformed
            }),
    ]
}

fn payload(draft: &NodeDraft, title: u8, valid: bool) -> Value {
    let mut draft = draft.clone();
    draft.text.title = format!("finding {title}");
    let mut value = serde_json::to_value(&draft).unwrap();
    if !valid {
        value["confidence"] = json!(1.5);
    }
    value
}

fn response(answer: &Answer, draft: &NodeDraft, n: usize) -> ChatResponse {
    let (text, tool_calls, finish, malformed) = match answer {
        Answer::Text(text) => (Some(text.clone()), Vec::new(), FinishReason::Stop, false),
        Answer::Empty => (None, Vec::new(), FinishReason::Stop, false),
        Answer::Calls {
            calls,
            failed,
            malformed,
        } => {
            let calls = calls
                .iter()
                .enumerate()
                .map(|(i, c)| {
                    let (name, arguments) = match c {
                        Call::Finish => ("finish", json!({"summary": "done"})),
                        Call::FinishMalformed => ("finish", json!("{\"summary\": ")),
                        Call::FinishWith { title, valid } => (
                            "finish",
                            json!({"summary": "done", "findings": [payload(draft, *title, *valid)]}),
                        ),
                        Call::Add { title, valid } => {
                            ("add_review_node", payload(draft, *title, *valid))
                        }
                        Call::Unknown => ("approve_pull_request", json!({})),
                    };
                    ToolCall {
                        id: format!("c{n}_{i}"),
                        name: name.into(),
                        arguments,
                    }
                })
                .collect();
            let finish = if *failed {
                FinishReason::Failed {
                    reason: "error".into(),
                }
            } else {
                FinishReason::ToolCalls
            };
            (None, calls, finish, *malformed)
        }
    };
    ChatResponse {
        text,
        tool_calls,
        finish,
        usage: Usage {
            input_tokens: 10,
            output_tokens: 10,
        },
        malformed: if malformed {
            vec!["tool call 9 has no function name".into()]
        } else {
            Vec::new()
        },
        unread: Vec::new(),
    }
}

/// Whether the script holds what a finished review needs, read the simple way: a readable,
/// non-failed answer with a finish whose arguments are an object, and by then every refused
/// title resubmitted valid.
fn finished_validly(answers: &[Answer]) -> bool {
    let mut owed: Vec<u8> = Vec::new();
    for answer in answers {
        let Answer::Calls {
            calls,
            failed,
            malformed,
        } = answer
        else {
            continue;
        };
        if *failed {
            continue;
        }
        // The loop runs a turn's other calls first, its finish calls last.
        fn settle(owed: &mut Vec<u8>, title: u8, valid: bool) {
            if valid {
                if let Some(at) = owed.iter().position(|t| *t == title) {
                    owed.remove(at);
                }
            } else {
                owed.push(title);
            }
        }
        for call in calls {
            if let Call::Add { title, valid } = call {
                settle(&mut owed, *title, *valid);
            }
        }
        for call in calls {
            let finish = match call {
                Call::FinishWith { title, valid } => {
                    settle(&mut owed, *title, *valid);
                    true
                }
                Call::Finish => true,
                _ => false,
            };
            if finish && !malformed && owed.is_empty() {
                return true;
            }
        }
    }
    false
}

fn run(answers: &[Answer], draft: &NodeDraft) -> (Outcome, Decision) {
    let responses = answers
        .iter()
        .enumerate()
        .map(|(n, a)| response(a, draft, n))
        .collect();
    let agent = Agent::new(
        Arc::new(Scripted(Mutex::new(responses))),
        Arc::new(NoTools),
        Arc::new(NoRedaction),
    );
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let (events, mut received) = mpsc::channel::<crate::review::events::ReviewEvent>(64);
        let (_cancel, cancelled) = watch::channel(false);
        let spec = ReviewerSpec::new(RunId(1), "engineer", "brief", Vec::new());
        let collect = async {
            let mut nodes = Vec::new();
            while let Some(event) = received.recv().await {
                if let EventKind::NodeAdded { node } = event.kind {
                    nodes.push(*node);
                }
            }
            nodes
        };
        let (report, nodes) = tokio::join!(agent.run(spec, events, cancelled), collect);
        let verdict = decide(&VerdictInput {
            findings: nodes.iter().map(VerdictFinding::from).collect(),
            axes: Vec::new(),
            reviewers: vec![ReviewerRun {
                role: "engineer".into(),
                required: true,
                outcome: report.outcome,
                reason: None,
            }],
            deterministic_only: false,
            model_verdict: None,
        });
        (report.outcome, verdict.decision)
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn a_clean_change_ships_only_after_a_valid_finish(
        answers in prop::collection::vec(answer(), 0..6),
        draft in valid_draft(),
    ) {
        let (outcome, decision) = run(&answers, &draft);
        if decision == Decision::Ship {
            prop_assert_eq!(outcome, Outcome::Ok);
        }
        if outcome == Outcome::Ok {
            prop_assert!(finished_validly(&answers), "ended OK on {:#?}", answers);
        }
    }
}

/// Found by the property: a finish carrying an invalid finding in an answer with a broken call,
/// then a plain finish. The finding must be refused (and owed), not dropped with the turn.
#[test]
fn a_finding_in_a_finish_beside_a_broken_call_is_owed_not_dropped() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    let draft = valid_draft()
        .new_tree(&mut TestRunner::deterministic())
        .unwrap()
        .current();
    let answers = [
        Answer::Calls {
            calls: vec![Call::FinishWith {
                title: 0,
                valid: false,
            }],
            failed: false,
            malformed: true,
        },
        Answer::Calls {
            calls: vec![Call::Finish],
            failed: false,
            malformed: false,
        },
    ];
    assert!(!finished_validly(&answers));
    let (outcome, _) = run(&answers, &draft);
    assert_ne!(outcome, Outcome::Ok);
}
