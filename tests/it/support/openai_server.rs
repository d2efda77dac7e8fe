//! A scripted OpenAI-compatible chat-completions server on 127.0.0.1.
//!
//! ```text
//! let server = OpenAiServer::start();
//! server.script([Reply::tool_calls(&[("read_file", json!({"path": "a.rs"}))]), Reply::text("done")]);
//! server.reply_always(Reply::status(500));     // once the script is used up
//! // ... point a provider at server.base_url() ...
//! assert_eq!(server.requests().len(), 2);
//! ```
//!
//! Every request body is checked against `CreateChatCompletionRequest` and every answer it
//! sends against the response schema of OpenAI's own description (tests/fixtures/openai/, MIT);
//! a mismatch is recorded and fails the test when the server is dropped. Each request's start
//! and end instants are recorded (for overlap checks), never judged here.
//!
//! The loopback plumbing ([`Loopback`], [`Script`], [`Recorded`]) is shared with the Anthropic
//! server.

use std::collections::{HashMap, VecDeque};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, LazyLock, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use axum::Router;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use jsonschema::{Draft, Validator};
use serde_json::{Value, json};
use tokio::sync::watch;

use super::faults::{self, Dialect, Fault};
use super::openapi::to_json_schema;
use super::serve::{self, Served};

const SPEC_PATH: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/fixtures/openai/openai.chat-completions-subset.json"
);

/// Validators for the request and response bodies of `POST /chat/completions`, built from the
/// OpenAI description through the same OpenAPI → JSON Schema conversion as the GitHub one.
pub(crate) struct OpenAiSchemas {
    request: Validator,
    response: Validator,
    error: Validator,
}

static SCHEMAS: LazyLock<OpenAiSchemas> = LazyLock::new(|| {
    let text = std::fs::read_to_string(SPEC_PATH).expect("read the OpenAI OpenAPI fixture");
    let spec: Value = serde_json::from_str(&text).expect("parse the OpenAI OpenAPI fixture");
    let components = to_json_schema(&spec["components"]);
    let compile = |name: &str| {
        let document = json!({
            "$ref": format!("#/components/schemas/{name}"),
            "components": components,
        });
        jsonschema::options()
            .with_draft(Draft::Draft202012)
            .build(&document)
            .unwrap_or_else(|e| panic!("compile the {name} schema: {e}"))
    };
    OpenAiSchemas {
        request: compile("CreateChatCompletionRequest"),
        response: compile("CreateChatCompletionResponse"),
        error: compile("ErrorResponse"),
    }
});

pub(crate) fn schemas() -> &'static OpenAiSchemas {
    &SCHEMAS
}

impl OpenAiSchemas {
    pub(crate) fn check_request(&self, body: &Value) -> Result<(), String> {
        problems("request", &self.request, body)
    }

    pub(crate) fn check_response(&self, body: &Value) -> Result<(), String> {
        problems("response", &self.response, body)
    }

    pub(crate) fn check_error(&self, body: &Value) -> Result<(), String> {
        problems("error response", &self.error, body)
    }
}

fn problems(what: &str, validator: &Validator, body: &Value) -> Result<(), String> {
    let found: Vec<String> = validator
        .iter_errors(body)
        .map(|e| format!("at {}: {e}", e.instance_path()))
        .take(10)
        .collect();
    if found.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "the {what} does not match OpenAI's schema:\n  {}\nbody: {body}",
            found.join("\n  ")
        ))
    }
}

/// What the server answers one request with.
#[derive(Debug, Clone)]
pub(crate) enum Reply {
    /// A 200 chat completion.
    Message {
        content: Option<String>,
        /// (id, name, arguments as the raw JSON string the model wrote).
        tool_calls: Vec<(String, String, String)>,
        finish_reason: String,
        usage: (u64, u64),
    },
    /// A 200 completion whose message is sent exactly as given, `usage` left out when `None`.
    /// Real servers send what the schema does not allow (a tool call without `function`);
    /// with `unchecked` the response check is skipped for that reply, and only for it.
    Raw {
        message: Value,
        finish_reason: String,
        usage: Option<(u64, u64)>,
        unchecked: bool,
    },
    /// An error status with OpenAI's error body; `retry_after` sets the header (seconds).
    Status {
        status: u16,
        retry_after: Option<u64>,
    },
    /// Never answers, until the server is dropped.
    Hang,
    /// `real`, as the fault damages it (or the fault's own answer, for status faults).
    Fault { fault: Fault, real: Box<Reply> },
}

