//! What the apiContract axis reads: the files behind its scopes (each read once), the scopes
//! of a changed file at both sides, and its surfaces read early, from the trees the cohort
//! build parses anyway.
//!
//! Every changed file's scope reads the same manifests and module files (`Cargo.toml`,
//! `lib.rs`, the `mod.rs` above it) at both sides; and a surface read on its own parsed the
//! file twice more. So the cohort build decides each file's scopes before it parses (on its
//! thread: a git2 repository is not shared), and the parsing threads read the surfaces from
//! the base's tree and the head's tree reparsed from it ([`super::reparse`]). The axis still
//! decides everything itself and uses an early surface only when its own scopes and sources
//! are those the surface was read with.

use std::cell::RefCell;
use std::collections::HashMap;
use std::path::Path;

use tree_sitter::Tree;

use crate::diff::FileDiff;

use super::declared::{Declared, declared};
use super::lang::python::documented::ApiDocs;
use super::scope::scope;
use super::visibility::Visibility;
use super::{Surface, Unreadable, by_tags_only, extract_tree};
use crate::cohort::changes::{TreeReader, Trees};
use crate::parse::grammar::Grammar;
use crate::parse::reparse;
use crate::parse::tags::Tagger;
use crate::pr::forge::PullRequest;

/// The blob at `path` in `commit`.
pub(super) fn blob_at(
    repo: &git2::Repository,
    commit: git2::Oid,
    path: &str,
) -> Result<Vec<u8>, git2::Error> {
    let tree = repo.find_commit(commit)?.tree()?;
    let entry = tree.get_path(Path::new(path))?;
    let blob = entry.to_object(repo)?.peel_to_blob()?;
    Ok(blob.content().to_vec())
}

/// The documentation folders read for [`ApiDocs`], at the repository's root.
const DOC_FOLDERS: [&str; 4] = ["docs", "doc", "documentation", "Doc"];

/// At most this many documentation files, each at most [`DOC_BYTES`]: a documentation site
/// with generated pages is read in part rather than slowly.
const DOC_FILES: usize = 3000;
const DOC_BYTES: usize = 1 << 20;

/// The documentation files of `commit` (reStructuredText, Markdown, text) under
/// [`DOC_FOLDERS`], with their texts.
fn doc_texts(repo: &git2::Repository, commit: git2::Oid) -> Vec<(String, String)> {
    let Ok(root) = repo.find_commit(commit).and_then(|c| c.tree()) else {
        return Vec::new();
    };
    let mut texts = Vec::new();
    for folder in DOC_FOLDERS {
        let Some(tree) = root
            .get_path(Path::new(folder))
            .ok()
            .and_then(|entry| entry.to_object(repo).ok())
            .and_then(|object| object.peel_to_tree().ok())
        else {
            continue;
        };
        let _ = tree.walk(git2::TreeWalkMode::PreOrder, |dir, entry| {
            if texts.len() >= DOC_FILES {
                return git2::TreeWalkResult::Abort;
            }
            let Ok(name) = entry.name() else {
                return git2::TreeWalkResult::Ok;
            };
            let prose = [".rst", ".md", ".txt", ".markdown"]
                .iter()
                .any(|ext| name.ends_with(ext));
            if entry.kind() != Some(git2::ObjectType::Blob) || !prose {
                return git2::TreeWalkResult::Ok;
            }
            if let Ok(blob) = repo.find_blob(entry.id())
                && blob.size() <= DOC_BYTES
            {
                texts.push((
                    format!("{folder}/{dir}{name}"),
                    String::from_utf8_lossy(blob.content()).into_owned(),
                ));
            }
            git2::TreeWalkResult::Ok
        });
    }
    texts
}

/// The names of the files in the folder `dir` of `commit` (`""`: the root), sorted; none when
/// the folder is not there.
fn names_at(repo: &git2::Repository, commit: git2::Oid, dir: &str) -> Vec<String> {
    let listed = || -> Result<Vec<String>, git2::Error> {
        let root = repo.find_commit(commit)?.tree()?;
        let tree = if dir.is_empty() {
            root
        } else {
            root.get_path(Path::new(dir))?
                .to_object(repo)?
                .peel_to_tree()?
        };
        let mut names: Vec<String> = tree
            .iter()
            .filter(|entry| entry.kind() == Some(git2::ObjectType::Blob))
            .filter_map(|entry| entry.name().ok().map(str::to_string))
            .collect();
        names.sort();
        Ok(names)
    };
    listed().unwrap_or_default()
}

