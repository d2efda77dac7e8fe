//! Which Rust files carry an API, and which of their names: not a binary, unpublished or
//! proc-macro crate, nor code outside its `src/`; a file behind a private `mod` exports only
//! what an ancestor (or a public module naming it from the root) re-exports with `pub use`;
//! nothing behind `#[doc(hidden)]` or an opt-in unstable `cfg`, nor in a module whose own
//! docs (or an enclosing module's) withdraw it from the crate's compatibility promise.

use std::collections::BTreeSet;

use super::modules::{
    Candidate, Declared, attributes_above, attributes_above_hide, block_end, mod_declarations,
    opt_in_above, pub_uses,
};
use crate::api::visibility::{Read, Visibility};
use crate::cohort::paths::parent_dir;

/// The nearest `Cargo.toml` above `path`, and the path relative to its directory.
pub(in crate::api) fn crate_of<'p>(path: &'p str, read: Read) -> Option<(String, String, &'p str)> {
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

/// Whether the Rust file at `path` belongs to a package nobody receives yet: its
/// `Cargo.toml` says it is never published (`publish = false`) and its version is a
/// pre-release (`0.9.0-alpha.1`). A crate being built in the open, beside the released ones,
/// is unfinished by its own word; an unpublished crate with a release version or none (an
/// application deployed from the repository) is not, nor is one whose version is inherited
/// from the workspace, which this file does not show. `None` when no `Cargo.toml` above it can be read.
pub(crate) fn work_in_progress(path: &str, read: Read) -> Option<bool> {
    let (_, manifest, _) = crate_of(path, read)?;
    let table: toml::Table = toml::from_str(&manifest).ok()?;
    let Some(package) = table.get("package").and_then(toml::Value::as_table) else {
        return Some(false);
    };
    let unpublished = matches!(package.get("publish"), Some(toml::Value::Boolean(false)))
        || matches!(package.get("publish"), Some(toml::Value::Array(registries)) if registries.is_empty());
    let pre_release = package
        .get("version")
        .and_then(toml::Value::as_str)
        .is_some_and(|version| version.contains('-'));
    Some(unpublished && pre_release)
}

/// Whether the Rust file at `path` is library code, by its package's targets: `None` when no
/// `Cargo.toml` above it can be read. Not library code: a build script, a file under
/// `src/bin/`, `examples/`, `benches/` or `tests/`, a binary's root, any file of a package
/// with no library target (rayon's `rayon-demo`: `src/main.rs` and no `src/lib.rs`, its
/// modules are the binary's), and a module only a binary's root declares (`mod cli;` in
/// `main.rs` beside a `lib.rs` that does not declare it).
pub(crate) fn library_code(path: &str, read: Read) -> Option<bool> {
    let (root, manifest, relative) = crate_of(path, read)?;
    let at = |p: &str| {
        if root.is_empty() {
            p.to_string()
        } else {
            format!("{root}/{p}")
        }
    };
    let table: toml::Table = toml::from_str(&manifest).unwrap_or_default();
    let target_path = |target: &toml::Value| {
        target
            .get("path")
            .and_then(toml::Value::as_str)
            .map(|p| p.trim_start_matches("./").to_string())
    };
    let build = match table.get("package").and_then(|p| p.get("build")) {
        Some(toml::Value::String(script)) => Some(script.trim_start_matches("./").to_string()),
        _ => None,
    };
    let build_dir = build.as_deref().map(parent_dir).filter(|d| !d.is_empty());
    if relative == "build.rs"
        || build.as_deref() == Some(relative)
        || build_dir.is_some_and(|dir| relative.starts_with(&format!("{dir}/")))
        || ["src/bin/", "examples/", "benches/", "tests/"]
            .iter()
            .any(|dir| relative.starts_with(dir))
    {
        return Some(false);
    }
    let mut bins: Vec<String> = table
        .get("bin")
        .and_then(toml::Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(target_path)
        .collect();
    if read(&at("src/main.rs")).is_some() {
        bins.push("src/main.rs".into());
    }
    if bins.iter().any(|bin| bin == relative) {
        return Some(false);
    }
    let lib = table
        .get("lib")
        .and_then(target_path)
        .unwrap_or_else(|| "src/lib.rs".into());
    if lib == relative {
        return Some(true);
    }
    let Some(lib_text) = read(&at(&lib)) else {
        // No library target: every module belongs to a binary, when the package has one.
        return Some(bins.is_empty());
    };
    // A module of the root's directory that a binary's root declares and the library's does not.
    let lib_dir = parent_dir(&lib);
    let Some(inside) = relative
        .strip_prefix(lib_dir)
        .and_then(|rest| rest.strip_prefix('/'))
        .filter(|_| !lib_dir.is_empty())
    else {
        return Some(true);
    };
    let top = inside.split('/').next().unwrap_or(inside);
    let module = top.strip_suffix(".rs").unwrap_or(top);
    let declares = |text: &str| {
        text.lines().any(|line| {
            let line = line.trim_start();
            let line = line
                .strip_prefix("pub(crate) ")
                .or_else(|| line.strip_prefix("pub "))
                .unwrap_or(line);
            line.strip_prefix("mod ")
                .map(str::trim_start)
                .and_then(|rest| rest.strip_prefix(module))
                .is_some_and(|rest| rest.trim_start().starts_with([';', '{']))
        })
    };
    let in_a_binary = bins
        .iter()
        .filter(|bin| parent_dir(bin) == lib_dir)
        .any(|bin| read(&at(bin)).is_some_and(|text| declares(&text)));
    Some(!in_a_binary || declares(&lib_text))
}

/// Whether the Rust file at `path` carries an API, and which of its names (see the module's
/// documentation).
pub(crate) fn scope(path: &str, read: Read) -> Visibility {
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
    if let Some(withdrawn) = withdrawn(&lib_text) {
        return withdrawn;
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
    // The private modules on the way, by depth.
    let mut private: Vec<usize> = Vec::new();
    let mut withdrawn_from: Option<usize> = None;
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
        // Outside the promise, like a private module: only what a promised path re-exports.
        if declared.withdrawn && withdrawn_from.is_none() {
            withdrawn_from = Some(modules.len());
        }
        if declared.opt_in {
            return Visibility::NotApi(
                "inside a module behind an opt-in unstable feature or `cfg` (outside the \
                 crate's semver promise)",
            );
        }
        if declared.public == Some(false) {
            private.push(modules.len());
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
    let withdrawn_from = first_withdrawn(withdrawn_from, &ancestors, read(path));
    let private_from = private.first().copied();
    match private_from.into_iter().chain(withdrawn_from).min() {
        None => Visibility::Exported,
        // Re-exported from inside the withdrawn module is no promised path.
        Some(first) => {
            let above = withdrawn_from.map_or(ancestors.len(), |at| at + 1);
            let ancestors = &ancestors[..above.min(ancestors.len())];
            // `mod windows;` and `pub use windows::find_tools as registry;`: the public module
            // under the only private one, re-exported whole, publishes the file.
            let below = modules.get(first + 1).filter(|_| private == [first]);
            re_exports(&modules[..=first], below, ancestors, &at("src"), read)
        }
    }
}

/// The first module on the way down to a file withdrawn from the crate's promise: by its
/// declaration's docs (`declared`, found on the way), or by its file's inner docs
/// (`ancestors[k]` is the file of module `k - 1`, `own` the file itself, the last module).
fn first_withdrawn(
    declared: Option<usize>,
    ancestors: &[String],
    own: Option<String>,
) -> Option<usize> {
    let by_docs = ancestors
        .iter()
        .chain(own.as_ref())
        .skip(1)
        .position(|text| super::promise::file_withdrawn(text));
    declared.into_iter().chain(by_docs).min()
}

/// Why a Rust crate is no API when its root's inner docs say it is outside its own promise.
/// A module below whose docs say so (on its declaration, or inside its file) is read as a
/// private one instead: only what a promised path re-exports is API, and its submodules
/// inherit that; read from one side's texts.
fn withdrawn(root: &str) -> Option<Visibility> {
    super::promise::file_withdrawn(root).then_some(Visibility::NotApi(
        "its crate root's documentation says it is outside the compatibility promise",
    ))
}

/// What a file behind the private module `modules.last()` (its path from the crate root)
/// exports: only names of that module that are re-exported with `pub use`, by an ancestor
/// (`ancestors`: the module files from the crate root down, `pub use self::core::Entry;`) or
/// by a public module anywhere in the crate naming it from the root (indexmap 2.13.0: `mod
/// inner;` in lib.rs, `pub use crate::inner::{OccupiedEntry, VacantEntry};` in the public
/// `map.rs`). `src` is the crate's `src/` folder.
///
/// `below` is the module under the private one on the way to the file, when it and every
/// module below it down to the file is public: a `pub use` of that module itself (`pub use
/// windows::find_tools as windows_registry;`) makes the whole file public under the name it
/// gives the module, as its own `pub mod` would.
fn re_exports(
    modules: &[String],
    below: Option<&String>,
    ancestors: &[String],
    src: &str,
    read: Read,
) -> Visibility {
    let hidden = modules.last().map_or("", String::as_str);
    let absolute = format!("crate::{}", modules.join("::"));
    let mut names = BTreeSet::new();
    for text in ancestors {
        for statement in pub_uses(text) {
            if below.is_some_and(|module| module_re_exported(statement, hidden, module)) {
                return Visibility::Exported;
            }
            re_exported(statement, hidden, &mut names);
        }
    }
    // Read only when no ancestor re-exports anything of the module: up to 64 files for each
    // changed file behind a private module slowed a 749-file tokio range by 7 %.
    if names.is_empty() {
        let root_text = ancestors.first().map_or("", String::as_str);
        for text in public_module_texts(src, root_text, read) {
            for statement in pub_uses(&text) {
                if below.is_some_and(|module| module_re_exported(statement, &absolute, module)) {
                    return Visibility::Exported;
                }
                re_exported(statement, &absolute, &mut names);
            }
        }
    }
    if names.contains("*") {
        return Visibility::Exported;
    }
    Visibility::Only(names)
}

/// The texts where a crate whose root is `root` keeps its macros: `src/lib.rs`, and
/// `src/macros.rs` or `src/macros/mod.rs` with the files it declares.
pub(crate) fn crate_macro_texts(root: &str, read: Read) -> Vec<String> {
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
    texts
}

/// [`crate_macro_texts`] of the crate holding the file at `path`.
pub(crate) fn crate_macro_texts_of(path: &str, read: Read) -> Vec<String> {
    crate_of(path, read)
        .map(|(root, _, _)| crate_macro_texts(&root, read))
        .unwrap_or_default()
}

/// The crate's own macros that wrap items in a `cfg` no stable build of a user selects: each
/// `macro_rules! name` whose body writes such a `#[cfg(…)]` (tokio's `cfg_metrics`,
/// `cfg_unstable_metrics`: `#[cfg(tokio_unstable)] $item`). Read from the crate root at
/// `root` (`""` at the repository's root): `src/lib.rs`, and `src/macros.rs` or
/// `src/macros/mod.rs` with the files it declares, where crates keep such macros.
pub(crate) fn crate_unstable_macros(root: &str, read: Read) -> BTreeSet<String> {
    let texts = crate_macro_texts(root, read);
    // Asked for each changed file at each side (1,269 times in tokio 1.30..1.40), always of
    // the same few crates: the answer is kept with the texts it was read from.
    const REMEMBERED: usize = 16;
    thread_local! {
        static KNOWN: std::cell::RefCell<Vec<(Vec<String>, BTreeSet<String>)>> =
            const { std::cell::RefCell::new(Vec::new()) };
    }
    if let Some(known) = KNOWN.with_borrow(|known| {
        known
            .iter()
            .find(|(read, _)| *read == texts)
            .map(|(_, macros)| macros.clone())
    }) {
        return known;
    }
    let out = unstable_macros_in(&texts);
    KNOWN.with_borrow_mut(|known| {
        if known.len() >= REMEMBERED {
            known.remove(0);
        }
        known.push((texts, out.clone()));
    });
    out
}

/// The macros among `texts`' `macro_rules!` whose body writes a `cfg` no stable build of a
/// user selects.
fn unstable_macros_in(texts: &[String]) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for text in texts {
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
pub(crate) fn unstable_macros_of(path: &str, read: Read) -> BTreeSet<String> {
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
            !super::extract::stable(&predicate)
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

/// The bodies of calls `name! { … }` of the given macros in `text`: found from each `!` (one
/// memchr pass, not one search per macro: 2,632 calls in tokio 1.30..1.40), the name being
/// the whole identifier before it.
fn macro_call_blocks(text: &str, macros: &BTreeSet<String>) -> Vec<std::ops::Range<usize>> {
    let ident = |c: char| c.is_alphanumeric() || c == '_';
    let mut out = Vec::new();
    for at in memchr::memchr_iter(b'!', text.as_bytes()) {
        let before = &text[..at];
        let start = before
            .char_indices()
            .rev()
            .take_while(|(_, c)| ident(*c))
            .last()
            .map_or(at, |(i, _)| i);
        if start == at || !macros.contains(&text[start..at]) {
            continue;
        }
        let Some(body) = text[at + 1..].trim_start().strip_prefix('{') else {
            continue;
        };
        let open = text.len() - body.len();
        out.push(open..block_end(text, open));
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

/// Whether the `pub use` `statement` re-exports the module `module` of the module at `path`
/// itself, not items inside it: `path::module;`, `path::module as alias;`, `path::{module,
/// …}` or `path::{module as alias}`; not `path::module::item` nor `path::other::module`.
fn module_re_exported(statement: &str, path: &str, module: &str) -> bool {
    let Some((at, _)) = statement
        .match_indices(&format!("{path}::"))
        .find(|(at, _)| !statement[..*at].ends_with(|c: char| c.is_alphanumeric() || c == '_'))
    else {
        return false;
    };
    let rest = &statement[at + path.len() + 2..];
    let word = |c: char| c.is_alphanumeric() || c == '_';
    rest.match_indices(module).any(|(start, _)| {
        let (head, tail) = (&rest[..start], &rest[start + module.len()..]);
        let before = head.trim_end();
        let depth = head.matches('{').count() as isize - head.matches('}').count() as isize;
        // A whole segment, right after `path::` or in its own list (not a nested one).
        let whole = !head.ends_with(word) && !tail.starts_with(word);
        let first = before.is_empty() || (depth == 1 && before.ends_with(['{', ',']));
        // The module itself, not a path into it.
        whole && first && !tail.trim_start().starts_with("::")
    })
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
            let (at, end) = capture.get(0).map_or((0, 0), |m| (m.start(), m.end()));
            if attributes_above_hide(&text, at)
                || opt_in_above(&text, at)
                || super::promise::declaration_withdrawn(&text, at, end)
            {
                continue;
            }
            let name = &capture[1];
            let module_dir = format!("{dir}/{name}");
            let found =
                read(&format!("{module_dir}.rs")).or_else(|| read(&format!("{module_dir}/mod.rs")));
            // Nor through a module whose own docs withdraw it from the crate's promise.
            if let Some(child) = found.filter(|child| !super::promise::file_withdrawn(child)) {
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

#[cfg(test)]
mod tests {
    use super::*;

    fn declared_doc_hidden(text: &str, name: &str) -> bool {
        Declared::read(text, name).doc_hidden
    }

    #[test]
    fn a_pub_use_of_a_module_itself_is_told_from_one_of_its_items() {
        for statement in [
            "pub use windows::find_tools as registry",
            "pub use self::windows::find_tools",
            "pub use windows::{com, find_tools as registry}",
            "pub use crate::windows::{\n    find_tools,\n}",
        ] {
            assert!(
                module_re_exported(statement, "windows", "find_tools"),
                "{statement}"
            );
        }
        for statement in [
            "pub use windows::find_tools::find",
            "pub use windows::find_tools::{find, Tool}",
            "pub use windows::other::find_tools",
            "pub use windows::{other::{find_tools}}",
            "pub use windows::find_tools_v2 as registry",
            "pub use my_windows::find_tools",
        ] {
            assert!(
                !module_re_exported(statement, "windows", "find_tools"),
                "{statement}"
            );
        }
    }

    /// The re-export must be code: one written in a comment publishes nothing, or a PR could
    /// hide a module's removal behind `// pub use …`.
    #[test]
    fn a_module_reexported_whole_publishes_its_file_only_from_code() {
        let files = |lib: &'static str| {
            move |path: &str| match path {
                "Cargo.toml" => Some("[package]\nname = \"cc\"\nversion = \"1.0.0\"\n".to_string()),
                "src/lib.rs" => Some(lib.to_string()),
                "src/windows/mod.rs" => Some("pub mod find_tools;\nmod registry;\n".to_string()),
                _ => None,
            }
        };
        let code = files("mod windows;\npub use windows::find_tools as windows_registry;\n");
        assert_eq!(
            scope("src/windows/find_tools.rs", &code),
            Visibility::Exported
        );
        // Below a second private module, the re-export of `find_tools` does not reach it.
        assert_ne!(
            scope("src/windows/registry.rs", &code),
            Visibility::Exported
        );
        let comment = files("mod windows;\n// pub use windows::find_tools as windows_registry;\n");
        assert_ne!(
            scope("src/windows/find_tools.rs", &comment),
            Visibility::Exported
        );
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
            scope("src/__private_api.rs", &files),
            Visibility::NotApi(_)
        ));
        assert!(matches!(
            scope("src/kv/value.rs", &files),
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
                matches!(scope(path, &files), Visibility::NotApi(_)),
                "{path}"
            );
        }
        match scope("src/de/seed.rs", &files) {
            Visibility::Only(names) => assert_eq!(names.into_iter().collect::<Vec<_>>(), ["Seed"]),
            other => panic!("{other:?}"),
        }
        for path in ["src/platform/unix.rs", "src/de/value.rs"] {
            assert!(
                matches!(scope(path, &files), Visibility::Exported),
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
            scope("src/private/size_hint.rs", &files),
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
        match scope("src/naive/time.rs", &files) {
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
        match scope("src/naive/time.rs", &files_datetime) {
            Visibility::Only(names) => {
                assert_eq!(names.into_iter().collect::<Vec<_>>(), ["NaiveTime"])
            }
            other => panic!("{other:?}"),
        }
        match scope("src/naive/internals.rs", &files) {
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
        let only = |path: &str| match scope(path, &files) {
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
        match scope("src/inner/entry.rs", &none) {
            Visibility::Only(names) => assert!(names.is_empty(), "{names:?}"),
            other => panic!("{other:?}"),
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
        match scope("src/runtime/task_hooks.rs", &files) {
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
                matches!(scope(path, &files), Visibility::NotApi(_)),
                "{path}"
            );
        }
        // A real feature, and a module one of whose declarations is the stable build.
        for path in ["src/io.rs", "src/sys/unix.rs", "src/aot.rs"] {
            assert!(
                matches!(scope(path, &files), Visibility::Exported),
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
        match scope("src/program.rs", &files) {
            Visibility::Only(names) => assert!(names.is_empty(), "{names:?}"),
            other => panic!("{other:?}"),
        }
        // A re-export after the hidden block still counts, and one inside it does not.
        match scope("src/compile.rs", &files) {
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
        match scope("src/program.rs", &files) {
            Visibility::Only(names) => assert!(names.contains("CharRanges"), "{names:?}"),
            other => panic!("{other:?}"),
        }
    }
}
