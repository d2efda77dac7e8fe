//! A GitLab-like REST API v4 on 127.0.0.1 serving one merge request from a real git repository,
//! built from GitLab's own API documentation (`merge_requests.md`, `draft_notes.md`,
//! `discussions.md`, `notes.md`, `merge_request_approvals.md`, GitLab 17.8):
//!
//! - the merge request, its project (`http_url_to_repo`), its `diffs` (paginated with
//!   `X-Next-Page`), its `versions` (newest first, one per push);
//! - `discussions` (individual notes and diff threads), `notes` (create, edit), thread replies
//!   and `PUT …/discussions/:id?resolved=true`;
//! - draft notes, visible to their author only, validated as the docs require (`note`; a
//!   `position` with `position_type`, the three SHAs of the latest version, `old_path`,
//!   `new_path`, a line of the diff), then `bulk_publish` of the author's drafts;
//! - approvals: `approve` with `sha` (409 when it is not the head, 401 when the account may
//!   not approve), `unapprove` (404 when there is no approval), `approvals`.
//!
//! Requests that break the documented contract are recorded as violations and fail the test
//! when the server is dropped.

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex};

use axum::Router;
use axum::body::{Body, to_bytes};
use axum::extract::{Path, Query, Request, State};
use axum::http::{HeaderValue, StatusCode};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{delete, get, post, put};
use serde_json::{Value, json};

use super::faults::{self, Dialect, Fault};
use super::git_repo::GitRepo;
use super::github_server::lock;
use super::serve::{self, Served};

pub(crate) const PROJECT: &str = "acme/tools/widgets";
pub(crate) const IID: u64 = 7;
const PER_PAGE_DEFAULT: usize = 20;

/// What the server saw of one request.
#[derive(Debug, Clone)]
pub(crate) struct Seen {
    pub method: String,
    /// Percent-decoded path (`/api/v4/projects/acme/tools/widgets/…` reads as the project's
    /// URL-encoded id decoded).
    pub path: String,
    pub query: Option<String>,
    pub private_token: Option<String>,
    pub authorization: Option<String>,
    pub body: Value,
}

impl Seen {
    /// `"POST …/draft_notes/bulk_publish"`: the method and the path after the merge request.
    pub(crate) fn call(&self) -> String {
        format!("{} {}", self.method, self.path)
    }
}

#[derive(Debug, Clone)]
pub(crate) struct NoteRec {
    pub id: u64,
    pub author: String,
    pub body: String,
    pub position: Option<Value>,
    pub discussion: String,
    pub created_at: String,
}

#[derive(Debug, Clone)]
pub(crate) struct DiscussionRec {
    pub id: String,
    pub individual_note: bool,
    pub notes: Vec<u64>,
    pub resolved: bool,
}

#[derive(Debug, Clone)]
pub(crate) struct DraftRec {
    pub id: u64,
    pub author: String,
    pub note: String,
    pub position: Option<Value>,
}

#[derive(Debug, Clone)]
pub(crate) struct Version {
    pub head: String,
    pub base: String,
    pub start: String,
}

/// The merge request and everything said on it. Fields are public: tests adjust what they need.
#[derive(Debug, Clone)]
pub(crate) struct MergeRequest {
    pub title: String,
    pub description: String,
    pub author: String,
    pub draft: bool,
    pub state: String,
    pub head: String,
    pub versions: Vec<Version>,
    pub notes: Vec<NoteRec>,
    pub discussions: Vec<DiscussionRec>,
    pub drafts: Vec<DraftRec>,
    pub approved_by: Vec<String>,
}

struct Shared {
    /// `http://127.0.0.1:PORT`.
    url: String,
    repo: GitRepo,
    mr: Mutex<MergeRequest>,
    /// The latest version's per-file diffs, as `…/diffs` lists them.
    files: Mutex<Vec<Value>>,
    tokens: Mutex<HashMap<String, String>>,
    /// Accounts GitLab refuses `approve` to (401), as for a role without the right.
    may_not_approve: Mutex<Vec<String>>,
    /// Paths whose positions GitLab refuses (its view of a diff can differ from ours).
    refused_paths: Mutex<Vec<String>>,
    scripts: Mutex<HashMap<String, VecDeque<Fault>>>,
    seen: Mutex<Vec<Seen>>,
    violations: Mutex<Vec<String>>,
    next_id: Mutex<u64>,
    /// A call held unanswered and never handled, until released (then 503): the moment a
    /// process is killed in the middle of publishing.
    stalled: Mutex<Option<String>>,
    released: tokio::sync::watch::Sender<bool>,
    /// Pushes due when a request to a call arrives, before it is handled: the head moving
    /// between two of the client's requests.
    pushes_before: Mutex<HashMap<String, Push>>,
    /// Other merge requests on the server, for `GET /merge_requests`.
    listed: Mutex<Vec<ListedMr>>,
    /// Accounts asked to review `!7`.
    reviewers: Mutex<Vec<String>>,
}

/// A merge request elsewhere on the server, as `GET /merge_requests` lists it.
#[derive(Debug, Clone)]
pub(crate) struct ListedMr {
    /// `group/sub/project`.
    pub project: String,
    pub iid: u64,
    pub title: String,
    pub author: String,
    pub reviewers: Vec<String>,
    /// `opened`, `closed`, `merged`.
    pub state: String,
    pub head: String,
}

