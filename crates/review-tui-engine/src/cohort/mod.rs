//! Cohorts: changed files grouped by the symbols that join them, ranked by blast radius.
//!
//! [`ChangedFiles::read`] parses each changed file with tree-sitter tag queries (`parse`),
//! finds the symbols its changed lines touch (`changes`); [`ChangedFiles::cohorts`] joins files
//! that define and use the same touched symbols into connected components (`group`), and
//! measures each cohort's blast radius against the head's symbol index, read only as far as
//! the names it asks about need (`lazy_index`; the full `index` is built only for
//! `find_symbol`). Files of languages without a grammar, or that do not parse, are grouped by
//! directory and say so. The advisory `testGap` axis is computed here; the build that runs the
//! grouping and the `apiContract` axis side by side over one reading of the files is the
//! session's (`session::cohort_build`).

pub(crate) mod blob_tags;
pub(crate) mod cache_file;
pub(crate) mod changes;
mod cores;
mod data_files;
mod early_bases;
mod early_index;
mod error;
mod graph;
mod group;
pub(crate) mod index;
pub(crate) mod lazy_index;
mod on_demand;
mod pairing;
pub(crate) mod paths;
pub(crate) mod report_files;
mod stoplist;
mod test_gap;
mod users;

#[cfg(test)]
pub(crate) mod tests;

use std::collections::BTreeSet;
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::commit_id::CommitId;
use crate::diff::Diff;
use crate::review::axes::Axis;

pub use crate::diff::is_test_path;
pub use crate::parse::Grammar;
pub use blob_tags::versions_in as tag_store_versions;
pub use blob_tags::{Trimmed as TrimmedTagStore, trim_to_bytes as trim_tag_store};
pub use early_index::EarlyIndex;
pub use error::CohortError;
pub use group::{Cohort, GROUPED_BY_PATH};
pub use index::{IndexStats, Location, SymbolEntry, SymbolIndex, cache_dir_in};
pub use lazy_index::LazyIndex;
pub use on_demand::OnDemandIndex;
pub use stoplist::is_common;
pub use users::has_word;

/// What a cohort build reads.
#[derive(Clone, Copy)]
pub struct CohortInput<'a> {
    pub diff: &'a Diff,
    /// The worktree checked out at the head SHA.
    pub worktree: &'a Path,
    /// The repository and commit holding the base versions of changed files. Without it the
    /// base is rebuilt from the diff itself (exact for the lines the diff shows).
    pub base: Option<(&'a git2::Repository, git2::Oid)>,
    /// Where the symbol index is cached (see [`cache_dir_in`]); `None` builds without a cache.
    pub cache_dir: Option<&'a Path>,
    pub head_sha: &'a CommitId,
    /// The paths and languages whose public API was declared advisory (`[api_contract]`):
    /// the apiContract axis warns for them instead of gating.
    pub api_advisory: &'a [crate::config::Advisory],
    /// The PR under review, whose own text may declare its break (see `api::declared`).
    pub pr: Option<&'a crate::pr::forge::PullRequest>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct CohortReport {
    /// Ranked: blast radius descending, then size descending, then key.
    pub cohorts: Vec<Cohort>,
    /// `apiContract` (gated) and `testGap` (advisory).
    pub axes: Vec<Axis>,
    pub index_stats: IndexStats,
    /// What was degraded and why: unparsed files, an unwritable cache.
    pub notes: Vec<String>,
}

impl CohortReport {
    /// The cohort holding `path`.
    pub fn cohort_of(&self, path: &str) -> Option<&Cohort> {
        self.cohorts
            .iter()
            .find(|cohort| cohort.files.iter().any(|file| file == path))
    }
}

/// The changed files of a cohort build read as symbols, and the head's symbol index they are
/// grouped by. The reading parses each file side once, and a [`changes::TreeReader`] reads
/// what else it needs from the same trees (the apiContract axis: the surfaces); the grouping
/// ([`ChangedFiles::cohorts`]) and that axis then read the files and the index side by side.
pub(crate) struct ChangedFiles {
    files: Vec<changes::ChangedFile>,
    index: LazyIndex,
    /// What was degraded while reading: unparsed files, unreadable bases.
    notes: Vec<String>,
}

/// What a [`changes::TreeReader`] read of the changed files' trees, by path.
pub(crate) type ReadAlong<R> = Vec<(String, <R as changes::TreeReader>::Read)>;