/// The commits of `base..head` (short id, message), the head first; as many as a declaration
/// is looked for in.
fn commit_messages(
    repo: &git2::Repository,
    base: git2::Oid,
    head: git2::Oid,
) -> Vec<(String, String)> {
    let walked = || -> Result<Vec<(String, String)>, git2::Error> {
        let mut walk = repo.revwalk()?;
        walk.push(head)?;
        walk.hide(base)?;
        let mut out = Vec::new();
        for oid in walk.take(super::declared::COMMITS) {
            let commit = repo.find_commit(oid?)?;
            let id = commit.id().to_string();
            out.push((
                id[..7.min(id.len())].to_string(),
                String::from_utf8_lossy(commit.message_bytes()).into_owned(),
            ));
        }
        Ok(out)
    };
    walked().unwrap_or_default()
}

/// Files (or folders' listings) read by path, each once.
struct Memo<T>(RefCell<HashMap<String, T>>);

impl<T> Default for Memo<T> {
    fn default() -> Self {
        Memo(RefCell::default())
    }
}

impl<T: Clone> Memo<T> {
    fn get(&self, path: &str, read: impl FnOnce() -> T) -> T {
        if let Some(known) = self.0.borrow().get(path) {
            return known.clone();
        }
        let text = read();
        self.0.borrow_mut().insert(path.to_string(), text.clone());
        text
    }
}

/// The repository's files as the axis reads them: the head's from the worktree, the base's
/// from the base commit, as text.
pub(crate) struct Sources<'a> {
    worktree: &'a Path,
    base: Option<(&'a git2::Repository, git2::Oid)>,
    head_files: Memo<Option<String>>,
    base_files: Memo<Option<String>>,
    head_folders: Memo<Vec<String>>,
    base_folders: Memo<Vec<String>>,
    /// Each changed file's scopes, decided once before the parse (see [`wanted`]) and again
    /// by the axis from the same texts: kept with the texts they were decided from.
    scopes: RefCell<HashMap<ScopesKey, Vec<DecidedScopes>>>,
    /// The changed files' surfaces read while they were parsed, by path (see [`Sources::keep_early`]).
    early: HashMap<String, EarlySurfaces>,
    /// What the PR says of itself, when reviewing one.
    pr: Option<PullRequest>,
    declared: std::cell::OnceCell<Declared>,
    api_docs: std::cell::OnceCell<ApiDocs>,
}

/// A changed file's path, the path it had at the base, its grammar.
type ScopesKey = (String, String, Grammar);

/// Scopes decided from a head text and a base text.
struct DecidedScopes {
    head_source: Option<String>,
    base_source: Option<String>,
    scopes: Scopes,
}

