//! Which files carry a public API at all, and which of a file's names are exported: test
//! code, examples, benches and fixtures never do; nor Go `internal/` packages, `package main`,
//! Python `_private` modules, Java packages a `module-info.java` does not export, Rust binary,
//! unpublished or proc-macro crates. A Rust file behind a private `mod` exports only what an
//! ancestor re-exports with `pub use`.

use std::collections::BTreeSet;

use crate::cohort::grammar::Grammar;
use crate::cohort::paths::parent_dir;
use crate::diff::is_test_path;

use super::visibility::{Read, Visibility};

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

/// Whether the file at `path` (its text `source`, in `grammar`) carries an API, and which of
/// its names: nothing in test, example, bench or fixture code, else its language's rule (see
/// [`super::lang::Language::scope`]). Rust's and Java's rules are still here, beside the
/// module and build-file reading they share with the rest of this file.
pub fn scope(path: &str, grammar: Grammar, source: &str, read: Read) -> Visibility {
    if not_api_path(path) {
        return Visibility::NotApi("test, example, bench or fixture code");
    }
    let dirs: Vec<&str> = parent_dir(path)
        .split('/')
        .filter(|d| !d.is_empty())
        .collect();
    match grammar {
        Grammar::Rust => rust_scope(path, read),
        Grammar::Java => java_scope(&dirs, read),
        _ => match super::lang::of(grammar) {
            Some(language) => language.scope(path, &dirs, source, read),
            None => Visibility::Exported,
        },
    }
}

/// Java's rule: not in an `internal` or `impl` package, a published module, a package its
/// `module-info.java` exports.
fn java_scope(dirs: &[&str], read: Read) -> Visibility {
    if dirs.iter().any(|d| *d == "internal" || *d == "impl") {
        return Visibility::NotApi("an internal package");
    }
    if let Some(why) = jvm_unpublished(dirs, read) {
        return Visibility::Unpublished(why);
    }
    java_module(dirs, read)
}

/// Why the JVM module holding a file in `dirs` is never published, read from its nearest
/// build file: a Maven module whose `maven-deploy-plugin` is skipped (gson's `extras` and
/// `codegen`: `<skip>true</skip>`, "Currently not deployed") or that sets
/// `maven.deploy.skip`; a Gradle project (its own build file and the root one) that never
/// mentions publishing. As `publish = false` for a Rust crate: nothing in it is a contract.
fn jvm_unpublished(dirs: &[&str], read: Read) -> Option<&'static str> {
    for depth in (0..=dirs.len()).rev() {
        let at = |file: &str| {
            if depth == 0 {
                file.to_string()
            } else {
                format!("{}/{file}", dirs[..depth].join("/"))
            }
        };
        if let Some(pom) = read(&at("pom.xml")) {
            // The parent's pom, one folder up (Maven's default `relativePath`): it may
            // configure the plugin with a property the module overrides.
            let parent = (depth > 0)
                .then(|| {
                    let above = dirs[..depth - 1].join("/");
                    read(&if above.is_empty() {
                        "pom.xml".to_string()
                    } else {
                        format!("{above}/pom.xml")
                    })
                })
                .flatten();
            return maven_deploy_skipped(&pom, parent.as_deref())
                .then_some("its Maven module skips maven-deploy-plugin (never deployed)");
        }
        let gradle = read(&at("build.gradle.kts")).or_else(|| read(&at("build.gradle")));
        if let Some(build) = gradle {
            let root = read("build.gradle.kts")
                .or_else(|| read("build.gradle"))
                .unwrap_or_default();
            let publishes = |text: &str| text.to_ascii_lowercase().contains("publish");
            return (!publishes(&build) && !publishes(&root))
                .then_some("its Gradle project has no publishing");
        }
    }
    None
}

/// Whether a `pom.xml` turns deployment off for its module: `maven.deploy.skip` set to true,
/// or a `maven-deploy-plugin` whose configuration says `<skip>true</skip>`, written in the
/// module or in its `parent` pom, with `${property}` values read from the module's properties
/// over the parent's (gson's parent writes `<skip>${gson.isInternalModule}</skip>` and
/// `extras` sets that property to true: "this module is currently not deployed").
fn maven_deploy_skipped(pom: &str, parent: Option<&str>) -> bool {
    let compact = |text: &str| -> String { text.chars().filter(|c| !c.is_whitespace()).collect() };
    let pom = compact(pom);
    let parent = parent.map(compact).unwrap_or_default();
    let property = |name: &str| -> Option<String> {
        let open = format!("<{name}>");
        let close = format!("</{name}>");
        [&pom, &parent].iter().find_map(|text| {
            let properties = &text[text.find("<properties>")?..];
            let properties = &properties[..properties.find("</properties>")?];
            let start = properties.find(&open)? + open.len();
            let end = start + properties[start..].find(&close)?;
            Some(properties[start..end].to_string())
        })
    };
    // `${a}` resolved through properties, a few steps.
    let value = |raw: &str| -> String {
        let mut current = raw.to_string();
        for _ in 0..4 {
            match current
                .strip_prefix("${")
                .and_then(|rest| rest.strip_suffix('}'))
                .and_then(&property)
            {
                Some(next) => current = next,
                None => break,
            }
        }
        current
    };
    if property("maven.deploy.skip").is_some_and(|v| value(&v) == "true") {
        return true;
    }
    let skip_of = |text: &str| -> Option<String> {
        text.match_indices("<artifactId>maven-deploy-plugin</artifactId>")
            .find_map(|(at, _)| {
                let rest = &text[at..];
                let plugin = &rest[..rest.find("</plugin>").unwrap_or(rest.len())];
                let start = plugin.find("<skip>")? + "<skip>".len();
                let end = start + plugin[start..].find("</skip>")?;
                Some(plugin[start..end].to_string())
            })
    };
    skip_of(&pom)
        .or_else(|| skip_of(&parent))
        .is_some_and(|skip| value(&skip) == "true")
}

/// A Java package is exported unless a `module-info.java` above it leaves it out (or exports it
/// only `to` named friends).
fn java_module(dirs: &[&str], read: Read) -> Visibility {
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
            Visibility::Exported
        } else {
            Visibility::NotApi("a package its module does not export")
        };
    }
    Visibility::Exported
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

