//! What the screen says about where the person is: the keys of what has focus (`?` and the
//! hint line, a text box's own), the message whole, every list saying where it is, and
//! leaving the gate after a publish never saying nothing was published.

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::fit::screen;
use super::fixtures::*;
use crate::space::Ladder;
use crate::ui::action::{Action, Command, Report};
use crate::ui::keymap::Keymap;
use crate::ui::state::{AppState, MessageKind, Overlay, PreviewData};

/// The key `?` as the terminal sends it, through the keymap, in whatever is open.
fn question_mark(state: &mut AppState) {
    let event = KeyEvent::new(KeyCode::Char('?'), KeyModifiers::NONE);
    let action = Keymap::default()
        .translate_key(state, &event)
        .expect("? means something everywhere");
    apply(state, [action]);
}

fn preview() -> Action {
    Action::Engine(Report::PublishPreview(PreviewData {
        event: "REQUEST_CHANGES".into(),
        inline_comments: 1,
        listed_in_body: 3,
        local: false,
        moved_to_body: Vec::new(),
        already_raised: Vec::new(),
        body: "> **Block**\n".into(),
        target: "github review on acme/payments#42".into(),
    }))
}

#[test]
fn question_mark_opens_the_keys_of_what_has_focus_everywhere_and_closing_them_goes_back() {
    let gate = Action::Command(Command::OpenGate);
    let publish = Action::Command(Command::GatePublish);
    let cases: Vec<(Vec<Action>, &str)> = vec![
        (vec![], "Keys here: Findings"),
        (vec![gate.clone()], "Keys here: Approval gate"),
        (vec![gate, publish, preview()], "Keys here: Publish preview"),
        (
            vec![Action::Command(Command::EventLog)],
            "Keys here: Event log",
        ),
    ];
    for (setup, here) in cases {
        let mut state = finished();
        apply(&mut state, setup);
        let under = state.overlays.len();
        question_mark(&mut state);
        assert!(
            matches!(state.top_overlay(), Some(Overlay::Help { .. })),
            "{here}: {:?}",
            state.top_overlay()
        );
        // What was open is still there, under the keys: nothing was cancelled or closed.
        assert_eq!(state.overlays.len(), under + 1, "{here}");
        let lines = screen(&mut state, 120, 40);
        let first = lines
            .iter()
            .find(|l| l.contains("Keys here"))
            .unwrap_or_else(|| panic!("{here}:\n{}", lines.join("\n")));
        assert!(first.contains(here), "{first}");
        // `?` again closes the keys, back to what was open.
        question_mark(&mut state);
        assert_eq!(state.overlays.len(), under, "{here}");
    }
}

#[test]
fn the_message_is_whole_on_its_own_line_and_the_next_key_clears_it() {
    let mut state = finished();
    let path = "published: DATA/review-tui/spaces/local/acme/payments/pr-42/round-2/review-of-the-second-round.md";
    state.say(MessageKind::Info, path.to_string());
    let lines = screen(&mut state, 80, 24);
    let bottom = lines[lines.len() - 4..lines.len() - 1].join("");
    let bottom: String = bottom.split_whitespace().collect();
    assert!(
        bottom.contains(&path.split_whitespace().collect::<String>()),
        "{}",
        lines.join("\n")
    );
    // The hints keep their own line under it.
    assert!(
        lines[lines.len() - 1].contains("q quit"),
        "{}",
        lines.join("\n")
    );
    apply(&mut state, [Action::Command(Command::MoveDown)]);
    assert!(state.message.is_none());
}

