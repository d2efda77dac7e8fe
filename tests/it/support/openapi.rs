//! Validators for GitHub's response shapes, built from its published OpenAPI description
//! (tests/fixtures/github/, from octokit/openapi, MIT), so the fake server cannot drift from
//! what GitHub really sends.
//!
//! OpenAPI 3.0 schemas are almost JSON Schema; the differences handled here are `nullable`
//! (rewritten to a `null` type) and `$ref`s into `#/components`, which resolve because the
//! components are embedded in every schema document we compile.

use std::collections::HashMap;
use std::sync::{Arc, LazyLock, Mutex};

use jsonschema::{Draft, Validator};
use serde_json::{Map, Value, json};

const SPEC_PATH: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/fixtures/github/api.github.com.pulls-subset.json"
);

/// The parsed description, with its components already converted to JSON Schema.
pub(crate) struct OpenApi {
    paths: Value,
    components: Value,
    compiled: Mutex<HashMap<String, Arc<Validator>>>,
}

static SPEC: LazyLock<OpenApi> = LazyLock::new(|| {
    let text = std::fs::read_to_string(SPEC_PATH).expect("read the GitHub OpenAPI fixture");
    let spec: Value = serde_json::from_str(&text).expect("parse the GitHub OpenAPI fixture");
    OpenApi {
        paths: spec["paths"].clone(),
        components: to_json_schema(&spec["components"]),
        compiled: Mutex::new(HashMap::new()),
    }
});

/// The GitHub description, loaded once per test binary.
pub(crate) fn github() -> &'static OpenApi {
    &SPEC
}

impl OpenApi {
    /// A validator for the JSON body of `method path_template` answering `status`, e.g.
    /// `("get", "/repos/{owner}/{repo}/pulls/{pull_number}", 200)`. Compiled once, then cached.
    pub(crate) fn response_validator(
        &self,
        method: &str,
        path_template: &str,
        status: u16,
    ) -> Result<Arc<Validator>, String> {
        let key = format!("{} {path_template} {status}", method.to_ascii_lowercase());
        if let Some(found) = self.compiled.lock().unwrap().get(&key) {
            return Ok(found.clone());
        }
        let schema = self.response_schema(method, path_template, status)?;
        let mut document = match to_json_schema(&schema) {
            Value::Object(map) => map,
            other => return Err(format!("{key}: the schema is not an object: {other}")),
        };
        document.insert("components".into(), self.components.clone());
        let validator = jsonschema::options()
            .with_draft(Draft::Draft202012)
            .should_validate_formats(true)
            .build(&Value::Object(document))
            .map_err(|e| format!("{key}: cannot compile the schema: {e}"))?;
        let validator = Arc::new(validator);
        self.compiled.lock().unwrap().insert(key, validator.clone());
        Ok(validator)
    }

    /// Checks one response body; the error lists every violation with where it is.
    pub(crate) fn check(
        &self,
        method: &str,
        path_template: &str,
        status: u16,
        body: &Value,
    ) -> Result<(), String> {
        let validator = self.response_validator(method, path_template, status)?;
        let problems: Vec<String> = validator
            .iter_errors(body)
            .map(|e| format!("at {}: {e}", e.instance_path()))
            .collect();
        if problems.is_empty() {
            Ok(())
        } else {
            Err(format!(
                "{} {path_template} {status} does not match GitHub's schema:\n  {}",
                method.to_ascii_uppercase(),
                problems.join("\n  ")
            ))
        }
    }

    /// Checks one request body against the operation's `requestBody` schema, so the fake server
    /// refuses what GitHub's description does not allow (a client bug we would otherwise only
    /// meet in production).
    pub(crate) fn check_request(
        &self,
        method: &str,
        path_template: &str,
        body: &Value,
    ) -> Result<(), String> {
        let key = format!("{} {path_template} request", method.to_ascii_lowercase());
        let cached = self.compiled.lock().unwrap().get(&key).cloned();
        let validator = match cached {
            Some(found) => found,
            None => {
                let operation = &self.paths[path_template][method.to_ascii_lowercase()];
                let schema = &operation["requestBody"]["content"]["application/json"]["schema"];
                if schema.is_null() {
                    return Err(format!("{key}: no request schema in the description"));
                }
                let mut document = match to_json_schema(schema) {
                    Value::Object(map) => map,
                    other => return Err(format!("{key}: the schema is not an object: {other}")),
                };
                document.insert("components".into(), self.components.clone());
                let validator = jsonschema::options()
                    .with_draft(Draft::Draft202012)
                    .build(&Value::Object(document))
                    .map_err(|e| format!("{key}: cannot compile the schema: {e}"))?;
                let validator = Arc::new(validator);
                self.compiled.lock().unwrap().insert(key, validator.clone());
                validator
            }
        };
        let problems: Vec<String> = validator
            .iter_errors(body)
            .map(|e| format!("at {}: {e}", e.instance_path()))
            .collect();
        if problems.is_empty() {
            Ok(())
        } else {
            Err(format!(
                "{} {path_template} request does not match GitHub's schema:\n  {}",
                method.to_ascii_uppercase(),
                problems.join("\n  ")
            ))
        }
    }

