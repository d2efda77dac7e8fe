//! `review-tui <pr> --headless`: the real binary on real repositories, local and through the
//! GitHub-like server.

use std::path::Path;
use std::process::Output;

use serde_json::Value;

use crate::cli::review_tui;
use crate::support::git_repo::{GitRepo, pr_repository};
use crate::support::github_server::{GithubServer, PullSpec};

fn run(data: &Path, args: &[&str]) -> Output {
    review_tui()
        .args(args)
        .args(["--headless", "--deterministic-only"])
        .env("REVIEW_TUI_DATA_DIR", data)
        .env_remove("GITHUB_API_URL")
        .env_remove("GH_TOKEN")
        .env_remove("GITHUB_TOKEN")
        .output()
        .unwrap()
}

fn json(data: &Path, args: &[&str]) -> (i32, Value) {
    let mut all = args.to_vec();
    all.extend(["--format", "json"]);
    let out = run(data, &all);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let value = serde_json::from_str(&stdout).unwrap_or_else(|e| {
        panic!(
            "not JSON ({e}): {stdout}\nstderr: {}",
            String::from_utf8_lossy(&out.stderr)
        )
    });
    (out.status.code().unwrap(), value)
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn numstat(repo: &GitRepo, range: &str) -> Vec<(String, u64, u64)> {
    repo.git(&["diff", "--numstat", "-M", range])
        .lines()
        .map(|line| {
            let parts: Vec<&str> = line.split('\t').collect();
            (
                parts[2].to_string(),
                parts[0].parse().unwrap(),
                parts[1].parse().unwrap(),
            )
        })
        .collect()
}

#[test]
fn a_local_range_is_prepared_with_files_counted_like_git() {
    let repo = pr_repository();
    let data = tempfile::tempdir().unwrap();
    let reference = format!("{}#main..feature", repo.path().display());
    let (code, report) = json(data.path(), &[&reference]);
    assert_eq!(code, 0, "{report}");
    assert_eq!(report["pr"]["forge"], "local");
    assert_eq!(report["pr"]["head"]["sha"], repo.rev_parse("feature"));
    assert_eq!(
        report["pr"]["title"],
        "feature: checked add, parser, guide rename"
    );
    assert_eq!(report["eligibility"]["eligible"], true);

    let files = report["files"].as_array().unwrap();
    let expected = numstat(&repo, "main...feature");
    assert_eq!(files.len(), expected.len(), "{report}");
    for (path, added, removed) in expected {
        let path = path.replace("docs/{old-name.md => new-name.md}", "docs/new-name.md");
        let file = files
            .iter()
            .find(|f| f["path"] == path.as_str())
            .unwrap_or_else(|| panic!("{path} missing from {files:?}"));
        assert_eq!(file["additions"], added, "{path}");
        assert_eq!(file["deletions"], removed, "{path}");
    }
    let renamed = files.iter().find(|f| f["status"] == "renamed").unwrap();
    assert_eq!(renamed["old_path"], "docs/old-name.md");
    assert_eq!(
        files.iter().find(|f| f["path"] == "src/parse.rs").unwrap()["language"],
        "rust"
    );

    let worktree = Path::new(report["space"]["worktree"].as_str().unwrap());
    assert!(worktree.join("src/parse.rs").is_file());
    let head = std::process::Command::new("git")
        .args(["rev-parse", "HEAD"])
        .current_dir(worktree)
        .output()
        .unwrap();
    assert_eq!(
        String::from_utf8_lossy(&head.stdout).trim(),
        repo.rev_parse("feature")
    );
    assert!(
        Path::new(report["space"]["path"].as_str().unwrap())
            .join("state.json")
            .is_file()
    );
}

#[test]
fn the_same_pr_always_opens_the_same_space() {
    let repo = pr_repository();
    let data = tempfile::tempdir().unwrap();
    let absolute = format!("{}#main..feature", repo.path().display());
    let (first_code, first) = json(data.path(), &[&absolute]);
    assert_eq!(first["space"]["new_round"], true);
    // Another spelling: the flags, and a trailing slash.
    let slashed = format!("{}/", repo.path().display());
    let (code, second) = json(
        data.path(),
        &[&slashed, "--base", "main", "--head", "feature"],
    );
    // The first run completed a round at this head, not published: it is reported as it was
    // recorded, no new round.
    assert_eq!(code, first_code, "{second}");
    assert_eq!(second["eligibility"]["eligible"], true, "{second}");
    assert_eq!(first["verdict"], second["verdict"]);
    assert_eq!(first["space"]["path"], second["space"]["path"]);
    assert_eq!(second["space"]["new_round"], false);
    assert_eq!(second["space"]["round"], 1);
}

#[test]
fn a_push_starts_a_new_round_in_the_same_space() {
    let repo = pr_repository();
    let data = tempfile::tempdir().unwrap();
    let reference = format!("{}#main..feature", repo.path().display());
    let (_, first) = json(data.path(), &[&reference]);
    repo.git(&["checkout", "--quiet", "feature"]);
    repo.write(
        "src/parse.rs",
        "pub fn parse(s: &str) -> Option<i64> {\n    s.trim().parse().ok()\n}\n",
    );
    let pushed = repo.commit_all("parse wider");
    let (_, second) = json(data.path(), &[&reference]);
    assert_eq!(first["space"]["path"], second["space"]["path"]);
    assert_eq!(second["space"]["round"], 2);
    assert_eq!(second["pr"]["head"]["sha"], pushed.as_str());
}

#[test]
fn a_bare_path_reviews_the_current_branch_against_main() {
    let repo = pr_repository();
    repo.git(&["checkout", "--quiet", "feature"]);
    let data = tempfile::tempdir().unwrap();
    let (code, report) = json(data.path(), &[repo.path().to_str().unwrap()]);
    assert_eq!(code, 0, "{report}");
    assert_eq!(report["pr"]["base"]["ref"], "main");
    assert_eq!(report["pr"]["head"]["ref"], "feature");
}

#[test]
fn the_text_report_names_the_pr_space_files_and_eligibility() {
    let repo = pr_repository();
    let data = tempfile::tempdir().unwrap();
    let reference = format!("{}#main..feature", repo.path().display());
    let out = run(data.path(), &[&reference]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = String::from_utf8_lossy(&out.stdout);
    // The same decision and facts line the posted summary opens with.
    assert!(
        text.starts_with(
            "Approved with 1 observation\nSHIP · no model reviewer read this change (--deterministic-only) · gated checks passed · 4 files reviewed"
        ),
        "{text}"
    );
    assert!(text.contains("\nPR "), "{text}");
    assert!(text.contains("main ← feature"), "{text}");
    assert!(text.contains("files   4 changed"), "{text}");
    assert!(
        text.contains("docs/old-name.md → docs/new-name.md"),
        "{text}"
    );
    assert!(text.contains("eligible yes"), "{text}");
    assert!(text.contains(data.path().to_str().unwrap()), "{text}");
}

#[test]
fn bad_input_gets_one_line_and_exit_4() {
    let repo = pr_repository();
    let data = tempfile::tempdir().unwrap();
    let missing = data.path().join("no-such-repo");
    let cases = [
        (format!("{}#main..nope", repo.path().display()), "nope"),
        (format!("{}#nope..feature", repo.path().display()), "nope"),
        (missing.display().to_string(), "no git repository"),
        (
            "https://github.com/o/r/issues/3".to_string(),
            "OWNER/REPO#N",
        ),
        (format!("{}#main", repo.path().display()), "PATH#BASE..HEAD"),
    ];
    for (reference, needle) in cases {
        let out = run(data.path(), &[&reference]);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(4), "{reference}: {err}");
        assert_eq!(err.lines().count(), 1, "{reference}: {err}");
        assert!(err.contains(needle), "{reference}: {err}");
    }
    // Nothing half-made: no space directory for the failed references.
    let spaces = data.path().join("spaces");
    let count = walk_state_files(&spaces);
    assert_eq!(count, 0);
}

fn walk_state_files(dir: &Path) -> usize {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return 0;
    };
    entries
        .flatten()
        .map(|e| {
            let path = e.path();
            if path.is_dir() {
                walk_state_files(&path)
            } else {
                usize::from(path.file_name().is_some_and(|n| n == "state.json"))
            }
        })
        .sum()
}