impl Reply {
    /// The model calls these tools (arguments serialized as the API sends them).
    pub(crate) fn tool_calls(calls: &[(&str, Value)]) -> Reply {
        Reply::Message {
            content: None,
            tool_calls: calls
                .iter()
                .map(|(name, args)| (call_id(), name.to_string(), args.to_string()))
                .collect(),
            finish_reason: "tool_calls".into(),
            usage: (120, 30),
        }
    }

    /// One tool call whose arguments are exactly `raw` (malformed JSON, say).
    pub(crate) fn raw_tool_call(name: &str, raw: &str) -> Reply {
        Reply::Message {
            content: None,
            tool_calls: vec![(call_id(), name.into(), raw.into())],
            finish_reason: "tool_calls".into(),
            usage: (120, 30),
        }
    }

    /// A final text answer.
    pub(crate) fn text(content: &str) -> Reply {
        Reply::Message {
            content: Some(content.into()),
            tool_calls: Vec::new(),
            finish_reason: "stop".into(),
            usage: (200, 80),
        }
    }

    pub(crate) fn status(status: u16) -> Reply {
        Reply::Status {
            status,
            retry_after: None,
        }
    }

    pub(crate) fn too_many_requests(retry_after_secs: u64) -> Reply {
        Reply::Status {
            status: 429,
            retry_after: Some(retry_after_secs),
        }
    }

    /// `real` with `fault` on the wire; status faults answer without it.
    pub(crate) fn fault(fault: Fault, real: Reply) -> Reply {
        Reply::Fault {
            fault,
            real: Box::new(real),
        }
    }

    /// An assistant message as the server writes it, schema-checked.
    pub(crate) fn message(message: Value, finish_reason: &str) -> Reply {
        Reply::Raw {
            message,
            finish_reason: finish_reason.into(),
            usage: Some((120, 30)),
            unchecked: false,
        }
    }

    /// An assistant message the schema does not allow, as some servers send it.
    pub(crate) fn malformed(message: Value, finish_reason: &str) -> Reply {
        Reply::Raw {
            message,
            finish_reason: finish_reason.into(),
            usage: Some((120, 30)),
            unchecked: true,
        }
    }

    /// The same answer with no `usage` in the completion, as many local servers send it.
    pub(crate) fn without_usage(self) -> Reply {
        match self {
            Reply::Message {
                content,
                tool_calls,
                finish_reason,
                ..
            } => {
                let mut message = json!({"role": "assistant", "content": content, "refusal": null});
                if !tool_calls.is_empty() {
                    message["tool_calls"] = Value::Array(
                        tool_calls
                            .iter()
                            .map(|(id, name, arguments)| {
                                json!({"id": id, "type": "function",
                                       "function": {"name": name, "arguments": arguments}})
                            })
                            .collect(),
                    );
                }
                Reply::Raw {
                    message,
                    finish_reason,
                    usage: None,
                    unchecked: false,
                }
            }
            Reply::Raw {
                message,
                finish_reason,
                unchecked,
                ..
            } => Reply::Raw {
                message,
                finish_reason,
                usage: None,
                unchecked,
            },
            other => other,
        }
    }

    /// The same reply with other token counts.
    pub(crate) fn with_usage(mut self, input: u64, output: u64) -> Reply {
        if let Reply::Message { usage, .. } = &mut self {
            *usage = (input, output);
        }
        self
    }
}

/// Unique across the test binary, as real tool-call ids are unique across a conversation.
pub(crate) fn call_id() -> String {
    static NEXT: AtomicUsize = AtomicUsize::new(1);
    format!("call_{}", NEXT.fetch_add(1, Ordering::Relaxed))
}

