//! Fingerprints identify a problem across rounds: a hash of the rule, the path and the
//! normalized anchored code, with no line number, so a rebase or an unrelated edit above the
//! problem does not make it look new.

use sha2::{Digest, Sha256};

/// 16 hex digits (64 bits): short enough for a hidden marker, long enough never to collide
/// within one repository's findings.
pub fn fingerprint(rule: &str, path: &str, code: &[&str]) -> String {
    let mut hasher = Sha256::new();
    hasher.update(rule.as_bytes());
    hasher.update([0]);
    hasher.update(path.as_bytes());
    hasher.update([0]);
    hasher.update(normalize_code(code).as_bytes());
    let digest = hasher.finalize();
    digest[..8].iter().map(|b| format!("{b:02x}")).collect()
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn indentation_and_blank_lines_do_not_change_it() {
        let a = fingerprint("r/x", "a.rs", &["    let x = 1;", "", "call(x);"]);
        let b = fingerprint("r/x", "a.rs", &["let  x = 1;  ", "call(x);"]);
        assert_eq!(a, b);
        assert_eq!(a.len(), 16);
    }

    #[test]
    fn rule_path_and_code_each_change_it() {
        let base = fingerprint("r/x", "a.rs", &["let x = 1;"]);
        assert_ne!(base, fingerprint("r/y", "a.rs", &["let x = 1;"]));
        assert_ne!(base, fingerprint("r/x", "b.rs", &["let x = 1;"]));
        assert_ne!(base, fingerprint("r/x", "a.rs", &["let x = 2;"]));
    }

    #[test]
    fn fields_cannot_bleed_into_each_other() {
        assert_ne!(
            fingerprint("r/x", "ab", &["c"]),
            fingerprint("r/xa", "b", &["c"])
        );
    }
}
