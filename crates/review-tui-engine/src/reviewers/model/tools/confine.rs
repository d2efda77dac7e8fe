//! Confinement: turning a path the model sent into a file inside the worktree, or a refusal.
//!
//! The model's path is checked lexically first (NUL bytes, length, absolute paths, `..` that
//! climbs above the root, `.git`), then resolved by the OS with every symbolic link followed and
//! the result required to still be inside the worktree and outside `.git`. `..` is applied
//! lexically before the OS sees the path, so `link/..` means the directory holding `link`, never
//! the parent of the link's target.

use std::fs::{File, Metadata};
use std::io;
use std::path::{Component, Path, PathBuf};

use super::error::{ToolError, shown};

pub const MAX_PATH_BYTES: usize = 4096;
pub const MAX_COMPONENT_BYTES: usize = 255;

/// A path that resolved to something inside the worktree.
#[derive(Debug)]
pub(super) struct Confined {
    /// The path as the model should name it: relative, `/`-separated, no `.` or `..`.
    pub relative: String,
    /// The canonical absolute path, all symbolic links resolved.
    pub canonical: PathBuf,
    /// Where the bytes are, as the repository names it: `canonical` relative to the root,
    /// `/`-separated. A link inside the worktree (`lib.rs -> src/a.rs`) resolves to its
    /// target's path, the one the diff lists.
    pub real: String,
    /// `lstat` of the canonical path (which is not a link, so this is the file itself).
    pub metadata: Metadata,
}

/// Checks `requested` and resolves it under `root` (which must already be canonical).
pub(super) fn resolve(root: &Path, requested: &str) -> Result<Confined, ToolError> {
    let relative = normalize(requested)?;
    // Before the OS resolves anything: a link that leads out is refused the same way whether
    // its target exists or not, so the answer says nothing about the file system outside.
    if leaves_through_link(root, &relative) {
        return Err(ToolError::EscapesThroughSymlink(shown(requested)));
    }
    let joined = root.join(&relative);
    let canonical = std::fs::canonicalize(&joined).map_err(|e| resolve_error(requested, &e))?;
    let Ok(inside) = canonical.strip_prefix(root) else {
        // The lexical path stayed inside, so a link on the way led out.
        return Err(ToolError::EscapesThroughSymlink(shown(requested)));
    };
    if inside.components().any(|c| is_git_dir(c.as_os_str())) {
        return Err(ToolError::GitInternals(shown(requested)));
    }
    let metadata =
        std::fs::symlink_metadata(&canonical).map_err(|e| resolve_error(requested, &e))?;
    let real = inside
        .components()
        .map(|c| c.as_os_str().to_string_lossy())
        .collect::<Vec<_>>()
        .join("/");
    Ok(Confined {
        real,
        relative: if relative.is_empty() {
            ".".into()
        } else {
            relative
        },
        canonical,
        metadata,
    })
}

/// Resolves and opens a regular file for reading.
///
/// The type is checked before opening, because opening a FIFO blocks until a writer appears and
/// opening a device can have effects. Between the check and the open another process could swap
/// the file for a link or a FIFO; after opening, the open handle's own metadata must name the
/// same file (device and inode) that was checked, or the read is refused. What remains is the
/// window in which a swapped-in FIFO could block the open itself: closing it would need
/// `O_NOFOLLOW | O_NONBLOCK`, which std does not expose portably. Only a local process with write
/// access to the worktree could do that — the model's tools are read-only and git checkouts
/// contain no FIFOs — and such a process has easier ways to do harm.
pub(super) fn open_regular(root: &Path, requested: &str) -> Result<(Confined, File), ToolError> {
    let confined = resolve(root, requested)?;
    require_regular(&confined, requested)?;
    let file = File::open(&confined.canonical).map_err(|e| io_error(requested, &e))?;
    let opened = file.metadata().map_err(|e| io_error(requested, &e))?;
    if !opened.is_file() || !same_file(&opened, &confined.metadata) {
        return Err(ToolError::Raced(shown(requested)));
    }
    Ok((confined, file))
}

/// Refuses anything but a regular file, naming what it is instead.
pub(super) fn require_regular(confined: &Confined, requested: &str) -> Result<(), ToolError> {
    let kind = file_kind(&confined.metadata);
    if kind == "regular file" {
        Ok(())
    } else {
        Err(ToolError::NotRegularFile {
            path: shown(requested),
            kind,
        })
    }
}

