//! The agent loop: runs one model reviewer over a provider and streams what it finds.
//!
//! With a tool-capable provider the model reads through the read-only [`ToolBox`] and reports
//! through `add_review_node`, `confirm_node`, `dispute_node` and `finish`; without tools it
//! answers once with one JSON findings document (structured output where the provider offers
//! it). Every finding is parsed as a `NodeDraft`, validated, and grounded in the diff (its anchor
//! must exist, its scope is computed): valid ones become `NodeAdded` events, invalid ones
//! `Dropped` (and, with tools, the model is told which field to fix so it can resubmit).
//!
//! The protocol decides what counts as a finished review, never the model's words. With tools,
//! a review ends OK only through a valid `finish` call made when no rejected finding is left
//! unresolved; an answer that is not a tool call (prose, JSON, nothing), a broken tool call or a
//! refused `finish` gets one corrective turn, and a second makes the reviewer `invalid_output`,
//! as does a finding still invalid at the end. Without tools, the answer must hold exactly one
//! findings document whose every item validates. `invalid_output` makes the verdict
//! Inconclusive. Every text bound for the provider passes through the [`Redactor`] first.

mod findings;
mod ground;
mod prompt;
mod refusal;

#[cfg(test)]
mod props;
#[cfg(test)]
mod protocol_props;

use std::collections::HashSet;
use std::sync::Arc;
use std::time::Duration;

use serde::Deserialize;
use serde_json::Value;
use tokio::sync::{mpsc, watch};

use crate::review::events::{EventKind, ReviewEvent, RunId};
use crate::review::node::{NodeDraft, Origin, ReviewNode, Source};
use crate::review::validate::Invalid;
use crate::review::verdict::Outcome;
use crate::reviewers::model::provider::{
    ChatRequest, ChatResponse, FinishReason, Message, Provider, StructuredOutput, ToolCall,
    ToolSpec, Usage,
};
use crate::reviewers::model::toolbox::{ToolBox, ToolError};

/// Prices live with the budget that spends them; callers name them beside the agent.
pub use crate::reviewers::model::budget::Pricing;
pub use crate::reviewers::redact::{NoRedaction, Redactor};
use findings::kind_of;
pub use findings::{Findings, FindingsError, extract as extract_findings};
pub use prompt::{
    ContextPart, OUTPUT_TOOLS, UNTRUSTED_TAG, context_message, findings_output, findings_schema,
    output_tools, system_prompt,
};
pub use refusal::{CallAnswer, Refusal};

/// A tool answer longer than this is cut: one huge file should not eat the token budget.
const MAX_TOOL_RESULT_CHARS: usize = 60_000;
/// Summaries and reasons are lines in a pane, not documents.
const MAX_SUMMARY_CHARS: usize = 2_000;
/// Turns that broke the protocol (no tool call, a broken call, a refused `finish`) the model is
/// asked to redo; the next one ends the reviewer `invalid_output`.
const MAX_CORRECTIONS: u32 = 1;

/// Per-reviewer limits. Hitting one fails the reviewer with a reason naming it.
#[derive(Debug, Clone, PartialEq)]
pub struct Bounds {
    /// Every call counts, read-only and output tools alike.
    pub max_tool_calls: u32,
    /// Input plus output tokens over all turns, as the provider reports them.
    pub max_tokens: u64,
    /// The most the model may write in one turn.
    pub max_output_tokens: u32,
    /// Wall clock for the whole reviewer, provider retries included.
    pub timeout: Duration,
}

impl Default for Bounds {
    fn default() -> Self {
        Bounds {
            max_tool_calls: 60,
            max_tokens: 400_000,
            max_output_tokens: 8_192,
            timeout: Duration::from_secs(600),
        }
    }
}

/// One reviewer to run.
#[derive(Debug, Clone)]
pub struct ReviewerSpec {
    pub run: RunId,
    /// The reviewer's name: a role (`engineer`, `security`). Node ids are `<name>-<n>`.
    pub name: String,
    /// Required reviewers make the run Inconclusive when they fail.
    pub required: bool,
    /// The role's brief: who it is and what it looks for.
    pub brief: String,
    /// The first user message, in order. The caller labels the PR's own text as untrusted.
    pub context: Vec<ContextPart>,
    pub bounds: Bounds,
    pub pricing: Option<Pricing>,
}

impl ReviewerSpec {
    pub fn new(
        run: RunId,
        name: impl Into<String>,
        brief: impl Into<String>,
        context: Vec<ContextPart>,
    ) -> ReviewerSpec {
        ReviewerSpec {
            run,
            name: name.into(),
            required: true,
            brief: brief.into(),
            context,
            bounds: Bounds::default(),
            pricing: None,
        }
    }
}

