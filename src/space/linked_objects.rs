//! A local repository's objects hard-linked into the mirror, the way `git clone --local` does,
//! instead of fetched.
//!
//! git2's local fetch builds a delta-compressed pack of everything the mirror lacks, and on a
//! first review that is the repository's whole history: seconds of CPU on a large repository,
//! to copy objects that are already on the same disk. Objects are immutable and named by
//! their content, so a link is as good as a copy, and survives the source's `gc`. Once the
//! wanted commits are present, the fetch that follows only writes the refs.
//!
//! Crash safety: the fetch trusts a commit it finds in the mirror, so a half-linked mirror (a
//! commit without its trees) must never be left for it. A marker file exists for as long as
//! linking is under way; a mirror found with the marker finishes the job before anything else
//! reads it, and a failed link removes the links it made.

use std::io;
use std::path::{Path, PathBuf};

const MARKER: &str = "review-tui-linking";

/// Links every object of the repository at `source` into the bare repository at `mirror`.
/// `Ok(false)` when that cannot be done (another filesystem, a source that borrows objects
/// through alternates or is shallow, not a repository at all): the caller fetches instead.
/// An error only when an earlier link was interrupted and cannot be completed now.
pub fn link_objects(mirror: &Path, source: &Path) -> io::Result<bool> {
    let marker = mirror.join(MARKER);
    let interrupted = marker.exists();
    let linkable = source_objects(source);
    let Some(objects) = linkable else {
        return if interrupted {
            Err(cannot_complete(mirror, source))
        } else {
            Ok(false)
        };
    };
    std::fs::write(&marker, b"")?;
    let mut made = Vec::new();
    match link_all(&objects, &mirror.join("objects"), &mut made) {
        Ok(()) => {
            std::fs::remove_file(&marker)?;
            Ok(true)
        }
        Err(_) if interrupted => Err(cannot_complete(mirror, source)),
        Err(_) => {
            for path in made.iter().rev() {
                std::fs::remove_file(path)?;
            }
            std::fs::remove_file(&marker)?;
            Ok(false)
        }
    }
}

fn cannot_complete(mirror: &Path, source: &Path) -> io::Error {
    io::Error::other(format!(
        "linking the objects of {} into the mirror {} was interrupted and cannot be finished \
         now; remove {} and run again",
        source.display(),
        mirror.display(),
        mirror.display()
    ))
}

/// The source's own object directory, when every object it needs is in it.
fn source_objects(source: &Path) -> Option<PathBuf> {
    let repo = git2::Repository::open(source).ok()?;
    if repo.is_shallow() {
        return None;
    }
    // A worktree's objects live in the common directory.
    let objects = repo.commondir().join("objects");
    let borrows = objects.join("info").join("alternates").exists();
    (!borrows && objects.is_dir()).then_some(objects)
}

/// Packs first, each one's index after its data so no reader sees an index without its pack,
/// then loose objects. Names already in the mirror are skipped: same name, same content.
fn link_all(from: &Path, to: &Path, made: &mut Vec<PathBuf>) -> io::Result<()> {
    let pack_dir = from.join("pack");
    if pack_dir.is_dir() {
        let mut names: Vec<String> = std::fs::read_dir(&pack_dir)?
            .filter_map(|e| e.ok()?.file_name().into_string().ok())
            .filter(|n| n.starts_with("pack-") && n.ends_with(".pack"))
            .collect();
        names.sort();
        std::fs::create_dir_all(to.join("pack"))?;
        for name in names {
            let stem = name.trim_end_matches(".pack");
            for ext in ["pack", "rev", "idx"] {
                let file = format!("{stem}.{ext}");
                let source = pack_dir.join(&file);
                if ext == "rev" && !source.exists() {
                    continue;
                }
                link(&source, &to.join("pack").join(&file), made)?;
            }
        }
    }
    for entry in std::fs::read_dir(from)? {
        let entry = entry?;
        let name = entry.file_name();
        let Some(name) = name.to_str() else { continue };
        let is_fanout = name.len() == 2 && name.chars().all(|c| c.is_ascii_hexdigit());
        if !is_fanout || !entry.file_type()?.is_dir() {
            continue;
        }
        let target_dir = to.join(name);
        for object in std::fs::read_dir(entry.path())? {
            let object = object?;
            let object_name = object.file_name();
            // git writes loose objects through `tmp_obj_*` files: those are not objects yet.
            if object_name.to_str().is_none_or(|n| n.starts_with("tmp")) {
                continue;
            }
            std::fs::create_dir_all(&target_dir)?;
            link(&object.path(), &target_dir.join(object_name), made)?;
        }
    }
    Ok(())
}

