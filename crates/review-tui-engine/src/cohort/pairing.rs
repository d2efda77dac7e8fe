//! Which changed code file a changed test file tests, by the naming conventions of each
//! language: `foo_test.go` ↔ `foo.go`, `test_x.py` ↔ `x.py`, `FooTest.java` ↔ `Foo.java`,
//! `x.test.ts` ↔ `x.ts`, `foo_tests.rs` or `tests/foo.rs` ↔ `foo.rs`, `x/tests.rs` ↔ `x.rs`.

use std::collections::BTreeMap;

use super::paths::language_family;
use crate::diff::is_test_path;

/// The file stem (before the first dot) and the directory of `path`.
fn split(path: &str) -> (&str, &str) {
    let (dir, file) = path.rsplit_once('/').unwrap_or(("", path));
    (dir, file.split('.').next().unwrap_or(file))
}

/// The stem of the code file `test` is named after, if its name says.
pub(super) fn tested_stem(test: &str) -> Option<String> {
    let (dir, stem) = split(test);
    let extension = test.rsplit_once('.').map_or("", |(_, e)| e);
    let file = test.rsplit('/').next().unwrap_or(test);
    // `x.test.ts`, `x.spec.js`: the part before the marker.
    if file
        .split('.')
        .skip(1)
        .any(|p| matches!(p, "test" | "spec"))
    {
        return Some(stem.to_string());
    }
    for suffix in [
        "_test", "_tests", "_spec", "Tests", "Test", "IT", "TestCase", "Spec",
    ] {
        if let Some(code) = stem.strip_suffix(suffix)
            && !code.is_empty()
        {
            return Some(code.to_string());
        }
    }
    for prefix in ["test_", "Test"] {
        if let Some(code) = stem.strip_prefix(prefix)
            && !code.is_empty()
        {
            return Some(code.to_string());
        }
    }
    // Rust: `x/tests.rs` tests the module `x`.
    if extension == "rs" && matches!(stem, "tests" | "test") {
        return dir
            .rsplit('/')
            .next()
            .filter(|d| !d.is_empty())
            .map(str::to_string);
    }
    // A file in a test directory without a marker is named after what it tests, in every
    // language: `tests/foo.rs` the item `foo`, ky's `test/hooks.ts` `source/types/hooks.ts` —
    // unless its name is a module's or a helper's (`index`, `helpers`, `conftest`).
    (is_test_path(test) && !GENERIC_STEMS.contains(&stem)).then(|| stem.to_string())
}

/// File stems that name a module's entry or a test helper, not the code a test is about.
const GENERIC_STEMS: &[&str] = &[
    "index",
    "mod",
    "__init__",
    "lib",
    "main",
    "helpers",
    "helper",
    "utils",
    "util",
    "common",
    "support",
    "setup",
    "fixtures",
    "conftest",
    "testutil",
    "testutils",
    "test_utils",
];

/// The code file among `code` that `test` is named after: same stem and extension family,
/// the nearest by directory. A Python module's leading underscore is private-module spelling
/// (`test_auth.py` tests `_auth.py`). When no stem matches, a test named after a module path
/// (`io_chain.rs` tests `io/util/chain.rs`, `net_lookup_host.rs` tests `net/lookup_host.rs`,
/// `stream_fuse.rs` tests `stream_ext/fuse.rs`) finds the file by its last words under a
/// directory named by its first ones. `None` when no name matches.
#[cfg(test)]
pub(super) fn code_of<'a>(test: &str, code: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let stem = tested_stem(test)?;
    let candidates: Vec<&str> = code
        .into_iter()
        .filter(|path| !is_test_path(path) && language_family(path) == language_family(test))
        .collect();
    named_after(test, &stem, &candidates)
}

/// The code files a change's tests may be named after, sorted out once for all its tests:
/// those that are not tests themselves, by language family.
pub(super) struct CodeFiles<'a> {
    by_family: BTreeMap<&'a str, Vec<&'a str>>,
}

impl<'a> CodeFiles<'a> {
    pub(super) fn new(code: impl IntoIterator<Item = &'a str>) -> Self {
        let mut by_family: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
        for path in code {
            if !is_test_path(path) {
                by_family
                    .entry(language_family(path))
                    .or_default()
                    .push(path);
            }
        }
        CodeFiles { by_family }
    }

