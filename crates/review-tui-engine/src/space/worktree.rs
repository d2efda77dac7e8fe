//! The space's worktree: a detached checkout of the head SHA that every reviewer reads.
//!
//! It is made without `git worktree add`, so local spaces need no `git` binary: the worktree is
//! registered in the mirror by hand (see [`register`]), its HEAD naming the pin ref, then the
//! head is checked out with libgit2 and HEAD detached. A crash between steps leaves at worst
//! an attached or invalid worktree, both repaired by the next `ensure`. The commit stays reachable from the mirror through
//! `refs/review-tui/worktree/<name>`, so a `git gc` in the mirror never loses what a reviewer
//! is reading even after the PR ref moves on.

use std::path::{Path, PathBuf};

use git2::build::CheckoutBuilder;
use git2::{Oid, Repository, WorktreePruneOptions};
use thiserror::Error;

use super::mirror::Mirror;

#[derive(Debug, Error)]
pub enum WorktreeError {
    #[error("worktree {path}: {what}: {source}")]
    Git {
        path: PathBuf,
        what: &'static str,
        source: git2::Error,
    },
    #[error("worktree {path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("worktree {path} is at {found}, expected the head {expected}")]
    NotAtHead {
        path: PathBuf,
        expected: Oid,
        found: String,
    },
}

/// What `ensure` had to do.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WorktreeChange {
    /// Already at the head: nothing was checked out.
    Unchanged,
    /// Made from scratch (first open, or the old one was missing or broken).
    Created,
    /// Checked out in place from the previous commit to the head.
    Moved { from: Oid },
}

/// Makes `path` a worktree of `mirror` detached at `head`, doing as little as possible: when it
/// is already there, nothing is checked out (large repositories reopen instantly).
pub(crate) fn ensure(
    mirror: &Mirror,
    name: &str,
    path: &Path,
    head: Oid,
) -> Result<WorktreeChange, WorktreeError> {
    let git = |what: &'static str| {
        move |source| WorktreeError::Git {
            path: path.to_path_buf(),
            what,
            source,
        }
    };
    mirror
        .repo()
        .reference(
            &format!("refs/review-tui/worktree/{name}"),
            head,
            true,
            "review-tui: worktree head",
        )
        .map_err(git("pin the head"))?;

    let change = match open_ours(mirror, path) {
        Some(repo) => {
            let current = repo.head().ok().and_then(|h| h.target());
            // A worktree that left out absent files is checked out again: they may be
            // present by now.
            let whole = !repo.path().join(ABSENT).exists();
            if current == Some(head) && repo.head_detached().unwrap_or(false) && whole {
                WorktreeChange::Unchanged
            } else {
                checkout_detached(&repo, head).map_err(git("check out the head"))?;
                match current {
                    Some(from) if from != head => WorktreeChange::Moved { from },
                    // Same commit but HEAD was attached or unreadable: repaired, not moved.
                    _ => WorktreeChange::Unchanged,
                }
            }
        }
        None => {
            create(mirror, name, path, head)?;
            WorktreeChange::Created
        }
    };

    let found = head_of(path);
    match found {
        Ok(found) if found == head => Ok(change),
        Ok(found) => Err(WorktreeError::NotAtHead {
            path: path.to_path_buf(),
            expected: head,
            found: found.to_string(),
        }),
        Err(e) => Err(WorktreeError::NotAtHead {
            path: path.to_path_buf(),
            expected: head,
            found: e.message().to_string(),
        }),
    }
}

/// The commit the worktree at `path` has checked out.
pub(crate) fn head_of(path: &Path) -> Result<Oid, git2::Error> {
    let repo = Repository::open(path)?;
    let head = repo.head()?;
    head.target()
        .ok_or_else(|| git2::Error::from_str("HEAD has no target"))
}

