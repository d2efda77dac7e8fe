//! The diff view's document: a cohort's files in reading order (or every changed file), each a
//! header row, then per hunk a `@@` row and its lines. Rows are addressed by number and found
//! by binary search over the file and hunk offsets, so nothing is built per line: a 10k-line
//! file costs its hunk count to index, and the view builds only the rows on screen.
//!
//! Findings are marked where their anchor lands: a RIGHT anchor on added and context lines by
//! their new number, a LEFT anchor on removed and context lines by their old number. Pure: no
//! terminal types, shared by `update` (cursor moves, jumps) and the view.

use std::collections::HashMap;

use crate::diff::{FileDiff, Hunk, Line, LineKind, Side};
use crate::review::ReviewNode;
use crate::ui::state::{AppState, CohortView};

/// One row of the document.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum DiffRow<'a> {
    /// A file's header: its position in reading order (0-based), its path and, when the diff
    /// has it, the file.
    File {
        index: usize,
        path: &'a str,
        file: Option<&'a FileDiff>,
    },
    /// Why a file shows no lines (binary, mode-only, not in the diff).
    Note {
        path: &'a str,
        text: &'static str,
    },
    Hunk {
        path: &'a str,
        hunk: &'a Hunk,
    },
    Line {
        path: &'a str,
        line: &'a Line,
    },
}

#[derive(Debug)]
struct DocFile<'a> {
    path: &'a str,
    file: Option<&'a FileDiff>,
    /// The file header's row.
    start: usize,
    /// Each hunk's `@@` row, relative to `start`.
    hunk_starts: Vec<usize>,
    rows: usize,
}

/// The rows of the diff view for one scope.
#[derive(Debug)]
pub struct DiffDoc<'a> {
    files: Vec<DocFile<'a>>,
    len: usize,
}

/// The cohort whose files the diff view shows for what is selected (a cohort row, its
/// below-threshold fold, or a finding anchored in one of its files).
pub fn cohort_for_selection(state: &AppState) -> Option<String> {
    use crate::ui::state::RowKey;
    let known = |key: &str| state.cohorts.iter().any(|c| c.key == key);
    match state.findings.selected.as_ref()? {
        RowKey::Cohort(key) | RowKey::Below(key) => known(key).then(|| key.clone()),
        RowKey::Reason(_) => None,
        RowKey::Node(_) | RowKey::Rule(_) => {
            let path = &crate::ui::rows::row_node(state)?.anchor.as_ref()?.path;
            state
                .cohorts
                .iter()
                .find(|c| c.files.iter().any(|f| f == path))
                .map(|c| c.key.clone())
        }
    }
}

impl<'a> DiffDoc<'a> {
    /// The document for `cohort` (its files in reading order), or every changed file.
    pub fn new(state: &'a AppState, cohort: Option<&str>) -> DiffDoc<'a> {
        let diff = state.diff.as_deref();
        let find = |path: &str| {
            diff.and_then(|d| {
                d.files
                    .iter()
                    .find(|f| f.path == path || f.old_path.as_deref() == Some(path))
            })
        };
        let files: Vec<(&'a str, Option<&'a FileDiff>)> =
            match cohort.and_then(|key| state.cohorts.iter().find(|c| c.key == key)) {
                Some(cohort) => cohort
                    .files
                    .iter()
                    .map(|path| (path.as_str(), find(path)))
                    .collect(),
                None => diff
                    .map(|d| d.files.iter().map(|f| (f.path.as_str(), Some(f))).collect())
                    .unwrap_or_default(),
            };
        let mut doc = DiffDoc {
            files: Vec::with_capacity(files.len()),
            len: 0,
        };
        for (path, file) in files {
            let mut hunk_starts = Vec::new();
            let mut rows = 1;
            match file {
                Some(f) if !f.binary && !f.hunks.is_empty() => {
                    for hunk in &f.hunks {
                        hunk_starts.push(rows);
                        rows += 1 + hunk.lines.len();
                    }
                }
                _ => rows += 1,
            }
            doc.files.push(DocFile {
                path,
                file,
                start: doc.len,
                hunk_starts,
                rows,
            });
            doc.len += rows;
        }
        doc
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub fn file_count(&self) -> usize {
        self.files.len()
    }

    /// The header rows, in order.
    pub fn file_starts(&self) -> impl Iterator<Item = usize> + '_ {
        self.files.iter().map(|f| f.start)
    }

    fn file_at(&self, row: usize) -> Option<&DocFile<'a>> {
        let i = self
            .files
            .partition_point(|f| f.start <= row)
            .checked_sub(1)?;
        let file = &self.files[i];
        (row < file.start + file.rows).then_some(file)
    }

