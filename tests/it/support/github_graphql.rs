//! The GitHub test server's `POST /graphql`: the pull request's review threads
//! (`reviewThreads`, with `isResolved`/`isOutdated`, paged by 100 at most) and the
//! `resolveReviewThread`/`unresolveReviewThread` mutations.
//!
//! Every query is checked against GitHub's published schema (the extract in
//! tests/fixtures/github/graphql-review-threads.graphql): a field or an argument the schema
//! does not have is a violation, which fails the test when the server is dropped, and is
//! answered as GitHub answers it (an `errors` list). An answer holds only the fields asked for,
//! so a client that reads a field it did not ask for fails to decode.
//!
//! A thread is built on the REST review comments (`PullSpec::review_comments`): its root
//! comment and every reply to it, so a reply posted over REST shows in the thread.

use std::collections::HashMap;
use std::sync::{Arc, LazyLock};

use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use serde_json::{Map, Value, json};

use super::github_server::{PullSpec, Shared, bearer, github_error, lock};

/// Whether `request` is a GraphQL query (no mutation), and the request, its body read and put
/// back for the route.
pub(crate) async fn peek_query(request: axum::extract::Request) -> (axum::extract::Request, bool) {
    if request.uri().path() != "/graphql" {
        return (request, false);
    }
    let (parts, body) = request.into_parts();
    let bytes = axum::body::to_bytes(body, usize::MAX)
        .await
        .unwrap_or_default();
    let query = serde_json::from_slice::<Value>(&bytes)
        .ok()
        .and_then(|v| v["query"].as_str().map(str::to_owned))
        .unwrap_or_default();
    let is_query = !query.trim_start().starts_with("mutation");
    (
        axum::extract::Request::from_parts(parts, axum::body::Body::from(bytes)),
        is_query,
    )
}

/// One review thread: the REST comment that opened it, and its state.
#[derive(Debug, Clone)]
pub(crate) struct ThreadSpec {
    pub node_id: String,
    /// The `id` of the review comment that opened it.
    pub root: u64,
    pub resolved: bool,
    /// Outdated threads have no `line` on the current diff any more.
    pub outdated: bool,
}

/// GitHub's largest page.
const MAX_FIRST: u64 = 100;

/// The schema extract: type → field → (return type, argument names).
struct Schema {
    types: HashMap<String, HashMap<String, (String, Vec<String>)>>,
}

static SCHEMA: LazyLock<Schema> = LazyLock::new(|| {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/github/graphql-review-threads.graphql"
    );
    Schema::parse(&std::fs::read_to_string(path).expect("read the GraphQL schema extract"))
});

impl Schema {
    fn parse(text: &str) -> Schema {
        // Descriptions and comments hold words, not definitions.
        let mut clean = String::new();
        let mut rest = text;
        while let Some(start) = rest.find("\"\"\"") {
            clean.push_str(&rest[..start]);
            let after = &rest[start + 3..];
            let end = after.find("\"\"\"").expect("closed description");
            rest = &after[end + 3..];
        }
        clean.push_str(rest);
        let clean: String = clean
            .lines()
            .filter(|l| !l.trim_start().starts_with('#'))
            .collect::<Vec<_>>()
            .join("\n");
        let tokens = tokenize(&clean);
        let mut types = HashMap::new();
        let mut i = 0;
        while i < tokens.len() {
            if (tokens[i] == "type" || tokens[i] == "input") && i + 1 < tokens.len() {
                let name = tokens[i + 1].clone();
                while tokens[i] != "{" {
                    i += 1;
                }
                i += 1;
                let mut fields = HashMap::new();
                while tokens[i] != "}" {
                    let field = tokens[i].clone();
                    i += 1;
                    let mut args = Vec::new();
                    if tokens[i] == "(" {
                        let mut depth = 0;
                        loop {
                            match tokens[i].as_str() {
                                "(" => depth += 1,
                                ")" => depth -= 1,
                                ":" if depth == 1 => args.push(tokens[i - 1].clone()),
                                _ => {}
                            }
                            i += 1;
                            if depth == 0 {
                                break;
                            }
                        }
                    }
                    assert_eq!(tokens[i], ":", "a field's type after {field}");
                    i += 1;
                    // The type: names and [ ] !, up to the next field, a directive or `}`.
                    let mut ty = String::new();
                    while matches!(tokens[i].as_str(), "[" | "]" | "!") || ty.is_empty() {
                        if !matches!(tokens[i].as_str(), "[" | "]" | "!") {
                            ty = tokens[i].clone();
                        }
                        i += 1;
                    }
                    if tokens[i] == "@" {
                        // `@deprecated(reason: "...")`
                        i += 2;
                        if tokens[i] == "(" {
                            while tokens[i] != ")" {
                                i += 1;
                            }
                            i += 1;
                        }
                    }
                    fields.insert(field, (ty, args));
                }
                types.insert(name, fields);
            }
            i += 1;
        }
        Schema { types }
    }
}

