//! The cohorts as the cockpit shows them, with the links of the diagram: two files of a cohort
//! are linked by one of its symbols when both mention it as a whole identifier (in the head
//! version, or in removed lines for what the head no longer has).
//!
//! Each changed file is read and split into identifiers once, whatever the number of cohorts
//! and symbols: a wide range (hundreds of files, hundreds of symbols) searched symbol by symbol
//! took a core for a third of a second while the round it shares the machine with was running.

use std::collections::{HashMap, HashSet};
use std::path::Path;

use crate::cohort::{CohortReport, has_word};
use crate::diff::{Diff, LineKind};
use crate::ui::state::CohortView;

/// Head files larger than this are read from the diff's lines only.
const MAX_READ: u64 = 2 << 20;

/// The cohorts of `report` with their links. Reads the changed files: call it off the loop.
pub(crate) fn cohort_views(report: &CohortReport, diff: &Diff, worktree: &Path) -> Vec<CohortView> {
    let wanted: HashSet<&str> = report
        .cohorts
        .iter()
        .filter(|c| !c.fallback)
        .flat_map(|c| c.symbols.iter().map(String::as_str))
        .collect();
    let mut texts = Texts::new(diff, worktree, &wanted);
    report
        .cohorts
        .iter()
        .map(|c| {
            let (symbols, edges) = if c.fallback {
                (Vec::new(), Vec::new())
            } else {
                (c.symbols.clone(), texts.edges(&c.files, &c.symbols))
            };
            CohortView {
                key: c.key.clone(),
                label: c.label.clone(),
                files: c.files.clone(),
                fallback: c.fallback,
                blast_radius: c.blast_radius as u32,
                symbols,
                edges,
            }
        })
        .collect()
}

/// What each file mentions of the wanted symbols, read once per file.
struct Texts<'a> {
    worktree: &'a Path,
    wanted: &'a HashSet<&'a str>,
    /// Symbols that are not one identifier (`a::b`) are searched in the text itself.
    odd: Vec<&'a str>,
    removed: HashMap<&'a str, Vec<&'a str>>,
    mentioned: HashMap<String, HashSet<&'a str>>,
}

impl<'a> Texts<'a> {
    fn new(diff: &'a Diff, worktree: &'a Path, wanted: &'a HashSet<&'a str>) -> Self {
        let mut removed: HashMap<&str, Vec<&str>> = HashMap::new();
        for file in &diff.files {
            let lines = file
                .hunks
                .iter()
                .flat_map(|h| &h.lines)
                .filter(|l| l.kind == LineKind::Removed)
                .map(|l| l.text.as_str());
            removed.entry(file.path.as_str()).or_default().extend(lines);
        }
        let odd = wanted
            .iter()
            .copied()
            .filter(|s| !s.is_empty() && !s.chars().all(is_ident))
            .collect();
        Texts {
            worktree,
            wanted,
            odd,
            removed,
            mentioned: HashMap::new(),
        }
    }

    /// (file, file, symbol) for consecutive files, in reading order, that mention the symbol.
    fn edges(&mut self, files: &[String], symbols: &[String]) -> Vec<(String, String, String)> {
        for path in files {
            if !self.mentioned.contains_key(path) {
                let found = self.read(path);
                self.mentioned.insert(path.clone(), found);
            }
        }
        let mut edges = Vec::new();
        for symbol in symbols {
            let at: Vec<&String> = files
                .iter()
                .filter(|path| self.mentioned[*path].contains(symbol.as_str()))
                .collect();
            for pair in at.windows(2) {
                edges.push((pair[0].clone(), pair[1].clone(), symbol.clone()));
            }
        }
        edges
    }

    /// The wanted symbols `path` mentions: its head text (when inside the worktree and not
    /// huge) and its removed lines.
    fn read(&self, path: &str) -> HashSet<&'a str> {
        let mut text = String::new();
        let inside = !path.split('/').any(|part| part == "..");
        let file = self.worktree.join(path);
        if inside
            && std::fs::metadata(&file).is_ok_and(|m| m.is_file() && m.len() <= MAX_READ)
            && let Ok(head) = std::fs::read_to_string(&file)
        {
            text = head;
        }
        for line in self.removed.get(path).into_iter().flatten() {
            text.push('\n');
            text.push_str(line);
        }
        let mut found: HashSet<&'a str> = text
            .split(|c: char| !is_ident(c))
            .filter(|word| !word.is_empty())
            .filter_map(|word| self.wanted.get(word).copied())
            .collect();
        found.extend(self.odd.iter().copied().filter(|s| has_word(&text, s)));
        found
    }
}

