//! A Gitea-like REST API v1 on 127.0.0.1 serving one pull request from a real git repository,
//! built from Gitea's swagger (`tests/fixtures/gitea/`, checked by `gitea_swagger.rs`):
//!
//! - every request's path, query and JSON body is checked against the description (a call it
//!   does not have, a query it does not take, a body field it does not read is a violation
//!   that fails the test when the server is dropped);
//! - the pull request (`merge_base`, `base.repo.clone_url`), its `.diff`, reviews (paginated
//!   with `page`/`limit`, `Link` and `X-Total-Count`, `limit` capped like Gitea's
//!   `MAX_RESPONSE_ITEMS`), a review's comments, dismissals, pending reviews deleted;
//! - conversation comments (create, edit by their author only);
//! - `POST …/reviews` as Gitea takes it: `event` one of its states, a body or a comment for a
//!   COMMENT, each comment's `new_position`/`old_position` a line of that side of the diff at
//!   `commit_id` (422 otherwise, or for a path the test makes it refuse).
//!
//! Tokens arrive as `Authorization: token …`; reads work without one (a public repository).

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex};

use axum::Router;
use axum::body::{Body, to_bytes};
use axum::extract::{Path, Query, Request, State};
use axum::http::{HeaderValue, StatusCode};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, patch, post};
use serde_json::{Value, json};

use super::faults::{self, Dialect, Fault};
use super::git_repo::GitRepo;
use super::gitea_swagger;
use super::github_server::lock;
use super::serve::{self, Served};

pub(crate) const OWNER: &str = "acme";
pub(crate) const REPO: &str = "widgets";
pub(crate) const INDEX: u64 = 7;

/// What the server saw of one request.
#[derive(Debug, Clone)]
pub(crate) struct Seen {
    pub method: String,
    pub path: String,
    pub query: Option<String>,
    pub authorization: Option<String>,
    pub body: Value,
}

impl Seen {
    pub(crate) fn call(&self) -> String {
        format!("{} {}", self.method, self.path)
    }
}

#[derive(Debug, Clone)]
pub(crate) struct ReviewRec {
    pub id: u64,
    pub user: String,
    pub body: String,
    /// APPROVED, REQUEST_CHANGES, COMMENT, PENDING.
    pub state: String,
    pub commit_id: String,
    pub dismissed: bool,
}

#[derive(Debug, Clone)]
pub(crate) struct InlineRec {
    pub id: u64,
    pub review: u64,
    pub user: String,
    pub body: String,
    pub path: String,
    /// The new-side line, 0 when on the old side.
    pub position: u64,
    /// The old-side line, 0 when on the new side.
    pub original_position: u64,
    pub commit_id: String,
}

#[derive(Debug, Clone)]
pub(crate) struct CommentRec {
    pub id: u64,
    pub user: String,
    pub body: String,
}

/// The pull request and everything said on it.
#[derive(Debug, Clone)]
pub(crate) struct Pull {
    pub title: String,
    pub body: String,
    pub author: String,
    pub head: String,
    pub base: String,
    pub merge_base: String,
    pub reviews: Vec<ReviewRec>,
    pub inline: Vec<InlineRec>,
    pub comments: Vec<CommentRec>,
}

struct Shared {
    url: String,
    repo: GitRepo,
    pull: Mutex<Pull>,
    tokens: Mutex<HashMap<String, String>>,
    refused_paths: Mutex<Vec<String>>,
    max_items: Mutex<usize>,
    scripts: Mutex<HashMap<String, VecDeque<Fault>>>,
    seen: Mutex<Vec<Seen>>,
    violations: Mutex<Vec<String>>,
    next_id: Mutex<u64>,
    stalled: Mutex<Option<String>>,
    released: tokio::sync::watch::Sender<bool>,
    /// Pushes due when a request to a call arrives, before it is handled.
    pushes_before: Mutex<HashMap<String, Push>>,
    /// Other issues and pull requests of the server, for the issue search.
    listed: Mutex<Vec<Listed>>,
    /// Accounts whose review of pull request 7 is requested.
    reviewers: Mutex<Vec<String>>,
}

/// An issue or pull request somewhere on the server, as the issue search finds it.
#[derive(Debug, Clone)]
pub(crate) struct Listed {
    /// `owner/repo`.
    pub repo: String,
    pub number: u64,
    pub title: String,
    pub author: String,
    /// Whose review is requested.
    pub reviewers: Vec<String>,
    /// A pull request, or a plain issue.
    pub pull: bool,
    pub open: bool,
    pub merged: bool,
}

/// A push: commits on the repository and returns the new head.
type Push = Box<dyn FnOnce(&GitRepo) -> String + Send>;