/// What the server saw of one request.
#[derive(Debug, Clone)]
pub(crate) struct Recorded {
    /// The raw body, for "this text never reached the server" checks.
    pub raw: String,
    pub body: Value,
    /// Lower-case names.
    pub headers: Vec<(String, String)>,
    pub started: Instant,
    /// When the answer was ready; `None` while it is in flight (or hanging).
    pub finished: Option<Instant>,
}

impl Recorded {
    pub(crate) fn header(&self, name: &str) -> Option<&str> {
        let name = name.to_ascii_lowercase();
        self.headers
            .iter()
            .find(|(k, _)| *k == name)
            .map(|(_, v)| v.as_str())
    }
}

/// Replies in order, then `forever` (if set) for every further request.
pub(crate) struct Script<R> {
    pub queued: VecDeque<R>,
    pub forever: Option<R>,
}

impl<R: Clone> Script<R> {
    pub(crate) fn next(&mut self) -> Option<R> {
        self.queued.pop_front().or_else(|| self.forever.clone())
    }
}

impl<R> Default for Script<R> {
    fn default() -> Self {
        Script {
            queued: VecDeque::new(),
            forever: None,
        }
    }
}

/// State every scripted model server keeps.
pub(crate) struct Common<R> {
    pub script: Mutex<Script<R>>,
    pub requests: Mutex<Vec<Recorded>>,
    pub violations: Mutex<Vec<String>>,
    pub latency: Mutex<Duration>,
    /// The key requests must carry, if any.
    pub key: Mutex<Option<String>>,
    /// Flips to true when the server is dropped: hanging handlers return.
    pub release: watch::Sender<bool>,
    /// Scripts for requests whose system message contains a marker, checked in order before
    /// the shared script: parallel conversations each get their own replies.
    pub routes: Mutex<Vec<(String, Script<R>)>>,
}

impl<R> Default for Common<R> {
    fn default() -> Self {
        Common {
            script: Mutex::new(Script::default()),
            requests: Mutex::default(),
            violations: Mutex::default(),
            latency: Mutex::new(Duration::ZERO),
            key: Mutex::default(),
            release: watch::channel(false).0,
            routes: Mutex::default(),
        }
    }
}

impl<R: Clone> Common<R> {
    /// Records the request's arrival; returns its index for [`Common::finish`].
    pub(crate) fn arrive(&self, headers: &HeaderMap, raw: &Bytes) -> (usize, Value) {
        let text = String::from_utf8_lossy(raw).into_owned();
        let body = serde_json::from_str::<Value>(&text).unwrap_or_else(|e| {
            self.violate(format!("a request body is not JSON ({e}): {text}"));
            Value::Null
        });
        let mut requests = lock(&self.requests);
        requests.push(Recorded {
            raw: text,
            body: body.clone(),
            headers: headers
                .iter()
                .map(|(k, v)| {
                    (
                        k.as_str().to_owned(),
                        v.to_str().unwrap_or("<binary>").to_owned(),
                    )
                })
                .collect(),
            started: Instant::now(),
            finished: None,
        });
        (requests.len() - 1, body)
    }

    pub(crate) fn finish(&self, index: usize) {
        lock(&self.requests)[index].finished = Some(Instant::now());
    }

    pub(crate) fn violate(&self, problem: String) {
        lock(&self.violations).push(problem);
    }

    /// The next scripted reply; an unscripted request is itself a test failure.
    pub(crate) fn next_reply(&self) -> Option<R> {
        let reply = lock(&self.script).next();
        if reply.is_none() {
            self.violate("a request arrived after the script ran out".into());
        }
        reply
    }

    /// The next reply of the first route whose marker `system` contains, else of the shared
    /// script.
    pub(crate) fn next_reply_for(&self, system: &str) -> Option<R> {
        let routed = {
            let mut routes = lock(&self.routes);
            routes
                .iter_mut()
                .find(|(marker, _)| system.contains(marker.as_str()))
                .map(|(marker, script)| (marker.clone(), script.next()))
        };
        match routed {
            Some((_, Some(reply))) => Some(reply),
            Some((marker, None)) => {
                self.violate(format!(
                    "a request for {marker:?} arrived after its script ran out"
                ));
                None
            }
            None => self.next_reply(),
        }
    }

