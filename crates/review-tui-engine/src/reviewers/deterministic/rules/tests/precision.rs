//! Regression tests for the false patterns measured on real merged PRs: each one
//! reproduces a shape that fired and must not, next to the shape that must still fire.

use std::path::Path;

use super::*;

fn scan_in(worktree: &Path, text: &str) -> ScanResult {
    let options = ScanOptions {
        worktree: Some(worktree.to_path_buf()),
        ..ScanOptions::default()
    };
    BUILTIN.scan(&diff(text), &options)
}

fn write(root: &Path, path: &str, text: &str) {
    let path = root.join(path);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

fn rule_hits<'a>(result: &'a ScanResult, rule: &str) -> Vec<&'a crate::review::node::ReviewNode> {
    result
        .nodes
        .iter()
        .filter(|n| n.rule.as_deref() == Some(rule))
        .collect()
}

#[test]
fn jsdoc_example_lines_are_not_code_even_when_the_hunk_starts_inside_the_block() {
    // The hunk shows only the example's body: the head file says it is inside `/** … */`.
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "src/format.ts",
        "/**\n * Formats a cart.\n * @example\n   const text = format(cart);\n   console.log(text);\n */\nexport function format(cart) {\n  console.log(cart);\n  return cart;\n}\n",
    );
    // A project that asks for `no-console` (else the rule stays quiet whatever it reads).
    write(
        dir.path(),
        ".eslintrc.json",
        "{\"rules\": {\"no-console\": \"error\"}}",
    );
    let text = "diff --git a/src/format.ts b/src/format.ts\n--- a/src/format.ts\n+++ b/src/format.ts\n\
        @@ -4,5 +4,7 @@\n    const text = format(cart);\n+   console.log(text);\n */\n export function format(cart) {\n+  console.log(cart);\n   return cart;\n }\n";
    let result = scan_in(dir.path(), text);
    assert_eq!(hits(&result), vec![("js/console-log".to_string(), 8)]);
    // Without the worktree the hunk alone cannot know: the example line is read as code.
    assert_eq!(hits(&scan(text)).len(), 2);
}

#[test]
fn python_docstrings_are_not_code() {
    let result = scan(
        "diff --git a/app/db.py b/app/db.py\n--- a/app/db.py\n+++ b/app/db.py\n@@ -1,1 +1,7 @@\n def run(cur, name):\n\
         +    \"\"\"Runs the query.\n+\n+    cur.execute(\"SELECT * FROM users WHERE name = '%s'\" % name)\n+    \"\"\"\n\
         +    cur.execute(\"SELECT * FROM users WHERE name = '%s'\" % name)\n+    print(name)\n",
    );
    assert_eq!(
        hits(&result),
        vec![
            ("python/sql-string-formatting".to_string(), 6),
            ("python/print-in-package".to_string(), 7)
        ]
    );
}

#[test]
fn todo_macro_in_test_suites_and_ui_test_fixtures_is_quiet() {
    let new_file = |path: &str, body: &str| {
        let lines: Vec<String> = body.lines().map(|l| format!("+{l}")).collect();
        format!(
            "diff --git a/{path} b/{path}\nnew file mode 100644\n--- /dev/null\n+++ b/{path}\n@@ -0,0 +1,{} @@\n{}\n",
            lines.len(),
            lines.join("\n")
        )
    };
    let mut text = new_file(
        "tests/ui/unimplemented.rs",
        "fn main() { unimplemented!() }",
    );
    text.push_str(&new_file(
        "src/store.rs",
        "fn delete() { todo!() }\n#[cfg(test)]\nmod tests {\n    fn fake() { unimplemented!() }\n}\nfn after() { todo!() }",
    ));
    assert_eq!(
        hits(&scan(&text)),
        vec![
            ("rust/todo-macro".to_string(), 1),
            ("rust/todo-macro".to_string(), 6)
        ]
    );
}

#[test]
fn a_test_module_is_known_from_the_head_file_when_the_hunk_does_not_show_it() {
    let dir = tempfile::tempdir().unwrap();
    let mut head =
        String::from("pub fn real() {}\n\n#[cfg(test)]\nmod tests {\n    use super::*;\n\n");
    for i in 0..20 {
        head.push_str(&format!("    fn helper_{i}() {{}}\n"));
    }
    head.push_str("    fn fake() -> u8 { \"1\".parse().unwrap() }\n}\n");
    write(dir.path(), "src/lib.rs", &head);
    let text = "diff --git a/src/lib.rs b/src/lib.rs\n--- a/src/lib.rs\n+++ b/src/lib.rs\n\
        @@ -26,1 +26,2 @@ fn helper_19() {}\n     fn helper_19() {}\n+    fn fake() -> u8 { \"1\".parse().unwrap() }\n";
    assert!(hits(&scan_in(dir.path(), text)).is_empty());
    // The hunk alone does not show the module.
    assert_eq!(
        hits(&scan(text)),
        vec![("rust/unwrap-outside-tests".to_string(), 27)]
    );
}

#[test]
fn junit_expected_exception_idiom_is_not_an_empty_catch() {
    let result = scan(
        "diff --git a/src/test/java/a/BoxTest.java b/src/test/java/a/BoxTest.java\n--- a/src/test/java/a/BoxTest.java\n+++ b/src/test/java/a/BoxTest.java\n\
         @@ -1,1 +1,12 @@\n class BoxTest {\n+  public void rejectsNull() {\n+    try {\n+      box.put(null);\n+      fail(\"expected NPE\");\n+    } catch (NullPointerException e) {\n+    }\n+  }\n\
         +  public void rejectsEmpty() {\n+    try { box.put(\"\"); } catch (IllegalArgumentException expected) {}\n+  }\n+}\n",
    );
    assert!(
        rule_hits(&result, "java/empty-catch").is_empty(),
        "{:?}",
        hits(&result)
    );
    let real = scan(
        "diff --git a/src/main/java/a/Box.java b/src/main/java/a/Box.java\n--- a/src/main/java/a/Box.java\n+++ b/src/main/java/a/Box.java\n\
         @@ -1,1 +1,4 @@\n class Box {\n+  void close() {\n+    try { stream.close(); } catch (IOException e) {}\n+  }\n",
    );
    assert_eq!(hits(&real), vec![("java/empty-catch".to_string(), 3)]);
}

