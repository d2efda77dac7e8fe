//! A Go file's build constraint (`//go:build gofuzz`, the older `// +build gofuzz` lines) and
//! whether a default build compiles the file: `go build` and `go get` set the platform's tags
//! (its GOOS and GOARCH, `unix`, `cgo`, the compiler, the Go release's `go1.N`) and no other.
//! A file that needs another tag (`gofuzz`, `integration`, `jsoniter`) is compiled only by
//! those who ask for it with `-tags`: what it declares is not what an importer of the package
//! gets, so a change there is named, not proven a break. A file no platform's default build
//! compiles at all (`ignore`) declares nothing.

use std::collections::BTreeSet;

/// The operating systems and architectures the go command knows, and the other tags it sets
/// itself: each may be true on some platform.
const PLATFORM: &[&str] = &[
    "aix",
    "android",
    "darwin",
    "dragonfly",
    "freebsd",
    "hurd",
    "illumos",
    "ios",
    "js",
    "linux",
    "nacl",
    "netbsd",
    "openbsd",
    "plan9",
    "solaris",
    "wasip1",
    "windows",
    "zos",
    "386",
    "amd64",
    "amd64p32",
    "arm",
    "armbe",
    "arm64",
    "arm64be",
    "loong64",
    "mips",
    "mipsle",
    "mips64",
    "mips64le",
    "mips64p32",
    "mips64p32le",
    "ppc",
    "ppc64",
    "ppc64le",
    "riscv",
    "riscv64",
    "s390",
    "s390x",
    "sparc",
    "sparc64",
    "wasm",
    "unix",
    "cgo",
    "gc",
    "gccgo",
];

/// How a default build treats a Go file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum DefaultBuild {
    /// Some platform's default build compiles it (or it has no constraint).
    Compiled,
    /// Only a build given one of these tags compiles it.
    OnlyWith(String),
    /// No build compiles it without a tag named to keep it out (`ignore`), or none at all.
    Never,
}

/// How a default build treats the Go file `source`, from the constraint above its `package`
/// clause. A constraint that cannot be read counts as compiled.
pub(crate) fn default_build(source: &str) -> DefaultBuild {
    let Some(expression) = constraint(source) else {
        return DefaultBuild::Compiled;
    };
    let Some(tokens) = tokenize(&expression) else {
        return DefaultBuild::Compiled;
    };
    let names: BTreeSet<&str> = tokens
        .iter()
        .filter_map(|t| match t {
            Token::Name(n) => Some(n.as_str()),
            _ => None,
        })
        .collect();
    let platform: Vec<&str> = names.iter().copied().filter(|n| is_platform(n)).collect();
    // Too many platform names to try every assignment: say compiled.
    if platform.len() > 12 {
        return DefaultBuild::Compiled;
    }
    let custom: Vec<&str> = names.iter().copied().filter(|n| !is_platform(n)).collect();
    let holds = |custom_on: &dyn Fn(&str) -> bool| {
        (0u32..1 << platform.len()).any(|bits| {
            let value = |name: &str| match platform.iter().position(|p| *p == name) {
                Some(i) => bits & (1 << i) != 0,
                None => custom_on(name),
            };
            evaluate(&tokens, &value) == Some(true)
        })
    };
    if holds(&|_| false) {
        return DefaultBuild::Compiled;
    }
    if holds(&|_| true) && !custom.iter().all(|c| *c == "ignore") {
        let wanted: Vec<&str> = custom.into_iter().filter(|c| *c != "ignore").collect();
        return DefaultBuild::OnlyWith(wanted.join(", "));
    }
    DefaultBuild::Never
}

fn is_platform(name: &str) -> bool {
    PLATFORM.contains(&name)
        || name
            .strip_prefix("go1.")
            .is_some_and(|minor| !minor.is_empty() && minor.bytes().all(|b| b.is_ascii_digit()))
}

