//! What a change says of itself about breaking its package's API: its author declared it
//! breaking (a conventional commit's `type!:`, a `BREAKING CHANGE:` footer, in the PR's title
//! or description or a commit message of the range), or it is merged into a branch named for
//! the next major (`v2`, `two_point_oh`, `next`).
//!
//! All of it is text the PR's author writes. It may turn a break on a PR into a warn that
//! says the next release must be a major; it never clears a release (a range ending at a
//! release tag: the version is chosen and shipped), and nothing of it is quoted back.

use std::sync::LazyLock;

use regex::Regex;

use crate::pr::forge::PullRequest;

/// How many commits of the range are read for a declaration (a long-lived branch's merge
/// holds thousands; the declaration of interest is in its first lines or the PR's text).
pub(super) const COMMITS: usize = 300;

/// What the change declared, as the axis reads it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Declared {
    /// Where the author declared the change breaking: `the PR's title`, `commit 1a2b3c4`.
    pub breaking: Option<String>,
    /// The branch merged into, when its name gives a major version (`v2` → 2), or `None`
    /// as the major for a branch named for the next one (`next`).
    pub into_branch: Option<(String, Option<u64>)>,
}

impl Declared {
    /// A short text standing for what was declared, for the report cache's key.
    pub(crate) fn fingerprint(&self) -> String {
        if self == &Declared::default() {
            return String::new();
        }
        format!("{:?}", self)
    }
}

/// What `pr` and the commit messages of the range (`commits`: short id and message, the head
/// first) declare.
pub(crate) fn declared(pr: Option<&PullRequest>, commits: &[(String, String)]) -> Declared {
    let mut breaking = None;
    if let Some(pr) = pr {
        if declares_in_header(&pr.title) {
            breaking = Some("the PR's title".to_string());
        } else if declares_in_body(&pr.body) {
            breaking = Some("the PR's description".to_string());
        }
    }
    if breaking.is_none() {
        breaking = commits.iter().take(COMMITS).find_map(|(id, message)| {
            let (subject, body) = message.split_once('\n').unwrap_or((message, ""));
            (declares_in_header(subject) || declares_in_body(body)).then(|| format!("commit {id}"))
        });
    }
    // The PR's base when it names a branch; else the head's merge subject (`Merge branch
    // 'wider' into two_point_oh`, a merge reviewed as its own range).
    let into = pr
        .map(|pr| pr.base.ref_name.trim())
        .filter(|name| branch_major(name).is_some())
        .map(str::to_string)
        .or_else(|| {
            let (_, head) = commits.first()?;
            merged_into(head.lines().next().unwrap_or(""))
        });
    let into_branch = into.and_then(|name| Some((name.clone(), branch_major(&name)?)));
    Declared {
        breaking,
        into_branch,
    }
}

/// A conventional commit header marked breaking: `feat!: …`, `fix(error)!: …` (and the
/// `fix(error):!` some write for it).
fn declares_in_header(header: &str) -> bool {
    static MARKED: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r"^\s*[A-Za-z]+(\([^)]*\))?(!:|:!)").expect("a valid pattern"));
    MARKED.is_match(header)
}

/// A `BREAKING CHANGE:` or `BREAKING-CHANGE:` footer at the start of a line.
fn declares_in_body(body: &str) -> bool {
    static FOOTER: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r"(?m)^\s*BREAKING[ -]CHANGE:").expect("a valid pattern"));
    FOOTER.is_match(body)
}

/// The branch a merge subject merges into: `Merge branch 'wider' into two_point_oh`.
fn merged_into(subject: &str) -> Option<String> {
    static INTO: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"^Merge (?:remote-tracking )?branch '[^']+' into ([\w./-]+)$")
            .expect("a valid pattern")
    });
    Some(INTO.captures(subject.trim())?[1].to_string())
}

/// The major version a branch's name is for: `Some(Some(2))` for `v2`, `2.x`, `2.0`,
/// `release-2.0`, `v2-dev`, `two_point_oh`; `Some(None)` for one named for the next major
/// whatever it is (`next`, `next-major`); `None` for any other name.
pub(crate) fn branch_major(name: &str) -> Option<Option<u64>> {
    static NUMBERED: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(
            r"^(?:v|version[-_/]?|release[-_/]?v?|releases/v?)?(\d{1,3})(?:\.x|\.0|\.0\.0)?(?:[-_.](?:dev|next|alpha|beta|rc|wip|develop))?$",
        )
        .expect("a valid pattern")
    });
    static SPELLED: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"^(one|two|three|four|five|six|seven|eight|nine|ten)(?:[-_](?:point[-_](?:oh|zero|0)|dot[-_](?:oh|zero|0)|x))?$")
            .expect("a valid pattern")
    });
    let name = name
        .trim()
        .trim_start_matches("refs/heads/")
        .to_ascii_lowercase();
    if matches!(name.as_str(), "next" | "next-major" | "next_major") {
        return Some(None);
    }
    if let Some(captures) = NUMBERED.captures(&name) {
        return Some(captures[1].parse().ok());
    }
    let words = [
        "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    ];
    let word = SPELLED.captures(&name)?;
    let at = words.iter().position(|w| *w == &word[1])?;
    Some(Some(at as u64 + 1))
}

