//! The hidden markers that make publishing idempotent across runs and rounds. They are HTML
//! comments, invisible on GitHub, and only count when the publishing login wrote them: a marker
//! decides at most whether one more comment is posted, never whether a finding is reported.

/// Opens the one summary per PR: the first published review's body.
pub const SUMMARY: &str = "<!-- review-tui:summary -->";

const PREFIX: &str = "<!-- review-tui:";

/// `<!-- review-tui:round=R head=SHA -->`: this round, on this head, was posted.
pub fn round(round: u32, head: &str) -> String {
    format!("{PREFIX}round={round} head={head} -->")
}

/// `<!-- review-tui:fp=F -->`: the inline comment of the finding with fingerprint F.
pub fn fingerprint(fingerprint: &str) -> String {
    format!("{PREFIX}fp={fingerprint} -->")
}

/// `<!-- review-tui:resolved=F -->`: the reply that marked F's comment resolved.
pub fn resolved(fingerprint: &str) -> String {
    format!("{PREFIX}resolved={fingerprint} -->")
}

/// Whether a body carries any of our markers.
pub fn is_ours(body: &str) -> bool {
    body.contains(PREFIX)
}

/// The fingerprint of an inline comment's marker.
pub fn fingerprint_in(body: &str) -> Option<&str> {
    value_in(body, "fp=")
}

/// The fingerprint of a "resolved" reply's marker.
pub fn resolved_in(body: &str) -> Option<&str> {
    value_in(body, "resolved=")
}

fn value_in<'a>(body: &'a str, key: &str) -> Option<&'a str> {
    let needle = format!("{PREFIX}{key}");
    let start = body.find(&needle)? + needle.len();
    let rest = &body[start..];
    let end = rest.find(" -->")?;
    let value = &rest[..end];
    (!value.is_empty() && value.chars().all(|c| c.is_ascii_alphanumeric() || c == '-'))
        .then_some(value)
}

/// Text that came from a reviewer (a model, a scanner, a PR) is untrusted: it must not be able
/// to plant one of our markers, or any other hidden HTML comment, in what we post.
pub fn neutralize(untrusted: &str) -> String {
    untrusted.replace("<!--", "&lt;!--")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markers_round_trip_and_only_their_exact_shape_is_read() {
        let body = format!("text\n{}\n", fingerprint("0123abcd0123abcd"));
        assert_eq!(fingerprint_in(&body), Some("0123abcd0123abcd"));
        assert_eq!(resolved_in(&resolved("ff00")), Some("ff00"));
        assert_eq!(fingerprint_in("<!-- review-tui:fp=bad value -->"), None);
        assert_eq!(fingerprint_in("<!-- review-tui:fp= -->"), None);
        assert!(round(2, "abc").contains("round=2 head=abc"));
    }

    #[test]
    fn untrusted_text_cannot_carry_a_marker() {
        let planted = format!("looks fine {}", fingerprint("aaaa"));
        let safe = neutralize(&planted);
        assert_eq!(fingerprint_in(&safe), None);
        assert!(!safe.contains("<!--"));
    }
}
