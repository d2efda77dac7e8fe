//! The diff model against real inputs: the unidiff sample corpus, and diffs of temporary git
//! repositories checked line for line against `git diff --numstat`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use review_tui::diff::{
    self, Diff, DiffError, FileMode, FileStatus, LineEnding, LineKind, Problem, Side,
};

fn sample(name: &str) -> Vec<u8> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/diff/unidiff-samples")
        .join(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// A deliberately naive second opinion on the counts: every `+`/`-` line that is not a file
/// header or a mail separator. It is only trusted on samples without such look-alike content.
fn naive_counts(text: &str) -> (usize, usize) {
    let mut counts = (0, 0);
    for line in text.lines() {
        if line.starts_with("+++ ") || line.starts_with("--- ") || line == "---" || line == "-- " {
            continue;
        }
        if line.starts_with('+') {
            counts.0 += 1;
        } else if line.starts_with('-') {
            counts.1 += 1;
        }
    }
    counts
}

fn totals(diff: &Diff) -> (usize, usize) {
    diff.files
        .iter()
        .fold((0, 0), |(a, d), f| (a + f.additions, d + f.deletions))
}

/// (sample, file count, added, removed). Counts were read off each file by hand and agree
/// with `naive_counts`.
const PARSEABLE: &[(&str, usize, usize, usize)] = &[
    ("binary.diff", 1, 0, 0),
    ("bzr.diff", 3, 7, 4),
    ("debdiff.diff", 3, 1, 0),
    ("git.diff", 3, 7, 4),
    ("git_cr.diff", 1, 3, 0),
    ("git_delete.diff", 1, 0, 10),
    ("git_filenames_with_spaces.diff", 1, 1, 0),
    ("git_filenames_with_spaces_prefix.diff", 1, 1, 0),
    ("git_no_prefix.diff", 3, 9, 3),
    ("git_quoted_filename.diff", 1, 1, 0),
    ("git_quoted_filename_with_spaces.diff", 1, 1, 1),
    ("git_rename.diff", 3, 2, 2),
    ("git_submodule.diff", 1, 1, 0),
    ("git_symlink.diff", 1, 1, 0),
    ("hg.diff", 3, 7, 4),
    ("quilt.diff", 3, 6, 0),
    ("sample0.diff", 3, 21, 17),
    // Ends one blank context line short, trimmed with the file's trailing whitespace.
    ("sample2.diff", 2, 9, 1),
    ("sample3.diff", 3, 8, 5),
    ("sample4.diff", 3, 7, 4),
    ("sample5.diff", 2, 6, 2),
    ("sample8.diff", 5, 0, 0),
    ("svn.diff", 3, 7, 4),
];

/// Samples whose hunks disagree with their own headers: (sample, line, problem kind).
const MALFORMED: &[(&str, usize, &str)] = &[
    // The second hunk promises 13 new lines and holds 10; the next `@@` arrives early.
    ("sample1.diff", 32, "too short"),
    // The second hunk runs on past its 16 old lines.
    ("sample6.diff", 32, "too long"),
    // The file ends in the middle of the second hunk.
    ("sample7.diff", 29, "too short"),
];

#[test]
fn every_sample_is_accounted_for() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/diff/unidiff-samples");
    let mut on_disk: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.ends_with(".diff"))
        .collect();
    on_disk.sort();
    let mut listed: Vec<String> = PARSEABLE
        .iter()
        .map(|s| s.0)
        .chain(MALFORMED.iter().map(|s| s.0))
        .map(String::from)
        .collect();
    listed.sort();
    assert_eq!(on_disk, listed);
    assert!(dir.join("LICENSE").exists());
}

