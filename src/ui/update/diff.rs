//! The diff view: a cohort's files (or every changed file) with findings in the gutter; its
//! cursor, file and finding jumps, and opening a line in the person's editor.

use crate::diff::LineKind;
use crate::ui::command::Command;
use crate::ui::diffview::{self, DiffDoc, DiffRow};
use crate::ui::keymap::Context;
use crate::ui::state::{AppState, DiffView, MessageKind, Overlay, Pane, RowKey, TerminalJob};

use super::component::Component;
use super::selection::reveal;
use super::{Effect, info, message};

/// The diff view over the panes: movement moves its cursor.
pub(super) struct DiffOverlay;

impl Component for DiffOverlay {
    fn context(&self) -> Context {
        Context::Diff
    }

    fn available(&self, state: &AppState, command: Command) -> bool {
        command != Command::OpenInEditor || state.worktree.is_some()
    }

    fn update(&self, state: &mut AppState, command: Command) -> Option<Vec<Effect>> {
        // The person's comment on the cursor's line or a range (`diff_comment`).
        if let Some(effects) = super::diff_comment::command(state, command) {
            return Some(effects);
        }
        diff_action(state, command)
    }
}

/// The open diff view, when it is the top overlay.
pub(super) fn diff_view(state: &AppState) -> Option<DiffView> {
    match state.top_overlay() {
        Some(Overlay::Diff(view)) => Some(view.clone()),
        _ => None,
    }
}

pub(super) fn set_diff_view(state: &mut AppState, view: DiffView) {
    if let Some(Overlay::Diff(top)) = state.overlays.last_mut() {
        *top = view;
    }
}

/// Rows of diff the last frame showed (before the first frame, a guess).
pub(super) fn diff_height(state: &AppState) -> usize {
    match state.layout.diff.height {
        0 => 20,
        h => h as usize,
    }
}

/// How the viewport follows the cursor.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Place {
    /// Scroll only as far as needed.
    Keep,
    /// Jumped to a file: its header at the top.
    Top,
    /// Jumped to a finding: some context above it when it was off screen.
    Context,
}

/// Clamps the cursor to the document and scrolls the viewport to show it.
pub(super) fn place(state: &AppState, view: &mut DiffView, how: Place) {
    let len = DiffDoc::new(state, view.cohort.as_deref()).len();
    let height = diff_height(state);
    view.cursor = view.cursor.min(len.saturating_sub(1));
    let visible = view.cursor >= view.offset && view.cursor < view.offset + height;
    match how {
        Place::Top => view.offset = view.cursor,
        Place::Context if !visible => view.offset = view.cursor.saturating_sub(height / 4),
        _ if view.cursor < view.offset => view.offset = view.cursor,
        _ if view.cursor >= view.offset + height => view.offset = view.cursor + 1 - height,
        _ => {}
    }
    view.offset = view.offset.min(len.saturating_sub(height));
}

/// `d`: the diff of the selected cohort's files (every changed file when the selection is in
/// no cohort), the cursor on the selected finding's mark; `d` again closes it.
pub(super) fn open_diff(state: &mut AppState) {
    if state.diff.is_none() {
        message(
            state,
            MessageKind::Warn,
            "the diff is not loaded yet".to_string(),
        );
        return;
    }
    if let Some(RowKey::Reason(key)) = state.findings.selected.clone() {
        return open_diff_at_break(state, &key);
    }
    let cohort = diffview::cohort_for_selection(state);
    let (len, cursor) = {
        let doc = DiffDoc::new(state, cohort.as_deref());
        let cursor = crate::ui::rows::row_node(state).and_then(|node| {
            doc.marks(state)
                .into_iter()
                .find(|(_, n)| n.id == node.id || node.duplicate_of.as_deref() == Some(&n.id))
                .map(|(row, _)| row)
        });
        (doc.len(), cursor)
    };
    if len == 0 {
        message(state, MessageKind::Warn, "no files to show".to_string());
        return;
    }
    let mut view = DiffView {
        cohort,
        cursor: cursor.unwrap_or(0),
        offset: 0,
    };
    place(state, &mut view, Place::Context);
    state.overlays.push(Overlay::Diff(view));
}

