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
    let merge_base = repo
        .merge_base(base_commit.id(), head_commit.id())
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
        .map_err(|e| DiffError::git("detecting renames", e))?;

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

fn resolve<'r>(repo: &'r Repository, revision: &str) -> Result<Commit<'r>, DiffError> {
    repo.revparse_single(revision)
        .and_then(|object| object.peel_to_commit())
        .map_err(|e| DiffError::git(format!("resolving {revision:?} to a commit"), e))
}
