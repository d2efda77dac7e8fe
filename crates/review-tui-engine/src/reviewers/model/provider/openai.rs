//! OpenAI-compatible chat completions (`POST {base}/chat/completions`): OpenAI itself, Ollama,
//! vLLM, llama.cpp, LM Studio, OpenRouter. The [`Profile`] decides which structured-output form
//! the server is asked for; the loop validates the answer whatever it promised.

use std::time::Duration;

use reqwest::header::HeaderValue;
use serde::Deserialize;
use serde_json::{Map, Value, json};

use super::error::ProviderError;
use super::http::{ApiKey, Endpoint, EndpointConfig, RetryPolicy};
use super::{
    BoxFuture, Capabilities, ChatRequest, ChatResponse, FinishReason, Message, Provider,
    StructuredOutput, ToolCall, Usage, arguments_text, parse_arguments,
};

pub(super) const DEFAULT_OPENAI_BASE_URL: &str = "https://api.openai.com/v1";
/// Used only when the endpoint is OpenAI itself and no model was named.
pub(super) const DEFAULT_OPENAI_MODEL: &str = "gpt-4.1-mini";
const KEY_VAR: &str = "OPENAI_API_KEY";
const OLLAMA_PORT: u16 = 11434;

/// Which dialect of the chat-completions API a server speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Profile {
    /// api.openai.com: strict `json_schema`, `max_completion_tokens`.
    OpenAi,
    /// Ollama's `/v1`: `json_object`, `max_tokens`.
    Ollama,
    /// Anything else that serves the shape (vLLM, llama.cpp, LM Studio, OpenRouter): plain text
    /// and a tolerant parser, since support for `response_format` varies by version.
    Generic,
}

impl Profile {
    pub fn as_str(self) -> &'static str {
        match self {
            Profile::OpenAi => "openai",
            Profile::Ollama => "ollama",
            Profile::Generic => "openai-compatible",
        }
    }

    pub fn parse(text: &str) -> Option<Profile> {
        match text.trim().to_ascii_lowercase().as_str() {
            "openai" => Some(Profile::OpenAi),
            "ollama" => Some(Profile::Ollama),
            "generic" | "openai-compatible" => Some(Profile::Generic),
            _ => None,
        }
    }

    pub fn structured_output(self) -> StructuredOutput {
        match self {
            Profile::OpenAi => StructuredOutput::JsonSchema,
            Profile::Ollama => StructuredOutput::JsonObject,
            Profile::Generic => StructuredOutput::Text,
        }
    }

    /// A guess from the URL alone, for `--model-url` and `OPENAI_BASE_URL`.
    fn guess(base_url: &str) -> Profile {
        match reqwest::Url::parse(base_url.trim()) {
            Ok(url) if url.host_str() == Some("api.openai.com") => Profile::OpenAi,
            Ok(url) if url.port() == Some(OLLAMA_PORT) => Profile::Ollama,
            _ => Profile::Generic,
        }
    }
}

#[derive(Debug, Clone)]
pub struct OpenAiConfig {
    /// Up to and including the version prefix: `https://api.openai.com/v1`,
    /// `http://127.0.0.1:11434/v1`.
    pub base_url: String,
    pub model: String,
    pub key: Option<ApiKey>,
    pub profile: Profile,
    /// Defaults from the profile; set it when a server is known to do better (vLLM, a recent
    /// Ollama) or worse.
    pub structured: StructuredOutput,
    /// Function calling; off for models that do not support it (the reviewer then answers once
    /// with JSON findings).
    pub tools: bool,
    pub retry: RetryPolicy,
    /// Per request, including reading the answer. Local models on a CPU are slow.
    pub timeout: Duration,
}

impl OpenAiConfig {
    pub fn new(base_url: impl Into<String>, model: impl Into<String>, profile: Profile) -> Self {
        OpenAiConfig {
            base_url: base_url.into(),
            model: model.into(),
            key: None,
            profile,
            structured: profile.structured_output(),
            tools: true,
            retry: RetryPolicy::default(),
            timeout: Duration::from_secs(300),
        }
    }

