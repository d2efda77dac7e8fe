//! `update` fed with actions and engine events; the state and the effects are checked.

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui_textarea::Input;

use super::fixtures::*;
use crate::review::Change;
use crate::review::Level;
use crate::review::{Actor, Priority, Status};
use crate::review::{EventKind, ReviewEvent, RunId};
use crate::space::Ladder;
use crate::ui::action::{Action, Command, Report};
use crate::ui::rows::{self, Row, Unfold};
use crate::ui::state::{InputPurpose, Overlay, Pane, PatchData, PreviewData, RowKey};
use crate::ui::update::{Effect, update};

fn typed(text: &str) -> Vec<Action> {
    text.chars()
        .map(|c| {
            Action::Text(Input::from(KeyEvent::new(
                KeyCode::Char(c),
                KeyModifiers::NONE,
            )))
        })
        .collect()
}

fn node_ids(rows: &[Row]) -> Vec<String> {
    rows.iter()
        .filter_map(|r| match r {
            Row::Node { id, .. } => Some(id.clone()),
            _ => None,
        })
        .collect()
}

#[test]
fn selection_stays_on_the_same_node_when_new_nodes_stream_in_above_it() {
    let mut state = streaming();
    select(&mut state, "n6");
    let before = rows::position(&rows::rows(&state), &RowKey::Node("n6".into())).unwrap();
    // A P0 in the same (other) group sorts above n6, and a new cohort group appears above too.
    apply(
        &mut state,
        [
            added(node(NodeSpec {
                id: "n9",
                reviewer: "qa",
                priority: Priority::P0,
                anchor: None,
                title: "panics on an empty token",
                ..NodeSpec::default()
            })),
            added(node(NodeSpec {
                id: "n10",
                reviewer: "qa",
                priority: Priority::P0,
                anchor: Some(("src/auth/client.rs", 1, 2)),
                title: "client ignores the refreshed token",
                ..NodeSpec::default()
            })),
        ],
    );
    let rows = rows::rows(&state);
    let after = rows::position(&rows, &RowKey::Node("n6".into())).unwrap();
    assert_eq!(state.findings.selected, Some(RowKey::Node("n6".into())));
    assert!(after > before, "n6 moved down from {before} to {after}");
    // Moving is relative to where n6 is now: the new P0 right above it.
    assert_eq!(update(&mut state, Action::Command(Command::MoveUp)), vec![]);
    assert_eq!(state.findings.selected, Some(RowKey::Node("n9".into())));
}

#[test]
fn the_first_finding_is_selected_when_nothing_is() {
    let mut state = loading();
    assert_eq!(state.findings.selected, None);
    apply(
        &mut state,
        [
            Action::Engine(Report::RunStarted {
                run: RUN,
                round: 1,
                reviewers: vec![("engineer".into(), true)],
                deterministic_only: false,
            }),
            added(node(NodeSpec {
                id: "a",
                ..NodeSpec::default()
            })),
        ],
    );
    assert_eq!(state.findings.selected, Some(RowKey::Node("a".into())));
}

/// The session's verdict and the cockpit's read the same run: a run asked for without model
/// reviewers skips them, and that is no reason to call the change inconclusive (the headless
/// report of the same run says Ship). A run that merely lacks them is.
#[test]
fn a_deterministic_only_run_is_not_inconclusive_for_the_reviewers_it_skipped() {
    let run_with = |deterministic_only: bool| {
        let mut state = loading();
        let mut skipped = crate::review::Board::default();
        skipped.skip(
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
                    deterministic_only,
                }),
                Action::Engine(Report::Reviewers(skipped.reviewers.into_values().collect())),
                Action::Engine(Report::Findings(Vec::new())),
            ],
        );
        state
            .verdict
            .expect("a verdict once the reviewers are known")
    };
    let asked = run_with(true);
    assert_eq!(asked.decision, crate::review::Decision::Ship, "{asked:?}");
    assert!(
        asked
            .reasons
            .iter()
            .any(|r| r.contains("deterministic-only")),
        "{asked:?}"
    );
    let lacking = run_with(false);
    assert_eq!(
        lacking.decision,
        crate::review::Decision::Inconclusive,
        "{lacking:?}"
    );
}

#[test]
fn confirm_as_the_person_moves_open_to_consensus_ready_and_asks_to_persist() {
    let mut state = finished();
    select(&mut state, "n1");
    assert_eq!(state.node("n1").unwrap().status, Status::Open);
    let effects = update(&mut state, Action::Command(Command::Confirm));
    let node = state.node("n1").unwrap();
    assert_eq!(node.status, Status::ConsensusReady);
    assert_eq!(node.confirmations[0].by, Actor::Person("alice".into()));
    assert_eq!(node.history[0].at, NOW);
    match effects.as_slice() {
        [
            Effect::PersistStatus {
                node_id,
                change: Change::Confirm { .. },
                node,
                suppression: None,
            },
        ] => {
            assert_eq!(node_id, "n1");
            assert_eq!(node.status, Status::ConsensusReady);
        }
        other => panic!("unexpected effects {other:?}"),
    }
    assert!(
        state
            .message
            .as_ref()
            .unwrap()
            .text
            .contains("open → consensus_ready")
    );
}

#[test]
fn a_refused_change_is_a_message_and_no_effect() {
    let mut state = finished();
    select(&mut state, "n1");
    // Reopening an open finding (that the person did not confirm) has nothing to take back.
    assert_eq!(update(&mut state, Action::Command(Command::Reopen)), vec![]);
    assert!(
        state
            .message
            .as_ref()
            .unwrap()
            .text
            .contains("is open: nothing to reopen")
    );
}

