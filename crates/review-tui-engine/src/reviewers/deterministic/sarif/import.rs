//! SARIF 2.1.0 import: any linter's or scanner's results as review nodes.
//!
//! Decisions, and why:
//! - **Priority** follows the level (error → P1, warning → P2, note/none → P3); a
//!   `security-severity` property (GitHub's convention, on the result or its rule) only raises
//!   it: ≥ 9.0 → P0, ≥ 7.0 → P1. A score never lowers what the tool's level said.
//! - **Category** comes from the rule's or result's tags and `category` when one names a known
//!   cause (security, performance, maintainability, correctness, …). Otherwise it is
//!   `correctness`, not unknown. Unknown categories fail closed (Hold) because they signal a
//!   malformed or unexpected *claim*; an uncategorized linter result is the norm, not an
//!   anomaly, and its severity is already carried by the tool's level. Making every untagged
//!   lint warning hold the merge would teach people to ignore Hold. The tool's own category
//!   is kept in the body.
//! - **Suppressed** results (a suppression with no status or `accepted`) are imported as
//!   *dismissed* with the justification as the reason, not dropped: a PR can add an in-source
//!   suppression for its own new warning, and the person at the gate should be able to see
//!   that. Dismissed nodes do not count toward the verdict. `underReview` and `rejected`
//!   suppressions leave the result open.
//! - **Scope**: a result is in scope when one of its lines is a changed line (the caller's
//!   `is_changed`); otherwise it is a pre-existing observation. A result without a line (no
//!   region, or only byte/char offsets) cannot be tied to the change: out of scope, and said so.
//! - `kind: pass` and `notApplicable` results are not problems: counted and skipped.

use std::collections::BTreeMap;
use std::path::Path;

use thiserror::Error;

use crate::repo_path::RepoPath;

use super::model::{ArtifactLocation, Log, ReportingDescriptor, Run, SarifResult};
use crate::diff::Side;
use crate::review::fingerprint::stamp;
use crate::review::node::Transition;
use crate::review::validate::MAX_TITLE_CHARS;
use crate::review::{
    Actor, Anchor, Category, Effort, Kind, NodeText, Origin, Priority, ReviewNode, Scope, Severity,
    Source, Status, Triage,
};

#[derive(Debug, Error)]
pub enum SarifError {
    #[error("{source_name}: cannot be read: {reason}")]
    Read { source_name: String, reason: String },
    #[error("{source_name}: not a SARIF log: {reason}")]
    Shape { source_name: String, reason: String },
    #[error("{source_name}: SARIF version {version} is not supported (only 2.1.0 is)")]
    Version {
        source_name: String,
        version: String,
    },
}

/// What the importer needs from its caller.
pub struct ImportOptions<'a> {
    /// The worktree's absolute path: `file://` URIs under it become repository-relative.
    pub repo_root: Option<&'a str>,
    /// Whether a line (RIGHT numbering) of a file is a changed line of the PR.
    pub is_changed: &'a dyn Fn(&str, u32) -> bool,
    /// Timestamp recorded on the dismissal of suppressed results.
    pub now: &'a str,
}

/// A result that did not become a node, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Skipped {
    pub rule: String,
    pub reason: String,
}

#[derive(Debug, Default)]
pub struct SarifImport {
    pub nodes: Vec<ReviewNode>,
    /// Results read, imported or not.
    pub results: usize,
    pub skipped: Vec<Skipped>,
    /// Things the reader should know: paths that could not be placed, unknown levels.
    pub notes: Vec<String>,
}

/// Confidence when the rule gives no `precision`: a tool's finding is usually right about what
/// it reports, but has not been checked by anyone.
const DEFAULT_CONFIDENCE: f64 = 0.8;

pub fn import_sarif_file(
    path: &Path,
    options: &ImportOptions<'_>,
) -> Result<SarifImport, SarifError> {
    let name = path.display().to_string();
    let bytes = std::fs::read(path).map_err(|e| SarifError::Read {
        source_name: name.clone(),
        reason: e.to_string(),
    })?;
    import_sarif(&name, &bytes, options)
}

