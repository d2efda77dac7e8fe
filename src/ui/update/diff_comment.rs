//! The person's own finding from the diff view: on the cursor's line, or on a range of lines
//! started with `select_range`; and the comment box that any place opens for a new one.

use crate::diff::Side;
use crate::review::Anchor;
use crate::review::person::{self, PersonDraft};
use crate::ui::command::Command;
use crate::ui::diffview::{DiffDoc, DiffRow};
use crate::ui::state::{AppState, InputPurpose, MessageKind, Overlay};

use super::{Effect, info, message};

/// Why no lines can be commented on where the diff view's cursor is.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
enum NoLines {
    #[error("put the cursor on a line of the diff to comment on it")]
    NotOnALine,
    #[error("no line of this file in the range")]
    NoneInRange,
    #[error("this file's path cannot anchor a comment: {0}")]
    Path(#[from] crate::repo_path::PathError),
}

/// The diff view's room commands: a range for a comment, and the comment itself.
pub(super) fn command(state: &mut AppState, command: Command) -> Option<Vec<Effect>> {
    let view = match state.top_overlay() {
        Some(Overlay::Diff(view)) => view.clone(),
        _ => return None,
    };
    match command {
        Command::SelectRange => {
            state.diff_range = match state.diff_range {
                Some(_) => None,
                None => Some(view.cursor),
            };
            if state.diff_range.is_some() {
                info(state, "range: move to extend it, then comment on it".into());
            }
            Some(Vec::new())
        }
        Command::AddComment => {
            let from = state.diff_range.take().unwrap_or(view.cursor);
            match anchor_between(state, view.cohort.as_deref(), from, view.cursor) {
                Ok(anchor) => start_comment(state, anchor),
                Err(why) => message(state, MessageKind::Warn, why.to_string()),
            }
            Some(Vec::new())
        }
        _ => None,
    }
}

/// The lines from row `from` to row `to` of the diff view, on the side of the cursor's line.
fn anchor_between(
    state: &AppState,
    cohort: Option<&str>,
    from: usize,
    to: usize,
) -> Result<Anchor, NoLines> {
    let doc = DiffDoc::new(state, cohort);
    let Some(DiffRow::Line { path, line }) = doc.row(to) else {
        return Err(NoLines::NotOnALine);
    };
    let side = if line.new_line.is_some() {
        Side::Right
    } else {
        Side::Left
    };
    let number = |l: &crate::diff::Line| match side {
        Side::Right => l.new_line,
        Side::Left => l.old_line,
    };
    let numbers: Vec<u32> = (from.min(to)..=from.max(to))
        .filter_map(|row| match doc.row(row) {
            Some(DiffRow::Line { path: p, line }) if p == path => number(line),
            _ => None,
        })
        .collect();
    let (Some(start), Some(end)) = (numbers.iter().min(), numbers.iter().max()) else {
        return Err(NoLines::NoneInRange);
    };
    Ok(Anchor {
        path: crate::repo_path::RepoPath::parse(path)?,
        side,
        start_line: *start,
        end_line: *end,
    })
}

pub(super) fn open(state: &mut AppState, purpose: InputPurpose, text: &str) {
    state.overlays.push(Overlay::input(purpose, text));
}

/// Opens the comment box for a new finding of the person's at `anchor` (a P2 suggestion
/// until the person's text says otherwise: `P1 bug: …` on its first line sets both).
pub(super) fn start_comment(state: &mut AppState, anchor: Anchor) {
    let node_id = person::next_id(&state.board.nodes);
    let draft = PersonDraft::new(anchor, "");
    open(state, InputPurpose::Comment { node_id, draft }, "");
}