/// `d` on a reason row: the diff of every changed file at the reason's next break (its file's
/// line naming what broke, else the file's header), counting on at each press. Only the
/// change's own files are ever opened: the breaks are found at them, never read from the text.
fn open_diff_at_break(state: &mut AppState, key: &str) {
    let Some(reason) = crate::ui::reasons::reason(state, key) else {
        return;
    };
    if reason.breaks.is_empty() {
        let text = format!(
            "{} names no changed file to open: {}",
            crate::ui::text::shown(&reason.subject),
            reason.summary
        );
        message(state, MessageKind::Warn, text);
        return;
    }
    let at = state.reason_break % reason.breaks.len();
    let item = &reason.breaks[at];
    let cursor = {
        let doc = DiffDoc::new(state, None);
        let on_line = |row: usize| match doc.row(row) {
            Some(DiffRow::Line { path, line }) if path == item.path => match item.line {
                Some(n) if item.old => line.old_line == Some(n) && line.kind == LineKind::Removed,
                Some(n) => line.new_line == Some(n) && line.kind != LineKind::Removed,
                None => false,
            },
            _ => false,
        };
        let on_file = |row: usize| matches!(doc.row(row), Some(DiffRow::File { path, .. }) if path == item.path);
        let rows = 0..doc.len();
        rows.clone()
            .find(|r| on_line(*r))
            .or_else(|| rows.clone().find(|r| on_file(*r)))
    };
    let Some(cursor) = cursor else {
        let text = format!("{} is not in the diff", crate::ui::text::shown(&item.path));
        message(state, MessageKind::Warn, text);
        return;
    };
    let text = format!(
        "break {} of {}: {} (esc, then d, opens the next)",
        at + 1,
        reason.breaks.len(),
        crate::ui::text::shown(&item.location())
    );
    state.reason_break = at + 1;
    let mut view = DiffView {
        cohort: None,
        cursor,
        offset: 0,
    };
    place(state, &mut view, Place::Context);
    state.overlays.push(Overlay::Diff(view));
    info(state, text);
}

/// Hands the person's editor a read-only copy of `path` (the PR's, inside the worktree) at
/// `line`.
pub(super) fn open_in_editor(state: &mut AppState, path: &str, line: u32) {
    let Some(worktree) = &state.worktree else {
        message(
            state,
            MessageKind::Warn,
            "no worktree to open files in".to_string(),
        );
        return;
    };
    // A path from the PR, read inside the worktree only.
    let inside = !path.is_empty()
        && !path.starts_with('/')
        && !path.split('/').any(|part| part == ".." || part.is_empty());
    let file = worktree.join(path);
    if !inside || !file.is_file() {
        let shown = crate::printable::line(path).into_owned();
        message(
            state,
            MessageKind::Warn,
            format!("{shown} is not a file in the worktree (deleted at the head?)"),
        );
        return;
    }
    state.terminal_jobs.push(TerminalJob::OpenFile {
        worktree: worktree.clone(),
        path: path.to_string(),
        line: line.max(1),
    });
}

