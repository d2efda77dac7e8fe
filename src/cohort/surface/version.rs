//! Whether the package holding a file bumped its version for a break between base and head:
//! the major version (or the minor one below 1.0, Cargo's rule), or a Go module path's `/vN`.

use crate::cohort::grammar::Grammar;
use crate::cohort::paths::parent_dir;

use super::scope::Read;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Bump {
    /// The version allows a break: `manifest: 1.4.0 → 2.0.0`.
    Breaking(String),
    /// Unchanged or bumped compatibly; the manifest and version when one was found.
    Compatible(Option<String>),
}

const MANIFESTS: &[(&str, &[Grammar])] = &[
    ("Cargo.toml", &[Grammar::Rust]),
    (
        "package.json",
        &[Grammar::JavaScript, Grammar::TypeScript, Grammar::Tsx],
    ),
    ("pyproject.toml", &[Grammar::Python]),
    ("setup.cfg", &[Grammar::Python]),
    ("setup.py", &[Grammar::Python]),
    ("go.mod", &[Grammar::Go]),
    ("pom.xml", &[Grammar::Java]),
    ("build.gradle", &[Grammar::Java]),
    ("build.gradle.kts", &[Grammar::Java]),
];

/// The version bump of the package holding `path`. `head` and `base` read a repository file
/// at the two commits.
pub fn bump(path: &str, grammar: Grammar, head: Read, base: Read) -> Bump {
    let dirs: Vec<&str> = parent_dir(path)
        .split('/')
        .filter(|d| !d.is_empty())
        .collect();
    for depth in (0..=dirs.len()).rev() {
        let root = dirs[..depth].join("/");
        for (name, grammars) in MANIFESTS {
            if !grammars.contains(&grammar) {
                continue;
            }
            let manifest = if root.is_empty() {
                name.to_string()
            } else {
                format!("{root}/{name}")
            };
            let Some(new) = head(&manifest) else { continue };
            let version = |text: &str, read: Read| version_of(name, text, &root, read);
            let after = version(&new, head);
            let before = base(&manifest).and_then(|old| version(&old, base));
            // A manifest without a version of its own (a workspace root, a dynamic version)
            // does not decide: keep looking above.
            let Some(after) = after else { continue };
            let described = format!("{manifest} {}", after);
            return match before {
                Some(before) if breaking(name, &before, &after) => {
                    Bump::Breaking(format!("{manifest}: {before} → {after}"))
                }
                _ => Bump::Compatible(Some(described)),
            };
        }
    }
    Bump::Compatible(None)
}

fn version_of(manifest: &str, text: &str, root: &str, read: Read) -> Option<String> {
    match manifest {
        "Cargo.toml" => {
            let value: toml::Table = toml::from_str(text).ok()?;
            let package = value.get("package")?;
            match package.get("version")? {
                toml::Value::String(v) => Some(v.clone()),
                // `version.workspace = true`: the workspace root's `[workspace.package]`.
                _ => {
                    let dirs: Vec<&str> = root.split('/').filter(|d| !d.is_empty()).collect();
                    (0..dirs.len()).rev().find_map(|depth| {
                        let up = dirs[..depth].join("/");
                        let path = if up.is_empty() {
                            "Cargo.toml".to_string()
                        } else {
                            format!("{up}/Cargo.toml")
                        };
                        let workspace: toml::Table = toml::from_str(&read(&path)?).ok()?;
                        workspace
                            .get("workspace")?
                            .get("package")?
                            .get("version")?
                            .as_str()
                            .map(str::to_string)
                    })
                }
            }
        }
        "package.json" => {
            let value: serde_json::Value = serde_json::from_str(text).ok()?;
            value.get("version")?.as_str().map(str::to_string)
        }
        "pyproject.toml" => {
            let value: toml::Table = toml::from_str(text).ok()?;
            value
                .get("project")
                .and_then(|p| p.get("version"))
                .or_else(|| value.get("tool")?.get("poetry")?.get("version"))?
                .as_str()
                .map(str::to_string)
        }
        "go.mod" => text
            .lines()
            .find_map(|l| l.trim().strip_prefix("module "))
            .map(|m| m.trim().to_string()),
        "pom.xml" => {
            // The project's own version, not its parent's.
            let without_parent = match (text.find("<parent>"), text.find("</parent>")) {
                (Some(a), Some(b)) if a < b => format!("{}{}", &text[..a], &text[b..]),
                _ => text.to_string(),
            };
            let start = without_parent.find("<version>")? + "<version>".len();
            let end = without_parent[start..].find("</version>")? + start;
            Some(without_parent[start..end].trim().to_string())
        }
        _ => {
            // setup.py, setup.cfg, build.gradle: `version = "1.2.3"` / `version="1.2.3"`.
            let pattern =
                regex::Regex::new(r#"(?m)^\s*version\s*[=:]\s*["']?([0-9][^"'\s,)]*)"#).ok()?;
            pattern.captures(text).map(|c| c[1].to_string())
        }
    }
}

fn numbers(version: &str) -> Vec<u64> {
    version
        .trim_start_matches('v')
        .split(['.', '-', '+'])
        .take(3)
        .map(|p| {
            p.chars()
                .take_while(char::is_ascii_digit)
                .collect::<String>()
                .parse()
                .unwrap_or(0)
        })
        .collect()
}

/// Whether going from `before` to `after` allows a break.
fn breaking(manifest: &str, before: &str, after: &str) -> bool {
    if manifest == "go.mod" {
        let major = |module: &str| {
            module
                .rsplit('/')
                .next()
                .and_then(|last| last.strip_prefix('v'))
                .and_then(|n| n.parse::<u64>().ok())
                .unwrap_or(1)
        };
        return major(after) > major(before);
    }
    let (b, a) = (numbers(before), numbers(after));
    let at = |v: &[u64], i: usize| v.get(i).copied().unwrap_or(0);
    if at(&a, 0) != at(&b, 0) {
        return at(&a, 0) > at(&b, 0);
    }
    if at(&a, 0) == 0 {
        if at(&a, 1) != at(&b, 1) {
            return at(&a, 1) > at(&b, 1);
        }
        return at(&a, 1) == 0 && at(&a, 2) > at(&b, 2);
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn break_bumps() {
        assert!(breaking("Cargo.toml", "1.4.0", "2.0.0"));
        assert!(breaking("Cargo.toml", "0.3.2", "0.4.0"));
        assert!(breaking("Cargo.toml", "0.0.1", "0.0.2"));
        assert!(!breaking("Cargo.toml", "1.4.0", "1.5.0"));
        assert!(!breaking("Cargo.toml", "0.3.2", "0.3.3"));
        assert!(!breaking("Cargo.toml", "1.4.0", "1.4.0"));
        assert!(breaking("go.mod", "github.com/a/b", "github.com/a/b/v2"));
        assert!(!breaking(
            "go.mod",
            "github.com/a/b/v2",
            "github.com/a/b/v2"
        ));
    }
}
