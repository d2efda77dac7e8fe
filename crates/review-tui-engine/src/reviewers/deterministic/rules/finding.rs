//! Turning a rule's match into a ReviewNode.

use super::rule::Rule;
use crate::diff::Side;
use crate::review::fingerprint::{fingerprint, stamp};
use crate::review::node::{
    Anchor, Fix, Kind, NodeDraft, NodeText, Origin, Priority, ReviewNode, Scope, Severity, Source,
    Triage,
};

/// The reviewer name deterministic rule findings carry.
pub const REVIEWER: &str = "rules";

/// Longest code excerpt quoted in evidence: enough to recognise the line, short enough for a list.
const MAX_QUOTE_CHARS: usize = 160;

/// Where a match is and what it quotes.
pub(crate) struct Location<'a> {
    pub path: &'a str,
    /// Side and first/last line; `None` for a finding about a whole file without lines.
    pub lines: Option<(Side, u32, u32)>,
    /// The anchored code (one line, two for rules that join the next line).
    pub code: &'a [&'a str],
    /// A file check's facts, for `{detail}`.
    pub detail: &'a str,
}

pub(crate) fn node(rule: &Rule, at: &Location<'_>) -> ReviewNode {
    let print = fingerprint(&rule.id, at.path, at.code);
    let quote = quote(at.code);
    let id = match at.lines {
        Some((_, start, _)) => format!("rules-{print}-{start}"),
        None => format!("rules-{print}-file"),
    };
    let evidence = if rule.meta.evidence.is_empty() {
        default_evidence(at, &quote)
    } else {
        rule.meta
            .evidence
            .replace("{line}", &quote)
            .replace("{path}", at.path)
            .replace("{detail}", at.detail)
    };
    let reasoning = match at.lines {
        Some((side, start, _)) => format!(
            "Rule {} (from {}) matched {} line {start} of {}.",
            rule.id,
            rule.origin,
            if side == Side::Left {
                "removed"
            } else {
                "added"
            },
            at.path
        ),
        None => format!(
            "Rule {} (from {}) matched {}: {}.",
            rule.id, rule.origin, at.path, at.detail
        ),
    };
    let draft = NodeDraft {
        reasoning,
        kind: rule.meta.kind,
        priority: rule.meta.priority,
        triage: Triage {
            category: rule.meta.category.clone(),
            severity: rule.meta.severity,
            effort: rule.meta.effort,
        },
        rule: Some(rule.id.clone()),
        // A path git wrote is canonical; one that is not names no line a comment can take.
        anchor: at.lines.and_then(|(side, start, end)| {
            Some(Anchor {
                path: crate::repo_path::RepoPath::parse(at.path).ok()?,
                side,
                start_line: start,
                end_line: end,
            })
        }),
        text: NodeText {
            title: rule.meta.title.clone(),
            body: rule.meta.body.clone(),
            evidence,
            impact: rule.meta.impact.clone(),
            verification: rule.meta.verification.clone(),
        },
        fix: rule.meta.fix.as_ref().map(|prompt| Fix {
            replacement: None,
            diff: None,
            prompt: Some(prompt.clone()),
        }),
        confidence: rule.meta.confidence,
        scope: Scope::InScope,
    };
    let origin = Origin {
        reviewer: REVIEWER.to_string(),
        source: Source::Deterministic,
    };
    let mut node = ReviewNode::from_draft(id, origin, draft);
    stamp(&mut node, &rule.id, at.path, at.code);
    debug_assert_eq!(node.fingerprint, print);
    node
}

/// A finding of a rule that stays quiet in test code (`skip_tests`: injection, a TLS check
/// turned off), met in sample code instead ([`crate::diff::is_sample_path`]: an example
/// program, a benchmark, documentation). No package ships it, so no user's deployment runs
/// it; a user may copy it, which is worth a note, not a stop.
pub(crate) fn as_sample_note(node: &mut ReviewNode) {
    node.priority = Priority::P3;
    node.triage.severity = Severity::Low;
    node.kind = Kind::Question;
    node.text.body = format!(
        "{}In sample code (an example, a benchmark or documentation) that no package ships: \
         a note for whoever copies it.",
        if node.text.body.is_empty() {
            String::new()
        } else {
            format!("{} ", node.text.body)
        }
    );
}

fn quote(code: &[&str]) -> String {
    let joined = code
        .iter()
        .map(|line| line.trim())
        .filter(|line| !line.is_empty())
        .collect::<Vec<_>>()
        .join(" ⏎ ");
    if joined.chars().count() <= MAX_QUOTE_CHARS {
        joined
    } else {
        let cut: String = joined.chars().take(MAX_QUOTE_CHARS).collect();
        format!("{cut}…")
    }
}

fn default_evidence(at: &Location<'_>, quote: &str) -> String {
    match (at.lines, quote.is_empty()) {
        (Some((_, start, _)), false) => format!("`{}:{start}`: `{quote}`", at.path),
        _ if !at.detail.is_empty() => format!("`{}`: {}", at.path, at.detail),
        _ => format!("`{}`", at.path),
    }
}