/// How a reviewer ended, also streamed as its last event.
#[derive(Debug, Clone, PartialEq)]
pub struct RunReport {
    pub outcome: Outcome,
    /// The summary when done, the reason otherwise.
    pub note: String,
    pub nodes_added: usize,
    pub dropped: usize,
    pub tokens_used: u64,
}

/// A model reviewer's machinery: the provider, its read-only tools and the redactor. Cheap to
/// share between reviewers (everything is behind `Arc`).
#[derive(Clone)]
pub struct Agent {
    provider: Arc<dyn Provider>,
    tools: Arc<dyn ToolBox>,
    redactor: Arc<dyn Redactor>,
}

impl Agent {
    pub fn new(
        provider: Arc<dyn Provider>,
        tools: Arc<dyn ToolBox>,
        redactor: Arc<dyn Redactor>,
    ) -> Agent {
        Agent {
            provider,
            tools,
            redactor,
        }
    }

    /// Runs one reviewer to its end: `Started`, then nodes, drops and progress, then `Done` or
    /// `Failed`. Setting `cancel` to true stops it (as `Failed`, "cancelled"). If the event
    /// receiver is gone the reviewer stops quietly: nobody is listening.
    pub async fn run(
        &self,
        spec: ReviewerSpec,
        events: mpsc::Sender<ReviewEvent>,
        mut cancel: watch::Receiver<bool>,
    ) -> RunReport {
        let out = Emitter {
            events,
            run: spec.run,
            reviewer: spec.name.clone(),
        };
        let mut tally = Tally::default();
        let end = if out
            .send(EventKind::Started {
                required: spec.required,
            })
            .await
        {
            let cancelled = async {
                // A dropped sender means nobody can cancel any more.
                if cancel.wait_for(|stop| *stop).await.is_err() {
                    std::future::pending::<()>().await;
                }
            };
            let work =
                tokio::time::timeout(spec.bounds.timeout, self.work(&spec, &out, &mut tally));
            tokio::select! {
                biased;
                _ = cancelled => End::Failed(Outcome::Failed, "cancelled".into()),
                finished = work => finished.unwrap_or_else(|_| End::Failed(
                    Outcome::Failed,
                    format!(
                        "timed out after {} (the reviewer's wall-clock bound)",
                        humantime::format_duration(spec.bounds.timeout)
                    ),
                )),
            }
        } else {
            End::Abandoned
        };
        let (outcome, note, kind) = match end {
            End::Done(summary) => (
                Outcome::Ok,
                summary.clone(),
                Some(EventKind::Done { summary }),
            ),
            End::Failed(outcome, reason) => (
                outcome,
                reason.clone(),
                Some(EventKind::Failed { outcome, reason }),
            ),
            End::Abandoned => (Outcome::Failed, "nobody is listening".into(), None),
        };
        if let Some(kind) = kind {
            out.send(kind).await;
        }
        RunReport {
            outcome,
            note,
            nodes_added: tally.nodes_added,
            dropped: tally.dropped,
            tokens_used: tally.usage.total(),
        }
    }

    async fn work(&self, spec: &ReviewerSpec, out: &Emitter, tally: &mut Tally) -> End {
        let capabilities = self.provider.capabilities();
        let schema_in_text = capabilities.structured != StructuredOutput::JsonSchema;
        let system = self.redactor.redact(&system_prompt(
            &spec.brief,
            capabilities.tools,
            schema_in_text,
        ));
        let redacted: Vec<ContextPart> = spec
            .context
            .iter()
            .map(|part| ContextPart {
                label: self.redactor.redact(&part.label),
                text: self.redactor.redact(&part.text),
                untrusted: part.untrusted,
            })
            .collect();
        let context = context_message(&redacted);
        let mut turn = Turn {
            agent: self,
            spec,
            out,
            tally,
        };
        if capabilities.tools {
            turn.with_tools(system, context).await
        } else {
            turn.structured(system, context).await
        }
    }
}

enum End {
    Done(String),
    Failed(Outcome, String),
    /// The event receiver was dropped.
    Abandoned,
}

/// The context sources of `consulted` that `node`'s words name (`mcp:tickets/get_issue`): a
/// model's claim that its evidence came from a source counts only for a source that really
/// answered it in this run.
fn consulted_in(node: &ReviewNode, consulted: &std::collections::BTreeSet<String>) -> Vec<String> {
    let t = &node.text;
    let words = [
        &t.evidence,
        &t.body,
        &t.verification,
        &t.impact,
        &node.reasoning,
    ];
    consulted
        .iter()
        .filter(|origin| words.iter().any(|w| w.contains(origin.as_str())))
        .cloned()
        .collect()
}

