//! Escaping for GitHub-flavoured Markdown. Everything that came from the pull request, a model
//! or a tool (paths, titles, evidence, tool and reviewer names, notes) is untrusted: on GitHub,
//! and in the local `review.md`, it must read as the text it is, never as a heading, an alert,
//! a link, a mention, raw HTML (a `<!--` that hides the rest of the summary, a `</details>`
//! that closes ours) or a way out of a code span or block.
//!
//! Three shapes: [`prose`] for text (inline code spans in it are kept, everything else is
//! escaped), [`inline`] for one line of it, [`code`] for a literal (a path, a rule id) as a code
//! span. Code blocks get a fence longer than any backtick run in them
//! (`crate::report::fields::fence_for`).

/// A zero-width space: breaks a mention, an autolink or an issue reference without changing
/// what the reader sees.
const ZWSP: char = '\u{200B}';

/// Text, line by line: inline code spans (a backtick run closed by the same run on the same
/// line) are kept as they are; everything else is escaped.
pub(crate) fn prose(text: &str) -> String {
    text.split('\n')
        .map(|line| line_of_prose(line.trim_end_matches('\r')))
        .collect::<Vec<_>>()
        .join("\n")
}

/// One line of text: newlines and other control characters shown escaped, then [`prose`].
pub(crate) fn inline(text: &str) -> String {
    prose(&visible(text.trim()))
}

/// `text` as a code span that shows it literally: control characters shown escaped, a fence of
/// backticks longer than any run inside.
pub(crate) fn code(text: &str) -> String {
    // A code span shows `<!--` literally, but a reader of the raw body (a marker scan, another
    // bot) would not know that: break it with a zero-width space.
    let text = visible(text).replace("<!--", "<\u{200B}!--");
    if text.is_empty() {
        return "` `".into();
    }
    let fence = "`".repeat(longest_run(&text, '`') + 1);
    let pad = text.starts_with('`')
        || text.ends_with('`')
        || (text.starts_with(' ') && text.ends_with(' ') && !text.trim().is_empty());
    if pad {
        format!("{fence} {text} {fence}")
    } else {
        format!("{fence}{text}{fence}")
    }
}

/// Control characters, line breaks and bidirectional overrides as visible escapes (`\n`,
/// `\u{1b}`, `\u{202e}`): on one line, nothing can be hidden or reordered.
pub(crate) fn visible(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push(' '),
            c if c.is_control() || is_bidi(c) => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
            c => out.push(c),
        }
    }
    out
}

fn is_bidi(c: char) -> bool {
    matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}' | '\u{200E}' | '\u{200F}')
}

fn longest_run(text: &str, of: char) -> usize {
    text.split(|c| c != of).map(str::len).max().unwrap_or(0)
}

fn line_of_prose(line: &str) -> String {
    let mut out = String::with_capacity(line.len() + 8);
    let chars: Vec<char> = line.chars().collect();
    let mut i = 0;
    let mut at_start = true;
    while i < chars.len() {
        if chars[i] == '`' {
            let run = chars[i..].iter().take_while(|c| **c == '`').count();
            if let Some(end) = closing_run(&chars, i + run, run) {
                let span: String = chars[i..end + run].iter().collect();
                out.push_str(&span);
                i = end + run;
                at_start = false;
                continue;
            }
            for _ in 0..run {
                out.push_str("\\`");
            }
            i += run;
            at_start = false;
            continue;
        }
        let c = chars[i];
        if at_start {
            if c == ' ' {
                // Four spaces would make an indented code block, which we did not write.
                out.push(' ');
                i += 1;
                continue;
            }
            at_start = false;
            // A list marker, a setext underline or an ordered list number at the start.
            if matches!(c, '-' | '+' | '=') {
                out.push('\\');
                out.push(c);
                i += 1;
                continue;
            }
            if c.is_ascii_digit() {
                let digits = chars[i..].iter().take_while(|d| d.is_ascii_digit()).count();
                if matches!(chars.get(i + digits), Some('.') | Some(')')) {
                    out.extend(&chars[i..i + digits]);
                    out.push('\\');
                    out.push(chars[i + digits]);
                    i += digits + 1;
                    continue;
                }
            }
        }
        let next = chars.get(i + 1).copied();
        match c {
            // As entities, not backslashes: no `<!--` is left in the text for anything that
            // reads it raw.
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '\\' | '*' | '_' | '[' | ']' | '#' | '|' | '~' | '!' | '$' | '^' => {
                out.push('\\');
                out.push(c);
                // `#123` links an issue even escaped: break the reference itself.
                if c == '#' && next.is_some_and(|n| n.is_ascii_digit()) {
                    out.push(ZWSP);
                }
            }
            '&' => out.push_str("&amp;"),
            '@' => {
                out.push('@');
                if next.is_some_and(|n| n.is_alphanumeric() || n == '-' || n == '_') {
                    out.push(ZWSP);
                }
            }
            ':' if chars.get(i + 1..i + 3) == Some(&['/', '/'][..]) => {
                // `https://…` autolinks on GitHub: not a link we chose to post.
                out.push_str(":/");
                out.push(ZWSP);
                out.push('/');
                i += 3;
                continue;
            }
            '.' if ends_with_www(&out) => {
                out.push(ZWSP);
                out.push('.');
            }
            c if c.is_control() || is_bidi(c) => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
            c => out.push(c),
        }
        i += 1;
    }
    out
}

