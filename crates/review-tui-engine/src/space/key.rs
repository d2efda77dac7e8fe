//! What identifies a review space: the PR on a forge, or a base..head pair in a local repository.

use std::fmt;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use thiserror::Error;

use crate::pr::hosted::HostedPr;

/// One PR, as the space layer sees it. Two keys that compare equal always map to the same
/// directory; the constructors normalise spellings so that equal PRs give equal keys (a hosted
/// PR arrives in its forge's one spelling).
///
/// In `state.json` a key is `{"forge": ID, "host", "owner", "repo", "number", "site"}` for a
/// hosted PR and `{"forge": "local", "repo", "base", "head"}` for a local range: the shape the
/// GitHub-only keys had, plus the site, so spaces written before forges were a port reopen.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "wire::Key", into = "wire::Key")]
pub enum SpaceKey {
    /// A PR on a registered forge.
    Hosted(HostedPr),
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
    #[error(
        "the space belongs to a pull request on forge `{forge}`, which this build does not know"
    )]
    UnknownForge { forge: String },
}

impl SpaceKey {
    /// A PR on a forge, as the forge spelled it. Empty parts are refused: they would name the
    /// directory above.
    pub fn hosted(pr: HostedPr) -> Result<SpaceKey, KeyError> {
        for (text, what) in [
            (&pr.forge, "forge"),
            (&pr.site, "site"),
            (&pr.host, "host"),
            (&pr.owner, "owner"),
            (&pr.repo, "repository name"),
        ] {
            non_empty(text, what)?;
        }
        Ok(SpaceKey::Hosted(pr))
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
            SpaceKey::Hosted(pr) => format!("pr-{}", pr.number),
            SpaceKey::Local { .. } => format!("local-{}", self.short_hash()),
        }
    }

    /// Where this space's refs live inside the shared mirror.
    pub fn ref_prefix(&self) -> String {
        match self {
            SpaceKey::Hosted(pr) => format!("refs/review-tui/pr/{}", pr.number),
            SpaceKey::Local { .. } => format!("refs/review-tui/local/{}", self.short_hash()),
        }
    }

    /// How the space names its PR: `#12` on a forge, `main..feature` locally.
    pub fn display_number(&self) -> String {
        match self {
            SpaceKey::Hosted(pr) => format!("#{}", pr.number),
            SpaceKey::Local { base, head, .. } => format!("{base}..{head}"),
        }
    }

    /// A hash of everything that identifies the key, so that two keys whose sanitized names
    /// collide (`feature/x` and `feature-x`) still get different directories.
    pub(crate) fn short_hash(&self) -> String {
        match self {
            SpaceKey::Hosted(pr) => short_hash(&[
                pr.host.as_bytes(),
                pr.owner.as_bytes(),
                pr.repo.as_bytes(),
                pr.number.to_string().as_bytes(),
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
            SpaceKey::Hosted(pr) => pr.fmt(f),
            SpaceKey::Local { repo, base, head } => {
                write!(f, "{}#{base}..{head}", repo.display())
            }
        }
    }
}

/// The key as `state.json` holds it.
mod wire {
    use super::*;

    /// Only `"local"`: the tag of a local range's key.
    #[derive(Serialize, Deserialize)]
    pub enum LocalTag {
        #[serde(rename = "local")]
        Local,
    }

    #[derive(Serialize, Deserialize)]
    #[serde(untagged)]
    pub enum Key {
        Local {
            forge: LocalTag,
            repo: PathBuf,
            base: String,
            head: String,
        },
        Hosted {
            forge: String,
            host: String,
            owner: String,
            repo: String,
            number: u64,
            /// Absent in spaces written before forges were a port (GitHub only): the
            /// registered forge names it again, as it did then.
            #[serde(default, skip_serializing_if = "Option::is_none")]
            site: Option<String>,
        },
    }

    impl TryFrom<Key> for SpaceKey {
        type Error = KeyError;

        fn try_from(key: Key) -> Result<SpaceKey, KeyError> {
            match key {
                Key::Local {
                    repo, base, head, ..
                } => Ok(SpaceKey::Local { repo, base, head }),
                Key::Hosted {
                    forge,
                    host,
                    owner,
                    repo,
                    number,
                    site,
                } => {
                    let site = match site {
                        Some(site) => site,
                        None => crate::pr::registry::find(&forge)
                            .ok_or_else(|| KeyError::UnknownForge {
                                forge: forge.clone(),
                            })?
                            .site(&host),
                    };
                    SpaceKey::hosted(HostedPr {
                        forge,
                        site,
                        host,
                        owner,
                        repo,
                        number,
                    })
                }
            }
        }
    }

    impl From<SpaceKey> for Key {
        fn from(key: SpaceKey) -> Key {
            match key {
                SpaceKey::Hosted(pr) => Key::Hosted {
                    forge: pr.forge,
                    host: pr.host,
                    owner: pr.owner,
                    repo: pr.repo,
                    number: pr.number,
                    site: Some(pr.site),
                },
                SpaceKey::Local { repo, base, head } => Key::Local {
                    forge: LocalTag::Local,
                    repo,
                    base,
                    head,
                },
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

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::pr::github::GITHUB;
    use crate::pr::hosted::ForgeKind;

    /// The key of `owner/repo#number` on github.com, as GitHub's reference parser spells it.
    pub(crate) fn github_key(owner: &str, repo: &str, number: u64) -> SpaceKey {
        let pr = GITHUB
            .parse_reference(&format!("{owner}/{repo}#{number}"))
            .unwrap()
            .unwrap();
        SpaceKey::hosted(pr).unwrap()
    }

    #[test]
    fn a_hosted_key_is_named_by_its_number() {
        let key = github_key("Foo", "Bar.git", 7);
        assert_eq!(key, github_key("foo", "bar", 7));
        assert_eq!(key.to_string(), "foo/bar#7");
        assert_eq!(key.id(), "pr-7");
        assert_eq!(key.ref_prefix(), "refs/review-tui/pr/7");
        assert_eq!(key.display_number(), "#7");
    }

    #[test]
    fn empty_parts_are_refused() {
        let SpaceKey::Hosted(mut pr) = github_key("o", "x", 1) else {
            unreachable!()
        };
        pr.owner = " ".into();
        assert!(matches!(
            SpaceKey::hosted(pr),
            Err(KeyError::Empty { what: "owner" })
        ));
    }

    /// Keys as the GitHub-only releases wrote them (no `site`) read back as the same key, and
    /// a new key is written with every field the old ones had, so an older binary reads it too.
    #[test]
    fn keys_written_before_forges_were_a_port_read_back_the_same() {
        let old = r#"{"forge":"github","host":"github.com","owner":"o","repo":"r","number":3}"#;
        let key: SpaceKey = serde_json::from_str(old).unwrap();
        assert_eq!(key, github_key("o", "r", 3));
        let ghe = r#"{"forge":"github","host":"ghe.corp","owner":"o","repo":"r","number":1}"#;
        let SpaceKey::Hosted(pr) = serde_json::from_str::<SpaceKey>(ghe).unwrap() else {
            panic!("not hosted");
        };
        assert_eq!(pr.site, "github-ghe.corp");

        let written: serde_json::Value = serde_json::to_value(&key).unwrap();
        let old: serde_json::Value = serde_json::from_str(old).unwrap();
        for (field, value) in old.as_object().unwrap() {
            assert_eq!(&written[field], value, "{field}");
        }
        assert_eq!(written["site"], "github");

        let local = r#"{"forge":"local","repo":"/r","base":"main","head":"x"}"#;
        let key: SpaceKey = serde_json::from_str(local).unwrap();
        assert_eq!(
            key,
            SpaceKey::Local {
                repo: "/r".into(),
                base: "main".into(),
                head: "x".into()
            }
        );
        assert_eq!(
            serde_json::to_value(&key).unwrap(),
            serde_json::from_str::<serde_json::Value>(local).unwrap()
        );
    }

    #[test]
    fn a_key_of_a_forge_this_build_does_not_know_is_refused_unless_it_names_its_site() {
        let unknown = r#"{"forge":"lab","host":"lab.example","owner":"o","repo":"r","number":1}"#;
        let err = serde_json::from_str::<SpaceKey>(unknown).unwrap_err();
        assert!(err.to_string().contains("forge `lab`"), "{err}");
        let named = r#"{"forge":"lab","host":"lab.example","owner":"o","repo":"r","number":1,"site":"lab"}"#;
        let key: SpaceKey = serde_json::from_str(named).unwrap();
        assert_eq!(key.to_string(), "o/r#1");
    }

    #[test]
    fn hash_separates_parts() {
        assert_ne!(short_hash(&[b"ab", b"c"]), short_hash(&[b"a", b"bc"]));
    }
}
