//! The unified diff parser: git extended diffs (`diff --git`, as git, libgit2 and GitHub's
//! `.diff` media type write them) and plain unified diffs (`---`/`+++`, as diff(1), hg, svn, bzr
//! and quilt write them).
//!
//! Hunk bodies are read by their header counts, never by guessing from the first character:
//! a removed line `-- x` looks like `--- x`, and only the counts tell them apart. Text outside
//! files (commit messages, `Index:` lines, mail signatures) is skipped.

use super::error::{DiffError, Problem};
use super::language::Language;
use super::model::{
    Diff, FileDiff, FileMode, FileStatus, Hunk, Line, LineEnding, LineKind, SubmoduleChange,
    Unavailable,
};
use super::names::{self, DEV_NULL};

/// Parses a diff. Empty (or blank) input is an empty diff; anything else must contain at least
/// one file change.
pub fn parse(text: &str) -> Result<Diff, DiffError> {
    Parser::new(text).run(text)
}

/// Parses a diff given as raw bytes; content that is not UTF-8 is replaced, not refused, since
/// diffs of Latin-1 files are still diffs.
pub fn parse_bytes(bytes: &[u8]) -> Result<Diff, DiffError> {
    parse(&String::from_utf8_lossy(bytes))
}

impl std::str::FromStr for Diff {
    type Err = DiffError;

    fn from_str(text: &str) -> Result<Diff, DiffError> {
        parse(text)
    }
}

struct Parser<'a> {
    lines: Vec<&'a str>,
    pos: usize,
}

/// What the extended header lines after `diff --git` said about a file.
#[derive(Default)]
struct GitHeader {
    added: bool,
    deleted: bool,
    renamed: bool,
    copied: bool,
    binary: bool,
    from: Option<String>,
    to: Option<String>,
    old_mode: Option<FileMode>,
    new_mode: Option<FileMode>,
    similarity: Option<u8>,
    old_id: Option<String>,
    new_id: Option<String>,
    unavailable: Option<Unavailable>,
}

impl<'a> Parser<'a> {
    fn new(text: &'a str) -> Parser<'a> {
        let mut lines: Vec<&str> = text.split('\n').collect();
        if text.is_empty() || text.ends_with('\n') {
            lines.pop();
        }
        Parser { lines, pos: 0 }
    }

    /// Line `index` without its `\r`, if it had one.
    fn text(&self, index: usize) -> &'a str {
        let line = self.lines[index];
        line.strip_suffix('\r').unwrap_or(line)
    }

