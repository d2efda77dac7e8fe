//! A pull request's review threads, over GraphQL: REST lists the comments, but only GraphQL's
//! `reviewThreads` says which thread is resolved or outdated. Every page is read, of threads
//! and of each thread's comments.

use std::collections::HashSet;

use serde::Deserialize;
use serde_json::json;

use super::{Call, GithubError, GithubForge};
use crate::diff::Side;
use crate::pr::forge::is_bot;
use crate::pr::threads::{ReviewThread, ThreadComment};

/// GitHub's largest page.
const PAGE: u32 = 100;

/// The fields of one comment; the same in both queries.
const COMMENT_FIELDS: &str = "pageInfo { hasNextPage endCursor } \
     nodes { fullDatabaseId body createdAt author { __typename login } }";

fn threads_query() -> String {
    format!(
        "query ReviewThreads($owner: String!, $name: String!, $number: Int!, $after: String) {{ \
         repository(owner: $owner, name: $name) {{ pullRequest(number: $number) {{ \
         reviewThreads(first: {PAGE}, after: $after) {{ pageInfo {{ hasNextPage endCursor }} \
         nodes {{ id isResolved isOutdated path line startLine originalLine diffSide \
         comments(first: {PAGE}) {{ {COMMENT_FIELDS} }} }} }} }} }} }}"
    )
}