    /// Waits the configured latency, simulating a model that takes time to answer.
    pub(crate) async fn latency(&self) {
        let latency = *lock(&self.latency);
        if !latency.is_zero() {
            tokio::time::sleep(latency).await;
        }
    }

    /// Returns only when the server is being dropped.
    pub(crate) async fn hang(&self) {
        let mut release = self.release.subscribe();
        let _ = release.wait_for(|released| *released).await;
    }
}

/// A server on a free loopback port, on its own thread and runtime so it works under any test
/// runtime. Dropping it releases hanging requests, stops the server, and fails the test if a
/// schema violation was recorded.
pub(crate) struct Loopback {
    pub url: String,
    served: Served,
    release: watch::Sender<bool>,
    violations: Box<dyn Fn() -> Vec<String> + Send + Sync>,
}

impl Loopback {
    pub(crate) fn serve<R: Clone + Send + 'static>(
        app: Router,
        common: Arc<Common<R>>,
    ) -> Loopback {
        let (listener, url) = serve::listen();
        let served = Served::start(listener, app);
        let release = common.release.clone();
        Loopback {
            url,
            served,
            release,
            violations: Box::new(move || lock(&common.violations).clone()),
        }
    }
}

impl Drop for Loopback {
    fn drop(&mut self) {
        let _ = self.release.send(true);
        self.served.stop();
        let violations = (self.violations)();
        if !violations.is_empty() && !std::thread::panicking() {
            panic!(
                "the model server recorded {} violation(s):\n{}",
                violations.len(),
                violations.join("\n\n")
            );
        }
    }
}

pub(crate) fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// The running OpenAI-compatible server.
pub(crate) struct OpenAiServer {
    common: Arc<Common<Reply>>,
    loopback: Loopback,
}

impl OpenAiServer {
    pub(crate) fn start() -> OpenAiServer {
        let common = Arc::new(Common::<Reply>::default());
        let app = Router::new()
            .route("/v1/chat/completions", post(completions))
            .with_state(common.clone());
        OpenAiServer {
            loopback: Loopback::serve(app, common.clone()),
            common,
        }
    }

    /// The base URL a client is configured with: `http://127.0.0.1:PORT/v1`.
    pub(crate) fn base_url(&self) -> String {
        format!("{}/v1", self.loopback.url)
    }

    /// The next requests get these replies, in order.
    pub(crate) fn script(&self, replies: impl IntoIterator<Item = Reply>) {
        lock(&self.common.script).queued.extend(replies);
    }