    fn current(&self) -> Option<&'a str> {
        (self.pos < self.lines.len()).then(|| self.text(self.pos))
    }

    fn malformed(&self, index: usize, problem: Problem) -> DiffError {
        DiffError::Malformed {
            line: index + 1,
            problem,
        }
    }

    fn at_plain_header(&self) -> bool {
        self.pos + 1 < self.lines.len()
            && self.text(self.pos).starts_with("--- ")
            && self.text(self.pos + 1).starts_with("+++ ")
    }

    fn run(mut self, text: &str) -> Result<Diff, DiffError> {
        let mut files = Vec::new();
        while let Some(line) = self.current() {
            if let Some(rest) = line.strip_prefix("diff --git ") {
                files.push(self.git_file(rest)?);
            } else if line.starts_with("diff --cc ") || line.starts_with("diff --combined ") {
                return Err(self.unsupported("a combined diff of a merge commit"));
            } else if self.at_plain_header() {
                files.push(self.plain_file()?);
            } else if line.starts_with("@@@") {
                return Err(self.unsupported("a combined diff of a merge commit"));
            } else if hunk_header(line).is_some() {
                return Err(self.malformed(self.pos, Problem::HunkOutsideFile));
            } else if let Some(file) = binary_notice(line) {
                files.push(file);
                self.pos += 1;
            } else if line == "***************" {
                return Err(self.unsupported("a context diff (diff -c)"));
            } else {
                self.pos += 1;
            }
        }
        if files.is_empty() && !text.trim().is_empty() {
            if let Some(index) =
                (0..self.lines.len()).find(|&i| is_normal_diff_command(self.text(i)))
            {
                return Err(DiffError::Unsupported {
                    line: index + 1,
                    format: "a normal diff (diff without -u)",
                });
            }
            return Err(DiffError::NoDiff);
        }
        Ok(Diff { files })
    }

    fn unsupported(&self, format: &'static str) -> DiffError {
        DiffError::Unsupported {
            line: self.pos + 1,
            format,
        }
    }

    fn git_file(&mut self, rest: &str) -> Result<FileDiff, DiffError> {
        let header_index = self.pos;
        let header_names = names::git_header_names(rest);
        self.pos += 1;
        let header = self.git_extended_header()?;

        let (mut minus, mut plus) = (None, None);
        if !header.binary && self.at_plain_header() {
            minus = Some(names::header_name(&self.text(self.pos)[4..]));
            plus = Some(names::header_name(&self.text(self.pos + 1)[4..]));
            self.pos += 2;
        }
        let hunks = if header.binary {
            Vec::new()
        } else {
            self.hunks()?
        };

        let from_lines = match (&minus, &plus) {
            (Some(minus), Some(plus)) => Some(names::plain_names(minus, plus)),
            _ => None,
        };
        // Rename and copy lines are authoritative (as for `git apply`), then the `diff --git`
        // names, then the `---`/`+++` names for headers too ambiguous to split.
        let pick = |explicit: &Option<String>, header: Option<&String>, lines: Option<&String>| {
            explicit
                .clone()
                .or_else(|| header.cloned())
                .or_else(|| lines.filter(|name| name.as_str() != DEV_NULL).cloned())
        };
        let old = pick(
            &header.from,
            header_names.as_ref().map(|(old, _)| old),
            from_lines.as_ref().map(|(old, _)| old),
        );
        let new = pick(
            &header.to,
            header_names.as_ref().map(|(_, new)| new),
            from_lines.as_ref().map(|(_, new)| new),
        );

        let status = if header.added || minus.as_deref() == Some(DEV_NULL) {
            FileStatus::Added
        } else if header.deleted || plus.as_deref() == Some(DEV_NULL) {
            FileStatus::Deleted
        } else if header.renamed {
            FileStatus::Renamed
        } else if header.copied {
            FileStatus::Copied
        } else {
            FileStatus::Modified
        };
        let path = match (status, old.clone(), new) {
            (FileStatus::Deleted, Some(old), _) => old,
            (_, _, Some(new)) => new,
            (_, Some(old), None) => old,
            (_, None, None) => {
                return Err(self.malformed(
                    header_index,
                    Problem::BadFileHeader(excerpt(self.text(header_index))),
                ));
            }
        };
        let old_path = match status {
            FileStatus::Renamed | FileStatus::Copied => old,
            _ => None,
        };
        let submodule = submodule_change(&header, &hunks);
        Ok(finish_file(FileDiff {
            path,
            old_path,
            status,
            binary: header.binary,
            old_mode: header.old_mode,
            new_mode: header.new_mode,
            similarity: header.similarity,
            old_id: header.old_id,
            new_id: header.new_id,
            submodule,
            language: Language::Other,
            additions: 0,
            deletions: 0,
            hunks,
            unavailable: header.unavailable,
        }))
    }

    /// Reads the lines between `diff --git` and the `---`/`+++` pair or the first hunk.
    fn git_extended_header(&mut self) -> Result<GitHeader, DiffError> {
        let mut header = GitHeader::default();
        while let Some(line) = self.current() {
            let mode = |text: &str| {
                FileMode::from_octal(text)
                    .ok_or_else(|| self.malformed(self.pos, Problem::BadMode(excerpt(text))))
            };
            if let Some(text) = line.strip_prefix("old mode ") {
                header.old_mode = Some(mode(text)?);
            } else if let Some(text) = line.strip_prefix("new mode ") {
                header.new_mode = Some(mode(text)?);
            } else if let Some(text) = line.strip_prefix("deleted file mode ") {
                header.deleted = true;
                header.old_mode = Some(mode(text)?);
            } else if let Some(text) = line.strip_prefix("new file mode ") {
                header.added = true;
                header.new_mode = Some(mode(text)?);
            } else if let Some(text) = line
                .strip_prefix("similarity index ")
                .or_else(|| line.strip_prefix("dissimilarity index "))
            {
                header.similarity = text.strip_suffix('%').and_then(|n| n.parse().ok());
            } else if let Some(name) = line
                .strip_prefix("rename from ")
                .or_else(|| line.strip_prefix("rename old "))
            {
                header.renamed = true;
                header.from = Some(names::header_name(name));
            } else if let Some(name) = line
                .strip_prefix("rename to ")
                .or_else(|| line.strip_prefix("rename new "))
            {
                header.renamed = true;
                header.to = Some(names::header_name(name));
            } else if let Some(name) = line.strip_prefix("copy from ") {
                header.copied = true;
                header.from = Some(names::header_name(name));
            } else if let Some(name) = line.strip_prefix("copy to ") {
                header.copied = true;
                header.to = Some(names::header_name(name));
            } else if let Some(text) = line.strip_prefix("index ") {
                let (ids, index_mode) = match text.split_once(' ') {
                    Some((ids, mode_text)) => (ids, Some(mode(mode_text)?)),
                    None => (text, None),
                };
                if let Some((old, new)) = ids.split_once("..") {
                    header.old_id = Some(old.to_owned());
                    header.new_id = Some(new.to_owned());
                }
                // The mode on the index line means it did not change.
                if index_mode.is_some() {
                    header.old_mode = header.old_mode.or(index_mode);
                    header.new_mode = header.new_mode.or(index_mode);
                }
            } else if binary_notice(line).is_some() {
                header.binary = true;
            } else if let Some(side) = Unavailable::from_header(line) {
                header.unavailable = Some(side);
            } else if line == "GIT binary patch" {
                header.binary = true;
                // The base85 payload never contains a space, so it cannot look like a header.
                self.pos += 1;
                while self
                    .current()
                    .is_some_and(|line| !line.starts_with("diff --git "))
                {
                    self.pos += 1;
                }
                break;
            } else {
                break;
            }
            self.pos += 1;
        }
        Ok(header)
    }

    fn plain_file(&mut self) -> Result<FileDiff, DiffError> {
        let minus = names::header_name(&self.text(self.pos)[4..]);
        let plus = names::header_name(&self.text(self.pos + 1)[4..]);
        self.pos += 2;
        let (old, new) = names::plain_names(&minus, &plus);
        let hunks = self.hunks()?;
        let only_hunk = (hunks.len() == 1).then(|| &hunks[0]);
        // svn and bzr write empty names instead of /dev/null; an all-new or all-gone single
        // hunk is how they say a file was added or deleted.
        let status = if old == DEV_NULL
            || only_hunk.is_some_and(|h| h.old_count == 0 && h.old_start == 0)
        {
            FileStatus::Added
        } else if new == DEV_NULL || only_hunk.is_some_and(|h| h.new_count == 0 && h.new_start == 0)
        {
            FileStatus::Deleted
        } else {
            FileStatus::Modified
        };
        let path = if status == FileStatus::Deleted || new == DEV_NULL {
            old
        } else {
            new
        };
        Ok(finish_file(plain_entry(path, status, false, hunks)))
    }

    fn hunks(&mut self) -> Result<Vec<Hunk>, DiffError> {
        let mut hunks = Vec::new();
        while let Some(line) = self.current() {
            if line.starts_with("@@@") {
                return Err(self.unsupported("a combined diff of a merge commit"));
            }
            if !line.starts_with("@@") {
                break;
            }
            hunks.push(self.hunk()?);
        }
        if let (Some(last), Some(line)) = (hunks.last(), self.current()) {
            // Right after a complete hunk, a line that reads like hunk content means the
            // header's counts were wrong: refusing beats silently dropping lines.
            let past_end = match line.as_bytes().first() {
                Some(b'+' | b' ') => true,
                Some(b'-') => !(self.at_plain_header() || line == "--" || line == "-- "),
                _ => false,
            };
            if past_end {
                return Err(self.malformed(
                    self.pos,
                    Problem::HunkTooLong {
                        hunk_line: last.header_line,
                    },
                ));
            }
        }
        Ok(hunks)
    }

    fn hunk(&mut self) -> Result<Hunk, DiffError> {
        let header_index = self.pos;
        let header_text = self.text(header_index);
        let mut header = hunk_header(header_text).ok_or_else(|| {
            self.malformed(header_index, Problem::BadHunkHeader(excerpt(header_text)))
        })?;
        self.pos += 1;
        let hunk_line = header_index + 1;

        let remaining = self.lines.len() - self.pos;
        let expected = header.old_count as usize + header.new_count as usize;
        let mut lines: Vec<Line> = Vec::with_capacity(expected.min(remaining));
        let (mut old_line, mut new_line) = (header.old_start, header.new_start);
        let (mut old_left, mut new_left) = (header.old_count, header.new_count);

        while old_left > 0 || new_left > 0 {
            let too_short = Problem::HunkTooShort {
                hunk_line,
                old_seen: header.old_count - old_left,
                old_expected: header.old_count,
                new_seen: header.new_count - new_left,
                new_expected: header.new_count,
            };
            if self.pos >= self.lines.len() {
                // Editors that trim trailing whitespace at the end of a file delete the last
                // blank context lines outright. When only context can be missing (both sides
                // are short by the same amount), keep what is there and trim the counts: every
                // added and removed line is still accounted for.
                if old_left == new_left {
                    header.old_count -= old_left;
                    header.new_count -= new_left;
                    break;
                }
                return Err(self.malformed(self.lines.len() - 1, too_short));
            }
            let raw = self.lines[self.pos];
            let text = self.text(self.pos);
            let ending = if raw.len() != text.len() {
                LineEnding::CrLf
            } else {
                LineEnding::Lf
            };
            let (kind, content) = match text.as_bytes().first() {
                Some(b' ') => (LineKind::Context, &text[1..]),
                // Mailers and editors strip the lone space of an empty context line.
                None => (LineKind::Context, ""),
                Some(b'+') => (LineKind::Added, &text[1..]),
                Some(b'-') => (LineKind::Removed, &text[1..]),
                Some(b'\\') => {
                    if let Some(last) = lines.last_mut() {
                        last.ending = LineEnding::Missing;
                    }
                    self.pos += 1;
                    continue;
                }
                _ if text.starts_with("@@") || text.starts_with("diff ") => {
                    return Err(self.malformed(self.pos, too_short));
                }
                _ => {
                    return Err(self.malformed(
                        self.pos,
                        Problem::UnexpectedHunkLine {
                            hunk_line,
                            text: excerpt(text),
                        },
                    ));
                }
            };
            let fits = match kind {
                LineKind::Context => old_left > 0 && new_left > 0,
                LineKind::Added => new_left > 0,
                LineKind::Removed => old_left > 0,
            };
            if !fits {
                let problem = if text.starts_with("--- ") || text.starts_with("+++ ") {
                    too_short
                } else {
                    Problem::HunkTooLong { hunk_line }
                };
                return Err(self.malformed(self.pos, problem));
            }
            let (old_number, new_number) = match kind {
                LineKind::Context => (Some(old_line), Some(new_line)),
                LineKind::Added => (None, Some(new_line)),
                LineKind::Removed => (Some(old_line), None),
            };
            if old_number.is_some() {
                old_line += 1;
                old_left -= 1;
            }
            if new_number.is_some() {
                new_line += 1;
                new_left -= 1;
            }
            lines.push(Line {
                kind,
                old_line: old_number,
                new_line: new_number,
                text: content.to_owned(),
                ending,
            });
            self.pos += 1;
        }
        while self.current().is_some_and(|line| line.starts_with('\\')) {
            if let Some(last) = lines.last_mut() {
                last.ending = LineEnding::Missing;
            }
            self.pos += 1;
        }
        Ok(Hunk {
            old_start: header.old_start,
            old_count: header.old_count,
            new_start: header.new_start,
            new_count: header.new_count,
            section: header.section,
            header_line: hunk_line,
            lines,
        })
    }
}

