//! The one notion of test code, for the rules, the cohorts, the testGap axis and the API
//! contract: by path for every language (test directories, test file names, fixtures,
//! snapshots, UI-test folders), and for Rust also by line, since unit tests live beside the
//! code: a `#[cfg(test)]` item or `mod tests` block and a `#[test]` function are test code from
//! their attribute to their closing brace.
//!
//! [`TestTracker`] reads lines in order. Fed a whole file ([`test_lines`]) it is exact; fed a
//! diff's hunks it knows only what the hunks show, so a test module whose end it did not see
//! is taken to run to the end of the file (where Rust test modules live).

use std::sync::LazyLock;

use regex::Regex;

use super::Language;
use super::code_lines::{CodeLexer, LineFacts, LineStart};

/// Directories whose files are tests or test data, wherever they sit in the tree.
const TEST_DIRS: &[&str] = &[
    "tests",
    // Swift packages' test targets.
    "Tests",
    // Lua's busted.
    "spec",
    "test",
    "__tests__",
    "__test__",
    "__mocks__",
    "testdata",
    "test_data",
    "test-data",
    "testing",
    "fixtures",
    "__fixtures__",
    "test-fixtures",
    "test_fixtures",
    "testFixtures",
    "__snapshots__",
    "snapshots",
    "ui-tests",
    "ui_tests",
    "e2e",
    "androidTest",
    // Fuzz harnesses (cargo-fuzz's `fuzz/fuzz_targets/`, OSS-Fuzz's `fuzzing/`): programs that
    // feed the library generated input to find its crashes, built by the fuzzer, never shipped.
    "fuzz",
    "fuzz_targets",
    "fuzzing",
];

/// Extensions of source files that can be tests by their name alone.
const CODE_EXTENSIONS: &[&str] = &[
    "rs", "go", "py", "pyi", "js", "jsx", "mjs", "cjs", "ts", "tsx", "mts", "cts", "java", "kt",
    "kts", "scala", "rb", "c", "cc", "cpp", "h", "hpp", "cs", "swift", "php", "ex", "exs", "sh",
    "dart", "lua", "hs", "m", "mm", "zig", "ml", "mli",
];

/// Whether `path` is a test, test helper, fixture or snapshot by the conventions of the
/// common languages: `tests/`, `test/`, `__tests__/`, `testdata/`, `fixtures/`,
/// `__snapshots__/`, `ui-tests/` directories; `*_test.go`, `test_*.py`, `*_test.py`,
/// `conftest.py`, `*.test.ts`, `*.spec.js`, `*_spec.rb`, `*Test.java`, `*Tests.kt`, `*IT.java`,
/// Rust's `tests.rs` and `*_tests.rs` modules; `*.snap` snapshots.
/// A .NET test project's folder, named after the project (`RestSharp.Tests`,
/// `Api.UnitTests`, `Polly.Specs`, `RestSharp.Tests.Integrated`): a dotted name with a test
/// part after its first segment.
fn dotnet_test_project(dir: &str) -> bool {
    let mut parts = dir.split('.');
    parts.next().is_some_and(|first| !first.is_empty())
        && parts.any(|part| {
            matches!(
                part,
                "Tests" | "Test" | "UnitTests" | "IntegrationTests" | "FunctionalTests" | "Specs"
            )
        })
}

pub fn is_test_path(path: &str) -> bool {
    // Called per file and per pair of files by the cohort grouping: no allocation. A
    // backslash separates directories as a slash does.
    let separator = |c: char| c == '/' || c == '\\';
    let (dirs, file) = match path.rfind(separator) {
        Some(at) => (Some(&path[..at]), &path[at + 1..]),
        None => (None, path),
    };
    if dirs.is_some_and(|dirs| {
        dirs.split(separator)
            .any(|dir| TEST_DIRS.contains(&dir) || dotnet_test_project(dir))
    }) {
        return true;
    }
    if file == "conftest.py" || file.ends_with(".snap") || file.ends_with(".snapshot") {
        return true;
    }
    let Some((whole_stem, extension)) = file.rsplit_once('.') else {
        return false;
    };
    if !CODE_EXTENSIONS.contains(&extension) {
        return false;
    }
    // `app.test.ts`, `app.spec.js`, `app.test-d.ts`: a `test`/`spec` part between dots.
    let mut dotted = file.split('.');
    let stem = dotted.next().unwrap_or(file);
    if dotted.any(|part| matches!(part, "test" | "spec" | "tests" | "test-d")) {
        return true;
    }
    // The go tool reads `context_1.18_test.go` as a test by its whole name, dots and all.
    if whole_stem.ends_with("_test") {
        return true;
    }
    let bytes = stem.as_bytes();
    let starts = |prefix: &str| {
        bytes.len() >= prefix.len() && bytes[..prefix.len()].eq_ignore_ascii_case(prefix.as_bytes())
    };
    let ends = |suffix: &str| {
        bytes.len() >= suffix.len()
            && bytes[bytes.len() - suffix.len()..].eq_ignore_ascii_case(suffix.as_bytes())
    };
    stem.eq_ignore_ascii_case("test")
        || stem.eq_ignore_ascii_case("tests")
        || starts("test_")
        || ends("_test")
        || ends("_tests")
        || ends("_spec")
        || stem.ends_with("Test")
        || stem.ends_with("Tests")
        || stem.ends_with("TestCase")
        || (extension == "java" && stem.ends_with("IT"))
        // ScalaTest and hspec name a spec after its subject.
        || (matches!(extension, "scala" | "hs") && stem.ends_with("Spec"))
}