pub(crate) struct GiteaServer {
    url: String,
    shared: Arc<Shared>,
    served: Served,
}

impl GiteaServer {
    /// Serves pull request 7 of `acme/widgets`: `feature` into `main` of `repo`, by `author`.
    pub(crate) fn start(repo: GitRepo, author: &str) -> GiteaServer {
        let head = repo.rev_parse("feature");
        let base = repo.rev_parse("main");
        let merge_base = repo
            .git(&["merge-base", "main", "feature"])
            .trim()
            .to_string();
        repo.git(&["update-ref", &format!("refs/pull/{INDEX}/head"), &head]);
        let (listener, url) = serve::listen();
        let shared = Arc::new(Shared {
            url: url.clone(),
            repo,
            pull: Mutex::new(Pull {
                title: "Checked arithmetic and a parser".into(),
                body: "Makes `add` panic on overflow.".into(),
                author: author.into(),
                head,
                base,
                merge_base,
                reviews: Vec::new(),
                inline: Vec::new(),
                comments: Vec::new(),
            }),
            tokens: Mutex::default(),
            refused_paths: Mutex::default(),
            max_items: Mutex::new(50),
            scripts: Mutex::default(),
            seen: Mutex::default(),
            violations: Mutex::default(),
            next_id: Mutex::new(100),
            stalled: Mutex::default(),
            released: tokio::sync::watch::Sender::new(false),
            pushes_before: Mutex::default(),
            listed: Mutex::default(),
            reviewers: Mutex::default(),
        });
        let app = router(shared.clone());
        let served = Served::start(listener, app);
        GiteaServer {
            url,
            shared,
            served,
        }
    }

    pub(crate) fn url(&self) -> &str {
        &self.url
    }

    /// `127.0.0.1:PORT`, as a pull request URL names the host.
    pub(crate) fn host(&self) -> String {
        self.url.trim_start_matches("http://").to_string()
    }

    pub(crate) fn api(&self) -> String {
        format!("{}/api/v1", self.url)
    }

    /// The pull request's web URL as a person pastes it.
    pub(crate) fn pr_url(&self) -> String {
        format!("{}/{OWNER}/{REPO}/pulls/{INDEX}", self.url)
    }

    pub(crate) fn accept_token(&self, token: &str, login: &str) {
        lock(&self.shared.tokens).insert(token.into(), login.into());
    }

    /// Lists answer at most `n` items a page, whatever `limit` asks (`MAX_RESPONSE_ITEMS`).
    pub(crate) fn max_items(&self, n: usize) {
        *lock(&self.shared.max_items) = n.max(1);
    }

    /// Adds an issue or pull request elsewhere on the server, for the issue search.
    pub(crate) fn list(&self, listed: Listed) {
        lock(&self.shared.listed).push(listed);
    }

    /// Requests `login`'s review of pull request 7.
    pub(crate) fn request_review(&self, login: &str) {
        lock(&self.shared.reviewers).push(login.into());
    }

    pub(crate) fn refuse_positions_on(&self, path: &str) {
        lock(&self.shared.refused_paths).push(path.into());
    }

    /// Requests to `call` are held unanswered and never handled until [`GiteaServer::release`].
    pub(crate) fn stall(&self, call: &str) {
        *lock(&self.shared.stalled) = Some(call.into());
    }

    pub(crate) fn release(&self) {
        *lock(&self.shared.stalled) = None;
        self.shared.released.send_replace(true);
    }

    /// The next requests to `call` (`"POST /api/v1/repos/acme/widgets/pulls/7/reviews"`) get
    /// these faults, one each.
    pub(crate) fn script(&self, call: &str, faults: impl IntoIterator<Item = Fault>) {
        lock(&self.shared.scripts)
            .entry(call.into())
            .or_default()
            .extend(faults);
    }

    /// `METHOD /api/v1/repos/acme/widgets/REST`.
    pub(crate) fn call(method: &str, rest: &str) -> String {
        format!("{method} /api/v1/repos/{OWNER}/{REPO}{rest}")
    }

    pub(crate) fn pull(&self) -> Pull {
        lock(&self.shared.pull).clone()
    }

    pub(crate) fn seen(&self) -> Vec<Seen> {
        lock(&self.shared.seen).clone()
    }

    pub(crate) fn seen_to(&self, call: &str) -> Vec<Seen> {
        self.seen()
            .into_iter()
            .filter(|s| s.call() == call)
            .collect()
    }

    pub(crate) fn violations(&self) -> Vec<String> {
        lock(&self.shared.violations).clone()
    }

