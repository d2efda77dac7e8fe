//! A GitHub-like REST server on 127.0.0.1 serving one pull request from a real git repository.
//!
//! ```text
//! let repo = git_repo::pr_repository();
//! let pull = PullSpec::from_repo(&repo, "acme", "widgets", 7);
//! let server = GithubServer::start(repo, pull);
//! server.accept_token("ghp_good", "reviewer");
//! server.script("GET /repos/acme/widgets/pulls/7", [Fault::Status(500)]);
//! // ... point the client at server.url() ...
//! assert_eq!(server.requests_to("GET /repos/acme/widgets/pulls/7").len(), 2);
//! ```
//!
//! Every JSON body it sends is checked against GitHub's OpenAPI description; a mismatch is
//! recorded and fails the test when the server is dropped. To add an endpoint, add a route whose
//! path is spelled exactly as in the description, so the check finds its schema. The publishing
//! calls (reviews, replies, check runs) live in `github_publish`.

use std::collections::{HashMap, HashSet, VecDeque};
use std::sync::{Arc, Mutex, MutexGuard};

use axum::Router;
use axum::body::{Body, to_bytes};
use axum::extract::{Path, Query, Request, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{MethodRouter, get, post, put};
use serde::Deserialize;
use serde_json::Value;

use super::faults::{self, Dialect};
use super::git_repo::GitRepo;
use super::github_json::{self as gh, FileChange, Urls};
use super::github_publish as publish;
use super::openapi;
use super::serve::{self, Served};

/// GitHub's default and maximum page sizes.
const DEFAULT_PER_PAGE: usize = 30;
const MAX_PER_PAGE: usize = 100;

#[derive(Debug, Clone)]
pub(crate) struct UserSpec {
    pub login: String,
    /// `User`, `Bot` or `Organization`, as in GitHub's `type` field.
    pub account_type: String,
}

impl UserSpec {
    pub(crate) fn user(login: &str) -> UserSpec {
        UserSpec {
            login: login.into(),
            account_type: "User".into(),
        }
    }

    pub(crate) fn bot(login: &str) -> UserSpec {
        UserSpec {
            login: login.into(),
            account_type: "Bot".into(),
        }
    }
}

/// The pull request the server serves. Fields are public: tests adjust what they need.
#[derive(Debug, Clone)]
pub(crate) struct PullSpec {
    pub owner: String,
    pub repo: String,
    pub number: u64,
    pub title: String,
    pub body: Option<String>,
    pub author: UserSpec,
    /// `open` or `closed`.
    pub state: String,
    pub merged: bool,
    pub draft: bool,
    pub base_ref: String,
    pub base_sha: String,
    pub head_ref: String,
    pub head_sha: String,
    pub clone_url: String,
    pub reviews: Vec<ReviewSpec>,
    pub review_comments: Vec<ReviewCommentSpec>,
    pub issue_comments: Vec<IssueCommentSpec>,
}

impl PullSpec {
    /// An open PR of `feature` into `main` of `repo`, by `octocat`, with no history yet.
    pub(crate) fn from_repo(repo: &GitRepo, owner: &str, name: &str, number: u64) -> PullSpec {
        PullSpec {
            owner: owner.into(),
            repo: name.into(),
            number,
            title: "Checked arithmetic and a parser".into(),
            body: Some("Makes `add` panic on overflow.".into()),
            author: UserSpec::user("octocat"),
            state: "open".into(),
            merged: false,
            draft: false,
            base_ref: "main".into(),
            base_sha: repo.rev_parse("main"),
            head_ref: "feature".into(),
            head_sha: repo.rev_parse("feature"),
            clone_url: format!("file://{}", repo.path().display()),
            reviews: Vec::new(),
            review_comments: Vec::new(),
            issue_comments: Vec::new(),
        }
    }
}

#[derive(Debug, Clone)]
pub(crate) struct ReviewSpec {
    pub id: u64,
    pub author: UserSpec,
    pub body: String,
    /// APPROVED, CHANGES_REQUESTED, COMMENTED, DISMISSED or PENDING.
    pub state: String,
    pub commit_id: String,
}

#[derive(Debug, Clone)]
pub(crate) struct ReviewCommentSpec {
    pub id: u64,
    pub review_id: Option<u64>,
    pub author: UserSpec,
    pub body: String,
    pub path: String,
    pub line: u32,
    /// `LEFT` or `RIGHT`.
    pub side: String,
    pub commit_id: String,
    pub in_reply_to: Option<u64>,
    pub created_at: String,
}

#[derive(Debug, Clone)]
pub(crate) struct IssueCommentSpec {
    pub id: u64,
    pub author: UserSpec,
    pub body: String,
    pub created_at: String,
}

pub(crate) use super::faults::Fault;

/// What the server saw of one request.
#[derive(Debug, Clone)]
pub(crate) struct RecordedRequest {
    pub method: String,
    pub path: String,
    pub query: Option<String>,
    /// Lower-case names, in arrival order.
    pub headers: Vec<(String, String)>,
    /// A GraphQL query (a `POST /graphql` that is no mutation): a read, though a `POST`.
    pub graphql_query: bool,
}

impl RecordedRequest {
    pub(crate) fn header(&self, name: &str) -> Option<&str> {
        let name = name.to_ascii_lowercase();
        self.headers
            .iter()
            .find(|(k, _)| *k == name)
            .map(|(_, v)| v.as_str())
    }

    /// Whether it only read: a `GET`, or a GraphQL query.
    pub(crate) fn is_read(&self) -> bool {
        self.method == "GET" || self.graphql_query
    }

    /// `"GET /repos/o/r/pulls/1"`, the form faults are scripted with.
    pub(crate) fn call(&self) -> String {
        format!("{} {}", self.method, self.path)
    }
}

#[derive(Default)]
struct Script {
    queued: VecDeque<Fault>,
    forever: Option<Fault>,
}

pub(crate) struct Shared {
    pub(crate) urls: Urls,
    pub(crate) pull: Mutex<PullSpec>,
    pub(crate) files: Mutex<Vec<FileChange>>,
    pub(crate) diff: Mutex<String>,
    /// token → login.
    pub(crate) tokens: Mutex<HashMap<String, String>>,
    /// Tokens of GitHub App installations (`github.token` in Actions): `GET /user` refuses them.
    pub(crate) installation_tokens: Mutex<HashSet<String>>,
    /// Whether the repository lets GitHub Actions approve pull requests (off by default on
    /// new repositories, so off here).
    pub(crate) actions_may_approve: Mutex<bool>,
    /// Past this many files or lines, the diff media type answers 406 (GitHub: 300, 20,000).
    pub(crate) diff_limits: Mutex<(usize, usize)>,
    scripts: Mutex<HashMap<String, Script>>,
    /// Pushes due when a request to a call arrives, before it is handled: the head moving
    /// between two of the client's requests (after its last read, before its POST).
    pushes_before: Mutex<HashMap<String, Push>>,
    /// Base branches the PR is retargeted to when a request to a call arrives, before it is
    /// handled (GitHub retargets a stacked PR to `main` when its parent merges).
    retargets_before: Mutex<HashMap<String, String>>,
    requests: Mutex<Vec<RecordedRequest>>,
    pub(crate) violations: Mutex<Vec<String>>,
    /// Ids for reviews and comments the server creates.
    pub(crate) next_id: Mutex<u64>,
    /// Check runs by commit SHA, as `GET .../commits/{ref}/check-runs` lists them.
    pub(crate) check_runs: Mutex<HashMap<String, Vec<Value>>>,
    /// Request bodies of the publishing calls, in arrival order: `(call, body)`.
    pub(crate) bodies: Mutex<Vec<(String, Value)>>,
    /// Paths whose inline comments are refused as GitHub refuses a line outside the diff, even
    /// though the served diff shows them (GitHub's own view of a diff can differ from ours).
    pub(crate) refused_paths: Mutex<Vec<String>>,
    /// Review threads, served over GraphQL (`github_graphql`).
    pub(crate) threads: Mutex<Vec<super::github_graphql::ThreadSpec>>,
    /// While set, a GraphQL mutation is held unanswered (and never applied): a client killed
    /// meanwhile dies between its calls.
    pub(crate) hold_mutations: Mutex<bool>,
    pub(crate) repo: GitRepo,
}

/// The running server. Dropping it stops the server, deletes the repository, and fails the
/// test if any response it sent did not match GitHub's schema.
pub(crate) struct GithubServer {
    url: String,
    shared: Arc<Shared>,
    served: Served,
}

impl GithubServer {
    /// Serves `pull` from `repo` (which the server keeps alive) on a free loopback port, from
    /// its own thread and runtime so it works under any test runtime.
    pub(crate) fn start(repo: GitRepo, pull: PullSpec) -> GithubServer {
        let (listener, url) = serve::listen();
        let range = format!("{}...{}", pull.base_sha, pull.head_sha);
        let diff = repo.git(&["diff", "--no-color", "-M", &range]);
        let files = changed_files(&repo, &pull);
        let shared = Arc::new(Shared {
            urls: Urls {
                api: url.clone(),
                web: "https://github.example".into(),
            },
            pull: Mutex::new(pull),
            files: Mutex::new(files),
            diff: Mutex::new(diff),
            tokens: Mutex::default(),
            installation_tokens: Mutex::default(),
            actions_may_approve: Mutex::new(false),
            diff_limits: Mutex::new((300, 20_000)),
            scripts: Mutex::default(),
            pushes_before: Mutex::default(),
            retargets_before: Mutex::default(),
            requests: Mutex::default(),
            violations: Mutex::default(),
            next_id: Mutex::new(5000),
            check_runs: Mutex::default(),
            bodies: Mutex::default(),
            refused_paths: Mutex::default(),
            threads: Mutex::default(),
            hold_mutations: Mutex::new(false),
            repo,
        });
        let app = router(shared.clone());
        let served = Served::start(listener, app);
        GithubServer {
            url,
            shared,
            served,
        }
    }

    /// Opens a review thread: its root comment and replies become REST review comments, and
    /// the thread is served over GraphQL with its resolved and outdated state.
    pub(crate) fn add_thread(
        &self,
        thread: super::github_graphql::ThreadSpec,
        comments: Vec<ReviewCommentSpec>,
    ) {
        lock(&self.shared.pull).review_comments.extend(comments);
        lock(&self.shared.threads).push(thread);
    }

    /// Holds every GraphQL mutation unanswered while `hold` (see `Shared::hold_mutations`).
    pub(crate) fn hold_mutations(&self, hold: bool) {
        *lock(&self.shared.hold_mutations) = hold;
    }

    /// The threads as they stand now (a resolution changes them).
    pub(crate) fn threads(&self) -> Vec<super::github_graphql::ThreadSpec> {
        lock(&self.shared.threads).clone()
    }

    /// The API base URL, e.g. `http://127.0.0.1:4321`.
    pub(crate) fn url(&self) -> &str {
        &self.url
    }

    /// Makes `token` valid, authenticating as `login`. Any other token gets 401 "Bad
    /// credentials"; no token at all is anonymous access (fine except for `GET /user`).
    pub(crate) fn accept_token(&self, token: &str, login: &str) {
        lock(&self.shared.tokens).insert(token.into(), login.into());
    }

    /// Makes `token` an installation token acting as `login` (`github-actions[bot]` for the
    /// `github.token` of Actions): GitHub answers its `GET /user` with 403 "Resource not
    /// accessible by integration", and, for the Actions login, refuses APPROVE unless
    /// [`GithubServer::allow_actions_approval`].
    pub(crate) fn accept_installation_token(&self, token: &str, login: &str) {
        self.accept_token(token, login);
        lock(&self.shared.installation_tokens).insert(token.into());
    }

    /// The repository setting "Allow GitHub Actions to create and approve pull requests".
    pub(crate) fn allow_actions_approval(&self) {
        *lock(&self.shared.actions_may_approve) = true;
    }

    /// Lowers GitHub's diff limits (300 files, 20,000 lines) so a small PR can exceed them.
    pub(crate) fn set_diff_limits(&self, files: usize, lines: usize) {
        *lock(&self.shared.diff_limits) = (files, lines);
    }

    /// The pull request as currently served.
    pub(crate) fn pull(&self) -> PullSpec {
        lock(&self.shared.pull).clone()
    }

    /// Changes the served pull request (history, state, author...).
    pub(crate) fn update_pull(&self, change: impl FnOnce(&mut PullSpec)) {
        change(&mut lock(&self.shared.pull));
    }

    /// The next requests to `call` (`"GET /repos/o/r/pulls/1"`, no query) get these faults,
    /// one each, in order; after that the route answers normally.
    pub(crate) fn script(&self, call: &str, faults: impl IntoIterator<Item = Fault>) {
        lock(&self.shared.scripts)
            .entry(call.into())
            .or_default()
            .queued
            .extend(faults);
    }

    /// Every request to `call` gets `fault` once the queued faults are used up.
    pub(crate) fn fail_always(&self, call: &str, fault: Fault) {
        lock(&self.shared.scripts)
            .entry(call.into())
            .or_default()
            .forever = Some(fault);
    }

    pub(crate) fn requests(&self) -> Vec<RecordedRequest> {
        lock(&self.shared.requests).clone()
    }

    /// The requests to `call` (`"GET /path"`, whatever their query).
    pub(crate) fn requests_to(&self, call: &str) -> Vec<RecordedRequest> {
        self.requests()
            .into_iter()
            .filter(|r| r.call() == call)
            .collect()
    }

    /// Schema mismatches found so far (also reported when the server is dropped).
    pub(crate) fn schema_violations(&self) -> Vec<String> {
        lock(&self.shared.violations).clone()
    }

    /// The diff the server serves, for comparing with what a client received.
    pub(crate) fn served_diff(&self) -> String {
        lock(&self.shared.diff).clone()
    }

    /// A push to the PR: `change` commits on the repository (it is checked out wherever the
    /// test left it) and returns the new head SHA; the PR's head, `refs/pull/N/head`, the diff
    /// and the files follow it.
    pub(crate) fn push(&self, change: impl FnOnce(&GitRepo) -> String) -> String {
        push_on(&self.shared, change)
    }

    /// When the next request to `call` arrives, `change` is pushed first (as [`push`] does),
    /// then the request is handled against the moved head.
    ///
    /// [`push`]: GithubServer::push
    pub(crate) fn push_before(
        &self,
        call: &str,
        change: impl FnOnce(&GitRepo) -> String + Send + 'static,
    ) {
        lock(&self.shared.pushes_before).insert(call.into(), Box::new(change));
    }

    /// The PR's base becomes `base_ref` (a branch of the repository) at its current tip, as
    /// when GitHub retargets a stacked PR: the head stays, the diff and the files follow the
    /// new merge base.
    pub(crate) fn retarget(&self, base_ref: &str) {
        retarget_on(&self.shared, base_ref);
    }

    /// When the next request to `call` arrives, the PR is retargeted to `base_ref` first (as
    /// [`retarget`] does), then the request is handled.
    ///
    /// [`retarget`]: GithubServer::retarget
    pub(crate) fn retarget_before(&self, call: &str, base_ref: &str) {
        lock(&self.shared.retargets_before).insert(call.into(), base_ref.into());
    }

    /// The check runs GitHub reports for `sha`: `(name, status, conclusion)`.
    pub(crate) fn set_check_runs(&self, sha: &str, runs: &[(&str, &str, Option<&str>)]) {
        let runs = runs
            .iter()
            .enumerate()
            .map(|(i, (name, status, conclusion))| {
                serde_json::json!({
                    "id": 9000 + i,
                    "name": name,
                    "head_sha": sha,
                    "status": status,
                    "conclusion": conclusion,
                    "html_url": format!("https://github.example/checks/{}", 9000 + i),
                })
            })
            .collect();
        lock(&self.shared.check_runs).insert(sha.into(), runs);
    }

    /// Inline comments on `path` get GitHub's 422 "line must be part of the diff".
    pub(crate) fn refuse_anchors_in(&self, path: &str) {
        lock(&self.shared.refused_paths).push(path.into());
    }

    /// The JSON bodies sent to `call` (`"POST /repos/o/r/pulls/7/reviews"`), in order.
    pub(crate) fn bodies_to(&self, call: &str) -> Vec<Value> {
        lock(&self.shared.bodies)
            .iter()
            .filter(|(c, _)| c == call)
            .map(|(_, b)| b.clone())
            .collect()
    }
}

impl Drop for GithubServer {
    fn drop(&mut self) {
        self.served.stop();
        let violations = self.schema_violations();
        if !violations.is_empty() && !std::thread::panicking() {
            panic!(
                "the fake GitHub sent responses that do not match GitHub's schema:\n{}",
                violations.join("\n")
            );
        }
    }
}

pub(crate) fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    // A panicking test must not turn every later assertion into a poison error.
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

fn router(shared: Arc<Shared>) -> Router {
    // Paths are spelled exactly as in GitHub's OpenAPI description: the schema check looks
    // each response up by this template.
    let routes: [(&'static str, MethodRouter<Arc<Shared>>); 9] = [
        ("/repos/{owner}/{repo}", get(get_repository)),
        ("/repos/{owner}/{repo}/pulls/{pull_number}", get(get_pull)),
        (
            "/repos/{owner}/{repo}/pulls/{pull_number}/files",
            get(list_files),
        ),
        (
            "/repos/{owner}/{repo}/pulls/{pull_number}/reviews",
            get(list_reviews).post(publish::create_review),
        ),
        (
            "/repos/{owner}/{repo}/pulls/{pull_number}/reviews/{review_id}",
            put(publish::update_review),
        ),
        (
            "/repos/{owner}/{repo}/pulls/{pull_number}/comments",
            get(list_review_comments),
        ),
        (
            "/repos/{owner}/{repo}/pulls/{pull_number}/comments/{comment_id}/replies",
            post(publish::reply),
        ),
        (
            "/repos/{owner}/{repo}/issues/{issue_number}/comments",
            get(list_issue_comments),
        ),
        ("/user", get(get_user)),
    ];
    let mut router = Router::new();
    for (template, method_router) in routes {
        let checked = method_router.layer(middleware::from_fn_with_state(
            (shared.clone(), template),
            check_schema,
        ));
        router = router.route(template, checked);
    }
    // Not in the description's subset: its answer is built from GitHub's documented fields and
    // is not schema-checked.
    router = router.route(
        "/repos/{owner}/{repo}/commits/{ref}/check-runs",
        get(publish::check_runs),
    );
    // Not in the subset either: "Compare two commits" (`BASE...HEAD`), answered with the
    // fields GitHub documents for it that a client needs (the merge base above all), computed
    // by git from the repository.
    router = router.route("/repos/{owner}/{repo}/compare/{basehead}", get(compare));
    // GraphQL: checked against GitHub's GraphQL schema instead (`github_graphql`).
    router = router.route("/graphql", post(super::github_graphql::graphql));
    // Not in the subset either: the request and the answer (a review) follow GitHub's
    // "Dismiss a review for a pull request"; the answer is the review schema, checked by hand
    // in `github_publish`.
    router = router.route(
        "/repos/{owner}/{repo}/pulls/{pull_number}/reviews/{review_id}/dismissals",
        put(publish::dismiss),
    );
    router
        .fallback(|| async { github_error(StatusCode::NOT_FOUND, "Not Found") })
        .layer(middleware::from_fn_with_state(shared.clone(), front_door))
        .with_state(shared)
}

/// A push scheduled for a request: commits on the repository and returns the new head.
type Push = Box<dyn FnOnce(&GitRepo) -> String + Send>;

fn push_on(shared: &Shared, change: impl FnOnce(&GitRepo) -> String) -> String {
    let head = change(&shared.repo);
    let number = {
        let mut pull = lock(&shared.pull);
        pull.head_sha = head.clone();
        pull.number
    };
    let repo = &shared.repo;
    repo.git(&["update-ref", &format!("refs/pull/{number}/head"), &head]);
    let pull = lock(&shared.pull).clone();
    let range = format!("{}...{}", pull.base_sha, pull.head_sha);
    *lock(&shared.diff) = repo.git(&["diff", "--no-color", "-M", &range]);
    *lock(&shared.files) = changed_files(repo, &pull);
    head
}

fn retarget_on(shared: &Shared, base_ref: &str) {
    let base_sha = shared.repo.rev_parse(base_ref);
    {
        let mut pull = lock(&shared.pull);
        pull.base_ref = base_ref.into();
        pull.base_sha = base_sha;
    }
    let pull = lock(&shared.pull).clone();
    let range = format!("{}...{}", pull.base_sha, pull.head_sha);
    *lock(&shared.diff) = shared.repo.git(&["diff", "--no-color", "-M", &range]);
    *lock(&shared.files) = changed_files(&shared.repo, &pull);
}

/// Records the request, then answers with a scripted fault or an auth failure if there is one.
async fn front_door(State(shared): State<Arc<Shared>>, request: Request, next: Next) -> Response {
    let method = request.method().as_str().to_owned();
    let path = request.uri().path().to_owned();
    let (request, graphql_query) = super::github_graphql::peek_query(request).await;
    lock(&shared.requests).push(RecordedRequest {
        method: method.clone(),
        path: path.clone(),
        query: request.uri().query().map(str::to_owned),
        headers: request
            .headers()
            .iter()
            .map(|(k, v)| {
                (
                    k.as_str().to_owned(),
                    v.to_str().unwrap_or("<binary>").to_owned(),
                )
            })
            .collect(),
        graphql_query,
    });
    let due = lock(&shared.pushes_before).remove(&format!("{method} {path}"));
    if let Some(change) = due {
        push_on(&shared, change);
    }
    let retarget = lock(&shared.retargets_before).remove(&format!("{method} {path}"));
    if let Some(base_ref) = retarget {
        retarget_on(&shared, &base_ref);
    }
    if let Some(fault) = next_fault(&shared, &format!("{method} {path}")) {
        return faults::respond(&fault, Dialect::Github, next.run(request)).await;
    }
    if let Some(token) = bearer(request.headers())
        && !lock(&shared.tokens).contains_key(&token)
    {
        return github_error(StatusCode::UNAUTHORIZED, "Bad credentials");
    }
    next.run(request).await
}

fn next_fault(shared: &Shared, call: &str) -> Option<Fault> {
    let mut scripts = lock(&shared.scripts);
    let script = scripts.get_mut(call)?;
    script.queued.pop_front().or_else(|| script.forever.clone())
}

/// Validates each JSON body a route sends against the operation's response schema.
async fn check_schema(
    State((shared, template)): State<(Arc<Shared>, &'static str)>,
    request: Request,
    next: Next,
) -> Response {
    let method = request.method().as_str().to_ascii_lowercase();
    let response = next.run(request).await;
    let is_json = response
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/json"));
    if !is_json || !response.status().is_success() {
        return response;
    }
    let (parts, body) = response.into_parts();
    let bytes = to_bytes(body, usize::MAX)
        .await
        .expect("buffer a response body");
    let status = parts.status.as_u16();
    let verdict = serde_json::from_slice::<Value>(&bytes)
        .map_err(|e| format!("{method} {template}: not JSON: {e}"))
        .and_then(|value| openapi::github().check(&method, template, status, &value));
    if let Err(problem) = verdict {
        lock(&shared.violations).push(problem);
    }
    Response::from_parts(parts, Body::from(bytes))
}

#[derive(Deserialize)]
struct RepoPath {
    owner: String,
    repo: String,
}

#[derive(Deserialize)]
struct PullPath {
    owner: String,
    repo: String,
    #[serde(alias = "issue_number")]
    pull_number: u64,
}

#[derive(Deserialize)]
struct PageQuery {
    per_page: Option<usize>,
    page: Option<usize>,
}

/// The served PR, if the path names it; GitHub answers 404 for anything else.
pub(crate) fn find_pull(
    shared: &Shared,
    owner: &str,
    repo: &str,
    number: Option<u64>,
) -> Option<PullSpec> {
    let pull = lock(&shared.pull).clone();
    let same_repo = pull.owner.eq_ignore_ascii_case(owner) && pull.repo.eq_ignore_ascii_case(repo);
    (same_repo && number.is_none_or(|n| n == pull.number)).then_some(pull)
}

async fn get_repository(State(shared): State<Arc<Shared>>, Path(p): Path<RepoPath>) -> Response {
    match find_pull(&shared, &p.owner, &p.repo, None) {
        Some(pull) => axum::Json(gh::repository(&shared.urls, &pull, true)).into_response(),
        None => not_found(),
    }
}

async fn get_pull(
    State(shared): State<Arc<Shared>>,
    Path(p): Path<PullPath>,
    headers: HeaderMap,
) -> Response {
    let Some(pull) = find_pull(&shared, &p.owner, &p.repo, Some(p.pull_number)) else {
        return not_found();
    };
    let wants_diff = headers
        .get(header::ACCEPT)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.contains("application/vnd.github.diff"));
    if wants_diff {
        let (max_files, max_lines) = *lock(&shared.diff_limits);
        let (count, lines) = {
            let files = lock(&shared.files);
            let lines: usize = files
                .iter()
                .map(|f| (f.additions + f.deletions) as usize)
                .sum();
            (files.len(), lines)
        };
        if count > max_files {
            return publish::real_error(406, "maximum number of files");
        }
        if lines > max_lines {
            return publish::real_error(406, "maximum number of lines");
        }
        let mut response = lock(&shared.diff).clone().into_response();
        set_header(
            &mut response,
            "content-type",
            "application/vnd.github.diff; charset=utf-8",
        );
        return response;
    }
    let files = lock(&shared.files);
    let additions = files.iter().map(|f| f.additions).sum();
    let deletions = files.iter().map(|f| f.deletions).sum();
    let stats = (files.len(), additions, deletions);
    drop(files);
    axum::Json(gh::pull_request(&shared.urls, &pull, stats)).into_response()
}

async fn list_files(
    State(shared): State<Arc<Shared>>,
    Path(p): Path<PullPath>,
    Query(q): Query<PageQuery>,
    request: Request,
) -> Response {
    let Some(pull) = find_pull(&shared, &p.owner, &p.repo, Some(p.pull_number)) else {
        return not_found();
    };
    let items = lock(&shared.files)
        .iter()
        .map(|f| gh::diff_entry(&shared.urls, &pull, f))
        .collect();
    paginate(&shared, request.uri().path(), items, &q)
}

async fn list_reviews(
    State(shared): State<Arc<Shared>>,
    Path(p): Path<PullPath>,
    Query(q): Query<PageQuery>,
    request: Request,
) -> Response {
    let Some(pull) = find_pull(&shared, &p.owner, &p.repo, Some(p.pull_number)) else {
        return not_found();
    };
    let items = pull
        .reviews
        .iter()
        .map(|r| gh::review(&shared.urls, &pull, r))
        .collect();
    paginate(&shared, request.uri().path(), items, &q)
}

async fn list_review_comments(
    State(shared): State<Arc<Shared>>,
    Path(p): Path<PullPath>,
    Query(q): Query<PageQuery>,
    request: Request,
) -> Response {
    let Some(pull) = find_pull(&shared, &p.owner, &p.repo, Some(p.pull_number)) else {
        return not_found();
    };
    let items = pull
        .review_comments
        .iter()
        .map(|c| gh::review_comment(&shared.urls, &pull, c))
        .collect();
    paginate(&shared, request.uri().path(), items, &q)
}

async fn list_issue_comments(
    State(shared): State<Arc<Shared>>,
    Path(p): Path<PullPath>,
    Query(q): Query<PageQuery>,
    request: Request,
) -> Response {
    let Some(pull) = find_pull(&shared, &p.owner, &p.repo, Some(p.pull_number)) else {
        return not_found();
    };
    let items = pull
        .issue_comments
        .iter()
        .map(|c| gh::issue_comment(&shared.urls, &pull, c))
        .collect();
    paginate(&shared, request.uri().path(), items, &q)
}

#[derive(Deserialize)]
struct ComparePath {
    owner: String,
    repo: String,
    basehead: String,
}

async fn compare(State(shared): State<Arc<Shared>>, Path(p): Path<ComparePath>) -> Response {
    if find_pull(&shared, &p.owner, &p.repo, None).is_none() {
        return not_found();
    }
    let Some((base, head)) = p.basehead.split_once("...") else {
        return not_found();
    };
    let repo = &shared.repo;
    let known = |rev: &str| {
        std::process::Command::new("git")
            .args(["cat-file", "-e", &format!("{rev}^{{commit}}")])
            .current_dir(repo.path())
            .status()
            .is_ok_and(|s| s.success())
    };
    if !known(base) || !known(head) {
        return not_found();
    }
    let merge_base = repo.git(&["merge-base", base, head]).trim().to_owned();
    let count = |range: String| -> u64 {
        repo.git(&["rev-list", "--count", &range])
            .trim()
            .parse()
            .unwrap_or(0)
    };
    let ahead = count(format!("{base}..{head}"));
    let behind = count(format!("{head}..{base}"));
    let status = match (ahead, behind) {
        (0, 0) => "identical",
        (_, 0) => "ahead",
        (0, _) => "behind",
        _ => "diverged",
    };
    let commit = |sha: &str| {
        serde_json::json!({
            "sha": sha,
            "url": format!("{}/repos/{}/{}/commits/{sha}", shared.urls.api, p.owner, p.repo),
        })
    };
    axum::Json(serde_json::json!({
        "url": format!("{}/repos/{}/{}/compare/{}", shared.urls.api, p.owner, p.repo, p.basehead),
        "status": status,
        "ahead_by": ahead,
        "behind_by": behind,
        "total_commits": ahead,
        "base_commit": commit(&repo.rev_parse(base)),
        "merge_base_commit": commit(&merge_base),
        "commits": [],
        "files": [],
    }))
    .into_response()
}

async fn get_user(State(shared): State<Arc<Shared>>, headers: HeaderMap) -> Response {
    let token = bearer(&headers);
    if token
        .as_ref()
        .is_some_and(|t| lock(&shared.installation_tokens).contains(t))
    {
        return publish::real_error(403, "Resource not accessible by integration");
    }
    let login = token.and_then(|token| lock(&shared.tokens).get(&token).cloned());
    match login {
        Some(login) => axum::Json(gh::private_user(&shared.urls, &account(&login))).into_response(),
        None => github_error(StatusCode::UNAUTHORIZED, "Requires authentication"),
    }
}

/// One page of `items` with GitHub's `Link` header (first, prev, next, last as they apply).
fn paginate(shared: &Shared, path: &str, items: Vec<Value>, query: &PageQuery) -> Response {
    let per_page = query
        .per_page
        .unwrap_or(DEFAULT_PER_PAGE)
        .clamp(1, MAX_PER_PAGE);
    let page = query.page.unwrap_or(1).max(1);
    let last = items.len().div_ceil(per_page).max(1);
    let slice: Vec<Value> = items
        .into_iter()
        .skip((page - 1) * per_page)
        .take(per_page)
        .collect();
    let link = |n: usize, rel: &str| {
        format!(
            "<{}{path}?per_page={per_page}&page={n}>; rel=\"{rel}\"",
            shared.urls.api
        )
    };
    let mut links = Vec::new();
    if page > 1 {
        links.push(link(page - 1, "prev"));
    }
    if page < last {
        links.push(link(page + 1, "next"));
        links.push(link(last, "last"));
    }
    if page > 1 {
        links.push(link(1, "first"));
    }
    let mut response = axum::Json(Value::Array(slice)).into_response();
    if !links.is_empty() {
        set_header(&mut response, "link", &links.join(", "));
    }
    response
}

/// The account behind a login: apps (`name[bot]`) are `Bot`s.
pub(crate) fn account(login: &str) -> UserSpec {
    if login.ends_with("[bot]") {
        UserSpec::bot(login)
    } else {
        UserSpec::user(login)
    }
}

pub(crate) fn bearer(headers: &HeaderMap) -> Option<String> {
    let value = headers.get(header::AUTHORIZATION)?.to_str().ok()?;
    let token = value
        .strip_prefix("Bearer ")
        .or_else(|| value.strip_prefix("token "))?;
    Some(token.to_owned())
}

pub(crate) fn not_found() -> Response {
    github_error(StatusCode::NOT_FOUND, "Not Found")
}

pub(crate) fn github_error(status: StatusCode, message: &str) -> Response {
    (status, axum::Json(gh::error(message))).into_response()
}

pub(crate) fn set_header(response: &mut Response, name: &'static str, value: &str) {
    response.headers_mut().insert(
        name,
        HeaderValue::from_str(value).expect("a valid header value"),
    );
}

/// The PR's files as GitHub lists them, computed by git from the merge base, like GitHub does.
fn changed_files(repo: &GitRepo, pull: &PullSpec) -> Vec<FileChange> {
    let range = format!("{}...{}", pull.base_sha, pull.head_sha);
    let listing = repo.git(&["diff", "--name-status", "-z", "-M", &range]);
    let mut fields = listing.split('\0').filter(|f| !f.is_empty());
    let mut files = Vec::new();
    while let Some(code) = fields.next() {
        let (status, previous_path, path) = match code.chars().next() {
            Some('R') | Some('C') => {
                let from = fields.next().expect("a rename source").to_owned();
                let to = fields.next().expect("a rename target").to_owned();
                let status = if code.starts_with('R') {
                    "renamed"
                } else {
                    "copied"
                };
                (status, Some(from), to)
            }
            Some(letter) => {
                let path = fields.next().expect("a path").to_owned();
                let status = match letter {
                    'A' => "added",
                    'D' => "removed",
                    'T' => "changed",
                    _ => "modified",
                };
                (status, None, path)
            }
            None => unreachable!("empty fields are filtered"),
        };
        let mut pathspec = vec!["diff", "--no-color", "-M", range.as_str(), "--"];
        pathspec.extend(previous_path.as_deref());
        pathspec.push(&path);
        let full = repo.git(&pathspec);
        let patch = full
            .find("\n@@")
            .map(|start| full[start + 1..].trim_end_matches('\n').to_owned());
        let (additions, deletions) = patch.as_deref().map(count_changes).unwrap_or((0, 0));
        let blob_rev = if status == "removed" {
            format!(
                "{}:{}",
                pull.base_sha,
                previous_path.as_deref().unwrap_or(&path)
            )
        } else {
            format!("{}:{path}", pull.head_sha)
        };
        files.push(FileChange {
            blob_sha: Some(repo.rev_parse(&blob_rev)),
            path,
            previous_path,
            status,
            additions,
            deletions,
            patch,
        });
    }
    files
}

fn count_changes(patch: &str) -> (u32, u32) {
    patch.lines().fold((0, 0), |(add, del), line| {
        if line.starts_with('+') {
            (add + 1, del)
        } else if line.starts_with('-') {
            (add, del + 1)
        } else {
            (add, del)
        }
    })
}

/// GitHub's `created_at` for the n-th item of a generated history, one minute apart.
pub(crate) fn minute_stamp(n: u64) -> String {
    format!(
        "2024-05-0{}T{:02}:{:02}:00Z",
        2 + n / 1440,
        (n / 60) % 24,
        n % 60
    )
}

/// `count` conversation comments by `author`, ids from 1000.
pub(crate) fn many_issue_comments(count: u64, author: &UserSpec) -> Vec<IssueCommentSpec> {
    (0..count)
        .map(|i| IssueCommentSpec {
            id: 1000 + i,
            author: author.clone(),
            body: format!("comment number {i}"),
            created_at: minute_stamp(i),
        })
        .collect()
}
