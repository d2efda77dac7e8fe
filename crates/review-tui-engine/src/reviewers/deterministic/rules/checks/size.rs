//! New files that are large or binary: each deserves the question "should this be in the
//! repository at all?" (a vendored library, a build artefact, a dataset).

use super::{Hit, first_changed_line};
use crate::diff::{FileDiff, FileStatus, LineKind};

pub(super) fn large_file(file: &FileDiff, max_lines: usize, max_bytes: usize) -> Vec<Hit> {
    if file.status != FileStatus::Added || file.binary {
        return Vec::new();
    }
    let bytes: usize = file
        .hunks
        .iter()
        .flat_map(|hunk| hunk.lines.iter())
        .filter(|line| line.kind == LineKind::Added)
        .map(|line| line.text.len() + 1)
        .sum();
    if file.additions <= max_lines && bytes <= max_bytes {
        return Vec::new();
    }
    vec![Hit {
        line: first_changed_line(file),
        code: String::new(),
        detail: format!("{} lines ({bytes} bytes) added", file.additions),
    }]
}

pub(super) fn binary_file(file: &FileDiff) -> Vec<Hit> {
    if !file.binary || !matches!(file.status, FileStatus::Added | FileStatus::Copied) {
        return Vec::new();
    }
    vec![Hit {
        line: None,
        code: String::new(),
        detail: "a new binary file".into(),
    }]
}
