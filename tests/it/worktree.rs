//! Reviewing uncommitted work (`--worktree`, `--staged`, `--watch`) and handing the findings
//! back (`--format prompt`): the real binary on real repositories whose checkout is dirty.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Output;

use serde_json::Value;

use crate::cli::review_tui;
use crate::support::git_repo::GitRepo;
use crate::support::tmux::Tmux;

/// A token whose checksum holds, as an issued one's does (see `support::tokens`).
const PLANTED: &str = "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";

fn run(data: &Path, repo: &Path, args: &[&str]) -> Output {
    review_tui()
        .arg(repo)
        .args(args)
        .args(["--headless", "--deterministic-only"])
        .env("REVIEW_TUI_DATA_DIR", data)
        .env_remove("GITHUB_API_URL")
        .env_remove("GH_TOKEN")
        .env_remove("GITHUB_TOKEN")
        .output()
        .unwrap()
}

fn json(data: &Path, repo: &Path, args: &[&str]) -> Value {
    let mut all = args.to_vec();
    all.extend(["--format", "json"]);
    let out = run(data, repo, &all);
    let stdout = String::from_utf8_lossy(&out.stdout);
    serde_json::from_str(&stdout).unwrap_or_else(|e| {
        panic!(
            "not JSON ({e}): {stdout}\nstderr: {}",
            String::from_utf8_lossy(&out.stderr)
        )
    })
}

/// (path, status, fingerprint) of every finding of a JSON report.
fn findings(report: &Value) -> Vec<(String, String, String)> {
    report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                f["anchor"]["path"].as_str().unwrap_or_default().to_string(),
                f["status"].as_str().unwrap().to_string(),
                f["fingerprint"].as_str().unwrap_or_default().to_string(),
            )
        })
        .collect()
}

fn strings(value: &Value) -> Vec<String> {
    (value.as_array().into_iter().flatten())
        .map(|v| v.as_str().unwrap().to_string())
        .collect()
}

/// A `feature` branch one commit past `main`, whose checkout has a staged, an unstaged, an
/// untracked and an ignored file, each with a `dbg!` a rule finds.
fn dirty_repository() -> GitRepo {
    let repo = GitRepo::init();
    repo.write(".gitignore", "*.log\ntarget/\n");
    repo.write("src/lib.rs", "pub fn a() -> i32 {\n    1\n}\n");
    repo.write("src/old.rs", "pub fn old() {}\n");
    repo.commit_all("initial");
    repo.git(&["checkout", "--quiet", "-b", "feature"]);
    repo.write("src/committed.rs", "pub fn c() -> i32 {\n    2\n}\n");
    repo.commit_all("feature work");
    repo.write("src/staged.rs", "pub fn s() -> i32 {\n    dbg!(3)\n}\n");
    repo.git(&["add", "src/staged.rs"]);
    repo.write(
        "src/lib.rs",
        "pub fn a() -> i32 {\n    1\n}\n\npub fn b(x: i32) -> i32 {\n    dbg!(x)\n}\n",
    );
    repo.write("src/untracked.rs", "pub fn u() -> i32 {\n    dbg!(4)\n}\n");
    repo.write("debug.log", "dbg!(5)\n");
    repo.write("target/out.rs", "pub fn t() -> i32 {\n    dbg!(6)\n}\n");
    repo.git(&["rm", "--quiet", "src/old.rs"]);
    repo
}

/// Everything of the person's checkout a review must leave alone: the index, every ref and
/// reflog, the stash list, `HEAD`, and every file of the work tree, byte for byte.
fn untouched(repo: &GitRepo) -> BTreeMap<String, Vec<u8>> {
    let mut seen = BTreeMap::new();
    let git = repo.path().join(".git");
    for name in ["index", "HEAD", "packed-refs", "ORIG_HEAD", "FETCH_HEAD"] {
        if let Ok(bytes) = std::fs::read(git.join(name)) {
            seen.insert(format!(".git/{name}"), bytes);
        }
    }
    for dir in ["refs", "logs"] {
        walk(&git.join(dir), &git, &mut seen);
    }
    seen.insert(
        "stash list".into(),
        repo.git(&["stash", "list"]).into_bytes(),
    );
    seen.insert(
        "for-each-ref".into(),
        repo.git(&["for-each-ref"]).into_bytes(),
    );
    let mut files = BTreeMap::new();
    walk(repo.path(), repo.path(), &mut files);
    seen.extend(
        files
            .into_iter()
            .filter(|(path, _)| !path.starts_with(".git/")),
    );
    seen
}

fn walk(dir: &Path, root: &Path, out: &mut BTreeMap<String, Vec<u8>>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries {
        let path: PathBuf = entry.unwrap().path();
        if path.is_dir() {
            walk(&path, root, out);
        } else {
            let name = path.strip_prefix(root).unwrap().display().to_string();
            out.insert(name, std::fs::read(&path).unwrap());
        }
    }
}

