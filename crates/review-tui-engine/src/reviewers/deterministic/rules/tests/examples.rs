//! The table-driven test: each built-in rule's examples, kept next to the rule in its TOML.

use super::BUILTIN;
use crate::reviewers::deterministic::rules::Catalog;

#[test]
fn builtin_rule_files_load() {
    let catalog = Catalog::builtin();
    assert!(catalog.len() >= 30, "only {} rules", catalog.len());
}

#[test]
fn every_rule_has_examples_and_they_behave() {
    let problems = BUILTIN.verify_examples();
    let listed: Vec<String> = problems.iter().map(ToString::to_string).collect();
    assert!(listed.is_empty(), "\n{}", listed.join("\n"));
}

/// Injection needs a value an attacker controls: test code builds its commands, queries and
/// markup from literals and never ships (valtio #599's memory-leak test ran
/// `exec(\`node --eval '${testCode}'\`)` on its own snippets and was held as a P1). Each rule
/// about injection stays quiet on its own positive examples moved into test code.
#[test]
fn injection_rules_stay_quiet_in_test_code() {
    use crate::reviewers::deterministic::rules::rule::Example;
    let injection = [
        "go/sql-sprintf",
        "java/sql-concatenation",
        "js/eval",
        "js/eval-built-code",
        "js/sql-interpolation",
        "js/child-process-injection",
        "js/inner-html",
        "python/sql-string-formatting",
        "python/eval-exec",
        "python/subprocess-shell-injection",
        "python/os-system",
        "python/yaml-unsafe-load",
        "rust/sql-format",
    ];
    for id in injection {
        let rule = BUILTIN.rules().iter().find(|r| r.id == id).unwrap();
        let mut checked = 0;
        for example in &rule.examples.positive {
            let Example::Snippet { path, text } = example else {
                continue;
            };
            assert!(BUILTIN.fires_on(rule, example).unwrap(), "{id}: {text}");
            let file = path.rsplit('/').next().unwrap();
            let file = match file.strip_suffix(".go") {
                Some(stem) => format!("{stem}_test.go"),
                None => file.to_string(),
            };
            let in_test = Example::Snippet {
                path: format!("tests/{file}"),
                text: text.clone(),
            };
            assert!(
                !BUILTIN.fires_on(rule, &in_test).unwrap(),
                "{id} in tests/{file}: {text}"
            );
            checked += 1;
        }
        assert!(
            checked > 0,
            "{id} has no snippet example to move into tests"
        );
    }
}
