//! The cockpit opens at once: the PR and its changed files are on screen while the review
//! space is still being prepared, and the rest streams in after. The real binary in tmux,
//! against the GitHub-like server, which holds the PR's reviews unanswered until the test
//! lets them through: preparing cannot finish before that, so whatever the screen shows
//! meanwhile was drawn before the space was ready.

use std::path::Path;

use crate::support::faults::Gate;
use crate::support::git_repo;
use crate::support::github_server::{GithubServer, PullSpec};
use crate::support::tmux::Tmux;

const GH_TOKEN: &str = "ghp_FIRSTFRAMEcanary000000000000000000";
const REVIEWS: &str = "GET /repos/acme/widgets/pulls/7/reviews";

#[test]
fn the_pr_and_its_files_show_before_the_space_is_ready() {
    crate::require_tmux!("first_frame::the_pr_and_its_files_show_before_the_space_is_ready");
    let repo = git_repo::pr_repository();
    repo.git(&["update-ref", "refs/pull/7/head", "feature"]);
    let pull = PullSpec::from_repo(&repo, "acme", "widgets", 7);
    let server = GithubServer::start(repo, pull);
    server.accept_token(GH_TOKEN, "reviewer");
    let gate = Gate::new();
    server.script(REVIEWS, [gate.hold()]);

    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("config.toml");
    std::fs::write(&config, "").unwrap();
    let exit_file = dir.path().join("exit");
    let data = dir.path().join("data");
    let binary = env!("CARGO_BIN_EXE_review-tui");
    let command = format!(
        "{binary} acme/widgets#7 --api-url {} --deterministic-only; echo $? > {}; sleep 30",
        server.url(),
        exit_file.display()
    );
    let tmux = Tmux::start(
        "first-frame",
        &command,
        100,
        30,
        &[
            ("REVIEW_TUI_DATA_DIR", &data),
            ("REVIEW_TUI_CONFIG", &config),
            ("REVIEW_TUI_PERSON", Path::new("tester")),
            ("GH_TOKEN", Path::new(GH_TOKEN)),
        ],
    );

    // The header with the PR's title, and the diff's files, while the reviews are unanswered.
    let screen = tmux.wait_for("the PR and its files", |s| {
        s.contains("Checked arithmetic and a parser") && s.contains("src/parse.rs")
    });
    assert_eq!(server.requests_to(REVIEWS).len(), 1, "{screen}");
    assert!(screen.contains("acme/widgets#7"), "{screen}");
    assert!(screen.contains("changed files"), "{screen}");
    for file in ["src/lib.rs", "docs/new-name.md", "obsolete.txt"] {
        assert!(screen.contains(file), "{file} missing:\n{screen}");
    }
    // Not reviewed yet: no round has started, the verdict is still to come.
    assert!(screen.contains("no round yet"), "{screen}");
    assert!(screen.contains("verdict: not yet"), "{screen}");

    // Once GitHub answers, the space is ready and the round runs in the same screen.
    gate.open();
    tmux.wait_for("the round", |s| {
        s.contains("round 1") && s.contains("requested ✓")
    });
    tmux.wait_for("the cohorts", |s| s.contains("Reading order"));
    tmux.keys(&["q"]);
    let code = tmux.exit_code(&exit_file);
    assert!((0..=7).contains(&code), "exit {code}");
}

/// Counting a local checkout's uncommitted files reads every file's status, so the cockpit
/// counts them beside its first frame; the warning is still said on the terminal (stderr),
/// as a headless run says it.
#[test]
fn a_local_checkout_with_uncommitted_files_is_still_warned_about_in_the_cockpit() {
    crate::require_tmux!(
        "first_frame::a_local_checkout_with_uncommitted_files_is_still_warned_about_in_the_cockpit"
    );
    let repo = git_repo::pr_repository();
    repo.git(&["checkout", "--quiet", "feature"]);
    repo.write("notes.txt", "not committed\n");
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("config.toml");
    std::fs::write(&config, "").unwrap();
    let exit_file = dir.path().join("exit");
    let stderr = dir.path().join("stderr");
    let data = dir.path().join("data");
    let binary = env!("CARGO_BIN_EXE_review-tui");
    let command = format!(
        "{binary} {} --deterministic-only 2> {}; echo $? > {}; sleep 30",
        repo.path().display(),
        stderr.display(),
        exit_file.display()
    );
    let tmux = Tmux::start(
        "uncommitted",
        &command,
        100,
        30,
        &[
            ("REVIEW_TUI_DATA_DIR", &data),
            ("REVIEW_TUI_CONFIG", &config),
            ("REVIEW_TUI_PERSON", Path::new("tester")),
        ],
    );
    tmux.wait_for("the PR and its files", |s| {
        s.contains("feature: checked add") && s.contains("src/parse.rs")
    });
    tmux.wait_for("the cohorts", |s| s.contains("Reading order"));
    tmux.keys(&["q"]);
    let code = tmux.exit_code(&exit_file);
    assert!((0..=7).contains(&code), "exit {code}");
    let said = std::fs::read_to_string(&stderr).unwrap();
    assert_eq!(
        said.matches("1 uncommitted file is not part of this review")
            .count(),
        1,
        "{said}"
    );
}
