//! The symbol index the cohort build asks: only about the names a change needs.
//!
//! Grouping, blast radius and the apiContract axis ask which files define or reference a
//! handful of names (the touched symbols, the names a changed test uses, what an API change's
//! callers resolve to). Building the whole index for that parsed every file of the head and
//! wrote it out, on the critical path of every first review. But a file can only define or
//! reference a name its text holds as a whole word (a tag's name is the text of an identifier
//! node of the file, see [`mentions`]): so for a name not asked before, this index scans the
//! text of the files it has not read yet and parses only those that hold it. Every other file's tags come from the mirror's store of
//! tags by blob, or are never read. The answer for every name asked is exactly the full
//! index's ([`super::SymbolIndex`], which `find_symbol` builds when it is first called).

use std::collections::{BTreeSet, HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use super::blob_tags::{self, BlobTags, IndexTags};
use super::error::CohortError;
use super::index::{
    HeadTags, IndexStats, TreeFile, head_tree, parse_all, tree_failed, tree_files, walk,
};
use crate::parse::grammar::Grammar;
use crate::parse::tags::FileTags;

/// The head's indexable files, read only as far as the names asked need.
pub struct LazyIndex {
    /// Every indexable file of the head, sorted: the same files the full index covers.
    paths: Vec<String>,
    grammars: Vec<Grammar>,
    /// Behind a lock: the cohort grouping and the apiContract axis ask on two threads (an
    /// answer does not depend on which asked first, see [`LazyIndex::defined_in`]).
    state: Mutex<State>,
}

impl std::fmt::Debug for LazyIndex {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LazyIndex")
            .field("files", &self.paths.len())
            .finish_non_exhaustive()
    }
}

/// Where file text comes from.
enum Source {
    /// The head commit in a repository (the mirror): files are blobs, and what is parsed is
    /// added to the repository's store of tags by blob.
    Tree {
        repo: git2::Repository,
        blobs: Vec<git2::Oid>,
        store: BlobTags,
    },
    /// A worktree alone.
    Worktree(PathBuf),
}

/// Which files define a name and which reference it, by position in `paths`.
type Answer = Arc<(Vec<usize>, Vec<usize>)>;

struct State {
    source: Source,
    /// Per file: `Some` once read (`Some(None)`: it did not parse).
    tags: Vec<Option<Option<IndexTags>>>,
    /// Files not read yet.
    unread: BTreeSet<usize>,
    /// The text of the unread files, loaded by the first scan.
    texts: Option<HashMap<usize, Vec<u8>>>,
    /// Names every file containing which has been read: their answers are final.
    resolved: HashSet<String>,
    answers: HashMap<String, Answer>,
    /// The files read so far by name, built on the first answer and kept up as files are
    /// read: an answer is a look-up, not a pass over every file's tags (the cohort build of
    /// a large range asks about thousands of names).
    by_name: Option<ByName>,
    stats: IndexStats,
}

/// Which read files define and reference each name, by position.
#[derive(Default)]
struct ByName {
    defines: HashMap<String, Vec<usize>>,
    references: HashMap<String, Vec<usize>>,
}

impl ByName {
    /// Adds file `at`, read after every file already in.
    fn add(&mut self, at: usize, tags: &IndexTags) {
        let push = |map: &mut HashMap<String, Vec<usize>>, name: &str| {
            let files = map.entry(name.to_string()).or_default();
            // A file defining a name twice counts once.
            if files.last() != Some(&at) {
                files.push(at);
            }
        };
        for (name, _, _) in &tags.defs {
            push(&mut self.defines, name);
        }
        for name in &tags.refs {
            push(&mut self.references, name);
        }
    }
}

