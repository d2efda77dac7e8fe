//! Pull request references as a user types them. Parsing is pure: whether a local path is a
//! repository, or a ref exists, is checked by the forge that opens it.

use std::fmt;
use std::path::{Path, PathBuf};

use thiserror::Error;

/// What the user pointed at.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PrRef {
    Github {
        /// `github.com`, or a GitHub Enterprise host.
        host: String,
        owner: String,
        repo: String,
        number: u64,
    },
    /// A branch range in a local repository. `None` means "work it out": the current branch
    /// for the head, its upstream (else `main`/`master`) for the base.
    Local {
        path: PathBuf,
        base: Option<String>,
        head: Option<String>,
    },
}

pub const ACCEPTED_FORMS: &str = "https://github.com/OWNER/REPO/pull/N, OWNER/REPO#N, a local repository PATH, PATH#BASE..HEAD, or PATH --base BASE --head HEAD";

#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum RefError {
    #[error("`{given}` is not a pull request reference: use {ACCEPTED_FORMS}")]
    Unrecognized { given: String },
    #[error("`{given}`: {reason}")]
    Invalid { given: String, reason: String },
    #[error("--base and --head are for a local repository PATH, not for `{given}`")]
    RangeFlagsOnRemote { given: String },
    #[error(
        "`{given}` already names a range: drop --base/--head, or give PATH alone with \
         --base BASE --head HEAD"
    )]
    RangeTwice { given: String },
}

impl fmt::Display for PrRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PrRef::Github {
                host,
                owner,
                repo,
                number,
            } => {
                if host == "github.com" {
                    write!(f, "{owner}/{repo}#{number}")
                } else {
                    write!(f, "{host}/{owner}/{repo}#{number}")
                }
            }
            PrRef::Local { path, base, head } => {
                write!(f, "{}", path.display())?;
                match (base, head) {
                    (None, None) => Ok(()),
                    (base, head) => write!(
                        f,
                        "#{}..{}",
                        base.as_deref().unwrap_or("(base)"),
                        head.as_deref().unwrap_or("HEAD")
                    ),
                }
            }
        }
    }
}

/// Parses a reference. `base`/`head` are the `--base`/`--head` flags, which only go with a
/// local path written without a range: both at once would say the range twice, and one of
/// them would have to be ignored.
pub fn parse(text: &str, base: Option<&str>, head: Option<&str>) -> Result<PrRef, RefError> {
    let given = text.trim();
    let unrecognized = || RefError::Unrecognized {
        given: given.to_string(),
    };
    if given.is_empty() {
        return Err(unrecognized());
    }
    let parsed = if let Some(rest) = given
        .strip_prefix("https://")
        .or_else(|| given.strip_prefix("http://"))
    {
        parse_url(given, rest)?
    } else if let Some(github) = parse_short(given)? {
        github
    } else {
        parse_local(given)?
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
        } => Ok(PrRef::Local {
            path,
            base: base.map(str::to_string).or(range_base),
            head: head.map(str::to_string).or(range_head),
        }),
        github if base.is_none() && head.is_none() => Ok(github),
        _ => Err(RefError::RangeFlagsOnRemote {
            given: given.to_string(),
        }),
    }
}

/// `https://HOST/OWNER/REPO/pull/N[/files|/commits…][?query][#fragment]`
fn parse_url(given: &str, rest: &str) -> Result<PrRef, RefError> {
    let rest = rest.split(['?', '#']).next().unwrap_or("");
    let parts: Vec<&str> = rest.split('/').collect();
    let unrecognized = || RefError::Unrecognized {
        given: given.to_string(),
    };
    if parts.len() < 5 || parts[3] != "pull" {
        return Err(unrecognized());
    }
    let host = parts[0].to_ascii_lowercase();
    let host = host.strip_prefix("www.").unwrap_or(&host).to_string();
    if host.is_empty() {
        return Err(unrecognized());
    }
    if !is_host(&host) {
        // `github.com@evil.example` is evil.example with a user name: say so rather than guess.
        return Err(RefError::Invalid {
            given: given.to_string(),
            reason: format!("{host:?} is not a host name (letters, digits, dots, dashes, a :port)"),
        });
    }
    let number = parse_number(given, parts[4])?;
    let (owner, repo) = (parts[1], parts[2].trim_end_matches(".git"));
    check_name(given, "owner", owner)?;
    check_name(given, "repository", repo)?;
    Ok(PrRef::Github {
        host,
        owner: owner.to_string(),
        repo: repo.to_string(),
        number,
    })
}

