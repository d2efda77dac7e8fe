//! Go RE2 patterns (what gitleaks configurations are written in) translated to the `regex`
//! crate's dialect. The two are close; the differences that matter are the ones that would
//! silently change what matches rather than fail to compile:
//! - `\w`, `\d`, `\s`, `\b` are ASCII in RE2 and Unicode in `regex`. Unicode classes also make
//!   patterns like `[\w.-]{0,50}` compile into huge automata. They are rewritten to the ASCII
//!   sets RE2 means.
//! - RE2 reads `{` that does not start a valid repetition (`${VAR}`, `{{ x }}`) as a literal;
//!   `regex` rejects it. Such braces are escaped.
//! - Inside a class, `regex` treats `[`, `&&`, `--` and `~~` as nested classes and set
//!   operations; RE2 reads them literally. They are escaped.
//! - `\Q…\E` quoting exists only in RE2; it becomes escaped literals.
//!
//! Everything else (`(?i)` anywhere, `(?s:.)`, `\z`, `\x60`, `\pL`) means the same in both.

use regex::{Regex, RegexBuilder};
use thiserror::Error;

/// Why an RE2 pattern (a gitleaks rule's) cannot be used here.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub(super) enum Re2Error {
    #[error("trailing backslash")]
    TrailingBackslash,
    #[error(r"`\C` (any byte) has no equivalent")]
    AnyByte,
    #[error("unclosed character class")]
    UnclosedClass,
    /// The translation does not compile (or is over the size limit): the regex crate's last line.
    #[error("{0}")]
    Compile(String),
}

/// Compiled program size budget. The default (10 MiB) is enough for the ASCII-translated
/// gitleaks rules; the margin is for user configurations with large bounded repetitions.
const SIZE_LIMIT: usize = 64 << 20;

/// Translates and compiles one RE2 pattern.
pub(super) fn compile(pattern: &str) -> Result<Regex, Re2Error> {
    compile_translated(&translate(pattern)?)
}

/// Compiles a pattern [`translate`] made.
pub(super) fn compile_translated(translated: &str) -> Result<Regex, Re2Error> {
    RegexBuilder::new(translated)
        .size_limit(SIZE_LIMIT)
        .build()
        .map_err(|e| Re2Error::Compile(one_line(&e.to_string())))
}

/// The `regex` crate's error messages draw the pattern over several lines; a load report wants
/// one line per problem.
fn one_line(message: &str) -> String {
    message
        .lines()
        .map(str::trim)
        .rfind(|l| !l.is_empty())
        .unwrap_or(message)
        .to_string()
}

const WORD: &str = "0-9A-Za-z_";
const DIGIT: &str = "0-9";
const SPACE: &str = r"\t\n\f\r ";

pub(super) fn translate(pattern: &str) -> Result<String, Re2Error> {
    let chars: Vec<char> = pattern.chars().collect();
    let mut out = String::with_capacity(pattern.len() + 16);
    let mut i = 0;
    // Position in the current class: None outside, Some(n) = n items emitted so far.
    let mut class: Option<usize> = None;
    while i < chars.len() {
        let c = chars[i];
        match class {
            None => match c {
                '\\' => {
                    let Some(&next) = chars.get(i + 1) else {
                        return Err(Re2Error::TrailingBackslash);
                    };
                    i += 2;
                    match next {
                        'w' => out.push_str(&format!("[{WORD}]")),
                        'W' => out.push_str(&format!("[^{WORD}]")),
                        'd' => out.push_str(&format!("[{DIGIT}]")),
                        'D' => out.push_str(&format!("[^{DIGIT}]")),
                        's' => out.push_str(&format!("[{SPACE}]")),
                        'S' => out.push_str(&format!("[^{SPACE}]")),
                        'b' => out.push_str(r"(?-u:\b)"),
                        'B' => out.push_str(r"(?-u:\B)"),
                        'C' => return Err(Re2Error::AnyByte),
                        'Q' => i = quote(&chars, i, &mut out),
                        other => {
                            out.push('\\');
                            out.push(other);
                        }
                    }
                    continue;
                }
                '[' => {
                    out.push('[');
                    i += 1;
                    if chars.get(i) == Some(&'^') {
                        out.push('^');
                        i += 1;
                    }
                    class = Some(0);
                    continue;
                }
                '{' => match repetition(&chars, i) {
                    Some(end) => {
                        out.extend(&chars[i..=end]);
                        i = end + 1;
                        continue;
                    }
                    None => out.push_str(r"\{"),
                },
                '}' => out.push_str(r"\}"),
                other => out.push(other),
            },
            Some(n) => {
                match c {
                    ']' if n == 0 => out.push_str(r"\]"),
                    ']' => {
                        out.push(']');
                        class = None;
                        i += 1;
                        continue;
                    }
                    '[' if chars.get(i + 1) == Some(&':') => {
                        // A POSIX class such as `[:alpha:]` means the same in both.
                        let end = (i + 2..chars.len().saturating_sub(1))
                            .find(|&j| chars[j] == ':' && chars[j + 1] == ']');
                        match end {
                            Some(end) => {
                                out.extend(&chars[i..=end + 1]);
                                i = end + 2;
                                class = Some(n + 1);
                                continue;
                            }
                            None => out.push_str(r"\["),
                        }
                    }
                    '[' => out.push_str(r"\["),
                    '&' | '~' => {
                        out.push('\\');
                        out.push(c);
                    }
                    '-' if out.ends_with('-') && !out.ends_with(r"\-") => out.push_str(r"\-"),
                    '\\' => {
                        let Some(&next) = chars.get(i + 1) else {
                            return Err(Re2Error::TrailingBackslash);
                        };
                        i += 2;
                        match next {
                            'w' => out.push_str(WORD),
                            'd' => out.push_str(DIGIT),
                            's' => out.push_str(SPACE),
                            'W' => out.push_str("[:^word:]"),
                            'D' => out.push_str("[:^digit:]"),
                            'S' => out.push_str(r"[^\t\n\f\r ]"),
                            other => {
                                out.push('\\');
                                out.push(other);
                            }
                        }
                        class = Some(n + 1);
                        continue;
                    }
                    other => out.push(other),
                }
                class = Some(n + 1);
            }
        }
        i += 1;
    }
    if class.is_some() {
        return Err(Re2Error::UnclosedClass);
    }
    Ok(out)
}

