//! What a fingerprint is made of and the hash itself: a rule, a path and the normalized
//! anchored code. Its own module because a finding carries its [`Print`] and the fingerprint
//! module settles findings: both use this, neither the other.

use std::borrow::Cow;

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
pub(crate) fn normalize_code(code: &[&str]) -> String {
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

/// One line normalized as [`normalize_code`] normalizes it, borrowed when it already is
/// (trimmed, one space between words), as most lines of code are: a scan normalizing every
/// line of a 100k-line diff allocated each one.
pub(crate) fn normalize_line(line: &str) -> Cow<'_, str> {
    let trimmed = line.trim();
    let mut after_space = false;
    for &byte in trimmed.as_bytes() {
        match byte {
            b' ' if after_space => return Cow::Owned(normalize_code(&[line])),
            b' ' => after_space = true,
            // The other whitespace `split_whitespace` splits on; beyond ASCII, any of it.
            b'\t' | b'\n' | 0x0B | 0x0C | b'\r' | 0x80.. => {
                return Cow::Owned(normalize_code(&[line]));
            }
            _ => after_space = false,
        }
    }
    Cow::Borrowed(trimmed)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// The borrowed fast path answers as the allocating normalization does, whitespace of
        /// any kind included.
        #[test]
        fn normalize_line_is_normalize_code_of_one_line(
            line in "[a-z(){};\"' \t\r\x0B\x0C\u{85}\u{A0}\u{3000}é]{0,24}"
        ) {
            let (fast, allocating) = (normalize_line(&line), normalize_code(&[&line]));
            prop_assert_eq!(fast.as_ref(), allocating.as_str());
        }
    }

    #[test]
    fn normalize_line_borrows_a_line_already_normal() {
        assert!(matches!(
            normalize_line("  let x = 1;  "),
            Cow::Borrowed("let x = 1;")
        ));
        assert_eq!(normalize_line("let  x\t= 1;"), "let x = 1;");
        assert_eq!(normalize_line("a\u{A0}b"), "a b");
        assert_eq!(normalize_line(" \t "), "");
    }
}
