//! Advisory file locks: one writer per space, one fetch at a time per mirror.
//!
//! These are `flock`-style locks on an open file (std's `File::try_lock`), so the kernel drops
//! them when the process dies however it dies; the pid written into the file is only there to
//! name the holder in the refusal, and a stale one never blocks anybody. The lock file itself
//! is never deleted: unlinking a lock file lets a late opener lock an orphaned inode while a
//! newcomer locks a fresh one, and both would believe they hold it.

use std::fs::{File, OpenOptions, TryLockError};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use serde::{Deserialize, Serialize};
use thiserror::Error;

/// Who holds a lock, as recorded in the lock file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Holder {
    pub pid: u32,
    /// The program name only: its arguments could carry a URL with credentials.
    pub command: String,
    /// RFC 3339.
    pub since: String,
}

#[derive(Debug, Error)]
pub enum LockError {
    #[error("{} is in use by {}", path.display(), describe(holder.as_ref()))]
    Held {
        path: PathBuf,
        /// None when the holder has locked the file but not yet written its name.
        holder: Option<Holder>,
    },
    #[error("lock {path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
}

fn describe(holder: Option<&Holder>) -> String {
    match holder {
        Some(h) => format!("{} (pid {}) since {}", h.command, h.pid, h.since),
        None => "another process (it has not written its name yet)".to_string(),
    }
}

/// A held lock; dropping it releases it.
#[derive(Debug)]
pub(crate) struct LockFile {
    file: File,
}

impl LockFile {
    /// Takes the lock at `path` or fails at once naming the holder.
    pub(crate) fn try_acquire(path: &Path) -> Result<LockFile, LockError> {
        let file = open(path)?;
        match file.try_lock() {
            Ok(()) => LockFile::claimed(file, path),
            Err(TryLockError::WouldBlock) => Err(LockError::Held {
                path: path.to_path_buf(),
                holder: read_holder(path),
            }),
            Err(TryLockError::Error(source)) => Err(LockError::Io {
                path: path.to_path_buf(),
                source,
            }),
        }
    }

    /// Waits for the lock at `path`. Used where the other holder is doing a bounded job (a
    /// fetch into a shared mirror) and queueing behind it is the right thing.
    pub(crate) fn acquire(path: &Path) -> Result<LockFile, LockError> {
        let file = open(path)?;
        file.lock().map_err(|source| LockError::Io {
            path: path.to_path_buf(),
            source,
        })?;
        LockFile::claimed(file, path)
    }

    fn claimed(mut file: File, path: &Path) -> Result<LockFile, LockError> {
        let holder = Holder {
            pid: std::process::id(),
            command: program_name(),
            since: humantime::format_rfc3339_seconds(SystemTime::now()).to_string(),
        };
        let io = |source| LockError::Io {
            path: path.to_path_buf(),
            source,
        };
        // Truncate only now that the lock is ours: truncating at open would erase the name of
        // a live holder before we learned we could not have the lock.
        file.set_len(0).map_err(io)?;
        let text = serde_json::to_string(&holder).expect("a holder serializes");
        file.write_all(text.as_bytes()).map_err(io)?;
        file.flush().map_err(io)?;
        Ok(LockFile { file })
    }
}

impl Drop for LockFile {
    fn drop(&mut self) {
        // Best effort: an old name left behind is harmless, the lock itself goes with the fd.
        let _ = self.file.set_len(0);
        let _ = self.file.unlock();
    }
}

fn open(path: &Path) -> Result<File, LockError> {
    OpenOptions::new()
        .create(true)
        .truncate(false)
        .read(true)
        .write(true)
        .open(path)
        .map_err(|source| LockError::Io {
            path: path.to_path_buf(),
            source,
        })
}

fn read_holder(path: &Path) -> Option<Holder> {
    let mut text = String::new();
    File::open(path).ok()?.read_to_string(&mut text).ok()?;
    serde_json::from_str(&text).ok()
}

fn program_name() -> String {
    std::env::args_os()
        .next()
        .as_deref()
        .map(Path::new)
        .and_then(Path::file_name)
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "review-tui".to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn second_taker_is_refused_with_the_holder_named_then_free_after_drop() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("lock");
        let first = LockFile::try_acquire(&path).unwrap();

        // A second open file description conflicts even within one process (flock semantics),
        // which is what lets this test stand in for a second process.
        let err = LockFile::try_acquire(&path).unwrap_err();
        let LockError::Held { holder, .. } = &err else {
            panic!("expected Held, got {err}");
        };
        let holder = holder.as_ref().expect("the holder wrote its name");
        assert_eq!(holder.pid, std::process::id());
        let message = err.to_string();
        assert!(
            message.contains(&format!("pid {}", std::process::id())),
            "{message}"
        );
        assert!(message.contains(" since "), "{message}");

        drop(first);
        let again = LockFile::try_acquire(&path).unwrap();
        assert!(path.exists());
        drop(again);
    }

    #[test]
    fn a_stale_name_in_the_file_blocks_nobody() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("lock");
        // What a crashed process leaves: its name, but no lock (the kernel dropped it).
        std::fs::write(
            &path,
            r#"{"pid":999999,"command":"review-tui","since":"2020-01-01T00:00:00Z"}"#,
        )
        .unwrap();
        let lock = LockFile::try_acquire(&path).unwrap();
        let written = read_holder(&path).unwrap();
        assert_eq!(written.pid, std::process::id());
        drop(lock);
    }

    #[test]
    fn blocking_acquire_takes_a_free_lock() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("lock");
        let held = LockFile::acquire(&path).unwrap();
        assert!(LockFile::try_acquire(&path).is_err());
        drop(held);
        assert!(LockFile::try_acquire(&path).is_ok());
    }
}