    /// What `code_of(test, code)` answers: the code file `test` is named after.
    pub(super) fn tested_by(&self, test: &str) -> Option<&'a str> {
        let stem = tested_stem(test)?;
        let family = language_family(test);
        if let Some(found) = self
            .by_family
            .get(family)
            .and_then(|candidates| named_after(test, &stem, candidates))
        {
            return Some(found);
        }
        // A binding: a Python test of a PyO3 module (`tests/test_tokenizer.py` tests
        // `src/tokenizer.rs`), a JS test of a native addon. Only the exact stem, and only a
        // distinctive one: `tests/test_id.py` says nothing about `src/id.rs`.
        if !distinctive_across_languages(&stem) {
            return None;
        }
        let others: Vec<&'a str> = self
            .by_family
            .iter()
            .filter(|(f, _)| **f != family)
            .flat_map(|(_, paths)| paths.iter().copied())
            .filter(|path| {
                split(path)
                    .1
                    .trim_start_matches('_')
                    .eq_ignore_ascii_case(&stem)
            })
            .collect();
        match others.as_slice() {
            [only] => Some(only),
            _ => None,
        }
    }
}

/// A name specific enough to be the same thing in two languages: a compound (`load_index`,
/// `ReviewNode`) or a long word, never a generic one (`begin`, `id`, `utils`).
pub(super) fn distinctive_across_languages(name: &str) -> bool {
    let name = name.trim_start_matches('_');
    let compound = name.contains('_') || name.chars().skip(1).any(|c| c.is_ascii_uppercase());
    !GENERIC_STEMS.contains(&name)
        && !super::stoplist::is_common(name)
        && (name.len() >= 8 || (compound && name.len() >= 6))
}

