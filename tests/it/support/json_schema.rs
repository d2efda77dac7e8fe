//! A small JSON Schema (draft 2020-12) validator for the subset our own schema files use:
//! `type`, `properties`, `required`, `additionalProperties: false`, `items`, `enum`, `const`,
//! `minimum`/`maximum`, `anyOf`, `dependentRequired` and `$ref` into `$defs`. A keyword it does
//! not know makes it panic: a schema must never pass because a check was silently skipped.

use serde_json::{Map, Value};

/// Keywords that only describe; they constrain nothing.
const ANNOTATIONS: [&str; 5] = ["$schema", "$id", "$defs", "title", "description"];

pub(crate) struct Schema {
    root: Value,
}

impl Schema {
    pub(crate) fn new(root: Value) -> Schema {
        Schema { root }
    }

    /// Every violation, each as `path: what` (`/findings/0/anchor: unknown field "line"`).
    pub(crate) fn errors(&self, instance: &Value) -> Vec<String> {
        let mut errors = Vec::new();
        self.check(&self.root, instance, "", &mut errors);
        errors
    }

    fn resolve(&self, reference: &str) -> &Value {
        let name = reference
            .strip_prefix("#/$defs/")
            .unwrap_or_else(|| panic!("only #/$defs/ references are supported: {reference}"));
        self.root["$defs"]
            .get(name)
            .unwrap_or_else(|| panic!("{reference} is not defined"))
    }

    fn check(&self, schema: &Value, value: &Value, at: &str, errors: &mut Vec<String>) {
        let schema = schema
            .as_object()
            .unwrap_or_else(|| panic!("a schema at {at} is not an object: {schema}"));
        for (keyword, rule) in schema {
            match keyword.as_str() {
                k if ANNOTATIONS.contains(&k) => {}
                "$ref" => self.check(self.resolve(rule.as_str().unwrap()), value, at, errors),
                "type" => {
                    let types: Vec<&str> = match rule {
                        Value::String(t) => vec![t.as_str()],
                        Value::Array(ts) => ts.iter().map(|t| t.as_str().unwrap()).collect(),
                        _ => panic!("bad type at {at}: {rule}"),
                    };
                    if !types.iter().any(|t| has_type(value, t)) {
                        errors.push(format!(
                            "{at}: expected {}, found {value}",
                            types.join(" or ")
                        ));
                    }
                }
                "enum" => {
                    if !rule.as_array().unwrap().contains(value) {
                        errors.push(format!("{at}: {value} is not one of {rule}"));
                    }
                }
                "const" => {
                    if rule != value {
                        errors.push(format!("{at}: expected {rule}, found {value}"));
                    }
                }
                "minimum" | "maximum" => {
                    if let (Some(bound), Some(n)) = (rule.as_f64(), value.as_f64()) {
                        let ok = if keyword == "minimum" {
                            n >= bound
                        } else {
                            n <= bound
                        };
                        if !ok {
                            errors.push(format!("{at}: {n} is outside the {keyword} {bound}"));
                        }
                    }
                }
                "anyOf" => {
                    let mut why = Vec::new();
                    let passes = rule.as_array().unwrap().iter().any(|branch| {
                        let mut inner = Vec::new();
                        self.check(branch, value, at, &mut inner);
                        why.extend(inner.iter().cloned());
                        inner.is_empty()
                    });
                    if !passes {
                        // Each branch's reasons: which field made the value fit none of them.
                        errors.push(format!("{at}: matches none of anyOf: {}", why.join("; ")));
                    }
                }
                "properties" => {
                    if let Value::Object(fields) = value {
                        for (name, sub) in rule.as_object().unwrap() {
                            if let Some(field) = fields.get(name) {
                                self.check(sub, field, &format!("{at}/{name}"), errors);
                            }
                        }
                    }
                }
                "required" => {
                    if let Value::Object(fields) = value {
                        for name in rule.as_array().unwrap() {
                            let name = name.as_str().unwrap();
                            if !fields.contains_key(name) {
                                errors.push(format!("{at}: missing field {name:?}"));
                            }
                        }
                    }
                }
                "additionalProperties" => {
                    assert_eq!(
                        rule,
                        &Value::Bool(false),
                        "only additionalProperties: false at {at}"
                    );
                    let known = schema.get("properties").and_then(Value::as_object);
                    if let Value::Object(fields) = value {
                        for name in fields.keys() {
                            if !known.is_some_and(|k| k.contains_key(name)) {
                                errors.push(format!("{at}: undocumented field {name:?}"));
                            }
                        }
                    }
                }
                "dependentRequired" => {
                    if let Value::Object(fields) = value {
                        for (present, needs) in rule.as_object().unwrap() {
                            if !fields.contains_key(present) {
                                continue;
                            }
                            for name in needs.as_array().unwrap() {
                                let name = name.as_str().unwrap();
                                if !fields.contains_key(name) {
                                    errors.push(format!("{at}: {present:?} without {name:?}"));
                                }
                            }
                        }
                    }
                }
                "items" => {
                    if let Value::Array(items) = value {
                        for (i, item) in items.iter().enumerate() {
                            self.check(rule, item, &format!("{at}/{i}"), errors);
                        }
                    }
                }
                other => panic!("unsupported JSON Schema keyword {other:?} at {at}"),
            }
        }
    }

