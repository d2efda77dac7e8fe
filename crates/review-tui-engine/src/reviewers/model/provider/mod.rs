//! Model providers: one chat turn with tools, over whatever answers it — an OpenAI-compatible
//! server, Anthropic's Messages API, a CLI agent, or a recorded cassette.
//!
//! The agent loop (`reviewers::model::agent`) talks only to [`Provider`]; everything a provider needs to
//! know about a reviewer arrives in a [`ChatRequest`], already redacted.

use std::future::Future;
use std::pin::Pin;

use serde::{Deserialize, Serialize};
use serde_json::Value;

mod anthropic;
mod command;
mod error;
mod heard;
mod http;
mod openai;
mod replay;
mod retry_note;

#[cfg(test)]
mod props;

pub use anthropic::{AnthropicConfig, AnthropicProvider};
pub use command::{CommandConfig, CommandProvider};
pub use error::ProviderError;
pub use heard::{Heard, chat_heard};
pub use http::{ApiKey, RetryPolicy};
pub use openai::{OpenAiConfig, OpenAiProvider, Profile};
pub use replay::{Cassette, CassetteStep, Recorder, Replay, StepOutcome};
pub use retry_note::{RetryNote, RetryNotes};

/// A boxed future, so providers can sit behind `dyn Provider` (async trait methods cannot).
pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// One backend that answers chat turns.
pub trait Provider: Send + Sync {
    /// Short name for errors and cassettes: `openai`, `ollama`, `anthropic`, `command`, ...
    fn name(&self) -> &str;
    /// The model asked for, as sent on the wire (empty for a command).
    fn model(&self) -> &str;
    fn capabilities(&self) -> Capabilities;
    /// The server a turn waits on (`host:port`, never a path, query or key) and the request
    /// timeout, so a long wait can be reported while it lasts; `None` for a local command or a
    /// recording.
    fn waits_on(&self) -> Option<(String, std::time::Duration)> {
        None
    }
    /// One turn: the conversation so far in, the assistant's answer out.
    fn chat<'a>(
        &'a self,
        request: &'a ChatRequest,
    ) -> BoxFuture<'a, Result<ChatResponse, ProviderError>>;
}

/// A provider around another that changes only its turns (metering a budget, recording a
/// cassette): in its name, model, capabilities and the server it waits on it is the inner one.
pub trait AroundTurns: Send + Sync {
    fn inner(&self) -> &dyn Provider;
    /// One turn, through the inner provider.
    fn turn<'a>(
        &'a self,
        request: &'a ChatRequest,
    ) -> BoxFuture<'a, Result<ChatResponse, ProviderError>>;
}

impl<T: AroundTurns> Provider for T {
    fn name(&self) -> &str {
        self.inner().name()
    }

    fn model(&self) -> &str {
        self.inner().model()
    }

    fn capabilities(&self) -> Capabilities {
        self.inner().capabilities()
    }

    fn waits_on(&self) -> Option<(String, std::time::Duration)> {
        self.inner().waits_on()
    }

    fn chat<'a>(
        &'a self,
        request: &'a ChatRequest,
    ) -> BoxFuture<'a, Result<ChatResponse, ProviderError>> {
        self.turn(request)
    }
}

/// What a provider can be asked for; the loop picks its mode from this.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Capabilities {
    /// Function calling. Without it the reviewer answers once with JSON findings.
    pub tools: bool,
    pub structured: StructuredOutput,
}

/// How a provider can be held to a JSON shape. Whatever it promises, the loop validates.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StructuredOutput {
    /// `response_format: {type: json_schema, strict: true}`: the server enforces the schema.
    JsonSchema,
    /// `response_format: {type: json_object}`: valid JSON, shape asked for in the prompt.
    JsonObject,
    /// Nothing: the prompt asks for JSON and the parser extracts it tolerantly.
    Text,
}

/// A tool the model may call: its JSON Schema goes to the provider as is.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolSpec {
    pub name: String,
    pub description: String,
    pub parameters: Value,
}

/// A tool call the model made. `arguments` is what the model sent; when it was not valid JSON
/// it is kept as the raw string, so the loop can tell the model and the call can be echoed back.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolCall {
    pub id: String,
    pub name: String,
    pub arguments: Value,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "role", rename_all = "snake_case")]
pub enum Message {
    User {
        content: String,
    },
    Assistant {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        text: Option<String>,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        tool_calls: Vec<ToolCall>,
    },
    Tool {
        call_id: String,
        name: String,
        content: String,
        /// The call failed; the content says why (the model sees it and may retry).
        is_error: bool,
    },
}