/// What a key in the diff view comes to, decided while the document borrows the state.
enum DiffMove {
    To(usize, Place),
    /// To a mark, around the end of the document: the message says so.
    Wrapped(usize, &'static str),
    Note(String),
    Select(String),
    Open(String, u32),
    Close,
}

fn diff_action(state: &mut AppState, command: Command) -> Option<Vec<Effect>> {
    let mut view = diff_view(state)?;
    let outcome = {
        let doc = DiffDoc::new(state, view.cohort.as_deref());
        let last = doc.len().saturating_sub(1);
        let cursor = view.cursor.min(last);
        let page = diff_height(state).saturating_sub(1).max(1);
        let marks = || -> Vec<usize> { doc.marks(state).iter().map(|(row, _)| *row).collect() };
        match command {
            Command::MoveDown => DiffMove::To(cursor + 1, Place::Keep),
            Command::MoveUp => DiffMove::To(cursor.saturating_sub(1), Place::Keep),
            Command::PageDown => DiffMove::To(cursor + page, Place::Keep),
            Command::PageUp => DiffMove::To(cursor.saturating_sub(page), Place::Keep),
            Command::Top => DiffMove::To(0, Place::Keep),
            Command::Bottom => DiffMove::To(last, Place::Keep),
            Command::NextFile => match doc.file_starts().find(|&s| s > cursor) {
                Some(row) => DiffMove::To(row, Place::Top),
                None => DiffMove::Note("last file".to_string()),
            },
            Command::PrevFile => match doc.file_starts().filter(|&s| s < cursor).last() {
                Some(row) => DiffMove::To(row, Place::Top),
                None => DiffMove::Note("first file".to_string()),
            },
            // Like the list's `n`/`N`: past the last mark they wrap around, and say so.
            Command::NextFinding | Command::PrevFinding => {
                let marks = marks();
                let forward = command == Command::NextFinding;
                let next = if forward {
                    marks.iter().copied().find(|&r| r > cursor)
                } else {
                    marks.iter().copied().rfind(|&r| r < cursor)
                };
                let wrapped = if forward {
                    marks.first().copied()
                } else {
                    marks.last().copied()
                };
                match (next, wrapped) {
                    (Some(row), _) => DiffMove::To(row, Place::Context),
                    (None, Some(row)) if row != cursor => DiffMove::Wrapped(
                        row,
                        if forward {
                            "wrapped to the first marked line"
                        } else {
                            "wrapped to the last marked line"
                        },
                    ),
                    (None, Some(_)) => DiffMove::Note("this is the only marked line".to_string()),
                    (None, None) => DiffMove::Note("no marked lines in this diff".to_string()),
                }
            }
            Command::Expand => {
                let by_path = diffview::findings_by_path(state);
                match diffview::findings_at(&doc, &by_path, cursor).first() {
                    Some(node) => DiffMove::Select(node.id.clone()),
                    None => DiffMove::Note(format!(
                        "no finding on this line: {} jumps to the next mark",
                        state.key(Context::Diff, Command::NextFinding)
                    )),
                }
            }
            Command::OpenDiff => DiffMove::Close,
            // The head's line; a removed line has none, and its base line is close to where
            // it was.
            Command::OpenInEditor => match doc.row(cursor) {
                Some(DiffRow::Line { path, line }) => DiffMove::Open(
                    path.to_string(),
                    line.new_line.or(line.old_line).unwrap_or(1),
                ),
                Some(DiffRow::Hunk { path, hunk }) => {
                    DiffMove::Open(path.to_string(), hunk.new_start.max(1))
                }
                Some(DiffRow::File { path, .. } | DiffRow::Note { path, .. }) => {
                    DiffMove::Open(path.to_string(), 1)
                }
                None => DiffMove::Note("nothing here to open".to_string()),
            },
            _ => return None,
        }
    };
    match outcome {
        DiffMove::To(row, how) => {
            view.cursor = row;
            place(state, &mut view, how);
            set_diff_view(state, view);
        }
        DiffMove::Wrapped(row, text) => {
            view.cursor = row;
            place(state, &mut view, Place::Context);
            set_diff_view(state, view);
            info(state, text.to_string());
        }
        DiffMove::Note(text) => info(state, text),
        DiffMove::Open(path, line) => open_in_editor(state, &path, line),
        DiffMove::Select(id) => {
            state.overlays.pop();
            reveal(state, &id);
            state.findings.selected = Some(RowKey::Node(id.clone()));
            state.focus = Pane::Findings;
            state.detail.scroll = 0;
            info(state, format!("{id} selected"));
        }
        DiffMove::Close => {
            state.overlays.pop();
        }
    }
    Some(Vec::new())
}
