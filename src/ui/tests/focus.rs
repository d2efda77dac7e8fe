//! What the screen says about where the person is: the keys of what has focus (`?` and the
//! hint line, a text box's own), the message whole, every list saying where it is, and
//! leaving the gate after a publish never saying nothing was published.

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::fit::screen;
use super::fixtures::*;
use crate::space::state::Ladder;
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
        moved_to_body: Vec::new(),
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
    let path = "published: /home/someone/.local/share/review-tui/spaces/local/acme/payments/pr-42/round-2/review.md";
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
    assert!(lines[lines.len() - 1].contains("q quit"), "{}", lines.join("\n"));
    apply(&mut state, [Action::Command(Command::MoveDown)]);
    assert!(state.message.is_none());
}

#[test]
fn the_hint_line_shows_the_keys_of_what_has_focus_and_at_80_columns_the_first_six() {
    let mut state = finished();
    state.message = None;
    let lines = screen(&mut state, 80, 24);
    let hints = &lines[lines.len() - 1];
    let order: Vec<usize> = ["g gate", "c confirm", "x dismiss", "/ filter", "? help", "q quit"]
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
    assert!(hints.contains("ctrl-s save") && hints.contains("esc cancel"), "{hints}");
    for key in ["c confirm", "x dismiss", "g gate"] {
        assert!(!hints.contains(key), "{key}: {hints}");
    }
}

#[test]
fn every_list_that_hides_rows_says_which_it_shows_of_how_many() {
    let mut state = finished();
    let rows = crate::ui::rows::rows(&state).len();
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
