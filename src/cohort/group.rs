//! Changed files joined into cohorts: semantic ones from shared symbols, path ones for files
//! the index cannot speak for.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::changes::{ChangedFile, FileSymbols, Reading};
use super::graph::{UnionFind, reading_order};
use super::index::SymbolIndex;
use super::paths::{common_dir, parent_dir};
use super::stoplist::is_common;
use crate::diff::is_test_path;

/// Why a cohort was grouped by directory instead of by symbols.
pub const GROUPED_BY_PATH: &str = "grouped by path";

/// A group of changed files to review together.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Cohort {
    /// Derived from the cohort's symbols (or, without symbols, its directory or file), so it
    /// survives pushes and rebases that keep the same change.
    pub key: String,
    pub label: String,
    /// In reading order: definitions before uses, tests last.
    pub files: Vec<String>,
    /// The touched symbols, sorted.
    pub symbols: Vec<String>,
    /// How many files in the repository reference the touched symbols.
    pub blast_radius: usize,
    /// Grouped by path: the cohort makes no semantic claim.
    pub fallback: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

/// Forms, orders and ranks the cohorts of `files`.
pub fn cohorts(files: &[ChangedFile], index: &SymbolIndex) -> Vec<Cohort> {
    let mut semantic: Vec<Member> = Vec::new();
    let mut by_dir: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for file in files {
        match &file.reading {
            Reading::Symbols(symbols) => semantic.push(Member {
                path: &file.path,
                symbols,
                touched: BTreeSet::new(),
            }),
            Reading::NoGrammar | Reading::Unparsed { .. } => by_dir
                .entry(parent_dir(&file.path))
                .or_default()
                .push(&file.path),
        }
    }

    // A touched name matters when the repository defines it: `trim` or `fetch` on a changed
    // line are the standard library's, and would only join unrelated files and inflate the
    // blast radius with every other caller of `trim`.
    let changed_definitions: BTreeSet<&str> = semantic
        .iter()
        .flat_map(|m| m.symbols.defines.iter().map(String::as_str))
        .collect();
    for member in &mut semantic {
        member.touched = member
            .symbols
            .touched
            .iter()
            .map(String::as_str)
            .filter(|name| {
                !is_common(name)
                    && (changed_definitions.contains(name) || !index.defined_in(name).is_empty())
            })
            .collect();
    }

    let mut cohorts: Vec<Cohort> = components(&semantic)
        .into_iter()
        .map(|members| semantic_cohort(&members, index))
        .collect();
    cohorts.extend(
        by_dir
            .into_iter()
            .map(|(dir, paths)| path_cohort(dir, paths)),
    );
    cohorts.sort_by(|a, b| {
        b.blast_radius
            .cmp(&a.blast_radius)
            .then(b.files.len().cmp(&a.files.len()))
            .then(a.key.cmp(&b.key))
    });
    cohorts
}

/// A parsed changed file and the touched names that can join it to others.
#[derive(Clone)]
struct Member<'a> {
    path: &'a str,
    symbols: &'a FileSymbols,
    touched: BTreeSet<&'a str>,
}

/// Joins two files when one defines a touched symbol the other references (or defines a
/// symbol the other's change uses), or both touch the same symbol. A definition and a use that
/// no change touches do not join: otherwise two edits that merely sit in files sharing an old
/// helper would be reviewed as one.
fn components<'a>(semantic: &[Member<'a>]) -> Vec<Vec<Member<'a>>> {
    let mut definers: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
    let mut referrers: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
    let mut touchers: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
    for (i, member) in semantic.iter().enumerate() {
        for name in &member.touched {
            touchers.entry(name).or_default().push(i);
        }
    }
    // Only names some change touches can join anything.
    for (i, member) in semantic.iter().enumerate() {
        for name in &member.symbols.defines {
            if touchers.contains_key(name.as_str()) {
                definers.entry(name).or_default().push(i);
            }
        }
        for name in &member.symbols.references {
            if touchers.contains_key(name.as_str()) {
                referrers.entry(name).or_default().push(i);
            }
        }
    }

    let mut sets = UnionFind::new(semantic.len());
    for (name, files) in &touchers {
        for &toucher in files {
            sets.union(toucher, files[0]);
            let symbols = semantic[toucher].symbols;
            if symbols.defines.contains(*name) {
                for &user in referrers.get(name).into_iter().flatten() {
                    sets.union(toucher, user);
                }
            }
            if symbols.references.contains(*name) {
                for &definer in definers.get(name).into_iter().flatten() {
                    sets.union(toucher, definer);
                }
            }
        }
    }
    sets.components()
        .into_iter()
        .map(|members| members.into_iter().map(|i| semantic[i].clone()).collect())
        .collect()
}