#[test]
fn dismiss_requires_a_reason() {
    let mut state = finished();
    select(&mut state, "n1");
    assert_eq!(
        update(&mut state, Action::Command(Command::Dismiss)),
        vec![]
    );
    assert!(matches!(
        state.top_overlay(),
        Some(Overlay::Input(input)) if input.purpose == InputPurpose::Dismiss { node_ids: vec!["n1".into()] }
    ));
    // Blank reasons are refused: the box stays open, nothing changes.
    let mut effects = apply(&mut state, typed("   "));
    effects.extend(update(&mut state, Action::Submit));
    assert_eq!(effects, vec![]);
    match state.top_overlay() {
        Some(Overlay::Input(input)) => {
            assert_eq!(
                input.error.as_deref(),
                Some("a reason is required to dismiss")
            )
        }
        other => panic!("the box closed: {other:?}"),
    }
    assert_eq!(state.node("n1").unwrap().status, Status::Open);

    apply(&mut state, typed("covered by #41"));
    let effects = update(&mut state, Action::Submit);
    assert!(state.overlays.is_empty());
    assert_eq!(state.node("n1").unwrap().status, Status::Dismissed);
    match effects.as_slice() {
        [
            Effect::PersistStatus {
                change: Change::Dismiss { reason },
                ..
            },
        ] => assert_eq!(reason, "covered by #41"),
        other => panic!("unexpected effects {other:?}"),
    }
}

#[test]
fn cancelling_a_dismissal_changes_nothing() {
    let mut state = finished();
    select(&mut state, "n1");
    apply(&mut state, [Action::Command(Command::Dismiss)]);
    apply(&mut state, typed("nah"));
    assert_eq!(update(&mut state, Action::Cancel), vec![]);
    assert!(state.overlays.is_empty());
    assert_eq!(state.node("n1").unwrap().status, Status::Open);
}

#[test]
fn resolve_and_reopen_round_trip_through_the_status_service() {
    let mut state = finished();
    select(&mut state, "n6");
    // n6 was confirmed by qa: consensus ready.
    assert_eq!(state.node("n6").unwrap().status, Status::ConsensusReady);
    apply(&mut state, [Action::Command(Command::Resolve)]);
    assert_eq!(state.node("n6").unwrap().status, Status::Resolved);
    // The cursor went on to the next open finding; back to n6.
    assert_ne!(state.findings.selected, Some(RowKey::Node("n6".into())));
    select(&mut state, "n6");
    let effects = update(&mut state, Action::Command(Command::Reopen));
    assert_eq!(state.node("n6").unwrap().status, Status::ConsensusReady);
    assert!(matches!(
        effects.as_slice(),
        [Effect::PersistStatus {
            change: Change::Reopen,
            ..
        }]
    ));
}

#[test]
fn a_level_change_moves_findings_between_main_and_below_threshold_without_deleting() {
    let mut state = finished();
    let all_before = node_ids(&rows::build(&state, Unfold::All));
    let below = |state: &crate::ui::state::AppState| -> Vec<String> {
        rows::build(state, Unfold::All)
            .into_iter()
            .filter_map(|r| match r {
                Row::Node {
                    id,
                    below: true,
                    duplicate: false,
                    ..
                } => Some(id),
                _ => None,
            })
            .collect()
    };
    assert_eq!(state.level, Level::Balanced);
    assert_eq!(below(&state), vec!["n5"]);

    let effects = update(&mut state, Action::Command(Command::CycleLevel));
    assert_eq!(effects, vec![Effect::SetLevel(Level::Thorough)]);
    assert!(below(&state).is_empty());

    update(&mut state, Action::Command(Command::CycleLevel));
    assert_eq!(state.level, Level::Light);
    let mut light = below(&state);
    light.sort();
    // Light keeps P0/P1 at confidence ≥ 0.8: the P1 at 0.75, the P2 and the P3 move down.
    assert_eq!(light, vec!["n2", "n5", "n6"]);

    let mut all_after = node_ids(&rows::build(&state, Unfold::All));
    let mut all_before = all_before;
    all_before.sort();
    all_after.sort();
    assert_eq!(all_before, all_after, "no level drops a finding");
    assert_eq!(state.board.nodes.len(), 6);
}

#[test]
fn a_selected_finding_folded_below_threshold_selects_its_fold() {
    let mut state = finished();
    select(&mut state, "n2");
    apply(
        &mut state,
        [
            Action::Command(Command::CycleLevel),
            Action::Command(Command::CycleLevel),
        ],
    ); // → light
    assert_eq!(
        state.findings.selected,
        Some(RowKey::Below("c-auth".into()))
    );
    apply(&mut state, [Action::Command(Command::Expand)]);
    assert!(
        rows::rows(&state)
            .iter()
            .any(|r| matches!(r, Row::Node { id, below: true, .. } if id == "n2"))
    );
}

#[test]
fn the_gate_opens_only_when_awaiting_approval() {
    let mut state = streaming();
    assert_eq!(state.ladder, Ladder::InProgress);
    assert_eq!(
        update(&mut state, Action::Command(Command::OpenGate)),
        vec![]
    );
    assert!(state.overlays.is_empty());
    assert!(
        state
            .message
            .as_ref()
            .unwrap()
            .text
            .contains("awaiting approval")
    );

    let mut state = finished();
    update(&mut state, Action::Command(Command::OpenGate));
    assert!(matches!(
        state.top_overlay(),
        Some(Overlay::Gate {
            details: false,
            scroll: 0
        })
    ));
    // The ladder moving on closes it.
    update(
        &mut state,
        Action::Engine(Report::Ladder(Ladder::Completed)),
    );
    assert!(state.overlays.is_empty());
}

#[test]
fn publishing_goes_through_the_preview_and_a_confirmation() {
    let mut state = finished();
    apply(&mut state, [Action::Command(Command::OpenGate)]);
    assert_eq!(
        update(&mut state, Action::Command(Command::GatePublish)),
        vec![Effect::PreviewPublish]
    );
    assert!(matches!(state.top_overlay(), Some(Overlay::PreviewPending)));
    let preview = PreviewData {
        event: "REQUEST_CHANGES".into(),
        inline_comments: 3,
        listed_in_body: 5,
        local: false,
        moved_to_body: vec![],
        already_raised: Vec::new(),
        body: "> [!CAUTION]\n> Block".into(),
        target: "github review on acme/payments#42".into(),
    };
    update(
        &mut state,
        Action::Engine(Report::PublishPreview(preview.clone())),
    );
    assert!(matches!(state.top_overlay(), Some(Overlay::Preview { data, .. }) if *data == preview));
    // Cancel: back at the gate, nothing published.
    assert_eq!(
        update(&mut state, Action::Command(Command::PublishCancel)),
        vec![]
    );
    assert!(matches!(state.top_overlay(), Some(Overlay::Gate { .. })));
    // Again, and confirm.
    update(&mut state, Action::Command(Command::GatePublish));
    update(&mut state, Action::Engine(Report::PublishPreview(preview)));
    assert_eq!(
        update(&mut state, Action::Command(Command::PublishConfirm)),
        vec![Effect::Publish]
    );
    assert!(state.overlays.is_empty());
}