fn comments_query() -> String {
    format!(
        "query ThreadComments($id: ID!, $after: String) {{ node(id: $id) {{ \
         ... on PullRequestReviewThread {{ comments(first: {PAGE}, after: $after) {{ \
         {COMMENT_FIELDS} }} }} }} }}"
    )
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct PageInfo {
    has_next_page: bool,
    end_cursor: Option<String>,
}

#[derive(Debug, Deserialize)]
struct Connection<T> {
    #[serde(rename = "pageInfo")]
    page_info: PageInfo,
    /// GraphQL lists hold `null` for what the token may not see.
    nodes: Vec<Option<T>>,
}

#[derive(Debug, Deserialize)]
struct ThreadsData {
    repository: Option<RepositoryNode>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct RepositoryNode {
    pull_request: Option<PullNode>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct PullNode {
    review_threads: Connection<ThreadNode>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct ThreadNode {
    id: String,
    is_resolved: bool,
    is_outdated: bool,
    path: String,
    line: Option<u32>,
    start_line: Option<u32>,
    original_line: Option<u32>,
    diff_side: String,
    comments: Connection<CommentNode>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct CommentNode {
    /// A `BigInt`, which GitHub sends as a string.
    full_database_id: Option<serde_json::Value>,
    body: String,
    created_at: String,
    /// `null` for a deleted account.
    author: Option<Actor>,
}

#[derive(Debug, Deserialize)]
struct Actor {
    #[serde(rename = "__typename")]
    typename: String,
    login: String,
}

#[derive(Debug, Deserialize)]
struct NodeData {
    node: Option<CommentsOnly>,
}

#[derive(Debug, Deserialize)]
struct CommentsOnly {
    comments: Connection<CommentNode>,
}

impl CommentNode {
    fn into_forge(self) -> ThreadComment {
        let id = match &self.full_database_id {
            Some(serde_json::Value::String(s)) => s.parse().ok(),
            Some(serde_json::Value::Number(n)) => n.as_u64(),
            _ => None,
        };
        let (author, author_is_bot) = match &self.author {
            Some(a) => (a.login.clone(), is_bot(&a.login, Some(&a.typename))),
            None => ("ghost".to_owned(), false),
        };
        ThreadComment {
            id,
            author,
            author_is_bot,
            body: self.body,
            created_at: self.created_at,
        }
    }
}

/// Follows a connection's cursor; a cursor seen before is a loop, not a page.
fn next_cursor(
    info: &PageInfo,
    seen: &mut HashSet<String>,
    call: &Call,
    what: &str,
) -> Result<Option<String>, GithubError> {
    if !info.has_next_page {
        return Ok(None);
    }
    match &info.end_cursor {
        Some(cursor) if seen.insert(cursor.clone()) => Ok(Some(cursor.clone())),
        _ => Err(GithubError::Decode {
            call: call.clone(),
            detail: format!("the pages of {what} loop back to a page already read"),
        }),
    }
}

impl GithubForge {
    fn graphql_call(&self) -> Call {
        let url = self.client.graphql_endpoint();
        let host = match url.port() {
            Some(port) => format!("{}:{port}", url.host_str().unwrap_or("?")),
            None => url.host_str().unwrap_or("?").to_owned(),
        };
        Call::new("POST", url.path(), &host)
    }

    /// Every review thread of the PR with every comment, in GitHub's order. GitHub's GraphQL
    /// API takes no anonymous calls: without a token the threads are the REST API's review
    /// comments, grouped by what each replies to, their resolution unknown.
    pub async fn review_threads(&self) -> Result<Vec<ReviewThread>, GithubError> {
        if !self.client.has_token() {
            return self.review_threads_rest().await;
        }
        let what = format!("the review threads of {}", self.describe_pr());
        let query = threads_query();
        let mut threads = Vec::new();
        let mut after: Option<String> = None;
        let mut seen = HashSet::new();
        loop {
            let data: ThreadsData = self
                .client
                .graphql(
                    &query,
                    json!({
                        "owner": self.owner,
                        "name": self.repo,
                        "number": self.number,
                        "after": after,
                    }),
                    &what,
                )
                .await?;
            let Some(pull) = data.repository.and_then(|r| r.pull_request) else {
                return Err(GithubError::Decode {
                    call: self.graphql_call(),
                    detail: format!("no {} in the answer", self.describe_pr()),
                });
            };
            let page = pull.review_threads;
            for node in page.nodes.into_iter().flatten() {
                threads.push(self.thread(node, &what).await?);
            }
            match next_cursor(
                &page.page_info,
                &mut seen,
                &self.graphql_call(),
                "review threads",
            )? {
                Some(cursor) => after = Some(cursor),
                None => return Ok(threads),
            }
        }
    }

    /// `resolveReviewThread` / `unresolveReviewThread`. Asking for what already holds is no
    /// change on GitHub, so a repeated call after a crash does no harm.
    pub async fn resolve_thread(&self, thread_id: &str, resolved: bool) -> Result<(), GithubError> {
        let mutation = if resolved {
            "resolveReviewThread"
        } else {
            "unresolveReviewThread"
        };
        let input = if resolved {
            "ResolveReviewThreadInput"
        } else {
            "UnresolveReviewThreadInput"
        };
        let query = format!(
            "mutation Resolve($input: {input}!) {{ {mutation}(input: $input) {{ \
             thread {{ id isResolved }} }} }}"
        );
        let what = format!("review thread {thread_id} of {}", self.describe_pr());
        let _: serde_json::Value = self
            .client
            .graphql(&query, json!({ "input": { "threadId": thread_id } }), &what)
            .await?;
        Ok(())
    }

    async fn thread(&self, node: ThreadNode, what: &str) -> Result<ReviewThread, GithubError> {
        let mut comments: Vec<ThreadComment> = Vec::new();
        let mut page = node.comments;
        let mut seen = HashSet::new();
        loop {
            comments.extend(
                page.nodes
                    .into_iter()
                    .flatten()
                    .map(CommentNode::into_forge),
            );
            let Some(cursor) = next_cursor(
                &page.page_info,
                &mut seen,
                &self.graphql_call(),
                "a thread's comments",
            )?
            else {
                break;
            };
            let data: NodeData = self
                .client
                .graphql(
                    &comments_query(),
                    json!({ "id": node.id, "after": cursor }),
                    what,
                )
                .await?;
            page = match data.node {
                Some(more) => more.comments,
                None => break,
            };
        }
        Ok(ReviewThread {
            id: node.id,
            path: node.path,
            line: node.line,
            start_line: node.start_line,
            original_line: node.original_line,
            side: if node.diff_side == "LEFT" {
                Side::Left
            } else {
                Side::Right
            },
            resolved: node.is_resolved,
            outdated: node.is_outdated,
            resolution_unknown: false,
            comments,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_comment_keeps_its_rest_id_and_knows_a_bot() {
        let node: CommentNode = serde_json::from_value(json!({
            "fullDatabaseId": "1234567890123",
            "body": "b",
            "createdAt": "2026-01-01T00:00:00Z",
            "author": { "__typename": "Bot", "login": "dependabot" }
        }))
        .unwrap();
        let comment = node.into_forge();
        assert_eq!(comment.id, Some(1_234_567_890_123));
        assert!(comment.author_is_bot);
        let ghost: CommentNode = serde_json::from_value(json!({
            "fullDatabaseId": null, "body": "", "createdAt": "x", "author": null
        }))
        .unwrap();
        assert_eq!(ghost.into_forge().author, "ghost");
    }

    #[test]
    fn a_cursor_seen_twice_is_refused() {
        let info = PageInfo {
            has_next_page: true,
            end_cursor: Some("c1".into()),
        };
        let mut seen = HashSet::new();
        let call = Call::new("POST", "/graphql", "h");
        assert_eq!(
            next_cursor(&info, &mut seen, &call, "x").unwrap(),
            Some("c1".into())
        );
        assert!(next_cursor(&info, &mut seen, &call, "x").is_err());
    }
}