#[test]
fn parseable_samples_have_the_expected_counts() {
    for &(name, files, added, removed) in PARSEABLE {
        let bytes = sample(name);
        let diff = diff::parse_bytes(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(diff.files.len(), files, "{name}: {diff:#?}");
        assert_eq!(totals(&diff), (added, removed), "{name}");
        if name != "binary.diff" {
            assert_eq!(
                naive_counts(&String::from_utf8_lossy(&bytes)),
                (added, removed),
                "{name}"
            );
        }
    }
}

#[test]
fn malformed_samples_are_refused_at_the_right_line() {
    for &(name, expected_line, kind) in MALFORMED {
        let error = diff::parse_bytes(&sample(name)).expect_err(name);
        let DiffError::Malformed { line, problem } = &error else {
            panic!("{name}: {error}");
        };
        assert_eq!(*line, expected_line, "{name}: {error}");
        let matches = match kind {
            "too short" => matches!(problem, Problem::HunkTooShort { .. }),
            _ => matches!(problem, Problem::HunkTooLong { .. }),
        };
        assert!(matches, "{name}: {error}");
        assert!(error.to_string().contains(&format!("line {expected_line}")));
    }
}

#[test]
fn vcs_samples_agree_on_files_and_statuses() {
    for name in ["git.diff", "hg.diff", "svn.diff", "bzr.diff"] {
        let diff = diff::parse_bytes(&sample(name)).unwrap();
        let mut seen: Vec<_> = diff
            .files
            .iter()
            .map(|f| (f.path.as_str(), f.status, f.additions, f.deletions))
            .collect();
        seen.sort_by(|a, b| a.0.cmp(b.0));
        assert_eq!(
            seen,
            vec![
                ("added_file", FileStatus::Added, 4, 0),
                ("modified_file", FileStatus::Modified, 3, 1),
                ("removed_file", FileStatus::Deleted, 0, 3),
            ],
            "{name}"
        );
    }
}

#[test]
fn sample0_line_numbers_and_sections() {
    let diff = diff::parse_bytes(&sample("sample0.diff")).unwrap();
    let file = &diff.files[0];
    assert_eq!(file.path, "/path/to/new");
    assert_eq!(file.hunks.len(), 3);
    assert_eq!(file.hunks[0].section.as_deref(), Some("Section Header"));
    assert_eq!(file.hunks[1].section, None);
    let right: Vec<Option<u32>> = file.hunks[1].lines.iter().map(|l| l.new_line).collect();
    let mut expected = vec![Some(11), Some(12), Some(13)];
    expected.extend([None; 7]);
    expected.extend([
        Some(14),
        Some(15),
        Some(16),
        None,
        Some(17),
        Some(18),
        Some(19),
        Some(20),
    ]);
    assert_eq!(right, expected);
    let left: Vec<Option<u32>> = file.hunks[2].lines.iter().map(|l| l.old_line).collect();
    assert_eq!(
        left,
        vec![Some(22), Some(23), Some(24), None, None, None, None]
    );
    assert_eq!(diff.files[1].status, FileStatus::Added);
    assert_eq!(diff.files[2].status, FileStatus::Deleted);
    assert_eq!(diff.files[2].path, "/path/to/existing");
}

#[test]
fn git_header_samples() {
    let one = |name: &str| diff::parse_bytes(&sample(name)).unwrap().files.remove(0);

    let quoted = one("git_quoted_filename.diff");
    assert_eq!(
        (quoted.path.as_str(), quoted.status),
        ("A â B.py", FileStatus::Added)
    );
    assert_eq!(
        one("git_quoted_filename_with_spaces.diff").path,
        "docs/develop/Bug 排查.md"
    );
    assert_eq!(
        one("git_filenames_with_spaces.diff").path,
        "has spaces/t.sql"
    );
    assert_eq!(
        one("git_filenames_with_spaces_prefix.diff").path,
        "foo bar/baz"
    );

    let cr = one("git_cr.diff");
    assert!(cr.hunks[0].lines[0].text.contains("CR. \" +\r\t\t\"but"));

    let submodule = one("git_submodule.diff");
    assert_eq!(submodule.new_mode, Some(FileMode::Submodule));
    let change = submodule.submodule.unwrap();
    assert_eq!(change.old_commit, None);
    assert_eq!(
        change.new_commit.as_deref(),
        Some("b399108e316b17e4e6eed616d112c33796289533")
    );

    let symlink = one("git_symlink.diff");
    assert!(symlink.is_symlink());
    assert_eq!(symlink.symlink_target(), Some(".pyenv-wrapper"));
    assert_eq!(symlink.hunks[0].lines[0].ending, LineEnding::Missing);

    let binary = one("binary.diff");
    assert!(binary.binary && binary.hunks.is_empty());
    assert_eq!(
        (binary.path.as_str(), binary.status),
        ("1x1.png", FileStatus::Added)
    );

    let delete = one("git_delete.diff");
    assert_eq!(
        (delete.status, delete.language),
        (FileStatus::Deleted, diff::Language::C)
    );
}

#[test]
fn no_prefix_and_rename_samples() {
    let diff = diff::parse_bytes(&sample("git_no_prefix.diff")).unwrap();
    let paths: Vec<_> = diff
        .files
        .iter()
        .map(|f| (f.path.as_str(), f.status))
        .collect();
    assert_eq!(
        paths,
        vec![
            ("file1", FileStatus::Deleted),
            ("file2", FileStatus::Modified),
            ("file3", FileStatus::Added),
        ]
    );
    let inserted = &diff.files[1].hunks[0];
    assert_eq!((inserted.old_start, inserted.old_count), (4, 0));
    assert_eq!(inserted.section.as_deref(), Some("line24"));
    assert_eq!(
        inserted.added_lines().collect::<Vec<_>>(),
        vec![(5, "line24n"), (6, "line24n2"), (7, "line24n3")]
    );
    // An insertion has no LEFT lines to comment on.
    assert!(!diff.anchor_in_diff("file2", Side::Left, 4));
    assert!(diff.anchor_in_diff("file2", Side::Right, 5));

    let renames = diff::parse_bytes(&sample("git_rename.diff")).unwrap();
    let seen: Vec<_> = renames
        .files
        .iter()
        .map(|f| {
            (
                f.old_path.as_deref(),
                f.path.as_str(),
                f.status,
                f.similarity,
            )
        })
        .collect();
    // The `rename from`/`rename to` lines are authoritative, as for `git apply`, even where
    // this hand-made sample disagrees with its `diff --git` line.
    assert_eq!(
        seen,
        vec![
            (Some("added"), "moved", FileStatus::Renamed, Some(85)),
            (Some("oldfile"), "newfile", FileStatus::Renamed, Some(85)),
            (Some("onefile"), "otherfile", FileStatus::Renamed, Some(100)),
        ]
    );
}

#[test]
fn anchors_follow_githubs_rule() {
    let diff = diff::parse_bytes(&sample("sample0.diff")).unwrap();
    let path = "/path/to/new";
    let hunk = &diff.files[0].hunks[1];
    for line in &hunk.lines {
        let (left, right) = match line.kind {
            LineKind::Context => (true, true),
            LineKind::Added => (false, true),
            LineKind::Removed => (true, false),
        };
        if let Some(n) = line.old_line {
            assert_eq!(diff.anchor_in_diff(path, Side::Left, n), left);
        }
        if let Some(n) = line.new_line {
            assert_eq!(diff.anchor_in_diff(path, Side::Right, n), right);
        }
    }
    // Between hunks, past the end, line 0 and an unknown path.
    assert!(!diff.anchor_in_diff(path, Side::Right, 10));
    assert!(!diff.anchor_in_diff(path, Side::Right, 29));
    assert!(!diff.anchor_in_diff(path, Side::Right, 0));
    assert!(!diff.anchor_in_diff("/path/to/other", Side::Right, 1));
    // Ranges must stay inside one hunk.
    assert!(diff.range_in_diff(path, Side::Right, 11, 20));
    assert!(!diff.range_in_diff(path, Side::Right, 9, 11));
    assert!(!diff.range_in_diff(path, Side::Right, 20, 11));
    assert!(diff.range_in_diff(path, Side::Left, 5, 20));
    assert!(!diff.range_in_diff(path, Side::Left, 5, 21));
    // A deleted file is commented on by its old path, on the LEFT only.
    assert!(diff.anchor_in_diff("/path/to/existing", Side::Left, 9));
    assert!(!diff.anchor_in_diff("/path/to/existing", Side::Right, 1));
}

// ---------------------------------------------------------------------------------------------
// Real repositories.

struct Repo {
    _dir: tempfile::TempDir,
    root: PathBuf,
}

impl Repo {
    fn new() -> Repo {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("repo");
        std::fs::create_dir(&root).unwrap();
        let repo = Repo { _dir: dir, root };
        repo.git(&["init", "-q", "-b", "main"]);
        repo
    }

    /// Runs git with no user or system configuration, a fixed identity and fixed dates.
    fn git(&self, args: &[&str]) -> Vec<u8> {
        let output = Command::new("git")
            .args(["-c", "core.autocrlf=false", "-c", "core.quotepath=true"])
            .args(args)
            .current_dir(&self.root)
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("GIT_CONFIG_GLOBAL", "/dev/null")
            .env("HOME", self._dir.path())
            .env("GIT_AUTHOR_NAME", "Review Test")
            .env("GIT_AUTHOR_EMAIL", "review@example.com")
            .env("GIT_AUTHOR_DATE", "2026-01-01T00:00:00Z")
            .env("GIT_COMMITTER_NAME", "Review Test")
            .env("GIT_COMMITTER_EMAIL", "review@example.com")
            .env("GIT_COMMITTER_DATE", "2026-01-01T00:00:00Z")
            .output()
            .expect("git runs");
        assert!(
            output.status.success(),
            "git {args:?}: {}",
            String::from_utf8_lossy(&output.stderr)
        );
        output.stdout
    }

    fn write(&self, path: &str, content: &[u8]) {
        let full = self.root.join(path);
        std::fs::create_dir_all(full.parent().unwrap()).unwrap();
        std::fs::write(full, content).unwrap();
    }

    fn remove(&self, path: &str) {
        std::fs::remove_file(self.root.join(path)).unwrap();
    }

    fn commit(&self, message: &str) -> String {
        self.git(&["add", "-A"]);
        self.git(&["commit", "-q", "--allow-empty", "-m", message]);
        String::from_utf8(self.git(&["rev-parse", "HEAD"]))
            .unwrap()
            .trim()
            .to_owned()
    }

    /// `git diff --numstat` per new path: `None` counts for binary files.
    fn numstat(&self, range: &str) -> BTreeMap<String, Option<(usize, usize)>> {
        let out = self.git(&["diff", "--numstat", "-z", "--find-renames", range]);
        let mut fields = out
            .split(|&b| b == 0)
            .map(|f| String::from_utf8(f.to_vec()).unwrap());
        let mut stats = BTreeMap::new();
        while let Some(record) = fields.next() {
            if record.is_empty() {
                continue;
            }
            let mut parts = record.splitn(3, '\t');
            let (added, deleted) = (parts.next().unwrap(), parts.next().unwrap());
            let mut path = parts.next().unwrap().to_owned();
            if path.is_empty() {
                // A rename: the old and new paths follow as their own fields.
                let _old = fields.next().unwrap();
                path = fields.next().unwrap();
            }
            let counts = match (added.parse(), deleted.parse()) {
                (Ok(a), Ok(d)) => Some((a, d)),
                _ => None,
            };
            stats.insert(path, counts);
        }
        stats
    }
}

fn model_counts(diff: &Diff) -> BTreeMap<String, Option<(usize, usize)>> {
    diff.files
        .iter()
        .map(|f| {
            let counts = (!f.binary).then_some((f.additions, f.deletions));
            (f.path.clone(), counts)
        })
        .collect()
}

fn numbered(lines: std::ops::Range<u32>, tag: &str) -> String {
    lines.map(|n| format!("{tag} line {n}\n")).collect()
}

/// A base commit, a `main` that moves on after the branch point, and a `feature` branch with
/// every kind of change the model describes.
fn scenario() -> (Repo, String) {
    let repo = Repo::new();
    repo.write("modify.txt", numbered(1..40, "original").as_bytes());
    repo.write("rename me.txt", numbered(1..30, "stable").as_bytes());
    repo.write("delete.rs", b"fn gone() {}\nfn also_gone() {}\n");
    repo.write("script.sh", b"#!/bin/sh\necho hi\n");
    repo.write("crlf.txt", b"one\r\ntwo\r\nthree\r\n");
    repo.write("nonl.txt", b"first\nlast without newline");
    repo.write("image.bin", &[0, 1, 2, 3, 0, 255, 0, 7]);
    repo.write("dashes.sql", b"-- comment\n--- triple\nSELECT 1;\n");
    repo.write("empty_gone", b"");
    repo.commit("base");

    repo.git(&["checkout", "-q", "-b", "feature"]);
    let mut modified = numbered(1..40, "original");
    modified = modified.replace("original line 3\n", "changed line 3\nadded line 3b\n");
    modified = modified.replace("original line 30\n", "");
    repo.write("modify.txt", modified.as_bytes());
    repo.git(&["mv", "rename me.txt", "renamed ünï côde.txt"]);
    let mut renamed = numbered(1..30, "stable");
    renamed.push_str("one more\n");
    repo.write("renamed ünï côde.txt", renamed.as_bytes());
    repo.remove("delete.rs");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let script = repo.root.join("script.sh");
        std::fs::set_permissions(script, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    repo.write("crlf.txt", b"one\r\nTWO\r\nthree\r\nfour\r\n");
    repo.write("nonl.txt", b"first\nlast changed, still no newline");
    repo.write("image.bin", &[0, 1, 2, 3, 0, 254, 0, 7, 9]);
    repo.write("dashes.sql", b"--- triple\n+++ plus\nSELECT 2;\n");
    repo.write(
        "dir with space/new file.py",
        b"#!/usr/bin/env python3\nprint('hi')\n",
    );
    repo.write("tab\tname.txt", b"tabbed\n");
    repo.write("empty_new", b"");
    repo.remove("empty_gone");
    #[cfg(unix)]
    std::os::unix::fs::symlink("modify.txt", repo.root.join("link")).unwrap();
    repo.git(&["add", "-A"]);
    let base = String::from_utf8(repo.git(&["rev-parse", "main"])).unwrap();
    repo.git(&[
        "update-index",
        "--add",
        "--cacheinfo",
        &format!("160000,{},vendor/sub", base.trim()),
    ]);
    // Not `commit()`: `add -A` would drop the gitlink, which has no checkout on disk.
    repo.git(&["commit", "-q", "-m", "feature"]);

    // main moves on: a change only there must not show up in main...feature.
    repo.git(&["checkout", "-q", "main"]);
    repo.write("main_only.txt", b"only on main\n");
    repo.commit("main moves");
    repo.git(&["checkout", "-q", "feature"]);
    (repo, "main...feature".to_owned())
}

#[test]
fn git_cli_diff_parses_to_numstat_counts() {
    let (repo, range) = scenario();
    let expected = repo.numstat(&range);
    assert!(!expected.contains_key("main_only.txt"));
    // The comparison below is only as good as the scenario: make sure every kind is in it.
    for path in [
        "modify.txt",
        "renamed ünï côde.txt",
        "delete.rs",
        "crlf.txt",
        "nonl.txt",
        "dashes.sql",
        "dir with space/new file.py",
        "tab\tname.txt",
        "empty_new",
        "vendor/sub",
    ] {
        assert!(
            expected.contains_key(path),
            "{path} missing from {expected:?}"
        );
    }
    assert_eq!(
        expected["image.bin"], None,
        "binary files have no line counts"
    );
    #[cfg(unix)]
    for path in ["script.sh", "link"] {
        assert!(
            expected.contains_key(path),
            "{path} missing from {expected:?}"
        );
    }
    for args in [
        &["diff", "--find-renames"][..],
        &["diff", "--find-renames", "--binary"][..],
    ] {
        let mut args = args.to_vec();
        args.push(&range);
        let text = repo.git(&args);
        let diff = diff::parse_bytes(&text).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(model_counts(&diff), expected, "git {args:?}");
    }
}

#[test]
fn libgit2_diff_parses_to_numstat_counts_and_describes_each_change() {
    let (repo, range) = scenario();
    let expected = repo.numstat(&range);
    let git = git2::Repository::open(&repo.root).unwrap();
    let diff = diff::merge_base_diff(&git, "main", "feature").unwrap();
    assert_eq!(model_counts(&diff), expected);

    let file = |path: &str| {
        diff.file(path)
            .unwrap_or_else(|| panic!("{path} in {diff:#?}"))
    };

    let renamed = file("renamed ünï côde.txt");
    assert_eq!(renamed.status, FileStatus::Renamed);
    assert_eq!(renamed.old_path.as_deref(), Some("rename me.txt"));

    assert_eq!(file("delete.rs").status, FileStatus::Deleted);
    assert_eq!(file("delete.rs").language, diff::Language::Rust);
    assert!(file("image.bin").binary);

    #[cfg(unix)]
    {
        let script = file("script.sh");
        assert!(script.mode_changed());
        assert_eq!(script.new_mode, Some(FileMode::Executable));
    }

    let crlf = file("crlf.txt");
    assert!(
        crlf.hunks[0]
            .lines
            .iter()
            .all(|l| l.ending == LineEnding::CrLf)
    );
    assert_eq!(
        crlf.added_lines().collect::<Vec<_>>(),
        vec![(2, "TWO"), (4, "four")]
    );

    let nonl = file("nonl.txt");
    let last = nonl.hunks[0].lines.last().unwrap();
    assert_eq!(
        (last.kind, last.ending),
        (LineKind::Added, LineEnding::Missing)
    );

    let added_sql: Vec<_> = diff
        .added_lines()
        .filter(|(file, _, _)| file.path == "dashes.sql")
        .map(|(_, number, text)| (number, text))
        .collect();
    assert_eq!(added_sql, vec![(2, "+++ plus"), (3, "SELECT 2;")]);

    let new_py = file("dir with space/new file.py");
    assert_eq!(new_py.status, FileStatus::Added);
    assert_eq!(new_py.language, diff::Language::Python);
    assert!(diff.file("tab\tname.txt").is_some());

    // Git pairs an added and a deleted empty file as an exact rename, without hunks.
    let empty = file("empty_new");
    assert_eq!(empty.status, FileStatus::Renamed);
    assert_eq!(empty.old_path.as_deref(), Some("empty_gone"));
    assert!(empty.hunks.is_empty());

    #[cfg(unix)]
    assert_eq!(file("link").symlink_target(), Some("modify.txt"));

    let sub = file("vendor/sub");
    assert_eq!(sub.new_mode, Some(FileMode::Submodule));
    assert!(sub.submodule.as_ref().unwrap().new_commit.is_some());

    let dashes = file("dashes.sql");
    let removed: Vec<_> = dashes
        .hunks
        .iter()
        .flat_map(|h| &h.lines)
        .filter(|l| l.kind == LineKind::Removed)
        .map(|l| l.text.as_str())
        .collect();
    assert_eq!(removed, vec!["-- comment", "SELECT 1;"]);

    // The modified file: anchors land exactly where the hunk's lines are.
    let modify = file("modify.txt");
    assert_eq!((modify.additions, modify.deletions), (2, 2));
    assert!(diff.anchor_in_diff("modify.txt", Side::Right, 4));
    assert!(!diff.anchor_in_diff("modify.txt", Side::Right, 20));
    assert!(!diff.range_in_diff("modify.txt", Side::Right, 3, 30));
}

#[test]
fn libgit2_text_matches_the_git_cli_model() {
    let (repo, range) = scenario();
    let git = git2::Repository::open(&repo.root).unwrap();
    let from_libgit2 =
        diff::parse(&diff::merge_base_diff_text(&git, "main", "feature").unwrap()).unwrap();
    let from_cli = diff::parse_bytes(&repo.git(&["diff", "--find-renames", &range])).unwrap();
    let shape = |d: &Diff| {
        let mut files: Vec<_> = d
            .files
            .iter()
            .map(|f| {
                (
                    f.path.clone(),
                    f.old_path.clone(),
                    f.status,
                    f.binary,
                    f.old_mode,
                    f.new_mode,
                )
            })
            .collect();
        files.sort_by(|a, b| a.0.cmp(&b.0));
        files
    };
    assert_eq!(shape(&from_libgit2), shape(&from_cli));
}

#[test]
fn unknown_revisions_are_named_in_the_error() {
    let (repo, _) = scenario();
    let git = git2::Repository::open(&repo.root).unwrap();
    let error = diff::merge_base_diff(&git, "main", "no-such-branch").unwrap_err();
    assert!(matches!(error, DiffError::Git { .. }));
    assert!(error.to_string().contains("no-such-branch"), "{error}");
}

// ---------------------------------------------------------------------------------------------
// Properties.

mod properties {
    use proptest::prelude::*;
    use review_tui::diff::{self, LineKind, Side};

    /// Fragments that steer random input into the parser's interesting states.
    const FRAGMENTS: &[&str] = &[
        "diff --git a/x b/x",
        "diff --git \"a/\\303\\251 x\" \"b/\\303\\251 x\"",
        "diff --git a/x y b/x y",
        "--- a/x",
        "+++ b/x",
        "--- /dev/null",
        "+++ /dev/null",
        "@@ -1,2 +1,2 @@ fn f()",
        "@@ -1 +1 @@",
        "@@ -0,0 +1,3 @@",
        "@@ -4294967295 +1 @@",
        "@@@ -1 -1 +1 @@@",
        "new file mode 100644",
        "deleted file mode 120000",
        "old mode 100644",
        "new mode 1007x5",
        "index 0000000..1111111 160000",
        "rename from \"unterminated",
        "rename to b",
        "copy from a",
        "similarity index 101%",
        "Binary files a/x and b/x differ",
        "GIT binary patch",
        "\\ No newline at end of file",
        "+added",
        "-removed",
        " context",
        "",
        "-- ",
        "***************",
        "2,3c4",
        "\r",
    ];

    fn line() -> impl Strategy<Value = String> {
        prop_oneof![
            3 => proptest::sample::select(FRAGMENTS).prop_map(String::from),
            1 => "[ +\\-@\\\\a-z\"\r\t]{0,12}",
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(512))]

        #[test]
        fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..2048)) {
            let _ = diff::parse_bytes(&bytes);
        }

        #[test]
        fn diff_shaped_noise_never_panics_and_stays_consistent(
            lines in proptest::collection::vec(line(), 0..64)
        ) {
            let text = lines.join("\n");
            let Ok(parsed) = diff::parse(&text) else { return Ok(()) };
            for file in &parsed.files {
                let mut counts = (0, 0);
                for hunk in &file.hunks {
                    for line in &hunk.lines {
                        match line.kind {
                            LineKind::Added => counts.0 += 1,
                            LineKind::Removed => counts.1 += 1,
                            LineKind::Context => {}
                        }
                        if let Some(n) = line.new_line {
                            prop_assert!(hunk.covers(Side::Right, n));
                            prop_assert!(parsed.anchor_in_diff(&file.path, Side::Right, n));
                        }
                        if let Some(n) = line.old_line {
                            prop_assert!(hunk.covers(Side::Left, n));
                        }
                    }
                }
                prop_assert_eq!(counts, (file.additions, file.deletions));
            }
        }

        /// A diff written from a random model parses back to that model.
        #[test]
        fn rendered_diffs_round_trip(files in proptest::collection::vec(file(), 1..6)) {
            let mut text = String::new();
            for (index, (name, hunks)) in files.iter().enumerate() {
                let path = format!("{index}/{name}");
                let quoted = quote(&path);
                text.push_str(&format!("diff --git {} {}\n", quoted("a/"), quoted("b/")));
                text.push_str(&format!("index 1111111..2222222 100644\n--- {}\n+++ {}\n", quoted("a/"), quoted("b/")));
                let (mut old, mut new) = (1u32, 1u32);
                for (gap, lines) in hunks {
                    old += gap;
                    new += gap;
                    let old_count = lines.iter().filter(|(k, _)| *k != LineKind::Added).count() as u32;
                    let new_count = lines.iter().filter(|(k, _)| *k != LineKind::Removed).count() as u32;
                    let start = |s: u32, c: u32| if c == 0 { s - 1 } else { s };
                    text.push_str(&format!(
                        "@@ -{},{} +{},{} @@\n",
                        start(old, old_count), old_count, start(new, new_count), new_count
                    ));
                    for (kind, content) in lines {
                        let marker = match kind {
                            LineKind::Context => ' ',
                            LineKind::Added => '+',
                            LineKind::Removed => '-',
                        };
                        text.push(marker);
                        text.push_str(content);
                        text.push('\n');
                    }
                    old += old_count;
                    new += new_count;
                }
            }
            let parsed = diff::parse(&text).map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
            prop_assert_eq!(parsed.files.len(), files.len());
            for (index, (file, (name, hunks))) in parsed.files.iter().zip(&files).enumerate() {
                prop_assert_eq!(&file.path, &format!("{index}/{name}"));
                prop_assert_eq!(file.hunks.len(), hunks.len());
                for (hunk, (_, lines)) in file.hunks.iter().zip(hunks) {
                    let seen: Vec<(LineKind, &str)> =
                        hunk.lines.iter().map(|l| (l.kind, l.text.as_str())).collect();
                    let wanted: Vec<(LineKind, &str)> =
                        lines.iter().map(|(k, t)| (*k, t.as_str())).collect();
                    prop_assert_eq!(seen, wanted);
                }
            }
        }
    }

    type Hunks = Vec<(u32, Vec<(LineKind, String)>)>;

    fn file() -> impl Strategy<Value = (String, Hunks)> {
        let name = "[a-z é\"\\\\\t]{1,10}".prop_filter("no edge spaces", |n: &String| {
            n.trim() == n && !n.is_empty()
        });
        // Content that looks like headers on purpose: only the counts can place it.
        let content = prop_oneof![
            Just("-- sql comment".to_owned()),
            Just("++ plus".to_owned()),
            Just("@@ not a header".to_owned()),
            Just("diff --git a/x b/x".to_owned()),
            "[ -~]{0,20}",
        ];
        let kind = prop_oneof![
            Just(LineKind::Context),
            Just(LineKind::Added),
            Just(LineKind::Removed)
        ];
        let hunk = (1u32..50, proptest::collection::vec((kind, content), 1..12));
        (name, proptest::collection::vec(hunk, 0..4))
    }

    /// Git's quoting: names with quotes, backslashes, control or non-ASCII bytes are C-quoted.
    fn quote(path: &str) -> impl Fn(&str) -> String + '_ {
        move |prefix| {
            let full = format!("{prefix}{path}");
            if !full
                .bytes()
                .any(|b| b == b'"' || b == b'\\' || !(0x20..0x80).contains(&b))
            {
                return full;
            }
            let mut out = String::from("\"");
            for byte in full.bytes() {
                match byte {
                    b'"' => out.push_str("\\\""),
                    b'\\' => out.push_str("\\\\"),
                    b'\t' => out.push_str("\\t"),
                    0x20..=0x7e => out.push(byte as char),
                    other => out.push_str(&format!("\\{other:03o}")),
                }
            }
            out.push('"');
            out
        }
    }
}

