//! The repository's full symbol index: for each name, the files that define it and the files
//! that reference it, over the head worktree.
//!
//! The cohort build does not need all of it: it asks about the names a change touches, and
//! [`super::lazy_index`] reads only the files that can answer. The full index is built when a
//! model reviewer first calls `find_symbol` ([`OnDemandIndex`]), from the mirror's store of
//! tags by blob, so only blobs never seen are parsed.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::blob_tags::{self, BlobTags, IndexTags};
use super::error::CohortError;
use crate::commit_id::CommitId;
use crate::parse::grammar::Grammar;
use crate::parse::tags::Tagger;

/// The serialized index's format.
const FORMAT: u32 = 1;

/// Files larger than this are generated or vendored data, not code anyone reviews by symbol.
pub(super) const MAX_FILE_BYTES: u64 = 1024 * 1024;

/// Directories that hold build output, dependencies or git's own data.
const SKIPPED_DIRS: &[&str] = &[".git", "target", "node_modules", "vendor"];

/// An indexable file of a tree: its path and blob, and the grammar it is read with.
pub(super) type TreeFile = ((String, git2::Oid), Grammar);

/// Tags of head files parsed while building the index, by path, with the grammar they were
/// parsed as.
pub(super) type HeadTags =
    std::collections::HashMap<String, (Grammar, crate::parse::tags::FileTags)>;

/// Where a name is defined.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Location {
    pub path: String,
    pub line: u32,
    pub kind: String,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SymbolEntry {
    pub definitions: Vec<Location>,
    pub referenced_in: BTreeSet<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SymbolIndex {
    format: u32,
    head_sha: CommitId,
    /// Every file parsed, with its grammar: what the index can speak for.
    files: BTreeMap<String, Grammar>,
    /// Files of an indexed language whose parse failed (see `tags::ParseFailure`).
    unparsed: BTreeSet<String>,
    symbols: BTreeMap<String, SymbolEntry>,
}

/// What the cohort build's index read, for the report and the tests: the head's indexable
/// files, and how many of them it had to read to answer the names it was asked about.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct IndexStats {
    /// Files of the head in an indexed language: what the index speaks for.
    pub files_indexed: usize,
    /// Files whose tags came from the mirror's store of tags by blob.
    pub from_store: usize,
    /// Files parsed by this build (the changed files' head versions among them).
    pub parsed: usize,
    /// Files read that did not parse.
    pub files_unparsed: usize,
    /// Whether the whole cohort report came from the space's cache (nothing was read).
    pub from_cache: bool,
}

impl SymbolIndex {
    /// Walks `worktree` and parses every file of an indexed language, on every core.
    pub fn build(worktree: &Path, head_sha: &CommitId) -> Result<SymbolIndex, CohortError> {
        Ok(SymbolIndex::build_keeping(worktree, head_sha, &BTreeSet::new())?.0)
    }

    /// [`SymbolIndex::build`], also handing back the parsed tags of the files in `keep` (the
    /// changed ones), so the cohort build does not parse them a second time.
    fn build_keeping(
        worktree: &Path,
        head_sha: &CommitId,
        keep: &BTreeSet<&str>,
    ) -> Result<(SymbolIndex, HeadTags), CohortError> {
        let mut files = Vec::new();
        walk(worktree, worktree, &mut files)?;
        files.sort();
        let parsed = parse_all(&files, || {
            |(path, _): &(String, Grammar)| std::fs::read(worktree.join(path)).ok()
        });
        let mut kept = HeadTags::new();
        let per_file = files
            .iter()
            .zip(parsed)
            .map(|((path, grammar), tags)| {
                let tags = tags?;
                if keep.contains(path.as_str()) {
                    kept.insert(path.clone(), (*grammar, tags.clone()));
                }
                Some(IndexTags::of(&tags))
            })
            .collect();
        Ok(assemble(head_sha, files.into_iter(), per_file, kept))
    }

