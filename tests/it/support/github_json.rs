//! GitHub-shaped JSON for the fake server, with every field GitHub's schema marks required.
//! `openapi.rs` checks each document against the real schema, so a missing field fails a test.

use serde_json::{Value, json};

use super::github_server::{IssueCommentSpec, PullSpec, ReviewCommentSpec, ReviewSpec, UserSpec};

const STAMP: &str = "2024-05-01T12:00:00Z";

/// Where the fake lives, for the URLs GitHub embeds everywhere.
pub(crate) struct Urls {
    /// The API base, e.g. `http://127.0.0.1:4321`.
    pub api: String,
    /// The web UI base that `html_url`s point at; nothing serves it.
    pub web: String,
}

impl Urls {
    fn repo_api(&self, owner: &str, repo: &str) -> String {
        format!("{}/repos/{owner}/{repo}", self.api)
    }
}

/// A stable positive id derived from a name, so users keep their id across calls.
fn id_of(name: &str) -> u64 {
    name.bytes().fold(1469598103u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(1099511628211)
    }) % 1_000_000_000
        + 1
}

pub(crate) fn simple_user(urls: &Urls, user: &UserSpec) -> Value {
    // App logins end in `[bot]`; GitHub percent-encodes the brackets in its URLs.
    let in_url = user.login.replace('[', "%5B").replace(']', "%5D");
    let api = format!("{}/users/{in_url}", urls.api);
    json!({
        "login": user.login,
        "id": id_of(&user.login),
        "node_id": format!("U_{}", id_of(&user.login)),
        "avatar_url": format!("{}/avatars/{in_url}", urls.web),
        "gravatar_id": "",
        "url": api,
        "html_url": format!("{}/{in_url}", urls.web),
        "followers_url": format!("{api}/followers"),
        "following_url": format!("{api}/following{{/other_user}}"),
        "gists_url": format!("{api}/gists{{/gist_id}}"),
        "starred_url": format!("{api}/starred{{/owner}}{{/repo}}"),
        "subscriptions_url": format!("{api}/subscriptions"),
        "organizations_url": format!("{api}/orgs"),
        "repos_url": format!("{api}/repos"),
        "events_url": format!("{api}/events{{/privacy}}"),
        "received_events_url": format!("{api}/received_events"),
        "type": user.account_type,
        "site_admin": false,
        "user_view_type": "public",
    })
}

/// `GET /user` for a token's owner: the private profile, as GitHub returns to the user itself.
pub(crate) fn private_user(urls: &Urls, user: &UserSpec) -> Value {
    let mut value = simple_user(urls, user);
    let extra = json!({
        "user_view_type": "private",
        "name": user.login,
        "company": null,
        "blog": "",
        "location": null,
        "email": null,
        "hireable": null,
        "bio": null,
        "public_repos": 1,
        "public_gists": 0,
        "followers": 0,
        "following": 0,
        "created_at": STAMP,
        "updated_at": STAMP,
        "private_gists": 0,
        "total_private_repos": 0,
        "owned_private_repos": 0,
        "disk_usage": 0,
        "collaborators": 0,
        "two_factor_authentication": true,
    });
    merge(&mut value, extra);
    value
}

/// The `repository` schema (inside a PR's base and head), or `full-repository` with `full`.
pub(crate) fn repository(urls: &Urls, pull: &PullSpec, full: bool) -> Value {
    let (owner, name) = (&pull.owner, &pull.repo);
    let api = urls.repo_api(owner, name);
    let owner_user = UserSpec::user(owner);
    let mut value = json!({
        "id": id_of(&format!("{owner}/{name}")),
        "node_id": format!("R_{}", id_of(&format!("{owner}/{name}"))),
        "name": name,
        "full_name": format!("{owner}/{name}"),
        "owner": simple_user(urls, &owner_user),
        "private": false,
        "html_url": format!("{}/{owner}/{name}", urls.web),
        "description": null,
        "fork": false,
        "url": api,
        "clone_url": pull.clone_url,
        "git_url": format!("git://example.invalid/{owner}/{name}.git"),
        "ssh_url": format!("git@example.invalid:{owner}/{name}.git"),
        "svn_url": format!("{}/{owner}/{name}", urls.web),
        "mirror_url": null,
        "homepage": null,
        "language": "Rust",
        "forks": 0,
        "forks_count": 0,
        "stargazers_count": 0,
        "watchers": 0,
        "watchers_count": 0,
        "size": 1,
        "default_branch": pull.base_ref,
        "open_issues": 1,
        "open_issues_count": 1,
        "has_issues": true,
        "has_projects": false,
        "has_wiki": false,
        "has_pages": false,
        "has_downloads": true,
        "archived": false,
        "disabled": false,
        "license": null,
        "pushed_at": STAMP,
        "created_at": STAMP,
        "updated_at": STAMP,
    });
    // The many templated URLs GitHub includes in every repository object.
    for (field, suffix) in [
        ("archive_url", "/{archive_format}{/ref}"),
        ("assignees_url", "/assignees{/user}"),
        ("blobs_url", "/git/blobs{/sha}"),
        ("branches_url", "/branches{/branch}"),
        ("collaborators_url", "/collaborators{/collaborator}"),
        ("comments_url", "/comments{/number}"),
        ("commits_url", "/commits{/sha}"),
        ("compare_url", "/compare/{base}...{head}"),
        ("contents_url", "/contents/{+path}"),
        ("contributors_url", "/contributors"),
        ("deployments_url", "/deployments"),
        ("downloads_url", "/downloads"),
        ("events_url", "/events"),
        ("forks_url", "/forks"),
        ("git_commits_url", "/git/commits{/sha}"),
        ("git_refs_url", "/git/refs{/sha}"),
        ("git_tags_url", "/git/tags{/sha}"),
        ("hooks_url", "/hooks"),
        ("issue_comment_url", "/issues/comments{/number}"),
        ("issue_events_url", "/issues/events{/number}"),
        ("issues_url", "/issues{/number}"),
        ("keys_url", "/keys{/key_id}"),
        ("labels_url", "/labels{/name}"),
        ("languages_url", "/languages"),
        ("merges_url", "/merges"),
        ("milestones_url", "/milestones{/number}"),
        (
            "notifications_url",
            "/notifications{?since,all,participating}",
        ),
        ("pulls_url", "/pulls{/number}"),
        ("releases_url", "/releases{/id}"),
        ("stargazers_url", "/stargazers"),
        ("statuses_url", "/statuses/{sha}"),
        ("subscribers_url", "/subscribers"),
        ("subscription_url", "/subscription"),
        ("tags_url", "/tags"),
        ("teams_url", "/teams"),
        ("trees_url", "/git/trees{/sha}"),
    ] {
        value[field] = json!(format!("{api}{suffix}"));
    }
    if full {
        merge(
            &mut value,
            json!({ "has_discussions": false, "network_count": 0, "subscribers_count": 0 }),
        );
    }
    value
}

