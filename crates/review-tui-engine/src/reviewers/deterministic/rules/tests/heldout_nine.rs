//! The principles the ninth held-out set's judgments asked for: each shape that fired and must
//! not, beside the shape that must still fire.

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

/// A diff adding `path` with `lines`, scanned with `files` as the repository's file list.
fn added_with(path: &str, lines: &[&str], files: &[&str]) -> Vec<(String, u32)> {
    let mut text = format!(
        "diff --git a/{path} b/{path}\nnew file mode 100644\n--- /dev/null\n+++ b/{path}\n@@ -0,0 +1,{} @@\n",
        lines.len()
    );
    for line in lines {
        text += &format!("+{line}\n");
    }
    let options = ScanOptions {
        repo_files: Some(files.iter().map(|f| f.to_string()).collect()),
        ..ScanOptions::default()
    };
    hits(&BUILTIN.scan(&diff(&text), &options))
}

#[test]
fn a_first_lock_for_a_manifest_that_already_existed_is_no_lock_changed_alone() {
    // resty #375 "Add go.sum to the project": go.sum was ignored, now committed for the go.mod
    // the repository already had.
    let go_sum = [
        "golang.org/x/net v0.0.0-20200513185701-a91f0712d120 h1:abc=",
        "golang.org/x/net v0.0.0-20200513185701-a91f0712d120/go.mod h1:def=",
    ];
    assert_eq!(
        added_with("go.sum", &go_sum, &["go.mod", "go.sum", "client.go"]),
        vec![]
    );
    // A second package manager's lock beside the one the manifest already has is a decision
    // worth a question.
    let yarn = ["left-pad@^1.3.0:", "  version \"1.3.0\""];
    assert_eq!(
        added_with(
            "yarn.lock",
            &yarn,
            &["package.json", "package-lock.json", "yarn.lock"]
        ),
        vec![("deps/lockfile-without-manifest".to_string(), 1)]
    );
}
