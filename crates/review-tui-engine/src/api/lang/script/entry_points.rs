//! JavaScript and TypeScript: a module is a package's API only when its users can import it,
//! that is when the package's entry points (`package.json` `exports`, `main`, `module`,
//! `types`, else an `index` file) export it or re-export names from it, directly or through
//! other modules. An `export` in a module only the package itself imports is internal.
//!
//! Entry points name built files (`./distribution/index.js`); the source they are built from
//! is found by the same stem under the usual source directories. When the entry points cannot
//! be found, or a subpath pattern (`"./*"`) opens every module, every export counts.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::LazyLock;

use regex::Regex;

use crate::api::visibility::{Read, Visibility};
use crate::cohort::paths::parent_dir;

/// Modules followed from the entry points before giving up (every export then counts).
const MODULES: usize = 400;

const SOURCE_EXTENSIONS: &[&str] = &["ts", "tsx", "mts", "cts", "js", "jsx", "mjs", "cjs"];

/// What a module makes reachable: everything (an entry point, `export *`) or some names.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Reach {
    All,
    Names(BTreeSet<String>),
}

/// The scope of the script file `path`, or `None` when the package's entry points are not
/// known (then the language's own rule, `export`, decides alone).
pub(crate) fn script_scope(path: &str, read: Read) -> Option<Visibility> {
    let (root, manifest) = package_of(path, read)?;
    let compact: String = manifest.chars().filter(|c| !c.is_whitespace()).collect();
    if compact.contains("\"private\":true") {
        return Some(Visibility::Unpublished(
            "\"private\": true in its package.json",
        ));
    }
    let Entries {
        files: entries,
        patterns,
    } = entry_files(&root, &manifest, read)?;
    // A subpath pattern (`"./utils/*": "./dist/utils/*.js"`, hono) makes every module under
    // its folder an entry point. They cannot be listed here, so what only they re-export is
    // not followed: a module outside every pattern is public when the named entry points
    // reach it.
    if patterns.iter().any(|prefix| {
        path.starts_with(prefix.as_str())
            && path
                .rsplit_once('.')
                .is_some_and(|(_, extension)| SOURCE_EXTENSIONS.contains(&extension))
    }) {
        return Some(Visibility::Exported);
    }
    if entries.is_empty() {
        return None;
    }
    let mut reached = reach_from(entries, read, false)?;
    Some(match reached.remove(path) {
        Some(Reach::All) => Visibility::Exported,
        Some(Reach::Names(names)) => Visibility::Only(names),
        None => Visibility::NotApi("a module the package's entry points do not export"),
    })
}

/// The names of the script file `path` its package's entry points export only as types
/// (`export type { GraphQLRequest } from './handlers/GraphQLHandler'`, msw #1568): users can
/// name such a class in annotations but never construct it or read its statics, so its
/// constructor is not API. Empty when the entry points are not known.
pub(crate) fn exported_only_as_types(path: &str, read: Read) -> BTreeSet<String> {
    let only = || -> Option<BTreeSet<String>> {
        let (root, manifest) = package_of(path, read)?;
        let Entries { files, patterns } = entry_files(&root, &manifest, read)?;
        if !patterns.is_empty() || files.is_empty() {
            return None;
        }
        let any = reach_from(files.clone(), read, false)?;
        let values = reach_from(files, read, true)?;
        match (any.get(path), values.get(path)) {
            (Some(Reach::Names(names)), None) => Some(names.clone()),
            (Some(Reach::Names(names)), Some(Reach::Names(valued))) => {
                Some(names.difference(valued).cloned().collect())
            }
            _ => None,
        }
    };
    only().unwrap_or_default()
}

/// What each module reached from `entries` exposes, following every re-export (or, with
/// `values_only`, those that export values: not `export type`); `None` past [`MODULES`].
fn reach_from(
    entries: Vec<String>,
    read: Read,
    values_only: bool,
) -> Option<BTreeMap<String, Reach>> {
    let mut reached: BTreeMap<String, Reach> = BTreeMap::new();
    let mut queue: Vec<String> = Vec::new();
    for entry in entries {
        reached.insert(entry.clone(), Reach::All);
        queue.push(entry);
    }
    while let Some(module) = queue.pop() {
        if reached.len() > MODULES {
            return None;
        }
        let Some(text) = read(&module) else {
            continue;
        };
        let exposed = reached.get(&module).cloned().unwrap_or(Reach::All);
        for (target, reach) in reexports(&module, &text, &exposed, read, values_only) {
            let before = reached.get(&target).cloned();
            let merged = match (&before, reach) {
                (Some(Reach::All), _) | (_, Reach::All) => Reach::All,
                (Some(Reach::Names(old)), Reach::Names(new)) => {
                    Reach::Names(old.union(&new).cloned().collect())
                }
                (None, Reach::Names(new)) => Reach::Names(new),
            };
            if before.as_ref() != Some(&merged) {
                reached.insert(target.clone(), merged);
                queue.push(target);
            }
        }
    }
    Some(reached)
}