    /// [`SymbolIndex::build`] from the head commit's tree in the bare repository at `git_dir`
    /// rather than from a worktree: the same files and the same index (symbolic links,
    /// submodules, skipped directories and large files are left out alike), available before
    /// the worktree is checked out. Only blobs never seen are parsed (and the files in `keep`,
    /// whose full tags are handed back); the rest come from the mirror's store of tags by
    /// blob, and what was parsed is added to it.
    pub(super) fn build_from_tree(
        git_dir: &Path,
        head: git2::Oid,
        keep: &BTreeSet<&str>,
    ) -> Result<(SymbolIndex, HeadTags), CohortError> {
        let (repo, tree) = head_tree(git_dir, head)?;
        let mut store = BlobTags::open(git_dir);
        let files = tree_files(&repo, tree, &store).map_err(tree_failed(head))?;
        let mut per_file: Vec<Option<IndexTags>> = vec![None; files.len()];
        let mut misses = Vec::new();
        for (at, ((path, id), grammar)) in files.iter().enumerate() {
            match store.get(*grammar, *id) {
                Some(known) if !keep.contains(path.as_str()) => per_file[at] = known.cloned(),
                _ => misses.push(at),
            }
        }
        let to_parse: Vec<TreeFile> = misses.iter().map(|&at| files[at].clone()).collect();
        let parsed = parse_blobs(git_dir, &to_parse);
        let mut kept = HeadTags::new();
        for (at, tags) in misses.into_iter().zip(parsed) {
            let ((path, id), grammar) = &files[at];
            let index_tags = tags.as_ref().map(IndexTags::of);
            if let Some(tags) = tags
                && keep.contains(path.as_str())
            {
                kept.insert(path.clone(), (*grammar, tags));
            }
            // A blob that did not parse is not recorded: it is tried again next time.
            if let Some(tags) = &index_tags {
                store.insert(*grammar, *id, Some(tags.clone()));
            }
            per_file[at] = index_tags;
        }
        // Only a speed-up: a store that cannot be written costs the next head a parse.
        let _ = store.save(blob_tags::max_entries(files.len()));
        let files = files
            .into_iter()
            .map(|((path, _), grammar)| (path, grammar));
        Ok(assemble(&CommitId::from(head), files, per_file, kept))
    }

    /// Files that define `name`, sorted.
    pub fn defined_in(&self, name: &str) -> BTreeSet<&str> {
        self.symbols.get(name).map_or_else(BTreeSet::new, |entry| {
            entry.definitions.iter().map(|l| l.path.as_str()).collect()
        })
    }

    /// Files that reference `name`, sorted.
    pub fn referenced_in(&self, name: &str) -> BTreeSet<&str> {
        self.symbols.get(name).map_or_else(BTreeSet::new, |entry| {
            entry.referenced_in.iter().map(String::as_str).collect()
        })
    }

    /// Everything the index knows about `name`: the look-up behind `find_symbol`.
    pub fn lookup(&self, name: &str) -> Option<&SymbolEntry> {
        self.symbols.get(name)
    }

    pub fn head_sha(&self) -> &CommitId {
        &self.head_sha
    }

    /// Every name the index knows.
    #[cfg(test)]
    pub(super) fn names(&self) -> impl Iterator<Item = &str> {
        self.symbols.keys().map(String::as_str)
    }

    /// Whether `path` was parsed into the index.
    pub fn covers(&self, path: &str) -> bool {
        self.files.contains_key(path)
    }
}

/// The index of `files` (sorted) from their tags (`None`: the file did not parse); `kept` are
/// the changed files' full tags, handed back beside it.
fn assemble(
    head_sha: &CommitId,
    files: impl Iterator<Item = (String, Grammar)>,
    per_file: Vec<Option<IndexTags>>,
    kept: HeadTags,
) -> (SymbolIndex, HeadTags) {
    let mut index = SymbolIndex {
        format: FORMAT,
        head_sha: head_sha.clone(),
        files: BTreeMap::new(),
        unparsed: BTreeSet::new(),
        symbols: BTreeMap::new(),
    };
    for ((path, grammar), tags) in files.zip(per_file) {
        let Some(tags) = tags else {
            index.unparsed.insert(path);
            continue;
        };
        for (name, line, kind) in tags.defs {
            index
                .symbols
                .entry(name)
                .or_default()
                .definitions
                .push(Location {
                    path: path.clone(),
                    line,
                    kind,
                });
        }
        for name in tags.refs {
            index
                .symbols
                .entry(name)
                .or_default()
                .referenced_in
                .insert(path.clone());
        }
        index.files.insert(path, grammar);
    }
    (index, kept)
}

