//! The releases a review's base descends from, read from the version tags the mirror keeps
//! (see `space::version_tags`): a package's last release reachable from the base, and
//! whether an item could have been in it.
//!
//! Tags are outside input. Only tags reachable from the base count (one made on another
//! branch, or on a commit the base never saw, says nothing about what users of this line
//! have), and every doubt answers "released", which leaves the axis as it was without tags:
//! no tag of the package, a history that cannot be walked, a tree that cannot be read, more
//! lines of release than [`MOST_LINES`].

use std::cell::{OnceCell, RefCell};
use std::collections::{BinaryHeap, HashMap, HashSet};
use std::rc::Rc;

use git2::{ObjectType, Oid, Repository, TreeWalkMode, TreeWalkResult};

use crate::space::version_tags::{TAGS, split_version_tag};

use super::version::{Files, Package};
use crate::cohort::paths::{language_family, parent_dir};

/// Tag prefixes that name no package: the repository's own releases (`release-1.2.0`).
const GENERIC: &[&str] = &["", "release", "releases", "rel", "version", "ver"];
/// More lines of release than this reachable from one base (merged release branches, each
/// with its newest tag): too tangled to say what was released; every item counts as released.
const MOST_LINES: usize = 8;
/// More releases of other lines than this to read (see [`Releases::last`]): every item counts
/// as released.
const MOST_PARALLEL: usize = 64;
/// A release tree with more source of one language than this is not read: every item of it
/// counts as released.
const MOST_BYTES: usize = 256 << 20;

struct Tag {
    name: String,
    /// The prefix before the version, normalised (see [`normalise`]).
    prefix: String,
    version: String,
    target: Oid,
}

/// A tag that names a release of one package, and its commit.
struct Claim<'t> {
    tag: &'t Tag,
    commit: Oid,
    /// The tag is surely the package's: its prefix names the package, or the package's
    /// manifest at the tag writes its version.
    sure: bool,
}

/// A package's last release reachable from the base: the newest tagged commit on each line of
/// history that leads to the base (usually one; a release branch merged back adds its own).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Release {
    /// Tag name and commit of each.
    pub tags: Vec<(String, Oid)>,
    /// Releases of the package on other lines with a higher version (see
    /// [`Releases::last`]), tag name and commit.
    pub parallel: Vec<(String, Oid)>,
    /// The highest version among `tags`, as its tag writes it (`v3.0.0-beta1`).
    pub version: String,
    /// False when there were too many releases on other lines to read: every item counts
    /// as released.
    pub complete: bool,
    /// Every one of `tags` is surely the package's: it names the package (`tower-0.3.1`), or
    /// it is a bare version tag (`v0.3.1`) at which the package's manifest writes that
    /// version; none is a bare tag that may be another package's of the repository.
    pub named: bool,
}

