//! Faults the loopback servers can answer with instead of (or on top of) the real response,
//! shared by the GitHub-like server and the model servers (OpenAI-compatible, Anthropic).
//!
//! ```text
//! github.script("GET /repos/acme/widgets/pulls/7", [Fault::ResetMidBody]);
//! openai.route(&marker, [Reply::Fault(Fault::Truncated), finish("ok")]);
//! ```
//!
//! Status faults replace the answer with the server's own error shape ([`Dialect`]); body
//! faults take the real answer and damage it on the wire.

use std::future::Future;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use axum::body::{Body, Bytes, to_bytes};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};

/// A failure a server answers with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Fault {
    /// That status with the server's error body (500, 502, 404, 422...).
    Status(u16),
    /// That status with this message in the server's error body: a server that quotes what it
    /// was sent back in its refusal (GitHub's 422s name the offending value).
    Says { status: u16, message: String },
    /// 429 with `Retry-After`.
    TooManyRequests { retry_after_secs: u64 },
    /// 403 "secondary rate limit" with `Retry-After`, as GitHub sends it.
    SecondaryRateLimit { retry_after_secs: u64 },
    /// 403 with `x-ratelimit-remaining: 0` and a reset this many seconds from now.
    PrimaryRateLimit { reset_in_secs: u64 },
    /// 429 with a used-up limit resetting this many seconds from now (before now when
    /// negative), in the server's own headers: GitHub's `x-ratelimit-*`, GitLab's and
    /// Gitea's `RateLimit-*`.
    Throttled { reset_in_secs: i64 },
    /// The real answer with `Link: <url>; rel="next"`: a server naming a next page, anywhere.
    NextPage(String),
    /// The request is handled (a review is recorded) but the connection drops before the
    /// answer's body arrives: the client cannot know whether its POST took effect.
    DropAfterHandling,
    /// The status line, the headers and half of the real body arrive, then the connection is
    /// closed with the body unfinished.
    ResetMidBody,
    /// The real answer, whole, but only after `after`: a server that is slow to start answering.
    Late { after: Duration },
    /// The real answer, one byte every `interval`: a server (or proxy) that trickles.
    SlowDrip { interval: Duration },
    /// The first half of the real answer, cleanly: a Content-Length that matches and a closed
    /// body, so only the JSON parser can tell.
    Truncated,
    /// 200 with an HTML page, `text/html`, as a captive portal or a misrouted proxy sends.
    Html,
    /// 200 `application/json` whose body is the server's error shape.
    ErrorIn200,
    /// The real answer with the first `from` in its body replaced by `to`: a server that sends
    /// what no honest encoder writes (a key twice in one object, say).
    Rewrite { from: String, to: String },
    /// The real answer, once the test opens the [`Gate`]: a call that stays unanswered for
    /// exactly as long as the test needs, with no clock involved.
    Held(Held),
}

/// Opens the requests its [`Gate::hold`] faults hold. Dropping it opens them too, so a
/// failing test never leaves its server waiting on a request at shutdown.
#[derive(Debug)]
pub(crate) struct Gate(tokio::sync::watch::Sender<bool>);

/// The waiting side of a [`Gate`].
#[derive(Debug, Clone)]
pub(crate) struct Held(tokio::sync::watch::Receiver<bool>);

impl PartialEq for Held {
    fn eq(&self, other: &Held) -> bool {
        self.0.same_channel(&other.0)
    }
}

impl Eq for Held {}

impl Gate {
    pub(crate) fn new() -> Gate {
        Gate(tokio::sync::watch::Sender::new(false))
    }

    /// A fault answering only once this gate is open.
    pub(crate) fn hold(&self) -> Fault {
        Fault::Held(Held(self.0.subscribe()))
    }

    pub(crate) fn open(&self) {
        self.0.send_replace(true);
    }
}

impl Drop for Gate {
    fn drop(&mut self) {
        self.open();
    }
}

/// Whose error body a fault carries.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Dialect {
    /// `{"message": "...", "documentation_url": "..."}`
    Github,
    /// `{"error": {"message": "...", "type": "...", ...}}`
    OpenAi,
    /// `{"type": "error", "error": {"type": "...", "message": "..."}}`
    Anthropic,
    /// `{"message": "..."}`, as GitLab and Gitea answer.
    Message,
}

impl Dialect {
    pub(crate) fn error_body(self, message: &str) -> Value {
        match self {
            Dialect::Github => super::github_json::error(message),
            Dialect::OpenAi => json!({"error": {
                "message": message, "type": "server_error", "param": null, "code": null
            }}),
            Dialect::Anthropic => json!({"type": "error", "error": {
                "type": "api_error", "message": message
            }}),
            Dialect::Message => json!({ "message": message }),
        }
    }

    pub(crate) fn error(self, status: StatusCode, message: &str) -> Response {
        (status, axum::Json(self.error_body(message))).into_response()
    }
}

