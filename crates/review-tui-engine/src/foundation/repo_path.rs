//! A path inside the repository, spelled one way.
//!
//! A file has many spellings (`./src/a.rs`, `src//a.rs`, `src/./a.rs`, `src/a.rs/`) that the
//! file system resolves to the same file, while anything that compares paths as strings (is this
//! anchor on a changed line? which inline comment is this?) tells them apart. So a path from
//! outside (a reviewer's anchor, a SARIF location, a stored finding) becomes a `RepoPath` where
//! it comes in, and only the canonical spelling exists after that: relative, `/`-separated, no
//! empty, `.` or `..` segment, no trailing `/`. Whether the file exists on its side is the
//! caller's to check (the anchor's grounding reads it), since only it knows which side.

use std::fmt;

use serde::{Deserialize, Deserializer, Serialize};
use thiserror::Error;

/// Why a text is not a path inside the repository.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum PathError {
    #[error("must not be empty")]
    Empty,
    #[error("`{0}` must be relative to the repository root")]
    Absolute(String),
    #[error("contains a NUL byte")]
    Nul,
    #[error("`{0}` must not contain `..`")]
    Climbs(String),
}

/// A repository-relative path in its one canonical spelling (see the module's text).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(transparent)]
pub struct RepoPath(String);

impl RepoPath {
    /// `text` in its canonical spelling, or why it names no file of the repository.
    pub fn parse(text: &str) -> Result<RepoPath, PathError> {
        if text.contains('\0') {
            return Err(PathError::Nul);
        }
        let drive_letter = text.len() >= 2 && text.as_bytes()[1] == b':';
        if text.starts_with('/') || text.starts_with('\\') || drive_letter {
            return Err(PathError::Absolute(text.to_owned()));
        }
        // A backslash is a character of a file name on Unix, but a separator wherever the
        // repository is also checked out on Windows: `..` between either climbs there.
        if text.split(['/', '\\']).any(|part| part == "..") {
            return Err(PathError::Climbs(text.to_owned()));
        }
        let parts: Vec<&str> = text
            .split('/')
            .filter(|part| !part.is_empty() && *part != ".")
            .collect();
        if parts.is_empty() {
            return Err(PathError::Empty);
        }
        Ok(RepoPath(parts.join("/")))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl std::ops::Deref for RepoPath {
    type Target = str;

    fn deref(&self) -> &str {
        &self.0
    }
}

impl AsRef<str> for RepoPath {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for RepoPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl PartialEq<str> for RepoPath {
    fn eq(&self, other: &str) -> bool {
        self.0 == other
    }
}

impl PartialEq<&str> for RepoPath {
    fn eq(&self, other: &&str) -> bool {
        self.0 == *other
    }
}

impl PartialEq<String> for RepoPath {
    fn eq(&self, other: &String) -> bool {
        &self.0 == other
    }
}

impl PartialEq<RepoPath> for String {
    fn eq(&self, other: &RepoPath) -> bool {
        *self == other.0
    }
}

impl PartialEq<RepoPath> for str {
    fn eq(&self, other: &RepoPath) -> bool {
        self == other.0
    }
}

impl PartialEq<RepoPath> for &str {
    fn eq(&self, other: &RepoPath) -> bool {
        *self == other.0
    }
}

/// Read in its canonical spelling, whatever spelling was written: a stored finding, a model's
/// payload and a SARIF location all come through here.
impl<'de> Deserialize<'de> for RepoPath {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<RepoPath, D::Error> {
        let text = String::deserialize(deserializer)?;
        RepoPath::parse(&text).map_err(serde::de::Error::custom)
    }
}

impl TryFrom<&str> for RepoPath {
    type Error = PathError;

    fn try_from(text: &str) -> Result<RepoPath, PathError> {
        RepoPath::parse(text)
    }
}

impl TryFrom<String> for RepoPath {
    type Error = PathError;

    fn try_from(text: String) -> Result<RepoPath, PathError> {
        RepoPath::parse(&text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_spelling_of_a_file_is_one_path() {
        for spelling in [
            "src/a.rs",
            "./src/a.rs",
            "src//a.rs",
            "src/./a.rs",
            "src/a.rs/",
            "././src///./a.rs//",
        ] {
            assert_eq!(RepoPath::parse(spelling).unwrap(), "src/a.rs", "{spelling}");
        }
    }

    #[test]
    fn what_names_no_file_inside_is_refused() {
        assert_eq!(RepoPath::parse(""), Err(PathError::Empty));
        assert_eq!(RepoPath::parse("./"), Err(PathError::Empty));
        assert!(matches!(
            RepoPath::parse("/etc/passwd"),
            Err(PathError::Absolute(_))
        ));
        assert!(matches!(
            RepoPath::parse("C:\\x"),
            Err(PathError::Absolute(_))
        ));
        assert!(matches!(
            RepoPath::parse("src/../../x"),
            Err(PathError::Climbs(_))
        ));
        assert!(matches!(
            RepoPath::parse("src\\..\\x"),
            Err(PathError::Climbs(_))
        ));
        assert_eq!(RepoPath::parse("a\0b"), Err(PathError::Nul));
    }

    #[test]
    fn it_is_read_canonical_and_written_as_a_string() {
        let path: RepoPath = serde_json::from_str("\"./src//a.rs\"").unwrap();
        assert_eq!(serde_json::to_string(&path).unwrap(), "\"src/a.rs\"");
        assert!(serde_json::from_str::<RepoPath>("\"../x\"").is_err());
    }
}
