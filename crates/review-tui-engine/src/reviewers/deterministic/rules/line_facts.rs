//! What each diff line of a file is, for the line rules: test code or not, code or only a
//! comment/docstring. From the head file when the worktree holds it (exact: a hunk that starts
//! inside a JSDoc block or a test module is known to), else from what the hunks show.
//!
//! Read on the first question about the file, all at once: a file none of whose lines a
//! rule reads further than its prefilter is never read (most files of a large range).

use std::cell::OnceCell;
use std::path::Path;

use crate::space::worktree_file;

use crate::diff::{CodeLexer, FileDiff, FileLine, LineKind, LineStart, TestTracker, file_lines};

/// Head files larger than this are read hunk by hunk: knowing a comment's extent is not worth
/// reading a huge (likely generated) file.
const MAX_HEAD_BYTES: u64 = 2 * 1024 * 1024;

/// One file's line facts, by the index of the line among all the lines of the file's hunks
/// in diff order.
pub(super) struct LineFacts<'f> {
    file: &'f FileDiff,
    worktree: Option<&'f Path>,
    lines: OnceCell<Vec<Facts>>,
}

/// What a rule needs to know about one diff line.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Facts {
    pub in_test: bool,
    pub has_code: bool,
    /// Where the lexer stood when the line began (inside a string that opened above, or in
    /// code): what [`CodeLexer::string_spans`] needs to say which parts are string contents.
    pub start: LineStart,
}

impl<'f> LineFacts<'f> {
    pub(super) fn new(file: &'f FileDiff, worktree: Option<&'f Path>) -> LineFacts<'f> {
        LineFacts {
            file,
            worktree,
            lines: OnceCell::new(),
        }
    }

    /// The facts of the added or removed line at `index` (context lines are not asked about).
    pub(super) fn at(&self, index: usize) -> Facts {
        self.lines
            .get_or_init(|| {
                let head = self.worktree.and_then(|root| read_head(self.file, root));
                read(self.file, head.as_deref())
            })
            .get(index)
            .copied()
            .unwrap_or_default()
    }
}

/// Every line's facts, in diff order. The new side's from the head file when there is one
/// (every added line is in it: [`read_head`] checked), the old side's by reading the hunks.
fn read(file: &FileDiff, head: Option<&[FileLine]>) -> Vec<Facts> {
    let mut tests = TestTracker::new(&file.path, file.language);
    let mut new_side = CodeLexer::new(file.language);
    let mut old_side = CodeLexer::new(file.language);
    let mut facts = Vec::with_capacity(file.hunks.iter().map(|h| h.lines.len()).sum());
    for hunk in &file.hunks {
        tests.enter_hunk(hunk.section.as_deref());
        new_side.reset();
        old_side.reset();
        for line in &hunk.lines {
            let text = line.text.as_str();
            let head_line =
                head.and_then(|head| head.get((line.new_line? as usize).checked_sub(1)?));
            facts.push(match (line.kind, head_line) {
                // Context lines only carry the lexers' state to the changed lines.
                (LineKind::Context, _) => {
                    old_side.line(text);
                    if head.is_none() {
                        tests.observe(text);
                        new_side.line(text);
                    }
                    Facts::default()
                }
                (LineKind::Added, Some(head_line)) => Facts {
                    in_test: head_line.test,
                    has_code: head_line.code,
                    start: head_line.start,
                },
                (LineKind::Added, None) => {
                    let in_test = tests.observe(text);
                    let start = new_side.start();
                    Facts {
                        in_test,
                        has_code: new_side.line(text).has_code,
                        start,
                    }
                }
                (LineKind::Removed, _) => {
                    let start = old_side.start();
                    Facts {
                        in_test: tests.by_path(),
                        has_code: old_side.line(text).has_code,
                        start,
                    }
                }
            });
        }
    }
    facts
}

