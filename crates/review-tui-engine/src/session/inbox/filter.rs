//! The inbox's filter, in the findings filter's syntax where it applies: words (all must
//! appear, in any column, case-insensitive), `@author`, and `is:` states (`is:draft`,
//! `is:team`, `is:moved`, `is:reviewed`, `is:unreviewed`, `is:published`, `is:awaiting`,
//! `is:failing`). And the orders the list can be sorted in.

use super::{InboxRow, Section};

/// Why a filter term is not one.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "{0:?} is not an inbox filter term (words, @author, is:draft|team|moved|reviewed|unreviewed|published|awaiting|failing)"
)]
pub struct BadTerm(pub String);

/// Whether `row` passes `filter`; a term that is not one is an error naming it.
pub fn matches(row: &InboxRow, filter: &str) -> Result<bool, BadTerm> {
    let text = format!(
        "{} {} {} {} {} {}",
        row.forge,
        row.repo,
        row.number,
        row.title,
        row.author,
        row.space.as_ref().map(|s| s.label()).unwrap_or_default()
    )
    .to_lowercase();
    for term in filter.split_whitespace() {
        let lower = term.to_lowercase();
        let pass = if let Some(author) = lower.strip_prefix('@') {
            row.author.to_lowercase().contains(author)
        } else if let Some(state) = lower.strip_prefix("is:") {
            is(row, state).ok_or_else(|| BadTerm(term.to_string()))?
        } else {
            text.contains(&lower)
        };
        if !pass {
            return Ok(false);
        }
    }
    Ok(true)
}

fn is(row: &InboxRow, state: &str) -> Option<bool> {
    let space = row.space.as_ref();
    Some(match state {
        "draft" => row.draft,
        "team" => matches!(row.waiting, Some(super::Waiting::TeamRequested { .. })),
        "moved" => space.is_some_and(|s| s.moved),
        "reviewed" => space.is_some_and(|s| s.round.is_some()),
        "unreviewed" => space.is_none_or(|s| s.round.is_none()),
        "published" => space.is_some_and(|s| s.state == "published"),
        "awaiting" => space.is_some_and(|s| s.state == "awaiting approval"),
        "failing" => row.ci.as_deref() == Some("failure"),
        "requested" => row.section == Section::Requested,
        _ => return None,
    })
}

/// The orders the inbox can be sorted in, cycled by one key.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Sort {
    /// Most recently updated first (the default).
    #[default]
    Updated,
    /// Oldest first: what has waited longest.
    Oldest,
    /// By repository, then number.
    Repo,
    /// Largest change first.
    Size,
}

impl Sort {
    pub fn next(self) -> Sort {
        match self {
            Sort::Updated => Sort::Oldest,
            Sort::Oldest => Sort::Repo,
            Sort::Repo => Sort::Size,
            Sort::Size => Sort::Updated,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Sort::Updated => "updated",
            Sort::Oldest => "oldest",
            Sort::Repo => "repo",
            Sort::Size => "size",
        }
    }

    /// Sorts within each section (the sections keep their order).
    pub fn apply(self, rows: &mut [InboxRow], sections: &[Section]) {
        let section = |r: &InboxRow| sections.iter().position(|s| *s == r.section);
        let size = |r: &InboxRow| r.additions.unwrap_or(0) + r.deletions.unwrap_or(0);
        rows.sort_by(|a, b| {
            section(a).cmp(&section(b)).then_with(|| match self {
                Sort::Updated => b.updated_at.cmp(&a.updated_at),
                Sort::Oldest => a.updated_at.cmp(&b.updated_at),
                Sort::Repo => (&a.repo, &a.number).cmp(&(&b.repo, &b.number)),
                Sort::Size => size(b).cmp(&size(a)),
            })
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(title: &str, author: &str) -> InboxRow {
        InboxRow {
            section: Section::Requested,
            forge: "GitHub".into(),
            repo: "acme/app".into(),
            number: "#1".into(),
            title: title.into(),
            author: author.into(),
            reference: String::new(),
            updated_at: String::new(),
            draft: false,
            head_sha: None,
            additions: None,
            deletions: None,
            changed_files: None,
            ci: Some("failure".into()),
            waiting: None,
            space: None,
        }
    }

    #[test]
    fn words_authors_and_states_narrow_and_a_bad_state_is_named() {
        let r = row("Fix the Parser", "octocat");
        assert!(matches(&r, "parser acme").unwrap());
        assert!(!matches(&r, "parser lexer").unwrap());
        assert!(matches(&r, "@octo").unwrap());
        assert!(!matches(&r, "@someone").unwrap());
        assert!(matches(&r, "is:failing is:unreviewed").unwrap());
        assert!(!matches(&r, "is:moved").unwrap());
        assert_eq!(matches(&r, "is:bogus"), Err(BadTerm("is:bogus".into())));
    }
}
