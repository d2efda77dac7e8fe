//! A lock file that changed while its manifest did not: a refresh, or a lock that no longer
//! says what its manifest asks.
//!
//! A lock records two things: what the manifest asked for (its root dependencies: npm's
//! `packages[""]`, pnpm's importers' specifiers, the ranges yarn keys its entries by, Bundler's
//! `DEPENDENCIES`, Poetry's and Pipenv's hash of the manifest) and what that resolved to. A
//! change that moves only the resolutions (`npm audit fix`, `npm update`, `cargo update`,
//! `bundle update`, go's checksum bookkeeping, a lock catching up with a manifest bump made by
//! an earlier commit) is a refresh inside what the manifest allows: nothing to ask. A lock whose
//! root dependencies disagree with its manifest at the head (edited by hand, a merge gone wrong,
//! a lock written for another manifest) is what the question is for; so is a lock that fetches
//! from a new host, which [`super::lockfile`] asks before this.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::sync::LazyLock;

use regex::Regex;

use super::{file_name, parent_dir};
use crate::diff::{FileDiff, LineKind};

/// Whether the change to this lock (modified, its manifest unchanged) only moves resolutions
/// inside the ranges its manifest asks for. `false` when the lock's format or the files at the
/// head cannot tell.
pub(super) fn is_refresh(
    lock: &FileDiff,
    worktree: Option<&Path>,
    repo_files: Option<&BTreeSet<String>>,
) -> bool {
    let read = |path: &str| -> Option<String> {
        let bytes = crate::space::worktree_file::read(worktree?, path).ok()?;
        String::from_utf8(bytes).ok()
    };
    let dir = parent_dir(&lock.path);
    match file_name(&lock.path) {
        // A checksum database: hashes of module versions come and go as the go tool needs
        // them; a version added or dropped is what says something.
        "go.sum" => read(&lock.path).is_some_and(|text| {
            let go_mod = read(&join(dir, "go.mod")).unwrap_or_default();
            go_sum_same_versions(lock, &text, go_module(&go_mod).as_deref(), &go_mod)
        }),
        "package-lock.json" | "npm-shrinkwrap.json" => {
            read(&lock.path).is_some_and(|text| npm_lock_agrees(&text, dir, &|path| read(path)))
        }
        "yarn.lock" => read(&lock.path).is_some_and(|text| {
            let manifests = package_manifests(dir, repo_files, &|path| read(path));
            !manifests.is_empty() && yarn_lock_agrees(&text, &manifests)
        }),
        "pnpm-lock.yaml" => {
            read(&lock.path).is_some_and(|text| pnpm_lock_agrees(&text, dir, &|path| read(path)))
        }
        // Resolved entries only: each changed line lies in an entry fetched from a source.
        "Cargo.lock" | "uv.lock" => {
            read(&lock.path).is_some_and(|text| only_sourced_entries(lock, &text))
        }
        "Gemfile.lock" => {
            read(&lock.path).is_some_and(|text| !touches_gem_dependencies(lock, &text))
        }
        // The lock's hash of the manifest it was made from did not move.
        "poetry.lock" => {
            read(&lock.path).is_some_and(|text| text.contains("\ncontent-hash = "))
                && !changed_lines(lock).any(|text| text.starts_with("content-hash"))
        }
        "Pipfile.lock" => {
            read(&lock.path).is_some_and(|text| text.contains("\"_meta\""))
                && !changed_lines(lock).any(|text| PIPFILE_HASH.is_match(text))
        }
        _ => false,
    }
}

/// The module path a `go.mod` declares.
fn go_module(go_mod: &str) -> Option<String> {
    go_mod.lines().find_map(|l| {
        let rest = l.trim().strip_prefix("module")?;
        rest.starts_with(char::is_whitespace)
            .then(|| rest.trim().trim_matches('"').to_string())
    })
}