impl Release {
    /// `v1.6.0`, or `v1.6.0, 1.5.2` for several lines, and the other lines' releases read.
    pub(crate) fn names(&self) -> String {
        let names = |tags: &[(String, Oid)]| {
            tags.iter()
                .map(|(name, _)| name.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        };
        let mut text = format!("{}, the last release", names(&self.tags));
        if !self.parallel.is_empty() {
            text.push_str(&format!(
                ", nor in {} (released on another branch)",
                names(&self.parallel)
            ));
        }
        text
    }
}

/// The words of one release's source files of one language.
type Words = Rc<HashSet<String>>;

/// A release commit, a language family and, for Go, the package directory read alone.
type WordsKey = (Oid, String, Option<String>);

/// A commit, a package's folder and its manifest's kind.
type StatedKey = (Oid, String, Option<&'static str>);

/// What the version tags of the repository holding the base say, each answer read once.
pub(crate) struct Releases<'a> {
    repo: Option<(&'a Repository, Oid)>,
    tags: OnceCell<Vec<Tag>>,
    last: RefCell<HashMap<Vec<String>, Option<Rc<Release>>>>,
    words: RefCell<HashMap<WordsKey, Option<Words>>>,
    /// The version a package's manifest (by its folder and kind) writes at a commit.
    stated: RefCell<HashMap<StatedKey, Option<String>>>,
}

impl<'a> Releases<'a> {
    /// `repo`: the repository holding the base, and the base commit; `None` knows no release.
    pub(crate) fn new(repo: Option<(&'a Repository, Oid)>) -> Self {
        Releases {
            repo,
            tags: OnceCell::new(),
            last: RefCell::default(),
            words: RefCell::default(),
            stated: RefCell::default(),
        }
    }

    fn tags(&self) -> &[Tag] {
        self.tags.get_or_init(|| {
            let Some((repo, _)) = self.repo else {
                return Vec::new();
            };
            let Ok(refs) = repo.references_glob(&format!("{TAGS}*")) else {
                return Vec::new();
            };
            refs.flatten()
                .filter_map(|reference| {
                    let name = reference.name().ok()?.strip_prefix(TAGS)?.to_string();
                    let (prefix, version) = split_version_tag(&name)?;
                    Some(Tag {
                        prefix: normalise(prefix),
                        version: version.to_string(),
                        target: reference.target()?,
                        name,
                    })
                })
                .collect()
        })
    }

    /// Whether a version tag names `commit`: the range reviewed ends at a release.
    pub(crate) fn is_release(&self, commit: Oid) -> bool {
        let Some((repo, _)) = self.repo else {
            return false;
        };
        self.tags().iter().any(|tag| {
            repo.find_object(tag.target, None)
                .and_then(|object| object.peel_to_commit())
                .is_ok_and(|c| c.id() == commit)
        })
    }

    /// The highest version a tag of `package` gives `commit` (the range's head), by the rule
    /// of [`Releases::last`] for which tags are the package's.
    pub(crate) fn version_at(&self, commit: Oid, package: &Package) -> Option<String> {
        let (repo, _) = self.repo?;
        self.package_tags(repo, package)
            .into_iter()
            .filter(|claim| claim.commit == commit)
            .max_by(|a, b| order(&a.tag.version).cmp(&order(&b.tag.version)))
            .map(|claim| claim.tag.version.clone())
    }

    /// The last release of `package` reachable from the base. Its tags are those whose
    /// prefix names it (`tokio-util-0.7.0` for `tokio-util`, `sub/v1.0.0` for the Go module in
    /// `sub`), and those without one (`v1.2.3`, `1.2.3`) as [`Releases::package_tags`] says.
    pub(crate) fn last(&self, package: &Package) -> Option<Rc<Release>> {
        self.last_up_to(package, None)
    }

    /// [`Releases::last`] among the releases of `package` whose version is at most
    /// `version`: the line a manifest moved back to (`1.0.1` → `0.5.0`, a revert of the
    /// change that began the newer line) continues from those, whose users never had the
    /// newer line's API.
    pub(crate) fn last_at_most(&self, package: &Package, version: &str) -> Option<Rc<Release>> {
        self.last_up_to(package, Some(version))
    }

    fn last_up_to(&self, package: &Package, at_most: Option<&str>) -> Option<Rc<Release>> {
        let mut key = package.names.clone();
        key.extend(at_most.map(|v| format!("<= {v}")));
        if let Some(known) = self.last.borrow().get(&key) {
            return known.clone();
        }
        let found = self.find_last(package, at_most).map(Rc::new);
        self.last.borrow_mut().insert(key, found.clone());
        found
    }

    /// The tag that released `version` of `package` on a line of history beside the base's,
    /// if one did: a release branch's `1.4.13` while the main line, whose manifest says
    /// 1.4.13 too, has only `1.4.12` behind it. That version has shipped, so the main line has
    /// not chosen it for its next release. A tag on a commit after the base (this line's own
    /// later release) says nothing about the base; every doubt answers none.
    pub(crate) fn released_beside(&self, package: &Package, version: &str) -> Option<String> {
        let (repo, base) = self.repo?;
        let by_commit = self.tagged_commits(repo, package, None);
        let wanted = order(version);
        let mut matching: Vec<(Oid, &str)> = by_commit
            .iter()
            .flat_map(|(commit, claims)| {
                claims
                    .iter()
                    .filter(|claim| order(&claim.tag.version) == wanted)
                    .map(move |claim| (*commit, claim.tag.name.as_str()))
            })
            .collect();
        matching.sort();
        let candidates: Vec<Oid> = matching.iter().map(|(commit, _)| *commit).collect();
        let later = descendants(repo, base, &candidates)?;
        matching
            .into_iter()
            .find(|(commit, _)| !later.contains(commit))
            .map(|(_, name)| name.to_string())
    }

    /// The highest version `package` released on a line of history beside the base's, when
    /// no release of it is behind the base: a rewrite begun on a history of its own (a new
    /// major's development with the old line's tags on another branch). Tags on commits
    /// after the base are this line's own later releases and say nothing. Every doubt answers
    /// none.
    pub(crate) fn newest_beside(&self, package: &Package) -> Option<String> {
        let (repo, base) = self.repo?;
        if self.last(package).is_some() {
            return None;
        }
        let by_commit = self.tagged_commits(repo, package, None);
        let candidates: Vec<Oid> = by_commit.keys().copied().collect();
        let later = descendants(repo, base, &candidates)?;
        by_commit
            .iter()
            .filter(|(commit, _)| !later.contains(commit))
            .flat_map(|(_, claims)| claims.iter().map(|claim| claim.tag.version.as_str()))
            .max_by(|a, b| order(a).cmp(&order(b)))
            .map(str::to_string)
    }

    /// Whether `package` has release tags in the repository, yet none on a commit behind the
    /// base, its whole history read: the base comes before the package's first release (fx in
    /// 2016-17, before `v1.0.0-beta1`). Every doubt answers no: no tag of the package at all
    /// (a clone may lack the tags), a shallow history, one that cannot be walked.
    pub(crate) fn before_the_first(&self, package: &Package) -> bool {
        let Some((repo, base)) = self.repo else {
            return false;
        };
        if repo.is_shallow() {
            return false;
        }
        let by_commit = self.tagged_commits(repo, package, None);
        !by_commit.is_empty()
            && lines_of_release(repo, base, &|oid| by_commit.contains_key(&oid))
                .is_some_and(|lines| lines.is_empty())
    }

    /// The commits the tags of `package` name (see [`Releases::last`] for which are its),
    /// those of versions at most `at_most` when given.
    fn tagged_commits(
        &self,
        repo: &Repository,
        package: &Package,
        at_most: Option<&str>,
    ) -> HashMap<Oid, Vec<Claim<'_>>> {
        let mut by_commit: HashMap<Oid, Vec<Claim>> = HashMap::new();
        for claim in self.package_tags(repo, package) {
            if at_most.is_some_and(|most| order(&claim.tag.version) > order(most)) {
                continue;
            }
            by_commit.entry(claim.commit).or_default().push(claim);
        }
        by_commit
    }

    /// The tags that name releases of `package`, each with its commit. A tag whose prefix
    /// names the package is its release. A bare version tag (`v1.2.3`, `1.2.3`) is the
    /// release of a package whose manifest at the tag writes that version (a workspace
    /// released in lockstep, whichever scheme its later tags use), and never of one whose
    /// manifest there writes another (the tag is another package's of the repository).
    /// Where the manifest there writes no version to compare (a Go module, a version left to
    /// the build, no manifest at the tag), a bare tag counts for the package at the
    /// repository's root, or for any package when no tag names another. The root package's
    /// bare tags count whatever its manifest writes: they are its releases by convention, and
    /// a root manifest may carry a placeholder the release tooling replaces
    /// (`0.0.0-development`).
    fn package_tags(&self, repo: &Repository, package: &Package) -> Vec<Claim<'_>> {
        let names: HashSet<String> = package.names.iter().map(|n| normalise(n)).collect();
        let tags = self.tags();
        let generic = |t: &Tag| GENERIC.contains(&t.prefix.as_str());
        let bare_count =
            package.root.is_empty() || tags.iter().all(|t| generic(t) || names.contains(&t.prefix));
        let mut claims = Vec::new();
        for tag in tags {
            let named = names.contains(&tag.prefix);
            if !(named || generic(tag)) {
                continue;
            }
            let Ok(commit) = repo
                .find_object(tag.target, None)
                .and_then(|o| o.peel_to_commit())
            else {
                continue;
            };
            let stated = if named {
                None
            } else {
                self.stated_version(repo, &commit, package)
            };
            let sure = named
                || stated
                    .as_deref()
                    .is_some_and(|v| same_version(v, &tag.version));
            let counts = sure || (bare_count && (stated.is_none() || package.root.is_empty()));
            if counts {
                claims.push(Claim {
                    tag,
                    commit: commit.id(),
                    sure,
                });
            }
        }
        claims
    }

    /// The version `package`'s manifest writes in `commit`'s tree, each read once.
    fn stated_version(
        &self,
        repo: &Repository,
        commit: &git2::Commit,
        package: &Package,
    ) -> Option<String> {
        let key = (commit.id(), package.root.clone(), package.manifest_kind());
        if let Some(known) = self.stated.borrow().get(&key) {
            return known.clone();
        }
        let tree = commit.tree().ok();
        let read = |path: &str| {
            let entry = tree.as_ref()?.get_path(std::path::Path::new(path)).ok()?;
            let blob = repo.find_blob(entry.id()).ok()?;
            Some(String::from_utf8_lossy(blob.content()).into_owned())
        };
        let list = |dir: &str| -> Vec<String> {
            let Some(tree) = tree.as_ref() else {
                return Vec::new();
            };
            let folder = if dir.is_empty() {
                Some(tree.clone())
            } else {
                tree.get_path(std::path::Path::new(dir))
                    .ok()
                    .and_then(|entry| repo.find_tree(entry.id()).ok())
            };
            folder.map_or_else(Vec::new, |folder| {
                folder
                    .iter()
                    .filter_map(|entry| entry.name().ok().map(str::to_string))
                    .collect()
            })
        };
        let stated = package.version_in(Files {
            read: &read,
            list: &list,
        });
        self.stated.borrow_mut().insert(key, stated.clone());
        stated
    }

    fn find_last(&self, package: &Package, at_most: Option<&str>) -> Option<Release> {
        let (repo, base) = self.repo?;
        let by_commit = self.tagged_commits(repo, package, at_most);
        if by_commit.is_empty() {
            return None;
        }
        let lines = lines_of_release(repo, base, &|oid| by_commit.contains_key(&oid))?;
        let mut tagged: Vec<&Claim> = lines.iter().flat_map(|commit| &by_commit[commit]).collect();
        tagged.sort_by(|a, b| a.tag.name.cmp(&b.tag.name));
        let version = tagged
            .iter()
            .max_by(|a, b| order(&a.tag.version).cmp(&order(&b.tag.version)))?
            .tag
            .version
            .clone();
        // Releases of another line (a release branch's backport: `1.6.1` made beside the
        // base's history, not before it or after it) with a higher version may have shipped
        // an item the last release on this line lacks: they are read too. Later releases of
        // this line (tags on commits that descend from the base) cannot have.
        let newer: Vec<(Oid, Vec<&Tag>)> = by_commit
            .iter()
            .filter(|(commit, _)| !lines.contains(commit))
            .map(|(commit, claims)| {
                let newer: Vec<&Tag> = claims
                    .iter()
                    .map(|claim| claim.tag)
                    .filter(|t| order(&t.version) > order(&version))
                    .collect();
                (*commit, newer)
            })
            .filter(|(_, newer)| !newer.is_empty())
            .collect();
        let candidates: Vec<Oid> = newer.iter().map(|(commit, _)| *commit).collect();
        // One walk for all of them, not a merge base each (tokio's range from 1.0.0 has a
        // hundred later tags, each a walk of thousands of commits). A history that cannot be
        // walked, or too many other lines to read, counts every item as released.
        let later = descendants(repo, base, &candidates);
        let mut parallel: Vec<(String, Oid)> = match &later {
            Some(later) => newer
                .iter()
                .filter(|(commit, _)| !later.contains(commit))
                .flat_map(|(commit, tags)| tags.iter().map(|t| (t.name.clone(), *commit)))
                .collect(),
            None => Vec::new(),
        };
        let complete = later.is_some() && parallel.len() <= MOST_PARALLEL;
        if !complete {
            parallel.clear();
        }
        parallel.sort();
        let named = tagged.iter().all(|claim| claim.sure);
        Some(Release {
            named,
            tags: tagged
                .into_iter()
                .map(|claim| (claim.tag.name.clone(), claim.commit))
                .collect(),
            parallel,
            version,
            complete,
        })
    }

    /// Whether the item keyed `key` of the file at `path` could have been in `release`: no
    /// release of it lacks every name the key is made of. A name absent from all the
    /// release's source of the file's language (tests and all) means the item was not there
    /// to be used; anything unread answers yes. A Go package is its directory, so a Go item
    /// is looked for among the files of its directory only (logrus #943: `terminal.IsTerminal`
    /// was in v1.4.0 as another module's function, called from the root package, while this
    /// repository's `terminal/` package was made after it).
    pub(crate) fn could_be_in(&self, release: &Release, path: &str, key: &str) -> bool {
        let names: Vec<&str> = key
            .split(|c: char| !is_word_char(c))
            .filter(|w| !w.is_empty() && !w.chars().all(|c| c.is_ascii_digit()))
            .collect();
        if names.is_empty() {
            return true;
        }
        if !release.complete {
            return true;
        }
        let family = language_family(path).to_string();
        let package = (family == "go").then(|| parent_dir(path));
        release
            .tags
            .iter()
            .chain(&release.parallel)
            .any(
                |(_, commit)| match self.words_at(*commit, &family, package) {
                    Some(words) => names.iter().all(|n| words.contains(*n)),
                    None => true,
                },
            )
    }

    /// The text of the file at `path` in each of `release`'s commits (its tags' and the
    /// other lines' releases), or `None` when one of them lacks it or cannot be read.
    pub(crate) fn sources(&self, release: &Release, path: &str) -> Option<Vec<String>> {
        let (repo, _) = self.repo?;
        if !release.complete {
            return None;
        }
        release
            .tags
            .iter()
            .chain(&release.parallel)
            .map(|(_, commit)| {
                let tree = repo.find_commit(*commit).ok()?.tree().ok()?;
                let entry = tree.get_path(std::path::Path::new(path)).ok()?;
                let blob = repo.find_blob(entry.id()).ok()?;
                Some(String::from_utf8_lossy(blob.content()).into_owned())
            })
            .collect()
    }

    /// Every word of the source files of `family` in `commit`'s tree, or only of those
    /// directly in the directory `package` (none when it is not there).
    fn words_at(&self, commit: Oid, family: &str, package: Option<&str>) -> Option<Words> {
        let key = (commit, family.to_string(), package.map(str::to_string));
        if let Some(known) = self.words.borrow().get(&key) {
            return known.clone();
        }
        let read = || -> Option<HashSet<String>> {
            let (repo, _) = self.repo?;
            let mut tree = repo.find_commit(commit).ok()?.tree().ok()?;
            if let Some(dir) = package.filter(|d| !d.is_empty()) {
                match tree.get_path(std::path::Path::new(dir)) {
                    Ok(entry) if entry.kind() == Some(ObjectType::Tree) => {
                        tree = repo.find_tree(entry.id()).ok()?;
                    }
                    Ok(_) => return Some(HashSet::new()),
                    Err(e) if e.code() == git2::ErrorCode::NotFound => {
                        return Some(HashSet::new());
                    }
                    Err(_) => return None,
                }
            }
            let mut words = HashSet::new();
            let mut bytes = 0usize;
            let mut failed = false;
            tree.walk(TreeWalkMode::PreOrder, |dir, entry| {
                // The package's own files only, not its sub-packages.
                if package.is_some() && entry.kind() == Some(ObjectType::Tree) {
                    return TreeWalkResult::Skip;
                }
                if entry.kind() != Some(ObjectType::Blob) {
                    return TreeWalkResult::Ok;
                }
                let path = format!("{dir}{}", entry.name().unwrap_or(""));
                if language_family(&path) != family {
                    return TreeWalkResult::Ok;
                }
                let Ok(blob) = repo.find_blob(entry.id()) else {
                    failed = true;
                    return TreeWalkResult::Abort;
                };
                bytes += blob.size();
                if bytes > MOST_BYTES {
                    failed = true;
                    return TreeWalkResult::Abort;
                }
                let text = String::from_utf8_lossy(blob.content());
                for word in text.split(|c: char| !is_word_char(c)) {
                    if !word.is_empty() && !words.contains(word) {
                        words.insert(word.to_string());
                    }
                }
                TreeWalkResult::Ok
            })
            .ok()?;
            (!failed).then_some(words)
        };
        let words = read().map(Rc::new);
        self.words.borrow_mut().insert(key, words.clone());
        words
    }
}

/// The tagged commits (`tagged`) that are the newest on each line of history behind `base`:
/// those no other tagged commit found descends from. Commits are read newest first, as git
/// describe does, each once; a commit that a release found reaches is covered, and the walk
/// ends when only covered commits are left to read. A clock skew can only add a line, never
/// lose one. `None` when the history cannot be read or has more than [`MOST_LINES`] lines.
fn lines_of_release(
    repo: &Repository,
    base: Oid,
    tagged: &dyn Fn(Oid) -> bool,
) -> Option<Vec<Oid>> {
    let time = |oid: Oid| repo.find_commit(oid).ok().map(|c| c.time().seconds());
    let mut queue: BinaryHeap<(i64, Oid)> = BinaryHeap::new();
    let mut queued: HashSet<Oid> = HashSet::new();
    let mut covered: HashSet<Oid> = HashSet::new();
    // Queued commits not covered: while there is none, nothing left can start a line.
    let mut open = 1usize;
    queue.push((time(base)?, base));
    queued.insert(base);
    let mut lines = Vec::new();
    while open > 0 {
        let (_, oid) = queue.pop()?;
        let mut is_covered = covered.contains(&oid);
        if !is_covered {
            open -= 1;
            if tagged(oid) {
                if lines.len() == MOST_LINES {
                    return None;
                }
                lines.push(oid);
                covered.insert(oid);
                is_covered = true;
            }
        }
        let commit = repo.find_commit(oid).ok()?;
        for parent in commit.parent_ids() {
            let newly_covered = is_covered && covered.insert(parent);
            if queued.insert(parent) {
                queue.push((time(parent)?, parent));
                if !is_covered {
                    open += 1;
                }
            } else if newly_covered && queue.iter().any(|(_, q)| *q == parent) {
                // Queued as open, covered now.
                open -= 1;
            }
        }
    }
    Some(lines)
}

/// Which of `candidates` are `base` or descend from it (what `merge_base(candidate, base) ==
/// base` says, one walk each), decided in one
/// walk of the commits reachable from the candidates and not from the base, parents before
/// children: a commit descends from the base when one of its parents is the base or descends
/// from it. A commit the walk yields though the base reaches it (libgit2's walk stops marking
/// at a clock skew) has no parent that descends, so it never counts. `None` when the history
/// cannot be read.
fn descendants(repo: &Repository, base: Oid, candidates: &[Oid]) -> Option<HashSet<Oid>> {
    if candidates.is_empty() {
        return Some(HashSet::new());
    }
    let mut walk = repo.revwalk().ok()?;
    walk.set_sorting(git2::Sort::TOPOLOGICAL | git2::Sort::REVERSE)
        .ok()?;
    for candidate in candidates {
        walk.push(*candidate).ok()?;
    }
    walk.hide(base).ok()?;
    let mut later: HashSet<Oid> = HashSet::new();
    for oid in walk {
        let oid = oid.ok()?;
        let commit = repo.find_commit(oid).ok()?;
        if commit
            .parent_ids()
            .any(|parent| parent == base || later.contains(&parent))
        {
            later.insert(oid);
        }
    }
    Some(
        candidates
            .iter()
            .copied()
            .filter(|c| *c == base || later.contains(c))
            .collect(),
    )
}

/// A digest of the version tags of `repo` (names and targets): what the releases read from
/// them depend on.
pub(crate) fn tags_fingerprint(repo: &Repository) -> String {
    use sha2::{Digest, Sha256};
    let mut tags: Vec<(String, Oid)> = repo
        .references_glob(&format!("{TAGS}*"))
        .map(|refs| {
            refs.flatten()
                .filter_map(|r| Some((r.name().ok()?.to_string(), r.target()?)))
                .filter(|(name, _)| split_version_tag(&name[TAGS.len()..]).is_some())
                .collect()
        })
        .unwrap_or_default();
    tags.sort();
    let mut hash = Sha256::new();
    for (name, target) in &tags {
        hash.update(name.as_bytes());
        hash.update(target.as_bytes());
    }
    hash.finalize().iter().map(|b| format!("{b:02x}")).collect()
}

fn is_word_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_' || c == '$'
}

