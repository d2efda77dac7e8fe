//! `search_text` and `list_files`: regex search and file listing over the worktree, capped.

use std::io::Read;
use std::path::Path;

use regex::{Regex, RegexBuilder};

use super::confine;
use super::error::ToolError;
use super::glob::Glob;
use super::read::{cut, looks_binary};
use super::walk::{Walk, walk};
use super::{Limits, Redact};

/// Longer patterns are refused before compiling: no honest search needs one.
const MAX_PATTERN_BYTES: usize = 1000;
/// Matched lines are cut shorter than `read_file` lines: a search result is a pointer.
const MATCH_LINE_CHARS: usize = 300;

/// Compiles a model's regex with bounded memory. The regex crate matches in linear time, so the
/// remaining risk of a hostile pattern is the size of the compiled program, which is capped.
pub(super) fn compile(pattern: &str, limits: &Limits) -> Result<Regex, ToolError> {
    if pattern.len() > MAX_PATTERN_BYTES {
        return Err(ToolError::BadRegex(format!(
            "the pattern is {} bytes; the limit is {MAX_PATTERN_BYTES}",
            pattern.len()
        )));
    }
    RegexBuilder::new(pattern)
        .size_limit(limits.regex_bytes)
        .dfa_size_limit(limits.regex_bytes)
        .nest_limit(64)
        .build()
        .map_err(|e| match e {
            regex::Error::CompiledTooBig(_) => ToolError::BadRegex(format!(
                "the compiled pattern exceeds {} bytes; simplify it",
                limits.regex_bytes
            )),
            other => ToolError::BadRegex(one_line(&other.to_string())),
        })
}

pub(super) fn search_text(
    root: &Path,
    limits: &Limits,
    redact: Option<&Redact>,
    pattern: &str,
    glob: &str,
) -> Result<String, ToolError> {
    let regex = compile(pattern, limits)?;
    let glob = Glob::new(glob)?;
    Ok(search(root, limits, redact, &regex, &glob, limits.search_matches).render(limits))
}

/// What a search found and what it passed over.
#[derive(Debug, Default)]
pub(super) struct Search {
    pub lines: Vec<String>,
    pub files_with_matches: usize,
    pub files_searched: usize,
    pub more_matches: bool,
    pub output_full: bool,
    pub skipped_binary: usize,
    pub skipped_large: usize,
    pub skipped_unreadable: usize,
    pub scan_budget_spent: bool,
    pub walk: Walk,
}

/// Lines are matched and shown as redacted (each file redacted whole, before it is searched).
pub(super) fn search(
    root: &Path,
    limits: &Limits,
    redact: Option<&Redact>,
    regex: &Regex,
    glob: &Glob,
    max_matches: usize,
) -> Search {
    let files = walk(root, glob, limits.walk_entries, redact);
    let mut search = Search::default();
    let mut output = 0usize;
    let mut scanned = 0usize;
    let mut content = Vec::new();
    'files: for path in &files.files {
        if scanned >= limits.search_bytes {
            search.scan_budget_spent = true;
            break;
        }
        // Re-confined per file: the walk saw a name, this checks what opens.
        let Ok((_, file)) = confine::open_regular(root, path) else {
            search.skipped_unreadable += 1;
            continue;
        };
        content.clear();
        if file
            .take(limits.file_bytes as u64 + 1)
            .read_to_end(&mut content)
            .is_err()
        {
            search.skipped_unreadable += 1;
            continue;
        }
        if content.len() > limits.file_bytes {
            search.skipped_large += 1;
            continue;
        }
        if looks_binary(&content) {
            search.skipped_binary += 1;
            continue;
        }
        scanned += content.len();
        search.files_searched += 1;
        let raw = String::from_utf8_lossy(&content);
        // The regex runs on the redacted text, never on what it hides: a match on the raw
        // text, even with the line shown redacted, would answer "does the key start with
        // AKIAQ?" one character at a time.
        let text = match redact {
            Some(redact) => std::borrow::Cow::Owned(redact(&raw)),
            None => raw,
        };
        let mut matched = false;
        for (index, line) in text.lines().enumerate() {
            if !regex.is_match(line) {
                continue;
            }
            if search.lines.len() == max_matches {
                search.more_matches = true;
                break 'files;
            }
            let entry = format!("{path}:{}: {}", index + 1, cut(line, MATCH_LINE_CHARS));
            if output + entry.len() + 1 > limits.output_bytes {
                search.output_full = true;
                break 'files;
            }
            output += entry.len() + 1;
            search.lines.push(entry);
            matched = true;
        }
        search.files_with_matches += usize::from(matched);
    }
    search.walk = files;
    search
}

impl Search {
    pub(super) fn render(&self, limits: &Limits) -> String {
        let mut out = String::new();
        for line in &self.lines {
            out.push_str(line);
            out.push('\n');
        }
        if self.lines.is_empty() {
            out.push_str(&format!(
                "no matches in {} files searched\n",
                self.files_searched
            ));
        } else {
            out.push_str(&format!(
                "{} matching lines in {} files\n",
                self.lines.len(),
                self.files_with_matches
            ));
        }
        if self.more_matches {
            out.push_str(&format!(
                "[truncated: only the first {} matches are shown; narrow the regex or the glob]\n",
                self.lines.len()
            ));
        }
        if self.output_full {
            out.push_str(&format!(
                "[truncated: output limit of {} bytes reached; narrow the regex or the glob]\n",
                limits.output_bytes
            ));
        }
        if self.scan_budget_spent {
            out.push_str(&format!(
                "[truncated: stopped after reading {} bytes of files; narrow the glob]\n",
                limits.search_bytes
            ));
        }
        out.push_str(&skipped_note(&[
            (self.skipped_binary, "binary"),
            (self.skipped_large, "over the size limit"),
            (self.skipped_unreadable, "unreadable"),
        ]));
        out.push_str(&walk_note(&self.walk));
        out
    }
}

pub(super) fn list_files(
    root: &Path,
    limits: &Limits,
    redact: Option<&Redact>,
    glob: &str,
) -> Result<String, ToolError> {
    let glob = Glob::new(glob)?;
    let found = walk(root, &glob, limits.walk_entries, redact);
    let mut out = String::new();
    let mut shown = 0usize;
    for path in &found.files {
        if shown == limits.list_entries || out.len() + path.len() + 1 > limits.output_bytes {
            break;
        }
        out.push_str(path);
        out.push('\n');
        shown += 1;
    }
    let total = found.files.len();
    if shown < total {
        out.push_str(&format!(
            "[truncated: {shown} of {total} matching files shown; narrow the glob]\n"
        ));
    } else {
        out.push_str(&format!("{total} files\n"));
    }
    out.push_str(&walk_note(&found));
    Ok(out)
}

fn walk_note(walk: &Walk) -> String {
    let mut out = skipped_note(&[
        (
            walk.skipped_links,
            "symbolic links leading outside the worktree, nowhere or to a special file",
        ),
        (walk.skipped_names, "names that are not UTF-8"),
    ]);
    if let Some(limit) = walk.stopped_at {
        out.push_str(&format!(
            "[truncated: the walk stopped after {limit} entries; narrow the glob]\n"
        ));
    }
    out
}

fn skipped_note(counts: &[(usize, &str)]) -> String {
    let parts: Vec<String> = counts
        .iter()
        .filter(|(count, _)| *count > 0)
        .map(|(count, what)| format!("{count} {what}"))
        .collect();
    if parts.is_empty() {
        String::new()
    } else {
        format!("[skipped: {}]\n", parts.join(", "))
    }
}

fn one_line(text: &str) -> String {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}
