//! The fake GitHub's publishing calls: submit a review, edit one, reply to a comment, list a
//! commit's check runs. They answer as GitHub does, including its 422s (the bodies are the real
//! ones, from tests/fixtures/github/errors-422.json): an inline comment outside the diff, a
//! `start_line` that does not precede `line`, approving or requesting changes on one's own PR,
//! and (from tests/fixtures/github/errors-publishing.json) Actions' token approving, a second
//! pending review, a body over 65,536 characters, a `commit_id` no longer in the pull request,
//! dismissing a review that is not standing. Every request body is checked against the API
//! description as well.

use std::sync::{Arc, LazyLock};

use axum::extract::{Path, Request, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use serde_json::{Value, json};

use super::github_json as gh;
use super::github_server::{
    PullSpec, ReviewCommentSpec, ReviewSpec, Shared, account, bearer, find_pull, github_error,
    lock, not_found,
};
use super::openapi;

const REVIEWS: &str = "/repos/{owner}/{repo}/pulls/{pull_number}/reviews";
const REVIEW: &str = "/repos/{owner}/{repo}/pulls/{pull_number}/reviews/{review_id}";
const REPLIES: &str = "/repos/{owner}/{repo}/pulls/{pull_number}/comments/{comment_id}/replies";

/// GitHub's 422 bodies, keyed by the issue thread that quoted them (and a note when two share
/// one thread).
static ERRORS: LazyLock<Vec<Value>> = LazyLock::new(|| {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/github/errors-422.json"
    );
    let text = std::fs::read_to_string(path).expect("read errors-422.json");
    let value: Value = serde_json::from_str(&text).expect("parse errors-422.json");
    value["examples"].as_array().expect("examples").clone()
});

/// More real bodies, for the publishing calls beyond a review's anchors.
static MORE_ERRORS: LazyLock<Vec<Value>> = LazyLock::new(|| {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/github/errors-publishing.json"
    );
    let text = std::fs::read_to_string(path).expect("read errors-publishing.json");
    let value: Value = serde_json::from_str(&text).expect("parse errors-publishing.json");
    value["examples"].as_array().expect("examples").clone()
});

/// GitHub's limit on review, comment and reply bodies, in characters.
pub(crate) const MAX_BODY_CHARS: usize = 65_536;

/// The real 422 body whose error text contains `needle`.
fn real_422(needle: &str) -> Response {
    real_error(422, needle)
}

/// The real body of a `status` answer whose message or error text contains `needle`.
pub(crate) fn real_error(status: u16, needle: &str) -> Response {
    let text_of = |e: &Value| -> String {
        match e {
            Value::String(s) => s.clone(),
            other => other["message"].as_str().unwrap_or("").to_string(),
        }
    };
    let body = ERRORS
        .iter()
        .chain(MORE_ERRORS.iter())
        .filter(|e| e["status"] == status)
        .map(|e| e["body"].clone())
        .find(|b| {
            b["message"].as_str().is_some_and(|m| m.contains(needle))
                || b["errors"]
                    .as_array()
                    .is_some_and(|errors| errors.iter().any(|e| text_of(e).contains(needle)))
        })
        .unwrap_or_else(|| panic!("no {status} body mentions {needle:?}"));
    let status = StatusCode::from_u16(status).expect("a valid status");
    (status, axum::Json(body)).into_response()
}

/// GitHub's refusal of a body over its limit (characters, as GitHub counts them).
fn too_long(body: &Value) -> Option<Response> {
    let long = |v: &Value| {
        v.as_str()
            .is_some_and(|t| t.chars().count() > MAX_BODY_CHARS)
    };
    let comments = body["comments"].as_array().cloned().unwrap_or_default();
    (long(&body["body"]) || comments.iter().any(|c| long(&c["body"])))
        .then(|| real_422("body is too long"))
}

#[derive(Deserialize)]
pub(crate) struct ReviewPath {
    owner: String,
    repo: String,
    pull_number: u64,
    review_id: Option<u64>,
    comment_id: Option<u64>,
}

