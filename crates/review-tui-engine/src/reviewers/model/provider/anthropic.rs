//! Anthropic's Messages API (`POST {base}/v1/messages`): tools as `{name, description,
//! input_schema}`, calls and results as content blocks. It has no `response_format`, so a
//! reviewer without tools is held to JSON by the prompt and the tolerant parser.

use std::time::Duration;

use reqwest::header::HeaderValue;
use serde::Deserialize;
use serde_json::{Map, Value, json};

use super::error::ProviderError;
use super::http::{ApiKey, Endpoint, EndpointConfig, RetryPolicy};
use super::{
    BoxFuture, Capabilities, ChatRequest, ChatResponse, FinishReason, Message, Provider,
    StructuredOutput, ToolCall, Usage,
};

pub(super) const DEFAULT_ANTHROPIC_BASE_URL: &str = "https://api.anthropic.com";
/// Used only when no model was named.
pub(super) const DEFAULT_ANTHROPIC_MODEL: &str = "claude-sonnet-4-5";
pub(super) const ANTHROPIC_VERSION: &str = "2023-06-01";
const KEY_VAR: &str = "ANTHROPIC_API_KEY";
const PROVIDER: &str = "anthropic";

#[derive(Debug, Clone)]
pub struct AnthropicConfig {
    /// Without the version path: `https://api.anthropic.com`.
    pub base_url: String,
    pub model: String,
    pub key: Option<ApiKey>,
    pub retry: RetryPolicy,
    pub timeout: Duration,
}

impl AnthropicConfig {
    pub fn new(base_url: impl Into<String>, model: impl Into<String>, key: Option<ApiKey>) -> Self {
        AnthropicConfig {
            base_url: base_url.into(),
            model: model.into(),
            key,
            retry: RetryPolicy::default(),
            timeout: Duration::from_secs(300),
        }
    }

    /// `--model-url` / `ANTHROPIC_BASE_URL` / Anthropic itself, keyed by `ANTHROPIC_API_KEY`.
    /// A proxy at a custom base URL may need no key; Anthropic itself always does.
    pub fn from_env(
        env: impl Fn(&str) -> Option<String>,
        model_url: Option<&str>,
        model: Option<&str>,
    ) -> Result<AnthropicConfig, ProviderError> {
        let var = |name: &str| env(name).filter(|v| !v.trim().is_empty());
        let key = var(KEY_VAR).and_then(|value| ApiKey::new(value, KEY_VAR));
        let base_url = model_url
            .map(|url| url.trim().to_owned())
            .or_else(|| var("ANTHROPIC_BASE_URL"))
            .unwrap_or_else(|| DEFAULT_ANTHROPIC_BASE_URL.to_owned());
        if key.is_none() && base_url.trim_end_matches('/') == DEFAULT_ANTHROPIC_BASE_URL {
            return Err(ProviderError::config(
                PROVIDER,
                format!("set {KEY_VAR} to use Anthropic"),
            ));
        }
        let model = model
            .map(str::trim)
            .filter(|m| !m.is_empty())
            .unwrap_or(DEFAULT_ANTHROPIC_MODEL);
        Ok(AnthropicConfig::new(base_url, model, key))
    }
}

#[derive(Debug)]
pub struct AnthropicProvider {
    endpoint: Endpoint,
    model: String,
}

impl AnthropicProvider {
    pub fn new(config: AnthropicConfig) -> Result<AnthropicProvider, ProviderError> {
        let mut headers = vec![(
            "anthropic-version",
            HeaderValue::from_static(ANTHROPIC_VERSION),
        )];
        if let Some(key) = &config.key {
            let mut value = HeaderValue::from_str(key.expose()).map_err(|_| {
                ProviderError::config(
                    PROVIDER,
                    format!(
                        "{} contains characters that cannot go in a header",
                        key.env_var()
                    ),
                )
            })?;
            value.set_sensitive(true);
            headers.push(("x-api-key", value));
        }
        let endpoint = Endpoint::new(EndpointConfig {
            provider: PROVIDER,
            base_url: &config.base_url,
            path: "v1/messages",
            headers,
            key: config.key,
            key_var: KEY_VAR,
            retry: config.retry,
            timeout: config.timeout,
        })?;
        Ok(AnthropicProvider {
            endpoint,
            model: config.model,
        })
    }

