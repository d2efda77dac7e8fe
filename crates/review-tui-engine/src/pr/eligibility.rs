//! Eligibility: reasons not to spend a review on a PR (seed 004, phase 1). Each reason names
//! itself; headless exits 1 unless `--force`, the cockpit asks. Pure: facts in, reasons out.

use crate::commit_id::CommitId;
use std::fmt;

use serde::Serialize;

pub(crate) use super::forge::PrState;
use super::forge::is_bot;

/// What eligibility needs to know about the PR.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct PrFacts {
    pub state: PrState,
    pub draft: bool,
    pub author: String,
    pub author_is_bot: bool,
    pub head_sha: CommitId,
    /// A published round in the review space, not Inconclusive, already reviewed this exact
    /// head.
    pub reviewed_head: bool,
}

/// One changed file's lines, as eligibility reads them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct FileLines<'a> {
    pub path: &'a str,
    /// The stable lowercase language name (`rust`, `python`, …), `other` when unknown.
    pub language: &'a str,
    pub removed: Vec<&'a str>,
    pub added: Vec<&'a str>,
    /// Binary content, a mode change, a rename or a submodule: changes that are never trivial.
    pub structural: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "reason", rename_all = "snake_case")]
pub enum Ineligible {
    Closed,
    Merged,
    Draft,
    BotAuthor { login: String },
    OnlyWhitespace,
    OnlyComments,
    AlreadyReviewed { head_sha: CommitId },
}

impl fmt::Display for Ineligible {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Ineligible::Closed => f.write_str("the pull request is closed"),
            Ineligible::Merged => f.write_str("the pull request is already merged"),
            Ineligible::Draft => f.write_str("the pull request is a draft"),
            Ineligible::BotAuthor { login } => write!(f, "the author {login} is a bot"),
            Ineligible::OnlyWhitespace => f.write_str("the change is only whitespace"),
            Ineligible::OnlyComments => f.write_str("the change only touches comments"),
            Ineligible::AlreadyReviewed { head_sha } => write!(
                f,
                "head {} was already reviewed in a published round",
                short(head_sha)
            ),
        }
    }
}

fn short(sha: &str) -> &str {
    &sha[..sha.len().min(12)]
}