/// Whether the branch `into` (its major as [`branch_major`] reads it) prepares a major above
/// `current` (the package's version as the axis found it: `Cargo.toml 1.4.0`, `last tag
/// v1.2.0`).
pub(crate) fn prepares_a_later_major(major: Option<u64>, current: &str) -> bool {
    let version = current.rsplit(' ').next().unwrap_or(current);
    // A Go module path is major 1 (or 0) unless it ends in `/vN`.
    let now: Option<u64> = if version.contains('/') {
        let last = version.rsplit('/').next().unwrap_or("");
        Some(
            last.strip_prefix('v')
                .and_then(|n| n.parse().ok())
                .unwrap_or(1),
        )
    } else {
        version
            .trim_start_matches('v')
            .split('.')
            .next()
            .and_then(|n| n.parse().ok())
    };
    match (major, now) {
        (None, _) => true,
        (Some(major), Some(now)) => major > now,
        (Some(_), None) => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn commit(message: &str) -> Vec<(String, String)> {
        vec![("1a2b3c4".to_string(), message.to_string())]
    }

    #[test]
    fn conventional_markers_and_footers_declare_a_break() {
        assert!(declares_in_header("feat!: drop the old API"));
        assert!(declares_in_header("fix(error)!: Merge EmptyValue"));
        assert!(declares_in_header(
            "fix(error):! Merge EmptyValue into InvalidValue"
        ));
        assert!(!declares_in_header("fix(error): keep EmptyValue!"));
        assert!(!declares_in_header(
            "Merge pull request #3965 from epage/empty"
        ));
        assert!(declares_in_body(
            "Does a thing.\n\nBREAKING CHANGE: `x` is gone"
        ));
        assert!(declares_in_body("BREAKING-CHANGE: `x` is gone"));
        assert!(!declares_in_body("this is not a BREAKING CHANGE: see"));
        let found = declared(
            None,
            &[
                (
                    "aaaaaaa".into(),
                    "Merge pull request #3965 from epage/empty\n\nfix(error):! Merge".into(),
                ),
                (
                    "16b0362".into(),
                    "fix(error):! Merge EmptyValue into InvalidValue".into(),
                ),
            ],
        );
        assert_eq!(found.breaking.as_deref(), Some("commit 16b0362"));
        let pr = crate::pr::forge::PullRequest {
            number: 1,
            title: "refactor!: rename".into(),
            body: String::new(),
            author: "a".into(),
            author_is_bot: false,
            state: crate::pr::forge::PrState::Open,
            draft: false,
            base: crate::pr::forge::BranchTip {
                ref_name: "main".into(),
                sha: "0".repeat(40).parse().unwrap(),
            },
            head: crate::pr::forge::BranchTip {
                ref_name: "topic".into(),
                sha: "1".repeat(40).parse().unwrap(),
            },
            clone_url: String::new(),
            html_url: String::new(),
        };
        assert_eq!(
            declared(Some(&pr), &commit("refactor: rename"))
                .breaking
                .as_deref(),
            Some("the PR's title")
        );
        assert_eq!(declared(None, &commit("fix: typo")), Declared::default());
    }

    #[test]
    fn branches_named_for_a_major() {
        for (name, major) in [
            ("v2", Some(Some(2))),
            ("2.x", Some(Some(2))),
            ("release-3.0", Some(Some(3))),
            ("v5-dev", Some(Some(5))),
            ("two_point_oh", Some(Some(2))),
            ("next", Some(None)),
            ("main", None),
            ("fix-issue-123", None),
            ("v1.2.0", None),
            ("4096^1", None),
        ] {
            assert_eq!(branch_major(name), major, "{name}");
        }
        let found = declared(None, &commit("Merge branch 'wider' into two_point_oh"));
        assert_eq!(
            found.into_branch,
            Some(("two_point_oh".to_string(), Some(2)))
        );
        assert!(prepares_a_later_major(Some(2), "last tag v1.0.1"));
        assert!(!prepares_a_later_major(Some(4), "last tag v4.5.0"));
        assert!(!prepares_a_later_major(Some(2), "go.mod github.com/a/b/v2"));
        assert!(prepares_a_later_major(Some(2), "go.mod github.com/a/b"));
        assert!(prepares_a_later_major(None, "Cargo.toml 1.4.0"));
    }
}
