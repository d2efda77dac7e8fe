//! Redaction: the only form in which a secret ever leaves the scanner. Evidence, reports,
//! comments, prompts and logs all carry `redact_secret`'s output, never the secret.

use super::gitleaks_config::default_scanner;
use super::scanner::SecretScanner;

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

/// Replaces every secret the scanner recognizes in `text` by its redaction; returns the text
/// and how many secrets were replaced. Path-scoped rules are applied regardless of path (free
/// text belongs to no file, and over-redacting a prompt costs less than leaking into it).
pub fn redact_text(text: &str, scanner: &SecretScanner) -> (String, usize) {
    let spans = scanner.secret_spans(text, None);
    (splice(text, &spans), spans.len())
}

/// [`redact_text`] with the default set (the built-ins and gitleaks' default rules): for texts
/// that leave the machine or land in a file (a posted review, a report) outside a round's
/// configured scan. The name is older than the default set; it redacts with every default rule.
pub fn redact_builtin(text: &str) -> String {
    redact_text(text, default_scanner()).0
}

/// [`redact_text`] that keeps the line count: a secret spanning lines (a key block) becomes its
/// redaction on its first line and leaves the others empty, so line numbers computed on the
/// original text still point at the same lines.
pub fn redact_text_keeping_lines(text: &str, scanner: &SecretScanner) -> (String, usize) {
    let spans = scanner.secret_spans(text, None);
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for &(start, end) in &spans {
        out.push_str(&text[at..start]);
        let secret = &text[start..end];
        out.push_str(&redact_secret(secret));
        for _ in secret.matches('\n') {
            out.push('\n');
        }
        at = end;
    }
    out.push_str(&text[at..]);
    (out, spans.len())
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
        let (kept, count) = redact_text_keeping_lines(&text, &scanner);
        assert_eq!(count, 1);
        assert_eq!(kept, "before\n----…\n\n\n\nafter");
        assert_eq!(kept.lines().count(), text.lines().count());
        assert_eq!(redact_text(&text, &scanner).0, "before\n----…\nafter");
    }

    #[test]
    fn overlapping_spans_merge() {
        assert_eq!(
            merge_spans(vec![(5, 9), (0, 3), (2, 4), (9, 10)]),
            vec![(0, 4), (5, 9), (9, 10)]
        );
    }
}
