//! A repository's tags written as one `packed-refs` file, the way `git pack-refs` writes it,
//! instead of one loose ref file per tag.
//!
//! A repository with hundreds of version tags made the mirror's first fetch create a file per
//! tag (tokio: ~400, 0.15 s of inode creation on ext4 before the diff could start). One file
//! does the same for git and libgit2, which read packed and loose refs alike.
//!
//! The write follows git's protocol: `packed-refs.lock` is created exclusively (git and libgit2
//! take the same lock to rewrite the file), the whole new file is written into it and renamed
//! over `packed-refs`, so a reader sees the old file or the new one and a crash leaves the old
//! one and a stale lock (which the mirror clears under its own lock). Then the loose tag files
//! are removed, as `git pack-refs --prune` does: a loose ref overrides a packed one.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};

use git2::{ObjectType, Oid, Repository};
use thiserror::Error;

/// Where git keeps tags.
const TAGS: &str = "refs/tags/";
/// What the written file promises: tags carry the object they peel to (`^<oid>` below them,
/// none when they name a commit), and lines are sorted by name (readers search it).
const HEADER: &str = "# pack-refs with: peeled sorted \n";

#[derive(Debug, Error)]
pub(super) enum PackedRefsError {
    #[error("{0}: another writer holds it")]
    Locked(PathBuf),
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{path}: line {line} is not a packed ref")]
    Unreadable { path: PathBuf, line: usize },
    #[error("{0:?} is not a tag name git accepts")]
    BadName(String),
}

/// A tag to write: the object its name points at, and the object that peels to when it is
/// an annotated tag (`None` when it names a commit itself).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Target {
    pub id: Oid,
    pub peeled: Option<Oid>,
}

/// What `id` peels to when it is an annotated tag (through tags of tags), for [`Target`]:
/// `None` when it is no tag, or cannot be read.
pub(super) fn peeled(repo: &Repository, id: Oid) -> Option<Oid> {
    let header = repo.odb().ok()?.read_header(id).ok()?;
    if header.1 != ObjectType::Tag {
        return None;
    }
    repo.find_object(id, None)
        .ok()?
        .peel(ObjectType::Any)
        .ok()
        .map(|o| o.id())
}

/// Makes the tags of `repo` exactly `tags` (full names, `refs/tags/...`), written in its
/// `packed-refs`; every other ref the file holds is kept as it was. Loose tag files that name
/// an object directly are removed afterwards (symbolic ones are kept, as a packed file cannot
/// hold them). On an error nothing was changed but, at worst, some loose tag files removed
/// after the new file was in place (each then reads as its packed value).
pub(super) fn write_tags(
    repo: &Repository,
    tags: &BTreeMap<String, Target>,
) -> Result<(), PackedRefsError> {
    if let Some(bad) = tags
        .keys()
        .find(|name| !name.starts_with(TAGS) || !git2::Reference::is_valid_name(name))
    {
        return Err(PackedRefsError::BadName(bad.clone()));
    }
    let git_dir = repo.path();
    let path = git_dir.join("packed-refs");
    let lock = Lock::take(git_dir.join("packed-refs.lock"))?;
    let old = match std::fs::read_to_string(&path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(source) => return Err(PackedRefsError::Io { path, source }),
    };
    let mut entries: BTreeMap<String, Target> = parse(&old)
        .map_err(|line| PackedRefsError::Unreadable {
            path: path.clone(),
            line,
        })?
        .into_iter()
        .filter(|(name, _)| !name.starts_with(TAGS))
        .collect();
    entries.extend(tags.iter().map(|(name, target)| (name.clone(), *target)));
    lock.write_and_commit(&render(&entries), &path)?;
    remove_loose_tags(&git_dir.join(TAGS));
    Ok(())
}

