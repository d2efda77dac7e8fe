//! Property tests of the providers' answer parsing: whatever JSON a server sends back, reading
//! it never panics (a malformed answer is a decode error); a tool call carrying a finding comes
//! back out as exactly that finding.

use std::sync::LazyLock;

use proptest::prelude::*;
use serde_json::{Value, json};

use super::{
    AnthropicConfig, AnthropicProvider, OpenAiConfig, OpenAiProvider, Profile, ToolCall,
    arguments_text, parse_arguments,
};
use crate::review::tests::node_props::valid_draft;
use crate::reviewers::model::agent::check_finding;

/// Built once: a provider holds an HTTP client, whose TLS setup costs more than a case.
fn openai() -> &'static OpenAiProvider {
    static PROVIDER: LazyLock<OpenAiProvider> = LazyLock::new(|| {
        OpenAiProvider::new(OpenAiConfig::new(
            "http://127.0.0.1:1/v1",
            "m",
            Profile::Generic,
        ))
        .unwrap()
    });
    &PROVIDER
}

fn anthropic() -> &'static AnthropicProvider {
    static PROVIDER: LazyLock<AnthropicProvider> = LazyLock::new(|| {
        AnthropicProvider::new(AnthropicConfig::new("http://127.0.0.1:1", "m", None)).unwrap()
    });
    &PROVIDER
}

/// Small JSON whose keys are often the wire format's own, so parsing gets past the envelope.
fn wire_json() -> impl Strategy<Value = Value> {
    let key = prop::sample::select(vec![
        "choices",
        "message",
        "content",
        "tool_calls",
        "function",
        "name",
        "arguments",
        "id",
        "type",
        "finish_reason",
        "refusal",
        "usage",
        "prompt_tokens",
        "completion_tokens",
        "input_tokens",
        "output_tokens",
        "cache_creation_input_tokens",
        "cache_read_input_tokens",
        "stop_reason",
        "text",
        "tool_use",
        "input",
        "role",
    ]);
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        prop::sample::select(vec![
            "stop",
            "tool_calls",
            "length",
            "content_filter",
            "function",
            "text",
            "tool_use",
            "end_turn",
            "max_tokens",
            "add_review_node",
            "{",
            "{\"kind\": 1}",
            "",
        ])
        .prop_map(Value::from),
        ".{0,10}".prop_map(Value::from),
    ];
    leaf.prop_recursive(5, 64, 6, move |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::vec((key.clone(), inner), 0..6).prop_map(|pairs| Value::Object(
                pairs.into_iter().map(|(k, v)| (k.to_owned(), v)).collect()
            )),
        ]
    })
}

proptest! {
    #[test]
    fn any_openai_answer_parses_or_is_a_decode_error(body in wire_json()) {
        if let Ok(response) = openai().parse_response(body) {
            for call in &response.tool_calls {
                prop_assert!(!call.id.is_empty());
                let _ = check_finding(&call.arguments);
            }
            let _ = response.usage.total();
        }
    }

    #[test]
    fn any_anthropic_answer_parses_or_is_a_decode_error(body in wire_json()) {
        if let Ok(response) = anthropic().parse_response(body) {
            for call in &response.tool_calls {
                let _ = check_finding(&call.arguments);
            }
            let _ = response.usage.total();
        }
    }

    #[test]
    fn huge_token_counts_never_overflow(
        a in any::<u64>(), b in any::<u64>(), c in any::<u64>(), d in any::<u64>(),
    ) {
        let body = json!({"content": [], "stop_reason": "end_turn", "usage": {
            "input_tokens": a, "output_tokens": b,
            "cache_creation_input_tokens": c, "cache_read_input_tokens": d}});
        let usage = anthropic().parse_response(body).unwrap().usage;
        prop_assert!(usage.input_tokens >= a);
        prop_assert!(usage.total() >= usage.output_tokens);
        let body = json!({"choices": [{"message": {"content": "x"}, "finish_reason": "stop"}],
            "usage": {"prompt_tokens": a, "completion_tokens": b}});
        let usage = openai().parse_response(body).unwrap().usage;
        prop_assert!(usage.total() >= usage.input_tokens.max(usage.output_tokens));
    }

    #[test]
    fn raw_arguments_are_kept_verbatim_or_parsed(raw in ".{0,64}") {
        let arguments = parse_arguments(&raw);
        if raw.trim().is_empty() {
            prop_assert_eq!(arguments, json!({}));
        } else if serde_json::from_str::<Value>(&raw).is_err() {
            prop_assert_eq!(arguments_text(&arguments), raw.clone());
            // Unparseable arguments never become a finding, and the model is told why.
            let refused = check_finding(&arguments).unwrap_err();
            prop_assert!(refused.as_str().contains("not valid JSON"), "{}", refused);
        }
    }

    #[test]
    fn a_finding_sent_as_a_tool_call_round_trips(draft in valid_draft(), as_string in any::<bool>()) {
        let arguments = serde_json::to_string(&draft).unwrap();
        // OpenAI sends arguments as a JSON string; some local servers send the object itself.
        let wire_arguments = if as_string {
            Value::String(arguments.clone())
        } else {
            serde_json::from_str(&arguments).unwrap()
        };
        let body = json!({"choices": [{"message": {"role": "assistant", "content": null,
            "tool_calls": [{"id": "call_a", "type": "function",
                "function": {"name": "add_review_node", "arguments": wire_arguments}}]},
            "finish_reason": "tool_calls"}]});
        let response = openai().parse_response(body).unwrap();
        let call: &ToolCall = &response.tool_calls[0];
        prop_assert_eq!(&call.name, "add_review_node");
        prop_assert_eq!(check_finding(&call.arguments), Ok(draft.clone()));

        let body = json!({"content": [{"type": "tool_use", "id": "toolu_1",
            "name": "add_review_node", "input": serde_json::to_value(&draft).unwrap()}],
            "stop_reason": "tool_use"});
        let response = anthropic().parse_response(body).unwrap();
        prop_assert_eq!(check_finding(&response.tool_calls[0].arguments), Ok(draft));
    }
}
