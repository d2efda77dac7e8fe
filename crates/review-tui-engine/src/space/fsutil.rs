//! The file-system moves that must not be torn by a crash: atomic replacement and unique names.

use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::SystemTime;

/// A name no other writer uses: the pid separates processes, the counter separates threads and
/// calls in this one, and creation is exclusive anyway (`create_new`), so a clash is retried.
fn unique_name(prefix: &str) -> String {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    format!("{prefix}-{}-{n}", std::process::id())
}

/// `text` with anything that is not an ASCII letter or digit dropped: a SHA made safe to put
/// in a file name, so a strange one cannot name a path outside the directory.
pub(crate) fn name_part(text: &str) -> String {
    text.chars().filter(char::is_ascii_alphanumeric).collect()
}

pub(crate) fn create_unique_dir(parent: &Path, prefix: &str) -> io::Result<PathBuf> {
    loop {
        let path = parent.join(unique_name(prefix));
        match std::fs::create_dir(&path) {
            Ok(()) => return Ok(path),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(e),
        }
    }
}

/// Replaces `path` with `bytes` so that a reader (or a crash) sees the old file or the new one,
/// never a mix: write a temp file beside it, fsync it, rename it over, fsync the directory so
/// the rename itself is durable. The temp file is named `.<file name>.tmp-*`; see
/// [`remove_temp_files`].
pub(crate) fn atomic_write(path: &Path, bytes: &[u8]) -> io::Result<()> {
    replace(path, bytes, Durable::Yes)
}

/// [`atomic_write`] for a cache whose damaged file reads as a miss (a JSON document cut
/// short or holding zeroed blocks does not parse): a reader now sees the old file or the new
/// one, but nothing is flushed to disk, so a power loss may leave either, or a torn file.
/// Each fsync cost a small PR's review tens of milliseconds on a busy disk, for a file whose
/// loss only costs the next review a parse.
pub(crate) fn replace_cache_file(path: &Path, bytes: &[u8]) -> io::Result<()> {
    replace(path, bytes, Durable::No)
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Durable {
    Yes,
    No,
}

fn replace(path: &Path, bytes: &[u8], durable: Durable) -> io::Result<()> {
    let dir = dir_of(path);
    let prefix = temp_prefix(path);
    let (temp, mut file) = loop {
        let temp = dir.join(unique_name(&prefix));
        match OpenOptions::new().write(true).create_new(true).open(&temp) {
            Ok(file) => break (temp, file),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(e),
        }
    };
    let written = file
        .write_all(bytes)
        .and_then(|()| match durable {
            Durable::Yes => file.sync_all(),
            Durable::No => Ok(()),
        })
        .and_then(|()| {
            drop(file);
            std::fs::rename(&temp, path)
        });
    if let Err(e) = written {
        let _ = std::fs::remove_file(&temp);
        return Err(e);
    }
    match durable {
        Durable::Yes => sync_dir(dir),
        Durable::No => Ok(()),
    }
}

/// Writes a file the person named on the command line (`-o FILE`). A regular file (or a new
/// one) is replaced atomically; anything else that exists there (`/dev/null`, `/dev/stdout`, a
/// FIFO) is written into, as a shell redirection would: renaming over a device node would
/// replace the device itself.
pub(crate) fn write_output(path: &Path, bytes: &[u8]) -> io::Result<()> {
    match std::fs::metadata(path) {
        Ok(meta) if !meta.is_file() && !meta.is_dir() => {
            let mut file = OpenOptions::new().write(true).truncate(true).open(path)?;
            file.write_all(bytes)?;
            file.flush()
        }
        _ => atomic_write(path, bytes),
    }
}

/// Whether [`write_output`] can write `path`, found out before any work by doing what it will
/// do without changing anything: a special file is opened for writing; otherwise a temp file
/// is created beside the target and removed again (a directory that exists but refuses new
/// files, like `/proc`, fails here rather than after the review).
pub(crate) fn check_output(path: &Path) -> io::Result<()> {
    match std::fs::metadata(path) {
        Ok(meta) if meta.is_dir() => Err(io::Error::new(
            io::ErrorKind::IsADirectory,
            "it is a directory: name a file",
        )),
        Ok(meta) if !meta.is_file() => OpenOptions::new().write(true).open(path).map(drop),
        _ => {
            let dir = dir_of(path);
            let probe = dir.join(unique_name(&temp_prefix(path)));
            OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(&probe)
                .map(drop)?;
            std::fs::remove_file(&probe)
        }
    }
}

/// Removes the temp files a crashed [`atomic_write`] of `path` left behind. Only safe while
/// holding the lock that serialises writers of `path`. Returns how many were removed.
pub(crate) fn remove_temp_files(path: &Path) -> io::Result<usize> {
    let dir = dir_of(path);
    let prefix = temp_prefix(path);
    let mut removed = 0;
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        if entry.file_name().to_string_lossy().starts_with(&prefix) {
            std::fs::remove_file(entry.path())?;
            removed += 1;
        }
    }
    Ok(removed)
}