/// Names, punctuation and strings (kept whole, quotes included).
fn tokenize(text: &str) -> Vec<String> {
    let chars: Vec<char> = text.chars().collect();
    let mut tokens = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c.is_whitespace() || c == ',' {
            i += 1;
        } else if c == '"' {
            let start = i;
            i += 1;
            while i < chars.len() && chars[i] != '"' {
                if chars[i] == '\\' {
                    i += 1;
                }
                i += 1;
            }
            i += 1;
            tokens.push(chars[start..i.min(chars.len())].iter().collect());
        } else if c == '.' && chars.get(i + 1) == Some(&'.') {
            tokens.push("...".into());
            i += 3;
        } else if c.is_alphanumeric() || c == '_' || c == '-' {
            let start = i;
            while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            if i == start {
                i += 1;
            }
            tokens.push(chars[start..i].iter().collect());
        } else {
            tokens.push(c.to_string());
            i += 1;
        }
    }
    tokens
}

/// One field of a query: its name, arguments (name → raw value) and selections.
#[derive(Debug, Default)]
struct Selection {
    name: String,
    args: HashMap<String, String>,
    /// `... on Type` fragments are flattened here with their type.
    on: Option<String>,
    fields: Vec<Selection>,
}

struct Parser {
    tokens: Vec<String>,
    at: usize,
}

impl Parser {
    fn peek(&self) -> &str {
        self.tokens.get(self.at).map_or("", String::as_str)
    }

    fn next(&mut self) -> String {
        let t = self.peek().to_owned();
        self.at += 1;
        t
    }

    fn expect(&mut self, token: &str) -> Result<(), String> {
        let got = self.next();
        if got == token {
            Ok(())
        } else {
            Err(format!("expected {token:?}, found {got:?}"))
        }
    }

    /// `query|mutation Name? (vars)? { ... }`; returns the operation kind and its root fields.
    fn document(&mut self) -> Result<(String, Vec<Selection>), String> {
        let kind = match self.peek() {
            "{" => "query".to_owned(),
            _ => self.next(),
        };
        if kind != "query" && kind != "mutation" {
            return Err(format!("unknown operation {kind:?}"));
        }
        if self.peek() != "{" && self.peek() != "(" {
            self.next();
        }
        if self.peek() == "(" {
            while self.next() != ")" {
                if self.at >= self.tokens.len() {
                    return Err("unclosed variables".into());
                }
            }
        }
        let fields = self.selection_set()?;
        if self.at != self.tokens.len() {
            return Err(format!("trailing {:?}", self.peek()));
        }
        Ok((kind, fields))
    }

    fn selection_set(&mut self) -> Result<Vec<Selection>, String> {
        self.expect("{")?;
        let mut fields = Vec::new();
        while self.peek() != "}" {
            if self.at >= self.tokens.len() {
                return Err("unclosed selection".into());
            }
            if self.peek() == "..." {
                self.next();
                self.expect("on")?;
                let on = self.next();
                for mut field in self.selection_set()? {
                    field.on = Some(on.clone());
                    fields.push(field);
                }
                continue;
            }
            let mut field = Selection {
                name: self.next(),
                ..Selection::default()
            };
            if self.peek() == ":" {
                return Err(format!("aliases are not expected ({})", field.name));
            }
            if self.peek() == "(" {
                self.next();
                while self.peek() != ")" {
                    let name = self.next();
                    self.expect(":")?;
                    let mut value = self.next();
                    if value == "$" {
                        value.push_str(&self.next());
                    } else if value == "{" {
                        // An input object: kept raw, checked by the mutation.
                        let mut depth = 1;
                        while depth > 0 {
                            let t = self.next();
                            match t.as_str() {
                                "{" => depth += 1,
                                "}" => depth -= 1,
                                "" => return Err("unclosed input object".into()),
                                _ => {}
                            }
                            value.push_str(&t);
                        }
                    }
                    field.args.insert(name, value);
                }
                self.next();
            }
            if self.peek() == "{" {
                field.fields = self.selection_set()?;
            }
            fields.push(field);
        }
        self.next();
        Ok(fields)
    }
}

