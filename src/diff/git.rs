//! The diff of a local repository, as `git diff BASE...HEAD` shows it, produced with libgit2.

use git2::{Commit, DiffFindOptions, DiffFormat, DiffOptions, Repository};

use super::error::DiffError;
use super::model::Diff;
use super::parse::parse;

/// The unified diff (git's patch format) from the merge base of `base` and `head` to `head`.
///
/// `base` and `head` are any revisions git understands (`main`, `origin/main`, a SHA). Renames
/// are detected as `git diff` does by default, so the text parses to the same per-file counts
/// as `git diff --numstat base...head`. Content that is not UTF-8 is replaced (lossily).
pub fn merge_base_diff_text(
    repo: &Repository,
    base: &str,
    head: &str,
) -> Result<String, DiffError> {
    let base_commit = resolve(repo, base)?;
    let head_commit = resolve(repo, head)?;
    let merge_base = super::merge_base::merge_base(repo, base_commit.id(), head_commit.id())
        .map_err(|e| DiffError::git(format!("finding the merge base of {base} and {head}"), e))?;
    let old_tree = repo
        .find_commit(merge_base)
        .and_then(|commit| commit.tree())
        .map_err(|e| DiffError::git(format!("reading the tree of merge base {merge_base}"), e))?;
    let new_tree = head_commit
        .tree()
        .map_err(|e| DiffError::git(format!("reading the tree of {head}"), e))?;

    let mut options = DiffOptions::new();
    let mut diff = repo
        .diff_tree_to_tree(Some(&old_tree), Some(&new_tree), Some(&mut options))
        .map_err(|e| DiffError::git(format!("diffing {merge_base}..{head}"), e))?;
    find_renames(repo, &mut diff)?;

    let mut patch = Vec::new();
    diff.print(DiffFormat::Patch, |_, _, line| {
        // libgit2 hands over content lines without their marker; headers come whole.
        if let origin @ ('+' | '-' | ' ') = line.origin() {
            patch.push(origin as u8);
        }
        patch.extend_from_slice(line.content());
        true
    })
    .map_err(|e| DiffError::git("printing the patch", e))?;
    Ok(String::from_utf8_lossy(&patch).into_owned())
}

/// The parsed model of [`merge_base_diff_text`].
pub fn merge_base_diff(repo: &Repository, base: &str, head: &str) -> Result<Diff, DiffError> {
    parse(&merge_base_diff_text(repo, base, head)?)
}

/// Renames as `git diff` detects them by default.
fn find_renames(repo: &Repository, diff: &mut git2::Diff<'_>) -> Result<(), DiffError> {
    let mut find = DiffFindOptions::new();
    find.renames(true);
    // libgit2 gives up on renames past 200 candidates, git past 1000: keep git's numbers on
    // large pull requests unless the repository configures its own limit.
    let rename_limit = repo
        .config()
        .and_then(|config| config.get_i32("diff.renameLimit"))
        .map_or(1000, |limit| usize::try_from(limit).unwrap_or(1000));
    find.rename_limit(rename_limit);
    diff.find_similar(Some(&mut find))
        .map_err(|e| DiffError::git("detecting renames", e))
}

/// Commits past this many are not read for renames (the oldest ones): a history that long is
/// rare in a pull request, and each commit costs a tree diff.
const MAX_RENAME_COMMITS: usize = 500;

/// The earlier names of the files at `head`, oldest first, from the renames git detects commit
/// by commit between the merge base of `base` and `head`, and `head` (a merge commit against its
/// first parent). A file renamed in one commit and again in a later one has both names; a file
/// never renamed is absent. This is how a finding of a renamed file is recognised across rounds
/// even when no earlier round is on this machine (a fresh CI run): the history says which name
/// the file had when an earlier round commented on it.
pub fn earlier_names(
    repo: &Repository,
    base: &str,
    head: &str,
) -> Result<std::collections::HashMap<String, Vec<String>>, DiffError> {
    let base_commit = resolve(repo, base)?;
    let head_commit = resolve(repo, head)?;
    let merge_base = super::merge_base::merge_base(repo, base_commit.id(), head_commit.id())
        .map_err(|e| DiffError::git(format!("finding the merge base of {base} and {head}"), e))?;
    let mut walk = repo
        .revwalk()
        .map_err(|e| DiffError::git("walking the history", e))?;
    walk.set_sorting(git2::Sort::TOPOLOGICAL)
        .and_then(|()| walk.push(head_commit.id()))
        .and_then(|()| walk.hide(merge_base))
        .map_err(|e| DiffError::git(format!("walking {merge_base}..{head}"), e))?;
    // Newest first from the walk; read oldest first, keeping the newest commits when capped.
    let mut ids: Vec<git2::Oid> = walk
        .take(MAX_RENAME_COMMITS)
        .collect::<Result<_, _>>()
        .map_err(|e| DiffError::git(format!("walking {merge_base}..{head}"), e))?;
    ids.reverse();

    let mut names: std::collections::HashMap<String, Vec<String>> = Default::default();
    for id in ids {
        let commit = repo
            .find_commit(id)
            .map_err(|e| DiffError::git(format!("reading commit {id}"), e))?;
        let Ok(parent) = commit.parent(0) else {
            continue;
        };
        let (old_tree, new_tree) = parent
            .tree()
            .and_then(|old| Ok((old, commit.tree()?)))
            .map_err(|e| DiffError::git(format!("reading the trees of {id}"), e))?;
        let mut diff = repo
            .diff_tree_to_tree(Some(&old_tree), Some(&new_tree), None)
            .map_err(|e| DiffError::git(format!("diffing {id} with its parent"), e))?;
        find_renames(repo, &mut diff)?;
        // Applied after reading them all: a commit that swaps two names moves both.
        let mut moved = Vec::new();
        let path = |file: git2::DiffFile<'_>| file.path().map(|p| p.to_string_lossy().into_owned());
        for delta in diff.deltas() {
            if matches!(delta.status(), git2::Delta::Deleted | git2::Delta::Added) {
                // A deleted file's names go with it; a new file at a used name has none.
                for name in [path(delta.old_file()), path(delta.new_file())]
                    .into_iter()
                    .flatten()
                {
                    names.remove(&name);
                }
                continue;
            }
            if delta.status() != git2::Delta::Renamed {
                continue;
            }
            if let (Some(old), Some(new)) = (path(delta.old_file()), path(delta.new_file())) {
                let mut chain = names.remove(&old).unwrap_or_default();
                chain.push(old);
                moved.push((new, chain));
            }
        }
        for (new, mut chain) in moved {
            // A name the file comes back to is not one of its earlier names.
            chain.retain(|name| *name != new);
            if chain.is_empty() {
                names.remove(&new);
            } else {
                names.insert(new, chain);
            }
        }
    }
    Ok(names)
}

fn resolve<'r>(repo: &'r Repository, revision: &str) -> Result<Commit<'r>, DiffError> {
    repo.revparse_single(revision)
        .and_then(|object| object.peel_to_commit())
        .map_err(|e| DiffError::git(format!("resolving {revision:?} to a commit"), e))
}
