//! The parsed diff: files, hunks and lines with their LEFT and RIGHT numbers.

use serde::Serialize;

use super::language::Language;

/// Every changed file of one diff, in the order the diff lists them.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Diff {
    pub files: Vec<FileDiff>,
}

impl Diff {
    /// Every added line of every file with its RIGHT number: the input of rule scanners.
    pub fn added_lines(&self) -> impl Iterator<Item = (&FileDiff, u32, &str)> + '_ {
        self.files.iter().flat_map(|file| {
            file.added_lines()
                .map(move |(number, text)| (file, number, text))
        })
    }
}

/// What happened to a file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum FileStatus {
    Added,
    Modified,
    Deleted,
    Renamed,
    Copied,
}

/// A git file mode, as the `index`, `new file mode` and `old mode` lines spell it in octal.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum FileMode {
    /// 100644
    Regular,
    /// 100755
    Executable,
    /// 120000: the content is the link's target.
    Symlink,
    /// 160000: a gitlink; the content is "Subproject commit <sha>".
    Submodule,
    /// Any other mode, kept as its octal value.
    Other(u32),
}

impl FileMode {
    /// Reads an octal mode such as `100644`; `None` when the text is not octal.
    pub fn from_octal(text: &str) -> Option<FileMode> {
        if text.is_empty() || text.len() > 7 {
            return None;
        }
        let value = u32::from_str_radix(text, 8).ok()?;
        Some(match value {
            0o100644 => FileMode::Regular,
            0o100755 => FileMode::Executable,
            0o120000 => FileMode::Symlink,
            0o160000 => FileMode::Submodule,
            other => FileMode::Other(other),
        })
    }
}

/// A submodule pointer that moved, from the "Subproject commit" lines of its diff.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SubmoduleChange {
    pub old_commit: Option<String>,
    pub new_commit: Option<String>,
}

/// One changed file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FileDiff {
    /// The path review comments use: the new path, or the old one for a deleted file.
    pub path: String,
    /// The path before a rename or copy; `None` otherwise.
    pub old_path: Option<String>,
    pub status: FileStatus,
    /// Git said "Binary files ... differ" or sent a binary patch: there are no lines to show.
    pub binary: bool,
    /// Modes are known for git diffs only; plain unified diffs carry none.
    pub old_mode: Option<FileMode>,
    pub new_mode: Option<FileMode>,
    /// The rename or copy similarity in percent, when git reported one.
    pub similarity: Option<u8>,
    /// Abbreviated blob ids from the `index` line, when present.
    pub old_id: Option<String>,
    pub new_id: Option<String>,
    pub submodule: Option<SubmoduleChange>,
    pub language: Language,
    pub additions: usize,
    pub deletions: usize,
    pub hunks: Vec<Hunk>,
    /// The side(s) whose contents the repository lacked (a partial clone whose promisor could
    /// not be reached): the file has no hunks, and its change is unknown rather than empty.
    pub unavailable: Option<Unavailable>,
}

/// Which side of a changed file could not be read. In a git diff's extended header it is the
/// line [`Unavailable::header`], which the parser reads back (the diff is cached as text).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Unavailable {
    Base,
    Head,
    Both,
}

impl Unavailable {
    pub fn from_sides(base: bool, head: bool) -> Option<Self> {
        match (base, head) {
            (true, true) => Some(Self::Both),
            (true, false) => Some(Self::Base),
            (false, true) => Some(Self::Head),
            (false, false) => None,
        }
    }

    /// `"base"`, `"head"` or `"both"`, as the JSON report names it.
    pub fn name(self) -> &'static str {
        match self {
            Self::Base => "base",
            Self::Head => "head",
            Self::Both => "both",
        }
    }

    /// What the review shows in place of the file's lines.
    pub fn header(self) -> &'static str {
        match self {
            Self::Base => "base side unavailable",
            Self::Head => "head side unavailable",
            Self::Both => "base and head sides unavailable",
        }
    }

    pub fn from_header(line: &str) -> Option<Self> {
        [Self::Base, Self::Head, Self::Both]
            .into_iter()
            .find(|side| side.header() == line)
    }
}

