//! GitHub Actions `pull_request_target` with a checkout of the pull request's head: the
//! workflow runs with the base repository's secrets and a write token, then executes code the
//! pull request's author controls ("pwn request").

use std::sync::LazyLock;

use regex::Regex;

use super::Hit;
use crate::diff::{FileDiff, LineKind, Side};

static TRIGGER: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"\bpull_request_target\b").expect("valid regex"));

/// A checkout of the head: `ref:` given the head, or git fetching/checking it out by hand.
static HEAD_CHECKOUT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(concat!(
        r"^\s*ref:\s*\$\{\{\s*(github\.event\.pull_request\.head\.(sha|ref)|github\.head_ref)\b",
        r"|\bgit\s+(fetch|checkout|switch)\b.*(pull_request\.head\.(sha|ref)|github\.head_ref|refs/pull/)",
        r"|\bgh\s+pr\s+checkout\b",
    ))
    .expect("valid regex")
});

pub(super) fn pull_request_target_checkout(file: &FileDiff) -> Vec<Hit> {
    let new_side = || {
        file.hunks
            .iter()
            .flat_map(|hunk| hunk.lines.iter())
            .filter(|line| line.kind != LineKind::Removed)
    };
    let Some(trigger) = new_side().find(|line| TRIGGER.is_match(&line.text)) else {
        return Vec::new();
    };
    let Some(checkout) = new_side().find(|line| HEAD_CHECKOUT.is_match(&line.text)) else {
        return Vec::new();
    };
    // Pre-existing on both counts is not this change's doing; a line only re-indented (YAML
    // re-wrapped: a removed line holds the same text) was there before too.
    let removed: std::collections::HashSet<String> = file
        .hunks
        .iter()
        .flat_map(|hunk| hunk.lines.iter())
        .filter(|line| line.kind == LineKind::Removed)
        .map(|line| without_spaces(&line.text))
        .collect();
    let new = |line: &crate::diff::Line| {
        line.kind == LineKind::Added && !removed.contains(&without_spaces(&line.text))
    };
    if !new(trigger) && !new(checkout) {
        return Vec::new();
    }
    let Some(number) = checkout.new_line else {
        return Vec::new();
    };
    vec![Hit {
        line: Some((Side::Right, number)),
        code: checkout.text.clone(),
        detail: "`pull_request_target` workflow checks out the pull request's head".into(),
    }]
}

fn without_spaces(text: &str) -> String {
    text.chars().filter(|c| !c.is_whitespace()).collect()
}
