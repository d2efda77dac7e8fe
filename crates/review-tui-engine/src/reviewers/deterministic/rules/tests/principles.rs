//! The principles behind useless findings measured on repositories never swept before (issue
//! #34's held-out sweep): each test reproduces the general shape, and the boundary that must
//! still fire.

use super::*;

fn added_file(path: &str, body: &str) -> String {
    let lines: Vec<String> = body.lines().map(|l| format!("+{l}")).collect();
    format!(
        "diff --git a/{path} b/{path}\nnew file mode 100644\n--- /dev/null\n+++ b/{path}\n@@ -0,0 +1,{} @@\n{}\n",
        lines.len(),
        lines.join("\n")
    )
}

fn added_binary(path: &str) -> String {
    format!(
        "diff --git a/{path} b/{path}\nnew file mode 100644\nindex 0000000..1111111\nBinary files /dev/null and b/{path} differ\n"
    )
}

fn count(result: &ScanResult, rule: &str) -> usize {
    result
        .nodes
        .iter()
        .filter(|n| n.rule.as_deref() == Some(rule))
        .count()
}

#[test]
fn code_compiled_only_for_the_documentation_never_runs() {
    // tokio 1.30: `todo!("For doc generation only")` in the arms of a `#[cfg(docsrs)]`
    // `macro_rules!`, the attribute several items and a blank line above.
    let stub = added_file(
        "tokio/src/process/mod.rs",
        "mod windows {\n    #[cfg(docsrs)]\n    macro_rules! impl_traits {\n        ($type:ty) => {\n            impl $type {\n                pub fn into_owned_handle(self) -> io::Result<OwnedHandle> {\n                    todo!(\"For doc generation only\")\n                }\n            }\n\n            impl AsRawHandle for $type {\n                fn as_raw_handle(&self) -> RawHandle {\n                    todo!(\"For doc generation only\")\n                }\n            }\n        };\n    }\n}\n",
    );
    assert_eq!(count(&scan(&stub), "rust/todo-macro"), 0);
    for cfg in [
        "#[cfg(doc)]",
        "#[cfg(any(docsrs, doc))]",
        "#[cfg(all(docsrs, windows))]",
    ] {
        let item = added_file(
            "src/stub.rs",
            &format!("{cfg}\npub fn stub() -> u8 {{\n    let x = 1;\n\n    todo!()\n}}\n"),
        );
        assert_eq!(count(&scan(&item), "rust/todo-macro"), 0, "{cfg}");
    }
    // Compiled outside the documentation too, or a sibling's attribute: it runs.
    for text in [
        "#[cfg(any(docsrs, feature = \"x\"))]\npub fn stub() -> u8 {\n    let x = 1;\n\n    todo!()\n}\n",
        "#[cfg(docsrs)]\npub fn documented() {}\n\npub fn stub() -> u8 {\n    todo!()\n}\n",
    ] {
        let result = scan(&added_file("src/stub.rs", text));
        assert_eq!(count(&result, "rust/todo-macro"), 1, "{text}");
    }
}

#[test]
fn an_unsafe_block_justified_in_prose_needs_no_safety_word_but_a_marker_is_no_justification() {
    let unsafe_in = |above: &str| {
        added_file(
            "src/format.rs",
            &format!(
                "impl Buf {{\n    pub fn as_str(&self) -> &str {{\n        let slice = &self.bytes[..self.offset];\n{above}        unsafe {{ str::from_utf8_unchecked(slice) }}\n    }}\n}}\n"
            ),
        )
    };
    let rule = "rust/unsafe-without-safety-comment";
    assert_eq!(count(&scan(&unsafe_in("")), rule), 1);
    assert_eq!(
        count(
            &scan(&unsafe_in(
                "        // The bytes were copied from `&str`s only, so they are UTF-8.\n"
            )),
            rule
        ),
        0
    );
    // A task marker, or a word or two, says nothing of why the block is sound.
    for comment in [
        "        // TODO\n",
        "        // TODO: check the bytes here\n",
        "        // call\n",
        "        // FIXME later\n",
    ] {
        assert_eq!(count(&scan(&unsafe_in(comment)), rule), 1, "{comment}");
    }
    // The doc of the function holding the block says why, a paragraph above it.
    let documented = added_file(
        "src/format.rs",
        "impl Buf {\n    /// The text written so far: every byte was copied from a `&str`, so it is UTF-8.\n    pub fn as_str(&self) -> &str {\n        let slice = &self.bytes[..self.offset];\n\n        unsafe { str::from_utf8_unchecked(slice) }\n    }\n}\n",
    );
    assert_eq!(count(&scan(&documented), rule), 0);
    // A doc's `# Safety` heading and its list items are prose too (tokio's `unsafe fn`s).
    for doc in [
        "    /// # Safety\n",
        "    /// - `node` is contained by no other list,\n",
    ] {
        let text = documented.replace(
            "    /// The text written so far: every byte was copied from a `&str`, so it is UTF-8.\n",
            doc,
        );
        assert_eq!(count(&scan(&text), rule), 0, "{doc}");
    }
}

