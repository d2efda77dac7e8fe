//! What was unsafe before the change, for a rule about new `unsafe` blocks
//! (`unsafe_restated_ok`). A new `unsafe { }` is a question only where the unsafe operation is
//! new: a block that wraps what was already the body of an `unsafe fn` (the 2024 edition's
//! `unsafe_op_in_unsafe_fn` asks every such body for one: hashbrown #676 added 38), a block
//! split per call or narrowed to the one call that needs it, and unsafe code moved to another
//! function or file all run operations whose reasons were settled, or not, before.
//!
//! So a block is restated when every line of code inside it was, before the change, in unsafe
//! code: a line the change left as it was, where it stood; a line the change wrote, when its
//! code (whitespace and comments aside) is among the lines the change removed from unsafe code
//! anywhere in the diff. Each removed line restates one block: a second copy of an operation is
//! new. Code copied from a function the change keeps (a new `push_mut` mirroring `push`) is
//! new: its reasons are its own. And the body of an `unsafe fn` is unsafe code only for a
//! block in an `unsafe fn`: a function that stops being `unsafe` and wraps its body in a block
//! now answers for what its callers answered for, a new question.
//!
//! Read only when a block would otherwise be reported, and then once per file: the head and
//! old sides are parsed with the Rust grammar. A block the grammar does not see (inside a
//! macro's tokens), or a file that cannot be read, is not restated.

use std::collections::HashMap;
use std::path::Path;
use std::rc::Rc;

use tree_sitter::{Node, Parser, Tree};

use crate::diff::{CodeLexer, Diff, FileDiff, FileStatus, Language, LineKind, old_side};
use crate::space::worktree_file;

/// Files larger than this are not parsed for one finding less.
const MAX_FILE_BYTES: u64 = 2 * 1024 * 1024;

/// The scan's memory of what was unsafe before the change.
#[derive(Default)]
pub(super) struct UnsafeBefore {
    files: HashMap<String, Option<Rc<Sides>>>,
    /// The code of the lines the change removed from unsafe code, by where they stood (see
    /// [`Unsafe`]): each run of consecutive lines joined, runs on lines of their own; a line
    /// that restated a block is taken out.
    removed: Option<[String; 2]>,
    /// The code of every line the change removed from its Rust files, unsafe or not, joined
    /// the same way: read without parsing, it answers most blocks (new operations) before
    /// any old side is parsed.
    removed_anywhere: Option<String>,
    /// Per file whose old side was read for [`Self::removed`] alone: in what unsafe code
    /// each old line stood (the head is not parsed for it).
    old_unsafe: HashMap<String, Option<Rc<Vec<Unsafe>>>>,
}

/// Where an old line stood: unsafe code of its own (a block), or the body of an `unsafe fn`,
/// whose callers answer for it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Unsafe {
    No,
    FnBody,
    Block,
}

/// An `unsafe` block of the head.
struct Block {
    /// Where the keyword is: row and column.
    at: (usize, usize),
    /// The bytes between its braces.
    inside: std::ops::Range<usize>,
    /// Whether the function holding it is an `unsafe fn`.
    in_unsafe_fn: bool,
}

/// One changed file read for the question.
struct Sides {
    head: String,
    /// The head's `unsafe` blocks.
    blocks: Vec<Block>,
    /// For each head line, its old line when the change left it as it was.
    old_of_new: Vec<Option<u32>>,
    /// For each old line (by index), in what unsafe code it stood.
    old_unsafe: Rc<Vec<Unsafe>>,
    /// Head lines the change added (1-based).
    added: std::collections::HashSet<u32>,
}

