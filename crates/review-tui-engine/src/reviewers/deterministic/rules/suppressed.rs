//! The project's own answer at the line: a rule that stands for a linter's lint (see
//! [`super::house`]) stays quiet where the code suppresses that lint in scope, since the
//! linter itself would not speak there and the author has recorded the decision (env_filter's
//! `#![allow(clippy::print_stderr)] // compatibility` above the `eprintln!` that warns of a bad
//! directive). Read at the head: clippy's `allow`/`expect` on the enclosing function, inside
//! it, or on the whole file; ESLint's and Biome's disable comments; ruff's and flake8's `noqa`.

use std::sync::LazyLock;

use regex::Regex;

use super::counterpart::Counterpart;

/// How far above the line an enclosing function's attributes are looked for.
const MAX_SCOPE_LINES: usize = 400;

/// Whether the head's `text` suppresses one of `counterparts` at line `number` (1-based).
pub(super) fn suppressed(counterparts: &[Counterpart], text: &str, number: u32) -> bool {
    let lines: Vec<&str> = text.lines().collect();
    let at = (number as usize).saturating_sub(1);
    if at >= lines.len() {
        return false;
    }
    counterparts.iter().any(|lint| match lint {
        Counterpart::Clippy(name) => clippy_allows(&lines, at, name),
        Counterpart::Eslint(name) => eslint_disables(&lines, at, "eslint", name),
        Counterpart::Biome(name) => biome_ignores(&lines, at, name),
        Counterpart::Ruff(code) => noqa(&lines, at, code),
    })
}

/// `allow(clippy::name)` / `expect(…)` (or the `restriction` group) in an inner attribute of
/// the file, or on the lines from the enclosing `fn`'s attributes down to the line.
fn clippy_allows(lines: &[&str], at: usize, name: &str) -> bool {
    let allows = |line: &str| {
        let line = line.trim_start();
        line.starts_with("#")
            && ALLOW.captures_iter(line).any(|c| {
                c["lints"]
                    .split(',')
                    .filter_map(|lint| lint.trim().strip_prefix("clippy::"))
                    .any(|lint| lint == name || lint == "restriction")
            })
    };
    let file_level = lines
        .iter()
        .any(|line| line.starts_with("#![") && allows(line));
    file_level || enclosing_scope(lines, at).iter().any(|line| allows(line))
}

/// `allow(…)`, `expect(…)`, also inside `cfg_attr(…, allow(…))`.
static ALLOW: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"\b(?:allow|expect)\s*\((?P<lints>[^()]*)\)").expect("valid regex")
});

/// A Rust function's start: `pub(crate) async unsafe fn name`.
static FN_START: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^\s*(?:pub(?:\([^)]*\))?\s+)?(?:const\s+)?(?:async\s+)?(?:unsafe\s+)?(?:extern\s+\S+\s+)?fn\s")
        .expect("valid regex")
});

/// The lines from the attributes of the function enclosing line `at` down to it; the lines
/// above it up to [`MAX_SCOPE_LINES`] when no function start is found.
fn enclosing_scope<'t>(lines: &[&'t str], at: usize) -> Vec<&'t str> {
    let floor = at.saturating_sub(MAX_SCOPE_LINES);
    let Some(start) = (floor..=at).rev().find(|&i| FN_START.is_match(lines[i])) else {
        return lines[floor..=at].to_vec();
    };
    // The function's outer attributes and doc comments just above it.
    let mut first = start;
    while first > 0 {
        let above = lines[first - 1].trim_start();
        if above.starts_with("#[") || above.starts_with("///") || above.starts_with("//!") {
            first -= 1;
        } else {
            break;
        }
    }
    lines[first..=at].to_vec()
}

/// `// eslint-disable-next-line no-console` above the line, `// eslint-disable-line
/// no-console` on it, or a `/* eslint-disable no-console */` block above it (a disable naming
/// no rule disables every rule).
fn eslint_disables(lines: &[&str], at: usize, tool: &str, name: &str) -> bool {
    let marker = |line: &'_ str, directive: &str| -> Option<String> {
        let key = format!("{tool}-{directive}");
        line.find(&key)
            .map(|i| line[i + key.len()..].to_string())
            .filter(|rest| rest.is_empty() || rest.starts_with([' ', '*']))
    };
    let names = |rest: &str| {
        let rest = rest.split("--").next().unwrap_or(rest);
        let rest = rest.trim().trim_end_matches("*/").trim();
        rest.is_empty() || rest.split([',', ' ']).any(|rule| rule.trim() == name)
    };
    marker(lines[at], "disable-line").is_some_and(|rest| names(&rest))
        || (at > 0 && marker(lines[at - 1], "disable-next-line").is_some_and(|rest| names(&rest)))
        || lines[..at].iter().any(|line| {
            line.trim_start().starts_with("/*")
                && marker(line, "disable").is_some_and(|rest| names(&rest))
        })
}

