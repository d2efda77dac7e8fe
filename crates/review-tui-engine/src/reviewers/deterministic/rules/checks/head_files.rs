//! The head worktree's files of one language, walked once per question within a budget: the
//! removed-test rule reads the tests the head still defines and the names its code still uses.

use std::path::Path;

use crate::diff::Language;

/// Reading every file of a huge repository is not worth one finding.
const MAX_FILES: usize = 20_000;
const MAX_BYTES: u64 = 256 * 1024 * 1024;

/// Calls `visit` with the path (relative to `root`) and text of each regular file of
/// `language` under `root` that `keep` accepts by its relative path, until the budget of files
/// and bytes runs out. Git's folder, build output and other packages' copies (`target`,
/// `node_modules`, `vendor`) are skipped; a file that is no UTF-8 text is passed over.
pub(super) fn each(
    root: &Path,
    language: Language,
    keep: impl Fn(&str) -> bool,
    mut visit: impl FnMut(&str, &str),
) {
    let mut budget = (MAX_FILES, MAX_BYTES);
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let Ok(kind) = entry.file_type() else {
                continue;
            };
            let path = entry.path();
            let name = entry.file_name();
            let name = name.to_string_lossy();
            if kind.is_dir() {
                if !matches!(name.as_ref(), ".git" | "target" | "node_modules" | "vendor") {
                    stack.push(path);
                }
                continue;
            }
            if !kind.is_file() || Language::from_path(&name) != language {
                continue;
            }
            let relative = path.strip_prefix(root).unwrap_or(&path).to_string_lossy();
            if !keep(&relative) {
                continue;
            }
            let size = entry.metadata().map_or(0, |m| m.len());
            if budget.0 == 0 || budget.1 < size {
                return;
            }
            budget = (budget.0 - 1, budget.1 - size);
            let Ok(text) = std::fs::read_to_string(&path) else {
                continue;
            };
            visit(&relative, &text);
        }
    }
}
