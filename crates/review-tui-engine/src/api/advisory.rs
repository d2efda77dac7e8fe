//! The declared way out of the apiContract gate: files whose public API the repository (read
//! from the base) or the person declared advisory are compared apart, and what they show
//! warns instead of holding or failing. The rest of the change is gated as before, and without
//! a declaration nothing changes: an unreadable API still holds.

use std::collections::BTreeSet;

use crate::config::{Advisory, AdvisoryScope};
use crate::diff::Language;
use crate::review::axes::{Axis, AxisVerdict};

use super::contract::{NOTHING_TO_COMPARE, api_contract, may_carry_api};
use super::sources::Sources;
use crate::cohort::changes::{ChangedFile, Reading};
use crate::cohort::lazy_index::LazyIndex;

/// The apiContract axis of `files`, with `advisories` applied, and the coverage note that says
/// which files were not gated and who chose that.
pub(crate) fn api_contract_declared(
    files: &[ChangedFile],
    index: &LazyIndex,
    sources: &Sources<'_>,
    advisories: &[Advisory],
) -> (Axis, Option<String>) {
    // A renamed file is advisory when either of its names is covered.
    let covering = |file: &ChangedFile| -> Vec<&Advisory> {
        advisories
            .iter()
            .filter(|a| {
                a.covers(&file.path, file.language)
                    || file
                        .old_path
                        .as_deref()
                        .is_some_and(|old| a.covers(old, Language::from_path(old)))
            })
            .collect()
    };
    let covered: Vec<(&ChangedFile, Vec<&Advisory>)> = files
        .iter()
        .map(|f| (f, covering(f)))
        .filter(|(_, by)| !by.is_empty())
        .collect();
    if covered.is_empty() {
        return (api_contract(files, index, sources, &|_| true), None);
    }
    let advisory_paths: BTreeSet<&str> = covered.iter().map(|(f, _)| f.path.as_str()).collect();
    let gated = api_contract(files, index, sources, &|f| {
        !advisory_paths.contains(f.path.as_str())
    });
    let advisory = api_contract(files, index, sources, &|f| {
        advisory_paths.contains(f.path.as_str())
    });
    let used: Vec<&Advisory> = advisories
        .iter()
        .filter(|a| covered.iter().any(|(_, by)| by.contains(a)))
        .collect();
    let why = declared_by(&used);
    let note = format!(
        "apiContract not gated for {}: {why}",
        advisory_paths
            .iter()
            .copied()
            .collect::<Vec<_>>()
            .join(", ")
    );
    (combine(gated, advisory, &why), Some(note))
}

/// `the repository's .review-tui.toml (on the base branch) declares `*.lua` advisory`, one
/// clause per declarer.
fn declared_by(used: &[&Advisory]) -> String {
    let mut clauses = Vec::new();
    for who in [AdvisoryScope::Repository, AdvisoryScope::Person] {
        let what: Vec<String> = used
            .iter()
            .filter(|a| a.declared_by == who)
            .map(|a| a.describe())
            .collect();
        if !what.is_empty() {
            clauses.push(format!(
                "{} declares the API of {} advisory ([api_contract])",
                who.who(),
                what.join(", ")
            ));
        }
    }
    clauses.join("; ")
}

/// The gated part decides; what the advisory part found is said beside it, and makes a
/// passing axis warn (never stricter than warn, never a hold).
fn combine(gated: Axis, advisory: Axis, why: &str) -> Axis {
    if advisory.verdict == AxisVerdict::Pass {
        return gated;
    }
    let said = format!(
        "not gating, as {why}: {} ({})",
        advisory.detail, advisory.verdict
    );
    let (verdict, detail) = match gated.verdict {
        AxisVerdict::Pass if gated.detail == NOTHING_TO_COMPARE => (AxisVerdict::Warn, said),
        AxisVerdict::Pass => (AxisVerdict::Warn, format!("{}. {said}", gated.detail)),
        other => (other, format!("{}. {said}", gated.detail)),
    };
    Axis {
        verdict,
        detail,
        ..gated
    }
}

/// The coverage note naming the languages of the change that have no symbol index (their
/// files are grouped by path and their public API cannot be read), or `None`.
pub(crate) fn unindexed_languages(files: &[ChangedFile]) -> Option<String> {
    let mut counts: std::collections::BTreeMap<String, usize> = Default::default();
    for file in files {
        if matches!(file.reading, Reading::NoGrammar) && may_carry_api(&file.language, &file.path) {
            let name = match file.language {
                Language::Other => {
                    let name = file.path.rsplit('/').next().unwrap_or(&file.path);
                    match name.rsplit_once('.') {
                        Some((_, extension)) => format!(".{}", extension.to_ascii_lowercase()),
                        None => continue,
                    }
                }
                known => known.name().to_string(),
            };
            *counts.entry(name).or_default() += 1;
        }
    }
    if counts.is_empty() {
        return None;
    }
    let listed: Vec<String> = counts
        .iter()
        .map(|(name, n)| format!("{name} ({n} file{})", if *n == 1 { "" } else { "s" }))
        .collect();
    Some(format!(
        "no symbol index for {}: grouped by path, and their public API cannot be read \
         (a repository may declare it advisory: [api_contract] in .review-tui.toml)",
        listed.join(", ")
    ))
}
