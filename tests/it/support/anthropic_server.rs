//! A scripted Anthropic Messages server (`POST /v1/messages`) on 127.0.0.1.
//!
//! Anthropic publishes no OpenAPI file, so requests are checked by hand against the shapes of
//! its official SDK types (tests/fixtures: see the reference README): `x-api-key` and
//! `anthropic-version` headers, a `max_tokens`, turns that alternate starting with the user,
//! tools as `{name, description, input_schema}`, and every `tool_result` answering a
//! `tool_use` of the assistant turn just before it. A violation fails the test on drop.

use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use serde_json::{Value, json};

use super::faults::{self, Dialect, Fault};
use super::openai_server::{Common, Loopback, Recorded, Script, call_id, lock};

pub(crate) const VERSION: &str = "2023-06-01";

#[derive(Debug, Clone)]
pub(crate) enum AnthropicReply {
    Message {
        text: Option<String>,
        /// (id, name, input).
        tool_uses: Vec<(String, String, Value)>,
        stop_reason: String,
        usage: (u64, u64),
    },
    Status {
        status: u16,
        retry_after: Option<u64>,
    },
    Hang,
    /// A `307 Temporary Redirect` to `location` (a server that moved, or one that wants the
    /// request — and its headers — sent elsewhere).
    Redirect {
        location: String,
    },
    /// `real`, as the fault damages it (or the fault's own answer, for status faults).
    Fault {
        fault: Fault,
        real: Box<AnthropicReply>,
    },
}

impl AnthropicReply {
    /// `real` with `fault` on the wire; status faults answer without it.
    pub(crate) fn fault(fault: Fault, real: AnthropicReply) -> AnthropicReply {
        AnthropicReply::Fault {
            fault,
            real: Box::new(real),
        }
    }

    pub(crate) fn tool_uses(calls: &[(&str, Value)]) -> AnthropicReply {
        AnthropicReply::Message {
            text: None,
            tool_uses: calls
                .iter()
                .map(|(name, input)| (call_id(), name.to_string(), input.clone()))
                .collect(),
            stop_reason: "tool_use".into(),
            usage: (150, 40),
        }
    }

    pub(crate) fn text(text: &str) -> AnthropicReply {
        AnthropicReply::Message {
            text: Some(text.into()),
            tool_uses: Vec::new(),
            stop_reason: "end_turn".into(),
            usage: (200, 60),
        }
    }

    pub(crate) fn status(status: u16) -> AnthropicReply {
        AnthropicReply::Status {
            status,
            retry_after: None,
        }
    }
}

pub(crate) struct AnthropicServer {
    common: Arc<Common<AnthropicReply>>,
    loopback: Loopback,
}

impl AnthropicServer {
    pub(crate) fn start() -> AnthropicServer {
        let common = Arc::new(Common::<AnthropicReply>::default());
        let app = Router::new()
            .route("/v1/messages", post(messages))
            .with_state(common.clone());
        AnthropicServer {
            loopback: Loopback::serve(app, common.clone()),
            common,
        }
    }

    /// The base URL a client is configured with (no version path).
    pub(crate) fn base_url(&self) -> String {
        self.loopback.url.clone()
    }

    pub(crate) fn script(&self, replies: impl IntoIterator<Item = AnthropicReply>) {
        lock(&self.common.script).queued.extend(replies);
    }

    pub(crate) fn reply_always(&self, reply: AnthropicReply) {
        lock(&self.common.script).forever = Some(reply);
    }

    /// Requests whose `system` contains `marker` get these replies, in order: parallel
    /// reviewers (and the passes after them) each get their own conversation.
    pub(crate) fn route(&self, marker: &str, replies: impl IntoIterator<Item = AnthropicReply>) {
        let mut routes = lock(&self.common.routes);
        match routes.iter_mut().find(|(m, _)| m == marker) {
            Some((_, script)) => script.queued.extend(replies),
            None => routes.push((
                marker.to_string(),
                Script {
                    queued: replies.into_iter().collect(),
                    forever: None,
                },
            )),
        }
    }

    /// Requests whose `system` contains `marker` get `reply` once their route's script is
    /// used up.
    pub(crate) fn route_always(&self, marker: &str, reply: AnthropicReply) {
        self.route(marker, []);
        let mut routes = lock(&self.common.routes);
        if let Some((_, script)) = routes.iter_mut().find(|(m, _)| m == marker) {
            script.forever = Some(reply);
        }
    }

