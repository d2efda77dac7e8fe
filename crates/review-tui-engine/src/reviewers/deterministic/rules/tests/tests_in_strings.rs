//! A test defined inside a string literal (a pytester source, a template literal, a raw string)
//! or a block comment is a fixture's source, not the repository's test: removing it removes no
//! test.

use super::*;

/// A one-hunk diff of `path`: `before` and `after` as context around the `removed` lines.
fn removal(path: &str, before: &[&str], removed: &[&str], after: &[&str]) -> String {
    let old = before.len() + removed.len() + after.len();
    let new = before.len() + after.len();
    let mut text = format!(
        "diff --git a/{path} b/{path}\n--- a/{path}\n+++ b/{path}\n@@ -1,{old} +1,{new} @@\n"
    );
    for line in before {
        text += &format!(" {line}\n");
    }
    for line in removed {
        text += &format!("-{line}\n");
    }
    for line in after {
        text += &format!(" {line}\n");
    }
    text
}

/// The names of the removed tests reported (`name` in each finding's evidence).
fn removed_tests(text: &str) -> Vec<String> {
    let result = scan(text);
    let evidence: String = result
        .nodes
        .iter()
        .filter(|n| n.rule.as_deref() == Some("any/removed-test"))
        .map(|n| n.text.evidence.clone())
        .collect();
    evidence
        .split('`')
        .skip(1)
        .step_by(2)
        .filter(|name| {
            name.chars()
                .all(|c| c.is_alphanumeric() || c == '_' || c == ' ')
        })
        .map(String::from)
        .collect()
}

#[test]
fn a_test_defined_inside_a_string_literal_is_not_a_removed_test() {
    // anyio 4.12: `test_no_mark` is a function of the `makepyfile("""…""")` source, run by
    // pytester; only the test around it is the repository's.
    let python = removal(
        "tests/test_plugin.py",
        &["import pytest", ""],
        &[
            "def test_adoption_does_not_persist(testdir):",
            "    testdir.makepyfile(",
            "        \"\"\"",
            "        import pytest",
            "",
            "        @pytest.mark.anyio",
            "        async def test_fixt(fixt):",
            "            assert fixt == 1",
            "",
            "        def test_unmarked_coroutine(fixt):",
            "            assert inspect.iscoroutine(fixt)",
            "        \"\"\"",
            "    )",
            "    testdir.runpytest().assert_outcomes(passed=2)",
        ],
        &["", "def test_other():"],
    );
    assert_eq!(removed_tests(&python), ["test_adoption_does_not_persist"]);
    // The same source through `textwrap.dedent('''…''')`.
    let dedent = python
        .replace("testdir.makepyfile(", "testdir.makepyfile(textwrap.dedent(")
        .replace("\"\"\"", "'''")
        .replace("-    )\n", "-    ))\n");
    assert_eq!(removed_tests(&dedent), ["test_adoption_does_not_persist"]);
    // A JS template literal holding a test file's source.
    let js = removal(
        "tests/render.test.js",
        &["const run = require('./run');"],
        &[
            "test('runs the generated suite', () => {",
            "  const source = `",
            "    test('inner case', () => {",
            "      expect(1).toBe(1);",
            "    });",
            "  `;",
            "  expect(run(source)).toBe(true);",
            "});",
        ],
        &["const after = 2;"],
    );
    assert_eq!(removed_tests(&js), ["runs the generated suite"]);
    // A Rust raw string holding the source a macro expands.
    let rust = removal(
        "tests/expand.rs",
        &["use expand::expand;"],
        &[
            "#[test]",
            "fn expands_generated_tests() {",
            "    let source = r#\"",
            "#[test]",
            "fn generated_case() {}",
            "\"#;",
            "    assert!(expand(source).contains(\"generated_case\"));",
            "}",
        ],
        &["fn other() {}"],
    );
    assert_eq!(removed_tests(&rust), ["expands_generated_tests"]);
    // Outside a string the same definitions are tests, each still reported when removed.
    let real = removal(
        "tests/test_plugin.py",
        &["import pytest", ""],
        &[
            "@pytest.mark.anyio",
            "async def test_fixt(fixt):",
            "    assert fixt == 1",
            "",
            "def test_unmarked_coroutine(fixt):",
            "    assert inspect.iscoroutine(fixt)",
        ],
        &["", "def test_other():"],
    );
    assert_eq!(
        removed_tests(&real),
        ["test_fixt", "test_unmarked_coroutine"]
    );
}
