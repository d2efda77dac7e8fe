//! Which lines hold code: a small per-language lexer that follows comments, strings and
//! docstrings across lines, so a rule does not read `console.log` in a JSDoc `@example` block
//! or `todo!()` in a Python docstring as code, and test-code tracking can count braces that are
//! not inside a string.
//!
//! It is a lexer, not a parser: it knows each language's comment and string delimiters and
//! nothing else. Fed a whole file it is exact for those; fed a hunk it can only assume the
//! hunk starts in code, which is what a hunk almost always does.

use super::{FileDiff, Language, LineKind};

/// What one line turned out to be.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct LineFacts {
    /// Something outside comments and docstrings: a token, or a string that is not a docstring.
    pub has_code: bool,
    /// `{` minus `}` outside comments and strings.
    pub brace_delta: i32,
    /// Index of the first `{` outside comments and strings, if any.
    pub first_open: Option<usize>,
    /// Index of the first `;` outside comments and strings, if any.
    pub first_semicolon: Option<usize>,
}

/// Comment and string syntax of a language family.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Family {
    /// `//` and `/* */`; Rust nests block comments and has raw strings and lifetimes.
    CLike { rust: bool, backtick: bool },
    /// `#` comments, `'`/`"` strings and triple-quoted strings (docstrings when they stand
    /// alone as a statement).
    Python,
    /// `#` comments only (after whitespace or at the start), `'`/`"` strings on one line.
    Hash,
    /// No comment syntax known: every non-blank line is code.
    Plain,
}

impl Family {
    fn of(language: Language) -> Family {
        match language {
            Language::Rust => Family::CLike {
                rust: true,
                backtick: false,
            },
            Language::JavaScript | Language::TypeScript | Language::Go => Family::CLike {
                rust: false,
                backtick: true,
            },
            Language::Java
            | Language::C
            | Language::Cpp
            | Language::CSharp
            | Language::Kotlin
            | Language::Swift
            | Language::Dart
            | Language::Scala
            | Language::ObjectiveC
            | Language::Zig
            | Language::Php => Family::CLike {
                rust: false,
                backtick: false,
            },
            Language::Python => Family::Python,
            Language::Shell
            | Language::Ruby
            | Language::Elixir
            | Language::Yaml
            | Language::Toml => Family::Hash,
            _ => Family::Plain,
        }
    }
}

/// Where the lexer is between characters.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    Code,
    /// Inside `/* */`, at this nesting depth (Rust nests, others stay at 1).
    Block(u32),
    /// Inside a string that can span lines: the closing delimiter, and whether it is a
    /// docstring (which counts as a comment).
    Str {
        close: Close,
        docstring: bool,
    },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Close {
    /// `"` with backslash escapes (Rust strings span lines).
    Double,
    /// A backtick: JS template literals and Go raw strings.
    Backtick,
    /// `"` followed by this many `#` (Rust raw strings; no escapes).
    Raw(usize),
    /// `"""` or `'''` (Python), with escapes.
    Triple(u8),
}

/// Reads a file's lines in order, carrying comment and string state from one to the next.
#[derive(Debug, Clone)]
pub struct CodeLexer {
    family: Family,
    state: State,
}

/// Where the lexer stood when a line began: enough to read that line again on its own (see
/// [`CodeLexer::string_spans`]), without keeping every line's spans.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LineStart(State);

impl LineStart {
    /// Whether the line began in code, not inside a comment or a string that opened above: a
    /// definition on a line that did not is quoted or commented out, not defined.
    pub fn in_code(self) -> bool {
        self.0 == State::Code
    }

    /// Whether the line began inside a string literal that opened above (a raw string, a
    /// template literal, a docstring): its text is the string's data.
    pub fn in_string(self) -> bool {
        matches!(self.0, State::Str { .. })
    }
}

impl Default for LineStart {
    fn default() -> Self {
        LineStart(State::Code)
    }
}

/// Byte ranges of a line inside string literals: their contents, without the quotes.
pub type StringSpans = Vec<std::ops::Range<usize>>;

