//! How a secret is shown: the only form in which a secret ever leaves the scanner. Evidence,
//! reports, comments, prompts and logs all carry `redact_secret`'s output, never the secret.
//! Where text is redacted is `crate::reviewers::redact`, the one redaction point.

/// Shorter secrets show nothing: four characters of an eight-character password is half of it.
const MIN_LEN_TO_SHOW_PREFIX: usize = 8;
const SHOWN_PREFIX: usize = 4;

/// The first four characters, then `…`; for secrets under eight characters only `…`.
/// The prefix is what lets a person recognize which credential it is (`ghp_…`, `AKIA…`,
/// `sk_l…`); for most formats it is the public type prefix, not secret material.
pub fn redact_secret(secret: &str) -> String {
    if secret.chars().count() < MIN_LEN_TO_SHOW_PREFIX {
        return "…".to_string();
    }
    let prefix: String = secret.chars().take(SHOWN_PREFIX).collect();
    format!("{prefix}…")
}

/// Replaces the given byte spans (sorted, non-overlapping) with their redaction.
pub(crate) fn splice(text: &str, spans: &[(usize, usize)]) -> String {
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for &(start, end) in spans {
        out.push_str(&text[at..start]);
        out.push_str(&redact_secret(&text[start..end]));
        at = end;
    }
    out.push_str(&text[at..]);
    out
}

/// Sorts spans and merges overlapping ones, so two rules matching the same secret redact it once.
pub(crate) fn merge_spans(mut spans: Vec<(usize, usize)>) -> Vec<(usize, usize)> {
    spans.sort_unstable();
    let mut merged: Vec<(usize, usize)> = Vec::with_capacity(spans.len());
    for (start, end) in spans {
        match merged.last_mut() {
            Some(last) if start < last.1 => last.1 = last.1.max(end),
            _ => merged.push((start, end)),
        }
    }
    merged
}

#[cfg(test)]
mod tests {
    use super::super::scanner::SecretScanner;
    use super::*;

    #[test]
    fn shows_four_characters_of_long_secrets_and_nothing_of_short_ones() {
        assert_eq!(
            redact_secret("ghp_abcdefghijklmnopqrstuvwxyz0123456789"),
            "ghp_…"
        );
        assert_eq!(redact_secret("12345678"), "1234…");
        assert_eq!(redact_secret("1234567"), "…");
        assert_eq!(redact_secret(""), "…");
        assert_eq!(redact_secret("ñáéíóúüç"), "ñáéí…");
    }

    #[test]
    fn keeping_lines_keeps_the_line_count() {
        let body = "QUJD".repeat(16);
        let text = format!(
            "before\n-----BEGIN RSA PRIVATE KEY-----\n{body}\n{body}\n-----END RSA PRIVATE KEY-----\nafter"
        );
        let scanner = SecretScanner::builtin();
        let (kept, count) = scanner.redact_keeping_lines(&text);
        assert_eq!(count, 1);
        assert_eq!(kept, "before\n----…\n\n\n\nafter");
        assert_eq!(kept.lines().count(), text.lines().count());
        assert_eq!(scanner.redact(&text).0, "before\n----…\nafter");
    }

    #[test]
    fn overlapping_spans_merge() {
        assert_eq!(
            merge_spans(vec![(5, 9), (0, 3), (2, 4), (9, 10)]),
            vec![(0, 4), (5, 9), (9, 10)]
        );
    }
}