#[test]
fn a_block_moved_within_a_file_is_not_new_code() {
    let result = scan(
        "diff --git a/src/lib.rs b/src/lib.rs\n--- a/src/lib.rs\n+++ b/src/lib.rs\n\
         @@ -1,4 +1,5 @@\n-fn a() {\n-    let v = parse(\"1\").unwrap();\n-}\n fn b() {}\n+fn a() {\n+        let v = parse(\"1\").unwrap();\n+}\n+fn c() { dbg!(1); }\n",
    );
    assert_eq!(hits(&result), vec![("rust/dbg-macro".to_string(), 5)]);
}

#[test]
fn code_only_rewrapped_is_not_new_code() {
    // http #645: rustfmt split `unsafe { self.entries.set_len(0); }` over three lines.
    let rewrapped = "diff --git a/src/map.rs b/src/map.rs\n--- a/src/map.rs\n+++ b/src/map.rs\n\
         @@ -1,3 +1,5 @@\n fn clear(&mut self) {\n-    unsafe { self.entries.set_len(0); }\n+    unsafe {\n+        self.entries.set_len(0);\n+    }\n }\n";
    assert_eq!(hits(&scan(rewrapped)), vec![]);
    // Re-wrapped and changed: what is new is new (the `unsafe` block itself was there before:
    // restated, see `an_existing_unsafe_block_rewritten_in_place_is_not_a_new_one`).
    let changed = rewrapped.replace(
        "+        self.entries.set_len(0);\n",
        "+        dbg!(self.entries.set_len(0));\n",
    );
    assert_eq!(
        hits(&scan(&changed)),
        vec![("rust/dbg-macro".to_string(), 3)]
    );
}

#[test]
fn code_refactored_in_place_is_not_new_code() {
    // httpx 0.28.0..0.28.1: the `verify is False` branch renamed its variable; the same
    // `check_hostname = False` was there before.
    let renamed = "diff --git a/httpx/_config.py b/httpx/_config.py\n--- a/httpx/_config.py\n+++ b/httpx/_config.py\n\
         @@ -40,6 +40,5 @@\n     elif verify is False:\n-        ssl_context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)\n-        ssl_context.check_hostname = False\n-        ssl_context.verify_mode = ssl.CERT_NONE\n-        return ssl_context\n+        ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)\n+        ctx.check_hostname = False\n+        ctx.verify_mode = ssl.CERT_NONE\n     elif isinstance(verify, str):\n";
    assert_eq!(hits(&scan(renamed)), vec![]);
    // A second such line in the same hunk is new; so is one where a comment said it before.
    let added = renamed.replace("+40,5", "+40,6").replace(
        "+        ctx.verify_mode = ssl.CERT_NONE\n",
        "+        ctx.verify_mode = ssl.CERT_NONE\n+        other.check_hostname = False\n",
    );
    assert_eq!(
        hits(&scan(&added)),
        vec![("python/tls-verification-disabled".to_string(), 44)]
    );
    let was_comment = renamed.replace(
        "-        ssl_context.check_hostname = False\n",
        "-        # ssl_context.check_hostname = False\n",
    );
    assert_eq!(
        hits(&scan(&was_comment)),
        vec![("python/tls-verification-disabled".to_string(), 42)]
    );
}

#[test]
fn a_removed_test_names_the_test_not_its_annotation() {
    let result = scan(
        "diff --git a/src/test/java/a/BoxTest.java b/src/test/java/a/BoxTest.java\n--- a/src/test/java/a/BoxTest.java\n+++ b/src/test/java/a/BoxTest.java\n\
         @@ -10,8 +10,2 @@\n   @Test\n-  public void opensWhenAsked() {\n-    box.open();\n-    assertTrue(box.isOpen());\n-  }\n-\n-  @Test\n   public void closes() {\n",
    );
    let found = rule_hits(&result, "any/removed-test");
    assert_eq!(found.len(), 1, "{:?}", hits(&result));
    assert_eq!(found[0].anchor.as_ref().unwrap().start_line, 11);
    assert!(
        found[0].text.evidence.contains("`opensWhenAsked`"),
        "{}",
        found[0].text.evidence
    );
}

#[test]
fn a_removed_test_that_still_exists_elsewhere_at_the_head_is_not_a_loss() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "tests/test_login.py",
        "def test_login_rejects_bad_password(client):\n    assert client.post('/login').status_code == 401\n",
    );
    write(dir.path(), "tests/test_api.py", "import pytest\n");
    let text = "diff --git a/tests/test_api.py b/tests/test_api.py\n--- a/tests/test_api.py\n+++ b/tests/test_api.py\n\
        @@ -1,5 +1,1 @@\n-def test_login_rejects_bad_password(client):\n-    assert client.post('/login').status_code == 401\n-def test_logout(client):\n-    assert client.post('/logout').status_code == 200\n import pytest\n";
    let result = scan_in(dir.path(), text);
    let found = rule_hits(&result, "any/removed-test");
    assert_eq!(found.len(), 1, "{:?}", hits(&result));
    assert!(found[0].text.evidence.contains("`test_logout`"));
}