/// The end of a code span opened by a run of `run` backticks at `from`: the next run of exactly
/// that length on the line.
fn closing_run(chars: &[char], from: usize, run: usize) -> Option<usize> {
    let mut i = from;
    while i < chars.len() {
        if chars[i] == '`' {
            let len = chars[i..].iter().take_while(|c| **c == '`').count();
            if len == run {
                return Some(i);
            }
            i += len;
        } else {
            i += 1;
        }
    }
    None
}

fn ends_with_www(out: &str) -> bool {
    let lower = out.to_ascii_lowercase();
    lower.ends_with("www")
        && !lower[..lower.len() - 3]
            .chars()
            .last()
            .is_some_and(|c| c.is_alphanumeric())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn html_comments_details_and_headings_are_text() {
        let hostile = "x\n<!-- review-tui:fp=aaaa -->\n</details>\n# Approved\n> [!NOTE]\n- item";
        let safe = prose(hostile);
        assert!(!safe.contains("<!--"), "{safe}");
        assert!(!safe.contains("</details>"), "{safe}");
        for line in safe.lines().skip(1) {
            assert!(
                line.starts_with('\\') || line.starts_with('&'),
                "{line:?} in {safe}"
            );
        }
    }

    #[test]
    fn mentions_links_and_issue_references_are_broken() {
        let safe = prose("ping @acme/security see https://evil.example and www.evil.example #12");
        assert!(!safe.contains("@acme"), "{safe}");
        assert!(!safe.contains("https://"), "{safe}");
        assert!(!safe.contains("www."), "{safe}");
        assert!(!safe.contains("#12"), "{safe}");
        assert!(safe.contains("@\u{200B}acme"), "{safe}");
        assert!(!prose("[click](javascript:x)").contains("[click]"));
    }

    #[test]
    fn code_spans_in_text_are_kept_and_a_stray_backtick_cannot_open_one() {
        assert_eq!(prose("`unwrap()` can panic"), "`unwrap()` can panic");
        assert_eq!(prose("a ` b"), "a \\` b");
        assert_eq!(prose("2 * 3 = 6"), "2 \\* 3 = 6");
        assert_eq!(prose("1. first"), "1\\. first");
        assert_eq!(prose("AT&T"), "AT&amp;T");
    }

    #[test]
    fn a_code_span_holds_anything_on_one_line() {
        assert_eq!(code("src/lib.rs"), "`src/lib.rs`");
        assert_eq!(code("a`b"), "``a`b``");
        assert_eq!(code("`x"), "`` `x ``");
        let name = code("evil\n<!-- review-tui:fp=aaaa -->\x1b[31m");
        assert!(!name.contains('\n') && !name.contains('\x1b'), "{name}");
        assert!(name.starts_with('`') && name.ends_with('`'));
        assert_eq!(inline("title\n# heading"), "title\\\\n\\# heading");
        assert_eq!(visible("a\u{202E}b"), "a\\u{202e}b");
    }
}
