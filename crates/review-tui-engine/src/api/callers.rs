//! Whether a file outside the change uses an item of a changed file, resolved through its
//! imports, qualified paths or package rather than by the item's name alone: `getName` in 36
//! unrelated files is not 36 callers of this one.

use regex::Regex;

use super::Item;
use super::compare::type_parameter_names;
use crate::cohort::paths::parent_dir;
use crate::parse::grammar::Grammar;

/// What is known of the item's home.
pub(crate) struct Home<'a> {
    pub path: &'a str,
    pub grammar: Grammar,
    /// Its file's text (head, or base when it was deleted): the Go/Java package name.
    pub source: &'a str,
}

fn word(name: &str) -> String {
    format!(r"\b{}\b", regex::escape(name))
}

fn matches(pattern: &str, text: &str) -> bool {
    Regex::new(pattern).is_ok_and(|r| r.is_match(text))
}

/// Whether `caller` (at `caller_path`) uses `key` (`name`, `Type::member`, `Class.member`,
/// `Class.method(int)`) of `home`.
pub(crate) fn uses(home: &Home, key: &str, caller_path: &str, caller: &str) -> bool {
    let key = key.split('(').next().unwrap_or(key);
    let mut segments = key.split([':', '.']).filter(|s| !s.is_empty());
    let Some(top) = segments.next() else {
        return false;
    };
    // A name in a comment or a string is not a use (tower #499: `with` in "fail with a
    // Closed" and in doc prose is no call of `ServiceExt::with`). Imports are read from the
    // whole text below: Go and JavaScript write them as strings.
    let code = code_only(caller, home.grammar);
    // A member is used through its type; its own name must appear too. A positional field
    // (`Event::CData::0`, a tuple struct's `0`) is no name its users write: they destructure
    // the variant or the struct, whose own name is then the member that must appear.
    if let Some(member) = segments.rfind(|segment| !segment.bytes().all(|b| b.is_ascii_digit()))
        && !matches(&word(member), &code)
    {
        return false;
    }
    if !matches(&word(top), &code) {
        return false;
    }
    let same_dir = parent_dir(caller_path) == parent_dir(home.path);
    let file = home.path.rsplit('/').next().unwrap_or(home.path);
    let stem = file.split('.').next().unwrap_or(file);
    let module = if matches!(stem, "mod" | "lib" | "__init__" | "index") {
        parent_dir(home.path).rsplit('/').next().unwrap_or("")
    } else {
        stem
    };
    let top_word = word(top);
    match home.grammar {
        Grammar::Rust => rust_path_to(home.path, top, caller_path, &code),
        Grammar::Python => {
            let from = format!(
                r"(?m)^\s*from\s+[\w.]*\b{}\s+import\s[^\n]*{top_word}",
                regex::escape(module)
            );
            let relative = format!(
                r"(?m)^\s*from\s+\.+\s*import\s[^\n]*\b{}\b",
                regex::escape(module)
            );
            let qualified = format!(r"\b{}\.{}\b", regex::escape(module), regex::escape(top));
            matches(&from, caller)
                || ((matches(&relative, caller) || matches(&format!(r"(?m)^\s*import\s[^\n]*\b{}\b", regex::escape(module)), caller))
                    && matches(&qualified, caller))
                // A package's `__init__` re-exporting it counts through the package name.
                || matches(&format!(r"(?m)^\s*from\s+[\w.]+\s+import\s[^\n]*{top_word}"), caller)
                    && caller_path.ends_with("__init__.py")
        }
        Grammar::JavaScript | Grammar::TypeScript | Grammar::Tsx => {
            // Compiled once, not for each caller file read.
            static IMPORT: std::sync::LazyLock<Option<Regex>> = std::sync::LazyLock::new(|| {
                Regex::new(r#"(?s)\b(?:import|export)\b([^;'"]*?)\bfrom\s*['"]([^'"]+)['"]"#).ok()
            });
            let Some(import) = IMPORT.as_ref() else {
                return false;
            };
            import.captures_iter(caller).any(|c| {
                let names = &c[1];
                let spec = &c[2];
                (matches(&top_word, names) || names.contains('*'))
                    && resolves(parent_dir(caller_path), spec, home.path)
            })
        }
        Grammar::Go => {
            let package = home
                .source
                .lines()
                .find_map(|l| l.trim().strip_prefix("package "))
                .unwrap_or(module)
                .trim();
            let qualified = format!(r"\b{}\.{}\b", regex::escape(package), regex::escape(top));
            // In the package's own folder the name is written bare; `bytes.Equal` and
            // `u.Equal` are another package's function and a method, not this `Equal`. An
            // external test package (`package uuid_test`) in the folder qualifies it.
            if same_dir {
                let bare = format!(r"(?:^|[^.\w]){}\b", regex::escape(top));
                return matches(&bare, &code) || matches(&qualified, &code);
            }
            let dir = parent_dir(home.path);
            let imported =
                !dir.is_empty() && matches(&format!(r#""[^"]*/{}""#, regex::escape(dir)), caller);
            imported && matches(&qualified, caller)
        }
        // Their changes only warn (read from tags, see `tagged`): never a break whose callers
        // would be looked up.
        Grammar::C
        | Grammar::Cpp
        | Grammar::CSharp
        | Grammar::Ruby
        | Grammar::Php
        | Grammar::Kotlin
        | Grammar::Swift
        | Grammar::Dart
        | Grammar::Scala
        | Grammar::Elixir
        | Grammar::Lua
        | Grammar::Haskell
        | Grammar::ObjectiveC
        | Grammar::Zig
        | Grammar::OCaml
        | Grammar::OCamlInterface => false,
        Grammar::Java => {
            if same_dir {
                return true;
            }
            let package = home
                .source
                .lines()
                .find_map(|l| l.trim().strip_prefix("package "))
                .map(|p| p.trim_end_matches(';').trim())
                .unwrap_or("");
            !package.is_empty()
                && (matches(
                    &format!(
                        r"\bimport\s+(static\s+)?{}\.({}|\*)\b",
                        regex::escape(package),
                        regex::escape(top)
                    ),
                    caller,
                ) || caller.contains(&format!("{package}.{top}")))
        }
    }
}

/// Whether Rust `code` (comments and strings blanked) of the file at `caller_path` reaches
/// `top` of the file at `home` through a `use` whose path ends in it, or a path written in the
/// code (`filter::Error::inner`). A path reaches it only if each module it names could lead to
/// `home`: a folder or the stem of `home`'s path (after `crate`, `self` and `super` are
/// resolved from the caller's own path). tower #508: `use crate::mock::{error::Error}` and
/// `S::Error` do not name `filter/error.rs`'s `Error`. A re-export under a module of another
/// name is missed, the cheaper mistake: the break is then reported as deliberate, not failed.
fn rust_path_to(home: &str, top: &str, caller_path: &str, code: &str) -> bool {
    static USE: std::sync::LazyLock<Option<Regex>> =
        std::sync::LazyLock::new(|| Regex::new(r"(?s)\buse\s([^;]*);").ok());
    let Some(use_statement) = USE.as_ref() else {
        return false;
    };
    let allowed = path_components(home);
    let reaches = |prefix: &[&str]| rust_prefix_reaches(prefix, &allowed, caller_path);
    let imported = use_statement.captures_iter(code).any(|c| {
        rust_use_paths(&c[1])
            .iter()
            .any(|path| path.last() == Some(&top) && reaches(&path[..path.len() - 1]))
    });
    if imported {
        return true;
    }
    let rest = use_statement.replace_all(code, " ");
    let Ok(inline) = Regex::new(&format!(
        r"((?:\b[A-Za-z_]\w*\s*::\s*)+){}\b",
        regex::escape(top)
    )) else {
        return false;
    };
    inline.captures_iter(&rest).any(|c| {
        let prefix: Vec<&str> = c[1]
            .split("::")
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .collect();
        reaches(&prefix)
    })
}

/// Whether a Rust path `prefix` (the segments before the item) could lead to an item of the
/// file whose path components are `allowed`: every module it names is one of them, and so is
/// every folder of the caller's own module that `self` or `super` start from.
fn rust_prefix_reaches(prefix: &[&str], allowed: &[String], caller_path: &str) -> bool {
    let on_path = |s: &str| allowed.iter().any(|a| a == s);
    let mut segments = prefix.iter().copied().peekable();
    let from_caller = match segments.peek() {
        Some(&("crate" | "$crate")) => {
            segments.next();
            None
        }
        Some(&("self" | "super")) => {
            let mut module = path_components(caller_path);
            if matches!(
                module.last().map(String::as_str),
                Some("mod" | "lib" | "main")
            ) {
                module.pop();
            }
            if segments.next_if_eq(&"self").is_none() {
                while segments.next_if_eq(&"super").is_some() {
                    module.pop();
                }
            }
            Some(module)
        }
        _ => None,
    };
    from_caller.is_none_or(|module| module.iter().all(|s| on_path(s))) && segments.all(on_path)
}

/// A file's path as Rust module names: its folders and stem, `-` read as `_`.
fn path_components(path: &str) -> Vec<String> {
    path.trim_end_matches(".rs")
        .split('/')
        .map(|s| s.replace('-', "_"))
        .collect()
}

/// The full paths a Rust `use` tree brings in (`a::{b, c::{d as e, *}}` → `a::b`, `a::c::d`,
/// `a::c::*`), each as its segments; `as` renames are dropped, `self` is its module.
fn rust_use_paths(tree: &str) -> Vec<Vec<&str>> {
    fn walk<'t>(
        tokens: &[&'t str],
        at: &mut usize,
        prefix: &mut Vec<&'t str>,
        out: &mut Vec<Vec<&'t str>>,
    ) {
        let depth = prefix.len();
        while *at < tokens.len() {
            match tokens[*at] {
                "::" => *at += 1,
                "{" => {
                    *at += 1;
                    loop {
                        walk(tokens, at, prefix, out);
                        match tokens.get(*at) {
                            Some(&",") => *at += 1,
                            Some(&"}") => {
                                *at += 1;
                                break;
                            }
                            _ => break,
                        }
                    }
                    prefix.truncate(depth);
                    return;
                }
                "," | "}" => break,
                "as" => *at += 2,
                "self" if !prefix.is_empty() => {
                    out.push(prefix.clone());
                    *at += 1;
                }
                segment => {
                    prefix.push(segment);
                    *at += 1;
                    if !matches!(tokens.get(*at), Some(&"::")) {
                        out.push(prefix.clone());
                    }
                }
            }
        }
        prefix.truncate(depth);
    }
    static TOKEN: std::sync::LazyLock<Option<Regex>> =
        std::sync::LazyLock::new(|| Regex::new(r"::|[{},*]|\$?[A-Za-z_]\w*").ok());
    let Some(token) = TOKEN.as_ref() else {
        return Vec::new();
    };
    let tokens: Vec<&str> = token.find_iter(tree).map(|m| m.as_str()).collect();
    let mut out = Vec::new();
    let mut at = 0;
    while at < tokens.len() {
        let before = at;
        walk(&tokens, &mut at, &mut Vec::new(), &mut out);
        if at == before {
            at += 1;
        }
    }
    out
}

/// Whether `caller` names `top` outside its import and re-export statements: where an item
/// still exists but its signature changed, a file that only imports or re-exports it is not
/// broken (rand #1292: `Dirichlet` gained `const N`; `rand_distr/src/lib.rs` only has `pub use
/// self::dirichlet::Dirichlet;`). A removed or renamed item breaks those statements too, so
/// the caller asks this only of items still there.
pub(crate) fn names_beyond_imports(grammar: Grammar, top: &str, caller: &str) -> bool {
    static IMPORTS: std::sync::LazyLock<[Option<Regex>; 4]> = std::sync::LazyLock::new(|| {
        [
            // Rust: `use …;`, `pub use …;`, `pub(crate) use …;`.
            Regex::new(r"(?s)\buse\s[^;]*;").ok(),
            // Python: `import a, b` and `from m import (x, y)` or `from m import x, y`.
            Regex::new(r"(?m)^[ \t]*(?:from\s+[\w.]+\s+)?import\s+(?:\([^)]*\)|[^\n]*)").ok(),
            // JavaScript, TypeScript: `import … from '…'`, `export … from '…'` (the module
            // string is blanked), `export { a, b };`.
            Regex::new(concat!(
                r"\b(?:import|export)\s+(?:type\s+)?",
                r"(?:\*(?:\s*as\s+[\w$]+)?|\{[^}]*\}|[\w$]+(?:\s*,\s*(?:\{[^}]*\}|\*\s*as\s+[\w$]+))?)",
                r"\s*from\b|\bexport\s+(?:type\s+)?\{[^}]*\}",
            ))
                .ok(),
            // Java: `import a.b.C;`, `import static a.b.C.m;`.
            Regex::new(r"(?m)^[ \t]*import\s[^;]*;").ok(),
        ]
    });
    let code = code_only(caller, grammar);
    let imports = match grammar {
        Grammar::Rust => &IMPORTS[0],
        Grammar::Python => &IMPORTS[1],
        Grammar::JavaScript | Grammar::TypeScript | Grammar::Tsx => &IMPORTS[2],
        Grammar::Java => &IMPORTS[3],
        // Go writes its imports as strings (blanked) and uses every item as `package.Name`.
        _ => &None,
    };
    let rest = match imports {
        Some(imports) => imports.replace_all(&code, " "),
        None => std::borrow::Cow::Borrowed(code.as_str()),
    };
    matches(&word(top), &rest)
}

/// Whether `caller` implements `parent` (a type of `home`) and defines nothing named `member`:
/// an implementation left without the member just added to `parent`. Calls of `parent`'s
/// other members cannot be broken by an addition (guice #902 added `Binder.getProvider(
/// Dependency)`; `AbstractModule` calls `binder().getProvider(…)`, it implements nothing).
/// Go implements interfaces without saying so: never answered yes.
pub(crate) fn implements_without(home: &Home, parent: &str, member: &str, caller: &str) -> bool {
    let code = code_only(caller, home.grammar);
    let name = regex::escape(parent);
    let pattern = match home.grammar {
        // A concrete class's header naming it (`class Recording implements Module, Binder {`)
        // or an anonymous class; an interface extending it or an abstract class need not
        // define the member, and a parameter `TypeLiteral<? extends T> t, Binder b` is no header.
        Grammar::Java => {
            let Ok(header) = Regex::new(&format!(
                r"\b(?:class|enum|record)\s+[\w$]+[^{{;()=]*\b{name}\b[^{{;()=]*\{{"
            )) else {
                return false;
            };
            let concrete = header.find_iter(&code).any(|found| {
                !code[..found.start()]
                    .trim_end()
                    .rsplit(|c: char| c.is_whitespace())
                    .take(3)
                    .any(|w| w == "abstract")
            });
            let anonymous = format!(r"\bnew\s+{name}\s*(?:<[^>]*>)?\s*\(\s*\)\s*\{{");
            return (concrete || matches(&anonymous, &code)) && !matches(&word(member), &code);
        }
        Grammar::Rust => format!(r"\bimpl\b[^{{;]*\b{name}\b[^{{;]*\bfor\b"),
        Grammar::Python => format!(r"(?m)^\s*class\s+\w+\s*\([^)]*\b{name}\b"),
        Grammar::JavaScript | Grammar::TypeScript | Grammar::Tsx => {
            format!(r"\b(?:implements|extends)\s[^{{]*\b{name}\b")
        }
        _ => return false,
    };
    matches(&pattern, &code) && !matches(&word(member), &code)
}

/// `text` with its comments and string literals blanked (each character a space, lines kept),
/// as `grammar`'s language writes them: `//` and `/* */` (Rust's nest), `#` in Python;
/// `"…"`, and `'…'` where it is a string (Python, JavaScript), `` `…` `` in Go and JavaScript,
/// triple quotes in Python and Java. A scan, not a parse: a Rust raw string `r#"…"#` ends at
/// its first `"`, which can only blank less.
fn code_only(text: &str, grammar: Grammar) -> String {
    let python = grammar == Grammar::Python;
    let hash_comments = python;
    let slash_comments = !python;
    let single_quoted = matches!(
        grammar,
        Grammar::Python | Grammar::JavaScript | Grammar::TypeScript | Grammar::Tsx
    );
    let backquoted = matches!(
        grammar,
        Grammar::Go | Grammar::JavaScript | Grammar::TypeScript | Grammar::Tsx
    );
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let blank = |c: char, out: &mut String| out.push(if c == '\n' { '\n' } else { ' ' });
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        let starts = |at: usize, s: &str| {
            s.chars()
                .enumerate()
                .all(|(k, x)| chars.get(at + k) == Some(&x))
        };
        if (slash_comments && c == '/' && next == Some('/')) || (hash_comments && c == '#') {
            while i < chars.len() && chars[i] != '\n' {
                blank(chars[i], &mut out);
                i += 1;
            }
            continue;
        }
        if slash_comments && c == '/' && next == Some('*') {
            let mut depth = 0usize;
            while i < chars.len() {
                if chars[i] == '/' && chars.get(i + 1) == Some(&'*') {
                    depth += 1;
                    out.push_str("  ");
                    i += 2;
                } else if chars[i] == '*' && chars.get(i + 1) == Some(&'/') {
                    depth = depth.saturating_sub(1);
                    out.push_str("  ");
                    i += 2;
                    if depth == 0 || grammar != Grammar::Rust {
                        break;
                    }
                } else {
                    blank(chars[i], &mut out);
                    i += 1;
                }
            }
            continue;
        }
        let triple = (python || grammar == Grammar::Java)
            && (starts(i, "\"\"\"") || (python && starts(i, "'''")));
        if triple {
            let close: String = chars[i..i + 3].iter().collect();
            out.push_str("   ");
            i += 3;
            while i < chars.len() && !starts(i, &close) {
                blank(chars[i], &mut out);
                i += 1;
            }
            if i < chars.len() {
                out.push_str("   ");
                i += 3;
            }
            continue;
        }
        // A character literal holding a quote (`'"'`, `'\"'`) opens no string.
        if !single_quoted && c == '\'' && (starts(i, "'\"'") || starts(i, "'\\\"'")) {
            let length = if next == Some('"') { 3 } else { 4 };
            out.extend(&chars[i..i + length]);
            i += length;
            continue;
        }
        let quote = c == '"' || (single_quoted && c == '\'') || (backquoted && c == '`');
        if quote {
            out.push(' ');
            i += 1;
            while i < chars.len() && chars[i] != c {
                if chars[i] == '\\' && c != '`' {
                    blank(chars[i], &mut out);
                    i += 1;
                    if i == chars.len() {
                        break;
                    }
                }
                blank(chars[i], &mut out);
                i += 1;
            }
            if i < chars.len() {
                out.push(' ');
                i += 1;
            }
            continue;
        }
        out.push(c);
        i += 1;
    }
    out
}

/// Whether the relative import `spec`, written in `dir`, names the file at `target`.
fn resolves(dir: &str, spec: &str, target: &str) -> bool {
    if !spec.starts_with('.') {
        return false;
    }
    let mut parts: Vec<&str> = dir.split('/').filter(|p| !p.is_empty()).collect();
    for part in spec.split('/') {
        match part {
            "." | "" => {}
            ".." => {
                parts.pop();
            }
            p => parts.push(p),
        }
    }
    let joined = parts.join("/");
    let strip = |p: &str| -> String {
        let p = p
            .rsplit_once('.')
            .filter(|(_, ext)| {
                matches!(
                    *ext,
                    "js" | "jsx" | "ts" | "tsx" | "mjs" | "cjs" | "mts" | "cts"
                )
            })
            .map_or(p, |(stem, _)| stem);
        p.strip_suffix("/index").unwrap_or(p).to_string()
    };
    strip(&joined) == strip(target)
}

/// Whether every call of `base` still compiles against `head`, as far as the two signatures
/// tell: the same parameters and result, each parameter's type either unchanged or one that
/// accepts a family of types (`impl Into<OsStr>`, a type parameter of the item), which the
/// arguments callers passed most likely still are (clap 4: `Arg::env(&'help str)` →
/// `env(impl Into<OsStr>)`, its callers passing `&str`). A caller the syntax cannot show
/// broken is no "caller not updated".
pub(crate) fn calls_still_compile(base: &Item, head: &Item) -> bool {
    let (Some(old), Some(new)) = (&base.params, &head.params) else {
        return false;
    };
    if old.len() != new.len() || base.ret != head.ret {
        return false;
    }
    let generic: Vec<String> = type_parameter_names(&head.generics)
        .into_iter()
        .flatten()
        .collect();
    let accepts_a_family = |ty: &str| {
        let ty = ty.trim();
        ty.starts_with("impl ") || generic.iter().any(|g| g == ty)
    };
    old.iter().zip(new).all(|(o, n)| {
        o.kind == n.kind
            && (o.optional <= n.optional)
            && (o.ty == n.ty || n.ty.as_deref().is_some_and(accepts_a_family))
    })
}

/// Whether the Rust file `source` still defines the member or item `name` for its own crate
/// (`pub(crate) fn is_takes_value_set`, `pub(super) struct …`): gone from the public API, it
/// is still there for callers in the same crate (clap 4.0.0-alpha's `Arg::is_*_set`).
pub(crate) fn kept_for_its_crate(source: &str, name: &str) -> bool {
    let pattern = format!(
        r"\bpub\s*\(\s*(crate|super|in\s[^)]*)\)\s*(const\s+|async\s+|unsafe\s+|extern\s+(\x22[^\x22]*\x22\s+)?)*(fn|struct|enum|trait|type|union|const|static|mod)\s+{}\b",
        regex::escape(name)
    );
    matches(&pattern, &code_only(source, Grammar::Rust))
}

#[cfg(test)]
mod tests {

    use super::{rust_path_to, rust_use_paths};

    #[test]
    fn go_a_name_in_its_own_folder_is_used_bare_not_through_another_package() {
        let home = Home {
            path: "uuid.go",
            grammar: Grammar::Go,
            source: "package uuid\n\nfunc Equal(a, b UUID) bool { return a == b }\n",
        };
        let other = "package uuid\n\nimport \"bytes\"\n\nfunc f(p []byte) bool {\n\treturn bytes.Equal(p, p) || u.Equal(v)\n}\n";
        assert!(!uses(&home, "Equal", "codec.go", other));
        let bare = "package uuid\n\nfunc g(a, b UUID) bool {\n\treturn Equal(a, b)\n}\n";
        assert!(uses(&home, "Equal", "sql.go", bare));
        let external = "package uuid_test\n\nfunc T() { _ = uuid.Equal(a, b) }\n";
        assert!(uses(&home, "Equal", "uuid_test.go", external));
    }

    #[test]
    fn rust_use_trees_expand_to_their_paths() {
        assert_eq!(
            rust_use_paths("a::{b, c::{d as e, *}, self}"),
            vec![
                vec!["a", "b"],
                vec!["a", "c", "d"],
                vec!["a", "c", "*"],
                vec!["a"]
            ]
        );
        assert_eq!(
            rust_use_paths("crate::mock::{error::Error, future::ResponseFuture}"),
            vec![
                vec!["crate", "mock", "error", "Error"],
                vec!["crate", "mock", "future", "ResponseFuture"]
            ]
        );
        assert_eq!(rust_use_paths("::std::io"), vec![vec!["std", "io"]]);
    }

    /// tower #508: `filter/error.rs`'s `Error` is not the `Error` of another module, nor an
    /// associated type `S::Error`.
    #[test]
    fn rust_paths_reach_only_the_module_they_name() {
        let home = "tower/src/filter/error.rs";
        let cases: &[(&str, &str, bool)] = &[
            (
                "tower-test/src/mock/mod.rs",
                "use crate::mock::{error::Error, future::ResponseFuture};\ntype E = Error;\n",
                false,
            ),
            (
                "tower/src/buffer/worker.rs",
                "type Error = S::Error;\n",
                false,
            ),
            (
                "tower/src/buffer/service.rs",
                "use super::error::Error;\n",
                false,
            ),
            ("tower/src/x.rs", "use std::{fmt, error::Error};\n", false),
            (
                "tower/src/x.rs",
                "fn f(e: &dyn std::error::Error) {}\n",
                false,
            ),
            (
                "tower/src/filter/layer.rs",
                "use super::error::Error;\n",
                true,
            ),
            (
                "tower/src/filter/mod.rs",
                "pub use self::error::Error;\n",
                true,
            ),
            ("tower/src/lib.rs", "use crate::filter::Error;\n", true),
            (
                "tower/tests/filter.rs",
                "use tower::filter::error::Error;\n",
                true,
            ),
            (
                "tower/src/x.rs",
                "let e = crate::filter::Error::inner(x);\n",
                true,
            ),
            (
                "tower/src/filter/predicate.rs",
                "use super::{error::Error, Predicate};\n",
                true,
            ),
            (
                "tower/src/filter/future.rs",
                "use super::super::filter::Error;\n",
                true,
            ),
        ];
        for (caller_path, code, expected) in cases {
            assert_eq!(
                rust_path_to(home, "Error", caller_path, code),
                *expected,
                "{caller_path}: {code:?}"
            );
        }
    }

    use super::names_beyond_imports;
    use crate::parse::grammar::Grammar;

    #[test]
    fn imports_and_reexports_are_not_uses_beyond_them() {
        let cases: &[(Grammar, &str, bool)] = &[
            (
                Grammar::Rust,
                "pub use self::dirichlet::Dirichlet;\n",
                false,
            ),
            (
                Grammar::Rust,
                "pub(crate) use a::{b, Dirichlet as D};\n",
                false,
            ),
            (
                Grammar::Rust,
                "use a::Dirichlet;\nfn f() -> Dirichlet<f64> { todo!() }\n",
                true,
            ),
            (
                Grammar::Rust,
                "// use this\nlet d = Dirichlet::new(a);\n",
                true,
            ),
            (
                Grammar::Rust,
                "use a::Dirichlet; // Dirichlet is unused\n",
                false,
            ),
            (
                Grammar::Python,
                "from .dirichlet import (\n    Dirichlet,\n    Beta,\n)\n",
                false,
            ),
            (
                Grammar::Python,
                "from .dirichlet import Dirichlet\n__all__ = [\"Dirichlet\"]\n",
                false,
            ),
            (
                Grammar::Python,
                "import dirichlet\nx = dirichlet.Dirichlet(1)\n",
                true,
            ),
            (
                Grammar::JavaScript,
                "export { Dirichlet } from './dirichlet.js';\n",
                false,
            ),
            (
                Grammar::TypeScript,
                "import { Dirichlet } from './d';\nexport { Dirichlet };\n",
                false,
            ),
            (
                Grammar::TypeScript,
                "export type { Dirichlet } from './d';\n",
                false,
            ),
            (
                Grammar::TypeScript,
                "import { Dirichlet } from './d';\nnew Dirichlet(1);\n",
                true,
            ),
            (
                Grammar::JavaScript,
                "import D, { Dirichlet } from './d';\nexport * as all from './d';\n",
                false,
            ),
            // `from` inside code after an `export` is no module clause.
            (
                Grammar::JavaScript,
                "export function f(y) { return Dirichlet.from(y) }\n",
                true,
            ),
            (Grammar::Java, "import a.b.Dirichlet;\nclass X {}\n", false),
            (
                Grammar::Java,
                "import a.b.Dirichlet;\nclass X { Dirichlet d; }\n",
                true,
            ),
            (
                Grammar::Go,
                "import \"a/dirichlet\"\nvar d = dirichlet.Dirichlet{}\n",
                true,
            ),
        ];
        for (grammar, text, expected) in cases {
            assert_eq!(
                names_beyond_imports(*grammar, "Dirichlet", text),
                *expected,
                "{grammar:?} {text:?}"
            );
        }
    }
    use super::*;

    #[test]
    fn an_added_member_is_missing_only_from_implementations() {
        // guice #902 added `Binder.getProvider(Dependency)`: `AbstractModule` calls the binder,
        // implementations are what it leaves incomplete.
        let home = Home {
            path: "core/src/com/google/inject/Binder.java",
            grammar: Grammar::Java,
            source: "package com.google.inject;\n",
        };
        let caller = "class AbstractModule { void f() { binder().getProvider(k); } }";
        assert!(!implements_without(&home, "Binder", "getProvider", caller));
        let implementation = "// implements Binder\nclass Recording implements Module, Binder {\n  void bind() {}\n}\n";
        assert!(implements_without(
            &home,
            "Binder",
            "getProvider",
            implementation
        ));
        assert!(implements_without(
            &home,
            "Binder",
            "getProvider",
            "Binder b = new Binder() {\n  void bind() {}\n};"
        ));
        // An interface extending it, an abstract class, a parameter's wildcard bound.
        for not_an_implementation in [
            "public interface PrivateBinder extends Binder {\n  void expose();\n}\n",
            "abstract class Base implements Binder {\n  void bind() {}\n}\n",
            "class Utils {\n  static void f(TypeLiteral<? extends T> t, Binder binder) {}\n}\n",
        ] {
            assert!(
                !implements_without(&home, "Binder", "getProvider", not_an_implementation),
                "{not_an_implementation}"
            );
        }
        let complete = implementation.replace(
            "void bind() {}",
            "void bind() {}\n  Provider getProvider(Key k) { return null; }",
        );
        assert!(!implements_without(
            &home,
            "Binder",
            "getProvider",
            &complete
        ));
        let rust = Home {
            path: "src/map/mutable.rs",
            grammar: Grammar::Rust,
            source: "",
        };
        assert!(implements_without(
            &rust,
            "MutableKeys",
            "iter_mut2",
            "impl<K, V> MutableKeys for Map<K, V> {\n    fn get_full_mut2(&mut self) {}\n}\n"
        ));
        assert!(!implements_without(
            &rust,
            "MutableKeys",
            "iter_mut2",
            "fn f(m: &mut impl MutableKeys) { m.get_full_mut2(); }\n"
        ));
    }

    #[test]
    fn a_name_in_a_comment_or_a_string_is_not_a_use() {
        // tower #499 removed `ServiceExt::with`; these files import `ServiceExt` and write
        // "with" only in prose.
        let home = Home {
            path: "tower/src/util/mod.rs",
            grammar: Grammar::Rust,
            source: "",
        };
        let prose = "use crate::util::ServiceExt;\nconst Q: char = '\"';\n/// Wrap the future with a `FutureService`.\n\
            /* called with /* nested */ care */\nfn f() { assert!(x, \"should fail with a Closed\"); }\n";
        assert!(!uses(
            &home,
            "ServiceExt::with",
            "tower/src/util/future_service.rs",
            prose
        ));
        let call = format!("{prose}fn g(s: S) {{ s.with(|r| r); }}\n");
        assert!(uses(
            &home,
            "ServiceExt::with",
            "tower/src/util/future_service.rs",
            &call
        ));
        // Go imports are strings, and still resolve.
        let home = Home {
            path: "pkg/cfg/cfg.go",
            grammar: Grammar::Go,
            source: "package cfg\n",
        };
        let text = "import \"example.com/m/pkg/cfg\"\n// cfg.Load is gone\nvar s = `cfg.Load`\n";
        assert!(!uses(&home, "Load", "cmd/main.go", text));
        assert!(uses(
            &home,
            "Load",
            "cmd/main.go",
            &format!("{text}func main() {{ cfg.Load(\"x\") }}\n")
        ));
        // Python: `#` comments and docstrings.
        let home = Home {
            path: "flask/app.py",
            grammar: Grammar::Python,
            source: "",
        };
        let text = "from .app import Flask\n\"\"\"Flask.run was here\"\"\"\n# Flask.run\n";
        assert!(!uses(&home, "Flask.run", "flask/cli.py", text));
        assert!(uses(
            &home,
            "Flask.run",
            "flask/cli.py",
            &format!("{text}Flask.run(app)\n")
        ));
    }

    #[test]
    fn resolution_by_import_not_by_name() {
        let home = Home {
            path: "src/lib/parse.ts",
            grammar: Grammar::TypeScript,
            source: "",
        };
        assert!(uses(
            &home,
            "parse",
            "src/app.ts",
            "import { parse } from './lib/parse';\nparse(x);"
        ));
        assert!(!uses(
            &home,
            "parse",
            "src/app.ts",
            "import { parse } from './other';\nparse(x);"
        ));
        let home = Home {
            path: "flask/app.py",
            grammar: Grammar::Python,
            source: "",
        };
        assert!(uses(
            &home,
            "Flask",
            "flask/cli.py",
            "from .app import Flask\n"
        ));
        assert!(!uses(
            &home,
            "Flask",
            "other/x.py",
            "class Flask:\n    pass\n"
        ));
        let home = Home {
            path: "pkg/cfg/cfg.go",
            grammar: Grammar::Go,
            source: "package cfg\n",
        };
        assert!(uses(
            &home,
            "Load",
            "cmd/main.go",
            "import \"example.com/m/pkg/cfg\"\nfunc main() { cfg.Load(\"x\") }"
        ));
        assert!(!uses(
            &home,
            "Load",
            "cmd/main.go",
            "func main() { Load(\"x\") }"
        ));
        let home = Home {
            path: "src/a/B.java",
            grammar: Grammar::Java,
            source: "package com.x.a;\n",
        };
        assert!(uses(
            &home,
            "B.getName(int)",
            "src/c/C.java",
            "import com.x.a.B;\nb.getName(1);"
        ));
        assert!(!uses(
            &home,
            "B.getName(int)",
            "src/c/C.java",
            "import com.y.B;\nb.getName(1);"
        ));
    }
}
