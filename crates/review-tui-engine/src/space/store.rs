//! Reading and writing `state.json`. Writes are atomic; a file that cannot be read is moved
//! aside, never overwritten; callers hold the space lock around all of it.

use std::path::{Path, PathBuf};

use thiserror::Error;

use super::fsutil::{atomic_write, move_aside, remove_temp_files};
use super::state::{SCHEMA_VERSION, SpaceState};

pub(crate) const STATE_FILE: &str = "state.json";

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
pub(crate) enum Loaded {
    /// No state yet: a new space.
    Missing,
    Found(Box<SpaceState>),
    /// The file was unreadable or not a state; it has been moved aside.
    Corrupt(Corruption),
    /// The file was damaged and moved aside, but part of it could be read back.
    Recovered(Box<SpaceState>, Corruption),
}

pub(crate) fn state_path(space: &Path) -> PathBuf {
    space.join(STATE_FILE)
}

/// Loads the state of the space at `space`. A damaged file is moved to
/// `state.json.corrupt-<timestamp>` and reported, so the caller can start afresh without
/// destroying what was there.
pub(crate) fn load(space: &Path) -> Result<Loaded, StoreError> {
    let path = state_path(space);
    let reason = match std::fs::read(&path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Loaded::Missing),
        Err(e) => format!("unreadable: {e}"),
        Ok(bytes) => match read_state(&bytes) {
            Ok(state) if state.schema_version > SCHEMA_VERSION => {
                return Err(StoreError::NewerSchema {
                    path,
                    found: state.schema_version,
                    supported: SCHEMA_VERSION,
                });
            }
            Ok(state) => return Ok(Loaded::Found(Box::new(state))),
            Err(e) => {
                let reason = format!("not a valid state: {}", damage(e));
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

/// Parses a state, keeping where a parse failed.
fn read_state(bytes: &[u8]) -> Result<SpaceState, serde_path_to_error::Error<serde_json::Error>> {
    serde_path_to_error::deserialize(&mut serde_json::Deserializer::from_slice(bytes))
}

/// What is wrong, with the field it is wrong in (`rounds[2].head_sha: "x" is not a commit id
/// ...`), so the report of a damaged file says where it was damaged.
fn damage(error: serde_path_to_error::Error<serde_json::Error>) -> String {
    let field = error.path().to_string();
    let inner = error.into_inner();
    if field.is_empty() || field == "." {
        inner.to_string()
    } else {
        format!("field `{field}`: {inner}")
    }
}

/// Moves the state file aside with `reason`; for callers that find a readable file that is
/// nonetheless wrong (a state that belongs to another PR).
pub(crate) fn preserve(path: &Path, reason: String) -> Result<Corruption, StoreError> {
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
pub(crate) fn save(space: &Path, state: &SpaceState) -> Result<(), StoreError> {
    let path = state_path(space);
    let mut bytes = serde_json::to_vec_pretty(state).expect("a state serializes");
    bytes.push(b'\n');
    atomic_write(&path, &bytes).map_err(|source| StoreError::Io { path, source })
}

/// Removes temp files a crashed `save` left; returns how many.
pub(crate) fn clean(space: &Path) -> Result<usize, StoreError> {
    let path = state_path(space);
    remove_temp_files(&path).map_err(|source| StoreError::Io { path, source })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::commit_id::CommitId;
    use crate::review::Status;
    use crate::space::state::PrIdentity;

    fn id(digit: char) -> CommitId {
        CommitId::parse(&digit.to_string().repeat(40)).unwrap()
    }

    fn state() -> SpaceState {
        SpaceState::new(
            PrIdentity {
                key: crate::space::key::tests::github_key("o", "r", 1),
                title: String::new(),
                number: "#1".into(),
                url: String::new(),
            },
            id('a'),
            id('b'),
        )
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
        s.start_round(&id('a'), "t0");
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

    /// A `state.json` the release before commit ids were typed (main 5133831) wrote, of the
    /// demo after a person resolved one finding and dismissed another.
    const WRITTEN_BY_5133831: &str =
        include_str!("../../../../tests/fixtures/space/state-written-by-5133831.json");

    #[test]
    fn a_state_an_older_release_wrote_loads_with_its_decisions_and_writes_back_the_same() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(state_path(dir.path()), WRITTEN_BY_5133831).unwrap();
        let Loaded::Found(state) = load(dir.path()).unwrap() else {
            panic!("the older release's state was not read as it is");
        };
        let statuses: Vec<Status> = state.nodes.iter().map(|n| n.status).collect();
        assert!(statuses.contains(&Status::Resolved), "{statuses:?}");
        assert!(statuses.contains(&Status::Dismissed), "{statuses:?}");
        assert_eq!(state.rounds[0].head_sha, state.head_sha);
        // The commit ids are written back as the plain strings they were.
        save(dir.path(), &state).unwrap();
        let old: serde_json::Value = serde_json::from_str(WRITTEN_BY_5133831).unwrap();
        let new: serde_json::Value =
            serde_json::from_slice(&std::fs::read(state_path(dir.path())).unwrap()).unwrap();
        for field in ["head_sha", "base_sha"] {
            assert_eq!(new[field], old[field], "{field}");
        }
        assert_eq!(new["rounds"][0]["head_sha"], old["rounds"][0]["head_sha"]);
        assert_eq!(new["nodes"], old["nodes"]);
    }

    /// A commit id that is not one (hand-edited, a bad sync) makes the file damaged: it is kept
    /// aside, the report names the file and the field, and everything else is read back.
    #[test]
    fn a_tampered_commit_id_is_refused_naming_the_field_and_the_decisions_are_kept() {
        let good: serde_json::Value = serde_json::from_str(WRITTEN_BY_5133831).unwrap();
        let decided = |state: &SpaceState| {
            state
                .nodes
                .iter()
                .filter(|n| n.status != Status::Open)
                .count()
        };
        for (field, tamper) in [
            (
                "head_sha",
                (|v: &mut serde_json::Value| v["head_sha"] = "HEAD~1".into()) as fn(&mut _),
            ),
            ("rounds[0].head_sha", |v| {
                v["rounds"][0]["head_sha"] = "40b5bc1".into()
            }),
            ("base_sha", |v| v["base_sha"] = "main; rm -rf /".into()),
        ] {
            let mut bad = good.clone();
            tamper(&mut bad);
            let dir = tempfile::tempdir().unwrap();
            let text = serde_json::to_string_pretty(&bad).unwrap();
            std::fs::write(state_path(dir.path()), &text).unwrap();
            let Loaded::Recovered(state, corruption) = load(dir.path()).unwrap() else {
                panic!("{field}: the tampered state was not read back");
            };
            assert_eq!(decided(&state), 2, "{field}: decisions lost");
            assert_eq!(state.head_sha, good["head_sha"].as_str().unwrap());
            if field == "base_sha" {
                // No range to show until an open fetches the base again.
                assert_eq!(state.base_sha, state.head_sha);
            }
            let said = corruption.to_string();
            assert!(said.contains("state.json"), "{said}");
            assert!(said.contains(&format!("field `{field}`")), "{said}");
            assert!(said.contains("is not a commit id"), "{said}");
            assert_eq!(
                std::fs::read_to_string(&corruption.preserved_at).unwrap(),
                text
            );
        }
    }
}
