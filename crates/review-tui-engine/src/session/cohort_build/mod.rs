//! The cohort build: the changed files read once (each side parsed once), then grouped into
//! cohorts and compared for the apiContract axis side by side. It sits above both: `cohort`
//! reads the files and groups them, `api` reads the surfaces from the same trees (as the
//! reading's `TreeReader`) and judges them; neither uses the other's work.
//!
//! [`build_cached`] answers from the space's cache when the same head, base and diff were
//! built before (`report_cache`).

mod report_cache;

pub use report_cache::build_cached;

use crate::api::{advisory, sources::Sources};
use crate::cohort::{ChangedFiles, CohortError, CohortInput, CohortReport, EarlyIndex};

/// Groups the changed files of `input.diff` into cohorts and computes the cohort axes.
pub fn build(input: CohortInput<'_>) -> Result<CohortReport, CohortError> {
    build_with(input, None)
}

/// [`build`], taking the index from `early` when it was started for this head.
pub(crate) fn build_with(
    input: CohortInput<'_>,
    early: Option<EarlyIndex>,
) -> Result<CohortReport, CohortError> {
    let mut sources = Sources::new(input.worktree, input.base).with_pr(input.pr);
    let (read, surfaces) = ChangedFiles::read(&input, early, &sources)?;
    sources.keep_early(surfaces);
    // Grouping and the apiContract axis read the same files and index and nothing of each
    // other: they run on two threads (on one, they were the last second of a large range
    // with the other core idle). The axis stays here, with the repository it reads.
    let (cohorts, (api_contract, advisory_note)) = std::thread::scope(|scope| {
        let (diff, worktree) = (input.diff, input.worktree);
        let grouping = scope.spawn(|| read.cohorts(diff, worktree));
        let api_contract = advisory::api_contract_declared(
            read.files(),
            read.index(),
            &sources,
            input.api_advisory,
        );
        let cohorts = grouping
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        (cohorts, api_contract)
    });
    let mut api_notes: Vec<String> = advisory::unindexed_languages(read.files())
        .into_iter()
        .collect();
    api_notes.extend(advisory_note);
    Ok(read.report(cohorts, api_contract, api_notes))
}