/// The head file's facts up to its last added line, when it is there, small enough, and
/// matches the diff (a worktree that moved on would misplace every line).
fn read_head(file: &FileDiff, root: &Path) -> Option<Vec<FileLine>> {
    if file.binary || file.hunks.iter().all(|h| h.new_count == 0) {
        return None;
    }
    let bytes = worktree_file::read_at_most(root, &file.path, MAX_HEAD_BYTES).ok()??;
    let text = String::from_utf8(bytes).ok()?;
    let added = || {
        file.hunks
            .iter()
            .flat_map(|h| h.lines.iter())
            .filter(|l| l.kind == LineKind::Added)
    };
    // Lines below the last added one are never asked about, and a line's facts depend only
    // on the lines above it.
    let last = added().filter_map(|l| l.new_line).max().unwrap_or(0);
    let lines: Vec<&str> = text.lines().take(last as usize).collect();
    let matches = added().all(|l| {
        l.new_line
            .and_then(|n| lines.get((n as usize).checked_sub(1)?))
            .is_some_and(|head| *head == l.text)
    });
    if !matches {
        return None;
    }
    Some(file_lines(&file.path, file.language, &lines))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diff::{Hunk, Language, Line, code_lines, test_lines};
    use proptest::prelude::*;

    /// The facts as they were read before they were read lazily: line by line in diff order,
    /// both sides' lexers on every line, the head's facts for its whole file by two passes.
    /// The head file's test lines and code lines.
    type HeadLines = (Vec<bool>, Vec<(bool, LineStart)>);

    struct Oracle {
        head: Option<HeadLines>,
        tests: TestTracker,
        new_side: CodeLexer,
        old_side: CodeLexer,
    }

    impl Oracle {
        fn new(file: &FileDiff, worktree: Option<&Path>) -> Oracle {
            let head = worktree.and_then(|root| {
                read_head(file, root)?;
                let text = std::fs::read_to_string(root.join(&file.path)).ok()?;
                Some((
                    test_lines(&file.path, file.language, &text),
                    code_lines(&text, file.language),
                ))
            });
            Oracle {
                head,
                tests: TestTracker::new(&file.path, file.language),
                new_side: CodeLexer::new(file.language),
                old_side: CodeLexer::new(file.language),
            }
        }

        fn enter_hunk(&mut self, hunk: &Hunk) {
            self.tests.enter_hunk(hunk.section.as_deref());
            self.new_side.reset();
            self.old_side.reset();
        }

        fn next(&mut self, line: &Line) -> (bool, bool, LineStart) {
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
            if line.kind == LineKind::Added
                && let (Some((test, code)), Some(n)) = (&self.head, line.new_line)
                && let (Some(&test), Some(&(code, start))) =
                    (test.get(n as usize - 1), code.get(n as usize - 1))
            {
                return (test, code, start);
            }
            (in_test, has_code, start)
        }
    }

    /// A line of code in any of the languages, with the tokens that open and close comments,
    /// strings and test items.
    fn text() -> impl Strategy<Value = String> {
        "(#\\[cfg\\(test\\)\\]|#\\[test\\]|mod tests |fn a\\(\\) |\"|'|`|r#\"|\"#|/\\*|\\*/|//|#|\\{|\\}|;|\"\"\"|x|\\\\| ){0,8}"
    }

    /// What happens to a head line: outside the hunks, context or added; and the lines
    /// removed before it.
    fn ops() -> impl Strategy<Value = Vec<(String, u8, Vec<String>)>> {
        prop::collection::vec((text(), 0u8..3, prop::collection::vec(text(), 0..3)), 1..30)
    }

    /// The head file and the diff that led to it, as git writes it.
    fn diff_of(path: &str, ops: &[(String, u8, Vec<String>)], sections: bool) -> (String, String) {
        let head: String = ops.iter().map(|(text, _, _)| format!("{text}\n")).collect();
        let mut diff = format!("diff --git a/{path} b/{path}\n--- a/{path}\n+++ b/{path}\n");
        let (mut old, mut new) = (1, 1);
        let mut at = 0;
        while at < ops.len() {
            if ops[at].1 == 0 {
                old += 1 + ops[at].2.len();
                new += 1;
                at += 1;
                continue;
            }
            let (old_start, new_start) = (old, new);
            let mut body = String::new();
            while at < ops.len() && ops[at].1 != 0 {
                let (text, op, removed) = &ops[at];
                for gone in removed {
                    body.push_str(&format!("-{gone}\n"));
                    old += 1;
                }
                if *op == 1 {
                    body.push_str(&format!(" {text}\n"));
                    old += 1;
                } else {
                    body.push_str(&format!("+{text}\n"));
                }
                new += 1;
                at += 1;
            }
            let section = if sections && new_start % 2 == 0 {
                " mod tests {"
            } else {
                ""
            };
            let old_count = old - old_start;
            let shown_old = if old_count == 0 {
                old_start - 1
            } else {
                old_start
            };
            diff.push_str(&format!(
                "@@ -{shown_old},{old_count} +{new_start},{} @@{section}\n{body}",
                new - new_start
            ));
        }
        (head, diff)
    }

    proptest! {
        /// Every added and removed line has the facts the line-by-line reading gave it: with
        /// the head file, with a head that does not match the diff, and without a worktree.
        #[test]
        fn facts_read_at_once_are_the_facts_read_line_by_line(
            ops in ops(),
            (path, language) in prop::sample::select(vec![
                ("src/lib.rs", Language::Rust),
                ("tests/it.rs", Language::Rust),
                ("app.py", Language::Python),
                ("web/a.js", Language::JavaScript),
                ("main.go", Language::Go),
            ]),
            sections: bool,
            worktree in 0u8..3,
        ) {
            prop_assume!(language == crate::diff::Language::from_path(path));
            let (head, text) = diff_of(path, &ops, sections);
            let diff = crate::diff::parse(&text).expect("the generated diff parses");
            let file = &diff.files[0];
            let dir = tempfile::tempdir().unwrap();
            std::fs::create_dir_all(dir.path().join(path).parent().unwrap()).unwrap();
            let written = if worktree == 1 { format!("moved on\n{head}") } else { head };
            std::fs::write(dir.path().join(path), written).unwrap();
            let root = (worktree != 2).then(|| dir.path());
            let mut oracle = Oracle::new(file, root);
            let facts = LineFacts::new(file, root);
            let mut index = 0;
            for hunk in &file.hunks {
                oracle.enter_hunk(hunk);
                for line in &hunk.lines {
                    let expected = oracle.next(line);
                    if line.kind != LineKind::Context {
                        let got = facts.at(index);
                        prop_assert_eq!(
                            (got.in_test, got.has_code, got.start),
                            expected,
                            "{:?} line {}: {:?}", line.kind, index, line.text
                        );
                    }
                    index += 1;
                }
            }
        }
    }
}
