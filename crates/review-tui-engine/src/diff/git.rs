//! The diff of a local repository, as `git diff BASE...HEAD` shows it, produced with libgit2.

use git2::{Commit, DiffFindOptions, DiffOptions, Repository};

use super::error::DiffError;
use super::model::{Diff, Unavailable};
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

    let diff = diff_with_renames(
        repo,
        &old_tree,
        &new_tree,
        &format!("diffing {merge_base}..{head}"),
    )?;

    let odb = repo
        .odb()
        .map_err(|e| DiffError::git("opening the object database", e))?;
    let mut patch = Vec::new();
    for (index, delta) in diff.deltas().enumerate() {
        let lacks = |file: git2::DiffFile<'_>| {
            !file.id().is_zero() && file.mode() != git2::FileMode::Commit && !odb.exists(file.id())
        };
        // A side the repository has no contents for (a partial clone whose promisor could not
        // be reached): the file is named with no lines, never shown as all added or removed.
        if let Some(side) =
            Unavailable::from_sides(lacks(delta.old_file()), lacks(delta.new_file()))
        {
            unavailable_header(&delta, side, &mut patch);
            continue;
        }
        let Some(mut file) = git2::Patch::from_diff(&diff, index)
            .map_err(|e| DiffError::git("printing the patch", e))?
        else {
            continue;
        };
        file.print(&mut |_, _, line| {
            // libgit2 hands over content lines without their marker; headers come whole.
            if let origin @ ('+' | '-' | ' ') = line.origin() {
                patch.push(origin as u8);
            }
            patch.extend_from_slice(line.content());
            true
        })
        .map_err(|e| DiffError::git("printing the patch", e))?;
    }
    Ok(String::from_utf8_lossy(&patch).into_owned())
}

/// The extended header git would write for `delta`, ending with the line that says which side
/// could not be read, in place of its hunks.
fn unavailable_header(delta: &git2::DiffDelta<'_>, side: Unavailable, out: &mut Vec<u8>) {
    let path = |file: &git2::DiffFile<'_>| {
        file.path_bytes()
            .map(|p| String::from_utf8_lossy(p).into_owned())
            .unwrap_or_default()
    };
    let (old, new) = (delta.old_file(), delta.new_file());
    let (old_path, new_path) = (path(&old), path(&new));
    let mode = |file: &git2::DiffFile<'_>| format!("{:o}", u32::from(file.mode()));
    let mut text = format!(
        "diff --git {} {}\n",
        quote(&format!("a/{old_path}")),
        quote(&format!("b/{new_path}"))
    );
    match delta.status() {
        git2::Delta::Added => text.push_str(&format!("new file mode {}\n", mode(&new))),
        git2::Delta::Deleted => text.push_str(&format!("deleted file mode {}\n", mode(&old))),
        git2::Delta::Renamed | git2::Delta::Copied => {
            let verb = if delta.status() == git2::Delta::Renamed {
                "rename"
            } else {
                "copy"
            };
            text.push_str(&format!(
                "{verb} from {}\n{verb} to {}\n",
                quote(&old_path),
                quote(&new_path)
            ));
        }
        _ => {}
    }
    let short = |file: &git2::DiffFile<'_>| file.id().to_string()[..7].to_string();
    if old.mode() != new.mode()
        && !matches!(delta.status(), git2::Delta::Added | git2::Delta::Deleted)
    {
        text.push_str(&format!(
            "old mode {}\nnew mode {}\nindex {}..{}\n",
            mode(&old),
            mode(&new),
            short(&old),
            short(&new)
        ));
    } else if matches!(delta.status(), git2::Delta::Added | git2::Delta::Deleted) {
        text.push_str(&format!("index {}..{}\n", short(&old), short(&new)));
    } else {
        text.push_str(&format!(
            "index {}..{} {}\n",
            short(&old),
            short(&new),
            mode(&new)
        ));
    }
    text.push_str(side.header());
    text.push('\n');
    out.extend_from_slice(text.as_bytes());
}