/// The repository at `git_dir` and the id of `head`'s tree in it.
pub(super) fn head_tree(
    git_dir: &Path,
    head: git2::Oid,
) -> Result<(git2::Repository, git2::Oid), CohortError> {
    let failed = tree_failed(head);
    let repo = git2::Repository::open_bare(git_dir).map_err(&failed)?;
    let tree = repo.find_commit(head).map_err(&failed)?.tree_id();
    Ok((repo, tree))
}

pub(super) fn tree_failed(head: git2::Oid) -> impl Fn(git2::Error) -> CohortError {
    move |e: git2::Error| CohortError::Tree {
        sha: head.to_string(),
        message: e.message().to_string(),
    }
}

/// The indexable files of the tree `tree` — `((path, blob), grammar)`, sorted — as the
/// worktree walk finds them: skipped directories, symbolic links and files over
/// [`MAX_FILE_BYTES`] are left out. A blob in `store` was small enough when it was parsed, and
/// its size is a function of its id: only blobs never seen are measured.
pub(super) fn tree_files(
    repo: &git2::Repository,
    tree: git2::Oid,
    store: &BlobTags,
) -> Result<Vec<TreeFile>, git2::Error> {
    let tree = repo.find_tree(tree)?;
    let odb = repo.odb()?;
    let mut files = Vec::new();
    tree.walk(git2::TreeWalkMode::PreOrder, |dir, entry| {
        let Ok(name) = entry.name() else {
            return git2::TreeWalkResult::Skip;
        };
        match entry.kind() {
            Some(git2::ObjectType::Tree) if SKIPPED_DIRS.contains(&name) => {
                git2::TreeWalkResult::Skip
            }
            // Mode 0o120000 is a symbolic link: its blob is a path, not code.
            Some(git2::ObjectType::Blob) if entry.filemode() != 0o120000 => {
                let path = format!("{dir}{name}");
                let small = |grammar: &Grammar| {
                    store.get(*grammar, entry.id()).is_some()
                        || odb
                            .read_header(entry.id())
                            .is_ok_and(|(size, _)| size as u64 <= MAX_FILE_BYTES)
                };
                if let Some(grammar) = Grammar::for_path(&path).filter(small) {
                    files.push(((path, entry.id()), grammar));
                }
                git2::TreeWalkResult::Ok
            }
            _ => git2::TreeWalkResult::Ok,
        }
    })?;
    files.sort();
    Ok(files)
}

/// Parses the blobs of `files` from the repository at `git_dir`, on every core.
fn parse_blobs(git_dir: &Path, files: &[TreeFile]) -> Vec<Option<crate::parse::tags::FileTags>> {
    // A repository handle is not shared between threads: each parsing thread opens its own.
    parse_all(files, || {
        let repo = git2::Repository::open_bare(git_dir).ok();
        move |((_, id), _): &((String, git2::Oid), Grammar)| {
            let blob = repo.as_ref()?.find_blob(*id).ok()?;
            Some(blob.content().to_vec())
        }
    })
}

/// Collects `(relative path, grammar)` for every indexable file under `dir`. Symbolic links are
/// not followed: the index must not read outside the worktree.
pub(super) fn walk(
    root: &Path,
    dir: &Path,
    out: &mut Vec<(String, Grammar)>,
) -> Result<(), CohortError> {
    let entries = std::fs::read_dir(dir).map_err(|source| CohortError::Worktree {
        path: dir.to_path_buf(),
        source,
    })?;
    for entry in entries {
        let entry = entry.map_err(|source| CohortError::Worktree {
            path: dir.to_path_buf(),
            source,
        })?;
        let Ok(file_type) = entry.file_type() else {
            continue;
        };
        let path = entry.path();
        if file_type.is_dir() {
            let name = entry.file_name();
            if !SKIPPED_DIRS.iter().any(|skip| name == *skip) {
                walk(root, &path, out)?;
            }
        } else if file_type.is_file() {
            let Some(relative) = relative_path(root, &path) else {
                continue;
            };
            let Some(grammar) = Grammar::for_path(&relative) else {
                continue;
            };
            if entry.metadata().is_ok_and(|m| m.len() <= MAX_FILE_BYTES) {
                out.push((relative, grammar));
            }
        }
    }
    Ok(())
}