impl UnsafeBefore {
    /// Whether the `unsafe` block opening at `column` of head line `line` of `file` only
    /// restates unsafe code the old side held (see the module's documentation).
    pub(super) fn restates(
        &mut self,
        diff: &Diff,
        worktree: Option<&Path>,
        file: &FileDiff,
        line: u32,
        column: usize,
    ) -> bool {
        let Some(root) = worktree else {
            return false;
        };
        let Some(sides) = self.sides(root, file) else {
            return false;
        };
        let Some(block) = sides.block_at(line, column) else {
            return false;
        };
        // What counts as unsafe before: a block's code anywhere, an `unsafe fn`'s body only for
        // a block still in an `unsafe fn`.
        let enough = if block.in_unsafe_fn {
            Unsafe::FnBody
        } else {
            Unsafe::Block
        };
        let text = &sides.head[block.inside.clone()];
        let first_row = sides.head[..block.inside.start].matches('\n').count();
        let mut wanted = Vec::new();
        for (offset, segment) in text.split('\n').enumerate() {
            let key = code_key(segment);
            if is_punctuation(&key) {
                continue;
            }
            let head_line = first_row + offset + 1;
            if sides.added.contains(&(head_line as u32)) {
                wanted.push(key);
                continue;
            }
            // A line the change left: unsafe before only if it stood in unsafe code.
            let was = sides
                .old_of_new
                .get(head_line - 1)
                .copied()
                .flatten()
                .and_then(|old| sides.old_unsafe.get((old as usize).checked_sub(1)?))
                .copied()
                .unwrap_or(Unsafe::No);
            if was < enough {
                return false;
            }
        }
        // A line written nowhere among the removed lines restates nothing.
        let anywhere = self
            .removed_anywhere
            .get_or_insert_with(|| removed_code(diff, |_, _| Some(BLOCK))[BLOCK].clone());
        if !wanted.iter().all(|key| anywhere.contains(key.as_str())) {
            return false;
        }
        let (files, old_only) = (&self.files, &mut self.old_unsafe);
        let removed = self
            .removed
            .get_or_insert_with(|| removed_unsafe_code(diff, root, files, old_only));
        take_all(removed, &wanted, enough)
    }

    /// The code between the braces of the `unsafe` block opening at `column` of head line
    /// `line` of `file`, when the grammar sees one there.
    pub(super) fn block_text(
        &mut self,
        worktree: Option<&Path>,
        file: &FileDiff,
        line: u32,
        column: usize,
    ) -> Option<String> {
        let sides = self.sides(worktree?, file)?;
        let block = sides.block_at(line, column)?;
        Some(sides.head[block.inside.clone()].to_string())
    }

    fn sides(&mut self, root: &Path, file: &FileDiff) -> Option<Rc<Sides>> {
        self.files
            .entry(file.path.clone())
            .or_insert_with(|| read_sides(root, file).map(Rc::new))
            .clone()
    }
}

impl Sides {
    /// The block whose keyword is at `column` of head line `line` (1-based), else the first
    /// opening on that line.
    fn block_at(&self, line: u32, column: usize) -> Option<&Block> {
        let row = (line as usize).saturating_sub(1);
        self.blocks
            .iter()
            .find(|b| b.at == (row, column))
            .or_else(|| self.blocks.iter().find(|b| b.at.0 == row))
    }
}

/// Takes each of `wanted` out of `removed` (from a block's code first, then, when `enough`
/// allows, an `unsafe fn`'s body), in order, when every one is there; otherwise leaves
/// `removed` as it was.
fn take_all(removed: &mut [String; 2], wanted: &[String], enough: Unsafe) -> bool {
    let mut left = removed.clone();
    let pools: &[usize] = if enough == Unsafe::FnBody {
        &[BLOCK, FN_BODY]
    } else {
        &[BLOCK]
    };
    for key in wanted {
        let Some((pool, at)) = pools
            .iter()
            .find_map(|&pool| Some((pool, left[pool].find(key.as_str())?)))
        else {
            return false;
        };
        left[pool].replace_range(at..at + key.len(), "\u{1}");
    }
    *removed = left;
    true
}

/// The pools of removed code: a block's, and an `unsafe fn` body's outside any block.
const BLOCK: usize = 0;
const FN_BODY: usize = 1;