/// A name as git writes it in a header: C-quoted when it holds a quote, a backslash, a control
/// character or a byte past ASCII (`core.quotePath`, git's default).
fn quote(name: &str) -> String {
    let plain = name
        .bytes()
        .all(|b| (0x20..0x7f).contains(&b) && b != b'"' && b != b'\\');
    if plain {
        return name.to_string();
    }
    let mut out = String::from("\"");
    for byte in name.bytes() {
        match byte {
            b'"' | b'\\' => {
                out.push('\\');
                out.push(byte as char);
            }
            b'\n' => out.push_str("\\n"),
            b'\t' => out.push_str("\\t"),
            0x20..0x7f => out.push(byte as char),
            _ => out.push_str(&format!("\\{byte:03o}")),
        }
    }
    out.push('"');
    out
}

/// The parsed model of [`merge_base_diff_text`].
pub fn merge_base_diff(repo: &Repository, base: &str, head: &str) -> Result<Diff, DiffError> {
    parse(&merge_base_diff_text(repo, base, head)?)
}

/// The tree diff from `old` to `new` with renames as `git diff` detects them by default.
///
/// Similarity reads both files' contents. A repository whose object store lacks one (a
/// snapshot without its large files, a partial clone whose promisor cannot be reached) would
/// refuse the whole review for a file it may not even need; there the renames are those of
/// identical contents (compared by id, no contents read), the other pairs stay a deletion and
/// an addition, and the side the store lacks is named unavailable when the patch is printed.
/// `action` names the diff in an error.
fn diff_with_renames<'r>(
    repo: &'r Repository,
    old: &git2::Tree<'_>,
    new: &git2::Tree<'_>,
    action: &str,
) -> Result<git2::Diff<'r>, DiffError> {
    let tree_diff = || {
        repo.diff_tree_to_tree(Some(old), Some(new), Some(&mut DiffOptions::new()))
            .map_err(|e| DiffError::git(action, e))
    };
    let mut diff = tree_diff()?;
    match diff.find_similar(Some(&mut rename_options(repo, false))) {
        Ok(()) => Ok(diff),
        Err(e) if e.code() == git2::ErrorCode::NotFound => {
            // Rebuilt: a search that failed half-way may have marked some pairs already.
            let mut diff = tree_diff()?;
            diff.find_similar(Some(&mut rename_options(repo, true)))
                .map_err(|e| DiffError::git("detecting renames", e))?;
            Ok(diff)
        }
        Err(e) => Err(DiffError::git("detecting renames", e)),
    }
}

