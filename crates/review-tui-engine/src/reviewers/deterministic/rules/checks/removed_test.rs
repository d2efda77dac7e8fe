//! Tests removed by the change, that no longer exist in any form at the head.
//!
//! A test whose definition lines were removed is often not lost: renamed files, tests split or
//! moved to another file, a reformatted signature, a test module turned into its own file. So
//! a removed test counts only when no test of the same name is defined anywhere at the head
//! (the diff's added lines, the same file, or, with the worktree, any file of its language)
//! and its body was not added back elsewhere under another name. The finding names the test
//! by its own definition line, not by the attribute or decorator above it.
//!
//! A test whose cases moved into a table-driven or parametrised test of the same file is not
//! lost either (bytes 1.10 turned `test_get_u8` and its siblings into one `buf_tests!` macro
//! instantiated per type, `get_u8` among its arguments): when the file's added lines
//! parametrise (`@pytest.mark.parametrize`, `it.each`, `@ParameterizedTest`, `#[rstest]`,
//! `#[test_case]`, a Go table ranged over, a test macro's `$` parameters) and either name the
//! removed test's every word on one line, or define a test whose subject words are a part of
//! the removed test's.
//!
//! A test removed together with the feature it covered is not a loss either (flask removed
//! `preserve_context_on_exception` with its tests; cobra deleted a whole CLI tool with its
//! tests): when the test names something the change removed from non-test code, or deprecated
//! there, and did not define again, the test went with its feature. So does a test named for a
//! module the change deleted (viper 1.20 deleted `internal/encoding/ini/` and `TestIni` with
//! it), and a test file deleted with the source files of its own directory. So does a test that
//! reads a member (a field, property or keyword parameter) that the change's non-test code
//! stopped using and its file no longer mentions (yargs #1888 removed `context.resets`).

use std::borrow::Cow;
use std::cell::OnceCell;
use std::collections::{BTreeSet, HashMap, HashSet};
use std::path::Path;
use std::rc::Rc;
use std::sync::LazyLock;

use regex::Regex;

use super::{HeadTests, Hit};
use crate::diff::{
    CodeLexer, Diff, FileDiff, FileStatus, Language, LineKind, Side, TestTracker, is_test_path,
};
use crate::review::fingerprint::{normalize_code, normalize_line};
use crate::space::worktree_file;

/// Rust test attributes; the test's name is on the next `fn` line.
static RUST_ATTRIBUTE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^\s*#\[(\w+::)*(test|rstest|test_case|proptest|quickcheck)\b").expect("valid")
});
static RUST_FN: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^\s*(pub(\([\w:]+\))?\s+)?(async\s+)?(unsafe\s+)?fn\s+(?P<name>\w+)")
        .expect("valid")
});
/// Java/Kotlin `@Test` (and JUnit 5's `@ParameterizedTest`, `@RepeatedTest`); the name is on
/// the method line that follows.
static JVM_ANNOTATION: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^\s*@(Test|ParameterizedTest|RepeatedTest|TestFactory|TestTemplate)\b")
        .expect("valid")
});
static JVM_METHOD: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^\s*(@\w+(\([^)]*\))?\s+)*((public|protected|private|static|final|suspend|override|open|internal)\s+)*(void\s+|fun\s+|[\w<>\[\], ]+\s+)?(?P<name>\w+)\s*\(")
        .expect("valid")
});
/// Definitions that name the test on their own line.
static PYTHON_DEF: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^\s*(async\s+)?def\s+(?P<name>test\w*)\s*\(").expect("valid"));
static GO_FUNC: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^\s*func\s+(?P<name>Test\w*)\s*\(\s*\w+\s+\*testing\.T\s*\)").expect("valid")
});
/// The title in any of the three quotes, holding the other two (`'throws when `input` …'`).
static JS_CALL: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r#"^\s*(it|test)\s*\(\s*(?:"(?P<name>[^"]+)"|'(?P<single>[^']+)'|`(?P<tick>[^`]+)`)"#,
    )
    .expect("valid")
});

/// The test's name in a definition's captures (a JS title's group depends on its quotes).
fn captured_name<'t>(c: &regex::Captures<'t>) -> Option<&'t str> {
    ["name", "single", "tick"]
        .iter()
        .find_map(|group| c.name(group))
        .map(|m| m.as_str())
}

/// A message an assertion expects: a string or regex literal of a few words. When one of a
/// removed test's reappears in an added test line, the test moved (to another framework, or
/// merged into another test).
static MESSAGE_LITERAL: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#""(?P<d>[^"\\]{12,})"|'(?P<s>[^'\\]{12,})'|/(?P<r>[^/\\]{12,})/"#).expect("valid")
});

/// A body's lines are longer than this once normalized: `}` or `});` says nothing of a test.
const BODY_LINE_MIN: usize = 3;

/// How much of a removed test's body must reappear among added lines for it to count as moved.
const MOVED_BODY_SHARE: f64 = 0.6;

/// A removed test: its name, where its defining line was, the line's text, and its body.
struct Removed {
    name: String,
    line: u32,
    code: String,
    body: Vec<String>,
    /// The messages its assertions expect (see [`MESSAGE_LITERAL`]).
    literals: Vec<String>,
    /// The names and literals its body uses (see [`super::exercised`]).
    uses: super::exercised::Uses,
}

/// What every file's question reads of the whole diff (its new side, the features it
/// removed), read once per scan: a range removing tests in hundreds of files read its 145k
/// lines once per such file.
#[derive(Default)]
pub(crate) struct WholeDiff<'d>(
    std::cell::OnceCell<(AddedCode<'d>, RemovedFeatures)>,
    super::exercised::HeadCodes,
);

impl<'d> WholeDiff<'d> {
    fn of(&self, diff: &'d Diff, worktree: Option<&Path>) -> (&AddedCode<'d>, &RemovedFeatures) {
        let (added, gone) = self.0.get_or_init(|| {
            let added = AddedCode::of(diff);
            let gone = RemovedFeatures::of(diff, &added, worktree);
            (added, gone)
        });
        (added, gone)
    }
}

