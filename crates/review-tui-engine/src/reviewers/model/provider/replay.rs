//! Reproducing a session offline: a [`Recorder`] wraps any provider and writes every turn to a
//! cassette file; a [`Replay`] answers from that file, in order, and refuses a turn whose
//! essentials (model, tools, message roles) differ from what was recorded, naming the step.
//!
//! Requests reach a provider already redacted, so a cassette holds no secret from the code;
//! API keys live in the HTTP layer and never enter a `ChatRequest`.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use serde::{Deserialize, Serialize};

use super::error::ProviderError;
use super::{AroundTurns, BoxFuture, Capabilities, ChatRequest, ChatResponse, Provider};

const CASSETTE_VERSION: u32 = 1;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Cassette {
    pub version: u32,
    /// The recorded provider's name and model.
    pub provider: String,
    pub model: String,
    /// Replayed as is, so the loop takes the same path (tools or one structured answer).
    pub capabilities: Capabilities,
    pub steps: Vec<CassetteStep>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CassetteStep {
    pub request: ChatRequest,
    pub outcome: StepOutcome,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StepOutcome {
    Response(ChatResponse),
    /// The provider failed; replayed as a failure with this message.
    Error(String),
}

impl Cassette {
    pub fn load(path: &Path) -> Result<Cassette, ProviderError> {
        let problem = |reason: String| ProviderError::config("replay", reason);
        let text = std::fs::read_to_string(path)
            .map_err(|e| problem(format!("cannot read the cassette {}: {e}", path.display())))?;
        let cassette: Cassette = serde_json::from_str(&text)
            .map_err(|e| problem(format!("{} is not a cassette: {e}", path.display())))?;
        if cassette.version != CASSETTE_VERSION {
            return Err(problem(format!(
                "{} is cassette version {}; this build reads version {CASSETTE_VERSION}",
                path.display(),
                cassette.version
            )));
        }
        Ok(cassette)
    }

    /// Written through the space's atomic writer, so a reader (or a crash) never sees half a
    /// cassette.
    pub fn save(&self, path: &Path) -> std::io::Result<()> {
        let text = serde_json::to_string_pretty(self).map_err(std::io::Error::other)?;
        crate::space::write_atomically(path, text.as_bytes())
    }
}

/// Wraps a provider and records each turn, rewriting the cassette after every step so a run
/// killed half-way still leaves what it did.
pub struct Recorder {
    inner: Arc<dyn Provider>,
    path: PathBuf,
    cassette: tokio::sync::Mutex<Cassette>,
}

impl Recorder {
    pub fn new(inner: Arc<dyn Provider>, path: impl Into<PathBuf>) -> Recorder {
        let cassette = Cassette {
            version: CASSETTE_VERSION,
            provider: inner.name().to_owned(),
            model: inner.model().to_owned(),
            capabilities: inner.capabilities(),
            steps: Vec::new(),
        };
        Recorder {
            inner,
            path: path.into(),
            cassette: tokio::sync::Mutex::new(cassette),
        }
    }

    pub async fn cassette(&self) -> Cassette {
        self.cassette.lock().await.clone()
    }
}

impl AroundTurns for Recorder {
    fn inner(&self) -> &dyn Provider {
        &*self.inner
    }

    fn turn<'a>(
        &'a self,
        request: &'a ChatRequest,
    ) -> BoxFuture<'a, Result<ChatResponse, ProviderError>> {
        Box::pin(async move {
            let result = self.inner.chat(request).await;
            let outcome = match &result {
                Ok(response) => StepOutcome::Response(response.clone()),
                Err(error) => StepOutcome::Error(error.to_string()),
            };
            let mut cassette = self.cassette.lock().await;
            cassette.steps.push(CassetteStep {
                request: request.clone(),
                outcome,
            });
            // Saved under the lock: parallel reviewers' steps land in the file in the order
            // they were recorded, and a later snapshot never loses to an earlier one.
            let snapshot = cassette.clone();
            let path = self.path.clone();
            let saved = tokio::task::spawn_blocking(move || snapshot.save(&path))
                .await
                .map_err(std::io::Error::other)
                .and_then(|r| r);
            drop(cassette);
            if let Err(e) = saved {
                return Err(ProviderError::config(
                    "recorder",
                    format!("cannot write the cassette {}: {e}", self.path.display()),
                ));
            }
            result
        })
    }
}