fn rust_scope(path: &str, read: Read) -> Visibility {
    let Some((root, manifest, relative)) = crate_of(path, read) else {
        return Visibility::Exported;
    };
    let compact: String = manifest.chars().filter(|c| !c.is_whitespace()).collect();
    if compact.contains("proc-macro=true") || compact.contains("proc_macro=true") {
        return Visibility::NotApi("a proc-macro crate (its items are not callable from outside)");
    }
    if compact.contains("publish=false") {
        return Visibility::Unpublished("publish = false in its Cargo.toml");
    }
    let Some(inner) = relative.strip_prefix("src/") else {
        return Visibility::NotApi("outside the crate's src/");
    };
    let at = |p: &str| {
        if root.is_empty() {
            p.to_string()
        } else {
            format!("{root}/{p}")
        }
    };
    if inner == "main.rs" || inner.starts_with("bin/") {
        return Visibility::NotApi("a binary target");
    }
    let lib = at("src/lib.rs");
    let Some(lib_text) = read(&lib) else {
        return Visibility::NotApi("a crate without a library target");
    };
    // The module path: `src/a/b.rs` and `src/a/b/mod.rs` are `a::b`.
    let stem = inner.strip_suffix(".rs").unwrap_or(inner);
    let mut segments: Vec<&str> = stem.split('/').collect();
    if segments.last() == Some(&"mod") {
        segments.pop();
    }
    if segments == ["lib"] {
        return Visibility::Exported;
    }
    // Walk down from the crate root, one module at a time: a plain `mod b;` in the file
    // that holds `a` is `a/b.rs` or `a/b/mod.rs`, while `#[path = "…"]` loads any file as
    // any module (serde: `#[path = "private/mod.rs"] pub mod __private;`).
    let mut modules: Vec<String> = Vec::new();
    let mut unstable: Option<BTreeSet<String>> = None;
    let mut ancestors = vec![lib_text];
    let mut parent_path = lib;
    let mut dir = at("src");
    let mut rest: Vec<&str> = segments;
    let mut private_from: Option<usize> = None;
    while !rest.is_empty() {
        let parent = ancestors.last().cloned().unwrap_or_default();
        let loaded = path_modules(&parent, parent_dir(&parent_path))
            .into_iter()
            .find_map(|(name, target)| {
                if target == path {
                    return Some((name, None));
                }
                let below = target.strip_suffix("/mod.rs")?;
                path.strip_prefix(below)?
                    .starts_with('/')
                    .then(|| (name, Some(below.to_string())))
            });
        let segment = match &loaded {
            Some((name, _)) => name.clone(),
            None => rest[0].to_string(),
        };
        let mut declared = Declared::read(&parent, &segment);
        // Declared only inside calls of the crate's own macros that put items behind an
        // opt-in `cfg` (tokio 1.37's `cfg_metrics! { mod metrics; … }`, whose
        // `macro_rules!` writes `#[cfg(all(tokio_unstable, not(loom)))]`).
        if !declared.opt_in && declared.public.is_some() && parent.contains('!') {
            let unstable = unstable.get_or_insert_with(|| crate_unstable_macros(&root, read));
            declared.opt_in = declared_only_inside(&parent, &segment, unstable);
        }
        // `#[doc(hidden)] pub mod __private_api;` (log #664): public only for the crate's own
        // macros, outside the documented API, as cargo-semver-checks reads it too.
        if declared.doc_hidden {
            return Visibility::NotApi("inside a `#[doc(hidden)]` module (not the documented API)");
        }
        if declared.opt_in {
            return Visibility::NotApi(
                "inside a module behind an opt-in unstable feature or `cfg` (outside the \
                 crate's semver promise)",
            );
        }
        match declared.public {
            Some(false) if private_from.is_none() => private_from = Some(modules.len()),
            _ => {}
        }
        modules.push(segment);
        match loaded {
            // The file itself.
            Some((_, None)) => break,
            Some((_, Some(below))) => {
                let inside = &path[below.len() + 1..];
                let stem = inside.strip_suffix(".rs").unwrap_or(inside);
                rest = stem.split('/').collect();
                if rest.last() == Some(&"mod") {
                    rest.pop();
                }
                parent_path = format!("{below}/mod.rs");
                if !rest.is_empty() {
                    ancestors.push(read(&parent_path).unwrap_or_default());
                }
                dir = below;
            }
            None => {
                let module_dir = format!("{dir}/{}", rest[0]);
                rest.remove(0);
                if !rest.is_empty() {
                    let file = format!("{module_dir}.rs");
                    let (found, text) = match read(&file) {
                        Some(text) => (file, text),
                        None => {
                            let file = format!("{module_dir}/mod.rs");
                            // Neither file: the module is inline (`pub mod naive { mod
                            // time; … }` in chrono's lib.rs), so its children are declared
                            // in the text that holds it.
                            let text = read(&file).unwrap_or(parent);
                            (file, text)
                        }
                    };
                    parent_path = found;
                    ancestors.push(text);
                }
                dir = module_dir;
            }
        }
    }
    let Some(first_private) = private_from else {
        return Visibility::Exported;
    };
    // Behind a private module: exported only through `pub use` of that module's names, by an
    // ancestor (`pub use self::core::Entry;`) or by a public module anywhere in the crate
    // naming it from the root (indexmap 2.13.0: `mod inner;` in lib.rs, `pub use
    // crate::inner::{OccupiedEntry, VacantEntry};` in the public `map.rs`).
    let hidden = modules[first_private].as_str();
    let absolute = format!("crate::{}", modules[..=first_private].join("::"));
    let mut names = BTreeSet::new();
    for text in &ancestors {
        for statement in pub_uses(text) {
            re_exported(statement, hidden, &mut names);
        }
    }
    // Read only when no ancestor re-exports anything of the module: up to 64 files for each
    // changed file behind a private module slowed a 749-file tokio range by 7 %.
    if names.is_empty() {
        for text in public_module_texts(&at("src"), &ancestors[0], read) {
            for statement in pub_uses(&text) {
                re_exported(statement, &absolute, &mut names);
            }
        }
    }
    if names.contains("*") {
        return Visibility::Exported;
    }
    Visibility::Only(names)
}