/// `whole` must have been read from `diff` (one per scan of one diff).
pub(super) fn removed_tests<'d>(
    file: &FileDiff,
    diff: &'d Diff,
    worktree: Option<&Path>,
    cache: &HeadTests,
    whole: &WholeDiff<'d>,
    title: &str,
) -> Vec<Hit> {
    // A test found by its name alone (`def test…`, `func Test…`, `test('…')`) is one only in a
    // test file: pytest, `go test` and the JS runners collect tests from those. Rust and JVM
    // tests are marked by their attribute wherever they are.
    if !matches!(file.language, Language::Rust | Language::Java) && !is_test_path(&file.path) {
        return Vec::new();
    }
    // A release's own commit that strips whole test files from the tree it tags (samber/lo's
    // "bump v1.51.0" deletes every `*_test.go` from the published module) packages the
    // release: the tests live on in the development line, the code they test ships.
    if file.status == FileStatus::Deleted && says_release(title) {
        return Vec::new();
    }
    // A revert's removed tests are the reverted change's own (mockito #1878).
    if REVERT_TITLE.is_match(title) {
        return Vec::new();
    }
    let removed = find_removed(file);
    if removed.is_empty() {
        return Vec::new();
    }
    let (added, gone) = whole.of(diff, worktree);
    // The tests the file's head version defines, read once for all its removed tests.
    let head_file = std::cell::OnceCell::new();
    removed
        .into_iter()
        .filter(|test| !added.defines(file.language, &test.name))
        .filter(|test| !added.qualifies(&test.name))
        .filter(|test| !added.renumbered(&test.name))
        .filter(|test| !added.split_into(&file.path, test))
        .filter(|test| !added.holds_body(&test.body))
        .filter(|test| !added.expects_again(&test.literals))
        .filter(|test| !gone.covered_by(test))
        .filter(|test| !gone.module_of(file, test))
        .filter(|test| !parametrised_again(file, test))
        .filter(|test| {
            !worktree.is_some_and(|root| {
                let in_file: &HashSet<String> =
                    head_file.get_or_init(|| head_file_tests(root, file));
                in_file.contains(&test.name) || defined_in_language(root, file, &test.name, cache)
            })
        })
        // What it exercised went with the change, or the head's tests still exercise it.
        .filter(|test| {
            !worktree.is_some_and(|root| {
                let head = whole.1.of(root, diff, file.language);
                head.feature_removed(&test.uses) || head.exercised(&test.uses)
            })
        })
        .map(|test| Hit {
            line: Some((Side::Left, test.line)),
            code: test.code,
            detail: format!("`{}`", test.name),
        })
        .collect()
}

/// A title naming a release of the project: "bump v1.51.0", "Release 2.3.0", "chore(release):
/// 1.2.3", "v1.2.3"; not a dependency's bump ("Bump serde from 1.0 to 1.1").
static RELEASE_TITLE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)^\s*(?:(?:chore|build)\(release\):?|release[sd]?:?|bump(?:ed)?(?:\s+(?:to|version))?|prepare(?:\s+(?:for|release))?|version)?\s*v?\d+\.\d+(?:\.\d+)?(?:[-+][\w.]+)?\s*$")
        .expect("valid")
});

/// Git's own subject for a revert, and the conventional-commit type.
static REVERT_TITLE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r#"(?i)^\s*(revert\s+"|revert(\([^)]*\))?:)"#).expect("valid"));

fn says_release(title: &str) -> bool {
    RELEASE_TITLE.is_match(title)
}

/// Tests whose defining line is among the file's removed lines.
fn find_removed(file: &FileDiff) -> Vec<Removed> {
    let mut found = Vec::new();
    for hunk in &file.hunks {
        // The old side of the hunk: context and removed lines, in order.
        let old: Vec<(&str, Option<u32>, bool)> = hunk
            .lines
            .iter()
            .filter(|l| l.kind != LineKind::Added)
            .map(|l| (l.text.as_str(), l.old_line, l.kind == LineKind::Removed))
            .collect();
        // Which old lines begin in code: a test defined inside a string literal is a fixture's
        // source (pytest's `makepyfile("""…""")`, a JS template literal, a Rust raw
        // string), not a test of the repository; one inside a block comment was already off.
        // Read from the hunk alone (the old file is not at hand): a hunk that starts inside
        // such a string is taken to start in code.
        let mut lexer = CodeLexer::new(file.language);
        let in_code: Vec<bool> = old
            .iter()
            .map(|(text, _, _)| {
                let start = lexer.start().in_code();
                lexer.line(text);
                start
            })
            .collect();
        let blocks = ChangeBlocks::of(file.language, hunk);
        let mut at = 0;
        while at < old.len() {
            let Some((name, def_at)) = test_at(file.language, &old, at)
                .filter(|(_, def_at)| in_code[at] && in_code[*def_at])
            else {
                at += 1;
                continue;
            };
            let (text, number, removed) = old[def_at];
            // Replaced where it stood by a test of the same subject: rewritten in place (jinja
            // 3.1.5's `test_xmlattr_key_with_spaces` became the parametrized
            // `test_xmlattr_key_invalid` between the same context lines).
            if removed && blocks.replaced(def_at, &name) {
                at = def_at + 1;
                continue;
            }
            // Part of the body is kept: the test was renamed or rewritten in place (httpx's
            // `test_url_invalid` became `test_url_invalid_hostname` with new tests between;
            // flask's `test_redirect_keep_session` became `test_redirect_session`), the kept
            // lines now under the new name.
            let body_kept = old[def_at + 1..]
                .iter()
                .take_while(|(t, _, _)| t.trim().is_empty() || indentation(t) > indentation(text))
                .take_while(|(t, _, _)| !starts_test(file.language, t))
                .any(|(t, _, body_removed)| {
                    !body_removed && normalize_code(&[t]).len() > BODY_LINE_MIN
                });
            // A test that was switched off tested nothing: removing it loses no coverage
            // (mockito #2807 dropped an `@Ignore("…fails currently…")` test).
            if removed && disabled(&old, def_at) {
                at = def_at + 1;
                continue;
            }
            if removed
                && !body_kept
                && let Some(line) = number
            {
                // The body: the lines indented deeper than the definition, context or removed
                // (a renamed test keeps its body as context).
                let indent = indentation(text);
                let body = old[def_at + 1..]
                    .iter()
                    .map(|(t, _, _)| *t)
                    .take_while(|t| t.trim().is_empty() || indentation(t) > indent)
                    .take_while(|t| !starts_test(file.language, t))
                    .map(|t| normalize_code(&[t]))
                    .filter(|t| t.len() > BODY_LINE_MIN)
                    .take(40)
                    .collect();
                let literals = old[def_at + 1..]
                    .iter()
                    .take_while(|(t, _, _)| t.trim().is_empty() || indentation(t) > indent)
                    .flat_map(|(t, _, _)| MESSAGE_LITERAL.captures_iter(t))
                    .filter_map(|c| ["d", "s", "r"].iter().find_map(|g| c.name(g)))
                    .map(|m| m.as_str().to_string())
                    .filter(|l| l.trim().contains(' '))
                    .collect();
                let uses = super::exercised::Uses::of(
                    file.language,
                    old[def_at + 1..]
                        .iter()
                        .map(|(t, _, _)| *t)
                        .take_while(|t| t.trim().is_empty() || indentation(t) > indent)
                        .take_while(|t| !starts_test(file.language, t)),
                );
                found.push(Removed {
                    name,
                    literals,
                    uses,
                    line,
                    code: text.to_string(),
                    body,
                });
            }
            at = def_at + 1;
        }
    }
    found
}