#[test]
fn an_empty_range_has_nothing_to_review() {
    let repo = pr_repository();
    let data = tempfile::tempdir().unwrap();
    let reference = format!("{}#main..main", repo.path().display());
    let out = run(data.path(), &[&reference]);
    assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
    assert!(stderr(&out).contains("nothing to review"));
    assert_eq!(
        walk_state_files(data.path()),
        0,
        "no space for an empty range"
    );
    // A head already merged into the base is empty too.
    let merged = format!("{}#main..feature", repo.path().display());
    repo.git(&["merge", "--quiet", "--no-edit", "feature"]);
    let out = run(data.path(), &[&merged]);
    assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
}

#[test]
fn a_whitespace_only_change_is_not_eligible_unless_forced() {
    let repo = pr_repository();
    repo.whitespace_only_branch();
    let data = tempfile::tempdir().unwrap();
    let reference = format!("{}#main..fmt", repo.path().display());
    let (code, report) = json(data.path(), &[&reference]);
    assert_eq!(code, 1, "{report}");
    assert_eq!(
        report["eligibility"]["reasons"][0]["reason"],
        "only_whitespace"
    );
    let (code, report) = json(data.path(), &[&reference, "--force"]);
    assert_ne!(code, 1, "{report}");
    assert_eq!(report["eligibility"]["forced"], true);
}