impl<'a> Sources<'a> {
    pub(crate) fn new(worktree: &'a Path, base: Option<(&'a git2::Repository, git2::Oid)>) -> Self {
        Sources {
            worktree,
            base,
            head_files: Memo::default(),
            base_files: Memo::default(),
            head_folders: Memo::default(),
            base_folders: Memo::default(),
            scopes: RefCell::default(),
            early: HashMap::new(),
            pr: None,
            declared: std::cell::OnceCell::new(),
            api_docs: std::cell::OnceCell::new(),
        }
    }

    /// Reads the PR's own text too (see [`Sources::declared`]).
    pub(crate) fn with_pr(mut self, pr: Option<&PullRequest>) -> Self {
        self.pr = pr.cloned();
        self
    }

    /// What the PR's text and the range's commit messages declare (see [`declared`]).
    pub(crate) fn declared(&self) -> &Declared {
        self.declared.get_or_init(|| {
            let commits = match (self.base, self.head_commit()) {
                (Some((repo, base)), Some(head)) => commit_messages(repo, base, head),
                _ => Vec::new(),
            };
            declared(self.pr.as_ref(), &commits)
        })
    }

    /// What the project's documentation at the base (the head without one) says of its
    /// Python modules, read once when first asked (see [`ApiDocs`]).
    pub(crate) fn api_docs(&self) -> &ApiDocs {
        self.api_docs.get_or_init(|| {
            let texts = match self.base {
                Some((repo, commit)) => doc_texts(repo, commit),
                None => git2::Repository::open(self.worktree)
                    .ok()
                    .and_then(|repo| {
                        let head = repo.head().ok()?.target()?;
                        Some(doc_texts(&repo, head))
                    })
                    .unwrap_or_default(),
            };
            ApiDocs::read(texts.iter().map(|(p, t)| (p.as_str(), t.as_str())))
        })
    }

    /// Keeps the surfaces the parse of the changed files read (this as its [`TreeReader`]),
    /// by the file's path, for the axis.
    pub(crate) fn keep_early(&mut self, early: impl IntoIterator<Item = (String, EarlySurfaces)>) {
        self.early.extend(early);
    }

    /// The surfaces of the changed file at `path` read while it was parsed.
    pub(crate) fn early(&self, path: &str) -> Option<&EarlySurfaces> {
        self.early.get(path)
    }

    pub(crate) fn head(&self, path: &str) -> Option<String> {
        self.head_files.get(path, || {
            crate::space::worktree_file::read(self.worktree, path)
                .ok()
                .map(|bytes| String::from_utf8_lossy(&bytes).into_owned())
        })
    }

    /// The names of the files in the folder `dir` at the head (`""`: the root).
    pub(crate) fn head_names(&self, dir: &str) -> Vec<String> {
        self.head_folders.get(dir, || {
            crate::space::worktree_file::list(self.worktree, dir).unwrap_or_default()
        })
    }

    /// The names of the files in the folder `dir` at the base.
    pub(crate) fn base_names(&self, dir: &str) -> Vec<String> {
        match self.base {
            Some((repo, commit)) => self.base_folders.get(dir, || names_at(repo, commit, dir)),
            None => self.head_names(dir),
        }
    }

    /// The commit the worktree has checked out (the head), when it is a git worktree.
    pub(crate) fn head_commit(&self) -> Option<git2::Oid> {
        git2::Repository::open(self.worktree)
            .ok()?
            .head()
            .ok()?
            .target()
    }

    /// The repository holding the base, and the base commit, when known.
    pub(crate) fn base_commit(&self) -> Option<(&'a git2::Repository, git2::Oid)> {
        self.base
    }

    pub(crate) fn base(&self, path: &str) -> Option<String> {
        match self.base {
            Some((repo, commit)) => self.base_files.get(path, || {
                blob_at(repo, commit, path)
                    .ok()
                    .map(|bytes| String::from_utf8_lossy(&bytes).into_owned())
            }),
            // Without the base commit, the head's manifest is all there is: no bump seen.
            None => self.head(path),
        }
    }
}

/// What is exported of one changed file at each side.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Scopes {
    pub base: Visibility,
    pub head: Visibility,
}

impl Scopes {
    /// The scopes of the file at `path`, whose head text is `head_source` (`None`: deleted)
    /// and base text `base_source` (`None`: added, or unread), at `base_path` in the base (the
    /// path it was renamed from, else `path`).
    pub(crate) fn of(
        path: &str,
        base_path: &str,
        grammar: Grammar,
        head_source: Option<&str>,
        base_source: Option<&str>,
        sources: &Sources<'_>,
    ) -> Scopes {
        // A scope reads manifests and module files (a Rust file's, up to its crate root and
        // the crate's macros) that do not change during a review: decided once per texts.
        let key = (path.to_string(), base_path.to_string(), grammar);
        let known = sources.scopes.borrow().get(&key).and_then(|decided| {
            decided
                .iter()
                .find(|d| {
                    d.head_source.as_deref() == head_source
                        && d.base_source.as_deref() == base_source
                })
                .map(|d| d.scopes.clone())
        });
        if let Some(scopes) = known {
            return scopes;
        }
        let scopes = Scopes::decide(path, base_path, grammar, head_source, base_source, sources);
        sources
            .scopes
            .borrow_mut()
            .entry(key)
            .or_default()
            .push(DecidedScopes {
                head_source: head_source.map(str::to_string),
                base_source: base_source.map(str::to_string),
                scopes: scopes.clone(),
            });
        scopes
    }

