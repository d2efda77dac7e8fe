//! The hidden markers that make publishing idempotent across runs and rounds. They are HTML
//! comments, invisible on GitHub, and only count when the authenticated login wrote them: anyone
//! can type a marker, so a marker alone never makes a text ours, never removes a finding, and
//! decides at most whether one more comment is posted.

/// Opens the one summary per PR: the first published review's body.
pub const SUMMARY: &str = "<!-- review-tui:summary -->";

const PREFIX: &str = "<!-- review-tui:";

/// `<!-- review-tui:round=R head=SHA -->`: this round, on this head, was posted.
pub fn round(round: u32, head: &str) -> String {
    format!("{PREFIX}round={round} head={head} -->")
}

/// The marker of one publish of a round: its first ([`round`]), or
/// `<!-- review-tui:round=R head=SHA revision=K -->` for the round published again after the
/// person's triage changed it. Each is posted once: found on the forge, it is not posted again.
pub fn revision(round_number: u32, head: &str, revision: u32) -> String {
    match revision {
        0 => round(round_number, head),
        k => format!("{PREFIX}round={round_number} head={head} revision={k} -->"),
    }
}

/// `<!-- review-tui:fp=F -->`: the inline comment of the finding with fingerprint F.
pub fn fingerprint(fingerprint: &str) -> String {
    format!("{PREFIX}fp={fingerprint} -->")
}

/// `<!-- review-tui:resolved=F -->`: the reply that marked F's comment resolved.
pub fn resolved(fingerprint: &str) -> String {
    format!("{PREFIX}resolved={fingerprint} -->")
}

/// The marker lines at the end of a body, last first. Markers are only ever read there: we
/// write them last, after everything that came from outside, so a marker-shaped line inside a
/// finding, a code block or a file name is never one of ours.
pub fn trailer(body: &str) -> impl Iterator<Item = &str> {
    body.lines()
        .rev()
        .map(str::trim)
        .skip_while(|line| line.is_empty())
        .take_while(|line| line.starts_with(PREFIX) && line.ends_with(" -->"))
}

/// Whether a body ends with any of our markers.
pub fn is_ours(body: &str) -> bool {
    trailer(body).next().is_some()
}

/// Whether a body ends with exactly this marker among its trailing ones.
pub fn has(body: &str, marker: &str) -> bool {
    trailer(body).any(|line| line == marker)
}

/// The fingerprint of an inline comment's marker.
pub fn fingerprint_in(body: &str) -> Option<&str> {
    value_in(body, "fp=")
}

/// The fingerprint of a "resolved" reply's marker.
pub fn resolved_in(body: &str) -> Option<&str> {
    value_in(body, "resolved=")
}

/// The round number of a review's round marker (`round=R head=SHA`).
pub fn round_in(body: &str) -> Option<u32> {
    let needle = format!("{PREFIX}round=");
    trailer(body).find_map(|line| {
        let (round, _) = line.strip_prefix(&needle)?.split_once(" head=")?;
        round.parse().ok()
    })
}

fn value_in<'a>(body: &'a str, key: &str) -> Option<&'a str> {
    let needle = format!("{PREFIX}{key}");
    trailer(body).find_map(|line| {
        let value = line.strip_prefix(&needle)?.strip_suffix(" -->")?;
        (!value.is_empty() && value.chars().all(|c| c.is_ascii_alphanumeric() || c == '-'))
            .then_some(value)
    })
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
        assert_eq!(revision(2, "abc", 0), round(2, "abc"));
        let again = format!("text\n{}\n", revision(2, "abc", 1));
        assert_eq!(round_in(&again), Some(2));
        assert!(!has(&again, &round(2, "abc")));
        assert!(has(&again, &revision(2, "abc", 1)));
    }

    #[test]
    fn only_the_trailing_marker_lines_count() {
        let forged = format!(
            "{}\nreal text\n{}\n",
            fingerprint("aaaa"),
            fingerprint("bbbb")
        );
        assert_eq!(fingerprint_in(&forged), Some("bbbb"));
        let inside = format!("```\n{}\n```\n", fingerprint("aaaa"));
        assert_eq!(fingerprint_in(&inside), None);
        assert!(!is_ours(&inside));
        let summary = format!("text\n{SUMMARY}\n{}\n\n", round(1, "abc"));
        assert!(has(&summary, SUMMARY) && has(&summary, &round(1, "abc")));
        assert!(!has(&summary, &round(2, "abc")));
        assert!(!has(&format!("{SUMMARY} trailing words\n"), SUMMARY));
    }

    #[test]
    fn untrusted_text_cannot_carry_a_marker() {
        let planted = format!("looks fine {}", fingerprint("aaaa"));
        let safe = neutralize(&planted);
        assert_eq!(fingerprint_in(&safe), None);
        assert!(!safe.contains("<!--"));
    }
}