    pub fn request_body(&self, request: &ChatRequest) -> Value {
        let mut body = Map::new();
        body.insert("model".into(), json!(self.model));
        body.insert("max_tokens".into(), json!(request.max_output_tokens));
        body.insert("system".into(), json!(request.system));
        body.insert(
            "messages".into(),
            Value::Array(wire_messages(&request.messages)),
        );
        if !request.tools.is_empty() {
            let tools = request
                .tools
                .iter()
                .map(|tool| {
                    json!({
                        "name": tool.name,
                        "description": tool.description,
                        "input_schema": tool.parameters,
                    })
                })
                .collect();
            body.insert("tools".into(), Value::Array(tools));
        }
        Value::Object(body)
    }

    pub(super) fn parse_response(&self, body: Value) -> Result<ChatResponse, ProviderError> {
        let answer: WireAnswer =
            serde_json::from_value(body).map_err(|e| self.endpoint.decode(e.to_string()))?;
        let mut text = String::new();
        let mut tool_calls = Vec::new();
        let mut malformed = Vec::new();
        let mut unread = Vec::new();
        for (n, block) in answer.content.into_iter().enumerate() {
            match block {
                // Dropping a nameless call quietly could lose a finding; the loop hears of it.
                Block::ToolUse { name, input, .. } if name.trim().is_empty() => {
                    malformed.push(format!("tool_use block {} has no name", n + 1));
                    unread.push(input);
                }
                Block::Text { text: part } => text.push_str(&part),
                Block::ToolUse { id, name, input } => tool_calls.push(ToolCall {
                    id: if id.is_empty() {
                        format!("toolu_{n}")
                    } else {
                        id
                    },
                    name,
                    arguments: input,
                }),
                Block::Other => {}
            }
        }
        let finish = match answer.stop_reason.as_deref() {
            Some("end_turn") | Some("stop_sequence") | None => FinishReason::Stop,
            Some("tool_use") => FinishReason::ToolCalls,
            Some("max_tokens") => FinishReason::Length,
            Some("refusal") => FinishReason::ContentFilter,
            Some(other) => FinishReason::unlisted(other),
        };
        let usage = answer.usage.unwrap_or_default();
        Ok(ChatResponse {
            text: (!text.is_empty()).then_some(text),
            tool_calls,
            finish,
            malformed,
            unread,
            usage: Usage {
                // Cached prompt tokens are still tokens the reviewer spent.
                input_tokens: usage
                    .input_tokens
                    .saturating_add(usage.cache_creation_input_tokens.unwrap_or(0))
                    .saturating_add(usage.cache_read_input_tokens.unwrap_or(0)),
                output_tokens: usage.output_tokens,
            },
        })
    }
}

impl Provider for AnthropicProvider {
    fn name(&self) -> &str {
        PROVIDER
    }

    fn model(&self) -> &str {
        &self.model
    }

    fn waits_on(&self) -> Option<(String, std::time::Duration)> {
        Some(self.endpoint.waits_on())
    }

    fn capabilities(&self) -> Capabilities {
        Capabilities {
            tools: true,
            structured: StructuredOutput::Text,
        }
    }

    fn chat<'a>(
        &'a self,
        request: &'a ChatRequest,
    ) -> BoxFuture<'a, Result<ChatResponse, ProviderError>> {
        Box::pin(async move {
            let body = self.request_body(request);
            let answer = self.endpoint.post_json(&body, &request.retries).await?;
            self.parse_response(answer)
        })
    }
}