#[test]
fn a_test_renamed_split_moved_or_reformatted_is_not_a_removed_test() {
    let removed = |file: &str, hunk: &str| {
        format!("diff --git a/{file} b/{file}\n--- a/{file}\n+++ b/{file}\n{hunk}")
    };
    let old = "-def test_parses_dates():\n-    value = parse('2024-01-02')\n-    assert value.year == 2024\n-    assert value.day == 2\n";
    // Renamed in place: the body stays.
    let renamed = removed(
        "tests/test_dates.py",
        &format!(
            "@@ -1,5 +1,5 @@\n import pytest\n{old}+def test_parses_iso_dates():\n+    value = parse('2024-01-02')\n+    assert value.year == 2024\n+    assert value.day == 2\n"
        ),
    );
    assert_eq!(hits(&scan(&renamed)), vec![]);
    // Moved to another file of the change, reformatted on the way.
    let moved = format!(
        "{}{}",
        removed(
            "tests/test_dates.py",
            &format!("@@ -1,5 +1,1 @@\n import pytest\n{old}")
        ),
        removed(
            "tests/test_parse.py",
            "@@ -1,1 +1,3 @@\n import pytest\n+def test_parses_dates():\n+    assert parse('2024-01-02').year == 2024\n"
        )
    );
    assert_eq!(hits(&scan(&moved)), vec![]);
    // Split in two: the assertions reappear across the new tests.
    let split = removed(
        "tests/test_dates.py",
        &format!(
            "@@ -1,5 +1,7 @@\n import pytest\n{old}+def test_year():\n+    value = parse('2024-01-02')\n+    assert value.year == 2024\n+def test_day():\n+    value = parse('2024-01-02')\n+    assert value.day == 2\n"
        ),
    );
    assert_eq!(hits(&scan(&split)), vec![]);
    // Rewritten where it stood, under a new name of the same subject and with a new message
    // (jinja 3.1.5: `test_xmlattr_key_with_spaces` became the parametrized
    // `test_xmlattr_key_invalid`).
    let rewritten = removed(
        "tests/test_filters.py",
        "@@ -1,6 +1,7 @@\n import pytest\n-    def test_xmlattr_key_with_spaces(self, env):\n-        with pytest.raises(ValueError, match=\"Spaces are not allowed\"):\n-            env.from_string(\"{{ {'src=1 onerror=alert(1)': 'c'}|xmlattr }}\").render()\n+    @pytest.mark.parametrize(\"sep\", (\"\\t\", \" \", \"/\"))\n+    def test_xmlattr_key_invalid(self, env, sep):\n+        with pytest.raises(ValueError, match=\"Invalid character\"):\n+            env.from_string(\"{{ {key: 'c'}|xmlattr }}\").render(key=f\"class{sep}x\")\n \n     def test_sort1(self, env):\n",
    );
    assert_eq!(hits(&scan(&rewritten)), vec![]);
    // Replaced in place by a test of another subject: the old one is lost.
    let other_subject = rewritten.replace("test_xmlattr_key_invalid", "test_sort_invalid");
    assert_eq!(
        hits(&scan(&other_subject)),
        vec![("any/removed-test".to_string(), 2)]
    );
    // The same subject added elsewhere in the file, not where the test stood: still a loss.
    let elsewhere = removed(
        "tests/test_filters.py",
        "@@ -1,6 +1,3 @@\n import pytest\n-    def test_xmlattr_key_with_spaces(self, env):\n-        with pytest.raises(ValueError, match=\"Spaces are not allowed\"):\n-            env.from_string(\"{{ {'src=1 onerror=alert(1)': 'c'}|xmlattr }}\").render()\n \n     def test_sort1(self, env):\n@@ -40,1 +37,3 @@\n     pass\n+    def test_xmlattr_key_invalid(self, env):\n+        assert True\n",
    );
    assert_eq!(
        hits(&scan(&elsewhere)),
        vec![("any/removed-test".to_string(), 2)]
    );
    // Gone with nothing in its place: a loss.
    let lost = removed(
        "tests/test_dates.py",
        &format!("@@ -1,5 +1,1 @@\n import pytest\n{old}"),
    );
    assert_eq!(
        hits(&scan(&lost)),
        vec![("any/removed-test".to_string(), 2)]
    );
}

#[test]
fn a_removed_test_whose_cases_moved_into_a_parametrised_test_is_not_a_loss() {
    // bytes 1.10: `test_get_u8` became one case of a test macro instantiated per buffer type.
    let moved = "diff --git a/tests/test_buf.rs b/tests/test_buf.rs\n--- a/tests/test_buf.rs\n+++ b/tests/test_buf.rs\n\
         @@ -10,7 +10,11 @@\n use bytes::Buf;\n-#[test]\n-fn test_get_u8() {\n-    let mut buf = &b\"\\x21zomg\"[..];\n-    assert_eq!(0x21, buf.get_u8());\n-}\n+macro_rules! buf_tests {\n+    ($make:ident, $name:ident, $get:ident) => {\n+        #[test]\n+        fn $name() { assert_eq!($make().$get(), 0xff); }\n+    };\n+}\n+buf_tests!(make_input, get_u8, get_u8);\n+buf_tests!(make_input, get_u16, get_u16);\n+\n fn other() {}\n";
    assert_eq!(rule_hits(&scan(moved), "any/removed-test").len(), 0);
    // pytest: `test_parse_empty` became a row of a parametrised `test_parse` further down.
    let python = "diff --git a/tests/test_parse.py b/tests/test_parse.py\n--- a/tests/test_parse.py\n+++ b/tests/test_parse.py\n\
         @@ -1,5 +1,2 @@\n import pytest\n-def test_parse_empty():\n-    assert parse(\"\") is None\n-\n def test_other():\n\
         @@ -40,2 +37,5 @@\n def test_last():\n     pass\n+@pytest.mark.parametrize(\"text,expected\", [(\"\", None), (\"1\", 1)])\n+def test_parse(text, expected):\n+    assert parse(text) == expected\n";
    assert_eq!(rule_hits(&scan(python), "any/removed-test").len(), 0);
    // A parametrised test of another subject does not take the removed test's cases.
    let other = python.replace("def test_parse(text", "def test_render(text");
    assert_eq!(rule_hits(&scan(&other), "any/removed-test").len(), 1);
    // Without a parametrisation, a narrower name alone is not a table.
    let plain = python
        .replace(
            "+@pytest.mark.parametrize(\"text,expected\", [(\"\", None), (\"1\", 1)])\n",
            "+\n",
        )
        .replace("assert parse(text) == expected", "assert parse(\"1\") == 1");
    assert_eq!(rule_hits(&scan(&plain), "any/removed-test").len(), 1);
}

