//! What each tool answers inside the worktree: ranges, caps and their notes, globs, the diff
//! and the symbol fallback, and the schemas the model is given.

use std::sync::Arc;

use serde_json::json;

use super::*;

struct Tree {
    dir: tempfile::TempDir,
}

impl Tree {
    fn new(files: &[(&str, &[u8])]) -> Tree {
        let dir = tempfile::tempdir().unwrap();
        for (path, content) in files {
            let path = dir.path().join(path);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, content).unwrap();
        }
        Tree { dir }
    }

    fn sandbox(&self) -> Sandbox {
        Sandbox::new(self.dir.path()).unwrap()
    }
}

fn numbered_lines(count: usize) -> Vec<u8> {
    (1..=count)
        .map(|n| format!("line {n}\n"))
        .collect::<String>()
        .into_bytes()
}

fn read(sandbox: &Sandbox, args: serde_json::Value) -> Result<String, ToolError> {
    sandbox.call(READ_FILE, &args.to_string())
}

#[test]
fn read_file_numbers_an_inclusive_range() {
    let tree = Tree::new(&[("src/a.txt", &numbered_lines(20))]);
    let sandbox = tree.sandbox();
    let text = read(&sandbox, json!({"path": "src/a.txt", "start": 3, "end": 5})).unwrap();
    assert_eq!(
        text,
        "src/a.txt (lines 3-5; 20 lines)\n     3 | line 3\n     4 | line 4\n     5 | line 5\n"
    );
    let whole = read(&sandbox, json!({"path": "./src/x/../a.txt"})).unwrap();
    assert!(
        whole.starts_with("src/a.txt (lines 1-20; 20 lines)\n"),
        "{whole}"
    );
    let past = read(
        &sandbox,
        json!({"path": "src/a.txt", "start": 18, "end": 99}),
    )
    .unwrap();
    assert!(
        past.starts_with("src/a.txt (lines 18-20; 20 lines)"),
        "{past}"
    );
}

#[test]
fn read_file_refuses_bad_ranges_binaries_and_missing_files() {
    let tree = Tree::new(&[("a.txt", &numbered_lines(3)), ("img.bin", b"PNG\0\x01\x02")]);
    let sandbox = tree.sandbox();
    let error = |args| read(&sandbox, args).unwrap_err().to_string();
    assert_eq!(
        error(json!({"path": "a.txt", "start": 9})),
        "start line 9 is past the end of a.txt (3 lines)"
    );
    assert_eq!(
        error(json!({"path": "a.txt", "start": 3, "end": 2})),
        "end line 2 is before start line 3"
    );
    assert_eq!(
        error(json!({"path": "a.txt", "start": 0})),
        "lines are numbered from 1"
    );
    assert_eq!(
        error(json!({"path": "img.bin"})),
        "binary file, not shown: img.bin"
    );
    assert_eq!(
        error(json!({"path": "nope.txt"})),
        "no such file or directory in the worktree: nope.txt"
    );
    assert_eq!(
        error(json!({"path": "a.txt/x"})),
        "no such file or directory in the worktree: a.txt/x"
    );
    assert!(error(json!({"path": "a.txt", "line": 3})).starts_with("read_file: bad arguments:"));
    assert!(error(json!({"start": 3})).contains("missing field `path`"));
}

#[test]
fn read_file_states_each_cap_it_hits() {
    let long_line = format!("{}\n", "x".repeat(50));
    let tree = Tree::new(&[
        ("many.txt", &numbered_lines(100)),
        ("wide.txt", long_line.as_bytes()),
        ("empty.txt", b""),
    ]);
    let limits = Limits {
        read_lines: 10,
        line_chars: 20,
        ..Limits::default()
    };
    let sandbox = tree.sandbox().with_limits(limits);
    let text = read(&sandbox, json!({"path": "many.txt", "start": 5})).unwrap();
    assert!(
        text.starts_with("many.txt (lines 5-14; 100 lines)"),
        "{text}"
    );
    assert!(
        text.ends_with("[truncated: at most 10 lines per call; continue with start=15]\n"),
        "{text}"
    );
    let wide = read(&sandbox, json!({"path": "wide.txt"})).unwrap();
    assert!(
        wide.contains(&format!("{}… [line cut at 20 characters]", "x".repeat(20))),
        "{wide}"
    );
    assert_eq!(
        read(&sandbox, json!({"path": "empty.txt"})).unwrap(),
        "empty.txt (empty file)\n"
    );

    let bytes = tree.sandbox().with_limits(Limits {
        output_bytes: 100,
        ..Limits::default()
    });
    let text = read(&bytes, json!({"path": "many.txt"})).unwrap();
    assert!(text.contains("[truncated: output limit of 100 bytes reached; continue with start="));
    let body: usize = text
        .lines()
        .filter(|l| l.contains(" | "))
        .map(|l| l.len() + 1)
        .sum();
    assert!(body <= 100, "{text}");

    let big = tree.sandbox().with_limits(Limits {
        file_bytes: 70,
        ..Limits::default()
    });
    let text = read(&big, json!({"path": "many.txt"})).unwrap();
    assert!(
        text.contains("the file is over 70 bytes; only its first 10 lines can be read"),
        "{text}"
    );
}