impl LazyIndex {
    /// The index of `head` in the repository at `git_dir`, with the files in `keep` (the
    /// changed ones) parsed now and their full tags handed back for the cohort build.
    pub(super) fn from_tree(
        git_dir: &Path,
        head: git2::Oid,
        keep: &BTreeSet<&str>,
    ) -> Result<(LazyIndex, HeadTags), CohortError> {
        let (repo, tree) = head_tree(git_dir, head)?;
        let store = BlobTags::open(git_dir);
        let files = tree_files(&repo, tree, &store).map_err(tree_failed(head))?;
        let mut tags = vec![None; files.len()];
        let mut unread = BTreeSet::new();
        let mut to_parse = Vec::new();
        let mut from_store = 0;
        for (at, ((path, id), grammar)) in files.iter().enumerate() {
            if keep.contains(path.as_str()) {
                to_parse.push(at);
            } else if let Some(known) = store.get(*grammar, *id) {
                tags[at] = Some(known.cloned());
                from_store += 1;
            } else {
                unread.insert(at);
            }
        }
        let parse: Vec<TreeFile> = to_parse.iter().map(|&at| files[at].clone()).collect();
        let parsed = parse_all(&parse, || {
            let repo = git2::Repository::open_bare(git_dir).ok();
            move |((_, id), _): &((String, git2::Oid), Grammar)| {
                Some(repo.as_ref()?.find_blob(*id).ok()?.content().to_vec())
            }
        });
        let (paths, grammars, blobs) = split(files);
        let mut index = LazyIndex::new(
            paths,
            grammars,
            Source::Tree { repo, blobs, store },
            tags,
            unread,
        );
        index.state_mut().stats.from_store = from_store;
        let kept = index.adopt(&to_parse, parsed, keep);
        Ok((index, kept))
    }

    /// The index of the files checked out in `worktree`, read from it (no repository, no
    /// store of tags).
    pub(super) fn from_worktree(
        worktree: &Path,
        keep: &BTreeSet<&str>,
    ) -> Result<(LazyIndex, HeadTags), CohortError> {
        let mut files = Vec::new();
        walk(worktree, worktree, &mut files)?;
        files.sort();
        let to_parse: Vec<usize> = (0..files.len())
            .filter(|&at| keep.contains(files[at].0.as_str()))
            .collect();
        let parse: Vec<(String, Grammar)> = to_parse.iter().map(|&at| files[at].clone()).collect();
        let parsed = parse_all(&parse, || {
            |(path, _): &(String, Grammar)| std::fs::read(worktree.join(path)).ok()
        });
        let unread = (0..files.len())
            .filter(|at| !to_parse.contains(at))
            .collect();
        let tags = vec![None; files.len()];
        let (paths, grammars): (Vec<String>, Vec<Grammar>) = files.into_iter().unzip();
        let mut index = LazyIndex::new(
            paths,
            grammars,
            Source::Worktree(worktree.to_path_buf()),
            tags,
            unread,
        );
        let kept = index.adopt(&to_parse, parsed, keep);
        Ok((index, kept))
    }

    fn new(
        paths: Vec<String>,
        grammars: Vec<Grammar>,
        source: Source,
        tags: Vec<Option<Option<IndexTags>>>,
        unread: BTreeSet<usize>,
    ) -> LazyIndex {
        let stats = IndexStats {
            files_indexed: paths.len(),
            ..IndexStats::default()
        };
        LazyIndex {
            paths,
            grammars,
            state: Mutex::new(State {
                source,
                tags,
                unread,
                texts: None,
                resolved: HashSet::new(),
                answers: HashMap::new(),
                by_name: None,
                stats,
            }),
        }
    }

    /// Records the files at `at`, parsed into `parsed`, handing back the full tags of those
    /// in `keep`.
    fn adopt(
        &mut self,
        at: &[usize],
        parsed: Vec<Option<FileTags>>,
        keep: &BTreeSet<&str>,
    ) -> HeadTags {
        let mut kept = HeadTags::new();
        let state = self.state.get_mut().unwrap_or_else(PoisonError::into_inner);
        for (&at, tags) in at.iter().zip(parsed) {
            let path = &self.paths[at];
            let grammar = self.grammars[at];
            let index_tags = tags.as_ref().map(IndexTags::of);
            state.record(at, grammar, index_tags);
            if let Some(tags) = tags
                && keep.contains(path.as_str())
            {
                kept.insert(path.clone(), (grammar, tags));
            }
        }
        kept
    }

