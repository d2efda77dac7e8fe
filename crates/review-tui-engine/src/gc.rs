//! `review-tui gc`: keeps the data directory's caches from growing without bound.
//!
//! What may go is only what a later open makes again: the symbol indexes and cohort reports of
//! heads a space has moved past, the diffs of ranges no space shows any more, the mirrors' refs
//! and worktree registrations of spaces that were deleted, tag stores of other program
//! versions, the oldest entries of a tag store over the size bound (`[cache] max_tag_store`),
//! and — for a space left alone longer than the age bound — its worktree checkout and caches. A
//! space's `state.json` (decisions, rounds, publish records) and journal are never touched, and
//! neither are git's objects (`git gc` in a mirror reclaims what dropped refs held).
//!
//! Safe beside reviews: every mirror's lock is taken first and held to the end (a review
//! fetching into it waits), then every space's lock is tried; a space in use is skipped and
//! named. A worktree is renamed aside before it is deleted, so an interrupted removal never
//! leaves a half-deleted checkout that a review would read as the head.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use thiserror::Error;

use crate::space::layout::mirror_dir;
use crate::space::lock::{LockError, LockFile};
use crate::space::state::SpaceState;
use crate::space::store::state_path;

/// How long a space may sit unopened before its worktree and caches go, unless `[cache]
/// max_age` or `--max-age` says otherwise.
pub const DEFAULT_MAX_AGE: Duration = Duration::from_secs(30 * 24 * 60 * 60);

/// What a worktree is renamed to before it is deleted; a leftover one is removed next time.
const REMOVING: &str = "worktree.gc-removing";

#[derive(Debug, Error)]
pub enum GcError {
    #[error("reading {path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
}

#[derive(Debug, Clone, Copy)]
pub struct GcOptions {
    /// A space whose state was last written longer ago than this loses its worktree and caches.
    pub max_age: Duration,
    /// A mirror's tag store whose segments together exceed this many bytes keeps only its
    /// newest entries that fit; `None`: only its own bound applies (compaction past 8 segments).
    pub max_tag_store: Option<u64>,
    /// List what would go, remove nothing.
    pub dry_run: bool,
    pub now: SystemTime,
}

/// The kinds of things gc removes and measures.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Kind {
    Worktree,
    SpaceCache,
    DiffCache,
    TagStore,
    MirrorRef,
    WorktreeRegistration,
}