/// A push: commits on the repository and returns the new head.
type Push = Box<dyn FnOnce(&GitRepo) -> String + Send>;

pub(crate) struct GitlabServer {
    url: String,
    shared: Arc<Shared>,
    served: Served,
}

impl GitlabServer {
    /// Serves merge request `!7` of `acme/tools/widgets`: `feature` into `main` of `repo`, by
    /// `author`. `refs/merge-requests/7/head` is set on the repository.
    pub(crate) fn start(repo: GitRepo, author: &str) -> GitlabServer {
        let head = repo.rev_parse("feature");
        let start = repo.rev_parse("main");
        let base = repo
            .git(&["merge-base", "main", "feature"])
            .trim()
            .to_string();
        repo.git(&[
            "update-ref",
            &format!("refs/merge-requests/{IID}/head"),
            &head,
        ]);
        let (listener, url) = serve::listen();
        let files = file_diffs(&repo, &base, &head);
        let shared = Arc::new(Shared {
            url: url.clone(),
            repo,
            mr: Mutex::new(MergeRequest {
                title: "Checked arithmetic and a parser".into(),
                description: "Makes `add` panic on overflow.".into(),
                author: author.into(),
                draft: false,
                state: "opened".into(),
                head: head.clone(),
                versions: vec![Version { head, base, start }],
                notes: Vec::new(),
                discussions: Vec::new(),
                drafts: Vec::new(),
                approved_by: Vec::new(),
            }),
            files: Mutex::new(files),
            tokens: Mutex::default(),
            may_not_approve: Mutex::default(),
            refused_paths: Mutex::default(),
            scripts: Mutex::default(),
            seen: Mutex::default(),
            violations: Mutex::default(),
            next_id: Mutex::new(1000),
            stalled: Mutex::default(),
            released: tokio::sync::watch::Sender::new(false),
            pushes_before: Mutex::default(),
            listed: Mutex::default(),
            reviewers: Mutex::default(),
        });
        let app = router(shared.clone());
        let served = Served::start(listener, app);
        GitlabServer {
            url,
            shared,
            served,
        }
    }

    /// `http://127.0.0.1:PORT`, the host's address.
    pub(crate) fn url(&self) -> &str {
        &self.url
    }

    /// `127.0.0.1:PORT`, as a merge request URL names the host.
    pub(crate) fn host(&self) -> String {
        self.url.trim_start_matches("http://").to_string()
    }

    /// The API base, `http://127.0.0.1:PORT/api/v4`.
    pub(crate) fn api(&self) -> String {
        format!("{}/api/v4", self.url)
    }

    /// The merge request's web URL as a person pastes it.
    pub(crate) fn mr_url(&self) -> String {
        format!("{}/{PROJECT}/-/merge_requests/{IID}", self.url)
    }

    /// Adds a merge request elsewhere on the server, for `GET /merge_requests`.
    pub(crate) fn list(&self, listed: ListedMr) {
        lock(&self.shared.listed).push(listed);
    }

    /// Asks `username` to review `!7`.
    pub(crate) fn request_review(&self, username: &str) {
        lock(&self.shared.reviewers).push(username.into());
    }

    pub(crate) fn accept_token(&self, token: &str, username: &str) {
        lock(&self.shared.tokens).insert(token.into(), username.into());
    }

    /// Requests to `call` are held unanswered and never handled until [`GitlabServer::release`].
    pub(crate) fn stall(&self, call: &str) {
        *lock(&self.shared.stalled) = Some(call.into());
    }

    /// Answers the stalled requests with 503, unhandled, and stalls no more.
    pub(crate) fn release(&self) {
        *lock(&self.shared.stalled) = None;
        self.shared.released.send_replace(true);
    }

    pub(crate) fn refuse_approval_to(&self, username: &str) {
        lock(&self.shared.may_not_approve).push(username.into());
    }

    pub(crate) fn refuse_positions_on(&self, path: &str) {
        lock(&self.shared.refused_paths).push(path.into());
    }

    /// The next requests to `call` (`"POST /api/v4/projects/…/draft_notes/bulk_publish"`, the
    /// path decoded, no query) get these faults, one each.
    pub(crate) fn script(&self, call: &str, faults: impl IntoIterator<Item = Fault>) {
        lock(&self.shared.scripts)
            .entry(call.into())
            .or_default()
            .extend(faults);
    }

    /// `METHOD /api/v4/projects/acme/tools/widgets/merge_requests/7REST`.
    pub(crate) fn call(method: &str, rest: &str) -> String {
        format!("{method} /api/v4/projects/{PROJECT}/merge_requests/{IID}{rest}")
    }