    /// Takes the tags of the head file at `path`, parsed from a text whose git id is `blob`
    /// by the cohort build (a changed file), unless the file was read already; counts it as
    /// parsed either way. Only for the
    /// very blob the index has at `path` (a worktree's text may differ from the commit's) and
    /// the grammar it reads the path with: then they are the tags a parse here would give.
    pub(super) fn learn(&self, path: &str, grammar: Grammar, blob: git2::Oid, tags: &FileTags) {
        let Ok(at) = self.paths.binary_search_by(|p| p.as_str().cmp(path)) else {
            return;
        };
        let mut state = self.state();
        let same_text = match &state.source {
            Source::Tree { blobs, .. } => blobs[at] == blob,
            Source::Worktree(_) => true,
        };
        if self.grammars[at] == grammar && same_text && state.unread.contains(&at) {
            state.record(at, grammar, Some(IndexTags::of(tags)));
        } else {
            // Parsed by this build all the same (the stats say what a build parsed).
            state.stats.parsed += 1;
        }
    }

    /// The state, for one question. A panic while it was held reaches the build through the
    /// asking thread's join and ends it; the lock is not what reports it.
    fn state(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn state_mut(&mut self) -> &mut State {
        self.state.get_mut().unwrap_or_else(PoisonError::into_inner)
    }

    /// Every indexable file of the head, sorted.
    pub fn files(&self) -> &[String] {
        &self.paths
    }

    /// Files that define `name`, sorted. Exact whatever was asked before: a name is answered
    /// once every file whose text holds it has been read.
    pub fn defined_in(&self, name: &str) -> BTreeSet<&str> {
        let answer = self.answer(name);
        answer.0.iter().map(|&at| self.paths[at].as_str()).collect()
    }

    /// Files that reference `name`, sorted.
    pub fn referenced_in(&self, name: &str) -> BTreeSet<&str> {
        let answer = self.answer(name);
        answer.1.iter().map(|&at| self.paths[at].as_str()).collect()
    }

    /// Reads, in one scan, every file that contains one of `names`: the cohort build asks
    /// about these one by one, and one scan for all is cheaper than one scan each.
    pub fn prefetch<'n>(&self, names: impl IntoIterator<Item = &'n str>) {
        let mut state = self.state();
        let wanted: BTreeSet<&str> = names
            .into_iter()
            .filter(|name| !state.resolved.contains(*name))
            .collect();
        state.resolve(&wanted, &self.paths, &self.grammars);
    }

    fn answer(&self, name: &str) -> Answer {
        let mut state = self.state();
        if let Some(answer) = state.answers.get(name) {
            return answer.clone();
        }
        if !state.resolved.contains(name) {
            state.resolve(&BTreeSet::from([name]), &self.paths, &self.grammars);
        }
        let by_name = state.by_name();
        let files = |map: &HashMap<String, Vec<usize>>| map.get(name).cloned().unwrap_or_default();
        let (defines, references) = (files(&by_name.defines), files(&by_name.references));
        let answer = Arc::new((defines, references));
        state.answers.insert(name.to_string(), answer.clone());
        answer
    }

    /// What was read so far.
    pub fn stats(&self) -> IndexStats {
        self.state().stats.clone()
    }

    /// Adds what was parsed to the mirror's store of tags (only a speed-up: a store that
    /// cannot be written costs the next head a parse) and says what was read.
    pub(super) fn finish(self) -> IndexStats {
        let state = self
            .state
            .into_inner()
            .unwrap_or_else(PoisonError::into_inner);
        if let Source::Tree { store, .. } = state.source {
            let _ = store.save(blob_tags::max_entries(self.paths.len()));
        }
        state.stats
    }
}

impl State {
    /// The read files by name (see [`State::by_name`]), built now if not yet.
    fn by_name(&mut self) -> &ByName {
        let tags = &self.tags;
        self.by_name.get_or_insert_with(|| {
            let mut by_name = ByName::default();
            for (at, tags) in tags.iter().enumerate() {
                if let Some(Some(tags)) = tags {
                    by_name.add(at, tags);
                }
            }
            by_name
        })
    }

