//! Which directory a path lives in (whether it is a test is `diff::is_test_path`).

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
    fn directories() {
        assert_eq!(parent_dir("a/b/c.rs"), "a/b");
        assert_eq!(parent_dir("c.rs"), "");
        assert_eq!(common_dir(["src/a/x.rs", "src/a/b/y.rs"]), "src/a");
        assert_eq!(common_dir(["src/x.rs", "lib/y.rs"]), "");
    }
}
