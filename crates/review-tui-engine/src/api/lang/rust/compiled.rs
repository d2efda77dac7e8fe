//! Whether Cargo may compile a Rust file: a file under no folder its package builds a target
//! from (tonic's `benches-disabled/`, whose `[[bench]]` is commented out of `Cargo.toml`) is
//! never compiled, so nothing it says can stop compiling.

use crate::api::lang::rust::scope::crate_of;
use crate::api::visibility::Read;
use crate::cohort::paths::parent_dir;

/// The folders Cargo finds targets in by itself (`src/` with its binaries, and the tests,
/// benchmarks and examples).
const DISCOVERED: &[&str] = &["src", "tests", "benches", "examples"];

/// Whether Cargo never compiles the Rust file at `path`: its package's `Cargo.toml` can be
/// read and names a package, and the file is neither its build script nor under a folder Cargo
/// discovers targets in nor under the folder of a target the manifest names (`path =
/// "bench/main.rs"`). Any doubt (no manifest, one that cannot be parsed, a workspace's root
/// manifest naming no package) answers no: the file may be compiled.
pub(crate) fn never_compiled(path: &str, read: Read) -> bool {
    let Some((_, manifest, relative)) = crate_of(path, read) else {
        return false;
    };
    let Ok(table) = toml::from_str::<toml::Table>(&manifest) else {
        return false;
    };
    let Some(package) = table.get("package") else {
        return false;
    };
    let top = relative.split('/').next().unwrap_or(relative);
    if relative == "build.rs" || (relative.contains('/') && DISCOVERED.contains(&top)) {
        return false;
    }
    let named = |target: &toml::Value| {
        target
            .get("path")
            .and_then(toml::Value::as_str)
            .map(|p| p.trim_start_matches("./").to_string())
    };
    let mut targets: Vec<String> = ["bin", "bench", "test", "example"]
        .iter()
        .filter_map(|kind| table.get(*kind).and_then(toml::Value::as_array))
        .flatten()
        .filter_map(named)
        .collect();
    targets.extend(table.get("lib").and_then(named));
    targets.extend(
        package
            .get("build")
            .and_then(toml::Value::as_str)
            .map(|p| p.trim_start_matches("./").to_string()),
    );
    // A target's folder holds the modules its root declares.
    !targets.iter().any(|target| {
        let dir = parent_dir(target);
        target == relative || dir.is_empty() || relative.starts_with(&format!("{dir}/"))
    })
}

/// Whether the crate holding the Rust file at `path` is left out of the repository's
/// workspace: the root `Cargo.toml` has a `[workspace]` whose `members` no pattern of matches
/// the crate's folder (tower's middleware crates, commented out of `members` while
/// `tower-service` moved to `std::future`), or whose `exclude` names it. Cargo builds no such
/// crate with the workspace. Any doubt (no root manifest, no `members` list, a crate at the
/// root, one nested in no folder) answers no.
pub(crate) fn outside_the_workspace(path: &str, read: Read) -> bool {
    let Some((root, _, _)) = crate_of(path, read) else {
        return false;
    };
    if root.is_empty() {
        return false;
    }
    let Some(workspace) = read("Cargo.toml")
        .and_then(|t| toml::from_str::<toml::Table>(&t).ok())
        .and_then(|t| t.get("workspace").and_then(toml::Value::as_table).cloned())
    else {
        return false;
    };
    let patterns = |key: &str| -> Option<Vec<String>> {
        workspace
            .get(key)
            .and_then(toml::Value::as_array)
            .map(|list| {
                list.iter()
                    .filter_map(toml::Value::as_str)
                    .map(|p| p.trim_start_matches("./").trim_end_matches('/').to_string())
                    .collect()
            })
    };
    let matches = |pattern: &str| match pattern.split_once('*') {
        Some((prefix, suffix)) => {
            root.starts_with(prefix)
                && root.ends_with(suffix)
                && !root[prefix.len()..root.len() - suffix.len()].contains('/')
        }
        None => pattern == root,
    };
    if patterns("exclude").is_some_and(|excluded| excluded.iter().any(|p| matches(p))) {
        return true;
    }
    // Cargo makes a path dependency of a member a member too: only a list it can read whole
    // (no pattern) is known to leave the crate out.
    let Some(members) = patterns("members") else {
        return false;
    };
    !members.iter().any(|p| p.contains('*') || matches(p))
        && !members
            .iter()
            .any(|member| depends_by_path_on(member, &root, read))
}

