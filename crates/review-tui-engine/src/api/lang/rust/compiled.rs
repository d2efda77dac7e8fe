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
}
