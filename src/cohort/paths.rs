//! What a path says about a file: whether it is a test, and which directory it lives in.

/// Test files by the conventions of the six indexed languages (and the common JS spellings):
/// `tests/` or `test/` or `__tests__/` directories, `*_test.go`, `test_*.py`, `*_test.py`,
/// `*.test.ts`, `*.spec.js`, `*Test.java`, and Rust's `tests.rs` / `*_tests.rs` modules.
pub fn is_test_path(path: &str) -> bool {
    let mut parts: Vec<&str> = path.split('/').collect();
    let file = parts.pop().unwrap_or(path);
    if parts
        .iter()
        .any(|dir| matches!(*dir, "tests" | "test" | "__tests__"))
    {
        return true;
    }
    let stem = file.split('.').next().unwrap_or(file);
    let extension = file.rsplit_once('.').map_or("", |(_, ext)| ext);
    match extension {
        "go" => stem.ends_with("_test"),
        "py" => stem.starts_with("test_") || stem.ends_with("_test"),
        "rs" => stem == "tests" || stem.ends_with("_tests"),
        "java" => stem.ends_with("Test") || stem.ends_with("Tests"),
        "js" | "jsx" | "mjs" | "cjs" | "ts" | "tsx" | "mts" | "cts" => {
            file.contains(".test.") || file.contains(".spec.")
        }
        _ => false,
    }
}

/// The directory holding `path`, `""` for the repository root.
pub fn parent_dir(path: &str) -> &str {
    path.rsplit_once('/').map_or("", |(dir, _)| dir)
}

/// The longest directory prefix shared by `paths`, `""` when they share none.
pub fn common_dir<'a>(paths: impl IntoIterator<Item = &'a str>) -> String {
    let mut common: Option<Vec<&str>> = None;
    for path in paths {
        let dirs: Vec<&str> = parent_dir(path)
            .split('/')
            .filter(|d| !d.is_empty())
            .collect();
        common = Some(match common {
            None => dirs,
            Some(prefix) => prefix
                .into_iter()
                .zip(dirs)
                .take_while(|(a, b)| a == b)
                .map(|(a, _)| a)
                .collect(),
        });
    }
    common.unwrap_or_default().join("/")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn test_paths() {
        for path in [
            "tests/it.rs",
            "src/diff/tests.rs",
            "src/diff/parse_tests.rs",
            "pkg/parse_test.go",
            "app/test_models.py",
            "web/app.test.ts",
            "web/app.spec.js",
            "src/test/java/a/BoxTest.java",
            "web/__tests__/x.js",
        ] {
            assert!(is_test_path(path), "{path}");
        }
        for path in [
            "src/lib.rs",
            "pkg/parse.go",
            "app/models.py",
            "Box.java",
            "testing.md",
        ] {
            assert!(!is_test_path(path), "{path}");
        }
    }

    #[test]
    fn directories() {
        assert_eq!(parent_dir("a/b/c.rs"), "a/b");
        assert_eq!(parent_dir("c.rs"), "");
        assert_eq!(common_dir(["src/a/x.rs", "src/a/b/y.rs"]), "src/a");
        assert_eq!(common_dir(["src/x.rs", "lib/y.rs"]), "");
    }
}
