//! The table-driven test: each built-in rule's examples, kept next to the rule in its TOML.

use super::BUILTIN;
use crate::reviewers::deterministic::rules::Catalog;

#[test]
fn builtin_rule_files_load() {
    let catalog = Catalog::builtin();
    assert!(catalog.len() >= 30, "only {} rules", catalog.len());
}

#[test]
fn every_rule_has_examples_and_they_behave() {
    let problems = BUILTIN.verify_examples();
    let listed: Vec<String> = problems.iter().map(ToString::to_string).collect();
    assert!(listed.is_empty(), "\n{}", listed.join("\n"));
}
