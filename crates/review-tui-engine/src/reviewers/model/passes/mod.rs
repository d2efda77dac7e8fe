//! The passes after the reviewers: peer round, verification, confidence scoring, root cause and
//! the lead's walkthrough.
//!
//! The peer round runs the reviewers again through the agent loop (their stances are events the
//! board applies). The other passes ask one question each and get a small JSON answer back
//! through [`converse`]; they return data, and the pipeline — the one writer — applies it
//! (a refutation becomes a dismissal through the status service). A pass that fails never
//! changes the verdict: its failure is a coverage note and every finding stays as it was.

pub mod lead;
mod notes;
pub mod peer;
pub mod root_cause;
pub mod score;
pub mod verify;

use std::path::{Path, PathBuf};
use std::sync::{Arc, LazyLock};
use std::time::Duration;

use regex::Regex;
use serde_json::Value;
use thiserror::Error;
use tokio::sync::watch;

use crate::review::node::ReviewNode;
use crate::reviewers::model::agent::{Bounds, Redactor};
use crate::reviewers::model::dispatch::cancelled;
use crate::reviewers::model::provider::{
    ChatRequest, FinishReason, Message, OutputSchema, Provider, ProviderError, RetryNotes,
    StructuredOutput, Usage, chat_heard,
};
use crate::reviewers::model::toolbox::{ToolBox, ToolError};

pub use notes::{PassNote, PassNotes};

/// What every pass needs: the read-only tools, the redactor, the worktree, the limits.
#[derive(Clone)]
pub struct Kit {
    pub tools: Arc<dyn ToolBox>,
    pub redactor: Arc<dyn Redactor>,
    /// The canonical worktree root.
    pub worktree: PathBuf,
    pub concurrency: usize,
    pub cancel: watch::Receiver<bool>,
    /// Per conversation of a pass.
    pub bounds: Bounds,
    /// Progress, retries and waits, for whoever watches the pass.
    pub notes: PassNotes,
}

impl Kit {
    /// This kit saying its notes on a channel of its own, and the channel's listening end.
    pub fn noting(&self) -> (Kit, tokio::sync::mpsc::UnboundedReceiver<PassNote>) {
        let (notes, heard) = PassNotes::channel();
        (
            Kit {
                notes,
                ..self.clone()
            },
            heard,
        )
    }
}

/// One question to a model: a system text, a user text and the JSON shape of the answer.
pub struct Question<'a> {
    /// Names the conversation in cassettes and logs (`verifier:engineer-1`).
    pub key: String,
    pub system: String,
    pub user: String,
    pub schema: OutputSchema,
    /// Offer the read-only tools (when the provider has function calling).
    pub tools: bool,
    pub provider: &'a Arc<dyn Provider>,
}