/// What reading one line carries from step to step.
struct LineRead<'s> {
    facts: LineFacts,
    /// Where the string the lexer is in began on this line.
    open: Option<usize>,
    spans: Option<&'s mut StringSpans>,
}

impl LineRead<'_> {
    /// Keeps `from..to` as a string's contents, when spans are asked for.
    fn span(&mut self, from: usize, to: usize) {
        if let Some(spans) = self.spans.as_deref_mut()
            && from < to
        {
            spans.push(from..to);
        }
    }
}

impl CodeLexer {
    pub fn new(language: Language) -> CodeLexer {
        CodeLexer {
            family: Family::of(language),
            state: State::Code,
        }
    }

    /// Forgets any open comment or string: the next line is taken to start in code (a new
    /// hunk, whose start the lexer did not see).
    pub fn reset(&mut self) {
        self.state = State::Code;
    }

    /// Whether the lexer is inside a comment or docstring at this point (before the next line).
    pub fn in_comment(&self) -> bool {
        matches!(
            self.state,
            State::Block(_)
                | State::Str {
                    docstring: true,
                    ..
                }
        )
    }

    /// Where the lexer stands now, before the next line.
    pub fn start(&self) -> LineStart {
        LineStart(self.state)
    }

    /// The contents of the string literals on `text`, a line that began at `start`: what a
    /// rule about code (a macro call, a `console.log`) must not read as code, since a string
    /// only quotes it (a build script's probe source, a test fixture, a code template).
    pub fn string_spans(language: Language, start: LineStart, text: &str) -> StringSpans {
        let mut lexer = CodeLexer {
            family: Family::of(language),
            state: start.0,
        };
        let mut spans = Vec::new();
        lexer.read(text, Some(&mut spans));
        spans
    }

