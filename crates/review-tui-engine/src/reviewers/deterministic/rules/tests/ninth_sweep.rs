//! The principles the ninth held-out sweep asked for, on real repositories in temp dirs: each
//! shape that fired and must not, beside the shape that must still fire.

use super::*;
use crate::review::node::ReviewNode;

/// Commits `base`, then `head` over it, and scans the change with the head checked out: the
/// findings of `rule`.
fn findings(base: &[(&str, &str)], head: &[(&str, &str)], rule: &str) -> Vec<ReviewNode> {
    scan_change(base, head, "Add the feature")
        .into_iter()
        .filter(|n| n.rule.as_deref() == Some(rule))
        .collect()
}

const IGNORED_ERROR: &str = "go/ignored-error";

/// golang-jwt's key parsers: `block, _ = pem.Decode(key)` drops `rest []byte` (the standard
/// library's `pem.Decode` returns `(*Block, []byte)`), and a repository's own `Decode` that
/// returns no error is no error dropped either. Where the callee returns its error there (the
/// standard library's `os.ReadFile`, the repository's own `Decode` returning `error`, a
/// callee whose signature is nowhere), the rule still fires.
#[test]
fn a_blank_that_drops_no_error_is_not_an_ignored_error() {
    let base = [("go.mod", "module example.org/keys\n\ngo 1.21\n")];
    let parse = |body: &str| {
        format!(
            "package keys\n\nimport \"encoding/pem\"\n\nfunc ParseKey(key []byte) ([]byte, error) {{\n\tvar block *pem.Block\n{body}\n\treturn block.Bytes, nil\n}}\n"
        )
    };
    let pem_decode = parse("\tblock, _ = pem.Decode(key)");
    assert!(findings(&base, &[("rsa_utils.go", &pem_decode)], IGNORED_ERROR).is_empty());
    // The repository's own codec: one `Decode` returns no error, another one does.
    let codec = "package keys\n\ntype Codec struct{}\n\n// Decode reports the value and whether it was whole.\nfunc (c *Codec) Decode(b []byte) (v []byte, whole bool) {\n\treturn b, true\n}\n";
    let own = parse("\tc := &Codec{}\n\tv, _ := c.Decode(key)\n\t_ = v");
    assert!(
        findings(
            &base,
            &[("codec.go", codec), ("use.go", &own)],
            IGNORED_ERROR
        )
        .is_empty()
    );
    let failing = "package keys\n\ntype Codec struct{}\n\nfunc (c *Codec) Decode(b []byte) ([]byte, error) {\n\treturn b, nil\n}\n";
    assert_eq!(
        findings(
            &base,
            &[("codec.go", failing), ("use.go", &own)],
            IGNORED_ERROR
        )
        .len(),
        1
    );
    // The standard library's and unknown callees keep Go's convention: error last.
    let read = parse("\tdata, _ := os.ReadFile(\"key.pem\")\n\t_ = data");
    assert_eq!(
        findings(&base, &[("read.go", &read)], IGNORED_ERROR).len(),
        1
    );
    let unknown = parse("\tv, _ := thirdparty.Decode(key)\n\t_ = v");
    assert_eq!(
        findings(&base, &[("other.go", &unknown)], IGNORED_ERROR).len(),
        1
    );
}

const ACTION_ON_BRANCH: &str = "actions/action-on-branch";

