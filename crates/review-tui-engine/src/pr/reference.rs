//! Pull request references as a user types them. Each registered forge (`pr::registry`) is
//! offered the text first; what none of them claims is a local repository path. Parsing is
//! pure: whether a local path is a repository, or a ref exists, is checked by the forge that
//! opens it.

use std::fmt;
use std::path::PathBuf;

use super::hosted::{ForgeKind, HostedPr};
pub use super::ref_error::RefError;
use super::registry::FORGES;
use super::uncommitted::Uncommitted;

/// What the user pointed at.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PrRef {
    /// A PR on a registered forge, in that forge's one spelling.
    Hosted(HostedPr),
    /// A branch range in a local repository. `None` means "work it out": the current branch
    /// for the head, its upstream (else `main`/`master`) for the base.
    Local {
        path: PathBuf,
        base: Option<String>,
        head: Option<String>,
        /// `--worktree` / `--staged`: the head is the checked-out commit plus this uncommitted
        /// work (`pr::uncommitted`).
        uncommitted: Option<Uncommitted>,
    },
}

const LOCAL_FORMS: &str =
    "a local repository PATH, PATH#BASE..HEAD, or PATH --base BASE --head HEAD";

/// Every form `forges` and a local repository accept, for the error that lists them.
pub fn accepted_forms(forges: &[&dyn ForgeKind]) -> String {
    let mut forms: Vec<&str> = forges.iter().map(|f| f.reference_forms()).collect();
    forms.push(LOCAL_FORMS);
    forms.join(", ")
}

impl fmt::Display for PrRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PrRef::Hosted(pr) => pr.fmt(f),
            PrRef::Local {
                path,
                base,
                head,
                uncommitted,
            } => {
                write!(f, "{}", path.display())?;
                match (base, head) {
                    (None, None) => {}
                    (base, head) => write!(
                        f,
                        "#{}..{}",
                        base.as_deref().unwrap_or("(base)"),
                        head.as_deref().unwrap_or("HEAD")
                    )?,
                }
                match uncommitted {
                    Some(which) => write!(f, " {}", which.flag()),
                    None => Ok(()),
                }
            }
        }
    }
}

/// Parses a reference against the registered forges. `base`/`head` are the `--base`/`--head`
/// flags, which only go with a local path written without a range: both at once would say the
/// range twice, and one of them would have to be ignored.
pub fn parse(text: &str, base: Option<&str>, head: Option<&str>) -> Result<PrRef, RefError> {
    parse_with(FORGES, text, base, head)
}

/// [`parse`] against `forges`, in order: the first that claims the text takes it.
pub fn parse_with(
    forges: &[&dyn ForgeKind],
    text: &str,
    base: Option<&str>,
    head: Option<&str>,
) -> Result<PrRef, RefError> {
    let given = text.trim();
    let unrecognized = || RefError::Unrecognized {
        given: given.to_string(),
        forms: accepted_forms(forges),
    };
    if given.is_empty() {
        return Err(unrecognized());
    }
    let mut hosted = None;
    for forge in forges {
        if let Some(pr) = forge.parse_reference(given)? {
            hosted = Some(pr);
            break;
        }
    }
    let parsed = match hosted {
        Some(pr) => PrRef::Hosted(pr),
        // A URL no forge claims is not a path either.
        None if given.starts_with("https://") || given.starts_with("http://") => {
            return Err(unrecognized());
        }
        None => parse_local(given).map_err(|e| match e {
            RefError::Unrecognized { given, .. } => RefError::Unrecognized {
                given,
                forms: accepted_forms(forges),
            },
            other => other,
        })?,
    };
    match parsed {
        PrRef::Local {
            base: range_base,
            head: range_head,
            ..
        } if (base.is_some() || head.is_some())
            && (range_base.is_some() || range_head.is_some()) =>
        {
            Err(RefError::RangeTwice {
                given: given.to_string(),
            })
        }
        PrRef::Local {
            path,
            base: range_base,
            head: range_head,
            uncommitted,
        } => Ok(PrRef::Local {
            path,
            base: base.map(str::to_string).or(range_base),
            head: head.map(str::to_string).or(range_head),
            uncommitted,
        }),
        hosted if base.is_none() && head.is_none() => Ok(hosted),
        _ => Err(RefError::RangeFlagsOnRemote {
            given: given.to_string(),
        }),
    }
}

/// `PATH` or `PATH#BASE..HEAD` (three dots are accepted too: the diff is always taken from the
/// merge base).
fn parse_local(given: &str) -> Result<PrRef, RefError> {
    let (path, range) = match given.rsplit_once('#') {
        Some((path, range)) if range.contains("..") => (path, Some(range)),
        Some(_) => {
            return Err(RefError::Unrecognized {
                given: given.to_string(),
                forms: String::new(),
            });
        }
        None => (given, None),
    };
    let (base, head) = match range {
        None => (None, None),
        Some(range) => {
            let (base, head) = range
                .split_once("...")
                .or_else(|| range.split_once(".."))
                .unwrap_or((range, ""));
            if base.is_empty() || head.is_empty() {
                return Err(RefError::Invalid {
                    given: given.to_string(),
                    reason: "a range needs both ends: PATH#BASE..HEAD".into(),
                });
            }
            (Some(base.to_string()), Some(head.to_string()))
        }
    };
    if path.is_empty() {
        return Err(RefError::Unrecognized {
            given: given.to_string(),
            forms: String::new(),
        });
    }
    Ok(PrRef::Local {
        path: PathBuf::from(path),
        base,
        head,
        uncommitted: None,
    })
}