    pub(crate) fn set_latency(&self, latency: Duration) {
        *lock(&self.common.latency) = latency;
    }

    /// Requests must carry `x-api-key: key`; others get 401.
    pub(crate) fn require_key(&self, key: &str) {
        *lock(&self.common.key) = Some(key.into());
    }

    pub(crate) fn requests(&self) -> Vec<Recorded> {
        lock(&self.common.requests).clone()
    }

    pub(crate) fn violations(&self) -> Vec<String> {
        lock(&self.common.violations).clone()
    }
}

async fn messages(
    State(common): State<Arc<Common<AnthropicReply>>>,
    headers: HeaderMap,
    raw: Bytes,
) -> Response {
    let (index, body) = common.arrive(&headers, &raw);
    for problem in check_request(&headers, &body) {
        common.violate(problem);
    }
    let response = answer(&common, &headers, &body).await;
    common.finish(index);
    response
}

async fn answer(common: &Common<AnthropicReply>, headers: &HeaderMap, body: &Value) -> Response {
    let expected = lock(&common.key).clone();
    if let Some(expected) = expected {
        let sent = headers
            .get("x-api-key")
            .and_then(|v| v.to_str().ok())
            .unwrap_or("");
        if sent != expected {
            return error(
                StatusCode::UNAUTHORIZED,
                "authentication_error",
                "invalid x-api-key",
                None,
            );
        }
    }
    common.latency().await;
    let Some(reply) = common.next_reply_for(&system_text(body)) else {
        return error(
            StatusCode::INTERNAL_SERVER_ERROR,
            "api_error",
            "unscripted",
            None,
        );
    };
    reply_with(reply, common, body).await
}

async fn reply_with(
    reply: AnthropicReply,
    common: &Common<AnthropicReply>,
    body: &Value,
) -> Response {
    match reply {
        AnthropicReply::Message {
            text,
            tool_uses,
            stop_reason,
            usage,
        } => {
            let mut content = Vec::new();
            if let Some(text) = text {
                content.push(json!({"type": "text", "text": text}));
            }
            for (id, name, input) in tool_uses {
                content.push(json!({"type": "tool_use", "id": id, "name": name, "input": input}));
            }
            axum::Json(json!({
                "id": "msg_scripted",
                "type": "message",
                "role": "assistant",
                "content": content,
                "model": body["model"].as_str().unwrap_or("unknown"),
                "stop_reason": stop_reason,
                "stop_sequence": null,
                "usage": {"input_tokens": usage.0, "output_tokens": usage.1}
            }))
            .into_response()
        }
        AnthropicReply::Redirect { location } => (
            StatusCode::TEMPORARY_REDIRECT,
            [(axum::http::header::LOCATION, location)],
        )
            .into_response(),
        AnthropicReply::Status {
            status,
            retry_after,
        } => {
            let status = StatusCode::from_u16(status).expect("a valid status");
            let kind = if status.as_u16() == 429 {
                "rate_limit_error"
            } else {
                "api_error"
            };
            error(
                status,
                kind,
                status.canonical_reason().unwrap_or("error"),
                retry_after,
            )
        }
        AnthropicReply::Fault { fault, real } => {
            faults::respond(
                &fault,
                Dialect::Anthropic,
                Box::pin(reply_with(*real, common, body)),
            )
            .await
        }
        AnthropicReply::Hang => {
            common.hang().await;
            error(
                StatusCode::SERVICE_UNAVAILABLE,
                "api_error",
                "shutting down",
                None,
            )
        }
    }
}

/// The request's `system`, a string or text blocks, as one text for routing.
fn system_text(body: &Value) -> String {
    match &body["system"] {
        Value::String(text) => text.clone(),
        Value::Array(blocks) => blocks
            .iter()
            .filter_map(|b| b["text"].as_str())
            .collect::<Vec<_>>()
            .join("\n"),
        _ => String::new(),
    }
}