/// The worktree at `path` when it is a healthy worktree of this mirror.
fn open_ours(mirror: &Mirror, path: &Path) -> Option<Repository> {
    let repo = Repository::open(path).ok()?;
    let same = |a: &Path, b: &Path| matches!((a.canonicalize(), b.canonicalize()), (Ok(a), Ok(b)) if a == b);
    (repo.is_worktree() && same(repo.commondir(), mirror.path())).then_some(repo)
}

fn create(mirror: &Mirror, name: &str, path: &Path, head: Oid) -> Result<(), WorktreeError> {
    let git = |what: &'static str| {
        move |source| WorktreeError::Git {
            path: path.to_path_buf(),
            what,
            source,
        }
    };
    let repo = mirror.repo();
    // Whatever is at `path` is ours (it lives inside the space) and not a usable worktree.
    if path.exists() {
        std::fs::remove_dir_all(path).map_err(|source| WorktreeError::Io {
            path: path.to_path_buf(),
            source,
        })?;
    }
    if let Ok(stale) = repo.find_worktree(name) {
        stale
            .prune(Some(
                WorktreePruneOptions::new()
                    .valid(true)
                    .locked(true)
                    .working_tree(true),
            ))
            .map_err(git("prune the stale worktree"))?;
    }
    // A process killed while registering can leave an admin directory that libgit2 neither
    // opens nor prunes; it is in our namespace, so clear it by hand.
    let admin = repo.path().join("worktrees").join(name);
    if admin.exists() {
        std::fs::remove_dir_all(&admin).map_err(|source| WorktreeError::Io {
            path: admin.clone(),
            source,
        })?;
    }

    repo.find_commit(head)
        .map_err(git("find the head commit"))?;
    register(repo, name, path, &admin).map_err(|source| WorktreeError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    let checkout = Repository::open(path).map_err(git("open the worktree"))?;
    checkout_detached(&checkout, head).map_err(git("check out the head"))
}

/// Registers `path` as the mirror's worktree `name` the way git lays one out
/// (gitrepository-layout, `worktrees/<id>`), with nothing checked out yet. Done by hand
/// because libgit2's `git_worktree_add` checks out through its own options (its per-file
/// attribute and filter look-ups were a large part of a small PR's CPU) and only on a branch,
/// and `git worktree add` names the registration after the directory (every space's is
/// `worktree`), not after the space. HEAD names the pin ref rather than the commit: a
/// worktree whose HEAD is not detached is checked out again by the next `ensure`, so a
/// checkout cut short (a crash, a full disk) is repaired, never trusted.
fn register(repo: &Repository, name: &str, path: &Path, admin: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(admin)?;
    std::fs::create_dir_all(path)?;
    let (path, admin) = (path.canonicalize()?, admin.canonicalize()?);
    let line = |prefix: &str, path: &Path| {
        let mut bytes = prefix.as_bytes().to_vec();
        bytes.extend_from_slice(path.as_os_str().as_encoded_bytes());
        bytes.push(b'\n');
        bytes
    };
    std::fs::write(admin.join("commondir"), b"../..\n")?;
    std::fs::write(admin.join("gitdir"), line("", &path.join(".git")))?;
    std::fs::write(
        admin.join("HEAD"),
        format!("ref: refs/review-tui/worktree/{name}\n"),
    )?;
    std::fs::write(path.join(".git"), line("gitdir: ", &admin))?;
    // The registration is complete only once libgit2 reads it back as this mirror's.
    repo.find_worktree(name)
        .and_then(|worktree| worktree.validate())
        .map_err(std::io::Error::other)
}