/// The code of every line the diff removed from unsafe code, in every Rust file it changes:
/// from blocks, and from `unsafe fn` bodies outside any block. A file already read for its
/// blocks lends its old side; the others have their old side alone parsed.
fn removed_unsafe_code(
    diff: &Diff,
    root: &Path,
    files: &HashMap<String, Option<Rc<Sides>>>,
    old_only: &mut HashMap<String, Option<Rc<Vec<Unsafe>>>>,
) -> [String; 2] {
    let mut old_unsafe = |file: &FileDiff| -> Option<Rc<Vec<Unsafe>>> {
        if let Some(Some(sides)) = files.get(&file.path) {
            return Some(Rc::clone(&sides.old_unsafe));
        }
        old_only
            .entry(file.path.clone())
            .or_insert_with(|| read_old_unsafe(root, file).map(Rc::new))
            .clone()
    };
    let mut read: HashMap<String, Option<Rc<Vec<Unsafe>>>> = HashMap::new();
    removed_code(diff, |file, old| {
        let unsafe_rows = read
            .entry(file.path.clone())
            .or_insert_with(|| old_unsafe(file))
            .clone()?;
        match unsafe_rows.get((old as usize).wrapping_sub(1)) {
            Some(Unsafe::Block) => Some(BLOCK),
            Some(Unsafe::FnBody) => Some(FN_BODY),
            _ => None,
        }
    })
}

/// The code of the lines the diff removed from its Rust files, in the pool `pool_of` gives
/// each (`None`: left out): each run of consecutive old lines joined, runs on lines of their
/// own.
fn removed_code(
    diff: &Diff,
    mut pool_of: impl FnMut(&FileDiff, u32) -> Option<usize>,
) -> [String; 2] {
    let mut code = [String::new(), String::new()];
    for file in diff.files.iter().filter(|f| f.language == Language::Rust) {
        if file.deletions == 0 {
            continue;
        }
        let mut last: [Option<u32>; 2] = [None, None];
        for line in file.hunks.iter().flat_map(|h| h.lines.iter()) {
            let Some(old) = line.old_line.filter(|_| line.kind == LineKind::Removed) else {
                continue;
            };
            let Some(pool) = pool_of(file, old) else {
                continue;
            };
            if last[pool] != Some(old.wrapping_sub(1)) {
                code[pool].push('\n');
            }
            code[pool].push_str(&code_key(&line.text));
            last[pool] = Some(old);
        }
    }
    // Arguments re-wrapped onto one line lose the comma rustfmt puts after the last.
    code.map(|pool| {
        pool.replace(",)", ")")
            .replace(",]", "]")
            .replace(",}", "}")
    })
}

/// `file`'s text at the head (empty when the change deletes it); `None` when it cannot be
/// read as UTF-8 or is larger than [`MAX_FILE_BYTES`].
fn head_text(root: &Path, file: &FileDiff) -> Option<String> {
    if file.status == FileStatus::Deleted {
        return Some(String::new());
    }
    let bytes = worktree_file::read_at_most(root, &file.path, MAX_FILE_BYTES).ok()??;
    String::from_utf8(bytes).ok()
}

/// A parser of Rust.
fn rust_parser() -> Option<Parser> {
    let mut parser = Parser::new();
    parser
        .set_language(&tree_sitter_rust::LANGUAGE.into())
        .ok()?;
    Some(parser)
}