/// `mod tests {`, `pub(crate) mod test {`: a test module by its name.
static TEST_MODULE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^\s*(pub(\([\w:]+\))?\s+)?mod\s+tests?\b").expect("valid regex"));

/// `#[cfg(test)]`, `#[cfg(all(test, feature = "x"))]` (not `#[cfg(not(test))]`).
static CFG_TEST: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^\s*#\[cfg\(.*\btest\b").expect("valid regex"));

/// `#[test]`, `#[tokio::test]`, `#[rstest]`, `#[test_case(..)]`, `#[proptest]`, `#[quickcheck]`.
static TEST_FUNCTION: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^\s*#\[(\w+::)*(test|rstest|test_case|proptest|quickcheck)\b")
        .expect("valid regex")
});

/// `test_parse! {`, `tests! {`, `bench_tests! {`: a macro call at the start of a line, named as
/// a test, whose braces hold the tests it expands to (http's `src/uri.rs` writes its parser
/// tests as `test_parse! { … }` blocks outside any `mod tests`).
static TEST_MACRO_CALL: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^\s*(\w+::)*(tests?|tests?_\w+|\w+_tests?)!\s*\{").expect("valid regex")
});

/// Whether `line` starts a Rust test item (its attribute, a `mod tests` header, or a test
/// macro's block).
fn starts_test_item(line: &str) -> bool {
    // Every marker contains "test"; most lines do not, and skip the regexes.
    line.contains("test")
        && ((CFG_TEST.is_match(line) && !line.contains("not(test"))
            || TEST_FUNCTION.is_match(line)
            || TEST_MODULE.is_match(line)
            || TEST_MACRO_CALL.is_match(line))
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Region {
    Outside,
    /// A test attribute was read; the item's `{` (or a `;`) has not come yet.
    Armed,
    /// Inside a test item until the brace depth falls to `floor` (`i32::MIN`: until the end
    /// of the file, when its start was not seen).
    Inside {
        floor: i32,
    },
}

/// Walks one file's lines in order (whole, or hunk by hunk), answering "is this line test
/// code?".
#[derive(Debug, Clone)]
pub struct TestTracker {
    by_path: bool,
    rust: bool,
    lexer: CodeLexer,
    depth: i32,
    region: Region,
}

impl TestTracker {
    pub fn new(path: &str, language: Language) -> TestTracker {
        TestTracker {
            by_path: is_test_path(path),
            rust: language == Language::Rust,
            lexer: CodeLexer::new(language),
            depth: 0,
            region: Region::Outside,
        }
    }

    /// Starts a new hunk: lines in between are unseen. `section` is the text git puts after
    /// the `@@` (the enclosing item), which names a test module when the hunk sits in one.
    pub fn enter_hunk(&mut self, section: Option<&str>) {
        self.lexer.reset();
        self.depth = 0;
        let in_test_module =
            section.is_some_and(|s| TEST_MODULE.is_match(s) || TEST_MACRO_CALL.is_match(s));
        self.region = match self.region {
            // A test item that was still open: its end was not seen, so the rest of the file.
            Region::Inside { .. } => Region::Inside { floor: i32::MIN },
            _ if in_test_module => Region::Inside { floor: i32::MIN },
            _ => Region::Outside,
        };
    }

    /// Reads the next line of the new side (context or added); true when it is test code.
    pub fn observe(&mut self, text: &str) -> bool {
        if !self.rust {
            return self.by_path;
        }
        let facts = self.lexer.line(text);
        self.advance(text, facts)
    }

    /// [`observe`](Self::observe) for a line the caller's lexer has just read: one of the
    /// same language, fed the same lines since the tracker was made, so in the state the
    /// tracker's own lexer would be in.
    fn observe_lexed(&mut self, text: &str, facts: LineFacts) -> bool {
        if !self.rust {
            return self.by_path;
        }
        self.advance(text, facts)
    }

    fn advance(&mut self, text: &str, facts: LineFacts) -> bool {
        let before = self.depth;
        self.depth += facts.brace_delta;
        if self.region == Region::Outside && facts.has_code && starts_test_item(text) {
            self.region = Region::Armed;
        }
        let test = self.region != Region::Outside;
        match self.region {
            Region::Armed => match (facts.first_open, facts.first_semicolon) {
                // `#[cfg(test)] use x;`, `mod tests;`: the item ended on this line.
                (None, Some(_)) => self.region = Region::Outside,
                (Some(open), Some(semi)) if semi < open => self.region = Region::Outside,
                (Some(_), _) if self.depth <= before => self.region = Region::Outside,
                (Some(_), _) => self.region = Region::Inside { floor: before },
                (None, None) => {}
            },
            Region::Inside { floor } if self.depth <= floor => self.region = Region::Outside,
            _ => {}
        }
        self.by_path || test
    }

    /// Whether everything in this file is test code by its path.
    pub fn by_path(&self) -> bool {
        self.by_path
    }
}

/// For each line of a whole file, whether it is test code.
pub fn test_lines(path: &str, language: Language, text: &str) -> Vec<bool> {
    let mut tracker = TestTracker::new(path, language);
    text.lines().map(|line| tracker.observe(line)).collect()
}

/// What one line of a whole file is: test code or not ([`test_lines`]), whether it holds
/// code, and where the lexer stood when it began ([`code_lines`](super::code_lines)).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FileLine {
    pub test: bool,
    pub code: bool,
    pub start: LineStart,
}

