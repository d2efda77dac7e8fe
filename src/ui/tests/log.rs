//! The event log: fed from the actions the cockpit receives, bounded, escaped, and scrolled
//! from its newest line.

use super::fit::screen;
use super::fixtures::*;
use crate::review::EventKind;
use crate::review::Outcome;
use crate::ui::action::{Action, Command, Report};
use crate::ui::log::{KEEP, Level};
use crate::ui::state::Overlay;

fn texts(state: &crate::ui::AppState) -> Vec<(Level, String)> {
    state
        .log
        .entries()
        .map(|e| (e.level, e.text.clone()))
        .collect()
}

#[test]
fn the_log_says_what_ran_failed_waited_and_was_posted_and_what_the_person_decided() {
    let mut state = finished();
    let log = texts(&state);
    assert!(
        log.iter()
            .any(|(_, t)| t.starts_with("round 2: run started with engineer (required)")),
        "{log:?}"
    );
    assert!(log.contains(&(Level::Info, "qa started".into())), "{log:?}");
    assert!(
        log.contains(&(
            Level::Error,
            "architect failed: provider timed out after 120 s".into()
        )),
        "{log:?}"
    );
    // Token counts are the reviewers pane's, not a line each turn.
    assert!(
        !log.iter().any(|(_, t)| t.contains("read 6 files")),
        "{log:?}"
    );

    select(&mut state, "n2");
    apply(&mut state, [Action::Command(Command::Dismiss)]);
    apply(
        &mut state,
        "flaky".chars().map(|c| {
            Action::Text(ratatui_textarea::Input {
                key: ratatui_textarea::Key::Char(c),
                ..Default::default()
            })
        }),
    );
    apply(
        &mut state,
        [
            Action::Submit,
            event(
                "qa",
                EventKind::Waiting {
                    host: "127.0.0.1:9".into(),
                    waited_secs: 15,
                },
            ),
            event(
                "engineer",
                EventKind::Failed {
                    outcome: Outcome::InvalidOutput,
                    reason: "no JSON".into(),
                },
            ),
            Action::Engine(Report::Published {
                target: "the report in /tmp/out".into(),
            }),
        ],
    );
    let log = texts(&state);
    let tail: Vec<_> = log[log.len() - 4..].to_vec();
    assert_eq!(
        tail,
        vec![
            (
                Level::Info,
                "you dismissed “Consider a test for the expired-cache path”: flaky".into()
            ),
            (
                Level::Warn,
                "qa waiting for 127.0.0.1:9: 15 s, no answer yet".into()
            ),
            (Level::Error, "engineer gave invalid output: no JSON".into()),
            (Level::Info, "published: the report in /tmp/out".into()),
        ]
    );
}

#[test]
fn the_log_keeps_the_newest_lines_and_counts_what_it_forgot() {
    let mut state = finished();
    let before = state.log.len();
    for i in 0..KEEP {
        apply(
            &mut state,
            [Action::Engine(Report::Notice(format!("notice {i}")))],
        );
    }
    assert_eq!(state.log.len(), KEEP);
    assert_eq!(state.log.dropped, before);
    assert_eq!(
        state.log.entries().last().map(|e| e.text.as_str()),
        Some(format!("notice {}", KEEP - 1).as_str())
    );
    assert_eq!(
        state.log.entries().next().map(|e| e.text.as_str()),
        Some("notice 0")
    );
}

#[test]
fn the_log_opens_at_its_newest_line_scrolls_up_from_there_and_escapes_what_it_shows() {
    let mut state = finished();
    apply(
        &mut state,
        [event(
            "qa\u{1b}[2J",
            EventKind::Done {
                summary: "evil\u{202e}txt".into(),
            },
        )],
    );
    for i in 0..40 {
        apply(
            &mut state,
            [Action::Engine(Report::Notice(format!("notice {i}")))],
        );
    }
    apply(&mut state, [Action::Command(Command::EventLog)]);
    let lines = screen(&mut state, 80, 24);
    let all = lines.join("\n");
    assert!(all.contains("notice 39"), "{all}");
    assert!(!all.contains("notice 0 "), "{all}");
    let max = state.layout.overlay_scroll_max;
    assert!(max > 0);
    // One line up from the end is one line, not a press spent on the overshoot.
    apply(&mut state, [Action::Command(Command::MoveUp)]);
    assert!(matches!(state.top_overlay(), Some(Overlay::Log { scroll }) if *scroll == max - 1));
    apply(&mut state, [Action::Command(Command::Top)]);
    let all = screen(&mut state, 80, 24).join("\n");
    assert!(all.contains("run started"), "{all}");
    assert!(
        !all.contains('\u{1b}') && !all.contains('\u{202e}'),
        "{all}"
    );
    // The end again, following what arrives.
    apply(
        &mut state,
        [
            Action::Command(Command::Bottom),
            Action::Engine(Report::Notice("the newest".into())),
        ],
    );
    let all = screen(&mut state, 80, 24).join("\n");
    assert!(all.contains("the newest"), "{all}");
    apply(&mut state, [Action::Command(Command::EventLog)]);
    assert!(state.overlays.is_empty());
}

/// The run as the cockpit hears of it (announced, then its plan): the log names who it
/// started with and who was skipped and why, never "run started with" and nothing.
#[test]
fn the_log_names_what_a_run_started_with_and_what_it_skipped() {
    let mut state = loading();
    let mut plan = crate::review::Board::default();
    plan.queue("rules", false);
    plan.skip(
        "engineer",
        true,
        "deterministic-only run: no model reviewer asked for",
    );
    apply(
        &mut state,
        [
            Action::Engine(Report::RunStarted {
                run: RUN,
                round: 1,
                reviewers: Vec::new(),
                deterministic_only: true,
            }),
            Action::Engine(Report::Reviewers(plan.reviewers.into_values().collect())),
        ],
    );
    let log = texts(&state);
    assert!(
        !log.iter().any(|(_, t)| t.trim_end().ends_with("with")),
        "{log:?}"
    );
    assert!(
        log.iter().any(|(_, t)| t
            == "round 1: run started with rules; skipped engineer (deterministic-only run: no model reviewer asked for)"),
        "{log:?}"
    );
}

/// A comment the person edits is a line of the log, like every other decision of theirs.
#[test]
fn a_comment_edit_is_logged() {
    let mut state = finished();
    select(&mut state, "n1");
    apply(&mut state, [Action::Command(Command::EditComment)]);
    apply(
        &mut state,
        "Please check the expiry first."
            .chars()
            .map(|c| {
                Action::Text(ratatui_textarea::Input::from(
                    ratatui::crossterm::event::KeyEvent::from(
                        ratatui::crossterm::event::KeyCode::Char(c),
                    ),
                ))
            })
            .collect::<Vec<_>>(),
    );
    apply(&mut state, [Action::Submit]);
    let log = texts(&state);
    assert!(
        log.iter()
            .any(|(_, t)| t.starts_with("you edited the comment of “Expired token")),
        "{log:?}"
    );
}
