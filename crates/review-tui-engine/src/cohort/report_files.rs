//! The names of the finished cohort reports in a space's cache: written by the report cache,
//! looked for by the early index (which skips its work when a report of the head exists).
//! Its own module so that neither of those two needs the other.

use std::path::Path;

use crate::space::fsutil::name_part;

/// `cohorts-<head>-<base>.json`.
pub(crate) fn report_file_name(head_sha: &str, base: &str) -> String {
    format!("cohorts-{}-{}.json", name_part(head_sha), name_part(base))
}

/// Whether `dir` holds a finished report of `head_sha` (against any base).
pub(crate) fn has_report_of(dir: &Path, head_sha: &str) -> bool {
    let prefix = format!("cohorts-{}-", name_part(head_sha));
    std::fs::read_dir(dir).is_ok_and(|entries| {
        entries.flatten().any(|entry| {
            entry
                .file_name()
                .to_str()
                .is_some_and(|name| name.starts_with(&prefix) && name.ends_with(".json"))
        })
    })
}