/// Checks each selection against the schema; `ty` is the type the selections are on.
/// Types the extract leaves out are named with the fields the client may read of them.
fn check(ty: &str, fields: &[Selection], problems: &mut Vec<String>) {
    for field in fields {
        if field.name == "__typename" {
            continue;
        }
        let ty = field.on.as_deref().unwrap_or(ty);
        let outside: &[(&str, &str, &[&str])] = &[
            ("Query", "repository", &["owner", "name"]),
            ("Query", "node", &["id"]),
            ("Repository", "pullRequest", &["number"]),
            ("Actor", "login", &[]),
        ];
        let found = match SCHEMA.types.get(ty).and_then(|t| t.get(&field.name)) {
            Some((returns, args)) => Some((returns.clone(), args.clone())),
            None => outside
                .iter()
                .find(|(t, f, _)| *t == ty && *f == field.name)
                .map(|(_, f, args)| {
                    let returns = match *f {
                        "repository" => "Repository",
                        "node" => "Node",
                        "pullRequest" => "PullRequest",
                        _ => "String",
                    };
                    (
                        returns.to_owned(),
                        args.iter().map(|a| a.to_string()).collect(),
                    )
                }),
        };
        let Some((returns, args)) = found else {
            problems.push(format!("GraphQL: {ty} has no field {}", field.name));
            continue;
        };
        for arg in field.args.keys() {
            if !args.contains(arg) {
                problems.push(format!(
                    "GraphQL: {ty}.{} has no argument {arg}",
                    field.name
                ));
            }
        }
        if let Some(first) = field.args.get("first") {
            match first.parse::<u64>() {
                Ok(n) if n <= MAX_FIRST => {}
                _ => problems.push(format!(
                    "GraphQL: {ty}.{} asks for first: {first}, GitHub allows 1 to 100",
                    field.name
                )),
            }
        }
        let is_connection = returns.ends_with("Connection");
        if is_connection && !field.args.contains_key("first") && !field.args.contains_key("last") {
            problems.push(format!(
                "GraphQL: {ty}.{} is a connection: GitHub requires `first` or `last`",
                field.name
            ));
        }
        if !field.fields.is_empty() {
            check(&returns, &field.fields, problems);
        }
    }
}

/// The full value projected onto what was asked.
fn project(value: &Value, fields: &[Selection], typename: &str) -> Value {
    match value {
        Value::Array(items) => {
            Value::Array(items.iter().map(|v| project(v, fields, typename)).collect())
        }
        Value::Object(object) => {
            let own = object
                .get("__typename")
                .and_then(Value::as_str)
                .unwrap_or(typename);
            let mut out = Map::new();
            for field in fields {
                if let Some(on) = &field.on
                    && on != own
                {
                    continue;
                }
                let v = object.get(&field.name).cloned().unwrap_or(Value::Null);
                let v = if field.fields.is_empty() {
                    v
                } else {
                    project(&v, &field.fields, "")
                };
                out.insert(field.name.clone(), v);
            }
            Value::Object(out)
        }
        other => other.clone(),
    }
}

fn graphql_errors(message: &str) -> Response {
    (
        StatusCode::OK,
        axum::Json(json!({ "errors": [ { "message": message } ] })),
    )
        .into_response()
}

/// One page of a list, GitHub style: items after `after` (an index cursor), `first` of them.
fn page(items: Vec<Value>, first: usize, after: Option<&str>) -> Value {
    let start = after
        .and_then(|c| c.strip_prefix("cursor:"))
        .and_then(|n| n.parse::<usize>().ok())
        .map_or(0, |n| n + 1);
    let end = (start + first).min(items.len());
    let nodes: Vec<Value> = items.get(start..end).unwrap_or(&[]).to_vec();
    json!({
        "totalCount": items.len(),
        "pageInfo": {
            "hasNextPage": end < items.len(),
            "hasPreviousPage": start > 0,
            "startCursor": format!("cursor:{start}"),
            "endCursor": if end > start { Value::String(format!("cursor:{}", end - 1)) } else { Value::Null },
        },
        "nodes": nodes,
    })
}

