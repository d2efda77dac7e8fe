//! The inbox's last forge answer, kept in one file written atomically (a killed refresh leaves
//! the previous list), so the inbox opens at once and offline.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::pr::inbox::WaitingPr;

/// Raised when the file's shape changes; an older or newer file reads as no cache.
const VERSION: u32 = 1;

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Cached {
    /// When the forges answered (RFC 3339).
    pub fetched_at: Option<String>,
    pub prs: Vec<WaitingPr>,
    /// What the forges said they could not list.
    #[serde(default)]
    pub notes: Vec<String>,
}

#[derive(Serialize, Deserialize)]
struct File {
    version: u32,
    #[serde(flatten)]
    cached: Cached,
}

/// Where the cache lives: beside the spaces when the person chose the data directory
/// (`--data-dir`, `REVIEW_TUI_DATA_DIR`), else in the platform's state directory
/// (`$XDG_STATE_HOME/review-tui`), else in the data directory.
pub fn path(data_root: &Path, data_dir_chosen: bool) -> PathBuf {
    let state = (!data_dir_chosen)
        .then(|| directories::ProjectDirs::from("", "", "review-tui"))
        .flatten()
        .and_then(|dirs| dirs.state_dir().map(Path::to_path_buf));
    state
        .unwrap_or_else(|| data_root.to_path_buf())
        .join("inbox.json")
}

/// The cache, or `None` when there is none or it does not read (it is only a cache).
pub fn load(path: &Path) -> Option<Cached> {
    let bytes = std::fs::read(path).ok()?;
    let file: File = serde_json::from_slice(&bytes).ok()?;
    (file.version == VERSION).then_some(file.cached)
}

/// Replaces the cache whole or not at all.
pub fn save(path: &Path, cached: &Cached) -> std::io::Result<()> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    let file = File {
        version: VERSION,
        cached: cached.clone(),
    };
    let bytes = serde_json::to_vec_pretty(&file).map_err(std::io::Error::other)?;
    crate::space::write_atomically(path, &bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_saved_cache_loads_and_a_damaged_one_is_no_cache() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("deep/inbox.json");
        assert_eq!(load(&path), None);
        let cached = Cached {
            fetched_at: Some("2026-01-01T00:00:00Z".into()),
            prs: Vec::new(),
            notes: vec!["a note".into()],
        };
        save(&path, &cached).unwrap();
        assert_eq!(load(&path), Some(cached));
        std::fs::write(&path, b"{\"version\": 1, \"prs\": [tor").unwrap();
        assert_eq!(load(&path), None);
    }
}
