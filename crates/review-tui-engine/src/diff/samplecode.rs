//! The one notion of sample code, beside test code ([`super::is_test_path`]): what a project
//! publishes to show or measure itself and no package it builds ships. Examples and demos
//! (`examples/`, `demo/`), benchmarks (`benches/`, `bench-compare.ts`) and documentation (a
//! `docs/` folder, `docs_src/` tutorial code, prose markup). The secret scan reads credentials
//! there as made up to show something; the rules read a risky pattern there (a TLS check
//! turned off against `localhost`, a shell command built from the script's own arguments) as
//! a note, since no user's deployment runs it.

/// A folder of material a project publishes to show or measure itself, by its name:
/// `examples`, `samples`, `demo`, `bench`, `benchmarks`.
pub fn sample_dir(name: &str) -> bool {
    matches!(
        name.to_ascii_lowercase().as_str(),
        "example"
            | "examples"
            | "sample"
            | "samples"
            | "demo"
            | "demos"
            | "bench"
            | "benches"
            | "benchmark"
            | "benchmarks"
    )
}

/// A documentation folder: `docs`, and `docs_src`/`docs-site` (FastAPI's and typer's tutorial
/// code).
fn docs_dir(name: &str) -> bool {
    let name = name.to_ascii_lowercase();
    name == "docs"
        || name
            .strip_prefix("docs")
            .is_some_and(|rest| rest.starts_with('_') || rest.starts_with('-'))
}

/// Prose and markup: `.md`, `.rst`, `.adoc`.
fn is_doc_markup(path: &str) -> bool {
    path.rsplit_once('.').is_some_and(|(_, extension)| {
        matches!(
            extension.to_ascii_lowercase().as_str(),
            "md" | "markdown" | "mdx" | "rst" | "adoc" | "asciidoc"
        )
    })
}

/// Source roots: the folder a package builds from (`src/`, `lib/`, Go's `pkg/` and
/// `internal/`, an application's `app/`, the language folders of Maven's
/// `src/main/java/`). Below one, a folder is one of the package's own modules, whatever its
/// name: Rust's `src/examples/mod.rs` that `lib.rs` declares, Go's `pkg/demo/` that the
/// library imports, Java's `com/example/`.
pub fn source_root(dir: &str) -> bool {
    matches!(
        dir.to_ascii_lowercase().as_str(),
        "src" | "lib" | "pkg" | "internal" | "app" | "java" | "kotlin" | "scala"
    )
}

/// Whether `path` is sample code by its place: under a folder of examples, demos or
/// benchmarks ([`sample_dir`]), a benchmark by its file name (`bench-compare.ts`,
/// `benchmarks.py`), or documentation ([`is_documentation`]); a folder or file so named
/// below a source root ([`source_root`]) is not, as it is one of the package's modules.
/// Path only: see [`is_sample_path_in`] for what the repository's files tell.
pub fn is_sample_path(path: &str) -> bool {
    is_sample_path_in(path, &|_| false)
}

/// [`is_sample_path`], where `python_package(dir)` tells whether the folder `dir` is a Python
/// import package (holds an `__init__.py`) on the side read: a sample folder inside one
/// (`mylib/examples/` beside `mylib/__init__.py`) is a module the package ships.
///
/// A sample folder counts only where no package ships it: at the top, or beside a source root
/// (`examples/` at the repository or a crate's root, `packages/foo/examples/`), never inside
/// one. What the judgement does not read: a manifest that ships a top-level folder anyway
/// (a wheel told to include `examples/`), or a Rust `#[path]` module reaching one; such code
/// stays sample code.
pub fn is_sample_path_in(path: &str, python_package: &dyn Fn(&str) -> bool) -> bool {
    let path = path.replace('\\', "/");
    let (dirs, file) = path.rsplit_once('/').unwrap_or(("", &path));
    let dirs: Vec<&str> = dirs.split('/').filter(|d| !d.is_empty()).collect();
    let stem = file.split('.').next().unwrap_or(file).to_ascii_lowercase();
    let bench_file = ["bench", "benchmark"].iter().any(|word| {
        stem.strip_prefix(word)
            .is_some_and(|rest| rest.is_empty() || rest == "s" || rest.starts_with(['-', '_']))
    });
    // The first folder that says what its code is decides: a sample folder before any source
    // root or package is one (its own `__init__.py` makes it importable by its tests, not
    // shipped); a package's folder is its module, whatever its name.
    for (at, dir) in dirs.iter().enumerate() {
        if sample_dir(dir) || docs_dir(dir) {
            return true;
        }
        if source_root(dir) || python_package(&dirs[..=at].join("/")) {
            return is_doc_markup(file);
        }
    }
    bench_file || is_doc_markup(file)
}