/// `HOST` or `HOST:PORT`, nothing else a URL's authority may hold (user names, brackets).
fn is_host(host: &str) -> bool {
    let (name, port) = match host.rsplit_once(':') {
        Some((name, port)) => (name, Some(port)),
        None => (host, None),
    };
    !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '.' || c == '-')
        && port.is_none_or(|p| !p.is_empty() && p.parse::<u16>().is_ok())
}

/// `OWNER/REPO#N`. Returns `None` when the text does not have that shape, so it can still be a
/// local path.
fn parse_short(given: &str) -> Result<Option<PrRef>, RefError> {
    let Some((slug, number)) = given.rsplit_once('#') else {
        return Ok(None);
    };
    let Some((owner, repo)) = slug.split_once('/') else {
        return Ok(None);
    };
    let plausible = !owner.is_empty()
        && !repo.is_empty()
        && !repo.contains('/')
        && !owner.starts_with('.')
        && !number.contains("..")
        && !number.is_empty();
    if !plausible || Path::new(slug).is_dir() && !number.chars().all(|c| c.is_ascii_digit()) {
        return Ok(None);
    }
    let number = parse_number(given, number)?;
    check_name(given, "owner", owner)?;
    check_name(given, "repository", repo)?;
    Ok(Some(PrRef::Github {
        host: "github.com".into(),
        owner: owner.to_string(),
        repo: repo.to_string(),
        number,
    }))
}

/// `PATH` or `PATH#BASE..HEAD` (three dots are accepted too: the diff is always taken from the
/// merge base).
fn parse_local(given: &str) -> Result<PrRef, RefError> {
    let (path, range) = match given.rsplit_once('#') {
        Some((path, range)) if range.contains("..") => (path, Some(range)),
        Some(_) => {
            return Err(RefError::Unrecognized {
                given: given.to_string(),
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
        });
    }
    Ok(PrRef::Local {
        path: PathBuf::from(path),
        base,
        head,
    })
}

fn parse_number(given: &str, text: &str) -> Result<u64, RefError> {
    match text.parse::<u64>() {
        Ok(n) if n > 0 => Ok(n),
        _ => Err(RefError::Invalid {
            given: given.to_string(),
            reason: format!("`{text}` is not a pull request number"),
        }),
    }
}

/// GitHub owner and repository names: letters, digits, `-`, `_`, `.`; nothing that could walk a
/// path or an URL.
fn check_name(given: &str, what: &str, name: &str) -> Result<(), RefError> {
    let ok = !name.is_empty()
        && name != "."
        && name != ".."
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'));
    if ok {
        Ok(())
    } else {
        Err(RefError::Invalid {
            given: given.to_string(),
            reason: format!("`{name}` is not a valid {what} name"),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn github(owner: &str, repo: &str, number: u64) -> PrRef {
        PrRef::Github {
            host: "github.com".into(),
            owner: owner.into(),
            repo: repo.into(),
            number,
        }
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
            Ok(PrRef::Github {
                host: "ghe.corp.example".into(),
                owner: "team".into(),
                repo: "app".into(),
                number: 7
            })
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
                head: None
            })
        );
        assert_eq!(
            parse("../repo#main..feature/x", None, None),
            Ok(PrRef::Local {
                path: "../repo".into(),
                base: Some("main".into()),
                head: Some("feature/x".into())
            })
        );
        assert_eq!(
            parse("/tmp/r#v1.0...HEAD", None, None),
            Ok(PrRef::Local {
                path: "/tmp/r".into(),
                base: Some("v1.0".into()),
                head: Some("HEAD".into())
            })
        );
        assert_eq!(
            parse("/tmp/r", Some("main"), Some("topic")),
            Ok(PrRef::Local {
                path: "/tmp/r".into(),
                base: Some("main".into()),
                head: Some("topic".into())
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
