//! The gate's fix: it works on the findings the gate counts (the same number), and what it
//! produced, a patch or the fix command's answers, is shown by `v` in one viewer.

use ratatui::Terminal;
use ratatui::backend::TestBackend;

use super::fixtures::*;
use crate::review::Status;
use crate::ui::action::{Action, Command, Report};
use crate::ui::keymap::Keymap;
use crate::ui::state::{Overlay, PatchData};
use crate::ui::theme::Theme;
use crate::ui::update::{Effect, update};
use crate::ui::view::{self, ViewContext};

/// A duplicate whose problem a person closed weighs on its own: the verdict counts it, and
/// the fix's "of the N counted" says the gate's N.
#[test]
fn the_fix_counts_what_the_gate_counts() {
    let mut state = finished();
    assert_eq!(
        state.node("n4").unwrap().duplicate_of.as_deref(),
        Some("n3")
    );
    state.node_mut("n3").unwrap().status = Status::Dismissed;
    state.refresh();
    let verdict = state.verdict.clone().unwrap();
    let counted = verdict.counts.counted;
    assert!(verdict.counted.contains(&"n4".to_string()), "{verdict:?}");
    apply(&mut state, [Action::Command(Command::OpenGate)]);
    let effects = update(&mut state, Action::Command(Command::GateFix));
    let said = &state.message.as_ref().unwrap().text;
    assert!(
        said.contains(&format!("of the {counted} findings counted")),
        "gate counts {counted}: {said}"
    );
    let [Effect::WritePatch { node_ids }] = effects.as_slice() else {
        panic!("{effects:?}");
    };
    assert!(
        node_ids.iter().all(|id| verdict.counted.contains(id)),
        "{node_ids:?}"
    );
}

/// After the fix command answered, `v` shows its answers (not "nothing yet"), under a title
/// that says what they are and where they are kept.
#[test]
fn v_shows_the_fix_commands_answers_in_the_one_viewer() {
    let mut state = finished();
    update(
        &mut state,
        Action::Engine(Report::PatchWritten {
            patch: PatchData {
                path: "/space/fixes".into(),
                text: "## n3 (/space/fixes/n3.md)\n\nRotate the key, then:\n\n--- a/src/auth/client.rs\n+++ b/src/auth/client.rs\n-const KEY: &str = \"…\";\n+let key = std::env::var(\"AWS_KEY\")?;\n".into(),
                answers: true,
            },
            summary: "fix command answers for 1 of 1 finding(s): /space/fixes/n3.md — review-tui changed no code".into(),
        }),
    );
    let said = &state.message.as_ref().unwrap().text;
    assert!(
        said.contains("1 of 1") && said.contains("v shows it"),
        "{said}"
    );
    apply(&mut state, [Action::Command(Command::ViewPatch)]);
    assert!(matches!(state.top_overlay(), Some(Overlay::Patch { .. })));
    let cx = ViewContext::new(Theme::builtin("dark").unwrap(), Keymap::default());
    let mut terminal = Terminal::new(TestBackend::new(100, 30)).unwrap();
    terminal
        .draw(|frame| {
            view::draw(frame, &state, &cx);
        })
        .unwrap();
    let buffer = terminal.backend().buffer();
    let text: String = (0..buffer.area.height)
        .map(|y| {
            (0..buffer.area.width)
                .map(|x| buffer[(x, y)].symbol())
                .collect::<String>()
                + "\n"
        })
        .collect();
    assert!(text.contains("Fix command's answers"), "{text}");
    assert!(text.contains("## n3"), "{text}");
    assert!(text.contains("Rotate the key"), "{text}");
    assert!(text.contains("review-tui changed no code"), "{text}");
    assert!(
        !text.contains("git apply"),
        "answers are not a patch:\n{text}"
    );
}
