//! Gitea's Swagger 2.0 description (tests/fixtures/gitea/, the pull-request subset of Gitea's
//! own `v1_json.tmpl`, MIT): which calls exist, which query parameters each takes, and the
//! schema of each request body, so the fake Gitea refuses what real Gitea's API does not
//! describe.
//!
//! Request bodies are checked strictly: a field the description does not name is a violation,
//! because Gitea's decoder would silently drop it (a client bug that only shows in production).

use std::collections::HashMap;
use std::sync::{Arc, LazyLock, Mutex};

use jsonschema::{Draft, Validator};
use serde_json::{Map, Value};

const SPEC_PATH: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/fixtures/gitea/swagger.v1.pulls-subset.json"
);

pub(crate) struct Swagger {
    spec: Value,
    /// Every definition, strict (`additionalProperties: false` on objects with properties).
    strict: Value,
    compiled: Mutex<HashMap<String, Arc<Validator>>>,
}

static SPEC: LazyLock<Swagger> = LazyLock::new(|| {
    let text = std::fs::read_to_string(SPEC_PATH).expect("read the Gitea swagger fixture");
    let spec: Value = serde_json::from_str(&text).expect("parse the Gitea swagger fixture");
    let strict = strict(&spec["definitions"]);
    Swagger {
        spec,
        strict,
        compiled: Mutex::default(),
    }
});

pub(crate) fn gitea() -> &'static Swagger {
    &SPEC
}

fn strict(value: &Value) -> Value {
    match value {
        Value::Object(map) => {
            let mut out: Map<String, Value> =
                map.iter().map(|(k, v)| (k.clone(), strict(v))).collect();
            if map.get("type") == Some(&Value::String("object".into()))
                && map.contains_key("properties")
                && !map.contains_key("additionalProperties")
            {
                out.insert("additionalProperties".into(), Value::Bool(false));
            }
            Value::Object(out)
        }
        Value::Array(items) => Value::Array(items.iter().map(strict).collect()),
        other => other.clone(),
    }
}

/// Whether `path` (under `/api/v1`) is an instance of `template` (`{name}` one segment or a
/// part of one, as in `{index}.{diffType}`).
fn matches(template: &str, path: &str) -> bool {
    let (t, p): (Vec<&str>, Vec<&str>) = (template.split('/').collect(), path.split('/').collect());
    t.len() == p.len()
        && t.iter().zip(&p).all(|(t, p)| {
            let pattern = regex::escape(t);
            let pattern = regex::Regex::new(r"\\\{[A-Za-z]+\\\}")
                .unwrap()
                .replace_all(&pattern, "[^/.]+");
            regex::Regex::new(&format!("^{pattern}$"))
                .unwrap()
                .is_match(p)
        })
}

impl Swagger {
    /// The template of `path`, the most specific one (fewest placeholders) when several match.
    pub(crate) fn template(&self, path: &str) -> Option<String> {
        let path = path.strip_prefix("/api/v1")?;
        self.spec["paths"]
            .as_object()?
            .keys()
            .filter(|t| matches(t, path))
            .min_by_key(|t| t.matches('{').count())
            .cloned()
    }

    /// Every way `method path?query` with `body` breaks the description.
    pub(crate) fn violations(
        &self,
        method: &str,
        path: &str,
        query: Option<&str>,
        body: Option<&Value>,
    ) -> Vec<String> {
        let Some(template) = self.template(path) else {
            return vec![format!("{path} is not a Gitea API path")];
        };
        let operation = &self.spec["paths"][&template][method.to_ascii_lowercase()];
        if operation.is_null() {
            return vec![format!("Gitea has no {method} {template}")];
        }
        let parameters = operation["parameters"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        let mut problems = Vec::new();
        for pair in query.unwrap_or("").split('&').filter(|p| !p.is_empty()) {
            let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
            match parameters
                .iter()
                .find(|p| p["in"] == "query" && p["name"] == key)
            {
                None => problems.push(format!("{method} {template} takes no query `{key}`")),
                Some(p) if p["type"] == "integer" && value.parse::<i64>().is_err() => {
                    problems.push(format!("query `{key}` is not an integer: {value:?}"))
                }
                Some(_) => {}
            }
        }
        let schema = parameters
            .iter()
            .find(|p| p["in"] == "body")
            .map(|p| p["schema"].clone());
        match (schema, body) {
            (Some(schema), Some(body)) => {
                let key = format!("{method} {template}");
                let validator = {
                    let mut compiled = self.compiled.lock().unwrap();
                    compiled
                        .entry(key)
                        .or_insert_with(|| {
                            let mut document = match schema {
                                Value::Object(map) => map,
                                other => panic!("a body schema that is not an object: {other}"),
                            };
                            document.insert("definitions".into(), self.strict.clone());
                            Arc::new(
                                jsonschema::options()
                                    .with_draft(Draft::Draft4)
                                    .build(&Value::Object(document))
                                    .expect("compile a Gitea body schema"),
                            )
                        })
                        .clone()
                };
                problems.extend(
                    validator
                        .iter_errors(body)
                        .map(|e| format!("body at {}: {e}", e.instance_path())),
                );
            }
            (None, Some(body)) if !body.is_null() => {
                problems.push(format!("{method} {template} takes no body"));
            }
            (Some(_), None) => problems.push(format!("{method} {template} needs a body")),
            _ => {}
        }
        problems
    }
}

#[test]
fn the_description_refuses_what_gitea_would_not_read() {
    let swagger = gitea();
    let reviews = "/api/v1/repos/o/r/pulls/7/reviews";
    assert!(
        swagger
            .violations(
                "POST",
                reviews,
                None,
                Some(
                    &serde_json::json!({"commit_id": "a", "event": "COMMENT", "body": "b",
                    "comments": [{"path": "x", "body": "y", "new_position": 3}]})
                )
            )
            .is_empty()
    );
    let unknown = swagger.violations(
        "POST",
        reviews,
        None,
        Some(&serde_json::json!({"body": "b", "comments": [{"path": "x", "line": 3}]})),
    );
    assert_eq!(unknown.len(), 1, "{unknown:?}");
    assert!(
        !swagger
            .violations("GET", reviews, Some("per_page=100"), None)
            .is_empty()
    );
    assert!(
        swagger
            .violations("GET", reviews, Some("limit=50&page=2"), None)
            .is_empty()
    );
    assert_eq!(
        swagger
            .template("/api/v1/repos/o/r/pulls/7.diff")
            .as_deref(),
        Some("/repos/{owner}/{repo}/pulls/{index}.{diffType}")
    );
    assert!(
        !swagger
            .violations("PUT", "/api/v1/repos/o/r/pulls/7", None, None)
            .is_empty()
    );
}