impl Message {
    pub fn role(&self) -> &'static str {
        match self {
            Message::User { .. } => "user",
            Message::Assistant { .. } => "assistant",
            Message::Tool { .. } => "tool",
        }
    }
}

/// A JSON Schema the final answer must follow (structured output).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct OutputSchema {
    /// `^[a-zA-Z0-9_-]+$`, as OpenAI requires.
    pub name: String,
    pub schema: Value,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ChatRequest {
    /// Who is asking (the reviewer's name). Not sent to the model: cassettes use it to keep
    /// parallel reviewers' turns apart.
    pub reviewer: String,
    pub system: String,
    pub messages: Vec<Message>,
    #[serde(default)]
    pub tools: Vec<ToolSpec>,
    #[serde(default)]
    pub output: Option<OutputSchema>,
    /// The most the model may write in this turn.
    pub max_output_tokens: u32,
    /// Where the provider says it is retrying (not sent, not recorded).
    #[serde(skip)]
    pub retries: RetryNotes,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FinishReason {
    /// The model ended its turn.
    Stop,
    /// The model wants its tool calls answered.
    ToolCalls,
    /// Cut off at the output limit.
    Length,
    /// Refused or filtered.
    ContentFilter,
    /// The server says the answer failed rather than ended (`error`, `aborted`): what came
    /// with it cannot be trusted.
    Failed { reason: String },
    /// A reason this client does not know and that names no failure (`eos_token`): the turn
    /// ends as usual.
    Unrecognised { reason: String },
}

impl FinishReason {
    /// A reason outside the ones a provider maps itself, sorted by what it says.
    pub(crate) fn unlisted(reason: &str) -> FinishReason {
        let lower = reason.to_ascii_lowercase();
        let reason = reason.to_owned();
        if ["error", "abort", "cancel", "fail", "timeout"]
            .iter()
            .any(|bad| lower.contains(bad))
        {
            FinishReason::Failed { reason }
        } else {
            FinishReason::Unrecognised { reason }
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Usage {
    pub input_tokens: u64,
    pub output_tokens: u64,
}

impl Usage {
    /// Saturating: the counts come from the server, and a server can send anything.
    pub fn total(&self) -> u64 {
        self.input_tokens.saturating_add(self.output_tokens)
    }

    /// Adds another turn's counts, saturating.
    pub fn add(&mut self, other: Usage) {
        self.input_tokens = self.input_tokens.saturating_add(other.input_tokens);
        self.output_tokens = self.output_tokens.saturating_add(other.output_tokens);
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ChatResponse {
    #[serde(default)]
    pub text: Option<String>,
    #[serde(default)]
    pub tool_calls: Vec<ToolCall>,
    pub finish: FinishReason,
    #[serde(default)]
    pub usage: Usage,
    /// Parts of the answer the provider could not read (a tool call without a function), each
    /// described: the loop never treats such an answer as complete.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub malformed: Vec<String>,
    /// The arguments of those unreadable calls, as sent: a finding among them is owed like a
    /// refused one (the loop cannot tell what the call was for, so it cannot drop it).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub unread: Vec<Value>,
}

/// Tool-call arguments arrive as a JSON string on the OpenAI wire; a string that does not
/// parse strictly (a repeated key included, see [`strict_json`]) is kept verbatim (see
/// [`ToolCall`]): the call is then refused as a whole.
///
/// [`strict_json`]: crate::reviewers::model::strict_json
pub(crate) fn parse_arguments(raw: &str) -> Value {
    if raw.trim().is_empty() {
        return Value::Object(Default::default());
    }
    crate::reviewers::model::strict_json::parse(raw)
        .unwrap_or_else(|_| Value::String(raw.to_owned()))
}

/// The inverse of [`parse_arguments`]: a raw string goes back exactly as the model wrote it.
pub(crate) fn arguments_text(arguments: &Value) -> String {
    match arguments {
        Value::String(raw) => raw.clone(),
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::FinishReason;

    #[test]
    fn an_unlisted_finish_reason_is_a_failure_only_when_it_names_one() {
        for failed in ["error", "Aborted", "cancelled", "tool_failure", "TIMEOUT"] {
            assert_eq!(
                FinishReason::unlisted(failed),
                FinishReason::Failed {
                    reason: failed.into()
                }
            );
        }
        assert_eq!(
            FinishReason::unlisted("eos_token"),
            FinishReason::Unrecognised {
                reason: "eos_token".into()
            }
        );
    }
}