/// Reads and parses both sides of `file`.
fn read_sides(root: &Path, file: &FileDiff) -> Option<Sides> {
    let head = head_text(root, file)?;
    let old = old_side(file, &head);
    let mut parser = rust_parser()?;
    let mut blocks = Vec::new();
    // Most files a range removes lines from hold no unsafe code: nothing to parse.
    let head_tree = if head.contains("unsafe") {
        Some(parser.parse(&head, None)?)
    } else {
        None
    };
    walk(head_tree.as_ref(), &mut |node| {
        if node.kind() == "unsafe_block"
            && let Some(body) = child_of_kind(node, "block")
        {
            let start = node.start_position();
            let open = body.start_byte() + 1;
            let close = body.end_byte().saturating_sub(1).max(open);
            let function = std::iter::successors(node.parent(), |n| n.parent())
                .find(|n| n.kind() == "function_item");
            blocks.push(Block {
                at: (start.row, start.column),
                inside: open..close,
                in_unsafe_fn: function.is_some_and(|f| is_unsafe_fn(f, &head)),
            });
        }
    });
    let old_unsafe = unsafe_rows(&mut parser, &old.text)?;
    let added = file
        .hunks
        .iter()
        .flat_map(|h| h.lines.iter())
        .filter(|l| l.kind == LineKind::Added)
        .filter_map(|l| l.new_line)
        .collect();
    Some(Sides {
        head,
        blocks,
        old_of_new: old.old_of_new,
        old_unsafe: Rc::new(old_unsafe),
        added,
    })
}

/// Reads `file`'s old side alone: in what unsafe code each of its lines stood.
fn read_old_unsafe(root: &Path, file: &FileDiff) -> Option<Vec<Unsafe>> {
    let head = head_text(root, file)?;
    let old = old_side(file, &head);
    let mut parser = rust_parser()?;
    unsafe_rows(&mut parser, &old.text)
}

/// For each line of `text`, in what unsafe code it stands (parsed only when it says `unsafe`).
fn unsafe_rows(parser: &mut Parser, text: &str) -> Option<Vec<Unsafe>> {
    let mut old_unsafe = vec![Unsafe::No; text.lines().count()];
    if text.contains("unsafe") {
        let old_tree = parser.parse(text, None)?;
        walk(Some(&old_tree), &mut |node| {
            let (region, kind) = match node.kind() {
                "unsafe_block" => (Some(node), Unsafe::Block),
                "function_item" if is_unsafe_fn(node, text) => {
                    (node.child_by_field_name("body"), Unsafe::FnBody)
                }
                _ => (None, Unsafe::No),
            };
            if let Some(region) = region {
                let (from, to) = (region.start_position().row, region.end_position().row);
                for row in old_unsafe.iter_mut().take(to + 1).skip(from) {
                    *row = (*row).max(kind);
                }
            }
        });
    }
    Some(old_unsafe)
}

/// Calls `visit` on every node of `tree`, parents first.
fn walk(tree: Option<&Tree>, visit: &mut dyn FnMut(Node)) {
    let Some(tree) = tree else {
        return;
    };
    let mut cursor = tree.walk();
    loop {
        visit(cursor.node());
        if cursor.goto_first_child() {
            continue;
        }
        loop {
            if cursor.goto_next_sibling() {
                break;
            }
            if !cursor.goto_parent() {
                return;
            }
        }
    }
}

fn child_of_kind<'t>(node: Node<'t>, kind: &str) -> Option<Node<'t>> {
    let mut cursor = node.walk();
    node.children(&mut cursor).find(|c| c.kind() == kind)
}

/// Whether a function item is declared `unsafe fn`.
fn is_unsafe_fn(node: Node, text: &str) -> bool {
    child_of_kind(node, "function_modifiers").is_some_and(|modifiers| {
        text.get(modifiers.byte_range())
            .is_some_and(|m| m.split_whitespace().any(|word| word == "unsafe"))
    })
}

/// A line's code as the question compares it: without its comment and whitespace, and
/// without a comma it ends on (the next line's `)` may have been joined to it).
fn code_key(line: &str) -> String {
    let code: String = CodeLexer::without_line_comment(Language::Rust, line)
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect();
    let code = code
        .replace(",)", ")")
        .replace(",]", "]")
        .replace(",}", "}");
    code.strip_suffix(',').map(str::to_string).unwrap_or(code)
}

/// Braces, brackets and separators alone run nothing.
fn is_punctuation(key: &str) -> bool {
    key.chars().all(|c| "{}()[];,".contains(c))
}