/// The directory `path` is in: `.` for a bare file name, whose parent is the empty path (which
/// cannot be opened to sync).
fn dir_of(path: &Path) -> &Path {
    match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    }
}

fn temp_prefix(path: &Path) -> String {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    format!(".{name}.tmp")
}

#[cfg(unix)]
fn sync_dir(dir: &Path) -> io::Result<()> {
    File::open(dir)?.sync_all()
}

#[cfg(not(unix))]
fn sync_dir(_dir: &Path) -> io::Result<()> {
    // Directories cannot be opened for syncing on Windows; the rename is as durable as it gets.
    Ok(())
}

/// Moves `path` aside to `<path>.<label>-<UTC timestamp>` (with `-N` if that exists already),
/// returning the new path. Used to keep a damaged file for inspection instead of overwriting it.
pub(crate) fn move_aside(path: &Path, label: &str) -> io::Result<PathBuf> {
    let stamp = compact_timestamp(SystemTime::now());
    let base = format!("{}.{label}-{stamp}", path.display());
    let mut target = PathBuf::from(&base);
    let mut n = 1;
    while target.exists() {
        target = PathBuf::from(format!("{base}-{n}"));
        n += 1;
    }
    std::fs::rename(path, &target)?;
    Ok(target)
}

/// `20260102T030405Z`: sortable, and free of the colons some file systems refuse.
fn compact_timestamp(at: SystemTime) -> String {
    humantime::format_rfc3339_seconds(at)
        .to_string()
        .replace(['-', ':'], "")
}

pub(crate) fn now_rfc3339() -> String {
    humantime::format_rfc3339_seconds(SystemTime::now()).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_output_is_checked_without_leaving_anything_and_written_whole() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("report.json");
        check_output(&target).unwrap();
        assert!(names(dir.path()).is_empty(), "the probe is removed");
        write_output(&target, b"one").unwrap();
        write_output(&target, b"two").unwrap();
        assert_eq!(std::fs::read(&target).unwrap(), b"two");
        assert_eq!(names(dir.path()), vec!["report.json"]);

        assert!(check_output(dir.path()).is_err(), "a directory");
        assert!(check_output(&dir.path().join("missing/r.json")).is_err());
    }

    #[cfg(unix)]
    #[test]
    fn a_device_is_written_into_never_replaced() {
        let null = Path::new("/dev/null");
        check_output(null).unwrap();
        write_output(null, b"report").unwrap();
        use std::os::unix::fs::FileTypeExt;
        let meta = std::fs::metadata(null).unwrap();
        assert!(
            meta.file_type().is_char_device(),
            "/dev/null is still a device"
        );
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_file_in_a_directory_that_refuses_new_files_fails_the_check() {
        // /proc/version exists and reads as a regular file, but /proc takes no new files.
        assert!(check_output(Path::new("/proc/version")).is_err());
    }

    fn names(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn atomic_write_replaces_and_leaves_no_temp() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("state.json");
        atomic_write(&path, b"one").unwrap();
        atomic_write(&path, b"two").unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "two");
        assert_eq!(names(dir.path()), vec!["state.json"]);
    }

    #[test]
    fn leftover_temps_are_removed_and_nothing_else() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("state.json");
        std::fs::write(dir.path().join(".state.json.tmp-123-0"), "half").unwrap();
        std::fs::write(dir.path().join(".state.json.tmp-456-9"), "").unwrap();
        std::fs::write(dir.path().join("state.json"), "{}").unwrap();
        std::fs::write(dir.path().join("other"), "x").unwrap();
        assert_eq!(remove_temp_files(&path).unwrap(), 2);
        assert_eq!(names(dir.path()), vec!["other", "state.json"]);
    }

    #[test]
    fn move_aside_never_overwrites() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("state.json");
        std::fs::write(&path, "a").unwrap();
        let first = move_aside(&path, "corrupt").unwrap();
        std::fs::write(&path, "b").unwrap();
        let second = move_aside(&path, "corrupt").unwrap();
        assert_ne!(first, second);
        assert_eq!(std::fs::read_to_string(first).unwrap(), "a");
        assert_eq!(std::fs::read_to_string(second).unwrap(), "b");
        assert!(!path.exists());
    }

    #[test]
    fn compact_timestamp_has_no_colons() {
        let stamp = compact_timestamp(SystemTime::UNIX_EPOCH);
        assert_eq!(stamp, "19700101T000000Z");
    }
}
