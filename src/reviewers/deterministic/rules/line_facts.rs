//! What each diff line of a file is, for the line rules: test code or not, code or only a
//! comment/docstring. From the head file when the worktree holds it (exact: a hunk that starts
//! inside a JSDoc block or a test module is known to), else from what the hunks show.

use std::path::Path;

use crate::space::worktree_file;

use crate::diff::{
    CodeLexer, FileDiff, Hunk, Line, LineKind, LineStart, TestTracker, code_lines, test_lines,
};

/// Head files larger than this are read hunk by hunk: knowing a comment's extent is not worth
/// reading a huge (likely generated) file.
const MAX_HEAD_BYTES: u64 = 2 * 1024 * 1024;

/// Per line of the head file: is it test code, does it hold code, where did the lexer stand
/// when it began.
struct Head {
    test: Vec<bool>,
    code: Vec<(bool, LineStart)>,
}

/// One file's line facts, read in diff order.
pub(super) struct LineFacts {
    head: Option<Head>,
    tests: TestTracker,
    /// New side (context and added lines) and old side (context and removed lines).
    new_side: CodeLexer,
    old_side: CodeLexer,
}

/// What a rule needs to know about one diff line.
#[derive(Debug, Clone, Copy)]
pub(super) struct Facts {
    pub in_test: bool,
    pub has_code: bool,
    /// Where the lexer stood when the line began (inside a string that opened above, or in
    /// code): what [`CodeLexer::string_spans`] needs to say which parts are string contents.
    pub start: LineStart,
}

impl LineFacts {
    pub fn new(file: &FileDiff, worktree: Option<&Path>) -> LineFacts {
        let head = worktree.and_then(|root| read_head(file, root));
        LineFacts {
            head,
            tests: TestTracker::new(&file.path, file.language),
            new_side: CodeLexer::new(file.language),
            old_side: CodeLexer::new(file.language),
        }
    }

    pub fn enter_hunk(&mut self, hunk: &Hunk) {
        self.tests.enter_hunk(hunk.section.as_deref());
        self.new_side.reset();
        self.old_side.reset();
    }

    /// Reads the next line of the hunk (every line, context too, in order).
    pub fn next(&mut self, line: &Line) -> Facts {
        let (in_test, has_code, start) = match line.kind {
            LineKind::Context => {
                self.tests.observe(&line.text);
                let start = self.new_side.start();
                let code = self.new_side.line(&line.text).has_code;
                self.old_side.line(&line.text);
                (false, code, start)
            }
            LineKind::Added => {
                let test = self.tests.observe(&line.text);
                let start = self.new_side.start();
                let code = self.new_side.line(&line.text).has_code;
                (test, code, start)
            }
            LineKind::Removed => {
                let start = self.old_side.start();
                let code = self.old_side.line(&line.text).has_code;
                (self.tests.by_path(), code, start)
            }
        };
        // The head file knows better for the new side.
        if line.kind == LineKind::Added
            && let (Some(head), Some(n)) = (&self.head, line.new_line)
            && let (Some(&test), Some(&(code, start))) =
                (head.test.get(n as usize - 1), head.code.get(n as usize - 1))
        {
            return Facts {
                in_test: test,
                has_code: code,
                start,
            };
        }
        Facts {
            in_test,
            has_code,
            start,
        }
    }
}

/// The head file's facts, when it is there, small enough, and matches the diff (a worktree
/// that moved on would misplace every line).
fn read_head(file: &FileDiff, root: &Path) -> Option<Head> {
    if file.binary || file.hunks.iter().all(|h| h.new_count == 0) {
        return None;
    }
    if worktree_file::size(root, &file.path).ok()? > MAX_HEAD_BYTES {
        return None;
    }
    let text = String::from_utf8(worktree_file::read(root, &file.path).ok()?).ok()?;
    let lines: Vec<&str> = text.lines().collect();
    let matches = file
        .hunks
        .iter()
        .flat_map(|h| h.lines.iter())
        .filter(|l| l.kind == LineKind::Added)
        .all(|l| {
            l.new_line
                .and_then(|n| lines.get(n as usize - 1))
                .is_some_and(|head| *head == l.text)
        });
    if !matches {
        return None;
    }
    Some(Head {
        test: test_lines(&file.path, file.language, &text),
        code: code_lines(&text, file.language),
    })
}