/// Whether following `relative` (already normalized) from `root` takes a symbolic link whose
/// target lies outside `root`, read from the links themselves, never from where they lead: a
/// target outside is not looked at. Links are followed inside as the OS would (a target's own
/// `..` applied to where the link stands); a path that stops existing inside, or more links than
/// the OS follows, is left to the OS to answer.
fn leaves_through_link(root: &Path, relative: &str) -> bool {
    let mut here = root.to_path_buf();
    let mut rest: Vec<std::ffi::OsString> = Path::new(relative)
        .components()
        .rev()
        .map(|c| c.as_os_str().to_owned())
        .collect();
    let mut links = 0;
    while let Some(part) = rest.pop() {
        match part.to_str() {
            Some(".") => continue,
            Some("..") => {
                here.pop();
                if !here.starts_with(root) {
                    return true;
                }
                continue;
            }
            _ => {}
        }
        let next = here.join(&part);
        let Ok(meta) = std::fs::symlink_metadata(&next) else {
            return false;
        };
        if !meta.file_type().is_symlink() {
            here = next;
            continue;
        }
        links += 1;
        if links > 40 {
            return false;
        }
        let Ok(target) = std::fs::read_link(&next) else {
            return false;
        };
        if target.is_absolute() {
            // Walked again from the filesystem root: outside unless it names the root's inside.
            let mut lexical = PathBuf::new();
            for c in target.components() {
                match c {
                    Component::ParentDir => {
                        lexical.pop();
                    }
                    Component::CurDir => {}
                    c => lexical.push(c.as_os_str()),
                }
            }
            if !lexical.starts_with(root) {
                return true;
            }
            let Ok(inside) = lexical.strip_prefix(root) else {
                return true;
            };
            here = root.to_path_buf();
            rest.extend(inside.components().rev().map(|c| c.as_os_str().to_owned()));
        } else {
            rest.extend(target.components().rev().map(|c| c.as_os_str().to_owned()));
        }
    }
    false
}

/// The lexical checks, returning the path relative to the root with `.` and `..` applied.
fn normalize(requested: &str) -> Result<String, ToolError> {
    if requested.contains('\0') {
        return Err(ToolError::NulByte(shown(requested)));
    }
    if requested.len() > MAX_PATH_BYTES {
        return Err(ToolError::PathTooLong {
            path: shown(requested),
            bytes: requested.len(),
            limit: MAX_PATH_BYTES,
        });
    }
    if let Some(long) = requested.split('/').find(|c| c.len() > MAX_COMPONENT_BYTES) {
        return Err(ToolError::ComponentTooLong {
            path: shown(requested),
            bytes: long.len(),
            limit: MAX_COMPONENT_BYTES,
        });
    }
    if requested.starts_with('/') || Path::new(requested).is_absolute() {
        return Err(ToolError::Absolute(shown(requested)));
    }
    let mut parts: Vec<&str> = Vec::new();
    for component in Path::new(requested).components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => {
                if parts.pop().is_none() {
                    return Err(ToolError::Escapes(shown(requested)));
                }
            }
            Component::Normal(name) => {
                if is_git_dir(name) {
                    return Err(ToolError::GitInternals(shown(requested)));
                }
                // `requested` is a str, so every component is valid UTF-8.
                parts.push(name.to_str().unwrap_or_default());
            }
            Component::RootDir | Component::Prefix(_) => {
                return Err(ToolError::Absolute(shown(requested)));
            }
        }
    }
    Ok(parts.join("/"))
}

/// `.git` in any case: case-insensitive file systems treat `.GIT` as the same directory.
fn is_git_dir(name: &std::ffi::OsStr) -> bool {
    name.eq_ignore_ascii_case(".git")
}

fn resolve_error(requested: &str, error: &io::Error) -> ToolError {
    if is_loop(error) {
        return ToolError::SymlinkLoop(shown(requested));
    }
    match error.kind() {
        // A component that is a file, not a directory, means the path does not exist either.
        io::ErrorKind::NotFound | io::ErrorKind::NotADirectory => {
            ToolError::NotFound(shown(requested))
        }
        _ => io_error(requested, error),
    }
}

fn io_error(requested: &str, error: &io::Error) -> ToolError {
    ToolError::Io {
        path: shown(requested),
        reason: error.kind().to_string(),
    }
}

/// `ErrorKind::FilesystemLoop` is not stable, so ELOOP is recognised by its number.
fn is_loop(error: &io::Error) -> bool {
    #[cfg(target_os = "linux")]
    const ELOOP: i32 = 40;
    #[cfg(not(target_os = "linux"))]
    const ELOOP: i32 = 62;
    error.raw_os_error() == Some(ELOOP)
}

pub(super) fn file_kind(metadata: &Metadata) -> &'static str {
    let kind = metadata.file_type();
    if kind.is_file() {
        return "regular file";
    }
    if kind.is_dir() {
        return "directory";
    }
    if kind.is_symlink() {
        return "symbolic link";
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if kind.is_fifo() {
            return "FIFO";
        }
        if kind.is_socket() {
            return "socket";
        }
        if kind.is_char_device() || kind.is_block_device() {
            return "device";
        }
    }
    "special file"
}

#[cfg(unix)]
fn same_file(a: &Metadata, b: &Metadata) -> bool {
    use std::os::unix::fs::MetadataExt;
    a.dev() == b.dev() && a.ino() == b.ino()
}

#[cfg(not(unix))]
fn same_file(a: &Metadata, b: &Metadata) -> bool {
    a.len() == b.len() && a.modified().ok() == b.modified().ok()
}
