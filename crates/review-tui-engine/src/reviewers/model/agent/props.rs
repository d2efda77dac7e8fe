//! Property tests of the model output parser: a model's (or a CLI agent's) final answer through
//! `extract_findings`, then each candidate through `check_finding`. Hostile answers never panic
//! and are refused with a reason; well-formed answers in every accepted wrapping give back
//! exactly the findings that were written.

use proptest::prelude::*;
use serde_json::{Value, json};

use super::{FindingsError, Refusal, check_finding, extract_findings};
use crate::review::node::NodeDraft;
use crate::review::tests::node_props::valid_draft;

/// One candidate finding: accepted, or refused with a reason.
type Checked = Result<NodeDraft, Refusal>;

/// The parser as the agent loop runs it: the answer's candidates, each checked.
fn parse_answer(text: &str) -> Result<(Vec<Checked>, Option<String>), FindingsError> {
    let found = extract_findings(text)?;
    let checked = found.items.iter().map(check_finding).collect();
    Ok((checked, found.summary))
}

/// What every answer must satisfy, whatever it is: the parser says why it refuses, and what it
/// accepts is a finding that validates.
fn holds_invariants(text: &str) -> Result<(), TestCaseError> {
    match parse_answer(text) {
        Err(reason) => prop_assert!(!reason.to_string().trim().is_empty()),
        Ok((checked, _)) => {
            for item in checked {
                match item {
                    Ok(draft) => prop_assert_eq!(draft.validate(true), Ok(())),
                    Err(reason) => prop_assert!(!reason.to_string().trim().is_empty()),
                }
            }
        }
    }
    Ok(())
}

/// Text made of the pieces that steer the parser: brackets, quotes, fences, the wrapper keys.
fn jsonish() -> impl Strategy<Value = String> {
    prop::collection::vec(
        prop_oneof![
            prop::sample::select(vec![
                "{",
                "}",
                "[",
                "]",
                "\"",
                ":",
                ",",
                "```",
                "```json\n",
                "\n",
                "findings",
                "\"findings\"",
                "\"summary\"",
                "\"result\"",
                "\"kind\"",
                "\"text\"",
                "null",
                "1",
                "-",
                "\\",
                "\\u00e9",
                "é",
                " ",
            ])
            .prop_map(str::to_owned),
            "[a-z0-9 ]{0,6}",
        ],
        0..80,
    )
    .prop_map(|pieces| pieces.concat())
}

/// Prose that holds no JSON start and no fence.
fn prose() -> impl Strategy<Value = String> {
    "[A-Za-z0-9 .,!?'\n-]{0,60}"
}

#[derive(Debug, Clone, Copy)]
enum Wrapping {
    BareArray,
    FindingsObject,
    SingleObject,
    FencedInProse,
    UnfencedInProse,
    CliResult,
}

fn wrapping() -> impl Strategy<Value = Wrapping> {
    prop::sample::select(vec![
        Wrapping::BareArray,
        Wrapping::FindingsObject,
        Wrapping::SingleObject,
        Wrapping::FencedInProse,
        Wrapping::UnfencedInProse,
        Wrapping::CliResult,
    ])
}

proptest! {
    #[test]
    fn arbitrary_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..1024)) {
        // The command provider reads stdout lossily; so does this.
        holds_invariants(&String::from_utf8_lossy(&bytes))?;
    }

    #[test]
    fn bytes_without_a_json_start_are_refused_with_a_reason(
        bytes in prop::collection::vec(any::<u8>(), 0..1024),
    ) {
        let bytes: Vec<u8> = bytes.into_iter().filter(|b| *b != b'{' && *b != b'[').collect();
        let text = String::from_utf8_lossy(&bytes);
        let refused = extract_findings(&text);
        prop_assert!(refused.is_err(), "{:?} accepted: {:?}", text, refused);
        prop_assert!(!refused.unwrap_err().to_string().trim().is_empty());
    }

    #[test]
    fn json_like_text_never_panics(text in jsonish()) {
        holds_invariants(&text)?;
        holds_invariants(&json!({"result": text}).to_string())?;
    }

    #[test]
    fn a_finding_with_one_field_replaced_is_refused_or_valid(
        draft in valid_draft(),
        field in prop::sample::select(vec![
            "kind", "priority", "triage", "rule", "anchor", "text", "fix", "confidence", "scope",
        ]),
        replacement in prop_oneof![
            Just(Value::Null),
            any::<i64>().prop_map(Value::from),
            ".{0,8}".prop_map(Value::from),
            Just(json!([])),
            Just(json!({})),
        ],
    ) {
        let mut payload = serde_json::to_value(&draft).unwrap();
        payload[field] = replacement;
        let answer = json!({"findings": [payload]}).to_string();
        let (checked, _) = parse_answer(&answer).unwrap();
        prop_assert_eq!(checked.len(), 1);
        match &checked[0] {
            Ok(accepted) => prop_assert_eq!(accepted.validate(true), Ok(())),
            Err(reason) => prop_assert!(!reason.as_str().is_empty()),
        }
    }

    #[test]
    fn well_formed_answers_round_trip_in_every_wrapping(
        drafts in prop::collection::vec(valid_draft(), 1..4),
        summary in proptest::option::of("[A-Za-z0-9 .,]{0,40}"),
        wrapping in wrapping(),
        inner in wrapping(),
        before in prose(),
        after in prose(),
    ) {
        let render = |wrapping: Wrapping| -> (String, Option<String>, usize) {
            let array = serde_json::to_string(&drafts).unwrap();
            let object = json!({"findings": drafts, "summary": summary}).to_string();
            match wrapping {
                Wrapping::BareArray => (array, None, drafts.len()),
                Wrapping::FindingsObject => (object, summary.clone(), drafts.len()),
                Wrapping::SingleObject => (serde_json::to_string(&drafts[0]).unwrap(), None, 1),
                Wrapping::FencedInProse => (
                    format!("{before}\n```json\n{object}\n```\n{after}"),
                    summary.clone(),
                    drafts.len(),
                ),
                Wrapping::UnfencedInProse => {
                    (format!("{before} {array} {after}"), None, drafts.len())
                }
                // A CLI wrapper holds one of the other forms as text.
                Wrapping::CliResult => (object, summary.clone(), drafts.len()),
            }
        };
        let (text, expected_summary, count) = match wrapping {
            Wrapping::CliResult => {
                let (inner_text, summary, count) = match inner {
                    Wrapping::CliResult => render(Wrapping::FindingsObject),
                    other => render(other),
                };
                (json!({"type": "result", "result": inner_text}).to_string(), summary, count)
            }
            other => render(other),
        };
        // A fence inside a finding's own text would end the block early; not this property.
        prop_assume!(!serde_json::to_string(&drafts).unwrap().contains("```"));
        let (checked, summary) = parse_answer(&text)
            .map_err(|e| TestCaseError::fail(format!("{e}\nfor {text}")))?;
        let accepted: Vec<NodeDraft> = checked
            .into_iter()
            .collect::<Result<_, _>>()
            .map_err(|e| TestCaseError::fail(format!("{e}\nfor {text}")))?;
        prop_assert_eq!(&accepted[..], &drafts[..count]);
        prop_assert_eq!(summary, expected_summary);
    }
}
