//! The JSON Schema of a reviewer's finding (`NodeDraft`), used as the model's structured-output
//! schema. It is written for OpenAI's strict mode: every property is listed in `required`,
//! optional ones are nullable, and no extra properties are allowed. `reasoning` comes first.

use serde_json::{Value, json};

use super::node::{Category, Effort, Kind, Priority, Severity};

pub fn node_draft_schema() -> Value {
    let kinds: Vec<&str> = Kind::ALL.iter().map(|k| k.as_str()).collect();
    let priorities: Vec<&str> = Priority::ALL.iter().map(|p| p.as_str()).collect();
    let categories: Vec<&str> = Category::KNOWN.iter().map(|c| c.as_str()).collect();
    let severities: Vec<&str> = Severity::ALL.iter().map(|s| s.as_str()).collect();
    let efforts: Vec<&str> = Effort::ALL.iter().map(|e| e.as_str()).collect();
    let nullable_string = json!({"type": ["string", "null"]});
    json!({
        "type": "object",
        "additionalProperties": false,
        "properties": {
            "reasoning": {
                "type": "string",
                "description": "Your analysis, written before the finding: what you read, what you checked, why it matters."
            },
            "kind": {"type": "string", "enum": kinds},
            "priority": {
                "type": "string",
                "enum": priorities,
                "description": "P0 critical (must not merge), P1 serious, P2 worth fixing, P3 detail."
            },
            "triage": {
                "type": "object",
                "additionalProperties": false,
                "properties": {
                    "category": {"type": "string", "enum": categories},
                    "severity": {"type": "string", "enum": severities},
                    "effort": {"type": "string", "enum": efforts}
                },
                "required": ["category", "severity", "effort"]
            },
            "rule": {
                "type": ["string", "null"],
                "description": "A rule id such as security/hardcoded-secret, or null."
            },
            "anchor": {
                "type": ["object", "null"],
                "additionalProperties": false,
                "properties": {
                    "path": {"type": "string", "description": "Path relative to the repository root."},
                    "side": {"type": "string", "enum": ["LEFT", "RIGHT"], "description": "RIGHT for new line numbers, LEFT for removed lines."},
                    "start_line": {"type": "integer", "minimum": 1},
                    "end_line": {"type": "integer", "minimum": 1}
                },
                "required": ["path", "side", "start_line", "end_line"]
            },
            "text": {
                "type": "object",
                "additionalProperties": false,
                "properties": {
                    "title": {"type": "string", "maxLength": super::validate::MAX_TITLE_CHARS},
                    "body": {"type": "string"},
                    "evidence": {"type": "string", "description": "The code or fact that proves the problem."},
                    "impact": {"type": "string", "description": "What breaks, for whom, when."},
                    "verification": {"type": "string", "description": "How a person can check it."}
                },
                "required": ["title", "body", "evidence", "impact", "verification"]
            },
            "fix": {
                "type": ["object", "null"],
                "additionalProperties": false,
                "properties": {
                    "replacement": {
                        "type": ["array", "null"],
                        "items": {"type": "string"},
                        "description": "Exact replacement lines for the whole anchored range, or null."
                    },
                    "diff": nullable_string.clone(),
                    "prompt": nullable_string
                },
                "required": ["replacement", "diff", "prompt"]
            },
            "confidence": {"type": "number", "minimum": 0, "maximum": 1},
            "scope": {"type": "string", "enum": ["in_scope", "out_of_scope"]}
        },
        "required": ["reasoning", "kind", "priority", "triage", "rule", "anchor", "text", "fix", "confidence", "scope"]
    })
}
