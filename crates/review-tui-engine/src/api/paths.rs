//! Paths whose code is no one's API whatever the language: tests, fixtures, other packages'
//! copies, a project's examples, benches, docs and scripts beside its sources. Below both the
//! scope decisions and the languages, which each ask it.

// Source roots (`src/`, Go's `pkg/`, Java's `src/main/java/`): below one, folders are the
// language's packages and modules, which its own rules make public or not; the same notion
// that tells sample code from a package's modules.
use crate::diff::{is_test_path, source_root};

/// Directories a tool ignores wherever they are (Go's `testdata`), that hold test or fixture
/// code by their name at any depth, or that hold other packages' code or type definitions
/// (Flow's `flow-typed/` stubs of npm packages, an installed `node_modules/`, a `third_party/`
/// copy): their breaks are those packages' business, not the project's API.
fn tooling_dir(dir: &str) -> bool {
    matches!(
        dir,
        "fixtures"
            | "fixture"
            | "testdata"
            | "test_data"
            | "test-data"
            | "testing_utils"
            | "flow-typed"
            | "node_modules"
            | "bower_components"
            | "third_party"
            | "third-party"
    ) || dir.starts_with("tests-")
        || dir.starts_with("tests_")
        || dir.starts_with("test-")
        || dir.starts_with("test_")
        || dir.ends_with("-tests")
        || dir.ends_with("_tests")
        || dir.ends_with("-examples")
        || dir.ends_with("-benches")
}

/// A project's folders beside its source: examples, benches, docs, scripts, the built
/// `dist/` (its API is the sources it is built from). (`doc/` is not
/// one: Go packages are named so, e.g. `github.com/spf13/cobra/doc`.)
fn project_dir(dir: &str) -> bool {
    matches!(
        dir,
        "examples"
            | "example"
            | "benches"
            | "bench"
            | "benchmarks"
            | "benchmark"
            | "docs"
            | "samples"
            | "sample"
            | "demo"
            | "demos"
            | "scripts"
            | "e2e"
            | "ci"
            | ".github"
            | "xtask"
            | "dist"
    ) || [
        "docs",
        "examples",
        "example",
        "samples",
        "tutorial",
        "tutorials",
        "benchmarks",
        "demo",
    ]
    .iter()
    // `docs_src/` (typer, FastAPI: the tutorials' code), `examples-src/`: the same folders
    // with a qualifier. Only as a prefix: `pytest_benchmark/` is a package.
    .any(|word| {
        dir.strip_prefix(word)
            .is_some_and(|rest| rest.starts_with('_') || rest.starts_with('-'))
    })
}

/// Paths whose code is not anyone's API, whatever the language. The first folder that says what
/// its code is decides: a project folder (`examples/`, `crates/x/benches/`) before any source
/// root, not a package that happens to share its name (`src/main/java/com/example/`).
pub(crate) fn not_api_path(path: &str) -> bool {
    if is_test_path(path) {
        return true;
    }
    let mut parts: Vec<&str> = path.split('/').collect();
    let file = parts.pop().unwrap_or(path);
    // The repository's own `tools/` (rich's `tools/make_terminal_widths.py`): the maintainers'
    // scripts. Only at the top: deeper, `tools` is as often a package (`langchain/tools/`).
    if parts
        .first()
        .is_some_and(|top| top.eq_ignore_ascii_case("tools"))
    {
        return true;
    }
    let mut below_source_root = false;
    for dir in parts {
        let dir = dir.to_ascii_lowercase();
        if tooling_dir(&dir) || (!below_source_root && project_dir(&dir)) {
            return true;
        }
        below_source_root |= source_root(&dir);
    }
    // A minified bundle is built from the sources that carry its API.
    let minified = [".min.js", ".min.mjs", ".min.cjs"]
        .iter()
        .any(|suffix| file.ends_with(suffix));
    // A build script configures the build of the code beside it (Gradle's Kotlin or Groovy
    // scripts, okhttp's `okhttp-bom/build.gradle.kts`): nothing imports it.
    let build_script = [".gradle.kts", ".gradle"]
        .iter()
        .any(|suffix| file.ends_with(suffix));
    minified
        || build_script
        || matches!(
            file,
            "conftest.py" | "setup.py" | "noxfile.py" | "build.rs" | "fuzz.rs"
            // What `python -m package` runs: a command line, not names to import (pyjwt #501
            // removed its CLI's `build_argparser`).
            | "__main__.py"
        )
}