/// Whether a manifest's version and a tag's are the same release: `0.8.2` and `v0.8.2`, `1.2`
/// and `1.2.0`, `2.0.0rc1` and `v2.0.0-rc.1`.
fn same_version(manifest: &str, tag: &str) -> bool {
    let parts = |version: &str| {
        let version = version.trim().trim_start_matches(['v', 'V']);
        let end = version
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .unwrap_or(version.len());
        let (release, rest) = version.split_at(end);
        let mut numbers: Vec<u64> = release
            .split('.')
            .filter(|n| !n.is_empty())
            .map(|n| n.parse().unwrap_or(u64::MAX))
            .collect();
        while numbers.len() > 1 && numbers.last() == Some(&0) {
            numbers.pop();
        }
        let rest: String = rest
            .chars()
            .filter(|c| c.is_ascii_alphanumeric() || *c == '+')
            .map(|c| c.to_ascii_lowercase())
            .collect();
        (numbers, rest)
    };
    parts(manifest) == parts(tag)
}

/// Package names and tag prefixes compared alike: `Tokio_Util`, `tokio.util`, `tokio-util`.
fn normalise(name: &str) -> String {
    name.to_ascii_lowercase().replace(['_', '.'], "-")
}

/// Versions in order: the numbers, then a release above its pre-releases (`1.0.0-rc.1` <
/// `1.0.0`).
fn order(version: &str) -> (Vec<u64>, bool) {
    let version = version.trim_start_matches(['v', 'V']);
    let end = version
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(version.len());
    let (release, rest) = version.split_at(end);
    let numbers = release
        .split('.')
        .filter(|n| !n.is_empty())
        .map(|n| n.parse().unwrap_or(0))
        .collect();
    (numbers, rest.is_empty() || rest.starts_with('+'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_order_by_numbers_then_release_above_pre_release() {
        assert!(order("v1.10.0") > order("v1.9.3"));
        assert!(order("1.0.0") > order("1.0.0-rc.1"));
        assert!(order("v3.0.0-beta1.01") > order("v2.27.6"));
        assert!(order("2.0.0+build") > order("2.0.0rc1"));
    }

    /// A repository whose commits are made with explicit times (a clock skew is a commit
    /// older than its parent), on an empty tree.
    struct History {
        _dir: tempfile::TempDir,
        repo: Repository,
    }

    impl History {
        fn new() -> History {
            let dir = tempfile::tempdir().unwrap();
            let repo = Repository::init_bare(dir.path()).unwrap();
            History { _dir: dir, repo }
        }

        fn commit(&self, time: i64, parents: &[Oid]) -> Oid {
            let tree = self.repo.treebuilder(None).unwrap().write().unwrap();
            let tree = self.repo.find_tree(tree).unwrap();
            let sig =
                git2::Signature::new("T", "t@example.com", &git2::Time::new(time, 0)).unwrap();
            let parents: Vec<git2::Commit> = parents
                .iter()
                .map(|p| self.repo.find_commit(*p).unwrap())
                .collect();
            let parents: Vec<&git2::Commit> = parents.iter().collect();
            self.repo
                .commit(None, &sig, &sig, &format!("at {time}"), &tree, &parents)
                .unwrap()
        }
    }

    #[test]
    fn one_walk_says_what_a_merge_base_per_commit_says() {
        let h = History::new();
        let root = h.commit(100, &[]);
        let a1 = h.commit(200, &[root]);
        // An ancestor of the base dated in the future (a skewed clock), merged into it.
        let future = h.commit(9_000_000, &[root]);
        let base = h.commit(300, &[a1, future]);
        let m1 = h.commit(400, &[base]);
        let m2 = h.commit(450, &[m1]);
        // A release branch from before the base, with a backport tag on it.
        let backport = h.commit(350, &[a1]);
        let backport2 = h.commit(360, &[backport]);
        // A side branch from the base whose first commit is dated before the base.
        let skewed = h.commit(50, &[base]);
        let side = h.commit(500, &[skewed]);
        // Merges: the base reached through a second parent only, and not at all.
        let through_second = h.commit(600, &[backport2, side]);
        let base_into_branch = h.commit(610, &[backport2, base]);
        let unrelated_merge = h.commit(620, &[backport2, a1]);
        let merge_on_main = h.commit(700, &[m2, backport2]);
        // A commit the base never saw: no common ancestor at all.
        let orphan = h.commit(800, &[]);
        let orphan_child = h.commit(810, &[orphan]);
        let all = [
            root,
            a1,
            future,
            base,
            m1,
            m2,
            backport,
            backport2,
            skewed,
            side,
            through_second,
            base_into_branch,
            unrelated_merge,
            merge_on_main,
            orphan,
            orphan_child,
        ];
        let oracle: HashSet<Oid> = all
            .iter()
            .copied()
            .filter(|c| h.repo.merge_base(*c, base).ok() == Some(base))
            .collect();
        let expected: HashSet<Oid> = [
            base,
            m1,
            m2,
            skewed,
            side,
            through_second,
            base_into_branch,
            merge_on_main,
        ]
        .into();
        assert_eq!(oracle, expected, "the test's own history");
        assert_eq!(descendants(&h.repo, base, &all), Some(expected.clone()));
        // Asked one at a time, each answer is the same as asked together.
        for commit in all {
            assert_eq!(
                descendants(&h.repo, base, &[commit]),
                Some(expected.iter().copied().filter(|c| *c == commit).collect()),
                "{commit}"
            );
        }
        assert_eq!(descendants(&h.repo, base, &[]), Some(HashSet::new()));
    }

    #[test]
    fn a_history_that_cannot_be_walked_decides_nothing() {
        let h = History::new();
        let base = h.commit(100, &[]);
        let missing = Oid::from_str("0123456789012345678901234567890123456789").unwrap();
        assert_eq!(descendants(&h.repo, base, &[missing]), None);
    }

    #[test]
    fn same_version_reads_a_tag_and_a_manifest_alike() {
        assert!(same_version("0.8.2", "v0.8.2"));
        assert!(same_version("1.2", "1.2.0"));
        assert!(same_version("2.0.0rc1", "v2.0.0-rc.1"));
        assert!(!same_version("0.8.2", "v0.8.3"));
        assert!(!same_version("1.0.0", "1.0.0-rc.1"));
        assert!(!same_version("0.8", "0.8.2"));
    }

    /// A manifest's file name and text for a package's name and version.
    type Writes<'a> = &'a dyn Fn(&str, &str) -> (String, String);

    /// What the tags of a repository say of the package at `path` in its last commit: a
    /// workspace of the folders `a/` and `b/` whose manifests `manifest(name, version)` writes,
    /// committed as `commits` (the versions of `a` and `b`, then the tags), base at the last.
    fn released_in_workspace(
        manifest: Writes,
        grammar: crate::parse::grammar::Grammar,
        commits: &[(&str, &str, &[&str])],
        path: &str,
    ) -> Option<(Vec<String>, bool)> {
        use crate::space::test_repo::{commit_all, git, init};
        let dir = tempfile::tempdir().unwrap();
        init(dir.path());
        let write = |path: &str, text: &str| {
            let full = dir.path().join(path);
            std::fs::create_dir_all(full.parent().unwrap()).unwrap();
            std::fs::write(full, text).unwrap();
        };
        for (a, b, tags) in commits {
            for (folder, version) in [("a", a), ("b", b)] {
                let (file, text) = manifest(folder, version);
                write(&format!("{folder}/{file}"), &text);
            }
            commit_all(dir.path(), "release");
            for tag in *tags {
                git(dir.path(), &["tag", tag]);
            }
        }
        let repo = Repository::open(dir.path()).unwrap();
        let base = repo.head().unwrap().peel_to_commit().unwrap().id();
        let read = |p: &str| std::fs::read_to_string(dir.path().join(p)).ok();
        let list = |d: &str| -> Vec<String> {
            std::fs::read_dir(dir.path().join(d))
                .map(|entries| {
                    entries
                        .flatten()
                        .map(|e| e.file_name().to_string_lossy().into_owned())
                        .collect()
                })
                .unwrap_or_default()
        };
        let files = Files {
            read: &read,
            list: &list,
        };
        let package = super::super::version::package_of(path, grammar, files).unwrap();
        let releases = Releases::new(Some((&repo, base)));
        let release = releases.last(&package)?;
        let names = release.tags.iter().map(|(name, _)| name.clone()).collect();
        Some((names, release.named))
    }

    #[test]
    fn a_bare_tag_is_each_workspace_packages_release_whose_manifest_writes_its_version() {
        use crate::parse::grammar::Grammar;
        let cargo = |name: &str, version: &str| {
            let text = format!("[package]\nname = \"{name}\"\nversion = \"{version}\"\n");
            ("Cargo.toml".to_string(), text)
        };
        let npm = |name: &str, version: &str| {
            let text = format!("{{\"name\": \"@scope/{name}\", \"version\": \"{version}\"}}\n");
            ("package.json".to_string(), text)
        };
        let python = |name: &str, version: &str| {
            let text = format!("[project]\nname = \"{name}\"\nversion = \"{version}\"\n");
            ("pyproject.toml".to_string(), text)
        };
        let ecosystems: [(Writes, Grammar, &str); 3] = [
            (&cargo, Grammar::Rust, "b/src/lib.rs"),
            (&npm, Grammar::JavaScript, "b/index.js"),
            (&python, Grammar::Python, "b/b/__init__.py"),
        ];
        for (manifest, grammar, path) in ecosystems {
            // Released in lockstep as `v1.2.0`, then `a` alone as `v1.3.0` (`b` at 1.2.5
            // there), then tags that name each package (`a-v2.0.0`).
            let released = released_in_workspace(
                manifest,
                grammar,
                &[
                    ("1.2.0", "1.2.0", &["v1.2.0"]),
                    ("1.3.0", "1.2.5", &["v1.3.0"]),
                    ("2.0.0", "1.2.5", &["a-v2.0.0"]),
                ],
                path,
            );
            assert_eq!(
                released,
                Some((vec!["v1.2.0".to_string()], true)),
                "{grammar:?}"
            );
            // A tag that names the package wins over a later bare tag of another version.
            let released = released_in_workspace(
                manifest,
                grammar,
                &[
                    ("1.2.0", "1.1.0", &["b-v1.1.0"]),
                    ("1.3.0", "1.1.0", &["v1.3.0"]),
                ],
                path,
            );
            assert_eq!(
                released,
                Some((vec!["b-v1.1.0".to_string()], true)),
                "{grammar:?}"
            );
        }
    }
}
