//! The rule asks what the house asks: a rule that stands for a lint its language's linter keeps
//! opt-in (clippy's `restriction`, ESLint's `no-console`, ruff's `T20`) fires where the
//! project's own lint configuration enables it, or its code shows the convention, or the
//! review's configuration names the rule; elsewhere it is quiet and says so in the coverage.

use std::collections::BTreeSet;
use std::path::Path;

use super::*;
use crate::config::Config;

/// A repository at the head of the change: `files` written into a temp dir, `diff` the change
/// that added `path`'s lines. Returns how many findings `rule` made and the coverage notes.
pub(super) fn review(
    files: &[(&str, &str)],
    path: &str,
    added: &str,
    rule: &str,
) -> (usize, Vec<String>) {
    review_with(&BUILTIN, files, path, added, rule)
}

fn review_with(
    catalog: &Catalog,
    files: &[(&str, &str)],
    path: &str,
    added: &str,
    rule: &str,
) -> (usize, Vec<String>) {
    let dir = tempfile::tempdir().unwrap();
    for (name, text) in files {
        write(dir.path(), name, text);
    }
    // The head file holds what the change added, after the lines it already had.
    let before = files
        .iter()
        .find(|(name, _)| *name == path)
        .map_or("", |(_, text)| text);
    write(dir.path(), path, &format!("{before}{added}"));
    let start = before.lines().count() + 1;
    let lines: Vec<String> = added.lines().map(|l| format!("+{l}")).collect();
    let text = format!(
        "diff --git a/{path} b/{path}\n--- a/{path}\n+++ b/{path}\n@@ -{old},0 +{start},{n} @@\n{}\n",
        lines.join("\n"),
        old = start - 1,
        n = lines.len(),
    );
    let mut repo_files: BTreeSet<String> = files.iter().map(|(n, _)| n.to_string()).collect();
    repo_files.insert(path.to_string());
    let options = ScanOptions {
        worktree: Some(dir.path().to_path_buf()),
        repo_files: Some(repo_files),
        ..ScanOptions::default()
    };
    let result = catalog.scan(&diff(&text), &options);
    let found = result
        .nodes
        .iter()
        .filter(|n| n.rule.as_deref() == Some(rule))
        .count();
    (found, result.coverage.notes)
}