/// [`test_lines`] and [`code_lines`](super::code_lines) of the first lines of a whole file,
/// read by one lexer (a Rust file was lexed twice, once for each).
pub fn file_lines(path: &str, language: Language, lines: &[&str]) -> Vec<FileLine> {
    let mut tracker = TestTracker::new(path, language);
    let mut lexer = CodeLexer::new(language);
    lines
        .iter()
        .map(|&line| {
            let start = lexer.start();
            let facts = lexer.line(line);
            FileLine {
                test: tracker.observe_lexed(line, facts),
                code: facts.has_code,
                start,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `is_test_path` as it was written before it stopped allocating: the answers must not
    /// change.
    fn allocating_is_test_path(path: &str) -> bool {
        let path = path.replace('\\', "/");
        let mut parts: Vec<&str> = path.split('/').collect();
        let file = parts.pop().unwrap_or_default();
        if parts.iter().any(|dir| TEST_DIRS.contains(dir)) {
            return true;
        }
        if file == "conftest.py" || file.ends_with(".snap") || file.ends_with(".snapshot") {
            return true;
        }
        let Some((whole_stem, extension)) = file.rsplit_once('.') else {
            return false;
        };
        if !CODE_EXTENSIONS.contains(&extension) {
            return false;
        }
        let mut dotted = file.split('.');
        let stem = dotted.next().unwrap_or(file);
        if dotted.any(|part| matches!(part, "test" | "spec" | "tests" | "test-d")) {
            return true;
        }
        if whole_stem.ends_with("_test") {
            return true;
        }
        let lower = stem.to_ascii_lowercase();
        lower == "test"
            || lower == "tests"
            || lower.starts_with("test_")
            || lower.ends_with("_test")
            || lower.ends_with("_tests")
            || lower.ends_with("_spec")
            || stem.ends_with("Test")
            || stem.ends_with("Tests")
            || stem.ends_with("TestCase")
            || (extension == "java" && stem.ends_with("IT"))
        // ScalaTest and hspec name a spec after its subject.
        || (matches!(extension, "scala" | "hs") && stem.ends_with("Spec"))
    }

    // RestSharp's `RestSharp.Tests/SampleData/bearertoken.txt`: a .NET solution keeps each
    // test project in a folder named after it, `Name.Tests`; a project named `Name.Testing`
    // or `Tests.Name` is not one by that rule.
    #[test]
    fn a_dotnet_test_projects_folder_is_test_code() {
        for path in [
            "RestSharp.Tests/SampleData/bearertoken.txt",
            "test/RestSharp.Tests.Integrated/Auth.cs",
            "src/Humanizer.Tests/Localisation/fr.cs",
            "Polly.Specs/Retry.cs",
            "Api.UnitTests/Client.cs",
            "Api.IntegrationTests/Setup.cs",
        ] {
            assert!(is_test_path(path), "{path}");
        }
        for path in [
            "src/Api.Testing/Assert.cs",
            "Tests.Name/x.cs",
            "src/Contests/Entry.cs",
        ] {
            assert!(!is_test_path(path), "{path}");
        }
    }

    #[test]
    fn test_paths_answer_as_the_allocating_version_did() {
        let dirs = [
            "",
            "/",
            "src/",
            "tests/",
            "src/tests/",
            "Tests/",
            "testing/",
            "a\\test\\",
            "a\\b/",
            "e2e/x/",
            "latest/",
            "test/",
            "__snapshots__/",
            "src\\",
            "/tests/",
            "ü/",
            "tests",
            "x//",
        ];
        let stems = [
            "",
            "test",
            "TEST",
            "Tests",
            "tests",
            "test_x",
            "TEST_x",
            "Test_",
            "x_test",
            "x_TEST",
            "x_tests",
            "x_Tests",
            "x_spec",
            "X_SPEC",
            "FooTest",
            "Footest",
            "FooTests",
            "FooTestCase",
            "FooIT",
            "fooit",
            "contest",
            "attest",
            "latest",
            "_test",
            "test_",
            "ü_test",
            "tést",
            "conftest",
            "context_1.18_test",
            "app.test",
            "app.spec",
            "app.test-d",
            "app.tests",
            "a.b",
            "mod",
            "x.snap",
        ];
        let extensions = [
            "",
            ".rs",
            ".go",
            ".py",
            ".ts",
            ".java",
            ".kt",
            ".md",
            ".json",
            ".snap",
            ".snapshot",
            ".RS",
            ".rs.bak",
            ".",
        ];
        let mut tests = 0;
        let mut checked = 0;
        for dir in dirs {
            for stem in stems {
                for extension in extensions {
                    let path = format!("{dir}{stem}{extension}");
                    let answer = is_test_path(&path);
                    assert_eq!(answer, allocating_is_test_path(&path), "{path:?}");
                    tests += usize::from(answer);
                    checked += 1;
                }
            }
        }
        for path in [
            "conftest.py",
            "a/conftest.py",
            "a\\conftest.py",
            "conftest.pyi",
        ] {
            assert_eq!(
                is_test_path(path),
                allocating_is_test_path(path),
                "{path:?}"
            );
        }
        // Both answers occur often: the comparison is not of two constant functions.
        assert!(
            tests > checked / 4 && tests < checked * 3 / 4,
            "{tests} of {checked}"
        );
    }

    #[test]
    fn test_paths_of_every_language() {
        for path in [
            "tests/it.rs",
            "tests/ui/unimplemented.rs",
            "crates/x/ui-tests/a.rs",
            "src/diff/tests.rs",
            "src/diff/parse_tests.rs",
            "src/diff/parse_test.rs",
            "pkg/parse_test.go",
            "context_1.18_test.go",
            "pkg/testdata/input.go",
            "app/test_models.py",
            "app/models_test.py",
            "app/conftest.py",
            "web/app.test.ts",
            "web/app.spec.js",
            "web/app.test-d.ts",
            "web/__tests__/x.js",
            "web/__snapshots__/x.js.snap",
            "src/test/java/a/BoxTest.java",
            "src/main/java/a/BoxIT.java",
            "app/src/androidTest/Main.kt",
            "lib/box_spec.rb",
            "spec/fixtures/data.json",
            "src/snapshots/parse__empty.snap",
        ] {
            assert!(is_test_path(path), "{path}");
        }
        for path in [
            "src/lib.rs",
            "src/testing.md",
            "testing.md",
            "pkg/parse.go",
            "app/models.py",
            "app/contest.py",
            "Box.java",
            "src/attestation.rs",
            "src/latest.ts",
            "docs/test.md",
        ] {
            assert!(!is_test_path(path), "{path}");
        }
    }

    #[test]
    fn fuzz_harnesses_are_test_code() {
        for path in [
            "fuzz/fuzz_targets/parse.rs",
            "crates/url/fuzz/fuzz_targets/roundtrip.rs",
            "fuzzing/fuzz_decode.py",
            "fuzz/src/lib.rs",
        ] {
            assert!(is_test_path(path), "{path}");
        }
        for path in [
            "src/fuzzy.rs",
            "src/fuzzy/match.rs",
            "fuzz.rs",
            "src/defuzz/a.go",
        ] {
            assert!(!is_test_path(path), "{path}");
        }
    }

    fn test_line_numbers(text: &str) -> Vec<usize> {
        test_lines("src/lib.rs", Language::Rust, text)
            .into_iter()
            .enumerate()
            .filter(|(_, test)| *test)
            .map(|(i, _)| i + 1)
            .collect()
    }

    #[test]
    fn rust_test_items_run_from_attribute_to_closing_brace() {
        let text = "\
fn real() { x.unwrap(); }
#[cfg(test)]
mod tests {
    fn helper() -> &'static str { \"}\" }
    #[test]
    fn t() {
        todo!()
    }
}
fn after() {}
#[test]
fn one_liner() { todo!() }
fn after_again() {}
#[cfg(not(test))]
fn production() {}
#[cfg(test)]
use std::fmt;
fn last() {}
";
        assert_eq!(
            test_line_numbers(text),
            vec![2, 3, 4, 5, 6, 7, 8, 9, 11, 12, 16, 17]
        );
    }

    #[test]
    fn a_test_macros_block_is_test_code() {
        // http's src/uri.rs: parser tests written as `test_parse! { … }` blocks.
        let text = "\
fn real() { x.unwrap(); }
test_parse! {
    test_uri_parse_authority,
    \"http://127.0.0.1:61761/chunks\",
    [],
    authority_part = Some(&\"127.0.0.1:61761\".parse().unwrap()),
}
fn after() { y.unwrap(); }
latest! {
    z.unwrap();
}
";
        assert_eq!(test_line_numbers(text), vec![2, 3, 4, 5, 6, 7]);
        // A hunk inside such a block, named by git's section line.
        let mut tracker = TestTracker::new("src/uri.rs", Language::Rust);
        tracker.enter_hunk(Some("test_parse! {"));
        assert!(tracker.observe("    authority_part = Some(&\"localhost\".parse().unwrap()),"));
    }

    #[test]
    fn a_test_module_seen_in_one_hunk_runs_on_through_later_hunks() {
        let mut tracker = TestTracker::new("src/lib.rs", Language::Rust);
        tracker.enter_hunk(None);
        assert!(!tracker.observe("fn a() {}"));
        assert!(tracker.observe("mod tests {"));
        assert!(tracker.observe("    fn b() {}"));
        tracker.enter_hunk(Some("fn c() {"));
        assert!(tracker.observe("    }"));
        assert!(tracker.observe("fn d() {}"));
        let mut fresh = TestTracker::new("src/lib.rs", Language::Rust);
        fresh.enter_hunk(Some("mod tests {"));
        assert!(fresh.observe("    x.unwrap();"));
        fresh.enter_hunk(Some("impl Parser {"));
        assert!(
            fresh.observe("    x.unwrap();"),
            "the module's end was not seen"
        );
    }

    #[test]
    fn other_languages_are_test_code_by_path_only() {
        assert_eq!(
            test_lines(
                "pkg/a_test.go",
                Language::Go,
                "func TestA(t *testing.T) {}\n"
            ),
            vec![true]
        );
        assert_eq!(
            test_lines("pkg/a.go", Language::Go, "// #[test]\nfunc A() {}\n"),
            vec![false, false]
        );
    }

    proptest::proptest! {
        /// One lexer for both answers gives each line what the two passes gave it, on any
        /// prefix of the file.
        #[test]
        fn file_lines_are_test_lines_and_code_lines_of_one_pass(
            text in "(#\\[cfg\\(test\\)\\]|#\\[test\\]|mod tests |fn |\"|'|`|r#\"|\"#|/\\*|\\*/|//|#|\\{|\\}|;|\"\"\"|x|a_test|\\\\|\n| ){0,60}",
            language in proptest::sample::select(vec![
                Language::Rust, Language::Python, Language::Go, Language::JavaScript,
                Language::Java, Language::Shell, Language::Markdown,
            ]),
            path in proptest::sample::select(vec!["src/lib.rs", "tests/a.rs", "a_test.go"]),
            limit in 0usize..80,
        ) {
            let tests = test_lines(path, language, &text);
            let code = super::super::code_lines(&text, language);
            let expected: Vec<FileLine> = tests
                .iter()
                .zip(&code)
                .take(limit)
                .map(|(&test, &(code, start))| FileLine { test, code, start })
                .collect();
            let lines: Vec<&str> = text.lines().take(limit).collect();
            proptest::prop_assert_eq!(file_lines(path, language, &lines), expected);
        }
    }
}