#[test]
fn a_removed_test_of_a_deleted_module_went_with_its_code() {
    // viper 1.20 deleted the INI codec and `TestIni` with it.
    let text = "diff --git a/internal/encoding/ini/codec.go b/internal/encoding/ini/codec.go\ndeleted file mode 100644\n--- a/internal/encoding/ini/codec.go\n+++ /dev/null\n@@ -1,2 +0,0 @@\n-package ini\n-type Codec struct{}\n\
         diff --git a/viper_test.go b/viper_test.go\n--- a/viper_test.go\n+++ b/viper_test.go\n@@ -10,5 +10,1 @@\n-func TestIni(t *testing.T) {\n-\tv := New()\n-\tv.SetConfigType(\"ini\")\n-}\n func TestOther(t *testing.T) {}\n";
    assert_eq!(rule_hits(&scan(text), "any/removed-test").len(), 0);
    // A test of something else still counts.
    let unrelated = text
        .replace("TestIni", "TestYaml")
        .replace("\"ini\"", "\"yaml\"");
    assert_eq!(rule_hits(&scan(&unrelated), "any/removed-test").len(), 1);
    // A test file deleted with the source of its own directory.
    let with_file = "diff --git a/internal/encoding/javaproperties/codec.go b/internal/encoding/javaproperties/codec.go\ndeleted file mode 100644\n--- a/internal/encoding/javaproperties/codec.go\n+++ /dev/null\n@@ -1,1 +0,0 @@\n-package javaproperties\n\
         diff --git a/internal/encoding/javaproperties/codec_test.go b/internal/encoding/javaproperties/codec_test.go\ndeleted file mode 100644\n--- a/internal/encoding/javaproperties/codec_test.go\n+++ /dev/null\n@@ -1,3 +0,0 @@\n-func TestCodec_DecodeEncode(t *testing.T) {\n-\tcheck(t)\n-}\n";
    assert_eq!(rule_hits(&scan(with_file), "any/removed-test").len(), 0);
}

#[test]
fn a_ci_workflow_only_reindented_says_nothing_new() {
    // The workflow re-indented whole (two spaces to four): the trigger and the checkout were
    // both there before; the check read every re-indented line as added.
    let text = "diff --git a/.github/workflows/pr.yml b/.github/workflows/pr.yml\n--- a/.github/workflows/pr.yml\n+++ b/.github/workflows/pr.yml\n\
         @@ -1,8 +1,8 @@\n on:\n-  pull_request_target:\n+    pull_request_target:\n jobs:\n-  build:\n-    steps:\n-      - uses: actions/checkout@v4\n-        with:\n-          ref: ${{ github.event.pull_request.head.sha }}\n+    build:\n+        steps:\n+            - uses: actions/checkout@v4\n+              with:\n+                  ref: ${{ github.event.pull_request.head.sha }}\n";
    let found = hits(&scan(text));
    assert!(
        !found
            .iter()
            .any(|(rule, _)| rule.contains("pull-request-target")),
        "{found:?}"
    );
    // The same lines where the base had no such trigger: new.
    let new_trigger = text.replace("-  pull_request_target:\n", "-  pull_request:\n");
    let found = hits(&scan(&new_trigger));
    assert!(
        found
            .iter()
            .any(|(rule, _)| rule.contains("pull-request-target")),
        "{found:?}"
    );
}

#[test]
fn a_tools_official_installer_piped_to_a_shell_is_an_opt_in_p3_with_its_reason() {
    // Shipped off (none of 6 worth a question on code never tuned on); a branch's script stays on.
    let default = Catalog::builtin().with_overrides(&crate::config::Config::default());
    assert!(default.get("shell/curl-pipe-installer").is_none());
    assert!(default.get("shell/curl-pipe-shell").is_some());
    let line = |command: &str| {
        format!(
            "diff --git a/.github/workflows/ci.yml b/.github/workflows/ci.yml\n--- a/.github/workflows/ci.yml\n+++ b/.github/workflows/ci.yml\n@@ -1,1 +1,2 @@\n jobs:\n+      - run: {command}\n"
        )
    };
    let official = scan(&line("curl -LsSf https://astral.sh/uv/install.sh | sh"));
    let found = rule_hits(&official, "shell/curl-pipe-installer");
    assert_eq!(found.len(), 1, "{:?}", hits(&official));
    assert_eq!(found[0].priority, crate::review::node::Priority::P3);
    assert!(
        found[0].text.impact.contains("vendor"),
        "{}",
        found[0].text.impact
    );
    assert!(rule_hits(&official, "shell/curl-pipe-shell").is_empty());
    // A script from a branch of a code host stays P2.
    let raw = scan(&line(
        "curl -sSfL https://raw.githubusercontent.com/golangci/golangci-lint/master/install.sh | bash -s -- v1.55",
    ));
    assert_eq!(rule_hits(&raw, "shell/curl-pipe-shell").len(), 1);
    assert!(rule_hits(&raw, "shell/curl-pipe-installer").is_empty());
}

