//! The finished cohort report of one head and base, kept in the space's cache.
//!
//! A later round at the same head (a re-run, `--force`, the cockpit reopening a space) would
//! otherwise parse every changed file twice more, at head and at base, to reach the same
//! answer: the report is a function of the two commits, the diff between them and this
//! program's build (its version, and its executable's size and time: a rebuild of one version
//! may decide otherwise). All four are checked before a cached report is used; anything else
//! is a miss and a fresh build.

use std::io;
use std::path::Path;
use std::sync::OnceLock;
use std::time::UNIX_EPOCH;

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::commit_id::CommitId;
use crate::diff::Diff;

use super::build_with;
use crate::api::releases;
use crate::cohort::cache_file::{read_json, write_json};
use crate::cohort::report_files::report_file_name;
use crate::cohort::{CohortError, CohortInput, CohortReport, EarlyIndex};

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
    /// The `[api_contract]` declarations the axis was computed with (empty: none).
    #[serde(default)]
    advisory: String,
    /// What the PR's own text declared (a break, its target branch; empty: nothing): it
    /// may be edited while the head stays.
    #[serde(default)]
    declared: String,
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
        advisory: advisory_fingerprint(input.api_advisory),
        declared: crate::api::declared::declared(input.pr, &[]).fingerprint(),
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
    advisory: String,
    declared: String,
}

/// The declarations as the reports say them: a report computed without any keeps matching
/// reports cached before declarations existed.
fn advisory_fingerprint(advisories: &[crate::config::Advisory]) -> String {
    advisories
        .iter()
        .map(|a| format!("{} by {}\n", a.describe(), a.declared_by.who()))
        .collect()
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
                line_fingerprint(&mut hash, line);
            }
        }
    }
    hex(&hash.finalize())
}

/// Hashes what `format!("{:?}{:?}{:?}", kind, old_line, new_line)` writes (`AddedNoneSome(7)`),
/// without formatting: once per line of the diff, it was 25 ms of a 145k-line range before
/// the cohort build could start.
fn line_fingerprint(hash: &mut Sha256, line: &crate::diff::Line) {
    use crate::diff::LineKind;
    hash.update(match line.kind {
        LineKind::Context => b"Context".as_slice(),
        LineKind::Added => b"Added",
        LineKind::Removed => b"Removed",
    });
    for number in [line.old_line, line.new_line] {
        match number {
            None => hash.update(b"None"),
            Some(n) => {
                hash.update(b"Some(");
                hash.update(decimal(n, &mut [0; 10]));
                hash.update(b")");
            }
        }
    }
}

/// `n` in decimal digits, written at the end of `digits`.
fn decimal(mut n: u32, digits: &mut [u8; 10]) -> &[u8] {
    let mut at = digits.len();
    loop {
        at -= 1;
        digits[at] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            return &digits[at..];
        }
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The program a report was made by: its version and, where it can be read, its executable's
/// size and modification time. A rebuild keeps the version but may decide otherwise (a
/// development build, `cargo install --git` of a later commit), so its reports are stale too.
fn program() -> &'static str {
    static PROGRAM: OnceLock<String> = OnceLock::new();
    PROGRAM.get_or_init(|| {
        let version = env!("CARGO_PKG_VERSION");
        let build = std::env::current_exe()
            .and_then(std::fs::metadata)
            .ok()
            .and_then(|m| {
                let modified = m.modified().ok()?.duration_since(UNIX_EPOCH).ok()?;
                Some(format!("{}+{}", m.len(), modified.as_nanos()))
            });
        match build {
            Some(build) => format!("{version} ({build})"),
            None => version.to_string(),
        }
    })
}

fn read(path: &Path, key: &Key) -> io::Result<Option<CohortReport>> {
    let cached: Option<Cached> = read_json(path)?;
    // Another format, program or diff is stale, not damaged: rebuild it quietly.
    let fresh = |cached: &Cached| {
        cached.format == FORMAT
            && cached.version == program()
            && cached.head_sha == key.head_sha
            && cached.base == key.base
            && cached.diff == key.diff
            && cached.releases == key.releases
            && cached.advisory == key.advisory
            && cached.declared == key.declared
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
        version: program().to_string(),
        head_sha: key.head_sha.clone(),
        base: key.base.clone(),
        diff: key.diff.clone(),
        releases: key.releases.clone(),
        advisory: key.advisory.clone(),
        declared: key.declared.clone(),
        report: report.clone(),
    };
    write_json(path, &cached)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// What `diff_fingerprint` hashed for each line before: the oracle of the one that does
    /// not format (cached reports stay valid across the change).
    fn formatted(line: &crate::diff::Line) -> Vec<u8> {
        format!("{:?}{:?}{:?}", line.kind, line.old_line, line.new_line).into_bytes()
    }

    fn hashed(bytes: impl FnOnce(&mut Sha256)) -> [u8; 32] {
        let mut hash = Sha256::new();
        bytes(&mut hash);
        hash.finalize().into()
    }

    proptest! {
        #[test]
        fn a_line_hashes_as_its_formatted_numbers(
            kind in 0u8..3,
            old in proptest::option::of(any::<u32>()),
            new in proptest::option::of(prop_oneof![Just(0u32), Just(9), Just(10), Just(u32::MAX), any::<u32>()]),
        ) {
            use crate::diff::{Line, LineEnding, LineKind};
            let line = Line {
                kind: [LineKind::Context, LineKind::Added, LineKind::Removed][kind as usize],
                old_line: old,
                new_line: new,
                text: String::new(),
                ending: LineEnding::Lf,
            };
            prop_assert_eq!(
                hashed(|hash| line_fingerprint(hash, &line)),
                hashed(|hash| hash.update(formatted(&line)))
            );
        }
    }
}
