//! Uncommitted work as a commit: the checked-out commit plus what the person changed on top of
//! it (`--worktree`: staged, unstaged and untracked files git does not ignore; `--staged`: the
//! index only), written as a commit object whose parent is `HEAD`, the way `git stash create`
//! does. Only objects are written: the person's index, refs, stash list and files are read,
//! never changed, so a review of the work leaves the checkout exactly as it was. Everything
//! after (the space, the round, fingerprints, reports) sees an ordinary commit.
//!
//! The commit is a function of its tree and its parent (a fixed author and time), so the same
//! work snapshotted twice is the same commit: a review of an unchanged tree is no new round.

use std::path::{Path, PathBuf};

use git2::{Index, IndexEntry, IndexTime, Oid, Repository, Signature, StatusOptions, Time};
use thiserror::Error;

/// Which uncommitted work a review takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Uncommitted {
    /// Staged, unstaged and untracked files (not those git ignores).
    WorkingTree,
    /// The index only: what `git commit` would commit now.
    Staged,
}

impl Uncommitted {
    /// The word the review space is keyed by, beside the branch: `feature (worktree)`.
    pub fn label(self) -> &'static str {
        match self {
            Uncommitted::WorkingTree => "worktree",
            Uncommitted::Staged => "staged",
        }
    }

    /// The flag that asks for it.
    pub fn flag(self) -> &'static str {
        match self {
            Uncommitted::WorkingTree => "--worktree",
            Uncommitted::Staged => "--staged",
        }
    }

    /// What the snapshot holds, for its commit message and the person.
    fn described(self) -> &'static str {
        match self {
            Uncommitted::WorkingTree => "staged, unstaged and untracked files",
            Uncommitted::Staged => "staged files",
        }
    }
}

#[derive(Debug, Error)]
pub enum UncommittedError {
    #[error("{repo} is a bare repository: it has no working tree to review")]
    Bare { repo: String },
    #[error("{repo} has no commit yet: commit once, then review the work on top of it")]
    NoCommit { repo: String },
    #[error(
        "{repo} has unresolved merge conflicts in the index: resolve them (or use --worktree, \
         which reads the files as they are)"
    )]
    Conflicts { repo: String },
    #[error("reading {path}: {source}")]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("git: {0}")]
    Git(#[from] git2::Error),
}

/// The commit holding `which` work of the checkout of `repo`, its parent the checked-out
/// commit. Paths under `exclude` (the review's own data directory, when it lies inside the
/// work tree) are left as `HEAD` has them.
pub(crate) fn snapshot(
    repo: &Repository,
    which: Uncommitted,
    branch: &str,
    exclude: &[PathBuf],
) -> Result<Oid, UncommittedError> {
    let shown = || {
        repo.workdir()
            .unwrap_or_else(|| repo.path())
            .display()
            .to_string()
    };
    let Some(workdir) = repo.workdir().map(Path::to_path_buf) else {
        return Err(UncommittedError::Bare { repo: shown() });
    };
    let head = repo
        .head()
        .and_then(|head| head.peel_to_commit())
        .map_err(|_| UncommittedError::NoCommit { repo: shown() })?;
    let excluded = excluded_prefixes(&workdir, exclude);
    let skip = |path: &[u8]| excluded.iter().any(|prefix| path.starts_with(prefix));
    let mut index = Index::new()?;
    match which {
        Uncommitted::Staged => {
            // The person's index is read into one of our own: nothing is ever written back.
            let theirs = repo.index()?;
            if theirs.has_conflicts() {
                return Err(UncommittedError::Conflicts { repo: shown() });
            }
            index.read_tree(&head.tree()?)?;
            for entry in theirs.iter() {
                if !skip(&entry.path) {
                    index.add(&entry)?;
                }
            }
            // What the person removed from the index is gone from the snapshot too.
            for entry in head_paths(&head)? {
                if !skip(&entry) && theirs.get_path(path_of(&entry), 0).is_none() {
                    index.remove_path(path_of(&entry))?;
                }
            }
        }
        Uncommitted::WorkingTree => {
            index.read_tree(&head.tree()?)?;
            for path in changed_paths(repo)? {
                if skip(&path) {
                    continue;
                }
                let full = workdir.join(path_of(&path));
                match std::fs::symlink_metadata(&full) {
                    Ok(meta) if meta.is_file() || meta.file_type().is_symlink() => {
                        // Through git's filters (line ends, `.gitattributes`), as `git add`.
                        let id = repo.blob_path(&full)?;
                        let mode = mode_of(&meta, &index, &path);
                        index.add(&entry(path, id, mode))?;
                    }
                    // A nested repository or an empty directory: not a file git would add.
                    Ok(_) => {}
                    Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                        index.remove_path(path_of(&path))?;
                    }
                    Err(source) => return Err(UncommittedError::Read { path: full, source }),
                }
            }
        }
    }
    let tree = repo.find_tree(index.write_tree_to(repo)?)?;
    // Fixed author and time: the same work on the same commit is the same snapshot.
    let when = Time::new(head.time().seconds(), 0);
    let signature = Signature::new("review-tui", "review-tui@localhost", &when)?;
    let message = format!(
        "Uncommitted changes on {branch}\n\nThe {} of the working tree on top of {}, as \
         review-tui reviewed them; on no branch.\n",
        which.described(),
        &head.id().to_string()[..12],
    );
    // No ref is updated: the commit is reachable from the review space's refs only.
    Ok(repo.commit(None, &signature, &signature, &message, &tree, &[&head])?)
}

