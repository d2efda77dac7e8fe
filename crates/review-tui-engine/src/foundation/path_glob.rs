//! A small path glob: `*` and `?` within one path segment, `**` across segments.
//!
//! Rule files, `[rules] skip` and `[api_contract] advisory` use it. Hand-written rather than a
//! crate because they need only these three forms, and a pattern we do not understand
//! (`[a-z]`, `{a,b}`) is refused instead of half-supported.

use std::fmt;

use thiserror::Error;

/// Why a glob is refused; the text names the glob and what to write instead.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum GlobError {
    #[error("an empty glob matches nothing")]
    Empty,
    #[error(
        "`{pattern}` uses `{used}`; only `*`, `**` and `?` are supported (list several globs instead)"
    )]
    Unsupported { pattern: String, used: char },
    #[error("`{pattern}`: `**` must be a whole path segment, not part of `{segment}`")]
    PartialDoubleStar { pattern: String, segment: String },
}

/// A compiled glob. A pattern without `/` matches the file name anywhere in the tree
/// (`*.min.js`); a pattern with `/` matches the whole repository-relative path (`tests/**`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Glob {
    pattern: String,
    segments: Vec<String>,
    file_name_only: bool,
}

impl Glob {
    pub fn new(pattern: &str) -> Result<Glob, GlobError> {
        let trimmed = pattern.trim().trim_start_matches("./");
        if trimmed.is_empty() {
            return Err(GlobError::Empty);
        }
        if let Some(c) = trimmed.chars().find(|c| matches!(c, '[' | ']' | '{' | '}')) {
            return Err(GlobError::Unsupported {
                pattern: pattern.to_string(),
                used: c,
            });
        }
        let trimmed = trimmed.trim_start_matches('/');
        let segments: Vec<String> = trimmed.split('/').map(str::to_string).collect();
        if let Some(bad) = segments
            .iter()
            .find(|s| s.contains("**") && s.as_str() != "**")
        {
            return Err(GlobError::PartialDoubleStar {
                pattern: pattern.to_string(),
                segment: bad.clone(),
            });
        }
        Ok(Glob {
            pattern: pattern.to_string(),
            file_name_only: segments.len() == 1 && segments[0] != "**",
            segments,
        })
    }

    pub fn as_str(&self) -> &str {
        &self.pattern
    }

    pub fn matches(&self, path: &str) -> bool {
        if self.file_name_only {
            let name = path.rsplit('/').next().unwrap_or(path);
            return segment_matches(&self.segments[0], name);
        }
        let parts: Vec<&str> = path.split('/').filter(|p| !p.is_empty()).collect();
        segments_match(&self.segments, &parts)
    }
}

impl fmt::Display for Glob {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.pattern)
    }
}

/// True when any glob of `globs` matches `path`.
pub(crate) fn any_matches(globs: &[Glob], path: &str) -> bool {
    globs.iter().any(|glob| glob.matches(path))
}

fn segments_match(pattern: &[String], path: &[&str]) -> bool {
    match pattern.split_first() {
        None => path.is_empty(),
        Some((first, rest)) if first == "**" => {
            // `**` takes zero or more whole segments; try each split point.
            (0..=path.len()).any(|skip| segments_match(rest, &path[skip..]))
        }
        Some((first, rest)) => match path.split_first() {
            Some((segment, path_rest)) => {
                segment_matches(first, segment) && segments_match(rest, path_rest)
            }
            None => false,
        },
    }
}

/// `*` and `?` inside one segment, by the classic two-pointer walk with one backtrack point:
/// linear for the patterns rule files use, and never recursive. Every rule asks it about every
/// changed file: ASCII names are walked as bytes, others by characters.
fn segment_matches(pattern: &str, text: &str) -> bool {
    if pattern.is_ascii() && text.is_ascii() {
        return wildcard(pattern.as_bytes(), text.as_bytes(), b'?', b'*');
    }
    let p: Vec<char> = pattern.chars().collect();
    let t: Vec<char> = text.chars().collect();
    wildcard(&p, &t, '?', '*')
}

