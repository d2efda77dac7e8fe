//! Every screen state rendered on a 120×40 `TestBackend` and compared with insta snapshots.
//! The data is fixed (no paths, hashes or clocks), so the snapshots are stable.

use ratatui::Terminal;
use ratatui::backend::TestBackend;

use super::fixtures::*;
use crate::ui::action::{Action, Command, Report};
use crate::ui::keymap::Keymap;
use crate::ui::state::{AppState, Pane, PatchData, PreviewData, RowKey};
use crate::ui::theme::Theme;
use crate::ui::view::{self, ViewContext};

fn render(state: &mut AppState) -> Terminal<TestBackend> {
    render_at(state, 120, 40)
}

fn render_at(state: &mut AppState, width: u16, height: u16) -> Terminal<TestBackend> {
    let cx = ViewContext::new(Theme::builtin("dark").unwrap(), Keymap::default());
    let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
    // Twice: the first frame measures the layout the second one (and `update`) relies on.
    for _ in 0..2 {
        let mut layout = None;
        terminal
            .draw(|frame| layout = Some(view::draw(frame, state, &cx)))
            .unwrap();
        state.layout = layout.unwrap();
    }
    terminal
}

#[test]
fn loading() {
    let mut state = super::fixtures::loading();
    insta::assert_snapshot!(render(&mut state).backend());
}

#[test]
fn streaming_with_reviewers_reading() {
    let mut state = streaming();
    insta::assert_snapshot!(render(&mut state).backend());
}

#[test]
fn finished_with_disagreements_and_a_fix_in_the_detail() {
    let mut state = finished();
    insta::assert_snapshot!(render(&mut state).backend());
}

#[test]
fn below_threshold_unfolded_and_a_collapsed_cohort() {
    let mut state = finished();
    state.findings.below_open.insert("p-docs".into());
    state.findings.collapsed.insert("c-auth".into());
    state.findings.selected = Some(RowKey::Node("n5".into()));
    insta::assert_snapshot!(render(&mut state).backend());
}

#[test]
fn duplicates_unfolded_with_the_cohort_detail() {
    let mut state = finished();
    state.findings.expanded.insert("n3".into());
    state.findings.selected = Some(RowKey::Cohort("c-auth".into()));
    state.focus = Pane::Detail;
    insta::assert_snapshot!(render(&mut state).backend());
}

#[test]
fn the_approval_gate() {
    let mut state = finished();
    apply(&mut state, [Action::Command(Command::OpenGate)]);
    insta::assert_snapshot!(render(&mut state).backend());
}

#[test]
fn the_publish_preview() {
    let mut state = finished();
    apply(
        &mut state,
        [
            Action::Command(Command::OpenGate),
            Action::Command(Command::GatePublish),
            Action::Engine(Report::PublishPreview(PreviewData {
                event: "REQUEST_CHANGES".into(),
                inline_comments: 2,
                listed_in_body: 4,
                local: false,
                moved_to_body: vec![
                    "Retry loop has no jitter — no anchor".into(),
                    "docs/auth.md:3 Document the refresh window — not on a changed line".into(),
                ],
                already_raised: Vec::new(),
                body: "> [!CAUTION]\n> **Block**: 1 P0 finding at confidence ≥ 0.70\n\nFacts: gate apiContract pass · 4 files reviewed\n\n## Fix before merge\n\n1. `src/auth/refresh.rs:10-12` Expired token is reused — found by engineer\n   Impact: requests fail with 401 for up to an hour.\n\n## Observations\n\n- Retry loop has no jitter (engineer, confirmed by qa)\n".into(),
                target: "github review on acme/payments#42".into(),
            })),
        ],
    );
    insta::assert_snapshot!(render(&mut state).backend());
}

#[test]
fn the_help_overlay() {
    let mut state = finished();
    apply(&mut state, [Action::Command(Command::Help)]);
    insta::assert_snapshot!(render(&mut state).backend());
}

#[test]
fn an_engine_error() {
    let mut state = finished();
    apply(
        &mut state,
        [Action::Engine(Report::EngineError {
            title: "Publishing failed".into(),
            message: "GitHub rejected the review: 422 Unprocessable Entity (line 40 is not part of the diff).\nNothing was posted; the round is still unpublished.".into(),
        })],
    );
    insta::assert_snapshot!(render(&mut state).backend());
}

#[test]
fn the_dismiss_box_with_its_required_reason() {
    let mut state = finished();
    apply(
        &mut state,
        [Action::Command(Command::Dismiss), Action::Submit],
    );
    insta::assert_snapshot!(render(&mut state).backend());
}

#[test]
fn a_filter_and_a_message() {
    let mut state = finished();
    state.findings.filter = "@qa".into();
    apply(&mut state, [Action::Command(Command::Confirm)]);
    insta::assert_snapshot!(render(&mut state).backend());
}

#[test]
fn the_detail_scrolled_to_the_fix_and_the_highlighted_code() {
    let mut state = finished();
    state.focus = Pane::Detail;
    state.detail.scroll = 22;
    insta::assert_snapshot!(render(&mut state).backend());
}

#[test]
fn a_narrow_terminal_still_draws() {
    let mut state = finished();
    let cx = ViewContext::new(
        Theme::builtin("dark").unwrap().without_color(),
        Keymap::default(),
    );
    let mut terminal = Terminal::new(TestBackend::new(60, 20)).unwrap();
    terminal
        .draw(|frame| {
            view::draw(frame, &state, &cx);
        })
        .unwrap();
    state.overlays.clear();
    insta::assert_snapshot!(terminal.backend());
}