    /// Parses every unread file whose text contains one of `names`; then their answers are
    /// final.
    fn resolve(&mut self, names: &BTreeSet<&str>, paths: &[String], grammars: &[Grammar]) {
        if names.is_empty() {
            return;
        }
        if !self.unread.is_empty() {
            self.load_texts(paths);
            let texts = self.texts.as_ref().expect("loaded above");
            // Tags never have an empty name: an empty pattern would match every file.
            let patterns: Vec<&str> = names.iter().copied().filter(|n| !n.is_empty()).collect();
            let candidates: Vec<(usize, Grammar)> = match aho_corasick::AhoCorasick::new(&patterns)
            {
                Ok(scan) if !patterns.is_empty() => self
                    .unread
                    .iter()
                    .filter(|at| {
                        texts
                            .get(at)
                            .is_some_and(|text| mentions(&scan, &patterns, text))
                    })
                    .map(|&at| (at, grammars[at]))
                    .collect(),
                Ok(_) => Vec::new(),
                // Too many patterns for the automaton: read everything, still exact.
                Err(_) => self.unread.iter().map(|&at| (at, grammars[at])).collect(),
            };
            let parsed = parse_all(&candidates, || {
                |(at, _): &(usize, Grammar)| texts.get(at).cloned()
            });
            for ((at, grammar), tags) in candidates.into_iter().zip(parsed) {
                self.record(at, grammar, tags.as_ref().map(IndexTags::of));
            }
        }
        self.resolved
            .extend(names.iter().map(|name| (*name).to_string()));
    }

    /// Reads the text of every unread file once. A file that cannot be read is recorded as
    /// not parsing, as the full index records it.
    fn load_texts(&mut self, paths: &[String]) {
        if self.texts.is_some() {
            return;
        }
        let mut texts = HashMap::new();
        let mut unreadable = Vec::new();
        for &at in &self.unread {
            let text = match &self.source {
                Source::Tree { repo, blobs, .. } => repo
                    .find_blob(blobs[at])
                    .ok()
                    .map(|blob| blob.content().to_vec()),
                Source::Worktree(root) => std::fs::read(root.join(&paths[at])).ok(),
            };
            match text {
                Some(text) => {
                    texts.insert(at, text);
                }
                None => unreadable.push(at),
            }
        }
        for at in unreadable {
            self.unread.remove(&at);
            self.tags[at] = Some(None);
            self.stats.files_unparsed += 1;
        }
        self.texts = Some(texts);
    }

    /// Records file `at` as read now, with its tags (`None`: it did not parse).
    fn record(&mut self, at: usize, grammar: Grammar, tags: Option<IndexTags>) {
        self.unread.remove(&at);
        if let Some(texts) = &mut self.texts {
            texts.remove(&at);
        }
        self.stats.parsed += 1;
        if tags.is_none() {
            self.stats.files_unparsed += 1;
        }
        // A blob that did not parse is not recorded: it is tried again next time.
        if let (Source::Tree { blobs, store, .. }, Some(tags)) = (&mut self.source, &tags) {
            store.insert(grammar, blobs[at], Some(tags.clone()));
        }
        if let (Some(by_name), Some(tags)) = (&mut self.by_name, &tags) {
            by_name.add(at, tags);
        }
        self.tags[at] = Some(tags);
    }
}

/// Whether `text` holds one of `patterns` (the automaton `scan`) as a whole word. A tag's
/// name is the text of an identifier node, and every grammar's lexer takes the longest run of
/// `[A-Za-z0-9_]` as one token: a name never starts or ends next to another such byte. So
/// `shared` inside `is_shared` or `shared_state` cannot be it, and a file that mentions a name
/// only that way need not be parsed. Matches overlap: an occurrence inside a longer word must
/// not hide a whole one after it.
fn mentions(scan: &aho_corasick::AhoCorasick, patterns: &[&str], text: &[u8]) -> bool {
    let word = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    scan.find_overlapping_iter(text).any(|found| {
        let name = patterns[found.pattern().as_usize()].as_bytes();
        let open_start = !word(name[0]) || found.start() == 0 || !word(text[found.start() - 1]);
        let open_end =
            !word(name[name.len() - 1]) || found.end() == text.len() || !word(text[found.end()]);
        open_start && open_end
    })
}