#[test]
fn a_late_preview_after_cancelling_is_ignored() {
    let mut state = finished();
    apply(
        &mut state,
        [
            Action::Command(Command::OpenGate),
            Action::Command(Command::GatePublish),
            Action::Command(Command::PublishCancel),
        ],
    );
    update(
        &mut state,
        Action::Engine(Report::PublishPreview(PreviewData::default())),
    );
    assert!(matches!(state.top_overlay(), Some(Overlay::Gate { .. })));
}

#[test]
fn gate_fix_sends_the_findings_with_replacement_lines() {
    let mut state = finished();
    apply(&mut state, [Action::Command(Command::OpenGate)]);
    assert_eq!(
        update(&mut state, Action::Command(Command::GateFix)),
        vec![Effect::WritePatch {
            node_ids: vec!["n1".into()]
        }]
    );
}

#[test]
fn a_refused_fix_is_one_message_the_error_and_no_status_line_says_otherwise() {
    let mut state = finished();
    apply(
        &mut state,
        [
            Action::Command(Command::OpenGate),
            Action::Command(Command::GateFix),
        ],
    );
    let asked = state.message.as_ref().unwrap().text.clone();
    assert!(asked.contains("nothing is marked"), "{asked}");
    assert!(!asked.contains("sent"), "{asked}");
    apply(
        &mut state,
        [Action::Engine(Report::EngineError {
            title: "No patch written".into(),
            message: "none of the 1 finding(s) asked for carries exact replacement lines".into(),
        })],
    );
    assert!(state.message.is_none(), "{:?}", state.message);
    assert!(matches!(state.top_overlay(), Some(Overlay::Error { .. })));
}

#[test]
fn z_zooms_the_detail_and_z_esc_or_another_pane_go_back() {
    let mut state = finished();
    apply(&mut state, [Action::Command(Command::ZoomDetail)]);
    assert!(state.detail.zoomed);
    assert_eq!(state.focus, Pane::Detail);
    apply(&mut state, [Action::Command(Command::ZoomDetail)]);
    assert!(!state.detail.zoomed);
    apply(
        &mut state,
        [
            Action::Command(Command::ZoomDetail),
            Action::Command(Command::Close),
        ],
    );
    assert!(!state.detail.zoomed, "esc goes back");
    apply(
        &mut state,
        [
            Action::Command(Command::ZoomDetail),
            Action::Command(Command::FocusReviewers),
        ],
    );
    assert!(!state.detail.zoomed, "another pane must be on screen");
    assert_eq!(state.focus, Pane::Reviewers);
}

#[test]
fn a_written_patch_is_announced_and_shown_by_v_scrolling_to_its_end() {
    let mut state = finished();
    apply(&mut state, [Action::Command(Command::ViewPatch)]);
    assert!(state.overlays.is_empty(), "no patch yet: nothing to show");
    assert!(
        state
            .message
            .as_ref()
            .unwrap()
            .text
            .contains("nothing to show yet")
    );
    apply(
        &mut state,
        [Action::Engine(Report::PatchWritten {
            patch: PatchData {
                path: "/space/fixes/round-1.patch".into(),
                text: "diff --git a/x b/x\n".into(),
                answers: false,
            },
            summary: "patch for 1 finding(s) written to /space/fixes/round-1.patch".into(),
        })],
    );
    let said = &state.message.as_ref().unwrap().text;
    assert!(
        said.contains("round-1.patch") && said.contains("v shows it"),
        "{said}"
    );
    apply(
        &mut state,
        [
            Action::Command(Command::OpenGate),
            Action::Command(Command::ViewPatch),
        ],
    );
    assert!(matches!(
        state.top_overlay(),
        Some(Overlay::Patch { scroll: 0 })
    ));
    state.layout.overlay_scroll_max = 3;
    apply(
        &mut state,
        [
            Action::Command(Command::Bottom),
            Action::Command(Command::MoveDown),
        ],
    );
    assert!(matches!(
        state.top_overlay(),
        Some(Overlay::Patch { scroll: 3 })
    ));
    apply(&mut state, [Action::Command(Command::Close)]);
    assert!(matches!(state.top_overlay(), Some(Overlay::Gate { .. })));
}

#[test]
fn gate_ignore_dismisses_the_marked_findings_with_one_reason() {
    let mut state = finished();
    select(&mut state, "n2");
    apply(&mut state, [Action::Command(Command::ToggleMark)]);
    select(&mut state, "n5");
    apply(&mut state, [Action::Command(Command::OpenGate)]);
    // n5 is folded below threshold; mark it via the state directly.
    state.findings.marked.insert("n5".into());
    apply(&mut state, [Action::Command(Command::GateIgnore)]);
    apply(&mut state, typed("out of scope for this PR"));
    let effects = update(&mut state, Action::Submit);
    assert_eq!(effects.len(), 2);
    assert_eq!(state.node("n2").unwrap().status, Status::Dismissed);
    assert_eq!(state.node("n5").unwrap().status, Status::Dismissed);
    assert!(state.findings.marked.is_empty());
    assert!(matches!(state.top_overlay(), Some(Overlay::Gate { .. })));
}

#[test]
fn gate_abort_leaves_the_gate_not_the_cockpit() {
    let mut state = finished();
    apply(&mut state, [Action::Command(Command::OpenGate)]);
    assert_eq!(
        update(&mut state, Action::Command(Command::GateAbort)),
        vec![]
    );
    assert!(!state.quit);
    assert!(state.overlays.is_empty());
    let message = state.message.as_ref().unwrap();
    assert!(
        message.text.contains("nothing was published"),
        "{message:?}"
    );
}

