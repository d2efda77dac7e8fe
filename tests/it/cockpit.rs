//! The cockpit end to end: the real binary in tmux on the demo repository. Triage by keyboard,
//! the approval gate and its publish preview, then reopening the same PR to find every decision
//! where it was left.

use std::path::Path;

use crate::support::tmux::Tmux;

fn cockpit(name: &str, data: &Path, exit_file: &Path) -> Tmux {
    cockpit_with(name, data, exit_file, "")
}

/// The cockpit on the demo with `extra` arguments.
fn cockpit_with(name: &str, data: &Path, exit_file: &Path, extra: &str) -> Tmux {
    Tmux::review_tui(
        name,
        &format!("--demo --deterministic-only{extra}"),
        exit_file,
        140,
        42,
        &[
            ("REVIEW_TUI_DATA_DIR", data),
            ("REVIEW_TUI_PERSON", Path::new("tester")),
        ],
    )
}

/// Filters the list to the two secret findings: the selection lands on the first. Waits for
/// both rows, not only the filter in the title: a round's cohorts reach the list after its
/// verdict (the grouping is read off the loop), so the title can say the filter a frame before
/// the rows it filters are drawn.
fn show_secrets(tmux: &Tmux) {
    tmux.keys(&["/"]);
    tmux.text("secret access");
    tmux.keys(&["Enter"]);
    tmux.wait_for("the filtered secret rows", |s| {
        s.contains("filter: secret access")
            && s.contains("AWS access key id")
            && s.contains("AWS secret access")
    });
}

#[test]
fn triage_gate_preview_quit_and_reopen() {
    crate::require_tmux!("cockpit::triage_gate_preview_quit_and_reopen");
    let data = tempfile::tempdir().unwrap();
    let first_exit = data.path().join("exit-1");
    let tmux = cockpit("first", data.path(), &first_exit);
    tmux.wait_for("the verdict", |s| {
        s.contains("BLOCK") && s.contains("secret scan done")
            || s.contains("BLOCK") && s.contains("✓ secret scan")
    });

    show_secrets(&tmux);
    // Confirm the access key id as the person (a peer of the scanner).
    tmux.keys(&["c"]);
    tmux.wait_for("the confirmation", |s| s.contains("ready"));
    // Dismiss the secret access key with a reason.
    tmux.keys(&["j", "x"]);
    tmux.wait_for("the reason box", |s| s.contains("why?"));
    tmux.text("test fixture, rotated");
    tmux.keys(&["Enter"]);
    tmux.wait_for("the dismissal", |s| s.contains("dismissed"));

    // The gate, then the publish preview, then cancel: nothing is posted.
    tmux.keys(&["g"]);
    tmux.wait_for("the gate", |s| s.contains("Approval gate"));
    tmux.keys(&["p"]);
    // The whole preview: a frame can be half-drawn under load.
    tmux.wait_for("the preview", |s| {
        s.contains("REQUEST_CHANGES") && s.contains("config.rs:10")
    });
    tmux.keys(&["Escape"]);
    tmux.wait_for("the cancel", |s| s.contains("nothing was posted"));
    // Escape then a key at once reads as Alt+key: close the gate, wait, then quit.
    tmux.keys(&["Escape"]);
    tmux.wait_for("the gate to close", |s| !s.contains("Approval gate"));
    tmux.keys(&["q"]);
    assert_eq!(tmux.exit_code(&first_exit), 6, "Block exits 6");
    drop(tmux);

    // Reopen the same PR: the confirmation and the dismissal are still there.
    let second_exit = data.path().join("exit-2");
    let tmux = cockpit("second", data.path(), &second_exit);
    tmux.wait_for("the resumed review", |s| s.contains("BLOCK"));
    show_secrets(&tmux);
    let screen = tmux.wait_for("the kept decisions", |s| {
        s.contains("ready") && s.contains("dismissed")
    });
    assert!(screen.contains("round 1"), "{screen}");
    // The diff of the selected finding's cohort, its line marked; escape closes it.
    tmux.keys(&["d"]);
    // Waits for the marked line itself: the mark is what this checks.
    tmux.wait_for("the diff view with a marked line", |s| {
        s.contains("Diff ·") && s.contains("━━ 1/") && s.contains("◆")
    });
    tmux.keys(&["Escape"]);
    tmux.wait_for("the diff to close", |s| !s.contains("Diff ·"));
    tmux.keys(&["q"]);
    assert_eq!(tmux.exit_code(&second_exit), 6);

    // And on disk, with who and why.
    let state = find_state(data.path()).expect("a state.json in the data dir");
    let state: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(state).unwrap()).unwrap();
    let nodes = state["nodes"].as_array().unwrap();
    let dismissed = nodes.iter().find(|n| n["status"] == "dismissed").unwrap();
    assert_eq!(dismissed["history"][0]["reason"], "test fixture, rotated");
    assert_eq!(dismissed["history"][0]["by"]["name"], "tester");
    let confirmed = nodes
        .iter()
        .find(|n| n["status"] == "consensus_ready")
        .unwrap();
    assert_eq!(confirmed["confirmations"][0]["by"]["type"], "person");
}

