//! The space's worktree: a detached checkout of the head SHA that every reviewer reads.
//!
//! It is made with git2 rather than `git worktree add`, so local spaces need no `git` binary.
//! libgit2 only adds a worktree *on a branch*, so creation takes three steps: point a
//! throwaway branch at the head, add the worktree on it, detach the worktree's HEAD and delete
//! the branch. A crash between steps leaves at worst a stale branch or an invalid worktree,
//! both repaired by the next `ensure`. The commit stays reachable from the mirror through
//! `refs/review-tui/worktree/<name>`, so a `git gc` in the mirror never loses what a reviewer
//! is reading even after the PR ref moves on.

use std::path::{Path, PathBuf};

use git2::build::CheckoutBuilder;
use git2::{Oid, Repository, WorktreeAddOptions, WorktreePruneOptions};
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
pub fn ensure(
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
            if current == Some(head) && repo.head_detached().unwrap_or(false) {
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
pub fn head_of(path: &Path) -> Result<Oid, git2::Error> {
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
    // A process killed inside `git worktree add` can leave an admin directory that libgit2
    // neither opens nor prunes; it is in our namespace, so clear it by hand.
    let admin = repo.path().join("worktrees").join(name);
    if admin.exists() {
        std::fs::remove_dir_all(&admin).map_err(|source| WorktreeError::Io {
            path: admin.clone(),
            source,
        })?;
    }

    let commit = repo
        .find_commit(head)
        .map_err(git("find the head commit"))?;
    let branch_name = format!("review-tui/worktree/{name}");
    let branch = repo
        .branch(&branch_name, &commit, true)
        .map_err(git("make the temporary branch"))?;
    let mut options = WorktreeAddOptions::new();
    options.reference(Some(branch.get()));
    let worktree = repo
        .worktree(name, path, Some(&options))
        .map_err(git("add the worktree"))?;
    let checkout = Repository::open_from_worktree(&worktree).map_err(git("open the worktree"))?;
    checkout
        .set_head_detached(head)
        .map_err(git("detach HEAD"))?;
    drop(branch);
    repo.find_branch(&branch_name, git2::BranchType::Local)
        .and_then(|mut b| b.delete())
        .map_err(git("delete the temporary branch"))?;
    Ok(())
}

/// Forces the tree of `head` into the worktree, then detaches HEAD there. Force is right: the
/// worktree is read-only for reviewers, so anything that differs from the commit is debris.
fn checkout_detached(repo: &Repository, head: Oid) -> Result<(), git2::Error> {
    let commit = repo.find_commit(head)?;
    let mut checkout = CheckoutBuilder::new();
    checkout.force().remove_untracked(true);
    repo.checkout_tree(commit.as_object(), Some(&mut checkout))?;
    repo.set_head_detached(head)
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