    fn decide(
        path: &str,
        base_path: &str,
        grammar: Grammar,
        head_source: Option<&str>,
        base_source: Option<&str>,
        sources: &Sources<'_>,
    ) -> Scopes {
        let read_either = |path: &str| sources.head(path).or_else(|| sources.base(path));
        let any_source = head_source.or(base_source).unwrap_or("");
        let head = scope(path, grammar, any_source, &read_either);
        // What was exported at the base is decided at the base, where the file was: a name
        // the head's entry points or `pub use`s no longer reach was removed, and a file
        // renamed from a private module (regex #173: `inst.rs` → `prog.rs`) was private.
        let read_base_first = |path: &str| sources.base(path).or_else(|| sources.head(path));
        let base = scope(
            base_path,
            grammar,
            base_source.unwrap_or(any_source),
            &read_base_first,
        );
        Scopes { base, head }
    }

    /// Whether the axis compares the file's surfaces: something of it may be exported at one
    /// side, and its package was not withdrawn from publishing at the head.
    pub(crate) fn compared(&self) -> bool {
        (self.head.is_api() || self.base.is_api())
            && !(matches!(self.head, Visibility::Unpublished(_)) && self.base.is_api())
    }
}

/// A changed file's surfaces, read while the file was parsed, and what they were read with.
#[derive(Debug, Clone)]
pub(crate) struct EarlySurfaces {
    pub scopes: Scopes,
    /// Read from the base text the file's reading keeps (`base_source`), when it parsed.
    pub base: Option<Result<Surface, Unreadable>>,
    /// Read from the head file in the worktree, when it is UTF-8 (the axis reads it as text).
    pub head: Option<Result<Surface, Unreadable>>,
}

/// Whether the parsing threads should read `file`'s surfaces early, with these scopes: a
/// language with a surface rule (the others are read from tags) that the axis compares.
fn wanted(
    file: &FileDiff,
    grammar: Grammar,
    sources: &Sources<'_>,
    base: Option<&[u8]>,
) -> Option<Scopes> {
    if by_tags_only(grammar).is_some() || super::scope::not_api_path(&file.path) {
        return None;
    }
    let head = match file.status {
        crate::diff::FileStatus::Deleted => None,
        _ => Some(sources.head(&file.path)?),
    };
    let base = base.map(String::from_utf8_lossy);
    let scopes = Scopes::of(
        &file.path,
        file.old_path.as_deref().unwrap_or(&file.path),
        grammar,
        head.as_deref(),
        base.as_deref(),
        sources,
    );
    scopes.compared().then_some(scopes)
}

/// The surfaces are read on the parsing threads, from the trees the cohorts' reading of the
/// changed files parses: the scopes decided before it ([`wanted`]), the surfaces from its trees
/// ([`read_early`]).
impl TreeReader for Sources<'_> {
    type Plan = Scopes;
    type Read = EarlySurfaces;

    fn plan(&self, file: &FileDiff, grammar: Grammar, base: Option<&[u8]>) -> Option<Scopes> {
        wanted(file, grammar, self, base)
    }

    fn read(scopes: Scopes, trees: Trees<'_>, tagger: &mut Tagger) -> EarlySurfaces {
        let Trees {
            grammar,
            file,
            base,
            head_tree,
            head,
        } = trees;
        read_early(scopes, grammar, file, base, head_tree, head, tagger)
    }
}

/// Reads the surfaces for `scopes` from the base's tree and the head's: `head_tree` when the
/// head was parsed already, else reparsed from the base's. A side whose text is not UTF-8 is
/// left to the axis, which reads it lossily.
fn read_early(
    scopes: Scopes,
    grammar: Grammar,
    file: &FileDiff,
    base: Option<(&Tree, &[u8])>,
    head_tree: Option<&Tree>,
    head: Option<&[u8]>,
    tagger: &mut Tagger,
) -> EarlySurfaces {
    let base_surface = base
        .filter(|(_, text)| std::str::from_utf8(text).is_ok())
        .map(|(tree, text)| extract_tree(grammar, tree, text, &|n| scopes.base.exports(n)));
    let head_surface = head
        .filter(|text| std::str::from_utf8(text).is_ok())
        .map(|text| {
            let exported = |n: &str| scopes.head.exports(n);
            match head_tree {
                Some(tree) => extract_tree(grammar, tree, text, &exported),
                None => match reparse::head_tree(tagger, grammar, file, base, text) {
                    Some(tree) => extract_tree(grammar, &tree, text, &exported),
                    None => Err(Unreadable),
                },
            }
        });
    EarlySurfaces {
        scopes,
        base: base_surface,
        head: head_surface,
    }
}
