//! The headless flow as a library (`review_tui::headless::run`): its typed outcome, its report
//! and what it says on the way, each apart, on real repositories. The binary's tests
//! (`headless.rs`) see them mixed into an exit code and two streams.

use std::sync::{Arc, Mutex};

use clap::Parser;

use review_tui::cli::Cli;
use review_tui::cli::resolve::Resolved;
use review_tui::cli::setup::builtin_catalog;
use review_tui::config::Config;
use review_tui::headless::{Finished, HeadlessError, Outcome, Published, Signals};
use review_tui::pr::Ineligible;
use review_tui::pr::Notices;
use review_tui::review::Decision;
use review_tui::session::PrepareError;

use crate::support::git_repo::pr_repository;

/// One headless run of `range` (deterministic reviewers only, a JSON report) and the lines it
/// said, in order.
fn run(
    data: &std::path::Path,
    range: &str,
    more: &[&str],
) -> (Result<Finished, HeadlessError>, Vec<String>) {
    let mut args = vec!["review-tui", range, "--headless", "--deterministic-only"];
    args.extend(["--format", "json", "--data-dir", data.to_str().unwrap()]);
    args.extend(more);
    let flags = Cli::try_parse_from(args).unwrap();
    let resolved = Resolved::with_user(flags, Config::default(), &builtin_catalog).unwrap();
    let said = Arc::new(Mutex::new(Vec::new()));
    let say = {
        let said = said.clone();
        Notices::new(move |line| said.lock().unwrap().push(line))
    };
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let finished = review_tui::headless::run(&resolved, &runtime, &Signals::none(), &say);
    let said = said.lock().unwrap().clone();
    (finished, said)
}

fn json(finished: &Finished) -> serde_json::Value {
    serde_json::from_str(&finished.report).unwrap_or_else(|e| panic!("{e}: {}", finished.report))
}

#[test]
fn each_kind_of_range_ends_in_its_typed_outcome_with_its_report() {
    let repo = pr_repository();
    repo.whitespace_only_branch();
    repo.git(&["checkout", "--quiet", "-b", "empty", "main"]);
    repo.git(&["commit", "--quiet", "--allow-empty", "-m", "nothing"]);
    let data = tempfile::tempdir().unwrap();
    let range = |r: &str| format!("{}#{r}", repo.path().display());

    // A commit that changes nothing: nothing reviewed.
    let (finished, _) = run(data.path(), &range("main..empty"), &[]);
    let finished = finished.unwrap();
    assert_eq!(finished.outcome, Outcome::NothingToReview);
    assert!(!finished.held(), "nothing was reviewed, nothing is held");
    assert_eq!(
        finished.outcome.last_word().as_deref(),
        Some("nothing to review: the range has no changes")
    );

    // Only whitespace: not eligible, and why, as the eligibility's own reasons.
    let (finished, _) = run(data.path(), &range("main..fmt"), &[]);
    let finished = finished.unwrap();
    assert_eq!(
        finished.outcome,
        Outcome::NotEligible(vec![Ineligible::OnlyWhitespace])
    );
    assert_eq!(json(&finished)["eligibility"]["eligible"], false);

    // A real change: a round, its verdict in the outcome and in the report, nothing posted.
    let (finished, said) = run(data.path(), &range("main..feature"), &[]);
    let finished = finished.unwrap();
    let report = json(&finished);
    assert_eq!(
        finished.outcome,
        Outcome::Reviewed {
            decision: Decision::Ship,
            published: Published::NotAsked
        },
        "{report}"
    );
    assert_eq!(report["verdict"]["decision"], "ship");
    assert!(finished.held(), "the round's session is handed back");
    assert_eq!(finished.outcome.last_word(), None);
    assert!(
        said.last()
            .is_some_and(|l| l.starts_with("nothing was published")),
        "{said:?}"
    );

    // The session handed back holds the space: a second run of it waits for it to be dropped.
    let (locked, _) = run(data.path(), &range("main..feature"), &[]);
    assert!(
        matches!(locked, Err(HeadlessError::Prepare(_))),
        "{:?}",
        locked.map(|f| f.outcome)
    );
    let outcome = finished.outcome.clone();
    drop(finished);

    // The same head again: its recorded round is reported, said first, the same verdict.
    let (again, said) = run(data.path(), &range("main..feature"), &[]);
    let again = again.unwrap();
    assert_eq!(again.outcome, outcome);
    assert!(
        said.iter()
            .any(|l| l.starts_with("this head was already reviewed and not published")),
        "{said:?}"
    );
    assert_eq!(json(&again)["verdict"], report["verdict"]);
}

#[test]
fn a_range_that_cannot_be_prepared_is_the_preparing_error() {
    let repo = pr_repository();
    let data = tempfile::tempdir().unwrap();
    let range = |r: &str| format!("{}#{r}", repo.path().display());
    let (finished, said) = run(data.path(), &range("main..no-such-branch"), &[]);
    let err = finished.err().expect("a missing branch cannot be reviewed");
    assert!(matches!(err, HeadlessError::Prepare(_)), "{err:?}");
    assert!(err.to_string().contains("no-such-branch"), "{err}");
    assert!(said.is_empty(), "{said:?}");
    // No commits to review: the preparing error that says so (the binary's exit 3).
    let (finished, _) = run(data.path(), &range("main..main"), &[]);
    let err = finished.err().expect("main..main has no commits");
    assert!(
        matches!(
            err,
            HeadlessError::Prepare(PrepareError::NothingToReview(_))
        ),
        "{err:?}"
    );
}