/// An attribute or decorator that switches a test off for good (not a conditional skip), and a
/// first body line that skips it unconditionally.
static DISABLED_MARK: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^\s*(#\[ignore\b|@(Ignore|Disabled)\b|@(pytest\.mark\.skip|unittest\.skip)\b)")
        .expect("valid")
});
static SKIPPED_BODY: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^\s*(t\.Skip(Now|f)?\(|self\.skipTest\(|pytest\.skip\()").expect("valid")
});

/// Whether the test defined at old-side line `def_at` was switched off: a disabling attribute
/// or decorator among the lines directly above its definition, or a skip as its first line.
fn disabled(old: &[(&str, Option<u32>, bool)], def_at: usize) -> bool {
    let marks = old[..def_at]
        .iter()
        .rev()
        .take_while(|(t, _, _)| {
            let t = t.trim_start();
            t.starts_with('@') || t.starts_with("#[")
        })
        .any(|(t, _, _)| DISABLED_MARK.is_match(t));
    let first = old[def_at + 1..]
        .iter()
        .find(|(t, _, _)| !t.trim().is_empty())
        .is_some_and(|(t, _, _)| SKIPPED_BODY.is_match(t));
    marks || first
}

/// A hunk's runs of changed lines between context lines, and the tests each run's added lines
/// define.
struct ChangeBlocks {
    /// For each line of the old side (context and removed), the run it is in (removed lines
    /// only).
    block_of_old: Vec<Option<usize>>,
    added_tests: Vec<Vec<String>>,
}

impl ChangeBlocks {
    fn of(language: Language, hunk: &crate::diff::Hunk) -> Self {
        let runs = hunk.change_runs();
        let mut run_of = vec![None; hunk.lines.len()];
        for (run, range) in runs.iter().enumerate() {
            run_of[range.clone()].fill(Some(run));
        }
        let block_of_old = hunk
            .lines
            .iter()
            .zip(run_of)
            .filter(|(line, _)| line.kind != LineKind::Added)
            .map(|(_, run)| run)
            .collect();
        let added_tests = runs
            .into_iter()
            .map(|range| {
                let lines: Vec<(&str, Option<u32>, bool)> = hunk.lines[range]
                    .iter()
                    .filter(|l| l.kind == LineKind::Added)
                    .map(|l| (l.text.as_str(), None, true))
                    .collect();
                (0..lines.len())
                    .filter_map(|at| test_at(language, &lines, at).map(|(name, _)| name))
                    .collect()
            })
            .collect();
        ChangeBlocks {
            block_of_old,
            added_tests,
        }
    }

    /// The removed test `name`, defined at old-side line `def_at`, is in a run of changes that
    /// adds a test whose name opens with the same subject word.
    fn replaced(&self, def_at: usize, name: &str) -> bool {
        let Some(Some(block)) = self.block_of_old.get(def_at) else {
            return false;
        };
        let Some(subject) = subject_words(name).into_iter().next() else {
            return false;
        };
        self.added_tests[*block]
            .iter()
            .any(|added| added != name && subject_words(added).first() == Some(&subject))
    }
}

/// A line that parametrises tests, by language: the cases of one test come from a table.
static PARAMETRISED: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(concat!(
        r"@pytest\.mark\.parametrize|@parametrize\b|@ParameterizedTest|@(Value|Csv|Method|Enum)Source\b",
        r"|\b(it|test|describe)\.each\b|#\[(rstest|case|test_case)\b|^\s*macro_rules!",
        r"|\bfor\s+_?,?\s*\w+\s*:?=\s*range\s+\w*(tests|cases|table)\w*|\[\]struct\s*\{|\bt\.Run\(",
    ))
    .expect("valid")
});

/// The removed test's cases went into a table or parametrised test of its own file: see the
/// module's documentation.
fn parametrised_again(file: &FileDiff, test: &Removed) -> bool {
    let added: Vec<&str> = file
        .hunks
        .iter()
        .flat_map(|h| &h.lines)
        .filter(|l| l.kind == LineKind::Added)
        .map(|l| l.text.as_str())
        .collect();
    if !added.iter().any(|l| PARAMETRISED.is_match(l)) {
        return false;
    }
    let name_words = all_words(&test.name);
    if name_words.is_empty() {
        return false;
    }
    let on_one_line = added.iter().any(|line| {
        let words: HashSet<String> = all_words(line).into_iter().collect();
        name_words.iter().all(|w| words.contains(w))
    });
    let subject = subject_words(&test.name);
    let lines: Vec<(&str, Option<u32>, bool)> = added.iter().map(|l| (*l, None, true)).collect();
    let narrower_test = (0..lines.len())
        .filter_map(|at| test_at(file.language, &lines, at).map(|(name, _)| name))
        .filter(|name| *name != test.name)
        .any(|name| {
            let words = subject_words(&name);
            !words.is_empty() && words.iter().all(|w| subject.contains(w))
        });
    on_one_line || narrower_test
}

/// A test file's stem without its test marker: `test_enum_internally_tagged.rs` → `enum
/// internally tagged` (the words are split later), `level_test.go` → `level`.
fn test_file_stem(path: &str) -> String {
    let name = path.rsplit('/').next().unwrap_or(path);
    let stem = name.split('.').next().unwrap_or(name);
    if matches!(stem, "mod" | "lib" | "main" | "index" | "__init__") {
        return String::new();
    }
    stem.to_string()
}

