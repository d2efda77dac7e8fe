//! What identifies a review space: the PR on a forge, or a base..head pair in a local repository.

use std::fmt;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use thiserror::Error;

/// One PR, as the space layer sees it. Two keys that compare equal always map to the same
/// directory; the constructors normalise spellings so that equal PRs give equal keys.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "forge", rename_all = "snake_case")]
pub enum SpaceKey {
    Github {
        host: String,
        owner: String,
        repo: String,
        number: u64,
    },
    Local {
        /// The repository's canonical root (symlinks resolved, no trailing slash).
        repo: PathBuf,
        /// The base and head as the user named them (branch names, tags, SHAs).
        base: String,
        head: String,
    },
}

#[derive(Debug, Error)]
pub enum KeyError {
    #[error("{path}: {source}")]
    Path {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{path} is not inside a git repository")]
    NotARepository { path: PathBuf },
    #[error("{what} is empty")]
    Empty { what: &'static str },
}

impl SpaceKey {
    /// A GitHub PR. Host, owner and repository are case-insensitive on GitHub, so they are
    /// lowercased here: `Foo/Bar#1` and `foo/bar#1` are one space.
    pub fn github(host: &str, owner: &str, repo: &str, number: u64) -> Result<SpaceKey, KeyError> {
        let host = non_empty(host, "host")?.to_ascii_lowercase();
        let owner = non_empty(owner, "owner")?.to_ascii_lowercase();
        let repo = non_empty(repo, "repository name")?;
        let repo = repo
            .strip_suffix(".git")
            .unwrap_or(repo)
            .to_ascii_lowercase();
        Ok(SpaceKey::Github {
            host,
            owner,
            repo,
            number,
        })
    }

    /// A local base..head review. `path` may be any spelling of any directory inside the
    /// repository (relative, trailing slash, through a symlink, a subdirectory): the key holds
    /// the canonical repository root, so every spelling lands in the same space.
    pub fn local(path: &Path, base: &str, head: &str) -> Result<SpaceKey, KeyError> {
        let base = non_empty(base, "base")?.to_string();
        let head = non_empty(head, "head")?.to_string();
        let canonical = std::fs::canonicalize(path).map_err(|source| KeyError::Path {
            path: path.to_path_buf(),
            source,
        })?;
        let repo =
            git2::Repository::discover(&canonical).map_err(|_| KeyError::NotARepository {
                path: path.to_path_buf(),
            })?;
        let root = repo.workdir().unwrap_or_else(|| repo.path());
        // libgit2 reports roots with a trailing slash and without resolving symlinks in every
        // case; canonicalize again so the key has exactly one spelling.
        let repo = std::fs::canonicalize(root).map_err(|source| KeyError::Path {
            path: root.to_path_buf(),
            source,
        })?;
        Ok(SpaceKey::Local { repo, base, head })
    }

    /// A short name, unique among the spaces that share one mirror; safe as a git ref component
    /// and as a worktree name.
    pub fn id(&self) -> String {
        match self {
            SpaceKey::Github { number, .. } => format!("pr-{number}"),
            SpaceKey::Local { .. } => format!("local-{}", self.short_hash()),
        }
    }

    /// Where this space's refs live inside the shared mirror.
    pub fn ref_prefix(&self) -> String {
        match self {
            SpaceKey::Github { number, .. } => format!("refs/review-tui/pr/{number}"),
            SpaceKey::Local { .. } => format!("refs/review-tui/local/{}", self.short_hash()),
        }
    }

    /// A hash of everything that identifies the key, so that two keys whose sanitized names
    /// collide (`feature/x` and `feature-x`) still get different directories.
    pub(crate) fn short_hash(&self) -> String {
        match self {
            SpaceKey::Github {
                host,
                owner,
                repo,
                number,
            } => short_hash(&[
                host.as_bytes(),
                owner.as_bytes(),
                repo.as_bytes(),
                number.to_string().as_bytes(),
            ]),
            SpaceKey::Local { repo, base, head } => {
                short_hash(&[&path_bytes(repo), base.as_bytes(), head.as_bytes()])
            }
        }
    }
}

impl fmt::Display for SpaceKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SpaceKey::Github {
                host,
                owner,
                repo,
                number,
            } if host == "github.com" => write!(f, "{owner}/{repo}#{number}"),
            SpaceKey::Github {
                host,
                owner,
                repo,
                number,
            } => write!(f, "{host}/{owner}/{repo}#{number}"),
            SpaceKey::Local { repo, base, head } => {
                write!(f, "{}#{base}..{head}", repo.display())
            }
        }
    }
}