/// The nearest `package.json` above `path`: its directory and text.
pub(crate) fn package_of(path: &str, read: Read) -> Option<(String, String)> {
    let mut dir = parent_dir(path).to_string();
    loop {
        let manifest = join(&dir, "package.json");
        if let Some(text) = read(&manifest)
            && (dir.is_empty() || names_a_package(&text))
        {
            return Some((dir, text));
        }
        if dir.is_empty() {
            return None;
        }
        dir = parent_dir(&dir).to_string();
    }
}

/// Whether a `package.json` below the repository's root is a package's manifest: it names,
/// withdraws or points at a package. One with none of these only sets how Node reads the
/// folder's files (msw's `src/package.json`, `{"type": "module"}`), even when it repeats the
/// version beside the type (npm publishes nothing without a name, and nothing imports it by
/// one): those files still belong to the package above.
fn names_a_package(manifest: &str) -> bool {
    const PACKAGE: &[&str] = &[
        "name", "private", "exports", "main", "module", "types", "typings",
    ];
    serde_json::from_str::<serde_json::Value>(manifest)
        .ok()
        .is_none_or(|json| PACKAGE.iter().any(|key| json.get(key).is_some()))
}

pub(crate) fn join(dir: &str, file: &str) -> String {
    let file = file.trim_start_matches("./");
    if dir.is_empty() {
        file.to_string()
    } else {
        format!("{dir}/{file}")
    }
}

/// A package's entry points: source files, and the folders a subpath pattern opens (each
/// as a path prefix ending in `/`, under every source directory it may be built from).
struct Entries {
    files: Vec<String>,
    patterns: Vec<String>,
}

/// The source files of the package's entry points and the folders its subpath patterns open;
/// `None` when there are none to be found or a pattern makes every module an entry point.
fn entry_files(root: &str, manifest: &str, read: Read) -> Option<Entries> {
    let json: serde_json::Value = serde_json::from_str(manifest).ok()?;
    let mut targets = Vec::new();
    if let Some(exports) = json.get("exports") {
        collect_targets(exports, &mut targets);
    }
    for field in ["main", "module", "types", "typings", "browser"] {
        if let Some(serde_json::Value::String(target)) = json.get(field) {
            targets.push(target.clone());
        }
    }
    let mut patterns = Vec::new();
    for target in targets.iter().filter(|t| t.contains('*')) {
        patterns.extend(pattern_folders(root, target)?);
    }
    targets.retain(|t| !t.contains('*'));
    if targets.is_empty() && patterns.is_empty() {
        targets.push("index.js".to_string());
    }
    let mut files: Vec<String> = targets
        .iter()
        .filter_map(|t| source_of(root, t, read))
        .collect();
    files.sort();
    files.dedup();
    patterns.sort();
    patterns.dedup();
    if files.is_empty() && patterns.is_empty() {
        None
    } else {
        Some(Entries { files, patterns })
    }
}

/// The folders a subpath pattern's target opens (`./dist/utils/*.js` → `dist/utils/`,
/// `src/utils/`, `source/utils/`, `lib/utils/`, `utils/`); `None` when it opens the whole
/// package (`./*.js`, `./dist/*.js`) or the `*` is not in its last part.
fn pattern_folders(root: &str, target: &str) -> Option<Vec<String>> {
    let target = target.trim_start_matches("./");
    let stem = strip_script_extension(target);
    let folder = stem.strip_suffix('*')?;
    if folder.contains('*') || !folder.ends_with('/') {
        return None;
    }
    let (_, rest) = folder.split_once('/')?;
    if rest.is_empty() {
        return None;
    }
    let mut folders = vec![join(root, folder)];
    for dir in ["src", "source", "lib", ""] {
        folders.push(join(root, &join(dir, rest)));
    }
    Some(folders)
}