#[test]
fn todo_comments_are_findings_only_when_configured() {
    let catalog = Catalog::builtin();
    let default = catalog
        .clone()
        .with_overrides(&crate::config::Config::default());
    assert!(default.get("any/todo-comment").is_none());
    let configured = catalog.with_overrides(&crate::config::Config {
        enabled_rules: vec!["any/todo-comment".into()],
        ..crate::config::Config::default()
    });
    assert!(configured.get("any/todo-comment").is_some());
}

/// A diff adding `count` files under `dir`: a licence, a manifest, and code files, one of
/// which logs and one of which evaluates.
fn import_of(dir: &str, count: usize) -> String {
    let mut text = String::new();
    let mut add = |path: &str, line: &str| {
        text.push_str(&format!(
            "diff --git a/{dir}/{path} b/{dir}/{path}\nnew file mode 100644\n--- /dev/null\n+++ b/{dir}/{path}\n@@ -0,0 +1,1 @@\n+{line}\n"
        ));
    };
    add("LICENSE", "MIT License");
    add("package.json", "{ \"name\": \"libfoo\" }");
    add("src/log.js", "console.log(state);");
    add("src/run.js", "eval(userInput);");
    for i in 4..count {
        add(&format!("src/part{i}.js"), "export const x = 1;");
    }
    text
}

#[test]
fn a_repository_imported_whole_is_read_as_vendored() {
    let imported = scan(&import_of("third/libfoo", 60));
    let found = hits(&imported);
    assert!(
        !found.iter().any(|(rule, _)| rule == "js/console-log"),
        "{found:?}"
    );
    // The security rules read it anyway.
    assert!(
        found.iter().any(|(rule, _)| rule.starts_with("js/eval")),
        "{found:?}"
    );
    assert!(
        imported
            .coverage
            .skipped
            .iter()
            .any(|s| s.path == "third/libfoo/src/log.js"
                && s.reason.to_string() == "vendored (third/libfoo/)")
    );
    // A handful of new files is the author's own code.
    let small = hits(&scan(&import_of("third/libfoo", 10)));
    assert!(
        small.iter().any(|(rule, _)| rule == "js/console-log"),
        "{small:?}"
    );
}

/// A deleted JavaScript test file holding `tests` one-line test definitions.
fn deleted_js_tests(path: &str, titles: &[&str]) -> String {
    let lines: Vec<String> = titles
        .iter()
        .map(|t| format!("-test('{t}', testValue, '{t}');"))
        .collect();
    format!(
        "diff --git a/{path} b/{path}\ndeleted file mode 100644\n--- a/{path}\n+++ /dev/null\n@@ -1,{} +0,0 @@\n{}\n",
        lines.len(),
        lines.join("\n")
    )
}

#[test]
fn tests_removed_together_in_one_change_are_one_finding_naming_the_count() {
    // execa 10.0 dropped the `"ipc"` stdio value: 24 tests of it went in one change, reported
    // once each. One decision is one question for the reviewer.
    let mut text = deleted_js_tests(
        "test/stdio/options.js",
        &["stdin can be ipc", "stdout can be ipc", "stderr can be ipc"],
    );
    text.push_str(&deleted_js_tests(
        "test/ipc/validation.js",
        &["sendMessage needs ipc", "getOneMessage needs ipc"],
    ));
    let result = scan(&text);
    let found = rule_hits(&result, "any/removed-test");
    assert_eq!(found.len(), 1, "{found:#?}");
    let evidence = &found[0].text.evidence;
    assert!(
        evidence.contains("`stdin can be ipc`, `stdout can be ipc`, `stderr can be ipc` and 2 more (5 in this change, in 2 files)"),
        "{evidence}"
    );
    let anchor = found[0].anchor.as_ref().unwrap();
    assert_eq!(
        (anchor.path.as_str(), anchor.start_line),
        ("test/stdio/options.js", 1)
    );
    // One removed test is reported as it is.
    let one = deleted_js_tests("test/stdio/options.js", &["stdin can be ipc"]);
    let result = scan(&one);
    let found = rule_hits(&result, "any/removed-test");
    assert_eq!(found.len(), 1);
    assert!(!found[0].text.evidence.contains("in this change"));
}

/// A file the change adds, its lines given.
fn added_file(path: &str, body: &str) -> String {
    let lines: Vec<String> = body.lines().map(|l| format!("+{l}")).collect();
    format!(
        "diff --git a/{path} b/{path}\nnew file mode 100644\n--- /dev/null\n+++ b/{path}\n@@ -0,0 +1,{} @@\n{}\n",
        lines.len(),
        lines.join("\n")
    )
}

#[test]
fn a_bare_except_that_raises_or_guards_a_test_hides_nothing() {
    // tqdm: `except: raise` re-raises whatever it caught; its tests skip on any import error.
    let reraise = added_file(
        "tqdm/_utils.py",
        "try:\n    import colorama\nexcept ImportError:\n    colorama = None\nexcept:  # pragma: no cover\n    raise\n",
    );
    assert_eq!(rule_hits(&scan(&reraise), "python/bare-except").len(), 0);
    let in_test = added_file(
        "tqdm/tests/tests_perf.py",
        "def test_overhead():\n    try:\n        assert check_cpu_time()\n    except:\n        skip()\n",
    );
    assert_eq!(rule_hits(&scan(&in_test), "python/bare-except").len(), 0);
    // A bare except that swallows, in the package, is still one.
    let swallowed = added_file(
        "tqdm/_utils.py",
        "try:\n    import colorama\nexcept:\n    colorama = None\n",
    );
    assert_eq!(rule_hits(&scan(&swallowed), "python/bare-except").len(), 1);
}

