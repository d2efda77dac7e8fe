//! `review-tui evaluate`: recompute the verdict of any pipeline's JSON report. Two shapes are
//! read — ours and the common agent-pipeline shape with a model `verdict` — and both become the
//! same `VerdictInput`. The model's verdict is carried for audit and never decides.

use serde_json::{Map, Value};
use thiserror::Error;

use crate::review::axes::{Axis, AxisVerdict};
use crate::review::node::{Category, Priority, Severity, Status};
use crate::review::verdict::{Outcome, ReviewerRun, VerdictFinding, VerdictInput};

/// The first problem found in a report: where (a JSON path such as `findings[2].priority`) and
/// why.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("{path}: {reason}")]
pub struct ReportError {
    pub path: String,
    pub reason: String,
}

fn problem(path: impl Into<String>, reason: impl Into<String>) -> ReportError {
    ReportError {
        path: path.into(),
        reason: reason.into(),
    }
}

/// Which shape a report was read as.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    /// `{"findings": [{"priority": ...}], "axes": [...], "reviewers": [...]}`
    Native,
    /// `{"verdict": "APPROVE", "findings": [{"severity": ..., "inScope": ...}]}`
    AgentPipeline,
}

pub fn parse_report(text: &str) -> Result<(Shape, VerdictInput), ReportError> {
    let value: Value = serde_json::from_str(text).map_err(|e| {
        problem(
            "(document)",
            format!("not JSON: {e}; expected an object with a `findings` array"),
        )
    })?;
    let Value::Object(root) = value else {
        return Err(problem(
            "(document)",
            format!(
                "expected an object with a `findings` array, got {}",
                type_name(&value)
            ),
        ));
    };
    let findings = match root.get("findings") {
        Some(Value::Array(items)) => items,
        Some(other) => {
            return Err(problem(
                "findings",
                format!("expected an array, got {}", type_name(other)),
            ));
        }
        None => {
            return Err(problem(
                "findings",
                "missing: neither our report shape nor the agent-pipeline shape (both have a `findings` array)",
            ));
        }
    };
    let shape = detect_shape(&root, findings);
    let mut input = VerdictInput::default();
    for (i, item) in findings.iter().enumerate() {
        let path = format!("findings[{i}]");
        let Value::Object(fields) = item else {
            return Err(problem(
                path,
                format!("expected an object, got {}", type_name(item)),
            ));
        };
        input.findings.push(match shape {
            Shape::Native => native_finding(&path, i, fields)?,
            Shape::AgentPipeline => agent_finding(&path, i, fields)?,
        });
    }
    // Our own `--format json` report and `review.json` carry the verdict as an object
    // (`{"decision", "model_verdict", "axes", "deterministic_only", …}`); a pipeline's is the
    // model's word, a string. The recorded decision itself is never read: it is recomputed.
    let (verdict_root, verdict_path) = match root.get("verdict") {
        Some(Value::Object(verdict)) => (verdict, "verdict."),
        _ => (&root, ""),
    };
    let model_verdict = match root.get("verdict") {
        Some(Value::Object(verdict)) => verdict.get("model_verdict"),
        other => other,
    };
    input.model_verdict = match model_verdict {
        None | Some(Value::Null) => None,
        Some(Value::String(verdict)) => Some(verdict.clone()),
        Some(other) => {
            return Err(problem(
                format!("{verdict_path}verdict"),
                format!(
                    "expected a string or our report's verdict object, got {}",
                    type_name(other)
                ),
            ));
        }
    };
    let axes = match optional_array(verdict_root, "axes")? {
        [] => optional_array(&root, "axes")?,
        axes => axes,
    };
    input.axes = axes
        .iter()
        .enumerate()
        .map(|(i, item)| axis(&format!("{verdict_path}axes[{i}]"), item))
        .collect::<Result<_, _>>()?;
    input.reviewers = optional_array(&root, "reviewers")?
        .iter()
        .enumerate()
        .map(|(i, item)| reviewer(&format!("reviewers[{i}]"), item))
        .collect::<Result<_, _>>()?;
    input.deterministic_only = match verdict_root
        .get("deterministic_only")
        .or_else(|| root.get("deterministic_only"))
    {
        None | Some(Value::Null) => false,
        Some(Value::Bool(flag)) => *flag,
        Some(other) => {
            return Err(problem(
                "deterministic_only",
                format!("expected true or false, got {}", type_name(other)),
            ));
        }
    };
    Ok((shape, input))
}

/// A finding with `priority` is ours; with `severity` (and no priority) it is the agent shape.
/// An empty list is ours unless the report carries a model `verdict`.
fn detect_shape(root: &Map<String, Value>, findings: &[Value]) -> Shape {
    let has = |key: &str| findings.iter().any(|f| f.get(key).is_some());
    if has("priority") {
        Shape::Native
    } else if has("severity")
        || has("inScope")
        || has("description")
        || root.contains_key("verdict")
    {
        Shape::AgentPipeline
    } else {
        Shape::Native
    }
}