/// The crate's own macros that wrap items in a `cfg` no stable build of a user selects: each
/// `macro_rules! name` whose body writes such a `#[cfg(…)]` (tokio's `cfg_metrics`,
/// `cfg_unstable_metrics`: `#[cfg(tokio_unstable)] $item`). Read from the crate root at
/// `root` (`""` at the repository's root): `src/lib.rs`, and `src/macros.rs` or
/// `src/macros/mod.rs` with the files it declares, where crates keep such macros.
pub fn crate_unstable_macros(root: &str, read: Read) -> BTreeSet<String> {
    const MAX_FILES: usize = 32;
    let at = |p: &str| {
        if root.is_empty() {
            p.to_string()
        } else {
            format!("{root}/{p}")
        }
    };
    let mut texts: Vec<String> = Vec::new();
    texts.extend(read(&at("src/lib.rs")));
    texts.extend(read(&at("src/macros.rs")));
    if let Some(module) = read(&at("src/macros/mod.rs")) {
        static MOD: std::sync::LazyLock<Option<regex::Regex>> = std::sync::LazyLock::new(|| {
            regex::Regex::new(
                r"(?m)^[ \t]*(?:pub(?:\([^)]*\))?[ \t]+)?mod[ \t]+([A-Za-z_][A-Za-z0-9_]*)[ \t]*;",
            )
            .ok()
        });
        if let Some(pattern) = MOD.as_ref() {
            for capture in pattern.captures_iter(&module).take(MAX_FILES) {
                let name = &capture[1];
                texts.extend(
                    read(&at(&format!("src/macros/{name}.rs")))
                        .or_else(|| read(&at(&format!("src/macros/{name}/mod.rs")))),
                );
            }
        }
        texts.push(module);
    }
    let mut out = BTreeSet::new();
    for text in &texts {
        for (at, _) in text.match_indices("macro_rules!") {
            let rest = text[at + "macro_rules!".len()..].trim_start();
            let name: String = rest
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            let Some(open) = rest[name.len()..].trim_start().strip_prefix('{') else {
                continue;
            };
            let body_start = text.len() - open.len();
            let body = &text[body_start..block_end(text, body_start)];
            if !name.is_empty() && writes_opt_in_cfg(body) {
                out.insert(name);
            }
        }
    }
    out
}

/// [`crate_unstable_macros`] of the crate holding the file at `path`.
pub fn unstable_macros_of(path: &str, read: Read) -> BTreeSet<String> {
    crate_of(path, read)
        .map(|(root, _, _)| crate_unstable_macros(&root, read))
        .unwrap_or_default()
}

/// Whether a macro body writes a `#[cfg(…)]` no stable build of a user selects.
fn writes_opt_in_cfg(body: &str) -> bool {
    body.match_indices("#[cfg(").any(|(at, _)| {
        let inner = &body[at + "#[cfg(".len()..];
        let mut depth = 1usize;
        let end = inner.char_indices().find_map(|(i, c)| {
            match c {
                '(' => depth += 1,
                ')' => {
                    depth -= 1;
                    if depth == 0 {
                        return Some(i);
                    }
                }
                _ => {}
            }
            None
        });
        end.is_some_and(|end| {
            let predicate: String = inner[..end]
                .chars()
                .filter(|c| !c.is_whitespace())
                .collect();
            !super::lang::rust::extract::stable(&predicate)
        })
    })
}

/// Whether every `mod name` declaration of `text` lies inside a call of one of `macros`.
fn declared_only_inside(text: &str, name: &str, macros: &BTreeSet<String>) -> bool {
    if macros.is_empty() {
        return false;
    }
    let blocks = macro_call_blocks(text, macros);
    let Some(found) = mod_declarations(text, Candidate::Named(name)) else {
        return false;
    };
    !found.is_empty()
        && found
            .iter()
            .all(|d| blocks.iter().any(|block| block.contains(&d.start)))
}

/// The bodies of calls `name! { … }` of the given macros in `text`.
fn macro_call_blocks(text: &str, macros: &BTreeSet<String>) -> Vec<std::ops::Range<usize>> {
    let mut out = Vec::new();
    for name in macros {
        let call = format!("{name}!");
        for (at, _) in text.match_indices(&call) {
            let before = text[..at].chars().next_back();
            if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
                continue;
            }
            let after = &text[at + call.len()..];
            let Some(body) = after.trim_start().strip_prefix('{') else {
                continue;
            };
            let open = text.len() - body.len();
            out.push(open..block_end(text, open));
        }
    }
    out
}

/// Adds to `names` what `statement` (a `pub use`) re-exports from the module at `path`
/// (`inner`, or `crate::inner` from the root).
fn re_exported(statement: &str, path: &str, names: &mut BTreeSet<String>) {
    // The module's own path segment: `time::` is not the tail of `datetime::` (chrono #661:
    // `pub use super::datetime::serde::*;` exported nothing of `time`).
    let Some((at, _)) = statement
        .match_indices(&format!("{path}::"))
        .find(|(at, _)| !statement[..*at].ends_with(|c: char| c.is_alphanumeric() || c == '_'))
    else {
        return;
    };
    let rest = &statement[at + path.len() + 2..];
    let words: Vec<&str> = rest
        .split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '*'))
        .filter(|word| !word.is_empty())
        .collect();
    // `Options as TerminalOptions`: the alias is the public name, the module's own name is not
    // API (see `Visibility::public_name`).
    let mut at = 0;
    while at < words.len() {
        match (words[at], words.get(at + 1), words.get(at + 2)) {
            (name, Some(&"as"), Some(alias)) if !matches!(name, "self" | "super" | "crate") => {
                names.insert(format!("{name} as {alias}"));
                at += 3;
            }
            (word, _, _) => {
                if !matches!(word, "self" | "super" | "crate" | "as") {
                    names.insert(word.to_string());
                }
                at += 1;
            }
        }
    }
}

