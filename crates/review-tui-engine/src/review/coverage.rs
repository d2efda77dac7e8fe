//! What a round read, what it could not, and what it dropped: part of the round's record, so a
//! summary published later (from the cockpit, after a reopen) says exactly what the run said.

use serde::{Deserialize, Serialize};

/// What the report needs to say about coverage: what was read, what was not, what was dropped.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Coverage {
    #[serde(default)]
    pub files_reviewed: Vec<String>,
    /// (path, why) for files no reviewer could read.
    #[serde(default)]
    pub files_skipped: Vec<(String, String)>,
    /// (reviewer, reason) for payloads that did not validate and stances that were refused.
    #[serde(default)]
    pub dropped: Vec<(String, String)>,
    #[serde(default)]
    pub notes: Vec<String>,
    /// The pre-run estimate of what the model reviewers are sent.
    #[serde(default)]
    pub estimate: Option<Estimate>,
    /// Model findings the verification pass refuted with a quote from the code.
    #[serde(default)]
    pub refuted: Vec<Refutation>,
    /// What the model passes spent and how the budget stands.
    #[serde(default)]
    pub spent: Option<String>,
}

/// The estimate shown before dispatch.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Estimate {
    pub reviewers: usize,
    /// Diff parts: each is its own conversation per reviewer.
    pub parts: usize,
    /// All parts once.
    pub context_tokens: usize,
    /// What the reviewers' first messages add up to, before tool results and answers.
    pub input_tokens: usize,
}

impl std::fmt::Display for Estimate {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "estimate: about {} input tokens for {} reviewer(s) over {} diff part(s) \
             ({} tokens of context), before tool results and answers",
            self.input_tokens, self.reviewers, self.parts, self.context_tokens
        )
    }
}

/// A finding the verifier refuted with a quote that exists in the file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Refutation {
    pub node_id: String,
    pub title: String,
    pub path: String,
    pub quote: String,
    pub reason: String,
}
