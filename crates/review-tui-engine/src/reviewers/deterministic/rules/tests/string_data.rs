//! A string literal's lines are its data, not the file's own lines: what a fixture or a
//! template holds (a conflict marker, a snapshot) is not the repository's.

use super::*;
use crate::review::node::Priority;

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
