//! What a removed test exercised, and whether the head still does. The loss a reviewer wants
//! to hear about is code that was tested and no longer is: a removed test matters only when
//! what it exercised still exists at the head and no remaining test exercises it.
//!
//! Read at the level of names, from the test's body (its comments aside): the identifiers it
//! uses, as the dotted chains it writes them in (`Windows().user_desktop_dir`,
//! `NaughtyException.class`), and its string literals. The test went with its feature when a
//! name it uses was removed from the project's non-test code by the change and is nowhere in
//! that code at the head (msw's `transformResponse` option, removed with its test). The
//! remaining tests exercise it when every chain and every literal of its body is written in
//! the head's test code (platformdirs' `user_desktop_dir` test, whose assertion became a row of
//! the shared table; cases moved into another test's table). What this misses: a case the
//! head's tests write in other pieces, each somewhere (a removed call's argument used
//! elsewhere with another call), reads as exercised; a body that uses no name of three
//! letters or more is never read as exercised.

use std::collections::{HashMap, HashSet};
use std::path::Path;
use std::rc::Rc;
use std::sync::LazyLock;

use regex::Regex;

use crate::diff::{CodeLexer, Diff, Language, LineKind, is_test_path};

/// A name as code writes it: identifiers joined by dots.
static CHAIN: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*").expect("valid"));
/// A string literal on one line, in any of the three quotes.
static LITERAL: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#""(?P<d>[^"\\\n]*)"|'(?P<s>[^'\\\n]*)'|`(?P<b>[^`\\\n]*)`"#).expect("valid")
});

/// Names and literals shorter than this say nothing of what a test exercised (`i`, `ok`).
const MIN_LEN: usize = 3;

/// What a removed test's body uses: its chains and literals.
#[derive(Debug, Default, Clone)]
pub(super) struct Uses {
    chains: HashSet<String>,
    literals: HashSet<String>,
}

impl Uses {
    /// Reads the body's lines, written in `language`.
    pub(super) fn of<'l>(language: Language, lines: impl Iterator<Item = &'l str>) -> Uses {
        let mut uses = Uses::default();
        for line in lines {
            read_line(language, line, &mut uses, false);
        }
        uses
    }
}

/// Adds the chains and literals of `line` to `uses`; with `parts`, every run of a chain's
/// links too (the head's `self.arrow.replace(…)` holds `arrow.replace`).
fn read_line(language: Language, line: &str, uses: &mut Uses, parts: bool) {
    let code = CodeLexer::without_line_comment(language, line);
    for literal in LITERAL.captures_iter(code) {
        if let Some(text) = ["d", "s", "b"].iter().find_map(|g| literal.name(g))
            && text.as_str().len() >= MIN_LEN
        {
            uses.literals.insert(text.as_str().to_string());
        }
    }
    // The head's names are read in its literals too (`getattr(Windows(), "user_desktop_dir")`
    // uses the property); a body's are its code's, its literals apart.
    let names = if parts {
        std::borrow::Cow::Borrowed(code)
    } else {
        LITERAL.replace_all(code, "\"\"")
    };
    for chain in CHAIN.find_iter(&names).map(|m| m.as_str()) {
        if parts {
            let links: Vec<&str> = chain.split('.').collect();
            for from in 0..links.len() {
                for to in from + 1..=links.len() {
                    uses.chains.insert(links[from..to].join("."));
                }
            }
        } else if chain.len() >= MIN_LEN {
            uses.chains.insert(chain.to_string());
        }
    }
}

/// The head's code of one language, read once per scan: what its tests write, the names its
/// other code uses, and the names the change removed from that other code.
pub(super) struct HeadCode {
    tests: Uses,
    names: HashSet<String>,
    removed: HashSet<String>,
}

/// Per language, read on the first removed test that reaches the question.
#[derive(Default)]
pub(super) struct HeadCodes(std::cell::RefCell<HashMap<Language, Rc<HeadCode>>>);

impl HeadCodes {
    pub(super) fn of(&self, root: &Path, diff: &Diff, language: Language) -> Rc<HeadCode> {
        self.0
            .borrow_mut()
            .entry(language)
            .or_insert_with(|| Rc::new(HeadCode::read(root, diff, language)))
            .clone()
    }
}

impl HeadCode {
    fn read(root: &Path, diff: &Diff, language: Language) -> HeadCode {
        let mut tests = Uses::default();
        let mut other = Uses::default();
        super::head_files::each(
            root,
            language,
            |_| true,
            |relative, text| {
                // Rust's unit tests live in any file: every file is test code too.
                let test = is_test_path(relative);
                for line in text.lines() {
                    if test || language == Language::Rust {
                        read_line(language, line, &mut tests, true);
                    }
                    if !test {
                        read_line(language, line, &mut other, true);
                    }
                }
            },
        );
        let mut removed = HashSet::new();
        for file in diff
            .files
            .iter()
            .filter(|f| f.language == language && !is_test_path(&f.path))
        {
            for line in file.hunks.iter().flat_map(|h| h.lines.iter()) {
                if line.kind == LineKind::Removed {
                    let mut uses = Uses::default();
                    read_line(language, &line.text, &mut uses, true);
                    removed.extend(uses.chains.into_iter().filter(|c| !c.contains('.')));
                }
            }
        }
        let names: HashSet<String> = other
            .chains
            .into_iter()
            .filter(|c| !c.contains('.'))
            .collect();
        removed.retain(|name| name.len() >= MIN_LEN && !names.contains(name));
        HeadCode {
            tests,
            names,
            removed,
        }
    }

    /// Whether the test used a name the change removed from the non-test code: it went with
    /// its feature.
    pub(super) fn feature_removed(&self, uses: &Uses) -> bool {
        uses.chains
            .iter()
            .filter_map(|chain| chain.rsplit('.').next())
            .any(|name| self.removed.contains(name) && !self.names.contains(name))
    }

    /// Whether the head's tests write every chain and literal the test's body did.
    pub(super) fn exercised(&self, uses: &Uses) -> bool {
        !uses.chains.is_empty()
            && uses.chains.iter().all(|c| self.tests.chains.contains(c))
            && uses
                .literals
                .iter()
                .all(|l| self.tests.literals.contains(l))
    }
}
