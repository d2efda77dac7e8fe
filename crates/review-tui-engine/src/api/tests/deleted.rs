//! apiContract and a package deleted whole from the repository (its manifest and its files,
//! replaced by a dependency): no new version of it is published, so its removals break none
//! of its users; while its name is still published by a manifest at the head (the code moved
//! under another manifest of the same package), its breaks count as before.

use crate::cohort::tests::repo::Repo;
use crate::review::axes::AxisVerdict;

use super::releases::axis;

/// A language's helper package in `helper/`: its manifest (path, text naming it `sums`) and a
/// source file exporting `update`, and the same for the main package in `core/`.
struct Helper {
    manifest: (&'static str, &'static str),
    source: (&'static str, &'static str),
    core: [(&'static str, &'static str); 2],
}

const HELPERS: &[Helper] = &[
    Helper {
        manifest: (
            "helper/Cargo.toml",
            "[package]\nname = \"sums\"\nversion = \"1.2.0\"\nedition = \"2021\"\n",
        ),
        source: (
            "helper/src/lib.rs",
            "pub struct Checksum;\n\nimpl Checksum {\n    pub fn update(&mut self, bytes: &[u8]) {\n        let _ = bytes;\n    }\n}\n",
        ),
        core: [
            (
                "core/Cargo.toml",
                "[package]\nname = \"core-lib\"\nversion = \"1.0.0\"\nedition = \"2021\"\n",
            ),
            ("core/src/lib.rs", "pub fn run() {}\n"),
        ],
    },
    Helper {
        manifest: (
            "helper/package.json",
            "{\n  \"name\": \"sums\",\n  \"version\": \"1.2.0\",\n  \"main\": \"index.js\"\n}\n",
        ),
        source: (
            "helper/index.js",
            "export function update(state, bytes) {\n  return state + bytes.length;\n}\n",
        ),
        core: [
            (
                "core/package.json",
                "{\n  \"name\": \"core-lib\",\n  \"version\": \"1.0.0\",\n  \"main\": \"index.js\"\n}\n",
            ),
            ("core/index.js", "export function run() {}\n"),
        ],
    },
    Helper {
        manifest: (
            "helper/pyproject.toml",
            "[project]\nname = \"sums\"\nversion = \"1.2.0\"\n",
        ),
        source: (
            "helper/sums/__init__.py",
            "def update(state, data):\n    return state + len(data)\n",
        ),
        core: [
            (
                "core/pyproject.toml",
                "[project]\nname = \"core-lib\"\nversion = \"1.0.0\"\n",
            ),
            ("core/core_lib/__init__.py", "def run():\n    pass\n"),
        ],
    },
    Helper {
        manifest: ("helper/go.mod", "module example.com/sums\n\ngo 1.21\n"),
        source: (
            "helper/sums.go",
            "package sums\n\n// Update adds data to the sum.\nfunc Update(state int, data []byte) int {\n\treturn state + len(data)\n}\n",
        ),
        core: [
            ("core/go.mod", "module example.com/core\n\ngo 1.21\n"),
            (
                "core/core.go",
                "package core\n\n// Run runs.\nfunc Run() {}\n",
            ),
        ],
    },
];

fn repo_with(helper: &Helper) -> Repo {
    let mut files = vec![helper.manifest, helper.source];
    files.extend(helper.core);
    Repo::new(&files)
}

#[test]
fn a_package_deleted_whole_publishes_nothing_that_could_break() {
    let mut wrong = Vec::new();
    for helper in HELPERS {
        let repo = repo_with(helper);
        repo.remove(helper.manifest.0);
        repo.remove(helper.source.0);
        repo.commit("replace the helper by a dependency");
        let axis = axis(&repo);
        let withdrawn = ["no longer published", helper.source.0, helper.manifest.0]
            .iter()
            .all(|part| axis.detail.contains(part));
        if axis.verdict == AxisVerdict::Fail || !withdrawn {
            wrong.push(format!("{}: {}", helper.manifest.0, axis.detail));
        }
    }
    assert!(wrong.is_empty(), "{wrong:#?}");
}

#[test]
fn code_moved_under_another_manifest_of_the_same_package_still_answers_to_its_users() {
    let mut wrong = Vec::new();
    for helper in HELPERS {
        let repo = repo_with(helper);
        repo.remove(helper.manifest.0);
        repo.remove(helper.source.0);
        // The package lives on in `moved/`, without what `helper/` exported.
        let (manifest, text) = helper.manifest;
        repo.write(&manifest.replacen("helper/", "moved/", 1), text);
        let ext = helper.source.0.rsplit('.').next().unwrap();
        repo.write(&format!("moved/other.{ext}"), "\n");
        repo.commit("move the helper");
        let axis = axis(&repo);
        if axis.verdict != AxisVerdict::Fail || axis.detail.contains("no longer published") {
            wrong.push(format!("{manifest}: {}", axis.detail));
        }
    }
    // Another manifest of the language names it: a `setup.py` for the `pyproject.toml`.
    let python = &HELPERS[2];
    let repo = repo_with(python);
    repo.remove(python.manifest.0);
    repo.remove(python.source.0);
    repo.write(
        "moved/setup.py",
        "from setuptools import setup\n\nsetup(\n    name=\"sums\",\n    version=\"1.3.0\",\n)\n",
    );
    repo.commit("move the helper to setuptools");
    let moved = axis(&repo);
    if moved.verdict != AxisVerdict::Fail {
        wrong.push(format!("moved/setup.py: {}", moved.detail));
    }
    assert!(wrong.is_empty(), "{wrong:#?}");
}