fn comment_json(pull: &PullSpec, id: u64) -> Value {
    let c = pull
        .review_comments
        .iter()
        .find(|c| c.id == id)
        .expect("a thread's comment");
    let typename = if c.author.account_type == "Bot" {
        "Bot"
    } else {
        "User"
    };
    // GitHub's GraphQL names a bot without the `[bot]` its REST login carries.
    let login = c.author.login.trim_end_matches("[bot]");
    json!({
        "__typename": "PullRequestReviewComment",
        "fullDatabaseId": c.id.to_string(),
        "body": c.body,
        "createdAt": c.created_at,
        "author": { "__typename": typename, "login": login },
    })
}

fn thread_comments(pull: &PullSpec, thread: &ThreadSpec) -> Vec<Value> {
    pull.review_comments
        .iter()
        .filter(|c| c.id == thread.root || c.in_reply_to == Some(thread.root))
        .map(|c| comment_json(pull, c.id))
        .collect()
}

fn thread_json(pull: &PullSpec, thread: &ThreadSpec, first: usize, after: Option<&str>) -> Value {
    let root = pull
        .review_comments
        .iter()
        .find(|c| c.id == thread.root)
        .expect("a thread's root comment");
    json!({
        "__typename": "PullRequestReviewThread",
        "id": thread.node_id,
        "isResolved": thread.resolved,
        "isCollapsed": thread.resolved,
        "isOutdated": thread.outdated,
        "path": root.path,
        "line": if thread.outdated { Value::Null } else { json!(root.line) },
        "startLine": Value::Null,
        "originalLine": root.line,
        "diffSide": root.side,
        "comments": page(thread_comments(pull, thread), first, after),
    })
}

/// A `first:` argument as sent: a literal or a variable.
fn number_arg(field: &Selection, name: &str, variables: &Value) -> Option<u64> {
    let raw = field.args.get(name)?;
    match raw.strip_prefix('$') {
        Some(var) => variables[var].as_u64(),
        None => raw.parse().ok(),
    }
}

fn string_arg(field: &Selection, name: &str, variables: &Value) -> Option<String> {
    let raw = field.args.get(name)?;
    match raw.strip_prefix('$') {
        Some(var) => variables[var].as_str().map(str::to_owned),
        None => Some(raw.trim_matches('"').to_owned()),
    }
}

fn find<'a>(fields: &'a [Selection], name: &str) -> Option<&'a Selection> {
    fields.iter().find(|f| f.name == name)
}

