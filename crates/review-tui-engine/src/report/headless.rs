//! The headless report of a prepared review: text for people, JSON for pipelines. The JSON
//! shape `{"pr", "space", "files", "eligibility", …}` is extended, never reshaped, by later
//! passes.

use serde_json::{Value, json};

use crate::diff::{Diff, FileStatus};
use crate::printable::Lines;
use crate::reviewers::redact::outbound;
use crate::session::prepare::Prepared;

fn short(sha: &str) -> &str {
    &sha[..sha.len().min(10)]
}

fn status_letter(status: FileStatus) -> char {
    match status {
        FileStatus::Added => 'A',
        FileStatus::Modified => 'M',
        FileStatus::Deleted => 'D',
        FileStatus::Renamed => 'R',
        FileStatus::Copied => 'C',
    }
}

fn status_name(status: FileStatus) -> &'static str {
    match status {
        FileStatus::Added => "added",
        FileStatus::Modified => "modified",
        FileStatus::Deleted => "deleted",
        FileStatus::Renamed => "renamed",
        FileStatus::Copied => "copied",
    }
}

pub fn totals(diff: &Diff) -> (usize, usize) {
    diff.files
        .iter()
        .fold((0, 0), |(a, d), f| (a + f.additions, d + f.deletions))
}

/// The version of the JSON report's shape (`schema_version`, described field by field in
/// `assets/review-report.schema.json`). Raised only when a field is removed, renamed or changes
/// meaning: a pipeline that checks it is never broken by a field added later.
pub const REPORT_SCHEMA_VERSION: u32 = 1;

pub fn json(prepared: &Prepared, forced: bool) -> Value {
    let pr = &prepared.pr;
    let state = prepared.space.state();
    let (additions, deletions) = totals(&prepared.diff);
    // Offline, GitHub was not asked: what only it knows is unknown, not guessed.
    let online = prepared.offline.is_none();
    let mut report = json!({
        "schema_version": REPORT_SCHEMA_VERSION,
        "pr": {
            "forge": prepared.forge_name,
            "reference": prepared.reference.to_string(),
            "number": (pr.number > 0).then_some(pr.number),
            // The PR's own text can hold a secret; a report lands in CI logs.
            "title": outbound(&pr.title),
            "author": online.then_some(&pr.author),
            "author_is_bot": online.then_some(pr.author_is_bot),
            "state": online.then(|| pr.state.to_string()),
            "draft": online.then_some(pr.draft),
            "base": {"ref": pr.base.ref_name, "sha": state.base_sha},
            "head": {"ref": pr.head.ref_name, "sha": state.head_sha},
            "url": pr.html_url,
        },
        "space": {
            "path": prepared.space.path(),
            "worktree": prepared.space.worktree(),
            "status": state.ladder().as_str(),
            "round": state.current_round().map(|r| r.number),
            "new_round": prepared.opened.new_round.is_some(),
            "mirror_created": prepared.opened.mirror_created,
            // A damaged state.json that was moved aside: where, why, what was read back.
            "corruption": prepared.opened.corruption.as_ref().map(|c| json!({
                "preserved_at": c.preserved_at,
                "reason": c.reason,
                "recovered": c.recovered,
            })),
            // Files of the head the repository has no contents for (a partial clone, a
            // copy without its large files): not checked out, no reviewer read them.
            // and the changed files missing their base side (`files[].unavailable` says which).
            "absent_files": absent_files(prepared),
        },
        "files": prepared.diff.files.iter().map(|f| json!({
            "path": f.path,
            "old_path": f.old_path,
            "status": status_name(f.status),
            "additions": f.additions,
            "deletions": f.deletions,
            "language": f.language.name(),
            "binary": f.binary,
            // "base", "head" or "both": the side the repository had no contents for; its
            // lines are not shown, and its counts say nothing of the change.
            "unavailable": f.unavailable.map(|side| side.name()),
        })).collect::<Vec<_>>(),
        "totals": {"files": prepared.diff.files.len(), "additions": additions, "deletions": deletions},
        "eligibility": {
            "eligible": prepared.eligibility.is_empty(),
            "forced": forced && !prepared.eligibility.is_empty(),
            "reasons": prepared.eligibility.iter().map(|r| {
                let mut value = serde_json::to_value(r).unwrap_or(Value::Null);
                if let Value::Object(map) = &mut value {
                    map.insert("message".into(), Value::String(r.to_string()));
                }
                value
            }).collect::<Vec<_>>(),
        },
    });
    // Only when GitHub could not be reached: the report is the stored round, not refreshed.
    if let (Some(o), Some(object)) = (&prepared.offline, report.as_object_mut()) {
        object.insert(
            "offline".into(),
            json!({
                "refreshed": false,
                "round": o.round,
                "as_of": o.as_of,
                "reason": o.reason,
                "message": o.banner(),
            }),
        );
    }
    report
}

/// Every file the repository lacks contents for: the head's files left out of the checkout,
/// then the changed files whose base side is missing.
fn absent_files(prepared: &Prepared) -> Vec<String> {
    let mut absent = prepared.opened.absent_files.clone();
    for path in base_unavailable(&prepared.diff) {
        if !absent.contains(&path) {
            absent.push(path);
        }
    }
    absent
}

