//! The head version's syntax tree from the base version's, reparsed only where the diff
//! changed the file.
//!
//! The apiContract axis reads a changed file's surface at both sides. The base side is parsed
//! for its tags anyway; tree-sitter reparses an edited tree reusing every subtree outside the
//! edits, so the head side costs about the size of the change, not of the file.

use std::ops::Range;

use tree_sitter::{InputEdit, Point, Tree};

use crate::diff::FileDiff;

use super::grammar::Grammar;
use super::tags::Tagger;

/// The tree of `head`: `base_tree` (the tree of `base`) edited and reparsed, or a fresh parse
/// when there is no base tree. A reparse whose tree holds an error is done again from scratch,
/// so that error recovery is always tree-sitter's fresh one.
pub(crate) fn head_tree(
    tagger: &mut Tagger,
    grammar: Grammar,
    file: &FileDiff,
    base: Option<(&Tree, &[u8])>,
    head: &[u8],
) -> Option<Tree> {
    head_tree_and_changes(tagger, grammar, file, base, head).map(|(tree, _)| tree)
}

/// [`head_tree`], and where the base's syntax may differ from the head's: the byte ranges of
/// the base, whole lines, sorted and apart, outside which every character has the same
/// ancestor nodes at both sides (`None` without a base tree, or when the head was parsed
/// afresh because the edits replace much of the base: see [`fresh_is_cheaper`]). They cover the text the diff
/// changed and what tree-sitter found structurally changed around it
/// ([`Tree::changed_ranges`]: a `/*` added above unchanged lines turns them into a comment).
pub(crate) fn head_tree_and_changes(
    tagger: &mut Tagger,
    grammar: Grammar,
    file: &FileDiff,
    base: Option<(&Tree, &[u8])>,
    head: &[u8],
) -> Option<(Tree, Option<Vec<Range<usize>>>)> {
    let Some((base_tree, base)) = base else {
        return tagger.parse(grammar, head, None).map(|tree| (tree, None));
    };
    let edits = edits(file, base, head);
    if fresh_is_cheaper(&edits, base.len()) {
        return tagger.parse(grammar, head, None).map(|tree| (tree, None));
    }
    let mut old = base_tree.clone();
    for edit in edits.iter().rev() {
        old.edit(edit);
    }
    let tree = match tagger.parse(grammar, head, Some(&old)) {
        Some(tree) if !tree.root_node().has_error() => tree,
        _ => tagger.parse(grammar, head, None)?,
    };
    let mut changed: Vec<Range<usize>> = edits
        .iter()
        .map(|edit| edit.start_byte..edit.old_end_byte)
        .collect();
    changed.extend(old.changed_ranges(&tree).map(|range| {
        base_offset(&edits, range.start_byte, false)..base_offset(&edits, range.end_byte, true)
    }));
    Some((tree, Some(whole_lines(changed, base))))
}

/// Below this size a base is always reparsed: either way costs little.
const FRESH_MIN_BASE_BYTES: usize = 2048;

/// Whether parsing the head from scratch (and reading the whole base's tags) costs less than
/// reparsing it from the base's tree (and reading the base's tags only where it changed):
/// when the edits replace half of the base or more, little of the old tree can be reused,
/// and editing it, finding what to reuse and the changed ranges cost more than they save.
/// Measured with a release build over the changed `.rs` files of tokio-1.0.0..1.40.0 (361
/// files, most rewritten; best of 5 per file): reparse, changed ranges and the ranged base
/// query 0.574 s, fresh parse and whole base query 0.603 s, this rule 0.560 s; on
/// 1.30.0..1.40.0 (398 files, mostly small changes) 0.481 s, 0.773 s and 0.479 s. The answer
/// is the same either way: the fresh tree is the reparsed one, node for node, and the whole
/// base holds every name its changed regions do.
fn fresh_is_cheaper(edits: &[InputEdit], base_len: usize) -> bool {
    let replaced: usize = edits
        .iter()
        .map(|edit| edit.old_end_byte.saturating_sub(edit.start_byte))
        .sum();
    base_len >= FRESH_MIN_BASE_BYTES && replaced * 2 >= base_len
}

/// The base offset of head offset `at`, through `edits` (ascending, in base offsets, applied
/// from the last). An offset inside an edit's new text maps to the edit's start, or to the end
/// of the text it replaced when `end`.
fn base_offset(edits: &[InputEdit], at: usize, end: bool) -> usize {
    // Head offset minus base offset before the edit at hand.
    let mut shift: isize = 0;
    for edit in edits {
        let new_start = edit.start_byte.saturating_add_signed(shift);
        let new_end = edit.new_end_byte.saturating_add_signed(shift);
        if at < new_start {
            break;
        }
        if at <= new_end {
            return if end {
                edit.old_end_byte
            } else {
                edit.start_byte
            };
        }
        shift += edit.new_end_byte as isize - edit.old_end_byte as isize;
    }
    at.saturating_add_signed(-shift)
}