/// Every path the status of the checkout lists (staged, unstaged, untracked; not ignored),
/// without rename pairing: a rename is its old path gone and its new one added.
fn changed_paths(repo: &Repository) -> Result<Vec<Vec<u8>>, git2::Error> {
    let mut options = StatusOptions::new();
    options
        .include_untracked(true)
        .recurse_untracked_dirs(true)
        .include_ignored(false)
        .exclude_submodules(true);
    let statuses = repo.statuses(Some(&mut options))?;
    Ok(statuses
        .iter()
        .map(|entry| entry.path_bytes().to_vec())
        .filter(|path| !path.ends_with(b"/"))
        .collect())
}

/// What the watcher compares from one look to the next: the listed paths with each one's size
/// and modification time (an edit to an already changed file changes only those). `None`
/// when the checkout cannot be read.
pub(crate) fn state_of(path: &Path, exclude: &[PathBuf]) -> Option<Vec<(Vec<u8>, u64, i128)>> {
    let repo = Repository::discover(path).ok()?;
    let workdir = repo.workdir()?.to_path_buf();
    let excluded = excluded_prefixes(&workdir, exclude);
    let mut seen = Vec::new();
    for path in changed_paths(&repo).ok()? {
        if excluded.iter().any(|prefix| path.starts_with(prefix)) {
            continue;
        }
        let meta = std::fs::symlink_metadata(workdir.join(path_of(&path))).ok();
        let (size, modified) = meta.map_or((u64::MAX, 0), |m| {
            let modified = m
                .modified()
                .ok()
                .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
                .map_or(0, |d| d.as_nanos() as i128);
            (m.len(), modified)
        });
        seen.push((path, size, modified));
    }
    // The index (a `git add`) and HEAD (a commit) move the snapshot too.
    for file in ["index", "HEAD"] {
        if let Ok(meta) = std::fs::metadata(repo.path().join(file)) {
            let modified = meta
                .modified()
                .ok()
                .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
                .map_or(0, |d| d.as_nanos() as i128);
            seen.push((file.as_bytes().to_vec(), meta.len(), modified));
        }
    }
    if let Ok(head) = repo.head()
        && let Some(id) = head.target()
    {
        seen.push((id.as_bytes().to_vec(), 0, 0));
    }
    Some(seen)
}

/// `exclude` as paths relative to the work tree, each ending in `/`; those outside it dropped.
fn excluded_prefixes(workdir: &Path, exclude: &[PathBuf]) -> Vec<Vec<u8>> {
    let root = workdir
        .canonicalize()
        .unwrap_or_else(|_| workdir.to_path_buf());
    exclude
        .iter()
        .filter_map(|dir| {
            let dir = dir.canonicalize().unwrap_or_else(|_| dir.clone());
            let inside = dir.strip_prefix(&root).ok()?;
            let text = inside.to_str()?;
            (!text.is_empty()).then(|| format!("{text}/").into_bytes())
        })
        .collect()
}

fn head_paths(head: &git2::Commit<'_>) -> Result<Vec<Vec<u8>>, git2::Error> {
    let mut index = Index::new()?;
    index.read_tree(&head.tree()?)?;
    Ok(index.iter().map(|entry| entry.path).collect())
}

fn path_of(bytes: &[u8]) -> &Path {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        Path::new(std::ffi::OsStr::from_bytes(bytes))
    }
    #[cfg(not(unix))]
    {
        Path::new(std::str::from_utf8(bytes).unwrap_or_default())
    }
}

/// A symbolic link, an executable file or a plain one; where the file system cannot say
/// (`core.fileMode` off, no executable bit), the mode the path has at `HEAD`.
fn mode_of(meta: &std::fs::Metadata, index: &Index, path: &[u8]) -> u32 {
    if meta.file_type().is_symlink() {
        return 0o120000;
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let _ = (index, path);
        if meta.permissions().mode() & 0o111 != 0 {
            0o100755
        } else {
            0o100644
        }
    }
    #[cfg(not(unix))]
    {
        index
            .get_path(path_of(path), 0)
            .map_or(0o100644, |entry| entry.mode)
    }
}

