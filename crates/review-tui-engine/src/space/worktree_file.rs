//! A changed file of the worktree, read by its repository path and never from outside the
//! worktree. The worktree is the PR's tree: a PR can commit a symbolic link named like source
//! code (`src/lib.rs -> /home/me/.aws/credentials`), and a plain `std::fs::read` follows it,
//! which would parse a file of the reviewer's machine into symbols, surfaces and reports.

use std::io;
use std::path::{Path, PathBuf};

/// The file's bytes, when its real path lies inside the worktree.
pub(crate) fn read(worktree: &Path, path: &str) -> io::Result<Vec<u8>> {
    std::fs::read(inside(worktree, path)?)
}

/// The file's bytes under the same rule as [`read`], or `None` when it holds more than
/// `max_bytes`: one walk of the path for both questions (asked of every changed file).
pub(crate) fn read_at_most(
    worktree: &Path,
    path: &str,
    max_bytes: u64,
) -> io::Result<Option<Vec<u8>>> {
    let mut file = std::fs::File::open(inside(worktree, path)?)?;
    let size = file.metadata()?.len();
    if size > max_bytes {
        return Ok(None);
    }
    let mut bytes = Vec::with_capacity(usize::try_from(size).unwrap_or(0));
    std::io::Read::read_to_end(&mut file, &mut bytes)?;
    Ok(Some(bytes))
}

/// The names of the files in the folder `dir` (`""`: the worktree's root), under the same rule
/// as [`read`] for the folder, sorted: a manifest named for its package (`NAME.cabal`) is found
/// by listing its folder. Reading one of them still goes through [`read`].
pub(crate) fn list(worktree: &Path, dir: &str) -> io::Result<Vec<String>> {
    let folder = if dir.is_empty() {
        worktree.to_path_buf()
    } else {
        inside(worktree, dir)?
    };
    let mut names = Vec::new();
    for entry in std::fs::read_dir(folder)? {
        let entry = entry?;
        // A folder, or a link to one.
        if entry.path().is_dir() {
            continue;
        }
        if let Ok(name) = entry.file_name().into_string() {
            names.push(name);
        }
    }
    names.sort();
    Ok(names)
}

/// The file's size, under the same rule as [`read`].
pub(crate) fn size(worktree: &Path, path: &str) -> io::Result<u64> {
    Ok(std::fs::metadata(inside(worktree, path)?)?.len())
}

/// `path` below `worktree` with every symbolic link resolved, refused when that leaves the
/// worktree (a link out, `..`, an absolute path). A link to another file of the worktree is
/// read through: it exposes nothing the PR does not hold.
fn inside(worktree: &Path, path: &str) -> io::Result<PathBuf> {
    if let Some(plain) = plain_below(worktree, path)? {
        return Ok(plain);
    }
    let real = worktree.join(path).canonicalize()?;
    let root = worktree.canonicalize()?;
    if real.starts_with(&root) {
        Ok(real)
    } else {
        Err(io::Error::new(
            io::ErrorKind::PermissionDenied,
            "it leads outside the worktree (a symbolic link, or a path that climbs out)",
        ))
    }
}

/// `path` below `worktree` when it is plain: relative, without `.` or `..`, and no symbolic
/// link on the way (one `lstat` per component below the worktree). Such a path cannot leave
/// the worktree, and it is checked without resolving the worktree's own path, as deep as the
/// data directory, twice per read (the cohort build and the rules read every changed file:
/// ~0.1 s of `realpath` on tokio 1.0..1.40). `None`: not plain, [`inside`] resolves it.
fn plain_below(worktree: &Path, path: &str) -> io::Result<Option<PathBuf>> {
    let relative = Path::new(path);
    let plain = relative.components().next().is_some()
        && relative
            .components()
            .all(|c| matches!(c, std::path::Component::Normal(_)));
    if !plain {
        return Ok(None);
    }
    let mut at = worktree.to_path_buf();
    for component in relative.components() {
        at.push(component);
        if std::fs::symlink_metadata(&at)?.file_type().is_symlink() {
            return Ok(None);
        }
    }
    Ok(Some(at))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn links_out_of_the_worktree_are_refused_and_links_inside_are_read() {
        let dir = tempfile::tempdir().unwrap();
        let worktree = dir.path().join("worktree");
        std::fs::create_dir_all(worktree.join("src")).unwrap();
        std::fs::write(dir.path().join("credentials"), "aws_secret=1").unwrap();
        std::fs::write(worktree.join("src/real.rs"), "pub fn a() {}\n").unwrap();
        std::os::unix::fs::symlink("../../credentials", worktree.join("src/lib.rs")).unwrap();
        std::os::unix::fs::symlink("real.rs", worktree.join("src/alias.rs")).unwrap();
        std::os::unix::fs::symlink(dir.path(), worktree.join("up")).unwrap();

        for path in ["src/lib.rs", "up/credentials", "../credentials"] {
            let err = read(&worktree, path).unwrap_err();
            assert_eq!(err.kind(), io::ErrorKind::PermissionDenied, "{path}");
            assert!(size(&worktree, path).is_err(), "{path}");
        }
        let outside = dir.path().join("credentials").display().to_string();
        assert!(read(&worktree, &outside).is_err());
        assert_eq!(read(&worktree, "src/alias.rs").unwrap(), b"pub fn a() {}\n");
        // A link in the middle of the path is followed only inside the worktree.
        std::os::unix::fs::symlink("src", worktree.join("code")).unwrap();
        assert_eq!(read(&worktree, "code/real.rs").unwrap(), b"pub fn a() {}\n");
        assert_eq!(
            read(&worktree, "./code/lib.rs").unwrap_err().kind(),
            io::ErrorKind::PermissionDenied
        );
        assert_eq!(
            read(&worktree, "src/missing.rs").unwrap_err().kind(),
            io::ErrorKind::NotFound
        );
        assert_eq!(
            read(&worktree, "src/../src/real.rs").unwrap(),
            b"pub fn a() {}\n"
        );
        assert_eq!(size(&worktree, "src/real.rs").unwrap(), 14);
        assert_eq!(
            read_at_most(&worktree, "src/alias.rs", 14)
                .unwrap()
                .unwrap(),
            b"pub fn a() {}\n"
        );
        assert_eq!(read_at_most(&worktree, "src/alias.rs", 13).unwrap(), None);
        for path in ["src/lib.rs", "up/credentials", "../credentials"] {
            let err = read_at_most(&worktree, path, u64::MAX).unwrap_err();
            assert_eq!(err.kind(), io::ErrorKind::PermissionDenied, "{path}");
        }
        // A folder is listed only inside the worktree; its folders (and links to folders) are
        // not files.
        std::fs::write(worktree.join("pkg.cabal"), "name: pkg\n").unwrap();
        assert_eq!(
            list(&worktree, "src").unwrap(),
            ["alias.rs", "lib.rs", "real.rs"]
        );
        assert_eq!(list(&worktree, "").unwrap(), ["pkg.cabal"]);
        for dir in ["up", "../", "code/../.."] {
            assert!(list(&worktree, dir).is_err(), "{dir}");
        }
    }
}