/// Whether a go.sum only completed, pruned or caught up: every version it gains (a module at
/// a version, neither of whose hashes it held) is one `go.mod` (unchanged, at the head)
/// requires (the lock catching up with a bump an earlier change made), and no hash it held
/// changed. A line added beside a version it had (the tree's hash beside the `go.mod` one)
/// completes it; a line removed records nothing any more, which brings in no code (`go mod
/// tidy`). Lines of the module itself (`module` in `go.mod`, which it never needs) are not
/// versions of a dependency.
fn go_sum_same_versions(lock: &FileDiff, text: &str, module: Option<&str>, go_mod: &str) -> bool {
    // `(path, version)` and the hash's key (`version` or `version/go.mod`).
    let entry = |line: &str| -> Option<((String, String), (String, String))> {
        let mut words = line.split_whitespace();
        let (path, version, hash) = (words.next()?, words.next()?, words.next()?);
        (Some(path) != module).then(|| {
            (
                (
                    path.to_string(),
                    version.trim_end_matches("/go.mod").to_string(),
                ),
                (format!("{path} {version}"), hash.to_string()),
            )
        })
    };
    let lines = || lock.hunks.iter().flat_map(|h| &h.lines);
    let added: BTreeSet<u32> = lines()
        .filter(|l| l.kind == LineKind::Added)
        .filter_map(|l| l.new_line)
        .collect();
    let head: BTreeSet<(String, String)> = text.lines().filter_map(entry).map(|e| e.0).collect();
    let mut base: Vec<((String, String), (String, String))> = (1u32..)
        .zip(text.lines())
        .filter(|(n, _)| !added.contains(n))
        .filter_map(|(_, line)| entry(line))
        .collect();
    base.extend(
        lines()
            .filter(|l| l.kind == LineKind::Removed)
            .filter_map(|l| entry(&l.text)),
    );
    let base_hashes: BTreeMap<String, String> = base.iter().map(|e| e.1.clone()).collect();
    let rehashed = lines()
        .filter(|l| l.kind == LineKind::Added)
        .filter_map(|l| entry(&l.text))
        .any(|(_, (key, hash))| base_hashes.get(&key).is_some_and(|old| *old != hash));
    let base: BTreeSet<(String, String)> = base.into_iter().map(|e| e.0).collect();
    let required: BTreeSet<(String, String)> =
        super::lock_satisfies::go_directives(go_mod, "require")
            .into_iter()
            .filter_map(|body| {
                let mut words = body.split_whitespace();
                Some((words.next()?.to_string(), words.next()?.to_string()))
            })
            .collect();
    !rehashed && head.difference(&base).all(|v| required.contains(v))
}

static PIPFILE_HASH: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r#"^\s*"sha256"\s*:"#).expect("valid regex"));

/// The added and removed lines of the change, trimmed.
fn changed_lines(lock: &FileDiff) -> impl Iterator<Item = &str> {
    lock.hunks
        .iter()
        .flat_map(|h| &h.lines)
        .filter(|l| l.kind != LineKind::Context)
        .map(|l| l.text.trim())
}

/// For each changed line, the head line it sits at: an added line's own number, a removed
/// line's the head line before it (the line it was removed after).
fn changed_head_lines(lock: &FileDiff) -> Vec<u32> {
    let mut at = Vec::new();
    for hunk in &lock.hunks {
        let mut last = hunk.new_start.saturating_sub(1).max(1);
        for line in &hunk.lines {
            match line.kind {
                LineKind::Context => last = line.new_line.unwrap_or(last),
                LineKind::Added => {
                    last = line.new_line.unwrap_or(last);
                    at.push(last);
                }
                LineKind::Removed => at.push(last.max(1)),
            }
        }
    }
    at
}

const DEPENDENCY_KINDS: [&str; 3] = ["dependencies", "devDependencies", "optionalDependencies"];

fn join(dir: &str, name: &str) -> String {
    match (dir.is_empty(), name.is_empty()) {
        (true, _) => name.to_string(),
        (false, true) => dir.to_string(),
        (false, false) => format!("{dir}/{name}"),
    }
}

