//! The JSON files of a space's cache (the symbol index, cohort reports): read with a missing
//! file as a miss, written whole or not at all.

use std::io;
use std::path::Path;

use serde::Serialize;
use serde::de::DeserializeOwned;

/// The file at `path` as a `T`; `None` when there is no file. A file that does not parse is
/// an error: the caller rebuilds and says so.
pub(crate) fn read_json<T: DeserializeOwned>(path: &Path) -> io::Result<Option<T>> {
    let bytes = match std::fs::read(path) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e),
    };
    serde_json::from_slice(&bytes)
        .map(Some)
        .map_err(io::Error::other)
}

/// Writes `value` to `path` atomically, making the directory first. Not flushed to disk: a
/// copy a power loss tears does not parse, and every reader of these files takes that as a
/// miss (the tag store skips the segment, a cohort report is built again).
pub(crate) fn write_json<T: Serialize>(path: &Path, value: &T) -> io::Result<()> {
    std::fs::create_dir_all(path.parent().unwrap_or(Path::new(".")))?;
    let bytes = serde_json::to_vec(value).map_err(io::Error::other)?;
    crate::space::replace_cache_file(path, &bytes)
}