/// Imports a SARIF log; `source_name` (a file name) is used in errors.
pub fn import_sarif(
    source_name: &str,
    bytes: &[u8],
    options: &ImportOptions<'_>,
) -> Result<SarifImport, SarifError> {
    let shape = |reason: String| SarifError::Shape {
        source_name: source_name.to_string(),
        reason,
    };
    let text = std::str::from_utf8(bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes))
        .map_err(|e| shape(format!("not UTF-8 text ({e})")))?;
    let log: Log = serde_json::from_str(text).map_err(|e| shape(e.to_string()))?;
    match log.version.as_deref() {
        Some("2.1.0") => {}
        Some(other) => {
            return Err(SarifError::Version {
                source_name: source_name.to_string(),
                version: other.to_string(),
            });
        }
        None => return Err(shape("no `version`".into())),
    }
    let runs = log.runs.ok_or_else(|| shape("no `runs`".into()))?;

    let mut import = SarifImport::default();
    let mut ids: Vec<String> = Vec::new();
    for run in &runs {
        for result in run.results.iter().flatten() {
            import.results += 1;
            match convert(run, result, options, &mut import.notes) {
                Ok(mut node) => {
                    node.id = unique_id(&mut ids, &node);
                    import.nodes.push(node);
                }
                Err(skipped) => import.skipped.push(skipped),
            }
        }
    }
    Ok(import)
}

fn unique_id(ids: &mut Vec<String>, node: &ReviewNode) -> String {
    let tool = sanitize_part(node.origin.reviewer.trim_start_matches("sarif:"));
    let base = format!("sarif-{tool}-{}", node.fingerprint);
    let repeats = ids.iter().filter(|id| **id == base).count();
    ids.push(base.clone());
    if repeats == 0 {
        base
    } else {
        format!("{base}-{}", repeats + 1)
    }
}

fn convert(
    run: &Run,
    result: &SarifResult,
    options: &ImportOptions<'_>,
    notes: &mut Vec<String>,
) -> Result<ReviewNode, Skipped> {
    let driver = &run.tool.driver;
    let tool = if driver.name.trim().is_empty() {
        "unknown tool"
    } else {
        driver.name.trim()
    };
    let descriptor = find_rule(driver.rules.as_slice(), result);
    let (rule_name, rule) = rule_of(tool, result, descriptor);
    let Weight {
        kind,
        priority,
        level,
        security_severity,
    } = weigh(tool, &rule, result, descriptor, notes)?;
    let labels = labels_of(result, descriptor);
    let category = category_from(&labels, security_severity.is_some());
    let confidence = confidence_of(descriptor);
    let message = message_text(result, descriptor);
    let place = place_of(run, result, options, tool, &rule_name, notes);
    let location = &place.location;
    let mut body =
        format!("{message}\n\nReported by {tool} as {level} ({rule_name}) at {location}.");
    if !labels.is_empty() {
        body.push_str(&format!(" Tool category/tags: {}.", labels.join(", ")));
    }
    if place.anchor.is_none() {
        body.push_str(
            " Without a line it cannot be tied to the change, so it is listed as an observation.",
        );
    }
    let code = place.snippet.clone().unwrap_or_else(|| message.clone());

    let mut node = ReviewNode::from_draft(
        String::new(),
        Origin {
            reviewer: format!("sarif:{tool}"),
            source: Source::Scanner,
        },
        crate::review::NodeDraft {
            reasoning: format!("Imported from {tool}'s SARIF log."),
            kind,
            priority,
            triage: Triage {
                category,
                severity: severity_of(priority),
                effort: Effort::Small,
            },
            rule: Some(rule.clone()),
            anchor: place.anchor,
            text: NodeText {
                title: title_of(&message),
                body,
                evidence: (place.snippet).unwrap_or_else(|| format!("{tool}: {message}")),
                impact: String::new(),
                verification: format!(
                    "Run {tool} on the head commit and check {rule_name} at {location}."
                ),
            },
            fix: None,
            confidence,
            scope: place.scope,
        },
    );
    stamp(
        &mut node,
        &rule,
        place.path.as_deref().unwrap_or(""),
        &code.lines().collect::<Vec<_>>(),
    );
    apply_suppressions(&mut node, result, tool, options.now);
    Ok(node)
}