/// The texts of the crate's public modules declared in files (`pub mod map;` in `lib.rs`, and
/// theirs; not those declared `#[doc(hidden)]` or behind an opt-in `cfg`), three levels down and at most 64 files: where a crate re-exports what it keeps in
/// a private module.
fn public_module_texts(src: &str, lib_text: &str, read: Read) -> Vec<String> {
    const MAX_FILES: usize = 64;
    const MAX_DEPTH: usize = 3;
    static PUB_MOD: std::sync::LazyLock<Option<regex::Regex>> = std::sync::LazyLock::new(|| {
        regex::Regex::new(r"(?m)^[ \t]*pub[ \t]+mod[ \t]+([A-Za-z_][A-Za-z0-9_]*)[ \t]*;").ok()
    });
    let Some(pub_mod) = PUB_MOD.as_ref() else {
        return Vec::new();
    };
    let mut out = Vec::new();
    // (the declaring text, the directory its modules' files are in, its depth)
    let mut queue = vec![(lib_text.to_string(), src.to_string(), 0)];
    while let Some((text, dir, depth)) = queue.pop() {
        if depth >= MAX_DEPTH {
            continue;
        }
        for capture in pub_mod.captures_iter(&text) {
            if out.len() >= MAX_FILES {
                return out;
            }
            // A public path through a `#[doc(hidden)]` or opt-in module is no documented path
            // (tokio's `#[doc(hidden)] pub mod support;` re-exports `crate::future::poll_fn`
            // for its own macros; `mod future;` is private).
            let at = capture.get(0).map_or(0, |m| m.start());
            if attributes_above_hide(&text, at) || opt_in_above(&text, at) {
                continue;
            }
            let name = &capture[1];
            let module_dir = format!("{dir}/{name}");
            let found =
                read(&format!("{module_dir}.rs")).or_else(|| read(&format!("{module_dir}/mod.rs")));
            if let Some(child) = found {
                out.push(child.clone());
                queue.push((child, module_dir, depth + 1));
            }
        }
    }
    out
}

/// The modules `text` (the file in `dir`) loads with `#[path = "…"]`, each name with the file's
/// path: relative to the declaring file's directory, as Rust resolves it outside inline
/// modules.
fn path_modules(text: &str, dir: &str) -> Vec<(String, String)> {
    static DECLARATION: std::sync::LazyLock<Option<regex::Regex>> =
        std::sync::LazyLock::new(|| {
            regex::Regex::new(r"(?m)(pub(\s*\([^)]*\))?\s+)?mod\s+([A-Za-z_][A-Za-z0-9_]*)\s*;")
                .ok()
        });
    let Some(pattern) = DECLARATION.as_ref() else {
        return Vec::new();
    };
    if !text.contains("path") {
        return Vec::new();
    }
    let mut out = Vec::new();
    for declaration in pattern.captures_iter(text) {
        let (Some(whole), Some(name)) = (declaration.get(0), declaration.get(3)) else {
            continue;
        };
        // Among the attributes above it or before it on its line (`#[doc(hidden)]
        // #[path = "private/mod.rs"] pub mod __private;`), or under a `cfg_attr`.
        let written = attributes_above(text, whole.start())
            .into_iter()
            .find_map(|line| {
                let (at, _) = line
                    .match_indices("path=\"")
                    .find(|(at, _)| line[..*at].ends_with(['[', ',', '(']))?;
                let value = &line[at + "path=\"".len()..];
                Some(value[..value.find('"')?].to_string())
            });
        if let Some(written) = written {
            out.push((name.as_str().to_string(), joined(dir, &written)));
        }
    }
    out
}

/// `relative` resolved against the directory `dir` (`.` and `..` folded).
fn joined(dir: &str, relative: &str) -> String {
    let mut parts: Vec<&str> = dir.split('/').filter(|p| !p.is_empty()).collect();
    for part in relative.split(['/', '\\']) {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop();
            }
            _ => parts.push(part),
        }
    }
    parts.join("/")
}

/// How a module file declares one of its modules, read from its text: what the scope rule
/// needs of `mod name` declarations.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Declared {
    /// `pub` (`Some(true)`), restricted or private (`Some(false)`), or not declared at all
    /// (`None`: declared by a macro or a `#[path]` we do not follow). The text is scanned, not
    /// parsed, so declarations inside macro calls (`cfg_net! { pub mod net; }`) count, and so
    /// do those in comments and strings.
    public: Option<bool>,
    /// Declared with `#[doc(hidden)]` among the attributes (and comments) directly above it,
    /// or before it on its line.
    doc_hidden: bool,
    /// Every declaration is behind a `cfg` no stable build of a user selects (clap_complete's
    /// `#[cfg(feature = "unstable-dynamic")] pub mod engine;`): the whole module is an opt-in
    /// outside the crate's semver promise, as its items would be one by one (see
    /// `rust::stable`).
    opt_in: bool,
}

impl Declared {
    /// One pass over `text` for the declarations of `name`: [`mod_declarations`], or, where
    /// that scanner cannot answer alone, the pattern it stands for.
    fn read(text: &str, name: &str) -> Declared {
        let Some(found) = mod_declarations(text, Candidate::Named(name)) else {
            return Declared::by_pattern(text, name);
        };
        Declared {
            public: found
                .iter()
                .fold(None, |public, d| Some(public.unwrap_or(false) || d.public)),
            doc_hidden: found.iter().any(|d| attributes_above_hide(text, d.start)),
            opt_in: !found.is_empty() && found.iter().all(|d| opt_in_above(text, d.start)),
        }
    }

    /// The same answer read with the regular expression [`mod_declarations`] scans for:
    /// `(pub(\s*\([^)]*\))?\s+)?mod\s+NAME\s*[;{]`, leftmost first.
    fn by_pattern(text: &str, name: &str) -> Declared {
        let Ok(pattern) = regex::Regex::new(&format!(
            r"(pub(\s*\([^)]*\))?\s+)?mod\s+{}\s*[;{{]",
            regex::escape(name)
        )) else {
            return Declared {
                public: None,
                doc_hidden: false,
                opt_in: false,
            };
        };
        let mut declared = Declared {
            public: None,
            doc_hidden: false,
            opt_in: true,
        };
        for capture in pattern.captures_iter(text) {
            let public = capture.get(1).is_some() && capture.get(2).is_none();
            declared.public = Some(declared.public.unwrap_or(false) || public);
            let start = capture.get(0).map_or(0, |m| m.start());
            declared.doc_hidden |= attributes_above_hide(text, start);
            declared.opt_in &= opt_in_above(text, start);
        }
        declared.opt_in &= declared.public.is_some();
        declared
    }
}

/// Which `mod` declarations [`mod_declarations`] looks for.
#[derive(Clone, Copy)]
enum Candidate<'n> {
    /// `mod name;` or `mod name {`.
    Named(&'n str),
    /// `mod any_name {`: an inline module.
    Inline,
}

/// One `mod` declaration found in a text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct ModDeclaration {
    /// Where it starts, its visibility included (`pub(crate) mod x;` from the `p`).
    start: usize,
    /// Just after its `;` or `{`.
    end: usize,
    /// Plain `pub`, not restricted.
    public: bool,
}