/// The names of the blocks enclosing `lines[at]` that a test runner puts in a test's name:
/// Rust `mod x {`, a Python or JVM `class X`, a JS `describe('x'`, read by indentation.
fn containers(lines: &[(&str, Option<u32>, bool)], at: usize) -> Vec<String> {
    let indent = |t: &str| t.len() - t.trim_start().len();
    let mut depth = indent(lines[at].0);
    let mut found = Vec::new();
    for (text, _, _) in lines[..at].iter().rev() {
        if depth == 0 {
            break;
        }
        if text.trim().is_empty() || indent(text) >= depth {
            continue;
        }
        depth = indent(text);
        if let Some(c) = CONTAINER.captures(text) {
            found.push(
                ["name", "single", "double"]
                    .iter()
                    .find_map(|g| c.name(g))
                    .map_or(String::new(), |m| m.as_str().to_string()),
            );
        }
    }
    found
}

static CONTAINER: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"^\s*(?:pub(?:\([\w:]+\))?\s+)?(?:mod|class|object|(?:public\s+|static\s+|final\s+)*class)\s+(?P<name>\w+)|^\s*describe\s*\(\s*(?:'(?P<single>[^']+)'|"(?P<double>[^"]+)")"#)
        .expect("valid")
});

/// Every word of a name or line, lower case, split as [`subject_words`] splits, without the
/// filler words but with short ones (`u8`, `id`).
fn all_words(text: &str) -> Vec<String> {
    const FILLER: [&str; 4] = ["test", "tests", "should", "it"];
    let mut words = Vec::new();
    let mut word = String::new();
    let mut previous_lower = false;
    for c in text.chars() {
        let boundary = !c.is_alphanumeric() || (c.is_uppercase() && previous_lower);
        if boundary && !word.is_empty() {
            words.push(std::mem::take(&mut word));
        }
        if c.is_alphanumeric() {
            word.extend(c.to_lowercase());
        }
        previous_lower = c.is_lowercase() || c.is_ascii_digit();
    }
    if !word.is_empty() {
        words.push(word);
    }
    words.retain(|w| !FILLER.contains(&w.as_str()));
    words
}

/// The words of a test's name that say what it tests: split at `_`, spaces, punctuation and
/// camelCase humps, lowercased, without "test", "it", "should" and words of one or two letters.
fn subject_words(name: &str) -> Vec<String> {
    all_words(name)
        .into_iter()
        .filter(|w| w.chars().count() > 2)
        .collect()
}

fn indentation(text: &str) -> usize {
    text.len() - text.trim_start().len()
}

/// Whether `text` opens a test: its attribute, annotation or defining line.
fn starts_test(language: Language, text: &str) -> bool {
    RUST_ATTRIBUTE.is_match(text)
        || JVM_ANNOTATION.is_match(text)
        || test_at(language, &[(text, None, true)], 0).is_some()
}

/// The names of the tests a file's change defines: whose attribute or definition is an added
/// line on the new side (a `#[test]` added above an existing function makes it a test).
fn tests_defined_by(file: &FileDiff) -> Vec<String> {
    let lines: Vec<(&str, Option<u32>, bool)> = file
        .hunks
        .iter()
        .flat_map(|h| &h.lines)
        .filter(|l| l.kind != LineKind::Removed)
        .map(|l| (l.text.as_str(), None, l.kind == LineKind::Added))
        .collect();
    (0..lines.len())
        .filter_map(|at| {
            let (name, def_at) = test_at(file.language, &lines, at)?;
            lines[at..=def_at].iter().any(|l| l.2).then_some(name)
        })
        .collect()
}

/// A test starting at `lines[at]`: its name and the index of the line that names it.
fn test_at(
    language: Language,
    lines: &[(&str, Option<u32>, bool)],
    at: usize,
) -> Option<(String, usize)> {
    let text = lines[at].0;
    let named = |re: &Regex, text: &str| {
        re.captures(text)
            .and_then(|c| captured_name(&c).map(str::to_string))
    };
    match language {
        Language::Rust => {
            if !RUST_ATTRIBUTE.is_match(text) {
                return None;
            }
            // Further attributes (`#[should_panic]`) may sit between the attribute and the fn.
            (at + 1..lines.len().min(at + 6))
                .find_map(|i| named(&RUST_FN, lines[i].0).map(|name| (name, i)))
        }
        Language::Java => {
            if !JVM_ANNOTATION.is_match(text) {
                return None;
            }
            (at..lines.len().min(at + 6)).find_map(|i| {
                let line = lines[i].0.trim_start();
                if line.starts_with('@') && !line.contains('(') {
                    return None;
                }
                named(&JVM_METHOD, lines[i].0).map(|name| (name, i))
            })
        }
        Language::Python => named(&PYTHON_DEF, text).map(|name| (name, at)),
        Language::Go => named(&GO_FUNC, text).map(|name| (name, at)),
        Language::JavaScript | Language::TypeScript => named(&JS_CALL, text).map(|name| (name, at)),
        _ => None,
    }
}

/// The new side of the whole diff (added and context lines), for "is it still there?". What
/// a question needs is read from it on the first such question: a scan asks hundreds of
/// them about a 100k-line side.
struct AddedCode<'d> {
    lines: Vec<&'d str>,
    /// The tests the lines define, by the language whose definitions were read.
    tests: std::cell::RefCell<HashMap<Language, Rc<HashSet<&'d str>>>>,
    /// Every line, normalized (see [`normalize_line`]), that could be a body's line.
    normalized: OnceCell<HashSet<Cow<'d, str>>>,
    /// The added lines of test files, joined.
    added_tests: OnceCell<String>,
    /// The subject words of the full name of each test the diff's added lines define (file
    /// stem, enclosing modules, its name).
    added_names: OnceCell<Vec<BTreeSet<String>>>,
    /// The names of the tests the diff's added lines define.
    added_test_names: OnceCell<HashSet<String>>,
    diff: &'d Diff,
}