fn error(status: StatusCode, kind: &str, message: &str, retry_after: Option<u64>) -> Response {
    let body = json!({"type": "error", "error": {"type": kind, "message": message}});
    let mut response = (status, axum::Json(body)).into_response();
    if let Some(secs) = retry_after {
        response.headers_mut().insert(
            "retry-after",
            HeaderValue::from_str(&secs.to_string()).expect("a header value"),
        );
    }
    response
}

/// Every way `body` departs from the Messages API request shape.
pub(crate) fn check_request(headers: &HeaderMap, body: &Value) -> Vec<String> {
    let mut problems = Vec::new();
    let mut fail = |problem: String| problems.push(format!("{problem}\nbody: {body}"));
    if headers
        .get("anthropic-version")
        .and_then(|v| v.to_str().ok())
        != Some(VERSION)
    {
        fail(format!("the anthropic-version header is not {VERSION}"));
    }
    if !body["model"].is_string() {
        fail("`model` is not a string".into());
    }
    if body["max_tokens"].as_u64().is_none_or(|n| n < 1) {
        fail("`max_tokens` must be an integer ≥ 1".into());
    }
    if !(body["system"].is_null() || body["system"].is_string() || body["system"].is_array()) {
        fail("`system` must be a string or text blocks".into());
    }
    if let Some(tools) = body.get("tools") {
        for (n, tool) in tools.as_array().into_iter().flatten().enumerate() {
            let keys: Vec<&str> = tool
                .as_object()
                .map(|o| o.keys().map(String::as_str).collect())
                .unwrap_or_default();
            if !tool["name"].is_string()
                || !tool["input_schema"].is_object()
                || tool["input_schema"]["type"] != "object"
                || keys
                    .iter()
                    .any(|k| !["name", "description", "input_schema"].contains(k))
            {
                fail(format!(
                    "tools[{n}] is not {{name, description, input_schema}}: {tool}"
                ));
            }
        }
    }
    let Some(turns) = body["messages"].as_array().filter(|m| !m.is_empty()) else {
        fail("`messages` must be a non-empty array".into());
        return problems;
    };
    let mut open_tool_uses: Vec<String> = Vec::new();
    for (n, turn) in turns.iter().enumerate() {
        let expected_role = if n % 2 == 0 { "user" } else { "assistant" };
        if turn["role"] != expected_role {
            fail(format!(
                "messages[{n}] should be a {expected_role} turn: turns alternate"
            ));
        }
        let blocks: Vec<Value> = match &turn["content"] {
            Value::String(text) => vec![json!({"type": "text", "text": text})],
            Value::Array(blocks) if !blocks.is_empty() => blocks.clone(),
            other => {
                fail(format!(
                    "messages[{n}].content must be a string or blocks: {other}"
                ));
                continue;
            }
        };
        let mut uses = Vec::new();
        for block in &blocks {
            match (block["type"].as_str(), expected_role) {
                (Some("text"), _) if block["text"].is_string() => {}
                (Some("tool_use"), "assistant")
                    if block["id"].is_string()
                        && block["name"].is_string()
                        && block["input"].is_object() =>
                {
                    uses.push(block["id"].as_str().unwrap_or("").to_owned());
                }
                (Some("tool_result"), "user") => {
                    let id = block["tool_use_id"].as_str().unwrap_or("");
                    if !open_tool_uses.iter().any(|open| open == id) {
                        fail(format!(
                            "messages[{n}]: tool_result for {id:?}, which the previous turn did not call"
                        ));
                    }
                    if !(block["content"].is_string() || block["content"].is_array()) {
                        fail(format!("messages[{n}]: tool_result content must be text"));
                    }
                    if !(block["is_error"].is_null() || block["is_error"].is_boolean()) {
                        fail(format!("messages[{n}]: is_error must be a boolean"));
                    }
                }
                _ => fail(format!("messages[{n}]: unexpected block {block}")),
            }
        }
        if expected_role == "assistant" {
            open_tool_uses = uses;
        } else if n > 0 {
            let answered: Vec<&str> = blocks
                .iter()
                .filter(|b| b["type"] == "tool_result")
                .filter_map(|b| b["tool_use_id"].as_str())
                .collect();
            for id in &open_tool_uses {
                if !answered.contains(&id.as_str()) {
                    fail(format!("messages[{n}] does not answer tool_use {id}"));
                }
            }
            open_tool_uses.clear();
        }
    }
    problems
}
