//! Tests of the rule catalog: every rule's own examples, scans of hand-written diffs, the file
//! checks, loading and overriding.

mod before;
mod best_effort;
mod branch_actions;
mod build_backend;
mod catalog;
mod checks;
mod constant_commands;
mod examples;
mod feature_detection;
mod house;
mod ignored_error;
mod locks;
mod precision;
mod principles;
mod program_output;
mod samples;
mod scanning;
mod shell_set;
mod sql_builders;
mod string_data;
mod test_material;
mod tests_in_strings;
mod unreleased;

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

/// Commits `base`, then `head` over it (each `(path, text)`), both under `title`, and scans the
/// change with the head checked out and its file list known: every finding.
pub(super) fn scan_change(
    base: &[(&str, &str)],
    head: &[(&str, &str)],
    title: &str,
) -> Vec<crate::review::node::ReviewNode> {
    scan_change_with(&BUILTIN, base, head, title)
}

/// [`scan_change`] with `catalog` (a configured one) instead of every built-in rule.
pub(super) fn scan_change_with(
    catalog: &Catalog,
    base: &[(&str, &str)],
    head: &[(&str, &str)],
    title: &str,
) -> Vec<crate::review::node::ReviewNode> {
    scan_change_of(catalog, base, head, &[], title)
}

/// [`scan_change`] whose head also deletes the files `removed`.
pub(super) fn scan_change_removing(
    base: &[(&str, &str)],
    head: &[(&str, &str)],
    removed: &[&str],
    title: &str,
) -> Vec<crate::review::node::ReviewNode> {
    scan_change_of(&BUILTIN, base, head, removed, title)
}

/// Commits `base`, then `head` over it deleting `removed`, and scans the change with `catalog`.
fn scan_change_of(
    catalog: &Catalog,
    base: &[(&str, &str)],
    head: &[(&str, &str)],
    removed: &[&str],
    title: &str,
) -> Vec<crate::review::node::ReviewNode> {
    use crate::space::test_repo::{commit_all, git, init};
    let write_all = |root: &std::path::Path, files: &[(&str, &str)]| {
        for (path, text) in files {
            let path = root.join(path);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        }
    };
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    init(root);
    write_all(root, base);
    commit_all(root, "base");
    write_all(root, head);
    for path in removed {
        std::fs::remove_file(root.join(path)).unwrap();
    }
    commit_all(root, title);
    let text = git(root, &["diff", "HEAD~1", "HEAD"]) + "\n";
    let files = git(root, &["ls-files"]).lines().map(String::from).collect();
    let options = ScanOptions {
        worktree: Some(root.to_path_buf()),
        repo_files: Some(files),
        title: title.into(),
        ..ScanOptions::default()
    };
    catalog.scan(&diff(&text), &options).nodes
}

/// The findings of `rule` in the change from `base` to `head` (see [`scan_change`]), under a
/// title that says nothing of the rule.
pub(super) fn rule_findings(
    base: &[(&str, &str)],
    head: &[(&str, &str)],
    rule: &str,
) -> Vec<crate::review::node::ReviewNode> {
    scan_change(base, head, "Add the feature")
        .into_iter()
        .filter(|n| n.rule.as_deref() == Some(rule))
        .collect()
}

/// A one-hunk diff adding `lines` as the new file `path`.
pub(super) fn added(path: &str, lines: &[&str]) -> String {
    let mut text = format!(
        "diff --git a/{path} b/{path}\nnew file mode 100644\n--- /dev/null\n+++ b/{path}\n@@ -0,0 +1,{} @@\n",
        lines.len()
    );
    for line in lines {
        text += &format!("+{line}\n");
    }
    text
}

/// The priorities of `rule`'s findings on `lines` added as `path`.
pub(super) fn priorities(
    rule: &str,
    path: &str,
    lines: &[&str],
) -> Vec<crate::review::node::Priority> {
    scan(&added(path, lines))
        .nodes
        .iter()
        .filter(|n| n.rule.as_deref() == Some(rule))
        .map(|n| n.priority)
        .collect()
}

/// The rule of each finding, in order.
pub(super) fn rules(result: &ScanResult) -> Vec<&str> {
    result
        .nodes
        .iter()
        .filter_map(|n| n.rule.as_deref())
        .collect()
}

/// The first lines of `rule`'s findings when `lines` are added as the new file `path`.
pub(super) fn rule_lines(rule: &str, path: &str, lines: &[&str]) -> Vec<u32> {
    let result = scan(&added(path, lines));
    let found: Vec<_> = result
        .nodes
        .into_iter()
        .filter(|n| n.rule.as_deref() == Some(rule))
        .collect();
    first_lines(&found)
}

/// The first line of each finding.
pub(super) fn first_lines(nodes: &[crate::review::node::ReviewNode]) -> Vec<u32> {
    nodes
        .iter()
        .filter_map(|n| n.anchor.as_ref().map(|a| a.start_line))
        .collect()
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