#[test]
fn a_new_round_shows_the_decisions_it_carries() {
    crate::require_tmux!("cockpit::a_new_round_shows_the_decisions_it_carries");
    let data = tempfile::tempdir().unwrap();
    let first_exit = data.path().join("exit-1");
    let tmux = cockpit("carry-1", data.path(), &first_exit);
    tmux.wait_for("the verdict", |s| s.contains("BLOCK"));
    show_secrets(&tmux);
    tmux.keys(&["x"]);
    tmux.wait_for("the reason box", |s| s.contains("why?"));
    tmux.text("rotated already");
    tmux.keys(&["Enter"]);
    tmux.wait_for("the dismissal", |s| s.contains("dismissed"));
    tmux.keys(&["q"]);
    assert_eq!(tmux.exit_code(&first_exit), 6);
    drop(tmux);

    // A new round finds the same secret again; the dismissal follows it into the round, and
    // the list shows it once the round is done (not the reviewer's fresh, open copy).
    let second_exit = data.path().join("exit-2");
    let tmux = cockpit_with("carry-2", data.path(), &second_exit, " --force");
    tmux.wait_for("round 2's final verdict", |s| {
        s.contains("round 2") && s.contains("BLOCK") && !s.contains("RUNNING")
    });
    show_secrets(&tmux);
    let screen = tmux.screen();
    assert!(screen.contains("dismissed"), "{screen}");
    tmux.keys(&["q"]);
    assert_eq!(tmux.exit_code(&second_exit), 6);
}

pub(crate) fn find_state(dir: &Path) -> Option<std::path::PathBuf> {
    for entry in std::fs::read_dir(dir).ok()?.flatten() {
        let path = entry.path();
        if path.file_name().is_some_and(|n| n == "state.json") {
            return Some(path);
        }
        let descend = path.is_dir()
            && path
                .file_name()
                .is_some_and(|n| n != "worktree" && n != "mirrors" && n != "demo");
        if let Some(found) = descend.then(|| find_state(&path)).flatten() {
            return Some(found);
        }
    }
    None
}