/// `// biome-ignore lint/suspicious/noConsole: reason` above the line.
fn biome_ignores(lines: &[&str], at: usize, name: &str) -> bool {
    at > 0
        && lines[at - 1].contains("biome-ignore")
        && lines[at - 1]
            .split_whitespace()
            .any(|part| part.trim_end_matches(':').rsplit('/').next() == Some(name))
}

/// `# noqa` or `# noqa: T201` on the line, or `# ruff: noqa: T201` / `# flake8: noqa` for the
/// file; a code is matched by itself or a prefix of it (`T20`).
fn noqa(lines: &[&str], at: usize, code: &str) -> bool {
    let covers = |codes: &str| {
        codes
            .split([',', ' '])
            .map(str::trim)
            .filter(|c| !c.is_empty())
            .any(|c| code.starts_with(&c.to_ascii_uppercase()))
    };
    let on_line = lines[at].rfind('#').and_then(|i| {
        let comment = lines[at][i + 1..].trim();
        let rest = comment.strip_prefix("noqa")?;
        Some(match rest.trim_start().strip_prefix(':') {
            Some(codes) => covers(codes),
            None => rest.trim().is_empty(),
        })
    });
    on_line.unwrap_or(false)
        || lines.iter().any(|line| {
            let line = line.trim();
            ["# ruff: noqa", "# flake8: noqa"].iter().any(|prefix| {
                line.strip_prefix(prefix).is_some_and(|rest| {
                    match rest.trim_start().strip_prefix(':') {
                        Some(codes) => covers(codes),
                        None => rest.trim().is_empty(),
                    }
                })
            })
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clippy(name: &str) -> Vec<Counterpart> {
        vec![Counterpart::Clippy(name.into())]
    }

    #[test]
    fn clippy_allow_in_scope_is_the_projects_answer() {
        let inner = "fn build(&mut self) {\n    #![allow(clippy::print_stderr)] // compatibility\n    for e in errors {\n        eprintln!(\"warning: {e}\");\n    }\n}\n";
        assert!(suppressed(&clippy("print_stderr"), inner, 4));
        assert!(!suppressed(&clippy("print_stdout"), inner, 4));
        let outer = "#[allow(clippy::print_stdout, clippy::print_stderr)]\nfn show() {\n    println!(\"x\");\n}\n";
        assert!(suppressed(&clippy("print_stdout"), outer, 3));
        let file = "#![expect(clippy::restriction)]\n\nfn a() {\n    panic!(\"x\");\n}\n";
        assert!(suppressed(&clippy("panic"), file, 4));
        // An allow on another function is not in scope.
        let other = "#[allow(clippy::print_stdout)]\nfn quiet() {}\n\nfn loud() {\n    println!(\"x\");\n}\n";
        assert!(!suppressed(&clippy("print_stdout"), other, 5));
    }

    #[test]
    fn eslint_biome_and_noqa_comments_are_the_projects_answer() {
        let eslint = vec![Counterpart::Eslint("no-console".into())];
        let next = "// eslint-disable-next-line no-console -- the CLI prints\nconsole.log(x);\n";
        assert!(suppressed(&eslint, next, 2));
        let same = "console.log(x); // eslint-disable-line no-console\n";
        assert!(suppressed(&eslint, same, 1));
        let block = "/* eslint-disable no-console */\nconsole.log(x);\n";
        assert!(suppressed(&eslint, block, 2));
        let other = "// eslint-disable-next-line no-alert\nconsole.log(x);\n";
        assert!(!suppressed(&eslint, other, 2));
        let biome = vec![Counterpart::Biome("noConsole".into())];
        let ignore = "// biome-ignore lint/suspicious/noConsole: the CLI prints\nconsole.log(x);\n";
        assert!(suppressed(&biome, ignore, 2));
        let ruff = vec![Counterpart::Ruff("T201".into())];
        assert!(suppressed(&ruff, "print(x)  # noqa: T201\n", 1));
        assert!(suppressed(&ruff, "print(x)  # noqa\n", 1));
        assert!(suppressed(&ruff, "# ruff: noqa: T20\nprint(x)\n", 2));
        assert!(!suppressed(&ruff, "print(x)  # noqa: E501\n", 1));
        assert!(!suppressed(&ruff, "print(x)\n", 1));
    }
}