/// The `mod` declarations of `text` that the regular expression
/// `(pub(\s*\([^)]*\))?\s+)?mod\s+NAME\s*[;{]` (or, for [`Candidate::Inline`],
/// `... mod\s+[A-Za-z_][A-Za-z0-9_]*\s*\{`) finds, leftmost first, found by one scan for
/// `mod` instead: a regex per module name cost a compilation and a cold search per changed
/// file and side. `None` when the scanner cannot promise the same answer (a name that is not
/// an ASCII identifier; a `pub(...)` whose parentheses hold `mod`, which the expression may
/// read across): the caller asks the expression itself.
///
/// Why one scan gives the same matches: from a match's start the expression reaches only the
/// `mod` just after `pub\s+` or after `pub\s*(...)\s+` (the parentheses end at the first
/// `)`), so each match is one `mod` declaration and the visibility just before it, its start
/// the leftmost `pub` that reaches it; and as no `mod` lies inside another's visibility (the
/// case refused above), the matches never overlap and come in the order of their `mod`s.
fn mod_declarations(text: &str, candidate: Candidate<'_>) -> Option<Vec<ModDeclaration>> {
    if let Candidate::Named(name) = candidate
        && (name.is_empty() || !name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_'))
    {
        return None;
    }
    let mut out = Vec::new();
    for at in memchr::memmem::find_iter(text.as_bytes(), b"mod") {
        // `\s+` then the name; `\s` and `str::trim_*` are both Unicode's White_Space.
        let after = &text[at + 3..];
        let spaced = after.trim_start();
        if spaced.len() == after.len() {
            continue;
        }
        let rest = match candidate {
            Candidate::Named(name) => spaced.strip_prefix(name),
            Candidate::Inline => {
                let ident = spaced
                    .bytes()
                    .take_while(|b| b.is_ascii_alphanumeric() || *b == b'_')
                    .count();
                let starts_well = spaced
                    .bytes()
                    .next()
                    .is_some_and(|b| b.is_ascii_alphabetic() || b == b'_');
                (ident > 0 && starts_well).then(|| &spaced[ident..])
            }
        };
        let Some(rest) = rest else { continue };
        let rest = rest.trim_start();
        let opens = match candidate {
            Candidate::Named(_) => rest.starts_with([';', '{']),
            Candidate::Inline => rest.starts_with('{'),
        };
        if !opens {
            continue;
        }
        let end = text.len() - rest.len() + 1;
        // The visibility: `\s+` between it and `mod`, then `pub` or `pub\s*(...)`.
        let before = &text[..at];
        let trimmed = before.trim_end();
        let mut found = ModDeclaration {
            start: at,
            end,
            public: false,
        };
        if trimmed.len() < before.len() {
            if let Some(head) = trimmed.strip_suffix("pub") {
                found.start = head.len();
                found.public = true;
            } else if let Some(inner) = trimmed.strip_suffix(')') {
                // `[^)]*`: back to the previous `)`; the leftmost `(` there after `pub\s*`.
                let floor = inner.rfind(')').map_or(0, |i| i + 1);
                let opening = inner[floor..].match_indices('(').find_map(|(i, _)| {
                    let open = floor + i;
                    inner[..open]
                        .trim_end()
                        .strip_suffix("pub")
                        .map(|head| (head.len(), open))
                });
                if let Some((start, open)) = opening {
                    if inner[open..].contains("mod") {
                        return None;
                    }
                    found.start = start;
                }
            }
        }
        out.push(found);
    }
    Some(out)
}

/// The text of every `pub use ...;` statement (not `pub(crate) use`), but those inside an
/// inline `#[doc(hidden)]` module: regex 0.1 re-exported its private engine through
/// `#[doc(hidden)] pub mod internal { pub use program::{Program, Inst}; }`, which makes those
/// names reachable only outside the documented API, as `#[doc(hidden)] pub mod x;` does; nor
/// those inside an unstable macro block (tokio's `cfg_unstable! { … }`).
fn pub_uses(text: &str) -> Vec<&str> {
    // Read once per changed file behind a private module and per module file above it: the
    // searches are memchr's, and the hidden modules are looked for only in a text with a
    // `pub use`.
    let mut hidden = None;
    let mut out = Vec::new();
    let mut offset = 0;
    for start in memchr::memmem::find_iter(text.as_bytes(), b"pub use ") {
        // Inside the statement before (up to its `;`): not a statement of its own.
        if start < offset {
            continue;
        }
        let after = &text[start..];
        let end = memchr::memchr(b';', after.as_bytes()).unwrap_or(after.len());
        let hidden = hidden.get_or_insert_with(|| hidden_inline_modules(text));
        // A re-export that is itself hidden or behind an opt-in `cfg` (chrono's
        // `#[cfg(feature = "__internal_bench")] #[doc(hidden)] pub use
        // self::internals::YearFlags as __BenchYearFlags;`) exports nothing stable.
        let above = attributes_above(text, start);
        let withheld = hides(&above) || opts_in(&above);
        if !withheld && !hidden.iter().any(|block| block.contains(&start)) {
            out.push(&after[..end]);
        }
        offset = start + end;
    }
    out
}

/// The byte ranges of the bodies of inline modules declared `#[doc(hidden)]`
/// (`#[doc(hidden)] pub mod internal { … }`), and of unstable macro blocks
/// ([`unstable_macro_blocks`]). A string holding an unbalanced brace can only shorten or
/// lengthen the range it is in.
fn hidden_inline_modules(text: &str) -> Vec<std::ops::Range<usize>> {
    let modules = mod_declarations(text, Candidate::Inline)
        .unwrap_or_else(|| inline_modules_by_pattern(text));
    let mut out = Vec::new();
    for found in modules {
        if !attributes_above_hide(text, found.start) {
            continue;
        }
        out.push(found.end..block_end(text, found.end));
    }
    out.extend(unstable_macro_blocks(text));
    out
}

/// Where the block whose body starts at `body` (just after its `{`) closes. Braces are
/// counted outside `//` comments.
fn block_end(text: &str, body: usize) -> usize {
    let mut depth = 1usize;
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
                    return i;
                }
            }
            _ => {}
        }
        i += 1;
    }
    text.len()
}