/// The result's rule as the tool names it, and as a rule id of ours (`sarif/TOOL/RULE`).
fn rule_of(
    tool: &str,
    result: &SarifResult,
    descriptor: Option<&ReportingDescriptor>,
) -> (String, String) {
    let rule_name = result
        .rule_id
        .clone()
        .or_else(|| result.rule.as_ref().and_then(|r| r.id.clone()))
        .or_else(|| descriptor.map(|d| d.id.clone()))
        .filter(|id| !id.trim().is_empty())
        .unwrap_or_else(|| "unnamed".to_string());
    let rule = format!(
        "sarif/{}/{}",
        sanitize_part(tool),
        rule_name
            .split('/')
            .map(sanitize_part)
            .collect::<Vec<_>>()
            .join("/")
    );
    (rule_name, rule)
}

/// What a result weighs: its kind and priority (raised by a security severity), from its
/// level and kind.
struct Weight {
    kind: Kind,
    priority: Priority,
    level: String,
    security_severity: Option<f64>,
}

/// A result's [`Weight`]; a `pass` or `notApplicable` one is no problem and is skipped.
fn weigh(
    tool: &str,
    rule: &str,
    result: &SarifResult,
    descriptor: Option<&ReportingDescriptor>,
    notes: &mut Vec<String>,
) -> Result<Weight, Skipped> {
    let kind_field = result.kind.as_deref().unwrap_or("fail");
    let kind = match kind_field {
        "pass" | "notApplicable" => {
            return Err(Skipped {
                rule: rule.to_string(),
                reason: format!("kind `{kind_field}`: not a problem"),
            });
        }
        "review" | "open" => Kind::Question,
        "informational" => Kind::Recommendation,
        _ => Kind::Bug,
    };
    let level = result
        .level
        .clone()
        .or_else(|| descriptor.and_then(|d| d.default_configuration.as_ref()?.level.clone()))
        .unwrap_or_else(|| "warning".to_string());
    let mut priority = match level.as_str() {
        "error" => Priority::P1,
        "warning" => Priority::P2,
        "note" | "none" => Priority::P3,
        other => {
            notes.push(format!("{tool}: unknown level `{other}` read as warning"));
            Priority::P2
        }
    };
    let kind = if kind == Kind::Bug && priority == Priority::P3 {
        Kind::Suggestion
    } else {
        kind
    };
    let security_severity = result
        .properties
        .number("security-severity")
        .or_else(|| descriptor.and_then(|d| d.properties.number("security-severity")));
    if let Some(score) = security_severity {
        let raised = if score >= 9.0 {
            Some(Priority::P0)
        } else if score >= 7.0 {
            Some(Priority::P1)
        } else {
            None
        };
        priority = priority.min(raised.unwrap_or(priority));
    }
    Ok(Weight {
        kind,
        priority,
        level,
        security_severity,
    })
}

/// The tags and categories the tool gave the result and its rule.
fn labels_of(result: &SarifResult, descriptor: Option<&ReportingDescriptor>) -> Vec<String> {
    let mut labels: Vec<String> = result.properties.strings("tags");
    labels.extend(result.properties.strings("category"));
    if let Some(d) = descriptor {
        labels.extend(d.properties.strings("tags"));
        labels.extend(d.properties.strings("category"));
    }
    labels
}

/// The rule's `precision` as a confidence.
fn confidence_of(descriptor: Option<&ReportingDescriptor>) -> f64 {
    descriptor
        .and_then(|d| d.properties.text("precision"))
        .map_or(DEFAULT_CONFIDENCE, |p| match p {
            "very-high" => 0.95,
            "high" => 0.9,
            "medium" => 0.7,
            "low" => 0.5,
            _ => DEFAULT_CONFIDENCE,
        })
}

/// Where a result is: its file in the repository, its lines as an anchor (in scope when a
/// line of the change is among them), its snippet, and the location as the body names it.
struct Place {
    path: Option<RepoPath>,
    anchor: Option<Anchor>,
    scope: Scope,
    snippet: Option<String>,
    location: String,
}