/// The sizes every main screen is checked at: the smallest people use, a common one, a big one.
const SIZES: [(u16, u16); 3] = [(80, 24), (120, 40), (200, 60)];

/// Snapshots `state` after `actions` at every size, named `{name}_{w}x{h}`.
fn at_every_size(name: &str, make: impl Fn() -> AppState) {
    for (width, height) in SIZES {
        let mut state = make();
        let terminal = render_at(&mut state, width, height);
        insta::assert_snapshot!(format!("{name}_{width}x{height}"), terminal.backend());
    }
}

#[test]
fn sized_main_screen() {
    at_every_size("main", finished);
}

#[test]
fn sized_gate_with_details() {
    at_every_size("gate_details", || {
        let mut state = finished();
        apply(
            &mut state,
            [
                Action::Command(Command::OpenGate),
                Action::Command(Command::GateDetails),
            ],
        );
        state
    });
}

#[test]
fn sized_help() {
    at_every_size("help", || {
        let mut state = finished();
        apply(&mut state, [Action::Command(Command::Help)]);
        state
    });
}

#[test]
fn sized_comment_editor() {
    at_every_size("editor", || {
        let mut state = finished();
        state.node_mut("n1").unwrap().text.body = "The cache is consulted before the expiry check, so a token that expired a second ago is handed out for up to an hour; every request in that window fails with 401 and is retried with the same token.".into();
        apply(&mut state, [Action::Command(Command::EditComment)]);
        state
    });
}

#[test]
fn sized_publish_preview() {
    at_every_size("preview", || {
        let mut state = finished();
        apply(
            &mut state,
            [
                Action::Command(Command::OpenGate),
                Action::Command(Command::GatePublish),
                Action::Engine(Report::PublishPreview(preview_data())),
            ],
        );
        state
    });
}

#[test]
fn the_patch_viewer_at_80x24() {
    let mut state = finished();
    let mut text = String::from(
        "diff --git a/src/auth/refresh.rs b/src/auth/refresh.rs\n--- a/src/auth/refresh.rs\n+++ b/src/auth/refresh.rs\n@@ -8,5 +8,5 @@ impl Client {\n     pub fn refresh(&mut self, now: Instant) -> Result<Token, Error> {\n-        if let Some(token) = self.cache.get() {\n+        if let Some(token) = self.cache.get().filter(|t| t.expires_at > now) {\n             return Ok(token);\n         }\n",
    );
    // Long enough to scroll at 80x24.
    for i in 0..30 {
        text.push_str(&format!(" context line {i}\n"));
    }
    apply(
        &mut state,
        [
            Action::Engine(Report::PatchWritten {
                patch: PatchData {
                    path: "/data/spaces/github/acme/payments/pr-42/fixes/round-1.patch".into(),
                    text,
                    answers: false,
                },
                summary: "patch for 1 finding(s) written".into(),
            }),
            Action::Command(Command::OpenGate),
            Action::Command(Command::ViewPatch),
        ],
    );
    insta::assert_snapshot!(render_at(&mut state, 80, 24).backend());
}

#[test]
fn the_detail_zoomed_at_80x24() {
    let mut state = finished();
    apply(&mut state, [Action::Command(Command::ZoomDetail)]);
    insta::assert_snapshot!(render_at(&mut state, 80, 24).backend());
}

fn preview_data() -> PreviewData {
    PreviewData {
        event: "REQUEST_CHANGES".into(),
        inline_comments: 2,
        listed_in_body: 4,
        local: false,
        moved_to_body: vec![
            "Retry loop has no jitter — no anchor".into(),
            "docs/auth.md:3 Document the refresh window — not on a changed line".into(),
        ],
        already_raised: Vec::new(),
        body: "> [!CAUTION]\n> **Block**: 1 P0 finding at confidence ≥ 70\n\nFacts: gate apiContract pass · 4 files reviewed\n\n## Fix before merge\n\n1. `src/auth/refresh.rs:10-12` Expired token is reused — found by engineer\n   Impact: requests fail with 401 for up to an hour.\n\n## Observations\n\n- Retry loop has no jitter (engineer, confirmed by qa)\n".into(),
        target: "github review on acme/payments#42".into(),
    }
}

#[test]
fn the_event_log_at_80x24() {
    // The fixture's run (reviewers started, found, confirmed, one failed), then a wait, a
    // dropped finding, an engine error and a publish: the log ends at the newest line.
    let mut state = finished();
    apply(
        &mut state,
        [
            event(
                "qa",
                crate::review::EventKind::Waiting {
                    host: "127.0.0.1:11434".into(),
                    waited_secs: 30,
                },
            ),
            event(
                "qa",
                crate::review::EventKind::Dropped {
                    reason: "anchor outside the diff".into(),
                },
            ),
            Action::Engine(Report::EngineError {
                title: "Publish failed".into(),
                message: "github answered 502 twice; nothing was posted".into(),
            }),
            Action::Command(Command::Close),
            Action::Engine(Report::Published {
                target: "https://github.com/acme/payments/pull/42#pullrequestreview-1".into(),
            }),
            Action::Command(Command::EventLog),
        ],
    );
    insta::assert_snapshot!(render_at(&mut state, 80, 24).backend());
}
