//! What a fingerprint is made of and the hash itself: a rule, a path and the normalized
//! anchored code. Its own module because a finding carries its [`Print`] and the fingerprint
//! module settles findings: both use this, neither the other.

use sha2::{Digest, Sha256};

/// 16 hex digits (64 bits): short enough for a hidden marker, long enough never to collide
/// within one repository's findings.
pub fn fingerprint(rule: &str, path: &str, code: &[&str]) -> String {
    digest(rule, path, &normalize_code(code))
}

fn digest(rule: &str, path: &str, normalized: &str) -> String {
    let mut hasher = Sha256::new();
    hasher.update(rule.as_bytes());
    hasher.update([0]);
    hasher.update(path.as_bytes());
    hasher.update([0]);
    hasher.update(normalized.as_bytes());
    hex(&hasher.finalize())
}

pub(super) fn hex(digest: &[u8]) -> String {
    digest[..8].iter().map(|b| format!("{b:02x}")).collect()
}

/// What a fingerprint is made of, kept on the node (in memory only: the code is the PR's
/// text and may be anything) so [`settle`](super::fingerprint::settle) can make it again under another path.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Print {
    pub rule: String,
    pub path: String,
    /// The anchored code, normalized.
    pub code: String,
}

impl Print {
    pub fn new(rule: &str, path: &str, code: &[&str]) -> Print {
        Print {
            rule: rule.to_string(),
            path: path.to_string(),
            code: normalize_code(code),
        }
    }

    /// The plain print (no occurrence) under `path`.
    pub fn under(&self, path: &str) -> String {
        digest(&self.rule, path, &self.code)
    }
}

/// Whitespace changes (re-indentation, trailing spaces, blank lines) do not change the problem.
pub fn normalize_code(code: &[&str]) -> String {
    let mut out = String::new();
    for line in code {
        let mut words = line.split_whitespace().peekable();
        if words.peek().is_none() {
            continue;
        }
        if !out.is_empty() {
            out.push('\n');
        }
        for (i, word) in words.enumerate() {
            if i > 0 {
                out.push(' ');
            }
            out.push_str(word);
        }
    }
    out
}