    /// The line without its trailing line comment (`x = 1  # noqa` → `x = 1  `), read from
    /// code: what a change that only edits a comment leaves of the code.
    pub fn without_line_comment(language: Language, text: &str) -> &str {
        let mut lexer = CodeLexer::new(language);
        let mut line = LineRead {
            facts: LineFacts::default(),
            open: None,
            spans: None,
        };
        let bytes = text.as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            i = match lexer.state {
                State::Block(depth) => lexer.in_block(bytes, i, depth),
                State::Str { close, docstring } => {
                    lexer.in_string(bytes, i, close, docstring, &mut line)
                }
                State::Code => match lexer.in_code(bytes, i, &mut line) {
                    Some(next) => next,
                    None => return &text[..i],
                },
            };
        }
        text
    }

    /// Reads one line (without its newline).
    pub fn line(&mut self, text: &str) -> LineFacts {
        self.read(text, None)
    }

    fn read(&mut self, text: &str, spans: Option<&mut StringSpans>) -> LineFacts {
        let mut line = LineRead {
            facts: LineFacts::default(),
            open: matches!(self.state, State::Str { .. }).then_some(0),
            spans,
        };
        let bytes = text.as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            i = match self.state {
                State::Block(depth) => self.in_block(bytes, i, depth),
                State::Str { close, docstring } => {
                    self.in_string(bytes, i, close, docstring, &mut line)
                }
                State::Code => match self.in_code(bytes, i, &mut line) {
                    Some(next) => next,
                    // A line comment: the rest of the line is not code.
                    None => break,
                },
            };
        }
        if let Some(from) = line.open
            && matches!(self.state, State::Str { .. })
        {
            line.span(from, bytes.len());
        }
        line.facts
    }

    /// One step inside a block comment at `i`: where the next starts.
    fn in_block(&mut self, bytes: &[u8], i: usize, depth: u32) -> usize {
        if bytes[i..].starts_with(b"*/") {
            self.state = if depth > 1 {
                State::Block(depth - 1)
            } else {
                State::Code
            };
            i + 2
        } else if self.nests() && bytes[i..].starts_with(b"/*") {
            self.state = State::Block(depth + 1);
            i + 2
        } else {
            i + 1
        }
    }

    /// One step inside a string closed by `close` at `i`: where the next starts.
    fn in_string(
        &mut self,
        bytes: &[u8],
        i: usize,
        close: Close,
        docstring: bool,
        line: &mut LineRead<'_>,
    ) -> usize {
        let b = bytes[i];
        if !docstring && !b.is_ascii_whitespace() {
            line.facts.has_code = true;
        }
        let closes = match close {
            Close::Double | Close::Triple(_) if b == b'\\' => return i + 2,
            Close::Double => (b == b'"').then_some(1),
            Close::Backtick => (b == b'`').then_some(1),
            Close::Raw(hashes) => (b == b'"'
                && bytes.len() >= i + 1 + hashes
                && bytes[i + 1..i + 1 + hashes].iter().all(|&h| h == b'#'))
            .then_some(1 + hashes),
            Close::Triple(quote) => bytes[i..].starts_with(&[quote; 3]).then_some(3),
        };
        match closes {
            Some(delimiter) => {
                let from = line.open.take().unwrap_or(0);
                line.span(from, i);
                self.state = State::Code;
                i + delimiter
            }
            None => i + 1,
        }
    }

    /// One step in code at `i`: where the next starts, `None` at a line comment.
    fn in_code(&mut self, bytes: &[u8], i: usize, line: &mut LineRead<'_>) -> Option<usize> {
        if bytes[i].is_ascii_whitespace() {
            return Some(i + 1);
        }
        if self.line_comment_at(bytes, i) {
            return None;
        }
        if self.c_like() && bytes[i..].starts_with(b"/*") {
            self.state = State::Block(1);
            return Some(i + 2);
        }
        if let Some(after) = self.string_opens_at(bytes, i, line) {
            line.open = Some(after);
            return Some(after);
        }
        line.facts.has_code = true;
        Some(self.code_token(bytes, i, line))
    }

    /// A string running past this token (a Python triple-quoted one, a Rust raw string) opened
    /// at `i`: where its text starts, the lexer now in it.
    fn string_opens_at(
        &mut self,
        bytes: &[u8],
        i: usize,
        line: &mut LineRead<'_>,
    ) -> Option<usize> {
        if self.family == Family::Python
            && let Some((quote, prefix)) = triple_quote_at(bytes, i)
        {
            // A Python docstring: a triple-quoted string that opens the statement.
            let docstring = bytes[..i].iter().all(|b| b.is_ascii_whitespace());
            line.facts.has_code |= !docstring;
            self.state = State::Str {
                close: Close::Triple(quote),
                docstring,
            };
            return Some(i + prefix + 3);
        }
        let (hashes, after) = self.raw_string_at(bytes, i)?;
        line.facts.has_code = true;
        self.state = State::Str {
            close: Close::Raw(hashes),
            docstring: false,
        };
        Some(after)
    }

    /// The code token at `i` (not whitespace, a comment or a string [`Self::string_opens_at`]
    /// reads): where the next starts.
    fn code_token(&mut self, bytes: &[u8], i: usize, line: &mut LineRead<'_>) -> usize {
        match bytes[i] {
            b'"' if matches!(self.family, Family::CLike { rust: true, .. }) => {
                self.state = State::Str {
                    close: Close::Double,
                    docstring: false,
                };
                line.open = Some(i + 1);
                i + 1
            }
            b'`' if matches!(self.family, Family::CLike { backtick: true, .. }) => {
                self.state = State::Str {
                    close: Close::Backtick,
                    docstring: false,
                };
                line.open = Some(i + 1);
                i + 1
            }
            b'"' => {
                let end = skip_one_line_string(bytes, i, b'"');
                line.span(i + 1, closed_at(bytes, end, b'"'));
                end
            }
            b'\'' => {
                let end = self.single_quote(bytes, i);
                if self.quotes_strings() {
                    line.span(i + 1, closed_at(bytes, end, b'\''));
                }
                end
            }
            b'{' => {
                line.facts.brace_delta += 1;
                line.facts.first_open.get_or_insert(i);
                i + 1
            }
            b'}' => {
                line.facts.brace_delta -= 1;
                i + 1
            }
            b';' => {
                line.facts.first_semicolon.get_or_insert(i);
                i + 1
            }
            // The rest of a word at once: nothing opens inside one (a raw string's or a
            // docstring's prefix only where a token starts).
            b if b.is_ascii_alphanumeric() || b == b'_' => {
                let mut end = i + 1;
                while end < bytes.len()
                    && (bytes[end].is_ascii_alphanumeric() || bytes[end] == b'_')
                {
                    end += 1;
                }
                end
            }
            _ => i + 1,
        }
    }

    /// Whether `'` opens a string (JavaScript, Python, shell) rather than a character literal
    /// or a lifetime.
    fn quotes_strings(&self) -> bool {
        !matches!(
            self.family,
            Family::CLike {
                backtick: false,
                ..
            } | Family::Plain
        )
    }

    fn c_like(&self) -> bool {
        matches!(self.family, Family::CLike { .. })
    }

    fn nests(&self) -> bool {
        matches!(self.family, Family::CLike { rust: true, .. })
    }

    fn line_comment_at(&self, bytes: &[u8], i: usize) -> bool {
        match self.family {
            Family::CLike { .. } => bytes[i..].starts_with(b"//"),
            Family::Python => bytes[i] == b'#',
            // `$#` and `${#x}` are not comments: a comment starts a word.
            Family::Hash => bytes[i] == b'#' && (i == 0 || bytes[i - 1].is_ascii_whitespace()),
            Family::Plain => false,
        }
    }

    /// Rust's `r"…"`, `r#"…"#`, `br"…"` at `i`: the number of `#`, and where its text starts.
    fn raw_string_at(&self, bytes: &[u8], i: usize) -> Option<(usize, usize)> {
        if !self.nests() {
            return None;
        }
        // Only at the start of a token: `bar"` is not a raw string.
        if i > 0 && (bytes[i - 1].is_ascii_alphanumeric() || bytes[i - 1] == b'_') {
            return None;
        }
        let start = if bytes[i..].starts_with(b"br") {
            i + 2
        } else if bytes[i] == b'r' {
            i + 1
        } else {
            return None;
        };
        let hashes = bytes[start..].iter().take_while(|&&b| b == b'#').count();
        (bytes.get(start + hashes) == Some(&b'"')).then_some((hashes, start + hashes + 1))
    }

    /// A `'`: a one-line string (JS, Python, shell), a character literal, or a Rust lifetime.
    fn single_quote(&self, bytes: &[u8], i: usize) -> usize {
        match self.family {
            Family::CLike {
                backtick: false, ..
            } => {
                // `'\n'`, `'x'`, `'é'`: a character; `'a` with no closing quote: a lifetime.
                if bytes.get(i + 1) == Some(&b'\\') {
                    return skip_one_line_string(bytes, i, b'\'');
                }
                let next_char = std::str::from_utf8(&bytes[i + 1..])
                    .ok()
                    .and_then(|rest| rest.chars().next())
                    .map_or(1, char::len_utf8);
                if bytes.get(i + 1 + next_char) == Some(&b'\'') {
                    i + 2 + next_char
                } else {
                    i + 1
                }
            }
            Family::Plain => i + 1,
            _ => skip_one_line_string(bytes, i, b'\''),
        }
    }
}