#[test]
fn a_labelled_sentence_above_an_unsafe_block_explains_it() {
    // clap #4802: `split_at` deprecated as unsound, said right above its block.
    let block = |above: &str| {
        added_file(
            "clap_lex/src/ext.rs",
            &format!(
                "impl OsStrExt for OsStr {{\n    fn split_at(&self, index: usize) -> (&OsStr, &OsStr) {{\n{above}        unsafe {{\n            let bytes = to_bytes(self);\n            let (first, second) = bytes.split_at(index);\n            (to_os_str(first), to_os_str(second))\n        }}\n    }}\n}}\n"
            ),
        )
    };
    let rule = "rust/unsafe-without-safety-comment";
    for label in [
        "        // BUG: This is unsafe and has been deprecated\n",
        "        // WARNING: The bytes may not be UTF-8 here\n",
    ] {
        assert_eq!(count(&scan(&block(label)), rule), 0, "{label}");
    }
    // A task marker before a task explains nothing; nor does a label alone.
    for marker in [
        "        // TODO: check the bytes here\n",
        "        // BUG: see #42\n",
        "",
    ] {
        assert_eq!(count(&scan(&block(marker)), rule), 1, "{marker}");
    }
}

#[test]
fn an_existing_unsafe_block_rewritten_in_place_is_not_a_new_one() {
    // rayon #815: the `unsafe` that set the global registry, rewritten on one line.
    let lines = [
        "     THE_REGISTRY_SET.call_once(|| {",
        "-        result = registry().map(|registry| {",
        "-            let registry = leak(registry);",
        "-            unsafe {",
        "-                THE_REGISTRY = Some(registry);",
        "-            }",
        "-            registry",
        "-        });",
        "+        result = registry()",
        "+            .map(|registry: Arc<Registry>| unsafe { &*THE_REGISTRY.get_or_insert(registry) })",
        "     });",
        " ",
        "     result",
    ];
    let text = format!(
        "diff --git a/src/registry.rs b/src/registry.rs\n--- a/src/registry.rs\n+++ b/src/registry.rs\n@@ -1,11 +1,6 @@\n{}\n",
        lines.join("\n")
    );
    let text = text.as_str();
    assert_eq!(count(&scan(text), "rust/unsafe-without-safety-comment"), 0);
    // A second unsafe block where there was one is new.
    let second = text.replace("+1,6 @@", "+1,7 @@").replace(
        "+        result = registry()\n",
        "+        let n = unsafe { COUNT };\n+        result = registry()\n",
    );
    assert_eq!(
        count(&scan(&second), "rust/unsafe-without-safety-comment"),
        1
    );
}

#[test]
fn yaml_loaders_that_refuse_arbitrary_objects_are_safe() {
    // pydantic 2.6's docs plugin: `yaml.load(f, Loader=yaml.FullLoader)`. Since PyYAML 5.1
    // `FullLoader` refuses arbitrary Python objects; `Loader`, `UnsafeLoader` and their C
    // versions build them.
    let rule = "python/yaml-unsafe-load";
    for safe in [
        "people = yaml.load(f, Loader=yaml.FullLoader)",
        "people = yaml.load(f, yaml.FullLoader)",
        "people = yaml.load(f, Loader=yaml.CSafeLoader)",
        "people = yaml.load_all(f, Loader=BaseLoader)",
    ] {
        let result = scan(&added_file("app/people.py", safe));
        assert_eq!(count(&result, rule), 0, "{safe}");
    }
    for unsafe_load in [
        "data = yaml.load(f)",
        "data = yaml.load(f, Loader=yaml.Loader)",
        "data = yaml.load(f, Loader=yaml.UnsafeLoader)",
        "data = yaml.load(f, Loader=yaml.CLoader)",
        "data = yaml.load(f, Loader=yaml.CUnsafeLoader)",
        "data = yaml.unsafe_load(f)",
    ] {
        let result = scan(&added_file("app/people.py", unsafe_load));
        assert_eq!(count(&result, rule), 1, "{unsafe_load}");
    }
}