fn entry(path: Vec<u8>, id: Oid, mode: u32) -> IndexEntry {
    IndexEntry {
        ctime: IndexTime::new(0, 0),
        mtime: IndexTime::new(0, 0),
        dev: 0,
        ino: 0,
        mode,
        uid: 0,
        gid: 0,
        file_size: 0,
        id,
        flags: (path.len().min(0xfff)) as u16,
        flags_extended: 0,
        path,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::space::test_repo::{TestRepo, git};

    fn tree_files(repo: &Repository, commit: Oid) -> Vec<(String, String)> {
        let tree = repo.find_commit(commit).unwrap().tree().unwrap();
        let mut files = Vec::new();
        tree.walk(git2::TreeWalkMode::PreOrder, |dir, entry| {
            if let Some(blob) = entry.to_object(repo).ok().and_then(|o| o.into_blob().ok()) {
                let name = format!("{dir}{}", entry.name().unwrap());
                files.push((name, String::from_utf8_lossy(blob.content()).into_owned()));
            }
            git2::TreeWalkResult::Ok
        })
        .unwrap();
        files
    }

    #[test]
    fn the_snapshot_holds_staged_unstaged_and_untracked_files_but_not_ignored_ones() {
        let t = TestRepo::new();
        t.commit(".gitignore", "*.log\n", "ignore logs");
        t.commit("gone.rs", "fn gone() {}\n", "gone");
        let path = t.path();
        std::fs::write(path.join("staged.rs"), "fn staged() {}\n").unwrap();
        git(&path, &["add", "staged.rs"]);
        std::fs::write(path.join("staged.rs"), "fn staged_then_edited() {}\n").unwrap();
        std::fs::write(path.join("new.rs"), "fn new() {}\n").unwrap();
        std::fs::write(path.join("debug.log"), "secret\n").unwrap();
        std::fs::remove_file(path.join("gone.rs")).unwrap();
        let index_before = std::fs::read(path.join(".git/index")).unwrap();
        let repo = Repository::open(&path).unwrap();

        let work = snapshot(&repo, Uncommitted::WorkingTree, "main", &[]).unwrap();
        let files = tree_files(&repo, work);
        let names: Vec<&str> = files.iter().map(|(n, _)| n.as_str()).collect();
        assert!(names.contains(&"new.rs"), "{names:?}");
        assert!(!names.contains(&"debug.log"), "{names:?}");
        assert!(!names.contains(&"gone.rs"), "{names:?}");
        assert!(files.contains(&("staged.rs".into(), "fn staged_then_edited() {}\n".into())));
        // The same work is the same commit; its parent is HEAD.
        assert_eq!(
            snapshot(&repo, Uncommitted::WorkingTree, "main", &[]).unwrap(),
            work
        );
        let head = repo.head().unwrap().target().unwrap();
        assert_eq!(repo.find_commit(work).unwrap().parent_id(0).unwrap(), head);

        let staged = snapshot(&repo, Uncommitted::Staged, "main", &[]).unwrap();
        let files = tree_files(&repo, staged);
        assert!(files.contains(&("staged.rs".into(), "fn staged() {}\n".into())));
        let names: Vec<&str> = files.iter().map(|(n, _)| n.as_str()).collect();
        assert!(!names.contains(&"new.rs"), "{names:?}");
        assert!(names.contains(&"gone.rs"), "not staged: {names:?}");

        assert_eq!(
            std::fs::read(path.join(".git/index")).unwrap(),
            index_before
        );
    }

    #[test]
    fn an_excluded_directory_inside_the_work_tree_is_left_out() {
        let t = TestRepo::new();
        let path = t.path();
        std::fs::create_dir_all(path.join("data/spaces")).unwrap();
        std::fs::write(path.join("data/spaces/state.json"), "{}").unwrap();
        std::fs::write(path.join("kept.rs"), "fn kept() {}\n").unwrap();
        let repo = Repository::open(&path).unwrap();
        let work = snapshot(
            &repo,
            Uncommitted::WorkingTree,
            "main",
            &[path.join("data")],
        )
        .unwrap();
        let names: Vec<String> = tree_files(&repo, work).into_iter().map(|f| f.0).collect();
        assert!(names.contains(&"kept.rs".to_string()), "{names:?}");
        assert!(!names.iter().any(|n| n.starts_with("data/")), "{names:?}");
        let before = state_of(&path, &[path.join("data")]).unwrap();
        std::fs::write(path.join("data/spaces/state.json"), "{\"x\":1}").unwrap();
        assert_eq!(state_of(&path, &[path.join("data")]).unwrap(), before);
        std::fs::write(path.join("kept.rs"), "fn kept() { 1 }\n").unwrap();
        assert_ne!(state_of(&path, &[path.join("data")]).unwrap(), before);
    }
}
