//! A GitHub-like search API in front of several [`GithubServer`]s, one pull request each: the
//! inbox's test server. It answers `GET /user` and `GET /search/issues` itself (paginated, with
//! `review-requested:@me`, `author:@me` and `is:open` read from `q`), and passes every
//! `/repos/OWNER/REPO/...` call to the server of that repository, so each PR is read, fetched
//! and schema-checked exactly as a single PR is. The PR read through it carries the review
//! requests (`requested_reviewers`, `requested_teams`) and the commit count its entry says.
//!
//! Search results follow GitHub's `issue-search-result-item` (descriptions/api.github.com in
//! github/rest-api-description): every required field is sent, and
//! [`check_search_item`] holds the list so a test fails if one goes missing.

use std::sync::{Arc, Mutex};

use axum::Router;
use axum::body::{Body, to_bytes};
use axum::extract::{Query, Request, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use serde::Deserialize;
use serde_json::{Value, json};

use super::github_json::{self as gh, Urls};
use super::github_server::{GithubServer, UserSpec, bearer, github_error, lock, set_header};
use super::serve::{self, Served};

/// Why a PR is listed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Requested {
    /// My review is requested.
    Me,
    /// A team of mine is requested (its slug).
    Team(String),
    /// I opened it.
    Authored,
}

pub(crate) struct InboxPull {
    pub server: Arc<GithubServer>,
    pub requested: Requested,
    pub updated_at: String,
}

struct Shared {
    url: String,
    login: String,
    token: String,
    pulls: Mutex<Vec<InboxPull>>,
    page_size: Mutex<usize>,
    searches: Mutex<Vec<String>>,
    http: reqwest::Client,
}

pub(crate) struct InboxServer {
    shared: Arc<Shared>,
    served: Served,
}

impl InboxServer {
    /// Serves the search for `login`, who authenticates with `token` (every backend accepts
    /// it too).
    pub(crate) fn start(login: &str, token: &str, pulls: Vec<InboxPull>) -> InboxServer {
        for pull in &pulls {
            pull.server.accept_token(token, login);
        }
        let (listener, url) = serve::listen();
        let shared = Arc::new(Shared {
            url,
            login: login.into(),
            token: token.into(),
            pulls: Mutex::new(pulls),
            page_size: Mutex::new(100),
            searches: Mutex::default(),
            http: {
                let _ = rustls::crypto::ring::default_provider().install_default();
                reqwest::Client::new()
            },
        });
        let app = Router::new()
            .route("/user", get(get_user))
            .route("/search/issues", get(search))
            .fallback(proxy)
            .with_state(shared.clone());
        let served = Served::start(listener, app);
        InboxServer { shared, served }
    }

    pub(crate) fn url(&self) -> &str {
        &self.shared.url
    }

    /// Search pages of at most `n` items, whatever `per_page` asks.
    pub(crate) fn page_size(&self, n: usize) {
        *lock(&self.shared.page_size) = n.max(1);
    }

    /// The `q` of every search, in order.
    pub(crate) fn searches(&self) -> Vec<String> {
        lock(&self.shared.searches).clone()
    }

    /// The backend of PR `i` (in the order given).
    pub(crate) fn pull(&self, i: usize) -> Arc<GithubServer> {
        lock(&self.shared.pulls)[i].server.clone()
    }
}

impl Drop for InboxServer {
    fn drop(&mut self) {
        self.served.stop();
    }
}

fn urls(shared: &Shared) -> Urls {
    Urls {
        api: shared.url.clone(),
        web: "https://github.example".into(),
    }
}

fn authorised(shared: &Shared, headers: &HeaderMap) -> bool {
    bearer(headers).is_some_and(|t| t == shared.token)
}

async fn get_user(State(shared): State<Arc<Shared>>, headers: HeaderMap) -> Response {
    if !authorised(&shared, &headers) {
        return github_error(StatusCode::UNAUTHORIZED, "Requires authentication");
    }
    axum::Json(gh::private_user(
        &urls(&shared),
        &UserSpec::user(&shared.login),
    ))
    .into_response()
}

#[derive(Deserialize)]
struct SearchQuery {
    q: String,
    per_page: Option<usize>,
    page: Option<usize>,
}