/// Documentation: what lives in a documentation folder, and prose markup anywhere.
pub fn is_documentation(path: &str) -> bool {
    let path = path.replace('\\', "/");
    let (dirs, file) = path.rsplit_once('/').unwrap_or(("", &path));
    dirs.split('/').any(docs_dir) || is_doc_markup(file)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn examples_benchmarks_and_docs_are_sample_code() {
        for path in [
            "example/tls/main.go",
            "examples/puma/key.pem",
            "scripts/bench-compare.ts",
            "benches/parse.rs",
            "docs/usage.rst",
            "docs_src/tutorial/app.py",
            "README.md",
        ] {
            assert!(is_sample_path(path), "{path}");
        }
        for path in [
            "src/client.go",
            "scripts/release.ts",
            "src/benchmarking.rs",
            "lib/exampled.js",
            "src/docsify.js",
        ] {
            assert!(!is_sample_path(path), "{path}");
        }
    }

    /// A folder named for examples, demos or benchmarks inside a source root is one of the
    /// package's modules, which it ships: not sample code. Beside a source root, or at the
    /// top of a project or a member of it, it is.
    #[test]
    fn a_sample_folder_a_package_ships_is_not_sample_code() {
        for path in [
            "src/examples/mod.rs",
            "pkg/demo/handler.go",
            "internal/bench/run.go",
            "lib/samples/index.js",
            "app/demo/views.py",
            "crates/net/src/benchmarks/mod.rs",
            "src/mylib/examples/handler.py",
            "src/main/java/com/acme/demo/Api.java",
            "src/docs/mod.rs",
            "src/bench.rs",
            "lib/benchmarks.js",
        ] {
            assert!(!is_sample_path(path), "{path}");
        }
        for path in [
            "examples/basic.rs",
            "crates/net/examples/echo.rs",
            "packages/x/examples/app.ts",
            "packages/x/demo/src/index.ts",
            "benches/parse.rs",
            "docs/guide/setup.py",
            "examples/src/main/java/com/acme/Demo.java",
            "src/guide.md",
            "benchmarks/src/lib.rs",
        ] {
            assert!(is_sample_path(path), "{path}");
        }
    }

    /// A sample folder inside a Python import package (a folder holding `__init__.py` on the
    /// side read) ships with it; a top-level `examples/` stays a sample even with its own
    /// `__init__.py` (its tests import it; the package is elsewhere).
    #[test]
    fn a_sample_folder_inside_a_python_package_is_not_sample_code() {
        let packages = ["mylib", "mylib/contrib", "examples"];
        let package = |dir: &str| packages.contains(&dir);
        assert!(!is_sample_path_in("mylib/examples/handler.py", &package));
        assert!(!is_sample_path_in("mylib/contrib/demo/run.py", &package));
        assert!(!is_sample_path_in("mylib/benchmarks.py", &package));
        assert!(is_sample_path_in("examples/handler.py", &package));
        assert!(is_sample_path_in("tools/demo/run.py", &package));
        // Without the package's `__init__.py`, the path alone cannot tell.
        assert!(is_sample_path("mylib/examples/handler.py"));
    }
}
