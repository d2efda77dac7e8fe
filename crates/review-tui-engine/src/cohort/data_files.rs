//! Data files read by the change's own code, joined to that code's cohort.
//!
//! A plugin that reads `locale.formats`, added with the 22 locale files that each gain a
//! `formats: { … }` entry, is one change: the locale entries are what the plugin reads. By
//! symbols they share nothing (an object key or a JSON/YAML key is no definition the index
//! knows), so the locale files fell into "no symbol touched" or a cohort of their directory,
//! read apart from the code that gives them meaning. Here a data file whose added lines supply
//! a key (`formats:`, `"formats":`, `formats =`) joins the cohort whose code reads that key on
//! its own added lines (`.formats`, `["formats"]`, `get("formats")`).
//!
//! Only added lines on both sides: a key the code has always read says nothing about this
//! change's data. Common names (`name`, `id`, `type`) never join; a file whose keys are read by
//! the code of two cohorts equally stays where it was.

use std::collections::{BTreeMap, BTreeSet};

use super::group::Cohort;
use super::stoplist::is_common;
use crate::diff::{FileDiff, LineKind, is_test_path};

/// Keys shorter than this are too generic to say which code reads them (`id`, `on`).
const MIN_KEY: usize = 4;

/// Moves each data file whose added keys a cohort's code reads on its added lines into that
/// cohort, and drops cohorts left empty.
pub(super) fn join_data_files(cohorts: &mut Vec<Cohort>, files: &[FileDiff]) {
    let diffs: BTreeMap<&str, &FileDiff> = files.iter().map(|f| (f.path.as_str(), f)).collect();
    // Code: the files of cohorts formed by symbols. Data: files of cohorts that touch none.
    let mut reads: Vec<(usize, &str, BTreeSet<String>)> = Vec::new();
    let mut data: Vec<(usize, &str, BTreeSet<String>)> = Vec::new();
    for (at, cohort) in cohorts.iter().enumerate() {
        // Moved files are read as a move, whatever they hold.
        if cohort.key.starts_with("moved-") {
            continue;
        }
        let by_symbols = !cohort.symbols.is_empty();
        for path in &cohort.files {
            let Some(diff) = diffs.get(path.as_str()) else {
                continue;
            };
            if is_test_path(path) {
                continue;
            }
            if by_symbols {
                let keys = read_keys(diff);
                if !keys.is_empty() {
                    reads.push((at, path, keys));
                }
            } else if is_data_file(path) {
                let keys = supplied_keys(diff);
                if !keys.is_empty() {
                    data.push((at, path, keys));
                }
            }
        }
    }
    if reads.is_empty() || data.is_empty() {
        return;
    }
    // Each data file to the cohort whose code reads most of its keys, when one does clearly.
    let mut moves: BTreeMap<usize, Vec<(String, BTreeSet<String>)>> = BTreeMap::new();
    let mut leaving: BTreeMap<usize, BTreeSet<String>> = BTreeMap::new();
    for (from, path, keys) in &data {
        let mut score: BTreeMap<usize, BTreeSet<&str>> = BTreeMap::new();
        for (at, _, read) in &reads {
            for key in keys.intersection(read) {
                score.entry(*at).or_default().insert(key);
            }
        }
        let mut ranked: Vec<(usize, BTreeSet<&str>)> = score.into_iter().collect();
        ranked.sort_by(|a, b| b.1.len().cmp(&a.1.len()).then(a.0.cmp(&b.0)));
        let (target, shared) = match ranked.as_slice() {
            [] => continue,
            [(at, shared)] => (*at, shared),
            [(at, shared), (_, next), ..] if shared.len() > next.len() => (*at, shared),
            _ => continue,
        };
        let shared: BTreeSet<String> = shared.iter().map(|k| k.to_string()).collect();
        moves
            .entry(target)
            .or_default()
            .push((path.to_string(), shared));
        leaving.entry(*from).or_default().insert(path.to_string());
    }
    for (from, paths) in &leaving {
        cohorts[*from].files.retain(|p| !paths.contains(p));
    }
    for (target, joined) in moves {
        let cohort = &mut cohorts[target];
        // After the code, before the tests: what the code reads, then what checks it.
        let first_test = cohort
            .files
            .iter()
            .position(|p| is_test_path(p))
            .unwrap_or(cohort.files.len());
        let mut paths: Vec<String> = joined.iter().map(|(p, _)| p.clone()).collect();
        paths.sort();
        let count = paths.len();
        cohort.files.splice(first_test..first_test, paths);
        let keys: BTreeSet<String> = joined.into_iter().flat_map(|(_, k)| k).collect();
        let named: Vec<String> = keys.iter().take(3).map(|k| format!("`{k}`")).collect();
        let note = format!(
            "{count} data file(s) supply {}, which the change's code reads",
            named.join(", ")
        );
        cohort.insight = Some(match cohort.insight.take() {
            Some(text) => format!("{text}; {note}"),
            None => note,
        });
    }
    cohorts.retain(|c| !c.files.is_empty());
    // An untouched cohort's count said how many files it held.
    for cohort in cohorts.iter_mut() {
        if cohort.label == "no symbol touched" {
            cohort.insight = Some(format!(
                "{} files whose changes touch no name the repository defines (comments, docs, formatting, outside APIs)",
                cohort.files.len()
            ));
        }
    }
}