    /// The endpoint from explicit values (`--model-url`, `--model`) first, then the
    /// environment: `OPENAI_BASE_URL`, `OLLAMA_HOST` (served at `{host}/v1`), and OpenAI itself
    /// when only `OPENAI_API_KEY` is set. `env` looks a variable up (`|k| std::env::var(k).ok()`).
    pub fn from_env(
        env: impl Fn(&str) -> Option<String>,
        model_url: Option<&str>,
        model: Option<&str>,
    ) -> Result<OpenAiConfig, ProviderError> {
        let var = |name: &str| env(name).filter(|v| !v.trim().is_empty());
        let key = var(KEY_VAR).and_then(|value| ApiKey::new(value, KEY_VAR));
        // Where the endpoint came from, for the error that names no model.
        let (base_url, profile, key, source) = if let Some(url) = model_url {
            (
                url.trim().to_owned(),
                Profile::guess(url),
                key,
                "--model-url",
            )
        } else if let Some(url) = var("OPENAI_BASE_URL") {
            let profile = Profile::guess(&url);
            (url.trim().to_owned(), profile, key, "OPENAI_BASE_URL")
        } else if key.is_some() {
            // A key for OpenAI means OpenAI, as the roster reads it: one order everywhere
            // (OPENAI_BASE_URL, OPENAI_API_KEY, the Anthropic variables, OLLAMA_HOST).
            let url = DEFAULT_OPENAI_BASE_URL.to_owned();
            (url, Profile::OpenAi, key, "OPENAI_API_KEY")
        } else if let Some(host) = var("OLLAMA_HOST") {
            // An OpenAI key has no business going to a local Ollama.
            (ollama_base_url(&host), Profile::Ollama, None, "OLLAMA_HOST")
        } else {
            return Err(ProviderError::config(
                "openai",
                "no model endpoint: set OPENAI_API_KEY (OpenAI), OPENAI_BASE_URL (any \
                 OpenAI-compatible server) or OLLAMA_HOST, or pass --model-url",
            ));
        };
        let model = match (model.map(str::trim).filter(|m| !m.is_empty()), profile) {
            (Some(model), _) => model.to_owned(),
            (None, Profile::OpenAi) => DEFAULT_OPENAI_MODEL.to_owned(),
            // Only OpenAI has a model every account can use: a local or third-party server
            // serves what was installed there, so no default would be right.
            (None, _) => {
                let listed = if profile == Profile::Ollama {
                    " (one `ollama list` shows)"
                } else {
                    ""
                };
                return Err(ProviderError::config(
                    profile.as_str(),
                    format!(
                        "{source} points at {base_url} but no model is named: pass --model \
                         NAME{listed} or set `model` under [models] in config.toml (or pass \
                         --deterministic-only)"
                    ),
                ));
            }
        };
        let mut config = OpenAiConfig::new(base_url, model, profile);
        config.key = key;
        Ok(config)
    }
}

/// `OLLAMA_HOST` as Ollama reads it: `host`, `host:port` or a URL; port 11434 by default.
fn ollama_base_url(host: &str) -> String {
    let host = host.trim().trim_end_matches('/');
    let with_scheme = if host.contains("://") {
        host.to_owned()
    } else {
        format!("http://{host}")
    };
    let with_port = match reqwest::Url::parse(&with_scheme) {
        Ok(url) if url.port().is_none() && !host.contains("://") => {
            format!("{with_scheme}:{OLLAMA_PORT}")
        }
        _ => with_scheme,
    };
    format!("{with_port}/v1")
}

/// A chat-completions client for one model.
#[derive(Debug)]
pub struct OpenAiProvider {
    endpoint: Endpoint,
    model: String,
    profile: Profile,
    structured: StructuredOutput,
    tools: bool,
}