/// Every string in an `exports` value (subpaths and conditions nest).
pub(super) fn collect_targets(value: &serde_json::Value, out: &mut Vec<String>) {
    match value {
        serde_json::Value::String(s) => out.push(s.clone()),
        serde_json::Value::Array(items) => items.iter().for_each(|v| collect_targets(v, out)),
        serde_json::Value::Object(map) => map.values().for_each(|v| collect_targets(v, out)),
        _ => {}
    }
}

/// The source file an entry point target is built from: itself when it is in the repository,
/// else the same path under a source directory in place of the build directory
/// (`distribution/index.d.ts` → `source/index.ts`). A target naming a folder is that folder's
/// `index` (got's `"main": "dist/source"` is `source/index.ts`).
pub(super) fn source_of(root: &str, target: &str, read: Read) -> Option<String> {
    let target = target.trim_start_matches("./").trim_end_matches('/');
    let stem = strip_script_extension(target);
    let mut candidates = vec![target.to_string()];
    let (first, rest) = stem.split_once('/').unwrap_or(("", stem));
    for dir in ["src", "source", "lib", ""] {
        let base = if first.is_empty() {
            join(dir, stem)
        } else {
            join(dir, rest)
        };
        candidates.extend(SOURCE_EXTENSIONS.iter().map(|e| format!("{base}.{e}")));
        candidates.extend(
            SOURCE_EXTENSIONS
                .iter()
                .map(|e| format!("{base}/index.{e}")),
        );
    }
    candidates
        .into_iter()
        .map(|c| join(root, &c))
        .find(|c| read(c).is_some())
}

fn strip_script_extension(path: &str) -> &str {
    for suffix in [".d.ts", ".d.mts", ".d.cts"] {
        if let Some(stem) = path.strip_suffix(suffix) {
            return stem;
        }
    }
    match path.rsplit_once('.') {
        Some((stem, ext)) if SOURCE_EXTENSIONS.contains(&ext) => stem,
        _ => path,
    }
}

/// The modules `module` re-exports from, with what each is made to expose, considering only
/// what `module` itself exposes (`exposed`).
fn reexports(
    module: &str,
    text: &str,
    exposed: &Reach,
    read: Read,
    values_only: bool,
) -> Vec<(String, Reach)> {
    // Compiled once: this runs for every module reached, from every changed file's package
    // at each side (a 113-file TypeScript range compiled these three thousands of times, most
    // of its review's CPU).
    static STATEMENT: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(
            r#"(?s)export\s+(type\s+)?(\*(\s+as\s+[\w$]+)?|\{([^}]*)\})\s*from\s*['"]([^'"]+)['"]"#,
        )
        .expect("a valid pattern")
    });
    // `import X, { A as B } from './m'`, `import * as ns from './m'`: the clause between
    // `import` and `from` (no quotes or semicolons in it; a bare `import './m'` has none).
    static IMPORT: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r#"(?s)\bimport\s+(type\s+)?([^'";]*?)\s*\bfrom\s*['"]([^'"]+)['"]"#)
            .expect("a valid pattern")
    });
    // `export { X }` with or without a semicolon (standard style writes none); one followed
    // by `from` is a re-export, read above.
    static LOCAL: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?s)export\s+(type\s+)?\{([^}]*)\}").expect("a valid pattern")
    });
    static FROM: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r"^\s*from\b").expect("a valid pattern"));
    // `export default X;` of an imported `X`.
    static DEFAULT: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"export\s+default\s+([\w$]+)\s*(;|\n|$)").expect("a valid pattern")
    });
    let (statement, import, local) = (&*STATEMENT, &*IMPORT, &*LOCAL);
    let wanted = |name: &str| match exposed {
        Reach::All => true,
        Reach::Names(names) => names.contains(name),
    };
    let mut out = Vec::new();
    for capture in statement.captures_iter(text) {
        if values_only && capture.get(1).is_some() {
            continue;
        }
        let Some(target) = resolve(module, &capture[5], read) else {
            continue;
        };
        if capture[2].starts_with('*') {
            // `export * as ns`: the namespace is one name, everything in it reachable.
            let namespace = capture.get(3).map(|m| {
                m.as_str()
                    .split_whitespace()
                    .last()
                    .unwrap_or("")
                    .to_string()
            });
            let reachable = match namespace {
                Some(ns) => wanted(&ns),
                None => true,
            };
            if reachable {
                let reach = match (namespace_free(&capture[2]), exposed) {
                    (true, Reach::Names(names)) => Reach::Names(names.clone()),
                    _ => Reach::All,
                };
                out.push((target, reach));
            }
            continue;
        }
        let names = specifiers(&capture[4], values_only)
            .into_iter()
            .filter(|(_, exported)| wanted(exported))
            .map(|(original, _)| original)
            .collect::<BTreeSet<_>>();
        if !names.is_empty() {
            out.push((target, Reach::Names(names)));
        }
    }
    // `import {X} from './m'; export {X};`, and the same of a default or namespace import.
    let mut imported: BTreeMap<String, (String, Imported)> = BTreeMap::new();
    for capture in import.captures_iter(text) {
        if values_only && capture.get(1).is_some() {
            continue;
        }
        for (local_name, what) in import_clause(&capture[2], values_only) {
            imported.insert(local_name, (capture[3].to_string(), what));
        }
    }
    let mut exported_locals: Vec<(String, String)> = Vec::new();
    for capture in local.captures_iter(text) {
        let rest = &text[capture.get(0).map_or(text.len(), |m| m.end())..];
        if FROM.is_match(rest) || (values_only && capture.get(1).is_some()) {
            continue;
        }
        exported_locals.extend(specifiers(&capture[2], values_only));
    }
    for capture in DEFAULT.captures_iter(text) {
        exported_locals.push((capture[1].to_string(), "default".to_string()));
    }
    for (local_name, exported) in exported_locals {
        if !wanted(&exported) {
            continue;
        }
        if let Some((from, what)) = imported.get(&local_name)
            && let Some(target) = resolve(module, from, read)
        {
            let reach = match what {
                Imported::Name(original) => Reach::Names(BTreeSet::from([original.clone()])),
                Imported::Namespace => Reach::All,
            };
            out.push((target, reach));
        }
    }
    out
}

