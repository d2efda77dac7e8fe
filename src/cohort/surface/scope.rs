//! Which files carry a public API at all, and which of a file's names are exported: test
//! code, examples, benches and fixtures never do; nor Go `internal/` packages, `package main`,
//! Python `_private` modules, Java packages a `module-info.java` does not export, Rust binary,
//! unpublished or proc-macro crates. A Rust file behind a private `mod` exports only what an
//! ancestor re-exports with `pub use`.

use std::collections::BTreeSet;

use crate::cohort::grammar::Grammar;
use crate::cohort::paths::parent_dir;
use crate::diff::is_test_path;

use super::api_scope::{Read, Scope};

/// Directories a tool ignores wherever they are (Go's `testdata`), or that hold test or fixture
/// code by their name at any depth.
fn tooling_dir(dir: &str) -> bool {
    matches!(
        dir,
        "fixtures" | "fixture" | "testdata" | "test_data" | "test-data" | "testing_utils"
    ) || dir.starts_with("tests-")
        || dir.starts_with("tests_")
        || dir.starts_with("test-")
        || dir.starts_with("test_")
        || dir.ends_with("-tests")
        || dir.ends_with("_tests")
        || dir.ends_with("-examples")
        || dir.ends_with("-benches")
}

/// A project's folders beside its source: examples, benches, docs, scripts, the built
/// `dist/` (its API is the sources it is built from). (`doc/` is not
/// one: Go packages are named so, e.g. `github.com/spf13/cobra/doc`.)
fn project_dir(dir: &str) -> bool {
    matches!(
        dir,
        "examples"
            | "example"
            | "benches"
            | "bench"
            | "benchmarks"
            | "benchmark"
            | "docs"
            | "samples"
            | "sample"
            | "demo"
            | "demos"
            | "scripts"
            | "e2e"
            | "ci"
            | ".github"
            | "xtask"
            | "dist"
    ) || [
        "docs",
        "examples",
        "example",
        "samples",
        "tutorial",
        "tutorials",
        "benchmarks",
        "demo",
    ]
    .iter()
    // `docs_src/` (typer, FastAPI: the tutorials' code), `examples-src/`: the same folders
    // with a qualifier. Only as a prefix: `pytest_benchmark/` is a package.
    .any(|word| {
        dir.strip_prefix(word)
            .is_some_and(|rest| rest.starts_with('_') || rest.starts_with('-'))
    })
}

/// Source roots: below one, folders are the language's packages and modules (Java's
/// `src/main/java/com/example`, Rust's `src/bench/`), which its own rules make public or not.
fn source_root(dir: &str) -> bool {
    matches!(dir, "src" | "lib" | "java" | "kotlin" | "scala")
}

/// Paths whose code is not anyone's API, whatever the language. The first folder that says what
/// its code is decides: a project folder (`examples/`, `crates/x/benches/`) before any source
/// root, not a package that happens to share its name (`src/main/java/com/example/`).
pub fn not_api_path(path: &str) -> bool {
    if is_test_path(path) {
        return true;
    }
    let mut parts: Vec<&str> = path.split('/').collect();
    let file = parts.pop().unwrap_or(path);
    // The repository's own `tools/` (rich's `tools/make_terminal_widths.py`): the maintainers'
    // scripts. Only at the top: deeper, `tools` is as often a package (`langchain/tools/`).
    if parts
        .first()
        .is_some_and(|top| top.eq_ignore_ascii_case("tools"))
    {
        return true;
    }
    let mut below_source_root = false;
    for dir in parts {
        let dir = dir.to_ascii_lowercase();
        if tooling_dir(&dir) || (!below_source_root && project_dir(&dir)) {
            return true;
        }
        below_source_root |= source_root(&dir);
    }
    // A minified bundle is built from the sources that carry its API.
    let minified = [".min.js", ".min.mjs", ".min.cjs"]
        .iter()
        .any(|suffix| file.ends_with(suffix));
    minified
        || matches!(
            file,
            "conftest.py" | "setup.py" | "noxfile.py" | "build.rs" | "fuzz.rs"
            // What `python -m package` runs: a command line, not names to import (pyjwt #501
            // removed its CLI's `build_argparser`).
            | "__main__.py"
        )
}

