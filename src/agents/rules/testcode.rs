//! Where test code is. Many rules (unwrap, print, TLS off) are fine in tests and noise there.
//!
//! By path for every language; for Rust also by what the hunks show, since unit tests live in
//! the same file: once a `#[cfg(test)]` or `mod tests` appears (in a line or in the hunk's
//! section heading), the rest of the file is taken as test code, and a `#[test]` function makes
//! the rest of its hunk test code.

use std::sync::LazyLock;

use regex::Regex;

use super::glob::{Glob, any_matches};
use crate::diff::{Hunk, Language};

static TEST_PATHS: LazyLock<Vec<Glob>> = LazyLock::new(|| {
    [
        "**/tests/**",
        "**/test/**",
        "**/__tests__/**",
        "**/testdata/**",
        "**/testing/**",
        "*_test.rs",
        "*_tests.rs",
        "test_*.rs",
        "tests.rs",
        "*_test.go",
        "test_*.py",
        "*_test.py",
        "conftest.py",
        "*.test.*",
        "*.spec.*",
        "*Test.java",
        "*Tests.java",
        "*IT.java",
    ]
    .iter()
    .map(|p| Glob::new(p).expect("built-in globs are valid"))
    .collect()
});

static TEST_MODULE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^\s*(#\[cfg\(test\)\]|(pub(\([\w:]+\))?\s+)?mod\s+tests?\b)").expect("valid regex")
});

static TEST_FUNCTION: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^\s*#\[(test|tokio::test|rstest|test_case|proptest)\b").expect("valid regex")
});

pub fn is_test_path(path: &str) -> bool {
    any_matches(&TEST_PATHS, path)
}

/// Walks one file's hunks in order, answering "is this line test code?".
pub(crate) struct TestTracker {
    by_path: bool,
    rust: bool,
    in_module: bool,
    in_function: bool,
}

impl TestTracker {
    pub fn new(path: &str, language: Language) -> TestTracker {
        TestTracker {
            by_path: is_test_path(path),
            rust: language == Language::Rust,
            in_module: false,
            in_function: false,
        }
    }

    pub fn enter_hunk(&mut self, hunk: &Hunk) {
        self.in_function = false;
        if self.rust
            && hunk
                .section
                .as_deref()
                .is_some_and(|section| TEST_MODULE.is_match(section))
        {
            self.in_module = true;
        }
    }

    /// Reads a line of the new side (context or added) before rules look at it.
    pub fn observe(&mut self, text: &str) {
        // Every marker contains "test"; most lines do not, and skip both regexes.
        if !self.rust || !text.contains("test") {
            return;
        }
        if TEST_MODULE.is_match(text) {
            self.in_module = true;
        } else if TEST_FUNCTION.is_match(text) {
            self.in_function = true;
        }
    }

    pub fn in_test(&self) -> bool {
        self.by_path || self.in_module || self.in_function
    }
}