fn native_finding(
    path: &str,
    index: usize,
    fields: &Map<String, Value>,
) -> Result<VerdictFinding, ReportError> {
    let priority_text = required_str(path, fields, "priority")?;
    let priority = Priority::parse(priority_text).ok_or_else(|| {
        problem(
            format!("{path}.priority"),
            format!("expected one of P0, P1, P2, P3, got \"{priority_text}\""),
        )
    })?;
    let status = match optional_str(path, fields, "status")? {
        None => Status::Open,
        Some(text) => parse_status(text).ok_or_else(|| {
            problem(
                format!("{path}.status"),
                format!(
                    "expected one of open, consensus_ready, resolved, dismissed, got \"{text}\""
                ),
            )
        })?,
    };
    let in_scope = optional_bool(path, fields, "in_scope")?.unwrap_or(true);
    let known_kind = |kind: &str| {
        crate::review::node::Kind::ALL
            .iter()
            .any(|k| k.as_str() == kind.trim().to_ascii_lowercase())
    };
    if let Some(kind) = optional_str(path, fields, "kind")?.filter(|kind| !known_kind(kind)) {
        return Err(problem(
            format!("{path}.kind"),
            format!(
                "expected one of bug, suggestion, recommendation, question, ticket, got \"{kind}\""
            ),
        ));
    }
    Ok(VerdictFinding {
        id: optional_str(path, fields, "id")?
            .map(str::to_string)
            .unwrap_or_else(|| format!("finding-{}", index + 1)),
        title: optional_str(path, fields, "title")?
            .unwrap_or("(untitled)")
            .to_string(),
        location: location(path, fields)?,
        reviewer: optional_str(path, fields, "reviewer")?
            .unwrap_or_default()
            .to_string(),
        priority,
        confidence: confidence(path, fields)?,
        category: category(path, fields)?,
        in_scope,
        status,
        peer_confirmed: status == Status::ConsensusReady,
        // Our report lists a duplicate beside its primary (`duplicate_of`): counted once.
        duplicate_of: fields
            .get("duplicate_of")
            .and_then(Value::as_str)
            .map(str::to_owned),
    })
}

fn agent_finding(
    path: &str,
    index: usize,
    fields: &Map<String, Value>,
) -> Result<VerdictFinding, ReportError> {
    let severity_text = required_str(path, fields, "severity")?;
    let severity = Severity::parse(severity_text).ok_or_else(|| {
        problem(
            format!("{path}.severity"),
            format!("expected one of critical, high, medium, low, info, got \"{severity_text}\""),
        )
    })?;
    let category = category(path, fields)?;
    let out_of_scope_category = category.as_str().eq_ignore_ascii_case("out-of-scope");
    let in_scope =
        optional_bool(path, fields, "inScope")?.unwrap_or(true) && !out_of_scope_category;
    let description = optional_str(path, fields, "description")?.unwrap_or("(no description)");
    Ok(VerdictFinding {
        id: format!("finding-{}", index + 1),
        title: description.to_string(),
        location: location(path, fields)?,
        reviewer: optional_str(path, fields, "reviewer")?
            .unwrap_or_default()
            .to_string(),
        priority: severity.priority(),
        confidence: confidence(path, fields)?,
        category,
        in_scope,
        status: Status::Open,
        peer_confirmed: false,
        duplicate_of: None,
    })
}

/// Missing categories fail closed: they become `unknown`, which never ships. The legacy agent
/// categories `bug`, `style` and `other` name no cause and are unknown too.
fn category(path: &str, fields: &Map<String, Value>) -> Result<Category, ReportError> {
    Ok(match optional_str(path, fields, "category")? {
        None => Category::Unknown("(missing)".into()),
        Some(text) if text.trim().is_empty() => Category::Unknown("(missing)".into()),
        Some(text) => Category::parse(text),
    })
}

/// A finding that does not say how sure it is counts as sure: fail closed.
fn confidence(path: &str, fields: &Map<String, Value>) -> Result<f64, ReportError> {
    match fields.get("confidence") {
        None | Some(Value::Null) => Ok(1.0),
        Some(Value::Number(n)) => {
            let value = n.as_f64().unwrap_or(f64::NAN);
            // 1.5 is not 1.5 %: reading a number above 1 as a percentage would turn a sure
            // P0 into a doubtful one (Hold instead of Block). Only one scale is accepted.
            if (0.0..=1.0).contains(&value) {
                Ok(value)
            } else {
                Err(problem(
                    format!("{path}.confidence"),
                    format!(
                        "expected a number from 0.0 to 1.0, got {n} (a 0-100 score must be \
                         divided by 100 first)"
                    ),
                ))
            }
        }
        Some(other) => Err(problem(
            format!("{path}.confidence"),
            format!("expected a number, got {}", type_name(other)),
        )),
    }
}