#[test]
fn the_filter_narrows_by_reviewer_priority_and_words_and_esc_restores() {
    let mut state = finished();
    let visible = |state: &crate::ui::state::AppState| node_ids(&rows::build(state, Unfold::All));

    apply(&mut state, [Action::Command(Command::Filter)]);
    apply(&mut state, typed("@qa"));
    // Live: qa found n2 and confirmed n6.
    assert_eq!(state.findings.filter, "@qa");
    let mut ids = visible(&state);
    ids.sort();
    assert_eq!(ids, vec!["n2", "n6"]);
    apply(&mut state, [Action::Submit]);
    assert!(state.overlays.is_empty());

    apply(&mut state, [Action::Command(Command::Filter)]);
    apply(&mut state, typed(" p0"));
    assert!(visible(&state).is_empty(), "qa found no P0");
    apply(&mut state, [Action::Cancel]);
    assert_eq!(state.findings.filter, "@qa", "esc restores the filter");

    apply(&mut state, [Action::Command(Command::Close)]);
    assert_eq!(state.findings.filter, "");
    state.findings.filter = "p0".into();
    let mut ids = visible(&state);
    ids.sort();
    assert_eq!(ids, vec!["n1", "n3", "n4"]);
    state.findings.filter = "jitter".into();
    assert_eq!(visible(&state), vec!["n6"]);
}

#[test]
fn duplicates_fold_under_their_problem_and_unfold_on_enter() {
    let mut state = finished();
    let rows_now = rows::rows(&state);
    let secret = rows_now
        .iter()
        .find_map(|r| match r {
            Row::Node {
                id,
                duplicates: 1,
                found_by,
                ..
            } => Some((id.clone(), found_by.clone())),
            _ => None,
        })
        .expect("the two secret findings are one problem");
    assert_eq!(secret.0, "n3");
    assert_eq!(secret.1, vec!["rules", "secret scan"]);
    assert!(!node_ids(&rows_now).contains(&"n4".to_string()));
    select(&mut state, "n3");
    apply(&mut state, [Action::Command(Command::Expand)]);
    assert!(node_ids(&rows::rows(&state)).contains(&"n4".to_string()));
}

#[test]
fn next_finding_unfolds_a_collapsed_cohort() {
    let mut state = finished();
    state.findings.selected = Some(RowKey::Cohort("c-auth".into()));
    apply(&mut state, [Action::Command(Command::Expand)]);
    assert!(state.findings.collapsed.contains("c-auth"));
    apply(&mut state, [Action::Command(Command::NextFinding)]);
    assert!(!state.findings.collapsed.contains("c-auth"));
    assert!(matches!(state.findings.selected, Some(RowKey::Node(_))));
    // N walks back to the first open finding, then wraps around to the last and says so.
    let first = state.findings.selected.clone();
    let mut wrapped = false;
    for _ in 0..10 {
        apply(&mut state, [Action::Command(Command::PrevFinding)]);
        if state
            .message
            .as_ref()
            .is_some_and(|m| m.text == "wrapped to the last open finding")
        {
            wrapped = true;
            break;
        }
    }
    assert!(wrapped);
    assert_ne!(state.findings.selected, first);
}

#[test]
fn engine_events_from_another_run_are_dropped_and_stances_are_persisted() {
    let mut state = finished();
    let stale = Action::Engine(Report::Event(ReviewEvent::new(
        RunId(6),
        "qa",
        EventKind::NodeAdded {
            node: Box::new(node(NodeSpec {
                id: "old",
                ..NodeSpec::default()
            })),
        },
    )));
    assert_eq!(update(&mut state, stale), vec![]);
    assert!(state.node("old").is_none());
    let effects = update(
        &mut state,
        event(
            "qa",
            EventKind::Stance {
                node_id: "n1".into(),
                confirm: true,
                note: "reproduced".into(),
            },
        ),
    );
    assert!(
        matches!(effects.as_slice(), [Effect::PersistNode(node)] if node.id == "n1" && node.status == Status::ConsensusReady)
    );
}

#[test]
fn the_verdict_is_recomputed_from_the_board() {
    let mut state = finished();
    let verdict = state.verdict.clone().unwrap();
    // Architect (required) failed: never Ship; the P0 blocks.
    assert_eq!(verdict.decision, crate::review::Decision::Block);
    select(&mut state, "n1");
    apply(&mut state, [Action::Command(Command::Dismiss)]);
    apply(&mut state, typed("fixed in the next push"));
    apply(&mut state, [Action::Submit]);
    select(&mut state, "n3");
    apply(&mut state, [Action::Command(Command::Resolve)]);
    // Resolving the problem resolves the scanner's copy folded under it: the same secret.
    assert_eq!(state.node("n4").unwrap().status, Status::Resolved);
    let after = state.verdict.clone().unwrap();
    assert_eq!(after.counts.dismissed, 1);
    assert_eq!((after.counts.p0, after.counts.resolved), (0, 2));
    assert_eq!(after.decision, crate::review::Decision::Inconclusive);
}

#[test]
fn editing_the_comment_saves_it_and_an_empty_text_restores_the_generated_one() {
    let mut state = finished();
    select(&mut state, "n1");
    apply(&mut state, [Action::Command(Command::EditComment)]);
    // The editor opens at the top of the text, not scrolled to its end.
    apply(&mut state, typed("Please check expiry first. "));
    let effects = update(&mut state, Action::Submit);
    let text = state.comments.get("n1").cloned().unwrap();
    assert!(
        text.starts_with("Please check expiry first. Expired token"),
        "{text}"
    );
    assert_eq!(
        effects,
        vec![Effect::SaveComment {
            node_id: "n1".into(),
            text: Some(text),
        }]
    );
}

#[test]
fn tab_cycles_the_panes_including_disagreements_when_there_are_some() {
    let mut state = finished();
    let mut seen = vec![state.focus];
    for _ in 0..4 {
        apply(&mut state, [Action::Command(Command::NextPane)]);
        seen.push(state.focus);
    }
    assert_eq!(
        seen,
        vec![
            Pane::Findings,
            Pane::Detail,
            Pane::Reviewers,
            Pane::Disagreements,
            Pane::Findings
        ]
    );
    let mut state = streaming();
    apply(&mut state, [Action::Command(Command::PrevPane)]);
    assert_eq!(state.focus, Pane::Reviewers);
}

#[test]
fn enter_on_a_disagreement_jumps_to_one_side_then_the_other() {
    let mut state = finished();
    select(&mut state, "n6");
    state.focus = Pane::Disagreements;
    apply(
        &mut state,
        [
            Action::Command(Command::MoveDown),
            Action::Command(Command::Expand),
        ],
    );
    assert_eq!(state.findings.selected, Some(RowKey::Node("n1".into())));
    apply(&mut state, [Action::Command(Command::Expand)]);
    assert_eq!(state.findings.selected, Some(RowKey::Node("n2".into())));
}

