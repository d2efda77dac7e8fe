//! Where GitHub accepts an inline review comment: on a line inside a hunk of the file, on the
//! side the line exists on. Context lines exist on both sides, added lines only on the RIGHT,
//! removed lines only on the LEFT, which is exactly the hunk's old or new line range.

use super::Side;
use super::model::{Diff, FileDiff, Hunk, LineKind};

impl Diff {
    /// The file a review comment would name with `path` (the new path; the old one for a
    /// deleted file).
    pub fn file(&self, path: &str) -> Option<&FileDiff> {
        self.files.iter().find(|file| file.path == path)
    }

    /// Whether a single-line comment on `line` of `side` of `path` can be anchored.
    pub fn anchor_in_diff(&self, path: &str, side: Side, line: u32) -> bool {
        self.files_named(path)
            .any(|file| file.hunk_at(side, line).is_some())
    }

    /// Every entry for `path`: a malformed or concatenated diff can list one path twice, and a
    /// line of either entry is in the diff.
    fn files_named<'a>(&'a self, path: &'a str) -> impl Iterator<Item = &'a FileDiff> + 'a {
        self.files.iter().filter(move |file| file.path == path)
    }

    /// Whether lines `start..=end` of `side` of `path` hold a line the change made: an added
    /// line (RIGHT) or a removed one (LEFT). A finding there is about the change itself.
    pub fn touches_change(&self, path: &str, side: Side, start: u32, end: u32) -> bool {
        let range = start..=end;
        self.files
            .iter()
            .filter(|file| file.path == path || file.old_path.as_deref() == Some(path))
            .flat_map(|file| file.hunks.iter().flat_map(|hunk| hunk.lines.iter()))
            .any(|line| match (side, line.kind) {
                (Side::Right, LineKind::Added) => line.new_line.is_some_and(|n| range.contains(&n)),
                (Side::Left, LineKind::Removed) => {
                    line.old_line.is_some_and(|n| range.contains(&n))
                }
                _ => false,
            })
    }

    /// Whether a multi-line comment from `start` to `end` (inclusive) on `side` can be
    /// anchored: both ends on that side of the same hunk.
    pub fn range_in_diff(&self, path: &str, side: Side, start: u32, end: u32) -> bool {
        start <= end
            && self.files_named(path).any(|file| {
                file.hunk_at(side, start)
                    .is_some_and(|hunk| hunk.covers(side, end))
            })
    }
}

impl FileDiff {
    /// The hunk whose `side` range contains `line`.
    pub fn hunk_at(&self, side: Side, line: u32) -> Option<&Hunk> {
        self.hunks.iter().find(|hunk| hunk.covers(side, line))
    }
}

impl Hunk {
    /// Whether `line` of `side` is shown by this hunk.
    pub fn covers(&self, side: Side, line: u32) -> bool {
        let range = match side {
            Side::Left => self.old_range(),
            Side::Right => self.new_range(),
        };
        range.is_some_and(|(first, last)| (first..=last).contains(&line))
    }
}