#[test]
fn a_github_pr_is_read_from_the_api_and_fetched_through_refs_pull() {
    let repo = pr_repository();
    repo.git(&["update-ref", "refs/pull/7/head", "feature"]);
    let pull = PullSpec::from_repo(&repo, "acme", "widgets", 7);
    let head = pull.head_sha.clone();
    let server = GithubServer::start(repo, pull);
    let data = tempfile::tempdir().unwrap();
    let (code, report) = json(data.path(), &["acme/widgets#7", "--api-url", server.url()]);
    assert_eq!(code, 0, "{report}");
    assert_eq!(report["pr"]["forge"], "github");
    assert_eq!(report["pr"]["number"], 7);
    assert_eq!(report["pr"]["author"], "octocat");
    assert_eq!(report["pr"]["head"]["sha"], head.as_str());
    assert_eq!(report["files"].as_array().unwrap().len(), 4);
    let space = report["space"]["path"].as_str().unwrap();
    assert!(
        space.ends_with("spaces/github/acme/widgets/pr-7"),
        "{space}"
    );
    assert_eq!(
        server.requests_to("GET /repos/acme/widgets/pulls/7").len(),
        1
    );

    // The URL form lands in the same space.
    let url = "https://github.com/acme/widgets/pull/7/files";
    let (_, again) = json(data.path(), &[url, "--api-url", server.url()]);
    assert_eq!(again["space"]["path"], report["space"]["path"]);
}

#[test]
fn a_draft_github_pr_is_not_eligible() {
    let repo = pr_repository();
    repo.git(&["update-ref", "refs/pull/8/head", "feature"]);
    let mut pull = PullSpec::from_repo(&repo, "acme", "widgets", 8);
    pull.draft = true;
    let server = GithubServer::start(repo, pull);
    let data = tempfile::tempdir().unwrap();
    let (code, report) = json(data.path(), &["acme/widgets#8", "--api-url", server.url()]);
    assert_eq!(code, 1, "{report}");
    assert_eq!(report["eligibility"]["reasons"][0]["reason"], "draft");
}

#[test]
fn a_missing_github_pr_names_it() {
    let repo = pr_repository();
    let pull = PullSpec::from_repo(&repo, "acme", "widgets", 7);
    let server = GithubServer::start(repo, pull);
    let data = tempfile::tempdir().unwrap();
    let out = run(data.path(), &["acme/widgets#99", "--api-url", server.url()]);
    assert_eq!(out.status.code(), Some(4));
    let err = stderr(&out);
    assert!(err.contains("acme/widgets#99"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
}