impl<'d> AddedCode<'d> {
    fn of(diff: &'d Diff) -> AddedCode<'d> {
        let lines = diff
            .files
            .iter()
            .flat_map(|f| f.hunks.iter())
            .flat_map(|h| h.lines.iter())
            .filter(|l| l.kind != LineKind::Removed)
            .map(|l| l.text.as_str())
            .collect();
        AddedCode {
            lines,
            tests: Default::default(),
            normalized: OnceCell::new(),
            added_tests: OnceCell::new(),
            added_names: OnceCell::new(),
            added_test_names: OnceCell::new(),
            diff,
        }
    }

    /// A message the removed test expected is expected again by an added test line.
    fn expects_again(&self, literals: &[String]) -> bool {
        if literals.is_empty() {
            return false;
        }
        let added_tests = self.added_tests.get_or_init(|| {
            self.diff
                .files
                .iter()
                .filter(|f| is_test_path(&f.path))
                .flat_map(|f| f.hunks.iter())
                .flat_map(|h| h.lines.iter())
                .filter(|l| l.kind == LineKind::Added)
                .map(|l| l.text.as_str())
                .collect::<Vec<_>>()
                .join("\n")
        });
        literals.iter().any(|l| added_tests.contains(l.as_str()))
    }

    /// A test the change added is the removed one under its full name, as its runner reports
    /// it: the file's stem, the modules, classes or `describe` blocks enclosing it, its own
    /// name. Moved when that full name names every subject word of the removed test's (two
    /// or more) and more (logrus: `TestUnmarshalText` became `TestLevelUnmarshalText` in
    /// `level_test.go`; serde #2448: `test_flatten_enum_newtype` became
    /// `flatten::enum_::externally_tagged::newtype`), or most of them, three at least (serde
    /// #2788: `test_internally_tagged_newtype_variant_containing_unit_struct` became
    /// `newtype_unit_struct` in `test_enum_internally_tagged.rs`).
    fn qualifies(&self, name: &str) -> bool {
        let subject = subject_words(name);
        if subject.len() < 2 {
            return false;
        }
        let unique: BTreeSet<&String> = subject.iter().collect();
        self.added_names
            .get_or_init(|| {
                self.diff
                    .files
                    .iter()
                    .filter(|f| is_test_path(&f.path) || f.language == Language::Rust)
                    .flat_map(|f| {
                        let lines: Vec<(&str, Option<u32>, bool)> = f
                            .hunks
                            .iter()
                            .flat_map(|h| &h.lines)
                            .filter(|l| l.kind == LineKind::Added)
                            .map(|l| (l.text.as_str(), None, true))
                            .collect();
                        let stem = test_file_stem(&f.path);
                        (0..lines.len())
                            .filter_map(|at| test_at(f.language, &lines, at))
                            .map(|(n, def_at)| {
                                let mut full: BTreeSet<String> =
                                    subject_words(&stem).into_iter().collect();
                                full.extend(
                                    containers(&lines, def_at)
                                        .iter()
                                        .flat_map(|c| subject_words(c)),
                                );
                                full.extend(subject_words(&n));
                                full
                            })
                            .collect::<Vec<_>>()
                    })
                    .collect()
            })
            .iter()
            .any(|full| {
                let held = unique.iter().filter(|w| full.contains(w.as_str())).count();
                let all = held == unique.len() && full.len() > unique.len();
                let most = held >= 3 && held * 3 >= unique.len() * 2;
                all || most
            })
    }

    /// The names of the tests the change defines: whose attribute or definition is an added
    /// line (a `#[test]` added above an existing function makes it a test).
    fn added_test_names(&self) -> &HashSet<String> {
        self.added_test_names
            .get_or_init(|| self.diff.files.iter().flat_map(tests_defined_by).collect())
    }

    /// A test the change added has the removed one's name with other numbers: a version in
    /// the name moved on (jsonschema: `test_draft7_validator_is_the_default` became
    /// `test_draft202012_validator_is_the_default`).
    fn renumbered(&self, name: &str) -> bool {
        let without_digits =
            |n: &str| -> String { n.chars().filter(|c| !c.is_ascii_digit()).collect() };
        if !name.chars().any(|c| c.is_ascii_digit()) {
            return false;
        }
        let wanted = without_digits(name);
        self.added_test_names()
            .iter()
            .any(|added| added != name && without_digits(added) == wanted)
    }

    /// The removed test only ran others that the change made tests of their own in its file
    /// (tempfile: `fn main()` called `in_tmpdir(test_tempdir)` and its siblings, each now a
    /// `#[test]`).
    fn split_into(&self, path: &str, test: &Removed) -> bool {
        let Some(file) = self.diff.files.iter().find(|f| f.path == path) else {
            return false;
        };
        let made_tests: HashSet<String> = tests_defined_by(file)
            .into_iter()
            .filter(|name| !is_generic(name))
            .collect();
        test.body
            .iter()
            .flat_map(|line| IDENTIFIER.find_iter(line))
            .any(|m| m.as_str() != test.name && made_tests.contains(m.as_str()))
    }

    /// A test of this name on the new side of the diff (added or context lines).
    fn defines(&self, language: Language, name: &str) -> bool {
        let tests = Rc::clone(
            self.tests
                .borrow_mut()
                .entry(language)
                .or_insert_with(|| Rc::new(defined_tests(language, &self.lines))),
        );
        tests.contains(name)
    }

    /// Most of the old body is on the new side (added or kept as context): the test moved or
    /// was renamed.
    fn holds_body(&self, body: &[String]) -> bool {
        if body.len() < 2 {
            return false;
        }
        let normalized = self.normalized.get_or_init(|| {
            let mut set = HashSet::with_capacity(self.lines.len());
            set.extend(
                self.lines
                    .iter()
                    .map(|l| normalize_line(l))
                    .filter(|l| l.len() > BODY_LINE_MIN),
            );
            set
        });
        let kept = body
            .iter()
            .filter(|l| normalized.contains(l.as_str()))
            .count();
        kept as f64 >= MOVED_BODY_SHARE * body.len() as f64
    }
}

/// The names of the tests `lines` define in `language`: a line defines the test `name` when
/// [`names_test`] says so, which is when its definition's captured name is `name`.
fn defined_tests<'t>(language: Language, lines: &[&'t str]) -> HashSet<&'t str> {
    let Some(definition) = test_definition(language) else {
        return HashSet::new();
    };
    lines
        .iter()
        .filter_map(|line| definition.captures(line).and_then(|c| captured_name(&c)))
        .collect()
}

