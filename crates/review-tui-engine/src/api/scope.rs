//! Which files carry a public API at all, and which of a file's names are exported: test
//! code, examples, benches and fixtures never do; nor Go `internal/` packages, `package main`,
//! Python `_private` modules, Java packages a `module-info.java` does not export, Rust binary,
//! unpublished or proc-macro crates. A Rust file behind a private `mod` exports only what an
//! ancestor re-exports with `pub use`.

use crate::cohort::paths::parent_dir;
use crate::parse::grammar::Grammar;

pub(crate) use super::paths::not_api_path;
use super::visibility::{Read, Visibility};

/// Whether the Rust file at `path` is library code by its package's targets (a binary's
/// modules, examples, benches and build scripts are not); `None` without a readable
/// `Cargo.toml` above it. See [`super::lang::rust::scope::library_code`].
pub(crate) fn rust_library_code(path: &str, read: Read) -> Option<bool> {
    super::lang::rust::scope::library_code(path, read)
}

/// Whether the Rust file at `path` belongs to an unpublished package still in pre-release;
/// `None` without a readable `Cargo.toml` above it. See
/// [`super::lang::rust::scope::work_in_progress`].
pub(crate) fn rust_work_in_progress(path: &str, read: Read) -> Option<bool> {
    super::lang::rust::scope::work_in_progress(path, read)
}

/// Whether the JavaScript or TypeScript file at `path` is library code of its package, not a
/// command it installs or a file its scripts run; `None` without a readable `package.json`
/// above it. See [`super::lang::script::programs::library_code`].
pub(crate) fn script_library_code(path: &str, read: Read) -> Option<bool> {
    super::lang::script::programs::library_code(path, read)
}

/// The nearest package manifest (`package.json`) above the JavaScript or TypeScript file at
/// `path`: its path and text; `None` when there is none.
pub(crate) fn script_manifest(path: &str, read: Read) -> Option<(String, String)> {
    use super::lang::script::entry_points::{join, package_of};
    let (root, text) = package_of(path, read)?;
    Some((join(&root, "package.json"), text))
}