#[test]
fn engine_errors_replace_a_pending_preview_with_an_error_overlay() {
    let mut state = finished();
    apply(
        &mut state,
        [
            Action::Command(Command::OpenGate),
            Action::Command(Command::GatePublish),
        ],
    );
    update(
        &mut state,
        Action::Engine(Report::EngineError {
            title: "Preview failed".into(),
            message: "the PR head moved".into(),
        }),
    );
    assert!(matches!(state.top_overlay(), Some(Overlay::Error { .. })));
    apply(&mut state, [Action::Command(Command::Close)]);
    assert!(matches!(state.top_overlay(), Some(Overlay::Gate { .. })));
}

#[test]
fn a_message_stays_until_the_next_key() {
    let mut state = streaming();
    apply(&mut state, [Action::Command(Command::OpenGate)]);
    assert!(state.message.is_some());
    // Time alone does not take it away: a long message is read whole.
    apply(&mut state, (0..100).map(|_| Action::Tick));
    assert!(state.message.is_some());
    apply(&mut state, [Action::Command(Command::MoveDown)]);
    assert!(state.message.is_none());
}

#[test]
fn navigation_reads_the_derived_board_and_only_a_board_change_recomputes_it() {
    let mut state = finished();
    assert!(!state.disagreements().is_empty());
    // Markers no recomputation would keep: a problem of an unknown node (no row shows it) and
    // no disagreements.
    let (problems, disagreements) = state.derived_mut();
    problems.push(crate::review::Problem {
        primary: "marker".into(),
        members: vec!["marker".into()],
        found_by: Vec::new(),
        evidence: Vec::new(),
    });
    disagreements.clear();
    select(&mut state, "n1");
    apply(
        &mut state,
        [
            Action::Command(Command::MoveDown),
            Action::Command(Command::MoveUp),
            Action::Command(Command::PageDown),
            Action::Command(Command::NextFinding),
            Action::Command(Command::PrevFinding),
            Action::Command(Command::Expand),
            Action::Command(Command::Top),
            Action::Command(Command::NextPane),
            Action::Tick,
        ],
    );
    assert_eq!(state.problems().last().unwrap().primary, "marker");
    assert!(state.disagreements().is_empty());

    select(&mut state, "n2");
    state.focus = Pane::Findings;
    apply(&mut state, [Action::Command(Command::Resolve)]);
    assert_eq!(
        state.problems(),
        crate::review::consolidate(&state.board.nodes)
    );
    assert_eq!(
        state.disagreements(),
        crate::review::disagreements(&state.board.nodes)
    );
}

#[test]
fn after_each_triage_change_the_derived_board_is_what_a_fresh_computation_gives() {
    let mut state = finished();
    let steps: [(&str, Vec<Action>); 5] = [
        ("n2", vec![Action::Command(Command::Confirm)]),
        ("n3", vec![Action::Command(Command::Resolve)]),
        ("n3", vec![Action::Command(Command::Reopen)]),
        ("n6", vec![Action::Command(Command::Confirm)]),
        (
            "n1",
            [
                vec![Action::Command(Command::Dismiss)],
                typed("not a bug"),
                vec![Action::Submit],
            ]
            .concat(),
        ),
    ];
    for (id, actions) in steps {
        select(&mut state, id);
        state.focus = Pane::Findings;
        let effects = apply(&mut state, actions);
        assert!(!effects.is_empty(), "{id}: the change was applied");
        let nodes = &state.board.nodes;
        assert_eq!(state.problems(), crate::review::consolidate(nodes), "{id}");
        assert_eq!(
            state.disagreements(),
            crate::review::disagreements(nodes),
            "{id}"
        );
        for node in nodes {
            assert_eq!(state.node(&node.id).map(|n| &n.id), Some(&node.id));
        }
        let mut fresh = state.clone();
        crate::ui::update::refresh(&mut fresh);
        assert_eq!(fresh.verdict, state.verdict, "{id}");
        assert_eq!(
            fresh.board.nodes, state.board.nodes,
            "{id}: duplicate marks"
        );
    }
}

#[test]
fn an_unbound_key_says_so_and_changes_nothing() {
    let mut state = finished();
    let before = state.findings.selected.clone();
    assert_eq!(update(&mut state, Action::UnknownKey("z".into())), vec![]);
    assert_eq!(state.findings.selected, before);
    let text = &state.message.as_ref().unwrap().text;
    assert!(text.contains("z does nothing here"), "{text}");
}

#[test]
fn number_keys_focus_panes_and_list_panes_arrive_with_a_selection() {
    let mut state = finished();
    apply(&mut state, [Action::Command(Command::FocusReviewers)]);
    assert_eq!(state.focus, Pane::Reviewers);
    assert_eq!(state.reviewers.selected.as_deref(), Some("engineer"));
    apply(&mut state, [Action::Command(Command::FocusDisagreements)]);
    assert_eq!(state.focus, Pane::Disagreements);
    assert!(state.disagreements.selected.is_some());
    // The first enter already acts: it jumps to one side of the disagreement.
    let (a, b) = state.disagreements.selected.clone().unwrap();
    apply(&mut state, [Action::Command(Command::Expand)]);
    assert!(
        state.findings.selected == Some(RowKey::Node(a.clone()))
            || state.findings.selected == Some(RowKey::Node(b)),
        "{:?}",
        state.findings.selected
    );
    apply(&mut state, [Action::Command(Command::FocusDetail)]);
    assert_eq!(state.focus, Pane::Detail);
    apply(&mut state, [Action::Command(Command::FocusFindings)]);
    assert_eq!(state.focus, Pane::Findings);
}