    /// Every object schema in the file, as `(where, schema)`: for checks on the schema itself.
    pub(crate) fn object_schemas(&self) -> Vec<(String, &Map<String, Value>)> {
        let mut found = Vec::new();
        walk(&self.root, "#".to_string(), &mut found);
        found
    }
}

fn walk<'a>(schema: &'a Value, at: String, found: &mut Vec<(String, &'a Map<String, Value>)>) {
    let Some(map) = schema.as_object() else {
        return;
    };
    if map.get("type").is_some_and(|t| {
        t == "object" || t.as_array().is_some_and(|ts| ts.contains(&"object".into()))
    }) {
        found.push((at.clone(), map));
    }
    for key in ["properties", "$defs"] {
        if let Some(children) = map.get(key).and_then(Value::as_object) {
            for (name, child) in children {
                walk(child, format!("{at}/{key}/{name}"), found);
            }
        }
    }
    if let Some(items) = map.get("items") {
        walk(items, format!("{at}/items"), found);
    }
    if let Some(branches) = map.get("anyOf").and_then(Value::as_array) {
        for (i, branch) in branches.iter().enumerate() {
            walk(branch, format!("{at}/anyOf/{i}"), found);
        }
    }
}

fn has_type(value: &Value, name: &str) -> bool {
    match name {
        "null" => value.is_null(),
        "boolean" => value.is_boolean(),
        "string" => value.is_string(),
        "array" => value.is_array(),
        "object" => value.is_object(),
        "number" => value.is_number(),
        // 2020-12: a number with no fractional part is an integer, whatever its spelling.
        "integer" => {
            value.is_i64() || value.is_u64() || value.as_f64().is_some_and(|n| n.fract() == 0.0)
        }
        other => panic!("unknown JSON Schema type {other:?}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn schema() -> Schema {
        Schema::new(json!({
            "type": "object",
            "properties": {
                "n": {"type": "integer", "minimum": 1},
                "e": {"type": ["string", "null"], "enum": ["a", null]},
                "r": {"anyOf": [{"type": "null"}, {"$ref": "#/$defs/R"}]},
                "l": {"type": "array", "items": {"$ref": "#/$defs/R"}}
            },
            "required": ["n"],
            "dependentRequired": {"l": ["r"]},
            "additionalProperties": false,
            "$defs": {"R": {"type": "object", "properties": {"x": {"const": 1}},
                            "required": ["x"], "additionalProperties": false}}
        }))
    }

    #[test]
    fn the_validator_accepts_what_the_schema_says() {
        let ok = json!({"n": 2, "e": null, "r": null, "l": [{"x": 1}]});
        assert_eq!(schema().errors(&ok), Vec::<String>::new());
        let ok = json!({"n": 2.0, "e": "a", "r": {"x": 1}});
        assert_eq!(schema().errors(&ok), Vec::<String>::new());
    }

    #[test]
    fn the_validator_rejects_each_kind_of_violation() {
        for (bad, expected) in [
            (json!({}), "missing field \"n\""),
            (json!({"n": 0}), "outside the minimum"),
            (json!({"n": 1.5}), "expected integer"),
            (json!({"n": 1, "e": "b"}), "is not one of"),
            (json!({"n": 1, "r": {"x": 2}}), "matches none of anyOf"),
            (json!({"n": 1, "z": 1}), "undocumented field \"z\""),
            (
                json!({"n": 1, "r": {"x": 1}, "l": [{"x": 1, "y": 2}]}),
                "/l/0: undocumented field \"y\"",
            ),
            (json!({"n": 1, "l": []}), "\"l\" without \"r\""),
        ] {
            let errors = schema().errors(&bad);
            assert!(
                errors.iter().any(|e| e.contains(expected)),
                "{bad}: {errors:?}"
            );
        }
    }

    #[test]
    #[should_panic(expected = "unsupported JSON Schema keyword")]
    fn an_unknown_keyword_is_refused_not_skipped() {
        Schema::new(json!({"type": "string", "pattern": "^a"})).errors(&json!("b"));
    }
}