pub(crate) fn check(pr: &PrFacts, files: &[FileLines<'_>]) -> Vec<Ineligible> {
    let mut reasons = Vec::new();
    match pr.state {
        PrState::Open => {}
        PrState::Closed => reasons.push(Ineligible::Closed),
        PrState::Merged => reasons.push(Ineligible::Merged),
    }
    if pr.draft {
        reasons.push(Ineligible::Draft);
    }
    if pr.author_is_bot || is_bot(&pr.author, None) {
        reasons.push(Ineligible::BotAuthor {
            login: pr.author.clone(),
        });
    }
    if let Some(trivial) = trivial(files) {
        reasons.push(trivial);
    }
    if pr.reviewed_head {
        reasons.push(Ineligible::AlreadyReviewed {
            head_sha: pr.head_sha.clone(),
        });
    }
    reasons
}

/// Whitespace-only or comment-only. An empty change is "nothing to review", not trivial, and
/// a structural change (binary, mode, rename, submodule) is never trivial.
fn trivial(files: &[FileLines<'_>]) -> Option<Ineligible> {
    let has_lines = files
        .iter()
        .any(|f| !f.added.is_empty() || !f.removed.is_empty());
    if !has_lines || files.iter().any(|f| f.structural) {
        return None;
    }
    if files.iter().all(only_whitespace) {
        return Some(Ineligible::OnlyWhitespace);
    }
    if files.iter().all(|f| only_whitespace(f) || only_comments(f)) {
        return Some(Ineligible::OnlyComments);
    }
    None
}

fn only_whitespace(file: &FileLines<'_>) -> bool {
    let squeeze = |lines: &[&str]| -> String {
        lines
            .iter()
            .flat_map(|line| line.chars())
            .filter(|c| !c.is_whitespace())
            .collect()
    };
    squeeze(&file.removed) == squeeze(&file.added)
}

fn only_comments(file: &FileLines<'_>) -> bool {
    let Some(prefixes) = comment_prefixes(file.language) else {
        return false;
    };
    file.removed.iter().chain(&file.added).all(|line| {
        let code = line.trim();
        code.is_empty() || prefixes.iter().any(|p| code.starts_with(p))
    })
}

/// Line-comment and block-comment-continuation prefixes. A language missing here is never
/// judged comment-only: we do not guess.
fn comment_prefixes(language: &str) -> Option<&'static [&'static str]> {
    const C_LIKE: &[&str] = &["//", "/*", "*", "*/"];
    const HASH: &[&str] = &["#"];
    match language {
        "rust" | "javascript" | "typescript" | "go" | "java" | "c" | "cpp" | "csharp"
        | "kotlin" => Some(C_LIKE),
        "python" | "shell" | "yaml" | "toml" | "ruby" | "dockerfile" => Some(HASH),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn open_pr() -> PrFacts {
        PrFacts {
            state: PrState::Open,
            draft: false,
            author: "ana".into(),
            author_is_bot: false,
            head_sha: "0123456789abcdef0123".repeat(2).parse().unwrap(),
            reviewed_head: false,
        }
    }

    fn file<'a>(language: &'a str, removed: &[&'a str], added: &[&'a str]) -> FileLines<'a> {
        FileLines {
            path: "x",
            language,
            removed: removed.to_vec(),
            added: added.to_vec(),
            structural: false,
        }
    }

    #[test]
    fn an_open_pr_with_code_changes_is_eligible() {
        let files = [file("rust", &["let x = 1;"], &["let x = 2;"])];
        assert!(check(&open_pr(), &files).is_empty());
    }

    #[test]
    fn each_reason_is_named() {
        let files = [file("rust", &[], &["fn a() {}"])];
        let mut pr = open_pr();
        pr.state = PrState::Merged;
        pr.draft = true;
        pr.author = "dependabot[bot]".into();
        pr.reviewed_head = true;
        let reasons = check(&pr, &files);
        assert_eq!(
            reasons,
            vec![
                Ineligible::Merged,
                Ineligible::Draft,
                Ineligible::BotAuthor {
                    login: "dependabot[bot]".into()
                },
                Ineligible::AlreadyReviewed {
                    head_sha: pr.head_sha.clone()
                }
            ]
        );
        assert_eq!(
            reasons[3].to_string(),
            "head 0123456789ab was already reviewed in a published round"
        );
        pr.state = PrState::Closed;
        assert_eq!(
            check(&pr, &files)[0].to_string(),
            "the pull request is closed"
        );
    }

    #[test]
    fn bot_authors_are_not_eligible() {
        for bot in ["renovate[bot]", "dependabot", "my-app[bot]"] {
            let mut pr = open_pr();
            pr.author = bot.into();
            assert_eq!(check(&pr, &[]).len(), 1, "{bot}");
        }
        for person in ["ana", "robot-fan", "botanist"] {
            let mut pr = open_pr();
            pr.author = person.into();
            assert!(check(&pr, &[]).is_empty(), "{person}");
        }
    }

    #[test]
    fn whitespace_only_changes_are_trivial() {
        let files = [
            file(
                "rust",
                &["fn a(){", "  x()", "}"],
                &["fn a() {", "    x()", "}", ""],
            ),
            file("other", &["a  b"], &["a b"]),
        ];
        assert_eq!(check(&open_pr(), &files), vec![Ineligible::OnlyWhitespace]);
    }

    #[test]
    fn comment_only_changes_are_trivial_by_language() {
        let files = [
            file("rust", &["// old"], &["// new", "/* more", " * text */"]),
            file("python", &[], &["# note"]),
        ];
        assert_eq!(check(&open_pr(), &files), vec![Ineligible::OnlyComments]);
        // `#` is not a comment in Rust, and unknown languages are never judged.
        let rust_hash = [file("rust", &[], &["#[derive(Debug)]"])];
        assert!(check(&open_pr(), &rust_hash).is_empty());
        let unknown = [file("other", &[], &["// looks like a comment"])];
        assert!(check(&open_pr(), &unknown).is_empty());
    }

    #[test]
    fn structural_and_empty_changes_are_not_trivial() {
        let mut binary = file("other", &[], &[]);
        binary.structural = true;
        assert!(check(&open_pr(), &[binary]).is_empty());
        assert!(check(&open_pr(), &[]).is_empty());
        let mut renamed_with_space = file("rust", &["a  b"], &["a b"]);
        renamed_with_space.structural = true;
        assert!(check(&open_pr(), &[renamed_with_space]).is_empty());
    }
}