/// `\Q…\E`: everything up to `\E` (or the end) is literal. Returns the index after it.
fn quote(chars: &[char], start: usize, out: &mut String) -> usize {
    let mut i = start;
    while i < chars.len() {
        if chars[i] == '\\' && chars.get(i + 1) == Some(&'E') {
            return i + 2;
        }
        out.push_str(&regex::escape(&chars[i].to_string()));
        i += 1;
    }
    i
}

/// The index of the closing `}` when `{` at `start` opens `{n}`, `{n,}` or `{n,m}`.
fn repetition(chars: &[char], start: usize) -> Option<usize> {
    let mut i = start + 1;
    let digits = |i: &mut usize| {
        let from = *i;
        while chars.get(*i).is_some_and(char::is_ascii_digit) {
            *i += 1;
        }
        *i > from
    };
    if !digits(&mut i) {
        return None;
    }
    if chars.get(i) == Some(&',') {
        i += 1;
        digits(&mut i);
    }
    (chars.get(i) == Some(&'}')).then_some(i)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn perl_classes_become_ascii_like_in_re2() {
        let re = compile(r"^\w+\s\d$").unwrap();
        assert!(re.is_match("abc_1 7"));
        assert!(!re.is_match("é 7"), "RE2's \\w is ASCII");
        let in_class = compile(r"^[\w.-]+$").unwrap();
        assert!(in_class.is_match("a.b-c_d"));
        assert!(!in_class.is_match("ü"));
    }

    #[test]
    fn braces_that_are_not_repetitions_are_literal() {
        let re = compile(r"^\${(?:[A-Z_]+)}$").unwrap();
        assert!(re.is_match("${HOME}"));
        let template = compile(r"['\x22]?\$?{{[^}]+}}").unwrap();
        assert!(template.is_match("{{ secret }}"));
        let counted = compile(r"^a{2,3}$").unwrap();
        assert!(counted.is_match("aaa") && !counted.is_match("a{2,3}"));
    }

    #[test]
    fn class_edge_cases_read_literally() {
        let re = compile(r"^[^]]+]$").unwrap();
        assert!(re.is_match("abc]"));
        let ops = compile(r"^[a&&b~~]+$").unwrap();
        assert!(ops.is_match("&&~~ab"));
        let range_to_dash = compile(r"^[+--]+$").unwrap();
        assert!(range_to_dash.is_match("+,-"));
        let posix = compile(r"^[[:alpha:]]+$").unwrap();
        assert!(posix.is_match("abc"));
    }

    #[test]
    fn word_boundaries_are_ascii_and_end_of_text_is_kept() {
        let re = compile(r"\bkey\z").unwrap();
        assert!(re.is_match("a key"));
        assert!(!re.is_match("key\n"));
        assert!(compile(r"\Qa.b\E$").unwrap().is_match("xa.b"));
    }

    #[test]
    fn untranslatable_patterns_say_why() {
        assert!(compile(r"\C").unwrap_err().to_string().contains("any byte"));
        assert!(compile(r"(?=x)").is_err());
        assert!(
            compile(r"[abc")
                .unwrap_err()
                .to_string()
                .contains("unclosed")
        );
    }
}
