//! Walking the worktree for `list_files` and `search_text`: regular files only, `.git` skipped,
//! directory links never entered, file links kept only when they resolve inside the worktree.
//!
//! A glob is matched against each name as the model may see it: redacted. A name can hold a
//! secret (`config/ghp_….json`), which every answer shows cut to its redaction; a glob matched
//! against the raw name would still answer "is there a file matching `ghp_a*`?" one character
//! at a time.

use std::path::Path;

use super::Redact;
use super::confine;
use super::glob::Glob;

/// What a walk found, and what it left out and why.
#[derive(Debug, Default)]
pub(super) struct Walk {
    /// Worktree-relative `/`-separated paths, sorted, each a regular file (or a link to one
    /// inside the worktree).
    pub files: Vec<String>,
    /// Links whose target is outside the worktree, a loop, dangling or not a regular file.
    pub skipped_links: usize,
    /// Names that are not UTF-8 cannot be given back to `read_file`.
    pub skipped_names: usize,
    /// The walk stopped after visiting this many entries.
    pub stopped_at: Option<usize>,
}

/// Visits at most `max_entries` directory entries under `root` (canonical), keeping the files
/// whose name, as `redact` shows it, `glob` matches.
pub(super) fn walk(root: &Path, glob: &Glob, max_entries: usize, redact: Option<&Redact>) -> Walk {
    let matches = |relative: &str| match redact {
        Some(redact) => glob.matches(&redact(relative)),
        None => glob.matches(relative),
    };
    let mut walk = Walk::default();
    let mut visited = 0usize;
    // Depth-first with sorted entries, so results are stable between calls.
    let mut pending: Vec<String> = vec![String::new()];
    while let Some(dir) = pending.pop() {
        let Ok(entries) = std::fs::read_dir(root.join(&dir)) else {
            continue;
        };
        let mut entries: Vec<_> = entries.filter_map(Result::ok).collect();
        entries.sort_by_key(|e| e.file_name());
        let mut subdirs = Vec::new();
        for entry in entries {
            visited += 1;
            if visited > max_entries {
                walk.stopped_at = Some(max_entries);
                walk.files.sort();
                return walk;
            }
            let Some(name) = entry.file_name().to_str().map(str::to_string) else {
                walk.skipped_names += 1;
                continue;
            };
            if name.eq_ignore_ascii_case(".git") {
                continue;
            }
            let relative = if dir.is_empty() {
                name
            } else {
                format!("{dir}/{name}")
            };
            // `DirEntry::file_type` does not follow links.
            let Ok(kind) = entry.file_type() else {
                continue;
            };
            if kind.is_dir() {
                subdirs.push(relative);
            } else if kind.is_file() {
                if matches(&relative) {
                    walk.files.push(relative);
                }
            } else if kind.is_symlink() && matches(&relative) {
                match confine::resolve(root, &relative) {
                    Ok(target) if target.metadata.is_file() => walk.files.push(relative),
                    // A link to a directory inside is not entered: its files are listed under
                    // their own path already, and not entering links rules out loops.
                    Ok(target) if target.metadata.is_dir() => {}
                    _ => walk.skipped_links += 1,
                }
            }
        }
        pending.extend(subdirs.into_iter().rev());
    }
    walk.files.sort();
    walk
}