/// The walk over units `T` (bytes or characters), `any` and `star` being `?` and `*`.
fn wildcard<T: Copy + PartialEq>(p: &[T], t: &[T], any: T, star_unit: T) -> bool {
    let (mut pi, mut ti) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while ti < t.len() {
        if pi < p.len() && (p[pi] == any || p[pi] == t[ti]) {
            pi += 1;
            ti += 1;
        } else if pi < p.len() && p[pi] == star_unit {
            star = Some((pi, ti));
            pi += 1;
        } else if let Some((star_pi, star_ti)) = star {
            pi = star_pi + 1;
            ti = star_ti + 1;
            star = Some((star_pi, star_ti + 1));
        } else {
            return false;
        }
    }
    p[pi..].iter().all(|&c| c == star_unit)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The walk by characters, as every segment was matched before ASCII ones were walked as
    /// bytes.
    fn by_chars(pattern: &str, text: &str) -> bool {
        let p: Vec<char> = pattern.chars().collect();
        let t: Vec<char> = text.chars().collect();
        let (mut pi, mut ti) = (0, 0);
        let mut star: Option<(usize, usize)> = None;
        while ti < t.len() {
            if pi < p.len() && (p[pi] == '?' || p[pi] == t[ti]) {
                pi += 1;
                ti += 1;
            } else if pi < p.len() && p[pi] == '*' {
                star = Some((pi, ti));
                pi += 1;
            } else if let Some((star_pi, star_ti)) = star {
                pi = star_pi + 1;
                ti = star_ti + 1;
                star = Some((star_pi, star_ti + 1));
            } else {
                return false;
            }
        }
        p[pi..].iter().all(|&c| c == '*')
    }

    proptest! {
        #[test]
        fn segments_match_as_the_walk_by_characters_did(
            pattern in "[ab.*?é]{0,8}",
            text in "[ab.é?*]{0,10}",
        ) {
            prop_assert_eq!(segment_matches(&pattern, &text), by_chars(&pattern, &text));
        }
    }

    fn matches(pattern: &str, path: &str) -> bool {
        Glob::new(pattern).unwrap().matches(path)
    }

    #[test]
    fn file_name_patterns_match_anywhere() {
        assert!(matches("*.min.js", "web/dist/app.min.js"));
        assert!(matches("*.min.js", "app.min.js"));
        assert!(!matches("*.min.js", "web/app.js"));
        assert!(matches("build.rs", "crates/x/build.rs"));
        assert!(matches("test_?.py", "pkg/test_a.py"));
        assert!(!matches("test_?.py", "pkg/test_ab.py"));
    }

    #[test]
    fn path_patterns_are_anchored_and_double_star_spans_segments() {
        assert!(matches("tests/**", "tests/a.rs"));
        assert!(matches("tests/**", "tests/deep/er/a.rs"));
        assert!(!matches("tests/**", "crates/x/tests/a.rs"));
        assert!(matches("**/tests/**", "crates/x/tests/a.rs"));
        assert!(matches("**/tests/**", "tests/a.rs"));
        assert!(matches("**/*_test.go", "pkg/x/y_test.go"));
        assert!(matches("**/*_test.go", "y_test.go"));
        assert!(matches("src/bin/*.rs", "src/bin/tool.rs"));
        assert!(!matches("src/bin/*.rs", "src/bin/tool/main.rs"));
        assert!(matches(".github/workflows/*", ".github/workflows/ci.yml"));
        assert!(matches("**", "anything/at/all"));
        assert!(!matches("src/*", "src"));
    }

    #[test]
    fn star_backtracks_within_a_segment() {
        assert!(matches("*a*b", "xxaxxab"));
        assert!(!matches("*a*b", "xxaxxa"));
        assert!(matches("a*", "a"));
        assert!(matches("*.*.*", "a.b.c"));
    }

    #[test]
    fn unsupported_syntax_is_refused_with_a_reason() {
        assert!(
            Glob::new("*.{js,ts}")
                .unwrap_err()
                .to_string()
                .contains("`{`")
        );
        assert!(Glob::new("[ab].rs").is_err());
        assert!(
            Glob::new("src/a**/b")
                .unwrap_err()
                .to_string()
                .contains("whole path segment")
        );
        assert!(Glob::new("  ").is_err());
    }
}