#[test]
fn without_a_terminal_the_cockpit_says_to_use_headless() {
    let data = tempfile::tempdir().unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_review-tui"))
        .args(["--demo", "--deterministic-only"])
        .env("REVIEW_TUI_DATA_DIR", data.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(4));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("--headless"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
}

/// A person's whole pass at 80×24, the smallest terminal the cockpit is made for: triage,
/// undo it, write a comment in their own `$VISUAL` (a script here), then the gate, the
/// preview and publishing the local range's `review.md`.
#[test]
fn triage_undo_editor_gate_and_publish_at_80x24() {
    crate::require_tmux!("cockpit::triage_undo_editor_gate_and_publish_at_80x24");
    let data = tempfile::tempdir().unwrap();
    let exit_file = data.path().join("exit");
    let editor = data.path().join("editor.sh");
    std::fs::write(
        &editor,
        "#!/bin/sh\nprintf 'Rotate the key, then purge it from the history.\\n' > \"$1\"\n",
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&editor, std::fs::Permissions::from_mode(0o755)).unwrap();
    let tmux = Tmux::review_tui(
        "walk",
        "--demo --deterministic-only",
        &exit_file,
        80,
        24,
        &[
            ("REVIEW_TUI_DATA_DIR", data.path()),
            ("REVIEW_TUI_PERSON", Path::new("tester")),
            ("VISUAL", &editor),
        ],
    );
    tmux.wait_for("the verdict", |s| s.contains("BLOCK"));
    let screen = tmux.screen();
    assert!(
        screen.contains("? help") && screen.contains("q quit"),
        "{screen}"
    );

    // The two secrets; confirm the first, then take it back.
    tmux.keys(&["/"]);
    tmux.text("p0");
    tmux.keys(&["Enter"]);
    tmux.wait_for("the filter", |s| s.contains("filter: p0"));
    tmux.keys(&["c"]);
    // At 80 columns the list has the width (stacked): the status's word at its edge.
    tmux.wait_for("the confirmation", |s| s.contains(" ready    │"));
    tmux.keys(&["u"]);
    tmux.wait_for("the undo", |s| {
        s.contains("undone:") && !s.contains(" ready    │")
    });

    // The comment, written in the person's editor.
    tmux.keys(&["E"]);
    tmux.wait_for("the saved comment", |s| s.contains("comment saved"));

    // The gate, with every action on screen, then publish.
    tmux.keys(&["g"]);
    // Waits for the whole overlay: a capture can land while the terminal is still drawing it.
    let actions = ["fix", "ignore", "publish", "details", "leave", "esc"];
    let gate = tmux.wait_for("the gate with every action", |s| {
        s.contains("Approval gate") && actions.iter().all(|action| s.contains(action))
    });
    for action in actions {
        assert!(gate.contains(action), "{action}:\n{gate}");
    }
    tmux.keys(&["p"]);
    tmux.wait_for("the preview", |s| s.contains("enter publish exactly this"));
    tmux.keys(&["Enter"]);
    tmux.wait_for("the publication", |s| s.contains("published"));

    // The event log: what ran, what the person decided and took back, what was posted.
    tmux.keys(&["l"]);
    tmux.wait_for("the event log with the publication", |s| {
        s.contains("Event log (")
            && s.contains("you withdrew your confirmation")
            && s.contains("published:")
    });
    tmux.keys(&["Home"]);
    tmux.wait_for("the log's first lines", |s| {
        s.contains("run started") && s.contains("secret scan done")
    });
    tmux.keys(&["Escape"]);
    tmux.wait_for("the log to close", |s| !s.contains("Event log ("));
    tmux.keys(&["q"]);
    assert_eq!(tmux.exit_code(&exit_file), 6, "Block exits 6");

    let state = find_state(data.path()).expect("a state.json");
    let space = state.parent().unwrap();
    let review = std::fs::read_to_string(space.join("review.md")).expect("review.md published");
    assert!(review.contains("BLOCK"), "{review}");
    let state: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&state).unwrap()).unwrap();
    let comments = state["comments"].as_object().unwrap();
    assert!(
        comments
            .values()
            .any(|c| c == "Rotate the key, then purge it from the history."),
        "{comments:?}"
    );
    // The undo is a change like any other: confirmed, then open again, both recorded.
    let nodes = state["nodes"].as_array().unwrap();
    let undone = nodes
        .iter()
        .find(|n| n["history"].as_array().is_some_and(|h| h.len() == 2))
        .expect("a finding confirmed then reopened");
    assert_eq!(undone["status"], "open");
    assert_eq!(undone["history"][0]["to"], "consensus_ready");
    assert_eq!(undone["history"][1]["to"], "open");
    assert!(undone["confirmations"].as_array().unwrap().is_empty());
}

/// The demo with its recorded model answers at 80×24, in `data`.
fn demo_with_models(name: &str, data: &Path, exit_file: &Path, env: &[(&str, &Path)]) -> Tmux {
    let mut all = vec![
        ("REVIEW_TUI_DATA_DIR", data),
        ("REVIEW_TUI_PERSON", Path::new("tester")),
    ];
    all.extend_from_slice(env);
    Tmux::review_tui(name, "--demo", exit_file, 80, 24, &all)
}

/// `Reviewers · 12.3k tok` → `12.3k`.
fn tokens_shown(screen: &str) -> String {
    let after = screen
        .split("Reviewers · ")
        .nth(1)
        .unwrap_or_else(|| panic!("no reviewers title:\n{screen}"));
    after.split(" tok").next().unwrap().trim().to_string()
}