/// A definition on one line, in any of the languages: `def x`, `fn x`, `func (r T) X`,
/// `class X`, `function x`, Kotlin's `fun x` (`fun <T> T.x`), a JVM method with a modifier
/// (generic or not), a Python class attribute (`x = ConfigAttribute(…)`), an upper-case
/// configuration key (`"X_Y": None`). Annotations may open the line (`@Deprecated public
/// String x(`, jsoup's removed method): they do not make it less a definition.
static DEFINITION: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(concat!(
        r"^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:pub(?:\([\w:]+\))?|export|default|async|unsafe|abstract|final|static|public|protected|private|open|internal|override|suspend|const|inline|operator|infix|tailrec|actual|expect)\s+)*",
        r"(?:def|fn|func|fun|class|struct|enum|trait|interface|type|function|object|macro_rules!)\s+(?:\([^)]*\)\s*)?(?:<[^>]*>\s*)?(?:[A-Za-z_]\w*\.)?(?P<def>[A-Za-z_]\w*)",
        r"|^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|protected|private|static|final|abstract|synchronized|default|native)\s+)+(?:<[^>]*>\s+)?[\w<>\[\],.?]+\s+(?P<method>[A-Za-z_]\w*)\s*\(",
        // Module level or one indentation deep: a class attribute, not a function's local.
        r"|^(?: {4}|\t)?(?P<attr>[a-z_][a-z0-9_]*)\s*=\s*[\w.]+\(",
        r#"|^\s*["'](?P<key>[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)["']\s*:"#,
    ))
    .expect("valid")
});
/// A method defined with no keyword, in the languages whose class bodies allow it: a
/// TypeScript/JavaScript class method (`async retry(req: Request): Promise<R> {`), a Java or
/// C# method without a modifier (`String name() {`). Only on a line that opens its body, so a
/// call is not read as one; control-flow keywords are left out by [`is_keyword`].
static MEMBER: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(concat!(
        r"^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|private|protected|static|async|readonly|override|get|set|internal|virtual|final|synchronized)\s+)*",
        r"(?:[\w<>\[\],.?]+\s+)?(?P<member>[A-Za-z_$][\w$]*)\s*(?:<[^>]*>)?\s*\([^()]*\)",
        r"\s*(?::\s*[^{;=()]+?)?\s*(?:throws\s+[\w.,\s]+)?\{\s*$",
    ))
    .expect("valid")
});

fn has_keyword_members(language: Language) -> bool {
    matches!(
        language,
        Language::Java | Language::JavaScript | Language::TypeScript | Language::CSharp
    )
}

/// Words that open a block like a method would: never a definition's name.
fn is_keyword(word: &str) -> bool {
    matches!(
        word,
        "if" | "for"
            | "while"
            | "switch"
            | "catch"
            | "match"
            | "function"
            | "return"
            | "with"
            | "synchronized"
            | "foreach"
            | "using"
            | "lock"
            | "new"
            | "else"
            | "await"
            | "throw"
            | "constructor"
    )
}

/// The name `line` defines in `language` (see [`DEFINITION`] and [`MEMBER`]).
fn definition_in(language: Language, line: &str) -> Option<String> {
    if let Some(c) = DEFINITION.captures(line) {
        return ["def", "method", "attr", "key"]
            .iter()
            .find_map(|group| c.name(group))
            .map(|m| m.as_str().to_string());
    }
    if !has_keyword_members(language) {
        return None;
    }
    let c = MEMBER.captures(line)?;
    let name = c.name("member")?.as_str();
    let opens_with_keyword = line
        .split_whitespace()
        .next()
        .is_some_and(|first| is_keyword(first.trim_end_matches(|ch: char| !ch.is_alphanumeric())));
    (!is_keyword(name) && !opens_with_keyword).then(|| name.to_string())
}

/// An identifier as a word of code.
static IDENTIFIER: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"[A-Za-z_][A-Za-z0-9_]*").expect("valid"));
/// A quoted or back-ticked name in a deprecation message: `'x' is deprecated`.
static QUOTED_NAME: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r#"[`'"](?P<name>[A-Za-z_][\w.]*)[`'"]"#).expect("valid"));
/// A deprecation marker on an added line: `@Deprecated`, `#[deprecated`, `warnings.warn(…
/// deprecated …)`, `// Deprecated:`.
static DEPRECATED: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"(?i)deprecat").expect("valid"));

/// A member read or passed: `.name` not called (a field or property: a call is a method's,
/// which `names` answers for), or `name=` after `(` or `,` (a keyword argument or parameter
/// default, not `==`).
static MEMBER_USE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"\.([A-Za-z_][A-Za-z0-9_]*)\b(\s*\()?|[(,]\s*([A-Za-z_][A-Za-z0-9_]*)\s*=[^=]")
        .expect("valid")
});

/// Members every program reads, which no feature owns: `Foo.class`, `.length`, `.prototype`.
const LANGUAGE_MEMBERS: [&str; 6] = [
    "class",
    "length",
    "prototype",
    "constructor",
    "super",
    "isEmpty",
];

/// The members `text` reads or passes (see [`MEMBER_USE`]).
fn member_uses(text: &str) -> impl Iterator<Item = &str> {
    MEMBER_USE
        .captures_iter(text)
        .filter_map(|c| match (c.get(1), c.get(2), c.get(3)) {
            (Some(member), None, _) => Some(member.as_str()),
            (None, _, Some(keyword)) => Some(keyword.as_str()),
            _ => None,
        })
}

