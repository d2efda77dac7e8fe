//! The base versions of the changed files, parsed while the diff and the checkout still run.
//!
//! The cohort build's first step parses the base version of every changed code file with
//! tree-sitter (tokio-1.0.0..1.40.0: 0.45 s of CPU). It starts only when the whole diff text,
//! git's rename detection and the checkout are done, with one core idle about half of that
//! time. Yet a base version needs only the merge base's blobs of the changed paths, which a
//! tree-to-tree diff without patches names as soon as the commits are in the mirror. This
//! thread parses them then.
//!
//! Trees are keyed by blob id and grammar, so a hand-over is exact by construction: the same
//! id is the same bytes, parsed from scratch by the same grammar, whatever path or commit the
//! cohort build reaches it by. A path this thread did not see (a rename git detects later, a
//! grammar chosen differently, a file skipped here) simply misses, and the cohort build
//! parses it itself.
//!
//! Each blob is parsed once: this thread and the cohort build's workers claim a blob before
//! parsing it, the workers from the first changed file on and this thread from the last, and a
//! worker never waits for this thread (a blob this thread is still parsing is parsed again by
//! the worker). Nothing here is required: a thread that cannot start, a merge base that cannot
//! be found, a blob that cannot be read are all misses.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

use git2::{Oid, Repository};
use tree_sitter::Tree;

use super::index::MAX_FILE_BYTES;
use crate::diff::MAX_CODE_LINE_BYTES;
use crate::parse::grammar::Grammar;
use crate::parse::tags::Tagger;

/// Base text held for the hand-over past this many bytes is not read: the trees of a huge
/// range would otherwise pile up before the cohort build takes them (tree-sitter's trees are
/// about ten times their text). Blobs past it are parsed by the cohort build as before.
const MOST_BYTES: usize = 32 * 1024 * 1024;

/// Trees parsed here and not yet taken, counted by their text's bytes, are held up to this
/// many: past it this thread waits for the cohort build to take some. A tree is about twenty
/// times its text (tokio-1.0.0..1.40.0's 2.5 MB of base versions held at once raised the peak
/// memory by 60 MB), and the workers take them only as they reach each file.
const MOST_HELD: usize = 1024 * 1024;

/// A blob's state: nobody has claimed it, a worker or this thread is parsing it, its tree is
/// ready (or the parse failed: then the slot is empty and the worker parses itself).
const FREE: u8 = 0;
const CLAIMED: u8 = 1;
const PARSED: u8 = 2;

/// One base blob to parse.
struct Slot {
    grammar: Grammar,
    text: Vec<u8>,
    state: AtomicU8,
    tree: Mutex<Option<Tree>>,
}

/// The blobs, in the changed paths' order, and where each blob id is.
struct Plan {
    slots: Vec<Slot>,
    at: HashMap<Oid, usize>,
}

struct Shared {
    /// Set once the blobs are read; until then every question is a miss.
    plan: OnceLock<Plan>,
    /// The cohort build is done with the trees (or will never come): parse no more.
    stop: AtomicBool,
    /// Trees handed over, for the tests that check the hand-over happens.
    taken: AtomicUsize,
    /// The text bytes of the trees parsed and not yet taken, and how many may be
    /// ([`MOST_HELD`]).
    held: AtomicUsize,
    most_held: usize,
}

/// The background parse of a range's base blobs; stops when dropped.
pub(crate) struct EarlyBases {
    shared: Arc<Shared>,
    #[cfg_attr(not(test), allow(dead_code))]
    job: Option<std::thread::JoinHandle<()>>,
}

impl Shared {
    fn new(most_held: usize) -> Shared {
        Shared {
            plan: OnceLock::new(),
            stop: AtomicBool::new(false),
            taken: AtomicUsize::new(0),
            held: AtomicUsize::new(0),
            most_held,
        }
    }
}

impl std::fmt::Debug for EarlyBases {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("EarlyBases").finish_non_exhaustive()
    }
}

impl Drop for EarlyBases {
    fn drop(&mut self) {
        self.shared.stop.store(true, Ordering::Relaxed);
        self.wake();
    }
}

impl EarlyBases {
    /// Starts parsing, in the bare repository at `git_dir`, the blobs at the merge base of
    /// `base` and `head` of the code files that differ between it and `head`. `None` when no
    /// thread could be started.
    pub(crate) fn start(git_dir: &Path, base: Oid, head: Oid) -> Option<EarlyBases> {
        EarlyBases::holding(git_dir, base, head, MOST_HELD)
    }