/// npm's lock (version 2 and 3) copies each package's manifest dependencies into
/// `packages[""]` (the root) and `packages["<workspace path>"]`: they agree when each equals
/// the `package.json` at that path at the head. A version 1 lock records no ranges: it agrees
/// when it holds every dependency the root manifest names.
fn npm_lock_agrees(text: &str, dir: &str, read: &dyn Fn(&str) -> Option<String>) -> bool {
    let Ok(lock) = serde_json::from_str::<serde_json::Value>(text) else {
        return false;
    };
    let manifest_at = |path: &str| -> Option<serde_json::Value> {
        serde_json::from_str(&read(&join(path, "package.json"))?).ok()
    };
    let deps = |value: &serde_json::Value, kind: &str| -> BTreeMap<String, String> {
        value[kind]
            .as_object()
            .map(|map| {
                map.iter()
                    .map(|(k, v)| (k.clone(), v.as_str().unwrap_or_default().to_string()))
                    .collect()
            })
            .unwrap_or_default()
    };
    if let Some(packages) = lock["packages"].as_object() {
        let mut compared = false;
        for (key, entry) in packages {
            if key.contains("node_modules/") {
                continue;
            }
            let Some(manifest) = manifest_at(&join(dir, key)) else {
                // A workspace member's folder without a manifest: the lock names a package
                // the repository no longer has.
                return false;
            };
            if DEPENDENCY_KINDS
                .iter()
                .any(|kind| deps(entry, kind) != deps(&manifest, kind))
            {
                return false;
            }
            compared |= key.is_empty();
        }
        return compared;
    }
    let Some(manifest) = manifest_at(dir) else {
        return false;
    };
    let locked = lock["dependencies"].as_object();
    DEPENDENCY_KINDS.iter().all(|kind| {
        deps(&manifest, kind)
            .keys()
            .all(|name| locked.is_some_and(|l| l.contains_key(name)))
    })
}

/// The manifests a yarn lock in `dir` locks: `dir/package.json` and those of the workspaces
/// its `workspaces` globs name (`packages/*`), parsed; at most 500.
fn package_manifests(
    dir: &str,
    repo_files: Option<&BTreeSet<String>>,
    read: &dyn Fn(&str) -> Option<String>,
) -> Vec<serde_json::Value> {
    let Some(root) = read(&join(dir, "package.json"))
        .and_then(|t| serde_json::from_str::<serde_json::Value>(&t).ok())
    else {
        return Vec::new();
    };
    let globs = root["workspaces"]
        .as_array()
        .or_else(|| root["workspaces"]["packages"].as_array())
        .cloned()
        .unwrap_or_default();
    let patterns: Vec<Regex> = globs
        .iter()
        .filter_map(|g| g.as_str())
        .filter(|g| !g.starts_with('!'))
        .filter_map(|glob| {
            let glob = glob.trim_start_matches("./").trim_end_matches('/');
            let pattern = regex::escape(&join(dir, glob))
                .replace(r"\*\*", ".*")
                .replace(r"\*", "[^/]*");
            Regex::new(&format!("^{pattern}/package\\.json$")).ok()
        })
        .collect();
    let mut manifests = vec![root];
    if let Some(files) = repo_files {
        manifests.extend(
            files
                .iter()
                .filter(|f| !f.contains("node_modules/") && patterns.iter().any(|p| p.is_match(f)))
                .take(500)
                .filter_map(|f| serde_json::from_str(&read(f)?).ok()),
        );
    }
    manifests
}

/// A range that names no registry version: the package is the repository's own or a path.
fn local_range(range: &str) -> bool {
    ["workspace:", "link:", "file:", "portal:", "patch:", "exec:"]
        .iter()
        .any(|p| range.starts_with(p))
}

/// yarn keys each entry by the ranges asking for it (`left-pad@^1.3.0`, berry's
/// `left-pad@npm:^1.3.0`): the lock agrees with its manifests when each dependency they name
/// from a registry has its `name@range` key. The workspace's own packages are linked, not
/// locked.
fn yarn_lock_agrees(text: &str, manifests: &[serde_json::Value]) -> bool {
    let keys: BTreeSet<String> = text
        .lines()
        .filter(|l| !l.starts_with([' ', '#']) && l.trim_end().ends_with(':'))
        .flat_map(|l| l.trim_end().trim_end_matches(':').split(", "))
        .map(|key| key.trim().trim_matches('"').to_string())
        .collect();
    let own: BTreeSet<&str> = manifests
        .iter()
        .filter_map(|m| m["name"].as_str())
        .collect();
    manifests.iter().all(|manifest| {
        DEPENDENCY_KINDS.iter().all(|kind| {
            manifest[*kind].as_object().is_none_or(|map| {
                map.iter().all(|(name, range)| {
                    let range = range.as_str().unwrap_or_default();
                    own.contains(name.as_str())
                        || local_range(range)
                        || keys.contains(&format!("{name}@{range}"))
                        || keys.contains(&format!("{name}@npm:{range}"))
                })
            })
        })
    })
}