/// Whether the `Cargo.toml` in the folder `member` names a dependency by a path that is the
/// folder `root`.
fn depends_by_path_on(member: &str, root: &str, read: Read) -> bool {
    let Some(table) =
        read(&format!("{member}/Cargo.toml")).and_then(|t| toml::from_str::<toml::Table>(&t).ok())
    else {
        return false;
    };
    let mut paths = Vec::new();
    collect_paths(&toml::Value::Table(table), &mut paths);
    paths.iter().any(|path| {
        let mut parts: Vec<&str> = member.split('/').filter(|p| !p.is_empty()).collect();
        for segment in path.split('/') {
            match segment {
                "" | "." => {}
                ".." => {
                    parts.pop();
                }
                other => parts.push(other),
            }
        }
        parts.join("/") == root
    })
}

/// Every `path = "…"` value anywhere in a manifest (dependency tables nest by target).
fn collect_paths(value: &toml::Value, out: &mut Vec<String>) {
    if let toml::Value::Table(table) = value {
        for (key, inner) in table {
            match inner {
                toml::Value::String(text) if key == "path" => out.push(text.clone()),
                _ => collect_paths(inner, out),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn never(path: &str, manifest: &str) -> bool {
        let read = |p: &str| (p == "rt/Cargo.toml").then(|| manifest.to_string());
        never_compiled(path, &read)
    }

    #[test]
    fn only_a_file_under_no_target_folder_is_never_compiled() {
        let package = "[package]\nname = \"rt\"\nversion = \"1.0.0\"\n";
        assert!(never(
            "rt/benches-disabled/benchmarks/helloworld.rs",
            package
        ));
        assert!(never("rt/loose.rs", package));
        for compiled in [
            "rt/src/lib.rs",
            "rt/src/bin/tool.rs",
            "rt/tests/it.rs",
            "rt/benches/b.rs",
            "rt/examples/e/main.rs",
            "rt/build.rs",
        ] {
            assert!(!never(compiled, package), "{compiled}");
        }
        // A target the manifest names, the modules beside it, and a manifest at the root of
        // the crate's folder holding a target: all may be compiled.
        let named = format!("{package}\n[[bench]]\nname = \"main\"\npath = \"perf/main.rs\"\n");
        assert!(!never("rt/perf/main.rs", &named));
        assert!(!never("rt/perf/cases/one.rs", &named));
        let rooted = format!("{package}\n[lib]\npath = \"lib.rs\"\n");
        assert!(!never("rt/anywhere/deep.rs", &rooted));
        // Doubt: no package, no manifest, an unreadable one.
        assert!(!never("rt/loose.rs", "[workspace]\nmembers = []\n"));
        assert!(!never("rt/loose.rs", "not toml ["));
        assert!(!never_compiled("elsewhere/loose.rs", &|_| None));
    }

    #[test]
    fn a_crate_no_workspace_member_names_is_outside_the_workspace() {
        let files = |root: &str| -> std::collections::BTreeMap<String, String> {
            [
                ("Cargo.toml", root),
                ("service/Cargo.toml", "[package]\nname = \"service\"\n"),
                ("hedge/Cargo.toml", "[package]\nname = \"hedge\"\n"),
                ("crates/a/Cargo.toml", "[package]\nname = \"a\"\n"),
            ]
            .iter()
            .map(|(p, t)| (p.to_string(), t.to_string()))
            .collect()
        };
        let outside = |root: &str, path: &str| {
            let files = files(root);
            let read = |p: &str| files.get(p).cloned();
            outside_the_workspace(path, &read)
        };
        let listed =
            "[workspace]\nmembers = [\n  # \"hedge\",\n  \"service\",\n  \"crates/a\",\n]\n";
        assert!(outside(listed, "hedge/src/lib.rs"));
        // A member's path dependency is a member too.
        let files = {
            let mut f = files("[workspace]\nmembers = [\"service\"]\n");
            f.insert(
                "service/Cargo.toml".into(),
                "[package]\nname = \"service\"\n[dev-dependencies]\nhedge = { path = \"../hedge\" }\n".into(),
            );
            f
        };
        let read = |p: &str| files.get(p).cloned();
        assert!(!outside_the_workspace("hedge/src/lib.rs", &read));
        assert!(!outside(listed, "service/src/lib.rs"));
        assert!(!outside(listed, "crates/a/src/lib.rs"));
        // A pattern may hold any folder's crate through a path dependency: no answer.
        assert!(!outside(
            "[workspace]\nmembers = [\"crates/*\"]\n",
            "hedge/src/lib.rs"
        ));
        let excluded = "[workspace]\nmembers = [\"*\"]\nexclude = [\"hedge\"]\n";
        assert!(outside(excluded, "hedge/src/lib.rs"));
        assert!(!outside(excluded, "service/src/lib.rs"));
        // No workspace, or one without a members list: no doubt resolved towards skipping.
        assert!(!outside("[package]\nname = \"root\"\n", "hedge/src/lib.rs"));
        assert!(!outside(
            "[workspace]\nresolver = \"2\"\n",
            "hedge/src/lib.rs"
        ));
    }
}