/// Defect 11: a reopened space shows the tokens its round spent and the level the person
/// chose, as the space recorded them.
#[test]
fn a_reopened_space_keeps_its_tokens_and_the_chosen_level() {
    crate::require_tmux!("cockpit::a_reopened_space_keeps_its_tokens_and_the_chosen_level");
    let data = tempfile::tempdir().unwrap();
    let first_exit = data.path().join("exit-1");
    let tmux = demo_with_models("tokens-1", data.path(), &first_exit, &[]);
    let done = tmux.wait_for("the finished review", |s| {
        s.contains("BLOCK") && s.contains(" tok") && !s.contains("running") && s.contains("? help")
    });
    let spent = tokens_shown(&done);
    assert_ne!(spent, "0", "the recorded models spend tokens:\n{done}");
    assert!(done.contains("level balanced"), "{done}");
    tmux.keys(&["L"]);
    tmux.wait_for("the level", |s| s.contains("level thorough"));
    tmux.keys(&["q"]);
    tmux.exit_code(&first_exit);
    drop(tmux);

    let second_exit = data.path().join("exit-2");
    let tmux = demo_with_models("tokens-2", data.path(), &second_exit, &[]);
    let reopened = tmux.wait_for("the reopened review", |s| {
        s.contains("BLOCK") && s.contains(" tok") && s.contains("? help")
    });
    assert!(reopened.contains("level thorough"), "{reopened}");
    assert_eq!(tokens_shown(&reopened), spent, "{reopened}");
    tmux.keys(&["q"]);
    tmux.exit_code(&second_exit);
}

/// `O` hands the finding's file, in the space's worktree, to `$VISUAL` at the finding's line
/// (`+LINE FILE`); the cockpit comes back after it. A script stands for the editor and records
/// its arguments. In the diff view `o` opens the cursor's line.
#[test]
fn o_opens_the_findings_file_at_its_line_in_the_editor_at_80x24() {
    crate::require_tmux!("cockpit::o_opens_the_findings_file_at_its_line_in_the_editor_at_80x24");
    let data = tempfile::tempdir().unwrap();
    let exit_file = data.path().join("exit");
    let args = data.path().join("args");
    let editor = data.path().join("editor.sh");
    std::fs::write(
        &editor,
        format!(
            // Records its arguments, then edits the file it was given, as a person would.
            "#!/bin/sh\nfor a in \"$@\"; do printf '%s\\n' \"$a\" >> '{}'; done\necho --- >> '{}'\nfor f; do :; done\necho '// edited' >> \"$f\" 2>/dev/null\n",
            args.display(),
            args.display()
        ),
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&editor, std::fs::Permissions::from_mode(0o755)).unwrap();
    let tmux = Tmux::review_tui(
        "open-at",
        "--demo --deterministic-only",
        &exit_file,
        80,
        24,
        &[
            ("REVIEW_TUI_DATA_DIR", data.path()),
            ("REVIEW_TUI_PERSON", Path::new("tester")),
            ("VISUAL", &editor),
        ],
    );
    tmux.wait_for("the verdict", |s| {
        s.contains("BLOCK") && s.contains("? help")
    });
    tmux.keys(&["/"]);
    tmux.text("p0");
    tmux.keys(&["Enter"]);
    tmux.wait_for("the filter", |s| s.contains("filter: p0"));
    tmux.keys(&["O"]);
    let runs = || {
        std::fs::read_to_string(&args)
            .unwrap_or_default()
            .matches("---")
            .count()
    };
    tmux.wait_for("the cockpit back after the editor", |s| {
        runs() == 1 && s.contains("? help") && s.contains("Findings")
    });
    let recorded = std::fs::read_to_string(&args).unwrap();
    let lines: Vec<&str> = recorded.lines().collect();
    let line = lines[0]
        .strip_prefix('+')
        .unwrap_or_else(|| panic!("+LINE first: {recorded}"));
    assert!(line.parse::<u32>().unwrap() >= 1, "{recorded}");
    let state = find_state(data.path()).expect("a state.json");
    let worktree = state.parent().unwrap().join("worktree");
    let views = state.parent().unwrap().join("views");
    let file = Path::new(lines[1]);
    // A read-only copy beside the worktree, never the worktree's own file: the edit above
    // left the review's checkout clean, and the message says where to edit.
    assert!(
        file.starts_with(&views),
        "{recorded} not in {}",
        views.display()
    );
    assert!(file.is_file(), "{recorded}");
    tmux.wait_for("the read-only copy named", |s| s.contains("read-only"));
    let status = std::process::Command::new("git")
        .args(["status", "--porcelain"])
        .current_dir(&worktree)
        .output()
        .unwrap();
    assert!(
        status.status.success() && status.stdout.is_empty(),
        "the worktree was edited: {}",
        String::from_utf8_lossy(&status.stdout)
    );
    // The state recorded the same line for the finding the editor opened.
    let text: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&state).unwrap()).unwrap();
    let relative = file.strip_prefix(&views).unwrap().to_str().unwrap();
    assert!(
        text["nodes"].as_array().unwrap().iter().any(|n| {
            n["anchor"]["path"] == relative
                && n["anchor"]["start_line"].as_u64() == line.parse::<u64>().ok()
        }),
        "no finding at {relative}:{line}"
    );

    // The diff view opens at its cursor line: the finding's marked line.
    tmux.keys(&["d"]);
    tmux.wait_for("the diff view", |s| s.contains("Diff ·") && s.contains("◆"));
    tmux.keys(&["o"]);
    tmux.wait_for("the diff view back after the editor", |s| {
        runs() == 2 && s.contains("Diff ·")
    });
    let recorded = std::fs::read_to_string(&args).unwrap();
    let second: Vec<&str> = recorded.split("---\n").nth(1).unwrap().lines().collect();
    assert!(second[0].starts_with('+'), "{recorded}");
    assert!(Path::new(second[1]).starts_with(&views), "{recorded}");
    tmux.keys(&["Escape"]);
    tmux.wait_for("the diff view to close", |s| !s.contains("Diff ·"));
    tmux.keys(&["q"]);
    tmux.exit_code(&exit_file);
}

