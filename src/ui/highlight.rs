//! Syntax highlighting with syntect, on demand: only the lines the detail pane shows are
//! highlighted, from text already in memory. The syntax is picked by extension (never by
//! reading the file), so highlighting never touches the disk.
//!
//! Highlighting is the dearest part of a diff-view frame (syntect's regexes run per line), so
//! lines are remembered with the parser state they started in and ended in: a line seen again
//! in the same state (a redraw, the view scrolled by a line) is not parsed again, and the
//! pieces are exactly what parsing it would give.

use std::collections::HashMap;
use std::fmt;
use std::sync::{Arc, Mutex, OnceLock};

use ratatui::style::{Color, Style};
use syntect::highlighting::{
    HighlightIterator, HighlightState, Highlighter as ThemeHighlighter, Theme as SyntaxTheme,
    ThemeSet,
};
use syntect::parsing::{ParseState, ScopeStack, SyntaxSet};

fn syntaxes() -> &'static SyntaxSet {
    static SET: OnceLock<SyntaxSet> = OnceLock::new();
    SET.get_or_init(SyntaxSet::load_defaults_newlines)
}

fn themes() -> &'static ThemeSet {
    static SET: OnceLock<ThemeSet> = OnceLock::new();
    SET.get_or_init(ThemeSet::load_defaults)
}

/// A styled piece of a line.
pub type Piece = (Style, String);

/// Where the parser and the highlighter are between two lines.
type States = (ParseState, HighlightState);

/// Most lines remembered; past it the cache starts over (a few screens of code is what redraws
/// and small scrolls need).
const CACHED_LINES: usize = 4096;

struct Remembered {
    start: States,
    end: States,
    pieces: Vec<Piece>,
}

/// Lines highlighted before, by syntax name and text.
#[derive(Default)]
struct LineCache {
    lines: HashMap<(String, String), Vec<Remembered>>,
    count: usize,
}

impl fmt::Debug for LineCache {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "LineCache({} lines)", self.count)
    }
}

#[derive(Debug, Clone)]
pub struct Highlighter {
    /// `None`: plain text (no colours, or an unknown syntect theme).
    theme: Option<&'static SyntaxTheme>,
    /// Shared by clones: they highlight with the same theme.
    cache: Arc<Mutex<LineCache>>,
}

impl Highlighter {
    /// Highlights with the syntect theme `name`; `colors: false` (NO_COLOR) gives plain text.
    pub fn new(name: &str, colors: bool) -> Highlighter {
        Highlighter {
            theme: colors.then(|| themes().themes.get(name)).flatten(),
            cache: Arc::default(),
        }
    }

    pub fn plain() -> Highlighter {
        Highlighter {
            theme: None,
            cache: Arc::default(),
        }
    }

    /// How many lines the cache holds: what a test reads to tell a hit from fresh work.
    #[cfg(test)]
    pub fn cached_lines(&self) -> usize {
        self.cache.lock().unwrap_or_else(|e| e.into_inner()).count
    }

    /// Highlights `lines` (a window of the file at `path`; parsing starts at the window, which
    /// is good enough for a few lines around an anchor).
    pub fn highlight(&self, path: &str, lines: &[String]) -> Vec<Vec<Piece>> {
        let plain = || {
            lines
                .iter()
                .map(|l| vec![(Style::default(), l.clone())])
                .collect()
        };
        let Some(theme) = self.theme else {
            return plain();
        };
        let set = syntaxes();
        let extension = path.rsplit_once('.').map(|(_, ext)| ext).unwrap_or("");
        let Some(syntax) = set.find_syntax_by_extension(extension) else {
            return plain();
        };
        let highlighter = ThemeHighlighter::new(theme);
        let mut parse = ParseState::new(syntax);
        let mut styles = HighlightState::new(&highlighter, ScopeStack::new());
        let mut cache = self.cache.lock().unwrap_or_else(|e| e.into_inner());
        let mut out = Vec::with_capacity(lines.len());
        for line in lines {
            let key = (syntax.name.clone(), line.clone());
            let known = cache.lines.get(&key).and_then(|seen| {
                seen.iter()
                    .find(|r| r.start.0 == parse && r.start.1 == styles)
            });
            if let Some(known) = known {
                (parse, styles) = known.end.clone();
                out.push(known.pieces.clone());
                continue;
            }
            let start = (parse.clone(), styles.clone());
            let with_newline = format!("{line}\n");
            // As `syntect::easy::HighlightLines::highlight_line` does it.
            let ops = match parse.parse_line(&with_newline, set) {
                Ok(ops) => ops,
                Err(_) => {
                    out.push(vec![(Style::default(), line.clone())]);
                    continue;
                }
            };
            let pieces: Vec<Piece> =
                HighlightIterator::new(&mut styles, &ops, &with_newline, &highlighter)
                    .map(|(style, text)| {
                        let fg = style.foreground;
                        (
                            Style::default().fg(Color::Rgb(fg.r, fg.g, fg.b)),
                            text.trim_end_matches('\n').to_string(),
                        )
                    })
                    .filter(|(_, text)| !text.is_empty())
                    .collect();
            if cache.count >= CACHED_LINES {
                *cache = LineCache::default();
            }
            cache.count += 1;
            cache.lines.entry(key).or_default().push(Remembered {
                start,
                end: (parse.clone(), styles.clone()),
                pieces: pieces.clone(),
            });
            out.push(pieces);
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn highlights_rust_by_extension_and_keeps_the_text() {
        let h = Highlighter::new("base16-ocean.dark", true);
        let lines = vec!["fn main() {".to_string(), "    let x = 1;".to_string()];
        let out = h.highlight("src/main.rs", &lines);
        assert_eq!(out.len(), 2);
        let text: String = out[1].iter().map(|(_, t)| t.as_str()).collect();
        assert_eq!(text, "    let x = 1;");
        assert!(out[0].len() > 1, "rust is split into styled pieces");
        let plain = Highlighter::new("base16-ocean.dark", false).highlight("a.rs", &lines);
        assert_eq!(
            plain[0],
            vec![(Style::default(), "fn main() {".to_string())]
        );
    }

    #[test]
    fn remembered_lines_give_what_parsing_them_again_gives() {
        // A block comment spans lines: the same text must not reuse pieces from another state.
        let file: Vec<String> = [
            "/* a comment",
            "   let x = 1; still the comment */",
            "fn main() {",
            "   let x = 1; still the comment */",
            "    let s = \"a string\";",
            "}",
        ]
        .iter()
        .map(|l| l.to_string())
        .collect();
        let warm = Highlighter::new("base16-ocean.dark", true);
        for (from, to) in [(0, 6), (0, 6), (1, 6), (2, 5), (0, 4), (3, 6)] {
            let fresh = Highlighter::new("base16-ocean.dark", true);
            assert_eq!(
                warm.highlight("a.rs", &file[from..to]),
                fresh.highlight("a.rs", &file[from..to]),
                "window {from}..{to}"
            );
        }
    }
}