/// Answers from a cassette. Each reviewer's turns are matched in the order that reviewer
/// recorded them, so reviewers that ran in parallel replay regardless of interleaving.
pub struct Replay {
    cassette: Cassette,
    expected_model: Option<String>,
    /// Reviewer → how many of its steps were replayed.
    cursors: Mutex<HashMap<String, usize>>,
}

impl Replay {
    pub fn new(cassette: Cassette) -> Replay {
        Replay {
            cassette,
            expected_model: None,
            cursors: Mutex::new(HashMap::new()),
        }
    }

    pub fn from_file(path: &Path) -> Result<Replay, ProviderError> {
        Cassette::load(path).map(Replay::new)
    }

    /// Refuse to replay a cassette recorded with another model than the session asks for.
    pub fn expect_model(mut self, model: impl Into<String>) -> Replay {
        self.expected_model = Some(model.into());
        self
    }

    fn next_step(&self, request: &ChatRequest) -> Result<ChatResponse, ProviderError> {
        let turn = {
            let mut cursors = self.cursors.lock().unwrap_or_else(|p| p.into_inner());
            let cursor = cursors.entry(request.reviewer.clone()).or_insert(0);
            *cursor += 1;
            *cursor
        };
        let mut recorded = self
            .cassette
            .steps
            .iter()
            .enumerate()
            .filter(|(_, step)| step.request.reviewer == request.reviewer);
        let Some((index, step)) = recorded.nth(turn - 1) else {
            let total = self
                .cassette
                .steps
                .iter()
                .filter(|step| step.request.reviewer == request.reviewer)
                .count();
            return Err(ProviderError::Replay {
                step: self.cassette.steps.len() + 1,
                reviewer: request.reviewer.clone(),
                detail: format!(
                    "the cassette has no turn {turn} for this reviewer (it recorded {total})"
                ),
            });
        };
        let step_number = index + 1;
        let mismatch = |detail: String| ProviderError::Replay {
            step: step_number,
            reviewer: request.reviewer.clone(),
            detail,
        };
        if let Some(expected) = &self.expected_model
            && *expected != self.cassette.model
        {
            return Err(mismatch(format!(
                "model: the session asks for {expected}, the cassette recorded {}",
                self.cassette.model
            )));
        }
        if let Some(detail) = essential_difference(request, &step.request) {
            return Err(mismatch(detail));
        }
        match &step.outcome {
            StepOutcome::Response(response) => Ok(response.clone()),
            StepOutcome::Error(message) => Err(mismatch(format!("recorded failure: {message}"))),
        }
    }
}

/// What must be the same for a recorded answer to be an answer to this request. Message text is
/// not compared: the same session replayed later may differ in a timestamp or a path.
fn essential_difference(asked: &ChatRequest, recorded: &ChatRequest) -> Option<String> {
    let names = |r: &ChatRequest| r.tools.iter().map(|t| t.name.clone()).collect::<Vec<_>>();
    if names(asked) != names(recorded) {
        return Some(format!(
            "tool names differ: asked [{}], recorded [{}]",
            names(asked).join(", "),
            names(recorded).join(", ")
        ));
    }
    let roles = |r: &ChatRequest| r.messages.iter().map(|m| m.role()).collect::<Vec<_>>();
    if roles(asked) != roles(recorded) {
        return Some(format!(
            "messages differ: asked {} ({}), recorded {} ({})",
            asked.messages.len(),
            roles(asked).join(", "),
            recorded.messages.len(),
            roles(recorded).join(", ")
        ));
    }
    let schema = |r: &ChatRequest| r.output.as_ref().map(|o| o.name.clone());
    if schema(asked) != schema(recorded) {
        return Some(format!(
            "structured output differs: asked {:?}, recorded {:?}",
            schema(asked),
            schema(recorded)
        ));
    }
    None
}

impl Provider for Replay {
    fn name(&self) -> &str {
        "replay"
    }

    fn model(&self) -> &str {
        &self.cassette.model
    }

    fn capabilities(&self) -> Capabilities {
        self.cassette.capabilities
    }

    fn chat<'a>(
        &'a self,
        request: &'a ChatRequest,
    ) -> BoxFuture<'a, Result<ChatResponse, ProviderError>> {
        Box::pin(async move { self.next_step(request) })
    }
}