/// The bodies of macro calls named as unstable opt-ins (tokio's `cfg_unstable! { pub use
/// task_hooks::TaskMeta; }`, which puts each item behind `cfg(tokio_unstable)`): what they
/// re-export is outside the stable API, as under `#[cfg(tokio_unstable)]` itself.
fn unstable_macro_blocks(text: &str) -> Vec<std::ops::Range<usize>> {
    // Read once per changed file behind a private module and per module file above it: found
    // from each "nstable" (memchr's search), not by a regular expression over the whole text.
    let ident = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    let bytes = text.as_bytes();
    let mut out: Vec<std::ops::Range<usize>> = Vec::new();
    for at in memchr::memmem::find_iter(bytes, b"nstable") {
        let mut start = at;
        while start > 0 && ident(bytes[start - 1]) {
            start -= 1;
        }
        let mut end = at + "nstable".len();
        while end < bytes.len() && ident(bytes[end]) {
            end += 1;
        }
        let name = &text[start..end];
        let called = text[end..].strip_prefix('!').map(str::trim_start);
        let Some(body) = called.filter(|rest| rest.starts_with('{')) else {
            continue;
        };
        if !name.to_ascii_lowercase().contains("unstable") || out.iter().any(|r| r.contains(&at)) {
            continue;
        }
        let open = text.len() - body.len() + 1;
        out.push(open..block_end(text, open));
    }
    out
}

/// The inline modules of `text` read with the regular expression [`mod_declarations`] scans
/// for, where it cannot.
fn inline_modules_by_pattern(text: &str) -> Vec<ModDeclaration> {
    static INLINE_MOD: std::sync::LazyLock<Option<regex::Regex>> = std::sync::LazyLock::new(|| {
        regex::Regex::new(r"(pub(\s*\([^)]*\))?\s+)?mod\s+[A-Za-z_][A-Za-z0-9_]*\s*\{").ok()
    });
    let Some(pattern) = INLINE_MOD.as_ref() else {
        return Vec::new();
    };
    pattern
        .captures_iter(text)
        .filter_map(|capture| {
            let whole = capture.get(0)?;
            Some(ModDeclaration {
                start: whole.start(),
                end: whole.end(),
                public: capture.get(1).is_some() && capture.get(2).is_none(),
            })
        })
        .collect()
}

/// Whether the attributes (and comments) directly above `at`, or before it on its line, hold
/// `#[doc(hidden)]`.
fn attributes_above_hide(text: &str, at: usize) -> bool {
    hides(&attributes_above(text, at))
}

/// Whether the attributes directly above `at` hold a `cfg` no stable build of a user selects.
fn opt_in_above(text: &str, at: usize) -> bool {
    opts_in(&attributes_above(text, at))
}

/// Whether attribute lines (as [`attributes_above`] gives them) hold `#[doc(hidden)]`.
fn hides(attributes: &[String]) -> bool {
    attributes.iter().any(|line| line.contains("doc(hidden)"))
}

/// Whether attribute lines (as [`attributes_above`] gives them) hold a `cfg` no stable build
/// of a user selects.
fn opts_in(attributes: &[String]) -> bool {
    attributes.iter().any(|line| {
        line.strip_prefix("#[cfg(")
            .and_then(|p| p.strip_suffix(")]"))
            .is_some_and(|predicate| !super::lang::rust::extract::stable(predicate))
    })
}