/// Forces the tree of `head` into the worktree, then detaches HEAD there. Force is right: the
/// worktree is read-only for reviewers, so anything that differs from the commit is debris.
///
/// Files whose contents the repository lacks (a partial clone whose promisor could not be
/// reached, a copy made without its large files) are left out rather than failing the whole
/// review: the rest is checked out from the head's tree without them, and they are recorded
/// for the review to name (see [`absent_files`]).
fn checkout_detached(repo: &Repository, head: Oid) -> Result<(), git2::Error> {
    let tree = repo.find_commit(head)?.tree()?;
    let mut absent = Vec::new();
    // The whole tree first: listing absent blobs walks every file, which only a failed
    // checkout pays for.
    if let Err(e) = checkout_forced(repo, &tree) {
        if e.code() != git2::ErrorCode::NotFound {
            return Err(e);
        }
        absent = absent_blobs(repo, &tree)?;
        if absent.is_empty() {
            return Err(e);
        }
        // The head's tree without them, written into the mirror: an object like any other,
        // which only this checkout reads.
        let mut without = git2::build::TreeUpdateBuilder::new();
        for path in &absent {
            without.remove(path.as_str());
        }
        let id = without.create_updated(repo, &tree)?;
        checkout_forced(repo, &repo.find_tree(id)?)?;
    }
    record_absent(repo, &absent).map_err(|e| git2::Error::from_str(&e.to_string()))?;
    repo.set_head_detached(head)
}

fn checkout_forced(repo: &Repository, tree: &git2::Tree<'_>) -> Result<(), git2::Error> {
    let mut checkout = CheckoutBuilder::new();
    // No filters: the files are the commit's bytes, as the diff shows them (no CRLF or `ident`
    // rewriting), and no per-file attribute look-up (most of libgit2's extra CPU over git's).
    checkout
        .force()
        .remove_untracked(true)
        .disable_filters(true);
    repo.checkout_tree(tree.as_object(), Some(&mut checkout))
}

/// Where the files left out of the checkout are listed: the worktree's own directory in the
/// mirror (`worktrees/<name>`), NUL-separated (a file name may hold a line break).
const ABSENT: &str = "review-tui-absent";

/// The paths of the blobs of `tree` the repository does not hold.
fn absent_blobs(repo: &Repository, tree: &git2::Tree<'_>) -> Result<Vec<String>, git2::Error> {
    let odb = repo.odb()?;
    let mut absent = Vec::new();
    tree.walk(git2::TreeWalkMode::PreOrder, |dir, entry| {
        if entry.kind() == Some(git2::ObjectType::Blob) && !odb.exists(entry.id()) {
            let name = String::from_utf8_lossy(entry.name_bytes());
            absent.push(format!("{dir}{name}"));
        }
        git2::TreeWalkResult::Ok
    })?;
    Ok(absent)
}

fn record_absent(repo: &Repository, absent: &[String]) -> std::io::Result<()> {
    let record = repo.path().join(ABSENT);
    if absent.is_empty() {
        return match std::fs::remove_file(&record) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(e),
            _ => Ok(()),
        };
    }
    let mut bytes = Vec::new();
    for path in absent {
        bytes.extend_from_slice(path.as_bytes());
        bytes.push(0);
    }
    super::fsutil::atomic_write(&record, &bytes)
}

