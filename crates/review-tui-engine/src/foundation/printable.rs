//! Untrusted text made safe to print: file names, PR titles and bodies, tool output and server
//! messages reach terminals and line-oriented reports, where a raw ESC starts a control
//! sequence (colours, cursor moves, a retitled window, a hyperlink), a CR or LF fakes a line of
//! the report, and a bidi override shows code in another order than it is read.
//!
//! Such characters are shown escaped, never dropped, so the person sees that something odd is
//! there and what: `\x1b[31m`, `\n`, `\u{202e}`. This is the one place that decides what is
//! unsafe; the text report, stderr messages and the cockpit all go through it. (Markdown for
//! GitHub has its own escaping: there the danger is markup, not the terminal.)

use std::borrow::Cow;
use std::fmt::Write as _;

/// `text` on one line: every control character, line break and invisible direction or
/// zero-width character escaped.
pub fn line(text: &str) -> Cow<'_, str> {
    escape(text, |_| false)
}

/// Multi-line `text` (a PR description, tool output): line feeds and tabs are kept, everything
/// else [`line`] escapes is escaped. A CR is escaped too: it returns the cursor and lets a line
/// overwrite what came before it.
pub fn lines(text: &str) -> Cow<'_, str> {
    escape(text, |c| c == '\n' || c == '\t')
}

/// A line-oriented text (the headless report): each pushed line is exactly one line of output,
/// whatever the values formatted into it hold, so a file name cannot fake a line of the report.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Lines(String);

impl Lines {
    pub fn new() -> Lines {
        Lines::default()
    }

    /// Appends `text`, escaped, as one line.
    pub fn line(&mut self, text: impl AsRef<str>) {
        self.0.push_str(&line(text.as_ref()));
        self.0.push('\n');
    }

    /// Appends an empty line.
    pub fn blank(&mut self) {
        self.0.push('\n');
    }

    /// Appends another `Lines`' text (already one line per line).
    pub fn extend(&mut self, other: Lines) {
        self.0.push_str(&other.0);
    }

    pub fn into_string(self) -> String {
        self.0
    }
}

/// Whether `c` is shown escaped by [`line`].
pub fn is_unsafe(c: char) -> bool {
    c.is_control() // C0, DEL and C1 (U+0080..U+009F; U+009B is a one-byte CSI)
        || matches!(c,
            '\u{200B}'..='\u{200F}'     // zero-width characters, LRM, RLM
            | '\u{2028}' | '\u{2029}'   // line and paragraph separators
            | '\u{202A}'..='\u{202E}'   // bidi embeddings and overrides
            | '\u{2060}'..='\u{2064}'   // word joiner and invisible operators
            | '\u{2066}'..='\u{2069}'   // bidi isolates
            | '\u{FEFF}'                // byte-order mark
            | '\u{FFF9}'..='\u{FFFB}'   // interlinear annotations
            | '\u{E0000}'..='\u{E007F}' // tags (invisible ASCII)
        )
}

fn escape(text: &str, keep: impl Fn(char) -> bool) -> Cow<'_, str> {
    if !text.chars().any(|c| is_unsafe(c) && !keep(c)) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if !is_unsafe(c) || keep(c) {
            out.push(c);
            continue;
        }
        match c {
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x100 => {
                let _ = write!(out, "\\x{:02x}", c as u32);
            }
            c => {
                let _ = write!(out, "\\u{{{:x}}}", c as u32);
            }
        }
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_text_is_borrowed_untouched() {
        let text = "src/main.rs: naïve café — 日本語 🚀";
        assert!(matches!(line(text), Cow::Borrowed(t) if t == text));
    }

    #[test]
    fn escapes_and_breaks_are_shown_not_obeyed() {
        assert_eq!(line("a\x1b[31mred\x1b[0m.rs"), "a\\x1b[31mred\\x1b[0m.rs");
        assert_eq!(line("one\ntwo\r\n"), "one\\ntwo\\r\\n");
        assert_eq!(line("\u{9b}2J"), "\\x9b2J", "the one-byte CSI");
        assert_eq!(line("x\u{7f}"), "x\\x7f");
        assert_eq!(line("admin\u{202e}txt.exe"), "admin\\u{202e}txt.exe");
        assert_eq!(line("a\u{2028}b\u{200b}"), "a\\u{2028}b\\u{200b}");
        assert_eq!(line("tab\there"), "tab\\there");
    }

    #[test]
    fn multi_line_text_keeps_its_lines_but_not_cr_or_escapes() {
        assert_eq!(
            lines("a\n\tb\r\x1b]0;title\x07"),
            "a\n\tb\\r\\x1b]0;title\\x07"
        );
    }

    #[test]
    fn a_value_with_a_newline_stays_on_its_line() {
        let mut out = Lines::new();
        out.line(format!("  M {}  +1", "a\nFAKE  verdict SHIP"));
        out.blank();
        out.line("end");
        assert_eq!(out.into_string(), "  M a\\nFAKE  verdict SHIP  +1\n\nend\n");
    }

    #[test]
    fn no_output_of_line_contains_an_unsafe_character() {
        let nasty: String = (0u32..0x300)
            .chain(0x2000..0x2100)
            .chain(0xE0000..0xE0080)
            .filter_map(char::from_u32)
            .collect();
        let shown = line(&nasty);
        assert!(!shown.chars().any(is_unsafe), "{shown}");
        assert!(
            !lines(&nasty)
                .chars()
                .any(|c| is_unsafe(c) && c != '\n' && c != '\t')
        );
    }
}
