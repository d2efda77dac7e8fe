//! A run a person can watch and stop: retries and rate-limit waits reach the reviewers pane
//! and the event log; one model reviewer, or the whole run, can be stopped.

use super::fit::screen;
use super::fixtures::*;
use crate::review::EventKind;
use crate::ui::action::{Action, Command, Report};
use crate::ui::log::Level;
use crate::ui::state::Pane;
use crate::ui::update::Effect;

fn message(state: &crate::ui::AppState) -> String {
    state
        .message
        .as_ref()
        .map(|m| m.text.clone())
        .unwrap_or_default()
}

fn reviewer_row(lines: &[String], name: &str) -> String {
    lines
        .iter()
        .find(|l| l.contains(&format!(" {name} ")))
        .cloned()
        .unwrap_or_else(|| panic!("no row for {name}:\n{}", lines.join("\n")))
}

#[test]
fn a_retry_and_a_rate_limit_are_shown_while_they_last_and_logged() {
    let mut state = streaming();
    apply(
        &mut state,
        [event(
            "qa",
            EventKind::Retrying {
                attempt: 1,
                of: 4,
                wait_secs: 20,
                reason: "rate limited (HTTP 429)".into(),
                rate_limited: true,
            },
        )],
    );
    // At 80 columns the note is cut away; the phase column says it.
    let lines = screen(&mut state, 80, 24);
    assert!(reviewer_row(&lines, "qa").contains("limit 1"), "{lines:#?}");
    let last = state
        .log
        .entries()
        .last()
        .map(|e| (e.level, e.text.clone()));
    assert_eq!(
        last,
        Some((
            Level::Warn,
            "qa retrying: rate limited (HTTP 429): attempt 1 of 4, again in 20 s".into()
        ))
    );
    // Wider, the note says why.
    let lines = screen(&mut state, 200, 60);
    assert!(
        reviewer_row(&lines, "qa").contains("rate limited (HTTP 429): attempt 1"),
        "{lines:#?}"
    );

    // A server error's retry, then silence: still the retry; then an answer: reading again.
    apply(
        &mut state,
        [
            event(
                "qa",
                EventKind::Retrying {
                    attempt: 2,
                    of: 4,
                    wait_secs: 4,
                    reason: "HTTP 503".into(),
                    rate_limited: false,
                },
            ),
            event(
                "qa",
                EventKind::Waiting {
                    host: "127.0.0.1:9".into(),
                    waited_secs: 15,
                },
            ),
        ],
    );
    let lines = screen(&mut state, 80, 24);
    assert!(reviewer_row(&lines, "qa").contains("retry 2"), "{lines:#?}");
    assert_eq!(state.board.reviewers["qa"].retries, 2);
    apply(
        &mut state,
        [event(
            "qa",
            EventKind::Progress {
                tokens_used: 9_900,
                cost_usd: 0.0,
                note: "turn 3: answered".into(),
            },
        )],
    );
    let lines = screen(&mut state, 80, 24);
    assert!(reviewer_row(&lines, "qa").contains("reading"), "{lines:#?}");
}

#[test]
fn a_slow_server_alone_says_waiting() {
    let mut state = streaming();
    apply(
        &mut state,
        [event(
            "qa",
            EventKind::Waiting {
                host: "127.0.0.1:9".into(),
                waited_secs: 30,
            },
        )],
    );
    let lines = screen(&mut state, 80, 24);
    assert!(reviewer_row(&lines, "qa").contains("waiting"), "{lines:#?}");
}

#[test]
fn one_model_reviewer_is_stopped_from_the_reviewers_pane() {
    let mut state = streaming();
    // From another pane the key says where to go.
    assert_eq!(
        apply(&mut state, [Action::Command(Command::StopReviewer)]),
        vec![]
    );
    assert!(
        message(&state).contains("reviewers pane (3)"),
        "{}",
        message(&state)
    );

    apply(&mut state, [Action::Command(Command::FocusReviewers)]);
    assert_eq!(state.focus, Pane::Reviewers);
    assert_eq!(state.reviewers.selected.as_deref(), Some("engineer"));
    // engineer is done: nothing to stop.
    assert_eq!(
        apply(&mut state, [Action::Command(Command::StopReviewer)]),
        vec![]
    );
    assert!(message(&state).contains("engineer has already ended"));
    // qa is reading.
    let effects = apply(
        &mut state,
        [
            Action::Command(Command::MoveDown),
            Action::Command(Command::StopReviewer),
        ],
    );
    assert_eq!(effects, vec![Effect::StopReviewer("qa".into())]);
    assert!(state.log.entries().any(|e| e.text == "you stopped qa"));
    // The rule catalog is no model reviewer.
    state.reviewers.selected = Some("rules".into());
    assert_eq!(
        apply(&mut state, [Action::Command(Command::StopReviewer)]),
        vec![]
    );
    assert!(message(&state).contains("not a model reviewer"));
}

