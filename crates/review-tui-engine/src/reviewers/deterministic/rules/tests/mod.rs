//! Tests of the rule catalog: every rule's own examples, scans of hand-written diffs, the file
//! checks, loading and overriding.

mod before;
mod catalog;
mod checks;
mod examples;
mod heldout_nine;
mod house;
mod locks;
mod ninth_sweep;
mod precision;
mod principles;
mod scanning;

use std::sync::LazyLock;

use crate::diff::{Diff, parse};

use super::{Catalog, ScanOptions, ScanResult};

pub(super) fn diff(text: &str) -> Diff {
    parse(text).unwrap_or_else(|e| panic!("test diff does not parse: {e}\n{text}"))
}

/// Built once: compiling the catalog is the slow part of a test, not scanning.
pub(super) static BUILTIN: LazyLock<Catalog> = LazyLock::new(Catalog::builtin);

pub(super) fn scan(text: &str) -> ScanResult {
    BUILTIN.scan(&diff(text), &ScanOptions::default())
}

/// `(rule, line)` of every finding, in order.
pub(super) fn hits(result: &ScanResult) -> Vec<(String, u32)> {
    result
        .nodes
        .iter()
        .map(|node| {
            (
                node.rule.clone().unwrap_or_default(),
                node.anchor.as_ref().map_or(0, |a| a.start_line),
            )
        })
        .collect()
}