#[test]
fn the_editor_is_asked_for_and_its_text_saved_when_it_closes() {
    use crate::ui::state::TerminalJob;
    let mut state = finished();
    select(&mut state, "n1");
    apply(&mut state, [Action::Command(Command::EditInEditor)]);
    // The person's editor opens on the comment as it stands.
    assert!(state.overlays.is_empty());
    let Some(TerminalJob::Editor { node_id, text }) = state.terminal_jobs.pop() else {
        panic!("no editor job: {:?}", state.terminal_jobs);
    };
    assert_eq!(node_id, "n1");
    assert!(text.starts_with("Expired token is reused"), "{text}");
    let effects = update(
        &mut state,
        Action::EditorClosed {
            node_id: "n1".into(),
            text: Ok("Written in vi.".into()),
        },
    );
    assert_eq!(
        effects,
        vec![Effect::SaveComment {
            node_id: "n1".into(),
            text: Some("Written in vi.".into()),
        }]
    );
    // An editor that left the file empty changes nothing.
    let effects = update(
        &mut state,
        Action::EditorClosed {
            node_id: "n1".into(),
            text: Ok("  \n".into()),
        },
    );
    assert!(effects.is_empty());
    assert_eq!(state.comments["n1"], "Written in vi.");
}

/// Every multi-line box (a comment, a question, the person's own finding) hands what was
/// typed to the editor and comes back with what the editor left; an editor that fails or is
/// not set loses nothing typed.
#[test]
fn a_text_box_goes_to_the_editor_and_comes_back_with_its_text() {
    use crate::ui::editor::EditorError;
    use crate::ui::state::TerminalJob;
    let mut state = finished();
    select(&mut state, "n1");
    for open in [Command::EditComment, Command::Ask, Command::AddComment] {
        apply(&mut state, [Action::Command(open)]);
        let Some(Overlay::Input(input)) = state.top_overlay() else {
            panic!("{open:?} opened no box");
        };
        let purpose = input.purpose.clone();
        type_text(&mut state, "typed");
        apply(&mut state, [Action::Command(Command::EditInEditor)]);
        assert!(state.overlays.is_empty(), "{open:?}: the box stays open");
        let Some(TerminalJob::EditBox(edited)) = state.terminal_jobs.pop() else {
            panic!("{open:?}: no editor job: {:?}", state.terminal_jobs);
        };
        assert_eq!(edited.purpose, purpose);
        assert!(edited.typed.contains("typed"), "{}", edited.typed);
        // The editor fails, or none is set: the box is back with what was typed.
        for why in [
            EditorError::NoEditor,
            EditorError::CommentUnchanged {
                editor: "vi".into(),
                status: "exit status: 1".into(),
            },
        ] {
            let effects = update(
                &mut state,
                Action::BoxEdited {
                    edited: edited.clone(),
                    text: Err(why.clone()),
                },
            );
            assert!(effects.is_empty());
            let Some(Overlay::Input(input)) = state.top_overlay() else {
                panic!("the box is gone after {why}");
            };
            assert_eq!(input.text(), edited.typed);
            assert!(input.error.as_deref().unwrap().contains(&why.to_string()));
            state.overlays.pop();
        }
        // The editor wrote: the box is back with its text, sent only when the person says.
        let effects = update(
            &mut state,
            Action::BoxEdited {
                edited: edited.clone(),
                text: Ok("P1 bug: from the editor\nsecond line".into()),
            },
        );
        assert!(effects.is_empty());
        let Some(Overlay::Input(input)) = state.top_overlay() else {
            panic!("the box is not back");
        };
        assert_eq!(input.purpose, purpose);
        assert_eq!(input.text(), "P1 bug: from the editor\nsecond line");
        assert!(input.changed(), "esc must ask before throwing it away");
        state.overlays.pop();
    }
}

#[test]
fn yank_copies_the_place_of_the_finding() {
    use crate::ui::state::TerminalJob;
    let mut state = finished();
    select(&mut state, "n1");
    apply(&mut state, [Action::Command(Command::Yank)]);
    assert_eq!(
        state.terminal_jobs,
        vec![TerminalJob::Clipboard("src/auth/refresh.rs:10".into())]
    );
}

#[test]
fn undo_takes_back_a_dismissal_and_redo_makes_it_again() {
    let mut state = finished();
    select(&mut state, "n2");
    apply(&mut state, [Action::Command(Command::Dismiss)]);
    apply(&mut state, typed("not for this PR"));
    apply(&mut state, [Action::Submit]);
    assert_eq!(state.node("n2").unwrap().status, Status::Dismissed);
    let effects = update(&mut state, Action::Command(Command::Undo));
    assert_eq!(state.node("n2").unwrap().status, Status::Open);
    assert!(matches!(
        effects.as_slice(),
        [Effect::PersistStatus {
            change: Change::Reopen,
            ..
        }]
    ));
    assert_eq!(state.findings.selected, Some(RowKey::Node("n2".into())));
    let effects = update(&mut state, Action::Command(Command::Redo));
    assert_eq!(state.node("n2").unwrap().status, Status::Dismissed);
    assert!(matches!(
        effects.as_slice(),
        [Effect::PersistStatus {
            change: Change::Dismiss { reason },
            ..
        }] if reason == "not for this PR"
    ));
    // The history keeps every step: dismissed, reopened, dismissed again.
    assert_eq!(state.node("n2").unwrap().history.len(), 3);
    // Undo a confirmation: it is withdrawn, the finding is open again.
    select(&mut state, "n1");
    apply(&mut state, [Action::Command(Command::Confirm)]);
    assert_eq!(state.node("n1").unwrap().status, Status::ConsensusReady);
    apply(&mut state, [Action::Command(Command::Undo)]);
    assert_eq!(state.node("n1").unwrap().status, Status::Open);
    assert!(state.node("n1").unwrap().confirmations.is_empty());
    // Nothing left to undo for n1 beyond that; the stack goes on to n2's redo.
    assert_eq!(update(&mut state, Action::Command(Command::Undo)).len(), 1);
    assert_eq!(state.node("n2").unwrap().status, Status::Open);
}

#[test]
fn a_bad_filter_term_says_what_is_wrong() {
    let mut state = finished();
    apply(&mut state, [Action::Command(Command::Filter)]);
    apply(&mut state, typed("is:bogus"));
    apply(&mut state, [Action::Submit]);
    let text = &state.message.as_ref().unwrap().text;
    assert!(text.contains("`is:bogus` is no status"), "{text}");
    assert!(rows::rows(&state).is_empty());
    state.findings.filter = "p9".into();
    assert!(
        rows::Filter::parse(&state.findings.filter).problems[0].contains("no priority"),
        "p9"
    );
    // The words people see in the list work as statuses.
    state.findings.filter = "is:ready".into();
    let ids = node_ids(&rows::build(&state, Unfold::All));
    assert!(ids.contains(&"n6".to_string()), "{ids:?}");
    assert!(!ids.contains(&"n1".to_string()), "{ids:?}");
}

