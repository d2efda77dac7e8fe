//! SARIF 2.1.0 export of a review's findings, for code-scanning dashboards and CI artifacts.
//!
//! Duplicates (`duplicate_of` set by consolidation) are left out: the problem is exported once,
//! by its primary node, as the review lists it. Evidence is written as stored, so secrets
//! appear only in their redacted form.

use serde_json::{Map, Value, json};

use crate::diff::Side;
use crate::review::{Category, Priority, ReviewNode, Status};

/// The key of our fingerprint in `partialFingerprints`; versioned so a future change of the
/// fingerprint recipe does not silently match old alerts.
pub(crate) const PARTIAL_FINGERPRINT_KEY: &str = "reviewTui/v1";

pub fn to_sarif(nodes: &[ReviewNode], tool_version: &str) -> Value {
    let exported: Vec<&ReviewNode> = nodes.iter().filter(|n| n.duplicate_of.is_none()).collect();
    let mut rule_ids: Vec<String> = Vec::new();
    let mut rules: Vec<Value> = Vec::new();
    for node in &exported {
        let id = node.rule_key();
        if rule_ids.contains(&id) {
            continue;
        }
        rules.push(json!({
            "id": id,
            "shortDescription": {"text": node.text.title},
        }));
        rule_ids.push(id);
    }

    let results: Vec<Value> = exported
        .iter()
        .map(|node| {
            let rule = node.rule_key();
            let index = rule_ids
                .iter()
                .position(|r| *r == rule)
                .expect("rule listed");
            let mut result = Map::new();
            result.insert("ruleId".into(), json!(rule));
            result.insert("ruleIndex".into(), json!(index));
            result.insert("kind".into(), json!("fail"));
            result.insert("level".into(), json!(level(node.priority)));
            result.insert("message".into(), json!({"text": message(node)}));
            if let Some(location) = location(node) {
                result.insert("locations".into(), json!([location]));
            }
            if !node.fingerprint.is_empty() {
                result.insert(
                    "partialFingerprints".into(),
                    json!({PARTIAL_FINGERPRINT_KEY: node.fingerprint}),
                );
            }
            if node.status == Status::Dismissed {
                let reason = node
                    .history
                    .iter()
                    .rev()
                    .find(|t| t.to == Status::Dismissed)
                    .and_then(|t| t.reason.clone())
                    .unwrap_or_else(|| "dismissed in review-tui".to_string());
                result.insert(
                    "suppressions".into(),
                    json!([{"kind": "external", "status": "accepted", "justification": reason}]),
                );
            }
            let mut properties = json!({
                    "priority": node.priority.as_str(),
                    "confidence": node.confidence,
                    "status": node.status.as_str(),
                    "kind": node.kind.as_str(),
                    "category": node.category().as_str(),
                    "scope": match node.scope {
                        crate::review::Scope::InScope => "in_scope",
                        crate::review::Scope::OutOfScope => "out_of_scope",
                    },
                    "reviewer": node.origin.reviewer,
                    "source": node.origin.source.as_str(),
            });
            if *node.category() == Category::Security {
                // GitHub's score convention, on the result because nodes of one rule may differ;
                // our importer reads it back to the same priority.
                properties["security-severity"] = json!(security_severity(node.priority));
            }
            result.insert("properties".into(), properties);
            Value::Object(result)
        })
        .collect();

    json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {
                "name": "review-tui",
                "version": tool_version,
                "rules": rules,
            }},
            "results": results,
        }],
    })
}

fn level(priority: Priority) -> &'static str {
    match priority {
        Priority::P0 | Priority::P1 => "error",
        Priority::P2 => "warning",
        Priority::P3 => "note",
    }
}

fn security_severity(priority: Priority) -> &'static str {
    match priority {
        Priority::P0 => "9.5",
        Priority::P1 => "8.0",
        Priority::P2 => "5.0",
        Priority::P3 => "2.0",
    }
}

fn message(node: &ReviewNode) -> String {
    let evidence = node.text.evidence.trim();
    if evidence.is_empty() {
        node.text.title.clone()
    } else {
        format!("{}\n\n{evidence}", node.text.title)
    }
}

/// A RIGHT anchor gives a region; a LEFT anchor numbers lines of the old file, which is not the
/// artifact a SARIF consumer has, so it gives only the file.
fn location(node: &ReviewNode) -> Option<Value> {
    let anchor = node.anchor.as_ref()?;
    let artifact = json!({"uri": uri_encode(&anchor.path)});
    Some(match anchor.side {
        Side::Right => json!({"physicalLocation": {
            "artifactLocation": artifact,
            "region": {"startLine": anchor.start_line, "endLine": anchor.end_line},
        }}),
        Side::Left => json!({"physicalLocation": {"artifactLocation": artifact}}),
    })
}

/// Percent-encodes everything but unreserved characters and `/`, so any path is a valid
/// URI reference.
fn uri_encode(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    for byte in path.bytes() {
        if byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'.' | b'_' | b'~' | b'/') {
            out.push(byte as char);
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

#[cfg(test)]
mod tests;
