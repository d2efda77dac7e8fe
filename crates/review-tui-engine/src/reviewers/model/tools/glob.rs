//! A small glob matcher for worktree-relative paths, compiled to an anchored regex.
//!
//! `*` and `?` stay inside one path segment, `**` spans segments, `[abc]`, `[a-z]` and `[!x]`
//! are classes, `{a,b}` are alternatives. A pattern without `/` matches the file name at any
//! depth (`*.rs` finds every Rust file), as `.gitignore` does: that is what a model asking for
//! `*.rs` means.

use regex::Regex;

use super::error::ToolError;

const MAX_GLOB_BYTES: usize = 1000;

#[derive(Debug, Clone)]
pub(super) struct Glob {
    regex: Regex,
}

impl Glob {
    /// An empty pattern matches everything.
    pub(super) fn new(pattern: &str) -> Result<Glob, ToolError> {
        let bad = |reason: &str| ToolError::BadGlob {
            glob: super::error::shown(pattern),
            reason: reason.to_string(),
        };
        if pattern.len() > MAX_GLOB_BYTES {
            return Err(bad("longer than 1000 bytes"));
        }
        if pattern.contains('\0') {
            return Err(bad("contains a NUL byte"));
        }
        if pattern.starts_with('/') {
            return Err(ToolError::Absolute(super::error::shown(pattern)));
        }
        let segments: Vec<&str> = pattern.split('/').collect();
        if segments.contains(&"..") {
            return Err(ToolError::Escapes(super::error::shown(pattern)));
        }
        if segments.iter().any(|s| s.eq_ignore_ascii_case(".git")) {
            return Err(ToolError::GitInternals(super::error::shown(pattern)));
        }
        let pattern = match pattern.trim_start_matches("./") {
            "" => "**",
            p if !p.contains('/') => &format!("**/{p}"),
            p => p,
        };
        let source = translate(pattern).map_err(bad)?;
        let regex = regex::RegexBuilder::new(&source)
            .size_limit(1 << 20)
            .build()
            .map_err(|_| bad("not a valid pattern (check its classes and braces)"))?;
        Ok(Glob { regex })
    }

    pub(super) fn matches(&self, path: &str) -> bool {
        self.regex.is_match(path)
    }
}

fn translate(pattern: &str) -> Result<String, &'static str> {
    let chars: Vec<char> = pattern.chars().collect();
    let mut out = String::from("^");
    let mut braces = 0usize;
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        match c {
            '*' if chars.get(i + 1) == Some(&'*') => {
                let at_start = i == 0 || chars[i - 1] == '/';
                let slash_after = chars.get(i + 2) == Some(&'/');
                if at_start && slash_after {
                    // `**/` : zero or more whole directories.
                    out.push_str("(?:[^/]*/)*");
                    i += 3;
                } else {
                    out.push_str(".*");
                    i += 2;
                }
                continue;
            }
            '*' => out.push_str("[^/]*"),
            '?' => out.push_str("[^/]"),
            '[' => {
                let end = chars[i + 1..]
                    .iter()
                    .skip(1)
                    .position(|&c| c == ']')
                    .map(|p| i + 2 + p)
                    .ok_or("unclosed [")?;
                let mut class = String::from("[");
                let mut body = &chars[i + 1..end];
                if let Some(('!' | '^', rest)) = body.split_first() {
                    class.push('^');
                    body = rest;
                }
                for &b in body {
                    if matches!(b, '\\' | '[' | ']' | '&' | '~' | '^') {
                        class.push('\\');
                    }
                    class.push(b);
                }
                class.push(']');
                out.push_str(&class);
                i = end + 1;
                continue;
            }
            '{' => {
                braces += 1;
                out.push_str("(?:");
            }
            '}' if braces > 0 => {
                braces -= 1;
                out.push(')');
            }
            ',' if braces > 0 => out.push('|'),
            other => out.push_str(&regex::escape(other.encode_utf8(&mut [0; 4]))),
        }
        i += 1;
    }
    if braces > 0 {
        return Err("unclosed {");
    }
    out.push('$');
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn globs_match_as_documented() {
        let cases = [
            ("", "src/a.rs", true),
            ("*.rs", "src/deep/a.rs", true),
            ("*.rs", "a.rs", true),
            ("*.rs", "a.rsx", false),
            ("src/*.rs", "src/a.rs", true),
            ("src/*.rs", "src/x/a.rs", false),
            ("src/**/*.rs", "src/a.rs", true),
            ("src/**/*.rs", "src/x/y/a.rs", true),
            ("src/**", "src/x/y/a.rs", true),
            ("**/mod.rs", "mod.rs", true),
            ("**/mod.rs", "a/b/mod.rs", true),
            ("**/mod.rs", "a/b/xmod.rs", false),
            ("*.{rs,toml}", "Cargo.toml", true),
            ("*.{rs,toml}", "x/lib.rs", true),
            ("*.{rs,toml}", "x/lib.py", false),
            ("file?.txt", "file1.txt", true),
            ("file?.txt", "file12.txt", false),
            ("[ab].txt", "a.txt", true),
            ("[!ab].txt", "a.txt", false),
            ("[!ab].txt", "c.txt", true),
            ("[a-c]x", "bx", true),
            ("a+b(c).txt", "a+b(c).txt", true),
            ("./src/*.rs", "src/a.rs", true),
        ];
        for (glob, path, expected) in cases {
            assert_eq!(
                Glob::new(glob).unwrap().matches(path),
                expected,
                "{glob} {path}"
            );
        }
    }

    #[test]
    fn globs_that_leave_the_worktree_or_enter_git_are_refused() {
        assert!(matches!(Glob::new("../*"), Err(ToolError::Escapes(_))));
        assert!(matches!(Glob::new("a/../../*"), Err(ToolError::Escapes(_))));
        assert!(matches!(Glob::new("/etc/*"), Err(ToolError::Absolute(_))));
        assert!(matches!(
            Glob::new(".git/*"),
            Err(ToolError::GitInternals(_))
        ));
        assert!(matches!(Glob::new("[abc"), Err(ToolError::BadGlob { .. })));
        assert!(matches!(Glob::new("{a,b"), Err(ToolError::BadGlob { .. })));
        let long = "a".repeat(1001);
        assert!(matches!(Glob::new(&long), Err(ToolError::BadGlob { .. })));
    }
}