#[test]
fn a_dirty_tree_is_reviewed_whole_and_left_exactly_as_it_was() {
    let repo = dirty_repository();
    let data = tempfile::tempdir().unwrap();
    let before = untouched(&repo);

    // A review of the commits says in one line how to take the uncommitted work in.
    let plain = run(data.path(), repo.path(), &[]);
    let said = String::from_utf8_lossy(&plain.stderr);
    assert!(said.contains("add --worktree (-w)"), "{said}");

    let report = json(data.path(), repo.path(), &["-w"]);
    let found = findings(&report);
    let paths: Vec<&str> = found.iter().map(|f| f.0.as_str()).collect();
    for reviewed in ["src/lib.rs", "src/staged.rs", "src/untracked.rs"] {
        assert!(
            paths.contains(&reviewed),
            "{reviewed} not reviewed: {found:?}"
        );
    }
    // Ignored files are not part of the work.
    assert!(
        !paths
            .iter()
            .any(|p| p.contains("debug.log") || p.starts_with("target/")),
        "{found:?}"
    );
    let files: Vec<String> = (report["files"].as_array().unwrap().iter())
        .map(|f| f["path"].as_str().unwrap().to_string())
        .collect();
    for changed in [
        "src/committed.rs",
        "src/lib.rs",
        "src/staged.rs",
        "src/untracked.rs",
    ] {
        assert!(files.contains(&changed.to_string()), "{files:?}");
    }
    assert!(
        files.contains(&"src/old.rs".to_string()),
        "the staged removal: {files:?}"
    );
    assert!(
        !files
            .iter()
            .any(|f| f.ends_with(".log") || f.starts_with("target/"))
    );
    // The space is the branch's "worktree" space.
    let space = report["space"]["path"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    assert!(space.contains("feature-worktree"), "{space}");

    assert_eq!(untouched(&repo), before, "the checkout changed");
}

#[test]
fn reviewing_again_after_an_edit_drops_the_fixed_finding_and_adds_the_new_one() {
    let repo = dirty_repository();
    let data = tempfile::tempdir().unwrap();
    let first = json(data.path(), repo.path(), &["--worktree"]);
    let lib = |report: &Value| -> Vec<(String, String, String)> {
        findings(report)
            .into_iter()
            .filter(|f| f.0 == "src/lib.rs")
            .collect()
    };
    let fixed = lib(&first);
    assert_eq!(fixed.len(), 1, "{fixed:?}");

    // The same work again is the same snapshot: no new round, the recorded one is reported.
    let again = run(data.path(), repo.path(), &["--worktree"]);
    let said = String::from_utf8_lossy(&again.stderr);
    assert!(said.contains("already reviewed"), "{said}");
    let again = json(data.path(), repo.path(), &["--worktree"]);
    assert_eq!(again["round"]["number"], 1, "{}", again["round"]);

    repo.write(
        "src/lib.rs",
        "pub fn a() -> i32 {\n    1\n}\n\npub fn b(x: i32) -> i32 {\n    x\n}\n\npub fn c() {\n    todo!()\n}\n",
    );
    let second = json(data.path(), repo.path(), &["--worktree"]);
    assert_eq!(second["round"]["number"], 2, "{}", second["round"]);
    let now = lib(&second);
    assert_eq!(now.len(), 1, "{now:?}");
    assert_ne!(now[0].2, fixed[0].2, "the todo!() is a new finding");
    let delta = &second["round"];
    assert!(
        strings(&delta["not_refound"]).contains(&fixed[0].2),
        "the fixed dbg! is not found again: {delta}"
    );
    assert!(strings(&delta["new"]).contains(&now[0].2), "{delta}");
    // The untouched files' findings are still there, as they were.
    assert_eq!(strings(&delta["still_present"]).len(), 2, "{delta}");
}

#[test]
fn staged_reviews_the_index_only() {
    let repo = dirty_repository();
    let data = tempfile::tempdir().unwrap();
    let before = untouched(&repo);
    let report = json(data.path(), repo.path(), &["--staged"]);
    let files: Vec<String> = (report["files"].as_array().unwrap().iter())
        .map(|f| f["path"].as_str().unwrap().to_string())
        .collect();
    assert!(files.contains(&"src/staged.rs".to_string()), "{files:?}");
    assert!(files.contains(&"src/old.rs".to_string()), "{files:?}");
    assert!(
        !files.contains(&"src/lib.rs".to_string()),
        "unstaged: {files:?}"
    );
    assert!(
        !files.contains(&"src/untracked.rs".to_string()),
        "{files:?}"
    );
    let space = report["space"]["path"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    assert!(space.contains("feature-staged"), "{space}");
    assert_eq!(untouched(&repo), before, "the checkout changed");

    // A head besides the checkout is refused, in one line, exit 4.
    let out = run(data.path(), repo.path(), &["--staged", "--head", "main"]);
    assert_eq!(out.status.code(), Some(4));
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(
        said.contains("--staged reviews the checked-out branch"),
        "{said}"
    );
}

#[test]
fn the_prompt_hands_back_the_kept_findings_with_their_code_and_no_secret() {
    let repo = GitRepo::init();
    repo.write("src/lib.rs", "pub fn a() -> i32 {\n    1\n}\n");
    repo.commit_all("initial");
    repo.write(
        "src/lib.rs",
        "pub fn a() -> i32 {\n    dbg!(1)\n}\n\npub fn c() {\n    todo!()\n}\n",
    );
    repo.write(
        "src/config.rs",
        &format!("pub const TOKEN: &str = \"{PLANTED}\";\n"),
    );
    let data = tempfile::tempdir().unwrap();
    // On `main` with nothing upstream, the review is of the uncommitted work alone.
    let out = run(data.path(), repo.path(), &["-w", "--format", "prompt"]);
    let prompt = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(6), "a secret blocks: {prompt}");
    assert!(!prompt.contains(PLANTED), "{prompt}");
    assert!(prompt.contains("src/config.rs:1"), "{prompt}");
    assert!(prompt.contains("src/lib.rs:6"), "{prompt}");
    assert!(
        prompt.contains("    6 |     todo!()"),
        "the code lines: {prompt}"
    );
    // Most important first: the secret (P0), the todo!() (P1), the dbg! (P2).
    let at = |what: &str| prompt.find(what).unwrap_or(usize::MAX);
    assert!(at("src/config.rs:1") < at("src/lib.rs:6"), "{prompt}");
    assert!(at("src/lib.rs:6") < at("src/lib.rs:2"), "{prompt}");
}

#[test]
fn watch_reviews_again_when_the_work_changes_and_the_finding_resolves() {
    let repo = GitRepo::init();
    repo.write("src/lib.rs", "pub fn a() -> i32 {\n    1\n}\n");
    repo.commit_all("initial");
    repo.write("src/lib.rs", "pub fn a() -> i32 {\n    dbg!(1)\n}\n");
    let data = tempfile::tempdir().unwrap();
    let exit = data.path().join("exit");
    let binary = env!("CARGO_BIN_EXE_review-tui");
    let command = format!(
        "{binary} {} --watch --deterministic-only; echo $? > {}; sleep 30",
        repo.path().display(),
        exit.display()
    );
    let tmux = Tmux::start(
        "watch",
        &command,
        140,
        40,
        &[
            ("REVIEW_TUI_DATA_DIR", data.path()),
            ("REVIEW_TUI_PERSON", Path::new("tester")),
        ],
    );
    tmux.wait_for("round 1 with the dbg! finding, watching", |s| {
        s.contains("round 1") && s.contains("watching") && s.contains("`dbg!` left in")
    });
    repo.write(
        "src/lib.rs",
        "pub fn a() -> i32 {\n    1\n}\n\npub fn t() {\n    todo!()\n}\n",
    );
    let screen = tmux.wait_for("round 2 without the dbg! finding, said", |s| {
        s.contains("round 2")
            && s.contains("todo!()")
            && !s.contains("`dbg!` left in")
            && s.contains("1 finding(s) of the last round not found again (fixed), 1 new")
    });
    assert!(screen.contains("watching"), "{screen}");
    // The gate hands the kept finding back: one prompt, copied and written into the space.
    tmux.keys(&["g"]);
    tmux.wait_for("the gate", |s| s.contains("Approval gate"));
    tmux.keys(&["h"]);
    tmux.wait_for("the prompt handed back", |s| {
        s.contains("copied to the clipboard")
    });
    let mut written = BTreeMap::new();
    walk(&data.path().join("spaces"), data.path(), &mut written);
    let prompt = (written.iter())
        .find(|(path, _)| path.ends_with("/prompt.md"))
        .map(|(_, bytes)| String::from_utf8_lossy(bytes).into_owned())
        .unwrap_or_else(|| panic!("no prompt.md in {:?}", written.keys()));
    assert!(prompt.contains("src/lib.rs:6"), "{prompt}");
    assert!(
        !prompt.contains("dbg!"),
        "the resolved finding is not handed back: {prompt}"
    );
    tmux.keys(&["Escape"]);
    tmux.wait_for("the gate to close", |s| !s.contains("Approval gate"));
    tmux.keys(&["q"]);
    assert_eq!(tmux.exit_code(&exit), 5, "the todo!() holds");
}

#[test]
fn review_tui_alone_inside_a_repository_reviews_its_current_branch() {
    let repo = dirty_repository();
    let data = tempfile::tempdir().unwrap();
    let named = json(data.path(), repo.path(), &["-w"]);

    // No PR given, run from inside the repository (a subfolder, as a person would).
    let out = review_tui()
        .current_dir(repo.path().join("src"))
        .args([
            "-w",
            "--headless",
            "--deterministic-only",
            "--format",
            "json",
        ])
        .env("REVIEW_TUI_DATA_DIR", data.path())
        .env_remove("GITHUB_API_URL")
        .env_remove("GH_TOKEN")
        .env_remove("GITHUB_TOKEN")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let alone: Value = serde_json::from_str(&stdout).unwrap_or_else(|e| {
        panic!(
            "not JSON ({e}): {stdout}\nstderr: {}",
            String::from_utf8_lossy(&out.stderr)
        )
    });
    assert!(!findings(&named).is_empty());
    assert_eq!(findings(&alone), findings(&named));
}