    /// A push to the pull request's branch: `change` commits (on `feature`) and returns the new
    /// head; the pull ref and the merge base follow.
    pub(crate) fn push(&self, change: impl FnOnce(&GitRepo) -> String) -> String {
        push_on(&self.shared, change)
    }

    /// A commit on the base branch `main`: the pull request's base tip moves on, its merge
    /// base does not.
    pub(crate) fn advance_base(&self, change: impl FnOnce(&GitRepo) -> String) -> String {
        let repo = &self.shared.repo;
        let tip = change(repo);
        let mut pull = lock(&self.shared.pull);
        pull.base = tip.clone();
        pull.merge_base = repo
            .git(&["merge-base", &tip, &pull.head])
            .trim()
            .to_string();
        tip
    }

    /// When the next request to `call` arrives, `change` is pushed first, then the request is
    /// handled against the moved head.
    pub(crate) fn push_before(
        &self,
        call: &str,
        change: impl FnOnce(&GitRepo) -> String + Send + 'static,
    ) {
        lock(&self.shared.pushes_before).insert(call.into(), Box::new(change));
    }
}

fn push_on(shared: &Shared, change: impl FnOnce(&GitRepo) -> String) -> String {
    let repo = &shared.repo;
    let head = change(repo);
    repo.git(&["update-ref", &format!("refs/pull/{INDEX}/head"), &head]);
    let merge_base = repo.git(&["merge-base", "main", &head]).trim().to_string();
    let mut pull = lock(&shared.pull);
    pull.head = head.clone();
    pull.merge_base = merge_base;
    head
}

impl Drop for GiteaServer {
    fn drop(&mut self) {
        self.release();
        self.served.stop();
        let violations = self.violations();
        if !violations.is_empty() && !std::thread::panicking() {
            panic!(
                "requests to the fake Gitea broke Gitea's described API:\n{}",
                violations.join("\n")
            );
        }
    }
}

fn error(status: StatusCode, message: &str) -> Response {
    (
        status,
        axum::Json(json!({ "message": message, "url": "https://gitea.example/api/swagger" })),
    )
        .into_response()
}

fn next_id(shared: &Shared) -> u64 {
    let mut id = lock(&shared.next_id);
    *id += 1;
    *id
}

const NOW: &str = "2026-01-01T00:00:00Z";

fn user_json(login: &str) -> Value {
    json!({ "id": 1, "login": login, "full_name": login, "email": format!("{login}@example.com"),
            "avatar_url": "", "username": login })
}

fn web(shared: &Shared) -> String {
    format!("{}/{OWNER}/{REPO}/pulls/{INDEX}", shared.url)
}

fn review_json(shared: &Shared, pull: &Pull, review: &ReviewRec) -> Value {
    let count = pull.inline.iter().filter(|c| c.review == review.id).count();
    json!({
        "id": review.id, "user": user_json(&review.user), "team": null, "state": review.state,
        "body": review.body, "commit_id": review.commit_id, "stale": review.commit_id != pull.head,
        "official": false, "dismissed": review.dismissed, "comments_count": count,
        "submitted_at": NOW, "html_url": format!("{}#issuecomment-{}", web(shared), review.id + 10_000),
        "pull_request_url": web(shared),
    })
}

fn inline_json(shared: &Shared, c: &InlineRec) -> Value {
    json!({
        "id": c.id, "body": c.body, "user": user_json(&c.user), "resolver": null,
        "pull_request_review_id": c.review, "created_at": NOW, "updated_at": NOW, "path": c.path,
        "commit_id": c.commit_id, "original_commit_id": c.commit_id, "diff_hunk": "",
        "position": c.position, "original_position": c.original_position,
        "html_url": format!("{}/files#issuecomment-{}", web(shared), c.id),
        "pull_request_url": web(shared),
    })
}

fn comment_json(shared: &Shared, c: &CommentRec) -> Value {
    json!({
        "id": c.id, "body": c.body, "user": user_json(&c.user), "created_at": NOW,
        "updated_at": NOW, "original_author": "", "original_author_id": 0,
        "html_url": format!("{}#issuecomment-{}", web(shared), c.id),
        "pull_request_url": web(shared), "issue_url": "",
    })
}

/// Who the request's token authenticates as: `Ok(None)` without a token, `Err` for a bad one.
fn who(shared: &Shared, seen: &Seen) -> Result<Option<String>, Box<Response>> {
    match seen.authorization.as_deref() {
        None => Ok(None),
        Some(value) => value
            .strip_prefix("token ")
            .and_then(|token| lock(&shared.tokens).get(token).cloned())
            .map(Some)
            .ok_or_else(|| Box::new(error(StatusCode::UNAUTHORIZED, "user does not exist"))),
    }
}

