//! Syntax highlighting with syntect, on demand: only the lines the detail pane shows are
//! highlighted, from text already in memory. The syntax is picked by extension (never by
//! reading the file), so highlighting never touches the disk.

use std::sync::OnceLock;

use ratatui::style::{Color, Style};
use syntect::easy::HighlightLines;
use syntect::highlighting::{Theme as SyntaxTheme, ThemeSet};
use syntect::parsing::SyntaxSet;

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

#[derive(Debug, Clone)]
pub struct Highlighter {
    /// `None`: plain text (no colours, or an unknown syntect theme).
    theme: Option<&'static SyntaxTheme>,
}

impl Highlighter {
    /// Highlights with the syntect theme `name`; `colors: false` (NO_COLOR) gives plain text.
    pub fn new(name: &str, colors: bool) -> Highlighter {
        Highlighter {
            theme: colors.then(|| themes().themes.get(name)).flatten(),
        }
    }

    pub fn plain() -> Highlighter {
        Highlighter { theme: None }
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
        let mut highlighter = HighlightLines::new(syntax, theme);
        let mut out = Vec::with_capacity(lines.len());
        for line in lines {
            let with_newline = format!("{line}\n");
            match highlighter.highlight_line(&with_newline, set) {
                Ok(ranges) => out.push(
                    ranges
                        .into_iter()
                        .map(|(style, text)| {
                            let fg = style.foreground;
                            (
                                Style::default().fg(Color::Rgb(fg.r, fg.g, fg.b)),
                                text.trim_end_matches('\n').to_string(),
                            )
                        })
                        .filter(|(_, text)| !text.is_empty())
                        .collect(),
                ),
                Err(_) => out.push(vec![(Style::default(), line.clone())]),
            }
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
}
