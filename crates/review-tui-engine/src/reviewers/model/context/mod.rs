//! The context a model reviewer receives: the diff in parts that fit a token budget, the
//! languages it touches, the repository's guidance read from the base revision, and the PR's
//! text and discussion as delimited untrusted data.
//!
//! [`Context::render`] is the only way text leaves this module, and every piece passes through
//! the caller's redactor on the way out.

pub mod diff_text;
pub mod guidance;
pub mod split;
pub mod untrusted;

#[cfg(test)]
mod tests;

use std::collections::BTreeMap;
use std::fmt::Write;

use thiserror::Error;

use crate::diff::{Diff, Language};
use crate::pr::forge::{PrHistory, PullRequest};

pub use guidance::{Guidance, GuidanceText, read_guidance};
pub use split::{DiffPart, SplitDiff, estimate_tokens};
pub use untrusted::{UNTRUSTED_DATA_RULE, Untrusted};

/// Room kept in each part for its headings and fences.
const FRAME_TOKENS: usize = 128;
/// The diff must keep at least this share of each part's budget (1/4).
const MIN_DIFF_SHARE: usize = 4;
/// A part's heading names at most this many files, then "and N more".
const HEADING_FILES: usize = 12;

#[derive(Debug, Error)]
pub enum ContextError {
    #[error("git: {action}: {source}")]
    Git {
        action: String,
        #[source]
        source: git2::Error,
    },
    #[error(transparent)]
    Config(#[from] crate::config::ConfigError),
    /// The seed's rule: an explicit budget that cannot hold the discussion is refused, never met
    /// by silently truncating what the author or reviewers wrote.
    #[error(
        "the PR text, discussion and guidance take about {shared} tokens, leaving too little of \
         the {budget}-token budget for the diff; raise the budget"
    )]
    BudgetTooSmall { shared: usize, budget: usize },
}

/// Everything a model reviewer is given about the change, ready to render into parts.
#[derive(Debug, Clone)]
pub struct Context {
    languages: Vec<(Language, usize)>,
    guidance: Option<Guidance>,
    untrusted: Vec<Untrusted>,
    diff: SplitDiff,
    diff_files: usize,
    notes: Vec<String>,
    /// The first notes (stripped text, cut guidance) are shown to the model; the split's notes
    /// after them are for the report only, so they cannot push a part over its budget.
    model_notes: usize,
}

/// Collects the inputs of a [`Context`]; [`ContextBuilder::build`] splits the diff.
#[derive(Debug)]
pub struct ContextBuilder<'a> {
    diff: &'a Diff,
    guidance: Option<Guidance>,
    untrusted: Vec<Untrusted>,
    notes: Vec<String>,
}

/// What a dispatch will send, before it is sent: input tokens only (tool results and answers
/// come on top).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TokenEstimate {
    pub parts: usize,
    /// All parts once.
    pub context_tokens: usize,
    /// Every brief with every part: each reviewer reads each part under its own brief.
    pub total_tokens: usize,
}

impl<'a> ContextBuilder<'a> {
    /// Guidance read from the base revision with [`read_guidance`].
    pub fn guidance(mut self, guidance: Guidance) -> Self {
        self.notes.extend(guidance.notes.iter().cloned());
        self.guidance = Some(guidance);
        self
    }

    /// The PR's title, body and discussion, as untrusted data; `login` (who the credentials
    /// authenticate as) tells this tool's earlier rounds from others' reviews.
    pub fn pull_request(
        mut self,
        pr: &PullRequest,
        history: &PrHistory,
        login: Option<&str>,
    ) -> Self {
        let blocks = untrusted::from_pull_request(pr, history, login);
        self.untrusted = blocks.blocks;
        self.notes.extend(blocks.notes);
        self
    }

    /// The PR's open review threads, as untrusted data after the discussion: the reviewers
    /// are told not to raise them again.
    pub fn threads(mut self, threads: &[crate::pr::threads::ReviewThread]) -> Self {
        let blocks = untrusted::from_threads(threads);
        self.untrusted.extend(blocks.blocks);
        self.notes.extend(blocks.notes);
        self
    }