    fn holding(git_dir: &Path, base: Oid, head: Oid, most_held: usize) -> Option<EarlyBases> {
        let shared = Arc::new(Shared::new(most_held));
        let git_dir: PathBuf = git_dir.to_path_buf();
        let working = Arc::clone(&shared);
        let job = std::thread::Builder::new()
            .name("early-bases".into())
            .spawn(move || {
                if let Some(plan) = plan(&git_dir, base, head, &working.stop) {
                    let plan = working.plan.get_or_init(|| plan);
                    parse_from_the_end(plan, &working);
                }
            })
            .ok()?;
        Some(EarlyBases {
            shared,
            job: Some(job),
        })
    }

    /// The text of `blob`, when it was read here.
    pub(super) fn text(&self, blob: Oid) -> Option<Vec<u8>> {
        let plan = self.shared.plan.get()?;
        Some(plan.slots[*plan.at.get(&blob)?].text.clone())
    }

    /// The tree of `blob` parsed with `grammar`, when it is ready; else the blob is claimed
    /// for the caller, who parses it (this thread no longer will). Never waits.
    pub(super) fn take(&self, blob: Oid, grammar: Grammar) -> Option<Tree> {
        let plan = self.shared.plan.get()?;
        let slot = &plan.slots[*plan.at.get(&blob)?];
        if slot.grammar != grammar {
            return None;
        }
        match slot
            .state
            .compare_exchange(FREE, CLAIMED, Ordering::AcqRel, Ordering::Acquire)
        {
            Err(PARSED) => {
                let tree = slot.tree.lock().unwrap_or_else(|e| e.into_inner()).take();
                if tree.is_some() {
                    self.shared.taken.fetch_add(1, Ordering::Relaxed);
                    self.shared
                        .held
                        .fetch_sub(slot.text.len(), Ordering::AcqRel);
                    self.wake();
                }
                tree
            }
            // Free (now the caller's), or being parsed here: the caller parses it.
            _ => None,
        }
    }

    /// Wakes this thread when it waits for room (see [`MOST_HELD`]) or should stop.
    fn wake(&self) {
        if let Some(job) = &self.job {
            job.thread().unpark();
        }
    }

    /// How many trees were handed over.
    #[cfg(test)]
    pub(super) fn taken(&self) -> usize {
        self.shared.taken.load(Ordering::Relaxed)
    }

    /// Waits until every blob is parsed (when their texts fit in [`MOST_HELD`]): tests hand
    /// over a complete set this way.
    #[cfg(test)]
    pub(super) fn wait(&mut self) {
        if let Some(job) = self.job.take() {
            job.join().unwrap();
        }
    }
}

/// The base blobs of the code files changed between the merge base of `base` and `head` and
/// `head`, read, each once, in path order.
fn plan(git_dir: &Path, base: Oid, head: Oid, stop: &AtomicBool) -> Option<Plan> {
    let repo = Repository::open_bare(git_dir).ok()?;
    let merge_base = crate::diff::merge_base::merge_base(&repo, base, head).ok()?;
    let old = repo.find_commit(merge_base).ok()?.tree().ok()?;
    let new = repo.find_commit(head).ok()?.tree().ok()?;
    // Without patches or rename detection: only which entries differ, read from the trees.
    let diff = repo.diff_tree_to_tree(Some(&old), Some(&new), None).ok()?;
    let mut plan = Plan {
        slots: Vec::new(),
        at: HashMap::new(),
    };
    let mut bytes = 0usize;
    for delta in diff.deltas() {
        if stop.load(Ordering::Relaxed) {
            return None;
        }
        let old_file = delta.old_file();
        // Added files have no base; links and submodules are not parsed.
        let regular = matches!(
            old_file.mode(),
            git2::FileMode::Blob | git2::FileMode::BlobExecutable
        );
        let Some(path) = old_file.path().and_then(Path::to_str) else {
            continue;
        };
        let Some(grammar) = Grammar::for_path(path) else {
            continue;
        };
        let id = old_file.id();
        if !regular || id.is_zero() || plan.at.contains_key(&id) {
            continue;
        }
        let Some(text) = worth_parsing(&repo, id) else {
            continue;
        };
        bytes += text.len();
        if bytes > MOST_BYTES {
            break;
        }
        plan.at.insert(id, plan.slots.len());
        plan.slots.push(Slot {
            grammar,
            text,
            state: AtomicU8::new(FREE),
            tree: Mutex::new(None),
        });
    }
    Some(plan)
}

