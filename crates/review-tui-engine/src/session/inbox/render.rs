//! `review-tui inbox --format text`: the list as lines for people (the JSON form is the list
//! serialised). Every text from a forge is untrusted: escaped here for the terminal.

use std::fmt::Write;

use super::{InboxList, InboxRow, age};
use crate::printable::line;

/// One line per PR, under each section's title; the offline banner and notices first.
pub fn text(list: &InboxList, now: std::time::SystemTime) -> String {
    let mut out = String::new();
    if let Some(offline) = &list.offline {
        let _ = writeln!(out, "{}", line(offline));
    }
    for notice in &list.notices {
        let _ = writeln!(out, "note: {}", line(notice));
    }
    for section in &list.sections {
        let rows: Vec<&InboxRow> = list.rows.iter().filter(|r| r.section == *section).collect();
        let _ = writeln!(out, "{} ({})", section.title(), rows.len());
        for row in rows {
            let _ = writeln!(out, "  {}", row_line(row, now));
        }
    }
    out
}

/// The row's columns, space-separated: forge/repo number title (author, age, size, CI) state.
pub fn row_line(row: &InboxRow, now: std::time::SystemTime) -> String {
    let mut parts = vec![format!(
        "{}/{} {}",
        row.forge.to_ascii_lowercase(),
        line(&row.repo),
        line(&row.number)
    )];
    parts.push(line(&row.title).into_owned());
    let mut facts = Vec::new();
    if !row.author.is_empty() {
        facts.push(format!("@{}", line(&row.author)));
    }
    let age = age(&row.updated_at, now);
    if !age.is_empty() {
        facts.push(age);
    }
    if let Some(size) = size(row) {
        facts.push(size);
    }
    if let Some(ci) = &row.ci {
        facts.push(format!("CI {}", line(ci)));
    }
    if row.draft {
        facts.push("draft".into());
    }
    if let Some(crate::pr::inbox::Waiting::TeamRequested { team }) = &row.waiting {
        facts.push(format!("team {}", line(team)));
    }
    if !facts.is_empty() {
        parts.push(format!("({})", facts.join(", ")));
    }
    if let Some(space) = &row.space {
        let verdict = space
            .verdict
            .as_deref()
            .map(|v| format!(", {v}"))
            .unwrap_or_default();
        parts.push(format!("[{}{verdict}]", space.label()));
    }
    parts.join("  ")
}

/// `+12 −3, 2 files`, when the forge said it.
pub fn size(row: &InboxRow) -> Option<String> {
    let (Some(add), Some(del)) = (row.additions, row.deletions) else {
        return None;
    };
    let files = row
        .changed_files
        .map(|n| format!(", {n} file{}", if n == 1 { "" } else { "s" }))
        .unwrap_or_default();
    Some(format!("+{add} -{del}{files}"))
}
