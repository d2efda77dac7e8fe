//! Getting JSON findings out of a model's or a CLI agent's final answer: tolerant about where
//! the JSON is (bare, fenced, wrapped in prose), strict about what it is (each finding is then
//! parsed as a `NodeDraft` and validated by the caller).

use serde_json::Value;

/// Prose around JSON could hold many brackets; past this many failed starts we give up.
const MAX_CANDIDATES: usize = 64;

#[derive(Debug, Clone, PartialEq)]
pub struct Findings {
    /// Each candidate finding, unparsed.
    pub items: Vec<Value>,
    pub summary: Option<String>,
}

/// Accepts an array of findings, `{"findings": [...], "summary": ...}`, a single finding
/// object, or a CLI wrapper `{"result": "<text>"}` holding any of those. A whole answer that is
/// already valid JSON is read as one document, even when its strings contain code fences.
pub fn extract(text: &str) -> Result<Findings, String> {
    let trimmed = text.trim();
    if trimmed.is_empty() {
        return Err("the answer is empty".into());
    }
    if let Ok(value) = serde_json::from_str::<Value>(trimmed) {
        return interpret(value, 0);
    }
    let mut last_problem = None;
    for block in fenced_blocks(trimmed) {
        match serde_json::from_str::<Value>(block.trim()) {
            Ok(value) => match interpret(value, 0) {
                Ok(found) => return Ok(found),
                Err(problem) => last_problem = Some(problem),
            },
            Err(e) => last_problem = Some(format!("a fenced block is not valid JSON: {e}")),
        }
    }
    let starts = trimmed
        .char_indices()
        .filter(|(_, c)| matches!(c, '{' | '['))
        .map(|(i, _)| i)
        .take(MAX_CANDIDATES);
    for start in starts {
        let mut values = serde_json::Deserializer::from_str(&trimmed[start..]).into_iter::<Value>();
        if let Some(Ok(value)) = values.next()
            && let Ok(found) = interpret(value, 0)
        {
            return Ok(found);
        }
    }
    Err(last_problem.unwrap_or_else(|| {
        let end: String = trimmed.chars().take(80).collect();
        format!("no JSON findings in the answer (it starts: {end:?})")
    }))
}

fn interpret(value: Value, depth: u8) -> Result<Findings, String> {
    match value {
        Value::Array(items) => Ok(Findings {
            items,
            summary: None,
        }),
        Value::Object(mut map) => {
            let summary = map
                .get("summary")
                .and_then(Value::as_str)
                .map(str::to_owned);
            if let Some(findings) = map.remove("findings") {
                return match findings {
                    Value::Array(items) => Ok(Findings { items, summary }),
                    Value::Null => Ok(Findings {
                        items: Vec::new(),
                        summary,
                    }),
                    _ => Err("`findings` is not an array".into()),
                };
            }
            if map.contains_key("kind") && map.contains_key("text") {
                return Ok(Findings {
                    items: vec![Value::Object(map)],
                    summary: None,
                });
            }
            // `claude -p --output-format json` and similar wrap the answer text.
            if depth == 0
                && let Some(Value::String(inner)) = map.get("result")
            {
                return extract(inner).map_err(|e| format!("in `result`: {e}"));
            }
            Err(
                "a JSON object without `findings`: expected an array of findings or \
                 {\"findings\": [...]}"
                    .into(),
            )
        }
        other => Err(format!(
            "expected an array of findings or {{\"findings\": [...]}}, got {}",
            kind_of(&other)
        )),
    }
}

fn kind_of(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// The bodies of ``` fences, `json`-tagged ones first.
fn fenced_blocks(text: &str) -> Vec<&str> {
    let mut tagged = Vec::new();
    let mut plain = Vec::new();
    let mut rest = text;
    while let Some(open) = rest.find("```") {
        let after = &rest[open + 3..];
        let Some(line_end) = after.find('\n') else {
            break;
        };
        let info = after[..line_end].trim().to_ascii_lowercase();
        let body_start = line_end + 1;
        let Some(close) = after[body_start..].find("```") else {
            break;
        };
        let body = &after[body_start..body_start + close];
        if info.starts_with("json") {
            tagged.push(body);
        } else {
            plain.push(body);
        }
        rest = &after[body_start + close + 3..];
    }
    tagged.extend(plain);
    tagged
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn bare_array_and_wrapper() {
        assert_eq!(extract("[{\"a\":1}]").unwrap().items, vec![json!({"a": 1})]);
        let found = extract("{\"findings\": [], \"summary\": \"nothing\"}").unwrap();
        assert!(found.items.is_empty());
        assert_eq!(found.summary.as_deref(), Some("nothing"));
    }

    #[test]
    fn a_valid_document_is_read_whole_even_with_fences_inside() {
        let text = r#"{"findings": [{"kind": "bug", "text": {"body": "```json\n[1]\n```"}}]}"#;
        let found = extract(text).unwrap();
        assert_eq!(found.items.len(), 1);
        assert_eq!(found.items[0]["kind"], "bug");
    }

    #[test]
    fn fenced_json_inside_prose() {
        let text = "Here is my review.\n\n```json\n{\"findings\": [{\"x\": 1}]}\n```\nThanks!";
        assert_eq!(extract(text).unwrap().items, vec![json!({"x": 1})]);
    }

    #[test]
    fn unfenced_json_after_prose() {
        let text = "I looked [carefully]. Result: [{\"x\": 2}] -- done";
        assert_eq!(extract(text).unwrap().items, vec![json!({"x": 2})]);
    }

    #[test]
    fn cli_result_wrapper() {
        let inner = "```json\n[{\"x\": 3}]\n```";
        let text = json!({"type": "result", "result": inner}).to_string();
        assert_eq!(extract(&text).unwrap().items, vec![json!({"x": 3})]);
    }

    #[test]
    fn failures_say_why() {
        assert!(extract("").unwrap_err().contains("empty"));
        assert!(
            extract("{not json")
                .unwrap_err()
                .contains("no JSON findings")
        );
        assert!(
            extract("{\"verdict\": \"APPROVE\"}")
                .unwrap_err()
                .contains("findings")
        );
        assert!(extract("42").unwrap_err().contains("a number"));
    }
}
