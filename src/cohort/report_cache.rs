//! The finished cohort report of one head and base, kept in the space's cache.
//!
//! A later round at the same head (a re-run, `--force`, the cockpit reopening a space) would
//! otherwise parse every changed file twice more, at head and at base, to reach the same
//! answer: the report is a function of the two commits, the diff between them and this
//! program's version. All four are checked before a cached report is used; anything else is
//! a miss and a fresh build.

use std::io;
use std::path::Path;

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::commit_id::CommitId;
use crate::diff::Diff;

use super::cache_file::{read_json, write_json};
use super::releases;
use super::report_files::report_file_name;
use super::{CohortError, CohortInput, CohortReport, EarlyIndex, build_with};

/// Bumped whenever what the report holds or how it is computed changes.
const FORMAT: u32 = 4;

#[derive(Serialize, Deserialize)]
struct Cached {
    format: u32,
    /// A new build of the program may group differently: its reports are not reused.
    version: String,
    head_sha: CommitId,
    base: CommitId,
    diff: String,
    /// The version tags the report was computed with (see [`releases::tags_fingerprint`]):
    /// a release tagged since may have shipped what the report called unreleased.
    #[serde(default)]
    releases: String,
    report: CohortReport,
}

/// [`build`], answered from the space's cache when this head, base and diff were grouped
/// before. Without a base commit or a cache directory there is nothing to key on, and this is
/// a plain build. A cache that cannot be read or written costs a rebuild and a note, never
/// the review.
pub fn build_cached(
    input: CohortInput<'_>,
    early: Option<EarlyIndex>,
) -> Result<CohortReport, CohortError> {
    let (Some((repo, base)), Some(dir)) = (input.base, input.cache_dir) else {
        return build_with(input, early);
    };
    let key = Key {
        head_sha: input.head_sha.clone(),
        base: CommitId::from(base),
        diff: diff_fingerprint(input.diff),
        releases: releases::tags_fingerprint(repo),
    };
    let path = dir.join(file_name(&key));
    let mut read_note = None;
    match read(&path, &key) {
        Ok(Some(report)) => return Ok(report),
        Ok(None) => {}
        Err(e) => {
            read_note = Some(format!(
                "cohort cache {} unreadable ({e}); rebuilt",
                path.display()
            ))
        }
    }
    let mut report = build_with(input, early)?;
    report.notes.extend(read_note);
    if let Err(e) = write(&path, &key, &report) {
        report
            .notes
            .push(format!("cohort cache {} not written: {e}", path.display()));
    }
    forget_other_heads(dir, &key.head_sha);
    Ok(report)
}

/// A space reviews one PR, and a push moves it to a new head for good: the reports of earlier
/// heads (and the symbol indexes earlier versions wrote, megabytes each on a large repository)
/// would only pile up. A file that cannot be removed stays; it is only
/// space.
fn forget_other_heads(dir: &Path, head_sha: &str) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(name) = name.to_str() else { continue };
        // Symbol indexes are no longer written here: any left by an earlier version goes.
        let index = name.starts_with("symbols-");
        let other_head = name.starts_with("cohorts-") && !name.contains(head_sha);
        if (index || other_head) && name.ends_with(".json") {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

struct Key {
    head_sha: CommitId,
    base: CommitId,
    diff: String,
    releases: String,
}

/// `cohorts-<head>-<base>.json`.
fn file_name(key: &Key) -> String {
    report_file_name(&key.head_sha, &key.base)
}

/// What of the diff decides the grouping: which files changed, how, and which lines. The
/// contents on either side are fixed by the two commits.
fn diff_fingerprint(diff: &Diff) -> String {
    let mut hash = Sha256::new();
    for file in &diff.files {
        hash.update(file.path.as_bytes());
        hash.update([0]);
        hash.update(file.old_path.as_deref().unwrap_or("").as_bytes());
        hash.update(
            format!(
                "\0{:?}\0{}\0{:?}\0{:?}\0{:?}\0",
                file.status, file.binary, file.language, file.old_id, file.new_id
            )
            .as_bytes(),
        );
        for hunk in &file.hunks {
            hash.update(
                format!(
                    "@{},{},{},{}\0",
                    hunk.old_start, hunk.old_count, hunk.new_start, hunk.new_count
                )
                .as_bytes(),
            );
            for line in &hunk.lines {
                hash.update(format!(
                    "{:?}{:?}{:?}",
                    line.kind, line.old_line, line.new_line
                ));
            }
        }
    }
    hex(&hash.finalize())
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn read(path: &Path, key: &Key) -> io::Result<Option<CohortReport>> {
    let cached: Option<Cached> = read_json(path)?;
    // Another format, program or diff is stale, not damaged: rebuild it quietly.
    let fresh = |cached: &Cached| {
        cached.format == FORMAT
            && cached.version == env!("CARGO_PKG_VERSION")
            && cached.head_sha == key.head_sha
            && cached.base == key.base
            && cached.diff == key.diff
            && cached.releases == key.releases
    };
    Ok(cached.filter(fresh).map(|cached| {
        let mut report = cached.report;
        report.index_stats.from_cache = true;
        report
    }))
}

fn write(path: &Path, key: &Key, report: &CohortReport) -> io::Result<()> {
    let cached = Cached {
        format: FORMAT,
        version: env!("CARGO_PKG_VERSION").to_string(),
        head_sha: key.head_sha.clone(),
        base: key.base.clone(),
        diff: key.diff.clone(),
        releases: key.releases.clone(),
        report: report.clone(),
    };
    write_json(path, &cached)
}