    /// The row at `row`, or `None` past the end.
    pub fn row(&self, row: usize) -> Option<DiffRow<'a>> {
        let i = self
            .files
            .partition_point(|f| f.start <= row)
            .checked_sub(1)?;
        let doc_file = &self.files[i];
        let offset = row - doc_file.start;
        if offset >= doc_file.rows {
            return None;
        }
        let path = doc_file.path;
        if offset == 0 {
            return Some(DiffRow::File {
                index: i,
                path,
                file: doc_file.file,
            });
        }
        let Some(file) = doc_file.file.filter(|_| !doc_file.hunk_starts.is_empty()) else {
            let text = match doc_file.file {
                None => "not in the diff",
                Some(f) if f.binary => "binary file: no lines to show",
                Some(_) => "no line changes (a rename or a mode change)",
            };
            return Some(DiffRow::Note { path, text });
        };
        let h = doc_file.hunk_starts.partition_point(|&s| s <= offset) - 1;
        let hunk = &file.hunks[h];
        let within = offset - doc_file.hunk_starts[h];
        Some(if within == 0 {
            DiffRow::Hunk { path, hunk }
        } else {
            DiffRow::Line {
                path,
                line: &hunk.lines[within - 1],
            }
        })
    }

    /// The path of the file `row` belongs to.
    pub fn path_at(&self, row: usize) -> Option<&'a str> {
        self.file_at(row).map(|f| f.path)
    }

    /// The first row of each marked finding, sorted by row (then priority, then id).
    pub fn marks(&self, state: &'a AppState) -> Vec<(usize, &'a ReviewNode)> {
        let mut marks = Vec::new();
        for node in state.board.nodes.iter().filter(|n| markable(n)) {
            let Some(anchor) = &node.anchor else { continue };
            for doc_file in self.files.iter().filter(|f| f.path == anchor.path) {
                let Some(file) = doc_file.file else { continue };
                if let Some(row) = first_row(doc_file, file, anchor) {
                    marks.push((row, node));
                }
            }
        }
        marks.sort_by(|(ra, a), (rb, b)| (ra, a.priority, &a.id).cmp(&(rb, b.priority, &b.id)));
        marks
    }
}

/// Findings the gutter shows: active problems (duplicates are marked through their primary).
fn markable(node: &ReviewNode) -> bool {
    node.status.is_active() && node.duplicate_of.is_none() && node.anchor.is_some()
}

fn first_row(
    doc_file: &DocFile<'_>,
    file: &FileDiff,
    anchor: &crate::review::Anchor,
) -> Option<usize> {
    for (h, hunk) in file.hunks.iter().enumerate() {
        let range = match anchor.side {
            Side::Left => hunk.old_range(),
            Side::Right => hunk.new_range(),
        };
        let Some((from, to)) = range else { continue };
        if to < anchor.start_line || from > anchor.end_line {
            continue;
        }
        if let Some(i) = hunk.lines.iter().position(|l| covers(anchor, l)) {
            return Some(doc_file.start + doc_file.hunk_starts[h] + 1 + i);
        }
    }
    None
}

/// Whether `anchor` lands on `line`: RIGHT by the new number (added and context lines), LEFT
/// by the old number (removed and context lines).
pub fn covers(anchor: &crate::review::Anchor, line: &Line) -> bool {
    let number = match (anchor.side, line.kind) {
        (Side::Right, LineKind::Removed) | (Side::Left, LineKind::Added) => None,
        (Side::Right, _) => line.new_line,
        (Side::Left, _) => line.old_line,
    };
    number.is_some_and(|n| (anchor.start_line..=anchor.end_line).contains(&n))
}

/// The markable findings anchored in each path: what the view checks visible lines against.
pub fn findings_by_path(state: &AppState) -> HashMap<&str, Vec<&ReviewNode>> {
    let mut by_path: HashMap<&str, Vec<&ReviewNode>> = HashMap::new();
    for node in state.board.nodes.iter().filter(|n| markable(n)) {
        if let Some(anchor) = &node.anchor {
            by_path.entry(anchor.path.as_str()).or_default().push(node);
        }
    }
    for nodes in by_path.values_mut() {
        nodes.sort_by(|a, b| (a.priority, &a.id).cmp(&(b.priority, &b.id)));
    }
    by_path
}

/// The findings (most urgent first) marked on `row`.
pub fn findings_at<'s>(
    doc: &DiffDoc<'_>,
    by_path: &HashMap<&str, Vec<&'s ReviewNode>>,
    row: usize,
) -> Vec<&'s ReviewNode> {
    let Some(DiffRow::Line { path, line }) = doc.row(row) else {
        return Vec::new();
    };
    by_path
        .get(path)
        .map(|nodes| {
            nodes
                .iter()
                .filter(|n| n.anchor.as_ref().is_some_and(|a| covers(a, line)))
                .copied()
                .collect()
        })
        .unwrap_or_default()
}

/// The review threads people hold on `row`'s line (open ones first).
pub fn threads_at<'s>(
    state: &'s AppState,
    doc: &DiffDoc<'_>,
    row: usize,
) -> Vec<&'s crate::pr::ReviewThread> {
    let Some(DiffRow::Line { path, line }) = doc.row(row) else {
        return Vec::new();
    };
    let mut found: Vec<_> = state
        .review_threads
        .iter()
        .filter(|t| t.path == path)
        .filter(|t| {
            let number = match (t.side, line.kind) {
                (Side::Right, LineKind::Removed) | (Side::Left, LineKind::Added) => None,
                (Side::Right, _) => line.new_line,
                (Side::Left, _) => line.old_line,
            };
            match (t.lines(), number) {
                (Some((start, end)), Some(n)) => (start..=end).contains(&n),
                _ => false,
            }
        })
        .collect();
    found.sort_by_key(|t| !t.is_open());
    found
}

/// What the diff view's title says about its scope.
pub fn scope_label(cohort: Option<&CohortView>, files: usize) -> String {
    match cohort {
        Some(c) if files == 1 => format!("{} · 1 file", c.label),
        Some(c) => format!("{} · {files} files in reading order", c.label),
        None => format!("every changed file ({files})"),
    }
}
