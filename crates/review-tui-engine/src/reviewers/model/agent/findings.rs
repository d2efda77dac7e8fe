//! Getting the JSON findings document out of a model's or a CLI agent's final answer: tolerant
//! about where it is (bare, fenced, wrapped in prose), strict about how many there are and what
//! they are. An answer must hold exactly one findings document: with two candidates (an empty
//! `[]` in the prose, then the real list; a fenced empty block, then another) the parser cannot
//! know which one the model meant, and picking the first would let any stray `[]` decide. Each
//! finding is then parsed as a `NodeDraft` and validated by the caller.

use serde_json::Value;
use thiserror::Error;

/// Prose around JSON can hold many brackets; past this many starts that are not JSON the answer
/// is refused rather than read in quadratic time.
const MAX_FAILED_STARTS: usize = 4096;

#[derive(Debug, Clone, PartialEq)]
pub struct Findings {
    /// Each candidate finding, unparsed.
    pub items: Vec<Value>,
    pub summary: Option<String>,
}

/// Why an answer holds no findings document; the text is what the model and the person read.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum FindingsError {
    #[error("the answer is empty")]
    Empty,
    #[error(
        "more than {MAX_FAILED_STARTS} brackets that start no JSON: the findings document \
         cannot be told apart"
    )]
    TooManyBrackets,
    #[error("no JSON findings in the answer (it starts: {start:?})")]
    NoJson { start: String },
    #[error(
        "the answer holds {0} candidate findings documents; exactly one is read, so the answer \
         is ambiguous: answer with a single JSON object"
    )]
    Ambiguous(usize),
    /// `findings` holds something else (`null` is not an empty list: the schema asks for an
    /// array, and a model that wrote null said nothing about what it found).
    #[error("`findings` is {0}, not an array")]
    FindingsNotAnArray(&'static str),
    #[error("the answer repeats a key ({0}): which value is meant cannot be told")]
    RepeatedKey(String),
    #[error("in `result`: {0}")]
    InResult(Box<FindingsError>),
    #[error(
        "a JSON object without `findings`: expected an array of findings or \
         {{\"findings\": [...]}}"
    )]
    NoFindingsKey,
    #[error("expected an array of findings or {{\"findings\": [...]}}, got {0}")]
    NotFindings(&'static str),
}

/// Accepts an array of findings, `{"findings": [...], "summary": ...}`, a single finding
/// object, or a CLI wrapper `{"result": "<text>"}` holding any of those. A whole answer that is
/// already valid JSON is read as one document, even when its strings contain code fences;
/// otherwise every JSON value in the text is looked at, and exactly one of them must be a
/// findings document.
pub fn extract(text: &str) -> Result<Findings, FindingsError> {
    extract_at(text, 0)
}

fn extract_at(text: &str, depth: u8) -> Result<Findings, FindingsError> {
    let trimmed = text.trim();
    if trimmed.is_empty() {
        return Err(FindingsError::Empty);
    }
    if let Ok(value) = serde_json::from_str::<Value>(trimmed) {
        refuse_repeated_keys(trimmed)?;
        return interpret(value, depth);
    }
    let mut candidates = Vec::new();
    let mut failed = 0usize;
    let mut at = 0usize;
    while let Some(offset) = trimmed[at..].find(['{', '[']) {
        let start = at + offset;
        let mut values = serde_json::Deserializer::from_str(&trimmed[start..]).into_iter::<Value>();
        match values.next() {
            Some(Ok(value)) => {
                // Whatever is inside a value that parsed is part of it, never a candidate of
                // its own.
                let end = start + values.byte_offset().max(1);
                refuse_repeated_keys(&trimmed[start..end])?;
                at = end;
                if is_candidate(&value) {
                    candidates.push(value);
                }
            }
            _ => {
                failed += 1;
                if failed > MAX_FAILED_STARTS {
                    return Err(FindingsError::TooManyBrackets);
                }
                at = start + 1;
            }
        }
    }
    match candidates.len() {
        0 => {
            let start: String = trimmed.chars().take(80).collect();
            Err(FindingsError::NoJson { start })
        }
        1 => interpret(candidates.pop().expect("one candidate"), depth),
        n => Err(FindingsError::Ambiguous(n)),
    }
}

