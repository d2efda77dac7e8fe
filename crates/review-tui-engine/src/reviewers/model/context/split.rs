//! Splitting the diff into parts that fit a token budget: on file boundaries, and a file too
//! large for one part on hunk boundaries. A hunk is never split: one larger than the budget gets
//! a part of its own, and a note says so.

use crate::diff::{Diff, FileDiff};

use super::diff_text::{file_header, file_text, hunk_text};

/// The estimate every budget here uses: about four bytes of text per token.
pub const BYTES_PER_TOKEN: usize = 4;

pub fn estimate_tokens(text: &str) -> usize {
    text.len().div_ceil(BYTES_PER_TOKEN)
}

/// One part of the diff.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct DiffPart {
    /// Patch text: whole files, or one file's header with a run of its hunks.
    pub text: String,
    /// What the part holds, for its heading: `src/a.rs`, or `src/big.rs (hunks 4-6 of 9)`.
    pub files: Vec<String>,
    /// A single hunk over the budget: this part is over it too.
    pub oversized: bool,
}

impl DiffPart {
    pub fn tokens(&self) -> usize {
        estimate_tokens(&self.text)
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SplitDiff {
    /// At least one part; an empty diff gives one empty part.
    pub parts: Vec<DiffPart>,
    /// One line per oversized hunk.
    pub notes: Vec<String>,
}

/// Splits `diff` into parts of at most `budget_tokens` each (estimated), except for hunks that
/// alone exceed it.
pub fn split(diff: &Diff, budget_tokens: usize) -> SplitDiff {
    let budget = budget_tokens.max(1).saturating_mul(BYTES_PER_TOKEN);
    let mut splitter = Splitter {
        budget,
        done: SplitDiff::default(),
        current: DiffPart::default(),
    };
    for file in &diff.files {
        let text = file_text(file);
        if text.len() <= budget {
            splitter.add(file.path.clone(), &text);
        } else {
            splitter.add_by_hunks(file, budget_tokens);
        }
    }
    splitter.flush();
    if splitter.done.parts.is_empty() {
        splitter.done.parts.push(DiffPart::default());
    }
    splitter.done
}

struct Splitter {
    budget: usize,
    done: SplitDiff,
    current: DiffPart,
}

impl Splitter {
    fn add(&mut self, label: String, text: &str) {
        if self.current.text.len() + text.len() > self.budget {
            self.flush();
        }
        self.current.text.push_str(text);
        self.current.files.push(label);
    }

    fn flush(&mut self) {
        if !self.current.text.is_empty() {
            self.done.parts.push(std::mem::take(&mut self.current));
        }
    }

    /// A file over the budget: its hunks in runs, each run under the file's header.
    fn add_by_hunks(&mut self, file: &FileDiff, budget_tokens: usize) {
        let header = file_header(file);
        let count = file.hunks.len();
        let label = |first: usize, last: usize| {
            if first == last {
                format!("{} (hunk {first} of {count})", file.path)
            } else {
                format!("{} (hunks {first}-{last} of {count})", file.path)
            }
        };
        // The run being gathered: its text (header included) and its first hunk (1-based).
        let mut run = String::new();
        let mut first = 0;
        for (index, hunk) in file.hunks.iter().enumerate() {
            let number = index + 1;
            let text = hunk_text(hunk);
            if header.len() + text.len() > self.budget {
                if !run.is_empty() {
                    self.add(label(first, number - 1), &std::mem::take(&mut run));
                }
                self.flush();
                self.current = DiffPart {
                    text: format!("{header}{text}"),
                    files: vec![label(number, number)],
                    oversized: true,
                };
                self.flush();
                self.done.notes.push(format!(
                    "{}: hunk {number} of {count} (@@ -{},{} +{},{} @@) is about {} tokens, over \
                     the {budget_tokens}-token budget; it has a part of its own",
                    file.path,
                    hunk.old_start,
                    hunk.old_count,
                    hunk.new_start,
                    hunk.new_count,
                    estimate_tokens(&header) + estimate_tokens(&text),
                ));
                continue;
            }
            if run.is_empty() {
                run.push_str(&header);
                first = number;
            } else if run.len() + text.len() > self.budget {
                self.add(label(first, number - 1), &std::mem::take(&mut run));
                run.push_str(&header);
                first = number;
            }
            run.push_str(&text);
        }
        if !run.is_empty() {
            self.add(label(first, count), &run);
        }
    }
}

#[cfg(test)]
mod tests;
