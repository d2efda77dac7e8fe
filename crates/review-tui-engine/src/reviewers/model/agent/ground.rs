//! Grounding a model's finding in the change: its anchor must name lines that exist (in the
//! worktree at the head for side RIGHT, in the diff's old lines for side LEFT), and its scope is
//! computed from the diff, not taken from the model. A finding on a line the change added or
//! removed is about the change, so it is in scope whatever the model wrote; a model can still
//! call a finding on unchanged lines in scope (a caller the change broke), never the reverse.
//!
//! The anchor's path is canonical by its type (`./src/a.rs` arrives as `src/a.rs`); on side
//! RIGHT it then becomes the path the confined reader found the bytes at, so a link inside the
//! worktree (`lib.rs -> src/a.rs`) anchors where the diff lists the lines. Scope, placement
//! and identity all compare that one spelling.

use crate::diff::{Diff, Side};
use crate::repo_path::RepoPath;
use crate::review::node::{Anchor, NodeDraft, Scope};
use crate::review::validate::Invalid;
use crate::reviewers::model::toolbox::ToolBox;

/// Checks `draft`'s anchor against the toolbox's diff and files and sets its scope. Without a
/// diff (a toolbox of tests) the anchor is taken as written.
pub(super) fn ground(draft: &mut NodeDraft, tools: &dyn ToolBox) -> Result<(), Vec<Invalid>> {
    let Some(diff) = tools.diff() else {
        return Ok(());
    };
    let Some(anchor) = &mut draft.anchor else {
        return Ok(());
    };
    let problems = match anchor.side {
        Side::Right => match right_problems(anchor, tools) {
            Ok(real) => {
                anchor.path = real;
                Vec::new()
            }
            Err(problems) => problems,
        },
        Side::Left => left_problems(anchor, &diff),
    };
    if !problems.is_empty() {
        return Err(problems);
    }
    if diff.touches_change(
        &anchor.path,
        anchor.side,
        anchor.start_line,
        anchor.end_line,
    ) {
        draft.scope = Scope::InScope;
    }
    Ok(())
}

/// Side RIGHT: the file at the head, read through the tools' own confined reader. Its answer
/// is the path the bytes were found at.
fn right_problems(anchor: &Anchor, tools: &dyn ToolBox) -> Result<RepoPath, Vec<Invalid>> {
    let file = match tools.read_text(&anchor.path) {
        Ok(file) => file,
        Err(reason) => {
            return Err(vec![Invalid {
                field: "anchor.path",
                reason: format!(
                    "`{}` is not a readable text file at the pull request's head ({reason}); \
                     anchor to a file of the change, with side LEFT for a deleted file",
                    anchor.path
                ),
            }]);
        }
    };
    // A reader that names no path (a toolbox of tests) keeps the anchor's own.
    let real = RepoPath::parse(&file.path).unwrap_or_else(|_| anchor.path.clone());
    let lines = u32::try_from(file.text.lines().count()).unwrap_or(u32::MAX);
    // Past the read cap the line count is unknown: lines beyond it cannot be refused.
    if !file.complete && anchor.start_line > lines {
        return Ok(real);
    }
    let beyond = |line: u32| line > lines || lines == 0;
    if beyond(anchor.start_line) {
        Err(vec![Invalid {
            field: "anchor.start_line",
            reason: format!(
                "{} has {lines} lines at the head; line {} does not exist",
                anchor.path, anchor.start_line
            ),
        }])
    } else if file.complete && beyond(anchor.end_line) {
        Err(vec![Invalid {
            field: "anchor.end_line",
            reason: format!(
                "{} has {lines} lines at the head; line {} does not exist",
                anchor.path, anchor.end_line
            ),
        }])
    } else {
        Ok(real)
    }
}

/// Side LEFT: only the old lines the diff shows are known, and a finding about removed code
/// points at those.
fn left_problems(anchor: &Anchor, diff: &Diff) -> Vec<Invalid> {
    let files: Vec<_> = diff
        .files
        .iter()
        .filter(|f| f.path == *anchor.path || f.old_path.as_deref() == Some(anchor.path.as_str()))
        .collect();
    if files.is_empty() {
        return vec![Invalid {
            field: "anchor.path",
            reason: format!(
                "`{}` is not a file of the change; side LEFT names removed lines of a changed \
                 file",
                anchor.path
            ),
        }];
    }
    let shown = |line: u32| files.iter().any(|f| f.hunk_at(Side::Left, line).is_some());
    for (field, line) in [
        ("anchor.start_line", anchor.start_line),
        ("anchor.end_line", anchor.end_line),
    ] {
        if !shown(line) {
            return vec![Invalid {
                field,
                reason: format!(
                    "side LEFT numbers the old lines the diff shows; line {line} of {} is not \
                     one of them (use side RIGHT and the new file's numbers for other lines)",
                    anchor.path
                ),
            }];
        }
    }
    Vec::new()
}