/// Why a pass's question got no usable answer. A pass that fails changes nothing: the text
/// becomes a coverage note (`verification of X failed (<this>); kept`).
#[derive(Debug, Error)]
pub enum PassError {
    #[error("cancelled")]
    Cancelled,
    #[error("timed out after {}", humantime::format_duration(*.0))]
    TimedOut(Duration),
    #[error(transparent)]
    Provider(#[from] ProviderError),
    #[error("used {used} tokens, over the max_tokens bound of {bound}")]
    OverTokens { used: u64, bound: u64 },
    #[error("stopped at {0} tool calls (the max_tool_calls bound)")]
    OverToolCalls(u32),
    #[error("the answer was cut at the output limit")]
    Cut,
    #[error("the answer is not a JSON object: {0}")]
    NotAnObject(String),
    #[error("the lead gave no walkthrough")]
    NoWalkthrough,
}

/// The JSON answer and what it cost, or why there is none.
pub async fn converse(kit: &Kit, question: Question<'_>) -> Result<(Value, Usage), PassError> {
    let mut cancel = kit.cancel.clone();
    let work = tokio::time::timeout(kit.bounds.timeout, ask(kit, &question));
    tokio::select! {
        biased;
        _ = cancelled(&mut cancel) => Err(PassError::Cancelled),
        answer = work => answer.unwrap_or(Err(PassError::TimedOut(kit.bounds.timeout))),
    }
}

async fn ask(kit: &Kit, question: &Question<'_>) -> Result<(Value, Usage), PassError> {
    let capabilities = question.provider.capabilities();
    let with_tools = question.tools && capabilities.tools;
    let enforced = !with_tools && capabilities.structured == StructuredOutput::JsonSchema;
    let mut system = kit.redactor.redact(&question.system);
    if !enforced {
        system.push_str(&format!(
            "\n\nAnswer with one JSON object and nothing else, following this JSON Schema:\n{}\n",
            question.schema.schema
        ));
    }
    let tools = if with_tools {
        kit.tools.specs()
    } else {
        Vec::new()
    };
    let mut messages = vec![Message::User {
        content: kit.redactor.redact(&question.user),
    }];
    let mut usage = Usage::default();
    let mut calls = 0u32;
    loop {
        let (retries, retried) = RetryNotes::channel();
        let request = ChatRequest {
            reviewer: question.key.clone(),
            system: system.clone(),
            messages: messages.clone(),
            tools: tools.clone(),
            output: enforced.then(|| question.schema.clone()),
            max_output_tokens: kit.bounds.max_output_tokens,
            retries,
        };
        let heard = chat_heard(question.provider.as_ref(), &request, retried, |heard| {
            kit.notes.say(PassNote::Heard(heard));
            std::future::ready(Ok::<(), std::convert::Infallible>(()))
        });
        let Ok(response) = heard.await;
        let response = response?;
        usage.add(crate::reviewers::model::budget::counted(
            &request, &response,
        ));
        if usage.total() > kit.bounds.max_tokens {
            return Err(PassError::OverTokens {
                used: usage.total(),
                bound: kit.bounds.max_tokens,
            });
        }
        if response.tool_calls.is_empty() {
            if response.finish == FinishReason::Length {
                return Err(PassError::Cut);
            }
            let text = response.text.unwrap_or_default();
            return json_object(&text)
                .map(|value| (value, usage))
                .ok_or_else(|| PassError::NotAnObject(clip(&text, 120)));
        }
        messages.push(Message::Assistant {
            text: response.text.clone(),
            tool_calls: response.tool_calls.clone(),
        });
        for call in &response.tool_calls {
            calls += 1;
            if calls > kit.bounds.max_tool_calls {
                return Err(PassError::OverToolCalls(kit.bounds.max_tool_calls));
            }
            let known = tools.iter().any(|t| t.name == call.name);
            let result = if !known {
                Err(ToolError::NoSuchTool(call.name.clone()))
            } else {
                let toolbox = kit.tools.clone();
                let (name, args) = (call.name.clone(), call.arguments.clone());
                tokio::task::spawn_blocking(move || toolbox.call(&name, &args))
                    .await
                    .unwrap_or_else(|_| Err(ToolError::Crashed(call.name.clone())))
            };
            let (content, is_error) = match result {
                Ok(text) => (text, false),
                Err(error) => (error.to_string(), true),
            };
            messages.push(Message::Tool {
                call_id: call.id.clone(),
                name: call.name.clone(),
                // Redacted before it is clipped, so the clip cannot cut a secret to a fragment.
                content: clip(&kit.redactor.redact(&content), 60_000),
                is_error,
            });
        }
    }
}

/// The first JSON object in a model's answer: the whole text, a fenced block, or the first
/// `{` that starts a valid object.
pub fn json_object(text: &str) -> Option<Value> {
    let trimmed = text.trim();
    if let Ok(value @ Value::Object(_)) = serde_json::from_str::<Value>(trimmed) {
        return Some(value);
    }
    for (at, _) in trimmed.match_indices('{').take(64) {
        let mut values = serde_json::Deserializer::from_str(&trimmed[at..]).into_iter::<Value>();
        if let Some(Ok(value @ Value::Object(_))) = values.next() {
            return Some(value);
        }
    }
    None
}

pub fn clip(text: &str, max_chars: usize) -> String {
    if text.chars().count() > max_chars {
        text.chars().take(max_chars).collect::<String>() + "…"
    } else {
        text.to_owned()
    }
}

/// A worktree file's text, for a path a model or a finding named. `None` for anything that is
/// not a regular file inside the worktree (absolute paths, `..`, links that lead out).
pub fn read_worktree_file(root: &Path, relative: &str) -> Option<String> {
    std::fs::read_to_string(confined(root, relative)?).ok()
}

/// [`read_worktree_file`], a byte that is not UTF-8 read as U+FFFD: one stray byte does not
/// make the file's text unreadable.
pub fn read_worktree_file_lossy(root: &Path, relative: &str) -> Option<String> {
    let bytes = std::fs::read(confined(root, relative)?).ok()?;
    Some(String::from_utf8_lossy(&bytes).into_owned())
}

/// `relative` under `root`, a regular file once links are followed, never outside `root`.
fn confined(root: &Path, relative: &str) -> Option<std::path::PathBuf> {
    let relative = Path::new(relative);
    if relative.is_absolute() {
        return None;
    }
    let full = root.join(relative).canonicalize().ok()?;
    let root = root.canonicalize().ok()?;
    (full.starts_with(&root) && full.is_file()).then_some(full)
}

/// The most lines an excerpt shows: an anchor that claims lines 1 to 4,000,000,000 gets the
/// first of them, as `read_file` would give.
pub const MAX_EXCERPT_LINES: u32 = 500;

/// Lines `start..=end` (1-based) of `text`, with `context` lines around, numbered as `read_file`
/// numbers them; at most [`MAX_EXCERPT_LINES`].
pub fn excerpt(text: &str, start: u32, end: u32, context: u32) -> String {
    let from = start.saturating_sub(context).max(1);
    let to = end
        .saturating_add(context)
        .min(from.saturating_add(MAX_EXCERPT_LINES - 1));
    text.lines()
        .enumerate()
        .map(|(i, line)| (i as u32 + 1, line))
        .filter(|(n, _)| *n >= from && *n <= to)
        .map(|(n, line)| format!("{n:>6} | {line}\n"))
        .collect()
}

/// A finding as another model is shown it: id, who, what, where, and its own words.
pub fn describe(node: &ReviewNode) -> String {
    let anchor = node
        .anchor
        .as_ref()
        .map(|a| format!("{a} ({})", a.side.as_str()))
        .unwrap_or_else(|| "(no anchor)".into());
    let mut out = format!(
        "- id: {}\n  by: {}\n  {} {} ({}), confidence {:.2}\n  at: {anchor}\n  title: {}\n",
        node.id,
        node.origin.reviewer,
        node.priority,
        node.kind.as_str(),
        node.triage.category,
        node.confidence,
        node.text.title.trim(),
    );
    for (label, text) in [
        ("body", &node.text.body),
        ("evidence", &node.text.evidence),
        ("impact", &node.text.impact),
    ] {
        if !text.trim().is_empty() {
            out.push_str(&format!("  {label}: {}\n", one_line(text, 600)));
        }
    }
    out
}

fn one_line(text: &str, max_chars: usize) -> String {
    clip(
        &text.split_whitespace().collect::<Vec<_>>().join(" "),
        max_chars,
    )
}

/// Collapses whitespace runs to one space and trims: how quotes and lines are compared.
pub fn normalise(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// A quoted line with the `  12 | ` prefix `read_file` adds taken off: models copy it along.
pub fn strip_line_number(line: &str) -> &str {
    static NUMBERED: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r"^\s*\d+\s*\|\s?").expect("a valid pattern"));
    match NUMBERED.find(line) {
        Some(found) => &line[found.end()..],
        None => line,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_is_found_bare_fenced_or_after_prose() {
        assert_eq!(json_object("{\"a\": 1}").unwrap()["a"], 1);
        assert_eq!(
            json_object("Sure.\n```json\n{\"a\": 2}\n```").unwrap()["a"],
            2
        );
        assert_eq!(json_object("I think {\"a\": 3} holds").unwrap()["a"], 3);
        assert!(json_object("no json here").is_none());
        assert!(json_object("[1, 2]").is_none());
    }

    #[test]
    fn worktree_files_are_read_only_inside_the_worktree() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        std::fs::create_dir(root.join("src")).unwrap();
        std::fs::write(root.join("src/a.rs"), "one\ntwo\n").unwrap();
        assert_eq!(
            read_worktree_file(&root, "src/a.rs").as_deref(),
            Some("one\ntwo\n")
        );
        assert!(read_worktree_file(&root, "../etc/passwd").is_none());
        assert!(read_worktree_file(&root, "/etc/passwd").is_none());
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink("/etc/hostname", root.join("src/out")).unwrap();
            assert!(read_worktree_file(&root, "src/out").is_none());
        }
    }

    #[test]
    fn excerpts_are_numbered_like_read_file() {
        let text = "a\nb\nc\nd\ne\n";
        assert_eq!(
            excerpt(text, 3, 3, 1),
            "     2 | b\n     3 | c\n     4 | d\n"
        );
        assert_eq!(
            strip_line_number("    33 |         let x = 1;"),
            "        let x = 1;"
        );
        assert_eq!(normalise("  let   x =\t1; "), "let x = 1;");
        let long = "line\n".repeat(2000);
        let shown = excerpt(&long, 1, u32::MAX, 30);
        assert_eq!(shown.lines().count(), MAX_EXCERPT_LINES as usize);
    }
}