#[test]
fn search_text_reports_path_line_and_text_within_the_glob() {
    let tree = Tree::new(&[
        ("src/a.rs", b"fn alpha() {}\nfn beta() {}\n"),
        ("src/b.py", b"def alpha(): pass\n"),
        ("blob.bin", b"alpha\0"),
        ("docs/alpha.md", b"# Alpha\nalpha is the first\n"),
    ]);
    let sandbox = tree.sandbox();
    let search = |args: serde_json::Value| sandbox.call(SEARCH_TEXT, &args.to_string());
    let all = search(json!({"regex": "alpha"})).unwrap();
    assert_eq!(
        all,
        "docs/alpha.md:2: alpha is the first\nsrc/a.rs:1: fn alpha() {}\n\
         src/b.py:1: def alpha(): pass\n3 matching lines in 3 files\n[skipped: 1 binary]\n"
    );
    let rust = search(json!({"regex": r"fn \w+", "glob": "src/*.rs"})).unwrap();
    assert!(rust.starts_with("src/a.rs:1: fn alpha() {}\nsrc/a.rs:2: fn beta() {}\n"));
    let none = search(json!({"regex": "gamma", "glob": "*.{rs,py}"})).unwrap();
    assert_eq!(none, "no matches in 2 files searched\n");
}

#[test]
fn search_text_caps_matches_and_refuses_hostile_patterns() {
    let tree = Tree::new(&[("a.txt", &numbered_lines(50))]);
    let sandbox = tree.sandbox().with_limits(Limits {
        search_matches: 5,
        ..Limits::default()
    });
    let search = |args: serde_json::Value| sandbox.call(SEARCH_TEXT, &args.to_string());
    let capped = search(json!({"regex": "line"})).unwrap();
    assert_eq!(
        capped.lines().filter(|l| l.starts_with("a.txt:")).count(),
        5
    );
    assert!(capped.contains("[truncated: only the first 5 matches are shown"));

    // Compiling this would need gigabytes; the size limit refuses it instead.
    let error = search(json!({"regex": r"(\w{100}){100}"})).unwrap_err();
    assert!(
        error.to_string().contains("the compiled pattern exceeds"),
        "{error}"
    );
    let error = search(json!({"regex": "(unclosed"})).unwrap_err();
    assert!(error.to_string().starts_with("invalid regex:"), "{error}");
    assert!(!error.to_string().contains('\n'));
    let error = search(json!({"regex": "a".repeat(1001)})).unwrap_err();
    assert!(error.to_string().contains("the limit is 1000"), "{error}");
    let error = search(json!({"regex": "a", "glob": "[oops"})).unwrap_err();
    assert!(error.to_string().contains("unclosed ["), "{error}");
}

