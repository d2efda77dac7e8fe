//! The summary a round publishes, in Markdown: readable in ten seconds by whoever decides the
//! merge. The decision first (a GitHub alert block), one line of facts, what must be fixed,
//! the observations, the walkthrough, then the details folded away. No praise: it is not
//! information the reader needs. `--format markdown` prints the same body.

use super::fields::{MovedFinding, evidence_text, push_field};
use super::select::{Item, Selected};
use crate::pr::forge::CheckRun;
use crate::report::escape::{code, inline, prose};
use crate::report::headline::{facts_line, headline};
use crate::review::node::{ReviewNode, Severity};
use crate::session::snapshot::RoundSnapshot;

/// The head's CI as the forge reports it. A model's claim about CI is never shown as a fact.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum CiStatus {
    Reported(Vec<CheckRun>),
    NotVerified(String),
}

/// Everything the summary shows besides the reviewed round itself.
#[derive(Debug, Clone, Default)]
pub(crate) struct SummaryExtras<'a> {
    pub walkthrough: Option<&'a str>,
    pub ci: Option<&'a CiStatus>,
    /// Lines shown right under the facts (an intended event GitHub would refuse, a resend).
    pub notices: &'a [String],
    /// Findings that could not be placed on the current diff.
    pub moved: &'a [MovedFinding],
    /// Findings GitHub would not take as inline comments: shown whole in the body.
    pub unplaced: &'a [&'a Item],
    /// Earlier rounds' findings this round did not find again.
    pub not_refound: &'a [String],
    pub collapse: &'a [Severity],
}

/// The summary body, without the hidden markers (the publisher adds them).
pub(crate) fn summary(
    result: &RoundSnapshot,
    selected: &Selected,
    extras: &SummaryExtras<'_>,
) -> String {
    let (alert, decision) = headline(result);
    let decision = inline(&decision);
    let mut out = format!("> [!{alert}]\n> **{decision}**\n\n{}\n", facts_line(result));
    for notice in extras.notices {
        out.push_str(&format!("\n{notice}\n"));
    }

    let blocking: Vec<&Item> = selected.items.iter().filter(|i| i.blocking).collect();
    if !blocking.is_empty() {
        out.push_str("\n### Fix before merge\n");
        for (n, item) in blocking.iter().enumerate() {
            out.push_str(&problem_block(n + 1, item));
        }
    }
    let observations: Vec<&Item> = selected
        .items
        .iter()
        .filter(|i| !i.blocking && !i.collapsed)
        .collect();
    if !observations.is_empty() {
        out.push_str("\n### Observations\n");
        for item in observations {
            out.push_str(&format!("- {}\n", one_line(item)));
            if let Some(edited) = &item.edited {
                let mut comment = String::new();
                push_field(&mut comment, "Comment", edited);
                out.push_str(&format!("  {}", comment.replace("\n  ", "\n    ")));
            }
        }
    }
    if !extras.unplaced.is_empty() {
        out.push_str("\n### Findings on lines\nGitHub would not place these as inline comments, so they are here in full.\n");
        for (n, item) in extras.unplaced.iter().enumerate() {
            out.push_str(&problem_block(n + 1, item));
        }
    }
    if !extras.moved.is_empty() {
        out.push_str("\n### Not on the current diff\n");
        for moved in extras.moved {
            // `reason` is ours, its path already a code span (`comment::place`).
            out.push_str(&format!(
                "- {} {}: {}\n",
                code(&moved.location),
                inline(&moved.title),
                moved.reason
            ));
        }
    }
    if let Some(walkthrough) = extras.walkthrough.filter(|w| !w.trim().is_empty()) {
        out.push_str(&format!(
            "\n### Walkthrough\n{}\n",
            prose(walkthrough.trim())
        ));
    }
    out.push_str("\n<details>\n<summary>Review details</summary>\n");
    out.push_str(&details(result, selected, extras));
    out.push_str("\n</details>\n");
    out
}

/// One blocking problem, whole: where, title, who found it, impact, evidence, fix, verification.
fn problem_block(n: usize, item: &Item) -> String {
    let node = &item.node;
    let mut out = format!(
        "\n**{n}. {}** · {} · {} {} · found by {}\n",
        inline(&node.text.title),
        code(&node.location()),
        node.priority,
        node.triage.category,
        inline(&crate::review::consolidate::join_names(&item.found_by))
    );
    // The person's comment, when they wrote one, is what is said about the problem.
    if let Some(edited) = &item.edited {
        push_field(&mut out, "Comment", edited);
        return out;
    }
    push_field(&mut out, "Impact", &node.text.impact);
    push_field(&mut out, "Evidence", &evidence_text(item));
    push_field(&mut out, "Fix", &fix_text(node));
    push_field(&mut out, "Verification", &node.text.verification);
    out
}