struct HunkHeader {
    old_start: u32,
    old_count: u32,
    new_start: u32,
    new_count: u32,
    section: Option<String>,
}

/// Reads `@@ -a[,b] +c[,d] @@[ section]`; an omitted count means 1.
fn hunk_header(line: &str) -> Option<HunkHeader> {
    let rest = line.strip_prefix("@@ -")?;
    let (old, rest) = rest.split_once(" +")?;
    let (new, rest) = rest.split_once(" @@")?;
    let (old_start, old_count) = range(old)?;
    let (new_start, new_count) = range(new)?;
    let section = rest.strip_prefix(' ').unwrap_or(rest);
    Some(HunkHeader {
        old_start,
        old_count,
        new_start,
        new_count,
        section: (!section.is_empty()).then(|| section.to_owned()),
    })
}

fn range(text: &str) -> Option<(u32, u32)> {
    let (start, count) = match text.split_once(',') {
        Some((start, count)) => (number(start)?, number(count)?),
        None => (number(text)?, 1),
    };
    // Line 0 only exists as the anchor of an empty range ("insert before the first line"),
    // and a range must end inside u32 so line numbers can be counted without overflow.
    if count > 0 && start == 0 {
        return None;
    }
    start.checked_add(count)?;
    Some((start, count))
}

