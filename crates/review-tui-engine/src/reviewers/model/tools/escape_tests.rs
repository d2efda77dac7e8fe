//! Every tool against every way out of the worktree, on a real directory with real links, a
//! real FIFO and a real `.git`.

use std::process::Command;

use super::*;
use crate::space::test_repo::git;

const OUTSIDE: &str = "OUTSIDE_SECRET_TOKEN";
const GIT_SECRET: &str = "GIT_CONFIG_SECRET";

/// A worktree next to an `outside` directory holding a secret, with links of every kind.
pub(super) struct Escapes {
    _dir: tempfile::TempDir,
    pub sandbox: Sandbox,
}

pub(super) fn escapes() -> Escapes {
    use std::os::unix::fs::symlink;
    let dir = tempfile::tempdir().unwrap();
    let wt = dir.path().join("wt");
    let outside = dir.path().join("outside");
    std::fs::create_dir_all(wt.join("src")).unwrap();
    std::fs::create_dir_all(&outside).unwrap();
    std::fs::write(outside.join("secret.txt"), format!("{OUTSIDE}\n")).unwrap();
    std::fs::write(wt.join("src/lib.rs"), "pub fn alpha() {}\n").unwrap();
    git(&wt, &["init", "-q"]);
    git(&wt, &["config", "review.token", GIT_SECRET]);

    symlink("/etc", wt.join("to_etc")).unwrap();
    symlink("/etc/passwd", wt.join("to_passwd")).unwrap();
    symlink("loop_b", wt.join("loop_a")).unwrap();
    symlink("loop_a", wt.join("loop_b")).unwrap();
    symlink("../outside", wt.join("out_dir")).unwrap();
    symlink("../outside/secret.txt", wt.join("out_file")).unwrap();
    symlink("/dev/null", wt.join("null")).unwrap();
    symlink(".git/config", wt.join("git_link")).unwrap();
    symlink("src/lib.rs", wt.join("inner_link")).unwrap();
    symlink(".", wt.join("self_dir")).unwrap();
    let status = Command::new("mkfifo")
        .arg(wt.join("fifo"))
        .status()
        .unwrap();
    assert!(status.success(), "mkfifo failed");

    let diff = "diff --git a/src/lib.rs b/src/lib.rs\n--- a/src/lib.rs\n+++ b/src/lib.rs\n\
                @@ -0,0 +1 @@\n+pub fn alpha() {}\n";
    let sandbox = Sandbox::new(&wt).unwrap().with_diff_text(diff).unwrap();
    Escapes { _dir: dir, sandbox }
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Refusal {
    Escapes,
    ThroughLink,
    Absolute,
    Loop,
    Nul,
    TooLong,
    ComponentTooLong,
    Special,
    Git,
}

fn kind(error: &ToolError) -> Option<Refusal> {
    Some(match error {
        ToolError::Escapes(_) => Refusal::Escapes,
        ToolError::EscapesThroughSymlink(_) => Refusal::ThroughLink,
        ToolError::Absolute(_) => Refusal::Absolute,
        ToolError::SymlinkLoop(_) => Refusal::Loop,
        ToolError::NulByte(_) => Refusal::Nul,
        ToolError::PathTooLong { .. } => Refusal::TooLong,
        ToolError::ComponentTooLong { .. } => Refusal::ComponentTooLong,
        ToolError::NotRegularFile { .. } => Refusal::Special,
        ToolError::GitInternals(_) => Refusal::Git,
        _ => return None,
    })
}

fn attempts() -> Vec<(String, Refusal)> {
    vec![
        ("..".into(), Refusal::Escapes),
        ("../../etc/passwd".into(), Refusal::Escapes),
        ("src/../../outside/secret.txt".into(), Refusal::Escapes),
        ("/etc/passwd".into(), Refusal::Absolute),
        ("to_etc/passwd".into(), Refusal::ThroughLink),
        ("to_passwd".into(), Refusal::ThroughLink),
        ("loop_a".into(), Refusal::Loop),
        ("out_dir/secret.txt".into(), Refusal::ThroughLink),
        ("out_file".into(), Refusal::ThroughLink),
        ("self_dir/out_dir/secret.txt".into(), Refusal::ThroughLink),
        ("src/lib.rs\0.txt".into(), Refusal::Nul),
        ("a/".repeat(2500), Refusal::TooLong),
        ("a".repeat(300), Refusal::ComponentTooLong),
        ("null".into(), Refusal::ThroughLink),
        ("fifo".into(), Refusal::Special),
        ("src".into(), Refusal::Special),
        (".git/config".into(), Refusal::Git),
        (".GIT/config".into(), Refusal::Git),
        ("src/../.git/config".into(), Refusal::Git),
        ("git_link".into(), Refusal::Git),
    ]
}

/// Nothing from outside the worktree or from `.git` in any answer, refusal or not.
fn assert_no_leak(context: &str, text: &str) {
    for secret in [OUTSIDE, GIT_SECRET, "root:x:0", "repositoryformatversion"] {
        assert!(
            !text.contains(secret),
            "{context}: leaked {secret:?}:\n{text}"
        );
    }
}

fn answer(result: &Result<String, ToolError>) -> String {
    match result {
        Ok(text) => text.clone(),
        Err(e) => e.to_string(),
    }
}

/// Whether a path outside exists must not change the answer: a link leading out is refused
/// the same way, its target there or not, a file or a directory, a loop or not.
#[test]
fn a_link_leading_out_answers_the_same_whether_its_target_exists_or_not() {
    use std::os::unix::fs::symlink;
    let e = escapes();
    let wt = e.sandbox.root().to_path_buf();
    let outside = wt.parent().unwrap().join("outside");
    symlink("../outside/missing.txt", wt.join("out_missing")).unwrap();
    symlink("/no/such/dir/anywhere", wt.join("abs_missing")).unwrap();
    symlink("out_loop", outside.join("out_loop")).unwrap();
    symlink("../outside/out_loop", wt.join("to_out_loop")).unwrap();
    symlink("src/../../outside/secret.txt", wt.join("climbs")).unwrap();
    symlink("src/../../outside/missing", wt.join("climbs_missing")).unwrap();
    let pairs = [
        ("out_file", "out_missing"),
        ("to_passwd", "abs_missing"),
        ("out_dir/secret.txt", "out_dir/missing.txt"),
        ("to_etc/passwd", "to_etc/no-such-file"),
        ("to_etc/passwd", "to_out_loop"),
        ("climbs", "climbs_missing"),
        ("self_dir/out_file", "self_dir/out_missing"),
    ];
    for (there, missing) in pairs {
        let said = |path: &str| {
            let args = serde_json::json!({ "path": path }).to_string();
            let error = e.sandbox.call(READ_FILE, &args).unwrap_err();
            (kind(&error), error.to_string().replace(path, "PATH"))
        };
        assert_eq!(said(there), said(missing), "{there} vs {missing}");
    }
}

#[test]
fn read_file_refuses_every_way_out() {
    let e = escapes();
    for (path, expected) in attempts() {
        let args = serde_json::json!({ "path": path }).to_string();
        let result = e.sandbox.call(READ_FILE, &args);
        assert_no_leak(&format!("read_file {path:?}"), &answer(&result));
        let error = result.expect_err(&format!("read_file {path:?} must be refused"));
        assert_eq!(kind(&error), Some(expected), "read_file {path:?}: {error}");
    }
}

#[test]
fn refusals_read_clearly_and_do_not_echo_huge_inputs() {
    let e = escapes();
    let read = |path: &str| {
        e.sandbox
            .call(READ_FILE, &serde_json::json!({ "path": path }).to_string())
            .unwrap_err()
            .to_string()
    };
    assert_eq!(
        read("../../etc/passwd"),
        "path escapes the worktree: ../../etc/passwd"
    );
    assert_eq!(
        read("to_passwd"),
        "path escapes the worktree through a symbolic link: to_passwd"
    );
    assert_eq!(read("fifo"), "not a regular file (FIFO): fifo");
    assert!(read(".git/config").contains("inside .git"));
    let long = read(&"a/".repeat(2500));
    assert!(long.len() < 400, "{long}");
    assert!(long.contains("5000 bytes; the limit is 4096"), "{long}");
    // The NUL is shown escaped, so the message is one clean line.
    assert!(!read("x\0y").contains('\0'));
}

#[test]
fn search_text_and_list_files_never_leave_the_worktree() {
    let e = escapes();
    let secrets = format!("{OUTSIDE}|{GIT_SECRET}|root:|repositoryformatversion");
    for (glob, _) in attempts() {
        let search = serde_json::json!({ "regex": secrets, "glob": glob }).to_string();
        let result = e.sandbox.call(SEARCH_TEXT, &search);
        assert_no_leak(&format!("search_text glob {glob:?}"), &answer(&result));
        let list = serde_json::json!({ "glob": glob }).to_string();
        let result = e.sandbox.call(LIST_FILES, &list);
        let text = answer(&result);
        assert_no_leak(&format!("list_files {glob:?}"), &text);
        if let Ok(text) = result {
            assert!(text.starts_with("0 files"), "list_files {glob:?}:\n{text}");
        }
    }
    // The glob forms that name a way out are refused outright, with the path's own words.
    for (glob, expected) in [
        ("../../etc/passwd", Refusal::Escapes),
        ("/etc/passwd", Refusal::Absolute),
        (".git/config", Refusal::Git),
    ] {
        let list = serde_json::json!({ "glob": glob }).to_string();
        let error = e.sandbox.call(LIST_FILES, &list).unwrap_err();
        assert_eq!(kind(&error), Some(expected), "list_files {glob:?}: {error}");
        let search = serde_json::json!({ "regex": "x", "glob": glob }).to_string();
        let error = e.sandbox.call(SEARCH_TEXT, &search).unwrap_err();
        assert_eq!(
            kind(&error),
            Some(expected),
            "search_text {glob:?}: {error}"
        );
    }

    // Everything: only the real files and the link that stays inside.
    let all = e.sandbox.call(LIST_FILES, "{}").unwrap();
    let listed: Vec<&str> = all.lines().take_while(|l| !l.ends_with(" files")).collect();
    assert_eq!(listed, ["inner_link", "src/lib.rs"], "{all}");
    assert!(all.contains("[skipped: "), "links out are counted: {all}");
    let found = e
        .sandbox
        .call(
            SEARCH_TEXT,
            &serde_json::json!({ "regex": secrets }).to_string(),
        )
        .unwrap();
    assert!(
        found.starts_with("no matches in 2 files searched"),
        "{found}"
    );
}

#[test]
fn get_diff_and_find_symbol_never_touch_paths_outside() {
    let e = escapes();
    for (path, _) in attempts() {
        let args = serde_json::json!({ "path": path }).to_string();
        let result = e.sandbox.call(GET_DIFF, &args);
        assert_no_leak(&format!("get_diff {path:?}"), &answer(&result));
        assert!(
            matches!(result, Err(ToolError::NotInDiff { .. })),
            "get_diff {path:?}: {result:?}"
        );

        let args = serde_json::json!({ "name": path }).to_string();
        let result = e.sandbox.call(FIND_SYMBOL, &args);
        assert_no_leak(&format!("find_symbol {path:?}"), &answer(&result));
    }
    for name in ["../../etc/passwd", "/etc/passwd", "a\0b", &"a".repeat(5000)] {
        let args = serde_json::json!({ "name": name }).to_string();
        let result = e.sandbox.call(FIND_SYMBOL, &args);
        assert!(
            matches!(result, Err(ToolError::BadSymbol(_))),
            "{name:?}: {result:?}"
        );
    }
    // The fallback search walks the worktree only: the secret's own name is not found.
    let args = serde_json::json!({ "name": OUTSIDE }).to_string();
    let text = e.sandbox.call(FIND_SYMBOL, &args).unwrap();
    assert!(text.contains("no matches"), "{text}");
}

#[test]
fn a_link_that_stays_inside_is_followed() {
    let e = escapes();
    let text = e
        .sandbox
        .call(READ_FILE, r#"{"path": "inner_link"}"#)
        .unwrap();
    assert!(text.contains("1 | pub fn alpha() {}"), "{text}");
    let through_self = e
        .sandbox
        .call(READ_FILE, r#"{"path": "self_dir/src/lib.rs"}"#)
        .unwrap();
    assert!(through_self.contains("pub fn alpha"), "{through_self}");
    // `..` is applied to the path as written, so it cannot climb out through a link's target.
    let lexical = e
        .sandbox
        .call(READ_FILE, r#"{"path": "out_dir/../src/lib.rs"}"#)
        .unwrap();
    assert!(lexical.contains("pub fn alpha"), "{lexical}");
}