impl OpenAiProvider {
    pub fn new(config: OpenAiConfig) -> Result<OpenAiProvider, ProviderError> {
        let mut headers = Vec::new();
        if let Some(key) = &config.key {
            let mut value =
                HeaderValue::from_str(&format!("Bearer {}", key.expose())).map_err(|_| {
                    ProviderError::config(
                        config.profile.as_str(),
                        format!(
                            "{} contains characters that cannot go in a header",
                            key.env_var()
                        ),
                    )
                })?;
            value.set_sensitive(true);
            headers.push(("authorization", value));
        }
        let key_var = config
            .key
            .as_ref()
            .map(|k| k.env_var().to_owned())
            .unwrap_or_else(|| KEY_VAR.to_owned());
        let endpoint = Endpoint::new(EndpointConfig {
            provider: config.profile.as_str(),
            base_url: &config.base_url,
            path: "chat/completions",
            headers,
            key: config.key,
            key_var: &key_var,
            retry: config.retry,
            timeout: config.timeout,
        })?;
        Ok(OpenAiProvider {
            endpoint,
            model: config.model,
            profile: config.profile,
            structured: config.structured,
            tools: config.tools,
        })
    }

    /// The request body for one turn; public so tests and `--dry-run`-style tools can see
    /// exactly what would be sent.
    pub fn request_body(&self, request: &ChatRequest) -> Value {
        let mut messages = vec![json!({"role": "system", "content": request.system})];
        messages.extend(request.messages.iter().map(wire_message));
        let mut body = Map::new();
        body.insert("model".into(), json!(self.model));
        body.insert("messages".into(), Value::Array(messages));
        if !request.tools.is_empty() {
            let tools = request
                .tools
                .iter()
                .map(|tool| {
                    json!({
                        "type": "function",
                        "function": {
                            "name": tool.name,
                            "description": tool.description,
                            "parameters": tool.parameters,
                        }
                    })
                })
                .collect();
            body.insert("tools".into(), Value::Array(tools));
        }
        if let Some(output) = &request.output {
            let format = match self.structured {
                StructuredOutput::JsonSchema => Some(json!({
                    "type": "json_schema",
                    "json_schema": {"name": output.name, "schema": output.schema, "strict": true}
                })),
                StructuredOutput::JsonObject => Some(json!({"type": "json_object"})),
                StructuredOutput::Text => None,
            };
            if let Some(format) = format {
                body.insert("response_format".into(), format);
            }
        }
        // OpenAI deprecated `max_tokens` (reasoning models reject it); the servers that copy
        // the API mostly still only know the old name.
        let limit_field = match self.profile {
            Profile::OpenAi => "max_completion_tokens",
            Profile::Ollama | Profile::Generic => "max_tokens",
        };
        body.insert(limit_field.into(), json!(request.max_output_tokens));
        Value::Object(body)
    }

    pub(super) fn parse_response(&self, body: Value) -> Result<ChatResponse, ProviderError> {
        let completion: Completion =
            serde_json::from_value(body).map_err(|e| self.endpoint.decode(e.to_string()))?;
        let choice = completion
            .choices
            .into_iter()
            .next()
            .ok_or_else(|| self.endpoint.decode("no choices in the answer"))?;
        let mut malformed = Vec::new();
        let mut unread = Vec::new();
        let tool_calls = choice
            .message
            .tool_calls
            .unwrap_or_default()
            .into_iter()
            .enumerate()
            .filter_map(|(n, call)| {
                let Some(function) = call.function.as_ref().filter(|f| !f.name.trim().is_empty())
                else {
                    // Dropping it quietly could lose a finding; the loop hears of it.
                    malformed.push(format!("tool call {} has no function name", n + 1));
                    if let Some(arguments) = call.function.and_then(|f| f.arguments) {
                        unread.push(arguments);
                    }
                    return None;
                };
                let function = WireFunction {
                    name: function.name.clone(),
                    arguments: function.arguments.clone(),
                };
                Some(ToolCall {
                    // Some local servers leave ids out; the tool message still needs one.
                    id: call
                        .id
                        .filter(|id| !id.is_empty())
                        .unwrap_or_else(|| format!("call_{n}")),
                    name: function.name,
                    arguments: match function.arguments {
                        Some(Value::String(raw)) => parse_arguments(&raw),
                        Some(other) => other,
                        None => Value::Object(Map::new()),
                    },
                })
            })
            .collect();
        let finish = match choice.finish_reason.as_deref() {
            Some("stop") | None => FinishReason::Stop,
            Some("tool_calls") | Some("function_call") => FinishReason::ToolCalls,
            Some("length") => FinishReason::Length,
            Some("content_filter") => FinishReason::ContentFilter,
            Some(other) => FinishReason::unlisted(other),
        };
        let (text, finish) = match (choice.message.content, choice.message.refusal) {
            (Some(text), _) if !text.is_empty() => (Some(text), finish),
            (_, Some(refusal)) if !refusal.is_empty() => {
                (Some(refusal), FinishReason::ContentFilter)
            }
            _ => (None, finish),
        };
        let usage = completion.usage.unwrap_or_default();
        Ok(ChatResponse {
            text,
            tool_calls,
            finish,
            usage: Usage {
                input_tokens: usage.prompt_tokens.unwrap_or(0),
                output_tokens: usage.completion_tokens.unwrap_or(0),
            },
            malformed,
            unread,
        })
    }
}