/// The changed files whose base side the repository lacks.
fn base_unavailable(diff: &Diff) -> Vec<String> {
    use crate::diff::Unavailable;
    diff.files
        .iter()
        .filter(|f| matches!(f.unavailable, Some(Unavailable::Base | Unavailable::Both)))
        .map(|f| f.path.clone())
        .collect()
}

/// The first names of `paths`, escaped, for one line.
fn some_names(paths: &[String]) -> String {
    const SHOWN: usize = 3;
    let mut names = paths
        .iter()
        .take(SHOWN)
        .map(|p| crate::printable::line(p).into_owned())
        .collect::<Vec<_>>()
        .join(", ");
    if paths.len() > SHOWN {
        names.push_str(", …");
    }
    names
}

/// What the review could not read of the base because the repository lacks it, in one line.
fn base_absent_note(diff: &Diff) -> Option<String> {
    let paths = base_unavailable(diff);
    (!paths.is_empty()).then(|| {
        format!(
            "the repository lacks the base side of {} changed file(s) ({}): base side \
             unavailable, so their diffs are not shown and no rule compared their sides",
            paths.len(),
            some_names(&paths)
        )
    })
}

/// What the review could not read because the repository lacks it, in one line.
fn absent_note(absent: &[String]) -> Option<String> {
    if absent.is_empty() {
        return None;
    }
    let names = some_names(absent);
    Some(format!(
        "the repository lacks the contents of {} file(s) of the head ({names}): a partial \
         clone whose remote could not be reached, or a copy without its large files; they are \
         not checked out and no reviewer read them",
        absent.len()
    ))
}

pub fn text(prepared: &Prepared, forced: bool) -> String {
    lines(prepared, forced).into_string()
}

/// The text report, one [`Lines`] line per line: PR titles, branch and file names are the PR
/// author's and can hold escapes and line breaks.
pub fn lines(prepared: &Prepared, forced: bool) -> Lines {
    let pr = &prepared.pr;
    let state = prepared.space.state();
    let mut out = Lines::new();
    let draft = if pr.draft { ", draft" } else { "" };
    if let Some(offline) = &prepared.offline {
        out.line(format!(
            "PR      {} \"{}\" (offline: not read from {})",
            prepared.reference,
            outbound(&pr.title),
            offline.forge,
        ));
    } else {
        out.line(format!(
            "PR      {} \"{}\" by {} ({}{draft})",
            prepared.reference,
            outbound(&pr.title),
            pr.author,
            pr.state
        ));
    }
    out.line(format!(
        "range   {} ← {} ({}..{})",
        pr.base.ref_name,
        pr.head.ref_name,
        short(&state.base_sha),
        short(&state.head_sha)
    ));
    let round = state
        .current_round()
        .map(|r| format!("round {}", r.number))
        .unwrap_or_default();
    out.line(format!(
        "space   {} ({round}, {})",
        prepared.space.path().display(),
        state.ladder().as_str()
    ));
    out.line(format!("worktree {}", prepared.space.worktree().display()));
    if let Some(corruption) = &prepared.opened.corruption {
        out.line(format!("WARNING {corruption}"));
    }
    if let Some(absent) = absent_note(&prepared.opened.absent_files) {
        out.line(format!("WARNING {absent}"));
    }
    if let Some(absent) = base_absent_note(&prepared.diff) {
        out.line(format!("WARNING {absent}"));
    }
    let (additions, deletions) = totals(&prepared.diff);
    // Counts that leave out what could not be read must not look like the whole change.
    let unknown = prepared
        .diff
        .files
        .iter()
        .filter(|f| f.unavailable.is_some())
        .count();
    let unknown = if unknown == 0 {
        String::new()
    } else {
        format!(" (not counting {unknown} file(s) whose contents are unavailable)")
    };
    out.line(format!(
        "files   {} changed, +{additions} −{deletions}{unknown}",
        prepared.diff.files.len()
    ));
    let width = prepared
        .diff
        .files
        .iter()
        .map(|f| crate::printable::line(&display_path(f)).chars().count())
        .max()
        .unwrap_or(0)
        .min(60);
    for file in &prepared.diff.files {
        // Escaped before padding, so the columns line up with what is printed.
        let path = crate::printable::line(&display_path(file)).into_owned();
        let counts = if let Some(side) = file.unavailable {
            side.header().to_string()
        } else if file.binary {
            "binary".to_string()
        } else {
            format!("+{} −{}", file.additions, file.deletions)
        };
        out.line(format!(
            "  {} {path:<width$}  {counts:<12} {}",
            status_letter(file.status),
            file.language.name()
        ));
    }
    if prepared.eligibility.is_empty() {
        out.line("eligible yes");
    } else {
        let reasons: Vec<String> = prepared.eligibility.iter().map(|r| r.to_string()).collect();
        let note = if forced {
            " (reviewed anyway: --force)"
        } else {
            " (pass --force to review anyway)"
        };
        out.line(format!("eligible no: {}{note}", reasons.join("; ")));
    }
    out
}

fn display_path(file: &crate::diff::FileDiff) -> String {
    match &file.old_path {
        Some(old) if *old != file.path => format!("{old} → {}", file.path),
        _ => file.path.clone(),
    }
}