pub fn scope(path: &str, grammar: Grammar, source: &str, read: Read) -> Scope {
    if not_api_path(path) {
        return Scope::NotApi("test, example, bench or fixture code");
    }
    let dirs: Vec<&str> = parent_dir(path)
        .split('/')
        .filter(|d| !d.is_empty())
        .collect();
    match grammar {
        Grammar::Go => {
            if dirs.contains(&"internal") {
                return Scope::NotApi("an internal package");
            }
            let package = source
                .lines()
                .map(str::trim)
                .find(|l| l.starts_with("package "))
                .unwrap_or("");
            if package == "package main" {
                return Scope::NotApi("package main");
            }
            Scope::Exported
        }
        Grammar::Python => {
            let file = path.rsplit('/').next().unwrap_or(path);
            let stem = file.strip_suffix(".py").unwrap_or(file);
            let private = dirs.iter().chain(std::iter::once(&stem)).any(|part| {
                part.starts_with('_') && !(part.starts_with("__") && part.ends_with("__"))
            });
            if private {
                return Scope::NotApi("a private module");
            }
            Scope::Exported
        }
        Grammar::Java => {
            if dirs.iter().any(|d| *d == "internal" || *d == "impl") {
                return Scope::NotApi("an internal package");
            }
            java_module(&dirs, read)
        }
        Grammar::Rust => rust_scope(path, read),
        Grammar::JavaScript | Grammar::TypeScript | Grammar::Tsx => {
            if dirs.iter().any(|d| *d == "internal" || *d == "__mocks__") {
                return Scope::NotApi("an internal module");
            }
            super::entry_points::script_scope(path, read).unwrap_or(Scope::Exported)
        }
        // Read from the tags, whose changes only warn: every file outside test, example and
        // fixture code counts.
        Grammar::C
        | Grammar::Cpp
        | Grammar::CSharp
        | Grammar::Ruby
        | Grammar::Php
        | Grammar::Kotlin => Scope::Exported,
    }
}

/// A Java package is exported unless a `module-info.java` above it leaves it out (or exports it
/// only `to` named friends).
fn java_module(dirs: &[&str], read: Read) -> Scope {
    for depth in (0..=dirs.len()).rev() {
        let root = dirs[..depth].join("/");
        let info_path = if root.is_empty() {
            "module-info.java".to_string()
        } else {
            format!("{root}/module-info.java")
        };
        let Some(info) = read(&info_path) else {
            continue;
        };
        let package = dirs[depth..].join(".");
        let exported = info.split(';').any(|statement| {
            let words: Vec<&str> = statement.split_whitespace().collect();
            matches!(words.as_slice(), ["exports", p] if *p == package)
        });
        return if exported {
            Scope::Exported
        } else {
            Scope::NotApi("a package its module does not export")
        };
    }
    Scope::Exported
}

/// The nearest `Cargo.toml` above `path`, and the path relative to its directory.
fn crate_of<'p>(path: &'p str, read: Read) -> Option<(String, String, &'p str)> {
    let dirs: Vec<&str> = parent_dir(path)
        .split('/')
        .filter(|d| !d.is_empty())
        .collect();
    for depth in (0..=dirs.len()).rev() {
        let root = dirs[..depth].join("/");
        let manifest = if root.is_empty() {
            "Cargo.toml".to_string()
        } else {
            format!("{root}/Cargo.toml")
        };
        if let Some(text) = read(&manifest) {
            let relative = if root.is_empty() {
                path
            } else {
                &path[root.len() + 1..]
            };
            return Some((root, text, relative));
        }
    }
    None
}