fn place_of(
    run: &Run,
    result: &SarifResult,
    options: &ImportOptions<'_>,
    tool: &str,
    rule_name: &str,
    notes: &mut Vec<String>,
) -> Place {
    let physical = result
        .locations
        .iter()
        .find_map(|l| l.physical_location.as_ref());
    let path = match physical.and_then(|p| p.artifact_location.as_ref()) {
        Some(artifact) => {
            match resolve_path(artifact, &run.original_uri_base_ids, options.repo_root) {
                Ok(path) => Some(path),
                Err(why) => {
                    notes.push(format!(
                        "{tool} {rule_name}: {why}: imported without a location"
                    ));
                    None
                }
            }
        }
        None => None,
    };
    let region = physical.and_then(|p| p.region.as_ref());
    let lines = region.and_then(|r| {
        let start = u32::try_from(r.start_line?).ok().filter(|&l| l >= 1)?;
        let end = r
            .end_line
            .and_then(|e| u32::try_from(e).ok())
            .filter(|&e| e >= start)
            .unwrap_or(start);
        Some((start, end))
    });
    let offsets_only = region.is_some_and(|r| {
        r.start_line.is_none() && (r.char_offset.is_some() || r.byte_offset.is_some())
    });
    let anchor = match (&path, lines) {
        (Some(path), Some((start, end))) => Some(Anchor {
            path: path.clone(),
            side: Side::Right,
            start_line: start,
            end_line: end,
        }),
        _ => None,
    };
    let scope = match &anchor {
        Some(a) if (a.start_line..=a.end_line).any(|l| (options.is_changed)(&a.path, l)) => {
            Scope::InScope
        }
        _ => Scope::OutOfScope,
    };
    let snippet = region
        .and_then(|r| r.snippet.as_ref()?.text.clone())
        .filter(|s| !s.trim().is_empty());
    let location = match (&anchor, &path) {
        (Some(a), _) => a.to_string(),
        (None, Some(p)) if offsets_only => format!("{p} (byte/char offsets only, no line)"),
        (None, Some(p)) => format!("{p} (no line region)"),
        (None, None) => "no location".to_string(),
    };
    Place {
        path,
        anchor,
        scope,
        snippet,
        location,
    }
}

fn find_rule<'r>(
    rules: &'r [ReportingDescriptor],
    result: &SarifResult,
) -> Option<&'r ReportingDescriptor> {
    let index = result
        .rule_index
        .or_else(|| result.rule.as_ref()?.index)
        .and_then(|i| usize::try_from(i).ok())
        .and_then(|i| rules.get(i));
    index.or_else(|| {
        let id = result
            .rule_id
            .as_deref()
            .or_else(|| result.rule.as_ref()?.id.as_deref())?;
        rules.iter().find(|r| r.id == id)
    })
}

/// The message text, or the rule's message string for `message.id` with its `{n}` placeholders
/// filled, or the rule's short description.
fn message_text(result: &SarifResult, rule: Option<&ReportingDescriptor>) -> String {
    if let Some(text) = result
        .message
        .text
        .as_deref()
        .filter(|t| !t.trim().is_empty())
    {
        return fill(text, &result.message.arguments);
    }
    let from_rule = rule.and_then(|rule| {
        let id = result.message.id.as_deref()?;
        rule.message_strings.get(id)?.text.clone()
    });
    if let Some(template) = from_rule {
        return fill(&template, &result.message.arguments);
    }
    rule.and_then(|r| r.short_description.as_ref()?.text.clone())
        .or_else(|| result.rule_id.clone())
        .unwrap_or_else(|| "(no message)".to_string())
}

/// SARIF §3.11.5: `{n}` is argument n; `{{` and `}}` are literal braces.
fn fill(template: &str, arguments: &[String]) -> String {
    let mut out = String::with_capacity(template.len());
    let mut chars = template.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '{' if chars.peek() == Some(&'{') => {
                chars.next();
                out.push('{');
            }
            '}' if chars.peek() == Some(&'}') => {
                chars.next();
                out.push('}');
            }
            '{' => {
                let mut digits = String::new();
                while let Some(d) = chars.peek().filter(|d| d.is_ascii_digit()) {
                    digits.push(*d);
                    chars.next();
                }
                let argument = digits.parse::<usize>().ok().and_then(|n| arguments.get(n));
                match (argument, chars.peek()) {
                    (Some(argument), Some('}')) => {
                        chars.next();
                        out.push_str(argument);
                    }
                    _ => {
                        out.push('{');
                        out.push_str(&digits);
                    }
                }
            }
            other => out.push(other),
        }
    }
    out
}

fn title_of(message: &str) -> String {
    let first = message
        .lines()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("(no message)")
        .trim();
    if first.chars().count() <= MAX_TITLE_CHARS {
        first.to_string()
    } else {
        let cut: String = first.chars().take(MAX_TITLE_CHARS - 1).collect();
        format!("{cut}…")
    }
}