fn location(path: &str, fields: &Map<String, Value>) -> Result<String, ReportError> {
    let file = optional_str(path, fields, "path")?.or(optional_str(path, fields, "file")?);
    let line = match fields.get("line") {
        Some(Value::Number(n)) => n.as_u64(),
        _ => None,
    };
    Ok(match (file, line) {
        (Some(file), Some(line)) => format!("{file}:{line}"),
        (Some(file), None) => file.to_string(),
        _ => String::new(),
    })
}

fn axis(path: &str, item: &Value) -> Result<Axis, ReportError> {
    let Value::Object(fields) = item else {
        return Err(problem(
            path,
            format!("expected an object, got {}", type_name(item)),
        ));
    };
    let name = required_str(path, fields, "name")?.to_string();
    let verdict_text = required_str(path, fields, "verdict")?;
    let verdict = AxisVerdict::parse(verdict_text).ok_or_else(|| {
        problem(
            format!("{path}.verdict"),
            format!(
                "expected one of pass, warn, fail, partial, unavailable, got \"{verdict_text}\""
            ),
        )
    })?;
    Ok(Axis {
        name,
        verdict,
        gated: optional_bool(path, fields, "gated")?.unwrap_or(false),
        detail: optional_str(path, fields, "detail")?
            .unwrap_or_default()
            .to_string(),
    })
}

fn reviewer(path: &str, item: &Value) -> Result<ReviewerRun, ReportError> {
    let Value::Object(fields) = item else {
        return Err(problem(
            path,
            format!("expected an object, got {}", type_name(item)),
        ));
    };
    // Our report names a reviewer `name`; a reviewer that never finished has no outcome, and
    // counts as failed: a required one that did not finish must not let the review Ship.
    let role = match optional_str(path, fields, "name")? {
        Some(name) if !fields.contains_key("role") => name.to_string(),
        _ => required_str(path, fields, "role")?.to_string(),
    };
    if fields.contains_key("name") && matches!(fields.get("outcome"), None | Some(Value::Null)) {
        return Ok(ReviewerRun {
            role,
            required: optional_bool(path, fields, "required")?.unwrap_or(true),
            outcome: Outcome::Failed,
            reason: Some("it did not finish".into()),
        });
    }
    let outcome_text = required_str(path, fields, "outcome")?;
    let outcome = Outcome::parse(outcome_text).ok_or_else(|| {
        problem(
            format!("{path}.outcome"),
            format!("expected one of ok, failed, invalid_output, skipped, got \"{outcome_text}\""),
        )
    })?;
    Ok(ReviewerRun {
        role,
        required: optional_bool(path, fields, "required")?.unwrap_or(true),
        outcome,
        reason: optional_str(path, fields, "reason")?.map(str::to_string),
    })
}

fn parse_status(text: &str) -> Option<Status> {
    match text.trim().to_ascii_lowercase().replace('-', "_").as_str() {
        "open" => Some(Status::Open),
        "consensus_ready" => Some(Status::ConsensusReady),
        "resolved" => Some(Status::Resolved),
        "dismissed" => Some(Status::Dismissed),
        _ => None,
    }
}

fn optional_array<'a>(root: &'a Map<String, Value>, key: &str) -> Result<&'a [Value], ReportError> {
    match root.get(key) {
        None | Some(Value::Null) => Ok(&[]),
        Some(Value::Array(items)) => Ok(items),
        Some(other) => Err(problem(
            key,
            format!("expected an array, got {}", type_name(other)),
        )),
    }
}

fn required_str<'a>(
    path: &str,
    fields: &'a Map<String, Value>,
    key: &str,
) -> Result<&'a str, ReportError> {
    optional_str(path, fields, key)?.ok_or_else(|| problem(format!("{path}.{key}"), "missing"))
}

fn optional_str<'a>(
    path: &str,
    fields: &'a Map<String, Value>,
    key: &str,
) -> Result<Option<&'a str>, ReportError> {
    match fields.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(text)) => Ok(Some(text)),
        Some(other) => Err(problem(
            format!("{path}.{key}"),
            format!("expected a string, got {}", type_name(other)),
        )),
    }
}

fn optional_bool(
    path: &str,
    fields: &Map<String, Value>,
    key: &str,
) -> Result<Option<bool>, ReportError> {
    match fields.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Bool(flag)) => Ok(Some(*flag)),
        Some(other) => Err(problem(
            format!("{path}.{key}"),
            format!("expected true or false, got {}", type_name(other)),
        )),
    }
}

fn type_name(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}