/// The members each non-test file's removed code reads or sets (`context.resets++`,
/// `globalState.stateVersion = …`, `file_obj=None`) that its new side no longer mentions, in
/// code: the whole head file when the worktree is known, else the diff's added and context
/// lines of it. yargs #1888 removed `context.resets` and the tests that counted resets with
/// it; mobx #3764 removed `globalState.stateVersion` and the tests of its ticking.
fn removed_members(diff: &Diff, worktree: Option<&Path>) -> BTreeSet<String> {
    let mut members = BTreeSet::new();
    // A deleted file's members are its module's (see `module_of`): every name it used would
    // read as removed, `Foo.class` included (mockito #1162 deleted `ThrowsExceptionClass`).
    let changed = diff
        .files
        .iter()
        .filter(|f| !is_test_path(&f.path) && f.status != FileStatus::Deleted);
    for file in changed {
        let mut candidates: BTreeSet<&str> = BTreeSet::new();
        let mut old_tests = TestTracker::new(&file.path, file.language);
        for hunk in &file.hunks {
            old_tests.enter_hunk(hunk.section.as_deref());
            for line in &hunk.lines {
                let old_test_code = line.kind != LineKind::Added && old_tests.observe(&line.text);
                if line.kind != LineKind::Removed || old_test_code {
                    continue;
                }
                let code = crate::diff::CodeLexer::without_line_comment(file.language, &line.text);
                candidates.extend(
                    member_uses(code).filter(|m| {
                        m.len() >= 5 && !is_generic(m) && !LANGUAGE_MEMBERS.contains(m)
                    }),
                );
            }
        }
        if candidates.is_empty() {
            continue;
        }
        let head = worktree.and_then(|root| {
            worktree_file::read_at_most(root, &file.path, 4 * 1024 * 1024)
                .ok()
                .flatten()
                .and_then(|bytes| String::from_utf8(bytes).ok())
        });
        let new_side: String = match &head {
            Some(text) => text.clone(),
            None => file
                .hunks
                .iter()
                .flat_map(|h| h.lines.iter())
                .filter(|l| l.kind != LineKind::Removed)
                .map(|l| format!("{}\n", l.text))
                .collect(),
        };
        let still: HashSet<&str> = new_side
            .lines()
            .map(|l| crate::diff::CodeLexer::without_line_comment(file.language, l))
            .flat_map(|l| IDENTIFIER.find_iter(l).map(|m| m.as_str()))
            .collect();
        members.extend(
            candidates
                .into_iter()
                .filter(|m| !still.contains(m))
                .map(str::to_string),
        );
    }
    members
}

/// Names too generic to tie a test to a feature.
fn is_generic(name: &str) -> bool {
    name.len() < 4
        || name.starts_with("__")
        || matches!(
            name.to_ascii_lowercase().as_str(),
            "main"
                | "init"
                | "new"
                | "self"
                | "this"
                | "test"
                | "tests"
                | "setup"
                | "teardown"
                | "default"
                | "from"
                | "into"
                | "value"
                | "values"
                | "result"
                | "error"
                | "string"
                | "return"
                | "object"
                | "function"
                | "none"
                | "null"
                | "true"
                | "false"
        )
}

/// The words of a name, lower case: `preserve_context_on_exception` → preserve, context, …;
/// `AddCommand` → add, command.
fn words(name: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut word = String::new();
    let mut previous_lower = false;
    for c in name.chars() {
        if c == '_' || !c.is_alphanumeric() {
            out.push(std::mem::take(&mut word));
            previous_lower = false;
            continue;
        }
        if c.is_uppercase() && previous_lower {
            out.push(std::mem::take(&mut word));
        }
        previous_lower = c.is_lowercase() || c.is_ascii_digit();
        word.extend(c.to_lowercase());
    }
    out.push(word);
    out.retain(|w| w.len() >= 5 && w != "tests" && !is_generic(w));
    out
}

/// What the change took out of non-test code: names whose definitions it removed and did not
/// add back, and names its added lines deprecate.
struct RemovedFeatures {
    names: BTreeSet<String>,
    /// Members (fields, properties, object keys, keyword parameters) the change's removed
    /// non-test code used and the file no longer mentions: the state a feature kept.
    members: BTreeSet<String>,
    words: BTreeSet<String>,
    /// The names of deleted non-test files (their stem) and of their directories, lower case.
    modules: BTreeSet<String>,
    /// The directories of deleted non-test files.
    dirs: BTreeSet<String>,
}

impl RemovedFeatures {
    fn of(diff: &Diff, added: &AddedCode<'_>, worktree: Option<&Path>) -> RemovedFeatures {
        // What the added lines define, in any language that has keyword-less members: a
        // method moved between files is not removed, whatever file it went to.
        let defined_anywhere = |line: &str| definition_in(Language::TypeScript, line);
        // Read on the first removed definition: most diffs remove none outside tests.
        let still_defined: OnceCell<BTreeSet<String>> = OnceCell::new();
        let mut names = BTreeSet::new();
        for file in diff.files.iter().filter(|f| !is_test_path(&f.path)) {
            // The old side's test code (a Rust `mod tests`) is the tests, not their feature.
            let mut old_tests = TestTracker::new(&file.path, file.language);
            for hunk in &file.hunks {
                old_tests.enter_hunk(hunk.section.as_deref());
                let mut deprecated_above = 0;
                for line in &hunk.lines {
                    let text = line.text.as_str();
                    let old_test_code = line.kind != LineKind::Added && old_tests.observe(text);
                    match line.kind {
                        LineKind::Removed if !old_test_code => {
                            if let Some(name) = definition_in(file.language, text)
                                && !still_defined
                                    .get_or_init(|| {
                                        added
                                            .lines
                                            .iter()
                                            .filter_map(|l| defined_anywhere(l))
                                            .collect()
                                    })
                                    .contains(&name)
                            {
                                names.insert(name);
                            }
                        }
                        LineKind::Added if DEPRECATED.is_match(text) => {
                            names.extend(
                                QUOTED_NAME
                                    .captures_iter(text)
                                    .flat_map(|c| c["name"].rsplit('.').next().map(str::to_string)),
                            );
                            // `@Deprecated` / `#[deprecated]`: the definition follows.
                            deprecated_above = 4;
                        }
                        _ => {}
                    }
                    if line.kind != LineKind::Removed && deprecated_above > 0 {
                        if let Some(name) = definition_in(file.language, text) {
                            names.insert(name);
                            deprecated_above = 0;
                        } else {
                            deprecated_above -= 1;
                        }
                    }
                }
            }
        }
        names.retain(|n| !is_generic(n));
        let words = names.iter().flat_map(|n| words(n)).collect();
        let deleted: Vec<&str> = diff
            .files
            .iter()
            .filter(|f| f.status == FileStatus::Deleted && !is_test_path(&f.path))
            .filter(|f| {
                !matches!(
                    f.language,
                    Language::Markdown
                        | Language::Yaml
                        | Language::Toml
                        | Language::Json
                        | Language::Other
                )
            })
            .map(|f| f.path.as_str())
            .collect();
        let dirs: BTreeSet<String> = deleted
            .iter()
            .map(|p| p.rsplit_once('/').map_or("", |(dir, _)| dir).to_string())
            .collect();
        let modules = deleted
            .iter()
            .flat_map(|p| {
                let mut parts = p.rsplit('/');
                let stem = parts.next().map(|n| n.split('.').next().unwrap_or(n));
                stem.into_iter().chain(parts.next())
            })
            .map(str::to_ascii_lowercase)
            // Three letters name a format or protocol (`ini`, `hcl`): kept unless generic.
            .filter(|m| m.len() >= 3 && (m.len() == 3 || !is_generic(m)))
            .filter(|m| !matches!(m.as_str(), "new" | "lib" | "mod" | "src" | "main"))
            .collect();
        RemovedFeatures {
            names,
            members: removed_members(diff, worktree),
            words,
            modules,
            dirs,
        }
    }