/// The login behind the request's token; `None` answers 401 as GitHub does.
fn login(shared: &Shared, headers: &HeaderMap) -> Option<String> {
    let token = bearer(headers)?;
    lock(&shared.tokens).get(&token).cloned()
}

fn next_id(shared: &Shared) -> u64 {
    let mut id = lock(&shared.next_id);
    *id += 1;
    *id
}

/// Reads and records a JSON body, checking it against the description's request schema.
async fn body_of(shared: &Shared, template: &str, request: Request) -> Result<Value, Response> {
    let call = format!("{} {}", request.method(), request.uri().path());
    let method = request.method().as_str().to_ascii_lowercase();
    let bytes = axum::body::to_bytes(request.into_body(), usize::MAX)
        .await
        .map_err(|_| github_error(StatusCode::BAD_REQUEST, "Problems parsing JSON"))?;
    let value: Value = serde_json::from_slice(&bytes)
        .map_err(|_| github_error(StatusCode::BAD_REQUEST, "Problems parsing JSON"))?;
    lock(&shared.bodies).push((call, value.clone()));
    if let Err(problem) = openapi::github().check_request(&method, template, &value) {
        lock(&shared.violations).push(problem);
        return Err(github_error(
            StatusCode::UNPROCESSABLE_ENTITY,
            "Invalid request.",
        ));
    }
    Ok(value)
}

/// An inclusive line range of one side of a hunk; `None` when that side is empty.
type Range = Option<(u32, u32)>;

/// Line ranges per side of each hunk of each file of a unified diff.
struct Hunks {
    /// (path, old range, new range).
    hunks: Vec<(String, Range, Range)>,
}

impl Hunks {
    fn parse(diff: &str) -> Hunks {
        let mut hunks = Vec::new();
        let (mut old_path, mut path) = (String::new(), String::new());
        for line in diff.lines() {
            if let Some(p) = line.strip_prefix("--- ") {
                old_path = unquote(p).trim_start_matches("a/").to_string();
            } else if let Some(p) = line.strip_prefix("+++ ") {
                path = if p == "/dev/null" {
                    old_path.clone()
                } else {
                    unquote(p).trim_start_matches("b/").to_string()
                };
            } else if let Some(header) = line.strip_prefix("@@ ") {
                let mut parts = header.split_whitespace();
                let range = |spec: &str| {
                    let (start, count) = match spec[1..].split_once(',') {
                        Some((s, c)) => (s.parse::<u32>().unwrap(), c.parse::<u32>().unwrap()),
                        None => (spec[1..].parse::<u32>().unwrap(), 1),
                    };
                    (count > 0).then(|| (start, start + count - 1))
                };
                let old = range(parts.next().unwrap());
                let new = range(parts.next().unwrap());
                hunks.push((path.clone(), old, new));
            }
        }
        Hunks { hunks }
    }

    fn has_path(&self, path: &str) -> bool {
        self.hunks.iter().any(|(p, _, _)| p == path)
    }

    /// The index of the hunk holding `line` on `side`.
    fn hunk_of(&self, path: &str, side: &str, line: u64) -> Option<usize> {
        self.hunks.iter().position(|(p, old, new)| {
            let range = if side == "LEFT" { old } else { new };
            p == path && range.is_some_and(|(a, b)| (a as u64..=b as u64).contains(&line))
        })
    }
}