fn number(text: &str) -> Option<u32> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse().ok()
}

/// A standalone "Binary files X and Y differ", as diff(1) prints it.
fn binary_notice(line: &str) -> Option<FileDiff> {
    let inner = line
        .strip_prefix("Binary files ")?
        .strip_suffix(" differ")?;
    let (old, new) = inner.split_once(" and ").unwrap_or((inner, inner));
    let (old, new) = names::plain_names(old, new);
    let (status, path) = if old == DEV_NULL {
        (FileStatus::Added, new)
    } else if new == DEV_NULL {
        (FileStatus::Deleted, old)
    } else {
        (FileStatus::Modified, new)
    };
    Some(finish_file(plain_entry(path, status, true, Vec::new())))
}

fn plain_entry(path: String, status: FileStatus, binary: bool, hunks: Vec<Hunk>) -> FileDiff {
    FileDiff {
        path,
        old_path: None,
        status,
        binary,
        old_mode: None,
        new_mode: None,
        similarity: None,
        old_id: None,
        new_id: None,
        submodule: None,
        language: Language::Other,
        additions: 0,
        deletions: 0,
        hunks,
        unavailable: None,
    }
}

/// Fills in what is derived from the hunks: the counts and the language.
fn finish_file(mut file: FileDiff) -> FileDiff {
    let (mut additions, mut deletions) = (0, 0);
    for line in file.hunks.iter().flat_map(|hunk| &hunk.lines) {
        match line.kind {
            LineKind::Added => additions += 1,
            LineKind::Removed => deletions += 1,
            LineKind::Context => {}
        }
    }
    file.additions = additions;
    file.deletions = deletions;
    let first_line = file
        .hunks
        .first()
        .and_then(|hunk| hunk.lines.iter().find(|line| line.new_line == Some(1)))
        .map(|line| line.text.as_str());
    file.language = Language::detect(&file.path, first_line);
    file
}