fn rust_scope(path: &str, read: Read) -> Scope {
    let Some((root, manifest, relative)) = crate_of(path, read) else {
        return Scope::Exported;
    };
    let compact: String = manifest.chars().filter(|c| !c.is_whitespace()).collect();
    if compact.contains("proc-macro=true") || compact.contains("proc_macro=true") {
        return Scope::NotApi("a proc-macro crate (its items are not callable from outside)");
    }
    if compact.contains("publish=false") {
        return Scope::Unpublished("publish = false in its Cargo.toml");
    }
    let Some(inner) = relative.strip_prefix("src/") else {
        return Scope::NotApi("outside the crate's src/");
    };
    let at = |p: &str| {
        if root.is_empty() {
            p.to_string()
        } else {
            format!("{root}/{p}")
        }
    };
    if inner == "main.rs" || inner.starts_with("bin/") {
        return Scope::NotApi("a binary target");
    }
    let lib = at("src/lib.rs");
    let Some(lib_text) = read(&lib) else {
        return Scope::NotApi("a crate without a library target");
    };
    // The module path: `src/a/b.rs` and `src/a/b/mod.rs` are `a::b`.
    let stem = inner.strip_suffix(".rs").unwrap_or(inner);
    let mut segments: Vec<&str> = stem.split('/').collect();
    if segments.last() == Some(&"mod") {
        segments.pop();
    }
    if segments == ["lib"] {
        return Scope::Exported;
    }
    let mut ancestors = vec![lib_text];
    let mut private_from: Option<usize> = None;
    for (i, segment) in segments.iter().enumerate() {
        let parent = ancestors.last().cloned().unwrap_or_default();
        // `#[doc(hidden)] pub mod __private_api;` (log #664): public only for the crate's own
        // macros, outside the documented API, as cargo-semver-checks reads it too.
        if declared_doc_hidden(&parent, segment) {
            return Scope::NotApi("inside a `#[doc(hidden)]` module (not the documented API)");
        }
        match declared_public(&parent, segment) {
            Some(false) if private_from.is_none() => private_from = Some(i),
            _ => {}
        }
        if i + 1 < segments.len() {
            let dir = segments[..=i].join("/");
            let text = read(&at(&format!("src/{dir}.rs")))
                .or_else(|| read(&at(&format!("src/{dir}/mod.rs"))))
                .unwrap_or_default();
            ancestors.push(text);
        }
    }
    let Some(first_private) = private_from else {
        return Scope::Exported;
    };
    // Behind a private module: exported only through `pub use` of that module's names.
    let hidden = segments[first_private];
    let mut names = BTreeSet::new();
    for text in &ancestors {
        for statement in pub_uses(text) {
            let Some(at) = statement.find(&format!("{hidden}::")) else {
                continue;
            };
            let rest = &statement[at + hidden.len() + 2..];
            for word in rest.split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '*')) {
                if !word.is_empty() && !matches!(word, "self" | "super" | "crate" | "as") {
                    names.insert(word.to_string());
                }
            }
        }
    }
    if names.contains("*") {
        return Scope::Exported;
    }
    Scope::Only(names)
}

/// The pattern of a `mod name` declaration (with its visibility), compiled once per name: a
/// range's files ask about the same few modules.
fn mod_declaration(name: &str) -> Option<regex::Regex> {
    thread_local! {
        static PATTERNS: std::cell::RefCell<std::collections::HashMap<String, Option<regex::Regex>>> =
            Default::default();
    }
    PATTERNS.with_borrow_mut(|patterns| {
        // Bounded for a long-lived process reviewing many repositories.
        if patterns.len() > 4096 {
            patterns.clear();
        }
        patterns
            .entry(name.to_string())
            .or_insert_with(|| {
                regex::Regex::new(&format!(
                    r"(?m)(pub(\s*\([^)]*\))?\s+)?mod\s+{}\s*[;{{]",
                    regex::escape(name)
                ))
                .ok()
            })
            .clone()
    })
}

/// Whether `text` declares `mod name` as `pub` (`Some(true)`), restricted or private
/// (`Some(false)`), or not at all (`None`: declared by a macro or a `#[path]` we do not
/// follow). The text is scanned, not parsed, so declarations inside macro calls count.
fn declared_public(text: &str, name: &str) -> Option<bool> {
    let pattern = mod_declaration(name)?;
    let mut found = None;
    for capture in pattern.captures_iter(text) {
        let public = capture.get(1).is_some() && capture.get(2).is_none();
        if public {
            return Some(true);
        }
        found = Some(false);
    }
    found
}