/// Past a string that ends on its line (`"…"` with escapes); an unclosed one runs to the end.
fn skip_one_line_string(bytes: &[u8], open: usize, quote: u8) -> usize {
    let mut i = open + 1;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => i += 2,
            b if b == quote => return i + 1,
            _ => i += 1,
        }
    }
    bytes.len()
}

/// Where the contents of a one-line string that `skip_one_line_string` ended at `end` stop:
/// before its closing quote, or at the end of the line when it never closed.
fn closed_at(bytes: &[u8], end: usize, quote: u8) -> usize {
    if end > 0 && bytes.get(end - 1) == Some(&quote) && end <= bytes.len() {
        end - 1
    } else {
        end.min(bytes.len())
    }
}

/// A Python triple quote at `i`, after an optional string prefix (`r`, `b`, `f`, `u`, …):
/// the quote byte and the prefix length.
fn triple_quote_at(bytes: &[u8], i: usize) -> Option<(u8, usize)> {
    if i > 0 && (bytes[i - 1].is_ascii_alphanumeric() || bytes[i - 1] == b'_') {
        return None;
    }
    let prefix = bytes[i..]
        .iter()
        .take(2)
        .take_while(|b| matches!(b.to_ascii_lowercase(), b'r' | b'b' | b'f' | b'u'))
        .count();
    let rest = &bytes[i + prefix..];
    [b'"', b'\'']
        .into_iter()
        .find(|&q| rest.starts_with(&[q; 3]))
        .map(|q| (q, prefix))
}

