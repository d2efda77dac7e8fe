//! The reasons of the verdict that are not findings, as rows at the top of the list: what
//! they say, what enter opens, where `d` jumps.

use super::fixtures::*;
use crate::review::Decision;
use crate::review::{Axis, AxisVerdict};
use crate::ui::action::{Action, Command};
use crate::ui::rows::{self, Row};
use crate::ui::state::{AppState, InputPurpose, Overlay, Pane, RowKey};
use crate::ui::update::Effect;

/// The API axis, gated, failed on `refresh` (a changed file) and on a path the change does
/// not hold (text from the change: never a file to open).
fn api_failed(state: &mut AppState) {
    state.axes = vec![Axis {
        name: "apiContract".into(),
        verdict: AxisVerdict::Fail,
        gated: true,
        detail: "exported API changed incompatibly and the package version does not allow a \
                 break: src/auth/refresh.rs: `Refresher::refresh` a required parameter added \
                 (base `fn refresh(&mut self)` → head `fn refresh(&mut self, now: Instant)`); \
                 ../../etc/passwd: `root` removed (base `x` → head: none); \
                 src/auth/client.rs: `client` removed (base `fn client()` → head: none)"
            .into(),
    }];
}

fn reason_row(state: &AppState) -> crate::ui::reasons::Reason {
    match rows::rows(state).into_iter().next() {
        Some(Row::Reason(reason)) => reason,
        other => panic!("the first row is not a reason: {other:?}"),
    }
}

#[test]
fn a_failed_gated_axis_is_the_first_row_with_its_breaks_at_the_changes_files() {
    let mut state = finished();
    api_failed(&mut state);
    let reason = reason_row(&state);
    assert_eq!(reason.key, "axis:apiContract");
    assert_eq!(reason.decision, Decision::Block);
    // Two breaks at changed files; the path the change does not hold is not one.
    assert_eq!(reason.summary, "2 breaks");
    let at: Vec<String> = reason.breaks.iter().map(|b| b.location()).collect();
    assert_eq!(
        at,
        ["src/auth/refresh.rs:8", "src/auth/client.rs"],
        "{:?}",
        reason.breaks
    );
    assert!(reason.breaks.iter().all(|b| !b.path.contains("..")));
    // A required reviewer without an answer is a row when it is what decides.
    assert!(
        !rows::rows(&state)
            .iter()
            .any(|r| matches!(r, Row::Reason(r) if r.key.starts_with("reviewer:")))
    );
    state.axes.clear();
    state.verdict.as_mut().unwrap().decision = Decision::Inconclusive;
    let reason = reason_row(&state);
    assert_eq!(reason.key, "reviewer:architect");
    assert_eq!(reason.summary, "failed");
    // No reason rows at Ship: nothing to explain.
    state.verdict.as_mut().unwrap().decision = Decision::Ship;
    assert!(!matches!(rows::rows(&state).first(), Some(Row::Reason(_))));
}

/// While the round runs, a required reviewer still queued counts as failed for the verdict
/// (an interrupted run is never a Ship), but no row says it failed: the header says RUNNING.
#[test]
fn while_the_round_runs_no_row_says_a_queued_reviewer_failed() {
    let mut state = finished();
    state.verdict.as_mut().unwrap().decision = Decision::Inconclusive;
    assert!(matches!(rows::rows(&state).first(), Some(Row::Reason(_))));
    state.ladder = crate::space::Ladder::InProgress;
    assert!(state.review_running());
    assert!(
        !rows::rows(&state)
            .iter()
            .any(|r| matches!(r, Row::Reason(_))),
        "{:?}",
        rows::rows(&state)
    );
}