#[test]
fn the_whole_run_stops_on_the_second_press_in_a_row_and_only_while_it_runs() {
    let mut state = streaming();
    assert_eq!(
        apply(&mut state, [Action::Command(Command::StopRun)]),
        vec![]
    );
    assert!(message(&state).starts_with("X again stops every reviewer and pass"));
    // Another key in between disarms it.
    assert_eq!(
        apply(
            &mut state,
            [
                Action::Command(Command::MoveDown),
                Action::Command(Command::StopRun)
            ]
        ),
        vec![]
    );
    assert_eq!(
        apply(&mut state, [Action::Command(Command::StopRun)]),
        vec![Effect::StopRun]
    );
    assert!(
        state
            .log
            .entries()
            .any(|e| e.text == "you stopped the review")
    );

    let mut done = finished();
    assert_eq!(
        apply(
            &mut done,
            [
                Action::Command(Command::StopRun),
                Action::Command(Command::StopRun)
            ]
        ),
        vec![]
    );
    assert_eq!(message(&done), "no review is running");
}

/// A new round requested over the last round's findings (`--force`, a reopened interrupted
/// round): until it has run, the header says so, never the last round's decision.
#[test]
fn a_requested_round_is_running_before_its_reviewers_start() {
    let mut state = finished();
    let before = screen(&mut state, 80, 24).join("\n");
    assert!(!before.contains("RUNNING"), "{before}");
    apply(
        &mut state,
        [Action::Engine(Report::Ladder(
            crate::space::Ladder::Requested,
        ))],
    );
    assert!(state.review_running());
    for (height, line) in [(24, 0), (40, 2)] {
        let lines = screen(&mut state, 80, height);
        assert!(lines[line].contains("RUNNING"), "{lines:#?}");
        assert!(
            !lines[line].contains("BLOCK") && !lines[line].contains("HOLD"),
            "{lines:#?}"
        );
    }
}

/// A pass after the reviewers (all done by then) says how far it is and what holds it up: the
/// header's running line and the reviewers pane's title, at 80 columns too; the event log
/// keeps each retry; an answer clears the hold, and a new pass starts its count afresh.
#[test]
fn a_pass_shows_its_progress_and_a_rate_limit_and_logs_the_retry() {
    use crate::reviewers::model::passes::PassNote;
    use crate::reviewers::model::provider::{Heard, RetryNote};

    let mut state = streaming();
    for name in ["engineer", "qa", "architect", "rules", "secret scan"] {
        apply(
            &mut state,
            [event(
                name,
                EventKind::Done {
                    summary: "done".into(),
                },
            )],
        );
    }
    let pass = |note: PassNote| {
        Action::Engine(Report::Pass {
            phase: "verification".into(),
            note,
        })
    };
    apply(
        &mut state,
        [
            Action::Engine(Report::Phase(Some("verification".into()))),
            pass(PassNote::Progress { done: 0, of: 3 }),
            pass(PassNote::Heard(Heard::Retrying(RetryNote {
                attempt: 1,
                of: 4,
                wait: std::time::Duration::from_secs(20),
                reason: "rate limited (HTTP 429)".into(),
                rate_limited: true,
            }))),
        ],
    );
    // A short terminal's one header line says it too.
    let lines = screen(&mut state, 80, 24);
    assert!(
        lines[0].contains("verification 0 of 3 answered · limit 1"),
        "{lines:#?}"
    );
    let lines = screen(&mut state, 200, 60);
    assert!(
        lines[2].contains("limit 1: rate limited (HTTP 429): attempt 1 of 4, again in 20 s"),
        "{lines:#?}"
    );
    assert!(
        lines.iter().any(|l| l.contains("verification 0/3 limit 1")),
        "{lines:#?}"
    );
    assert!(state.log.entries().any(|e| e.level == Level::Warn
        && e.text
            == "verification retrying: rate limited (HTTP 429): attempt 1 of 4, again in 20 s"));

    apply(&mut state, [pass(PassNote::Progress { done: 1, of: 3 })]);
    let lines = screen(&mut state, 200, 60);
    assert!(
        lines[2].contains("verification 1 of 3 answered · 1 retry"),
        "{lines:#?}"
    );
    apply(
        &mut state,
        [Action::Engine(Report::Phase(Some(
            "confidence scoring".into(),
        )))],
    );
    let lines = screen(&mut state, 200, 60);
    assert!(
        lines[2].contains("reviewers done · confidence scoring") && !lines[2].contains("retry"),
        "{lines:#?}"
    );
}