fn submodule_change(header: &GitHeader, hunks: &[Hunk]) -> Option<SubmoduleChange> {
    let is_submodule = |mode: Option<FileMode>| mode == Some(FileMode::Submodule);
    if !is_submodule(header.old_mode) && !is_submodule(header.new_mode) {
        return None;
    }
    let commit = |kind: LineKind| {
        hunks
            .iter()
            .flat_map(|hunk| &hunk.lines)
            .filter(|line| line.kind == kind)
            .find_map(|line| line.text.strip_prefix("Subproject commit "))
            .map(|sha| sha.trim().to_owned())
    };
    let real_id = |id: &Option<String>| id.clone().filter(|id| id.bytes().any(|b| b != b'0'));
    Some(SubmoduleChange {
        old_commit: commit(LineKind::Removed).or_else(|| {
            is_submodule(header.old_mode)
                .then(|| real_id(&header.old_id))
                .flatten()
        }),
        new_commit: commit(LineKind::Added).or_else(|| {
            is_submodule(header.new_mode)
                .then(|| real_id(&header.new_id))
                .flatten()
        }),
    })
}

/// `2,3c2,4`, `5d4`, `7a8,9`: the commands of diff's default (normal) output.
fn is_normal_diff_command(line: &str) -> bool {
    let Some(at) = line.find(['a', 'c', 'd']) else {
        return false;
    };
    let is_range = |text: &str| {
        let mut parts = text.split(',');
        let ok = |part: Option<&str>| part.is_some_and(|p| number(p).is_some());
        match (parts.next(), parts.next(), parts.next()) {
            (first, None, None) => ok(first),
            (first, second @ Some(_), None) => ok(first) && ok(second),
            _ => false,
        }
    };
    is_range(&line[..at]) && is_range(&line[at + 1..])
}

/// A bounded, char-safe piece of a line for error messages.
fn excerpt(text: &str) -> String {
    const MAX: usize = 80;
    if text.chars().count() <= MAX {
        return text.to_owned();
    }
    let mut short: String = text.chars().take(MAX).collect();
    short.push('…');
    short
}

#[cfg(test)]
#[path = "parse_tests.rs"]
mod tests;