fn is_ident(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cohort::Cohort;

    fn cohort(files: &[&str], symbols: &[&str]) -> Cohort {
        Cohort {
            key: "k".into(),
            label: "l".into(),
            files: files.iter().map(|f| f.to_string()).collect(),
            symbols: symbols.iter().map(|s| s.to_string()).collect(),
            blast_radius: 0,
            fallback: false,
            reason: None,
            insight: None,
        }
    }

    fn report(cohorts: Vec<Cohort>) -> CohortReport {
        CohortReport {
            cohorts,
            axes: Vec::new(),
            index_stats: Default::default(),
            notes: Vec::new(),
        }
    }

    fn edges_of(
        report: &CohortReport,
        diff: &Diff,
        dir: &Path,
    ) -> Vec<Vec<(String, String, String)>> {
        cohort_views(report, diff, dir)
            .into_iter()
            .map(|v| v.edges)
            .collect()
    }

    #[test]
    fn symbols_link_the_files_that_mention_them_as_whole_identifiers() {
        assert!(has_word("let t = a::Token::new();", "a::Token"));
        assert!(!has_word("let t = a::TokenStore::new();", "a::Token"));
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("src")).unwrap();
        std::fs::write(dir.path().join("src/a.rs"), "pub struct Token;\n").unwrap();
        std::fs::write(
            dir.path().join("src/b.rs"),
            "fn f(t: Token) { my_refresh() }\n",
        )
        .unwrap();
        // c.rs no longer uses Token at the head, but its removed line did.
        std::fs::write(
            dir.path().join("src/c.rs"),
            "fn g() { TokenStore::refresh() }\n",
        )
        .unwrap();
        std::fs::write(dir.path().join("src/d.rs"), "fn h() { refresh() }\n").unwrap();
        let diff = crate::diff::parse(
            "diff --git a/src/c.rs b/src/c.rs\n--- a/src/c.rs\n+++ b/src/c.rs\n@@ -1 +1 @@\n-fn g(t: Token) {}\n+fn g() { TokenStore::refresh() }\n",
        )
        .unwrap();
        let report = report(vec![
            cohort(&["src/a.rs", "src/b.rs", "src/c.rs"], &["Token", "g"]),
            // The same files in another cohort, read once, linked by its own symbols.
            cohort(
                &["src/b.rs", "src/c.rs", "src/d.rs"],
                &["refresh", "TokenStore"],
            ),
        ]);
        let link = |a: &str, b: &str, s: &str| (a.to_string(), b.to_string(), s.to_string());
        assert_eq!(
            edges_of(&report, &diff, dir.path()),
            vec![
                vec![
                    link("src/a.rs", "src/b.rs", "Token"),
                    link("src/b.rs", "src/c.rs", "Token"),
                ],
                vec![link("src/c.rs", "src/d.rs", "refresh")],
            ]
        );
    }

    #[test]
    fn a_fallback_cohort_has_no_links_and_a_path_out_of_the_worktree_is_not_read() {
        let dir = tempfile::tempdir().unwrap();
        let space = dir.path().join("wt");
        std::fs::create_dir_all(&space).unwrap();
        std::fs::write(dir.path().join("secret.rs"), "Token Token\n").unwrap();
        std::fs::write(space.join("a.rs"), "Token\n").unwrap();
        std::fs::write(space.join("b.rs"), "Token\n").unwrap();
        let diff = Diff::default();
        let mut fallback = cohort(&["a.rs", "b.rs"], &["Token"]);
        fallback.fallback = true;
        let report = report(vec![
            fallback,
            cohort(&["a.rs", "../secret.rs", "b.rs"], &["Token"]),
        ]);
        let link = |a: &str, b: &str, s: &str| (a.to_string(), b.to_string(), s.to_string());
        assert_eq!(
            edges_of(&report, &diff, &space),
            vec![vec![], vec![link("a.rs", "b.rs", "Token")]]
        );
    }

    proptest::proptest! {
        /// Splitting a file into identifiers once finds exactly what searching it for each
        /// symbol would (the whole-identifier rule), for any text and any symbol.
        #[test]
        fn reading_once_finds_what_searching_each_symbol_finds(
            text in "[ab_é:( ]{0,40}",
            symbols in proptest::collection::vec("[ab_é:]{0,4}", 0..6),
        ) {
            let dir = tempfile::tempdir().unwrap();
            std::fs::write(dir.path().join("f.rs"), &text).unwrap();
            let wanted: HashSet<&str> = symbols.iter().map(String::as_str).collect();
            let diff = Diff::default();
            let found = Texts::new(&diff, dir.path(), &wanted).read("f.rs");
            for symbol in &symbols {
                proptest::prop_assert_eq!(
                    found.contains(symbol.as_str()),
                    has_word(&text, symbol),
                    "symbol {:?} in {:?}", symbol, text
                );
            }
        }
    }
}
