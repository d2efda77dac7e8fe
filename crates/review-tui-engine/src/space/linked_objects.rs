//! A local repository's objects hard-linked into the mirror, the way `git clone --local` does,
//! instead of fetched; copied when the mirror is on another filesystem.
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

/// Links every object of the repository at `source` into the bare repository at `mirror`
/// (copies them where the two are on different filesystems: a fetch would repack the whole
/// history, minutes of CPU on a large repository, to write the same objects).
/// `Ok(false)` when that cannot be done (a source that borrows objects through alternates or
/// is shallow, not a repository at all, a copy that fails): the caller fetches instead.
/// An error only when an earlier link was interrupted and cannot be completed now.
pub(super) fn link_objects(mirror: &Path, source: &Path) -> io::Result<bool> {
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
    match link_all(&objects, &mirror.join("objects"), &mut made, link) {
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
fn link_all(from: &Path, to: &Path, made: &mut Vec<PathBuf>, link: Place) -> io::Result<()> {
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

/// How one object file gets into the mirror: [`link`], or [`copy`] in the tests.
type Place = fn(&Path, &Path, &mut Vec<PathBuf>) -> io::Result<()>;

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
        Err(e) if e.kind() == io::ErrorKind::CrossesDevices => copy(source, target, made),
        Err(e) => Err(e),
    }
}

/// Copies `source` to `target` through a temporary name, synced before the rename: a file
/// under an object's name is always the whole object, even after a crash (the next run skips
/// names that exist).
fn copy(source: &Path, target: &Path, made: &mut Vec<PathBuf>) -> io::Result<()> {
    if target.exists() {
        return Ok(());
    }
    let name = target
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or("object");
    let temp = target.with_file_name(format!(".{name}.tmp-{}", std::process::id()));
    let copied = std::fs::copy(source, &temp)
        .and_then(|_| std::fs::File::open(&temp)?.sync_all())
        .and_then(|()| std::fs::rename(&temp, target));
    if let Err(e) = copied {
        let _ = std::fs::remove_file(&temp);
        return Err(e);
    }
    made.push(target.to_path_buf());
    Ok(())
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
    fn objects_copied_from_another_filesystem_make_a_whole_mirror() {
        // Hard links fail across filesystems; the copy they fall back to is forced here.
        let source = TestRepo::new();
        source.commit("a.rs", "fn a() {}\n", "one");
        crate::space::test_repo::git(&source.path(), &["gc", "-q"]);
        let head = source.commit("b.rs", "fn b() {}\n", "two (loose)");
        let dir = tempfile::tempdir().unwrap();
        let mirror = bare(dir.path());
        let objects = source_objects(&source.path()).unwrap();
        let mut made = Vec::new();
        link_all(&objects, &mirror.join("objects"), &mut made, copy).unwrap();
        assert!(has(&mirror, &head));
        let repo = git2::Repository::open_bare(&mirror).unwrap();
        let commit = repo
            .find_commit(git2::Oid::from_str(&head).unwrap())
            .unwrap();
        let tree = commit.tree().unwrap();
        for (path, text) in [("a.rs", "fn a() {}\n"), ("b.rs", "fn b() {}\n")] {
            let blob = tree.get_path(Path::new(path)).unwrap().id();
            assert_eq!(repo.find_blob(blob).unwrap().content(), text.as_bytes());
        }
        // Copies, not links; and no temporary file is left behind.
        let pack = made
            .iter()
            .find(|p| p.extension().is_some_and(|e| e == "pack"));
        let pack = pack.expect("the pack was copied");
        #[cfg(unix)]
        {
            let meta = std::fs::metadata(pack).unwrap();
            assert_eq!(std::os::unix::fs::MetadataExt::nlink(&meta), 1);
        }
        let leftovers = walk_names(&mirror.join("objects"));
        assert!(
            !leftovers.iter().any(|n| n.contains(".tmp-")),
            "{leftovers:?}"
        );
    }

    fn walk_names(dir: &Path) -> Vec<String> {
        let mut out = Vec::new();
        for entry in std::fs::read_dir(dir).unwrap().flatten() {
            if entry.file_type().unwrap().is_dir() {
                out.extend(walk_names(&entry.path()));
            } else {
                out.push(entry.file_name().to_string_lossy().into_owned());
            }
        }
        out
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