#[test]
fn a_skipped_test_with_its_reason_beside_it_is_documented() {
    // commander 15: the reason is the comment above; itertools: the comment on the line.
    let js = added_file(
        "tests/lookup.test.js",
        "\n// Fails on Node 20 as ESM: Node does not run .ts files by default.\ntest.skip('lookup of .ts', async () => {\n});\n",
    );
    assert_eq!(rule_hits(&scan(&js), "js/skipped-test").len(), 0);
    let rust = added_file(
        "tests/specializations.rs",
        "#[test]\n#[ignore] // Fails: `MultiProduct` is not fused.\nfn multi_product() {}\n",
    );
    assert_eq!(rule_hits(&scan(&rust), "rust/ignored-test").len(), 0);
    let python = added_file(
        "tests/test_api.py",
        "# Needs a live server, run by hand.\n@pytest.mark.skip\ndef test_live():\n    pass\n",
    );
    assert_eq!(rule_hits(&scan(&python), "python/skipped-test").len(), 0);
    // Without a word of why, the question stands.
    let bare = added_file(
        "tests/lookup.test.js",
        "\ntest.skip('lookup of .ts', async () => {\n});\n",
    );
    assert_eq!(rule_hits(&scan(&bare), "js/skipped-test").len(), 1);
    let bare = added_file("tests/api.rs", "#[test]\n#[ignore]\nfn slow() {}\n");
    assert_eq!(rule_hits(&scan(&bare), "rust/ignored-test").len(), 1);
}

#[test]
fn a_function_named_test_outside_test_files_is_not_a_test() {
    // tqdm 4.68 removed `def test(a=1, b=2, c=3)`, a helper inside a docstring example of
    // `tqdm/utils.py`: pytest collects tests from test files only; so does `go test`.
    let text = "diff --git a/tqdm/utils.py b/tqdm/utils.py\n--- a/tqdm/utils.py\n+++ b/tqdm/utils.py\n@@ -60,5 +60,1 @@\n-def test(a=1, b=2, c=3):\n-    return a + b\n-\n-\n def other():\n";
    assert_eq!(rule_hits(&scan(text), "any/removed-test").len(), 0);
    let go = "diff --git a/helpers.go b/helpers.go\n--- a/helpers.go\n+++ b/helpers.go\n@@ -1,4 +1,1 @@\n-func TestHelper(t *testing.T) {\n-\tcheck(t)\n-}\n func other() {}\n";
    assert_eq!(rule_hits(&scan(go), "any/removed-test").len(), 0);
    // In a test file it is a test.
    let in_tests = text.replace("tqdm/utils.py", "tqdm/tests/test_utils.py");
    assert_eq!(rule_hits(&scan(&in_tests), "any/removed-test").len(), 1);
}

#[test]
fn a_removed_test_renamed_to_a_qualified_name_in_the_same_change_is_not_a_loss() {
    // logrus #878 moved `TestUnmarshalText` to level_test.go as `TestLevelUnmarshalText`.
    let text = "diff --git a/logrus_test.go b/logrus_test.go\n--- a/logrus_test.go\n+++ b/logrus_test.go\n@@ -10,5 +10,1 @@\n-func TestUnmarshalText(t *testing.T) {\n-\tvar l Level\n-\tl.UnmarshalText([]byte(\"info\"))\n-}\n func TestOther(t *testing.T) {}\n\
         diff --git a/level_test.go b/level_test.go\nnew file mode 100644\n--- /dev/null\n+++ b/level_test.go\n@@ -0,0 +1,5 @@\n+func TestLevelUnmarshalText(t *testing.T) {\n+\tfor _, level := range AllLevels {\n+\t\trequire.NoError(t, u.UnmarshalText([]byte(level.String())))\n+\t}\n+}\n";
    assert_eq!(rule_hits(&scan(text), "any/removed-test").len(), 0);
    // A test that only shares a word is not its successor.
    let other = text.replace("TestLevelUnmarshalText", "TestLevelText");
    assert_eq!(rule_hits(&scan(&other), "any/removed-test").len(), 1);
}

/// A binary file the change adds.
fn added_binary(path: &str) -> String {
    format!(
        "diff --git a/{path} b/{path}\nnew file mode 100644\nindex 0000000..1111111\nBinary files /dev/null and b/{path} differ\n"
    )
}

#[test]
fn a_binary_fixture_under_the_tests_is_what_the_tests_read() {
    // bat: UTF-16 and control-character inputs under `tests/examples/`; the tests are about them.
    for path in [
        "tests/examples/utf16.txt",
        "src/test/resources/bomtests/bom_utf32be.html",
    ] {
        let result = scan(&added_binary(path));
        assert_eq!(
            rule_hits(&result, "any/binary-file-added").len(),
            0,
            "{path}"
        );
    }
    // A binary outside the tests is a question where the rule is enabled; key material is
    // `any/key-store-added`'s.
    let result = scan(&added_binary("tools/protoc.jar"));
    assert_eq!(rule_hits(&result, "any/binary-file-added").len(), 1);
    let result = scan(&added_binary("keys/release.keystore"));
    assert_eq!(rule_hits(&result, "any/key-store-added").len(), 1);
    assert!(rule_hits(&result, "any/binary-file-added").is_empty());
}

