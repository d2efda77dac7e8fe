//! Pieces of finding text shared by the Markdown summary and the inline comments: the evidence,
//! a labelled field, a safe code fence, and a finding that could not be placed inline.

use serde::Serialize;

use super::escape;
use super::select::Item;

/// A finding that should have been an inline comment but is not on the current diff.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct MovedFinding {
    pub fingerprint: String,
    /// `path:line` as the reviewer anchored it.
    pub location: String,
    pub title: String,
    pub reason: String,
}

/// Evidence from each report, named by its source when there are several.
pub(crate) fn evidence_text(item: &Item) -> String {
    match item.evidence.as_slice() {
        [] => String::new(),
        [(_, only)] => only.trim().to_string(),
        many => many
            .iter()
            .map(|(who, text)| format!("{who}: {}", text.trim()))
            .collect::<Vec<_>>()
            .join("\n"),
    }
}

/// `- **Label:** text`, continuation lines indented so they stay in the list item.
pub(crate) fn push_field(out: &mut String, label: &str, text: &str) {
    let text = text.trim();
    if text.is_empty() {
        return;
    }
    let text = escape::prose(text).replace('\n', "\n  ");
    out.push_str(&format!("- **{label}:** {text}\n"));
}

pub(crate) use crate::fence::fence_for;