/// The files of the head the worktree at `path` lacks because the repository had no contents
/// for them (empty when it is complete): the review names them, reviewers cannot read them.
pub(crate) fn absent_files(path: &Path) -> Vec<String> {
    let Ok(repo) = Repository::open(path) else {
        return Vec::new();
    };
    std::fs::read(repo.path().join(ABSENT))
        .map(|bytes| {
            bytes
                .split(|b| *b == 0)
                .filter(|p| !p.is_empty())
                .map(|p| String::from_utf8_lossy(p).into_owned())
                .collect()
        })
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::space::test_repo::{TestRepo, git};

    fn mirror_of(t: &TestRepo) -> Mirror {
        let (mirror, _) = Mirror::open_or_init(&t.scratch().join("m.git")).unwrap();
        mirror
            .fetch(
                &t.path().display().to_string(),
                &["+refs/heads/*:refs/heads/*".to_string()],
                None,
            )
            .unwrap();
        mirror
    }

    #[test]
    fn created_detached_at_head_and_readable_by_git() {
        let t = TestRepo::new();
        let head = t.commit("src/lib.rs", "fn a() {}\n", "lib");
        let mirror = mirror_of(&t);
        let path = t.scratch().join("space/worktree");
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        let oid = Oid::from_str(&head).unwrap();

        assert_eq!(
            ensure(&mirror, "pr-1", &path, oid).unwrap(),
            WorktreeChange::Created
        );
        assert_eq!(
            std::fs::read_to_string(path.join("src/lib.rs")).unwrap(),
            "fn a() {}\n"
        );
        // The git binary agrees: detached, at the head, clean, no temporary branch left.
        assert_eq!(git(&path, &["rev-parse", "HEAD"]), head);
        assert_eq!(git(&path, &["rev-parse", "--abbrev-ref", "HEAD"]), "HEAD");
        assert_eq!(git(&path, &["status", "--porcelain"]), "");
        assert!(!git(mirror.path(), &["branch", "--list"]).contains("review-tui"));
        assert_eq!(
            git(
                mirror.path(),
                &["rev-parse", "refs/review-tui/worktree/pr-1"]
            ),
            head
        );

        assert_eq!(
            ensure(&mirror, "pr-1", &path, oid).unwrap(),
            WorktreeChange::Unchanged
        );
    }

    #[test]
    fn files_whose_contents_are_missing_are_left_out_and_named_then_restored() {
        // What a partial clone (`git clone --filter=blob:none`) looks like to libgit2: the
        // commit and trees are there, a blob is not.
        let t = TestRepo::new();
        t.commit("README.md", "readme\n", "docs");
        let head = t.commit("bench/data/huge.txt", "four megabytes\n", "data");
        let mirror = mirror_of(&t);
        let blob = git(
            mirror.path(),
            &["rev-parse", &format!("{head}:bench/data/huge.txt")],
        );
        let loose = mirror
            .path()
            .join("objects")
            .join(&blob[..2])
            .join(&blob[2..]);
        assert!(
            loose.exists(),
            "the test needs the blob loose in the mirror"
        );
        let kept = t.scratch().join("blob");
        std::fs::rename(&loose, &kept).unwrap();
        let path = t.scratch().join("space/worktree");
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        let oid = Oid::from_str(&head).unwrap();

        assert_eq!(
            ensure(&mirror, "pr-1", &path, oid).unwrap(),
            WorktreeChange::Created
        );
        assert_eq!(absent_files(&path), vec!["bench/data/huge.txt".to_string()]);
        assert_eq!(
            std::fs::read_to_string(path.join("README.md")).unwrap(),
            "readme\n"
        );
        assert!(!path.join("bench/data/huge.txt").exists());
        assert_eq!(git(&path, &["rev-parse", "HEAD"]), head);

        // Once the contents are there, the next open checks the worktree out whole.
        std::fs::rename(&kept, &loose).unwrap();
        ensure(&mirror, "pr-1", &path, oid).unwrap();
        assert!(absent_files(&path).is_empty());
        assert_eq!(
            std::fs::read_to_string(path.join("bench/data/huge.txt")).unwrap(),
            "four megabytes\n"
        );
        assert_eq!(git(&path, &["status", "--porcelain"]), "");
    }

    #[test]
    fn moves_in_place_to_a_new_head() {
        let t = TestRepo::new();
        let old = t.commit("gone.txt", "old\n", "old");
        let mirror = mirror_of(&t);
        let path = t.scratch().join("worktree");
        ensure(&mirror, "pr-1", &path, Oid::from_str(&old).unwrap()).unwrap();
        std::fs::write(path.join("stray.txt"), "debris").unwrap();

        git(&t.path(), &["rm", "-q", "gone.txt"]);
        let new = t.commit("new.txt", "new\n", "new");
        let mirror = mirror_of(&t);
        let change = ensure(&mirror, "pr-1", &path, Oid::from_str(&new).unwrap()).unwrap();
        assert_eq!(
            change,
            WorktreeChange::Moved {
                from: Oid::from_str(&old).unwrap()
            }
        );
        assert!(path.join("new.txt").exists());
        assert!(!path.join("gone.txt").exists());
        assert!(!path.join("stray.txt").exists());
        assert_eq!(git(&path, &["rev-parse", "HEAD"]), new);
        assert_eq!(git(&path, &["status", "--porcelain"]), "");
    }

    #[test]
    fn a_checkout_cut_short_is_checked_out_again_and_git_lists_the_worktree() {
        let t = TestRepo::new();
        t.commit("a/one.rs", "fn one() {}\n", "one");
        let head = t.commit("b/two.rs", "fn two() {}\n", "two");
        let mirror = mirror_of(&t);
        let path = t.scratch().join("space/worktree");
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        let oid = Oid::from_str(&head).unwrap();
        ensure(&mirror, "pr-7", &path, oid).unwrap();
        // git itself knows the registration by the space's name, at this path.
        let listed = git(mirror.path(), &["worktree", "list", "--porcelain"]);
        let canonical = path.canonicalize().unwrap();
        assert!(
            listed.contains(&format!("worktree {}", canonical.display())),
            "{listed}"
        );
        assert!(mirror.path().join("worktrees/pr-7/gitdir").exists());

        // What a crash inside the checkout leaves: HEAD still on the pin ref, a file missing.
        std::fs::write(
            mirror.path().join("worktrees/pr-7/HEAD"),
            "ref: refs/review-tui/worktree/pr-7\n",
        )
        .unwrap();
        std::fs::remove_file(path.join("b/two.rs")).unwrap();
        assert_eq!(
            ensure(&mirror, "pr-7", &path, oid).unwrap(),
            WorktreeChange::Unchanged
        );
        assert_eq!(
            std::fs::read_to_string(path.join("b/two.rs")).unwrap(),
            "fn two() {}\n"
        );
        assert_eq!(git(&path, &["rev-parse", "--abbrev-ref", "HEAD"]), "HEAD");
        assert_eq!(git(&path, &["status", "--porcelain"]), "");
    }

    #[test]
    fn files_are_the_commits_bytes_whatever_the_attributes_say() {
        let t = TestRepo::new();
        t.commit(
            ".gitattributes",
            "*.txt text eol=crlf\n*.rs ident\n",
            "attrs",
        );
        t.commit("notes.txt", "one\ntwo\n", "notes");
        let head = t.commit("src/lib.rs", "// $Id$\nfn a() {}\n", "lib");
        let mirror = mirror_of(&t);
        let path = t.scratch().join("worktree");
        ensure(&mirror, "pr-1", &path, Oid::from_str(&head).unwrap()).unwrap();
        // No CRLF conversion, no `ident` expansion: the bytes the diff and the index read.
        assert_eq!(
            std::fs::read(path.join("notes.txt")).unwrap(),
            b"one\ntwo\n"
        );
        assert_eq!(
            std::fs::read_to_string(path.join("src/lib.rs")).unwrap(),
            "// $Id$\nfn a() {}\n"
        );
    }

    #[test]
    fn a_deleted_worktree_is_recreated() {
        let t = TestRepo::new();
        let head = Oid::from_str(&t.sha("HEAD")).unwrap();
        let mirror = mirror_of(&t);
        let path = t.scratch().join("worktree");
        ensure(&mirror, "pr-1", &path, head).unwrap();
        std::fs::remove_dir_all(&path).unwrap();
        assert_eq!(
            ensure(&mirror, "pr-1", &path, head).unwrap(),
            WorktreeChange::Created
        );
        assert_eq!(head_of(&path).unwrap(), head);

        // And one whose directory is garbage.
        std::fs::remove_dir_all(&path).unwrap();
        std::fs::create_dir(&path).unwrap();
        std::fs::write(path.join("junk"), "x").unwrap();
        assert_eq!(
            ensure(&mirror, "pr-1", &path, head).unwrap(),
            WorktreeChange::Created
        );
        assert!(!path.join("junk").exists());
    }
}