impl FileDiff {
    /// Whether the file's mode changed (for example it became executable).
    pub fn mode_changed(&self) -> bool {
        matches!((self.old_mode, self.new_mode), (Some(old), Some(new)) if old != new)
    }

    /// Whether either side of the file is a symbolic link.
    pub fn is_symlink(&self) -> bool {
        self.old_mode == Some(FileMode::Symlink) || self.new_mode == Some(FileMode::Symlink)
    }

    /// The new target of a symbolic link, when the diff shows it.
    pub fn symlink_target(&self) -> Option<&str> {
        if self.new_mode != Some(FileMode::Symlink) {
            return None;
        }
        self.added_lines().next().map(|(_, text)| text)
    }

    /// Every added line of the file with its RIGHT number, in order.
    pub fn added_lines(&self) -> impl Iterator<Item = (u32, &str)> + '_ {
        self.hunks.iter().flat_map(Hunk::added_lines)
    }
}

/// One `@@ -a,b +c,d @@ section` block.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Hunk {
    pub old_start: u32,
    pub old_count: u32,
    pub new_start: u32,
    pub new_count: u32,
    /// The text git puts after the second `@@`, usually the enclosing function.
    pub section: Option<String>,
    /// 1-based line of the `@@` header in the diff text.
    pub header_line: usize,
    pub lines: Vec<Line>,
}

impl Hunk {
    /// The lines of the hunk, in diff order.
    pub fn lines(&self) -> &[Line] {
        &self.lines
    }

    /// Added lines with their RIGHT numbers: what a rule scanner reads.
    pub fn added_lines(&self) -> impl Iterator<Item = (u32, &str)> + '_ {
        self.lines.iter().filter_map(|line| match line.kind {
            LineKind::Added => line.new_line.map(|number| (number, line.text.as_str())),
            _ => None,
        })
    }

    /// The runs of changed lines between context lines, as ranges of indexes into `lines`:
    /// where a change replaced what stood there (a test rewritten in place, code re-wrapped).
    pub fn change_runs(&self) -> Vec<std::ops::Range<usize>> {
        let mut runs: Vec<std::ops::Range<usize>> = Vec::new();
        for (at, line) in self.lines.iter().enumerate() {
            if line.kind == LineKind::Context {
                continue;
            }
            match runs.last_mut() {
                Some(run) if run.end == at => run.end = at + 1,
                _ => runs.push(at..at + 1),
            }
        }
        runs
    }

    /// The inclusive LEFT line range the hunk covers, `None` when it has no old lines.
    pub fn old_range(&self) -> Option<(u32, u32)> {
        inclusive_range(self.old_start, self.old_count)
    }

    /// The inclusive RIGHT line range the hunk covers, `None` when it has no new lines.
    pub fn new_range(&self) -> Option<(u32, u32)> {
        inclusive_range(self.new_start, self.new_count)
    }
}

fn inclusive_range(start: u32, count: u32) -> Option<(u32, u32)> {
    // The parser guarantees start + count fits in u32.
    (count > 0).then(|| (start, start + (count - 1)))
}

/// How a line's text was terminated in the file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum LineEnding {
    Lf,
    /// The `\r` is not part of [`Line::text`].
    CrLf,
    /// "\ No newline at end of file" followed the line.
    Missing,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum LineKind {
    Context,
    Added,
    Removed,
}

/// One line of a hunk. Context lines have both numbers, added lines only `new_line`, removed
/// lines only `old_line`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Line {
    pub kind: LineKind,
    pub old_line: Option<u32>,
    pub new_line: Option<u32>,
    /// The content without the leading marker and without the line terminator.
    pub text: String,
    pub ending: LineEnding,
}