/// Lines longer than this are minified code or data: no rule reads them as code and no parser
/// is worth running on them (a 5 MB one-line bundle cost seconds and hundreds of MB to parse).
pub const MAX_CODE_LINE_BYTES: usize = 20_000;

/// The longest added line of `file` when it is longer than [`MAX_CODE_LINE_BYTES`].
pub fn minified_line(file: &FileDiff) -> Option<usize> {
    file.hunks
        .iter()
        .flat_map(|hunk| hunk.lines.iter())
        .filter(|line| line.kind == LineKind::Added)
        .map(|line| line.text.len())
        .max()
        .filter(|&longest| longest > MAX_CODE_LINE_BYTES)
}

/// For each line of `text`, whether it holds code (see [`LineFacts::has_code`]).
pub fn code_mask(text: &str, language: Language) -> Vec<bool> {
    let mut lexer = CodeLexer::new(language);
    text.lines().map(|line| lexer.line(line).has_code).collect()
}

/// For each line of `text`, whether it holds code and where the lexer stood when it began.
pub fn code_lines(text: &str, language: Language) -> Vec<(bool, LineStart)> {
    let mut lexer = CodeLexer::new(language);
    text.lines()
        .map(|line| {
            let start = lexer.start();
            (lexer.line(line).has_code, start)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The lexer as it read every byte of a word one by one: the oracle of the one that
    /// skips words whole.
    impl CodeLexer {
        fn oracle_read(&mut self, text: &str, mut spans: Option<&mut StringSpans>) -> LineFacts {
            let mut facts = LineFacts::default();
            // Where the string the lexer is in began on this line.
            let mut open = matches!(self.state, State::Str { .. }).then_some(0);
            let mut span = |from: usize, to: usize| {
                if let Some(spans) = spans.as_deref_mut()
                    && from < to
                {
                    spans.push(from..to);
                }
            };
            let bytes = text.as_bytes();
            let mut i = 0;
            // A Python docstring: a triple-quoted string that opens the statement.
            let starts_statement = |at: usize| bytes[..at].iter().all(|b| b.is_ascii_whitespace());
            while i < bytes.len() {
                let b = bytes[i];
                match self.state {
                    State::Block(depth) => {
                        if bytes[i..].starts_with(b"*/") {
                            self.state = if depth > 1 {
                                State::Block(depth - 1)
                            } else {
                                State::Code
                            };
                            i += 2;
                        } else if self.nests() && bytes[i..].starts_with(b"/*") {
                            self.state = State::Block(depth + 1);
                            i += 2;
                        } else {
                            i += 1;
                        }
                    }
                    State::Str { close, docstring } => {
                        if !docstring && !b.is_ascii_whitespace() {
                            facts.has_code = true;
                        }
                        let closes = match close {
                            Close::Double | Close::Triple(_) if b == b'\\' => {
                                i += 2;
                                continue;
                            }
                            Close::Double => (b == b'"').then_some(1),
                            Close::Backtick => (b == b'`').then_some(1),
                            Close::Raw(hashes) => (b == b'"'
                                && bytes.len() >= i + 1 + hashes
                                && bytes[i + 1..i + 1 + hashes].iter().all(|&h| h == b'#'))
                            .then_some(1 + hashes),
                            Close::Triple(quote) => {
                                bytes[i..].starts_with(&[quote; 3]).then_some(3)
                            }
                        };
                        match closes {
                            Some(delimiter) => {
                                span(open.take().unwrap_or(0), i);
                                self.state = State::Code;
                                i += delimiter;
                            }
                            None => i += 1,
                        }
                    }
                    State::Code => {
                        if b.is_ascii_whitespace() {
                            i += 1;
                            continue;
                        }
                        if self.line_comment_at(bytes, i) {
                            break;
                        }
                        if self.c_like() && bytes[i..].starts_with(b"/*") {
                            self.state = State::Block(1);
                            i += 2;
                            continue;
                        }
                        if self.family == Family::Python
                            && let Some((quote, prefix)) = triple_quote_at(bytes, i)
                        {
                            let docstring = starts_statement(i);
                            facts.has_code |= !docstring;
                            self.state = State::Str {
                                close: Close::Triple(quote),
                                docstring,
                            };
                            i += prefix + 3;
                            open = Some(i);
                            continue;
                        }
                        if let Some((hashes, after)) = self.raw_string_at(bytes, i) {
                            facts.has_code = true;
                            self.state = State::Str {
                                close: Close::Raw(hashes),
                                docstring: false,
                            };
                            i = after;
                            open = Some(i);
                            continue;
                        }
                        facts.has_code = true;
                        match b {
                            b'"' if matches!(self.family, Family::CLike { rust: true, .. }) => {
                                self.state = State::Str {
                                    close: Close::Double,
                                    docstring: false,
                                };
                                i += 1;
                                open = Some(i);
                            }
                            b'`' if matches!(self.family, Family::CLike { backtick: true, .. }) => {
                                self.state = State::Str {
                                    close: Close::Backtick,
                                    docstring: false,
                                };
                                i += 1;
                                open = Some(i);
                            }
                            b'"' => {
                                let end = skip_one_line_string(bytes, i, b'"');
                                span(i + 1, closed_at(bytes, end, b'"'));
                                i = end;
                            }
                            b'\'' => {
                                let end = self.single_quote(bytes, i);
                                if self.quotes_strings() {
                                    span(i + 1, closed_at(bytes, end, b'\''));
                                }
                                i = end;
                            }
                            b'{' => {
                                facts.brace_delta += 1;
                                facts.first_open.get_or_insert(i);
                                i += 1;
                            }
                            b'}' => {
                                facts.brace_delta -= 1;
                                i += 1;
                            }
                            b';' => {
                                facts.first_semicolon.get_or_insert(i);
                                i += 1;
                            }
                            _ => i += 1,
                        }
                    }
                }
            }
            if let Some(from) = open
                && matches!(self.state, State::Str { .. })
            {
                span(from, bytes.len());
            }
            facts
        }
    }

    proptest::proptest! {
        /// Facts, spans and the state carried to the next line are the byte-by-byte
        /// lexer's, in every language family, from every state a line can start in.
        #[test]
        fn skipping_words_reads_as_the_byte_by_byte_lexer(
            lines in proptest::collection::vec(
                r##"(r#"|br"|r"|"#|rb'''|f"""|u'''|"""|'''|"|'|`|/\*|\*/|//|#|\{|\}|;|\\|[a-z_0-9]{1,4}|é| |\t){0,16}"##,
                1..6,
            ),
            language in proptest::sample::select(vec![
                Language::Rust, Language::Python, Language::Go, Language::JavaScript,
                Language::Java, Language::Shell, Language::Markdown,
            ]),
        ) {
            let mut fast = CodeLexer::new(language);
            let mut oracle = CodeLexer::new(language);
            for line in &lines {
                let (mut fast_spans, mut oracle_spans) = (Vec::new(), Vec::new());
                let facts = fast.read(line, Some(&mut fast_spans));
                let expected = oracle.oracle_read(line, Some(&mut oracle_spans));
                proptest::prop_assert_eq!(facts, expected, "{:?}", line);
                proptest::prop_assert_eq!(fast_spans, oracle_spans, "{:?}", line);
                proptest::prop_assert_eq!(fast.state, oracle.state, "{:?}", line);
            }
        }
    }

    fn mask(language: Language, text: &str) -> Vec<bool> {
        code_mask(text, language)
    }

    #[test]
    fn jsdoc_example_lines_without_a_star_are_comment() {
        let text = "/**\n * Logs.\n * @example\n   console.log(x)\n */\nconsole.log(y)\n";
        assert_eq!(
            mask(Language::JavaScript, text),
            vec![false, false, false, false, false, true]
        );
    }

    #[test]
    fn comment_markers_inside_strings_are_code() {
        let text = "const u = \"http://x/*\";\nfoo();\nlet t = `a\n/* b`;\nbar();";
        assert_eq!(
            mask(Language::TypeScript, text),
            vec![true, true, true, true, true]
        );
    }

    #[test]
    fn python_docstrings_are_comment_but_assigned_triple_strings_are_code() {
        let text = "def f():\n    \"\"\"Run.\n\n    os.system(cmd)\n    \"\"\"\n    q = \"\"\"\n    SELECT 1\n    \"\"\"\n    # print(x)\n";
        assert_eq!(
            mask(Language::Python, text),
            vec![true, false, false, false, false, true, true, true, false]
        );
    }

    #[test]
    fn rust_nested_comments_raw_strings_lifetimes_and_chars() {
        let mut lexer = CodeLexer::new(Language::Rust);
        assert!(!lexer.line("/* outer /* inner */ still").has_code);
        assert!(lexer.in_comment());
        assert!(!lexer.line("done */").has_code);
        let facts = lexer.line("fn f<'a>(x: &'a str) -> char { '{' }");
        assert_eq!(facts.brace_delta, 0, "{facts:?}");
        let facts = lexer.line("let s = r#\"{ \"quoted\" }\"#; if x {");
        assert_eq!(facts.brace_delta, 1, "{facts:?}");
        assert!(lexer.line("let s = \"multi").has_code);
        assert_eq!(lexer.line("line } \" }").brace_delta, -1);
        assert_eq!(lexer.line("/// doc { todo!() }").brace_delta, 0);
        assert!(!lexer.line("   // todo!()").has_code);
    }

    /// The string contents of each line of `text`, as text.
    fn strings(language: Language, text: &str) -> Vec<Vec<String>> {
        code_lines(text, language)
            .into_iter()
            .zip(text.lines())
            .map(|((_, start), line)| {
                CodeLexer::string_spans(language, start, line)
                    .into_iter()
                    .map(|span| line[span].to_string())
                    .collect()
            })
            .collect()
    }

    #[test]
    fn string_contents_are_found_across_lines_and_on_one() {
        // anyhow's build.rs: a probe compiled only to test the toolchain.
        let rust = "const PROBE: &str = r#\"\n    fn f() { unimplemented!() }\n\"#; todo!(\"x\");\nlet c = '\"'; s(\"a\\\"b\", 'q')";
        assert_eq!(
            strings(Language::Rust, rust),
            vec![
                Vec::<String>::new(),
                vec!["    fn f() { unimplemented!() }".to_string()],
                vec!["x".to_string()],
                vec!["a\\\"b".to_string()],
            ]
        );
        let js = "const t = `\nconsole.log(1)\n`; log('a', \"b\")";
        assert_eq!(
            strings(Language::JavaScript, js),
            vec![
                vec![],
                vec!["console.log(1)".to_string()],
                vec!["a".to_string(), "b".to_string()]
            ]
        );
        let python = "CODE = '''\nprint(x)\n'''\nprint('it''s')";
        assert_eq!(
            strings(Language::Python, python),
            vec![
                vec![],
                vec!["print(x)".to_string()],
                vec![],
                vec!["it".to_string(), "s".to_string()]
            ]
        );
    }

    #[test]
    fn shell_hashes_that_are_not_comments() {
        assert_eq!(
            mask(
                Language::Shell,
                "echo $# ${#x}\n  # note\nrm -rf \"$d\" # tidy"
            ),
            vec![true, false, true]
        );
    }
}