/// Whether `text` declares `mod name` with `#[doc(hidden)]` among the attributes (and
/// comments) directly above it, or before it on its line.
fn declared_doc_hidden(text: &str, name: &str) -> bool {
    let Some(pattern) = mod_declaration(name) else {
        return false;
    };
    pattern
        .find_iter(text)
        .any(|found| attributes_above_hide(text, found.start()))
}

/// The text of every `pub use ...;` statement (not `pub(crate) use`), but those inside an
/// inline `#[doc(hidden)]` module: regex 0.1 re-exported its private engine through
/// `#[doc(hidden)] pub mod internal { pub use program::{Program, Inst}; }`, which makes those
/// names reachable only outside the documented API, as `#[doc(hidden)] pub mod x;` does.
fn pub_uses(text: &str) -> Vec<&str> {
    let hidden = hidden_inline_modules(text);
    let mut out = Vec::new();
    let mut offset = 0;
    while let Some(at) = text[offset..].find("pub use ") {
        let start = offset + at;
        let after = &text[start..];
        let end = after.find(';').unwrap_or(after.len());
        if !hidden.iter().any(|block| block.contains(&start)) {
            out.push(&after[..end]);
        }
        offset = start + end;
    }
    out
}

/// The byte ranges of the bodies of inline modules declared `#[doc(hidden)]`
/// (`#[doc(hidden)] pub mod internal { … }`). Braces are counted outside `//` comments;
/// a string holding an unbalanced brace can only shorten or lengthen the range it is in.
fn hidden_inline_modules(text: &str) -> Vec<std::ops::Range<usize>> {
    static INLINE_MOD: std::sync::LazyLock<Option<regex::Regex>> = std::sync::LazyLock::new(|| {
        regex::Regex::new(r"(?m)(pub(\s*\([^)]*\))?\s+)?mod\s+[A-Za-z_][A-Za-z0-9_]*\s*\{").ok()
    });
    let Some(pattern) = INLINE_MOD.as_ref() else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for found in pattern.find_iter(text) {
        if !attributes_above_hide(text, found.start()) {
            continue;
        }
        let body = found.end();
        let mut depth = 1usize;
        let mut end = text.len();
        let mut in_comment = false;
        let bytes = text.as_bytes();
        let mut i = body;
        while i < bytes.len() {
            match bytes[i] {
                b'\n' => in_comment = false,
                b'/' if !in_comment && bytes.get(i + 1) == Some(&b'/') => in_comment = true,
                b'{' if !in_comment => depth += 1,
                b'}' if !in_comment => {
                    depth -= 1;
                    if depth == 0 {
                        end = i;
                        break;
                    }
                }
                _ => {}
            }
            i += 1;
        }
        out.push(body..end);
    }
    out
}

