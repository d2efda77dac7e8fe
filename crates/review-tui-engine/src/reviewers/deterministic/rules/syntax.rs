//! A changed file's syntax tree, for the rules that read the code around a matched line (the
//! `try` statement holding a handler, the function holding a print). Parsed from the head
//! file when the worktree holds it and it matches the diff (a statement longer than the hunk,
//! a blank line inside it), else from what the hunk shows of the line's side.
//!
//! Parsed only when such a rule has matched a line, then once per file.

use std::cell::OnceCell;
use std::path::Path;

use tree_sitter::{Node, Parser, Point, Tree};

use crate::diff::{FileDiff, Hunk, Language, LineKind, Side};
use crate::parse::Grammar;
use crate::space::worktree_file;

/// Head files larger than this are read as the hunk shows them.
const MAX_HEAD_BYTES: u64 = 2 * 1024 * 1024;

/// One file's trees, read on the first question.
pub(super) struct Syntax<'f> {
    file: &'f FileDiff,
    worktree: Option<&'f Path>,
    head: OnceCell<Option<Parsed>>,
}

/// The code a rule matched, where the diff shows it: byte `column` of line `at` of `hunk`,
/// read on `side`. What a question to the file's trees is asked about.
#[derive(Clone, Copy)]
pub(super) struct CodeAt<'h> {
    pub hunk: &'h Hunk,
    pub at: usize,
    pub column: usize,
    pub side: Side,
}

/// A source and its syntax tree.
pub(super) struct Parsed {
    pub source: String,
    tree: Tree,
}

impl<'f> Syntax<'f> {
    pub(super) fn new(file: &'f FileDiff, worktree: Option<&'f Path>) -> Syntax<'f> {
        Syntax {
            file,
            worktree,
            head: OnceCell::new(),
        }
    }

    /// The language of the file whose trees these are.
    pub(super) fn language(&self) -> Language {
        self.file.language
    }

    /// Calls `read` with the tree holding the line of `code` and where the code is in it;
    /// `None` for a file without a grammar.
    pub(super) fn with_line<T>(
        &self,
        code: CodeAt,
        read: impl Fn(&Parsed, Point) -> Option<T>,
    ) -> Option<T> {
        let CodeAt {
            hunk,
            at,
            column,
            side,
        } = code;
        let grammar = Grammar::for_file(&self.file.path, self.file.language)?;
        let line = &hunk.lines[at];
        let head_row = (side == Side::Right)
            .then_some(line.new_line)
            .flatten()
            .and_then(|number| {
                let head = self.head.get_or_init(|| self.read_head(grammar)).as_ref()?;
                let row = number.checked_sub(1)? as usize;
                // A worktree that moved on would put another line there.
                (head.source.lines().nth(row) == Some(line.text.as_str())).then_some((head, row))
            });
        if let Some((head, row)) = head_row {
            return read(head, Point::new(row, column));
        }
        let (source, row, indent) = side_text(hunk, at, side);
        read(
            &parse(grammar, source)?,
            Point::new(row, column.saturating_sub(indent)),
        )
    }

    fn read_head(&self, grammar: Grammar) -> Option<Parsed> {
        let root = self.worktree?;
        let bytes = worktree_file::read_at_most(root, &self.file.path, MAX_HEAD_BYTES).ok()??;
        parse(grammar, String::from_utf8(bytes).ok()?)
    }
}

impl Parsed {
    /// The innermost node of one of `kinds` holding the code at `at` (or, before the line's
    /// code starts, at its start).
    pub(super) fn enclosing(&self, at: Point, kinds: &[&str]) -> Option<Node<'_>> {
        let text = self.source.lines().nth(at.row)?;
        let indent = text.len() - text.trim_start().len();
        let point = Point::new(at.row, at.column.max(indent));
        let mut node = self
            .tree
            .root_node()
            .descendant_for_point_range(point, point)?;
        loop {
            if kinds.contains(&node.kind()) {
                return Some(node);
            }
            node = node.parent()?;
        }
    }

    pub(super) fn text(&self, node: Node) -> &str {
        &self.source[node.byte_range()]
    }
}

fn parse(grammar: Grammar, source: String) -> Option<Parsed> {
    let mut parser = Parser::new();
    parser.set_language(&grammar.language()).ok()?;
    let tree = parser.parse(&source, None)?;
    Some(Parsed { source, tree })
}

/// The hunk's lines of `side`, less their common indentation (a hunk inside a function starts
/// indented, which Python would not parse), the row of line `at` among them and the
/// indentation taken off.
fn side_text(hunk: &Hunk, at: usize, side: Side) -> (String, usize, usize) {
    let other = match side {
        Side::Right => LineKind::Removed,
        Side::Left => LineKind::Added,
    };
    let lines: Vec<(usize, &str)> = hunk
        .lines
        .iter()
        .enumerate()
        .filter(|(_, line)| line.kind != other)
        .map(|(i, line)| (i, line.text.as_str()))
        .collect();
    let indent = lines
        .iter()
        .filter(|(_, text)| !text.trim().is_empty())
        .map(|(_, text)| text.len() - text.trim_start().len())
        .min()
        .unwrap_or(0);
    let row = lines.iter().position(|&(i, _)| i == at).unwrap_or(0);
    let source = lines
        .iter()
        .map(|(_, text)| text.get(indent..).unwrap_or_else(|| text.trim_start()))
        .collect::<Vec<_>>()
        .join("\n");
    (source, row, indent)
}