    fn response_schema(
        &self,
        method: &str,
        path_template: &str,
        status: u16,
    ) -> Result<Value, String> {
        let operation = &self.paths[path_template][method.to_ascii_lowercase()];
        if operation.is_null() {
            return Err(format!(
                "no operation {method} {path_template} in the description"
            ));
        }
        let mut response = &operation["responses"][status.to_string()];
        if let Some(reference) = response["$ref"].as_str() {
            response = self.resolve_raw(reference)?;
        }
        let schema = &response["content"]["application/json"]["schema"];
        if schema.is_null() {
            return Err(format!(
                "{method} {path_template} {status} has no JSON schema"
            ));
        }
        Ok(schema.clone())
    }

    /// Follows a `#/components/responses/...` pointer by hand: a response object is not a
    /// schema, so the validator never sees it. (Converting it to JSON Schema on load changed
    /// nothing but the schemas inside, which are converted again when compiled, harmlessly.)
    fn resolve_raw(&self, reference: &str) -> Result<&Value, String> {
        let pointer = reference
            .strip_prefix("#/components")
            .ok_or_else(|| format!("unsupported reference {reference}"))?;
        self.components
            .pointer(pointer)
            .ok_or_else(|| format!("dangling reference {reference}"))
    }
}

/// Rewrites an OpenAPI 3.0 schema (or any document holding schemas) into JSON Schema 2020-12.
///
/// `nullable: true` becomes a `null` member of `type` (and of `enum`, which would otherwise
/// still reject `null`); next to a `$ref` or a composition, where there is no `type` to widen,
/// the schema becomes `anyOf: [itself, {type: null}]`. `example` values are dropped: they are
/// free-form data that could contain look-alike keywords. `allOf`/`oneOf`/`anyOf` keep their
/// JSON Schema meaning, so they only need their members converted.
pub(crate) fn to_json_schema(value: &Value) -> Value {
    match value {
        Value::Array(items) => Value::Array(items.iter().map(to_json_schema).collect()),
        Value::Object(map) => convert_object(map),
        other => other.clone(),
    }
}

fn convert_object(map: &Map<String, Value>) -> Value {
    let nullable = map.get("nullable") == Some(&Value::Bool(true));
    let mut out = Map::new();
    for (key, value) in map {
        match key.as_str() {
            "nullable" | "example" | "discriminator" => {}
            _ => {
                out.insert(key.clone(), to_json_schema(value));
            }
        }
    }
    if !nullable {
        return Value::Object(out);
    }
    if let Some(kind) = out.get("type").cloned() {
        let widened = match kind {
            Value::String(t) => json!([t, "null"]),
            Value::Array(mut types) => {
                types.push(json!("null"));
                Value::Array(types)
            }
            other => other,
        };
        out.insert("type".into(), widened);
        if let Some(Value::Array(values)) = out.get_mut("enum") {
            values.push(Value::Null);
        }
        Value::Object(out)
    } else {
        json!({ "anyOf": [Value::Object(out), { "type": "null" }] })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nullable_widens_type_and_enum() {
        let converted = to_json_schema(&json!({
            "type": "string", "enum": ["LEFT", "RIGHT"], "nullable": true, "example": "LEFT"
        }));
        assert_eq!(
            converted,
            json!({ "type": ["string", "null"], "enum": ["LEFT", "RIGHT", null] })
        );
    }

    #[test]
    fn nullable_reference_becomes_any_of() {
        let converted = to_json_schema(&json!({ "allOf": [{ "$ref": "#/x" }], "nullable": true }));
        assert_eq!(
            converted,
            json!({ "anyOf": [{ "allOf": [{ "$ref": "#/x" }] }, { "type": "null" }] })
        );
    }
}