/// The conversation as Messages API turns. Tool results travel in a user turn, and turns must
/// alternate, so consecutive messages of one role are merged into one turn of blocks.
fn wire_messages(messages: &[Message]) -> Vec<Value> {
    let mut turns: Vec<(&'static str, Vec<Value>)> = Vec::new();
    for message in messages {
        let (role, blocks) = match message {
            Message::User { content } => ("user", vec![json!({"type": "text", "text": content})]),
            Message::Assistant { text, tool_calls } => {
                let mut blocks = Vec::new();
                if let Some(text) = text.as_ref().filter(|t| !t.is_empty()) {
                    blocks.push(json!({"type": "text", "text": text}));
                }
                for call in tool_calls {
                    // `input` must be an object; a call recorded from another provider with
                    // unparseable arguments keeps them under a key.
                    let input = match &call.arguments {
                        Value::Object(_) => call.arguments.clone(),
                        other => json!({ "raw": other }),
                    };
                    blocks.push(json!({
                        "type": "tool_use", "id": call.id, "name": call.name, "input": input
                    }));
                }
                if blocks.is_empty() {
                    blocks.push(json!({"type": "text", "text": "(no answer)"}));
                }
                ("assistant", blocks)
            }
            Message::Tool {
                call_id,
                content,
                is_error,
                ..
            } => (
                "user",
                vec![json!({
                    "type": "tool_result", "tool_use_id": call_id,
                    "content": content, "is_error": is_error
                })],
            ),
        };
        match turns.last_mut() {
            Some((last, existing)) if *last == role => existing.extend(blocks),
            _ => turns.push((role, blocks)),
        }
    }
    turns
        .into_iter()
        .map(|(role, blocks)| match blocks.as_slice() {
            // A lone text block is sent as a plain string, the API's simplest form.
            [single] if single["type"] == "text" => {
                json!({"role": role, "content": single["text"]})
            }
            _ => json!({"role": role, "content": blocks}),
        })
        .collect()
}

#[derive(Deserialize)]
struct WireAnswer {
    #[serde(default)]
    content: Vec<Block>,
    #[serde(default)]
    stop_reason: Option<String>,
    #[serde(default)]
    usage: Option<WireUsage>,
}

#[derive(Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
enum Block {
    Text {
        text: String,
    },
    ToolUse {
        #[serde(default)]
        id: String,
        #[serde(default)]
        name: String,
        #[serde(default)]
        input: Value,
    },
    /// Thinking and other blocks the reviewer does not use.
    #[serde(other)]
    Other,
}

#[derive(Deserialize, Default)]
struct WireUsage {
    #[serde(default)]
    input_tokens: u64,
    #[serde(default)]
    output_tokens: u64,
    #[serde(default)]
    cache_creation_input_tokens: Option<u64>,
    #[serde(default)]
    cache_read_input_tokens: Option<u64>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tool_results_share_one_user_turn() {
        let messages = vec![
            Message::User {
                content: "context".into(),
            },
            Message::Assistant {
                text: None,
                tool_calls: vec![
                    ToolCall {
                        id: "a".into(),
                        name: "read_file".into(),
                        arguments: json!({"path": "x"}),
                    },
                    ToolCall {
                        id: "b".into(),
                        name: "list_files".into(),
                        arguments: json!({}),
                    },
                ],
            },
            Message::Tool {
                call_id: "a".into(),
                name: "read_file".into(),
                content: "text".into(),
                is_error: false,
            },
            Message::Tool {
                call_id: "b".into(),
                name: "list_files".into(),
                content: "no such dir".into(),
                is_error: true,
            },
        ];
        let wire = wire_messages(&messages);
        assert_eq!(wire.len(), 3);
        assert_eq!(wire[0], json!({"role": "user", "content": "context"}));
        assert_eq!(wire[1]["content"][1]["type"], "tool_use");
        assert_eq!(wire[2]["role"], "user");
        assert_eq!(wire[2]["content"][1]["is_error"], true);
        assert_eq!(wire[2]["content"][1]["tool_use_id"], "b");
    }

    #[test]
    fn the_default_endpoint_needs_a_key() {
        let error = AnthropicConfig::from_env(|_| None, None, None).unwrap_err();
        assert!(error.to_string().contains("ANTHROPIC_API_KEY"), "{error}");
        let proxied = AnthropicConfig::from_env(|_| None, Some("http://127.0.0.1:9/"), None);
        assert!(proxied.is_ok());
    }
}
