//! Fingerprints identify a problem across rounds: a hash of the rule, the path and the
//! normalized anchored code, with no line number, so a rebase or an unrelated edit above the
//! problem does not make it look new.
//!
//! Two refinements are settled once a round's findings are all in ([`settle`]):
//! - **Occurrence.** Identical offending lines in one file (the same rule, path and normalized
//!   code) are different problems: the n-th of them (by line) gets its own print. The first
//!   keeps the plain print, so comments published before occurrences counted still match it.
//! - **Renames.** A file renamed within the pull request keeps the identity of its findings:
//!   the print is made under the path the file had first, and the prints under its later
//!   names are kept as aliases that match too.

use std::collections::{BTreeSet, HashMap};

use sha2::{Digest, Sha256};

use super::node::ReviewNode;
pub use super::print::fingerprint;
use super::print::hex;
pub(crate) use super::print::{Print, normalize_code, normalize_line};

/// The print of the `n`-th (1-based) identical finding in a file. The first is the plain
/// print: fingerprints published before occurrences were counted stay valid for it.
pub(crate) fn with_occurrence(print: &str, n: usize) -> String {
    if n <= 1 {
        return print.to_string();
    }
    let mut hasher = Sha256::new();
    hasher.update(print.as_bytes());
    hasher.update([0]);
    hasher.update(b"occurrence");
    hasher.update([0]);
    hasher.update(n.to_string().as_bytes());
    hex(&hasher.finalize())
}

/// Gives `node` its fingerprint from `rule`, `path` and `code`, keeping what it was made of
/// for [`settle`].
pub(crate) fn stamp(node: &mut ReviewNode, rule: &str, path: &str, code: &[&str]) {
    let print = Print::new(rule, path, code);
    node.fingerprint = print.under(path);
    node.print = Some(print);
}

/// Earlier names of the files of a pull request: current path → the paths it had before,
/// oldest first (from git's rename detection).
pub(crate) type EarlierNames = HashMap<String, Vec<String>>;

/// Settles the round's fingerprints once every finding is in (idempotent): each node with a
/// [`Print`] is fingerprinted under its file's first name in the pull request, with its
/// occurrence among the identical findings of that file, and keeps the prints under the
/// file's later names as aliases. Nodes without a print keep what they have.
pub(crate) fn settle(nodes: &mut [ReviewNode], earlier: &EarlierNames) {
    // (plain print under the first name, plain prints under the later names) per node.
    let plain: Vec<Option<(String, Vec<String>)>> = nodes
        .iter()
        .map(|node| {
            let print = node.print.as_ref()?;
            let names = earlier.get(&print.path).filter(|n| !n.is_empty());
            Some(match names {
                Some(names) => {
                    let later = names[1..]
                        .iter()
                        .chain(std::iter::once(&print.path))
                        .map(|p| print.under(p))
                        .collect();
                    (print.under(&names[0]), later)
                }
                None => (print.under(&print.path), Vec::new()),
            })
        })
        .collect();

    // The places of each plain print, in file order: the occurrence is a place's rank. Two
    // reviewers reporting the same line share a place, so they stay one problem.
    let mut places: HashMap<&str, BTreeSet<(bool, u32)>> = HashMap::new();
    for (node, plain) in nodes.iter().zip(&plain) {
        if let (Some((print, _)), Some(anchor)) = (plain, &node.anchor) {
            places
                .entry(print.as_str())
                .or_default()
                .insert(place(anchor));
        }
    }
    let rank = |print: &str, node: &ReviewNode| -> usize {
        match (&node.anchor, places.get(print)) {
            (Some(anchor), Some(set)) => set.range(..place(anchor)).count() + 1,
            _ => 1,
        }
    };
    let settled: Vec<Option<(String, Vec<String>)>> = nodes
        .iter()
        .zip(&plain)
        .map(|(node, plain)| {
            let (print, later) = plain.as_ref()?;
            let n = rank(print, node);
            let mut aliases: Vec<String> = later.iter().map(|p| with_occurrence(p, n)).collect();
            let fingerprint = with_occurrence(print, n);
            aliases.retain(|a| *a != fingerprint);
            aliases.dedup();
            Some((fingerprint, aliases))
        })
        .collect();
    for (node, settled) in nodes.iter_mut().zip(settled) {
        if let Some((fingerprint, aliases)) = settled {
            node.fingerprint = fingerprint;
            node.aliases = aliases;
        }
    }
}