/// Rename detection as git's defaults have it; `exact` compares ids only.
fn rename_options(repo: &Repository, exact: bool) -> DiffFindOptions {
    let mut find = DiffFindOptions::new();
    find.renames(true);
    find.exact_match_only(exact);
    // libgit2 gives up on renames past 200 candidates, git past 1000: keep git's numbers on
    // large pull requests unless the repository configures its own limit.
    let rename_limit = repo
        .config()
        .and_then(|config| config.get_i32("diff.renameLimit"))
        .map_or(1000, |limit| usize::try_from(limit).unwrap_or(1000));
    find.rename_limit(rename_limit);
    find
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
        let diff = diff_with_renames(
            repo,
            &old_tree,
            &new_tree,
            &format!("diffing {id} with its parent"),
        )?;
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A repository whose `main` has `old` at `path` and whose `head` has `new` there.
    fn two_commits(dir: &std::path::Path, path: &str, old: &str, new: &str) -> Repository {
        two_trees(dir, &[(path, old)], &[(path, new)])
    }

    /// Deletes the loose object `id` from the bare repository at `dir`.
    fn lose(dir: &std::path::Path, id: git2::Oid) {
        let hex = id.to_string();
        std::fs::remove_file(dir.join("objects").join(&hex[..2]).join(&hex[2..])).unwrap();
    }

    #[test]
    fn a_side_the_repository_lacks_is_named_not_shown_as_all_added_or_removed() {
        let scratch = tempfile::tempdir().unwrap();
        let path = "dätä \"t\".txt";
        let repo = two_commits(scratch.path(), path, "old\n", "new\n");
        lose(
            scratch.path(),
            git2::Oid::hash_object(git2::ObjectType::Blob, b"old\n").unwrap(),
        );

        let diff = merge_base_diff(&repo, "main", "head").unwrap();
        assert_eq!(diff.files.len(), 1, "{diff:#?}");
        let file = &diff.files[0];
        assert_eq!(file.path, path);
        assert_eq!(file.unavailable, Some(Unavailable::Base));
        assert!(file.hunks.is_empty());
        assert_eq!((file.additions, file.deletions), (0, 0));

        lose(
            scratch.path(),
            git2::Oid::hash_object(git2::ObjectType::Blob, b"new\n").unwrap(),
        );
        let diff = merge_base_diff(&repo, "main", "head").unwrap();
        assert_eq!(diff.files[0].unavailable, Some(Unavailable::Both));
    }

    /// A repository whose `main` holds `base` and whose `head` holds `head` (path, text).
    fn two_trees(
        dir: &std::path::Path,
        base: &[(&str, &str)],
        head: &[(&str, &str)],
    ) -> Repository {
        let repo = Repository::init_bare(dir).unwrap();
        let sig = git2::Signature::now("t", "t@example.com").unwrap();
        let commit = |files: &[(&str, &str)], parents: &[&Commit<'_>], name: &str| {
            let mut tree = repo.treebuilder(None).unwrap();
            for (path, text) in files {
                let blob = repo.blob(text.as_bytes()).unwrap();
                tree.insert(path, blob, 0o100644).unwrap();
            }
            let tree = repo.find_tree(tree.write().unwrap()).unwrap();
            let id = repo.commit(None, &sig, &sig, name, &tree, parents).unwrap();
            repo.reference(&format!("refs/heads/{name}"), id, true, name)
                .unwrap();
            id
        };
        let base_id = commit(base, &[], "main");
        let base_commit = repo.find_commit(base_id).unwrap();
        commit(head, &[&base_commit], "head");
        drop(base_commit);
        repo
    }

    #[test]
    fn a_blob_rename_detection_cannot_read_leaves_the_review_with_exact_renames() {
        // A deleted file whose contents the store lacks (a snapshot without its large files)
        // and an added file: similarity cannot be measured. The review goes on, the missing
        // side named; a file moved unchanged is still a rename.
        let scratch = tempfile::tempdir().unwrap();
        let moved = "fn moved() {}\n";
        let lost = "a large build output\n".repeat(40);
        let repo = two_trees(
            scratch.path(),
            &[("tool.bin", &lost), ("old.rs", moved)],
            &[
                ("new.rs", moved),
                ("added.rs", &"fn added() {}\n".repeat(40)),
            ],
        );
        lose(
            scratch.path(),
            git2::Oid::hash_object(git2::ObjectType::Blob, lost.as_bytes()).unwrap(),
        );

        let diff = merge_base_diff(&repo, "main", "head").unwrap();
        let file = |path: &str| {
            diff.files
                .iter()
                .find(|f| f.path == path)
                .unwrap_or_else(|| panic!("{path}: {diff:#?}"))
        };
        assert_eq!(file("tool.bin").unavailable, Some(Unavailable::Base));
        assert_eq!(file("new.rs").old_path.as_deref(), Some("old.rs"));
        assert_eq!(file("added.rs").unavailable, None);
        let names = earlier_names(&repo, "main", "head").unwrap();
        assert_eq!(names.get("new.rs"), Some(&vec!["old.rs".to_string()]));
    }

    #[test]
    fn a_complete_repository_diffs_as_before() {
        let scratch = tempfile::tempdir().unwrap();
        let repo = two_commits(scratch.path(), "a.txt", "old\n", "new\n");
        let text = merge_base_diff_text(&repo, "main", "head").unwrap();
        assert!(text.contains("-old\n+new\n"), "{text}");
        assert_eq!(parse(&text).unwrap().files[0].unavailable, None);
    }
}