/// What an import binds a local name to: one export of the module (`default` for a default
/// import), or the module's namespace (`* as ns`).
enum Imported {
    Name(String),
    Namespace,
}

/// The local names an import clause binds (`X, { A as B, type C }`, `* as ns`), each with
/// what it imports; with `values_only`, without those marked `type`.
fn import_clause(clause: &str, values_only: bool) -> Vec<(String, Imported)> {
    let mut out = Vec::new();
    let (outside, braces) = match (clause.find('{'), clause.rfind('}')) {
        (Some(open), Some(close)) if open < close => (
            format!("{}{}", &clause[..open], &clause[close + 1..]),
            Some(&clause[open + 1..close]),
        ),
        _ => (clause.to_string(), None),
    };
    if let Some(list) = braces {
        out.extend(
            specifiers(list, values_only)
                .into_iter()
                .map(|(original, local)| (local, Imported::Name(original))),
        );
    }
    for part in outside.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        match part.strip_prefix('*') {
            Some(namespace) => {
                let local = namespace.trim().trim_start_matches("as").trim();
                if !local.is_empty() {
                    out.push((local.to_string(), Imported::Namespace));
                }
            }
            None if part
                .chars()
                .all(|c| c.is_alphanumeric() || c == '_' || c == '$') =>
            {
                out.push((part.to_string(), Imported::Name("default".to_string())));
            }
            None => {}
        }
    }
    out
}

/// `export *` without `as`: it passes on the names its module exposes.
fn namespace_free(star: &str) -> bool {
    !star.contains(" as ")
}

/// `A, type B, C as D` → (original, exported) pairs; with `values_only`, without those
/// marked `type`.
fn specifiers(list: &str, values_only: bool) -> Vec<(String, String)> {
    list.split(',')
        .filter_map(|part| {
            let part = part.trim();
            if values_only && part.starts_with("type ") {
                return None;
            }
            let part = part.trim_start_matches("type ").trim();
            if part.is_empty() {
                return None;
            }
            let (original, exported) = match part.split_once(" as ") {
                Some((a, b)) => (a.trim(), b.trim()),
                None => (part, part),
            };
            Some((original.to_string(), exported.to_string()))
        })
        .collect()
}

