//! Text as the cockpit shows it, wherever it is made (a view, a message, the event log):
//! display widths, untrusted text escaped to one line and cut to fit, counts in words, short
//! labels.

use ratatui::text::Span;

use crate::review::Kind;

/// The display width of a string.
pub(crate) fn width(text: &str) -> usize {
    Span::raw(text).width()
}

/// Untrusted text (a path, a title, a reviewer's note) as it may be drawn: control and
/// direction characters shown escaped (`crate::printable`), so it keeps its one line.
pub(crate) fn shown(text: &str) -> String {
    crate::printable::line(text).into_owned()
}

/// `text` cut to `max` columns, with `…` when cut. Escaped first: everything cut to fit is
/// drawn, and most of it comes from the PR or a reviewer.
pub(crate) fn truncate(text: &str, max: usize) -> String {
    let text = &*crate::printable::line(text);
    if width(text) <= max {
        return text.to_string();
    }
    if max == 0 {
        return String::new();
    }
    let mut out = String::new();
    let mut used = 0;
    for c in text.chars() {
        let w = width(c.encode_utf8(&mut [0; 4]));
        if used + w > max - 1 {
            break;
        }
        out.push(c);
        used += w;
    }
    out.push('…');
    out
}

/// `text` padded (or cut) to exactly `columns`.
pub(crate) fn pad(text: &str, columns: usize) -> String {
    let cut = truncate(text, columns);
    let fill = columns.saturating_sub(width(&cut));
    format!("{cut}{}", " ".repeat(fill))
}

/// A finding's kind in the few letters a column has room for.
pub(crate) fn kind_label(kind: Kind) -> &'static str {
    match kind {
        Kind::Bug => "bug",
        Kind::Suggestion => "sugg",
        Kind::Recommendation => "rec",
        Kind::Question => "quest",
        Kind::Ticket => "ticket",
    }
}

/// `1 finding`, `3 findings`.
pub(crate) fn plural(n: usize, word: &str) -> String {
    if n == 1 {
        format!("1 {word}")
    } else {
        format!("{n} {word}s")
    }
}

/// `text` in lines of at most `columns`, broken between words (a word longer than a line is
/// cut across lines). Never empty: an empty text is one empty line.
pub(crate) fn wrap_words(text: &str, columns: usize) -> Vec<String> {
    let columns = columns.max(1);
    let mut lines = vec![String::new()];
    for word in text.split_whitespace() {
        let mut word = word.to_string();
        loop {
            let line = lines.last_mut().expect("never empty");
            let gap = usize::from(!line.is_empty());
            if width(line) + gap + width(&word) <= columns {
                if gap == 1 {
                    line.push(' ');
                }
                line.push_str(&word);
                break;
            }
            if !line.is_empty() {
                lines.push(String::new());
                continue;
            }
            // A word wider than a whole line: as much as fits, the rest on the next.
            let mut head = String::new();
            let mut used = 0;
            for c in word.chars() {
                let w = width(c.encode_utf8(&mut [0; 4]));
                if used + w > columns && !head.is_empty() {
                    break;
                }
                head.push(c);
                used += w;
            }
            let rest = word[head.len()..].to_string();
            line.push_str(&head);
            if rest.is_empty() {
                break;
            }
            lines.push(String::new());
            word = rest;
        }
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrap_words_breaks_between_words_and_cuts_only_a_word_wider_than_a_line() {
        assert_eq!(wrap_words("one two three", 7), vec!["one two", "three"]);
        assert_eq!(wrap_words("", 5), vec![""]);
        assert_eq!(wrap_words("abcdefgh ij", 3), vec!["abc", "def", "gh", "ij"]);
        for line in wrap_words(
            "fold/unfold; open a finding; jump to a disagreement's finding",
            20,
        ) {
            assert!(width(&line) <= 20, "{line}");
        }
    }
}
