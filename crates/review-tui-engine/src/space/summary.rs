//! Every local review space at a glance, for the inbox: which PR, where its review stands, its
//! last verdict, and whether it was published. Read only, without the space's lock (a space in
//! use is still listed as its last atomic write left it), and only the few fields needed: a
//! space's findings are never parsed here, so listing hundreds of spaces stays fast.

use std::path::{Path, PathBuf};

use serde::Deserialize;

use super::key::SpaceKey;
use super::layout::space_dir;
use super::state::{Ladder, PrIdentity, PublishState};
use super::store::state_path;
use crate::commit_id::CommitId;

/// One space as the inbox shows it.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct SpaceSummary {
    pub dir: PathBuf,
    pub pr: PrIdentity,
    /// The head the space last fetched.
    pub head_sha: CommitId,
    pub ladder: Ladder,
    /// The last round, completed or not.
    pub last_round: Option<RoundSummary>,
    /// The newest completed round: what "your round" is.
    pub reviewed: Option<RoundSummary>,
    /// The newest completed round was published (`Published`), or its publish was cut short
    /// (`Publishing`: maybe posted).
    pub published: Option<PublishState>,
    /// When `state.json` was last written (seconds since the epoch).
    pub touched: u64,
}

#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub(crate) struct RoundSummary {
    pub number: u32,
    pub head_sha: CommitId,
    #[serde(default)]
    pub merge_base: Option<CommitId>,
    #[serde(default)]
    pub completed: bool,
    /// `ship`, `hold`, `block`, `inconclusive`.
    #[serde(default)]
    pub decision: Option<String>,
}

#[derive(Deserialize)]
struct Light {
    pr: PrIdentity,
    head_sha: CommitId,
    #[serde(default)]
    ladder: Ladder,
    #[serde(default)]
    rounds: Vec<RoundSummary>,
    #[serde(default)]
    publishes: Vec<LightPublish>,
}

#[derive(Deserialize)]
struct LightPublish {
    round: u32,
    state: PublishState,
}

impl SpaceSummary {
    /// The space in `dir`, if its `state.json` reads; `None` for a damaged or missing one
    /// (the next open sets a damaged one aside, never the listing).
    pub(crate) fn read(dir: &Path) -> Option<SpaceSummary> {
        let path = state_path(dir);
        let bytes = std::fs::read(&path).ok()?;
        let light: Light = serde_json::from_slice(&bytes).ok()?;
        let touched = std::fs::metadata(&path)
            .and_then(|m| m.modified())
            .ok()
            .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
            .map_or(0, |d| d.as_secs());
        let reviewed = light.rounds.iter().rev().find(|r| r.completed).cloned();
        let published = reviewed.as_ref().and_then(|round| {
            let records = light.publishes.iter().filter(|p| p.round == round.number);
            records
                .map(|p| p.state)
                .max_by_key(|s| matches!(s, PublishState::Published))
        });
        Some(SpaceSummary {
            dir: dir.to_path_buf(),
            pr: light.pr,
            head_sha: light.head_sha,
            ladder: light.ladder,
            last_round: light.rounds.last().cloned(),
            reviewed,
            published,
            touched,
        })
    }

    /// The space of `key` under `root`, if there is one.
    pub(crate) fn of(root: &Path, key: &SpaceKey) -> Option<SpaceSummary> {
        SpaceSummary::read(&space_dir(root, key))
    }

    /// How many commits the PR gained since the reviewed round: counted in the mirror from the
    /// round's head to `head` when the mirror has `head`; else from the PR's commit count now
    /// (`commits`, as the forge says it) less the round's own. `None` when neither can tell.
    pub(crate) fn commits_since_round(
        &self,
        mirror: &Path,
        head: &str,
        commits: Option<u32>,
    ) -> Option<u32> {
        let round = self.reviewed.as_ref()?;
        let repo = git2::Repository::open_bare(mirror).ok()?;
        let count = |from: Option<&str>, to: &str| -> Option<u32> {
            let mut walk = repo.revwalk().ok()?;
            walk.push(git2::Oid::from_str(to).ok()?).ok()?;
            if let Some(from) = from {
                walk.hide(git2::Oid::from_str(from).ok()?).ok()?;
            }
            Some(walk.count() as u32)
        };
        if let Ok(oid) = git2::Oid::from_str(head)
            && repo.find_commit(oid).is_ok()
        {
            return count(Some(round.head_sha.as_str()), head);
        }
        let then = count(
            round.merge_base.as_ref().map(|m| m.as_str()),
            round.head_sha.as_str(),
        )?;
        commits
            .map(|now| now.saturating_sub(then))
            .filter(|n| *n > 0)
    }
}

/// Every space under the data root `root`, in directory order. A space whose state cannot be
/// read is left out (its next open says what happened to it).
pub(crate) fn list(root: &Path) -> Vec<SpaceSummary> {
    let mut found = Vec::new();
    let mut stack = vec![(root.join("spaces"), 0usize)];
    while let Some((dir, depth)) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            if !entry.file_type().is_ok_and(|t| t.is_dir()) {
                continue;
            }
            let path = entry.path();
            if state_path(&path).is_file() {
                found.push(path);
            } else if depth + 1 < 6 {
                stack.push((path, depth + 1));
            }
        }
    }
    found.sort();
    found
        .iter()
        .filter_map(|dir| SpaceSummary::read(dir))
        .collect()
}