impl Kind {
    pub fn label(self) -> &'static str {
        match self {
            Kind::Worktree => "worktrees",
            Kind::SpaceCache => "symbol indexes and cohort reports",
            Kind::DiffCache => "diff caches",
            Kind::TagStore => "symbol tag stores",
            Kind::MirrorRef => "mirror refs",
            Kind::WorktreeRegistration => "worktree registrations",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Target {
    Path(PathBuf),
    /// A ref under `refs/review-tui/` in a mirror.
    Ref {
        mirror: PathBuf,
        name: String,
    },
    /// A worktree registered in a mirror whose checkout is gone.
    Registration {
        mirror: PathBuf,
        name: String,
    },
    /// The oldest entries of the tag store `store` in `mirror`, over `max_bytes`.
    OldestTags {
        mirror: PathBuf,
        store: PathBuf,
        max_bytes: u64,
    },
}

#[derive(Debug, Clone)]
pub struct Removal {
    pub kind: Kind,
    pub target: Target,
    pub bytes: u64,
    pub why: String,
}

#[derive(Debug, Default)]
pub struct GcReport {
    /// Removed, or with `dry_run` what would be.
    pub removals: Vec<Removal>,
    /// Bytes kept per kind after the removals (worktrees, caches, tag stores) and git objects.
    pub kept: Vec<(&'static str, u64)>,
    /// Spaces and mirrors left alone, and why.
    pub skipped: Vec<String>,
    /// Removals that failed (the rest went on).
    pub failed: Vec<String>,
}

impl GcReport {
    pub fn removed_bytes(&self) -> u64 {
        self.removals.iter().map(|r| r.bytes).sum()
    }
}

/// A space found under `spaces/`.
struct SeenSpace {
    dir: PathBuf,
    /// `None` when state.json is missing or unreadable: its refs cannot be told apart.
    state: Option<SpaceState>,
    /// Held when the space was free: only then is anything in it removed.
    lock: Option<LockFile>,
    idle: bool,
}

/// Collects (or, with `dry_run`, lists) what can go under the data root `root`.
pub fn gc(root: &Path, options: &GcOptions) -> Result<GcReport, GcError> {
    let mut report = GcReport::default();
    // Mirrors first, and held to the end: a review that starts now waits for its fetch, so
    // no space gets refs after its liveness was decided.
    let mut mirrors = Vec::new();
    for dir in find(&root.join("mirrors"), 4, &|p| {
        p.extension().is_some_and(|e| e == "git") && p.join("objects").is_dir()
    })? {
        match LockFile::try_acquire(&dir.join("review-tui.lock")) {
            Ok(lock) => mirrors.push((dir, lock)),
            Err(e) => report.skipped.push(skip_reason(&e, &dir)),
        }
    }
    let mut spaces = Vec::new();
    for dir in find(&root.join("spaces"), 6, &|p| state_path(p).is_file())? {
        spaces.push(see_space(dir, options, &mut report));
    }
    let all_known = spaces.iter().all(|s| s.state.is_some());

    let mut removed_worktrees = BTreeSet::new();
    for space in spaces.iter().filter(|s| s.lock.is_some()) {
        plan_space(space, &mut report.removals, &mut removed_worktrees);
    }
    for (mirror, _lock) in &mirrors {
        plan_mirror(
            root,
            mirror,
            options,
            &spaces,
            all_known,
            &removed_worktrees,
            &mut report,
        );
    }
    if !options.dry_run {
        apply(&mut report);
    }
    report.kept = measure(&spaces, &mirrors, &report.removals, options.dry_run);
    drop(spaces);
    drop(mirrors);
    Ok(report)
}

fn skip_reason(error: &LockError, dir: &Path) -> String {
    match error {
        LockError::Held { .. } => format!("{error}: left alone"),
        LockError::Io { .. } => format!("{}: {error}: left alone", dir.display()),
    }
}

fn see_space(dir: PathBuf, options: &GcOptions, report: &mut GcReport) -> SeenSpace {
    let lock = match LockFile::try_acquire(&dir.join("lock")) {
        Ok(lock) => Some(lock),
        Err(e) => {
            report.skipped.push(skip_reason(&e, &dir));
            None
        }
    };
    // Read only: a damaged state is the next open's to set aside, never gc's.
    let path = state_path(&dir);
    let state = std::fs::read(&path)
        .ok()
        .and_then(|bytes| serde_json::from_slice::<SpaceState>(&bytes).ok());
    if state.is_none() {
        report.skipped.push(format!(
            "{}: state.json could not be read: left alone, and no mirror ref is removed",
            dir.display()
        ));
    }
    let idle = std::fs::metadata(&path)
        .and_then(|m| m.modified())
        .ok()
        .and_then(|at| options.now.duration_since(at).ok())
        .is_some_and(|age| age > options.max_age);
    let lock = lock.filter(|_| state.is_some());
    SeenSpace {
        dir,
        state,
        lock,
        idle,
    }
}

fn plan_space(
    space: &SeenSpace,
    out: &mut Vec<Removal>,
    removed_worktrees: &mut BTreeSet<PathBuf>,
) {
    let Some(state) = &space.state else {
        return;
    };
    let leftover = space.dir.join(REMOVING);
    if leftover.exists() {
        out.push(Removal {
            kind: Kind::Worktree,
            bytes: size_of(&leftover),
            target: Target::Path(leftover),
            why: "a worktree an interrupted gc was removing".into(),
        });
    }
    let worktree = space.dir.join("worktree");
    if space.idle && worktree.exists() {
        removed_worktrees.insert(worktree.clone());
        out.push(Removal {
            kind: Kind::Worktree,
            bytes: size_of(&worktree),
            target: Target::Path(worktree),
            why: "the space was not opened within the age bound; the next open checks it out again"
                .into(),
        });
    }
    let cache = crate::cohort::cache_dir_in(&space.dir);
    let head = crate::space::fsutil::name_part(&state.head_sha);
    for file in entries(&cache) {
        let name = file_name(&file);
        let why = if space.idle {
            "the space was not opened within the age bound"
        } else if head.is_empty() || !name.contains(&head) {
            "of a head the space has moved past"
        } else {
            continue;
        };
        out.push(Removal {
            kind: Kind::SpaceCache,
            bytes: size_of(&file),
            target: Target::Path(file),
            why: why.into(),
        });
    }
}

fn plan_mirror(
    root: &Path,
    mirror: &Path,
    options: &GcOptions,
    spaces: &[SeenSpace],
    all_known: bool,
    removed_worktrees: &BTreeSet<PathBuf>,
    report: &mut GcReport,
) {
    let same = |a: &Path, b: &Path| a == b || a.canonicalize().ok() == b.canonicalize().ok();
    let users: Vec<(&SeenSpace, &SpaceState)> = spaces
        .iter()
        .filter_map(|s| Some((s, s.state.as_ref()?)))
        .filter(|(_, state)| same(&mirror_dir(root, &state.pr.key), mirror))
        .collect();
    let repo = match git2::Repository::open_bare(mirror) {
        Ok(repo) => repo,
        Err(e) => {
            report.skipped.push(format!(
                "{}: not readable as a mirror ({e})",
                mirror.display()
            ));
            return;
        }
    };

    if all_known {
        let mut live: Vec<String> = Vec::new();
        for (_, state) in &users {
            live.push(format!("{}/", state.pr.key.ref_prefix()));
            live.push(format!("refs/review-tui/worktree/{}", state.pr.key.id()));
        }
        let names: Vec<String> = repo
            .references_glob("refs/review-tui/*")
            .map(|mut refs| refs.names().flatten().map(str::to_string).collect())
            .unwrap_or_default();
        for name in names {
            let kept = live
                .iter()
                .any(|l| name.starts_with(l.as_str()) && (l.ends_with('/') || name == *l));
            if !kept {
                report.removals.push(Removal {
                    kind: Kind::MirrorRef,
                    bytes: 0,
                    target: Target::Ref {
                        mirror: mirror.to_path_buf(),
                        name,
                    },
                    why: "no review space uses it any more".into(),
                });
            }
        }
    }

    if let Ok(names) = repo.worktrees() {
        for name in names.iter().flatten().flatten() {
            let Ok(worktree) = repo.find_worktree(name) else {
                continue;
            };
            let path = worktree.path().to_path_buf();
            if !path.exists() || removed_worktrees.contains(&path) {
                report.removals.push(Removal {
                    kind: Kind::WorktreeRegistration,
                    bytes: 0,
                    target: Target::Registration {
                        mirror: mirror.to_path_buf(),
                        name: name.to_string(),
                    },
                    why: format!("its checkout {} is gone", path.display()),
                });
            }
        }
    }

    // A diff is kept while a space that is not idle shows that range.
    let shown: BTreeSet<String> = users
        .iter()
        .filter(|(space, _)| !space.idle || space.lock.is_none())
        .map(|(_, s)| crate::session::prepare::diff_cache_name(&s.base_sha, &s.head_sha))
        .collect();
    let diffs = mirror.join(crate::session::prepare::DIFF_CACHE);
    for file in entries(&diffs) {
        if all_known && !shown.contains(&file_name(&file)) {
            report.removals.push(Removal {
                kind: Kind::DiffCache,
                bytes: size_of(&file),
                target: Target::Path(file),
                why: "no open review space shows this range".into(),
            });
        }
    }

    let (_, stale) = crate::cohort::tag_store_versions(mirror);
    for dir in stale {
        report.removals.push(Removal {
            kind: Kind::TagStore,
            bytes: size_of(&dir),
            target: Target::Path(dir),
            why: "tags of another version of review-tui".into(),
        });
    }
    if let Some(max_bytes) = options.max_tag_store {
        plan_tag_trim(mirror, max_bytes, report);
    }
}

/// This version's tag store, when its segments exceed `max_bytes`: its oldest entries go (the
/// plan is a dry trim; [`apply`] trims for real under the same mirror lock).
fn plan_tag_trim(mirror: &Path, max_bytes: u64, report: &mut GcReport) {
    match crate::cohort::trim_tag_store(mirror, max_bytes, true) {
        Ok(None) => {}
        Ok(Some(trim)) => report.removals.push(Removal {
            kind: Kind::TagStore,
            bytes: trim.before.saturating_sub(trim.after),
            target: Target::OldestTags {
                mirror: mirror.to_path_buf(),
                store: trim.dir,
                max_bytes,
            },
            why: format!(
                "{} of {} entries: its {} segment(s), {}, exceed the tag store bound of {}; \
                 the newest {} stay, in one segment of {}",
                trim.entries - trim.kept,
                trim.entries,
                trim.segments,
                human_bytes(trim.before),
                human_bytes(max_bytes),
                trim.kept,
                human_bytes(trim.after)
            ),
        }),
        Err(e) => report.skipped.push(format!(
            "{}: the tag store could not be read ({e}): left as it is",
            crate::cohort::tag_store_versions(mirror).0.display()
        )),
    }
}

fn apply(report: &mut GcReport) {
    let mut failed = Vec::new();
    report.removals.retain_mut(|removal| {
        let result = match &removal.target {
            // Trimmed again now (the store may have grown since the plan): what was freed.
            Target::OldestTags {
                mirror, max_bytes, ..
            } => crate::cohort::trim_tag_store(mirror, *max_bytes, false).map(|trim| {
                removal.bytes = trim.map_or(0, |t| t.before.saturating_sub(t.after));
            }),
            Target::Path(path) if removal.kind == Kind::Worktree => remove_worktree(path),
            Target::Path(path) if path.is_dir() => std::fs::remove_dir_all(path),
            Target::Path(path) => std::fs::remove_file(path),
            Target::Ref { mirror, name } => git2::Repository::open_bare(mirror)
                .and_then(|repo| repo.find_reference(name)?.delete())
                .map_err(std::io::Error::other),
            Target::Registration { mirror, name } => git2::Repository::open_bare(mirror)
                .and_then(|repo| {
                    repo.find_worktree(name)?.prune(Some(
                        git2::WorktreePruneOptions::new()
                            .valid(true)
                            .working_tree(false),
                    ))
                })
                .map_err(std::io::Error::other),
        };
        match result {
            Ok(()) => true,
            Err(e) => {
                failed.push(format!("{}: {e}", describe(&removal.target)));
                false
            }
        }
    });
    report.failed = failed;
}

/// Renames the checkout aside first: gone at once for the next open, deleted after.
fn remove_worktree(path: &Path) -> std::io::Result<()> {
    let aside = match path.file_name() {
        Some(name) if name == REMOVING => path.to_path_buf(),
        _ => {
            let aside = path.with_file_name(REMOVING);
            if aside.exists() {
                std::fs::remove_dir_all(&aside)?;
            }
            std::fs::rename(path, &aside)?;
            aside
        }
    };
    std::fs::remove_dir_all(aside)
}

/// What stays, by kind, and the mirrors' git objects.
fn measure(
    spaces: &[SeenSpace],
    mirrors: &[(PathBuf, LockFile)],
    removals: &[Removal],
    dry_run: bool,
) -> Vec<(&'static str, u64)> {
    let gone = |kind: Kind| -> u64 {
        removals
            .iter()
            .filter(|r| r.kind == kind)
            .map(|r| r.bytes)
            .sum()
    };
    let total =
        |paths: &mut dyn Iterator<Item = PathBuf>| -> u64 { paths.map(|p| size_of(&p)).sum() };
    let worktrees = total(&mut spaces.iter().map(|s| s.dir.join("worktree")));
    let caches = total(&mut spaces.iter().map(|s| crate::cohort::cache_dir_in(&s.dir)));
    let diffs = total(
        &mut mirrors
            .iter()
            .map(|(m, _)| m.join(crate::session::prepare::DIFF_CACHE)),
    );
    let tags = total(
        &mut mirrors
            .iter()
            .map(|(m, _)| crate::cohort::tag_store_versions(m).0),
    );
    let objects = total(&mut mirrors.iter().map(|(m, _)| m.join("objects")));
    // Other versions' stores are not in `tags`; a dry run subtracts only the planned trims.
    let trimmed: u64 = removals
        .iter()
        .filter(|r| matches!(r.target, Target::OldestTags { .. }))
        .map(|r| r.bytes)
        .sum();
    // After a real run the sizes are measured as they are; a dry run subtracts the plan.
    let pick = |measured: u64, kind: Kind| {
        if dry_run {
            measured.saturating_sub(gone(kind))
        } else {
            measured
        }
    };
    vec![
        (Kind::Worktree.label(), pick(worktrees, Kind::Worktree)),
        (Kind::SpaceCache.label(), pick(caches, Kind::SpaceCache)),
        (Kind::DiffCache.label(), pick(diffs, Kind::DiffCache)),
        (
            Kind::TagStore.label(),
            if dry_run {
                tags.saturating_sub(trimmed)
            } else {
                tags
            },
        ),
        ("mirrors' git objects", objects),
    ]
}

pub fn describe(target: &Target) -> String {
    match target {
        Target::Path(path) => path.display().to_string(),
        Target::Ref { mirror, name } => format!("{name} in {}", mirror.display()),
        Target::Registration { mirror, name } => {
            format!("worktree {name} registered in {}", mirror.display())
        }
        Target::OldestTags { store, .. } => format!("the oldest entries of {}", store.display()),
    }
}

/// Directories under `dir` (at most `depth` levels down, symbolic links not followed) that
/// `is_match` accepts; a match is not searched further.
fn find(
    dir: &Path,
    depth: usize,
    is_match: &dyn Fn(&Path) -> bool,
) -> Result<Vec<PathBuf>, GcError> {
    let mut out = Vec::new();
    if !dir.is_dir() {
        return Ok(out);
    }
    let mut stack = vec![(dir.to_path_buf(), 0)];
    while let Some((at, level)) = stack.pop() {
        let read = std::fs::read_dir(&at).map_err(|source| GcError::Io {
            path: at.clone(),
            source,
        })?;
        for entry in read.flatten() {
            if !entry.file_type().is_ok_and(|t| t.is_dir()) {
                continue;
            }
            let path = entry.path();
            if is_match(&path) {
                out.push(path);
            } else if level + 1 < depth {
                stack.push((path, level + 1));
            }
        }
    }
    out.sort();
    Ok(out)
}

/// The files directly in `dir` (none when it does not exist).
fn entries(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|read| {
            read.flatten()
                .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
                .map(|e| e.path())
                .collect()
        })
        .unwrap_or_default();
    files.sort();
    files
}

fn file_name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// Bytes under `path` (a file or a directory; symbolic links count as themselves).
pub fn size_of(path: &Path) -> u64 {
    let Ok(meta) = std::fs::symlink_metadata(path) else {
        return 0;
    };
    if !meta.is_dir() {
        return meta.len();
    }
    std::fs::read_dir(path)
        .map(|read| read.flatten().map(|e| size_of(&e.path())).sum())
        .unwrap_or(0)
}

/// A size as people write it, the inverse of [`human_bytes`]: `40MB`, `512KB`, `1GB`, `1.5 GB`,
/// `2048` (bytes). `kB`/`MB`/`GB`/`TB` (any case, `B` optional) are powers of 1000, as gc prints
/// sizes; `KiB`/`MiB`/`GiB`/`TiB` powers of 1024. `None` for anything else.
pub fn parse_size(text: &str) -> Option<u64> {
    let text = text.trim();
    let split = text
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(text.len());
    let (number, unit) = text.split_at(split);
    let unit: u64 = match unit.trim().to_ascii_lowercase().as_str() {
        "" | "b" => 1,
        "k" | "kb" => 1_000,
        "m" | "mb" => 1_000_000,
        "g" | "gb" => 1_000_000_000,
        "t" | "tb" => 1_000_000_000_000,
        "ki" | "kib" => 1 << 10,
        "mi" | "mib" => 1 << 20,
        "gi" | "gib" => 1 << 30,
        "ti" | "tib" => 1 << 40,
        _ => return None,
    };
    if let Ok(whole) = number.parse::<u64>() {
        return whole.checked_mul(unit);
    }
    // A fraction (`1.5GB`): digits on both sides of one point.
    let (int, frac) = number.split_once('.')?;
    if int.is_empty() || frac.is_empty() || !frac.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let bytes = number.parse::<f64>().ok()? * unit as f64;
    (bytes.is_finite() && bytes < u64::MAX as f64).then(|| bytes.round() as u64)
}

/// `12.3 MB`, `640 kB`, `12 B`.
pub fn human_bytes(bytes: u64) -> String {
    const UNITS: [&str; 4] = ["kB", "MB", "GB", "TB"];
    if bytes < 1000 {
        return format!("{bytes} B");
    }
    let mut value = bytes as f64 / 1000.0;
    let mut unit = 0;
    while value >= 1000.0 && unit + 1 < UNITS.len() {
        value /= 1000.0;
        unit += 1;
    }
    format!("{value:.1} {}", UNITS[unit])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_read_as_people_say_them() {
        assert_eq!(human_bytes(12), "12 B");
        assert_eq!(human_bytes(640_000), "640.0 kB");
        assert_eq!(human_bytes(12_345_678), "12.3 MB");
    }

    #[test]
    fn sizes_are_read_as_people_write_them() {
        assert_eq!(parse_size("40MB"), Some(40_000_000));
        assert_eq!(parse_size("512KB"), Some(512_000));
        assert_eq!(parse_size("512kB"), Some(512_000));
        assert_eq!(parse_size("1GB"), Some(1_000_000_000));
        assert_eq!(parse_size(" 1.5 gb "), Some(1_500_000_000));
        assert_eq!(parse_size("64MiB"), Some(64 << 20));
        assert_eq!(parse_size("2048"), Some(2048));
        assert_eq!(parse_size("0"), Some(0));
        for bad in [
            "",
            "MB",
            "lots",
            "-1MB",
            "1.MB",
            ".5MB",
            "1.2.3MB",
            "40 MBs",
            "1e3",
            "99999999999TB",
        ] {
            assert_eq!(parse_size(bad), None, "{bad:?}");
        }
        // What gc prints reads back.
        assert_eq!(parse_size(&human_bytes(40_000_000)), Some(40_000_000));
    }

    #[test]
    fn an_empty_or_missing_data_directory_has_nothing_to_collect() {
        let dir = tempfile::tempdir().unwrap();
        let options = GcOptions {
            max_age: DEFAULT_MAX_AGE,
            max_tag_store: Some(0),
            dry_run: false,
            now: SystemTime::now(),
        };
        let report = gc(&dir.path().join("absent"), &options).unwrap();
        assert!(report.removals.is_empty() && report.skipped.is_empty());
    }
}