fn fix_text(node: &ReviewNode) -> String {
    let Some(fix) = &node.fix else {
        return String::new();
    };
    if let Some(prompt) = &fix.prompt {
        return prompt.clone();
    }
    if fix.replacement.is_some() {
        return "exact replacement lines are given (a suggestion on the line, or under Suggestions below)".into();
    }
    if fix.diff.is_some() {
        return "a patch is given under Suggestions below".into();
    }
    String::new()
}

/// `P2 · title · rule · src/x.rs:3 · found by rules` — one line for a non-blocking finding.
fn one_line(item: &Item) -> String {
    let node = &item.node;
    let scope = if node.in_scope() {
        ""
    } else {
        " (outside the changed lines)"
    };
    format!(
        "{} {} · {} · {}{scope} · found by {}",
        code(&node.location()),
        inline(&node.text.title),
        node.priority,
        inline(&node.rule_key()),
        inline(&crate::review::consolidate::join_names(&item.found_by))
    )
}

fn details(result: &RoundSnapshot, selected: &Selected, extras: &SummaryExtras<'_>) -> String {
    let mut out = String::new();
    suggestions_section(&mut out, selected);
    ci_section(&mut out, extras.ci);
    rules_section(&mut out, selected);
    limitations_section(&mut out, result, selected);
    coverage_section(&mut out, result);
    not_refound_section(&mut out, extras.not_refound);
    consolidation_section(&mut out, selected, extras.collapse);
    out
}

/// "Suggestions": the fixes of the findings that do not block, as code.
fn suggestions_section(out: &mut String, selected: &Selected) {
    let suggestions: Vec<&Item> = selected
        .items
        .iter()
        .filter(|i| {
            !i.blocking
                && i.node
                    .fix
                    .as_ref()
                    .is_some_and(|f| f.replacement.is_some() || f.diff.is_some())
        })
        .collect();
    if !suggestions.is_empty() {
        out.push_str("\n#### Suggestions\n");
        for item in suggestions {
            let fix = item.node.fix.as_ref().expect("filtered on fix");
            let lines: Vec<String> = match (&fix.replacement, &fix.diff) {
                (Some(lines), _) => lines.clone(),
                (None, Some(diff)) => diff.lines().map(str::to_string).collect(),
                (None, None) => Vec::new(),
            };
            // A code block shows anything literally; markers are only read from a body's
            // last lines, so a marker-shaped line in here is inert.
            let fence = super::fields::fence_for(&lines);
            out.push_str(&format!(
                "- {} {}\n\n{fence}\n{}\n{fence}\n",
                code(&item.node.location()),
                inline(&item.node.text.title),
                lines.join("\n")
            ));
        }
    }
}

/// "CI status": the reviewed head's check runs, or why they were not verified.
fn ci_section(out: &mut String, ci: Option<&CiStatus>) {
    out.push_str("\n#### CI status\n");
    match ci {
        Some(CiStatus::Reported(runs)) if runs.is_empty() => {
            out.push_str("No check runs reported for the reviewed head.\n")
        }
        Some(CiStatus::Reported(runs)) => {
            for run in runs {
                let state = run.conclusion.as_deref().unwrap_or(run.status.as_str());
                let link = run
                    .html_url
                    .as_deref()
                    .filter(|u| is_plain_https(u))
                    .map(|u| format!(" ([log]({u}))"))
                    .unwrap_or_default();
                out.push_str(&format!(
                    "- {}: {}{link}\n",
                    inline(&run.name),
                    inline(state)
                ));
            }
        }
        Some(CiStatus::NotVerified(why)) => {
            out.push_str(&format!("Not verified: {}.\n", inline(why)));
        }
        None => out.push_str("Not verified.\n"),
    }
}

/// "Rules cited": each rule a finding names, once, with who found it.
fn rules_section(out: &mut String, selected: &Selected) {
    let mut rules: Vec<(String, String)> = Vec::new();
    for item in &selected.items {
        if let Some(rule) = &item.node.rule
            && !rules.iter().any(|(r, _)| r == rule)
        {
            rules.push((rule.clone(), item.found_by.join(", ")));
        }
    }
    if !rules.is_empty() {
        out.push_str("\n#### Rules cited\n");
        for (rule, by) in rules {
            out.push_str(&format!("- {} ({})\n", code(&rule), inline(&by)));
        }
    }
}