#[test]
fn a_cohort_is_dismissed_with_one_reason_and_undone_in_one_step_at_80x24() {
    crate::require_tmux!(
        "cockpit::a_cohort_is_dismissed_with_one_reason_and_undone_in_one_step_at_80x24"
    );
    let data = tempfile::tempdir().unwrap();
    let exit_file = data.path().join("exit");
    let tmux = Tmux::review_tui(
        "cohort",
        "--demo --deterministic-only",
        &exit_file,
        80,
        24,
        &[
            ("REVIEW_TUI_DATA_DIR", data.path()),
            ("REVIEW_TUI_PERSON", Path::new("tester")),
        ],
    );
    tmux.wait_for("the verdict", |s| s.contains("BLOCK"));
    // The two secrets, alone in the list; their cohort's row is the first.
    tmux.keys(&["/"]);
    tmux.text("p0");
    tmux.keys(&["Enter"]);
    tmux.wait_for("the filter", |s| s.contains("filter: p0"));
    tmux.keys(&["Home"]);
    tmux.keys(&["x"]);
    tmux.wait_for("one reason for both", |s| {
        s.contains("Dismiss 2 findings — why?")
    });
    tmux.text("test keys, rotated");
    tmux.keys(&["Enter"]);
    // At 80 columns the list has the width (stacked): the status's word at its edge.
    tmux.wait_for("both dismissed", |s| {
        s.contains("dismissed 2 findings") && s.matches(" dismissed│").count() >= 2
    });
    tmux.keys(&["u"]);
    tmux.wait_for("both open again in one undo", |s| {
        s.contains("undone: 2 of the 2 changes") && !s.contains(" dismissed│")
    });
    // A range from the first secret: V, one row down, confirm: both, then one undo.
    tmux.keys(&["Home", "j"]);
    tmux.keys(&["V"]);
    tmux.wait_for("the range", |s| s.contains("· range"));
    tmux.keys(&["j", "c"]);
    tmux.wait_for("both confirmed", |s| s.contains("confirmed 2 findings"));
    tmux.keys(&["u"]);
    tmux.wait_for("both back", |s| s.contains("undone: 2 of the 2 changes"));
    tmux.keys(&["q"]);
    assert_eq!(tmux.exit_code(&exit_file), 6, "Block exits 6");

    // On disk: each finding was dismissed with the one reason, then reopened.
    let state = find_state(data.path()).expect("a state.json");
    let state: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(state).unwrap()).unwrap();
    let with_reason = state["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|n| {
            n["history"]
                .as_array()
                .is_some_and(|h| h.iter().any(|t| t["reason"] == "test keys, rotated"))
        })
        .count();
    assert_eq!(with_reason, 2);
}