/// The attribute and comment lines directly above `at`, or before it on its line, without
/// whitespace, nearest first.
fn attributes_above(text: &str, at: usize) -> Vec<String> {
    text[..at]
        .trim_end_matches([' ', '\t'])
        .lines()
        .rev()
        .map(str::trim)
        .take_while(|line| line.starts_with("#[") || line.starts_with("//"))
        .map(|line| line.chars().filter(|c| !c.is_whitespace()).collect())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn declared_public(text: &str, name: &str) -> Option<bool> {
        Declared::read(text, name).public
    }

    fn declared_doc_hidden(text: &str, name: &str) -> bool {
        Declared::read(text, name).doc_hidden
    }

    /// Texts where a scan could go wrong: macros declaring modules, restricted visibility
    /// (with spaces, across lines, `pub(in ...)` naming a module), `#[doc(hidden)]` above with
    /// comments, `mod a;` in a `cfg` block, `mod` in strings and comments, names inside other
    /// names, Unicode spaces, and parentheses a `pub(` never closes.
    const TRICKY: &[&str] = &[
        "pub mod net;\nmod io;\npub(crate) mod rt;\npub(super) mod a;\npub(in crate::x) mod b;",
        "cfg_net! {\n    pub mod net;\n}\ncfg_rt! { pub(crate) mod rt { } }\n",
        "#[cfg(feature = \"net\")]\n#[cfg_attr(docsrs, doc(cfg(feature = \"net\")))]\npub mod net;",
        "// not public API\n#[doc(hidden)]\npub mod __private_api;\n\n#[doc = \"x\"]\npub mod kv;\n",
        "#[doc(hidden)] // for macros\n/// docs\n#[cfg(x)]\npub mod macros;\n    #[doc(hidden)] pub mod io;",
        "#[doc( hidden )]\n// mod net;\npub mod net;\n#[doc(hidden)]\nfn f() {}\npub mod io;",
        "#[cfg(unix)]\nmod a;\n#[cfg(not(unix))]\npub mod a;\n",
        "let s = \"pub mod net;\";\n/* mod io; */ // pub(crate) mod rt;\n",
        "mod networking;\npub mod net_util;\nmod xnet;\nxmod net;\nnotpub mod io;\npubmod rt;",
        "pub\n  mod net ;\npub  (  crate  )\n\tmod io\n{\n}\npub(\ncrate\n)mod rt;",
        "pub\u{2003}mod net;\npub(crate)\u{a0}mod io;\nmod\u{2028}rt;",
        "pub(in crate::module) mod net;\npub(in crate::model) mod io;",
        "pub( pub mod net; ) mod net;\npub(pub(crate) mod io;",
        "pub(a (b) mod net;\npub((crate) mod io;\npub ( ( mod rt;",
        "pub mod r#type;\nmod net\n;\nmod io\n{}\nmod rt",
        "#[doc(hidden)]\npub mod internal {\n    pub use program::{Program, Inst};\n    mod nested { }\n}\n\
         #[doc(hidden)] pub(crate) mod again{ } mod after {}",
        "pub(crate)mod net;pub mod io;mod rt{}pub (self) mod a{}",
    ];

    const NAMES: &[&str] = &[
        "net",
        "io",
        "rt",
        "a",
        "b",
        "macros",
        "__private_api",
        "kv",
        "internal",
        "nested",
        "again",
        "after",
        "type",
        "r#type",
        "networking",
        "net_util",
        "x",
        "ü",
    ];

    #[test]
    fn one_scan_reads_module_declarations_as_the_pattern_per_name_did() {
        for text in TRICKY {
            for name in NAMES {
                assert_eq!(
                    Declared::read(text, name),
                    Declared::by_pattern(text, name),
                    "{name:?} in {text:?}"
                );
            }
            if let Some(scanned) = mod_declarations(text, Candidate::Inline) {
                assert_eq!(scanned, inline_modules_by_pattern(text), "{text:?}");
            }
        }
        // The scanner stands aside where the pattern may read across a `pub(`.
        assert_eq!(
            mod_declarations("pub( pub mod net; ) mod net;", Candidate::Named("net")),
            None
        );
        assert_eq!(
            declared_public("pub( pub mod net; ) mod net;", "net"),
            Some(false)
        );
        assert_eq!(
            declared_public("pub(crate) mod a; pub mod a;", "a"),
            Some(true)
        );
        assert_eq!(
            declared_public("pub(in crate::module) mod a;", "a"),
            Some(false)
        );
    }

    proptest::proptest! {
        #[test]
        fn one_scan_agrees_with_the_pattern_on_any_mix_of_module_syntax(
            words in proptest::collection::vec(
                proptest::sample::select(vec![
                    "pub", "mod", "net", "io", "(", ")", "crate", "in", "::", ";", "{", "}",
                    " ", " ", "\n", "\t", "#[doc(hidden)]", "//", "\"", "x", "_",
                    "\u{a0}", "#[cfg(x)]", "use",
                ]),
                0..40,
            )
        ) {
            let text: String = words.concat();
            for name in ["net", "io", "x", "crate"] {
                proptest::prop_assert_eq!(
                    Declared::read(&text, name),
                    Declared::by_pattern(&text, name),
                    "{:?} in {:?}", name, text
                );
            }
            let scanned = mod_declarations(&text, Candidate::Inline)
                .unwrap_or_else(|| inline_modules_by_pattern(&text));
            proptest::prop_assert_eq!(scanned, inline_modules_by_pattern(&text), "{:?}", text);
        }
    }

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
            Visibility::NotApi(_)
        ));
        assert!(matches!(
            rust_scope("src/kv/value.rs", &files),
            Visibility::Exported
        ));
    }

    #[test]
    fn a_module_loaded_by_a_path_attribute_is_judged_by_its_declaration() {
        // serde (#2495): `src/private/` is the hidden `__private`, and `src/de/seed.rs` the
        // private `seed`, not `de::seed`.
        let lib = "pub mod de;\n\n// Not public API.\n#[doc(hidden)]\n#[path = \"private/mod.rs\"]\n\
            pub mod __private;\n\n#[path = \"de/seed.rs\"]\nmod seed;\npub use seed::Seed;\n\n\
            #[path = \"./platform/unix.rs\"]\npub mod sys;\n";
        let files = |path: &str| match path {
            "Cargo.toml" => {
                Some("[package]\nname = \"serde\"\nversion = \"1.0.160\"\n".to_string())
            }
            "src/lib.rs" => Some(lib.to_string()),
            "src/de/mod.rs" => Some("pub mod value;\n".to_string()),
            "src/private/mod.rs" => Some("pub mod size_hint;\n".to_string()),
            _ => None,
        };
        for path in ["src/private/size_hint.rs", "src/private/mod.rs"] {
            assert!(
                matches!(rust_scope(path, &files), Visibility::NotApi(_)),
                "{path}"
            );
        }
        match rust_scope("src/de/seed.rs", &files) {
            Visibility::Only(names) => assert_eq!(names.into_iter().collect::<Vec<_>>(), ["Seed"]),
            other => panic!("{other:?}"),
        }
        for path in ["src/platform/unix.rs", "src/de/value.rs"] {
            assert!(
                matches!(rust_scope(path, &files), Visibility::Exported),
                "{path}"
            );
        }
        // Without the attributes, the same files are the public modules their folders name.
        let plain = "pub mod de;\npub mod private;\n";
        let files = |path: &str| match path {
            "Cargo.toml" => {
                Some("[package]\nname = \"serde\"\nversion = \"1.0.160\"\n".to_string())
            }
            "src/lib.rs" => Some(plain.to_string()),
            "src/private/mod.rs" => Some("pub mod size_hint;\n".to_string()),
            _ => None,
        };
        assert!(matches!(
            rust_scope("src/private/size_hint.rs", &files),
            Visibility::Exported
        ));
    }

    #[test]
    fn an_inline_modules_children_and_withheld_re_exports() {
        // chrono before #661: `pub mod naive { mod internals; mod time; … }` inline in lib.rs,
        // `src/naive/time.rs` private but for `NaiveTime`, and `YearFlags` re-exported only
        // hidden behind the `__internal_bench` feature.
        let lib = "pub mod naive {\n    mod internals;\n    mod time;\n    pub use self::time::NaiveTime;\n\n\
            \x20   #[cfg(feature = \"__internal_bench\")]\n    #[doc(hidden)]\n\
            \x20   pub use self::internals::YearFlags as __BenchYearFlags;\n}\n";
        let files = |path: &str| match path {
            "Cargo.toml" => {
                Some("[package]\nname = \"chrono\"\nversion = \"0.4.19\"\n".to_string())
            }
            "src/lib.rs" => Some(lib.to_string()),
            _ => None,
        };
        match rust_scope("src/naive/time.rs", &files) {
            Visibility::Only(names) => {
                assert_eq!(names.into_iter().collect::<Vec<_>>(), ["NaiveTime"])
            }
            other => panic!("{other:?}"),
        }
        // `datetime::` ends in `time::` but re-exports nothing of `time`.
        let with_datetime = lib.replace(
            "    pub use self::time::NaiveTime;\n",
            "    pub use self::time::NaiveTime;\n    pub mod serde { pub use super::datetime::serde::*; }\n",
        );
        let files_datetime = |path: &str| match path {
            "src/lib.rs" => Some(with_datetime.clone()),
            other => files(other),
        };
        match rust_scope("src/naive/time.rs", &files_datetime) {
            Visibility::Only(names) => {
                assert_eq!(names.into_iter().collect::<Vec<_>>(), ["NaiveTime"])
            }
            other => panic!("{other:?}"),
        }
        match rust_scope("src/naive/internals.rs", &files) {
            Visibility::Only(names) => assert!(names.is_empty(), "{names:?}"),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_private_module_re_exported_by_a_public_module_from_the_root() {
        // indexmap 2.13.0: `mod inner;` at the root, `src/inner/entry.rs` defines the entries,
        // and the public `map` module re-exports them from the root.
        let files = |path: &str| {
            match path {
            "Cargo.toml" => Some("[package]\nname = \"indexmap\"\n".to_string()),
            "src/lib.rs" => Some("mod inner;\nmod util;\npub mod map;\npub mod set;\n".to_string()),
            "src/inner.rs" => Some("mod entry;\npub use entry::{OccupiedEntry, VacantEntry};\n".to_string()),
            "src/map.rs" => Some(
                "mod iter;\npub use crate::inner::{OccupiedEntry, VacantEntry};\npub use crate::util::third;\n"
                    .to_string(),
            ),
            "src/set/mod.rs" => Some("pub mod iter;\n".to_string()),
            "src/set/iter.rs" => Some("pub use crate::util::first as set_first;\n".to_string()),
            _ => None,
        }
        };
        let only = |path: &str| match rust_scope(path, &files) {
            Visibility::Only(names) => names.into_iter().collect::<Vec<_>>(),
            other => panic!("{other:?}"),
        };
        assert_eq!(only("src/inner/entry.rs"), ["OccupiedEntry", "VacantEntry"]);
        // Found two levels down (`set/mod.rs`, then `set/iter.rs`), the name as it is written,
        // and under its alias: `set_first` is public, `first` is not.
        assert_eq!(only("src/util.rs"), ["first as set_first", "third"]);
        // A private module nobody re-exports exports nothing.
        let none = |path: &str| match path {
            "src/map.rs" => Some("mod iter;\n".to_string()),
            "src/set/iter.rs" => None,
            other => files(other),
        };
        match rust_scope("src/inner/entry.rs", &none) {
            Visibility::Only(names) => assert!(names.is_empty(), "{names:?}"),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_python_module_whose_docstring_withdraws_its_promise_is_not_api() {
        let read = |_: &str| None;
        let marshmallow = "\"\"\"Type aliases.\n\n.. warning::\n\n    This module is provisional. Types may be modified, added, and removed between minor releases.\n\"\"\"\n\nimport typing\n\nTag = typing.Union[str, typing.Tuple[str, bool]]\n";
        assert!(
            !scope(
                "src/marshmallow/types.py",
                Grammar::Python,
                marshmallow,
                &read
            )
            .is_api()
        );
        for withdrawn in [
            "#!/usr/bin/env python\n# -*- coding: utf-8 -*-\nr'''Helpers. Not part of the public API.'''\n",
            "\"\"\"Experimental: these functions may change without notice.\"\"\"\n",
            "'The interface is considered unstable.'\n",
        ] {
            assert!(
                !scope("pkg/helpers.py", Grammar::Python, withdrawn, &read).is_api(),
                "{withdrawn}"
            );
        }
        // Documentation that merely mentions such words, or words after the docstring.
        for promised in [
            "\"\"\"Support for the experimental HTTP/3 protocol.\"\"\"\n",
            "\"\"\"Stable helpers.\"\"\"\n# This module is provisional.\n",
            "import os\n\"\"\"This module is provisional.\"\"\"\n",
            "\"\"\"Values that may change between calls are cached without notice.\"\"\"\n",
        ] {
            assert_eq!(
                scope("pkg/helpers.py", Grammar::Python, promised, &read),
                Visibility::Exported,
                "{promised}"
            );
        }
    }

    #[test]
    fn a_re_export_inside_an_unstable_macro_block_is_not_stable_api() {
        // tokio 1.46: `mod task_hooks;` re-exported only inside `cfg_unstable! { … }`.
        let runtime = "mod task_hooks;\npub(crate) use task_hooks::TaskHooks;\ncfg_unstable! {\n    pub use task_hooks::TaskMeta;\n}\n#[cfg(not(tokio_unstable))]\npub(crate) use task_hooks::TaskMeta;\ncfg_rt! {\n    pub use task_hooks::TaskCallback;\n}\n";
        let files = |path: &str| match path {
            "Cargo.toml" => Some("[package]\nname = \"tokio\"\n".to_string()),
            "src/lib.rs" => Some("pub mod runtime;\n".to_string()),
            "src/runtime/mod.rs" => Some(runtime.to_string()),
            _ => None,
        };
        match rust_scope("src/runtime/task_hooks.rs", &files) {
            Visibility::Only(names) => {
                assert_eq!(names.into_iter().collect::<Vec<_>>(), ["TaskCallback"])
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_module_behind_an_unstable_feature_is_not_api() {
        // clap_complete 4.5 (#5621, #5695): the dynamic completion engine.
        let lib = "pub mod aot;\n#[cfg(feature = \"unstable-dynamic\")]\npub mod engine;\n\
            #[cfg(feature = \"unstable-command\")] pub mod command;\n\
            #[cfg(feature = \"std\")]\npub mod io;\n\
            #[cfg(feature = \"nightly\")]\npub mod sys;\n#[cfg(not(feature = \"nightly\"))]\npub mod sys;\n";
        let files = |path: &str| match path {
            "Cargo.toml" => Some("[package]\nname = \"c\"\nversion = \"4.5.0\"\n".to_string()),
            "src/lib.rs" => Some(lib.to_string()),
            "src/engine/mod.rs" => Some("mod candidate;\npub use candidate::*;\n".to_string()),
            _ => None,
        };
        for path in [
            "src/engine/candidate.rs",
            "src/engine/mod.rs",
            "src/command.rs",
        ] {
            assert!(
                matches!(rust_scope(path, &files), Visibility::NotApi(_)),
                "{path}"
            );
        }
        // A real feature, and a module one of whose declarations is the stable build.
        for path in ["src/io.rs", "src/sys/unix.rs", "src/aot.rs"] {
            assert!(
                matches!(rust_scope(path, &files), Visibility::Exported),
                "{path}"
            );
        }
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
            Visibility::Only(names) => assert!(names.is_empty(), "{names:?}"),
            other => panic!("{other:?}"),
        }
        // A re-export after the hidden block still counts, and one inside it does not.
        match rust_scope("src/compile.rs", &files) {
            Visibility::Only(names) => {
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
            Visibility::Only(names) => assert!(names.contains("CharRanges"), "{names:?}"),
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