fn link(source: &Path, target: &Path, made: &mut Vec<PathBuf>) -> io::Result<()> {
    if target.exists() {
        return Ok(());
    }
    match std::fs::hard_link(source, target) {
        Ok(()) => {
            made.push(target.to_path_buf());
            Ok(())
        }
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => Ok(()),
        Err(e) => Err(e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::space::test_repo::TestRepo;

    fn bare(dir: &Path) -> PathBuf {
        let path = dir.join("mirror.git");
        git2::Repository::init_bare(&path).unwrap();
        path
    }

    fn has(mirror: &Path, sha: &str) -> bool {
        let repo = git2::Repository::open_bare(mirror).unwrap();
        repo.find_commit(git2::Oid::from_str(sha).unwrap()).is_ok()
    }

    #[test]
    fn every_object_is_linked_and_the_marker_is_gone() {
        let source = TestRepo::new();
        let head = source.commit("a.rs", "fn a() {}\n", "one");
        let dir = tempfile::tempdir().unwrap();
        let mirror = bare(dir.path());
        assert!(link_objects(&mirror, &source.path()).unwrap());
        assert!(has(&mirror, &head));
        assert!(!mirror.join(MARKER).exists());
        // The tree and blob came along: the commit checks out.
        let repo = git2::Repository::open_bare(&mirror).unwrap();
        let tree = repo
            .find_commit(git2::Oid::from_str(&head).unwrap())
            .unwrap()
            .tree()
            .unwrap();
        let blob = tree.get_path(Path::new("a.rs")).unwrap().id();
        assert_eq!(repo.find_blob(blob).unwrap().content(), b"fn a() {}\n");
        // Linking again changes nothing and succeeds.
        assert!(link_objects(&mirror, &source.path()).unwrap());
    }

    #[test]
    fn packed_objects_are_linked_with_their_index() {
        let source = TestRepo::new();
        let head = source.commit("a.rs", "fn a() {}\n", "one");
        crate::space::test_repo::git(&source.path(), &["gc", "-q"]);
        let dir = tempfile::tempdir().unwrap();
        let mirror = bare(dir.path());
        assert!(link_objects(&mirror, &source.path()).unwrap());
        assert!(has(&mirror, &head));
    }

    #[test]
    fn a_source_that_is_not_a_repository_or_borrows_objects_is_fetched_instead() {
        let dir = tempfile::tempdir().unwrap();
        let mirror = bare(dir.path());
        assert!(!link_objects(&mirror, dir.path()).unwrap());

        let source = TestRepo::new();
        source.commit("a.rs", "x\n", "one");
        let alternates = source.path().join(".git/objects/info");
        std::fs::create_dir_all(&alternates).unwrap();
        std::fs::write(alternates.join("alternates"), "/nowhere\n").unwrap();
        assert!(!link_objects(&mirror, &source.path()).unwrap());
        assert!(!mirror.join(MARKER).exists());
    }

    #[test]
    fn an_interrupted_link_is_finished_or_named_with_what_to_do() {
        let source = TestRepo::new();
        let head = source.commit("a.rs", "fn a() {}\n", "one");
        let dir = tempfile::tempdir().unwrap();
        let mirror = bare(dir.path());
        // A kill mid-link: the marker is there, and only some objects are.
        std::fs::write(mirror.join(MARKER), b"").unwrap();
        assert!(link_objects(&mirror, &source.path()).unwrap());
        assert!(has(&mirror, &head));
        assert!(!mirror.join(MARKER).exists());

        // Interrupted, and the source is gone: an error naming the mirror to remove.
        std::fs::write(mirror.join(MARKER), b"").unwrap();
        let gone = dir.path().join("gone");
        let message = link_objects(&mirror, &gone).unwrap_err().to_string();
        assert!(message.contains("remove"), "{message}");
        assert!(message.contains(mirror.to_str().unwrap()), "{message}");
    }
}