pub(crate) async fn graphql(
    State(shared): State<Arc<Shared>>,
    headers: HeaderMap,
    body: axum::body::Bytes,
) -> Response {
    // GitHub's GraphQL API takes no anonymous calls.
    let Some(token) = bearer(&headers) else {
        return github_error(
            StatusCode::UNAUTHORIZED,
            "This endpoint requires you to be authenticated.",
        );
    };
    let login = lock(&shared.tokens).get(&token).cloned();
    let Ok(request) = serde_json::from_slice::<Value>(&body) else {
        return github_error(StatusCode::BAD_REQUEST, "Problems parsing JSON");
    };
    lock(&shared.bodies).push(("POST /graphql".into(), request.clone()));
    let query = request["query"].as_str().unwrap_or("");
    let variables = request
        .get("variables")
        .cloned()
        .unwrap_or_else(|| json!({}));
    let mut parser = Parser {
        tokens: tokenize(query),
        at: 0,
    };
    let (kind, fields) = match parser.document() {
        Ok(parsed) => parsed,
        Err(problem) => {
            lock(&shared.violations).push(format!("GraphQL: unparsable query: {problem}"));
            return graphql_errors(&format!("Parse error: {problem}"));
        }
    };
    let mut problems = Vec::new();
    let root = if kind == "mutation" {
        "Mutation"
    } else {
        "Query"
    };
    check(root, &fields, &mut problems);
    if !problems.is_empty() {
        let message = problems.join("; ");
        lock(&shared.violations).extend(problems);
        return graphql_errors(&message);
    }
    let pull = lock(&shared.pull).clone();
    let mut data = Map::new();
    for field in &fields {
        let value = match field.name.as_str() {
            "repository" => {
                let owner = string_arg(field, "owner", &variables).unwrap_or_default();
                let name = string_arg(field, "name", &variables).unwrap_or_default();
                let Some(pr_field) = find(&field.fields, "pullRequest") else {
                    return graphql_errors("only pullRequest is served");
                };
                let number = number_arg(pr_field, "number", &variables);
                if owner != pull.owner || name != pull.repo || number != Some(pull.number) {
                    return graphql_errors(&format!(
                        "Could not resolve to a Repository with the name '{owner}/{name}'."
                    ));
                }
                let mut pr = Map::new();
                if let Some(threads_field) = find(&pr_field.fields, "reviewThreads") {
                    let first = number_arg(threads_field, "first", &variables).unwrap_or(0);
                    let after = string_arg(threads_field, "after", &variables);
                    let inner_first = find(&threads_field.fields, "nodes")
                        .and_then(|n| find(&n.fields, "comments"))
                        .and_then(|c| number_arg(c, "first", &variables))
                        .unwrap_or(0) as usize;
                    let threads: Vec<Value> = lock(&shared.threads)
                        .iter()
                        .map(|t| thread_json(&pull, t, inner_first, None))
                        .collect();
                    pr.insert(
                        "reviewThreads".into(),
                        page(threads, first as usize, after.as_deref()),
                    );
                }
                json!({ "pullRequest": Value::Object(pr) })
            }
            "node" => {
                let id = string_arg(field, "id", &variables).unwrap_or_default();
                let thread = lock(&shared.threads)
                    .iter()
                    .find(|t| t.node_id == id)
                    .cloned();
                match thread {
                    None => Value::Null,
                    Some(thread) => {
                        let comments = find(&field.fields, "comments");
                        let first = comments
                            .and_then(|c| number_arg(c, "first", &variables))
                            .unwrap_or(0);
                        let after = comments.and_then(|c| string_arg(c, "after", &variables));
                        thread_json(&pull, &thread, first as usize, after.as_deref())
                    }
                }
            }
            "resolveReviewThread" | "unresolveReviewThread" => {
                if *lock(&shared.hold_mutations) {
                    while *lock(&shared.hold_mutations) {
                        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
                    }
                    return github_error(StatusCode::BAD_GATEWAY, "held, then dropped");
                }
                if login.is_none() {
                    return graphql_errors("Resource not accessible by integration");
                }
                let input = match field.args.get("input") {
                    Some(raw) if raw.starts_with('$') => variables[&raw[1..]].clone(),
                    _ => Value::Null,
                };
                let id = input["threadId"].as_str().unwrap_or_default().to_owned();
                let resolved = field.name == "resolveReviewThread";
                let mut threads = lock(&shared.threads);
                let Some(thread) = threads.iter_mut().find(|t| t.node_id == id) else {
                    return graphql_errors(&format!(
                        "Could not resolve to a node with the global id of '{id}'"
                    ));
                };
                thread.resolved = resolved;
                let thread = thread.clone();
                drop(threads);
                json!({ "thread": thread_json(&pull, &thread, 0, None) })
            }
            other => return graphql_errors(&format!("{other} is not served here")),
        };
        data.insert(field.name.clone(), value);
    }
    let full = Value::Object(data);
    (
        StatusCode::OK,
        axum::Json(json!({ "data": project(&full, &fields, "") })),
    )
        .into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_schema_extract_is_read_with_fields_and_arguments() {
        let thread = &SCHEMA.types["PullRequestReviewThread"];
        assert_eq!(thread["isResolved"].0, "Boolean");
        assert!(thread["comments"].1.contains(&"after".to_string()));
        assert_eq!(
            SCHEMA.types["PullRequest"]["reviewThreads"].0,
            "PullRequestReviewThreadConnection"
        );
        assert!(SCHEMA.types["Mutation"].contains_key("resolveReviewThread"));
    }

    #[test]
    fn a_field_outside_the_schema_is_a_violation() {
        let mut parser = Parser {
            tokens: tokenize(
                "query($n: Int!) { repository(owner: \"o\", name: \"r\") { pullRequest(number: $n) \
                 { reviewThreads(first: 100) { nodes { isResolved resolved } } } } }",
            ),
            at: 0,
        };
        let (_, fields) = parser.document().unwrap();
        let mut problems = Vec::new();
        check("Query", &fields, &mut problems);
        assert_eq!(
            problems,
            vec!["GraphQL: PullRequestReviewThread has no field resolved"]
        );
    }
}