#[test]
fn enter_on_a_reason_opens_its_detail_and_d_opens_the_diff_at_each_break_in_turn() {
    let mut state = finished();
    api_failed(&mut state);
    state.findings.selected = Some(RowKey::Reason("axis:apiContract".into()));
    state.focus = Pane::Findings;
    apply(&mut state, [Action::Command(Command::Expand)]);
    assert_eq!(state.focus, Pane::Detail);

    state.focus = Pane::Findings;
    apply(&mut state, [Action::Command(Command::OpenDiff)]);
    let Some(Overlay::Diff(view)) = state.top_overlay().cloned() else {
        panic!("no diff view: {:?}", state.overlays);
    };
    let doc = crate::ui::diffview::DiffDoc::new(&state, None);
    match doc.row(view.cursor) {
        Some(crate::ui::diffview::DiffRow::Line { path, line }) => {
            assert_eq!(path, "src/auth/refresh.rs");
            assert_eq!(line.new_line, Some(8));
        }
        other => panic!("the cursor is not on the break's line: {other:?}"),
    }
    let said = state.message.as_ref().unwrap().text.clone();
    assert!(
        said.contains("break 1 of 2: src/auth/refresh.rs:8"),
        "{said}"
    );

    // Closed and opened again: the next break, at its file (no line names `client`'s removal
    // here beyond the header).
    apply(&mut state, [Action::Command(Command::Close)]);
    assert!(state.overlays.is_empty(), "{:?}", state.overlays);
    apply(&mut state, [Action::Command(Command::OpenDiff)]);
    let Some(Overlay::Diff(view)) = state.top_overlay().cloned() else {
        panic!("no diff view: {:?}", state.overlays);
    };
    let doc = crate::ui::diffview::DiffDoc::new(&state, None);
    assert_eq!(doc.path_at(view.cursor), Some("src/auth/client.rs"));
}

#[test]
fn a_reason_without_a_changed_file_opens_nothing() {
    let mut state = finished();
    state.axes = vec![Axis {
        name: "apiContract".into(),
        verdict: AxisVerdict::Unavailable,
        gated: true,
        detail: "no parser for /etc/passwd: `x` removed".into(),
    }];
    let reason = reason_row(&state);
    assert_eq!(reason.key, "axis:apiContract");
    assert_eq!(reason.decision, Decision::Hold);
    assert!(reason.breaks.is_empty(), "{:?}", reason.breaks);
    state.findings.selected = Some(RowKey::Reason(reason.key));
    apply(&mut state, [Action::Command(Command::OpenDiff)]);
    assert!(state.overlays.is_empty(), "{:?}", state.overlays);
    let said = state.message.as_ref().unwrap().text.clone();
    assert!(said.contains("names no changed file"), "{said}");
}

#[test]
fn snapshot_a_failed_gated_axis_as_the_first_row_and_its_detail() {
    use crate::ui::keymap::Keymap;
    use crate::ui::theme::Theme;
    use crate::ui::view::{self, ViewContext};
    use ratatui::{Terminal, backend::TestBackend};
    for (width, height) in [(80, 24), (120, 40)] {
        let mut state = finished();
        api_failed(&mut state);
        state.findings.selected = Some(RowKey::Reason("axis:apiContract".into()));
        let cx = ViewContext::new(Theme::builtin("dark").unwrap(), Keymap::default());
        let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
        for _ in 0..2 {
            let mut layout = None;
            terminal
                .draw(|frame| layout = Some(view::draw(frame, &state, &cx)))
                .unwrap();
            state.layout = layout.unwrap();
        }
        insta::assert_snapshot!(format!("reason_row_{width}x{height}"), terminal.backend());
    }
}

#[test]
fn the_reason_row_is_reached_by_moving_up_and_triage_keys_do_not_act_on_it() {
    let mut state = finished();
    api_failed(&mut state);
    state.focus = Pane::Findings;
    let first = rows::rows(&state)
        .iter()
        .find_map(|r| match r {
            Row::Node { id, .. } => Some(id.clone()),
            _ => None,
        })
        .unwrap();
    select(&mut state, &first);
    apply(
        &mut state,
        [
            Action::Command(Command::MoveUp),
            Action::Command(Command::MoveUp),
        ],
    );
    assert_eq!(
        state.findings.selected,
        Some(RowKey::Reason("axis:apiContract".into()))
    );
    // `x` on the reason asks why to override the axis: no finding changes.
    let statuses: Vec<_> = state.board.nodes.iter().map(|n| n.status).collect();
    apply(&mut state, [Action::Command(Command::Dismiss)]);
    assert!(
        matches!(state.top_overlay(), Some(Overlay::Input(i)) if i.purpose == InputPurpose::OverrideAxis { axis: "apiContract".into() }),
        "{:?}",
        state.overlays
    );
    let after: Vec<_> = state.board.nodes.iter().map(|n| n.status).collect();
    assert_eq!(statuses, after);
}

