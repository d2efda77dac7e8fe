//! JSON a model wrote, read strictly. `serde_json` keeps the last of two equal keys, so
//! `{"priority": "P0", "priority": "P3"}` would be a P3 and `{"findings": [..], "findings":
//! null}` no findings: whichever value a reader believes, another reader of the same text
//! believes the other. A document with a repeated key is refused whole, at the boundary, and
//! the rest of the protocol never sees it. Everything else is `serde_json`'s own grammar (no
//! `NaN`, no trailing comma).

use std::fmt;

use serde::de::{self, DeserializeSeed, MapAccess, SeqAccess, Visitor};
use serde_json::Value;
use thiserror::Error;

/// Why a text is not one strict JSON value.
#[derive(Debug, Error)]
pub enum StrictError {
    #[error("not valid JSON ({0})")]
    Invalid(serde_json::Error),
    #[error("a key appears twice ({0}): which value is meant cannot be told")]
    DuplicateKey(String),
}

/// One JSON value, refusing repeated keys at any depth.
pub fn parse(text: &str) -> Result<Value, StrictError> {
    parse_slice(text.as_bytes())
}

/// [`parse`] over bytes.
pub fn parse_slice(bytes: &[u8]) -> Result<Value, StrictError> {
    // The ordinary reader first: its errors (syntax, a document cut short) are the ones callers
    // tell apart; only a document it accepts can still repeat a key.
    let value: Value = serde_json::from_slice(bytes).map_err(StrictError::Invalid)?;
    duplicate_in(bytes).map_or(Ok(value), |at| Err(StrictError::DuplicateKey(at)))
}

/// The first repeated key of a document the ordinary reader accepts, described, if any.
pub fn duplicate_in(bytes: &[u8]) -> Option<String> {
    let mut reader = serde_json::Deserializer::from_slice(bytes);
    match Unique.deserialize(&mut reader) {
        Ok(()) => None,
        Err(error) => Some(error.to_string()),
    }
}

/// Walks a value, failing on the first key an object repeats.
#[derive(Clone, Copy)]
struct Unique;

impl<'de> DeserializeSeed<'de> for Unique {
    type Value = ();

    fn deserialize<D: de::Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Unique {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_bool<E>(self, _: bool) -> Result<(), E> {
        Ok(())
    }
    fn visit_i64<E>(self, _: i64) -> Result<(), E> {
        Ok(())
    }
    fn visit_u64<E>(self, _: u64) -> Result<(), E> {
        Ok(())
    }
    fn visit_f64<E>(self, _: f64) -> Result<(), E> {
        Ok(())
    }
    fn visit_str<E>(self, _: &str) -> Result<(), E> {
        Ok(())
    }
    fn visit_unit<E>(self) -> Result<(), E> {
        Ok(())
    }
    fn visit_none<E>(self) -> Result<(), E> {
        Ok(())
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        while seq.next_element_seed(self)?.is_some() {}
        Ok(())
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let mut seen = std::collections::HashSet::new();
        while let Some(key) = map.next_key::<String>()? {
            if !seen.insert(key.clone()) {
                let shown: String = key.chars().take(40).collect();
                return Err(de::Error::custom(format!("`{shown}`")));
            }
            map.next_value_seed(self)?;
        }
        Ok(())
    }
}

/// What a broken document can still tell: `NaN`, `Infinity` and trailing commas (what models
/// write that JSON does not allow) mended, outside strings, then read the ordinary way. Only
/// ever used to know *which* finding was refused (its title and anchor), never to accept one.
pub fn mend(text: &str) -> Option<Value> {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.char_indices().peekable();
    let (mut in_string, mut escaped) = (false, false);
    while let Some((at, c)) = chars.next() {
        if in_string {
            out.push(c);
            match (escaped, c) {
                (true, _) => escaped = false,
                (false, '\\') => escaped = true,
                (false, '"') => in_string = false,
                _ => {}
            }
            continue;
        }
        let rest = &text[at..];
        if let Some(word) = ["-Infinity", "Infinity", "NaN"]
            .into_iter()
            .find(|w| rest.starts_with(w))
        {
            out.push_str("null");
            for _ in 1..word.chars().count() {
                chars.next();
            }
            continue;
        }
        if c == ',' {
            let next = rest[1..].trim_start().chars().next();
            if matches!(next, Some('}' | ']')) {
                continue;
            }
        }
        if c == '"' {
            in_string = true;
        }
        out.push(c);
    }
    serde_json::from_str(&out).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_repeated_key_is_refused_at_any_depth_and_named() {
        for text in [
            r#"{"priority": "P0", "priority": "P3"}"#,
            r#"{"findings": [{"a": 1}], "findings": null}"#,
            r#"[{"x": {"title": "a", "title": "b"}}]"#,
        ] {
            let refused = parse(text).unwrap_err();
            assert!(
                matches!(refused, StrictError::DuplicateKey(_)),
                "{text}: {refused}"
            );
        }
        assert_eq!(
            parse(r#"{"priority": "P0"}"#).unwrap(),
            json!({"priority": "P0"})
        );
        assert!(
            parse(r#"{"a": {"b": 1}, "b": 2}"#).is_ok(),
            "the same key in two objects is two keys"
        );
    }

    #[test]
    fn what_json_does_not_allow_stays_invalid() {
        for text in [r#"{"confidence": NaN}"#, r#"{"a": 1,}"#, "[1, 2,]"] {
            assert!(
                matches!(parse(text), Err(StrictError::Invalid(_))),
                "{text}"
            );
        }
    }

    #[test]
    fn mending_recovers_which_finding_was_meant_and_leaves_strings_alone() {
        let text = r#"{"confidence": NaN, "text": {"title": "NaN, here,]"}, "anchor": {"start_line": 3,},}"#;
        let mended = mend(text).unwrap();
        assert_eq!(mended["text"]["title"], "NaN, here,]");
        assert_eq!(mended["anchor"]["start_line"], 3);
        assert_eq!(mended["confidence"], json!(null));
        assert!(mend("{\"title\": ").is_none());
    }
}
