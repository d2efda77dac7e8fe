//! Which directory a path lives in (whether it is a test is `diff::is_test_path`).

/// The directory holding `path`, `""` for the repository root.
pub(crate) fn parent_dir(path: &str) -> &str {
    path.rsplit_once('/').map_or("", |(dir, _)| dir)
}

/// The language family of `path` by its extension: files of one family can use each other's
/// definitions (TypeScript imports JavaScript, Kotlin calls Java, C++ includes C headers).
pub(crate) fn language_family(path: &str) -> &str {
    let file = path.rsplit('/').next().unwrap_or(path);
    let extension = file.rsplit_once('.').map_or("", |(_, e)| e);
    match extension {
        "ts" | "tsx" | "js" | "jsx" | "mjs" | "cjs" | "mts" | "cts" => "js",
        "java" | "kt" | "kts" | "scala" => "jvm",
        "rs" => "rust",
        "py" | "pyi" => "python",
        // Objective-C includes C headers.
        "c" | "h" | "cc" | "cpp" | "cxx" | "hpp" | "hh" | "hxx" | "m" | "mm" => "c",
        "ex" | "exs" => "elixir",
        "ml" | "mli" => "ocaml",
        other => other,
    }
}

/// The longest directory prefix shared by `paths`, `""` when they share none.
pub(crate) fn common_dir<'a>(paths: impl IntoIterator<Item = &'a str>) -> String {
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
    fn directories() {
        assert_eq!(parent_dir("a/b/c.rs"), "a/b");
        assert_eq!(parent_dir("c.rs"), "");
        assert_eq!(common_dir(["src/a/x.rs", "src/a/b/y.rs"]), "src/a");
        assert_eq!(common_dir(["src/x.rs", "lib/y.rs"]), "");
    }
}
