//! The principles the eleventh held-out set's judgments asked for: where code lives decides
//! what a risky pattern is worth, and a string's data is not the file's own lines.

use super::*;
use crate::review::node::Priority;

/// A one-hunk diff adding `lines` as the new file `path`.
fn added(path: &str, lines: &[&str]) -> String {
    let mut text = format!(
        "diff --git a/{path} b/{path}\nnew file mode 100644\n--- /dev/null\n+++ b/{path}\n@@ -0,0 +1,{} @@\n",
        lines.len()
    );
    for line in lines {
        text += &format!("+{line}\n");
    }
    text
}

/// The priorities of `rule`'s findings on `lines` added as `path`.
fn priorities(rule: &str, path: &str, lines: &[&str]) -> Vec<Priority> {
    scan(&added(path, lines))
        .nodes
        .iter()
        .filter(|n| n.rule.as_deref() == Some(rule))
        .map(|n| n.priority)
        .collect()
}

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

/// insta's functional test builds a snapshot with conflicts in a raw string: its markers were
/// three P1 "merge conflict marker committed". Markers on lines inside a string literal are
/// its data; markers opening a line of the file are still a conflict, in code and in
/// configuration.
#[test]
fn conflict_markers_inside_a_string_literal_are_data() {
    let rule = "any/merge-conflict-marker";
    let fixture = [
        "const SNAPSHOT: &str = r#\"",
        "<<<<<<< ours",
        "old",
        "=======",
        "new",
        ">>>>>>> theirs",
        "\"#;",
    ];
    assert_eq!(priorities(rule, "src/conflicts.rs", &fixture), []);
    let docstring = [
        "SAMPLE = \"\"\"",
        "<<<<<<< HEAD",
        "a",
        ">>>>>>> branch",
        "\"\"\"",
    ];
    assert_eq!(priorities(rule, "src/sample.py", &docstring), []);
    let conflict = [
        "fn a() {}",
        "<<<<<<< HEAD",
        "fn b() {}",
        "=======",
        ">>>>>>> branch",
    ];
    assert_eq!(
        priorities(rule, "src/lib.rs", &conflict),
        [Priority::P1, Priority::P1]
    );
    let yaml = [
        "<<<<<<< HEAD",
        "port: 1",
        "=======",
        "port: 2",
        ">>>>>>> branch",
    ];
    assert_eq!(
        priorities(rule, "config.yaml", &yaml),
        [Priority::P1, Priority::P1]
    );
}
