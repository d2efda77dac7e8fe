//! The decision journal: a person's decisions made while a round is running, written the moment
//! they are made, so that a kill, a crash or a closed terminal during a long model run loses
//! none of them.
//!
//! While a round runs, `state.json` belongs to the round (it is rewritten with the round's
//! result when the round ends), so decisions cannot go there yet. They are appended here, one
//! JSON object a line, each line flushed and fsynced before the decision is acknowledged. When
//! the round's result lands they are replayed onto it and the journal is cleared; a process
//! that died before that finds them on reopen and replays them onto the next result.
//!
//! A torn last line (the process died mid-write) is skipped: every line before it was
//! fsynced whole.

use std::fs::OpenOptions;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

/// `journal.jsonl` beside `state.json`.
pub(crate) fn journal_path(space: &Path) -> PathBuf {
    space.join("journal.jsonl")
}

/// An append-only file of `T`s.
#[derive(Debug, Clone)]
pub struct Journal {
    path: PathBuf,
}

impl Journal {
    /// The journal of the space at `space` (the file is made by the first append).
    pub fn of_space(space: &Path) -> Journal {
        Journal {
            path: journal_path(space),
        }
    }

    /// A journal of another kind of entry in the space at `space`, in the file `name`.
    pub fn of_space_named(space: &Path, name: &str) -> Journal {
        Journal {
            path: space.join(name),
        }
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Appends `entry` as one line and waits until it is on disk.
    pub fn append<T: Serialize>(&self, entry: &T) -> io::Result<()> {
        let mut line = serde_json::to_vec(entry).map_err(io::Error::other)?;
        line.push(b'\n');
        let mut file = OpenOptions::new()
            .create(true)
            .append(true)
            .read(true)
            .open(&self.path)?;
        // After a torn write the file ends mid-line: start a new line, or this entry would be
        // glued to the fragment and lost with it.
        if ends_mid_line(&mut file)? {
            line.insert(0, b'\n');
        }
        // One write of the whole line: with O_APPEND it lands after every earlier line.
        file.write_all(&line)?;
        file.sync_all()?;
        // A new file's name is only durable once its directory is.
        if let Some(dir) = self.path.parent()
            && let Ok(dir) = std::fs::File::open(dir)
        {
            let _ = dir.sync_all();
        }
        Ok(())
    }

    /// Every whole entry, in the order written; a line that does not parse (a torn last
    /// write, or damage) is skipped and counted.
    pub fn read<T: DeserializeOwned>(&self) -> io::Result<(Vec<T>, usize)> {
        let text = match std::fs::read(&self.path) {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok((Vec::new(), 0)),
            Err(e) => return Err(e),
        };
        let mut entries = Vec::new();
        let mut skipped = 0;
        for line in text.split(|b| *b == b'\n').filter(|l| !l.is_empty()) {
            match serde_json::from_slice(line) {
                Ok(entry) => entries.push(entry),
                Err(_) => skipped += 1,
            }
        }
        Ok((entries, skipped))
    }

    /// Removes the journal once its entries are in `state.json`.
    pub fn clear(&self) -> io::Result<()> {
        match std::fs::remove_file(&self.path) {
            Err(e) if e.kind() != io::ErrorKind::NotFound => Err(e),
            _ => Ok(()),
        }
    }
}

fn ends_mid_line(file: &mut std::fs::File) -> io::Result<bool> {
    use std::io::{Read, Seek, SeekFrom};
    if file.metadata()?.len() == 0 {
        return Ok(false);
    }
    file.seek(SeekFrom::End(-1))?;
    let mut last = [0u8; 1];
    file.read_exact(&mut last)?;
    Ok(last[0] != b'\n')
}

/// A person's decision as the journal keeps it: the finding's id and, when known, its
/// fingerprint (a re-run round may number its findings differently; the fingerprint follows
/// the code).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct JournalEntry {
    pub at: String,
    pub node_id: String,
    #[serde(default)]
    pub fingerprint: String,
    pub decision: Decision,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub(crate) enum Decision {
    Confirm {
        note: String,
    },
    Dispute {
        note: String,
    },
    Resolve {
        note: Option<String>,
    },
    Dismiss {
        reason: String,
    },
    Reopen,
    /// The person took their confirmation back.
    Withdraw,
    /// The person's comment text (`None`: back to the generated text).
    Comment {
        text: Option<String>,
    },
    /// The level the round is read at.
    Level {
        level: String,
    },
    /// The person's own finding, new or edited (the draft as `review::person` reads it).
    PutFinding {
        draft: crate::review::person::PersonDraft,
    },
    /// The person deleted their own finding.
    DeleteFinding,
    /// The person gave the finding another priority and kind.
    Reclassify {
        priority: crate::review::node::Priority,
        /// Not `kind`: that names the decision.
        #[serde(rename = "finding_kind")]
        kind: crate::review::node::Kind,
        reason: String,
    },
    /// The person accepted a reviewer's proposal in thread `thread` (`Some(true)`), or took
    /// the acceptance back (`None`).
    Proposal {
        thread: String,
        accepted: Option<bool>,
    },
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(id: &str, decision: Decision) -> JournalEntry {
        JournalEntry {
            at: "2026-12-01T00:00:00Z".into(),
            node_id: id.into(),
            fingerprint: format!("fp-{id}"),
            decision,
        }
    }

    #[test]
    fn entries_come_back_in_the_order_written() {
        let dir = tempfile::tempdir().unwrap();
        let journal = Journal::of_space(dir.path());
        assert_eq!(journal.read::<JournalEntry>().unwrap(), (Vec::new(), 0));
        let written = vec![
            entry(
                "rules-1",
                Decision::Dismiss {
                    reason: "vendored".into(),
                },
            ),
            entry(
                "engineer-2",
                Decision::Confirm {
                    note: String::new(),
                },
            ),
            entry(
                "engineer-2",
                Decision::Comment {
                    text: Some("use checked_add".into()),
                },
            ),
            entry("rules-1", Decision::Reopen),
            entry(
                "person-1",
                Decision::PutFinding {
                    draft: crate::review::person::PersonDraft::new(
                        crate::review::node::Anchor {
                            path: "src/a.rs".try_into().unwrap(),
                            side: crate::review::side::Side::Left,
                            start_line: 3,
                            end_line: 4,
                        },
                        "off by one",
                    ),
                },
            ),
            entry(
                "engineer-2",
                Decision::Reclassify {
                    priority: crate::review::node::Priority::P3,
                    kind: crate::review::node::Kind::Suggestion,
                    reason: "engineer proposes to make it P3: style".into(),
                },
            ),
            entry("person-1", Decision::DeleteFinding),
        ];
        for e in &written {
            journal.append(e).unwrap();
        }
        assert_eq!(journal.read::<JournalEntry>().unwrap(), (written, 0));
        journal.clear().unwrap();
        assert!(!journal.path().exists());
        journal.clear().unwrap();
    }

    #[test]
    fn a_torn_last_line_is_skipped_and_the_rest_kept() {
        let dir = tempfile::tempdir().unwrap();
        let journal = Journal::of_space(dir.path());
        let first = entry("qa-1", Decision::Resolve { note: None });
        journal.append(&first).unwrap();
        let mut file = OpenOptions::new()
            .append(true)
            .open(journal.path())
            .unwrap();
        file.write_all(b"{\"at\":\"2026\",\"node_id\":\"qa-")
            .unwrap();
        let (entries, skipped) = journal.read::<JournalEntry>().unwrap();
        assert_eq!(entries, vec![first.clone()]);
        assert_eq!(skipped, 1);
        // The next decision after the restart is not glued to the fragment.
        let next = entry("qa-2", Decision::Reopen);
        journal.append(&next).unwrap();
        let (entries, skipped) = journal.read::<JournalEntry>().unwrap();
        assert_eq!(entries, vec![first, next]);
        assert_eq!(skipped, 1);
    }
}