/// toml #406 added OSS-Fuzz's CIFuzz (`@master`, its only published ref) to a `pull_request`
/// workflow, hashbrown took `dtolnay/rust-toolchain@master`: jobs that hold no secret and no
/// writing token give a moved branch nothing. pino #744 handed `coverallsapp/github-action@master`
/// the repository token: still a finding, as is a branch action in a job holding a secret
/// elsewhere, under a `write` permission, or in a `pull_request_target` workflow.
#[test]
fn an_action_on_a_branch_matters_by_what_its_job_can_reach() {
    let base = [("README.md", "# project\n")];
    let fuzz = "name: CIFuzz\non: [pull_request]\njobs:\n  Fuzzing:\n    runs-on: ubuntu-latest\n    steps:\n    - name: Build Fuzzers\n      uses: google/oss-fuzz/infra/cifuzz/actions/build_fuzzers@master\n      with:\n        oss-fuzz-project-name: 'toml'\n        language: go\n";
    assert!(
        findings(
            &base,
            &[(".github/workflows/cifuzz.yml", fuzz)],
            ACTION_ON_BRANCH
        )
        .is_empty()
    );
    let ci = "name: CI\non: [push, pull_request]\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n      - uses: dtolnay/rust-toolchain@master\n        with:\n          toolchain: stable\n  coverage:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n      - run: npm run cov-ci\n      - name: Coveralls\n        uses: coverallsapp/github-action@master\n        with:\n          github-token: ${{ secrets.GITHUB_TOKEN }}\n";
    let found = findings(&base, &[(".github/workflows/ci.yml", ci)], ACTION_ON_BRANCH);
    let lines: Vec<u32> = found
        .iter()
        .filter_map(|n| n.anchor.as_ref().map(|a| a.start_line))
        .collect();
    assert_eq!(lines, vec![17], "{found:?}");
    // A secret elsewhere in the job, a write permission, a privileged trigger.
    let publish = "on:\n  release:\njobs:\n  build:\n    steps:\n      - uses: actions/checkout@master\n      - run: gem push *.gem\n        env:\n          GEM_HOST_API_KEY: ${{ secrets.RUBYGEMS_AUTH_TOKEN }}\n";
    let writes = "on: push\npermissions:\n  contents: write\njobs:\n  a:\n    steps:\n      - uses: acme/setup@main\n";
    let target =
        "on:\n  pull_request_target:\njobs:\n  a:\n    steps:\n      - uses: acme/setup@main\n";
    for (name, text) in [("publish", publish), ("writes", writes), ("target", target)] {
        let path = format!(".github/workflows/{name}.yml");
        assert_eq!(
            findings(&base, &[(&path, text)], ACTION_ON_BRANCH).len(),
            1,
            "{name}"
        );
    }
}

const MANIFEST_RULE: &str = "deps/manifest-without-lockfile";

/// clap #5599 raised `backtrace = "0.3.67"` to `"0.3.73"`, the version Cargo.lock already
/// held; msw #1399 added `statuses: ^2.0.0` where yarn.lock already had that entry: the lock
/// needed no change. A requirement the lock does not satisfy, a Cargo dependency new to the
/// manifest and a range a yarn lock has no entry for still ask.
#[test]
fn a_manifest_requirement_the_lock_already_resolves_asks_nothing() {
    let manifest = |backtrace: &str, extra: &str| {
        format!(
            "[package]\nname = \"clap_builder\"\nversion = \"4.5.0\"\n\n[dependencies]\nbacktrace = {{ version = \"{backtrace}\", optional = true }}\n{extra}"
        )
    };
    let lock = "version = 3\n\n[[package]]\nname = \"backtrace\"\nversion = \"0.3.73\"\nsource = \"registry+https://github.com/rust-lang/crates.io-index\"\n\n[[package]]\nname = \"clap_builder\"\nversion = \"4.5.0\"\ndependencies = [\n \"backtrace\",\n]\n";
    let base = manifest("0.3.67", "");
    let cargo = |head: &str| {
        findings(
            &[("Cargo.toml", &base), ("Cargo.lock", lock)],
            &[("Cargo.toml", head)],
            MANIFEST_RULE,
        )
        .len()
    };
    assert_eq!(cargo(&manifest("0.3.73", "")), 0);
    assert_eq!(cargo(&manifest("0.3.74", "")), 1);
    assert_eq!(cargo(&manifest("0.3.67", "rand = \"0.8\"\n")), 1);
    let package = |dev: &str| {
        format!(
            "{{\n  \"name\": \"msw\",\n  \"version\": \"0.40.0\",\n  \"dependencies\": {{\n    \"outvariant\": \"^1.2.0\"{dev}\n  }}\n}}\n"
        )
    };
    let yarn = "# THIS IS AN AUTOGENERATED FILE. DO NOT EDIT THIS FILE DIRECTLY.\n# yarn lockfile v1\n\n\noutvariant@^1.2.0:\n  version \"1.2.1\"\n\nstatuses@2.0.1, statuses@^2.0.0:\n  version \"2.0.1\"\n";
    let npm = |head: &str| {
        findings(
            &[("package.json", &package("")), ("yarn.lock", yarn)],
            &[("package.json", head)],
            MANIFEST_RULE,
        )
        .len()
    };
    assert_eq!(npm(&package(",\n    \"statuses\": \"^2.0.0\"")), 0);
    assert_eq!(npm(&package(",\n    \"statuses\": \"^3.0.0\"")), 1);
}

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
        findings(
            &base,
            &[("packaging/pep517_backend/_backend.py", code)],
            PRINT_RULE
        )
        .is_empty()
    );
    assert_eq!(
        findings(&base, &[("yarl/_url.py", code)], PRINT_RULE).len(),
        1
    );
}