fn semantic_cohort(members: &[Member], index: &SymbolIndex) -> Cohort {
    let symbols: BTreeSet<&str> = members
        .iter()
        .flat_map(|m| m.touched.iter().copied())
        .collect();

    // Definitions before uses, counting only the cohort's own symbols.
    let mut before: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for name in &symbols {
        let definers: Vec<&str> = members
            .iter()
            .filter(|m| m.symbols.defines.contains(*name))
            .map(|m| m.path)
            .collect();
        if definers.is_empty() {
            continue;
        }
        for user in members {
            if user.symbols.references.contains(*name) {
                let entry = before.entry(user.path.to_string()).or_default();
                entry.extend(
                    definers
                        .iter()
                        .filter(|d| **d != user.path)
                        .map(|d| d.to_string()),
                );
            }
        }
    }
    let (tests, code): (BTreeSet<String>, BTreeSet<String>) = members
        .iter()
        .map(|m| m.path.to_string())
        .partition(|path| is_test_path(path));
    let mut files = reading_order(&code, &before);
    files.extend(reading_order(&tests, &before));

    let mut referencing: BTreeSet<&str> = BTreeSet::new();
    for name in &symbols {
        referencing.extend(index.referenced_in(name));
    }

    // The most central symbol: used by the most files of the cohort, ties by name.
    let central = symbols
        .iter()
        .map(|name| {
            let users = members
                .iter()
                .filter(|m| m.symbols.references.contains(*name))
                .count();
            (std::cmp::Reverse(users), *name)
        })
        .min()
        .map(|(_, name)| name.to_string());
    let label = central.unwrap_or_else(|| module_label(members.iter().map(|m| m.path)));

    let key = if symbols.is_empty() {
        // Nothing touched by name (a comment, an import order): the files are the content.
        let paths: Vec<&str> = members.iter().map(|m| m.path).collect();
        key_of("files", &paths)
    } else {
        key_of("symbols", &symbols.iter().copied().collect::<Vec<_>>())
    };
    Cohort {
        key,
        label,
        files,
        symbols: symbols.into_iter().map(str::to_string).collect(),
        blast_radius: referencing.len(),
        fallback: false,
        reason: None,
    }
}

fn path_cohort(dir: &str, mut paths: Vec<&str>) -> Cohort {
    paths.sort_by_key(|path| (is_test_path(path), *path));
    Cohort {
        key: key_of("dir", &[dir]),
        label: if dir.is_empty() {
            "(root)".to_string()
        } else {
            dir.to_string()
        },
        files: paths.into_iter().map(str::to_string).collect(),
        symbols: Vec::new(),
        blast_radius: 0,
        fallback: true,
        reason: Some(GROUPED_BY_PATH.to_string()),
    }
}

fn module_label<'a>(paths: impl IntoIterator<Item = &'a str>) -> String {
    let paths: Vec<&str> = paths.into_iter().collect();
    if let [only] = paths.as_slice() {
        return only.to_string();
    }
    match common_dir(paths) {
        dir if dir.is_empty() => "(root)".to_string(),
        dir => dir,
    }
}

/// `kind` keeps a symbol set and a path set with the same words from sharing a key.
fn key_of(kind: &str, parts: &[&str]) -> String {
    let mut hasher = Sha256::new();
    hasher.update(kind.as_bytes());
    for part in parts {
        hasher.update([0]);
        hasher.update(part.as_bytes());
    }
    let digest = hasher.finalize();
    let hex: String = digest[..8].iter().map(|b| format!("{b:02x}")).collect();
    format!("{kind}-{hex}")
}