/// `ranges` grown to whole lines of `text` (an empty range takes its line), sorted, and
/// merged where they touch.
fn whole_lines(mut ranges: Vec<Range<usize>>, text: &[u8]) -> Vec<Range<usize>> {
    for range in &mut ranges {
        let start = range.start.min(text.len());
        let end = range.end.clamp(start, text.len());
        let line_start = text[..start]
            .iter()
            .rposition(|b| *b == b'\n')
            .map_or(0, |at| at + 1);
        let line_end = text[end..]
            .iter()
            .position(|b| *b == b'\n')
            .map_or(text.len(), |at| end + at + 1);
        *range = line_start..line_end;
    }
    ranges.sort_by_key(|range| range.start);
    let mut merged: Vec<Range<usize>> = Vec::with_capacity(ranges.len());
    for range in ranges {
        match merged.last_mut() {
            Some(last) if range.start <= last.end => last.end = last.end.max(range.end),
            _ => merged.push(range),
        }
    }
    merged
}

/// What changed from `base` to `head`, ascending, in `base`'s offsets: the diff's hunks when
/// every line between them is the same at both sides (the hunks are of this very pair of
/// texts), else one edit from the first differing byte to the last.
fn edits(file: &FileDiff, base: &[u8], head: &[u8]) -> Vec<InputEdit> {
    hunk_edits(file, base, head).unwrap_or_else(|| whole_edit(base, head).into_iter().collect())
}

fn hunk_edits(file: &FileDiff, base: &[u8], head: &[u8]) -> Option<Vec<InputEdit>> {
    let base_lines = line_starts(base);
    let head_lines = line_starts(head);
    // The byte offset where 0-based line `line` starts (the end of the text past the last).
    let at = |starts: &[usize], text: &[u8], line: usize| -> usize {
        starts.get(line).copied().unwrap_or(text.len())
    };
    let mut edits = Vec::with_capacity(file.hunks.len());
    let (mut base_done, mut head_done) = (0usize, 0usize);
    for hunk in &file.hunks {
        // A hunk with no lines on a side starts *after* line `start` there.
        let first = |start: u32, count: u32| {
            if count == 0 {
                start as usize
            } else {
                (start as usize).saturating_sub(1)
            }
        };
        let base_first = first(hunk.old_start, hunk.old_count);
        let head_first = first(hunk.new_start, hunk.new_count);
        let base_start = at(&base_lines, base, base_first);
        let base_end = at(&base_lines, base, base_first + hunk.old_count as usize);
        let head_start = at(&head_lines, head, head_first);
        let head_end = at(&head_lines, head, head_first + hunk.new_count as usize);
        if base_start < base_done
            || head_start < head_done
            || base_end < base_start
            || head_end < head_start
            || base[base_done..base_start] != head[head_done..head_start]
        {
            return None;
        }
        let start_position = point(base, base_start);
        edits.push(InputEdit {
            start_byte: base_start,
            old_end_byte: base_end,
            new_end_byte: base_start + (head_end - head_start),
            start_position,
            old_end_position: advance(start_position, &base[base_start..base_end]),
            new_end_position: advance(start_position, &head[head_start..head_end]),
        });
        (base_done, head_done) = (base_end, head_end);
    }
    (base[base_done..] == head[head_done..]).then_some(edits)
}

/// One edit over everything between the common prefix and the common suffix; `None` when the
/// texts are the same.
fn whole_edit(base: &[u8], head: &[u8]) -> Option<InputEdit> {
    let prefix = base.iter().zip(head).take_while(|(a, b)| a == b).count();
    if prefix == base.len() && prefix == head.len() {
        return None;
    }
    let room = base.len().min(head.len()) - prefix;
    let suffix = (base.iter().rev().zip(head.iter().rev()))
        .take(room)
        .take_while(|(a, b)| a == b)
        .count();
    let start_position = point(base, prefix);
    let (old_end, new_end) = (base.len() - suffix, head.len() - suffix);
    Some(InputEdit {
        start_byte: prefix,
        old_end_byte: old_end,
        new_end_byte: new_end,
        start_position,
        old_end_position: advance(start_position, &base[prefix..old_end]),
        new_end_position: advance(start_position, &head[prefix..new_end]),
    })
}

/// Where each line starts, past the first.
fn line_starts(text: &[u8]) -> Vec<usize> {
    std::iter::once(0)
        .chain(
            text.iter()
                .enumerate()
                .filter(|(_, b)| **b == b'\n')
                .map(|(at, _)| at + 1),
        )
        .collect()
}

/// The row and byte column of `offset` in `text`.
fn point(text: &[u8], offset: usize) -> Point {
    advance(Point { row: 0, column: 0 }, &text[..offset])
}