fn required(shared: &Shared, seen: &Seen) -> Result<String, Box<Response>> {
    who(shared, seen)?.ok_or_else(|| Box::new(error(StatusCode::UNAUTHORIZED, "token is required")))
}

/// A request turned away before its handler did anything: the answer already made.
struct Refused(Box<Response>);

impl From<Box<Response>> for Refused {
    fn from(response: Box<Response>) -> Self {
        Refused(response)
    }
}

impl IntoResponse for Refused {
    fn into_response(self) -> Response {
        *self.0
    }
}

/// What a handler answers, with `?` for the requests it turns away.
type Handled = Result<Response, Refused>;

/// Who calls about pull request `index` (`None` without a token): a bad token or another
/// pull request is turned away.
fn caller(shared: &Shared, seen: &Seen, index: &str) -> Result<Option<String>, Refused> {
    let viewer = who(shared, seen)?;
    check_index(index)?;
    Ok(viewer)
}

/// Who writes to pull request `index`: a token is required.
fn author(shared: &Shared, seen: &Seen, index: &str) -> Result<String, Refused> {
    let login = required(shared, seen)?;
    check_index(index)?;
    Ok(login)
}

/// Gitea's 404 for a `what` (`review`, `comment`) that is not there.
fn not_found(what: &str) -> Refused {
    Refused(Box::new(error(
        StatusCode::NOT_FOUND,
        &format!("{what} does not exist"),
    )))
}

fn review_of(pull: &Pull, id: u64) -> Result<&ReviewRec, Refused> {
    pull.reviews
        .iter()
        .find(|r| r.id == id)
        .ok_or_else(|| not_found("review"))
}

/// Removes `login`'s own `what` `id` from `items` (`key` gives an item's id and author); one
/// that is not there, or someone else's, is not found.
fn remove_own<T>(
    items: &mut Vec<T>,
    what: &str,
    key: impl Fn(&T) -> (u64, &str),
    id: u64,
    login: &str,
) -> Result<(), Refused> {
    let before = items.len();
    items.retain(|item| key(item) != (id, login));
    if items.len() == before {
        return Err(not_found(what));
    }
    Ok(())
}

fn violation(shared: &Shared, seen: &Seen, what: &str) {
    lock(&shared.violations).push(format!("{}: {what} ({})", seen.call(), seen.body));
}

fn router(shared: Arc<Shared>) -> Router {
    let repo = "/api/v1/repos/{owner}/{repo}";
    let pull = format!("{repo}/pulls/{{index}}");
    Router::new()
        .route("/api/v1/user", get(get_user))
        .route("/api/v1/repos/issues/search", get(search_issues))
        .route(&pull, get(get_pull))
        .route(
            &format!("{pull}/reviews"),
            get(get_reviews).post(create_review),
        )
        .route(
            &format!("{pull}/reviews/{{id}}"),
            get(get_review).delete(delete_review),
        )
        .route(
            &format!("{pull}/reviews/{{id}}/comments"),
            get(get_review_comments),
        )
        .route(&format!("{pull}/reviews/{{id}}/dismissals"), post(dismiss))
        .route(
            &format!("{repo}/issues/{{index}}/comments"),
            get(get_comments).post(create_comment),
        )
        .route(
            &format!("{repo}/issues/comments/{{id}}"),
            patch(edit_comment).delete(delete_comment),
        )
        .route(
            &format!("{repo}/commits/{{ref}}/status"),
            get(|| async { axum::Json(json!({"state": "", "statuses": [], "total_count": 0})) }),
        )
        .fallback(|| async { error(StatusCode::NOT_FOUND, "not found") })
        .layer(middleware::from_fn_with_state(shared.clone(), front_door))
        .with_state(shared)
}