fn severity_of(priority: Priority) -> Severity {
    match priority {
        Priority::P0 => Severity::Critical,
        Priority::P1 => Severity::High,
        Priority::P2 => Severity::Medium,
        Priority::P3 => Severity::Low,
    }
}

/// The first label that names a cause we know; `correctness` when none does (see the module
/// comment). A `security-severity` score is itself a claim that the result is about security.
fn category_from(labels: &[String], has_security_severity: bool) -> Category {
    const WORDS: &[(&str, Category)] = &[
        ("security", Category::Security),
        ("cwe", Category::Security),
        ("vulnerab", Category::Security),
        ("performance", Category::Performance),
        ("perf", Category::Performance),
        ("maintainab", Category::Maintainability),
        ("style", Category::Maintainability),
        ("readab", Category::Maintainability),
        ("complexity", Category::Maintainability),
        ("correctness", Category::Correctness),
        ("reliability", Category::Stability),
        ("compatib", Category::Compatibility),
        ("portab", Category::Compatibility),
        ("test", Category::Tests),
        ("doc", Category::Docs),
    ];
    if has_security_severity {
        return Category::Security;
    }
    for label in labels {
        let lower = label.to_ascii_lowercase();
        if let Some((_, category)) = WORDS.iter().find(|(word, _)| lower.contains(word)) {
            return category.clone();
        }
    }
    Category::Correctness
}

/// Suppressed when some suppression is accepted or has no status (SARIF §3.35.3). One that is
/// only under review leaves the result open: nobody has accepted it yet, and a pending request
/// must not silence a finding. (The Suppressions sample's text calls an under-review-plus-
/// rejected result "hidden"; it contradicts its own under-review-only case, and we keep both
/// open.)
fn apply_suppressions(node: &mut ReviewNode, result: &SarifResult, tool: &str, now: &str) {
    let suppressions = result.suppressions.as_deref().unwrap_or_default();
    let accepted = suppressions
        .iter()
        .find(|s| matches!(s.status.as_deref(), None | Some("accepted")));
    let Some(accepted) = accepted else {
        if suppressions
            .iter()
            .any(|s| s.status.as_deref() == Some("underReview"))
        {
            node.text
                .body
                .push_str(" A suppression of it is under review in the tool.");
        }
        return;
    };
    let kind = accepted.kind.as_deref().unwrap_or("unspecified");
    let justification = accepted
        .justification
        .as_deref()
        .filter(|j| !j.trim().is_empty())
        .unwrap_or("no justification given");
    let reason = format!("suppressed ({kind}) in {tool}: {justification}");
    node.history.push(Transition {
        from: Status::Open,
        to: Status::Dismissed,
        by: Actor::Reviewer(format!("sarif:{tool}")),
        at: now.to_string(),
        reason: Some(reason),
        counted: None,
    });
    node.status = Status::Dismissed;
}

/// Why a result's location names no file of the repository (it is imported without one).
#[derive(Debug, Error)]
enum PlaceError {
    #[error("the location has no uri")]
    NoUri,
    #[error("`{0}` is not a file in the repository")]
    NotAFile(String),
    #[error("`{0}` is absolute and no repository root was given")]
    AbsoluteWithoutRoot(String),
    #[error("`{0}` is outside the repository")]
    Outside(String),
    #[error("`{0}` does not name a file in the repository")]
    NoFile(String),
    #[error("uriBaseId `{0}` refers to itself")]
    BaseLoop(String),
}

/// Resolves an artifact location to a repository-relative path, or says why it cannot be.
fn resolve_path(
    artifact: &ArtifactLocation,
    bases: &BTreeMap<String, ArtifactLocation>,
    repo_root: Option<&str>,
) -> Result<RepoPath, PlaceError> {
    let uri = artifact.uri.as_deref().ok_or(PlaceError::NoUri)?;
    let full = match &artifact.uri_base_id {
        Some(base) if !has_scheme(uri) => format!("{}{uri}", resolve_base(base, bases, 0)?),
        _ => uri.to_string(),
    };
    let decoded = percent_decode(&full);
    let relative = if has_scheme(&decoded) {
        let Some(rest) = decoded.strip_prefix("file://") else {
            return Err(PlaceError::NotAFile(decoded));
        };
        // file:///C:/x and file:///home/x: the path starts after the (empty) host.
        let absolute = rest
            .strip_prefix('/')
            .map_or(rest, |r| if is_drive(r) { r } else { rest });
        let root = repo_root
            .map(|r| r.replace('\\', "/"))
            .map(|r| r.trim_end_matches('/').to_string())
            .ok_or_else(|| PlaceError::AbsoluteWithoutRoot(decoded.clone()))?;
        absolute
            .strip_prefix(&root)
            .and_then(|r| r.strip_prefix('/'))
            .ok_or_else(|| PlaceError::Outside(decoded.clone()))?
            .to_string()
    } else {
        decoded
    };
    normalize(&relative)
        .and_then(|path| RepoPath::parse(&path).ok())
        .ok_or(PlaceError::NoFile(full))
}