/// A path as git writes it in a diff header: C-quoted when it holds a newline, a quote, a
/// backslash or (with `core.quotePath`) bytes past ASCII.
fn unquote(path: &str) -> String {
    // A name with a space ends with a tab, which git adds to mark where it stops.
    let path = path.strip_suffix('\t').unwrap_or(path);
    let Some(inner) = path.strip_prefix('"').and_then(|p| p.strip_suffix('"')) else {
        return path.to_string();
    };
    let mut bytes = Vec::new();
    let mut chars = inner.bytes().peekable();
    while let Some(b) = chars.next() {
        if b != b'\\' {
            bytes.push(b);
            continue;
        }
        match chars.next() {
            Some(b'n') => bytes.push(b'\n'),
            Some(b't') => bytes.push(b'\t'),
            Some(b'r') => bytes.push(b'\r'),
            Some(d @ b'0'..=b'7') => {
                let mut value = u32::from(d - b'0');
                for _ in 0..2 {
                    if let Some(n) = chars.next_if(|n| (b'0'..=b'7').contains(n)) {
                        value = value * 8 + u32::from(n - b'0');
                    }
                }
                bytes.push(value as u8);
            }
            Some(other) => bytes.push(other),
            None => bytes.push(b'\\'),
        }
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

/// GitHub's verdict on one inline comment, as the 422 it would send.
fn refuse_comment(hunks: &Hunks, comment: &Value) -> Option<Response> {
    let path = comment["path"].as_str().unwrap_or("");
    let side = comment["side"].as_str().unwrap_or("RIGHT");
    if !hunks.has_path(path) {
        return Some(real_422("path is invalid"));
    }
    let line = comment["line"].as_u64()?;
    let end = hunks.hunk_of(path, side, line);
    if let Some(start) = comment["start_line"].as_u64() {
        if start >= line {
            return Some(real_422("start line must precede the end line"));
        }
        let start_side = comment["start_side"].as_str().unwrap_or(side);
        if end.is_none() || hunks.hunk_of(path, start_side, start) != end {
            return Some(real_422("same hunk as the line"));
        }
    }
    end.is_none()
        .then(|| real_422("line must be part of the diff and"))
}

pub(crate) async fn create_review(
    State(shared): State<Arc<Shared>>,
    Path(p): Path<ReviewPath>,
    headers: HeaderMap,
    request: Request,
) -> Response {
    let Some(pull) = find_pull(&shared, &p.owner, &p.repo, Some(p.pull_number)) else {
        return not_found();
    };
    let Some(login) = login(&shared, &headers) else {
        return github_error(StatusCode::UNAUTHORIZED, "Requires authentication");
    };
    let body = match body_of(&shared, REVIEWS, request).await {
        Ok(body) => body,
        Err(refused) => return refused,
    };
    if let Some(refused) = too_long(&body) {
        return refused;
    }
    let pending = pull
        .reviews
        .iter()
        .any(|r| r.state == "PENDING" && r.author.login.eq_ignore_ascii_case(&login));
    if pending {
        return real_422("one pending review per pull request");
    }
    // The review is placed on `commit_id`: it must be one of the pull request's commits (an
    // older one is fine, as on GitHub; one a force-push removed is not).
    if let Some(commit) = body["commit_id"].as_str()
        && !pr_commits(&shared, &pull).iter().any(|c| c == commit)
    {
        return real_422("commit_id is not part of the pull request");
    }
    let event = body["event"].as_str().unwrap_or("");
    let installation = super::github_server::bearer(&headers)
        .is_some_and(|t| lock(&shared.installation_tokens).contains(&t));
    if installation
        && login == "github-actions[bot]"
        && event == "APPROVE"
        && !*lock(&shared.actions_may_approve)
    {
        return real_422("GitHub Actions is not permitted to approve pull requests.");
    }
    let own = pull.author.login.eq_ignore_ascii_case(&login);
    if own && event == "APPROVE" {
        return real_422("Can not approve your own pull request");
    }
    if own && event == "REQUEST_CHANGES" {
        return real_422("Can not request changes on your own pull request");
    }
    let hunks = Hunks::parse(&lock(&shared.diff));
    let comments = body["comments"].as_array().cloned().unwrap_or_default();
    let refused = lock(&shared.refused_paths).clone();
    if comments
        .iter()
        .any(|c| refused.iter().any(|p| c["path"] == p.as_str()))
    {
        return real_422("line must be part of the diff and");
    }
    // All or nothing: one bad anchor refuses the whole review.
    if let Some(refusal) = comments.iter().find_map(|c| refuse_comment(&hunks, c)) {
        return refusal;
    }
    let state = match event {
        "APPROVE" => "APPROVED",
        "REQUEST_CHANGES" => "CHANGES_REQUESTED",
        "COMMENT" => "COMMENTED",
        _ => "PENDING",
    };
    let commit_id = body["commit_id"]
        .as_str()
        .unwrap_or(&pull.head_sha)
        .to_string();
    let author = account(&login);
    let review = ReviewSpec {
        id: next_id(&shared),
        author: author.clone(),
        body: body["body"].as_str().unwrap_or("").to_string(),
        state: state.into(),
        commit_id: commit_id.clone(),
    };
    let new_comments: Vec<ReviewCommentSpec> = comments
        .iter()
        .map(|c| ReviewCommentSpec {
            id: next_id(&shared),
            review_id: Some(review.id),
            author: author.clone(),
            body: c["body"].as_str().unwrap_or("").to_string(),
            path: c["path"].as_str().unwrap_or("").to_string(),
            line: c["line"].as_u64().unwrap_or(0) as u32,
            side: c["side"].as_str().unwrap_or("RIGHT").to_string(),
            commit_id: commit_id.clone(),
            in_reply_to: None,
            created_at: super::github_server::minute_stamp(review.id),
        })
        .collect();
    let pull = {
        let mut served = lock(&shared.pull);
        served.reviews.push(review.clone());
        served.review_comments.extend(new_comments);
        served.clone()
    };
    axum::Json(gh::review(&shared.urls, &pull, &review)).into_response()
}

pub(crate) async fn update_review(
    State(shared): State<Arc<Shared>>,
    Path(p): Path<ReviewPath>,
    headers: HeaderMap,
    request: Request,
) -> Response {
    if find_pull(&shared, &p.owner, &p.repo, Some(p.pull_number)).is_none() {
        return not_found();
    }
    let Some(login) = login(&shared, &headers) else {
        return github_error(StatusCode::UNAUTHORIZED, "Requires authentication");
    };
    let body = match body_of(&shared, REVIEW, request).await {
        Ok(body) => body,
        Err(refused) => return refused,
    };
    if let Some(refused) = too_long(&body) {
        return refused;
    }
    let id = p.review_id.unwrap_or(0);
    let mut served = lock(&shared.pull);
    let Some(review) = served.reviews.iter_mut().find(|r| r.id == id) else {
        return not_found();
    };
    if !review.author.login.eq_ignore_ascii_case(&login) {
        return github_error(
            StatusCode::FORBIDDEN,
            "Resource not accessible by integration",
        );
    }
    review.body = body["body"].as_str().unwrap_or("").to_string();
    let review = review.clone();
    let pull = served.clone();
    drop(served);
    axum::Json(gh::review(&shared.urls, &pull, &review)).into_response()
}

pub(crate) async fn reply(
    State(shared): State<Arc<Shared>>,
    Path(p): Path<ReviewPath>,
    headers: HeaderMap,
    request: Request,
) -> Response {
    if find_pull(&shared, &p.owner, &p.repo, Some(p.pull_number)).is_none() {
        return not_found();
    }
    let Some(login) = login(&shared, &headers) else {
        return github_error(StatusCode::UNAUTHORIZED, "Requires authentication");
    };
    let body = match body_of(&shared, REPLIES, request).await {
        Ok(body) => body,
        Err(refused) => return refused,
    };
    if let Some(refused) = too_long(&body) {
        return refused;
    }
    let parent_id = p.comment_id.unwrap_or(0);
    let id = next_id(&shared);
    let mut served = lock(&shared.pull);
    let Some(parent) = served
        .review_comments
        .iter()
        .find(|c| c.id == parent_id)
        .cloned()
    else {
        return not_found();
    };
    let reply = ReviewCommentSpec {
        id,
        review_id: parent.review_id,
        author: account(&login),
        body: body["body"].as_str().unwrap_or("").to_string(),
        in_reply_to: Some(parent.id),
        created_at: super::github_server::minute_stamp(id),
        ..parent
    };
    served.review_comments.push(reply.clone());
    let pull = served.clone();
    drop(served);
    (
        StatusCode::CREATED,
        axum::Json(gh::review_comment(&shared.urls, &pull, &reply)),
    )
        .into_response()
}

#[derive(Deserialize)]
pub(crate) struct CommitPath {
    owner: String,
    repo: String,
    #[serde(rename = "ref")]
    reference: String,
}

pub(crate) async fn check_runs(
    State(shared): State<Arc<Shared>>,
    Path(p): Path<CommitPath>,
) -> Response {
    if find_pull(&shared, &p.owner, &p.repo, None).is_none() {
        return not_found();
    }
    let runs = lock(&shared.check_runs)
        .get(&p.reference)
        .cloned()
        .unwrap_or_default();
    axum::Json(json!({ "total_count": runs.len(), "check_runs": runs })).into_response()
}

/// The pull request's commits, as `GET .../pulls/{n}/commits` would list them.
fn pr_commits(shared: &Shared, pull: &PullSpec) -> Vec<String> {
    let range = format!("{}..{}", pull.base_sha, pull.head_sha);
    shared
        .repo
        .git(&["rev-list", &range])
        .lines()
        .map(str::to_string)
        .collect()
}

/// `PUT .../reviews/{review_id}/dismissals` with `{"message": ..., "event": "DISMISS"}`: only a
/// standing APPROVED or CHANGES_REQUESTED review can be dismissed; it becomes DISMISSED.
pub(crate) async fn dismiss(
    State(shared): State<Arc<Shared>>,
    Path(p): Path<ReviewPath>,
    headers: HeaderMap,
    request: Request,
) -> Response {
    if find_pull(&shared, &p.owner, &p.repo, Some(p.pull_number)).is_none() {
        return not_found();
    }
    if login(&shared, &headers).is_none() {
        return github_error(StatusCode::UNAUTHORIZED, "Requires authentication");
    }
    let call = format!("{} {}", request.method(), request.uri().path());
    let bytes = match axum::body::to_bytes(request.into_body(), usize::MAX).await {
        Ok(bytes) => bytes,
        Err(_) => return github_error(StatusCode::BAD_REQUEST, "Problems parsing JSON"),
    };
    let Ok(body) = serde_json::from_slice::<Value>(&bytes) else {
        return github_error(StatusCode::BAD_REQUEST, "Problems parsing JSON");
    };
    lock(&shared.bodies).push((call, body.clone()));
    let message_ok = body["message"]
        .as_str()
        .is_some_and(|m| !m.trim().is_empty());
    let event_ok = body.get("event").is_none_or(|e| e == "DISMISS");
    if !message_ok || !event_ok {
        return github_error(StatusCode::UNPROCESSABLE_ENTITY, "Invalid request.");
    }
    let id = p.review_id.unwrap_or(0);
    let mut served = lock(&shared.pull);
    let Some(review) = served.reviews.iter_mut().find(|r| r.id == id) else {
        return not_found();
    };
    match review.state.as_str() {
        "APPROVED" | "CHANGES_REQUESTED" => review.state = "DISMISSED".into(),
        "DISMISSED" => return real_422("Can not dismiss a dismissed pull request review"),
        other => {
            let text = format!(
                "Can not dismiss a {} pull request review",
                other.to_ascii_lowercase()
            );
            let body = json!({"message": "Unprocessable Entity", "errors": [text]});
            return (StatusCode::UNPROCESSABLE_ENTITY, axum::Json(body)).into_response();
        }
    }
    let review = review.clone();
    let pull = served.clone();
    drop(served);
    let answer = gh::review(&shared.urls, &pull, &review);
    if let Err(problem) = openapi::github().check("put", REVIEW, 200, &answer) {
        lock(&shared.violations).push(problem);
    }
    axum::Json(answer).into_response()
}
