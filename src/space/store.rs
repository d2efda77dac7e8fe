//! Reading and writing `state.json`. Writes are atomic; a file that cannot be read is moved
//! aside, never overwritten; callers hold the space lock around all of it.

use std::path::{Path, PathBuf};

use thiserror::Error;

use super::fsutil::{atomic_write, move_aside, remove_temp_files};
use super::state::{SCHEMA_VERSION, SpaceState};

pub const STATE_FILE: &str = "state.json";

#[derive(Debug, Error)]
pub enum StoreError {
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error(
        "{path} was written by a newer review-tui (schema {found}, this one reads up to {supported}); \
         it is left untouched"
    )]
    NewerSchema {
        path: PathBuf,
        found: u32,
        supported: u32,
    },
}

/// A state file that could not be used, and where it was kept.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Corruption {
    pub preserved_at: PathBuf,
    pub reason: String,
    /// What was read back from it (`SpaceState::salvage`), when anything was.
    pub recovered: Option<String>,
}

impl std::fmt::Display for Corruption {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "the review space's state.json was damaged ({}); it is kept as {}; {}",
            self.reason,
            self.preserved_at.display(),
            self.recovered
                .as_deref()
                .unwrap_or("nothing could be recovered from it: this round starts afresh")
        )
    }
}

/// What was on disk.
#[derive(Debug)]
pub enum Loaded {
    /// No state yet: a new space.
    Missing,
    Found(Box<SpaceState>),
    /// The file was unreadable or not a state; it has been moved aside.
    Corrupt(Corruption),
    /// The file was damaged and moved aside, but part of it could be read back.
    Recovered(Box<SpaceState>, Corruption),
}

pub fn state_path(space: &Path) -> PathBuf {
    space.join(STATE_FILE)
}

/// Loads the state of the space at `space`. A damaged file is moved to
/// `state.json.corrupt-<timestamp>` and reported, so the caller can start afresh without
/// destroying what was there.
pub fn load(space: &Path) -> Result<Loaded, StoreError> {
    let path = state_path(space);
    let reason = match std::fs::read(&path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Loaded::Missing),
        Err(e) => format!("unreadable: {e}"),
        Ok(bytes) => match serde_json::from_slice::<SpaceState>(&bytes) {
            Ok(state) if state.schema_version > SCHEMA_VERSION => {
                return Err(StoreError::NewerSchema {
                    path,
                    found: state.schema_version,
                    supported: SCHEMA_VERSION,
                });
            }
            Ok(state) => return Ok(Loaded::Found(Box::new(state))),
            Err(e) => {
                let reason = format!("not a valid state: {e}");
                if let Some((state, summary)) = SpaceState::salvage(&bytes) {
                    let mut kept = preserve(&path, reason)?;
                    kept.recovered = Some(summary);
                    return Ok(Loaded::Recovered(Box::new(state), kept));
                }
                reason
            }
        },
    };
    Ok(Loaded::Corrupt(preserve(&path, reason)?))
}

/// Moves the state file aside with `reason`; for callers that find a readable file that is
/// nonetheless wrong (a state that belongs to another PR).
pub fn preserve(path: &Path, reason: String) -> Result<Corruption, StoreError> {
    let preserved_at = move_aside(path, "corrupt").map_err(|source| StoreError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    Ok(Corruption {
        preserved_at,
        reason,
        recovered: None,
    })
}

/// Writes `state` atomically.
pub fn save(space: &Path, state: &SpaceState) -> Result<(), StoreError> {
    let path = state_path(space);
    let mut bytes = serde_json::to_vec_pretty(state).expect("a state serializes");
    bytes.push(b'\n');
    atomic_write(&path, &bytes).map_err(|source| StoreError::Io { path, source })
}

/// Removes temp files a crashed `save` left; returns how many.
pub fn clean(space: &Path) -> Result<usize, StoreError> {
    let path = state_path(space);
    remove_temp_files(&path).map_err(|source| StoreError::Io { path, source })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::space::state::PrIdentity;

    fn state() -> SpaceState {
        SpaceState::new(PrIdentity {
            key: crate::space::key::tests::github_key("o", "r", 1),
            title: String::new(),
            number: "#1".into(),
            url: String::new(),
        })
    }

    fn entries(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn save_then_load() {
        let dir = tempfile::tempdir().unwrap();
        assert!(matches!(load(dir.path()).unwrap(), Loaded::Missing));
        let mut s = state();
        s.start_round("abc", "t0");
        save(dir.path(), &s).unwrap();
        save(dir.path(), &s).unwrap();
        assert_eq!(entries(dir.path()), vec!["state.json"]);
        let Loaded::Found(back) = load(dir.path()).unwrap() else {
            panic!("state not found");
        };
        assert_eq!(*back, s);
    }

    #[test]
    fn garbage_and_truncation_are_preserved_not_overwritten() {
        let full = serde_json::to_string(&state()).unwrap();
        for bad in [&full[..full.len() / 2], "\u{0}\u{1}garbage", ""] {
            let dir = tempfile::tempdir().unwrap();
            std::fs::write(state_path(dir.path()), bad).unwrap();
            let Loaded::Corrupt(c) = load(dir.path()).unwrap() else {
                panic!("{bad:?} was accepted");
            };
            assert!(c.reason.starts_with("not a valid state"), "{}", c.reason);
            assert_eq!(std::fs::read_to_string(&c.preserved_at).unwrap(), bad);
            let name = c.preserved_at.file_name().unwrap().to_string_lossy();
            assert!(name.starts_with("state.json.corrupt-"), "{name}");
            assert!(!state_path(dir.path()).exists());
        }
    }

    #[test]
    fn an_unreadable_state_is_preserved() {
        let dir = tempfile::tempdir().unwrap();
        // A directory where the file should be: reading fails with an IO error.
        std::fs::create_dir(state_path(dir.path())).unwrap();
        let Loaded::Corrupt(c) = load(dir.path()).unwrap() else {
            panic!("a directory was accepted as state");
        };
        assert!(c.reason.starts_with("unreadable"), "{}", c.reason);
        assert!(c.preserved_at.is_dir());
    }

    #[test]
    fn a_newer_schema_is_left_alone() {
        let dir = tempfile::tempdir().unwrap();
        let mut s = state();
        s.schema_version = SCHEMA_VERSION + 1;
        save(dir.path(), &s).unwrap();
        let err = load(dir.path()).unwrap_err();
        assert!(matches!(err, StoreError::NewerSchema { .. }), "{err}");
        assert_eq!(entries(dir.path()), vec!["state.json"]);
    }
}