/// Data and configuration by extension, and source files whose symbols say nothing (a locale
/// module is an object literal): anything but documentation, which explains keys rather than
/// supplying them.
fn is_data_file(path: &str) -> bool {
    let extension = path.rsplit_once('.').map_or("", |(_, e)| e);
    !matches!(
        extension.to_ascii_lowercase().as_str(),
        "md" | "markdown" | "rst" | "txt" | "adoc" | "html" | "htm" | "mdx" | "svg" | "lock"
    )
}

fn added(diff: &FileDiff) -> impl Iterator<Item = &str> {
    diff.hunks
        .iter()
        .flat_map(|h| h.lines.iter())
        .filter(|l| l.kind == LineKind::Added)
        .map(|l| l.text.as_str())
}

fn is_name_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

fn distinctive(key: &str) -> bool {
    key.len() >= MIN_KEY
        && key.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
        && !is_common(key)
        && !COMMON_KEYS.contains(&key.to_ascii_lowercase().as_str())
}

/// Keys every kind of data has: they name no one thing a particular code reads.
const COMMON_KEYS: &[&str] = &[
    "name",
    "type",
    "value",
    "values",
    "data",
    "text",
    "title",
    "description",
    "version",
    "default",
    "label",
    "path",
    "file",
    "files",
    "url",
    "key",
    "keys",
    "id",
    "kind",
    "items",
    "options",
    "config",
    "enabled",
    "true",
    "false",
    "null",
    "none",
    "self",
    "this",
    "return",
    "const",
    "export",
    "import",
    "from",
    "function",
    "class",
    "module",
    "exports",
];

/// The keys a data file's added lines begin with: `formats: {`, `"formats": {`, `formats = 1`,
/// `formats:` in YAML.
fn supplied_keys(diff: &FileDiff) -> BTreeSet<String> {
    let mut keys = BTreeSet::new();
    for line in added(diff) {
        let line = line.trim_start().trim_start_matches(['"', '\'']);
        let key: String = line.chars().take_while(|&c| is_name_char(c)).collect();
        let rest = line[key.len()..]
            .trim_start_matches(['"', '\''])
            .trim_start();
        if (rest.starts_with(':') && !rest.starts_with("::")
            || rest.starts_with('=') && !rest.starts_with("=="))
            && distinctive(&key)
        {
            keys.insert(key);
        }
    }
    keys
}

/// The keys code reads on its added lines: a member after a dot (`locale.formats`), a quoted
/// name in an index or a call (`data["formats"]`, `get('formats')`).
fn read_keys(diff: &FileDiff) -> BTreeSet<String> {
    let mut keys = BTreeSet::new();
    for line in added(diff) {
        let mut rest = line;
        while let Some(at) = rest.find(['.', '"', '\'']) {
            let quote = rest.as_bytes()[at];
            let after = &rest[at + 1..];
            let key: String = after.chars().take_while(|&c| is_name_char(c)).collect();
            let closed = quote == b'.' || after[key.len()..].starts_with(quote as char);
            if closed && distinctive(&key) {
                keys.insert(key.clone());
            }
            rest = &after[key.len()..];
            if quote != b'.' && closed {
                rest = &rest[1..];
            }
        }
    }
    keys
}

#[cfg(test)]
mod tests {
    use super::*;

    fn diff_of(path: &str, added: &[&str]) -> FileDiff {
        let mut text = format!("diff --git a/{path} b/{path}\n--- a/{path}\n+++ b/{path}\n");
        text.push_str(&format!("@@ -1,1 +1,{} @@\n", added.len() + 1));
        text.push_str(" const locale = {\n");
        for line in added {
            text.push_str(&format!("+{line}\n"));
        }
        crate::diff::parse(&text).unwrap().files.remove(0)
    }

    #[test]
    fn keys_supplied_and_read() {
        let data = diff_of(
            "src/locale/de.js",
            &[
                "  formats: {",
                "    LTS: 'HH:mm:ss',",
                "  \"weekStart\": 1,",
                "  name: 'de',",
            ],
        );
        assert_eq!(
            supplied_keys(&data).into_iter().collect::<Vec<_>>(),
            ["formats", "weekStart"]
        );
        let code = diff_of(
            "src/plugin/localizedFormat/index.js",
            &[
                "    const formats = locale.formats || {}",
                "    x = cfg['weekStart'] + a.b",
            ],
        );
        assert_eq!(
            read_keys(&code).into_iter().collect::<Vec<_>>(),
            ["formats", "weekStart"]
        );
    }
}