/// pnpm records each importer's specifiers (`importers: .: dependencies: vue: specifier: ^3.4`,
/// or version 5's `specifiers:` map): they agree when each equals the manifest's ranges at the
/// importer's path.
fn pnpm_lock_agrees(text: &str, dir: &str, read: &dyn Fn(&str) -> Option<String>) -> bool {
    let specifiers = pnpm_specifiers(text);
    if specifiers.is_empty() {
        return false;
    }
    specifiers.iter().all(|(importer, locked)| {
        let Some(manifest) = read(&join(dir, importer.trim_start_matches("./")))
            .and_then(|t| serde_json::from_str::<serde_json::Value>(&t).ok())
        else {
            return false;
        };
        let mut asked = BTreeMap::new();
        for kind in DEPENDENCY_KINDS {
            if let Some(map) = manifest[kind].as_object() {
                for (name, range) in map {
                    asked.insert(name.clone(), range.as_str().unwrap_or_default().to_string());
                }
            }
        }
        &asked == locked
    })
}

/// Each importer's path (`"."` → `"package.json"`'s folder, as `"path/package.json"`) and its
/// dependencies' specifiers, from a pnpm lock's text.
fn pnpm_specifiers(text: &str) -> BTreeMap<String, BTreeMap<String, String>> {
    let unquote = |s: &str| s.trim().trim_matches(['\'', '"']).to_string();
    let mut out: BTreeMap<String, BTreeMap<String, String>> = BTreeMap::new();
    // Where the reading is: the importer (its manifest's path), and the current block.
    let mut importer: Option<String> = None;
    let mut in_importers = false;
    let mut block: Option<(usize, bool)> = None; // (indent, is `specifiers:`)
    let mut name: Option<String> = None;
    for line in text.lines() {
        if line.trim().is_empty() || line.trim_start().starts_with('#') {
            continue;
        }
        let indent = line.len() - line.trim_start().len();
        let content = line.trim();
        if indent == 0 {
            in_importers = content == "importers:";
            block = None;
            importer = (!in_importers
                && matches!(
                    content,
                    "specifiers:" | "dependencies:" | "devDependencies:" | "optionalDependencies:"
                ))
            .then(|| "package.json".to_string());
            if let Some(current) = &importer {
                block = Some((0, content == "specifiers:"));
                out.entry(current.clone()).or_default();
            }
            continue;
        }
        if in_importers && indent == 2 {
            let path = unquote(content.trim_end_matches(':'));
            importer = Some(if path == "." {
                "package.json".to_string()
            } else {
                format!("{path}/package.json")
            });
            block = None;
            continue;
        }
        let Some(current) = importer.clone() else {
            continue;
        };
        if in_importers && indent == 4 {
            block = matches!(
                content,
                "specifiers:" | "dependencies:" | "devDependencies:" | "optionalDependencies:"
            )
            .then_some((4, content == "specifiers:"));
            out.entry(current).or_default();
            continue;
        }
        let Some((depth, specifiers)) = block else {
            continue;
        };
        if indent == depth + 2 {
            let (key, value) = content.split_once(':').unwrap_or((content, ""));
            if specifiers {
                out.entry(current)
                    .or_default()
                    .insert(unquote(key), unquote(value));
            } else if value.trim().is_empty() {
                name = Some(unquote(key));
            }
            // else pnpm 5's resolved `vue: 3.2.1` beside its `specifiers:` map.
        } else if indent == depth + 4
            && let Some(spec) = content.strip_prefix("specifier:")
            && let Some(dep) = &name
        {
            out.entry(current)
                .or_default()
                .insert(dep.clone(), unquote(spec));
        }
    }
    out
}