/// Where in its file a finding sits, for ordering identical ones (LEFT lines before RIGHT).
fn place(anchor: &super::node::Anchor) -> (bool, u32) {
    (
        anchor.side == crate::review::side::Side::Right,
        anchor.start_line,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::review::node::Priority;
    use crate::review::tests::node;

    #[test]
    fn indentation_and_blank_lines_do_not_change_it() {
        let a = fingerprint("r/x", "a.rs", &["    let x = 1;", "", "call(x);"]);
        let b = fingerprint("r/x", "a.rs", &["let  x = 1;  ", "call(x);"]);
        assert_eq!(a, b);
        assert_eq!(a.len(), 16);
    }

    #[test]
    fn rule_path_and_code_each_change_it() {
        let base = fingerprint("r/x", "a.rs", &["let x = 1;"]);
        assert_ne!(base, fingerprint("r/y", "a.rs", &["let x = 1;"]));
        assert_ne!(base, fingerprint("r/x", "b.rs", &["let x = 1;"]));
        assert_ne!(base, fingerprint("r/x", "a.rs", &["let x = 2;"]));
    }

    #[test]
    fn fields_cannot_bleed_into_each_other() {
        assert_ne!(
            fingerprint("r/xa", "b", &["c"]),
            fingerprint("r/x", "ab", &["c"])
        );
    }

    fn at(id: &str, path: &str, line: u32, code: &str) -> ReviewNode {
        let mut n = node(id, "rules", Priority::P2, 1.0);
        let anchor = n.anchor.as_mut().unwrap();
        anchor.path = crate::repo_path::RepoPath::parse(path).unwrap();
        anchor.start_line = line;
        anchor.end_line = line;
        stamp(&mut n, "rust/unwrap", path, &[code]);
        n
    }

    fn prints(nodes: &[ReviewNode]) -> Vec<String> {
        nodes.iter().map(|n| n.fingerprint.clone()).collect()
    }

    #[test]
    fn identical_lines_are_told_apart_by_occurrence_and_the_first_keeps_the_plain_print() {
        let plain = fingerprint("rust/unwrap", "a.rs", &["x.unwrap()"]);
        let mut nodes = vec![
            at("b", "a.rs", 30, "x.unwrap()"),
            at("a", "a.rs", 10, "  x.unwrap()"),
            // Another reviewer on the same line: the same place, the same print.
            at("a2", "a.rs", 10, "x.unwrap()"),
            at("other", "b.rs", 5, "x.unwrap()"),
        ];
        settle(&mut nodes, &EarlierNames::new());
        let p = prints(&nodes);
        assert_eq!(p[1], plain);
        assert_eq!(p[2], plain);
        assert_eq!(p[0], with_occurrence(&plain, 2));
        assert_ne!(p[0], p[1]);
        assert_eq!(p[3], fingerprint("rust/unwrap", "b.rs", &["x.unwrap()"]));
        // Idempotent.
        let again = p.clone();
        settle(&mut nodes, &EarlierNames::new());
        assert_eq!(prints(&nodes), again);

        // A different line added above moves both, and changes neither print.
        let mut moved = vec![
            at("a", "a.rs", 12, "x.unwrap()"),
            at("c", "a.rs", 11, "y.unwrap()"),
            at("b", "a.rs", 32, "x.unwrap()"),
        ];
        settle(&mut moved, &EarlierNames::new());
        assert_eq!(moved[0].fingerprint, p[1]);
        assert_eq!(moved[2].fingerprint, p[0]);
    }

    #[test]
    fn a_renamed_file_keeps_its_first_names_prints_and_aliases_the_later_ones() {
        let mut before = vec![
            at("a", "old.rs", 3, "x.unwrap()"),
            at("b", "old.rs", 9, "x.unwrap()"),
        ];
        settle(&mut before, &EarlierNames::new());
        let names: EarlierNames = [(
            "new.rs".to_string(),
            vec!["old.rs".to_string(), "mid.rs".to_string()],
        )]
        .into();
        let mut after = vec![
            at("a", "new.rs", 3, "x.unwrap()"),
            at("b", "new.rs", 9, "x.unwrap()"),
        ];
        settle(&mut after, &names);
        assert_eq!(prints(&after), prints(&before));
        let under_new = fingerprint("rust/unwrap", "new.rs", &["x.unwrap()"]);
        let under_mid = fingerprint("rust/unwrap", "mid.rs", &["x.unwrap()"]);
        assert_eq!(after[0].aliases, [under_mid.clone(), under_new.clone()]);
        assert_eq!(
            after[1].aliases,
            [
                with_occurrence(&under_mid, 2),
                with_occurrence(&under_new, 2)
            ]
        );
    }
}