#[test]
fn earlier_names_follow_renames_commit_by_commit() {
    let repo = crate::support::git_repo::GitRepo::init();
    let body = "fn a() {}\nfn b() {}\nfn c() {}\nfn d() {}\n";
    repo.write("kept.rs", body);
    repo.write("gone.rs", "fn gone() {}\nfn twice() {}\n");
    repo.commit_all("base");
    repo.git(&["branch", "-M", "main"]);
    repo.git(&["checkout", "--quiet", "-b", "feature"]);
    repo.write("added.rs", &body.replace('a', "x"));
    repo.commit_all("add");
    repo.git(&["mv", "added.rs", "moved.rs"]);
    repo.git(&["mv", "kept.rs", "renamed.rs"]);
    repo.commit_all("rename both");
    repo.git(&["mv", "moved.rs", "final.rs"]);
    repo.git(&["rm", "--quiet", "gone.rs"]);
    repo.commit_all("rename again, delete one");
    let git = git2::Repository::open(repo.path()).unwrap();
    let names = diff::earlier_names(&git, "main", "feature").unwrap();
    let mut listed: Vec<_> = names.into_iter().collect();
    listed.sort();
    assert_eq!(
        listed,
        [
            (
                "final.rs".to_string(),
                vec!["added.rs".to_string(), "moved.rs".to_string()]
            ),
            ("renamed.rs".to_string(), vec!["kept.rs".to_string()]),
        ]
    );
}
