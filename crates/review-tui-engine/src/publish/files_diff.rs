//! The pull request's diff when GitHub will not send it whole: past 300 files or 20,000 lines
//! the diff media type answers 406, but the files API (`GET /pulls/N/files`, paginated, at most
//! 3,000 files) still lists each file with its `patch`, the same hunks with the same line
//! numbers. Anchors are checked against that. A file without a patch there (binary, or too
//! large for GitHub to show) has no lines to comment on, so its findings go into the body, as
//! do findings in files past the listing's end.
//!
//! Each patch is parsed on its own under a neutral header and then given the API's path: a
//! file name is never pasted into diff text, where a newline in it could forge a header.

use crate::diff::{Diff, DiffError, FileDiff, FileStatus};
use crate::pr::forge::{self, ChangedFile};

/// How many files the files API lists at most.
pub(super) const MAX_LISTED_FILES: usize = 3_000;

/// The diff the files API describes; also how many files came without a patch.
pub(super) fn diff_from_files(files: &[ChangedFile]) -> Result<(Diff, usize), DiffError> {
    let mut diff = Diff::default();
    let mut without_patch = 0;
    for file in files {
        let Some(patch) = file.patch.as_deref().filter(|p| !p.trim().is_empty()) else {
            without_patch += 1;
            continue;
        };
        let text = format!("--- a/file\n+++ b/file\n{}\n", patch.trim_end_matches('\n'));
        let parsed = crate::diff::parse(&text)?;
        for mut parsed_file in parsed.files {
            name(&mut parsed_file, file);
            diff.files.push(parsed_file);
        }
    }
    Ok((diff, without_patch))
}

/// The API's path, previous path and status on a parsed patch.
fn name(parsed: &mut FileDiff, file: &ChangedFile) {
    parsed.path = file.path.clone();
    parsed.old_path = file.previous_path.clone();
    parsed.status = match file.status {
        forge::FileStatus::Added => FileStatus::Added,
        forge::FileStatus::Removed => FileStatus::Deleted,
        forge::FileStatus::Renamed => FileStatus::Renamed,
        forge::FileStatus::Copied => FileStatus::Copied,
        forge::FileStatus::Modified | forge::FileStatus::Changed | forge::FileStatus::Unchanged => {
            FileStatus::Modified
        }
    };
    parsed.language = crate::diff::Language::from_path(&file.path);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diff::Side;

    fn file(path: &str, patch: Option<&str>) -> ChangedFile {
        ChangedFile {
            path: path.into(),
            previous_path: None,
            status: forge::FileStatus::Modified,
            additions: 1,
            deletions: 1,
            patch: patch.map(str::to_string),
        }
    }

    #[test]
    fn patches_become_files_under_the_apis_names_and_files_without_one_are_counted() {
        let hostile = "src/a.rs\n+++ b/evil.rs\n@@ -1 +1 @@";
        let files = [
            file(hostile, Some("@@ -1,2 +1,3 @@\n a\n+b\n c")),
            file("img.png", None),
            file("src/c.rs", Some("@@ -10,2 +10,2 @@\n x\n-y\n+z\n")),
        ];
        let (diff, without) = diff_from_files(&files).unwrap();
        assert_eq!(without, 1);
        assert_eq!(diff.files.len(), 2);
        assert_eq!(diff.files[0].path, hostile);
        assert!(diff.anchor_in_diff(hostile, Side::Right, 2));
        assert!(!diff.anchor_in_diff("evil.rs", Side::Right, 1));
        assert!(diff.anchor_in_diff("src/c.rs", Side::Right, 11));
        assert!(diff.anchor_in_diff("src/c.rs", Side::Left, 11));
        assert!(!diff.anchor_in_diff("img.png", Side::Right, 1));
    }
}
