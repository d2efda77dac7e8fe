//! What the repository held before the change, for rules whose finding is about what the change
//! introduces. A workflow taking `dtolnay/rust-toolchain@master` in a repository whose workflows
//! already took that action from a branch trusts nothing new: the question was settled (or not)
//! before this change, and asking it on every change that touches a workflow is noise. A rule
//! says so with `seen_before`, a regex naming the `subject` its pattern names too.

use std::collections::{HashMap, HashSet};
use std::path::Path;

use regex::Regex;

use super::repo::Repo;
use super::rule::Rule;
use crate::diff::{Diff, Language, LineKind, is_test_path};

/// Files read whole beyond this are not worth one finding less.
const MAX_FILE_BYTES: u64 = 1024 * 1024;
/// Unchanged files read per rule at most: a rule with no `paths` must not read a monorepo.
const MAX_FILES: usize = 2000;

/// The subjects each rule's `seen_before` found before the change, read on first use.
#[derive(Default)]
pub(super) struct SeenBefore {
    subjects: HashMap<usize, HashSet<String>>,
}

impl SeenBefore {
    /// Whether `subject` was on a line `before` matches, in a file `rule` reads, before the
    /// change. `index` names the rule for the cache.
    pub(super) fn held(
        &mut self,
        index: usize,
        rule: &Rule,
        before: &Regex,
        diff: &Diff,
        repo: Repo<'_>,
        subject: &str,
    ) -> bool {
        self.subjects
            .entry(index)
            .or_insert_with(|| subjects_before(rule, before, diff, repo))
            .contains(subject)
    }
}

/// Every subject `before` matches on the base side of the files `rule` reads: the context and
/// removed lines of the changed files, the head's lines of a changed file that the change did
/// not add (unchanged outside its hunks), and the whole of every unchanged file.
fn subjects_before(rule: &Rule, before: &Regex, diff: &Diff, repo: Repo<'_>) -> HashSet<String> {
    let mut subjects = HashSet::new();
    let mut collect = |line: &str| {
        subjects.extend(
            before
                .captures_iter(line)
                .filter_map(|c| c.name("subject").map(|m| m.as_str().to_string())),
        );
    };
    let worktree = repo.worktree;
    // A rule quiet in test code does not learn what the project does from its tests either.
    let read = |path: &str| !(rule.skip_tests && is_test_path(path));
    for file in diff
        .files
        .iter()
        .filter(|f| rule.applies_to(&f.path, f.language) && read(&f.path))
    {
        let lines = || file.hunks.iter().flat_map(|h| h.lines.iter());
        for line in lines().filter(|l| l.kind != LineKind::Added) {
            collect(&line.text);
        }
        let added: HashSet<u32> = lines()
            .filter(|l| l.kind == LineKind::Added)
            .filter_map(|l| l.new_line)
            .collect();
        if let Some(text) = worktree.and_then(|root| read_small(root, &file.path)) {
            for (number, line) in (1..).zip(text.lines()) {
                if !added.contains(&number) {
                    collect(line);
                }
            }
        }
    }
    let (Some(root), Some(files)) = (worktree, repo.files) else {
        return subjects;
    };
    let changed: HashSet<&str> = diff.files.iter().map(|f| f.path.as_str()).collect();
    let unchanged = files
        .iter()
        .filter(|path| !changed.contains(path.as_str()))
        .filter(|path| rule.applies_to(path, Language::from_path(path)) && read(path))
        .take(MAX_FILES);
    for path in unchanged {
        if let Some(text) = read_small(root, path) {
            text.lines().for_each(&mut collect);
        }
    }
    subjects
}

/// A regular file of the worktree as text, when it is small enough (a symlink may point
/// anywhere: not followed).
fn read_small(root: &Path, path: &str) -> Option<String> {
    let path = root.join(path);
    let meta = std::fs::symlink_metadata(&path).ok()?;
    if !meta.is_file() || meta.len() > MAX_FILE_BYTES {
        return None;
    }
    String::from_utf8(std::fs::read(path).ok()?).ok()
}