/// Records the request, checks it against the swagger, and answers a scripted fault when one
/// is due.
async fn front_door(State(shared): State<Arc<Shared>>, request: Request, next: Next) -> Response {
    let (parts, body) = request.into_parts();
    let bytes = to_bytes(body, 1 << 24).await.unwrap_or_default();
    let body: Option<Value> = (!bytes.is_empty()).then(|| {
        serde_json::from_slice(&bytes).unwrap_or_else(|_| Value::String("(not JSON)".into()))
    });
    let seen = Seen {
        method: parts.method.as_str().to_string(),
        path: parts.uri.path().to_string(),
        query: parts.uri.query().map(str::to_string),
        authorization: parts
            .headers
            .get("authorization")
            .and_then(|v| v.to_str().ok())
            .map(str::to_string),
        body: body.clone().unwrap_or(Value::Null),
    };
    lock(&shared.seen).push(seen.clone());
    for problem in gitea_swagger::gitea().violations(
        &seen.method,
        &seen.path,
        seen.query.as_deref(),
        body.as_ref(),
    ) {
        violation(&shared, &seen, &problem);
    }
    if seen.path.starts_with("/api/v1/repos/")
        && seen.path != "/api/v1/repos/issues/search"
        && !seen
            .path
            .starts_with(&format!("/api/v1/repos/{OWNER}/{REPO}/"))
    {
        return error(StatusCode::NOT_FOUND, "repository does not exist");
    }
    let due = lock(&shared.pushes_before).remove(&seen.call());
    if let Some(change) = due {
        push_on(&shared, change);
    }
    let stalled = lock(&shared.stalled).as_deref() == Some(seen.call().as_str());
    if stalled {
        let mut released = shared.released.subscribe();
        let _ = released.wait_for(|r| *r).await;
        return error(StatusCode::SERVICE_UNAVAILABLE, "Service Unavailable");
    }
    let fault = lock(&shared.scripts)
        .get_mut(&seen.call())
        .and_then(VecDeque::pop_front);
    let mut request = Request::from_parts(parts, Body::from(bytes));
    request.extensions_mut().insert(seen);
    match fault {
        Some(fault) => faults::respond(&fault, Dialect::Message, next.run(request)).await,
        None => next.run(request).await,
    }
}

fn seen_of(request: &Request) -> Seen {
    request
        .extensions()
        .get::<Seen>()
        .cloned()
        .expect("recorded")
}

async fn get_user(State(shared): State<Arc<Shared>>, request: Request) -> Response {
    match required(&shared, &seen_of(&request)) {
        Ok(login) => axum::Json(user_json(&login)).into_response(),
        Err(response) => *response,
    }
}

fn check_index(index: &str) -> Result<(), Box<Response>> {
    if index == INDEX.to_string() {
        Ok(())
    } else {
        Err(Box::new(error(
            StatusCode::NOT_FOUND,
            "pull request does not exist",
        )))
    }
}

/// `…/pulls/7`, and `…/pulls/7.diff` (the same route: axum sees one segment).
async fn get_pull(
    State(shared): State<Arc<Shared>>,
    Path((_, _, index)): Path<(String, String, String)>,
    request: Request,
) -> Response {
    if let Err(response) = who(&shared, &seen_of(&request)) {
        return *response;
    }
    if let Some(number) = index.strip_suffix(".diff") {
        if let Err(response) = check_index(number) {
            return *response;
        }
        let pull = lock(&shared.pull).clone();
        let diff = shared.repo.git(&[
            "diff",
            "--no-color",
            "-M",
            &format!("{}...{}", pull.base, pull.head),
        ]);
        return ([("content-type", "text/plain; charset=utf-8")], diff).into_response();
    }
    if let Err(response) = check_index(&index) {
        return *response;
    }
    let pull = lock(&shared.pull).clone();
    let clone_url = format!("file://{}", shared.repo.path().display());
    let repo = json!({ "id": 3, "name": REPO, "full_name": format!("{OWNER}/{REPO}"),
                       "clone_url": clone_url, "html_url": format!("{}/{OWNER}/{REPO}", shared.url) });
    axum::Json(json!({
        "id": 55, "number": INDEX, "title": pull.title, "body": pull.body,
        "user": user_json(&pull.author), "state": "open", "merged": false, "is_locked": false,
        "base": { "label": "main", "ref": "main", "sha": pull.base, "repo_id": 3, "repo": repo },
        "head": { "label": "feature", "ref": "feature", "sha": pull.head, "repo_id": 3, "repo": repo },
        "merge_base": pull.merge_base, "html_url": web(&shared),
        "diff_url": format!("{}.diff", web(&shared)), "mergeable": true, "comments": pull.comments.len(),
    }))
    .into_response()
}

/// A list call's query: `page`, `limit` and its filters, as sent.
#[derive(serde::Deserialize)]
#[serde(transparent)]
struct Page {
    rest: std::collections::BTreeMap<String, String>,
}

impl Page {
    fn number(&self, name: &str) -> Option<usize> {
        self.rest.get(name).and_then(|v| v.parse().ok())
    }
}