    pub(crate) fn mr(&self) -> MergeRequest {
        lock(&self.shared.mr).clone()
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

    /// General notes (not in a diff thread), oldest first.
    pub(crate) fn general_notes(&self) -> Vec<NoteRec> {
        self.mr()
            .notes
            .into_iter()
            .filter(|n| n.position.is_none())
            .collect()
    }

    /// Notes in diff threads, oldest first.
    pub(crate) fn diff_notes(&self) -> Vec<NoteRec> {
        let mr = self.mr();
        mr.notes
            .iter()
            .filter(|n| {
                mr.discussions
                    .iter()
                    .any(|d| d.id == n.discussion && !d.individual_note)
            })
            .cloned()
            .collect()
    }

    pub(crate) fn violations(&self) -> Vec<String> {
        lock(&self.shared.violations).clone()
    }

    /// A colleague's diff thread on `path:line` of the new side, on the current head (GitLab's
    /// position fields), open unless `resolved`.
    pub(crate) fn add_diff_thread(
        &self,
        author: &str,
        path: &str,
        line: u32,
        body: &str,
        resolved: bool,
    ) {
        let id = next_id(&self.shared);
        let discussion = discussion_id(&self.shared);
        let mut mr = lock(&self.shared.mr);
        let version = mr.versions.last().cloned().expect("a diff version");
        let position = json!({
            "base_sha": version.base, "start_sha": version.start, "head_sha": mr.head,
            "position_type": "text", "old_path": path, "new_path": path,
            "old_line": null, "new_line": line,
        });
        mr.discussions.push(DiscussionRec {
            id: discussion.clone(),
            individual_note: false,
            notes: vec![id],
            resolved,
        });
        mr.notes.push(NoteRec {
            id,
            author: author.into(),
            body: body.into(),
            position: Some(position),
            discussion,
            created_at: now(),
        });
    }

    /// A push to the merge request's branch: `change` commits (on `feature`) and returns the
    /// new head; the merge request ref, the diffs and a new version follow.
    pub(crate) fn push(&self, change: impl FnOnce(&GitRepo) -> String) -> String {
        push_on(&self.shared, change)
    }

    /// When the next request to `call` arrives, `change` is pushed first (as
    /// [`GitlabServer::push`] does), then the request is handled against the moved head.
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
    repo.git(&[
        "update-ref",
        &format!("refs/merge-requests/{IID}/head"),
        &head,
    ]);
    let start = repo.rev_parse("main");
    let base = repo.git(&["merge-base", "main", &head]).trim().to_string();
    *lock(&shared.files) = file_diffs(repo, &base, &head);
    let mut mr = lock(&shared.mr);
    mr.head = head.clone();
    mr.versions.insert(
        0,
        Version {
            head: head.clone(),
            base,
            start,
        },
    );
    head
}

impl Drop for GitlabServer {
    fn drop(&mut self) {
        self.release();
        self.served.stop();
        let violations = self.violations();
        if !violations.is_empty() && !std::thread::panicking() {
            panic!(
                "requests to the fake GitLab broke GitLab's documented contract:\n{}",
                violations.join("\n")
            );
        }
    }
}

/// GitLab's `diffs` entries for `base...head`, one per file: paths, flags and the hunks only.
fn file_diffs(repo: &GitRepo, base: &str, head: &str) -> Vec<Value> {
    let text = repo.git(&["diff", "--no-color", "-M", &format!("{base}...{head}")]);
    let mut files = Vec::new();
    for chunk in text.split("diff --git ").skip(1) {
        let mut old = String::new();
        let mut new = String::new();
        let (mut new_file, mut deleted, mut renamed) = (false, false, false);
        for line in chunk.lines() {
            if let Some(p) = line.strip_prefix("--- a/") {
                old = p.to_string();
            } else if let Some(p) = line.strip_prefix("+++ b/") {
                new = p.to_string();
            } else if let Some(p) = line.strip_prefix("rename from ") {
                old = p.to_string();
                renamed = true;
            } else if let Some(p) = line.strip_prefix("rename to ") {
                new = p.to_string();
            } else if line.starts_with("new file mode") {
                new_file = true;
            } else if line.starts_with("deleted file mode") {
                deleted = true;
            } else if line.starts_with("@@") {
                break;
            }
        }
        if old.is_empty() {
            old = new.clone();
        }
        if new.is_empty() {
            new = old.clone();
        }
        let hunks = chunk.find("\n@@").map_or("", |at| &chunk[at + 1..]);
        files.push(json!({
            "old_path": old, "new_path": new, "a_mode": "100644", "b_mode": "100644",
            "diff": hunks, "new_file": new_file, "renamed_file": renamed,
            "deleted_file": deleted, "generated_file": false,
        }));
    }
    files
}

/// The lines of `path` a text position may name: (new lines, old lines) of the diff's hunks.
fn diff_lines(files: &[Value], path: &str) -> Option<(Vec<u32>, Vec<u32>)> {
    let file = files.iter().find(|f| f["new_path"] == path)?;
    let (mut new_lines, mut old_lines) = (Vec::new(), Vec::new());
    let (mut old, mut new) = (0u32, 0u32);
    for line in file["diff"].as_str().unwrap_or("").lines() {
        if let Some(rest) = line.strip_prefix("@@ -") {
            let mut parts = rest.split(' ');
            let o = parts.next().unwrap_or("0");
            let n = parts.next().unwrap_or("+0").trim_start_matches('+');
            old = o.split(',').next().unwrap().parse().unwrap_or(0);
            new = n.split(',').next().unwrap().parse().unwrap_or(0);
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

fn error(status: StatusCode, message: &str) -> Response {
    (status, axum::Json(json!({ "message": message }))).into_response()
}

fn next_id(shared: &Shared) -> u64 {
    let mut id = lock(&shared.next_id);
    *id += 1;
    *id
}

fn now() -> String {
    "2026-01-01T00:00:00.000Z".into()
}

fn user_json(username: &str) -> Value {
    json!({
        "id": 1, "username": username, "name": username, "state": "active",
        "avatar_url": "", "web_url": format!("https://gitlab.example/{username}")
    })
}

fn note_json(note: &NoteRec) -> Value {
    let mut value = json!({
        "id": note.id, "type": if note.position.is_some() { json!("DiffNote") } else { Value::Null },
        "body": note.body, "attachment": null, "author": user_json(&note.author),
        "created_at": note.created_at, "updated_at": note.created_at, "system": false,
        "noteable_id": 3, "noteable_type": "MergeRequest", "noteable_iid": IID,
        "resolvable": note.position.is_some(),
    });
    if let Some(position) = &note.position {
        value["position"] = position.clone();
    }
    value
}

/// Who the request's token authenticates as: `Ok(None)` without a token, `Err` for a bad one.
fn who(shared: &Shared, seen: &Seen) -> Result<Option<String>, Box<Response>> {
    let token = seen.private_token.clone().or_else(|| {
        seen.authorization
            .as_deref()
            .and_then(|a| a.strip_prefix("Bearer "))
            .map(str::to_string)
    });
    match token {
        None => Ok(None),
        Some(token) => lock(&shared.tokens)
            .get(&token)
            .cloned()
            .map(Some)
            .ok_or_else(|| Box::new(error(StatusCode::UNAUTHORIZED, "401 Unauthorized"))),
    }
}

fn required(shared: &Shared, seen: &Seen) -> Result<String, Box<Response>> {
    who(shared, seen)?.ok_or_else(|| Box::new(error(StatusCode::UNAUTHORIZED, "401 Unauthorized")))
}

fn violation(shared: &Shared, seen: &Seen, what: &str) {
    lock(&shared.violations).push(format!("{}: {what} ({})", seen.call(), seen.body));
}

type Ctx = (Arc<Shared>, Seen);

fn router(shared: Arc<Shared>) -> Router {
    let mr = "/api/v4/projects/{project}/merge_requests/{iid}";
    Router::new()
        .route("/api/v4/user", get(get_user))
        .route("/api/v4/merge_requests", get(list_mrs))
        .route("/api/v4/projects/{project}", get(get_project))
        .route(
            "/api/v4/projects/{project}/repository/commits/{sha}/statuses",
            get(|| async { axum::Json(json!([])) }),
        )
        .route(mr, get(get_mr))
        .route(&format!("{mr}/diffs"), get(get_diffs))
        .route(&format!("{mr}/versions"), get(get_versions))
        .route(&format!("{mr}/discussions"), get(get_discussions))
        .route(&format!("{mr}/discussions/{{discussion}}"), put(resolve))
        .route(
            &format!("{mr}/discussions/{{discussion}}/notes"),
            post(reply),
        )
        .route(&format!("{mr}/notes"), get(get_notes))
        .route(&format!("{mr}/notes/{{note}}"), put(edit_note))
        .route(&format!("{mr}/approvals"), get(get_approvals))
        .route(&format!("{mr}/approve"), post(approve))
        .route(&format!("{mr}/unapprove"), post(unapprove))
        .route(
            &format!("{mr}/draft_notes"),
            get(get_drafts).post(create_draft),
        )
        .route(&format!("{mr}/draft_notes/{{draft}}"), delete(delete_draft))
        .route(
            &format!("{mr}/draft_notes/bulk_publish"),
            post(bulk_publish),
        )
        .fallback(|| async { error(StatusCode::NOT_FOUND, "404 Not Found") })
        .layer(middleware::from_fn_with_state(shared.clone(), front_door))
        .with_state(shared)
}

/// Records the request (with its JSON body), checks it names our project, and answers a
/// scripted fault when one is due.
async fn front_door(State(shared): State<Arc<Shared>>, request: Request, next: Next) -> Response {
    let (parts, body) = request.into_parts();
    let bytes = to_bytes(body, 1 << 24).await.unwrap_or_default();
    let header = |name: &str| {
        parts
            .headers
            .get(name)
            .and_then(|v| v.to_str().ok())
            .map(str::to_string)
    };
    let path = percent_decode(parts.uri.path());
    let seen = Seen {
        method: parts.method.as_str().to_string(),
        path: path.clone(),
        query: parts.uri.query().map(str::to_string),
        private_token: header("private-token"),
        authorization: header("authorization"),
        body: serde_json::from_slice(&bytes).unwrap_or(Value::Null),
    };
    lock(&shared.seen).push(seen.clone());
    if path.starts_with("/api/v4/projects/")
        && !path.starts_with(&format!("/api/v4/projects/{PROJECT}"))
    {
        return error(StatusCode::NOT_FOUND, "404 Project Not Found");
    }
    let due = lock(&shared.pushes_before).remove(&seen.call());
    if let Some(change) = due {
        push_on(&shared, change);
    }
    let stalled = lock(&shared.stalled).as_deref() == Some(seen.call().as_str());
    if stalled {
        let mut released = shared.released.subscribe();
        let _ = released.wait_for(|r| *r).await;
        return error(StatusCode::SERVICE_UNAVAILABLE, "503 Service Unavailable");
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

fn percent_decode(path: &str) -> String {
    let bytes = path.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%'
            && i + 2 < bytes.len()
            && let Ok(b) = u8::from_str_radix(&path[i + 1..i + 3], 16)
        {
            out.push(b);
            i += 3;
            continue;
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

fn ctx(shared: Arc<Shared>, request: &Request) -> Ctx {
    let seen = request
        .extensions()
        .get::<Seen>()
        .cloned()
        .expect("recorded");
    (shared, seen)
}

async fn get_user(State(shared): State<Arc<Shared>>, request: Request) -> Response {
    let (shared, seen) = ctx(shared, &request);
    match required(&shared, &seen) {
        Ok(username) => axum::Json(json!({
            "id": 9, "username": username, "name": username, "state": "active", "bot": false
        }))
        .into_response(),
        Err(response) => *response,
    }
}

async fn get_project(State(shared): State<Arc<Shared>>, request: Request) -> Response {
    let (shared, seen) = ctx(shared, &request);
    if let Err(response) = who(&shared, &seen) {
        return *response;
    }
    axum::Json(json!({
        "id": 5, "path_with_namespace": PROJECT,
        "http_url_to_repo": format!("file://{}", shared.repo.path().display()),
        "web_url": format!("https://gitlab.example/{PROJECT}"),
    }))
    .into_response()
}

fn check_iid(iid: &str) -> Result<(), Box<Response>> {
    if iid == IID.to_string() {
        Ok(())
    } else {
        Err(Box::new(error(StatusCode::NOT_FOUND, "404 Not found")))
    }
}

async fn get_mr(
    State(shared): State<Arc<Shared>>,
    Path((_, iid)): Path<(String, String)>,
    request: Request,
) -> Response {
    let (shared, seen) = ctx(shared, &request);
    if let Err(response) = who(&shared, &seen).and_then(|_| check_iid(&iid)) {
        return *response;
    }
    let mr = lock(&shared.mr).clone();
    let version = &mr.versions[0];
    axum::Json(json!({
        "id": 155, "iid": IID, "project_id": 5, "title": mr.title, "description": mr.description,
        "state": mr.state, "draft": mr.draft, "work_in_progress": mr.draft,
        "author": user_json(&mr.author), "source_branch": "feature", "target_branch": "main",
        "sha": mr.head, "source_project_id": 5, "target_project_id": 5,
        "diff_refs": {"base_sha": version.base, "head_sha": version.head, "start_sha": version.start},
        "web_url": format!("https://gitlab.example/{PROJECT}/-/merge_requests/{IID}"),
        "references": {"short": format!("!{IID}"), "full": format!("{PROJECT}!{IID}")},
    }))
    .into_response()
}

/// The attributes `GET /merge_requests` takes (the reference's table, and pagination).
const LIST_ATTRIBUTES: &[&str] = &[
    "approved_by_ids",
    "approver_ids",
    "approved",
    "assignee_id",
    "assignee_username",
    "author_id",
    "author_username",
    "created_after",
    "created_before",
    "deployed_after",
    "deployed_before",
    "environment",
    "in",
    "labels",
    "merge_user_id",
    "merge_user_username",
    "milestone",
    "my_reaction_emoji",
    "not",
    "order_by",
    "reviewer_id",
    "reviewer_username",
    "scope",
    "search",
    "sort",
    "source_branch",
    "state",
    "target_branch",
    "updated_after",
    "updated_before",
    "view",
    "with_labels_details",
    "with_merge_status_recheck",
    "wip",
    "page",
    "per_page",
];

/// `GET /merge_requests` as the reference describes it: `scope` defaults to `created_by_me`
/// (so a search for reviews without `scope=all` finds only the account's own), `state`
/// filters, `reviewer_username` and `reviewer_id` are exclusive; `!7` is one of the list.
async fn list_mrs(State(shared): State<Arc<Shared>>, request: Request) -> Response {
    let (shared, seen) = ctx(shared, &request);
    let me = match required(&shared, &seen) {
        Ok(username) => username,
        Err(response) => return *response,
    };
    let query: Vec<(String, String)> = reqwest::Url::parse(&format!(
        "http://h/?{}",
        seen.query.as_deref().unwrap_or("")
    ))
    .map(|u| u.query_pairs().into_owned().collect())
    .unwrap_or_default();
    let arg = |name: &str| {
        query
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    };
    for (key, _) in &query {
        if !LIST_ATTRIBUTES.contains(&key.as_str()) {
            violation(
                &shared,
                &seen,
                &format!("`{key}` is not an attribute of the list"),
            );
        }
    }
    if arg("reviewer_username").is_some() && arg("reviewer_id").is_some() {
        return error(
            StatusCode::BAD_REQUEST,
            "reviewer_id, reviewer_username are mutually exclusive",
        );
    }
    let mr = lock(&shared.mr).clone();
    let mut all = vec![ListedMr {
        project: PROJECT.into(),
        iid: IID,
        title: mr.title.clone(),
        author: mr.author.clone(),
        reviewers: lock(&shared.reviewers).clone(),
        state: mr.state.clone(),
        head: mr.head.clone(),
    }];
    all.extend(lock(&shared.listed).iter().cloned());
    let state = arg("state").unwrap_or("all");
    let scope = arg("scope").unwrap_or("created_by_me");
    let items: Vec<Value> = all
        .into_iter()
        .filter(|l| state == "all" || l.state == state)
        .filter(|l| scope != "created_by_me" || l.author == me)
        .filter(|l| arg("author_username").is_none_or(|a| l.author == a))
        .filter(|l| arg("reviewer_username").is_none_or(|r| l.reviewers.iter().any(|x| x == r)))
        .map(|l| {
            json!({
                "id": 10_000 + l.iid, "iid": l.iid, "project_id": 5, "title": l.title,
                "description": "", "state": l.state, "draft": false, "work_in_progress": false,
                "author": user_json(&l.author),
                "reviewers": l.reviewers.iter().map(|r| user_json(r)).collect::<Vec<_>>(),
                "source_branch": "feature", "target_branch": "main", "sha": l.head,
                "created_at": "2026-03-01T10:00:00.000Z", "updated_at": "2026-03-02T10:00:00.000Z",
                "web_url": format!("{}/{}/-/merge_requests/{}", shared.url, l.project, l.iid),
                "references": {"short": format!("!{}", l.iid), "full": format!("{}!{}", l.project, l.iid)},
            })
        })
        .collect();
    let page = Page {
        page: arg("page").and_then(|v| v.parse().ok()),
        per_page: arg("per_page").and_then(|v| v.parse().ok()),
    };
    paginate(items, &page)
}

#[derive(serde::Deserialize)]
struct Page {
    page: Option<usize>,
    per_page: Option<usize>,
}

/// One page of `items`, with GitLab's `X-Next-Page` (empty on the last page).
fn paginate(items: Vec<Value>, page: &Page) -> Response {
    let per_page = page.per_page.unwrap_or(PER_PAGE_DEFAULT).clamp(1, 100);
    let number = page.page.unwrap_or(1).max(1);
    let start = (number - 1) * per_page;
    let slice: Vec<Value> = items.iter().skip(start).take(per_page).cloned().collect();
    let next = if start + per_page < items.len() {
        (number + 1).to_string()
    } else {
        String::new()
    };
    let mut response = axum::Json(Value::Array(slice)).into_response();
    response
        .headers_mut()
        .insert("x-next-page", HeaderValue::from_str(&next).unwrap());
    response.headers_mut().insert(
        "x-page",
        HeaderValue::from_str(&number.to_string()).unwrap(),
    );
    response
}

async fn get_diffs(
    State(shared): State<Arc<Shared>>,
    Query(page): Query<Page>,
    request: Request,
) -> Response {
    let (shared, seen) = ctx(shared, &request);
    if let Err(response) = who(&shared, &seen) {
        return *response;
    }
    paginate(lock(&shared.files).clone(), &page)
}

async fn get_versions(State(shared): State<Arc<Shared>>, request: Request) -> Response {
    let (shared, seen) = ctx(shared, &request);
    if let Err(response) = who(&shared, &seen) {
        return *response;
    }
    let mr = lock(&shared.mr).clone();
    let count = mr.versions.len();
    let versions: Vec<Value> = mr
        .versions
        .iter()
        .enumerate()
        .map(|(i, v)| {
            json!({
                "id": 100 + count - i, "head_commit_sha": v.head, "base_commit_sha": v.base,
                "start_commit_sha": v.start, "created_at": now(), "merge_request_id": 155,
                "state": "collected", "real_size": "1",
            })
        })
        .collect();
    axum::Json(Value::Array(versions)).into_response()
}

async fn get_discussions(
    State(shared): State<Arc<Shared>>,
    Query(page): Query<Page>,
    request: Request,
) -> Response {
    let (shared, seen) = ctx(shared, &request);
    if let Err(response) = who(&shared, &seen) {
        return *response;
    }
    let mr = lock(&shared.mr).clone();
    let items = mr
        .discussions
        .iter()
        .map(|d| {
            let notes: Vec<Value> = d
                .notes
                .iter()
                .filter_map(|id| mr.notes.iter().find(|n| n.id == *id))
                .map(|n| {
                    let mut note = note_json(n);
                    note["resolved"] = json!(d.resolved);
                    note
                })
                .collect();
            json!({ "id": d.id, "individual_note": d.individual_note, "notes": notes })
        })
        .collect();
    paginate(items, &page)
}

async fn get_notes(
    State(shared): State<Arc<Shared>>,
    Query(page): Query<Page>,
    request: Request,
) -> Response {
    let (shared, seen) = ctx(shared, &request);
    if let Err(response) = who(&shared, &seen) {
        return *response;
    }
    let query = seen.query.clone().unwrap_or_default();
    let mut notes: Vec<Value> = lock(&shared.mr).notes.iter().map(note_json).collect();
    if query.contains("sort=desc") {
        notes.reverse();
    }
    paginate(notes, &page)
}

fn discussion_id(shared: &Shared) -> String {
    format!("{:040x}", next_id(shared))
}

async fn edit_note(
    State(shared): State<Arc<Shared>>,
    Path((_, _, note)): Path<(String, String, u64)>,
    request: Request,
) -> Response {
    let (shared, seen) = ctx(shared, &request);
    let username = match required(&shared, &seen) {
        Ok(u) => u,
        Err(r) => return *r,
    };
    let Some(body) = seen.body["body"].as_str() else {
        violation(&shared, &seen, "`body` is required");
        return error(StatusCode::BAD_REQUEST, "400 Bad request - body is missing");
    };
    let mut mr = lock(&shared.mr);
    let Some(found) = mr.notes.iter_mut().find(|n| n.id == note) else {
        return error(StatusCode::NOT_FOUND, "404 Note Not Found");
    };
    if found.author != username {
        return error(StatusCode::FORBIDDEN, "403 Forbidden");
    }
    found.body = body.to_string();
    axum::Json(note_json(found)).into_response()
}

async fn resolve(
    State(shared): State<Arc<Shared>>,
    Path((_, _, discussion)): Path<(String, String, String)>,
    request: Request,
) -> Response {
    let (shared, seen) = ctx(shared, &request);
    if let Err(r) = required(&shared, &seen) {
        return *r;
    }
    let resolved = seen
        .query
        .as_deref()
        .unwrap_or("")
        .contains("resolved=true")
        || seen.body["resolved"] == json!(true);
    if !resolved {
        violation(&shared, &seen, "`resolved` is required");
    }
    let mut mr = lock(&shared.mr);
    let Some(found) = mr.discussions.iter_mut().find(|d| d.id == discussion) else {
        return error(StatusCode::NOT_FOUND, "404 Discussion Not Found");
    };
    found.resolved = resolved;
    let value = json!({ "id": found.id, "individual_note": found.individual_note, "notes": [] });
    axum::Json(value).into_response()
}

async fn reply(
    State(shared): State<Arc<Shared>>,
    Path((_, _, discussion)): Path<(String, String, String)>,
    request: Request,
) -> Response {
    let (shared, seen) = ctx(shared, &request);
    let username = match required(&shared, &seen) {
        Ok(u) => u,
        Err(r) => return *r,
    };
    let Some(body) = seen.body["body"].as_str().map(str::to_string) else {
        violation(&shared, &seen, "`body` is required");
        return error(StatusCode::BAD_REQUEST, "400 Bad request - body is missing");
    };
    let id = next_id(&shared);
    let mut mr = lock(&shared.mr);
    let Some(index) = mr.discussions.iter().position(|d| d.id == discussion) else {
        return error(StatusCode::NOT_FOUND, "404 Discussion Not Found");
    };
    let position = mr.discussions[index]
        .notes
        .first()
        .and_then(|root| mr.notes.iter().find(|n| n.id == *root))
        .and_then(|n| n.position.clone());
    let note = NoteRec {
        id,
        author: username,
        body,
        position,
        discussion: discussion.clone(),
        created_at: now(),
    };
    mr.discussions[index].notes.push(id);
    mr.notes.push(note.clone());
    (StatusCode::CREATED, axum::Json(note_json(&note))).into_response()
}

async fn get_approvals(State(shared): State<Arc<Shared>>, request: Request) -> Response {
    let (shared, seen) = ctx(shared, &request);
    if let Err(r) = required(&shared, &seen) {
        return *r;
    }
    approvals_json(&shared)
}

fn approvals_json(shared: &Shared) -> Response {
    let mr = lock(&shared.mr);
    let approved_by: Vec<Value> = mr
        .approved_by
        .iter()
        .map(|u| json!({ "user": user_json(u) }))
        .collect();
    axum::Json(json!({
        "id": 155, "iid": IID, "project_id": 5, "title": mr.title, "state": mr.state,
        "approvals_required": 1, "approvals_left": if approved_by.is_empty() { 1 } else { 0 },
        "approved_by": approved_by,
    }))
    .into_response()
}

async fn approve(State(shared): State<Arc<Shared>>, request: Request) -> Response {
    let (shared, seen) = ctx(shared, &request);
    let username = match required(&shared, &seen) {
        Ok(u) => u,
        Err(r) => return *r,
    };
    if lock(&shared.may_not_approve).contains(&username) {
        return error(StatusCode::UNAUTHORIZED, "401 Unauthorized");
    }
    {
        let mut mr = lock(&shared.mr);
        if let Some(sha) = seen.body["sha"].as_str()
            && sha != mr.head
        {
            return error(
                StatusCode::CONFLICT,
                "SHA does not match HEAD of source branch",
            );
        }
        if mr.approved_by.contains(&username) {
            // GitLab refuses a second approval by the same account.
            return error(StatusCode::UNAUTHORIZED, "401 Unauthorized");
        }
        mr.approved_by.push(username);
    }
    (StatusCode::CREATED, approvals_json(&shared)).into_response()
}

async fn unapprove(State(shared): State<Arc<Shared>>, request: Request) -> Response {
    let (shared, seen) = ctx(shared, &request);
    let username = match required(&shared, &seen) {
        Ok(u) => u,
        Err(r) => return *r,
    };
    let mut mr = lock(&shared.mr);
    let before = mr.approved_by.len();
    mr.approved_by.retain(|u| *u != username);
    if mr.approved_by.len() == before {
        return error(StatusCode::NOT_FOUND, "404 Not Found");
    }
    StatusCode::CREATED.into_response()
}

async fn get_drafts(State(shared): State<Arc<Shared>>, request: Request) -> Response {
    let (shared, seen) = ctx(shared, &request);
    let username = match required(&shared, &seen) {
        Ok(u) => u,
        Err(r) => return *r,
    };
    let drafts: Vec<Value> = lock(&shared.mr)
        .drafts
        .iter()
        .filter(|d| d.author == username)
        .map(draft_json)
        .collect();
    paginate(
        drafts,
        &Page {
            page: None,
            per_page: Some(100),
        },
    )
}

fn draft_json(draft: &DraftRec) -> Value {
    json!({
        "id": draft.id, "author_id": 9, "merge_request_id": 155, "resolve_discussion": false,
        "discussion_id": null, "note": draft.note, "commit_id": null, "line_code": null,
        "position": draft.position.clone().unwrap_or(json!({
            "base_sha": null, "start_sha": null, "head_sha": null, "old_path": null,
            "new_path": null, "position_type": "text", "old_line": null, "new_line": null,
            "line_range": null
        })),
    })
}

/// `POST …/draft_notes`: `note` required; a `position` needs its type, the latest version's
/// three SHAs, both paths and a line of that version's diff.
async fn create_draft(State(shared): State<Arc<Shared>>, request: Request) -> Response {
    let (shared, seen) = ctx(shared, &request);
    let username = match required(&shared, &seen) {
        Ok(u) => u,
        Err(r) => return *r,
    };
    let Some(note) = seen.body["note"].as_str().map(str::to_string) else {
        violation(&shared, &seen, "`note` is required");
        return error(StatusCode::BAD_REQUEST, "400 Bad request - note is missing");
    };
    let position = seen.body.get("position").cloned().filter(|p| !p.is_null());
    if let Some(position) = &position {
        let mr = lock(&shared.mr).clone();
        let version = &mr.versions[0];
        for (key, want) in [
            ("base_sha", &version.base),
            ("start_sha", &version.start),
            ("head_sha", &version.head),
        ] {
            if position[key].as_str() != Some(want.as_str()) {
                violation(
                    &shared,
                    &seen,
                    &format!("position[{key}] is not the latest version's"),
                );
            }
        }
        for key in ["position_type", "old_path", "new_path"] {
            if !position[key].is_string() {
                violation(&shared, &seen, &format!("position[{key}] is required"));
            }
        }
        let path = position["new_path"].as_str().unwrap_or("");
        let lines = diff_lines(&lock(&shared.files), path);
        let placed = match (
            lines,
            position["new_line"].as_u64(),
            position["old_line"].as_u64(),
        ) {
            (Some((new, _)), Some(line), _) => new.contains(&(line as u32)),
            (Some((_, old)), None, Some(line)) => old.contains(&(line as u32)),
            _ => false,
        };
        if !placed || lock(&shared.refused_paths).iter().any(|p| p == path) {
            return error(
                StatusCode::BAD_REQUEST,
                "400 Bad request - Note {:line_code=>[\"can't be blank\", \"must be a valid line code\"]}",
            );
        }
    }
    let draft = DraftRec {
        id: next_id(&shared),
        author: username,
        note,
        position,
    };
    lock(&shared.mr).drafts.push(draft.clone());
    (StatusCode::CREATED, axum::Json(draft_json(&draft))).into_response()
}

async fn delete_draft(
    State(shared): State<Arc<Shared>>,
    Path((_, _, draft)): Path<(String, String, u64)>,
    request: Request,
) -> Response {
    let (shared, seen) = ctx(shared, &request);
    let username = match required(&shared, &seen) {
        Ok(u) => u,
        Err(r) => return *r,
    };
    let mut mr = lock(&shared.mr);
    let before = mr.drafts.len();
    mr.drafts
        .retain(|d| !(d.id == draft && d.author == username));
    if mr.drafts.len() == before {
        return error(StatusCode::NOT_FOUND, "404 Not found");
    }
    StatusCode::NO_CONTENT.into_response()
}

/// Publishes every draft of the account: positioned ones open diff threads, the others
/// become general notes.
async fn bulk_publish(State(shared): State<Arc<Shared>>, request: Request) -> Response {
    let (shared, seen) = ctx(shared, &request);
    let username = match required(&shared, &seen) {
        Ok(u) => u,
        Err(r) => return *r,
    };
    let mine: Vec<DraftRec> = {
        let mut mr = lock(&shared.mr);
        let (mine, others) = mr.drafts.drain(..).partition(|d| d.author == username);
        mr.drafts = others;
        mine
    };
    for draft in mine {
        let id = next_id(&shared);
        let discussion = discussion_id(&shared);
        let mut mr = lock(&shared.mr);
        mr.discussions.push(DiscussionRec {
            id: discussion.clone(),
            individual_note: draft.position.is_none(),
            notes: vec![id],
            resolved: false,
        });
        mr.notes.push(NoteRec {
            id,
            author: username.clone(),
            body: draft.note,
            position: draft.position,
            discussion,
            created_at: now(),
        });
    }
    StatusCode::NO_CONTENT.into_response()
}