#[test]
fn the_hint_line_shows_the_keys_of_what_has_focus_and_at_80_columns_the_first_six() {
    let mut state = finished();
    state.message = None;
    let lines = screen(&mut state, 80, 24);
    let hints = &lines[lines.len() - 1];
    let order: Vec<usize> = [
        "g gate",
        "c confirm",
        "x dismiss",
        "/ filter",
        "? help",
        "q quit",
    ]
    .iter()
    .map(|key| {
        hints
            .find(key)
            .unwrap_or_else(|| panic!("{key} missing: {hints}"))
    })
    .collect();
    assert!(order.windows(2).all(|w| w[0] < w[1]), "{hints}");
    // The comment editor has focus: its own keys, none of the list's.
    apply(&mut state, [Action::Command(Command::EditComment)]);
    let lines = screen(&mut state, 80, 24);
    let hints = &lines[lines.len() - 1];
    assert!(
        hints.contains("ctrl-s save") && hints.contains("esc cancel"),
        "{hints}"
    );
    for key in ["c confirm", "x dismiss", "g gate"] {
        assert!(!hints.contains(key), "{key}: {hints}");
    }
    // At 60 columns its keys are whole, the most needed first: none runs off the edge.
    let lines = screen(&mut state, 60, 15);
    let hints = lines[lines.len() - 1].trim_end();
    assert!(hints.chars().count() < 60, "{hints}");
    assert!(
        hints.contains("ctrl-s save") && hints.contains("esc cancel"),
        "{hints}"
    );
}

#[test]
fn every_list_that_hides_rows_says_which_it_shows_of_how_many() {
    let mut state = finished();
    let rows = crate::ui::rows::rows(&state).len();
    let lines = screen(&mut state, 80, 24);
    let all = lines.join("\n");
    assert!(all.contains(&format!(" of {rows} ")), "{all}");
    // The reviewers pane (five reviewers), which a short stacked screen shows when focused.
    state.focus = crate::ui::state::Pane::Reviewers;
    let lines = screen(&mut state, 80, 24);
    let all = lines.join("\n");
    assert!(all.contains(&format!(" of {rows} ")), "{all}");
    // The reviewers pane too (five reviewers).
    assert!(all.contains(" of 5 "), "{all}");
    // Where everything fits, nothing is claimed hidden.
    let wide = screen(&mut state, 200, 60).join("\n");
    assert!(!wide.contains(&format!(" of {rows} ")), "{wide}");
}

#[test]
fn leaving_the_gate_after_a_publish_says_where_it_went_never_that_nothing_was() {
    let mut state = finished();
    apply(
        &mut state,
        [
            Action::Engine(Report::Ladder(Ladder::AwaitingApproval)),
            Action::Engine(Report::Published {
                target: "https://example.test/acme/payments/pull/42#review-1".into(),
            }),
            Action::Engine(Report::Ladder(Ladder::Completed)),
            Action::Command(Command::OpenGate),
            Action::Command(Command::GateAbort),
        ],
    );
    let text = &state.message.as_ref().expect("a message").text;
    assert!(!text.contains("nothing was published"), "{text}");
    assert!(text.contains("review-1"), "{text}");
}

/// Published at one decision, then triage that changes it: the screen says so, over the panes
/// and in the gate, never silently showing a decision the posted review does not.
#[test]
fn a_change_after_publishing_is_a_banner_naming_what_was_posted_and_what_is_now() {
    let mut state = finished();
    let decision = state.verdict.as_ref().expect("a verdict").decision;
    let posted = crate::session::posted::posted(
        decision,
        &state.board.nodes,
        &state.comments,
        state.level,
        &state.include_raised,
    );
    apply(
        &mut state,
        [
            Action::Engine(Report::Published {
                target: "https://example.test/acme/payments/pull/42#review-1".into(),
            }),
            Action::Engine(Report::Posted(crate::ui::state::PostedAt {
                posted,
                at: "2026-12-06T04:13:00Z".into(),
            })),
            Action::Engine(Report::Ladder(Ladder::Completed)),
        ],
    );
    state.message = None;
    // Nothing changed yet: no banner.
    let before = screen(&mut state, 120, 40).join("\n");
    assert!(!before.contains("published BLOCK at"), "{before}");
    // Reword a comment: the decision stays, the text would not.
    apply(
        &mut state,
        [Action::Engine(Report::Comments(
            [("n1".to_string(), "reworded".to_string())].into(),
        ))],
    );
    for (width, height) in [(120, 40), (80, 24), (60, 15)] {
        let lines = screen(&mut state, width, height);
        let all = lines.join("\n");
        assert!(
            all.contains("published BLOCK at 04:13 UTC"),
            "{width}x{height}:\n{all}"
        );
    }
    // Dismiss every blocking finding: the decision changes, and the banner names both.
    let blocking: Vec<String> = state
        .board
        .nodes
        .iter()
        .filter(|n| n.status.is_active())
        .map(|n| n.id.clone())
        .collect();
    for id in blocking {
        let node = state.node_mut(&id).unwrap();
        node.status = crate::review::Status::Dismissed;
    }
    state.refresh();
    let now = state.verdict.as_ref().unwrap().decision;
    assert_ne!(now, decision);
    let all = screen(&mut state, 200, 60).join("\n");
    let expected = format!(
        "published BLOCK at 04:13 UTC — now {}",
        now.label().to_uppercase()
    );
    assert!(all.contains(&expected), "{all}");
    // The gate says it too.
    apply(&mut state, [Action::Command(Command::OpenGate)]);
    let gate = screen(&mut state, 120, 40).join("\n");
    assert!(
        gate.matches("published BLOCK at 04:13 UTC").count() >= 2,
        "{gate}"
    );
}

