//! Symbol tags by blob: the content-addressed half of the symbol index.
//!
//! A file's tags depend only on its bytes and its grammar, and a new head shares almost every
//! blob with the heads reviewed before it. So the tags the index needs (definitions and the
//! names referenced) are kept per blob id, inside the repository's mirror, where every review
//! space of that repository finds them: a push of three files parses three files.
//!
//! Crash safety: a build appends one segment file, written whole or not at all (temp file +
//! rename); a segment that cannot be read is a miss, never an error. Bounded: past
//! [`MAX_SEGMENTS`] segments they are compacted into one, keeping the newest entries up to
//! [`max_entries`]; other versions' directories are removed; `review-tui gc` trims a store whose
//! segments exceed a size bound to its newest entries ([`trim_to_bytes`]). Versioned: the directory name
//! carries a hash of the tagging code, the grammars' queries and the program's version, so a
//! change to any of them starts afresh instead of reading tags computed another way.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::cache_file::{read_json, write_json};
use crate::parse::grammar::Grammar;
use crate::parse::tags::FileTags;

/// Bumped when the segment format changes.
const FORMAT: u32 = 1;

/// Where, inside a mirror, the store lives (one directory per version).
const STORE_DIR: &str = "review-tui-tags";

/// Segments beyond this are compacted into one on the next write.
pub(super) const MAX_SEGMENTS: usize = 8;

/// The most entries a compaction keeps: a generous multiple of the repository's indexable
/// files (several heads' worth of changed blobs), never below a floor that covers a large
/// repository's whole tree.
pub(super) fn max_entries(files_in_head: usize) -> usize {
    (files_in_head * 4).max(50_000)
}

/// What the symbol index needs of one file: its definitions and the names it references.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(super) struct IndexTags {
    /// (name, first row, kind).
    pub defs: Vec<(String, u32, String)>,
    /// Names referenced, each once.
    pub refs: Vec<String>,
}

impl IndexTags {
    pub(super) fn of(tags: &FileTags) -> IndexTags {
        let mut refs: Vec<String> = tags.references.iter().map(|r| r.name.clone()).collect();
        refs.sort_unstable();
        refs.dedup();
        IndexTags {
            defs: tags
                .definitions
                .iter()
                .map(|d| (d.name.clone(), d.first_row, d.kind.clone()))
                .collect(),
            refs,
        }
    }
}

/// One blob's tags; `tags: None` records a file that did not parse, so it is not parsed again.
#[derive(Debug, Clone, Serialize, Deserialize)]
struct Entry {
    grammar: Grammar,
    blob: String,
    tags: Option<IndexTags>,
}

type Key = (Grammar, git2::Oid);

/// The tags of the blobs seen before, and those parsed since the store was opened.
#[derive(Debug, Default)]
pub(super) struct BlobTags {
    dir: Option<PathBuf>,
    known: HashMap<Key, Option<IndexTags>>,
    /// Keys in the order their segments were written (oldest first), for eviction.
    order: Vec<Key>,
    segments: Vec<PathBuf>,
    fresh: Vec<Entry>,
}

impl BlobTags {
    /// The store of the mirror at `git_dir`, with every readable segment loaded.
    pub(super) fn open(git_dir: &Path) -> BlobTags {
        let dir = store_dir(git_dir).join(version());
        let mut store = BlobTags {
            dir: Some(dir.clone()),
            ..BlobTags::default()
        };
        let Ok(segments) = segments_in(&dir) else {
            return store;
        };
        store.load(segments);
        store
    }

    /// Reads `segments` (oldest first) into the store; an unreadable one is skipped.
    fn load(&mut self, segments: Vec<PathBuf>) {
        for path in segments {
            // A segment another process is compacting away, or one damaged on disk, is a
            // miss: its blobs are parsed again.
            let Ok(Some(entries)) = read_json::<Vec<Entry>>(&path) else {
                continue;
            };
            for entry in entries {
                if let Ok(oid) = git2::Oid::from_str(&entry.blob) {
                    let key = (entry.grammar, oid);
                    if self.known.insert(key, entry.tags).is_none() {
                        self.order.push(key);
                    }
                }
            }
            self.segments.push(path);
        }
    }

    /// The tags of `blob` as `grammar` reads it: `Some(None)` for a blob known not to parse,
    /// `None` when it was never seen.
    pub(super) fn get(&self, grammar: Grammar, blob: git2::Oid) -> Option<Option<&IndexTags>> {
        self.known.get(&(grammar, blob)).map(Option::as_ref)
    }

