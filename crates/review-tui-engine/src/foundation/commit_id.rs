//! A commit id as it crosses module boundaries (a forge's PR tips, the commit a review is
//! posted on): 40 (SHA-1) or 64 (SHA-256) hexadecimal digits, lowercase. Parsed once where it
//! comes in (a forge's answer, a resolved local revision), so nothing downstream has to ask
//! whether a string is a commit, an abbreviation or a branch name.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};
use thiserror::Error;

#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct CommitId(String);

/// Why a text is not a full commit id; names the text (cut) and what is expected.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("{shown:?} is not a commit id: expected 40 (SHA-1) or 64 (SHA-256) hexadecimal digits")]
pub struct CommitIdError {
    shown: String,
}

impl CommitId {
    /// Accepts upper- or lowercase hex (a forge may shout); keeps it lowercase.
    pub fn parse(text: &str) -> Result<CommitId, CommitIdError> {
        let valid = matches!(text.len(), 40 | 64) && text.bytes().all(|b| b.is_ascii_hexdigit());
        if valid {
            Ok(CommitId(text.to_ascii_lowercase()))
        } else {
            Err(CommitIdError {
                shown: text.chars().take(80).collect(),
            })
        }
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The first `n` digits, for display (`3f2a9c1`).
    pub fn short(&self, n: usize) -> &str {
        &self.0[..n.min(self.0.len())]
    }
}

impl FromStr for CommitId {
    type Err = CommitIdError;
    fn from_str(text: &str) -> Result<CommitId, CommitIdError> {
        CommitId::parse(text)
    }
}

impl TryFrom<String> for CommitId {
    type Error = CommitIdError;
    fn try_from(text: String) -> Result<CommitId, CommitIdError> {
        CommitId::parse(&text)
    }
}

impl From<CommitId> for String {
    fn from(id: CommitId) -> String {
        id.0
    }
}

impl From<git2::Oid> for CommitId {
    fn from(oid: git2::Oid) -> CommitId {
        CommitId(oid.to_string())
    }
}

impl AsRef<str> for CommitId {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

impl std::ops::Deref for CommitId {
    type Target = str;
    fn deref(&self) -> &str {
        &self.0
    }
}

impl PartialEq<str> for CommitId {
    fn eq(&self, other: &str) -> bool {
        self.0 == other
    }
}

impl PartialEq<&str> for CommitId {
    fn eq(&self, other: &&str) -> bool {
        self.0 == *other
    }
}

impl PartialEq<String> for CommitId {
    fn eq(&self, other: &String) -> bool {
        &self.0 == other
    }
}

impl PartialEq<CommitId> for String {
    fn eq(&self, other: &CommitId) -> bool {
        *self == other.0
    }
}

impl PartialEq<CommitId> for str {
    fn eq(&self, other: &CommitId) -> bool {
        self == other.0
    }
}

impl fmt::Display for CommitId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn full_ids_of_either_hash_are_accepted_and_lowercased() {
        let sha1 = "3F2A9C1D".repeat(5);
        assert_eq!(
            CommitId::parse(&sha1).unwrap().as_str(),
            sha1.to_lowercase()
        );
        assert_eq!(
            CommitId::parse(&"ab".repeat(32)).unwrap().as_str().len(),
            64
        );
        assert_eq!(
            CommitId::parse(&"ab".repeat(20)).unwrap().short(7),
            "abababa"
        );
    }

    #[test]
    fn abbreviations_names_and_junk_are_refused_naming_what_was_given() {
        for bad in [
            "",
            "3f2a9c1",
            "main",
            &"g".repeat(40),
            &"a".repeat(41),
            "HEAD~1",
        ] {
            let error = CommitId::parse(bad).unwrap_err().to_string();
            assert!(error.contains("not a commit id"), "{bad}: {error}");
        }
        let long = "x".repeat(5000);
        assert!(CommitId::parse(&long).unwrap_err().to_string().len() < 200);
    }

    #[test]
    fn it_is_a_string_in_json_and_is_checked_when_read() {
        let id = CommitId::parse(&"0".repeat(40)).unwrap();
        let json = serde_json::to_string(&id).unwrap();
        assert_eq!(json, format!("\"{}\"", "0".repeat(40)));
        assert_eq!(serde_json::from_str::<CommitId>(&json).unwrap(), id);
        assert!(serde_json::from_str::<CommitId>("\"main\"").is_err());
    }
}
