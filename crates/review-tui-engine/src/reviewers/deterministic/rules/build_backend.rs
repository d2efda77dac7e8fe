//! Python build tooling kept in the repository: an in-tree PEP 517 backend. `pyproject.toml`'s
//! `[build-system] backend-path = ["packaging"]` puts the folders that hold the backend on the
//! build's path (yarl's `packaging/pep517_backend/`): code the build runs, which reports to
//! the build log, not the package users import.

use std::path::Path;

/// Whether `path` lies under a `backend-path` entry of the nearest `pyproject.toml` above it.
pub(super) fn in_build_backend(root: &Path, path: &str) -> bool {
    let mut dir = path.rsplit_once('/').map_or("", |(dir, _)| dir);
    loop {
        let manifest = if dir.is_empty() {
            "pyproject.toml".to_string()
        } else {
            format!("{dir}/pyproject.toml")
        };
        if let Ok(bytes) = crate::space::worktree_file::read(root, &manifest) {
            let Some(table) = String::from_utf8(bytes)
                .ok()
                .and_then(|text| text.parse::<toml::Table>().ok())
            else {
                return false;
            };
            let entries = table
                .get("build-system")
                .and_then(|b| b.get("backend-path"))
                .and_then(toml::Value::as_array);
            return entries.is_some_and(|entries| {
                entries.iter().filter_map(toml::Value::as_str).any(|entry| {
                    let entry = entry.trim_start_matches("./").trim_end_matches('/');
                    let base = match (dir.is_empty(), entry.is_empty() || entry == ".") {
                        (_, true) => return false,
                        (true, false) => entry.to_string(),
                        (false, false) => format!("{dir}/{entry}"),
                    };
                    path.starts_with(&format!("{base}/"))
                })
            });
        }
        if dir.is_empty() {
            return false;
        }
        dir = dir.rsplit_once('/').map_or("", |(parent, _)| parent);
    }
}