    /// Records a blob parsed now (`None`: it did not parse).
    pub(super) fn insert(&mut self, grammar: Grammar, blob: git2::Oid, tags: Option<IndexTags>) {
        let key = (grammar, blob);
        if self.known.contains_key(&key) {
            return;
        }
        self.known.insert(key, tags.clone());
        self.order.push(key);
        self.fresh.push(Entry {
            grammar,
            blob: blob.to_string(),
            tags,
        });
    }

    /// How many blobs were parsed since the store was opened.
    #[cfg(test)]
    pub(super) fn parsed(&self) -> usize {
        self.fresh.len()
    }

    /// Writes what was parsed as a new segment, compacting when there are too many (keeping
    /// at most `keep` entries, see [`max_entries`]). A store that cannot be written only costs
    /// the next build a parse: the error is returned for a note, never fails the review.
    pub(super) fn save(self, keep: usize) -> std::io::Result<()> {
        let Some(dir) = self.dir.clone() else {
            return Ok(());
        };
        if self.fresh.is_empty() {
            return Ok(());
        }
        remove_other_versions(&dir);
        if self.segments.len() < MAX_SEGMENTS {
            return write_json(&dir.join(segment_name()), &self.fresh);
        }
        // Compact: the newest entries first, up to the bound, into one segment; then the
        // segments it replaces go. A reader that loses the race reads a miss.
        let mut entries: Vec<Entry> = self
            .order
            .iter()
            .rev()
            .take(keep)
            .filter_map(|key| {
                let tags = self.known.get(key)?.clone();
                Some(Entry {
                    grammar: key.0,
                    blob: key.1.to_string(),
                    tags,
                })
            })
            .collect();
        entries.reverse();
        write_json(&dir.join(segment_name()), &entries)?;
        for old in &self.segments {
            let _ = std::fs::remove_file(old);
        }
        Ok(())
    }
}

/// The segments in `dir`, oldest first: names start with the time of writing, so sorted, later
/// segments win.
fn segments_in(dir: &Path) -> std::io::Result<Vec<PathBuf>> {
    let mut segments: Vec<PathBuf> = std::fs::read_dir(dir)?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| is_segment(p))
        .collect();
    segments.sort();
    Ok(segments)
}

/// What [`trim_to_bytes`] did to a store over its size bound (or, in a dry run, would do).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Trimmed {
    /// This version's directory of the store.
    pub dir: PathBuf,
    /// Bytes of its segments before (unreadable ones included).
    pub before: u64,
    /// Bytes of the one segment that replaces them (0 when nothing fits).
    pub after: u64,
    /// Entries the readable segments held (each blob once).
    pub entries: usize,
    /// How many of them, the newest, are kept.
    pub kept: usize,
    /// Segment files replaced, unreadable ones included.
    pub segments: usize,
}

/// For `review-tui gc`: when the segments of this version's store in the mirror at `git_dir`
/// together exceed `max_bytes`, replaces them with one segment of the newest entries whose
/// serialized size fits (in write order, as `BlobTags::save`'s compaction keeps them); `None`
/// when the store is within the bound or absent. Same protocol as a compaction: the new segment
/// is written whole (temp file + rename), then the segments it replaces are removed, so a
/// reader in between reads every entry at worst twice. A segment that cannot be read holds no
/// entry anyone reads: it is replaced too. With `dry_run` nothing is written or removed; the
/// sizes are exact. The caller holds the mirror's lock.
pub fn trim_to_bytes(
    git_dir: &Path,
    max_bytes: u64,
    dry_run: bool,
) -> std::io::Result<Option<Trimmed>> {
    let dir = store_dir(git_dir).join(version());
    let listed = match segments_in(&dir) {
        Ok(listed) => listed,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e),
    };
    let before: u64 = listed
        .iter()
        .filter_map(|p| std::fs::metadata(p).ok())
        .map(|m| m.len())
        .sum();
    if before <= max_bytes {
        return Ok(None);
    }
    let mut store = BlobTags::default();
    store.load(listed.clone());
    // The newest first, while they fit: `[`, `]` and a comma between two entries, exactly as
    // `write_json` serializes the list.
    let mut size = 2u64;
    let mut kept: Vec<Entry> = Vec::new();
    for key in store.order.iter().rev() {
        let Some(tags) = store.known.get(key) else {
            continue;
        };
        let entry = Entry {
            grammar: key.0,
            blob: key.1.to_string(),
            tags: tags.clone(),
        };
        let len = serde_json::to_vec(&entry)
            .map_err(std::io::Error::other)?
            .len() as u64;
        let grown = size + len + u64::from(!kept.is_empty());
        if grown > max_bytes {
            break;
        }
        size = grown;
        kept.push(entry);
    }
    kept.reverse();
    let trimmed = Trimmed {
        dir: dir.clone(),
        before,
        after: if kept.is_empty() { 0 } else { size },
        entries: store.order.len(),
        kept: kept.len(),
        segments: listed.len(),
    };
    if dry_run {
        return Ok(Some(trimmed));
    }
    if !kept.is_empty() {
        write_json(&dir.join(segment_name()), &kept)?;
    }
    let mut failed = None;
    for old in &listed {
        match std::fs::remove_file(old) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                failed.get_or_insert(std::io::Error::new(
                    e.kind(),
                    format!("removing {}: {e}", old.display()),
                ));
            }
            _ => {}
        }
    }
    match failed {
        Some(e) => Err(e),
        None => Ok(Some(trimmed)),
    }
}