/// A base id's prefix: an undefined base, or one with no uri (like REPOROOT in the spec's
/// example), is taken as the repository root; bases may chain through other bases.
fn resolve_base(
    id: &str,
    bases: &BTreeMap<String, ArtifactLocation>,
    depth: usize,
) -> Result<String, PlaceError> {
    if depth > 8 {
        return Err(PlaceError::BaseLoop(id.to_owned()));
    }
    let Some(base) = bases.get(id) else {
        return Ok(String::new());
    };
    let Some(uri) = base.uri.as_deref() else {
        return Ok(String::new());
    };
    let uri = if uri.ends_with('/') || uri.is_empty() {
        uri.to_string()
    } else {
        format!("{uri}/")
    };
    match &base.uri_base_id {
        Some(parent) if !has_scheme(&uri) => {
            Ok(format!("{}{uri}", resolve_base(parent, bases, depth + 1)?))
        }
        _ => Ok(uri),
    }
}

fn has_scheme(uri: &str) -> bool {
    match uri.find(':') {
        Some(at) if at > 1 => uri[..at]
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.')),
        _ => false,
    }
}

fn is_drive(path: &str) -> bool {
    let bytes = path.as_bytes();
    bytes.len() >= 2 && bytes[0].is_ascii_alphabetic() && bytes[1] == b':'
}

/// `a/./b/../c` → `a/c`; `None` for paths that leave the root or name the root itself.
fn normalize(path: &str) -> Option<String> {
    let mut parts: Vec<&str> = Vec::new();
    for part in path.split(['/', '\\']) {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            other => parts.push(other),
        }
    }
    let joined = parts.join("/");
    // Anchors refuse `X:` prefixes (a Windows drive) whatever X is; so do we.
    if joined.trim().is_empty() || joined.as_bytes().get(1) == Some(&b':') || joined.contains('\0')
    {
        return None;
    }
    Some(joined)
}

fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%'
            && let Some(hex) = text.get(i + 1..i + 3)
            && let Ok(value) = u8::from_str_radix(hex, 16)
        {
            out.push(value);
            i += 3;
            continue;
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// One segment of a rule id in our charset: lowercase letters, digits, `-`, `_`, `.`.
pub(crate) fn sanitize_part(text: &str) -> String {
    let mut out = String::new();
    for c in text.trim().to_lowercase().chars() {
        let c = if c.is_ascii_lowercase() || c.is_ascii_digit() || matches!(c, '_' | '.') {
            c
        } else {
            '-'
        };
        if !(c == '-' && out.ends_with('-')) {
            out.push(c);
        }
    }
    let trimmed = out.trim_matches('-');
    if trimmed.is_empty() {
        "unnamed".to_string()
    } else {
        trimmed.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn message_placeholders_fill_and_escape() {
        let args = vec!["a".to_string(), "b".to_string()];
        assert_eq!(fill("{1} then {0}", &args), "b then a");
        assert_eq!(fill("{{0}} is {0}", &args), "{0} is a");
        assert_eq!(fill("{7} stays", &args), "{7} stays");
    }

    #[test]
    fn paths_normalize_and_never_leave_the_root() {
        assert_eq!(normalize("./src/../lib/a.rs").as_deref(), Some("lib/a.rs"));
        assert_eq!(normalize("../etc/passwd"), None);
        assert_eq!(normalize("."), None);
        // Found by the property test: names anchors would refuse.
        assert_eq!(normalize("%:"), None);
        assert_eq!(normalize(" "), None);
        assert_eq!(percent_decode("my%20file.rs"), "my file.rs");
        assert_eq!(sanitize_part("ESLint Plugin!"), "eslint-plugin");
    }
}
