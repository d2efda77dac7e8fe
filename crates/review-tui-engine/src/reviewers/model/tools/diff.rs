//! `get_diff`: one file's part of the pull request's diff, from memory (never the file system).

use crate::diff::Diff;
use crate::reviewers::model::context::diff_text::{file_header, hunk_text};

use super::Limits;
use super::error::{ToolError, shown};

/// How many changed paths an error lists before "and N more".
const LISTED_PATHS: usize = 50;

pub(super) fn get_diff(
    diff: Option<&Diff>,
    limits: &Limits,
    path: &str,
) -> Result<String, ToolError> {
    let diff = diff.ok_or(ToolError::NoDiff)?;
    // Any spelling of a changed file finds it (`./src/a.rs`, `src//a.rs`), as an anchor does.
    let wanted = crate::repo_path::RepoPath::parse(path).ok();
    let Some(file) = wanted.as_deref().and_then(|wanted| {
        diff.files
            .iter()
            .find(|f| f.path == wanted || f.old_path.as_deref() == Some(wanted))
    }) else {
        return Err(ToolError::NotInDiff {
            path: shown(path),
            changed: changed_paths(diff),
        });
    };
    let mut out = file_header(file);
    for (index, hunk) in file.hunks.iter().enumerate() {
        let text = hunk_text(hunk);
        if out.len() + text.len() > limits.output_bytes {
            out.push_str(&format!(
                "[truncated: output limit of {} bytes reached; {} of {} hunks shown; read the \
                 rest of the file with read_file from line {}]\n",
                limits.output_bytes,
                index,
                file.hunks.len(),
                hunk.new_start.max(1)
            ));
            break;
        }
        out.push_str(&text);
    }
    Ok(out)
}

fn changed_paths(diff: &Diff) -> String {
    let mut listed: Vec<&str> = diff
        .files
        .iter()
        .take(LISTED_PATHS)
        .map(|f| f.path.as_str())
        .collect();
    if listed.is_empty() {
        listed.push("(none)");
    }
    let mut out = listed.join(", ");
    if diff.files.len() > LISTED_PATHS {
        out.push_str(&format!(" and {} more", diff.files.len() - LISTED_PATHS));
    }
    out
}