/// Every changed line of a Cargo or uv lock lies in a `[[package]]` entry, at the head, that
/// names a source it is fetched from (a registry or a git repository): resolutions moved. In a
/// workspace member's entry (no source, or uv's editable/virtual/directory one) its own
/// `version` may move, and the versions its dependency list pins (Cargo's first lock format
/// writes `"honggfuzz 0.5.45 (registry+…)"` there) as long as the names it lists stay the same;
/// the old format's `[metadata]` checksums are resolutions too. Any other line (a member gaining
/// or losing a dependency, uv's `[manifest]`) is about the root dependencies.
fn only_sourced_entries(lock: &FileDiff, text: &str) -> bool {
    // Each table's first and last line (1-based) and whether it is a package fetched from a
    // source. A package's sub-tables
    // (`[package.metadata]`, `[package.optional-dependencies]`) are its own.
    let mut tables: Vec<(u32, u32, bool)> = Vec::new();
    for (number, line) in (1u32..).zip(text.lines()) {
        let header = line.trim();
        if header.starts_with('[') {
            if header.starts_with("[package.") || header.starts_with("[[package.") {
                continue;
            }
            if let Some(last) = tables.last_mut() {
                last.1 = number - 1;
            }
            tables.push((number, u32::MAX, false));
        } else if let Some(last) = tables.last_mut()
            && REMOTE_SOURCE.is_match(line)
        {
            last.2 = true;
        }
    }
    let table_at = |n: u32| {
        tables
            .iter()
            .find(|&&(first, last, _)| first <= n && n <= last)
    };
    // The names member entries list, on the removed and the added side.
    let (mut dropped, mut listed): (Vec<String>, Vec<String>) = (Vec::new(), Vec::new());
    let at = changed_head_lines(lock);
    let changed = lock
        .hunks
        .iter()
        .flat_map(|h| &h.lines)
        .filter(|l| l.kind != LineKind::Context);
    let mut any = false;
    for (line, n) in changed.zip(at) {
        any = true;
        let text = line.text.trim();
        // Blank lines, comments, the file's format (`version = 3` above the entries) and the
        // old format's `[metadata]` header are the tool's layout: Cargo rewrites them when it
        // moves a lock to a newer format (smallvec's fuzz lock, 1.10 → 1.11).
        if text.is_empty() || text.starts_with('#') || text == "[metadata]" {
            continue;
        }
        let Some(&(_, _, sourced)) = table_at(n) else {
            if text.starts_with("version =") {
                continue;
            }
            return false;
        };
        if sourced || text.starts_with("\"checksum ") {
            continue;
        }
        if text.starts_with("version =") {
            continue;
        }
        let Some(item) = text.strip_prefix('"') else {
            return false;
        };
        let name = item
            .split([' ', '"'])
            .next()
            .unwrap_or_default()
            .to_string();
        if line.kind == LineKind::Added {
            listed.push(name);
        } else {
            dropped.push(name);
        }
    }
    dropped.sort();
    listed.sort();
    any && dropped == listed
}

/// A lock entry's source that is fetched: Cargo's `source = "registry+…"`/`"git+…"`/
/// `"sparse+…"`, uv's `source = { registry = … }`/`{ git = … }`/`{ url = … }`.
static REMOTE_SOURCE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"^source\s*=\s*("(registry|sparse|git)\+|\{\s*(registry|git|url)\s*=)"#)
        .expect("valid regex")
});

/// Whether a changed line of a Gemfile.lock lies in its `DEPENDENCIES` section at the head
/// (what the Gemfile asks for), rather than in the resolved specs (`GEM`, `PATH`, `GIT`),
/// `PLATFORMS`, `CHECKSUMS`, `RUBY VERSION` or `BUNDLED WITH`.
fn touches_gem_dependencies(lock: &FileDiff, text: &str) -> bool {
    let mut sections: Vec<(u32, bool)> = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if !line.is_empty() && !line.starts_with(' ') {
            sections.push((i as u32 + 1, line.trim() == "DEPENDENCIES"));
        }
    }
    changed_head_lines(lock).iter().any(|&n| {
        sections
            .iter()
            .rev()
            .find(|&&(start, _)| start <= n)
            .is_none_or(|&(_, dependencies)| dependencies)
    })
}