    /// Requests whose system message contains `marker` get these replies, in order.
    pub(crate) fn route(&self, marker: &str, replies: impl IntoIterator<Item = Reply>) {
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

    /// Requests whose system message contains `marker` get `reply` once their route's script
    /// is used up.
    pub(crate) fn route_always(&self, marker: &str, reply: Reply) {
        self.route(marker, []);
        let mut routes = lock(&self.common.routes);
        if let Some((_, script)) = routes.iter_mut().find(|(m, _)| m == marker) {
            script.forever = Some(reply);
        }
    }

    /// Every request after the script is used up gets this reply.
    pub(crate) fn reply_always(&self, reply: Reply) {
        lock(&self.common.script).forever = Some(reply);
    }

    /// Each answer waits this long first.
    pub(crate) fn set_latency(&self, latency: Duration) {
        *lock(&self.common.latency) = latency;
    }

    /// Requests must carry `Authorization: Bearer key`; others get a 401 that, like some real
    /// servers, quotes the key it was sent.
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

async fn completions(
    State(common): State<Arc<Common<Reply>>>,
    headers: HeaderMap,
    raw: Bytes,
) -> Response {
    let (index, body) = common.arrive(&headers, &raw);
    if let Err(problem) = schemas().check_request(&body) {
        common.violate(problem);
    }
    let response = answer(&common, &headers, &body).await;
    common.finish(index);
    response
}

async fn answer(common: &Common<Reply>, headers: &HeaderMap, body: &Value) -> Response {
    let expected = lock(&common.key).clone();
    if let Some(expected) = expected {
        let sent = headers
            .get("authorization")
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.strip_prefix("Bearer "))
            .unwrap_or("");
        if sent != expected {
            return error(
                StatusCode::UNAUTHORIZED,
                &format!("Incorrect API key provided: {sent}."),
                "invalid_request_error",
                None,
                common,
            );
        }
    }
    common.latency().await;
    let system = body["messages"][0]["content"].as_str().unwrap_or("");
    let Some(reply) = common.next_reply_for(system) else {
        return error(
            StatusCode::INTERNAL_SERVER_ERROR,
            "unscripted",
            "server_error",
            None,
            common,
        );
    };
    reply_with(reply, common, body).await
}

async fn reply_with(reply: Reply, common: &Common<Reply>, body: &Value) -> Response {
    match reply {
        Reply::Message {
            content,
            tool_calls,
            finish_reason,
            usage,
        } => {
            let calls: Vec<Value> = tool_calls
                .iter()
                .map(|(id, name, arguments)| {
                    json!({"id": id, "type": "function",
                           "function": {"name": name, "arguments": arguments}})
                })
                .collect();
            let mut message = json!({"role": "assistant", "content": content, "refusal": null});
            if !calls.is_empty() {
                message["tool_calls"] = Value::Array(calls);
            }
            let completion = json!({
                "id": "chatcmpl-scripted",
                "object": "chat.completion",
                "created": 1_700_000_000,
                "model": body["model"].as_str().unwrap_or("unknown"),
                "choices": [{"index": 0, "message": message, "finish_reason": finish_reason,
                             "logprobs": null}],
                "usage": {"prompt_tokens": usage.0, "completion_tokens": usage.1,
                          "total_tokens": usage.0 + usage.1}
            });
            if let Err(problem) = schemas().check_response(&completion) {
                common.violate(problem);
            }
            axum::Json(completion).into_response()
        }
        Reply::Raw {
            message,
            finish_reason,
            usage,
            unchecked,
        } => {
            let mut completion = json!({
                "id": "chatcmpl-scripted",
                "object": "chat.completion",
                "created": 1_700_000_000,
                "model": body["model"].as_str().unwrap_or("unknown"),
                "choices": [{"index": 0, "message": message, "finish_reason": finish_reason,
                             "logprobs": null}],
            });
            if let Some((input, output)) = usage {
                completion["usage"] = json!({"prompt_tokens": input, "completion_tokens": output,
                                              "total_tokens": input + output});
            }
            if !unchecked && let Err(problem) = schemas().check_response(&completion) {
                common.violate(problem);
            }
            axum::Json(completion).into_response()
        }
        Reply::Status {
            status,
            retry_after,
        } => {
            let status = StatusCode::from_u16(status).expect("a valid status");
            let message = status.canonical_reason().unwrap_or("error");
            error(status, message, "server_error", retry_after, common)
        }
        Reply::Hang => {
            common.hang().await;
            error(
                StatusCode::SERVICE_UNAVAILABLE,
                "shutting down",
                "server_error",
                None,
                common,
            )
        }
        Reply::Fault { fault, real } => {
            faults::respond(
                &fault,
                Dialect::OpenAi,
                Box::pin(reply_with(*real, common, body)),
            )
            .await
        }
    }
}

fn error(
    status: StatusCode,
    message: &str,
    kind: &str,
    retry_after: Option<u64>,
    common: &Common<Reply>,
) -> Response {
    let body = json!({"error": {"message": message, "type": kind, "param": null, "code": null}});
    if status == StatusCode::TOO_MANY_REQUESTS
        && let Err(problem) = schemas().check_error(&body)
    {
        common.violate(problem);
    }
    let mut response = (status, axum::Json(body)).into_response();
    if let Some(secs) = retry_after {
        response.headers_mut().insert(
            "retry-after",
            HeaderValue::from_str(&secs.to_string()).expect("a header value"),
        );
    }
    response
}

/// Tool results the model was sent, by `tool_call_id`, from one recorded request.
pub(crate) fn tool_messages(request: &Value) -> HashMap<String, String> {
    request["messages"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|m| m["role"] == "tool")
        .map(|m| {
            (
                m["tool_call_id"].as_str().unwrap_or("").to_owned(),
                m["content"].as_str().unwrap_or("").to_owned(),
            )
        })
        .collect()
}