#[derive(Default)]
struct Tally {
    usage: Usage,
    tool_calls: u32,
    /// Findings submitted, valid or not.
    attempts: usize,
    nodes_added: usize,
    dropped: usize,
    own_ids: HashSet<String>,
    /// Corrective turns given so far.
    corrections: u32,
    /// Findings refused and not yet resubmitted in a valid form, oldest first.
    rejected: Vec<Rejected>,
    /// The context sources (`mcp:<name>/<tool>`) that answered this reviewer: the only ones a
    /// finding of its may say its evidence came from.
    consulted: std::collections::BTreeSet<String>,
}

/// A refused finding the model still owes a valid resubmission of: a later valid finding with
/// the same identity — the title it gave and the anchor it gave (unless the anchor is what was
/// refused) — settles it. One whose identity cannot be read (arguments that are not JSON and
/// cannot be mended, a `findings` that could not be read) is settled by nothing: the review
/// cannot end valid, since the refused finding may be the blocking one.
#[derive(Debug, Clone)]
struct Rejected {
    title: Option<String>,
    anchor: Option<(String, u64)>,
    /// The refusal named the anchor: the resubmission may point elsewhere.
    anchor_refused: bool,
    problem: String,
}

impl Rejected {
    fn of(payload: &Value, problem: String) -> Rejected {
        let mended = match payload {
            Value::String(raw) => crate::reviewers::model::strict_json::mend(raw),
            _ => None,
        };
        let (title, anchor) = identity(mended.as_ref().unwrap_or(payload));
        Rejected {
            title,
            anchor,
            anchor_refused: problem.contains("anchor"),
            problem,
        }
    }

    /// A finding whose identity is unknown.
    fn unknown(problem: String) -> Rejected {
        Rejected {
            title: None,
            anchor: None,
            anchor_refused: false,
            problem,
        }
    }

    fn settled_by(&self, title: &Option<String>, anchor: &Option<(String, u64)>) -> bool {
        if self.title.is_none() && self.anchor.is_none() {
            return false;
        }
        let same_title = self.title.is_none() || self.title == *title;
        let same_anchor = self.anchor.is_none() || self.anchor_refused || self.anchor == *anchor;
        same_title && same_anchor
    }
}

/// What identifies a finding across a rejection and its resubmission: its title (case and
/// spacing aside) and where it points.
/// Whether the arguments of a call nobody can name could be a finding: an object (or JSON text
/// of one) with any field only a finding has.
fn may_hold_finding(arguments: &Value) -> bool {
    let mended = match arguments {
        Value::String(raw) => serde_json::from_str(raw)
            .ok()
            .or_else(|| crate::reviewers::model::strict_json::mend(raw)),
        _ => None,
    };
    let value = mended.as_ref().unwrap_or(arguments);
    ["priority", "anchor", "text", "triage", "kind"]
        .iter()
        .any(|key| value.get(key).is_some())
}

fn identity(payload: &Value) -> (Option<String>, Option<(String, u64)>) {
    let title = payload
        .pointer("/text/title")
        .and_then(Value::as_str)
        .map(|t| {
            t.split_whitespace()
                .collect::<Vec<_>>()
                .join(" ")
                .to_lowercase()
        })
        .filter(|t| !t.is_empty());
    let anchor = payload
        .pointer("/anchor/path")
        .and_then(Value::as_str)
        .zip(
            payload
                .pointer("/anchor/start_line")
                .and_then(Value::as_u64),
        )
        .map(|(path, line)| (path.to_owned(), line));
    (title, anchor)
}

struct Emitter {
    events: mpsc::Sender<ReviewEvent>,
    run: RunId,
    reviewer: String,
}

impl Emitter {
    /// False when the receiver is gone.
    async fn send(&self, kind: EventKind) -> bool {
        self.events
            .send(ReviewEvent::new(self.run, self.reviewer.clone(), kind))
            .await
            .is_ok()
    }
}

/// Early exits inside a turn: `?` on anything that ends the reviewer.
type Step<T> = Result<T, End>;

struct Turn<'a> {
    agent: &'a Agent,
    spec: &'a ReviewerSpec,
    out: &'a Emitter,
    tally: &'a mut Tally,
}

