//! Sample code (an example, a demo, a benchmark, documentation) is code no package ships: a
//! rule that stays quiet in tests reads a risky pattern there as a note, a print rule says
//! nothing of what an example prints. A folder so named inside a package's source is the
//! package's own module, shipped, and read as any other.

use super::*;
use crate::review::node::Priority;

/// go-redis's example programs turn TLS verification off against `localhost` "for testing with
/// self-signed certs", and react-hook-form's benchmark script runs `git` with the branch names
/// its own user passes: P1s that held a release each. A rule that stays quiet in test code is
/// a P3 note in sample code (examples, benchmarks, documentation) that no package ships, and
/// keeps its priority in the code a package ships.
#[test]
fn a_risky_pattern_in_sample_code_is_a_note() {
    let tls = ["\tcfg := &tls.Config{InsecureSkipVerify: true}"];
    let exec = ["  exec(`git checkout ${branch}`, cb);"];
    for (rule, path, lines) in [
        (
            "go/tls-insecure-skip-verify",
            "example/tls/main.go",
            &tls[..],
        ),
        (
            "go/tls-insecure-skip-verify",
            "docs/client/main.go",
            &tls[..],
        ),
        (
            "js/child-process-injection",
            "scripts/bench-compare.ts",
            &exec[..],
        ),
        ("js/child-process-injection", "benchmarks/run.js", &exec[..]),
    ] {
        assert_eq!(priorities(rule, path, lines), [Priority::P3], "{path}");
    }
    for (rule, path, lines) in [
        (
            "go/tls-insecure-skip-verify",
            "internal/client/tls.go",
            &tls[..],
        ),
        ("go/tls-insecure-skip-verify", "exampled/main.go", &tls[..]),
        (
            "js/child-process-injection",
            "scripts/release.ts",
            &exec[..],
        ),
        ("js/child-process-injection", "src/git.js", &exec[..]),
    ] {
        assert_eq!(priorities(rule, path, lines), [Priority::P1], "{path}");
    }
}

/// The same patterns in a folder named for examples, demos or benchmarks that a package ships
/// (below its source root: Rust's `src/examples/mod.rs`, Go's `pkg/demo/`, a Python package's
/// `examples` module) keep their priority; beside the source root they are notes.
#[test]
fn a_risky_pattern_in_a_sample_folder_a_package_ships_keeps_its_priority() {
    let tls = ["\tcfg := &tls.Config{InsecureSkipVerify: true}"];
    let certs = ["    let client = Client::builder().danger_accept_invalid_certs(true).build()?;"];
    let shell = ["    subprocess.run(f\"git log {ref}\", shell=True)"];
    for (rule, path, lines, priority) in [
        (
            "go/tls-insecure-skip-verify",
            "pkg/demo/client.go",
            &tls[..],
            Priority::P1,
        ),
        (
            "go/tls-insecure-skip-verify",
            "internal/bench/run.go",
            &tls[..],
            Priority::P1,
        ),
        (
            "rust/tls-verification-disabled",
            "src/examples/mod.rs",
            &certs[..],
            Priority::P1,
        ),
        (
            "python/subprocess-shell-injection",
            "src/mylib/examples/handler.py",
            &shell[..],
            Priority::P1,
        ),
        (
            "rust/tls-verification-disabled",
            "examples/basic.rs",
            &certs[..],
            Priority::P3,
        ),
        (
            "rust/tls-verification-disabled",
            "crates/net/benches/client.rs",
            &certs[..],
            Priority::P3,
        ),
        (
            "go/tls-insecure-skip-verify",
            "packages/x/examples/main.go",
            &tls[..],
            Priority::P3,
        ),
        (
            "python/subprocess-shell-injection",
            "docs/howto/handler.py",
            &shell[..],
            Priority::P3,
        ),
    ] {
        assert_eq!(priorities(rule, path, lines), [priority], "{path}");
    }
}

/// A flat Python layout: `mylib/examples/handler.py` beside `mylib/__init__.py` is the
/// package's `mylib.examples` module. Read from the repository on either side of the change:
/// deleting `mylib/__init__.py` in the same change does not make the module a sample. A
/// top-level `examples/` with its own `__init__.py` (its tests import it) stays one.
#[test]
fn a_sample_folder_inside_a_python_package_is_the_packages_module() {
    let rule = "python/subprocess-shell-injection";
    let handler =
        "import subprocess\n\ndef run(ref):\n    subprocess.run(f\"git log {ref}\", shell=True)\n";
    let priority = |base: &[(&str, &str)], head: &[(&str, &str)]| -> Vec<Priority> {
        rule_findings(base, head, rule)
            .iter()
            .map(|n| n.priority)
            .collect()
    };
    let package = [("mylib/__init__.py", ""), ("README.txt", "mylib\n")];
    assert_eq!(
        priority(&package, &[("mylib/examples/handler.py", handler)]),
        [Priority::P1]
    );
    let adversary = super::scan_change_removing(
        &package,
        &[("mylib/examples/handler.py", handler)],
        &["mylib/__init__.py"],
        "Add the feature",
    );
    assert_eq!(
        adversary
            .iter()
            .filter(|n| n.rule.as_deref() == Some(rule))
            .map(|n| n.priority)
            .collect::<Vec<_>>(),
        [Priority::P1]
    );
    assert_eq!(
        priority(
            &package,
            &[
                ("examples/__init__.py", ""),
                ("examples/handler.py", handler)
            ]
        ),
        [Priority::P3]
    );
}

/// A print rule says nothing of what an example prints, and fires in a folder so named
/// inside the package's source (`skip_samples`: the one notion of sample code, not a list of
/// folder names per rule).
#[test]
fn a_print_rule_is_quiet_in_sample_code_no_package_ships() {
    let count = |rule: &str, path: &str, line: &str| {
        scan(&added(path, &[line]))
            .nodes
            .iter()
            .filter(|n| n.rule.as_deref() == Some(rule))
            .count()
    };
    for (rule, line) in [
        ("python/print-in-package", "print(result)"),
        ("js/console-log", "console.log(result)"),
        ("rust/print-in-library", "    println!(\"{result}\");"),
    ] {
        let ext = match rule {
            "python/print-in-package" => "py",
            "js/console-log" => "js",
            _ => "rs",
        };
        for dir in [
            "examples",
            "demo",
            "samples",
            "packages/x/examples",
            "docs",
            "benches",
        ] {
            let path = format!("{dir}/run.{ext}");
            assert_eq!(count(rule, &path, line), 0, "{path}");
        }
        for dir in ["src/examples", "lib/demo", "src/mylib/samples"] {
            let path = format!("{dir}/run.{ext}");
            assert_eq!(count(rule, &path, line), 1, "{path}");
        }
    }
}