fn non_empty<'a>(text: &'a str, what: &'static str) -> Result<&'a str, KeyError> {
    let text = text.trim();
    if text.is_empty() {
        Err(KeyError::Empty { what })
    } else {
        Ok(text)
    }
}

/// The first 12 hex digits of a SHA-256 over the parts, each length-prefixed so that
/// `("ab", "c")` and `("a", "bc")` differ.
pub(crate) fn short_hash(parts: &[&[u8]]) -> String {
    let mut hasher = Sha256::new();
    for part in parts {
        hasher.update((part.len() as u64).to_le_bytes());
        hasher.update(part);
    }
    hasher
        .finalize()
        .iter()
        .take(6)
        .map(|b| format!("{b:02x}"))
        .collect()
}

pub(crate) fn path_bytes(path: &Path) -> Vec<u8> {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        path.as_os_str().as_bytes().to_vec()
    }
    #[cfg(not(unix))]
    {
        path.to_string_lossy().into_owned().into_bytes()
    }
}

/// Turns user-controlled text into one safe path component: only `[A-Za-z0-9._-]` survive, runs
/// of anything else become one `-`, a leading dot is replaced (so never `.`, `..` or a hidden
/// file), and the length is capped. The result is never empty.
pub fn sanitize_component(text: &str) -> String {
    const MAX: usize = 48;
    let mut out = String::with_capacity(text.len().min(MAX));
    for c in text.chars() {
        let keep = c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-');
        if keep {
            out.push(c);
        } else if !out.ends_with('-') {
            out.push('-');
        }
        if out.len() >= MAX {
            break;
        }
    }
    let trimmed = out.trim_matches('-');
    let mut out = if trimmed.starts_with('.') {
        format!("_{}", trimmed.trim_start_matches('.'))
    } else {
        trimmed.to_string()
    };
    if out.is_empty() {
        out.push('_');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn github_spellings_are_one_key() {
        let a = SpaceKey::github("GitHub.com", "Foo", "Bar.git", 7).unwrap();
        let b = SpaceKey::github("github.com", "foo", "bar", 7).unwrap();
        assert_eq!(a, b);
        assert_eq!(a.to_string(), "foo/bar#7");
        assert_eq!(a.id(), "pr-7");
        assert_eq!(a.ref_prefix(), "refs/review-tui/pr/7");
    }

    #[test]
    fn empty_parts_are_refused() {
        assert!(matches!(
            SpaceKey::github("github.com", " ", "x", 1),
            Err(KeyError::Empty { what: "owner" })
        ));
    }

    #[test]
    fn sanitize_never_escapes() {
        assert_eq!(sanitize_component(".."), "_");
        assert_eq!(sanitize_component("."), "_");
        assert_eq!(sanitize_component("../../etc"), "_-..-etc");
        assert_eq!(sanitize_component("feature/x"), "feature-x");
        assert_eq!(sanitize_component(""), "_");
        assert_eq!(sanitize_component("v1.2.3"), "v1.2.3");
        assert_eq!(sanitize_component(".hidden"), "_hidden");
    }

    #[test]
    fn hash_separates_parts() {
        assert_ne!(short_hash(&[b"ab", b"c"]), short_hash(&[b"a", b"bc"]));
    }

    proptest! {
        #[test]
        fn sanitized_is_one_plain_component(text in "\\PC{0,80}") {
            let s = sanitize_component(&text);
            prop_assert!(!s.is_empty());
            prop_assert!(!s.contains('/') && !s.contains('\\'));
            prop_assert!(!s.starts_with('.'));
            prop_assert!(s.len() <= 50);
            let mut parts = Path::new(&s).components();
            prop_assert!(matches!(parts.next(), Some(std::path::Component::Normal(_))));
            prop_assert!(parts.next().is_none());
        }
    }
}