/// `--deterministic-only` skips the model reviewers because the person asked: the cockpit's
/// verdict and exit code must be the headless report's for the same change (Ship on a clean
/// one), not "Inconclusive: required reviewers … skipped".
#[test]
fn a_deterministic_only_cockpit_round_gives_the_headless_verdict() {
    crate::require_tmux!("cockpit::a_deterministic_only_cockpit_round_gives_the_headless_verdict");
    let repo = crate::support::git_repo::GitRepo::init();
    repo.write(
        "src/lib.rs",
        "pub fn add(a: i32, b: i32) -> i32 {\n    a + b\n}\n",
    );
    repo.write(
        "tests/add.rs",
        "#[test]\nfn adds() {\n    assert_eq!(demo::add(1, 2), 3);\n}\n",
    );
    let base = repo.commit_all("add");
    repo.write("README.md", "# demo\n\nAdds two numbers.\n");
    let head = repo.commit_all("a readme");
    let range = format!("{}#{base}..{head}", repo.path().display());
    let binary = env!("CARGO_BIN_EXE_review-tui");

    let data = tempfile::tempdir().unwrap();
    let headless = std::process::Command::new(binary)
        .args([
            range.as_str(),
            "--headless",
            "--deterministic-only",
            "--format",
            "json",
        ])
        .env("REVIEW_TUI_DATA_DIR", data.path())
        .output()
        .unwrap();
    let report: serde_json::Value = serde_json::from_slice(&headless.stdout).unwrap();
    assert_eq!(report["verdict"]["decision"], "ship", "{report}");
    assert_eq!(headless.status.code(), Some(0));

    let data = tempfile::tempdir().unwrap();
    let exit_file = data.path().join("exit");
    let tmux = Tmux::review_tui(
        "deterministic-only",
        &format!("'{range}' --deterministic-only"),
        &exit_file,
        80,
        24,
        &[
            ("REVIEW_TUI_DATA_DIR", data.path()),
            ("REVIEW_TUI_PERSON", Path::new("tester")),
        ],
    );
    let screen = tmux.wait_for("the round's verdict", |s| {
        // The ladder past "in progress" (the short header names the step): the round is
        // recorded.
        s.contains("round 1 awaiting approval")
            && (s.contains("SHIP") || s.contains("INCONCLUSIVE"))
    });
    assert!(screen.contains("SHIP"), "{screen}");
    assert!(!screen.contains("Inconclusive"), "{screen}");
    tmux.keys(&["q"]);
    assert_eq!(tmux.exit_code(&exit_file), 0, "Ship exits 0");
}

/// A terminal too small for the cockpit (11 rows panicked, exit 101) gets a screen saying what
/// it needs, at the start and on resize, with the gate open too; the next resize draws the
/// cockpit again, and quitting gives the verdict's exit code, never a crash.
#[test]
fn a_terminal_too_small_says_what_it_needs_and_a_resize_brings_the_cockpit_back() {
    let data = tempfile::tempdir().unwrap();
    let exit = data.path().join("exit");
    let tmux = Tmux::review_tui(
        "small",
        "--demo --deterministic-only",
        &exit,
        60,
        11,
        &[("REVIEW_TUI_DATA_DIR", data.path())],
    );
    tmux.wait_for("the too-small screen", |s| {
        s.contains("terminal too small (need 40 x 12, have 60 x 11)")
    });
    tmux.resize(60, 15);
    tmux.wait_for("the cockpit at 60x15", |s| {
        s.contains("BLOCK") && s.contains("Findings") && s.contains("q quit")
    });
    tmux.keys(&["g"]);
    tmux.wait_for("the gate", |s| s.contains("Approval gate"));
    for (width, height) in [(30, 8), (1, 1), (40, 11)] {
        tmux.resize(width, height);
        // As much of "terminal too small…" as fits (a 1x1 terminal shows its `t`).
        tmux.wait_for("the too-small screen again", |s| s.starts_with('t'));
    }
    tmux.resize(80, 24);
    tmux.wait_for("the gate again", |s| s.contains("Approval gate"));
    tmux.keys(&["Escape"]);
    tmux.wait_for("the gate to close", |s| !s.contains("Approval gate"));
    tmux.keys(&["q"]);
    assert_eq!(tmux.exit_code(&exit), 6, "Block exits 6, no panic");
}