impl Turn<'_> {
    async fn with_tools(&mut self, system: String, context: String) -> End {
        match self.tool_loop(system, context).await {
            Ok(end) | Err(end) => end,
        }
    }

    async fn tool_loop(&mut self, system: String, context: String) -> Step<End> {
        let mut tools = output_tools();
        // The output tools' names are reserved: a toolbox cannot shadow them.
        tools.extend(
            self.agent
                .tools
                .specs()
                .into_iter()
                .filter(|spec| !OUTPUT_TOOLS.contains(&spec.name.as_str())),
        );
        let mut messages = vec![Message::User { content: context }];
        let mut turn = 0u32;
        loop {
            turn += 1;
            let response = self.ask(&system, &messages, &tools, false, turn).await?;
            if let FinishReason::Failed { reason } = &response.finish {
                // The server says the answer failed: nothing in it is read, calls included.
                messages.push(Message::Assistant {
                    text: response.text.clone(),
                    tool_calls: Vec::new(),
                });
                let why = format!("the answer ended with finish_reason `{}`", clip(reason, 40));
                self.correct(&mut messages, turn, &why, None).await?;
                continue;
            }
            // A call that could not be read (no name) may have been a finding: it is owed
            // like a refused one, until resubmitted with its title and anchor.
            for input in response.unread.iter().filter(|i| may_hold_finding(i)) {
                self.tally.rejected.push(Rejected::of(
                    input,
                    "it came in a tool call without a name".into(),
                ));
            }
            if response.tool_calls.is_empty() {
                self.answered_without_calls(&mut messages, &response, turn)
                    .await?;
                continue;
            }
            messages.push(Message::Assistant {
                text: response.text.clone(),
                tool_calls: response.tool_calls.clone(),
            });
            let (finished, refused_finish) = self.answer_calls(&response, &mut messages).await?;
            if let Some(summary) = finished {
                return Ok(self.conclude(summary));
            }
            if let Some(why) = refused_finish {
                // The refusal is in the call's answer; this only counts it.
                self.count_correction(turn, &format!("finish refused: {why}"))
                    .await?;
            } else if !response.malformed.is_empty() {
                let why = format!(
                    "some of the answer's tool calls could not be read ({})",
                    response.malformed.join("; ")
                );
                self.correct(&mut messages, turn, &why, None).await?;
            }
            self.check_tokens()?;
        }
    }

    /// An answer without a tool call: refused or cut by the provider, the reviewer fails;
    /// anything else (prose, JSON findings, `{}`, nothing) is not a finished review, and none
    /// of it is read as findings (a model that can call tools must use them): corrected.
    async fn answered_without_calls(
        &mut self,
        messages: &mut Vec<Message>,
        response: &ChatResponse,
        turn: u32,
    ) -> Step<()> {
        let text = response.text.clone().unwrap_or_default();
        match response.finish {
            FinishReason::ContentFilter => {
                return Err(End::Failed(
                    Outcome::Failed,
                    format!("the model refused: {}", clip(text.trim(), 300)),
                ));
            }
            // A review cut mid-sentence is incomplete, whatever it says so far.
            FinishReason::Length => {
                return Err(End::Failed(
                    Outcome::Failed,
                    format!(
                        "the answer was cut at {} output tokens (the max_output_tokens bound)",
                        self.spec.bounds.max_output_tokens
                    ),
                ));
            }
            _ => {}
        }
        messages.push(Message::Assistant {
            text: response.text.clone(),
            tool_calls: Vec::new(),
        });
        let why = match (text.trim(), response.malformed.is_empty()) {
            (_, false) => format!(
                "the answer's tool calls could not be read ({})",
                response.malformed.join("; ")
            ),
            ("", true) => "the answer was empty".to_owned(),
            (words, true) => format!(
                "the answer was text, not a tool call (it starts: {:?})",
                clip(words, 80)
            ),
        };
        self.correct(messages, turn, &why, None).await
    }

    /// Answers the turn's calls, each answer appended to `messages` in the calls' order:
    /// findings and reads first, `finish` last, as whether the review may end depends on what
    /// the rest of the turn did. The summary when `finish` ended the review, or why it was
    /// refused.
    async fn answer_calls(
        &mut self,
        response: &ChatResponse,
        messages: &mut Vec<Message>,
    ) -> Step<(Option<String>, Option<Refusal>)> {
        let mut answers: Vec<Option<(String, bool)>> = vec![None; response.tool_calls.len()];
        let order = (0..response.tool_calls.len())
            .filter(|&i| response.tool_calls[i].name != prompt::FINISH)
            .chain(
                (0..response.tool_calls.len())
                    .filter(|&i| response.tool_calls[i].name == prompt::FINISH),
            );
        let mut finished = None;
        let mut refused_finish = None;
        for index in order {
            let call = &response.tool_calls[index];
            self.tally.tool_calls += 1;
            if self.tally.tool_calls > self.spec.bounds.max_tool_calls {
                return Err(End::Failed(
                    Outcome::Failed,
                    format!(
                        "stopped at {} tool calls (the max_tool_calls bound)",
                        self.spec.bounds.max_tool_calls
                    ),
                ));
            }
            let answer = if call.name == prompt::FINISH {
                if finished.is_some() {
                    Ok("already finished".to_owned())
                } else {
                    match self.finish(call, &response.malformed).await? {
                        Ok(summary) => {
                            finished = Some(summary);
                            Ok("finished".to_owned())
                        }
                        Err(why) => {
                            let told = Refusal::new(format!("not finished: {why}"));
                            refused_finish = Some(why);
                            Err(told)
                        }
                    }
                }
            } else {
                self.dispatch(call).await?
            };
            answers[index] = Some(match answer {
                Ok(text) => (text, false),
                Err(refusal) => (refusal.to_string(), true),
            });
        }
        for (call, answer) in response.tool_calls.iter().zip(answers) {
            let (content, is_error) = answer.unwrap_or_default();
            messages.push(Message::Tool {
                call_id: call.id.clone(),
                name: call.name.clone(),
                // Redacted before it is clipped: a clip through a secret would leave a
                // fragment no rule recognises.
                content: clip(&self.agent.redactor.redact(&content), MAX_TOOL_RESULT_CHARS),
                is_error,
            });
        }
        Ok((finished, refused_finish))
    }

    /// A turn that broke the protocol: counted, and the model is told what to do instead, once.
    /// The next one ends the reviewer `invalid_output`.
    async fn correct(
        &mut self,
        messages: &mut Vec<Message>,
        turn: u32,
        why: &str,
        extra: Option<&str>,
    ) -> Step<()> {
        self.count_correction(turn, why).await?;
        messages.push(Message::User {
            content: format!(
                "Your last answer was not read: {why}. In this review, findings are reported \
                 only with add_review_node (one call per finding), and the review ends only with \
                 a call to finish. Text answers are not read. Report your findings with \
                 add_review_node, then call finish with a short summary.{}",
                extra.map(|e| format!(" {e}")).unwrap_or_default()
            ),
        });
        Ok(())
    }

    async fn count_correction(&mut self, turn: u32, why: &str) -> Step<()> {
        self.tally.corrections += 1;
        self.tally.dropped += 1;
        self.emit(EventKind::Dropped {
            reason: format!("turn {turn}: {why}"),
        })
        .await?;
        if self.tally.corrections > MAX_CORRECTIONS {
            return Err(End::Failed(
                Outcome::InvalidOutput,
                format!(
                    "did not follow the reviewer protocol after being told how ({why}); a review \
                     ends only through a valid finish call"
                ),
            ));
        }
        Ok(())
    }

    /// A `finish` call: `Ok(summary)` when the review may end, `Err(why)` (told to the model)
    /// when it may not. Findings placed in its arguments are submitted like `add_review_node`
    /// calls, never ignored.
    async fn finish(&mut self, call: &ToolCall, malformed: &[String]) -> Step<CallAnswer> {
        let Value::Object(args) = &call.arguments else {
            // Findings in arguments that could not be read are owed, not forgotten.
            if let Value::String(raw) = &call.arguments {
                let mended = crate::reviewers::model::strict_json::mend(raw);
                match mended.as_ref().and_then(|v| v.get("findings")) {
                    Some(findings) if !findings.is_null() => self.owe(findings),
                    _ if raw.contains("findings") => self.owe(&Value::Null),
                    _ => {}
                }
            }
            return Ok(Err(Refusal::new(format!(
                "its arguments are not a JSON object ({}); call finish with {{\"summary\": \"...\"}}",
                arguments_problem(&call.arguments)
            ))));
        };
        let summary = match args.get("summary") {
            None | Some(Value::Null) => String::new(),
            Some(Value::String(summary)) => summary.clone(),
            Some(_) => return Ok(Err(Refusal::new("`summary` must be a string"))),
        };
        for (key, value) in args {
            match (key.as_str(), value) {
                ("summary", _) => {}
                ("findings", Value::Array(items)) => {
                    for item in items {
                        let _ = self.submit(item.clone()).await?;
                    }
                }
                // A list written as a string, one finding as an object, null: not a list of
                // findings. Whatever it holds is owed, and this finish refused.
                ("findings", other) => {
                    if !other.is_null() {
                        self.owe(other);
                    }
                    return Ok(Err(Refusal::new(format!(
                        "`findings` must be an array of findings, not {}; report each finding \
                         with add_review_node",
                        kind_of(other)
                    ))));
                }
                // A verdict or a note is the model's opinion: not read, not refused.
                (_, Value::Null | Value::Bool(_) | Value::Number(_) | Value::String(_)) => {}
                (key, _) => {
                    return Ok(Err(Refusal::new(format!(
                        "finish takes only `summary`, and `{}` holds data that would be lost; \
                         report each finding with add_review_node",
                        clip(key, 40)
                    ))));
                }
            }
        }
        // Refused only after its findings were submitted: a broken call beside it must not
        // make a finding in its arguments vanish unrecorded and unrefused.
        if !malformed.is_empty() {
            return Ok(Err(Refusal::new(format!(
                "the same answer had tool calls that could not be read ({}); send them again",
                malformed.join("; ")
            ))));
        }
        if !self.tally.rejected.is_empty() {
            return Ok(Err(Refusal::new(format!(
                "{} finding(s) you submitted were refused and not resubmitted: {}. Fix the \
                 fields named and call add_review_node again, then finish",
                self.tally.rejected.len(),
                self.rejected_list()
            ))));
        }
        Ok(Ok(summary))
    }

    /// Findings the model sent where none can be read (`findings` as a string, an object, an
    /// unreadable `finish`): each one it can be told by is owed; when none can be told, one
    /// finding of unknown identity is, which nothing settles.
    fn owe(&mut self, findings: &Value) {
        let mended;
        let items: Vec<&Value> = match findings {
            Value::String(text) => {
                mended = crate::reviewers::model::strict_json::mend(text);
                match &mended {
                    Some(Value::Array(items)) => items.iter().collect(),
                    Some(one @ Value::Object(_)) => vec![one],
                    _ => Vec::new(),
                }
            }
            Value::Array(items) => items.iter().collect(),
            Value::Object(_) => vec![findings],
            _ => Vec::new(),
        };
        let problem = "`findings` in finish could not be read as a list of findings".to_owned();
        let before = self.tally.rejected.len();
        for item in items {
            self.tally.attempts += 1;
            let owed = Rejected::of(item, problem.clone());
            if owed.title.is_some() || owed.anchor.is_some() {
                self.tally.rejected.push(owed);
            }
        }
        if self.tally.rejected.len() == before {
            self.tally.attempts += 1;
            self.tally.rejected.push(Rejected::unknown(problem));
        }
    }

    fn rejected_list(&self) -> String {
        self.tally
            .rejected
            .iter()
            .take(5)
            .map(|r| r.problem.clone())
            .collect::<Vec<_>>()
            .join("; ")
    }

    async fn structured(&mut self, system: String, context: String) -> End {
        let messages = vec![Message::User { content: context }];
        let response = match self.ask(&system, &messages, &[], true, 1).await {
            Ok(response) => response,
            Err(end) => return end,
        };
        let cut = if response.finish == FinishReason::Length {
            " (the answer was cut at the output limit)"
        } else {
            ""
        };
        let found = match extract_findings(response.text.as_deref().unwrap_or("")) {
            Ok(found) => found,
            Err(reason) => {
                let reason = format!("the answer is not one JSON findings document: {reason}{cut}");
                self.tally.dropped += 1;
                if !self
                    .out
                    .send(EventKind::Dropped {
                        reason: reason.clone(),
                    })
                    .await
                {
                    return End::Abandoned;
                }
                return End::Failed(Outcome::InvalidOutput, reason);
            }
        };
        for item in found.items {
            if let Err(end) = self.submit(item).await {
                return end;
            }
        }
        self.conclude(found.summary.unwrap_or_default())
    }

    /// One provider turn, with its usage counted and reported.
    async fn ask(
        &mut self,
        system: &str,
        messages: &[Message],
        tools: &[ToolSpec],
        structured: bool,
        turn: u32,
    ) -> Step<ChatResponse> {
        let (retries, retried) = crate::reviewers::model::provider::RetryNotes::channel();
        let request = ChatRequest {
            reviewer: self.spec.name.clone(),
            system: system.to_owned(),
            messages: messages.to_vec(),
            tools: tools.to_vec(),
            output: structured.then(findings_output),
            max_output_tokens: self.spec.bounds.max_output_tokens,
            retries,
        };
        let response = self
            .chat_saying_waits(&request, retried)
            .await?
            .map_err(|e| End::Failed(Outcome::Failed, e.to_string()))?;
        // Estimated from bytes when the server does not say: the max_tokens bound holds
        // either way.
        self.tally
            .usage
            .add(crate::reviewers::model::budget::counted(
                &request, &response,
            ));
        let called: Vec<&str> = response
            .tool_calls
            .iter()
            .map(|c| c.name.as_str())
            .collect();
        let note = if called.is_empty() {
            format!("turn {turn}: answered")
        } else {
            format!("turn {turn}: {}", called.join(", "))
        };
        self.emit(EventKind::Progress {
            tokens_used: self.tally.usage.total(),
            cost_usd: self.cost(),
            note,
        })
        .await?;
        Ok(response)
    }

    /// One turn; while the server has not answered, a `Waiting` event at each notice interval
    /// (a quarter of the request timeout, 1–30 s), so a hanging server is seen as one, and a
    /// `Retrying` event for each attempt the provider tries again (`retried`: its notes).
    async fn chat_saying_waits(
        &self,
        request: &ChatRequest,
        retried: tokio::sync::mpsc::UnboundedReceiver<crate::reviewers::model::provider::RetryNote>,
    ) -> Step<Result<ChatResponse, crate::reviewers::model::provider::ProviderError>> {
        use crate::reviewers::model::provider::{Heard, chat_heard};
        let this = self;
        chat_heard(
            this.agent.provider.as_ref(),
            request,
            retried,
            move |heard| {
                this.emit(match heard {
                    Heard::Waiting { host, waited_secs } => {
                        EventKind::Waiting { host, waited_secs }
                    }
                    Heard::Retrying(note) => EventKind::Retrying {
                        attempt: note.attempt,
                        of: note.of,
                        wait_secs: note.wait_secs(),
                        reason: note.reason,
                        rate_limited: note.rate_limited,
                    },
                })
            },
        )
        .await
    }

    /// Runs one tool call other than `finish`. The inner result is what the model sees: `Ok`
    /// an answer, `Err` a failure to correct.
    async fn dispatch(&mut self, call: &ToolCall) -> Step<CallAnswer> {
        match call.name.as_str() {
            prompt::ADD_REVIEW_NODE => self.submit(call.arguments.clone()).await,
            prompt::CONFIRM_NODE => self.stance(&call.arguments, true).await,
            prompt::DISPUTE_NODE => self.stance(&call.arguments, false).await,
            _ => {
                let answer = self.use_tool(call).await;
                if answer.is_ok()
                    && let Some(origin) = self.agent.tools.origin(&call.name)
                {
                    self.tally.consulted.insert(origin);
                }
                Ok(answer)
            }
        }
    }

    async fn use_tool(&self, call: &ToolCall) -> CallAnswer {
        if let Value::String(_) = call.arguments {
            return Err(Refusal::new(
                "the arguments are not valid JSON; send a JSON object",
            ));
        }
        let known = self
            .agent
            .tools
            .specs()
            .iter()
            .any(|spec| spec.name == call.name);
        if !known {
            return Err(ToolError::NoSuchTool(call.name.clone()).into());
        }
        let tools = self.agent.tools.clone();
        let (name, args) = (call.name.clone(), call.arguments.clone());
        tokio::task::spawn_blocking(move || tools.call(&name, &args))
            .await
            .unwrap_or_else(|_| Err(ToolError::Crashed(call.name.clone())))
            .map_err(Refusal::from)
    }

    /// One candidate finding: parsed, validated, grounded in the diff, then added or dropped.
    async fn submit(&mut self, payload: Value) -> Step<CallAnswer> {
        self.tally.attempts += 1;
        let attempt = self.tally.attempts;
        let checked = check_finding(&payload).and_then(|mut draft| {
            ground::ground(&mut draft, self.agent.tools.as_ref())
                .map(|()| draft)
                .map_err(|problems| refusal(&payload, &problems))
        });
        match checked {
            Ok(draft) => {
                self.settle(&payload);
                self.tally.nodes_added += 1;
                let id = format!("{}-{}", self.spec.name, self.tally.nodes_added);
                self.tally.own_ids.insert(id.clone());
                let origin = Origin {
                    reviewer: self.spec.name.clone(),
                    source: Source::Model,
                };
                let mut node = ReviewNode::from_draft(id.clone(), origin, draft);
                node.consulted = consulted_in(&node, &self.tally.consulted);
                self.emit(EventKind::NodeAdded {
                    node: Box::new(node),
                })
                .await?;
                Ok(Ok(format!("recorded as {id}")))
            }
            Err(problem) => {
                self.tally.dropped += 1;
                self.tally
                    .rejected
                    .push(Rejected::of(&payload, problem.to_string()));
                self.emit(EventKind::Dropped {
                    reason: format!("finding {attempt} rejected: {problem}"),
                })
                .await?;
                Ok(Err(Refusal::new(format!(
                    "not recorded: {problem}. Fix these fields and call add_review_node again."
                ))))
            }
        }
    }

    /// A valid finding settles the oldest refusal with its identity (see [`Rejected`]). Never
    /// another finding: a valid nit on another line must not settle a refused P0.
    fn settle(&mut self, payload: &Value) {
        let (title, anchor) = identity(payload);
        let rejected = &mut self.tally.rejected;
        if let Some(index) = rejected.iter().position(|r| r.settled_by(&title, &anchor)) {
            rejected.remove(index);
        }
    }

    async fn stance(&mut self, args: &Value, confirm: bool) -> Step<CallAnswer> {
        #[derive(Deserialize)]
        struct StanceArgs {
            id: String,
            #[serde(default)]
            note: String,
        }
        let Ok(stance) = serde_json::from_value::<StanceArgs>(args.clone()) else {
            return Ok(Err(Refusal::new(
                "expected {\"id\": \"...\", \"note\": \"...\"}",
            )));
        };
        if self.tally.own_ids.contains(&stance.id) {
            return Ok(Err(Refusal::new(format!(
                "{} is your own finding; only peers confirm or dispute it",
                stance.id
            ))));
        }
        self.emit(EventKind::Stance {
            node_id: stance.id.clone(),
            confirm,
            note: stance.note,
        })
        .await?;
        Ok(Ok(format!("noted on {}", stance.id)))
    }

    fn check_tokens(&self) -> Step<()> {
        let used = self.tally.usage.total();
        if used >= self.spec.bounds.max_tokens {
            return Err(End::Failed(
                Outcome::Failed,
                format!(
                    "used {used} tokens, reaching the max_tokens bound of {}",
                    self.spec.bounds.max_tokens
                ),
            ));
        }
        Ok(())
    }

    /// Done, unless a finding was refused and never resubmitted in a valid form: a dropped
    /// finding could be the blocking one, so the review is not complete.
    fn conclude(&self, summary: String) -> End {
        if !self.tally.rejected.is_empty() {
            return End::Failed(
                Outcome::InvalidOutput,
                format!(
                    "{} of the {} finding(s) it submitted did not pass validation: {}",
                    self.tally.rejected.len(),
                    self.tally.attempts,
                    self.rejected_list()
                ),
            );
        }
        End::Done(clip(summary.trim(), MAX_SUMMARY_CHARS))
    }

    fn cost(&self) -> f64 {
        self.spec.pricing.map_or(0.0, |price| {
            (self.tally.usage.input_tokens as f64 * price.input_usd_per_mtok
                + self.tally.usage.output_tokens as f64 * price.output_usd_per_mtok)
                / 1_000_000.0
        })
    }

    async fn emit(&self, kind: EventKind) -> Step<()> {
        if self.out.send(kind).await {
            Ok(())
        } else {
            Err(End::Abandoned)
        }
    }
}