/// The constraint of `source` as one `//go:build` expression: the `//go:build` line, else its
/// `// +build` lines (each line ANDed, space-separated options ORed, `,` ANDed), read in the
/// comments before the `package` clause.
fn constraint(source: &str) -> Option<String> {
    let mut plus: Vec<String> = Vec::new();
    for line in source.lines() {
        let line = line.trim();
        if line.starts_with("package ") {
            break;
        }
        if let Some(expression) = line.strip_prefix("//go:build ") {
            return Some(expression.trim().to_string());
        }
        if let Some(options) = line.strip_prefix("// +build ") {
            let ored: Vec<String> = options
                .split_whitespace()
                .map(|option| format!("({})", option.replace(',', " && ")))
                .collect();
            if !ored.is_empty() {
                plus.push(format!("({})", ored.join(" || ")));
            }
        }
    }
    (!plus.is_empty()).then(|| plus.join(" && "))
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Token {
    Name(String),
    Not,
    And,
    Or,
    Open,
    Close,
}

fn tokenize(expression: &str) -> Option<Vec<Token>> {
    let mut tokens = Vec::new();
    let mut chars = expression.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            ' ' | '\t' => {}
            '!' => tokens.push(Token::Not),
            '(' => tokens.push(Token::Open),
            ')' => tokens.push(Token::Close),
            '&' if chars.next_if_eq(&'&').is_some() => tokens.push(Token::And),
            '|' if chars.next_if_eq(&'|').is_some() => tokens.push(Token::Or),
            c if c.is_alphanumeric() || c == '_' || c == '.' => {
                let mut name = c.to_string();
                while let Some(next) =
                    chars.next_if(|n| n.is_alphanumeric() || *n == '_' || *n == '.')
                {
                    name.push(next);
                }
                tokens.push(Token::Name(name));
            }
            _ => return None,
        }
    }
    Some(tokens)
}

/// The value of the expression `tokens` (`||` below `&&` below `!`), `None` when malformed.
fn evaluate(tokens: &[Token], value: &dyn Fn(&str) -> bool) -> Option<bool> {
    let mut at = 0;
    let result = or(tokens, &mut at, value)?;
    (at == tokens.len()).then_some(result)
}

fn or(tokens: &[Token], at: &mut usize, value: &dyn Fn(&str) -> bool) -> Option<bool> {
    let mut result = and(tokens, at, value)?;
    while tokens.get(*at) == Some(&Token::Or) {
        *at += 1;
        result |= and(tokens, at, value)?;
    }
    Some(result)
}

fn and(tokens: &[Token], at: &mut usize, value: &dyn Fn(&str) -> bool) -> Option<bool> {
    let mut result = not(tokens, at, value)?;
    while tokens.get(*at) == Some(&Token::And) {
        *at += 1;
        result &= not(tokens, at, value)?;
    }
    Some(result)
}

fn not(tokens: &[Token], at: &mut usize, value: &dyn Fn(&str) -> bool) -> Option<bool> {
    match tokens.get(*at)? {
        Token::Not => {
            *at += 1;
            not(tokens, at, value).map(|v| !v)
        }
        Token::Open => {
            *at += 1;
            let inner = or(tokens, at, value)?;
            (tokens.get(*at) == Some(&Token::Close)).then(|| {
                *at += 1;
                inner
            })
        }
        Token::Name(name) => {
            *at += 1;
            Some(value(name))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A default build sets the platform's tags and no other: a file for one platform, or
    /// not for one, is compiled somewhere; a file that needs a tag of its own is compiled
    /// only when asked; `ignore` keeps a file out of every build.
    #[test]
    fn a_default_build_compiles_what_some_platform_compiles_without_other_tags() {
        let with = |constraint: &str| default_build(&format!("{constraint}\n\npackage semver\n"));
        assert_eq!(with(""), DefaultBuild::Compiled);
        assert_eq!(with("//go:build linux && amd64"), DefaultBuild::Compiled);
        assert_eq!(with("//go:build !windows"), DefaultBuild::Compiled);
        assert_eq!(with("//go:build go1.21 && !js"), DefaultBuild::Compiled);
        assert_eq!(with("//go:build !integration"), DefaultBuild::Compiled);
        assert_eq!(with("// +build linux,cgo darwin"), DefaultBuild::Compiled);
        assert_eq!(
            with("// +build gofuzz"),
            DefaultBuild::OnlyWith("gofuzz".into())
        );
        assert_eq!(
            with("//go:build integration && linux"),
            DefaultBuild::OnlyWith("integration".into())
        );
        assert_eq!(with("//go:build ignore"), DefaultBuild::Never);
        assert_eq!(with("// +build ignore"), DefaultBuild::Never);
        // A constraint after the package clause is no constraint.
        assert_eq!(
            default_build("package semver\n\n//go:build gofuzz\n"),
            DefaultBuild::Compiled
        );
    }
}
