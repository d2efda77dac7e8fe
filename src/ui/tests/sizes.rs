//! No size panics: every screen drawn at sizes from 1×1 to 300×100 (the edges, every small
//! size, and a fixed spread of the rest, so the run stays bounded), and below what the layout
//! needs the cockpit says how much it needs instead of drawing a squeezed screen.

use ratatui::Terminal;
use ratatui::backend::TestBackend;

use super::fixtures::*;
use crate::ui::action::{Action, Command, Report};
use crate::ui::keymap::Keymap;
use crate::ui::state::{AppState, DiffView, Overlay, Pane, PatchData};
use crate::ui::theme::Theme;
use crate::ui::update::update;
use crate::ui::view::{self, ViewContext};

/// Every screen a person can reach, by name.
fn screens() -> Vec<(&'static str, AppState)> {
    let mut all = vec![("loading", loading()), ("streaming", streaming())];
    let main = finished();
    all.push(("main", main.clone()));
    for focus in [Pane::Detail, Pane::Reviewers, Pane::Disagreements] {
        let mut state = main.clone();
        state.focus = focus;
        all.push(("focus", state));
    }
    let with = |name, actions: Vec<Action>| {
        let mut state = finished();
        apply(&mut state, actions);
        (name, state)
    };
    let command = Action::Command;
    all.push(with("zoomed", vec![command(Command::ZoomDetail)]));
    all.push(with("gate", vec![command(Command::OpenGate)]));
    all.push(with(
        "gate details",
        vec![command(Command::OpenGate), command(Command::GateDetails)],
    ));
    all.push(with(
        "preview pending",
        vec![command(Command::OpenGate), command(Command::GatePublish)],
    ));
    all.push(with(
        "preview",
        vec![
            command(Command::OpenGate),
            command(Command::GatePublish),
            Action::Engine(Report::PublishPreview(preview())),
        ],
    ));
    all.push(with("help", vec![command(Command::Help)]));
    all.push(with("log", vec![command(Command::EventLog)]));
    all.push(with(
        "dismiss reason",
        vec![command(Command::Dismiss), Action::Submit],
    ));
    all.push(with("comment editor", vec![command(Command::EditComment)]));
    all.push(with(
        "error",
        vec![Action::Engine(Report::EngineError {
            title: "Publishing failed".into(),
            message: "github answered 502 twice; nothing was posted".into(),
        })],
    ));
    all.push(with(
        "patch",
        vec![
            Action::Engine(Report::PatchWritten {
                patch: PatchData {
                    path: "/data/fixes/round-1.patch".into(),
                    text: "diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n".into(),
                    answers: false,
                },
                summary: "patch for 1 finding written".into(),
            }),
            command(Command::OpenGate),
            command(Command::ViewPatch),
        ],
    ));
    let mut diff_view = finished();
    diff_view.diff = Some(diff());
    diff_view.overlays.push(Overlay::Diff(DiffView::default()));
    all.push(("diff view", diff_view));
    all.push(with(
        "message",
        vec![command(Command::Confirm), command(Command::MoveDown)],
    ));
    all
}

fn preview() -> crate::ui::state::PreviewData {
    crate::ui::state::PreviewData {
        event: "REQUEST_CHANGES".into(),
        inline_comments: 1,
        listed_in_body: 3,
        local: false,
        moved_to_body: vec!["Retry loop has no jitter — no anchor".into()],
        already_raised: Vec::new(),
        body: "> **Block**: 1 P0 finding\n\n## Fix before merge\n\n1. `src/auth/refresh.rs:10` Expired token is reused\n".into(),
        target: "github review on acme/payments#42".into(),
    }
}

/// The sizes checked: the edges (1 and 300 wide, 1 and 100 high), each side of every size the
/// layout changes at (the smallest it draws, stacking, the short header), and a spread between.
fn sizes() -> Vec<(u16, u16)> {
    let widths = [1, 2, 7, 39, 40, 41, 59, 60, 80, 99, 100, 157, 300];
    let heights = [1, 2, 3, 5, 8, 11, 12, 13, 15, 24, 29, 30, 60, 100];
    let mut all = Vec::new();
    for &width in &widths {
        for &height in &heights {
            all.push((width, height));
        }
    }
    all
}

fn draw(state: &mut AppState, width: u16, height: u16, cx: &ViewContext) {
    let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
    for _ in 0..2 {
        let mut layout = None;
        terminal
            .draw(|frame| layout = Some(view::draw(frame, state, cx)))
            .unwrap();
        state.layout = layout.unwrap();
    }
}

#[test]
fn every_screen_draws_at_every_size_without_panicking() {
    let screens = screens();
    // One context: building its highlighter is what a draw would otherwise spend its time on.
    let cx = ViewContext::new(Theme::builtin("dark").unwrap(), Keymap::default());
    for (width, height) in sizes() {
        for (name, state) in &screens {
            let mut state = state.clone();
            let drawn = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                draw(&mut state, width, height, &cx);
                // And the keys still work at that size (page sizes come from the layout).
                for command in [Command::PageDown, Command::MoveDown, Command::Bottom] {
                    update(&mut state, Action::Command(command));
                }
                draw(&mut state, width, height, &cx);
            }));
            assert!(drawn.is_ok(), "{name} at {width}x{height} panicked");
        }
    }
}

#[test]
fn below_the_smallest_size_it_says_what_it_needs_and_a_resize_draws_the_cockpit_again() {
    let mut state = finished();
    let small = super::fit::screen(&mut state, 39, 11).join(" ");
    let small = small.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        small.contains("terminal too small (need 40 x 12, have 39 x 11)"),
        "{small}"
    );
    let back = super::fit::screen(&mut state, 60, 15).join("\n");
    assert!(!back.contains("too small"), "{back}");
    assert!(back.contains("Findings"), "{back}");
}