#[test]
fn a_design_source_beside_its_export_is_content_not_a_compiled_artifact() {
    // commons-io's GIMP logo sources (`src/media/*.xcf`), structlog's Affinity Designer files.
    for path in [
        "src/media/logo.xcf",
        "docs/_static/logo.afdesign",
        "art/cover.psd",
        "design/app.sketch",
        "design/app.fig",
        "art/sprite.kra",
        "art/sprite.ora",
        "brand/logo.ai",
        "models/scene.blend",
    ] {
        assert_eq!(
            count(&scan(&added_binary(path)), "any/binary-file-added"),
            0,
            "{path}"
        );
    }
    // Executables, archives and compiled objects are still a question.
    for path in [
        "tools/protoc.jar",
        "bin/helper.exe",
        "lib/libfoo.so",
        "vendor/deps.zip",
        "build/main.o",
    ] {
        assert_eq!(
            count(&scan(&added_binary(path)), "any/binary-file-added"),
            1,
            "{path}"
        );
    }
}

#[test]
fn a_removed_test_of_a_member_the_change_removed_went_with_its_feature() {
    // yargs #1888: the change drops `context.resets` from the factory; the tests that counted
    // resets through it go with it. The test reads the member; the code no longer does.
    let change = |source_removed: &str, test_body: &str| {
        format!(
            "diff --git a/lib/yargs-factory.ts b/lib/yargs-factory.ts\n--- a/lib/yargs-factory.ts\n+++ b/lib/yargs-factory.ts\n\
             @@ -10,6 +10,5 @@ export function YargsFactory() {{\n   const context = {{commands: [], files: []}};\n   function reset() {{\n{source_removed}\n     context.commands = [];\n     return self;\n   }}\n\
             diff --git a/test/yargs.cjs b/test/yargs.cjs\n--- a/test/yargs.cjs\n+++ b/test/yargs.cjs\n\
             @@ -40,9 +40,1 @@ describe('context', () => {{\n-  it('should track the context of each reset', () => {{\n-    const context = yargs.getContext();\n-    yargs.reset();\n{test_body}\n-    yargs.reset();\n-  }});\n-\n-\n   it('tracks commands', () => {{\n"
        )
    };
    let removed = change(
        "-    context.resets++;",
        "-    context.resets.should.equal(1);",
    );
    assert_eq!(count(&scan(&removed), "any/removed-test"), 0);
    // The test reads a member the code still keeps: its loss is a question.
    let kept = change(
        "-    context.resets++;",
        "-    context.commands.should.deep.equal([]);",
    );
    assert_eq!(count(&scan(&kept), "any/removed-test"), 1);
    // A method the code no longer calls is not a removed member: `names` says whether it
    // went (the test calls `.flushPending()`, which may well still be defined).
    let called = change(
        "-    context.flushPending();",
        "-    context.flushPending().should.equal(1);",
    );
    assert_eq!(count(&scan(&called), "any/removed-test"), 1);
    // A deleted source file's names are its module's question, and `Foo.class` is no feature's
    // member (mockito #1162 deleted `ThrowsExceptionClass.java`, which read `throwableClass`
    // and `Throwable.class`; the removed test of a naughty exception class was a loss).
    let deleted = "diff --git a/src/main/java/a/ThrowsExceptionClass.java b/src/main/java/a/ThrowsExceptionClass.java\n\
        deleted file mode 100644\n--- a/src/main/java/a/ThrowsExceptionClass.java\n+++ /dev/null\n\
        @@ -1,4 +0,0 @@\n-class ClassAnswer {\n-    boolean valid(Class<?> c) { return Throwable.class.isAssignableFrom(c); }\n-    Object answer() { return this.throwableClass; }\n-}\n\
        diff --git a/src/test/java/a/StubbingTest.java b/src/test/java/a/StubbingTest.java\n--- a/src/test/java/a/StubbingTest.java\n+++ b/src/test/java/a/StubbingTest.java\n\
        @@ -10,6 +10,1 @@ public class StubbingTest {\n-    @Test(expected = NaughtyException.class)\n-    public void shouldShowDecentMessageWhenExceptionIsNaughty() {\n-        when(mock.add(\"\")).thenThrow(NaughtyException.class);\n-        mock.add(\"\");\n-    }\n }\n";
    assert_eq!(count(&scan(deleted), "any/removed-test"), 1);
}