/// One page of `items`, with Gitea's `Link` (next, last) and `X-Total-Count`.
fn paginate(shared: &Shared, path: &str, items: Vec<Value>, page: &Page) -> Response {
    let max = *lock(&shared.max_items);
    let limit = page.number("limit").unwrap_or(max).clamp(1, max);
    let number = page.number("page").unwrap_or(1).max(1);
    let start = (number - 1) * limit;
    let slice: Vec<Value> = items.iter().skip(start).take(limit).cloned().collect();
    let mut response = axum::Json(Value::Array(slice)).into_response();
    let headers = response.headers_mut();
    headers.insert("x-total-count", HeaderValue::from(items.len()));
    let last = items.len().div_ceil(limit).max(1);
    // Gitea's links keep the request's own filters and move only the page.
    let filters: String = page
        .rest
        .iter()
        .filter(|(k, _)| k.as_str() != "page" && k.as_str() != "limit")
        .map(|(k, v)| format!("{k}={v}&"))
        .collect();
    let link = |n: usize, rel: &str| {
        format!(
            "<{}{path}?{filters}limit={limit}&page={n}>; rel=\"{rel}\"",
            shared.url
        )
    };
    let mut links = Vec::new();
    if number < last {
        links.push(link(number + 1, "next"));
        links.push(link(last, "last"));
    }
    if !links.is_empty() {
        headers.insert("link", HeaderValue::from_str(&links.join(",")).unwrap());
    }
    response
}

/// `GET /repos/issues/search`: the issues and pull requests the token's account can see,
/// filtered as Gitea does (`type`, `state`, `review_requested`, `created`); pull request 7 is
/// one of them.
async fn search_issues(
    State(shared): State<Arc<Shared>>,
    Query(page): Query<Page>,
    request: Request,
) -> Response {
    let seen = seen_of(&request);
    let me = match required(&shared, &seen) {
        Ok(login) => login,
        Err(response) => return *response,
    };
    let flag = |name: &str| page.rest.get(name).map(String::as_str) == Some("true");
    let pull = lock(&shared.pull).clone();
    let mut all = vec![Listed {
        repo: format!("{OWNER}/{REPO}"),
        number: INDEX,
        title: pull.title.clone(),
        author: pull.author.clone(),
        reviewers: lock(&shared.reviewers).clone(),
        pull: true,
        open: true,
        merged: false,
    }];
    all.extend(lock(&shared.listed).iter().cloned());
    let wanted_state = page.rest.get("state").map(String::as_str).unwrap_or("open");
    let items: Vec<Value> = all
        .into_iter()
        .filter(|l| match page.rest.get("type").map(String::as_str) {
            Some("pulls") => l.pull,
            Some("issues") => !l.pull,
            _ => true,
        })
        .filter(|l| match wanted_state {
            "closed" => !l.open,
            "all" => true,
            _ => l.open,
        })
        .filter(|l| !flag("review_requested") || l.reviewers.contains(&me))
        .filter(|l| !flag("created") || l.author == me)
        .map(|l| {
            let (owner, name) = l.repo.split_once('/').unwrap_or(("", &l.repo));
            let kind = if l.pull { "pulls" } else { "issues" };
            json!({
                "id": 1000 + l.number, "number": l.number, "title": l.title, "body": "",
                "user": user_json(&l.author), "state": if l.open { "open" } else { "closed" },
                "html_url": format!("{}/{}/{kind}/{}", shared.url, l.repo, l.number),
                "url": format!("{}/api/v1/repos/{}/issues/{}", shared.url, l.repo, l.number),
                "created_at": "2026-03-01T10:00:00Z", "updated_at": "2026-03-02T10:00:00Z",
                "comments": 0, "is_locked": false, "labels": [], "assignees": null,
                "repository": { "id": 3, "name": name, "owner": owner, "full_name": l.repo },
                "pull_request": if l.pull {
                    json!({ "merged": l.merged, "merged_at": null })
                } else {
                    Value::Null
                },
            })
        })
        .collect();
    paginate(&shared, &seen.path, items, &page)
}

async fn get_reviews(
    State(shared): State<Arc<Shared>>,
    Path((_, _, index)): Path<(String, String, String)>,
    Query(page): Query<Page>,
    request: Request,
) -> Handled {
    let seen = seen_of(&request);
    let viewer = caller(&shared, &seen, &index)?;
    let pull = lock(&shared.pull).clone();
    let items = pull
        .reviews
        .iter()
        // A pending review is shown to its author only.
        .filter(|r| r.state != "PENDING" || viewer.as_deref() == Some(r.user.as_str()))
        .map(|r| review_json(&shared, &pull, r))
        .collect();
    Ok(paginate(&shared, &seen.path, items, &page))
}

async fn get_review(
    State(shared): State<Arc<Shared>>,
    Path((_, _, _, id)): Path<(String, String, String, u64)>,
    request: Request,
) -> Handled {
    who(&shared, &seen_of(&request))?;
    let pull = lock(&shared.pull).clone();
    let review = review_of(&pull, id)?;
    Ok(axum::Json(review_json(&shared, &pull, review)).into_response())
}

