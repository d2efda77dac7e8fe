//! Cohorts: changed files grouped by the symbols that join them, ranked by blast radius.
//!
//! [`build`] parses each changed file with tree-sitter tag queries (`grammar`, `tags`),
//! finds the symbols its changed lines touch (`changes`), joins files that define and use
//! the same touched symbols into connected components (`group`), and measures each cohort's
//! blast radius against the head's symbol index, read only as far as the names it asks about
//! need (`lazy_index`; the full `index` is built only for `find_symbol`). Files of languages without a grammar, or that do not parse, are grouped by directory
//! and say so. The same pass computes the deterministic `apiContract` axis and the advisory
//! `testGap` axis.

pub(crate) mod blob_tags;
mod cache_file;
pub(crate) mod changes;
mod cores;
mod data_files;
mod early_bases;
mod early_index;
mod error;
pub(crate) mod grammar;
mod graph;
mod group;
pub(crate) mod index;
pub(crate) mod lazy_index;
mod on_demand;
mod pairing;
pub(crate) mod paths;
pub(crate) mod reparse;
mod report_cache;
mod report_files;
mod stoplist;
pub(crate) mod tags;
mod test_gap;
mod users;

#[cfg(test)]
pub(crate) mod tests;

use std::collections::BTreeSet;
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::api::{advisory as api_advisory, sources as api_sources};
use crate::commit_id::CommitId;
use crate::diff::Diff;
use crate::review::axes::Axis;

pub use crate::diff::is_test_path;
pub use blob_tags::versions_in as tag_store_versions;
pub use blob_tags::{Trimmed as TrimmedTagStore, trim_to_bytes as trim_tag_store};
pub use early_index::EarlyIndex;
pub use error::CohortError;
pub use grammar::Grammar;
pub use group::{Cohort, GROUPED_BY_PATH};
pub use index::{IndexStats, Location, SymbolEntry, SymbolIndex, cache_dir_in};
pub use lazy_index::LazyIndex;
pub use on_demand::OnDemandIndex;
pub use report_cache::build_cached;
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

/// Groups the changed files of `input.diff` into cohorts and computes the cohort axes.
pub fn build(input: CohortInput<'_>) -> Result<CohortReport, CohortError> {
    build_with(input, None)
}

/// [`build`], taking the index from `early` when it was started for this head.
pub fn build_with(
    input: CohortInput<'_>,
    early: Option<EarlyIndex>,
) -> Result<CohortReport, CohortError> {
    let mut notes = Vec::new();
    let (early, bases) = match early {
        Some(early) => early.finish(input.head_sha),
        None => (None, None),
    };
    let (index, mut head_tags) = match early {
        Some(built) => built,
        None => open_index(&input)?,
    };
    let sources = api_sources::Sources::new(input.worktree, input.base);
    let files = changes::read_all(
        &input.diff.files,
        input.worktree,
        input.base,
        &mut head_tags,
        &sources,
        bases.as_ref(),
    );
    // Stops the early parse (every blob is claimed by now) and frees what it did not hand over.
    drop(bases);
    for file in &files {
        match &file.reading {
            changes::Reading::Unparsed { why } => notes.push(format!("{why}; grouped by path")),
            changes::Reading::Unavailable { why } => notes.push(why.clone()),
            changes::Reading::Symbols(symbols) if symbols.base_unknown => notes.push(format!(
                "the base version of {} could not be read or parsed: its removed lines were not \
                 read",
                file.path
            )),
            _ => {}
        }
    }
    let moved: BTreeSet<&str> = input
        .diff
        .files
        .iter()
        .filter(|f| is_moved(f))
        .map(|f| f.path.as_str())
        .collect();
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
    // Grouping and the apiContract axis read the same files and index and nothing of each
    // other: they run on two threads (on one, they were the last second of a large range
    // with the other core idle). The axis stays here, with the repository it reads.
    let (cohorts, api_contract) = std::thread::scope(|scope| {
        let grouping = scope.spawn(|| {
            let mut users = users::Users::new(input.worktree, &index);
            group::cohorts(&files, &index, &moved, &mut users)
        });
        let api_contract =
            api_advisory::api_contract_declared(&files, &index, &sources, input.api_advisory);
        let cohorts = grouping
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        (cohorts, api_contract)
    });
    let mut cohorts = cohorts;
    data_files::join_data_files(&mut cohorts, &input.diff.files);
    let (api_contract, advisory_note) = api_contract;
    notes.extend(api_advisory::unindexed_languages(&files));
    notes.extend(advisory_note);
    let axes = vec![api_contract, test_gap::test_gap(&cohorts, &files)];
    let index_stats = index.finish();
    // Freeing every changed file's trees and tags took tens of milliseconds on a large range
    // before the report could go out: a thread of its own does it.
    // (A thread that cannot be started drops them here, with the closure.)
    let _ = std::thread::Builder::new().spawn(move || drop(files));
    Ok(CohortReport {
        cohorts,
        axes,
        index_stats,
        notes,
    })
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