/// "Limitations": a deterministic-only run, reviewers that did not finish ok, findings left
/// out for want of a peer's confirmation.
fn limitations_section(out: &mut String, result: &RoundSnapshot, selected: &Selected) {
    let mut limitations: Vec<String> = Vec::new();
    if result.deterministic_only {
        limitations.push(
            "Deterministic-only run, asked for explicitly: no model reviewer read this change."
                .into(),
        );
    }
    for reviewer in result.board.reviewers.values() {
        let outcome = reviewer.outcome.map(|o| o.as_str()).unwrap_or("unfinished");
        if outcome != "ok" && !result.deterministic_only {
            limitations.push(format!(
                "{}: {outcome}{}",
                inline(&reviewer.name),
                if reviewer.note.is_empty() {
                    String::new()
                } else {
                    format!(" ({})", inline(&reviewer.note))
                }
            ));
        }
    }
    if !selected.left_out.is_empty() {
        limitations.push(format!(
            "Consensus-only: {} without a peer's confirmation not published here: {}.",
            plural(selected.left_out.len(), "finding"),
            inline(&selected.left_out.join("; "))
        ));
    }
    if !limitations.is_empty() {
        out.push_str("\n#### Limitations\n");
        for line in limitations {
            out.push_str(&format!("- {line}\n"));
        }
    }
}

/// "Coverage": the files reviewed and skipped, what was dropped, the round's notes.
fn coverage_section(out: &mut String, result: &RoundSnapshot) {
    let coverage = &result.coverage;
    out.push_str("\n#### Coverage\n");
    out.push_str(&format!(
        "- {} reviewed, {} skipped\n",
        plural(coverage.files_reviewed.len(), "file"),
        coverage.files_skipped.len()
    ));
    for (reviewer, why) in &coverage.dropped {
        out.push_str(&format!(
            "- dropped from {}: {}\n",
            inline(reviewer),
            inline(why)
        ));
    }
    for note in &coverage.notes {
        out.push_str(&format!("- {}\n", inline(note)));
    }
}

/// "Previous rounds not re-found".
fn not_refound_section(out: &mut String, not_refound: &[String]) {
    if !not_refound.is_empty() {
        out.push_str("\n#### Previous rounds not re-found\n");
        // Built by the publisher: Markdown already, its outside parts escaped there.
        for line in not_refound {
            out.push_str(&format!("- {line}\n"));
        }
    }
}

/// "Consolidation and preferences": reports folded into one finding, findings collapsed by
/// `presentation.collapse`.
fn consolidation_section(out: &mut String, selected: &Selected, collapse: &[Severity]) {
    let folded: Vec<&Item> = selected.items.iter().filter(|i| i.reports > 1).collect();
    let collapsed: Vec<&Item> = selected.items.iter().filter(|i| i.collapsed).collect();
    if !folded.is_empty() || !collapsed.is_empty() {
        out.push_str("\n#### Consolidation and preferences\n");
        for item in folded {
            out.push_str(&format!(
                "- {} {}: {} reports folded into one, found by {}\n",
                code(&item.node.location()),
                inline(&item.node.text.title),
                item.reports,
                inline(&crate::review::consolidate::join_names(&item.found_by))
            ));
        }
        if !collapsed.is_empty() {
            let severities: Vec<&str> = collapse.iter().map(|s| s.as_str()).collect();
            let named: Vec<String> = collapsed
                .iter()
                .map(|i| {
                    format!(
                        "{} {} {}",
                        i.node.triage.severity.as_str(),
                        code(&i.node.rule_key()),
                        inline(&i.node.location())
                    )
                })
                .collect();
            out.push_str(&format!(
                "- Collapsed by presentation.collapse ({}): {}\n",
                severities.join(", "),
                named.join("; ")
            ));
        }
    }
}

/// A link we may show: https, one token, nothing that could end the Markdown link early.
fn is_plain_https(url: &str) -> bool {
    url.starts_with("https://")
        && !url.chars().any(|c| {
            c.is_whitespace() || c.is_control() || matches!(c, '(' | ')' | '<' | '>' | '"' | '`')
        })
}

fn plural(n: usize, word: &str) -> String {
    if n == 1 {
        format!("1 {word}")
    } else {
        format!("{n} {word}s")
    }
}