async fn delete_review(
    State(shared): State<Arc<Shared>>,
    Path((_, _, _, id)): Path<(String, String, String, u64)>,
    request: Request,
) -> Handled {
    let login = required(&shared, &seen_of(&request))?;
    let mut pull = lock(&shared.pull);
    remove_own(
        &mut pull.reviews,
        "review",
        |r| (r.id, r.user.as_str()),
        id,
        &login,
    )?;
    pull.inline.retain(|c| c.review != id);
    Ok(StatusCode::NO_CONTENT.into_response())
}

async fn get_review_comments(
    State(shared): State<Arc<Shared>>,
    Path((_, _, _, id)): Path<(String, String, String, u64)>,
    request: Request,
) -> Handled {
    who(&shared, &seen_of(&request))?;
    let pull = lock(&shared.pull).clone();
    review_of(&pull, id)?;
    let items: Vec<Value> = pull
        .inline
        .iter()
        .filter(|c| c.review == id)
        .map(|c| inline_json(&shared, c))
        .collect();
    Ok(axum::Json(Value::Array(items)).into_response())
}

/// The lines of `path` a comment may name in `base...commit`: (new lines, old lines).
fn diff_lines(
    shared: &Shared,
    base: &str,
    commit: &str,
    path: &str,
) -> Option<(Vec<u64>, Vec<u64>)> {
    let diff = shared.repo.git(&[
        "diff",
        "--no-color",
        "-M",
        &format!("{base}...{commit}"),
        "--",
        path,
    ]);
    if diff.trim().is_empty() {
        return None;
    }
    let (mut new_lines, mut old_lines) = (Vec::new(), Vec::new());
    let (mut old, mut new) = (0u64, 0u64);
    let mut in_hunks = false;
    for line in diff.lines() {
        if let Some(rest) = line.strip_prefix("@@ -") {
            in_hunks = true;
            let mut parts = rest.split(' ');
            let o = parts.next().unwrap_or("0");
            let n = parts.next().unwrap_or("+0").trim_start_matches('+');
            old = o.split(',').next().unwrap().parse().unwrap_or(0);
            new = n.split(',').next().unwrap().parse().unwrap_or(0);
        } else if !in_hunks {
            continue;
        } else if line.starts_with('+') {
            new_lines.push(new);
            new += 1;
        } else if line.starts_with('-') {
            old_lines.push(old);
            old += 1;
        } else {
            new_lines.push(new);
            old_lines.push(old);
            new += 1;
            old += 1;
        }
    }
    Some((new_lines, old_lines))
}

const EVENTS: [&str; 4] = ["APPROVED", "REQUEST_CHANGES", "COMMENT", "PENDING"];

async fn create_review(
    State(shared): State<Arc<Shared>>,
    Path((_, _, index)): Path<(String, String, String)>,
    request: Request,
) -> Response {
    let seen = seen_of(&request);
    let login = match author(&shared, &seen, &index) {
        Ok(login) => login,
        Err(refused) => return refused.into_response(),
    };
    let body = &seen.body;
    let event = body["event"].as_str().unwrap_or("");
    if !EVENTS.contains(&event) {
        violation(
            &shared,
            &seen,
            &format!("`event` {event:?} is not a review state"),
        );
        return error(StatusCode::UNPROCESSABLE_ENTITY, "unknown review event");
    }
    let pull = lock(&shared.pull).clone();
    let commit = body["commit_id"]
        .as_str()
        .filter(|c| !c.is_empty())
        .unwrap_or(&pull.head)
        .to_string();
    let text = body["body"].as_str().unwrap_or("").to_string();
    let comments = body["comments"].as_array().cloned().unwrap_or_default();
    if event != "APPROVED" && text.trim().is_empty() && comments.is_empty() {
        return error(
            StatusCode::UNPROCESSABLE_ENTITY,
            &format!("review event {event} requires a body or a comment"),
        );
    }
    if event != "COMMENT" && event != "PENDING" && pull.author == login {
        return error(
            StatusCode::UNPROCESSABLE_ENTITY,
            "approve your own pull is not allowed",
        );
    }
    let refused = lock(&shared.refused_paths).clone();
    for comment in &comments {
        let path = comment["path"].as_str().unwrap_or("");
        let (new, old) = (
            comment["new_position"].as_u64(),
            comment["old_position"].as_u64(),
        );
        let lines = diff_lines(&shared, &pull.base, &commit, path);
        let placed = match (lines, new.filter(|n| *n > 0), old.filter(|o| *o > 0)) {
            (Some((lines, _)), Some(line), None) => lines.contains(&line),
            (Some((_, lines)), None, Some(line)) => lines.contains(&line),
            _ => false,
        };
        if !placed || refused.iter().any(|p| p == path) {
            return error(
                StatusCode::UNPROCESSABLE_ENTITY,
                &format!("position: the line is not part of the diff of {path}"),
            );
        }
    }
    let id = next_id(&shared);
    let review = ReviewRec {
        id,
        user: login.clone(),
        body: text,
        state: event.to_string(),
        commit_id: commit.clone(),
        dismissed: false,
    };
    let mut pull = lock(&shared.pull);
    for comment in comments {
        let inline = InlineRec {
            id: next_id(&shared),
            review: id,
            user: login.clone(),
            body: comment["body"].as_str().unwrap_or("").to_string(),
            path: comment["path"].as_str().unwrap_or("").to_string(),
            position: comment["new_position"].as_u64().unwrap_or(0),
            original_position: comment["old_position"].as_u64().unwrap_or(0),
            commit_id: commit.clone(),
        };
        pull.inline.push(inline);
    }
    pull.reviews.push(review.clone());
    let snapshot = pull.clone();
    drop(pull);
    axum::Json(review_json(&shared, &snapshot, &review)).into_response()
}

