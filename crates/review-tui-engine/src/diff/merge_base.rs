//! The merge base of two commits, walked once per repository and process.
//!
//! One review asks the mirror for the same merge base several times (the diff, the cohort
//! build, the check of the commit messages, the earlier names), each a walk of the history
//! between base and head: on tokio-1.0.0..1.40.0 about 20 ms each, one of them where the
//! cohort build starts. A commit's id is a hash over its parents' ids, so in one repository
//! the merge base of two ids is always the same, unless grafts or a shallow boundary rewrite
//! parents (libgit2 reads `info/grafts` and `shallow`): such a repository is walked each time.
//!
//! For the same reason the answer does not depend on which repository holds the two commits:
//! a local range is resolved in the user's repository, then diffed in the space's mirror
//! holding the same objects, and the mirror's walk (~25 ms on tokio-1.0.0..1.40.0, first
//! thing on the diff's thread) was the same walk again. Answers are kept by commit ids alone,
//! walked and used only in repositories whose parents are not rewritten.

use std::collections::HashMap;
use std::sync::{LazyLock, Mutex};

use git2::{Oid, Repository};

/// Answers kept past this many are forgotten (a long-lived cockpit reviews many ranges).
const MOST: usize = 256;

/// The two commits asked about.
type Question = (Oid, Oid);

static KNOWN: LazyLock<Mutex<HashMap<Question, Oid>>> = LazyLock::new(Mutex::default);

// The walks this thread made, for the tests (each runs on a thread of its own).
#[cfg(test)]
thread_local! {
    static WALKS: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// [`Repository::merge_base`] of `a` and `b`, from this process's earlier answer for the same
/// two commits when there is one.
pub(crate) fn merge_base(repo: &Repository, a: Oid, b: Oid) -> Result<Oid, git2::Error> {
    let git_dir = repo.path();
    // A linked worktree's grafts and shallow file are its main repository's (`commondir`).
    let rewritten = repo.is_shallow()
        || [git_dir, repo.commondir()]
            .iter()
            .any(|dir| dir.join("info/grafts").exists() || dir.join("shallow").exists());
    if rewritten {
        return walk(repo, a, b);
    }
    let key = (a, b);
    if let Some(known) = KNOWN.lock().ok().and_then(|known| known.get(&key).copied()) {
        return Ok(known);
    }
    let found = walk(repo, a, b)?;
    if let Ok(mut known) = KNOWN.lock() {
        if known.len() >= MOST {
            known.clear();
        }
        known.insert(key, found);
    }
    Ok(found)
}

fn walk(repo: &Repository, a: Oid, b: Oid) -> Result<Oid, git2::Error> {
    #[cfg(test)]
    WALKS.with(|walks| walks.set(walks.get() + 1));
    repo.merge_base(a, b)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::space::test_repo::{TestRepo, git};

    #[test]
    fn another_repository_holding_the_same_commits_is_answered_without_a_walk() {
        let t = TestRepo::new();
        t.commit(
            "shared.txt",
            "the merge base of a second repository\n",
            "shared",
        );
        git(&t.path(), &["checkout", "-q", "-b", "theirs"]);
        let theirs = t.commit("theirs.txt", "theirs\n", "theirs");
        git(&t.path(), &["checkout", "-q", "main"]);
        let ours = t.commit("ours.txt", "ours\n", "ours");
        let clone = t.scratch().join("clone.git");
        git(
            t.scratch(),
            &[
                "clone",
                "-q",
                "--bare",
                "--no-local",
                &t.path().to_string_lossy(),
                "clone.git",
            ],
        );
        let oid = |sha: &str| Oid::from_str(sha).unwrap();
        let walks = || WALKS.with(std::cell::Cell::get);
        let before = walks();
        let first = merge_base(
            &Repository::open(t.path()).unwrap(),
            oid(&ours),
            oid(&theirs),
        );
        assert_eq!(walks(), before + 1);
        let again = merge_base(
            &Repository::open_bare(&clone).unwrap(),
            oid(&ours),
            oid(&theirs),
        );
        assert_eq!(
            walks(),
            before + 1,
            "the clone's answer is the first repository's"
        );
        assert_eq!(first.unwrap(), again.unwrap());

        // A clone whose history is grafted is walked again: its answer is libgit2's own.
        std::fs::create_dir_all(clone.join("info")).unwrap();
        std::fs::write(clone.join("info/grafts"), format!("{theirs}\n")).unwrap();
        let _ = merge_base(
            &Repository::open_bare(&clone).unwrap(),
            oid(&ours),
            oid(&theirs),
        );
        assert_eq!(walks(), before + 2);
    }

    #[test]
    fn a_merge_base_is_remembered_but_not_where_grafts_can_change_it() {
        let t = TestRepo::new();
        let middle = t.commit("a.txt", "a\n", "middle");
        git(&t.path(), &["checkout", "-q", "-b", "side"]);
        let side = t.commit("b.txt", "b\n", "side");
        git(&t.path(), &["checkout", "-q", "main"]);
        let main = t.commit("c.txt", "c\n", "main");
        let repo = Repository::open(t.path()).unwrap();
        let oid = |sha: &str| Oid::from_str(sha).unwrap();
        let walked = merge_base(&repo, oid(&main), oid(&side)).unwrap();
        assert_eq!(walked.to_string(), middle);
        assert_eq!(merge_base(&repo, oid(&main), oid(&side)).unwrap(), walked);

        // A graft that makes `side` a root commit leaves the two without a common ancestor:
        // the answer is walked again, not remembered.
        std::fs::create_dir_all(t.path().join(".git/info")).unwrap();
        std::fs::write(t.path().join(".git/info/grafts"), format!("{side}\n")).unwrap();
        let repo = Repository::open(t.path()).unwrap();
        assert_eq!(
            repo.merge_base(oid(&main), oid(&side)).ok(),
            None,
            "libgit2 reads grafts"
        );
        assert!(merge_base(&repo, oid(&main), oid(&side)).is_err());
    }
}