fn write(root: &std::path::Path, path: &str, text: &str) {
    let path = root.join(path);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

fn scan_in(worktree: &std::path::Path, text: &str) -> ScanResult {
    let options = ScanOptions {
        worktree: Some(worktree.to_path_buf()),
        ..ScanOptions::default()
    };
    BUILTIN.scan(&diff(text), &options)
}

#[test]
fn a_binary_crates_modules_are_not_library_code() {
    // rayon-demo: a package with `src/main.rs` and no `src/lib.rs`; its modules print.
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(
        root,
        "Cargo.toml",
        // The workspace asks for clippy's `print_stdout`, which the rule stands for.
        "[workspace]\nmembers = [\"demo\", \"core\"]\n\n[workspace.lints.clippy]\nprint_stdout = \"warn\"\n",
    );
    write(root, "demo/Cargo.toml", "[package]\nname = \"demo\"\n");
    write(root, "demo/src/main.rs", "mod noop;\nfn main() {}\n");
    let body = "pub fn run() {\n    println!(\"done\");\n}\n";
    write(root, "demo/src/noop/mod.rs", body);
    // A package with both targets: the module `main.rs` alone declares is the binary's.
    write(root, "core/Cargo.toml", "[package]\nname = \"core\"\n");
    write(root, "core/src/lib.rs", "pub mod parse;\n");
    write(root, "core/src/main.rs", "mod cli;\nfn main() {}\n");
    write(root, "core/src/cli.rs", body);
    write(root, "core/src/parse.rs", body);
    // A library whose manifest names its root elsewhere.
    write(
        root,
        "odd/Cargo.toml",
        "[package]\nname = \"odd\"\n[lib]\npath = \"lib/odd.rs\"\n",
    );
    write(root, "odd/lib/odd.rs", "mod inner;\n");
    write(root, "odd/lib/inner.rs", body);
    let rule = "rust/print-in-library";
    for (path, expected) in [
        ("demo/src/noop/mod.rs", 0),
        ("core/src/cli.rs", 0),
        ("core/src/parse.rs", 1),
        ("odd/lib/inner.rs", 1),
    ] {
        let result = scan_in(root, &added_file(path, body));
        assert_eq!(count(&result, rule), expected, "{path}");
    }
}

#[test]
fn a_lock_only_update_whose_title_says_so_is_that_update() {
    // poetry-core #878 "chore: update dev dependencies": only `poetry.lock` changed.
    let lock = "diff --git a/poetry.lock b/poetry.lock\n--- a/poetry.lock\n+++ b/poetry.lock\n\
        @@ -1,4 +1,4 @@\n [[package]]\n name = \"mypy\"\n-version = \"1.7.0\"\n+version = \"1.8.0\"\n description = \"Optional static typing\"\n";
    let scan_titled = |text: &str, title: &str| {
        let options = ScanOptions {
            title: title.to_string(),
            ..ScanOptions::default()
        };
        BUILTIN.scan(&diff(text), &options)
    };
    let rule = "deps/lockfile-without-manifest";
    for title in [
        "chore: update dev dependencies",
        "Update Cargo.lock",
        "chore(deps): bump the pip group",
        "Bump mypy from 1.7.0 to 1.8.0",
        "cargo update",
        "Refresh lock file",
    ] {
        assert_eq!(count(&scan_titled(lock, title), rule), 0, "{title}");
    }
    for title in ["Fix the parser", "Update the README", ""] {
        assert_eq!(count(&scan_titled(lock, title), rule), 1, "{title}");
    }
    // The title cannot vouch for a dependency now fetched from a host the lock never named.
    let moved = "diff --git a/package-lock.json b/package-lock.json\n--- a/package-lock.json\n+++ b/package-lock.json\n\
        @@ -1,3 +1,3 @@\n     \"node_modules/left-pad\": {\n-      \"resolved\": \"https://registry.npmjs.org/left-pad/-/left-pad-1.3.0.tgz\",\n+      \"resolved\": \"https://evil.example/left-pad-1.3.1.tgz\",\n       \"integrity\": \"sha512-x\"\n";
    assert_eq!(
        count(&scan_titled(moved, "chore(deps): bump left-pad"), rule),
        1
    );
}

/// A file's hunk removing `removed` (the lines of one test) before a context line.
fn removing(path: &str, removed: &[&str]) -> String {
    let lines: Vec<String> = removed.iter().map(|l| format!("-{l}")).collect();
    format!(
        "diff --git a/{path} b/{path}\n--- a/{path}\n+++ b/{path}\n@@ -10,{} +10,1 @@\n{}\n fn other() {{}}\n",
        removed.len() + 1,
        lines.join("\n")
    )
}

#[test]
fn a_removed_test_present_under_its_full_name_elsewhere_in_the_change_moved() {
    let rule = "any/removed-test";
    // serde #2448: `test_flatten_enum_newtype` became `flatten::enum_::externally_tagged::newtype`.
    let flatten = removing(
        "test_suite/tests/test_annotations.rs",
        &[
            "#[test]",
            "fn test_flatten_enum_newtype() {",
            "    assert_tokens(&s, &[Token::Map { len: None }]);",
            "}",
        ],
    ) + &added_file(
        "test_suite/tests/test_flatten.rs",
        "mod flatten {\n    mod enum_ {\n        mod externally_tagged {\n            #[test]\n            fn newtype() {\n                assert_tokens(&Flatten { data: 1 }, &[Token::Str(\"Newtype\")]);\n            }\n        }\n    }\n}\n",
    );
    assert_eq!(count(&scan(&flatten), rule), 0);
    // serde #2788: moved into a file named for the subject, under a shorter name.
    let shorter = removing(
        "test_suite/tests/test_macros.rs",
        &[
            "#[test]",
            "fn test_internally_tagged_newtype_variant_containing_unit_struct() {",
            "    assert_tokens(&Info, &[Token::UnitStruct]);",
            "}",
        ],
    ) + &added_file(
        "test_suite/tests/test_enum_internally_tagged.rs",
        "#[test]\nfn newtype_unit_struct() {\n    let value = InternallyTagged::NewtypeUnitStruct(Unit);\n    assert_tokens(&value, &[Token::Map]);\n}\n",
    );
    assert_eq!(count(&scan(&shorter), rule), 0);
    // The same in Python: a test moved into a class of a file named for its subject.
    let python = removing(
        "tests/test_misc.py",
        &[
            "def test_parser_handles_empty_input():",
            "    assert parse(\"\") is None",
        ],
    ) + &added_file(
        "tests/test_parser.py",
        "class TestParser:\n    def test_handles_empty_input(self):\n        assert parser.parse(\"\") == None\n",
    );
    assert_eq!(count(&scan(&python), rule), 0);
    // A test the change adds that shares a word or two is not the removed one's successor.
    let other = removing(
        "tests/test_misc.py",
        &[
            "def test_parse_large_numbers_overflow():",
            "    assert parse(\"1e999\") is None",
        ],
    ) + &added_file(
        "tests/test_numbers.py",
        "def test_parse_small():\n    assert parse(\"1\") == 1\n",
    );
    assert_eq!(count(&scan(&other), rule), 1);
}

#[test]
fn a_release_commit_stripping_test_files_from_its_tree_packages_the_release() {
    // samber/lo tags a commit ("bump v1.51.0") that deletes the `*_test.go` files from the
    // module it publishes; the sources they test ship unchanged.
    let deleted = "diff --git a/mutable/slice_test.go b/mutable/slice_test.go\ndeleted file mode 100644\n--- a/mutable/slice_test.go\n+++ /dev/null\n@@ -1,4 +0,0 @@\n-func TestShuffle(t *testing.T) {\n-\tis := assert.New(t)\n-\tis.Len(Shuffle([]int{1, 2}), 2)\n-}\n";
    let scan_titled = |title: &str| {
        let options = ScanOptions {
            title: title.to_string(),
            ..ScanOptions::default()
        };
        BUILTIN.scan(&diff(deleted), &options)
    };
    let rule = "any/removed-test";
    for title in [
        "bump v1.51.0",
        "Release 2.3.0",
        "chore(release): 1.2.3",
        "v1.2.3",
    ] {
        assert_eq!(count(&scan_titled(title), rule), 0, "{title}");
    }
    // Any other change deleting the tests of code that stays loses them.
    for title in ["Remove flaky tests", "Bump testify from 1.8.0 to 1.9.0", ""] {
        assert_eq!(count(&scan_titled(title), rule), 1, "{title}");
    }
}

#[test]
fn code_whose_trailing_comment_alone_changed_is_not_new() {
    // tenacity #571: a linter's fix dropped `# noqa: B902` from an `except Exception:` whose
    // `pass` was there before.
    let text = |added: &str| {
        format!(
            "diff --git a/app/retry.py b/app/retry.py\n--- a/app/retry.py\n+++ b/app/retry.py\n@@ -1,5 +1,5 @@\n def sync(conn):\n     try:\n         conn.commit()\n-    except Exception:  # noqa: B902\n+{added}\n         pass\n"
        )
    };
    let rule = "python/except-pass";
    assert_eq!(count(&scan(&text("    except Exception:")), rule), 0);
    assert_eq!(
        count(&scan(&text("    except Exception:  # best effort")), rule),
        0
    );
    // The code changed with its comment: what is new is new.
    assert_eq!(count(&scan(&text("    except BaseException:")), rule), 1);
    // A comment marker inside a string is code, not a comment.
    use crate::diff::{CodeLexer, Language};
    assert_eq!(
        CodeLexer::without_line_comment(Language::Python, "x = \"#1\"  # noqa"),
        "x = \"#1\"  "
    );
    assert_eq!(
        CodeLexer::without_line_comment(Language::Rust, "let url = \"http://x\"; // why"),
        "let url = \"http://x\"; "
    );
}

#[test]
fn a_removed_test_that_was_switched_off_or_is_reverted_loses_nothing() {
    let rule = "any/removed-test";
    // mockito #2807: the removed test carried `@Ignore("…fails currently…")`.
    let java = |mark: &str| {
        removing(
            "src/test/java/org/mockitousage/VarargsTest.java",
            &[
                mark,
                "    @Test",
                "    public void shouldMatchVarargs() {",
                "        assertThat(mock.run(1, 2)).isTrue();",
                "    }",
            ],
        )
    };
    assert_eq!(
        count(&scan(&java("    @Ignore(\"fails currently\")")), rule),
        0
    );
    assert_eq!(count(&scan(&java("    // flaky on CI")), rule), 1);
    for (mark, expected) in [
        ("@pytest.mark.skip(reason=\"broken\")", 0),
        (
            "@pytest.mark.skipif(sys.platform == \"win32\", reason=\"posix\")",
            1,
        ),
    ] {
        let python = removing(
            "tests/test_io.py",
            &[
                mark,
                "def test_reads_the_file():",
                "    assert read(\"x\") == \"y\"",
            ],
        );
        assert_eq!(count(&scan(&python), rule), expected, "{mark}");
    }
    let go = removing(
        "io_test.go",
        &[
            "func TestReadsTheFile(t *testing.T) {",
            "\tt.Skip(\"broken\")",
            "\tcheck(t)",
            "}",
        ],
    );
    assert_eq!(count(&scan(&go), rule), 0);
    // A revert removes the tests the reverted change added.
    let live = java("    // flaky on CI");
    let scan_titled = |title: &str| {
        let options = ScanOptions {
            title: title.to_string(),
            ..ScanOptions::default()
        };
        BUILTIN.scan(&diff(&live), &options)
    };
    assert_eq!(
        count(
            &scan_titled("Revert \"Fixes #1845: timeout(Duration)\""),
            rule
        ),
        0
    );
    assert_eq!(count(&scan_titled("revert: drop varargs matcher"), rule), 0);
    assert_eq!(count(&scan_titled("Reverting to plain matchers"), rule), 1);
}

#[test]
fn a_removed_test_renumbered_or_split_into_the_tests_it_ran_is_not_lost() {
    let rule = "any/removed-test";
    // jsonschema: the default validator's version moved on in the test's name.
    let renumbered = removing(
        "tests/test_validators.py",
        &[
            "def test_draft7_validator_is_the_default():",
            "    assert validator_for({}) is Draft7Validator",
        ],
    ) + &added_file(
        "tests/test_defaults.py",
        "def test_draft202012_validator_is_the_default():\n    assert validator_for({}) is Draft202012Validator\n",
    );
    assert_eq!(count(&scan(&renumbered), rule), 0);
    // tempfile 3.21: `fn main()` ran the helpers that the change made tests of their own.
    let split = "diff --git a/tests/tempdir.rs b/tests/tempdir.rs\n--- a/tests/tempdir.rs\n+++ b/tests/tempdir.rs\n\
        @@ -1,10 +1,6 @@\n+#[test]\n fn test_tempdir() {\n     check();\n }\n \
        \n-#[test]\n-fn main() {\n-    in_tmpdir(test_tempdir);\n-    in_tmpdir(test_prefix);\n-}\n fn other() {}\n";
    assert_eq!(count(&scan(split), rule), 0);
    // Without the helper becoming a test, the test that ran it is lost.
    let lost = split
        .replace("+#[test]\n fn test_tempdir", " fn test_tempdir")
        .replace("+1,6", "+1,5");
    assert_eq!(count(&scan(&lost), rule), 1);
}

#[test]
fn an_example_program_prints_its_result_and_a_conversion_keeps_its_default() {
    for (path, line, rule) in [
        ("example/nested.js", "console.log(argv)", "js/console-log"),
        (
            "packages/cli/demo/run.ts",
            "console.log(result)",
            "js/console-log",
        ),
        (
            "samples/basic.py",
            "print(result)",
            "python/print-in-package",
        ),
    ] {
        assert_eq!(count(&scan(&added_file(path, line)), rule), 0, "{path}");
    }
    assert_eq!(
        count(
            &scan(&added_file("src/nested.js", "console.log(argv)")),
            "js/console-log"
        ),
        1
    );
    let go = |line: &str| added_file("middleware/logger.go", line);
    assert_eq!(
        count(
            &scan(&go("\tl, _ := strconv.ParseInt(cl, 10, 64)")),
            "go/ignored-error"
        ),
        0
    );
    assert_eq!(
        count(
            &scan(&go("\tdata, _ := os.ReadFile(path)")),
            "go/ignored-error"
        ),
        1
    );
    // Documents and their sources are read, not run.
    for path in ["docs/media/cheat-sheet.pdf", "docs/media/cheat-sheet.pptx"] {
        assert_eq!(
            count(&scan(&added_binary(path)), "any/binary-file-added"),
            0,
            "{path}"
        );
    }
}

#[test]
fn the_same_code_added_in_several_places_of_one_change_is_one_finding() {
    // parking_lot #291: one `Deref` body in seven guard types.
    let guard = |name: &str| {
        format!(
            "impl<'a, T> Deref for {name}<'a, T> {{\n    type Target = T;\n    fn deref(&self) -> &T {{\n        unsafe {{ &*self.lock.data.get() }}\n    }}\n}}\n"
        )
    };
    let body: String = ["ReadGuard", "WriteGuard", "UpgradableGuard"]
        .iter()
        .map(|n| guard(n))
        .collect::<Vec<_>>()
        .join("\n");
    let result = scan(&added_file("lock_api/src/rwlock.rs", &body));
    let rule = "rust/unsafe-without-safety-comment";
    assert_eq!(count(&result, rule), 1);
    let node = result
        .nodes
        .iter()
        .find(|n| n.rule.as_deref() == Some(rule))
        .unwrap();
    assert!(
        node.text.evidence.contains(
            "2 more times in this change: lock_api/src/rwlock.rs:11, lock_api/src/rwlock.rs:18"
        ),
        "{}",
        node.text.evidence
    );
    // Different code is a different decision.
    let other = body.replacen("&*self.lock.data.get()", "&mut *self.lock.data.get()", 1);
    assert_eq!(
        count(&scan(&added_file("lock_api/src/rwlock.rs", &other)), rule),
        2
    );
}

#[test]
fn code_the_program_builds_is_evaluated_by_design_and_outside_input_is_a_stop() {
    // ajv #1454: the JTD parser compiles the code its own generator wrote, as every ajv
    // validator is compiled; eb93bd4 moved the same step from `eval` to `new Function`.
    let generator = added_file(
        "lib/compile/jtd/parse.ts",
        "export default function compileParser(this: Ajv, sch: SchemaEnv): SchemaEnv {\n  const gen = new CodeGen(this.scope)\n  let sourceCode: string | undefined\n  try {\n    parserFunction(cxt)\n    sourceCode = `${gen.scopeRefs(N.scope)}return ${gen.toString()}`\n    const makeParse = new Function(`${N.scope}`, sourceCode)\n    sch.parse = makeParse(this.scope.get())\n  } finally {\n    this._compilations.delete(sch)\n  }\n}\n",
    );
    let result = scan(&generator);
    assert_eq!(count(&result, "js/eval"), 0);
    let built: Vec<_> = result
        .nodes
        .iter()
        .filter(|n| n.rule.as_deref() == Some("js/eval-built-code"))
        .collect();
    assert_eq!(built.len(), 1);
    assert_eq!(built[0].priority, crate::review::Priority::P3);
    // A value from a request, the page's URL, argv or a file read: a stop.
    for text in [
        "app.post('/calc', (req, res) => {\n  const expr = req.body.expr\n  res.json({ value: eval(expr) })\n})\n",
        "export function run() {\n  const code = decodeURIComponent(location.hash.slice(1))\n  return new Function(code)()\n}\n",
        "function main() {\n  const source = fs.readFileSync(process.argv[2], 'utf8')\n\n  return eval(source)\n}\n",
    ] {
        let result = scan(&added_file("src/run.js", text));
        assert_eq!(count(&result, "js/eval"), 1, "{text}");
        assert_eq!(count(&result, "js/eval-built-code"), 0, "{text}");
    }
}

#[test]
fn a_program_that_already_compiles_code_it_builds_asks_nothing_new_with_another_compile_step() {
    // ajv #1454: the JTD parser's `new Function` beside the validators' own in
    // lib/compile/index.ts, which compiles every schema since 2016.
    let step = "export default function compileParser(sch) {\n  const makeParse = new Function(`${N.scope}`, sourceCode)\n  return makeParse(this.scope.get())\n}\n";
    let built = |before: &[(&str, &str)]| {
        let dir = tempfile::tempdir().unwrap();
        let mut files: std::collections::BTreeSet<String> =
            ["lib/compile/jtd/parse.ts".to_string()].into();
        for (path, text) in before {
            write(dir.path(), path, text);
            files.insert(path.to_string());
        }
        write(dir.path(), "lib/compile/jtd/parse.ts", step);
        let options = ScanOptions {
            worktree: Some(dir.path().to_path_buf()),
            repo_files: Some(files),
            ..ScanOptions::default()
        };
        let text = added_file("lib/compile/jtd/parse.ts", step);
        count(&BUILTIN.scan(&diff(&text), &options), "js/eval-built-code")
    };
    let compile = "export function compileSchema(sch) {\n  const makeValidate = new Function(`${N.self}`, `${N.scope}`, sourceCode)\n  return makeValidate(this)\n}\n";
    assert_eq!(built(&[("lib/compile/index.ts", compile)]), 0);
    // Nothing the program compiled before: a literal probe, a comment, a test's own eval, or
    // another construct.
    for (path, text) in [
        (
            "lib/async.js",
            "  new Function('return 1')\n  eval('(async function(){})()')\n",
        ),
        ("lib/notes.js", "// const f = new Function('a', body)\n"),
        (
            "test/compile.spec.js",
            "  const f = new Function('a', body)\n",
        ),
        ("lib/run.js", "  return eval(code)\n"),
    ] {
        assert_eq!(built(&[(path, text)]), 1, "{path}");
    }
    assert_eq!(built(&[]), 1);
}