async fn search(
    State(shared): State<Arc<Shared>>,
    headers: HeaderMap,
    Query(query): Query<SearchQuery>,
) -> Response {
    if !authorised(&shared, &headers) {
        return github_error(StatusCode::UNAUTHORIZED, "Requires authentication");
    }
    lock(&shared.searches).push(query.q.clone());
    let words: Vec<&str> = query.q.split_whitespace().collect();
    let requested = words.contains(&"review-requested:@me");
    let authored = words.contains(&"author:@me");
    let open_only = words.contains(&"is:open");
    let urls = urls(&shared);
    let items: Vec<Value> = lock(&shared.pulls)
        .iter()
        .filter(|p| {
            let listed = match p.requested {
                Requested::Me | Requested::Team(_) => requested,
                Requested::Authored => authored,
            };
            listed && (!open_only || p.server.pull().state == "open")
        })
        .map(|p| search_item(&urls, p))
        .collect();
    let per_page = query
        .per_page
        .unwrap_or(30)
        .min(*lock(&shared.page_size))
        .max(1);
    let page = query.page.unwrap_or(1).max(1);
    let last = items.len().div_ceil(per_page).max(1);
    let total = items.len();
    let slice: Vec<Value> = items
        .into_iter()
        .skip((page - 1) * per_page)
        .take(per_page)
        .collect();
    let mut response = axum::Json(json!({
        "total_count": total,
        "incomplete_results": false,
        "items": slice,
    }))
    .into_response();
    if page < last {
        let mut next = reqwest::Url::parse(&format!("{}/search/issues", shared.url)).unwrap();
        next.query_pairs_mut()
            .append_pair("q", &query.q)
            .append_pair("per_page", &per_page.to_string())
            .append_pair("page", &(page + 1).to_string());
        set_header(&mut response, "link", &format!("<{next}>; rel=\"next\""));
    }
    response
}

/// One `issue-search-result-item` for a PR.
fn search_item(urls: &Urls, entry: &InboxPull) -> Value {
    let pull = entry.server.pull();
    let api = format!("{}/repos/{}/{}", urls.api, pull.owner, pull.repo);
    let n = pull.number;
    let html = format!("{}/{}/{}/pull/{n}", urls.web, pull.owner, pull.repo);
    let item = json!({
        "url": format!("{api}/issues/{n}"),
        "repository_url": api,
        "labels_url": format!("{api}/issues/{n}/labels{{/name}}"),
        "comments_url": format!("{api}/issues/{n}/comments"),
        "events_url": format!("{api}/issues/{n}/events"),
        "html_url": html,
        "id": 9000 + n,
        "node_id": format!("PR_{n}"),
        "number": n,
        "title": pull.title,
        "locked": false,
        "user": gh::simple_user(urls, &pull.author),
        "labels": [],
        "state": pull.state,
        "assignee": null,
        "milestone": null,
        "comments": 0,
        "created_at": "2026-01-01T00:00:00Z",
        "updated_at": entry.updated_at,
        "closed_at": null,
        "score": 1.0,
        "author_association": "MEMBER",
        "draft": pull.draft,
        "pull_request": {
            "url": format!("{api}/pulls/{n}"),
            "html_url": html,
            "diff_url": format!("{html}.diff"),
            "patch_url": format!("{html}.patch"),
            "merged_at": null,
        },
    });
    check_search_item(&item);
    item
}

/// The fields GitHub's `issue-search-result-item` requires.
pub(crate) fn check_search_item(item: &Value) {
    for field in [
        "url",
        "repository_url",
        "labels_url",
        "comments_url",
        "events_url",
        "html_url",
        "id",
        "node_id",
        "number",
        "title",
        "locked",
        "assignee",
        "milestone",
        "comments",
        "created_at",
        "updated_at",
        "closed_at",
        "user",
        "labels",
        "state",
        "score",
        "author_association",
    ] {
        assert!(
            item.get(field).is_some(),
            "issue-search-result-item without `{field}`"
        );
    }
}