#[test]
fn a_binary_file_added_is_not_reported_unless_enabled_but_a_key_store_still_is() {
    // Held out, 1 of 26 new binaries was worth a question (design sources, media, fixtures),
    // and that one was a key store. The secret scan reads no lines of a binary file, so the
    // key stores keep their own rule.
    let catalog = Catalog::builtin();
    let default = catalog
        .clone()
        .with_overrides(&crate::config::Config::default());
    assert!(default.get("any/binary-file-added").is_none());
    let found = default.scan(
        &diff(&added_binary("tools/protoc.jar")),
        &ScanOptions::default(),
    );
    assert!(found.nodes.is_empty(), "{:?}", found.nodes);
    for path in [
        "app/debug.keystore",
        "config/server.jks",
        "config/server.jceks",
        "certs/client.p12",
        "certs/client.pfx",
        "android/upload.bks",
    ] {
        let found = default.scan(&diff(&added_binary(path)), &ScanOptions::default());
        assert_eq!(rule_hits(&found, "any/key-store-added").len(), 1, "{path}");
    }
    let configured = catalog.with_overrides(&crate::config::Config {
        enabled_rules: vec!["any/binary-file-added".into()],
        ..crate::config::Config::default()
    });
    let found = configured.scan(
        &diff(&added_binary("tools/protoc.jar")),
        &ScanOptions::default(),
    );
    assert_eq!(rule_hits(&found, "any/binary-file-added").len(), 1);
    // Enabled, it does not ask a key store twice.
    let found = configured.scan(
        &diff(&added_binary("app/debug.keystore")),
        &ScanOptions::default(),
    );
    assert_eq!(found.nodes.len(), 1, "{:?}", found.nodes);
}

#[test]
fn a_rule_measured_near_useless_on_code_never_seen_is_off_unless_configured() {
    // `any/large-file-added`: 0 useful of 8 over two sweeps of repositories never swept before
    // (new library sources, examples, a benchmark record). Off by default, not tuned case by
    // case; a repository that wants the question enables it.
    let big = added_file("src/seq.go", &"x := 1\n".repeat(1200));
    let catalog = Catalog::builtin();
    let default = catalog
        .clone()
        .with_overrides(&crate::config::Config::default());
    assert!(default.get("any/large-file-added").is_none());
    let found = default.scan(&diff(&big), &ScanOptions::default());
    assert!(rule_hits(&found, "any/large-file-added").is_empty());
    let configured = catalog.with_overrides(&crate::config::Config {
        enabled_rules: vec!["any/large-file-added".into()],
        ..crate::config::Config::default()
    });
    let found = configured.scan(&diff(&big), &ScanOptions::default());
    assert_eq!(rule_hits(&found, "any/large-file-added").len(), 1);
}

#[test]
fn removed_tests_and_locks_changed_alone_are_asked_only_where_configured() {
    // On repositories the rules were never tuned on, 7 of 289 removed tests and 1 of 10 locks
    // changed alone were worth a reviewer's question: both are off by default and asked where
    // a repository enables them, each with its full logic.
    let module = "def run(text):\n    return text.split()\n";
    let tests = "import parse\n\ndef test_empty_input():\n    assert parse.run('') == []\n";
    let removed = (
        vec![("parse.py", module), ("tests/test_parse.py", tests)],
        vec![("tests/test_parse.py", "import parse\n")],
    );
    let manifest = "{\n  \"name\": \"app\",\n  \"dependencies\": { \"left-pad\": \"^1.3.0\" }\n}\n";
    let lock = "{\n  \"name\": \"app\",\n  \"lockfileVersion\": 3,\n  \"packages\": {\n    \"\": { \"name\": \"app\", \"dependencies\": { \"left-pad\": \"^1.3.0\" } }\n  }\n}\n";
    let stray = (
        vec![
            (
                "package.json",
                "{\n  \"private\": true,\n  \"workspaces\": [\"packages/*\"]\n}\n",
            ),
            ("yarn.lock", "# yarn lockfile v1\n"),
            ("packages/app/package.json", manifest),
        ],
        vec![("packages/app/package-lock.json", lock)],
    );
    let catalog = Catalog::builtin();
    let default = catalog
        .clone()
        .with_overrides(&crate::config::Config::default());
    let configured = catalog.with_overrides(&crate::config::Config {
        enabled_rules: vec![
            "any/removed-test".into(),
            "deps/lockfile-without-manifest".into(),
        ],
        ..crate::config::Config::default()
    });
    type Change<'a> = (Vec<(&'a str, &'a str)>, Vec<(&'a str, &'a str)>);
    let count = |catalog: &Catalog, (base, head): &Change<'_>, rule| {
        scan_change_with(catalog, base, head, "Tidy the package")
            .iter()
            .filter(|n| n.rule.as_deref() == Some(rule))
            .count()
    };
    for (change, rule) in [
        (&removed, "any/removed-test"),
        (&stray, "deps/lockfile-without-manifest"),
    ] {
        assert!(default.get(rule).is_none(), "{rule}");
        assert_eq!(count(&default, change, rule), 0, "{rule}");
        assert_eq!(count(&configured, change, rule), 1, "{rule}");
    }
}