/// The point after `text`, written from `from`.
pub(crate) fn advance(from: Point, text: &[u8]) -> Point {
    match text.iter().rposition(|b| *b == b'\n') {
        None => Point {
            row: from.row,
            column: from.column + text.len(),
        },
        Some(last) => Point {
            row: from.row + text.iter().filter(|b| **b == b'\n').count(),
            column: text.len() - last - 1,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The reparsed tree is the fresh parse's, node for node, whatever the hunks say: those of
    /// this very pair, of another base (a range whose base is not the merge base), or none.
    #[test]
    fn the_reparsed_tree_is_the_fresh_one() {
        let base = "pub struct A {\n    pub x: u8,\n}\n\nfn keep() {}\n\npub fn f(a: u8) -> u8 {\n    a\n}\n\npub fn gone() {}\n";
        let head = "pub struct A {\n    pub x: u8,\n    pub y: u16,\n}\n\nfn keep() {}\n\npub fn f(a: u8, b: u8) -> u8 {\n    a + b\n}\n";
        let diff_text = "diff --git a/a.rs b/a.rs\n--- a/a.rs\n+++ b/a.rs\n@@ -2,2 +2,3 @@\n     pub x: u8,\n+    pub y: u16,\n }\n@@ -7,5 +8,3 @@\n-pub fn f(a: u8) -> u8 {\n-    a\n+pub fn f(a: u8, b: u8) -> u8 {\n+    a + b\n }\n-\n-pub fn gone() {}\n";
        let unrelated =
            "diff --git a/a.rs b/a.rs\n--- a/a.rs\n+++ b/a.rs\n@@ -1,1 +1,1 @@\n-x\n+y\n";
        let mut tagger = Tagger::default();
        let fresh = tagger
            .parse(Grammar::Rust, head.as_bytes(), None)
            .unwrap()
            .root_node()
            .to_sexp();
        let base_tree = tagger.parse(Grammar::Rust, base.as_bytes(), None).unwrap();
        for diff in [diff_text, unrelated] {
            let file = &crate::diff::parse(diff).unwrap().files[0];
            let tree = head_tree(
                &mut tagger,
                Grammar::Rust,
                file,
                Some((&base_tree, base.as_bytes())),
                head.as_bytes(),
            )
            .unwrap();
            assert_eq!(tree.root_node().to_sexp(), fresh, "{diff}");
            // Positions too: the tags' rows are the fresh parse's.
            assert_eq!(
                tagger.tags_of(Grammar::Rust, &tree, head.as_bytes()),
                tagger.tags(Grammar::Rust, head.as_bytes()),
                "{diff}"
            );
        }
        let file = &crate::diff::parse(diff_text).unwrap().files[0];
        assert_eq!(
            hunk_edits(file, base.as_bytes(), head.as_bytes()).map(|e| e.len()),
            Some(2),
            "the hunks of this pair are used"
        );
        let other = &crate::diff::parse(unrelated).unwrap().files[0];
        assert!(hunk_edits(other, base.as_bytes(), head.as_bytes()).is_none());
    }

    /// A base rewritten in large part is not reparsed: the head is parsed afresh and no changed
    /// regions are given (the whole base is read); a base changed in a few lines is reparsed.
    #[test]
    fn a_heavily_rewritten_file_is_parsed_afresh() {
        let functions = |name: &str, count: usize| -> String {
            (0..count)
                .map(|i| {
                    format!(
                        "pub fn {name}_{i}(value: u32) -> u32 {{\n    helper_{i}(value)\n}}\n\n"
                    )
                })
                .collect()
        };
        let base = functions("old", 60);
        assert!(base.len() >= FRESH_MIN_BASE_BYTES);
        // Three quarters of the functions replaced, the last quarter kept.
        let kept: String = base.split_inclusive("\n\n").skip(45).collect();
        let rewritten = format!("{}{kept}", functions("new", 45));
        let lightly = base.replacen("helper_7(value)", "helper_7(value + 1)", 1);
        let mut tagger = Tagger::default();
        let base_tree = tagger.parse(Grammar::Rust, base.as_bytes(), None).unwrap();
        for (head, afresh) in [(&rewritten, true), (&lightly, false)] {
            let patch = git2::Patch::from_buffers(
                base.as_bytes(),
                Some(std::path::Path::new("a.rs")),
                head.as_bytes(),
                Some(std::path::Path::new("a.rs")),
                None,
            )
            .and_then(|mut p| p.to_buf())
            .unwrap();
            let diff = crate::diff::parse(&String::from_utf8_lossy(&patch)).unwrap();
            let (tree, changes) = head_tree_and_changes(
                &mut tagger,
                Grammar::Rust,
                &diff.files[0],
                Some((&base_tree, base.as_bytes())),
                head.as_bytes(),
            )
            .unwrap();
            assert_eq!(changes.is_none(), afresh, "{head}");
            let fresh = tagger.parse(Grammar::Rust, head.as_bytes(), None).unwrap();
            assert_eq!(tree.root_node().to_sexp(), fresh.root_node().to_sexp());
            assert_eq!(
                tagger.tags_of(Grammar::Rust, &tree, head.as_bytes()),
                tagger.tags(Grammar::Rust, head.as_bytes())
            );
        }
    }

    #[test]
    fn points_count_rows_and_byte_columns() {
        assert_eq!(point(b"ab\ncd", 4), Point { row: 1, column: 1 });
        assert_eq!(
            advance(Point { row: 2, column: 3 }, b"xy"),
            Point { row: 2, column: 5 }
        );
        assert_eq!(
            advance(Point { row: 2, column: 3 }, b"x\nyz"),
            Point { row: 3, column: 2 }
        );
    }
}
