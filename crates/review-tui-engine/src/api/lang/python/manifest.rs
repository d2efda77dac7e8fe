//! pyproject.toml, setup.cfg, setup.py: the distribution's name and version, or the
//! `__version__` its package writes when the manifest reads it at build time.

use crate::api::lang::manifest::{assigned_name, assigned_version, toml_string};
use crate::api::lang::{Manifest, Versioning};
use crate::api::visibility::Read;
use crate::cohort::paths::parent_dir;

pub(crate) static MANIFESTS: &[Manifest] = &[
    Manifest {
        file: "pyproject.toml",
        names: pyproject_name,
        version: pyproject_version,
        versioning: Versioning::Semantic,
    },
    Manifest {
        file: "setup.cfg",
        names: assigned_name,
        version: assigned_version,
        versioning: Versioning::Semantic,
    },
    Manifest {
        file: "setup.py",
        names: setup_py_name,
        version: assigned_version,
        versioning: Versioning::Semantic,
    },
];

fn pyproject_name(text: &str) -> Vec<String> {
    toml_string(text, &["project", "name"])
        .or_else(|| toml_string(text, &["tool", "poetry", "name"]))
        .into_iter()
        .collect()
}

/// The distribution's name in a setup.py: the `name` keyword of its `setup(…)` call,
/// wherever the call writes it (`setup(name="blinker",` on one line), else a `name = "…"` line
/// of its own (a variable the call passes on).
fn setup_py_name(text: &str) -> Vec<String> {
    static SETUP_NAME: std::sync::LazyLock<Option<regex::Regex>> = std::sync::LazyLock::new(|| {
        regex::Regex::new(
            r#"\bsetup\s*\((?s:.{0,2000}?)\bname\s*=\s*["']([A-Za-z0-9_][A-Za-z0-9_.\-]*)["']"#,
        )
        .ok()
    });
    let called = SETUP_NAME
        .as_ref()
        .and_then(|pattern| pattern.captures(text))
        .map(|c| c[1].to_string());
    match called {
        Some(name) => vec![name],
        None => assigned_name(text),
    }
}

fn pyproject_version(text: &str, _root: &str, _read: Read) -> Option<String> {
    let value: toml::Table = toml::from_str(text).ok()?;
    value
        .get("project")
        .and_then(|p| p.get("version"))
        .or_else(|| value.get("tool")?.get("poetry")?.get("version"))?
        .as_str()
        .map(str::to_string)
}

/// A Python package whose manifest reads its version at build time (`version=version` read
/// from `__init__.py`, `attr: pkg.__version__`, `dynamic = ["version"]`): the `__version__`
/// written in the outermost package above `path` (below the manifest's folder), or in its
/// `__about__.py` / `_version.py` / `version.py`.
pub(crate) fn package_version(path: &str, root: &str, read: Read) -> Option<(String, String)> {
    let assignment =
        regex::Regex::new(r#"(?m)^__version__\s*(?::\s*str\s*)?=\s*["']([0-9][^"']*)["']"#).ok()?;
    let below = path
        .strip_prefix(root)
        .map(|p| p.trim_start_matches('/'))
        .unwrap_or(path);
    let dirs: Vec<&str> = parent_dir(below)
        .split('/')
        .filter(|d| !d.is_empty())
        .collect();
    let join = |depth: usize, file: &str| {
        let mut parts: Vec<&str> = Vec::new();
        if !root.is_empty() {
            parts.push(root);
        }
        parts.extend(&dirs[..depth]);
        parts.push(file);
        parts.join("/")
    };
    // The outermost package: the first folder on the way down that has an `__init__.py`
    // (a `src/` layout's `src` has none).
    let package = (1..=dirs.len()).find(|&depth| read(&join(depth, "__init__.py")).is_some())?;
    ["__init__.py", "__about__.py", "_version.py", "version.py"]
        .iter()
        .find_map(|file| {
            let at = join(package, file);
            let text = read(&at)?;
            assignment.captures(&text).map(|c| (at, c[1].to_string()))
        })
}
