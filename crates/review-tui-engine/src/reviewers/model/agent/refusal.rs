//! What the model is told when one of its calls is refused: a finding that does not validate, a
//! `finish` that may not end the review yet, a stance on its own finding, a tool that failed.
//! It travels back as the call's tool result (marked as an error) so the model can correct
//! itself; it is never an error of the loop, which goes on.

use std::fmt;

use crate::reviewers::model::toolbox::ToolError;

/// The text of one refused call, as the model reads it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal(String);

impl Refusal {
    pub fn new(reason: impl Into<String>) -> Refusal {
        Refusal(reason.into())
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Refusal {}

impl From<ToolError> for Refusal {
    fn from(error: ToolError) -> Refusal {
        Refusal(error.to_string())
    }
}

/// The answer to one call: the text the model reads, or why the call was refused.
pub type CallAnswer = Result<String, Refusal>;
