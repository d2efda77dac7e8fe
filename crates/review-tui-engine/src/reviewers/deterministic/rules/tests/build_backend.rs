//! A Python project's in-tree build backend (`backend-path`) is build tooling reporting to the
//! build log, not the package: the print rule stays quiet there.

use super::*;

const PRINT_RULE: &str = "python/print-in-package";

/// yarl's in-tree PEP 517 backend (`backend-path = ["packaging"]`,
/// `packaging/pep517_backend/_backend.py`) prints its build choices to the build log: build
/// tooling, not the package. A print in the package itself still asks, in a project that asks
/// for ruff's T201.
#[test]
fn an_in_tree_build_backend_is_build_tooling_not_the_package() {
    let pyproject = "[build-system]\nrequires = [\"setuptools\"]\nbuild-backend = \"pep517_backend.hooks\"\nbackend-path = [\"packaging\"]\n\n[tool.ruff.lint]\nextend-select = [\"T201\"]\n";
    let base = [
        ("pyproject.toml", pyproject),
        ("yarl/__init__.py", "__version__ = \"1.0\"\n"),
    ];
    let code = "def build():\n    print(\"building the C extension\")\n";
    assert!(
        rule_findings(
            &base,
            &[("packaging/pep517_backend/_backend.py", code)],
            PRINT_RULE
        )
        .is_empty()
    );
    assert_eq!(
        rule_findings(&base, &[("yarl/_url.py", code)], PRINT_RULE).len(),
        1
    );
}
