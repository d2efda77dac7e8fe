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

/// Whether `path` is sample code by its place: under a folder of examples, demos or
/// benchmarks ([`sample_dir`]), a benchmark by its file name (`bench-compare.ts`,
/// `benchmarks.py`), or documentation ([`is_documentation`]).
pub fn is_sample_path(path: &str) -> bool {
    let path = path.replace('\\', "/");
    let file = path.rsplit('/').next().unwrap_or(&path);
    let stem = file.split('.').next().unwrap_or(file).to_ascii_lowercase();
    in_sample_dir(&path)
        || ["bench", "benchmark"].iter().any(|word| {
            stem.strip_prefix(word)
                .is_some_and(|rest| rest.is_empty() || rest == "s" || rest.starts_with(['-', '_']))
        })
        || is_documentation(&path)
}

/// Documentation: what lives in a documentation folder, and prose markup anywhere.
pub fn is_documentation(path: &str) -> bool {
    let path = path.replace('\\', "/");
    let (dirs, file) = path.rsplit_once('/').unwrap_or(("", &path));
    dirs.split('/').any(docs_dir) || is_doc_markup(file)
}

/// Whether `path` lies under a folder of examples, demos or benchmarks ([`sample_dir`]).
fn in_sample_dir(path: &str) -> bool {
    let path = path.replace('\\', "/");
    let dirs = path.rsplit_once('/').map_or("", |(dirs, _)| dirs);
    dirs.split('/').any(sample_dir)
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
}