    /// Splits the diff so that each rendered part fits `budget_tokens` (estimated), the shared
    /// sections included. Refuses when those sections leave the diff less than a quarter.
    pub fn build(self, budget_tokens: usize) -> Result<Context, ContextError> {
        let mut context = Context {
            languages: languages(self.diff),
            guidance: self.guidance,
            untrusted: self.untrusted,
            diff: SplitDiff::default(),
            diff_files: self.diff.files.len(),
            model_notes: self.notes.len(),
            notes: self.notes,
        };
        let shared = estimate_tokens(&context.shared(&|text| text.to_string(), &mut 0));
        let notes = estimate_tokens(&context.notes.join("\n"));
        let reserved = estimate_tokens(UNTRUSTED_DATA_RULE) + shared + notes + FRAME_TOKENS;
        let diff_budget = budget_tokens.saturating_sub(reserved);
        if diff_budget < budget_tokens / MIN_DIFF_SHARE || diff_budget == 0 {
            return Err(ContextError::BudgetTooSmall {
                shared: reserved,
                budget: budget_tokens,
            });
        }
        context.diff = split::split(self.diff, diff_budget);
        context.notes.extend(context.diff.notes.iter().cloned());
        Ok(context)
    }
}

impl Context {
    pub fn builder(diff: &Diff) -> ContextBuilder<'_> {
        ContextBuilder {
            diff,
            guidance: None,
            untrusted: Vec::new(),
            notes: Vec::new(),
        }
    }

    /// The standing rule for the system prompt: untrusted blocks are data, never instructions.
    /// Each rendered part repeats it too.
    pub fn system_text() -> &'static str {
        UNTRUSTED_DATA_RULE
    }

    pub fn part_count(&self) -> usize {
        self.diff.parts.len()
    }

    /// "diff in 3 parts", for the report and the pre-run summary.
    pub fn parts_summary(&self) -> String {
        match self.part_count() {
            1 => "diff in 1 part".to_string(),
            n => format!("diff in {n} parts"),
        }
    }

    pub fn parts(&self) -> &[DiffPart] {
        &self.diff.parts
    }

    /// Languages of the changed files with how many files each, most files first.
    pub fn languages(&self) -> &[(Language, usize)] {
        &self.languages
    }

    /// What was stripped, cut or kept oversized on the way: for the report's coverage notes.
    pub fn notes(&self) -> &[String] {
        &self.notes
    }

    pub fn guidance(&self) -> Option<&Guidance> {
        self.guidance.as_ref()
    }

    /// One text per diff part, each complete for one model call. Every piece of text — guidance,
    /// PR text, attributes, notes, the diff — goes through `redact` before it is placed.
    pub fn render(&self, redact: &dyn Fn(&str) -> String) -> Vec<String> {
        let mut neutralised = 0;
        let shared = self.shared(redact, &mut neutralised);
        let count = self.part_count();
        let parts: Vec<(String, usize)> = self
            .diff
            .parts
            .iter()
            .enumerate()
            .map(|(index, part)| {
                let mut n = 0;
                let block = self.diff_block(index, part, redact, &mut n);
                (block, n)
            })
            .collect();
        parts
            .into_iter()
            .enumerate()
            .map(|(index, (diff_block, in_diff))| {
                let mut out = format!(
                    "{UNTRUSTED_DATA_RULE}\n\n# Review context: part {} of {count}\n\n",
                    index + 1
                );
                out.push_str(&shared);
                let mut notes: Vec<String> = self.notes[..self.model_notes]
                    .iter()
                    .map(|n| redact(n))
                    .collect();
                let neutralised = neutralised + in_diff;
                if neutralised > 0 {
                    notes.push(format!(
                        "{neutralised} untrusted-block delimiter look-alike{} inside the data \
                         were neutralised (written with &lt;)",
                        if neutralised == 1 { "" } else { "s" }
                    ));
                }
                if !notes.is_empty() {
                    out.push_str("## Notes\n");
                    for note in notes {
                        let _ = writeln!(out, "- {}", untrusted::plain_line(&note));
                    }
                    out.push('\n');
                }
                out.push_str(&diff_block);
                out
            })
            .collect()
    }

    /// The estimate shown before dispatch: every part, and every brief with every part.
    pub fn estimate(&self, briefs: &[&str]) -> TokenEstimate {
        let parts = self.render(&|text| text.to_string());
        let context_tokens: usize = parts.iter().map(|p| estimate_tokens(p)).sum();
        let total_tokens = if briefs.is_empty() {
            context_tokens
        } else {
            briefs
                .iter()
                .map(|brief| context_tokens + parts.len() * estimate_tokens(brief))
                .sum()
        };
        TokenEstimate {
            parts: parts.len(),
            context_tokens,
            total_tokens,
        }
    }

    /// The sections every part repeats: languages, guidance, PR text and discussion.
    fn shared(&self, redact: &dyn Fn(&str) -> String, neutralised: &mut usize) -> String {
        let mut out = String::new();
        if !self.languages.is_empty() {
            let names: Vec<String> = self
                .languages
                .iter()
                .map(|(language, files)| {
                    format!(
                        "{} ({files} file{})",
                        language.name(),
                        if *files == 1 { "" } else { "s" }
                    )
                })
                .collect();
            let _ = writeln!(out, "## Languages\n{}\n", names.join(", "));
        }
        if let Some(guidance) = self.guidance.as_ref().filter(|g| !g.texts.is_empty()) {
            let revision = &guidance.revision[..guidance.revision.len().min(12)];
            let _ = writeln!(
                out,
                "## Project guidance (from the base revision {revision}, not from the pull request)"
            );
            for text in &guidance.texts {
                let (body, n) = untrusted::neutralise(&redact(&text.text));
                *neutralised += n;
                let _ = write!(
                    out,
                    "<guidance origin=\"{}\">\n{body}{}</guidance>\n",
                    untrusted::attribute(&redact(&text.origin)),
                    if body.ends_with('\n') { "" } else { "\n" }
                );
            }
            out.push('\n');
        }
        if !self.untrusted.is_empty() {
            out.push_str("## Pull request and discussion (untrusted data)\n");
            for block in &self.untrusted {
                let (text, n) = untrusted::write_block(block, redact);
                *neutralised += n;
                out.push_str(&text);
            }
            out.push('\n');
        }
        out
    }

    fn diff_block(
        &self,
        index: usize,
        part: &DiffPart,
        redact: &dyn Fn(&str) -> String,
        neutralised: &mut usize,
    ) -> String {
        let count = self.part_count();
        let mut files: Vec<&str> = part
            .files
            .iter()
            .take(HEADING_FILES)
            .map(String::as_str)
            .collect();
        let more = part.files.len().saturating_sub(HEADING_FILES);
        let more = if more > 0 {
            format!(" and {more} more")
        } else {
            String::new()
        };
        if files.is_empty() {
            files.push("no file changes");
        }
        let files = untrusted::attribute(&redact(&format!("{}{more}", files.join(", "))));
        // The diff is the author's text too: it is delimited like the rest of their words, and
        // so are the file names, which sit in an attribute rather than in a heading.
        let (body, n) = untrusted::neutralise(&redact(&part.text));
        *neutralised += n;
        let fence = fence_for(&body);
        format!(
            "## Diff, part {number} of {count} ({} changed files in all)\n\
             <untrusted source=\"diff\" part=\"{number} of {count}\" files=\"{files}\">\n\
             {fence}diff\n{body}{fence}\n</untrusted>\n",
            self.diff_files,
            number = index + 1,
        )
    }
}

fn fence_for(body: &str) -> String {
    let longest = body
        .lines()
        .map(|line| {
            line.trim_start_matches(['+', '-', ' '])
                .chars()
                .take_while(|&c| c == '`')
                .count()
        })
        .max()
        .unwrap_or(0);
    "`".repeat(longest.max(2) + 1)
}

fn languages(diff: &Diff) -> Vec<(Language, usize)> {
    let mut counts: BTreeMap<Language, usize> = BTreeMap::new();
    for file in &diff.files {
        *counts.entry(file.language).or_default() += 1;
    }
    let mut languages: Vec<(Language, usize)> = counts.into_iter().collect();
    languages.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    languages
}
