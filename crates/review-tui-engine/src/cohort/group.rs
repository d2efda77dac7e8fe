//! Changed files joined into cohorts: semantic ones from shared symbols, path ones for files
//! the index cannot speak for.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::changes::{ChangedFile, FileSymbols, Reading};
use super::graph::{UnionFind, reading_order};
use super::lazy_index::LazyIndex;
use super::pairing::{CodeFiles, distinctive_across_languages};
use super::paths::{common_dir, language_family, parent_dir};
use super::stoplist::is_common;
use super::users::Users;
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
    /// Why these files are together and why the label: the most-touched symbol and in how many
    /// files, a split from a larger component, a set of moved files.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub insight: Option<String>,
}

/// Forms, orders and ranks the cohorts of `files`. `moved` lists the files renamed or moved
/// with few edits: they form one cohort of their own, however many there are.
pub(super) fn cohorts(
    files: &[ChangedFile],
    index: &LazyIndex,
    moved: &BTreeSet<&str>,
    users: &mut Users,
) -> Vec<Cohort> {
    let changed: BTreeSet<&str> = files.iter().map(|f| f.path.as_str()).collect();
    let mut semantic: Vec<Member> = Vec::new();
    let mut by_dir: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    let mut moved_files: Vec<&str> = Vec::new();
    for file in files {
        if moved.contains(file.path.as_str()) {
            moved_files.push(&file.path);
            continue;
        }
        match &file.reading {
            Reading::Symbols(symbols) => semantic.push(Member {
                path: &file.path,
                test: is_test_path(&file.path),
                symbols,
                touched: BTreeSet::new(),
            }),
            Reading::NoGrammar
            | Reading::Link
            | Reading::Unparsed { .. }
            | Reading::Unavailable { .. } => by_dir
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

    // How many files of the repository define each touched name: `poll_read` or `Item`, defined
    // by every implementation of a trait, names no one thing, so a link through it is weak.
    let definitions: BTreeMap<&str, usize> = semantic
        .iter()
        .flat_map(|m| m.touched.iter().copied())
        .map(|name| (name, index.defined_in(name).len()))
        .collect();
    let exercised = exercised_links(&semantic, index);
    let mut touchers: BTreeMap<&str, usize> = BTreeMap::new();
    for name in semantic.iter().flat_map(|m| m.touched.iter()) {
        *touchers.entry(name).or_default() += 1;
    }
    let (untouched, linked): (Vec<_>, Vec<_>) = components(&semantic, &definitions, &exercised)
        .into_iter()
        .partition(|(members, _)| matches!(members.as_slice(), [only] if only.touched.is_empty()));
    let mut cohorts: Vec<Cohort> = linked
        .into_iter()
        .map(|(members, split)| semantic_cohort(&members, users, &changed, &touchers, split))
        .collect();
    match untouched.len() {
        0 => {}
        1 => {
            cohorts.extend(untouched.into_iter().map(|(members, split)| {
                semantic_cohort(&members, users, &changed, &touchers, split)
            }))
        }
        _ => cohorts.push(untouched_cohort(
            untouched
                .iter()
                .flat_map(|(members, _)| members.iter().map(|m| m.path)),
        )),
    }
    if !moved_files.is_empty() {
        cohorts.push(moved_cohort(moved_files));
    }
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
    /// `is_test_path(path)`, asked once: grouping asks it per link and per pair.
    test: bool,
    symbols: &'a FileSymbols,
    touched: BTreeSet<&'a str>,
}

/// A component of this many files or fewer is never split.
const MIN_SPLIT: usize = 8;

/// A part of a split holds at most this many files, however large the change: tokio's
/// 1.30..1.40 range (475 files) kept a part of 214 files under a bound of half the change, one
/// cohort labelled `spawn` that no one reads as one question.
const MAX_PART: usize = 30;

/// Joins two files when one defines a touched symbol the other references (or defines a
/// symbol the other's change uses), or both touch the same symbol; and a test to the code it is
/// named after or whose definitions it uses. A definition and a use that no change touches do
/// not join: otherwise two edits that merely sit in files sharing an old helper would be
/// reviewed as one.
///
/// Each link has a weight: a name shared by few files weighs more than one shared by many, and
/// a *hub* — a name most changed files involve, the library's central type — joins nothing by
/// itself. A component holding more than half of a large change, or more than [`MAX_PART`]
/// files, is split into parts within that bound, strongest links first (the returned flag says
/// so).
fn components<'a>(
    semantic: &[Member<'a>],
    definitions: &BTreeMap<&str, usize>,
    exercised: &[(usize, usize)],
) -> Vec<(Vec<Member<'a>>, Option<usize>)> {
    let mut edges = edges(semantic, definitions);
    // A test linked to no changed code by name or use may still exercise it one step away.
    let linked: BTreeSet<usize> = edges
        .keys()
        .filter(|(a, b)| semantic[*a].test != semantic[*b].test)
        .flat_map(|&(a, b)| [a, b])
        .collect();
    let mut reached: BTreeMap<usize, usize> = BTreeMap::new();
    for &(test, _) in exercised {
        *reached.entry(test).or_default() += 1;
    }
    for &(test, code) in exercised {
        // Exercising many changed files one step away says nothing about which one it tests.
        if !linked.contains(&test) && reached[&test] <= 2 {
            *edges.entry((test.min(code), test.max(code))).or_default() += 0.25;
        }
    }
    let n = semantic.len();
    let mut sets = UnionFind::new(n);
    for &(a, b) in edges.keys() {
        sets.union(a, b);
    }
    let bound = (n / 2).clamp(MIN_SPLIT, MAX_PART);
    let mut out = Vec::new();
    for component in sets.components() {
        if component.len() <= bound {
            out.push((component, None));
            continue;
        }
        let size = component.len();
        let units = same_edit_units(&component, semantic);
        for part in rejoin_tests(
            split(&component, &units, &edges, bound),
            semantic,
            &edges,
            bound,
        ) {
            let flag = (part.len() < size).then_some(size);
            out.push((part, flag));
        }
    }
    out.into_iter()
        .map(|(members, split)| {
            (
                members.into_iter().map(|i| semantic[i].clone()).collect(),
                split,
            )
        })
        .collect()
}

/// Weighted links between members, keyed `(smaller, larger)` index. `definitions` counts the
/// repository's files defining each touched name: a link through a name defined in many places
/// (a trait method every implementation defines) weighs that much less, so a split cuts it first.
fn edges(
    semantic: &[Member],
    definitions: &BTreeMap<&str, usize>,
) -> BTreeMap<(usize, usize), f64> {
    // Looked up only: hashed. The touchers are walked in order, and the order in which a
    // link's weights are added is kept (floating-point sums depend on it).
    let mut definers: HashMap<&str, Vec<usize>> = HashMap::new();
    let mut referrers: HashMap<&str, Vec<usize>> = HashMap::new();
    let mut touchers: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
    for (i, member) in semantic.iter().enumerate() {
        for name in &member.touched {
            touchers.entry(name).or_default().push(i);
        }
        for name in &member.symbols.defines {
            if !is_common(name) {
                definers.entry(name).or_default().push(i);
            }
        }
        for name in &member.symbols.references {
            referrers.entry(name).or_default().push(i);
        }
    }
    let family: Vec<&str> = semantic.iter().map(|m| language_family(m.path)).collect();
    // A name most changed files involve says little about which of them belong together.
    let hub_limit = (semantic.len() / 2).max(4);
    let mut edges: HashMap<(usize, usize), f64> = HashMap::new();
    let mut link = |a: usize, b: usize, weight: f64| {
        if a != b {
            *edges.entry((a.min(b), a.max(b))).or_default() += weight;
        }
    };
    for (name, files) in &touchers {
        let mut joined: BTreeSet<usize> = files.iter().copied().collect();
        for &toucher in files {
            let symbols = semantic[toucher].symbols;
            if symbols.defines.contains(*name) {
                joined.extend(referrers.get(name).into_iter().flatten());
            }
            if symbols.references.contains(*name) {
                joined.extend(definers.get(name).into_iter().flatten());
            }
        }
        if joined.len() < 2 || joined.len() > hub_limit {
            continue;
        }
        let defined_in = definitions.get(name).copied().unwrap_or(1).max(1);
        let weight = 1.0 / ((joined.len() - 1) * defined_in) as f64;
        let joined: Vec<usize> = joined.into_iter().collect();
        // A name shared across languages joins only when it is specific enough to be one
        // thing in both (`begin` in a Python test and in a Rust parser are two).
        let across = distinctive_across_languages(name);
        // The touchers join everything the name involves; two mere users of an untouched
        // definition do not join each other through it.
        for &toucher in files {
            for &other in &joined {
                if across || family[toucher] == family[other] {
                    link(toucher, other, weight);
                }
            }
        }
    }
    // A test joins the code it is named after, and the code whose definitions it uses.
    let code_files: BTreeMap<&str, usize> = semantic
        .iter()
        .enumerate()
        .filter(|(_, m)| !m.test)
        .map(|(i, m)| (m.path, i))
        .collect();
    let named = CodeFiles::new(code_files.keys().copied());
    for (t, test) in semantic.iter().enumerate() {
        if !test.test {
            continue;
        }
        if let Some(code) = named.tested_by(test.path)
            && let Some(&c) = code_files.get(code)
        {
            link(t, c, 2.0);
        }
        for name in &test.symbols.references {
            let Some(files) = definers.get(name.as_str()) else {
                continue;
            };
            let across = distinctive_across_languages(name);
            let code: Vec<usize> = files
                .iter()
                .copied()
                .filter(|&c| c != t && !semantic[c].test)
                .filter(|&c| across || family[c] == family[t])
                .collect();
            if code.is_empty() || code.len() > hub_limit {
                continue;
            }
            for &c in &code {
                link(t, c, 0.5 / code.len() as f64);
            }
        }
    }
    edges.into_iter().collect()
}

/// A split cuts the weakest links, and a test's are often weak (it uses a little of many
/// files): a part left holding only tests goes back to the part it is most strongly linked to,
/// so tests are read with their code and not as a cohort of their own — unless that part
/// would grow over the size bound the split kept it under.
fn rejoin_tests(
    mut parts: Vec<Vec<usize>>,
    semantic: &[Member],
    edges: &BTreeMap<(usize, usize), f64>,
    bound: usize,
) -> Vec<Vec<usize>> {
    let only_tests = |part: &Vec<usize>| part.iter().all(|&m| semantic[m].test);
    // Each member's links, so a part's pull on a test costs the test's links, not every link.
    let mut links: BTreeMap<usize, Vec<(usize, f64)>> = BTreeMap::new();
    for (&(a, b), &w) in edges {
        links.entry(a).or_default().push((b, w));
        links.entry(b).or_default().push((a, w));
    }
    let mut at = 0;
    while at < parts.len() {
        if !only_tests(&parts[at]) {
            at += 1;
            continue;
        }
        let part_of: BTreeMap<usize, usize> = parts
            .iter()
            .enumerate()
            .flat_map(|(i, part)| part.iter().map(move |&m| (m, i)))
            .collect();
        let mut strength: BTreeMap<usize, f64> = BTreeMap::new();
        for test in &parts[at] {
            for (other, w) in links.get(test).into_iter().flatten() {
                if let Some(&i) = part_of.get(other) {
                    *strength.entry(i).or_default() += w;
                }
            }
        }
        let tests = parts[at].len();
        let best = strength
            .into_iter()
            .filter(|&(i, w)| {
                i != at && w > 0.0 && !only_tests(&parts[i]) && parts[i].len() + tests <= bound
            })
            .max_by(|a, b| a.1.total_cmp(&b.1).then(b.0.cmp(&a.0)));
        match best {
            Some((target, _)) => {
                let moved = parts.remove(at);
                let target = if target > at { target - 1 } else { target };
                parts[target].extend(moved);
                parts[target].sort_unstable();
            }
            None => at += 1,
        }
    }
    parts
}

/// Tests that exercise a changed code file one step away: the test uses a name defined in a
/// file (outside the change) that uses what the code file's change defines. `test_queryparams.py`
/// calls `QueryParams`, whose module calls the changed `primitive_value_to_str`.
fn exercised_links(semantic: &[Member], index: &LazyIndex) -> Vec<(usize, usize)> {
    let tests: Vec<usize> = (0..semantic.len()).filter(|&i| semantic[i].test).collect();
    if tests.is_empty() {
        return Vec::new();
    }
    // Per test, the files defining a name it uses (names defined in at most three files),
    // read once when first needed: asked per code file and test, the index was asked the
    // same names over and over (5 % of a cold tokio 1.30..1.40).
    let mut uses_defined_in: Vec<Option<BTreeSet<&str>>> = vec![None; tests.len()];
    let mut links = Vec::new();
    for (c, code) in semantic.iter().enumerate() {
        if code.test {
            continue;
        }
        // The files that use what this file's change defines.
        let users: BTreeSet<&str> = code
            .touched
            .iter()
            .filter(|name| code.symbols.defines.contains(**name))
            .flat_map(|name| index.referenced_in(name))
            .filter(|path| !is_test_path(path))
            .collect();
        if users.is_empty() || users.len() > 50 {
            continue;
        }
        for (&t, defined) in tests.iter().zip(&mut uses_defined_in) {
            let defined = defined.get_or_insert_with(|| {
                semantic[t]
                    .symbols
                    .references
                    .iter()
                    .filter(|name| !is_common(name))
                    .map(|name| index.defined_in(name))
                    .filter(|defined| defined.len() <= 3)
                    .flatten()
                    .collect()
            });
            if defined.iter().any(|path| users.contains(path)) {
                links.push((t, c));
            }
        }
    }
    links
}

/// The members of `component` whose changes touch exactly the same names: one edit repeated
/// across files (tokio 1.30..1.40 added `ready` to the `std::task` import of 30 files). A split
/// keeps each such set whole, however large, instead of cutting it at its weak links, which
/// left 30 single-file cohorts all labelled `ready`. Only a split applies it: a component
/// that fits keeps its links, and files that only share a hub name are never joined by it.
fn same_edit_units(component: &[usize], semantic: &[Member]) -> Vec<Vec<usize>> {
    let mut by_touched: BTreeMap<Vec<&str>, Vec<usize>> = BTreeMap::new();
    for &m in component {
        let touched: Vec<&str> = semantic[m].touched.iter().copied().collect();
        if !touched.is_empty() {
            by_touched.entry(touched).or_default().push(m);
        }
    }
    by_touched
        .into_values()
        .filter(|members| members.len() > 1)
        .collect()
}

/// A link this strong joins two groups of files during a split: a name shared by at most
/// [`MIN_SPLIT`] + 1 files defined once, or several names together. Weaker links only bring a
/// lone file to a group.
const STRONG_LINK: f64 = 1.0 / MIN_SPLIT as f64;

/// Splits `component` into parts of at most `bound` files: each `units` set starts as one
/// part, then links are taken strongest first and join two parts while the joined part stays
/// within the bound (Kruskal's algorithm with a size cap) — two groups only through a
/// [`STRONG_LINK`], a lone file through its strongest link to a part with room. So the split
/// neither keeps a catch-all, nor fills every part to the bound with loosely linked groups,
/// nor sheds each loose file as a cohort of its own (a cut at the weakest links of tokio
/// 1.30..1.40 left 143 single-file cohorts).
fn split(
    component: &[usize],
    units: &[Vec<usize>],
    edges: &BTreeMap<(usize, usize), f64>,
    bound: usize,
) -> Vec<Vec<usize>> {
    let position: BTreeMap<usize, usize> =
        component.iter().enumerate().map(|(i, &m)| (m, i)).collect();
    let mut sets = UnionFind::new(component.len());
    for unit in units {
        let mut members = unit.iter().filter_map(|m| position.get(m).copied());
        if let Some(first) = members.next() {
            for other in members {
                sets.union(first, other);
            }
        }
    }
    let mut local: Vec<(usize, usize, f64)> = edges
        .iter()
        .filter_map(|(&(a, b), &w)| Some((*position.get(&a)?, *position.get(&b)?, w)))
        .collect();
    local.sort_by(|x, y| y.2.total_cmp(&x.2).then((x.0, x.1).cmp(&(y.0, y.1))));
    for strong_only in [true, false] {
        for &(a, b, w) in &local {
            if sets.find(a) == sets.find(b) {
                continue;
            }
            let (size_a, size_b) = (sets.size_of(a), sets.size_of(b));
            let allowed = if strong_only {
                w >= STRONG_LINK
            } else {
                size_a == 1 || size_b == 1
            };
            if allowed && size_a + size_b <= bound {
                sets.union(a, b);
            }
        }
    }
    sets.components()
        .into_iter()
        .map(|part| part.into_iter().map(|i| component[i]).collect())
        .collect()
}

fn semantic_cohort(
    members: &[Member],
    users: &mut Users,
    changed: &BTreeSet<&str>,
    touchers: &BTreeMap<&str, usize>,
    split_from: Option<usize>,
) -> Cohort {
    let symbols: BTreeSet<&str> = members
        .iter()
        .flat_map(|m| m.touched.iter().copied())
        .collect();

    // The members defining each of the cohort's symbols that any member defines.
    let definers: Vec<(&str, Vec<&str>)> = symbols
        .iter()
        .filter_map(|name| {
            let paths: Vec<&str> = members
                .iter()
                .filter(|m| m.symbols.defines.contains(*name))
                .map(|m| m.path)
                .collect();
            (!paths.is_empty()).then_some((*name, paths))
        })
        .collect();

    // Definitions before uses, counting only the cohort's own symbols.
    let mut before: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (name, definers) in &definers {
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

    // Blast radius: files outside the change whose uses resolve to what the cohort's change
    // defines (see `users`). A name the change only calls (`Runtime::new` in a test) is not
    // what changed.
    let mut referencing: BTreeSet<String> = BTreeSet::new();
    for (name, definers) in &definers {
        referencing.extend(users.of(name, definers, changed));
    }

    // The label: the symbol most particular to the cohort — touched in most of its files and
    // in few of the change's others (count² / count in the whole change), preferring one the
    // cohort defines, ties by name. Plain "most touched" named a part of a large change after
    // the library's central type (`spawn`, touched in 46 of its 214 files and in more outside).
    let mut touched_in: BTreeMap<&str, usize> = BTreeMap::new();
    for name in members.iter().flat_map(|m| m.touched.iter()) {
        *touched_in.entry(name).or_default() += 1;
    }
    let most_touched = touched_in
        .iter()
        .map(|(name, &count)| {
            let everywhere = touchers.get(name).copied().unwrap_or(count).max(count);
            // `definers` is sorted by name, as `symbols` is.
            let defined = definers
                .binary_search_by(|(defined, _)| defined.cmp(name))
                .is_ok();
            // Compared as count² · everywhere' < count'² · everywhere, exactly, in integers.
            (count, everywhere, defined, *name)
        })
        .max_by(|a, b| {
            (a.0 * a.0 * b.1)
                .cmp(&(b.0 * b.0 * a.1))
                .then(a.2.cmp(&b.2))
                .then(b.3.cmp(a.3))
        })
        .map(|(count, _, _, name)| (name.to_string(), count));
    let mut insight = match &most_touched {
        Some((name, count)) if members.len() > 1 => Some(format!(
            "`{name}` is touched in {count} of {} files",
            members.len()
        )),
        _ => None,
    };
    if let Some(size) = split_from {
        let note = format!(
            "split from {size} files joined by widely shared names, along its strongest links"
        );
        insight = Some(match insight {
            Some(text) => format!("{text}; {note}"),
            None => note,
        });
    }
    let label = most_touched
        .map(|(name, _)| name)
        .unwrap_or_else(|| module_label(members.iter().map(|m| m.path)));

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
        insight,
    }
}

/// Files whose changes touch no name the repository defines and link to no other changed file:
/// comments, docs, formatting, calls into outside code. Read as one pass ("is nothing here a
/// change of behaviour?") rather than one cohort each: tokio 1.30..1.40 had 45 such files, each
/// its own cohort labelled with its path.
fn untouched_cohort<'a>(paths: impl IntoIterator<Item = &'a str>) -> Cohort {
    let mut paths: Vec<&str> = paths.into_iter().collect();
    paths.sort_by_key(|path| (is_test_path(path), *path));
    Cohort {
        key: key_of("files", &paths),
        label: "no symbol touched".to_string(),
        files: paths.iter().map(|p| p.to_string()).collect(),
        symbols: Vec::new(),
        blast_radius: 0,
        fallback: false,
        reason: None,
        insight: Some(format!(
            "{} files whose changes touch no name the repository defines (comments, docs, formatting, outside APIs)",
            paths.len()
        )),
    }
}

/// Renamed or moved files with few edits: one cohort, however many, since reading them is one
/// question ("is this only a move?").
fn moved_cohort(mut paths: Vec<&str>) -> Cohort {
    paths.sort_unstable();
    Cohort {
        key: key_of("moved", &paths),
        label: "moved files".to_string(),
        files: paths.iter().map(|p| p.to_string()).collect(),
        symbols: Vec::new(),
        blast_radius: 0,
        fallback: false,
        reason: None,
        insight: Some(format!(
            "{} file(s) renamed or moved with few edits",
            paths.len()
        )),
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
        insight: None,
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_split_cuts_only_inside_the_part_still_over_the_bound() {
        // Two tight triangles (0-1-2, 3-4-5) and a tight pair (6-7), loosely chained together:
        // 8 files over a bound of 4. One global cut at the weight that fits everything used to
        // cut the pair's link too; the pair fits after the first cut and keeps it.
        let mut edges = BTreeMap::new();
        for (a, b) in [(0, 1), (1, 2), (0, 2), (3, 4), (4, 5), (3, 5)] {
            edges.insert((a, b), 1.0);
        }
        edges.insert((6, 7), 0.2);
        edges.insert((2, 3), 0.3);
        edges.insert((5, 6), 0.1);
        let component: Vec<usize> = (0..8).collect();
        let mut parts = split(&component, &[], &edges, 4);
        parts.sort();
        assert_eq!(parts, vec![vec![0, 1, 2], vec![3, 4, 5], vec![6, 7]]);
    }

    #[test]
    fn a_part_of_tests_alone_goes_back_to_the_code_it_links_to_most() {
        let symbols = FileSymbols {
            defines: BTreeSet::new(),
            references: BTreeSet::new(),
            touched: BTreeSet::new(),
            head: None,
            base: None,
            base_unknown: false,
            base_source: None,
            head_blob: None,
        };
        let member = |path| Member {
            path,
            test: is_test_path(path),
            symbols: &symbols,
            touched: BTreeSet::new(),
        };
        let semantic = vec![
            member("src/a.rs"),
            member("src/b.rs"),
            member("src/c.rs"),
            member("tests/a.rs"),
            member("tests/loose.rs"),
        ];
        // The split left the test alone; its links are weak but lead to the {0, 1} part.
        let mut edges = BTreeMap::new();
        edges.insert((0, 3), 0.1);
        edges.insert((1, 3), 0.1);
        edges.insert((2, 3), 0.15);
        let parts = rejoin_tests(
            vec![vec![0, 1], vec![2], vec![3], vec![4]],
            &semantic,
            &edges,
            4,
        );
        assert_eq!(parts, vec![vec![0, 1, 3], vec![2], vec![4]]);
        // Over the bound the {0, 1} part is not grown: the next strongest link takes the test.
        let parts = rejoin_tests(
            vec![vec![0, 1], vec![2], vec![3], vec![4]],
            &semantic,
            &edges,
            2,
        );
        assert_eq!(parts, vec![vec![0, 1], vec![2, 3], vec![4]]);
    }
}
