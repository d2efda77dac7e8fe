//! File contents a partial clone has not downloaded yet, fetched the way git itself fetches
//! them.
//!
//! A repository cloned with `--filter=blob:none` (large monorepos are) holds every commit and
//! tree but only the blobs it has checked out; git downloads the others from the *promisor*
//! remote when a command reads them. libgit2 knows nothing of promisors, so the mirror, whose
//! objects are linked from such a repository, lacks them too, and the checkout or the diff of
//! a branch the person never checked out would fail. Before those run, the blobs the review
//! reads (the head's files, and the base side of the changed ones) are asked of the `git`
//! binary in the reviewed repository, in one batch, exactly as git's own lazy fetch does;
//! the new pack is then linked into the mirror. When that cannot be done (no `git`, no
//! network) the review goes on without them: the checkout leaves them out and names them
//! (see `worktree`).

use std::collections::BTreeSet;
use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

use git2::{Oid, Repository};

/// The promisor remote of the repository at `source`: the remote a partial clone downloads
/// missing objects from (`remote.<name>.promisor`, or the older `extensions.partialClone`).
/// `None` for a repository that is not a partial clone.
pub(super) fn promisor_remote(source: &Path) -> Option<String> {
    let repo = Repository::open(source).ok()?;
    let config = repo.config().ok()?.snapshot().ok()?;
    if let Ok(name) = config.get_string("extensions.partialclone") {
        return Some(name);
    }
    let remotes = repo.remotes().ok()?;
    (0..remotes.len())
        .filter_map(|i| remotes.get(i).ok().flatten())
        .find(|name| {
            config
                .get_bool(&format!("remote.{name}.promisor"))
                .unwrap_or(false)
        })
        .map(str::to_string)
}

/// The blobs a review of `base..head` reads that the repository at `mirror` lacks: every file
/// of the head (the checkout), and the base side of each file the range changes (the diff).
pub(super) fn missing_blobs(
    repo: &Repository,
    base: Oid,
    head: Oid,
) -> Result<Vec<Oid>, git2::Error> {
    let odb = repo.odb()?;
    let head_tree = repo.find_commit(head)?.tree()?;
    let mut missing = BTreeSet::new();
    head_tree.walk(git2::TreeWalkMode::PreOrder, |_, entry| {
        if entry.kind() == Some(git2::ObjectType::Blob) && !odb.exists(entry.id()) {
            missing.insert(entry.id());
        }
        git2::TreeWalkResult::Ok
    })?;
    let from = crate::diff::merge_base::merge_base(repo, base, head).unwrap_or(base);
    let base_tree = repo.find_commit(from)?.tree()?;
    // Trees only: no blob is read to list what changed.
    let diff = repo.diff_tree_to_tree(Some(&base_tree), Some(&head_tree), None)?;
    for delta in diff.deltas() {
        let old = delta.old_file();
        if !old.id().is_zero() && old.mode() != git2::FileMode::Commit && !odb.exists(old.id()) {
            missing.insert(old.id());
        }
    }
    Ok(missing.into_iter().collect())
}

/// Asks git in the partial clone at `source` to download `blobs` from its promisor `remote`,
/// the command git's own lazy fetch runs (promisor-remote.c), in one batch. Whether it
/// succeeded: a failure (no `git` binary, the remote unreachable) is not an error here, the
/// review goes on without those files.
pub(super) fn fetch_blobs(source: &Path, remote: &str, blobs: &[Oid]) -> bool {
    if blobs.is_empty() {
        return true;
    }
    if remote.starts_with('-') {
        return false;
    }
    let child = Command::new("git")
        .arg("-C")
        .arg(source)
        .args([
            "-c",
            "fetch.negotiationAlgorithm=noop",
            "fetch",
            remote,
            "--quiet",
            "--no-tags",
            "--no-write-fetch-head",
            "--recurse-submodules=no",
            "--filter=blob:none",
            "--stdin",
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .env("GIT_TERMINAL_PROMPT", "0")
        // Set by a hook or a wrapper, these would point git at another repository.
        .env_remove("GIT_DIR")
        .env_remove("GIT_WORK_TREE")
        .env_remove("GIT_INDEX_FILE")
        .spawn();
    let Ok(mut child) = child else {
        return false;
    };
    let list: String = blobs.iter().map(|oid| format!("{oid}\n")).collect();
    let written = child
        .stdin
        .take()
        .is_some_and(|mut stdin| stdin.write_all(list.as_bytes()).is_ok());
    let status = child.wait();
    written && status.is_ok_and(|s| s.success())
}
