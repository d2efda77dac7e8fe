//! A file's old side rebuilt from its head text and its hunks: a unified diff holds every
//! changed line, so the head with the diff applied in reverse is the old file exactly (for a
//! deleted file, all its removed lines).

use super::model::{FileDiff, LineKind};

/// The old version of a file, and where each head line stood in it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OldSide {
    /// The old file's text.
    pub text: String,
    /// For each head line (by index: line `n` is `[n - 1]`), its 1-based old line when the
    /// change left it as it was; `None` for an added line.
    pub old_of_new: Vec<Option<u32>>,
}

/// Rebuilds the old side of `file` from `head`, its head text (empty for a deleted file).
pub fn old_side(file: &FileDiff, head: &str) -> OldSide {
    let head_lines: Vec<&str> = head.split_inclusive('\n').collect();
    let mut text = String::with_capacity(head.len());
    let mut old_of_new = vec![None; head_lines.len()];
    let mut next = 0usize;
    let mut old_line = 0u32;
    // Head lines the hunks do not show are unchanged: copied, one old line each.
    let mut copy_to = |end: usize, next: &mut usize, text: &mut String, old_line: &mut u32| {
        while *next < end.min(head_lines.len()) {
            text.push_str(head_lines[*next]);
            *old_line += 1;
            old_of_new[*next] = Some(*old_line);
            *next += 1;
        }
    };
    let mut context = Vec::new();
    for hunk in &file.hunks {
        // A hunk with no new lines starts *after* line `new_start`.
        let before = if hunk.new_count == 0 {
            hunk.new_start
        } else {
            hunk.new_start.saturating_sub(1)
        } as usize;
        copy_to(before, &mut next, &mut text, &mut old_line);
        for line in &hunk.lines {
            if line.kind == LineKind::Added {
                continue;
            }
            text.push_str(&line.text);
            text.push('\n');
            old_line += 1;
            if let (LineKind::Context, Some(new)) = (line.kind, line.new_line) {
                context.push((new as usize, old_line));
            }
        }
        next += hunk.new_count as usize;
    }
    copy_to(usize::MAX, &mut next, &mut text, &mut old_line);
    for (new, old) in context {
        if let Some(slot) = new.checked_sub(1).and_then(|i| old_of_new.get_mut(i)) {
            *slot = Some(old);
        }
    }
    OldSide { text, old_of_new }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diff::parse;

    #[test]
    fn the_old_side_is_the_head_with_the_diff_undone_and_maps_unchanged_lines() {
        let diff = parse(
            "diff --git a/a.rs b/a.rs\n--- a/a.rs\n+++ b/a.rs\n@@ -2,3 +2,4 @@\n b\n-c\n+C\n+C2\n d\n@@ -7,1 +7,0 @@\n-g\n",
        )
        .unwrap();
        let head = "a\nb\nC\nC2\nd\ne\nf\nh\n";
        let old = old_side(&diff.files[0], head);
        assert_eq!(old.text, "a\nb\nc\nd\ne\nf\ng\nh\n");
        assert_eq!(
            old.old_of_new,
            vec![
                Some(1),
                Some(2),
                None,
                None,
                Some(4),
                Some(5),
                Some(6),
                Some(8)
            ]
        );
    }
}