/// The `pull-request` schema. `stats` is (changed files, additions, deletions).
pub(crate) fn pull_request(urls: &Urls, pull: &PullSpec, stats: (usize, u32, u32)) -> Value {
    let (owner, name, n) = (&pull.owner, &pull.repo, pull.number);
    let api = urls.repo_api(owner, name);
    let html = format!("{}/{owner}/{name}/pull/{n}", urls.web);
    let repo = repository(urls, pull, false);
    let author = simple_user(urls, &pull.author);
    let owner_user = simple_user(urls, &UserSpec::user(owner));
    let branch = |ref_name: &str, sha: &str| {
        json!({
            "label": format!("{owner}:{ref_name}"),
            "ref": ref_name,
            "sha": sha,
            "user": owner_user,
            "repo": repo,
        })
    };
    let merged_at = pull.merged.then_some(STAMP);
    let closed_at = (pull.state == "closed").then_some(STAMP);
    let link = |href: String| json!({ "href": href });
    let links = json!({
        "self": link(format!("{api}/pulls/{n}")),
        "html": link(html.clone()),
        "issue": link(format!("{api}/issues/{n}")),
        "comments": link(format!("{api}/issues/{n}/comments")),
        "review_comments": link(format!("{api}/pulls/{n}/comments")),
        "review_comment": link(format!("{api}/pulls/comments{{/number}}")),
        "commits": link(format!("{api}/pulls/{n}/commits")),
        "statuses": link(format!("{api}/statuses/{}", pull.head_sha)),
    });
    let mut value = json!({
        "url": format!("{api}/pulls/{n}"),
        "id": id_of(&format!("{owner}/{name}#{n}")),
        "node_id": format!("PR_{n}"),
        "html_url": html,
        "diff_url": format!("{html}.diff"),
        "patch_url": format!("{html}.patch"),
        "issue_url": format!("{api}/issues/{n}"),
        "commits_url": format!("{api}/pulls/{n}/commits"),
        "review_comments_url": format!("{api}/pulls/{n}/comments"),
        "review_comment_url": format!("{api}/pulls/comments{{/number}}"),
        "comments_url": format!("{api}/issues/{n}/comments"),
        "statuses_url": format!("{api}/statuses/{}", pull.head_sha),
        "number": n,
        "state": pull.state,
        "locked": false,
        "title": pull.title,
        "user": author,
        "body": pull.body,
        "labels": [],
        "milestone": null,
        "active_lock_reason": null,
        "created_at": STAMP,
        "updated_at": STAMP,
        "closed_at": closed_at,
        "merged_at": merged_at,
        "merge_commit_sha": null,
        "assignee": null,
        "assignees": [],
        "requested_reviewers": [],
        "requested_teams": [],
        "head": branch(&pull.head_ref, &pull.head_sha),
        "base": branch(&pull.base_ref, &pull.base_sha),
        "_links": links,
    });
    merge(
        &mut value,
        json!({
            "author_association": "CONTRIBUTOR",
            "auto_merge": null,
            "draft": pull.draft,
            "merged": pull.merged,
            "mergeable": null,
            "rebaseable": null,
            "mergeable_state": "unknown",
            "merged_by": null,
            "comments": pull.issue_comments.len(),
            "review_comments": pull.review_comments.len(),
            "maintainer_can_modify": false,
            "commits": 1,
            "additions": stats.1,
            "deletions": stats.2,
            "changed_files": stats.0,
        }),
    );
    value
}

