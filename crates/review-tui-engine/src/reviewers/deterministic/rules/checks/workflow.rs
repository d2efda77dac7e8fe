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
    let lines: Vec<&crate::diff::Line> = new_side().collect();
    let Some(checkout) = lines
        .iter()
        .enumerate()
        .find(|(at, line)| {
            HEAD_CHECKOUT.is_match(&line.text) && !input_of_another_action(&lines, *at)
        })
        .map(|(_, line)| *line)
    else {
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

/// An action's `uses:` line, and the action it names.
static USES: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r#"^\s*(?:-\s+)?uses:\s*['"]?([^\s'"@#]+)"#).expect("valid regex"));

/// Whether line `at` of `lines` (the new side, in order) is a `ref:` input of a step whose
/// action, shown in the same hunk, is not a checkout: `ref:` checks code out only as the input
/// of a checkout action (`actions/checkout`); an action that waits for the head's checks or
/// labels it takes a ref and runs none of its code. A step whose `uses:` the diff does not
/// show, or a line that is no `ref:` input (git by hand), counts as a checkout.
fn input_of_another_action(lines: &[&crate::diff::Line], at: usize) -> bool {
    let indent = |text: &str| text.len() - text.trim_start().len();
    let text = &lines[at].text;
    if !text.trim_start().starts_with("ref:") {
        return false;
    }
    let (Some(number), ref_indent) = (lines[at].new_line, indent(text)) else {
        return false;
    };
    // The step: back to the list item holding the `ref:` (less indented, `- `), over
    // consecutive lines only (a gap between hunks hides part of the step).
    let mut start = at;
    let mut expected = number;
    let item = loop {
        if start == 0 {
            return false;
        }
        start -= 1;
        expected -= 1;
        let line = lines[start];
        if line.new_line != Some(expected) {
            return false;
        }
        let code = line.text.trim_start();
        if code.starts_with("- ") && indent(&line.text) < ref_indent {
            break indent(&line.text);
        }
    };
    // The item's lines: up to the next line as little indented as its dash.
    let step = lines[start..]
        .iter()
        .enumerate()
        .take_while(|(i, line)| *i == 0 || line.text.trim().is_empty() || indent(&line.text) > item)
        .map(|(_, line)| line.text.as_str());
    let actions: Vec<String> = step
        .filter_map(|line| USES.captures(line).map(|c| c[1].to_ascii_lowercase()))
        .collect();
    actions.len() == 1 && !actions[0].contains("checkout")
}

fn without_spaces(text: &str) -> String {
    text.chars().filter(|c| !c.is_whitespace()).collect()
}