/// Whether the file at `path` (its text `source`, in `grammar`) carries an API, and which of
/// its names: nothing in test, example, bench or fixture code, else its language's rule (see
/// `super::lang::Language::scope`).
pub fn scope(path: &str, grammar: Grammar, source: &str, read: Read) -> Visibility {
    if not_api_path(path) {
        return Visibility::NotApi("test, example, bench or fixture code");
    }
    let dirs: Vec<&str> = parent_dir(path)
        .split('/')
        .filter(|d| !d.is_empty())
        .collect();
    match super::lang::of(grammar) {
        Some(language) => language.scope(path, &dirs, source, read),
        None => Visibility::Exported,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn other_packages_code_and_type_stubs_are_not_the_projects_api() {
        // dotenv #584: Flow stubs of sinon under `flow-typed/npm/` (a file Flow syntax leaves
        // unparsable held the axis).
        for path in [
            "flow-typed/npm/sinon_vx.x.x.js",
            "packages/web/flow-typed/npm/jest_v29.js",
            "node_modules/left-pad/index.js",
            "third_party/zlib/zlib.h",
            "src/third-party/parser.ts",
        ] {
            assert!(not_api_path(path), "{path}");
        }
        for path in ["lib/main.js", "src/vendor_flags.ts", "src/typed/flow.js"] {
            assert!(!not_api_path(path), "{path}");
        }
    }

    // okhttp #6532: a Gradle Kotlin script the Kotlin grammar could not parse held the axis.
    #[test]
    fn build_scripts_are_not_api() {
        for path in [
            "okhttp-bom/build.gradle.kts",
            "build.gradle",
            "settings.gradle.kts",
        ] {
            assert!(not_api_path(path), "{path}");
        }
        for path in ["src/main/kotlin/Gradle.kt", "src/gradle/plugin.kts.rs"] {
            assert!(!not_api_path(path), "{path}");
        }
    }

    #[test]
    fn a_python_module_whose_docstring_withdraws_its_promise_is_not_api() {
        let read = |_: &str| None;
        let marshmallow = "\"\"\"Type aliases.\n\n.. warning::\n\n    This module is provisional. Types may be modified, added, and removed between minor releases.\n\"\"\"\n\nimport typing\n\nTag = typing.Union[str, typing.Tuple[str, bool]]\n";
        assert!(
            !scope(
                "src/marshmallow/types.py",
                Grammar::Python,
                marshmallow,
                &read
            )
            .is_api()
        );
        for withdrawn in [
            "#!/usr/bin/env python\n# -*- coding: utf-8 -*-\nr'''Helpers. Not part of the public API.'''\n",
            "\"\"\"Experimental: these functions may change without notice.\"\"\"\n",
            "'The interface is considered unstable.'\n",
        ] {
            assert!(
                !scope("pkg/helpers.py", Grammar::Python, withdrawn, &read).is_api(),
                "{withdrawn}"
            );
        }
        // Documentation that merely mentions such words, or words after the docstring.
        for promised in [
            "\"\"\"Support for the experimental HTTP/3 protocol.\"\"\"\n",
            "\"\"\"Stable helpers.\"\"\"\n# This module is provisional.\n",
            "import os\n\"\"\"This module is provisional.\"\"\"\n",
            "\"\"\"Values that may change between calls are cached without notice.\"\"\"\n",
        ] {
            assert_eq!(
                scope("pkg/helpers.py", Grammar::Python, promised, &read),
                Visibility::Exported,
                "{promised}"
            );
        }
    }

    #[test]
    fn python_code_no_distribution_ships_is_not_api() {
        let module = "def serve(port):\n    pass\n";
        let scoped = |path: &str, files: &[(&str, &str)]| {
            let files: Vec<(String, String)> = files
                .iter()
                .map(|(p, t)| (p.to_string(), t.to_string()))
                .collect();
            let read = move |p: &str| {
                files
                    .iter()
                    .find(|(path, _)| path == p)
                    .map(|(_, t)| t.clone())
            };
            scope(path, Grammar::Python, module, &read).is_api()
        };
        // A src layout: the wheel is `src/web/`; `helpers/` beside it ships only in the sdist.
        let pyproject = "[project]\nname = \"web\"\n\n[tool.hatch.build.targets.sdist]\ninclude = [\"/helpers\", \"/src\"]\n";
        let layout = [
            ("pyproject.toml", pyproject),
            ("src/web/__init__.py", ""),
            ("helpers/__init__.py", ""),
        ];
        assert!(!scoped("helpers/server.py", &layout));
        assert!(scoped("src/web/client.py", &layout));
        // The wheel told to ship the folder too; no package in `src/`; a flat layout.
        let shipped = pyproject.replace(
            "[project]\n",
            "[tool.hatch.build.targets.wheel]\npackages = [\"src/web\", \"helpers\"]\n\n[project]\n",
        );
        let told = [
            ("pyproject.toml", shipped.as_str()),
            ("src/web/__init__.py", ""),
            ("helpers/__init__.py", ""),
        ];
        assert!(scoped("helpers/server.py", &told));
        let flat = [
            ("pyproject.toml", pyproject),
            ("web/__init__.py", ""),
            ("helpers/__init__.py", ""),
        ];
        assert!(scoped("helpers/server.py", &flat));
        // A generator script inside a Rust crate, no Python manifest anywhere; with one above
        // (a maturin project), its package is as any other.
        let cargo = "[package]\nname = \"tables\"\nversion = \"1.0.0\"\n";
        assert!(!scoped(
            "tables/src/make_table.py",
            &[("tables/Cargo.toml", cargo)]
        ));
        assert!(scoped(
            "tables/src/make_table.py",
            &[
                ("tables/Cargo.toml", cargo),
                ("pyproject.toml", "[project]\nname = \"tables\"\n"),
            ]
        ));
    }

    #[test]
    fn paths_without_api() {
        for path in [
            "examples/a.rs",
            "benches/b.rs",
            "tests-integration/src/lib.rs",
            "pkg/testdata/x.go",
            "tests/fixtures/a.py",
            "build.rs",
            "crates/net/examples/echo.rs",
            "docs/src/snippet.rs",
            "docs_src/exceptions/tutorial002_py39.py",
            "examples-src/app.ts",
            "examples/src/main/java/com/acme/Demo.java",
            "src/main/java/com/acme/testdata/Data.java",
            "dist/axios.js",
            "lib/vendor/jquery.min.js",
            "tools/make_terminal_widths.py",
            "jwt/__main__.py",
        ] {
            assert!(not_api_path(path), "{path}");
        }
        // Below a source root a folder is a package or module, whatever its name.
        for path in [
            "src/lib.rs",
            "pkg/parse.go",
            "flask/app.py",
            "src/main/java/com/example/Client.java",
            "gson/src/main/java/com/example/demo/Api.java",
            "src/bench/mod.rs",
            "lib/samples/index.js",
            "pytest_benchmark/fixture.py",
            "src/docs_src/page.py",
            "langchain/tools/base.py",
            "src/tools/mod.rs",
            // Go's `pkg/` is a source root like `src/`: its `demo` package is imported.
            "pkg/demo/client.go",
        ] {
            assert!(!not_api_path(path), "{path}");
        }
    }
}