/// The entries of a `packed-refs` text, by name; `Err(line)` (1-based) for a line that is
/// not one (then the file is left alone: it is not ours to repair).
fn parse(text: &str) -> Result<BTreeMap<String, Target>, usize> {
    let mut out = BTreeMap::new();
    let mut last: Option<String> = None;
    let mut lines = text.split_terminator('\n').enumerate().peekable();
    // The traits line (and any comment before the first ref).
    while lines.next_if(|(_, line)| line.starts_with('#')).is_some() {}
    for (index, line) in lines {
        let bad = || index + 1;
        if let Some(hex) = line.strip_prefix('^') {
            let id = oid(hex).ok_or_else(bad)?;
            let name = last.take().ok_or_else(bad)?;
            if let Some(target) = out.get_mut(&name) {
                let target: &mut Target = target;
                target.peeled = Some(id);
            }
            continue;
        }
        let (hex, name) = line.split_once(' ').ok_or_else(bad)?;
        let id = oid(hex).ok_or_else(bad)?;
        if name.is_empty() || name.contains(['\r', ' ']) {
            return Err(bad());
        }
        out.insert(name.to_string(), Target { id, peeled: None });
        last = Some(name.to_string());
    }
    Ok(out)
}

/// A full hexadecimal object id (SHA-1 or SHA-256), nothing shorter.
fn oid(hex: &str) -> Option<Oid> {
    (matches!(hex.len(), 40 | 64) && hex.bytes().all(|b| b.is_ascii_hexdigit()))
        .then(|| Oid::from_str(hex).ok())
        .flatten()
}

/// The file's text: the header, then each ref sorted by name (byte order, as git's `strcmp`)
/// with its peeled object below it.
fn render(entries: &BTreeMap<String, Target>) -> String {
    let mut text = String::with_capacity(HEADER.len() + entries.len() * 100);
    text.push_str(HEADER);
    for (name, target) in entries {
        text.push_str(&format!("{} {name}\n", target.id));
        if let Some(peeled) = target.peeled {
            text.push_str(&format!("^{peeled}\n"));
        }
    }
    text
}

/// Removes the loose ref files under `dir` (`refs/tags/`) that name an object, and the
/// folders that leaves empty (not `dir` itself). Best effort: a file left behind names the
/// tag as before, which the next copy rewrites.
fn remove_loose_tags(dir: &Path) {
    fn sweep(dir: &Path, top: bool) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            match entry.file_type() {
                Ok(kind) if kind.is_dir() => sweep(&path, false),
                Ok(kind) if kind.is_file() => {
                    let direct = std::fs::read_to_string(&path)
                        .is_ok_and(|text| oid(text.trim_end()).is_some());
                    if direct && path.extension().is_none_or(|e| e != "lock") {
                        let _ = std::fs::remove_file(&path);
                    }
                }
                _ => {}
            }
        }
        if !top {
            // Fails, harmlessly, when something is left in it.
            let _ = std::fs::remove_dir(dir);
        }
    }
    sweep(dir, true);
}

/// `packed-refs.lock`, created exclusively; removed on drop unless renamed into place.
struct Lock {
    path: PathBuf,
    file: Option<std::fs::File>,
}

impl Lock {
    fn take(path: PathBuf) -> Result<Lock, PackedRefsError> {
        match std::fs::File::options()
            .write(true)
            .create_new(true)
            .open(&path)
        {
            Ok(file) => Ok(Lock {
                path,
                file: Some(file),
            }),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                Err(PackedRefsError::Locked(path))
            }
            Err(source) => Err(PackedRefsError::Io { path, source }),
        }
    }

    /// Writes `text` and renames the lock over `target`. Not fsynced, like git's default
    /// (`core.fsync` leaves references out) and libgit2's.
    fn write_and_commit(mut self, text: &str, target: &Path) -> Result<(), PackedRefsError> {
        let io = |path: &Path| {
            let path = path.to_path_buf();
            move |source| PackedRefsError::Io { path, source }
        };
        let mut file = self.file.take().expect("the lock is open until committed");
        file.write_all(text.as_bytes()).map_err(io(&self.path))?;
        drop(file);
        std::fs::rename(&self.path, target).map_err(io(target))?;
        self.path = PathBuf::new();
        Ok(())
    }
}