impl Provider for OpenAiProvider {
    fn name(&self) -> &str {
        self.endpoint.provider()
    }

    fn model(&self) -> &str {
        &self.model
    }

    fn waits_on(&self) -> Option<(String, std::time::Duration)> {
        Some(self.endpoint.waits_on())
    }

    fn capabilities(&self) -> Capabilities {
        Capabilities {
            tools: self.tools,
            structured: self.structured,
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

fn wire_message(message: &Message) -> Value {
    match message {
        Message::User { content } => json!({"role": "user", "content": content}),
        Message::Assistant { text, tool_calls } => {
            let mut wire = Map::new();
            wire.insert("role".into(), json!("assistant"));
            match text {
                Some(text) => {
                    wire.insert("content".into(), json!(text));
                }
                // A message needs content or tool calls; an empty answer keeps the turn order.
                None if tool_calls.is_empty() => {
                    wire.insert("content".into(), json!(""));
                }
                None => {}
            }
            if !tool_calls.is_empty() {
                let calls = tool_calls
                    .iter()
                    .map(|call| {
                        json!({
                            "id": call.id,
                            "type": "function",
                            "function": {"name": call.name, "arguments": arguments_text(&call.arguments)}
                        })
                    })
                    .collect();
                wire.insert("tool_calls".into(), Value::Array(calls));
            }
            Value::Object(wire)
        }
        Message::Tool {
            call_id,
            content,
            is_error,
            ..
        } => {
            // The wire has no error flag; say it in words.
            let content = if *is_error {
                format!("error: {content}")
            } else {
                content.clone()
            };
            json!({"role": "tool", "tool_call_id": call_id, "content": content})
        }
    }
}

#[derive(Deserialize)]
struct Completion {
    #[serde(default)]
    choices: Vec<Choice>,
    #[serde(default)]
    usage: Option<WireUsage>,
}

#[derive(Deserialize)]
struct Choice {
    message: WireMessage,
    #[serde(default)]
    finish_reason: Option<String>,
}

#[derive(Deserialize)]
struct WireMessage {
    #[serde(default)]
    content: Option<String>,
    #[serde(default)]
    refusal: Option<String>,
    #[serde(default)]
    tool_calls: Option<Vec<WireToolCall>>,
}

#[derive(Deserialize)]
struct WireToolCall {
    #[serde(default)]
    id: Option<String>,
    #[serde(default)]
    function: Option<WireFunction>,
}

#[derive(Deserialize)]
struct WireFunction {
    #[serde(default)]
    name: String,
    /// A JSON string per the API; some servers send the object itself.
    #[serde(default)]
    arguments: Option<Value>,
}

#[derive(Deserialize, Default)]
struct WireUsage {
    #[serde(default)]
    prompt_tokens: Option<u64>,
    #[serde(default)]
    completion_tokens: Option<u64>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn env(pairs: &[(&str, &str)]) -> impl Fn(&str) -> Option<String> {
        let map: HashMap<String, String> = pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        move |name| map.get(name).cloned()
    }

    #[test]
    fn explicit_url_wins_and_keeps_the_key() {
        let config = OpenAiConfig::from_env(
            env(&[("OPENAI_API_KEY", "sk-x"), ("OLLAMA_HOST", "h")]),
            Some("http://127.0.0.1:8000/v1"),
            Some("qwen"),
        )
        .unwrap();
        assert_eq!(config.base_url, "http://127.0.0.1:8000/v1");
        assert_eq!(config.profile, Profile::Generic);
        assert_eq!(config.structured, StructuredOutput::Text);
        assert!(config.key.is_some());
        assert_eq!(config.model, "qwen");
    }

    #[test]
    fn ollama_host_becomes_v1_without_the_openai_key() {
        // With both set, the key means OpenAI (the documented order); Ollama never gets it.
        let both = env(&[("OLLAMA_HOST", "127.0.0.1"), ("OPENAI_API_KEY", "sk-x")]);
        let openai = OpenAiConfig::from_env(&both, None, None).unwrap();
        assert_eq!(openai.base_url, DEFAULT_OPENAI_BASE_URL);
        let config =
            OpenAiConfig::from_env(env(&[("OLLAMA_HOST", "127.0.0.1")]), None, Some("llama3.1"))
                .unwrap();
        assert_eq!(config.base_url, "http://127.0.0.1:11434/v1");
        assert_eq!(config.profile, Profile::Ollama);
        assert!(config.key.is_none());
        assert_eq!(
            ollama_base_url("http://gpu-box:9999/"),
            "http://gpu-box:9999/v1"
        );
        assert_eq!(ollama_base_url("gpu-box:9999"), "http://gpu-box:9999/v1");
    }

    #[test]
    fn a_key_alone_means_openai_with_a_default_model() {
        let config =
            OpenAiConfig::from_env(env(&[("OPENAI_API_KEY", "sk-x")]), None, None).unwrap();
        assert_eq!(config.base_url, DEFAULT_OPENAI_BASE_URL);
        assert_eq!(config.profile, Profile::OpenAi);
        assert_eq!(config.structured, StructuredOutput::JsonSchema);
        assert_eq!(config.model, DEFAULT_OPENAI_MODEL);
    }

    #[test]
    fn nothing_configured_says_what_to_set() {
        let error = OpenAiConfig::from_env(env(&[]), None, None).unwrap_err();
        let text = error.to_string();
        assert!(
            text.contains("OPENAI_API_KEY") && text.contains("OLLAMA_HOST"),
            "{text}"
        );
        let error =
            OpenAiConfig::from_env(env(&[("OPENAI_BASE_URL", "http://h:1/v1")]), None, None)
                .unwrap_err();
        assert!(error.to_string().contains("--model"), "{error}");
    }

    #[test]
    fn debug_never_shows_the_key() {
        let config =
            OpenAiConfig::from_env(env(&[("OPENAI_API_KEY", "sk-very-secret-123")]), None, None)
                .unwrap();
        let provider = OpenAiProvider::new(config.clone()).unwrap();
        for shown in [format!("{config:?}"), format!("{provider:?}")] {
            assert!(!shown.contains("sk-very-secret-123"), "{shown}");
        }
    }

    #[test]
    fn unparseable_arguments_are_kept_verbatim() {
        let provider = OpenAiProvider::new(OpenAiConfig::new(
            "http://127.0.0.1:1/v1",
            "m",
            Profile::Generic,
        ))
        .unwrap();
        let answer = json!({"choices": [{"message": {"role": "assistant", "content": null,
            "tool_calls": [{"type": "function", "function": {"name": "add_review_node", "arguments": "{oops"}}]},
            "finish_reason": "tool_calls"}]});
        let response = provider.parse_response(answer).unwrap();
        assert_eq!(response.finish, FinishReason::ToolCalls);
        assert_eq!(response.tool_calls[0].id, "call_0");
        assert_eq!(response.tool_calls[0].arguments, json!("{oops"));
        assert_eq!(arguments_text(&response.tool_calls[0].arguments), "{oops");
    }
}