#[test]
fn list_files_is_sorted_and_capped_with_a_note() {
    let files: Vec<(String, Vec<u8>)> = (0..12)
        .map(|n| (format!("d{}/f{n:02}.rs", n % 3), b"x\n".to_vec()))
        .collect();
    let refs: Vec<(&str, &[u8])> = files
        .iter()
        .map(|(p, c)| (p.as_str(), c.as_slice()))
        .collect();
    let tree = Tree::new(&refs);
    let sandbox = tree.sandbox();
    let listed = sandbox.call(LIST_FILES, r#"{"glob": "d1/*"}"#).unwrap();
    assert_eq!(
        listed,
        "d1/f01.rs\nd1/f04.rs\nd1/f07.rs\nd1/f10.rs\n4 files\n"
    );
    let capped = sandbox
        .with_limits(Limits {
            list_entries: 3,
            ..Limits::default()
        })
        .call(LIST_FILES, "")
        .unwrap();
    assert_eq!(
        capped,
        "d0/f00.rs\nd0/f03.rs\nd0/f06.rs\n[truncated: 3 of 12 matching files shown; narrow the glob]\n"
    );
}

const DIFF: &str = "\
diff --git a/src/a.rs b/src/a.rs
--- a/src/a.rs
+++ b/src/a.rs
@@ -1,2 +1,2 @@
 fn a() {}
-fn b() {}
+fn bee() {}
@@ -10,1 +10,2 @@
 fn j() {}
+fn k() {}
diff --git a/old.rs b/new.rs
similarity index 90%
rename from old.rs
rename to new.rs
--- a/old.rs
+++ b/new.rs
@@ -1 +1 @@
-x
+y
";

#[test]
fn get_diff_shows_one_file_and_caps_on_hunk_boundaries() {
    let tree = Tree::new(&[]);
    let sandbox = tree.sandbox().with_diff_text(DIFF).unwrap();
    let a = sandbox.call(GET_DIFF, r#"{"path": "src/a.rs"}"#).unwrap();
    assert_eq!(a, &DIFF[..DIFF.find("diff --git a/old.rs").unwrap()]);
    let renamed = sandbox.call(GET_DIFF, r#"{"path": "old.rs"}"#).unwrap();
    assert!(renamed.contains("rename to new.rs\n"), "{renamed}");
    let missing = sandbox.call(GET_DIFF, r#"{"path": "c.rs"}"#).unwrap_err();
    assert_eq!(
        missing.to_string(),
        "c.rs is not changed by this pull request; changed files: src/a.rs, new.rs"
    );
    let capped = sandbox
        .with_limits(Limits {
            output_bytes: 120,
            ..Limits::default()
        })
        .call(GET_DIFF, r#"{"path": "src/a.rs"}"#)
        .unwrap();
    assert!(capped.contains("+fn bee() {}\n[truncated: output limit of 120 bytes reached; 1 of 2 hunks shown; read the rest of the file with read_file from line 10]\n"), "{capped}");
}

#[test]
fn without_a_diff_get_diff_is_not_offered() {
    let tree = Tree::new(&[]);
    let sandbox = tree.sandbox();
    assert!(sandbox.specs().iter().all(|s| s.name != GET_DIFF));
    let error = sandbox.call(GET_DIFF, r#"{"path": "a"}"#).unwrap_err();
    assert_eq!(
        error.to_string(),
        "unknown tool \"get_diff\"; the tools are: read_file, search_text, list_files, find_symbol"
    );
}

struct Index;

impl SymbolLookup for Index {
    fn defined_in(&self, name: &str) -> Vec<String> {
        if name == "Diff" {
            vec!["src/diff/model.rs".into()]
        } else {
            Vec::new()
        }
    }

    fn referenced_in(&self, name: &str) -> Vec<String> {
        if name == "Diff" {
            vec!["src/a.rs".into(), "src/b.rs".into()]
        } else {
            Vec::new()
        }
    }
}

#[test]
fn find_symbol_uses_the_index_when_given_one() {
    let tree = Tree::new(&[]);
    let sandbox = tree.sandbox().with_symbols(Arc::new(Index));
    let text = sandbox.call(FIND_SYMBOL, r#"{"name": "Diff"}"#).unwrap();
    assert_eq!(
        text,
        "symbol Diff\ndefined in (1 files):\n  src/diff/model.rs\n\
         referenced in (2 files):\n  src/a.rs\n  src/b.rs\n"
    );
}

#[test]
fn find_symbol_falls_back_to_whole_word_matches_and_says_so() {
    let tree = Tree::new(&[
        ("a.rs", b"fn alpha() {}\nlet alphabet = 1;\nalpha();\n"),
        ("b.rs", b"use crate::alpha;\n"),
    ]);
    let text = tree
        .sandbox()
        .call(FIND_SYMBOL, r#"{"name": "alpha"}"#)
        .unwrap();
    assert!(
        text.starts_with("no symbol index for this repository"),
        "{text}"
    );
    assert!(text.contains("a.rs:1: fn alpha() {}\na.rs:3: alpha();\nb.rs:1: use crate::alpha;\n"));
    assert!(!text.contains("alphabet"), "{text}");
    let error = tree
        .sandbox()
        .call(FIND_SYMBOL, r#"{"name": "two words"}"#)
        .unwrap_err();
    assert!(matches!(error, ToolError::BadSymbol(_)), "{error}");
}

#[test]
fn every_schema_is_valid_and_accepts_the_arguments_the_tools_take() {
    let tree = Tree::new(&[]);
    let sandbox = tree.sandbox().with_diff_text(DIFF).unwrap();
    let specs = sandbox.specs();
    let names: Vec<&str> = specs.iter().map(|s| s.name).collect();
    assert_eq!(
        names,
        [READ_FILE, SEARCH_TEXT, LIST_FILES, GET_DIFF, FIND_SYMBOL]
    );
    let examples = [
        (
            READ_FILE,
            json!({"path": "src/a.rs", "start": 1, "end": 3}),
            true,
        ),
        (READ_FILE, json!({"path": "src/a.rs", "lines": 3}), false),
        (READ_FILE, json!({"start": 1}), false),
        (SEARCH_TEXT, json!({"regex": "fn", "glob": "*.rs"}), true),
        (SEARCH_TEXT, json!({"glob": "*.rs"}), false),
        (LIST_FILES, json!({}), true),
        (GET_DIFF, json!({"path": "src/a.rs"}), true),
        (FIND_SYMBOL, json!({"name": "Diff"}), true),
        (FIND_SYMBOL, json!({"symbol": "Diff"}), false),
    ];
    for spec in &specs {
        assert!(!spec.description.is_empty());
        assert!(
            jsonschema::meta::is_valid(&spec.parameters),
            "{}",
            spec.name
        );
    }
    for (name, args, valid) in examples {
        let spec = specs.iter().find(|s| s.name == name).unwrap();
        assert_eq!(
            jsonschema::is_valid(&spec.parameters, &args),
            valid,
            "{name} {args}"
        );
        // The tool itself agrees with its schema about the shape of the arguments.
        let result = sandbox.call(name, &args.to_string());
        let bad_args = matches!(result, Err(ToolError::BadArguments { .. }));
        assert_eq!(bad_args, !valid, "{name} {args}: {result:?}");
    }
}

#[test]
fn a_missing_worktree_is_a_setup_error() {
    let dir = tempfile::tempdir().unwrap();
    let error = Sandbox::new(&dir.path().join("gone")).unwrap_err();
    assert!(matches!(error, ToolError::Worktree { .. }), "{error}");
}

/// The redactor the pipeline gives the sandbox: the built-in scan, keeping line numbers.
fn redacting(tree: &Tree) -> Sandbox {
    let scanner = Arc::new(crate::reviewers::deterministic::secrets::SecretScanner::builtin());
    tree.sandbox().with_redactor(Arc::new(move |text: &str| {
        crate::reviewers::redact::redact_text_keeping_lines(text, &scanner).0
    }))
}

#[test]
fn files_are_redacted_whole_before_a_range_or_a_cut_can_split_a_secret() {
    // Built at run time, so no secret-shaped literal sits in the source.
    let body: Vec<String> = (0..3)
        .map(|i| format!("{i}{}", "QWxhZGRpbjpvcGVuIHNlc2FtZQ".repeat(2)))
        .collect();
    let token = format!("ghp_{}", "aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY2z4A");
    let key = format!(
        "-----BEGIN RSA PRIVATE KEY-----\n{}\n-----END RSA PRIVATE KEY-----\n",
        body.join("\n")
    );
    let long = format!("var a=\"{}\",t=\"{token}\";\n", "x".repeat(1970));
    let text = format!("first\n{key}after the key\n{long}");
    let tree = Tree::new(&[("k.txt", text.as_bytes())]);
    let plain = tree.sandbox();
    let sandbox = redacting(&tree);

    // Read from the middle of the block: without the file's context the body is unrecognisable.
    let unredacted = read(&plain, json!({"path": "k.txt", "start": 3, "end": 4})).unwrap();
    assert!(unredacted.contains(&body[1]), "{unredacted}");
    let middle = read(&sandbox, json!({"path": "k.txt", "start": 3, "end": 7})).unwrap();
    for line in &body {
        assert!(!middle.contains(&line[..12]), "{middle}");
    }
    // Line numbers still hold: line 7 is the one after the block.
    assert!(middle.contains("     7 | after the key"), "{middle}");
    assert!(
        middle.contains("     2 | ") || middle.contains("     3 | "),
        "{middle}"
    );

    // A token past the 2000-character line cut: the cut would leave a fragment of it.
    let cut = read(&sandbox, json!({"path": "k.txt", "start": 8})).unwrap();
    assert!(!cut.contains(&token[4..14]), "{cut}");
    assert!(cut.contains("ghp_…"), "{cut}");
    let cut_plain = read(&plain, json!({"path": "k.txt", "start": 8})).unwrap();
    assert!(
        cut_plain.contains(&token[4..14]),
        "the cut falls inside the token"
    );

    // Searches match the redacted text: no regex can probe what redaction hides, one
    // character at a time (the AWS-key oracle), and what they show is redacted too.
    for probe in [
        &body[2][..10],
        &token[..8],
        &format!("{}|ghp_…", &token[..8]),
    ] {
        let found = sandbox
            .call(SEARCH_TEXT, &json!({"regex": probe}).to_string())
            .unwrap();
        assert!(!found.contains(&body[2][..12]), "{found}");
        assert!(!found.contains(&token[4..12]), "{found}");
        if probe.contains('…') {
            assert!(
                found.contains("k.txt:8: "),
                "the marker is searchable: {found}"
            );
        } else {
            assert!(found.contains("no matches"), "{probe}: {found}");
        }
    }
    // Without a redactor (a local-only setup) the same search does find the text.
    let found = plain
        .call(SEARCH_TEXT, &json!({"regex": &body[2][..10]}).to_string())
        .unwrap();
    assert!(found.contains("k.txt:5: "), "{found}");
}