/// A document that repeats a key is two documents to two readers: refused, never read as
/// whichever value came last (a `findings` list followed by `"findings": null`).
fn refuse_repeated_keys(text: &str) -> Result<(), FindingsError> {
    match crate::reviewers::model::strict_json::duplicate_in(text.as_bytes()) {
        Some(key) => Err(FindingsError::RepeatedKey(key)),
        None => Ok(()),
    }
}

/// Whether a JSON value found in prose could be what the model meant as its findings: an
/// object naming `findings` (whatever its value), a finding, a CLI wrapper, or an array that is
/// empty or holds objects. `[1, 2]` or `{"a": 1}` in the prose are examples, not answers.
fn is_candidate(value: &Value) -> bool {
    match value {
        Value::Array(items) => items.is_empty() || items.iter().any(Value::is_object),
        Value::Object(map) => {
            map.contains_key("findings")
                || (map.contains_key("kind") && map.contains_key("text"))
                || map.get("result").is_some_and(Value::is_string)
        }
        _ => false,
    }
}

fn interpret(value: Value, depth: u8) -> Result<Findings, FindingsError> {
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
                    // `null` is not an empty list: the schema asks for an array, and a model
                    // that wrote null said nothing about what it found.
                    other => Err(FindingsError::FindingsNotAnArray(kind_of(&other))),
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
                return extract_at(inner, 1).map_err(|e| FindingsError::InResult(Box::new(e)));
            }
            Err(FindingsError::NoFindingsKey)
        }
        other => Err(FindingsError::NotFindings(kind_of(&other))),
    }
}

/// "null", "a string", …: what a value is, in a sentence.
pub(super) fn kind_of(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
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
        assert!(extract("").unwrap_err().to_string().contains("empty"));
        assert!(
            extract("{not json")
                .unwrap_err()
                .to_string()
                .contains("no JSON findings")
        );
        assert!(
            extract("{\"verdict\": \"APPROVE\"}")
                .unwrap_err()
                .to_string()
                .contains("findings")
        );
        assert!(extract("42").unwrap_err().to_string().contains("a number"));
        assert!(extract("{}").is_err());
        assert!(extract("null").unwrap_err().to_string().contains("null"));
    }

    #[test]
    fn a_repeated_key_refuses_the_answer() {
        for text in [
            r#"{"findings": [{"kind": "bug", "text": {"title": "t"}}], "findings": null}"#,
            r#"Here: [{"kind": "bug", "priority": "P0", "priority": "P3", "text": {}}]"#,
        ] {
            let refused = extract(text).unwrap_err().to_string();
            assert!(refused.contains("repeats a key"), "{text}: {refused}");
        }
    }

    #[test]
    fn findings_null_is_not_an_empty_list() {
        let refused = extract("{\"findings\": null}").unwrap_err().to_string();
        assert!(refused.contains("null, not an array"), "{refused}");
    }

    #[test]
    fn two_candidate_documents_are_ambiguous() {
        let p0 = r#"{"findings": [{"kind": "bug", "text": {"title": "t"}}]}"#;
        for text in [
            format!("Nothing to report: []. Actually: {p0}"),
            format!("```json\n{{\"findings\": []}}\n```\nand\n```json\n{p0}\n```"),
            format!("{{\"findings\": null}} {p0}"),
            format!("{p0}\n{p0}"),
        ] {
            let refused = extract(&text).unwrap_err().to_string();
            assert!(refused.contains("ambiguous"), "{text}: {refused}");
        }
    }

    #[test]
    fn json_that_is_not_a_findings_document_is_not_a_candidate() {
        let text = r#"I looked at items[0] and {"a": 1}; the answer: {"findings": [{"x": 1}]}"#;
        assert_eq!(extract(text).unwrap().items, vec![json!({"x": 1})]);
        // The findings' own objects are part of the document, not candidates of their own.
        let nested = r#"Here: {"findings": [{"kind": "bug", "text": {"title": "[]"}}, []]} done"#;
        assert_eq!(extract(nested).unwrap().items.len(), 2);
    }
}