#[test]
fn x_on_a_dismissed_finding_does_not_ask_for_a_reason() {
    let mut state = finished();
    select(&mut state, "n2");
    apply(&mut state, [Action::Command(Command::Dismiss)]);
    apply(&mut state, typed("dup"));
    apply(&mut state, [Action::Submit]);
    select(&mut state, "n2");
    apply(&mut state, [Action::Command(Command::Dismiss)]);
    assert!(state.overlays.is_empty());
    let text = &state.message.as_ref().unwrap().text;
    assert!(text.contains("already dismissed: o reopens it"), "{text}");
    assert!(!text.contains("n2"), "a title, not the id: {text}");
}

#[test]
fn esc_on_a_changed_comment_asks_before_throwing_it_away() {
    let mut state = finished();
    select(&mut state, "n1");
    apply(&mut state, [Action::Command(Command::EditComment)]);
    apply(&mut state, typed("more "));
    apply(&mut state, [Action::Cancel]);
    assert!(matches!(state.top_overlay(), Some(Overlay::Input(_))));
    apply(&mut state, [Action::Cancel]);
    assert!(state.overlays.is_empty());
    assert!(!state.comments.contains_key("n1"));
    // Unchanged, one esc closes it.
    apply(
        &mut state,
        [Action::Command(Command::EditComment), Action::Cancel],
    );
    assert!(state.overlays.is_empty());
}

fn type_text(state: &mut crate::ui::AppState, text: &str) {
    apply(
        state,
        text.chars().map(|c| {
            Action::Text(ratatui_textarea::Input {
                key: ratatui_textarea::Key::Char(c),
                ..Default::default()
            })
        }),
    );
}

#[test]
fn a_range_is_confirmed_at_once_and_undone_as_one_step() {
    let mut state = finished();
    select(&mut state, "n3");
    // n3 (with its duplicate folded), n1, n2: three rows of the first cohort.
    apply(
        &mut state,
        [
            Action::Command(Command::SelectRange),
            Action::Command(Command::MoveDown),
            Action::Command(Command::MoveDown),
        ],
    );
    assert_eq!(
        crate::ui::update::group_targets(&state),
        Some(vec!["n3".to_string(), "n1".to_string(), "n2".to_string()])
    );
    let undo_before = state.undo.len();
    let effects = apply(&mut state, [Action::Command(Command::Confirm)]);
    assert_eq!(effects.len(), 3, "{effects:?}");
    for id in ["n3", "n1", "n2"] {
        assert_eq!(
            state.node(id).unwrap().status,
            Status::ConsensusReady,
            "{id}"
        );
    }
    assert_eq!(state.undo.len(), undo_before + 1, "one step");
    assert!(state.findings.range.is_none(), "the range is done with");
    let effects = apply(&mut state, [Action::Command(Command::Undo)]);
    assert_eq!(effects.len(), 3, "{effects:?}");
    for id in ["n3", "n1", "n2"] {
        assert_eq!(state.node(id).unwrap().status, Status::Open, "{id}");
    }
    assert!(state.message.as_ref().unwrap().text.contains("3 of the 3"));
    // And redone as one step too.
    assert_eq!(apply(&mut state, [Action::Command(Command::Redo)]).len(), 3);
    assert_eq!(state.node("n2").unwrap().status, Status::ConsensusReady);
}

#[test]
fn a_cohort_row_dismisses_its_findings_with_one_reason_and_esc_drops_a_range() {
    let mut state = finished();
    state.findings.selected = Some(RowKey::Cohort(state.cohorts.first().unwrap().key.clone()));
    apply(&mut state, [Action::Command(Command::Dismiss)]);
    assert!(matches!(
        state.top_overlay(),
        Some(Overlay::Input(input)) if matches!(&input.purpose, InputPurpose::Dismiss { node_ids } if node_ids.len() == 3)
    ));
    type_text(&mut state, "generated code");
    apply(&mut state, [Action::Submit]);
    for id in ["n3", "n1", "n2"] {
        let node = state.node(id).unwrap();
        assert_eq!(node.status, Status::Dismissed, "{id}");
        assert_eq!(
            node.history.last().unwrap().reason.as_deref(),
            Some("generated code")
        );
    }
    // The duplicate folded under n3 goes with its problem, in the same step.
    assert_eq!(state.node("n4").unwrap().status, Status::Dismissed);
    apply(&mut state, [Action::Command(Command::Undo)]);
    for id in ["n3", "n1", "n2", "n4"] {
        assert_eq!(state.node(id).unwrap().status, Status::Open, "{id}");
    }
    // A range started and dropped: the next key acts on the one finding again.
    select(&mut state, "n1");
    apply(
        &mut state,
        [
            Action::Command(Command::SelectRange),
            Action::Command(Command::MoveDown),
            Action::Command(Command::Close),
        ],
    );
    assert!(state.findings.range.is_none());
    assert_eq!(
        apply(&mut state, [Action::Command(Command::Confirm)]).len(),
        1
    );
}

/// The list starts at its first finding whatever order the findings streamed in, and once the
/// person moves, a finding arriving above does not take the selection away.
#[test]
fn the_first_selection_follows_the_top_until_the_person_moves() {
    let p0 = || {
        added(node(NodeSpec {
            id: "top",
            priority: Priority::P0,
            title: "the most urgent",
            ..NodeSpec::default()
        }))
    };
    let p2 = || {
        added(node(NodeSpec {
            id: "low",
            priority: Priority::P2,
            title: "a smaller one",
            ..NodeSpec::default()
        }))
    };
    let run = || {
        Action::Engine(Report::RunStarted {
            run: RUN,
            round: 1,
            reviewers: vec![("engineer".into(), true)],
            deterministic_only: false,
        })
    };
    let mut a = crate::ui::AppState::new(header(), "alice");
    apply(&mut a, [run(), p2(), p0()]);
    let mut b = crate::ui::AppState::new(header(), "alice");
    apply(&mut b, [run(), p0(), p2()]);
    assert_eq!(a.findings.selected, Some(RowKey::Node("top".into())));
    assert_eq!(b.findings.selected, a.findings.selected);

    // Chosen by the person: it stays where they put it.
    let mut c = crate::ui::AppState::new(header(), "alice");
    apply(&mut c, [run(), p2()]);
    apply(&mut c, [Action::Command(Command::MoveDown)]);
    assert_eq!(c.findings.selected, Some(RowKey::Node("low".into())));
    apply(&mut c, [p0()]);
    assert_eq!(c.findings.selected, Some(RowKey::Node("low".into())));
}

