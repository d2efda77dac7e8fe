//! A changed file of the worktree, read by its repository path and never from outside the
//! worktree. The worktree is the PR's tree: a PR can commit a symbolic link named like source
//! code (`src/lib.rs -> /home/me/.aws/credentials`), and a plain `std::fs::read` follows it,
//! which would parse a file of the reviewer's machine into symbols, surfaces and reports.

use std::io;
use std::path::{Path, PathBuf};

/// The file's bytes, when its real path lies inside the worktree.
pub fn read(worktree: &Path, path: &str) -> io::Result<Vec<u8>> {
    std::fs::read(inside(worktree, path)?)
}

/// The file's size, under the same rule as [`read`].
pub fn size(worktree: &Path, path: &str) -> io::Result<u64> {
    Ok(std::fs::metadata(inside(worktree, path)?)?.len())
}

/// `path` below `worktree` with every symbolic link resolved, refused when that leaves the
/// worktree (a link out, `..`, an absolute path). A link to another file of the worktree is
/// read through: it exposes nothing the PR does not hold.
fn inside(worktree: &Path, path: &str) -> io::Result<PathBuf> {
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
        assert_eq!(size(&worktree, "src/real.rs").unwrap(), 14);
    }
}
