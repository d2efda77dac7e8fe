//! Whether a crate of the repository builds against a release of another of its crates: its
//! `Cargo.toml` takes that crate from a registry (`tower-service = "0.2.0"`, no `path`, no
//! workspace member by that name, no `[patch]` to a folder), so a change to the crate's
//! sources reaches it only when it moves to a later release. tower #311 moved
//! `tower-service` to `std::future` (0.2.0 → 0.3.0-alpha.1) while the middleware crates beside
//! it still used `tower-service = "0.2.0"` from crates.io: their calls were no callers left
//! broken by the change.

use crate::api::lang::rust::scope::crate_of;
use crate::api::visibility::Read;

/// The dependency tables of a manifest, `[target.'cfg(…)'.dependencies]` included.
const TABLES: &[&str] = &["dependencies", "dev-dependencies", "build-dependencies"];

/// Whether the crate holding `caller` takes the package `name` (the crate holding `home`)
/// from a registry. Any doubt (a manifest that cannot be read or parsed, no dependency of
/// that name, one by `path`, `git`, or the workspace's own path, a `[patch]` in the
/// workspace's root manifest) answers no: the caller may build against the changed sources.
pub(crate) fn from_a_registry(caller: &str, home: &str, read: Read) -> bool {
    let Some((home_root, home_manifest, _)) = crate_of(home, read) else {
        return false;
    };
    let Some((root, manifest, _)) = crate_of(caller, read) else {
        return false;
    };
    if root == home_root {
        return false;
    }
    let (Ok(home_table), Ok(table)) = (
        toml::from_str::<toml::Table>(&home_manifest),
        toml::from_str::<toml::Table>(&manifest),
    ) else {
        return false;
    };
    let Some(name) = home_table
        .get("package")
        .and_then(|p| p.get("name"))
        .and_then(toml::Value::as_str)
    else {
        return false;
    };
    let workspace = read("Cargo.toml").and_then(|t| toml::from_str::<toml::Table>(&t).ok());
    // `[patch]` puts the folder's sources in place of every registry release.
    if patched(&table, name) || workspace.as_ref().is_some_and(|w| patched(w, name)) {
        return false;
    }
    let entries = dependency_entries(&table, name);
    !entries.is_empty()
        && entries.iter().all(|entry| match entry {
            toml::Value::String(_) => true,
            toml::Value::Table(spec) => {
                let inherited = spec.get("workspace").and_then(toml::Value::as_bool) == Some(true);
                if inherited {
                    workspace
                        .as_ref()
                        .is_some_and(|w| !member_dependency_by_path(w, name))
                } else {
                    !spec.contains_key("path") && !spec.contains_key("git")
                }
            }
            _ => false,
        })
}

/// Every entry naming `name` (or renaming it: `package = "name"`) in the manifest's
/// dependency tables, target-specific ones too.
fn dependency_entries<'t>(table: &'t toml::Table, name: &str) -> Vec<&'t toml::Value> {
    let mut tables: Vec<&toml::Table> = TABLES
        .iter()
        .filter_map(|t| table.get(*t).and_then(toml::Value::as_table))
        .collect();
    if let Some(targets) = table.get("target").and_then(toml::Value::as_table) {
        for target in targets.values().filter_map(toml::Value::as_table) {
            tables.extend(
                TABLES
                    .iter()
                    .filter_map(|t| target.get(*t).and_then(toml::Value::as_table)),
            );
        }
    }
    tables
        .into_iter()
        .flat_map(|deps| deps.iter())
        .filter(|(key, value)| {
            key.as_str() == name || value.get("package").and_then(toml::Value::as_str) == Some(name)
        })
        .map(|(_, value)| value)
        .collect()
}

/// A `[patch.<registry>]` entry for `name` in `table`.
fn patched(table: &toml::Table, name: &str) -> bool {
    table
        .get("patch")
        .and_then(toml::Value::as_table)
        .is_some_and(|registries| {
            registries
                .values()
                .filter_map(toml::Value::as_table)
                .any(|patches| patches.contains_key(name))
        })
}

/// `[workspace.dependencies] name = { path = … }`.
fn member_dependency_by_path(workspace: &toml::Table, name: &str) -> bool {
    workspace
        .get("workspace")
        .and_then(|w| w.get("dependencies"))
        .and_then(|d| d.get(name))
        .is_some_and(|spec| spec.get("path").is_some())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    fn check(files: &[(&str, &str)], caller: &str, home: &str) -> bool {
        let files: BTreeMap<String, String> = files
            .iter()
            .map(|(p, t)| (p.to_string(), t.to_string()))
            .collect();
        let read = |p: &str| files.get(p).cloned();
        from_a_registry(caller, home, &read)
    }

    const SERVICE: &str = "[package]\nname = \"service\"\nversion = \"0.3.0-alpha.1\"\n";

    #[test]
    fn a_crate_taking_the_package_from_a_registry_builds_against_a_release() {
        let with = |caller_manifest: &str, root: &str| {
            check(
                &[
                    ("Cargo.toml", root),
                    ("service/Cargo.toml", SERVICE),
                    ("service/src/lib.rs", ""),
                    ("buffer/Cargo.toml", caller_manifest),
                    ("buffer/src/lib.rs", ""),
                ],
                "buffer/src/lib.rs",
                "service/src/lib.rs",
            )
        };
        let root = "[workspace]\nmembers = [\"service\"]\n";
        let package = "[package]\nname = \"buffer\"\nversion = \"0.1.0\"\n";
        assert!(with(
            &format!("{package}[dependencies]\nservice = \"0.2.0\"\n"),
            root
        ));
        assert!(with(
            &format!("{package}[dev-dependencies]\nservice = {{ version = \"0.2\" }}\n"),
            root
        ));
        // By path, by git, through the workspace's path, patched, or not named at all: the
        // changed sources may be what it builds.
        assert!(!with(
            &format!(
                "{package}[dependencies]\nservice = {{ version = \"0.2.0\", path = \"../service\" }}\n"
            ),
            root
        ));
        assert!(!with(
            &format!("{package}[dependencies]\nservice = {{ git = \"https://example.com/s\" }}\n"),
            root
        ));
        assert!(!with(
            &format!("{package}[dependencies]\nservice = {{ workspace = true }}\n"),
            "[workspace]\nmembers = [\"service\", \"buffer\"]\n[workspace.dependencies]\nservice = { path = \"service\" }\n"
        ));
        assert!(!with(
            &format!("{package}[dependencies]\nservice = \"0.2.0\"\n"),
            "[workspace]\nmembers = [\"service\"]\n[patch.crates-io]\nservice = { path = \"service\" }\n"
        ));
        assert!(!with(
            &format!("{package}[dependencies]\nother = \"1\"\n"),
            root
        ));
        // The package's own crate is never another's.
        assert!(!check(
            &[("service/Cargo.toml", SERVICE), ("service/src/a.rs", "")],
            "service/src/a.rs",
            "service/src/lib.rs",
        ));
    }
}