/// Defect 14: a refused change names the finding by its title, never by its id.
#[test]
fn a_refused_change_names_the_finding_by_its_title() {
    let mut state = finished();
    select(&mut state, "n2");
    apply(&mut state, [Action::Command(Command::Dismiss)]);
    apply(&mut state, typed("a test fixture"));
    apply(&mut state, [Action::Submit]);
    select(&mut state, "n2");
    apply(&mut state, [Action::Command(Command::Confirm)]);
    let said = state
        .message
        .as_ref()
        .map(|m| m.text.clone())
        .unwrap_or_default();
    assert!(said.contains("“Consider a test for"), "{said}");
    assert!(said.contains("cannot confirm"), "{said}");
    assert!(!said.contains("n2"), "{said}");
}

/// A range from a cohort's heading acts on exactly the finding rows it marks: the heading
/// brings no other finding of the cohort.
#[test]
fn a_range_acts_on_exactly_the_finding_rows_it_marks() {
    let mut state = finished();
    state.findings.selected = Some(RowKey::Cohort(state.cohorts.first().unwrap().key.clone()));
    // The heading, then n3 (its duplicate folded) and n1: two finding rows marked.
    apply(
        &mut state,
        [
            Action::Command(Command::SelectRange),
            Action::Command(Command::MoveDown),
            Action::Command(Command::MoveDown),
        ],
    );
    assert_eq!(
        crate::ui::update::group_targets(&state),
        Some(vec!["n3".to_string(), "n1".to_string()])
    );
    apply(&mut state, [Action::Command(Command::Dismiss)]);
    match state.top_overlay() {
        Some(Overlay::Input(input)) => match &input.purpose {
            InputPurpose::Dismiss { node_ids } => assert_eq!(node_ids, &["n3", "n1"]),
            other => panic!("{other:?}"),
        },
        other => panic!("{other:?}"),
    }
}

/// Dismissing a problem dismisses the duplicates folded under it (one undo step): they never
/// come back as new open findings, and the count of problems goes down, never up.
#[test]
fn dismissing_a_problem_takes_its_folded_duplicates_with_it() {
    let mut state = finished();
    let problems = |state: &crate::ui::state::AppState| {
        state
            .board
            .nodes
            .iter()
            .filter(|n| n.status.is_active() && n.duplicate_of.is_none())
            .count()
    };
    let before = problems(&state);
    assert_eq!(
        state.node("n4").unwrap().duplicate_of.as_deref(),
        Some("n3")
    );
    select(&mut state, "n3");
    apply(&mut state, [Action::Command(Command::Dismiss)]);
    apply(&mut state, typed("rotated, a test fixture"));
    apply(&mut state, [Action::Submit]);
    assert_eq!(state.node("n3").unwrap().status, Status::Dismissed);
    assert_eq!(state.node("n4").unwrap().status, Status::Dismissed);
    assert_eq!(problems(&state), before - 1);
    let text = &state.message.as_ref().unwrap().text;
    assert!(text.contains("1 duplicate folded under it"), "{text}");
    // Undo takes both back.
    apply(&mut state, [Action::Command(Command::Undo)]);
    assert_eq!(state.node("n4").unwrap().status, Status::Open);
    assert_eq!(problems(&state), before);
}

#[test]
fn the_gates_why_names_a_gated_axis_that_holds_the_verdict_without_a_finding() {
    use crate::review::{Axis, AxisVerdict};
    let mut state = finished();
    // Nothing in the list holds it; the API axis, gated, failed.
    if let Some(verdict) = state.verdict.as_mut() {
        verdict.holding.clear();
    }
    state.axes = vec![Axis {
        name: "apiContract".into(),
        verdict: AxisVerdict::Fail,
        gated: true,
        detail: "removed: `parse` (src/lib.rs:12)".into(),
    }];
    apply(&mut state, [Action::Command(Command::OpenGate)]);
    apply(&mut state, [Action::Command(Command::GateWhy)]);
    let said = state.message.as_ref().unwrap().text.clone();
    assert!(!said.contains("nothing holds the verdict"), "{said}");
    assert!(said.contains("gated axis apiContract is fail"), "{said}");
    // The gate stays, its details open on every reason.
    assert!(
        matches!(
            state.top_overlay(),
            Some(Overlay::Gate { details: true, .. })
        ),
        "{:?}",
        state.overlays
    );
}

#[test]
fn the_gates_why_goes_to_each_finding_that_holds_the_verdict_and_a_dismissal_releases_it() {
    let mut state = finished();
    let holding: Vec<String> = state.holding().iter().map(|n| n.id.clone()).collect();
    assert!(!holding.is_empty(), "{:?}", state.verdict);
    // Every finding named holds the verdict: open, in scope, P0/P1 (or of unknown category).
    for id in &holding {
        let node = state.node(id).unwrap();
        assert!(node.priority <= Priority::P1, "{id}: {:?}", node.priority);
    }
    select(&mut state, "n2");
    apply(&mut state, [Action::Command(Command::OpenGate)]);
    apply(&mut state, [Action::Command(Command::GateWhy)]);
    // The gate closed on the first one, selected in the list, with the way past it said.
    assert!(state.overlays.is_empty());
    assert_eq!(
        state.findings.selected,
        Some(RowKey::Node(holding[0].clone()))
    );
    assert_eq!(state.focus, Pane::Findings);
    let said = state.message.as_ref().unwrap().text.clone();
    assert!(said.contains("holds the verdict (1 of"), "{said}");
    assert!(said.contains("x dismisses it with a reason"), "{said}");

    // The only override: the person's dismissal with a reason.
    apply(&mut state, [Action::Command(Command::Dismiss)]);
    apply(&mut state, typed("a test key, revoked"));
    apply(&mut state, [Action::Submit]);
    let now: Vec<String> = state.holding().iter().map(|n| n.id.clone()).collect();
    assert!(!now.contains(&holding[0]), "{now:?}");
    assert_eq!(now.len(), holding.len() - 1);
}