/// `x` on the gated axis's reason row overrides it with a reason; the code's Block stays, and
/// the published summary states it, the axis's failure and the person's override.
#[test]
fn an_axis_overridden_on_its_reason_row_is_published_beside_the_codes_verdict_at_80x24() {
    crate::require_tmux!(
        "cockpit::an_axis_overridden_on_its_reason_row_is_published_beside_the_codes_verdict_at_80x24"
    );
    let repo = crate::support::git_repo::GitRepo::init();
    repo.write(
        "lua/plugin.lua",
        "local M = {}\n\nfunction M.setup(opts)\n  return opts\nend\n\nfunction M.run()\n  return 1\nend\n\nreturn M\n",
    );
    let base = repo.commit_all("plugin");
    // `M.setup` removed: a break of the module's public table, the gated API axis fails.
    repo.write(
        "lua/plugin.lua",
        "local M = {}\n\nfunction M.run()\n  return 1\nend\n\nreturn M\n",
    );
    let head = repo.commit_all("drop setup");
    let range = format!("{}#{base}..{head}", repo.path().display());
    let data = tempfile::tempdir().unwrap();
    let exit_file = data.path().join("exit");
    let tmux = Tmux::review_tui(
        "axis-override",
        &format!("'{range}' --deterministic-only"),
        &exit_file,
        80,
        24,
        &[
            ("REVIEW_TUI_DATA_DIR", data.path()),
            ("REVIEW_TUI_PERSON", Path::new("ana")),
        ],
    );
    tmux.wait_for("the Block and its reason row", |s| {
        s.contains("round 1 awaiting approval") && s.contains("apiContract")
    });
    tmux.keys(&["Up", "Up", "Up", "Up", "x"]);
    tmux.wait_for("the override box", |s| s.contains("Override apiContract"));
    tmux.text("setup moved to v2 <!-- hidden -->");
    tmux.keys(&["Enter"]);
    tmux.wait_for("the override on the row", |s| {
        s.contains("overridden by ana")
    });
    tmux.keys(&["g"]);
    tmux.wait_for("the gate with the person's decision", |s| {
        s.contains("Approval gate") && s.contains("by code BLOCK")
    });
    tmux.keys(&["p"]);
    tmux.wait_for("the preview", |s| s.contains("enter publish exactly this"));
    tmux.keys(&["Enter"]);
    tmux.wait_for("the publication", |s| s.contains("published"));
    tmux.keys(&["q"]);
    // The verdict by code, and so the exit code, stays a Block.
    assert_eq!(tmux.exit_code(&exit_file), 6, "Block exits 6");

    let state = find_state(data.path()).expect("a state.json");
    let space = state.parent().unwrap();
    let review = std::fs::read_to_string(space.join("review.md")).expect("review.md published");
    assert!(review.contains("BLOCK by code"), "{review}");
    assert!(
        review.contains("apiContract fail, overridden by ana: setup moved to v2"),
        "{review}"
    );
    assert!(
        !review.contains("<!-- hidden"),
        "the reason is escaped:\n{review}"
    );
    let json: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(space.join("review.json")).expect("review.json published"),
    )
    .unwrap();
    assert_eq!(json["verdict"]["decision"], "block", "{json}");
    // The person's Ship is what the gate publishes: without model reviewers, a comment.
    assert_eq!(json["event"], "COMMENT", "{json}");
    assert_eq!(json["verdict"]["person"]["decision"], "ship", "{json}");
    assert_eq!(
        json["verdict"]["person"]["overrides"][0]["by"], "ana",
        "{json}"
    );
}