impl ChangedFiles {
    /// Reads every changed file of `input.diff` at both sides, taking the index from `early`
    /// when it was started for this head; each file comes with what `reader` read of its
    /// trees, by path.
    pub(crate) fn read<R: changes::TreeReader>(
        input: &CohortInput<'_>,
        early: Option<EarlyIndex>,
        reader: &R,
    ) -> Result<(ChangedFiles, ReadAlong<R>), CohortError> {
        let mut notes = Vec::new();
        let (early, bases) = match early {
            Some(early) => early.finish(input.head_sha),
            None => (None, None),
        };
        let (index, mut head_tags) = match early {
            Some(built) => built,
            None => open_index(input)?,
        };
        let read = changes::read_all(
            &input.diff.files,
            input.worktree,
            input.base,
            &mut head_tags,
            reader,
            bases.as_ref(),
        );
        // Stops the early parse (every blob is claimed by now) and frees what it did not hand
        // over.
        drop(bases);
        let mut files = Vec::with_capacity(read.len());
        let mut by_reader = Vec::new();
        for (file, extra) in read {
            if let Some(extra) = extra {
                by_reader.push((file.path.clone(), extra));
            }
            files.push(file);
        }
        for file in &files {
            match &file.reading {
                changes::Reading::Unparsed { why } => notes.push(format!("{why}; grouped by path")),
                changes::Reading::Unavailable { why } => notes.push(why.clone()),
                changes::Reading::Symbols(symbols) if symbols.base_unknown => notes.push(format!(
                    "the base version of {} could not be read or parsed: its removed lines \
                         were not read",
                    file.path
                )),
                _ => {}
            }
        }
        // The changed files' heads were parsed above: the index need not parse them again.
        for file in &files {
            if let changes::Reading::Symbols(symbols) = &file.reading
                && let (Some(tags), Some(blob)) = (&symbols.head, symbols.head_blob)
                && let Some(grammar) = Grammar::for_file(&file.path, file.language)
            {
                index.learn(&file.path, grammar, blob, tags);
            }
        }
        // The names grouping asks about, read in one scan of the files not read yet.
        index.prefetch(asked_names(&files));
        let read = ChangedFiles {
            files,
            index,
            notes,
        };
        Ok((read, by_reader))
    }

    pub(crate) fn files(&self) -> &[changes::ChangedFile] {
        &self.files
    }

    pub(crate) fn index(&self) -> &LazyIndex {
        &self.index
    }

    /// The changed files grouped into cohorts, ranked (data files joined to the code that
    /// reads them).
    /// `diff` is the build's (`CohortInput::diff`), `worktree` its head checked out.
    pub(crate) fn cohorts(&self, diff: &Diff, worktree: &Path) -> Vec<Cohort> {
        let moved: BTreeSet<&str> = diff
            .files
            .iter()
            .filter(|f| is_moved(f))
            .map(|f| f.path.as_str())
            .collect();
        let mut users = users::Users::new(worktree, &self.index);
        let mut cohorts = group::cohorts(&self.files, &self.index, &moved, &mut users);
        data_files::join_data_files(&mut cohorts, &diff.files);
        cohorts
    }

    /// The report: `cohorts`, the `api_contract` axis computed beside them (with its notes)
    /// and the testGap axis.
    pub(crate) fn report(
        self,
        cohorts: Vec<Cohort>,
        api_contract: Axis,
        api_notes: impl IntoIterator<Item = String>,
    ) -> CohortReport {
        let ChangedFiles {
            files,
            index,
            mut notes,
        } = self;
        notes.extend(api_notes);
        let axes = vec![api_contract, test_gap::test_gap(&cohorts, &files)];
        let index_stats = index.finish();
        // Freeing every changed file's trees and tags took tens of milliseconds on a large
        // range before the report could go out: a thread of its own does it.
        // (A thread that cannot be started drops them here, with the closure.)
        let _ = std::thread::Builder::new().spawn(move || drop(files));
        CohortReport {
            cohorts,
            axes,
            index_stats,
            notes,
        }
    }
}

/// The index of the head: from the head commit in the repository holding the base (the
/// mirror, whose store of tags by blob it reads and adds to), else from the worktree.
fn open_index(input: &CohortInput<'_>) -> Result<(LazyIndex, index::HeadTags), CohortError> {
    // The changed files are parsed by the cohort build and handed to the index then.
    let changed = BTreeSet::new();
    let in_repository = input.base.and_then(|(repo, _)| {
        let head = git2::Oid::from_str(input.head_sha).ok()?;
        repo.find_commit(head).ok()?;
        LazyIndex::from_tree(repo.path(), head, &changed).ok()
    });
    match in_repository {
        Some(built) => Ok(built),
        None => LazyIndex::from_worktree(input.worktree, &changed),
    }
}

/// The names the grouping asks the index about: the touched ones, and those a changed test
/// uses (to find the code it exercises). Common names are never asked.
fn asked_names(files: &[changes::ChangedFile]) -> BTreeSet<&str> {
    let mut names = BTreeSet::new();
    for file in files {
        let changes::Reading::Symbols(symbols) = &file.reading else {
            continue;
        };
        names.extend(symbols.touched.iter().map(String::as_str));
        if is_test_path(&file.path) {
            names.extend(symbols.references.iter().map(String::as_str));
        }
    }
    names.retain(|name| !is_common(name));
    names
}

/// Changed lines a renamed file may carry and still be read as a move (an import path, a
/// package line).
const MOVE_EDIT_LINES: usize = 10;

/// A file renamed or moved with few edits.
fn is_moved(file: &crate::diff::FileDiff) -> bool {
    file.status == crate::diff::FileStatus::Renamed
        && file.additions <= MOVE_EDIT_LINES
        && file.deletions <= MOVE_EDIT_LINES
}