impl Drop for Lock {
    fn drop(&mut self) {
        if !self.path.as_os_str().is_empty() {
            let _ = std::fs::remove_file(&self.path);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::space::test_repo::{TestRepo, git};

    fn target(repo: &Repository, sha: &str) -> Target {
        let id = Oid::from_str(sha).unwrap();
        Target {
            id,
            peeled: peeled(repo, id),
        }
    }

    #[test]
    fn tags_are_written_in_one_file_that_git_and_libgit2_read_and_other_refs_are_kept() {
        let t = TestRepo::new();
        let first = t.sha("HEAD");
        let second = t.commit("a.txt", "a\n", "second");
        git(&t.path(), &["tag", "-a", "-m", "release", "v1.0.0", &first]);
        git(
            &t.path(),
            &["tag", "-a", "-m", "again", "v1.0.0-again", "v1.0.0"],
        );
        let annotated = t.sha("v1.0.0");
        let twice = t.sha("v1.0.0-again");
        let bare = t.scratch().join("bare.git");
        git(t.scratch(), &["clone", "-q", "--bare", "repo", "bare.git"]);
        git(&bare, &["tag", "-d", "v1.0.0", "v1.0.0-again"]);
        // Refs the file already holds (as after `git pack-refs`), and a loose tag of an
        // older copy that is no longer wanted, another that moved.
        git(&bare, &["update-ref", "refs/review-tui/x/head", &second]);
        git(&bare, &["update-ref", "refs/tags/old-1.0", &first]);
        git(&bare, &["update-ref", "refs/tags/sub/v0.1.0", &first]);
        git(&bare, &["pack-refs", "--all"]);
        git(&bare, &["update-ref", "refs/tags/gone-2.0", &second]);
        git(&bare, &["update-ref", "refs/tags/sub/v0.1.0", &second]);
        assert!(bare.join("refs/tags/gone-2.0").is_file());

        let repo = Repository::open_bare(&bare).unwrap();
        let tags: BTreeMap<String, Target> = [
            ("refs/tags/v1.0.0", annotated.as_str()),
            ("refs/tags/v1.0.0-again", twice.as_str()),
            ("refs/tags/sub/v0.1.0", first.as_str()),
            ("refs/tags/v2.0.0", second.as_str()),
        ]
        .into_iter()
        .map(|(name, sha)| (name.to_string(), target(&repo, sha)))
        .collect();
        assert_eq!(tags["refs/tags/v1.0.0"].peeled.unwrap().to_string(), first);
        assert_eq!(
            tags["refs/tags/v1.0.0-again"].peeled.unwrap().to_string(),
            first
        );
        assert_eq!(tags["refs/tags/v2.0.0"].peeled, None);
        write_tags(&repo, &tags).unwrap();

        // git reads every tag, peeled, and the other refs; nothing loose is left in refs/tags.
        assert_eq!(
            git(&bare, &["show-ref", "-d"]),
            format!(
                "{second} refs/heads/main\n\
                 {second} refs/review-tui/x/head\n\
                 {first} refs/tags/sub/v0.1.0\n\
                 {annotated} refs/tags/v1.0.0\n\
                 {first} refs/tags/v1.0.0^{{}}\n\
                 {twice} refs/tags/v1.0.0-again\n\
                 {first} refs/tags/v1.0.0-again^{{}}\n\
                 {second} refs/tags/v2.0.0"
            )
        );
        assert_eq!(
            std::fs::read_dir(bare.join("refs/tags")).unwrap().count(),
            0
        );
        git(&bare, &["fsck", "--no-progress"]);
        // libgit2 too, through a repository opened before the write as through a new one.
        for repo in [&repo, &Repository::open_bare(&bare).unwrap()] {
            let mut names: Vec<(String, Oid)> = repo
                .references_glob("refs/tags/*")
                .unwrap()
                .flatten()
                .map(|r| (r.name().unwrap().to_string(), r.target().unwrap()))
                .collect();
            names.sort();
            let expected: Vec<(String, Oid)> =
                tags.iter().map(|(n, t)| (n.clone(), t.id)).collect();
            assert_eq!(names, expected);
            let peeled = repo
                .find_reference("refs/tags/v1.0.0-again")
                .unwrap()
                .peel_to_commit()
                .unwrap();
            assert_eq!(peeled.id().to_string(), first);
        }
        // The file is git's own: `git pack-refs` rewrites it to the same refs.
        let before = git(&bare, &["show-ref", "-d"]);
        git(&bare, &["pack-refs", "--all"]);
        assert_eq!(git(&bare, &["show-ref", "-d"]), before);

        // Fewer tags later: the others are dropped, nothing else is.
        let fewer: BTreeMap<String, Target> = tags
            .into_iter()
            .filter(|(name, _)| name == "refs/tags/v2.0.0")
            .collect();
        write_tags(&repo, &fewer).unwrap();
        assert_eq!(git(&bare, &["tag", "--list"]), "v2.0.0");
        assert_eq!(git(&bare, &["rev-parse", "refs/review-tui/x/head"]), second);
    }

    #[test]
    fn a_held_lock_or_a_file_it_cannot_read_changes_nothing() {
        let t = TestRepo::new();
        let first = t.sha("HEAD");
        let bare = t.scratch().join("bare.git");
        git(t.scratch(), &["clone", "-q", "--bare", "repo", "bare.git"]);
        git(&bare, &["pack-refs", "--all"]);
        let repo = Repository::open_bare(&bare).unwrap();
        let tags: BTreeMap<String, Target> =
            [("refs/tags/v1.0.0".to_string(), target(&repo, &first))].into();
        let packed = bare.join("packed-refs");
        let original = std::fs::read_to_string(&packed).unwrap();

        // A writer killed mid-write (or one at work): its lock stays, the file is untouched.
        std::fs::write(bare.join("packed-refs.lock"), "# pack-refs with: peel").unwrap();
        let locked = write_tags(&repo, &tags).unwrap_err();
        assert!(matches!(locked, PackedRefsError::Locked(_)), "{locked}");
        assert_eq!(std::fs::read_to_string(&packed).unwrap(), original);
        assert_eq!(git(&bare, &["rev-parse", "refs/heads/main"]), first);
        std::fs::remove_file(bare.join("packed-refs.lock")).unwrap();

        // A line that is no ref: the file is not ours to rewrite, and our lock is gone.
        std::fs::write(&packed, format!("{original}not a ref\n")).unwrap();
        let unreadable = write_tags(&repo, &tags).unwrap_err();
        assert!(
            matches!(unreadable, PackedRefsError::Unreadable { line: 3, .. }),
            "{unreadable}"
        );
        assert!(!bare.join("packed-refs.lock").exists());

        // A name git would refuse is never written.
        std::fs::write(&packed, &original).unwrap();
        let bad: BTreeMap<String, Target> = [(
            "refs/tags/v1.0.0\n0000 refs/heads/main".to_string(),
            target(&repo, &first),
        )]
        .into();
        assert!(matches!(
            write_tags(&repo, &bad),
            Err(PackedRefsError::BadName(_))
        ));
        assert_eq!(std::fs::read_to_string(&packed).unwrap(), original);
        let outside: BTreeMap<String, Target> =
            [("refs/heads/main".to_string(), target(&repo, &first))].into();
        assert!(matches!(
            write_tags(&repo, &outside),
            Err(PackedRefsError::BadName(_))
        ));
    }

    #[test]
    fn packed_refs_texts() {
        let a = "a".repeat(40);
        let b = "b".repeat(40);
        let text = format!(
            "# pack-refs with: peeled fully-peeled sorted \n{a} refs/heads/x\n{a} refs/tags/t\n^{b}\n"
        );
        let parsed = parse(&text).unwrap();
        assert_eq!(parsed["refs/heads/x"].peeled, None);
        assert_eq!(parsed["refs/tags/t"].peeled.unwrap().to_string(), b);
        assert_eq!(render(&parsed), text.replace(" fully-peeled", ""));
        assert_eq!(parse("").unwrap().len(), 0);
        for bad in [
            format!("^{b}\n"),
            format!("{a}\n"),
            format!("{a} \n"),
            format!("{} refs/x\n", &a[..39]),
            format!("{a} refs/x\r\n"),
            format!("{a} refs/x\n^zz\n"),
        ] {
            assert!(parse(&bad).is_err(), "{bad:?}");
        }
    }
}