/// The blob's text, unless the cohort build would likely not parse it: too large, binary, or
/// with a line as long as a minified file's (tree-sitter spends seconds and hundreds of MB on
/// those). The cohort build decides by the head and the diff; a blob skipped here that it
/// does parse is only a miss.
fn worth_parsing(repo: &Repository, id: Oid) -> Option<Vec<u8>> {
    let blob = repo.find_blob(id).ok()?;
    let text = blob.content();
    let small = text.len() as u64 <= MAX_FILE_BYTES;
    let short_lines = text
        .split(|&b| b == b'\n')
        .all(|line| line.len() <= MAX_CODE_LINE_BYTES);
    (small && !blob.is_binary() && short_lines).then(|| text.to_vec())
}

/// Parses the plan's blobs from the last: the cohort build's workers take them from the
/// first, so the two meet once.
fn parse_from_the_end(plan: &Plan, shared: &Shared) {
    let mut tagger = Tagger::default();
    for slot in plan.slots.iter().rev() {
        // Woken when a tree is taken or on stop; the timeout only guards a missed wake-up.
        while shared.held.load(Ordering::Acquire) > shared.most_held
            && !shared.stop.load(Ordering::Relaxed)
        {
            std::thread::park_timeout(std::time::Duration::from_millis(20));
        }
        if shared.stop.load(Ordering::Relaxed) {
            return;
        }
        if slot
            .state
            .compare_exchange(FREE, CLAIMED, Ordering::AcqRel, Ordering::Acquire)
            .is_err()
        {
            continue;
        }
        let tree = tagger.parse(slot.grammar, &slot.text, None);
        if tree.is_some() {
            shared.held.fetch_add(slot.text.len(), Ordering::AcqRel);
        }
        *slot.tree.lock().unwrap_or_else(|e| e.into_inner()) = tree;
        slot.state.store(PARSED, Ordering::Release);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::space::test_repo::{TestRepo, commit_all, git};

    fn write(t: &TestRepo, path: &str, text: &str) {
        let full = t.path().join(path);
        std::fs::create_dir_all(full.parent().unwrap()).unwrap();
        std::fs::write(full, text).unwrap();
    }

    #[test]
    fn the_base_blobs_of_changed_code_files_are_parsed_once_and_handed_over_by_id() {
        let t = TestRepo::new();
        let rust = "pub fn one() -> u32 {\n    1\n}\n";
        let python = "def two():\n    return 2\n";
        let long_line = format!("fn long() {{ let s = \"{}\"; }}\n", "x".repeat(30_000));
        for (path, text) in [
            ("src/a.rs", rust),
            ("pkg/b.py", python),
            ("src/long.rs", long_line.as_str()),
            ("src/gone.rs", "fn gone() {}\n"),
            ("README.md", "# readme\n"),
        ] {
            write(&t, path, text);
        }
        let base = commit_all(&t.path(), "base");
        write(&t, "src/a.rs", "pub fn one() -> u32 {\n    11\n}\n");
        write(&t, "pkg/b.py", "def two():\n    return 22\n");
        write(&t, "src/long.rs", "fn long() {}\n");
        write(&t, "README.md", "# changed\n");
        write(&t, "src/new.rs", "fn new() {}\n");
        git(&t.path(), &["rm", "-q", "src/gone.rs"]);
        let head = commit_all(&t.path(), "head");
        let oid = |sha: &str| Oid::from_str(sha).unwrap();
        let repo = Repository::open(t.path()).unwrap();
        let blob = |path: &str| {
            repo.find_commit(oid(&base))
                .unwrap()
                .tree()
                .unwrap()
                .get_path(Path::new(path))
                .unwrap()
                .id()
        };

        let mut early = EarlyBases::start(&t.path().join(".git"), oid(&base), oid(&head)).unwrap();
        early.wait();
        // A tree is the blob's parse from scratch: the same as the cohort build's own.
        let mut tagger = Tagger::default();
        let a = early.take(blob("src/a.rs"), Grammar::Rust).unwrap();
        let own = tagger.parse(Grammar::Rust, rust.as_bytes(), None).unwrap();
        assert_eq!(a.root_node().to_sexp(), own.root_node().to_sexp());
        assert_eq!(early.text(blob("src/a.rs")).unwrap(), rust.as_bytes());
        // Handed over once; a second asker parses itself.
        assert!(early.take(blob("src/a.rs"), Grammar::Rust).is_none());
        // Another grammar for the same blob is a miss.
        assert!(early.take(blob("pkg/b.py"), Grammar::Rust).is_none());
        assert!(early.take(blob("pkg/b.py"), Grammar::Python).is_some());
        // A deleted file's base is there too (git may call it the old side of a rename).
        assert!(early.take(blob("src/gone.rs"), Grammar::Rust).is_some());
        // A line as long as a minified file's, and files without a grammar, are not read.
        assert!(early.text(blob("src/long.rs")).is_none());
        assert!(early.take(blob("src/long.rs"), Grammar::Rust).is_none());
        assert!(early.text(blob("README.md")).is_none());
        assert_eq!(early.taken(), 3);
    }

    #[test]
    fn a_blob_claimed_by_the_cohort_build_is_not_parsed_here() {
        let t = TestRepo::new();
        write(&t, "src/a.rs", "fn a() {}\n");
        let base = commit_all(&t.path(), "base");
        write(&t, "src/a.rs", "fn a() { b() }\n");
        let head = commit_all(&t.path(), "head");
        let oid = |sha: &str| Oid::from_str(sha).unwrap();
        let git_dir = t.path().join(".git");
        let repo = Repository::open_bare(&git_dir).unwrap();
        let plan = plan(&git_dir, oid(&base), oid(&head), &AtomicBool::new(false)).unwrap();
        assert_eq!(plan.slots.len(), 1);
        let id = repo
            .find_commit(oid(&base))
            .unwrap()
            .tree()
            .unwrap()
            .get_path(Path::new("src/a.rs"))
            .unwrap()
            .id();
        let shared = Arc::new(Shared::new(MOST_HELD));
        let _ = shared.plan.set(plan);
        let early = EarlyBases { shared, job: None };
        // The worker asks first: the blob is its own to parse, and this thread skips it.
        assert!(early.take(id, Grammar::Rust).is_none());
        let plan = early.shared.plan.get().unwrap();
        parse_from_the_end(plan, &early.shared);
        assert!(plan.slots[0].tree.lock().unwrap().is_none());
        assert!(early.take(id, Grammar::Rust).is_none());
    }

    #[test]
    fn past_the_memory_bound_this_thread_waits_for_the_cohort_build_to_take_trees() {
        let t = TestRepo::new();
        for name in ["a", "b", "c", "d"] {
            write(
                &t,
                &format!("src/{name}.rs"),
                &format!("fn {name}() {{}}\n"),
            );
        }
        let base = commit_all(&t.path(), "base");
        for name in ["a", "b", "c", "d"] {
            write(
                &t,
                &format!("src/{name}.rs"),
                &format!("fn {name}() {{ x() }}\n"),
            );
        }
        let head = commit_all(&t.path(), "head");
        let oid = |sha: &str| Oid::from_str(sha).unwrap();
        // One tree at a time: past a single byte held, the next parse waits for a take.
        let early = EarlyBases::holding(&t.path().join(".git"), oid(&base), oid(&head), 1).unwrap();
        let parsed = |plan: &Plan| {
            plan.slots
                .iter()
                .filter(|slot| slot.state.load(Ordering::Acquire) == PARSED)
                .filter(|slot| slot.tree.lock().unwrap().is_some())
                .count()
        };
        let mut taken = 0;
        while taken < 4 {
            let Some(plan) = early.shared.plan.get() else {
                std::thread::yield_now();
                continue;
            };
            let held = parsed(plan);
            assert!(held <= 1, "{held} trees held past the bound");
            if held == 0 {
                std::thread::yield_now();
                continue;
            }
            // Taken from the end, as this thread parses: each take lets the next parse start.
            let (id, _) = plan
                .at
                .iter()
                .find(|(_, at)| {
                    let slot = &plan.slots[**at];
                    slot.state.load(Ordering::Acquire) == PARSED
                        && slot.tree.lock().unwrap().is_some()
                })
                .unwrap();
            assert!(early.take(*id, Grammar::Rust).is_some());
            taken += 1;
        }
        assert_eq!(early.taken(), 4);
        assert_eq!(early.shared.held.load(Ordering::Acquire), 0);
    }
}