async fn dismiss(
    State(shared): State<Arc<Shared>>,
    Path((_, _, _, id)): Path<(String, String, String, u64)>,
    request: Request,
) -> Handled {
    let seen = seen_of(&request);
    required(&shared, &seen)?;
    if seen.body["message"].as_str().is_none_or(str::is_empty) {
        violation(&shared, &seen, "a dismissal carries its message");
    }
    let mut pull = lock(&shared.pull);
    let Some(review) = pull.reviews.iter_mut().find(|r| r.id == id) else {
        return Err(not_found("review"));
    };
    if review.state != "APPROVED" && review.state != "REQUEST_CHANGES" {
        return Ok(error(
            StatusCode::UNPROCESSABLE_ENTITY,
            "not a approve or request changes review",
        ));
    }
    review.dismissed = true;
    let review = review.clone();
    let snapshot = pull.clone();
    drop(pull);
    Ok(axum::Json(review_json(&shared, &snapshot, &review)).into_response())
}

async fn get_comments(
    State(shared): State<Arc<Shared>>,
    Path((_, _, index)): Path<(String, String, String)>,
    request: Request,
) -> Handled {
    caller(&shared, &seen_of(&request), &index)?;
    let items: Vec<Value> = lock(&shared.pull)
        .comments
        .iter()
        .map(|c| comment_json(&shared, c))
        .collect();
    Ok(axum::Json(Value::Array(items)).into_response())
}

async fn create_comment(
    State(shared): State<Arc<Shared>>,
    Path((_, _, index)): Path<(String, String, String)>,
    request: Request,
) -> Handled {
    let seen = seen_of(&request);
    let login = author(&shared, &seen, &index)?;
    let comment = CommentRec {
        id: next_id(&shared),
        user: login,
        body: seen.body["body"].as_str().unwrap_or("").to_string(),
    };
    lock(&shared.pull).comments.push(comment.clone());
    Ok((
        StatusCode::CREATED,
        axum::Json(comment_json(&shared, &comment)),
    )
        .into_response())
}

async fn edit_comment(
    State(shared): State<Arc<Shared>>,
    Path((_, _, id)): Path<(String, String, u64)>,
    request: Request,
) -> Handled {
    let seen = seen_of(&request);
    let login = required(&shared, &seen)?;
    let mut pull = lock(&shared.pull);
    let Some(comment) = pull.comments.iter_mut().find(|c| c.id == id) else {
        return Err(not_found("comment"));
    };
    if comment.user != login {
        return Ok(error(StatusCode::FORBIDDEN, "user is not the poster"));
    }
    comment.body = seen.body["body"].as_str().unwrap_or("").to_string();
    let comment = comment.clone();
    drop(pull);
    Ok(axum::Json(comment_json(&shared, &comment)).into_response())
}

async fn delete_comment(
    State(shared): State<Arc<Shared>>,
    Path((_, _, id)): Path<(String, String, u64)>,
    request: Request,
) -> Handled {
    let login = required(&shared, &seen_of(&request))?;
    let mut pull = lock(&shared.pull);
    remove_own(
        &mut pull.comments,
        "comment",
        |c| (c.id, c.user.as_str()),
        id,
        &login,
    )?;
    Ok(StatusCode::NO_CONTENT.into_response())
}