/// Paths, grammars and blob ids of `files`, in order.
fn split(files: Vec<TreeFile>) -> (Vec<String>, Vec<Grammar>, Vec<git2::Oid>) {
    let mut paths = Vec::with_capacity(files.len());
    let mut grammars = Vec::with_capacity(files.len());
    let mut blobs = Vec::with_capacity(files.len());
    for ((path, blob), grammar) in files {
        paths.push(path);
        grammars.push(grammar);
        blobs.push(blob);
    }
    (paths, grammars, blobs)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_files_holding_the_name_as_a_word_are_parsed() {
        let dir = tempfile::tempdir().unwrap();
        let write = |path: &str, text: &str| {
            let full = dir.path().join(path);
            std::fs::create_dir_all(full.parent().unwrap()).unwrap();
            std::fs::write(full, text).unwrap();
        };
        write("src/def.rs", "pub fn shared() -> u8 { 1 }\n");
        // The name only inside longer words: never parsed.
        write(
            "src/other.rs",
            "// shared_state and is_shared\nfn is_shared() -> bool { unshared() }\n",
        );
        // Inside a longer word first, then whole: found (matches overlap).
        write(
            "src/user.rs",
            "fn run() -> u8 { let is_shared = 0; shared() + is_shared }\n",
        );
        write("src/none.rs", "fn elsewhere() {}\n");
        let (index, _) = LazyIndex::from_worktree(dir.path(), &BTreeSet::new()).unwrap();
        assert_eq!(index.stats().files_indexed, 4);
        assert_eq!(
            index.defined_in("shared").into_iter().collect::<Vec<_>>(),
            ["src/def.rs"]
        );
        assert_eq!(
            index
                .referenced_in("shared")
                .into_iter()
                .collect::<Vec<_>>(),
            ["src/user.rs"]
        );
        assert_eq!(index.stats().parsed, 2, "{:?}", index.stats());
        // A name asked again reads nothing more; another name reads its own files.
        index.defined_in("shared");
        assert_eq!(index.stats().parsed, 2);
        assert_eq!(
            index
                .defined_in("is_shared")
                .into_iter()
                .collect::<Vec<_>>(),
            ["src/other.rs"]
        );
        assert_eq!(index.stats().parsed, 3, "{:?}", index.stats());
    }

    #[test]
    fn two_threads_asking_at_once_get_the_answers_one_thread_gets() {
        // The cohort grouping and the apiContract axis ask the same index on two threads:
        // whichever reads a file first, every answer and the files read are the same.
        let dir = tempfile::tempdir().unwrap();
        for i in 0..40 {
            let text = format!(
                "pub fn f{i}() -> u8 {{ f{}() + shared() }}\npub struct T{i};\n",
                (i + 1) % 40
            );
            std::fs::create_dir_all(dir.path().join("src")).unwrap();
            std::fs::write(dir.path().join(format!("src/m{i}.rs")), text).unwrap();
        }
        std::fs::write(
            dir.path().join("src/shared.rs"),
            "pub fn shared() -> u8 { 0 }\n",
        )
        .unwrap();
        let names: Vec<String> = (0..40)
            .flat_map(|i| [format!("f{i}"), format!("T{i}")])
            .chain(["shared".to_string(), "absent".to_string()])
            .collect();
        let ask = |index: &LazyIndex, names: &[String]| -> Vec<(Vec<String>, Vec<String>)> {
            names
                .iter()
                .map(|name| {
                    let owned = |set: BTreeSet<&str>| set.into_iter().map(String::from).collect();
                    (
                        owned(index.defined_in(name)),
                        owned(index.referenced_in(name)),
                    )
                })
                .collect()
        };
        let (alone, _) = LazyIndex::from_worktree(dir.path(), &BTreeSet::new()).unwrap();
        let expected = ask(&alone, &names);
        assert_eq!(expected[0].0, ["src/m0.rs"]);
        assert_eq!(expected[0].1, ["src/m39.rs"]);
        assert_eq!(expected[80].1.len(), 40, "{:?}", expected[80]);

        let (shared, _) = LazyIndex::from_worktree(dir.path(), &BTreeSet::new()).unwrap();
        let reversed: Vec<String> = names.iter().rev().cloned().collect();
        let (forward, backward) = std::thread::scope(|scope| {
            let other = scope.spawn(|| ask(&shared, &reversed));
            let forward = ask(&shared, &names);
            (forward, other.join().unwrap())
        });
        assert_eq!(forward, expected);
        let mut backward = backward;
        backward.reverse();
        assert_eq!(backward, expected);
        assert_eq!(shared.stats().parsed, alone.stats().parsed);
    }
}
