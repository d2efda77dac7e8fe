//! The merge base of two commits, walked once per repository and process.
//!
//! One review asks the mirror for the same merge base several times (the diff, the cohort
//! build, the check of the commit messages, the earlier names), each a walk of the history
//! between base and head: on tokio-1.0.0..1.40.0 about 20 ms each, one of them where the
//! cohort build starts. A commit's id is a hash over its parents' ids, so in one repository
//! the merge base of two ids is always the same, unless grafts or a shallow boundary rewrite
//! parents (libgit2 reads `info/grafts` and `shallow`): such a repository is walked each time.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{LazyLock, Mutex};

use git2::{Oid, Repository};

/// Answers kept past this many are forgotten (a long-lived cockpit reviews many ranges).
const MOST: usize = 256;

/// A repository's git directory and the two commits asked about.
type Question = (PathBuf, Oid, Oid);

static KNOWN: LazyLock<Mutex<HashMap<Question, Oid>>> = LazyLock::new(Mutex::default);

/// [`Repository::merge_base`] of `a` and `b`, from this process's earlier answer for the same
/// repository when there is one.
pub fn merge_base(repo: &Repository, a: Oid, b: Oid) -> Result<Oid, git2::Error> {
    let git_dir = repo.path();
    let rewritten = repo.is_shallow()
        || git_dir.join("info/grafts").exists()
        || git_dir.join("shallow").exists();
    if rewritten {
        return repo.merge_base(a, b);
    }
    let key = (git_dir.to_path_buf(), a, b);
    if let Some(known) = KNOWN.lock().ok().and_then(|known| known.get(&key).copied()) {
        return Ok(known);
    }
    let found = repo.merge_base(a, b)?;
    if let Ok(mut known) = KNOWN.lock() {
        if known.len() >= MOST {
            known.clear();
        }
        known.insert(key, found);
    }
    Ok(found)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::space::test_repo::{TestRepo, git};

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