/// One candidate finding from a model, as a tool call's arguments or an item of a JSON answer:
/// the draft, or why it is refused (naming the title when there is one, and each bad field).
pub fn check_finding(payload: &Value) -> Result<NodeDraft, Refusal> {
    if let Value::String(_) = payload {
        return Err(Refusal::new(format!(
            "the arguments are not valid JSON: {}",
            arguments_problem(payload)
        )));
    }
    NodeDraft::from_payload(payload, true).map_err(|problems| refusal(payload, &problems))
}

fn refusal(payload: &Value, problems: &[Invalid]) -> Refusal {
    let title = payload
        .pointer("/text/title")
        .and_then(Value::as_str)
        .map(str::trim)
        .unwrap_or("");
    let problems = problems
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join("; ");
    Refusal::new(if title.is_empty() {
        format!("not a valid finding: {problems}")
    } else {
        format!("`{}`: {problems}", clip(title, 80))
    })
}

/// Why a call's arguments were kept as raw text: not JSON, or JSON that repeats a key.
fn arguments_problem(arguments: &Value) -> String {
    match arguments {
        Value::String(raw) => match crate::reviewers::model::strict_json::parse(raw) {
            Err(problem) => clip(&problem.to_string(), 200),
            Ok(_) => "a string, not an object".to_owned(),
        },
        other => kind_of(other).to_owned(),
    }
}

fn clip(text: &str, max_chars: usize) -> String {
    if text.chars().count() > max_chars {
        text.chars().take(max_chars).collect::<String>() + "… (truncated)"
    } else {
        text.to_owned()
    }
}