fn relative_path(root: &Path, path: &Path) -> Option<String> {
    let relative = path.strip_prefix(root).ok()?;
    let parts: Option<Vec<&str>> = relative.iter().map(|part| part.to_str()).collect();
    Some(parts?.join("/"))
}

/// Parses `files` on every core; `None` for a file that could not be read or parsed. Each
/// thread makes its own reader with `reader`.
pub(super) fn parse_all<F, R>(
    files: &[(F, Grammar)],
    reader: impl Fn() -> R + Sync,
) -> Vec<Option<crate::parse::tags::FileTags>>
where
    F: Sync,
    R: FnMut(&(F, Grammar)) -> Option<Vec<u8>>,
{
    super::cores::map_on_cores(
        files.iter().collect(),
        || (Tagger::default(), reader()),
        |(tagger, read), file| {
            let source = read(file)?;
            tagger.tags(file.1, &source).ok()
        },
    )
}

/// Where the cohort build keeps its finished reports inside a review space.
pub fn cache_dir_in(space_dir: &Path) -> PathBuf {
    space_dir.join("cache")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::space::test_repo::TestRepo;

    /// The entries of the newest segment of the mirror's tag store: what the last build parsed.
    fn newest_segment(git_dir: &Path) -> Vec<serde_json::Value> {
        let dir = super::blob_tags::store_dir(git_dir).join(super::blob_tags::version());
        let mut names: Vec<PathBuf> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        names.sort();
        let newest = names.last().expect("a segment");
        serde_json::from_slice(&std::fs::read(newest).unwrap()).unwrap()
    }

    #[test]
    fn a_new_head_parses_only_the_blobs_never_seen() {
        let repo = TestRepo::new();
        for n in 0..6 {
            repo.commit(
                &format!("src/m{n}.rs"),
                &format!("pub fn f{n}() -> u8 {{ {n} }}\n"),
                "add",
            );
        }
        repo.commit("src/app.py", "def main():\n    return 1\n", "py");
        let git_dir = repo.path().join(".git");
        let first = git2::Oid::from_str(&repo.sha("HEAD")).unwrap();
        SymbolIndex::build_from_tree(&git_dir, first, &BTreeSet::new()).unwrap();
        assert_eq!(
            newest_segment(&git_dir).len(),
            7,
            "a cold store parses every file"
        );

        // A push that changes one file and adds another parses those two only.
        repo.commit(
            "src/m2.rs",
            "pub fn f2() -> u8 { 22 }\npub fn g2() {}\n",
            "edit",
        );
        let head = repo.commit("src/new.rs", "pub fn fresh() { f2(); }\n", "add new");
        let oid = git2::Oid::from_str(&head).unwrap();
        let keep: BTreeSet<&str> = ["src/new.rs"].into();
        let (index, kept) = SymbolIndex::build_from_tree(&git_dir, oid, &keep).unwrap();
        let parsed = newest_segment(&git_dir);
        assert_eq!(parsed.len(), 2, "{parsed:?}");
        // The changed files' full tags are handed back, as on a cold build.
        assert!(kept.contains_key("src/new.rs"));

        // And the index is exactly the one a cold build of the worktree makes.
        let cold = SymbolIndex::build(&repo.path(), &head.parse().unwrap()).unwrap();
        assert_eq!(index, cold);
        assert_eq!(
            index.defined_in("g2").into_iter().collect::<Vec<_>>(),
            ["src/m2.rs"]
        );
        assert!(index.referenced_in("f2").contains("src/new.rs"));

        // A head already fully known parses nothing and writes no segment.
        let segments = || {
            std::fs::read_dir(
                super::blob_tags::store_dir(&git_dir).join(super::blob_tags::version()),
            )
            .unwrap()
            .count()
        };
        let before = segments();
        SymbolIndex::build_from_tree(&git_dir, first, &BTreeSet::new()).unwrap();
        assert_eq!(segments(), before);
    }
}