/// Whether the attributes (and comments) directly above `at`, or before it on its line, hold
/// `#[doc(hidden)]`.
fn attributes_above_hide(text: &str, at: usize) -> bool {
    text[..at]
        .trim_end_matches([' ', '\t'])
        .lines()
        .rev()
        .map(str::trim)
        .take_while(|line| line.starts_with("#[") || line.starts_with("//"))
        .any(|line| {
            let compact: String = line.chars().filter(|c| !c.is_whitespace()).collect();
            compact.contains("doc(hidden)")
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_doc_hidden_module_is_not_api() {
        let lib = "// not public API\n#[doc(hidden)]\npub mod __private_api;\n\n#[doc = \"x\"]\npub mod kv;\n";
        assert!(declared_doc_hidden(lib, "__private_api"));
        assert!(!declared_doc_hidden(lib, "kv"));
        assert!(declared_doc_hidden(
            "    #[doc(hidden)] pub mod macros;",
            "macros"
        ));
        assert!(!declared_doc_hidden("cfg_rt! {\n    pub mod rt;\n}", "rt"));
        let files = |path: &str| match path {
            "Cargo.toml" => Some("[package]\nname = \"log\"\nversion = \"0.4.22\"\n".to_string()),
            "src/lib.rs" => Some(lib.to_string()),
            _ => None,
        };
        assert!(matches!(
            rust_scope("src/__private_api.rs", &files),
            Scope::NotApi(_)
        ));
        assert!(matches!(
            rust_scope("src/kv/value.rs", &files),
            Scope::Exported
        ));
    }

    #[test]
    fn a_re_export_inside_a_doc_hidden_inline_module_exports_nothing() {
        // regex 0.1.x (#114, #148, #173): the engine's types were reachable only through
        // `regex::internal`, a hidden module for the `regex!` macro.
        let lib = "mod compile;\nmod program;\npub use re::Regex;\n\n\
            /// For the `regex!` macro { only.\n#[doc(hidden)]\npub mod internal {\n\
            \x20   // { an unbalanced brace in a comment\n\
            \x20   pub use program::{Program, CharRanges};\n\
            \x20   pub mod nested { pub use compile::Compiler; }\n\
            }\n\npub use compile::Options;\n";
        let files = |path: &str| match path {
            "Cargo.toml" => Some("[package]\nname = \"regex\"\nversion = \"0.1.46\"\n".to_string()),
            "src/lib.rs" => Some(lib.to_string()),
            _ => None,
        };
        match rust_scope("src/program.rs", &files) {
            Scope::Only(names) => assert!(names.is_empty(), "{names:?}"),
            other => panic!("{other:?}"),
        }
        // A re-export after the hidden block still counts, and one inside it does not.
        match rust_scope("src/compile.rs", &files) {
            Scope::Only(names) => {
                assert_eq!(names.into_iter().collect::<Vec<_>>(), ["Options"])
            }
            other => panic!("{other:?}"),
        }
        // The same re-export in a documented module exports the names.
        let shown = lib.replace("#[doc(hidden)]\n", "");
        let files = |path: &str| match path {
            "Cargo.toml" => Some("[package]\nname = \"regex\"\nversion = \"0.1.46\"\n".to_string()),
            "src/lib.rs" => Some(shown.clone()),
            _ => None,
        };
        match rust_scope("src/program.rs", &files) {
            Scope::Only(names) => assert!(names.contains("CharRanges"), "{names:?}"),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn rust_module_declarations() {
        assert_eq!(declared_public("pub mod net;\nmod io;", "net"), Some(true));
        assert_eq!(declared_public("pub mod net;\nmod io;", "io"), Some(false));
        assert_eq!(declared_public("pub(crate) mod io;", "io"), Some(false));
        assert_eq!(
            declared_public("cfg_net! {\n    pub mod net;\n}", "net"),
            Some(true)
        );
        assert_eq!(declared_public("", "x"), None);
    }

    #[test]
    fn paths_without_api() {
        for path in [
            "examples/a.rs",
            "benches/b.rs",
            "tests-integration/src/lib.rs",
            "pkg/testdata/x.go",
            "tests/fixtures/a.py",
            "build.rs",
            "crates/net/examples/echo.rs",
            "docs/src/snippet.rs",
            "docs_src/exceptions/tutorial002_py39.py",
            "examples-src/app.ts",
            "examples/src/main/java/com/acme/Demo.java",
            "src/main/java/com/acme/testdata/Data.java",
            "dist/axios.js",
            "lib/vendor/jquery.min.js",
            "tools/make_terminal_widths.py",
            "jwt/__main__.py",
        ] {
            assert!(not_api_path(path), "{path}");
        }
        // Below a source root a folder is a package or module, whatever its name.
        for path in [
            "src/lib.rs",
            "pkg/parse.go",
            "flask/app.py",
            "src/main/java/com/example/Client.java",
            "gson/src/main/java/com/example/demo/Api.java",
            "src/bench/mod.rs",
            "lib/samples/index.js",
            "pytest_benchmark/fixture.py",
            "src/docs_src/page.py",
            "langchain/tools/base.py",
            "src/tools/mod.rs",
        ] {
            assert!(!not_api_path(path), "{path}");
        }
    }
}