    /// Whether the test is named for a module the change deleted, or its file was deleted with
    /// the source of its own directory.
    fn module_of(&self, file: &FileDiff, test: &Removed) -> bool {
        let dir = file.path.rsplit_once('/').map_or("", |(dir, _)| dir);
        (file.status == FileStatus::Deleted && self.dirs.contains(dir))
            || all_words(&test.name)
                .iter()
                .any(|w| self.modules.contains(w))
    }

    /// Whether the test names a removed feature: in its body, or by a word of its own name;
    /// or reads a member the change removed (`context.resets`, `globalState.stateVersion`).
    fn covered_by(&self, test: &Removed) -> bool {
        let reads_member = |text: &str| member_uses(text).any(|m| self.members.contains(m));
        if !self.members.is_empty()
            && (reads_member(&test.code) || test.body.iter().any(|l| reads_member(l)))
        {
            return true;
        }
        if self.names.is_empty() {
            return false;
        }
        let names_one = |text: &str| {
            IDENTIFIER
                .find_iter(text)
                .any(|m| self.names.contains(m.as_str()))
        };
        names_one(&test.code)
            || test.body.iter().any(|l| names_one(l))
            || words(&test.name).iter().any(|w| self.words.contains(w))
    }
}

/// The definition that names a test on its line in `language`, when the language has one.
fn test_definition(language: Language) -> Option<&'static Regex> {
    match language {
        Language::Rust => Some(&RUST_FN),
        Language::Java => Some(&JVM_METHOD),
        Language::Python => Some(&PYTHON_DEF),
        Language::Go => Some(&GO_FUNC),
        Language::JavaScript | Language::TypeScript => Some(&JS_CALL),
        _ => None,
    }
}

/// The tests the head version of `file` defines (none when it cannot be read as text).
fn head_file_tests(root: &Path, file: &FileDiff) -> HashSet<String> {
    let Ok(text) = worktree_file::read(root, &file.path) else {
        return HashSet::new();
    };
    let Ok(text) = String::from_utf8(text) else {
        return HashSet::new();
    };
    let lines: Vec<&str> = text.lines().collect();
    defined_tests(file.language, &lines)
        .into_iter()
        .map(str::to_string)
        .collect()
}

/// Whether a test named `name` is defined in any test file (or, for Rust, any file) of the
/// language of `file` at the head. The names of a language's tests are read once per scan.
fn defined_in_language(root: &Path, file: &FileDiff, name: &str, cache: &HeadTests) -> bool {
    cache
        .borrow_mut()
        .entry(file.language)
        .or_insert_with(|| head_test_names(root, file.language))
        .contains(name)
}

fn head_test_names(root: &Path, language: Language) -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    // Rust unit tests live in any file; other languages keep them in test files.
    let keep = |relative: &str| language == Language::Rust || is_test_path(relative);
    super::head_files::each(root, language, keep, |_, text| {
        let lines: Vec<(&str, Option<u32>, bool)> =
            text.lines().map(|l| (l, None, false)).collect();
        for at in 0..lines.len() {
            if let Some((name, _)) = test_at(language, &lines, at) {
                names.insert(name);
            }
        }
    });
    names
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Whether `line` defines the test `name`, one line at a time: how the check answered
    /// before it read each language's definitions once.
    fn names_test(language: Language, line: &str, name: &str) -> bool {
        test_definition(language).is_some_and(|re| {
            re.captures(line)
                .is_some_and(|c| captured_name(&c) == Some(name))
        })
    }

    const LANGUAGES: [Language; 7] = [
        Language::Rust,
        Language::Java,
        Language::Python,
        Language::Go,
        Language::JavaScript,
        Language::TypeScript,
        Language::Yaml,
    ];

    /// Lines that define, call, mention or nearly define tests in every language, from a few
    /// names, so the names a question asks about are often there in some form.
    fn line() -> impl Strategy<Value = String> {
        let name = prop::sample::select(vec![
            "test_a", "test_ab", "TestA", "TestAb", "a", "it works", "test", "works",
        ]);
        let form = prop::sample::select(vec![
            "fn {}() {{",
            "    pub async fn {}(x: u8) {{",
            "    let {} = fn_call();",
            "    // fn {}()",
            "  @Test void {}() {{",
            "    public void {}() throws Exception {{",
            "    {}(x);",
            "    def {}(self):",
            "async def {}():",
            "func {}(t *testing.T) {{",
            "func {}(b *testing.B) {{",
            "  it('{}', () => {{",
            "  test(\"{}\", async () => {{",
            "  it(`{}`, function () {{",
            "  describe('{}', () => {{",
            "{}",
        ]);
        (form, name).prop_map(|(form, name)| form.replace("{}", name))
    }

    proptest! {
        /// The names read once per language answer every question as the scan over every
        /// line did.
        #[test]
        fn defines_answers_as_the_line_by_line_scan(
            lines in prop::collection::vec(line(), 0..12),
            question in prop::sample::select(vec![
                "test_a", "test_ab", "TestA", "TestAb", "a", "it works", "test", "works", "",
                "test_", "fn",
            ]),
        ) {
            let diff = Diff::default();
            let mut added = AddedCode::of(&diff);
            added.lines = lines.iter().map(String::as_str).collect();
            for language in LANGUAGES {
                let scanned = lines
                    .iter()
                    .any(|line| line.contains(question) && names_test(language, line, question));
                prop_assert_eq!(added.defines(language, question), scanned, "{:?}", language);
            }
        }
    }

    #[test]
    fn a_test_name_says_its_subject_in_words() {
        assert_eq!(
            subject_words("test_xmlattr_key_with_spaces"),
            ["xmlattr", "key", "with", "spaces"]
        );
        assert_eq!(subject_words("opensWhenAsked"), ["opens", "when", "asked"]);
        assert_eq!(subject_words("TestParseURL"), ["parse", "url"]);
        assert_eq!(
            subject_words("it should reject an empty name"),
            ["reject", "empty", "name"]
        );
        assert!(subject_words("test_a").is_empty());
    }
}