fn typed(text: &str) -> Vec<Action> {
    use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
    text.chars()
        .map(|c| {
            Action::Text(ratatui_textarea::Input::from(KeyEvent::new(
                KeyCode::Char(c),
                KeyModifiers::NONE,
            )))
        })
        .collect()
}

/// `x` on the axis's reason row: a required reason, an override bound to the axis's result,
/// the person's decision beside the code's, one undo step; a changed result is not overridden.
#[test]
fn x_on_an_axis_reason_overrides_it_with_a_required_reason_and_undo_takes_it_back() {
    let mut state = finished();
    for node in &mut state.board.nodes {
        node.status = crate::review::Status::Dismissed;
    }
    api_failed(&mut state);
    state.refresh_verdict();
    assert_eq!(state.verdict.as_ref().unwrap().decision, Decision::Block);
    state.focus = Pane::Findings;
    state.findings.selected = Some(RowKey::Reason("axis:apiContract".into()));
    apply(&mut state, [Action::Command(Command::Dismiss)]);
    // A blank reason is refused, the box stays.
    let effects = apply(&mut state, typed("  ").into_iter().chain([Action::Submit]));
    assert_eq!(effects, vec![]);
    assert!(
        matches!(state.top_overlay(), Some(Overlay::Input(i)) if i.error.as_deref() == Some("a reason is required to override"))
    );
    assert!(state.axis_overrides.is_empty());

    let effects = apply(
        &mut state,
        typed("the break is intended")
            .into_iter()
            .chain([Action::Submit]),
    );
    assert!(state.overlays.is_empty());
    let made = match effects.as_slice() {
        [
            Effect::OverrideAxis {
                axis,
                over: Some(o),
            },
        ] if axis == "apiContract" => o.clone(),
        other => panic!("unexpected effects {other:?}"),
    };
    assert_eq!(made.by, state.person);
    assert_eq!(made.reason, "the break is intended");
    assert_eq!(state.axis_overrides, vec![made.clone()]);
    // The code still blocks; the person's decision beside it is what the rest decides (here
    // Inconclusive: a required reviewer failed, and the override does not clear that).
    assert_eq!(state.verdict.as_ref().unwrap().decision, Decision::Block);
    let person = state.persons_decision().expect("a person's decision");
    assert_eq!(person.decision, Decision::Inconclusive);
    assert!(
        reason_row(&state)
            .summary
            .ends_with(&format!("overridden by {}: the break is intended", made.by)),
        "{}",
        reason_row(&state).summary
    );

    // One undo step takes it back, redo makes it again.
    let effects = apply(&mut state, [Action::Command(Command::Undo)]);
    assert_eq!(
        effects,
        vec![Effect::OverrideAxis {
            axis: "apiContract".into(),
            over: None
        }]
    );
    assert!(state.axis_overrides.is_empty());
    assert_eq!(state.persons_decision(), None);
    apply(&mut state, [Action::Command(Command::Redo)]);
    assert_eq!(state.axis_overrides, vec![made]);

    // A round whose axis result differs is not overridden, and the row says so.
    state.axes[0]
        .detail
        .push_str("; src/auth/client.rs: `other` removed");
    state.refresh_verdict();
    assert_eq!(state.persons_decision(), None);
    assert!(
        reason_row(&state)
            .summary
            .ends_with("override no longer applies (the result changed)"),
        "{}",
        reason_row(&state).summary
    );
}