fn write(root: &Path, path: &str, text: &str) {
    let path = root.join(path);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

const CRATE: &str = "[package]\nname = \"x\"\nversion = \"0.1.0\"\n";
const PANIC: &str = "pub fn f(state: u8) {\n    if state > 3 {\n        panic!(\"unexpected state {state}\");\n    }\n}\n";

#[test]
fn a_restriction_lint_rule_asks_only_where_the_projects_clippy_configuration_enables_it() {
    let rule = "rust/panic-outside-tests";
    let lib = ("src/lib.rs", "pub mod engine;\n");
    // Nothing asks: quiet, and the coverage says which lint would ask and how to enable it.
    let (found, notes) = review(&[("Cargo.toml", CRATE), lib], "src/engine.rs", PANIC, rule);
    assert_eq!(found, 0);
    assert!(
        notes.iter().any(|n| n.contains(rule)
            && n.contains("clippy::panic")
            && n.contains("[rules] enable")),
        "{notes:?}"
    );
    // Each form a project switches the lint on with.
    let forms: [&[(&str, &str)]; 6] = [
        &[
            (
                "Cargo.toml",
                &format!("{CRATE}\n[lints.clippy]\npanic = \"deny\"\n"),
            ),
            lib,
        ],
        &[
            (
                "Cargo.toml",
                "[workspace]\nmembers = [\"core\"]\n\n[workspace.lints.clippy]\npanic = { level = \"warn\", priority = 1 }\n",
            ),
            (
                "core/Cargo.toml",
                &format!("{CRATE}\n[lints]\nworkspace = true\n"),
            ),
            ("core/src/lib.rs", "pub mod engine;\n"),
        ],
        &[
            ("Cargo.toml", CRATE),
            (
                "src/lib.rs",
                "#![deny(missing_docs, clippy::panic)]\npub mod engine;\n",
            ),
        ],
        &[
            ("Cargo.toml", CRATE),
            (
                "src/lib.rs",
                "#![warn(clippy::restriction)]\npub mod engine;\n",
            ),
        ],
        &[
            ("Cargo.toml", CRATE),
            lib,
            (
                ".cargo/config.toml",
                "[target.'cfg(all())']\nrustflags = [\"-Dclippy::panic\"]\n",
            ),
        ],
        &[
            ("Cargo.toml", CRATE),
            lib,
            (
                ".github/workflows/ci.yml",
                "jobs:\n  lint:\n    steps:\n      - run: cargo clippy --all-targets -- -D warnings -D clippy::panic\n",
            ),
        ],
    ];
    for files in forms {
        let path = if files.iter().any(|(n, _)| n.starts_with("core/")) {
            "core/src/engine.rs"
        } else {
            "src/engine.rs"
        };
        let (found, _) = review(files, path, PANIC, rule);
        assert_eq!(found, 1, "{files:?}");
    }
    // Allowed, or another lint: still not asked.
    let allowed = format!("{CRATE}\n[lints.clippy]\npanic = \"allow\"\nexpect_used = \"deny\"\n");
    let (found, _) = review(
        &[("Cargo.toml", &allowed), lib],
        "src/engine.rs",
        PANIC,
        rule,
    );
    assert_eq!(found, 0);
    // The same manifest asks the rule that stands for `expect_used`.
    let expect = "pub fn port() -> u16 {\n    std::env::var(\"PORT\").expect(\"PORT\").parse().expect(\"a port\")\n}\n";
    let (found, _) = review(
        &[("Cargo.toml", &allowed), lib],
        "src/engine.rs",
        expect,
        "rust/expect-outside-tests",
    );
    assert_eq!(found, 1);
}

#[test]
fn unwrap_is_asked_only_where_clippys_unwrap_used_or_the_review_configuration_asks_it() {
    // Held out, 0 of 22 unwraps were worth a question: clippy keeps `unwrap_used` opt-in.
    let rule = "rust/unwrap-outside-tests";
    let lib = ("src/lib.rs", "pub mod engine;\n");
    let unwrap =
        "pub fn port() -> u16 {\n    std::env::var(\"PORT\").unwrap().parse().unwrap()\n}\n";
    let (found, notes) = review(&[("Cargo.toml", CRATE), lib], "src/engine.rs", unwrap, rule);
    assert_eq!(found, 0);
    assert!(
        notes
            .iter()
            .any(|n| n.contains(rule) && n.contains("clippy::unwrap_used")),
        "{notes:?}"
    );
    let asking = format!("{CRATE}\n[lints.clippy]\nunwrap_used = \"warn\"\n");
    let (found, _) = review(
        &[("Cargo.toml", &asking), lib],
        "src/engine.rs",
        unwrap,
        rule,
    );
    assert_eq!(found, 1);
    let attribute = (
        "src/lib.rs",
        "#![warn(clippy::unwrap_used)]\npub mod engine;\n",
    );
    let (found, _) = review(
        &[("Cargo.toml", CRATE), attribute],
        "src/engine.rs",
        unwrap,
        rule,
    );
    assert_eq!(found, 1);
    let config = Config {
        enabled_rules: vec![rule.into()],
        ..Config::default()
    };
    let catalog = Catalog::builtin().with_overrides(&config);
    let (found, _) = review_with(
        &catalog,
        &[("Cargo.toml", CRATE), lib],
        "src/engine.rs",
        unwrap,
        rule,
    );
    assert_eq!(found, 1);
}

#[test]
fn a_malformed_lint_configuration_asks_nothing_and_never_fails_the_review() {
    let rule = "rust/panic-outside-tests";
    for files in [
        [
            ("Cargo.toml", "[lints.clippy\npanic = \"deny\""),
            ("src/lib.rs", "#![deny(clippy::"),
        ],
        [
            ("Cargo.toml", "[lints]\nclippy = 3\n"),
            ("src/lib.rs", "\u{0}\u{1}not rust"),
        ],
    ] {
        let (found, notes) = review(&files, "src/engine.rs", PANIC, rule);
        assert_eq!(found, 0, "{files:?}");
        assert!(notes.iter().any(|n| n.contains(rule)), "{notes:?}");
    }
    let console =
        "export function total(cart) {\n  console.log('cart', cart);\n  return cart.sum;\n}\n";
    for config in [
        (".eslintrc.json", "{\"rules\": {\"no-console\": "),
        ("package.json", "not json at all"),
        ("biome.json", "{{{{"),
    ] {
        let (found, _) = review(&[config], "src/cart.js", console, "js/console-log");
        assert_eq!(found, 0, "{config:?}");
    }
    let (found, _) = review(
        &[("pyproject.toml", "[tool.ruff.lint\nselect = [\"T20\"")],
        "pkg/service.py",
        "def run(user):\n    print(\"user\", user)\n",
        "python/print-in-package",
    );
    assert_eq!(found, 0);
}

#[test]
fn console_log_asks_where_eslint_biome_or_the_project_config_enables_no_console() {
    let rule = "js/console-log";
    let console =
        "export function total(cart) {\n  console.log('cart', cart);\n  return cart.sum;\n}\n";
    let package = (
        "package.json",
        "{\"name\": \"shop\", \"version\": \"1.0.0\"}\n",
    );
    let (found, notes) = review(&[package], "src/cart.js", console, rule);
    assert_eq!(found, 0);
    assert!(notes.iter().any(|n| n.contains("no-console")), "{notes:?}");
    for config in [
        (
            ".eslintrc.json",
            "{\"extends\": \"eslint:recommended\", \"rules\": {\"no-console\": \"error\"}}",
        ),
        (".eslintrc.yml", "rules:\n  no-console: warn\n"),
        (
            "eslint.config.js",
            "export default [\n  { rules: { 'no-console': ['warn', { allow: ['error'] }] } },\n];\n",
        ),
        (
            "package.json",
            "{\"name\": \"shop\", \"eslintConfig\": {\"rules\": {\"no-console\": 2}}}",
        ),
        (
            "biome.json",
            "{\"linter\": {\"rules\": {\"suspicious\": {\"noConsole\": \"error\"}}}}",
        ),
    ] {
        let (found, _) = review(&[config], "src/cart.js", console, rule);
        assert_eq!(found, 1, "{config:?}");
    }
    // A package's own configuration asks for its files, not for a sibling package's.
    let nested = (
        "packages/app/.eslintrc.json",
        "{\"rules\": {\"no-console\": \"error\"}}",
    );
    assert_eq!(
        review(&[nested], "packages/app/src/cart.js", console, rule).0,
        1
    );
    assert_eq!(
        review(&[nested], "packages/lib/src/cart.js", console, rule).0,
        0
    );
    // Switched off is not asked.
    let off = (".eslintrc.json", "{\"rules\": {\"no-console\": \"off\"}}");
    assert_eq!(review(&[off], "src/cart.js", console, rule).0, 0);
}

#[test]
fn print_in_a_python_package_asks_where_ruff_or_flake8_selects_t20() {
    let rule = "python/print-in-package";
    let print = "def run(user):\n    print(\"user\", user.id)\n";
    assert_eq!(review(&[], "pkg/service.py", print, rule).0, 0);
    for config in [
        (
            "pyproject.toml",
            "[tool.ruff.lint]\nselect = [\"E\", \"F\", \"T20\"]\n",
        ),
        ("pyproject.toml", "[tool.ruff]\nselect = [\"ALL\"]\n"),
        ("ruff.toml", "extend-select = [\"T201\"]\n"),
        ("setup.cfg", "[flake8]\nextend-select = T20\n"),
        (
            ".pre-commit-config.yaml",
            "repos:\n  - repo: https://github.com/pycqa/flake8\n    hooks:\n      - id: flake8\n        additional_dependencies: [flake8-print]\n",
        ),
    ] {
        assert_eq!(
            review(&[config], "pkg/service.py", print, rule).0,
            1,
            "{config:?}"
        );
    }
    let other = (
        "pyproject.toml",
        "[tool.ruff.lint]\nselect = [\"E\", \"F\", \"T10\"]\n",
    );
    assert_eq!(review(&[other], "pkg/service.py", print, rule).0, 0);
}

#[test]
fn an_unsafe_block_is_asked_its_safety_comment_where_the_house_writes_them() {
    let rule = "rust/unsafe-without-safety-comment";
    let new_block = "\npub fn read(slot: &Slot) -> u8 {\n    let ptr = slot.ptr();\n    unsafe { *ptr.add(1) }\n}\n";
    // The file's other blocks say why (crossbeam's `once_lock.rs`): the new one should too.
    let documented = "pub fn a(p: *const u8) -> u8 {\n    // SAFETY: `p` points into the live buffer.\n    unsafe { *p }\n}\n\npub fn b(p: *mut u8) {\n    // SAFETY: the caller holds the only reference.\n    unsafe { *p = 0 }\n}\n\npub fn c(p: *const u8) -> u8 {\n    unsafe {\n        // SAFETY: checked above.\n        *p.add(2)\n    }\n}\n";
    let crate_files = |lib: &'static str| [("Cargo.toml", CRATE), ("src/lib.rs", lib)];
    let (found, _) = review(
        &crate_files("pub mod slot;\n"),
        "src/slot.rs",
        &format!("{documented}{new_block}"),
        rule,
    );
    assert_eq!(found, 1, "a new file written in the house style");
    let mut with_base = crate_files("pub mod slot;\n").to_vec();
    with_base.push(("src/slot.rs", documented));
    assert_eq!(review(&with_base, "src/slot.rs", new_block, rule).0, 1);

    // A crate that writes no such comment (parking_lot, tempfile) is not asked.
    let plain = "pub fn a(p: *const u8) -> u8 {\n    unsafe { *p }\n}\n\npub fn b(p: *mut u8) {\n    unsafe { *p = 0 }\n}\n\npub fn c(p: *const u8) -> u8 {\n    // SAFETY: checked above.\n    unsafe { *p.add(2) }\n}\n";
    let mut plain_base = crate_files("pub mod slot;\n").to_vec();
    plain_base.push(("src/slot.rs", plain));
    let (found, notes) = review(&plain_base, "src/slot.rs", new_block, rule);
    assert_eq!(found, 0);
    assert!(
        notes
            .iter()
            .any(|n| n.contains("clippy::undocumented_unsafe_blocks")),
        "{notes:?}"
    );
    // One other block is no convention yet.
    let mut one = crate_files("pub mod slot;\n").to_vec();
    one.push((
        "src/slot.rs",
        "pub fn a(p: *const u8) -> u8 {\n    // SAFETY: valid.\n    unsafe { *p }\n}\n",
    ));
    assert_eq!(review(&one, "src/slot.rs", new_block, rule).0, 0);
    // The lint switched on asks it whatever the file's style.
    let mut linted = vec![
        (
            "Cargo.toml",
            "[package]\nname = \"x\"\nversion = \"0.1.0\"\n\n[lints.clippy]\nundocumented_unsafe_blocks = \"warn\"\n",
        ),
        ("src/lib.rs", "pub mod slot;\n"),
    ];
    linted.push(("src/slot.rs", plain));
    assert_eq!(review(&linted, "src/slot.rs", new_block, rule).0, 1);
}

#[test]
fn the_review_configuration_can_ask_a_rule_the_project_does_not() {
    let config = Config {
        enabled_rules: vec!["rust/panic-outside-tests".into()],
        ..Config::default()
    };
    let catalog = Catalog::builtin().with_overrides(&config);
    let files = [("Cargo.toml", CRATE), ("src/lib.rs", "pub mod engine;\n")];
    let (found, notes) = review_with(
        &catalog,
        &files,
        "src/engine.rs",
        PANIC,
        "rust/panic-outside-tests",
    );
    assert_eq!(found, 1);
    assert!(
        !notes.iter().any(|n| n.contains("stayed quiet")),
        "{notes:?}"
    );
    // And switch one off the project asks for.
    let config = Config {
        disabled_rules: vec!["rust/panic-outside-tests".into()],
        ..Config::default()
    };
    let catalog = Catalog::builtin().with_overrides(&config);
    let asked = [
        (
            "Cargo.toml",
            "[package]\nname = \"x\"\nversion = \"0.1.0\"\n\n[lints.clippy]\npanic = \"deny\"\n",
        ),
        ("src/lib.rs", "pub mod engine;\n"),
    ];
    let (found, _) = review_with(
        &catalog,
        &asked,
        "src/engine.rs",
        PANIC,
        "rust/panic-outside-tests",
    );
    assert_eq!(found, 0);
}

#[test]
fn a_line_where_the_code_suppresses_the_lint_is_the_projects_answer() {
    // A crate that denies `clippy::print_stderr` and allows it in the one function that warns
    // of a bad directive (`#![allow(clippy::print_stderr)] // compatibility`): the linter is
    // quiet there and so is the rule; the same print elsewhere is asked.
    let rule = "rust/print-in-library";
    let files: [(&str, &str); 2] = [
        (
            "Cargo.toml",
            &format!("{CRATE}\n[lints.clippy]\nprint_stderr = \"deny\"\n"),
        ),
        ("src/lib.rs", "pub mod filter;\n"),
    ];
    let allowed = "pub fn build(errors: Vec<String>) {\n    #![allow(clippy::print_stderr)] // compatibility\n    for error in errors {\n        eprintln!(\"warning: {error}, ignoring it\");\n    }\n}\n";
    let (found, _) = review(&files, "src/filter.rs", allowed, rule);
    assert_eq!(found, 0);
    let plain = allowed.replace("    #![allow(clippy::print_stderr)] // compatibility\n", "");
    let (found, _) = review(&files, "src/filter.rs", &plain, rule);
    assert_eq!(found, 1);
    // ESLint's disable comment, where the project's ESLint asks for `no-console`.
    let eslint = [
        (
            "package.json",
            "{\n  \"name\": \"x\",\n  \"main\": \"index.js\"\n}\n",
        ),
        (
            ".eslintrc.json",
            "{ \"rules\": { \"no-console\": \"error\" } }\n",
        ),
    ];
    let disabled = "export function warn(x) {\n  // eslint-disable-next-line no-console\n  console.log(x);\n  return x + 1;\n}\n";
    let (found, _) = review(&eslint, "src/warn.js", disabled, "js/console-log");
    assert_eq!(found, 0);
    let asked = disabled.replace("  // eslint-disable-next-line no-console\n", "");
    let (found, _) = review(&eslint, "src/warn.js", &asked, "js/console-log");
    assert_eq!(found, 1);
}