/// What a server answers a request with when `fault` is due. `real` is the answer it would
/// have sent; it is only run for the faults that need it (it handles the request).
pub(crate) async fn respond(
    fault: &Fault,
    dialect: Dialect,
    real: impl Future<Output = Response>,
) -> Response {
    match fault {
        Fault::Status(code) => {
            let status = StatusCode::from_u16(*code).expect("a valid status code");
            dialect.error(status, status.canonical_reason().unwrap_or("Error"))
        }
        Fault::Says { status, message } => {
            let status = StatusCode::from_u16(*status).expect("a valid status code");
            dialect.error(status, message)
        }
        Fault::TooManyRequests { retry_after_secs } => {
            let mut response = dialect.error(StatusCode::TOO_MANY_REQUESTS, "Too Many Requests");
            set_header(&mut response, "retry-after", &retry_after_secs.to_string());
            response
        }
        Fault::SecondaryRateLimit { retry_after_secs } => {
            let mut response = dialect.error(
                StatusCode::FORBIDDEN,
                "You have exceeded a secondary rate limit. Please wait a few minutes before you try again.",
            );
            set_header(&mut response, "retry-after", &retry_after_secs.to_string());
            response
        }
        Fault::PrimaryRateLimit { reset_in_secs } => {
            let mut response = dialect.error(StatusCode::FORBIDDEN, "API rate limit exceeded.");
            set_header(&mut response, "x-ratelimit-limit", "60");
            set_header(&mut response, "x-ratelimit-remaining", "0");
            set_header(
                &mut response,
                "x-ratelimit-reset",
                &(epoch_now() + reset_in_secs).to_string(),
            );
            response
        }
        Fault::Throttled { reset_in_secs } => {
            let mut response = dialect.error(StatusCode::TOO_MANY_REQUESTS, "Too Many Requests");
            let reset = epoch_now()
                .saturating_add_signed(*reset_in_secs)
                .to_string();
            let prefix = match dialect {
                Dialect::Github => "x-ratelimit",
                _ => "ratelimit",
            };
            set_header(&mut response, &format!("{prefix}-limit"), "60");
            set_header(&mut response, &format!("{prefix}-remaining"), "0");
            set_header(&mut response, &format!("{prefix}-reset"), &reset);
            response
        }
        Fault::NextPage(url) => {
            let mut response = real.await;
            set_header(&mut response, "link", &format!("<{url}>; rel=\"next\""));
            response
        }
        Fault::Html => (
            StatusCode::OK,
            [(header::CONTENT_TYPE, "text/html; charset=utf-8")],
            HTML_PAGE,
        )
            .into_response(),
        Fault::ErrorIn200 => (
            StatusCode::OK,
            axum::Json(dialect.error_body("Server Error: the request could not be completed")),
        )
            .into_response(),
        Fault::DropAfterHandling => broken(real.await, 0.0).await,
        Fault::ResetMidBody => broken(real.await, 0.5).await,
        Fault::Truncated => {
            let (parts, body) = real.await.into_parts();
            let bytes = buffer(body).await;
            let half = bytes.slice(..bytes.len() / 2);
            Response::from_parts(parts, Body::from(half))
        }
        Fault::Rewrite { from, to } => {
            let (mut parts, body) = real.await.into_parts();
            let text = String::from_utf8_lossy(&buffer(body).await).into_owned();
            assert!(text.contains(from.as_str()), "{from} is not in {text}");
            let text = text.replacen(from.as_str(), to, 1);
            parts.headers.remove(header::CONTENT_LENGTH);
            Response::from_parts(parts, Body::from(text))
        }
        Fault::Held(Held(open)) => {
            // A gate dropped without opening lets the answer through as well.
            let _ = open.clone().wait_for(|open| *open).await;
            real.await
        }
        Fault::Late { after } => {
            tokio::time::sleep(*after).await;
            real.await
        }
        Fault::SlowDrip { interval } => {
            let (parts, body) = real.await.into_parts();
            let bytes = buffer(body).await;
            let interval = *interval;
            // One byte per tick; once the client gives up, the next write fails and the stream
            // is dropped, so a drip never outlives its client by more than a tick or two.
            let drip = futures_util::stream::unfold(bytes, move |rest| async move {
                if rest.is_empty() {
                    return None;
                }
                tokio::time::sleep(interval).await;
                let byte = rest.slice(..1);
                Some((Ok::<Bytes, std::io::Error>(byte), rest.slice(1..)))
            });
            Response::from_parts(parts, Body::from_stream(drip))
        }
    }
}

/// `response`'s head and the first `fraction` of its body, then a connection error. The pause
/// lets the server flush what it has, so the client really sees a body that stops.
async fn broken(response: Response, fraction: f64) -> Response {
    let (parts, body) = response.into_parts();
    let bytes = buffer(body).await;
    let cut = (bytes.len() as f64 * fraction) as usize;
    let head = futures_util::stream::iter([Ok::<Bytes, std::io::Error>(bytes.slice(..cut))]);
    let failure = futures_util::stream::once(async {
        tokio::time::sleep(Duration::from_millis(50)).await;
        Err::<Bytes, _>(std::io::Error::other("connection dropped by the test"))
    });
    let stream = futures_util::StreamExt::chain(head, failure);
    Response::from_parts(parts, Body::from_stream(stream))
}

async fn buffer(body: Body) -> Bytes {
    to_bytes(body, usize::MAX)
        .await
        .expect("buffer a response body")
}

fn set_header(response: &mut Response, name: &str, value: &str) {
    response.headers_mut().insert(
        axum::http::HeaderName::from_bytes(name.as_bytes()).expect("a valid header name"),
        HeaderValue::from_str(value).expect("a valid header value"),
    );
}

fn epoch_now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .expect("clock after 1970")
        .as_secs()
}

/// What a login portal or a proxy in front of the API answers.
const HTML_PAGE: &str = "<!DOCTYPE html>\n<html><head><title>Sign in</title></head>\n<body><h1>Please sign in to continue</h1><form action=\"/login\"></form></body></html>\n";