/// `/repos/OWNER/REPO/...` goes to that repository's server; the PR itself comes back with the
/// review requests and the commit count of its entry.
async fn proxy(State(shared): State<Arc<Shared>>, request: Request) -> Response {
    let path = request.uri().path().to_string();
    let query = request.uri().query().map(str::to_owned);
    let parts: Vec<&str> = path.trim_start_matches('/').split('/').collect();
    if parts.len() < 3 || parts[0] != "repos" {
        return github_error(StatusCode::NOT_FOUND, "Not Found");
    }
    let found = lock(&shared.pulls).iter().find_map(|p| {
        let pull = p.server.pull();
        (pull.owner.eq_ignore_ascii_case(parts[1]) && pull.repo.eq_ignore_ascii_case(parts[2]))
            .then(|| (p.server.url().to_string(), p.requested.clone(), pull))
    });
    let Some((backend, requested, pull)) = found else {
        return github_error(StatusCode::NOT_FOUND, "Not Found");
    };
    let method = request.method().clone();
    let headers = request.headers().clone();
    let body = to_bytes(request.into_body(), usize::MAX)
        .await
        .unwrap_or_default();
    let target = match &query {
        Some(q) => format!("{backend}{path}?{q}"),
        None => format!("{backend}{path}"),
    };
    let mut outgoing = shared.http.request(
        reqwest::Method::from_bytes(method.as_str().as_bytes()).unwrap(),
        &target,
    );
    for name in [header::AUTHORIZATION, header::ACCEPT, header::CONTENT_TYPE] {
        if let Some(value) = headers.get(&name) {
            outgoing = outgoing.header(name.as_str(), value.to_str().unwrap_or(""));
        }
    }
    if let Some(v) = headers.get("x-github-api-version") {
        outgoing = outgoing.header("x-github-api-version", v.to_str().unwrap_or(""));
    }
    let answer = match outgoing.body(body.to_vec()).send().await {
        Ok(answer) => answer,
        Err(_) => return github_error(StatusCode::BAD_GATEWAY, "backend unreachable"),
    };
    let status = answer.status().as_u16();
    let content_type = answer
        .headers()
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned);
    let link = answer
        .headers()
        .get("link")
        .and_then(|v| v.to_str().ok())
        .map(|l| l.replace(&backend, &shared.url));
    let mut bytes = answer.bytes().await.unwrap_or_default().to_vec();
    let is_pull = parts.len() == 5 && parts[3] == "pulls";
    if is_pull
        && status == 200
        && content_type
            .as_deref()
            .is_some_and(|c| c.starts_with("application/json"))
        && let Ok(mut value) = serde_json::from_slice::<Value>(&bytes)
    {
        let urls = urls(&shared);
        value["requested_reviewers"] = match &requested {
            Requested::Me => json!([gh::simple_user(&urls, &UserSpec::user(&shared.login))]),
            _ => json!([]),
        };
        value["requested_teams"] = match &requested {
            Requested::Team(slug) => json!([{
                "id": 77, "node_id": "T_77", "url": format!("{}/teams/{slug}", urls.api),
                "members_url": "", "name": slug, "slug": slug, "description": null,
                "privacy": "closed", "permission": "pull", "html_url": "", "repositories_url": "",
                "parent": null,
            }]),
            _ => json!([]),
        };
        value["commits"] = json!(commit_count(
            &pull.clone_url,
            &pull.base_sha,
            &pull.head_sha
        ));
        bytes = serde_json::to_vec(&value).unwrap();
    }
    let mut response = Response::new(Body::from(bytes));
    *response.status_mut() = StatusCode::from_u16(status).unwrap_or(StatusCode::BAD_GATEWAY);
    if let Some(content_type) = content_type {
        set_header(&mut response, "content-type", &content_type);
    }
    if let Some(link) = link {
        set_header(&mut response, "link", &link);
    }
    response
}

/// Commits on the PR: `base..head` in its repository (a `file://` clone URL).
fn commit_count(clone_url: &str, base: &str, head: &str) -> u32 {
    let path = clone_url.trim_start_matches("file://");
    std::process::Command::new("git")
        .args([
            "-C",
            path,
            "rev-list",
            "--count",
            &format!("{base}..{head}"),
        ])
        .output()
        .ok()
        .and_then(|o| String::from_utf8_lossy(&o.stdout).trim().parse().ok())
        .unwrap_or(1)
}