/// The nearest of `candidates` (code files of `test`'s language family) named after `stem`,
/// `test`'s tested stem.
fn named_after<'a>(test: &str, stem: &str, candidates: &[&'a str]) -> Option<&'a str> {
    let (test_dir, _) = split(test);
    let nearest = |matching: &dyn Fn(&str) -> bool| {
        candidates
            .iter()
            .copied()
            .filter(|path| matching(path))
            .max_by_key(|path| {
                let (dir, _) = split(path);
                let shared = dir
                    .split('/')
                    .zip(test_dir.split('/'))
                    .take_while(|(a, b)| a == b)
                    .count();
                let depth = dir.split('/').filter(|d| !d.is_empty()).count();
                (shared, std::cmp::Reverse(depth), std::cmp::Reverse(*path))
            })
    };
    let named = |path: &str, stem: &str| {
        let (dir, code_stem) = split(path);
        code_stem.trim_start_matches('_').eq_ignore_ascii_case(stem)
            || (matches!(code_stem, "mod" | "__init__" | "index")
                && dir.rsplit('/').next() == Some(stem))
    };
    if let Some(found) = nearest(&|path| named(path, stem)) {
        return Some(found);
    }
    let words: Vec<&str> = stem.split('_').filter(|w| !w.is_empty()).collect();
    (1..words.len()).find_map(|k| {
        let (dirs, rest) = words.split_at(k);
        let rest = rest.join("_");
        nearest(&|path| {
            let (dir, _) = split(path);
            named(path, &rest)
                && dirs.iter().all(|word| {
                    dir.split('/').any(|d| {
                        d == *word
                            || d.strip_prefix(word).is_some_and(|r| r.starts_with('_'))
                            || d.strip_suffix(word).is_some_and(|r| r.ends_with('-'))
                    })
                })
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_new_languages_pair_by_their_own_conventions() {
        let code = [
            "Sources/ArgumentParser/Parsing/Parser.swift",
            "lib/src/client.dart",
            "src/main/scala/a/Router.scala",
            "lib/app/router.ex",
            "lua/plugin/config.lua",
            "src/Data/Parser.hs",
            "Classes/Parser.m",
            "lib/parser.ml",
        ];
        let code = || code.iter().copied();
        for (test, expected) in [
            (
                "Tests/ArgumentParserUnitTests/ParserTests.swift",
                "Sources/ArgumentParser/Parsing/Parser.swift",
            ),
            ("test/client_test.dart", "lib/src/client.dart"),
            (
                "src/test/scala/a/RouterSpec.scala",
                "src/main/scala/a/Router.scala",
            ),
            ("test/app/router_test.exs", "lib/app/router.ex"),
            ("spec/config_spec.lua", "lua/plugin/config.lua"),
            ("test/Data/ParserSpec.hs", "src/Data/Parser.hs"),
            ("Tests/ParserTests.m", "Classes/Parser.m"),
            ("test/test_parser.ml", "lib/parser.ml"),
        ] {
            assert!(is_test_path(test), "{test}");
            assert_eq!(code_of(test, code()), Some(expected), "{test}");
        }
    }

    #[test]
    fn a_binding_test_pairs_by_name_across_languages_but_a_generic_name_does_not() {
        let code = CodeFiles::new([
            "src/tokenizer.rs",
            "src/id.rs",
            "src/begin.rs",
            "python/pkg/__init__.py",
        ]);
        assert_eq!(
            code.tested_by("tests/test_tokenizer.py"),
            Some("src/tokenizer.rs")
        );
        assert_eq!(code.tested_by("tests/test_id.py"), None);
        assert_eq!(code.tested_by("tests/test_begin.py"), None);
        // A same-language file of that name wins.
        let both = CodeFiles::new(["src/tokenizer.rs", "python/pkg/tokenizer.py"]);
        assert_eq!(
            both.tested_by("tests/test_tokenizer.py"),
            Some("python/pkg/tokenizer.py")
        );
        assert!(distinctive_across_languages("load_index"));
        assert!(!distinctive_across_languages("begin"));
        assert!(!distinctive_across_languages("id"));
    }

    #[test]
    fn tests_find_the_code_they_are_named_after() {
        let code = [
            "pkg/parse.go",
            "pkg/other/parse.go",
            "app/models.py",
            "src/main/java/a/Box.java",
            "web/cart.ts",
            "src/diff/mod.rs",
            "src/store.rs",
            "src/lib.rs",
            "httpx/_auth.py",
            "tokio/src/io/util/chain.rs",
            "tokio/src/net/lookup_host.rs",
            "tokio/src/other.rs",
            "tokio-stream/src/stream_ext/fuse.rs",
            "source/types/hooks.ts",
            "source/index.ts",
            "src/support.rs",
        ];
        let cases = [
            ("pkg/parse_test.go", Some("pkg/parse.go")),
            ("tests/test_models.py", Some("app/models.py")),
            ("app/models_test.py", Some("app/models.py")),
            (
                "src/test/java/a/BoxTest.java",
                Some("src/main/java/a/Box.java"),
            ),
            ("web/__tests__/cart.test.ts", Some("web/cart.ts")),
            ("web/cart.spec.js", Some("web/cart.ts")),
            ("src/diff/tests.rs", Some("src/diff/mod.rs")),
            ("tests/store.rs", Some("src/store.rs")),
            ("src/store_tests.rs", Some("src/store.rs")),
            ("tests/unrelated.rs", None),
            ("test/hooks.ts", Some("source/types/hooks.ts")),
            ("test/helpers/index.ts", None),
            ("tests/support/mod.rs", None),
            ("tests/test_auth.py", Some("httpx/_auth.py")),
            (
                "tokio/tests/io_chain.rs",
                Some("tokio/src/io/util/chain.rs"),
            ),
            (
                "tokio/tests/net_lookup_host.rs",
                Some("tokio/src/net/lookup_host.rs"),
            ),
            (
                "tokio-stream/tests/stream_fuse.rs",
                Some("tokio-stream/src/stream_ext/fuse.rs"),
            ),
            ("tokio/tests/io_other.rs", None),
            ("pkg/nothing_test.go", None),
        ];
        let sorted = CodeFiles::new(code);
        for (test, expected) in cases {
            assert_eq!(code_of(test, code), expected, "{test}");
            assert_eq!(sorted.tested_by(test), expected, "{test}");
        }
        // Sorted once, the answer is the one of filtering the candidates per test: every path
        // asked about against every other.
        let everything: Vec<&str> = code
            .iter()
            .chain(cases.iter().map(|c| &c.0))
            .copied()
            .collect();
        let sorted = CodeFiles::new(everything.iter().copied());
        for test in &everything {
            assert_eq!(
                sorted.tested_by(test),
                code_of(test, everything.iter().copied()),
                "{test}"
            );
        }
    }
}