/// One file of the diff, as `git` computed it; see `github_server::changed_files`.
pub(crate) struct FileChange {
    pub path: String,
    pub previous_path: Option<String>,
    pub status: &'static str,
    pub additions: u32,
    pub deletions: u32,
    pub patch: Option<String>,
    pub blob_sha: Option<String>,
}

pub(crate) fn diff_entry(urls: &Urls, pull: &PullSpec, file: &FileChange) -> Value {
    let api = urls.repo_api(&pull.owner, &pull.repo);
    let web = format!("{}/{}/{}", urls.web, pull.owner, pull.repo);
    let mut value = json!({
        "sha": file.blob_sha,
        "filename": file.path,
        "status": file.status,
        "additions": file.additions,
        "deletions": file.deletions,
        "changes": file.additions + file.deletions,
        "blob_url": format!("{web}/blob/{}/{}", pull.head_sha, file.path),
        "raw_url": format!("{web}/raw/{}/{}", pull.head_sha, file.path),
        "contents_url": format!("{api}/contents/{}?ref={}", file.path, pull.head_sha),
    });
    if let Some(patch) = &file.patch {
        value["patch"] = json!(patch);
    }
    if let Some(previous) = &file.previous_path {
        value["previous_filename"] = json!(previous);
    }
    value
}

pub(crate) fn review(urls: &Urls, pull: &PullSpec, review: &ReviewSpec) -> Value {
    let api = urls.repo_api(&pull.owner, &pull.repo);
    let html = format!(
        "{}/{}/{}/pull/{}#pullrequestreview-{}",
        urls.web, pull.owner, pull.repo, pull.number, review.id
    );
    let pull_url = format!("{api}/pulls/{}", pull.number);
    let mut value = json!({
        "id": review.id,
        "node_id": format!("PRR_{}", review.id),
        "user": simple_user(urls, &review.author),
        "body": review.body,
        "state": review.state,
        "html_url": html,
        "pull_request_url": pull_url,
        "_links": { "html": { "href": html }, "pull_request": { "href": pull_url } },
        "commit_id": review.commit_id,
        "author_association": "CONTRIBUTOR",
    });
    if review.state != "PENDING" {
        value["submitted_at"] = json!(STAMP);
    }
    value
}

pub(crate) fn review_comment(urls: &Urls, pull: &PullSpec, comment: &ReviewCommentSpec) -> Value {
    let api = urls.repo_api(&pull.owner, &pull.repo);
    let url = format!("{api}/pulls/comments/{}", comment.id);
    let html = format!(
        "{}/{}/{}/pull/{}#discussion_r{}",
        urls.web, pull.owner, pull.repo, pull.number, comment.id
    );
    let pull_url = format!("{api}/pulls/{}", pull.number);
    let mut value = json!({
        "url": url,
        "pull_request_review_id": comment.review_id,
        "id": comment.id,
        "node_id": format!("PRRC_{}", comment.id),
        "diff_hunk": "@@ -1,3 +1,3 @@",
        "path": comment.path,
        "commit_id": comment.commit_id,
        "original_commit_id": comment.commit_id,
        "user": simple_user(urls, &comment.author),
        "body": comment.body,
        "created_at": comment.created_at,
        "updated_at": comment.created_at,
        "html_url": html,
        "pull_request_url": pull_url,
        "author_association": "CONTRIBUTOR",
        "_links": {
            "self": { "href": url },
            "html": { "href": html },
            "pull_request": { "href": pull_url },
        },
        "start_line": null,
        "original_start_line": null,
        "start_side": null,
        "line": comment.line,
        "original_line": comment.line,
        "side": comment.side,
        "subject_type": "line",
    });
    if let Some(parent) = comment.in_reply_to {
        value["in_reply_to_id"] = json!(parent);
    }
    value
}

pub(crate) fn issue_comment(urls: &Urls, pull: &PullSpec, comment: &IssueCommentSpec) -> Value {
    let api = urls.repo_api(&pull.owner, &pull.repo);
    json!({
        "id": comment.id,
        "node_id": format!("IC_{}", comment.id),
        "url": format!("{api}/issues/comments/{}", comment.id),
        "html_url": format!(
            "{}/{}/{}/pull/{}#issuecomment-{}",
            urls.web, pull.owner, pull.repo, pull.number, comment.id
        ),
        "body": comment.body,
        "user": simple_user(urls, &comment.author),
        "created_at": comment.created_at,
        "updated_at": comment.created_at,
        "issue_url": format!("{api}/issues/{}", pull.number),
        "author_association": "CONTRIBUTOR",
    })
}

/// GitHub's error body.
pub(crate) fn error(message: &str) -> Value {
    json!({
        "message": message,
        "documentation_url": "https://docs.github.com/rest",
        "status": "error",
    })
}

fn merge(target: &mut Value, extra: Value) {
    if let (Value::Object(target), Value::Object(extra)) = (target, extra) {
        target.extend(extra);
    }
}