#[test]
fn an_action_the_workflows_already_took_by_a_movable_ref_is_not_newly_trusted() {
    // itertools, reqwest: `dtolnay/rust-toolchain@master` added where the workflows already
    // took the same action from `@stable` (a branch). Only what the change introduces is asked.
    let dir = tempfile::tempdir().unwrap();
    let sha = "8f4b7f84864484a7bf31766abe9204da3cbe65b3";
    let ci = format!(
        "jobs:\n  test:\n    steps:\n      - uses: dtolnay/rust-toolchain@stable\n      - uses: acme/deploy@{sha}\n"
    );
    write(dir.path(), ".github/workflows/ci.yml", &ci);
    // The job holds a secret: what a branch could take (see `workflow_reach`).
    let added = "jobs:\n  msrv:\n    steps:\n      - uses: dtolnay/rust-toolchain@master\n      - uses: acme/deploy@main\n      - uses: other/setup@master\n      - run: deploy\n        env:\n          KEY: ${{ secrets.DEPLOY_KEY }}\n";
    write(dir.path(), ".github/workflows/msrv.yml", added);
    let options = ScanOptions {
        worktree: Some(dir.path().to_path_buf()),
        repo_files: Some(
            [".github/workflows/ci.yml", ".github/workflows/msrv.yml"]
                .map(String::from)
                .into(),
        ),
        ..ScanOptions::default()
    };
    let text = added_file(".github/workflows/msrv.yml", added);
    let result = BUILTIN.scan(&diff(&text), &options);
    // acme/deploy was pinned by SHA: a branch of it is new trust; other/setup is new.
    let lines: Vec<u32> = rule_hits(&result, "actions/action-on-branch")
        .iter()
        .map(|n| n.anchor.as_ref().unwrap().start_line)
        .collect();
    assert_eq!(lines, vec![5, 6]);
    // A workflow taking it from a branch in a context line of the same file is seen too.
    let text = "diff --git a/.github/workflows/ci.yml b/.github/workflows/ci.yml\n--- a/.github/workflows/ci.yml\n+++ b/.github/workflows/ci.yml\n\
        @@ -1,2 +1,3 @@\n       - uses: dtolnay/rust-toolchain@master\n+      - uses: dtolnay/rust-toolchain@master\n       - run: cargo test\n";
    assert!(rule_hits(&scan(text), "actions/action-on-branch").is_empty());
}

/// A diff removing `definition` (and the lines after it) from a source file and the test
/// `test` from its test file.
fn removed_with_its_test(source: (&str, &[&str]), test: (&str, &[&str])) -> String {
    let removed = |path: &str, lines: &[&str]| {
        let body: Vec<String> = lines.iter().map(|l| format!("-{l}")).collect();
        format!(
            "diff --git a/{path} b/{path}\n--- a/{path}\n+++ b/{path}\n@@ -1,{} +1,1 @@\n keep\n{}\n",
            lines.len() + 1,
            body.join("\n")
        )
    };
    removed(source.0, source.1) + &removed(test.0, test.1)
}

#[test]
fn a_removed_test_of_a_method_removed_in_the_same_change_is_not_a_loss_in_every_language() {
    // jsoup 1.21.1 removed `@Deprecated public String chompToIgnoreCase(…)` and its test: the
    // definition's annotation on its own line hid it. Kotlin's `fun`, a Java generic method and
    // a TypeScript class method are definitions the same way.
    let cases: [(&str, &[&str], &str, &[&str]); 4] = [
        (
            "src/main/java/org/jsoup/parser/TokenQueue.java",
            &[
                "    @Deprecated public String chompToIgnoreCase(String seq) {",
                "        return seq;",
                "    }",
            ],
            "src/test/java/org/jsoup/parser/TokenQueueTest.java",
            &[
                "    @Test public void chompToIgnoreCase() {",
                "        String data = tq.chompToIgnoreCase(\"</textarea\");",
                "        assertEquals(\"x\", data);",
                "    }",
            ],
        ),
        (
            "src/main/java/a/Streams.java",
            &[
                "    public static <T> Stream<T> legacyStream(T[] items) {",
                "        return null;",
                "    }",
            ],
            "src/test/java/a/StreamsTest.java",
            &[
                "    @Test",
                "    void legacyStreamKeepsOrder() {",
                "        assertEquals(2, Streams.legacyStream(items).count());",
                "    }",
            ],
        ),
        (
            "okio/src/commonMain/kotlin/okio/Buffer.kt",
            &[
                "    @Deprecated(\"use readUtf8\") fun readLegacyText(): String {",
                "        return \"\"",
                "    }",
            ],
            "okio/src/commonTest/kotlin/okio/BufferTest.kt",
            &[
                "    @Test fun readLegacyTextReadsAll() {",
                "        assertEquals(\"\", buffer.readLegacyText())",
                "    }",
            ],
        ),
        (
            "src/client.ts",
            &[
                "  async retryLater(request: Request): Promise<Response> {",
                "    return fetch(request);",
                "  }",
            ],
            "test/client.test.ts",
            &[
                "it('retries later when asked', async () => {",
                "  await client.retryLater(request);",
                "  expect(calls).toBe(2);",
                "});",
            ],
        ),
    ];
    for (source, source_lines, test, test_lines) in cases {
        let text = removed_with_its_test((source, source_lines), (test, test_lines));
        let result = scan(&text);
        assert_eq!(
            rule_hits(&result, "any/removed-test").len(),
            0,
            "{source}\n{text}"
        );
    }
    // The test alone removed, the method kept: still a loss.
    let (source, source_lines, test, test_lines) = cases[0];
    let _ = (source, source_lines);
    let text = removed_with_its_test(
        (
            "src/main/java/org/jsoup/Other.java",
            &["    int unrelatedHelper() {"],
        ),
        (test, test_lines),
    );
    assert_eq!(rule_hits(&scan(&text), "any/removed-test").len(), 1);
}

#[test]
fn a_key_store_under_the_tests_is_their_fixture_not_a_finding() {
    // jsoup: `src/test/resources/local-cert/server.p12` and `.pfx`, the self-signed stores of
    // the local TLS server its tests start. The tests say what they are.
    for path in [
        "src/test/resources/local-cert/server.p12",
        "src/test/resources/local-cert/server.pfx",
        "tests/fixtures/client.jks",
    ] {
        let result = scan(&added_binary(path));
        assert!(result.nodes.is_empty(), "{path}");
    }
}