impl PrRef {
    /// The same reference, reviewing `which` uncommitted work on top of the checked-out
    /// commit. Only a local repository has a working tree, and its head is the checkout: a
    /// head named besides would be a second head.
    pub fn with_uncommitted(self, which: Uncommitted) -> Result<PrRef, RefError> {
        match self {
            PrRef::Local {
                path,
                base,
                head: None,
                ..
            } => Ok(PrRef::Local {
                path,
                base,
                head: None,
                uncommitted: Some(which),
            }),
            PrRef::Local { path, .. } => Err(RefError::HeadWithUncommitted {
                given: path.display().to_string(),
                flag: which.flag(),
            }),
            hosted => Err(RefError::UncommittedOnRemote {
                given: hosted.to_string(),
                flag: which.flag(),
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn github(owner: &str, repo: &str, number: u64) -> PrRef {
        PrRef::Hosted(HostedPr {
            forge: "github".into(),
            site: "github".into(),
            host: "github.com".into(),
            owner: owner.into(),
            repo: repo.into(),
            number,
        })
    }

    #[test]
    fn github_urls_in_every_spelling() {
        for url in [
            "https://github.com/rust-lang/rust/pull/123",
            "https://github.com/rust-lang/rust/pull/123/",
            "https://github.com/rust-lang/rust/pull/123/files",
            "https://github.com/rust-lang/rust/pull/123/files?w=1",
            "https://github.com/rust-lang/rust/pull/123#discussion_r1",
            "https://www.github.com/rust-lang/rust/pull/123",
            "http://github.com/rust-lang/rust/pull/123",
            "  https://GitHub.com/rust-lang/rust/pull/123  ",
        ] {
            assert_eq!(
                parse(url, None, None),
                Ok(github("rust-lang", "rust", 123)),
                "{url}"
            );
        }
    }

    #[test]
    fn enterprise_hosts_are_kept() {
        assert_eq!(
            parse("https://ghe.corp.example/team/app/pull/7", None, None),
            Ok(PrRef::Hosted(HostedPr {
                forge: "github".into(),
                site: "github-ghe.corp.example".into(),
                host: "ghe.corp.example".into(),
                owner: "team".into(),
                repo: "app".into(),
                number: 7
            }))
        );
    }

    #[test]
    fn short_form() {
        assert_eq!(
            parse("octo-org/hello.world#42", None, None),
            Ok(github("octo-org", "hello.world", 42))
        );
    }

    #[test]
    fn local_forms() {
        assert_eq!(
            parse(".", None, None),
            Ok(PrRef::Local {
                path: ".".into(),
                base: None,
                head: None,
                uncommitted: None
            })
        );
        assert_eq!(
            parse("../repo#main..feature/x", None, None),
            Ok(PrRef::Local {
                path: "../repo".into(),
                base: Some("main".into()),
                head: Some("feature/x".into()),
                uncommitted: None
            })
        );
        assert_eq!(
            parse("/tmp/r#v1.0...HEAD", None, None),
            Ok(PrRef::Local {
                path: "/tmp/r".into(),
                base: Some("v1.0".into()),
                head: Some("HEAD".into()),
                uncommitted: None
            })
        );
        assert_eq!(
            parse("/tmp/r", Some("main"), Some("topic")),
            Ok(PrRef::Local {
                path: "/tmp/r".into(),
                base: Some("main".into()),
                head: Some("topic".into()),
                uncommitted: None
            })
        );
    }

    #[test]
    fn bad_references_name_the_accepted_forms() {
        for bad in [
            "",
            "https://github.com/rust-lang/rust/issues/5",
            "https://github.com/rust-lang",
            "/tmp/r#main",
        ] {
            let err = parse(bad, None, None).unwrap_err();
            assert!(matches!(err, RefError::Unrecognized { .. }), "{bad}: {err}");
            assert!(err.to_string().contains("OWNER/REPO#N"), "{err}");
        }
        for bad in [
            "https://github.com/a/b/pull/0",
            "https://github.com/a/b/pull/abc",
            "owner/repo#x1",
            "https://github.com/a/../pull/1",
            "/tmp/r#..HEAD",
            "https://github.com@evil.example/a/b/pull/1",
            "https://[::1]/a/b/pull/1",
            "https://ghe.corp:99999/a/b/pull/1",
        ] {
            let err = parse(bad, None, None).unwrap_err();
            assert!(matches!(err, RefError::Invalid { .. }), "{bad}: {err}");
        }
        assert!(matches!(
            parse("o/r#1", Some("main"), None),
            Err(RefError::RangeFlagsOnRemote { .. })
        ));
        assert!(matches!(
            parse("/tmp/r#main..topic", Some("main"), None),
            Err(RefError::RangeTwice { .. })
        ));
        assert!(matches!(
            parse("/tmp/r#main...topic", None, Some("x")),
            Err(RefError::RangeTwice { .. })
        ));
    }

    #[test]
    fn display_round_trips() {
        for text in ["o/r#5", "/tmp/r#main..topic"] {
            let parsed = parse(text, None, None).unwrap();
            assert_eq!(parse(&parsed.to_string(), None, None).unwrap(), parsed);
        }
    }
}