/// A relative module specifier resolved to a file of the repository (`./core/Ky.js` is
/// `core/Ky.ts` in TypeScript sources; a directory means its `index`).
fn resolve(from: &str, specifier: &str, read: Read) -> Option<String> {
    if !specifier.starts_with('.') {
        return None;
    }
    let mut parts: Vec<&str> = parent_dir(from)
        .split('/')
        .filter(|p| !p.is_empty())
        .collect();
    for segment in specifier.split('/') {
        match segment {
            "." | "" => {}
            ".." => {
                parts.pop()?;
            }
            s => parts.push(s),
        }
    }
    let path = parts.join("/");
    let stem = strip_script_extension(&path);
    let mut candidates = vec![path.clone()];
    candidates.extend(SOURCE_EXTENSIONS.iter().map(|e| format!("{stem}.{e}")));
    candidates.extend(
        SOURCE_EXTENSIONS
            .iter()
            .map(|e| format!("{path}/index.{e}")),
    );
    candidates.into_iter().find(|c| read(c).is_some())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn repo(files: &[(&str, &str)]) -> impl Fn(&str) -> Option<String> {
        let files: BTreeMap<String, String> = files
            .iter()
            .map(|(p, t)| (p.to_string(), t.to_string()))
            .collect();
        move |path: &str| files.get(path).cloned()
    }

    // ky #757: `RequestInitRegistry`, exported by `types/request.ts`, which the entry point
    // reaches only for `KyRequest`.
    #[test]
    fn only_what_the_entry_points_reexport_is_public() {
        let read = repo(&[
            (
                "package.json",
                r#"{"exports": {"types": "./distribution/index.d.ts", "default": "./distribution/index.js"}, "main": "./distribution/index.js"}"#,
            ),
            (
                "source/index.ts",
                "import {Ky} from './core/Ky.js';\nexport type {KyRequest} from './types/request.js';\nexport * from './errors/index.js';\nexport {Options as KyOptions} from './types/options.js';\nimport {helper} from './utils/helper.js';\nexport {helper};\n",
            ),
            ("source/core/Ky.ts", "export class Ky {}\n"),
            (
                "source/types/request.ts",
                "export type RequestInitRegistry = {};\nexport type KyRequest = Request;\n",
            ),
            (
                "source/types/options.ts",
                "export type Options = {};\nexport type Internal = {};\n",
            ),
            (
                "source/errors/index.ts",
                "export * from './HTTPError.js';\n",
            ),
            ("source/errors/HTTPError.ts", "export class HTTPError {}\n"),
            (
                "source/utils/helper.ts",
                "export const helper = 1;\nexport const other = 2;\n",
            ),
        ]);
        assert_eq!(
            script_scope("source/index.ts", &read),
            Some(Visibility::Exported)
        );
        assert_eq!(
            script_scope("source/types/request.ts", &read),
            Some(Visibility::Only(BTreeSet::from(["KyRequest".to_string()])))
        );
        assert_eq!(
            script_scope("source/types/options.ts", &read),
            Some(Visibility::Only(BTreeSet::from(["Options".to_string()])))
        );
        assert_eq!(
            script_scope("source/utils/helper.ts", &read),
            Some(Visibility::Only(BTreeSet::from(["helper".to_string()])))
        );
        assert_eq!(
            script_scope("source/errors/HTTPError.ts", &read),
            Some(Visibility::Exported)
        );
        assert!(matches!(
            script_scope("source/core/Ky.ts", &read),
            Some(Visibility::NotApi(_))
        ));
    }

    // got #1298: `"main": "dist/source"` names a folder built from `source/`; `parseBody`,
    // exported by a module the entry point never re-exports, is not public.
    #[test]
    fn an_entry_point_naming_a_folder_is_its_index() {
        let read = repo(&[
            (
                "package.json",
                r#"{"main": "dist/source", "types": "dist/source"}"#,
            ),
            (
                "source/index.ts",
                "export default got;\nexport * from './as-promise';\n",
            ),
            (
                "source/as-promise/index.ts",
                "export * from './types';\nexport {PromisableRequest};\n",
            ),
            ("source/as-promise/types.ts", "export type Got = {};\n"),
            (
                "source/as-promise/core.ts",
                "export const parseBody = (response: Response): unknown => response;\n",
            ),
        ]);
        assert_eq!(
            script_scope("source/as-promise/types.ts", &read),
            Some(Visibility::Exported)
        );
        assert!(matches!(
            script_scope("source/as-promise/core.ts", &read),
            Some(Visibility::NotApi(_))
        ));
    }

    #[test]
    fn without_known_entry_points_every_export_counts() {
        let read = repo(&[
            ("package.json", r#"{"exports": {"./*": "./dist/*.js"}}"#),
            ("src/a.ts", "export const a = 1;\n"),
        ]);
        assert_eq!(script_scope("src/a.ts", &read), None);
        let read = repo(&[
            ("package.json", r#"{"main": "./dist/nowhere.js"}"#),
            ("src/a.ts", "export const a = 1;\n"),
        ]);
        assert_eq!(script_scope("src/a.ts", &read), None);
        let read = repo(&[("src/a.ts", "export const a = 1;\n")]);
        assert_eq!(script_scope("src/a.ts", &read), None);
    }

    // hono 4.13: `"./utils/*"` opens `src/utils/`; `TrieRouter`'s `node.ts` is reached by no
    // entry point (`router/trie-router/index.ts` re-exports only `TrieRouter`).
    #[test]
    fn a_subpath_pattern_opens_its_folder_only() {
        let read = repo(&[
            (
                "package.json",
                r#"{"exports": {".": {"types": "./dist/types/index.d.ts", "import": "./dist/index.js"}, "./router/trie-router": {"import": "./dist/router/trie-router/index.js"}, "./utils/*": {"types": "./dist/types/utils/*.d.ts", "import": "./dist/utils/*.js"}}}"#,
            ),
            (
                "src/index.ts",
                "export { Hono } from './hono';
",
            ),
            (
                "src/hono.ts",
                "export class Hono {}
",
            ),
            (
                "src/router/trie-router/index.ts",
                "export { TrieRouter } from './router';
",
            ),
            (
                "src/router/trie-router/router.ts",
                "import { Node } from './node';
export class TrieRouter {}
",
            ),
            (
                "src/router/trie-router/node.ts",
                "export class Node {}
",
            ),
            (
                "src/utils/url.ts",
                "export const getPath = () => '';
",
            ),
            (
                "src/utils/deep/x.ts",
                "export const x = 1;
",
            ),
        ]);
        for exported in ["src/utils/url.ts", "src/utils/deep/x.ts", "src/index.ts"] {
            assert_eq!(
                script_scope(exported, &read),
                Some(Visibility::Exported),
                "{exported}"
            );
        }
        assert!(matches!(
            script_scope("src/router/trie-router/node.ts", &read),
            Some(Visibility::NotApi(_))
        ));
        assert_eq!(
            script_scope("src/router/trie-router/router.ts", &read),
            Some(Visibility::Only(BTreeSet::from(["TrieRouter".to_string()])))
        );
    }

    #[test]
    fn a_folder_marking_its_module_type_is_no_package_of_its_own() {
        // msw 2.13.6 → 2.14.0: `kSetCookie`, exported by a module under `src/` beside a
        // `src/package.json` that only says `"type": "module"`; no entry point re-exports it.
        let read = repo(&[
            (
                "package.json",
                r#"{"name": "msw", "exports": {".": {"types": "./lib/core/index.d.ts", "default": "./lib/core/index.js"}}}"#,
            ),
            ("src/package.json", r#"{"type": "module"}"#),
            (
                "src/core/index.ts",
                "export { HttpResponse } from './HttpResponse'\n",
            ),
            (
                "src/core/HttpResponse.ts",
                "import { decorateResponse } from './utils/HttpResponse/decorators'\nexport class HttpResponse {}\n",
            ),
            (
                "src/core/utils/HttpResponse/decorators.ts",
                "export const kSetCookie = Symbol('kSetCookie')\nexport function decorateResponse() {}\n",
            ),
        ]);
        assert!(matches!(
            script_scope("src/core/utils/HttpResponse/decorators.ts", &read),
            Some(Visibility::NotApi(_))
        ));
        // The true positive: what the entry point re-exports stays public.
        assert_eq!(
            script_scope("src/core/HttpResponse.ts", &read),
            Some(Visibility::Only(BTreeSet::from([
                "HttpResponse".to_string()
            ])))
        );
        // A nested manifest naming a package is that package's.
        let nested = repo(&[
            ("package.json", r#"{"name": "root", "main": "index.js"}"#),
            ("index.js", "export const a = 1;\n"),
            (
                "packages/b/package.json",
                r#"{"name": "b", "main": "lib/index.js"}"#,
            ),
            ("packages/b/lib/index.js", "export const b = 1;\n"),
        ]);
        assert_eq!(
            script_scope("packages/b/lib/index.js", &nested),
            Some(Visibility::Exported)
        );
    }

    #[test]
    fn a_folder_manifest_without_a_name_or_entry_point_is_no_package_of_its_own() {
        // A `src/package.json` that marks the module type and repeats the version (kept in
        // step by a release script) names no package: npm publishes nothing without a name,
        // and nothing imports it by one. Its files are the package above's, public only as
        // far as that package's entry points reach.
        let read = repo(&[
            (
                "package.json",
                r#"{"name": "dates", "version": "3.3.0", "exports": {".": {"import": "./src/dates.js", "require": "./build/node/dates.js"}}}"#,
            ),
            (
                "src/package.json",
                r#"{"type": "module", "version": "3.3.0"}"#,
            ),
            (
                "src/dates.js",
                "import DateTime from \"./datetime.js\";\nexport { DateTime };\n",
            ),
            (
                "src/datetime.js",
                "import Locale from \"./impl/locale.js\";\nexport default class DateTime {}\n",
            ),
            (
                "src/impl/locale.js",
                "export default class Locale {\n  months(length, format = false) {}\n}\n",
            ),
        ]);
        assert!(matches!(
            script_scope("src/impl/locale.js", &read),
            Some(Visibility::NotApi(_))
        ));
        assert_eq!(
            script_scope("src/datetime.js", &read),
            Some(Visibility::Only(BTreeSet::from(["default".to_string()])))
        );
        // A folder manifest that names a package, or withdraws itself, still decides.
        for manifest in [
            r#"{"name": "dates-impl", "version": "3.3.0"}"#,
            r#"{"private": true, "version": "3.3.0"}"#,
        ] {
            let files = [
                (
                    "package.json",
                    r#"{"name": "dates", "main": "src/dates.js"}"#,
                ),
                ("src/package.json", manifest),
                ("src/dates.js", "export const a = 1;\n"),
                ("src/impl/locale.js", "export default class Locale {}\n"),
            ];
            let read = repo(&files);
            assert!(
                !matches!(
                    script_scope("src/impl/locale.js", &read),
                    Some(Visibility::NotApi(_))
                ),
                "{manifest}"
            );
        }
    }

    #[test]
    fn default_and_namespace_imports_exported_again_reach_their_modules() {
        // Standard style writes no semicolons: `export { DateTime, util }` re-exports a
        // default import and a namespace import as surely as `export { X } from`.
        let read = repo(&[
            (
                "package.json",
                r#"{"name": "dates", "main": "src/index.js"}"#,
            ),
            (
                "src/index.js",
                "import DateTime, { Zone as TimeZone } from './datetime.js'\nimport * as util from './util.js'\nimport Hidden from './hidden.js'\nexport { DateTime, TimeZone, util }\n",
            ),
            (
                "src/datetime.js",
                "export default class DateTime {}\nexport class Zone {}\nexport class Other {}\n",
            ),
            ("src/util.js", "export function pad() {}\n"),
            ("src/hidden.js", "export default function hidden() {}\n"),
        ]);
        assert_eq!(
            script_scope("src/datetime.js", &read),
            Some(Visibility::Only(BTreeSet::from([
                "Zone".to_string(),
                "default".to_string()
            ])))
        );
        assert_eq!(
            script_scope("src/util.js", &read),
            Some(Visibility::Exported)
        );
        assert!(matches!(
            script_scope("src/hidden.js", &read),
            Some(Visibility::NotApi(_))
        ));
        // `export default X` of an imported `X` passes on that module's export.
        let read = repo(&[
            (
                "package.json",
                r#"{"name": "thing", "main": "src/main.js"}"#,
            ),
            (
                "src/main.js",
                "import Thing from './thing.js';\nexport default Thing;\n",
            ),
            (
                "src/thing.js",
                "export default class Thing {}\nexport const x = 1\n",
            ),
        ]);
        assert_eq!(
            script_scope("src/thing.js", &read),
            Some(Visibility::Only(BTreeSet::from(["default".to_string()])))
        );
    }

    #[test]
    fn a_private_package_has_no_api() {
        let read = repo(&[
            (
                "package.json",
                "{\"private\": true, \"main\": \"index.js\"}",
            ),
            ("index.js", "export const a = 1;\n"),
        ]);
        assert!(matches!(
            script_scope("index.js", &read),
            Some(Visibility::Unpublished(_))
        ));
    }
}