/// Without model reviewers the header and the gate claim no confidence and say what did not run.
#[test]
fn deterministic_only_says_what_did_not_run_and_claims_no_confidence() {
    let mut state = finished();
    state.deterministic_only = true;
    // The verdict's line: the third of the full header, the one line of a short one.
    for (width, height, line) in [(120, 40, 2), (80, 24, 0)] {
        let lines = screen(&mut state, width, height);
        let header = &lines[line];
        assert!(!header.contains("confidence 92"), "{header}");
        assert!(
            header.contains("model reviewer"),
            "{width}x{height}: {header}"
        );
    }
    apply(&mut state, [Action::Command(Command::OpenGate)]);
    let gate = screen(&mut state, 120, 40).join("\n");
    let verdict = gate
        .lines()
        .find(|l| l.contains("Verdict"))
        .expect("the gate's verdict line");
    assert!(verdict.contains("model reviewers did not run"), "{verdict}");
    assert!(!verdict.contains("confidence 92"), "{verdict}");
}

/// Where the list is wide enough, each finding row says where it is (`file:line`, under the
/// header's `file:line`); the location is the first column to give way when narrow.
#[test]
fn rows_carry_file_and_line_where_there_is_room_and_give_it_up_first() {
    let mut state = finished();
    let lines = screen(&mut state, 200, 60);
    let header = lines
        .iter()
        .find(|l| l.contains("file:line"))
        .unwrap_or_else(|| panic!("{}", lines.join("\n")));
    let row = lines
        .iter()
        .find(|l| l.starts_with('│') && l.contains("P0 bug    Expired token is reused"))
        .expect("the row");
    let column = |line: &str, word: &str| line.find(word).map(|b| line[..b].chars().count());
    assert!(row.contains("src/auth/refresh.rs:10"), "{row}");
    assert_eq!(
        column(header, "file:line"),
        column(row, "src/auth/refresh.rs:10"),
        "{header}\n{row}"
    );
    // Side by side from 120 columns the list keeps the location (the reviewers give way
    // first); below, it goes before the status does.
    for width in [120, 130, 140] {
        let lines = screen(&mut state, width, 40);
        let row = lines
            .iter()
            .find(|l| l.starts_with('│') && l.contains("P0 bug    Expired token"))
            .unwrap_or_else(|| panic!("{}", lines.join("\n")));
        assert!(row.contains("src/auth/refresh.rs:10"), "{width}: {row}");
    }
    let middle = screen(&mut state, 110, 40).join("\n");
    assert!(!middle.contains("file:line"), "{middle}");
    let narrow = screen(&mut state, 80, 24).join("\n");
    assert!(!narrow.contains("file:line"), "{narrow}");
    assert!(narrow.contains(" open"), "{narrow}");
}

/// Before the pull request is known the header shows no empty template (`  ·   ←`).
#[test]
fn the_first_frame_shows_no_empty_template() {
    let mut state = AppState::new(Default::default(), "tester");
    state.loading = Some("reading the pull request".into());
    let lines = screen(&mut state, 120, 40);
    assert!(!lines[0].contains('←'), "{}", lines[0]);
}