fn is_segment(path: &Path) -> bool {
    path.file_name()
        .and_then(|n| n.to_str())
        .is_some_and(|n| n.starts_with("seg-") && n.ends_with(".json"))
}

/// `seg-<nanoseconds since the epoch>-<pid>.json`: sortable by time, unique per process.
fn segment_name() -> String {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    format!("seg-{nanos:024}-{}.json", std::process::id())
}

/// Drops the directories of other versions: their tags were computed another way.
fn remove_other_versions(dir: &Path) {
    let (Some(parent), Some(ours)) = (dir.parent(), dir.file_name()) else {
        return;
    };
    let Ok(entries) = std::fs::read_dir(parent) else {
        return;
    };
    for entry in entries.flatten() {
        if entry.file_name() != ours && entry.path().is_dir() {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
}

/// A short hash of everything tags depend on: this format, the program's version, the
/// tagging code and every grammar's query and ABI.
pub(super) fn version() -> &'static str {
    static VERSION: OnceLock<String> = OnceLock::new();
    VERSION.get_or_init(|| {
        let mut hash = Sha256::new();
        hash.update(FORMAT.to_le_bytes());
        hash.update(env!("CARGO_PKG_VERSION"));
        hash.update(include_str!("../parse/tags.rs"));
        hash.update(include_str!("../parse/grammar.rs"));
        hash.update(tree_sitter::LANGUAGE_VERSION.to_le_bytes());
        for grammar in Grammar::ALL {
            hash.update(grammar.query_source());
            hash.update(grammar.language().abi_version().to_le_bytes());
        }
        let digest = hash.finalize();
        format!(
            "v{FORMAT}-{}",
            digest[..8]
                .iter()
                .map(|b| format!("{b:02x}"))
                .collect::<String>()
        )
    })
}

/// The store's directory in the mirror at `git_dir` (every version's directory is inside).
pub(super) fn store_dir(git_dir: &Path) -> PathBuf {
    git_dir.join(STORE_DIR)
}

/// For `review-tui gc`: the directory this program's tags live in inside the mirror at
/// `git_dir` (bounded by compaction, kept), and the directories of other versions, which no
/// build of this program reads again.
pub fn versions_in(git_dir: &Path) -> (PathBuf, Vec<PathBuf>) {
    let root = store_dir(git_dir);
    let ours = root.join(version());
    let others = std::fs::read_dir(&root)
        .map(|entries| {
            entries
                .flatten()
                .map(|e| e.path())
                .filter(|p| *p != ours && p.is_dir())
                .collect()
        })
        .unwrap_or_default();
    (ours, others)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn oid(n: u8) -> git2::Oid {
        git2::Oid::from_bytes(&[n; 20]).unwrap()
    }

    fn tags(name: &str) -> IndexTags {
        IndexTags {
            defs: vec![(name.into(), 1, "function".into())],
            refs: vec!["Other".into()],
        }
    }

    #[test]
    fn what_one_build_parsed_the_next_reads() {
        let dir = tempfile::tempdir().unwrap();
        let mut store = BlobTags::open(dir.path());
        assert!(store.get(Grammar::Rust, oid(1)).is_none());
        store.insert(Grammar::Rust, oid(1), Some(tags("a")));
        store.insert(Grammar::Rust, oid(2), None);
        assert_eq!(store.parsed(), 2);
        store.save(10).unwrap();

        let again = BlobTags::open(dir.path());
        assert_eq!(again.get(Grammar::Rust, oid(1)), Some(Some(&tags("a"))));
        assert_eq!(
            again.get(Grammar::Rust, oid(2)),
            Some(None),
            "unparsable is kept"
        );
        // The same bytes read as another grammar are another entry.
        assert!(again.get(Grammar::Python, oid(1)).is_none());
        assert_eq!(again.parsed(), 0);
    }

    #[test]
    fn a_damaged_segment_is_a_miss_not_an_error() {
        let dir = tempfile::tempdir().unwrap();
        let mut store = BlobTags::open(dir.path());
        store.insert(Grammar::Rust, oid(1), Some(tags("a")));
        store.save(10).unwrap();
        let versioned = store_dir(dir.path()).join(version());
        std::fs::write(versioned.join("seg-000-torn.json"), b"[{\"grammar\": \"ru").unwrap();
        let again = BlobTags::open(dir.path());
        assert_eq!(again.get(Grammar::Rust, oid(1)), Some(Some(&tags("a"))));
    }

    #[test]
    fn segments_are_compacted_and_the_oldest_entries_evicted() {
        let dir = tempfile::tempdir().unwrap();
        for n in 0..=MAX_SEGMENTS as u8 {
            let mut store = BlobTags::open(dir.path());
            store.insert(Grammar::Rust, oid(n), Some(tags(&format!("f{n}"))));
            store.save(100).unwrap();
        }
        let versioned = store_dir(dir.path()).join(version());
        let count = || std::fs::read_dir(&versioned).unwrap().count();
        assert_eq!(count(), 1, "the ninth write compacted the eight before it");
        let store = BlobTags::open(dir.path());
        for n in 0..=MAX_SEGMENTS as u8 {
            assert!(store.get(Grammar::Rust, oid(n)).is_some(), "{n}");
        }
    }

    #[test]
    fn compaction_keeps_the_newest_entries_up_to_the_bound() {
        let dir = tempfile::tempdir().unwrap();
        let bound = 20;
        let mut store = BlobTags::open(dir.path());
        // More blobs than the bound keeps, in one segment, then enough segments to compact.
        for n in 0..(bound as u32 + 10) {
            let mut bytes = [0u8; 20];
            bytes[..4].copy_from_slice(&n.to_le_bytes());
            store.insert(Grammar::Go, git2::Oid::from_bytes(&bytes).unwrap(), None);
        }
        store.save(bound).unwrap();
        for n in 0..MAX_SEGMENTS as u8 {
            let mut store = BlobTags::open(dir.path());
            store.insert(Grammar::Rust, oid(n + 1), None);
            store.save(bound).unwrap();
        }
        let store = BlobTags::open(dir.path());
        assert_eq!(store.known.len(), bound);
        // The first blobs written were the ones evicted; the last ones stay.
        let first = git2::Oid::from_bytes(&[0u8; 20]).unwrap();
        assert!(store.get(Grammar::Go, first).is_none());
        assert!(store.get(Grammar::Rust, oid(MAX_SEGMENTS as u8)).is_some());
    }

    #[test]
    fn other_versions_are_removed_on_write() {
        let dir = tempfile::tempdir().unwrap();
        let stale = store_dir(dir.path()).join("v0-old");
        std::fs::create_dir_all(&stale).unwrap();
        std::fs::write(stale.join("seg-1-1.json"), b"[]").unwrap();
        let mut store = BlobTags::open(dir.path());
        store.insert(Grammar::Rust, oid(1), None);
        store.save(1).unwrap();
        assert!(!stale.exists());
    }

    /// A store of `segments` segments of `per` entries each, blob ids 0, 1, 2… in write order.
    fn store_of(git_dir: &Path, segments: u32, per: u32) -> Vec<git2::Oid> {
        let mut written = Vec::new();
        for _ in 0..segments {
            let mut store = BlobTags::open(git_dir);
            for _ in 0..per {
                let mut bytes = [7u8; 20];
                bytes[..4].copy_from_slice(&(written.len() as u32).to_be_bytes());
                let blob = git2::Oid::from_bytes(&bytes).unwrap();
                store.insert(
                    Grammar::Rust,
                    blob,
                    Some(tags(&format!("f{}", written.len()))),
                );
                written.push(blob);
            }
            store.save(usize::MAX).unwrap();
        }
        written
    }

    fn segment_bytes(git_dir: &Path) -> (usize, u64) {
        let segments = segments_in(&store_dir(git_dir).join(version())).unwrap();
        let bytes = segments
            .iter()
            .map(|p| std::fs::metadata(p).unwrap().len())
            .sum();
        (segments.len(), bytes)
    }

    #[test]
    fn a_store_over_its_size_bound_keeps_its_newest_entries_in_one_segment() {
        let dir = tempfile::tempdir().unwrap();
        let written = store_of(dir.path(), 5, 40);
        let (count, before) = segment_bytes(dir.path());
        assert_eq!(count, 5);
        let bound = before / 3;

        let trimmed = trim_to_bytes(dir.path(), bound, false).unwrap().unwrap();
        let (count, after) = segment_bytes(dir.path());
        assert_eq!(count, 1, "one segment replaces the five");
        assert!(after <= bound, "{after} > {bound}");
        assert_eq!(
            trimmed.after, after,
            "the size reported is the size written"
        );
        assert_eq!(trimmed.before, before);
        assert_eq!((trimmed.entries, trimmed.segments), (200, 5));
        assert!(trimmed.kept > 0 && trimmed.kept < 200, "{trimmed:?}");

        // The newest entries are the ones kept, and the next build reads them; the oldest are
        // misses (parsed again).
        let store = BlobTags::open(dir.path());
        let (evicted, kept) = written.split_at(200 - trimmed.kept);
        for (n, blob) in kept.iter().enumerate() {
            let n = n + evicted.len();
            assert_eq!(
                store.get(Grammar::Rust, *blob),
                Some(Some(&tags(&format!("f{n}")))),
                "{n}"
            );
        }
        for blob in evicted {
            assert!(store.get(Grammar::Rust, *blob).is_none());
        }
        // Within the bound now: nothing more to do.
        assert_eq!(trim_to_bytes(dir.path(), bound, false).unwrap(), None);
    }

    #[test]
    fn a_dry_trim_changes_nothing_and_says_what_a_real_one_does() {
        let dir = tempfile::tempdir().unwrap();
        store_of(dir.path(), 3, 30);
        let versioned = store_dir(dir.path()).join(version());
        let listing = || {
            segments_in(&versioned)
                .unwrap()
                .into_iter()
                .map(|p| (p.clone(), std::fs::read(p).unwrap()))
                .collect::<Vec<_>>()
        };
        let files = listing();
        let (_, before) = segment_bytes(dir.path());
        let dry = trim_to_bytes(dir.path(), before / 2, true)
            .unwrap()
            .unwrap();
        assert_eq!(listing(), files, "a dry run writes and removes nothing");
        let real = trim_to_bytes(dir.path(), before / 2, false)
            .unwrap()
            .unwrap();
        assert_eq!(dry, real);
    }

    #[test]
    fn a_torn_segment_does_not_stop_a_trim_and_goes_with_the_rest() {
        let dir = tempfile::tempdir().unwrap();
        let written = store_of(dir.path(), 2, 20);
        let versioned = store_dir(dir.path()).join(version());
        std::fs::write(versioned.join("seg-000-torn.json"), vec![b'['; 4000]).unwrap();
        let (_, before) = segment_bytes(dir.path());
        let trimmed = trim_to_bytes(dir.path(), before - 4000, false)
            .unwrap()
            .unwrap();
        assert_eq!(trimmed.segments, 3);
        assert_eq!(
            trimmed.kept, 40,
            "without the torn segment every entry fits"
        );
        assert!(!versioned.join("seg-000-torn.json").exists());
        let store = BlobTags::open(dir.path());
        assert!(
            written
                .iter()
                .all(|b| store.get(Grammar::Rust, *b).is_some())
        );
    }

    #[test]
    fn a_bound_too_small_for_one_entry_empties_the_store_and_an_absent_one_is_nothing() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(trim_to_bytes(dir.path(), 0, false).unwrap(), None);
        let written = store_of(dir.path(), 1, 3);
        let trimmed = trim_to_bytes(dir.path(), 10, false).unwrap().unwrap();
        assert_eq!((trimmed.kept, trimmed.after), (0, 0));
        assert_eq!(segment_bytes(dir.path()), (0, 0));
        assert!(
            BlobTags::open(dir.path())
                .get(Grammar::Rust, written[2])
                .is_none()
        );
    }
}
