//! A rule that raised the same finding many times in one cohort is one row ("4× …"): enter
//! lists them, triage keys on the folded row act on exactly the findings it counts, and the
//! verdict weighs every one of them whatever the list folds.

use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui_textarea::Input;

use super::fixtures::*;
use crate::review::{Kind, Priority, Source, Status};
use crate::ui::action::{Action, Command};
use crate::ui::keymap::Keymap;
use crate::ui::rows::{self, Row};
use crate::ui::state::{AppState, InputPurpose, Overlay, RowKey};
use crate::ui::theme::Theme;
use crate::ui::view::{self, ViewContext};

const RULE: &str = "rust/unsafe-without-safety";
const TITLE: &str = "`unsafe` block without a `SAFETY:` comment";

/// The finished review with `n` findings of one rule in the auth cohort's files and one more
/// in a file no cohort lists.
fn with_unsafe_blocks(n: u32) -> AppState {
    with_rule_findings(n, Priority::P2)
}

fn with_rule_findings(n: u32, priority: Priority) -> AppState {
    let mut state = finished();
    let mut actions: Vec<Action> = (0..n)
        .map(|i| {
            added(node(NodeSpec {
                id: Box::leak(format!("u{i}").into_boxed_str()),
                reviewer: "rules",
                source: Source::Deterministic,
                priority,
                kind: Kind::Suggestion,
                confidence: 0.8,
                rule: Some(RULE),
                anchor: Some(("src/auth/client.rs", 20 + i, 20 + i)),
                title: TITLE,
                ..NodeSpec::default()
            }))
        })
        .collect();
    actions.push(added(node(NodeSpec {
        id: "u-elsewhere",
        reviewer: "rules",
        source: Source::Deterministic,
        priority: Priority::P2,
        kind: Kind::Suggestion,
        confidence: 0.8,
        rule: Some(RULE),
        anchor: Some(("README.md", 3, 3)),
        title: TITLE,
        ..NodeSpec::default()
    })));
    apply(&mut state, actions);
    state
}

fn rule_row(state: &AppState) -> (RowKey, Vec<String>) {
    rows::rows(state)
        .into_iter()
        .find_map(|row| match &row {
            Row::Rule { members, .. } => Some((row.key(), members.clone())),
            _ => None,
        })
        .expect("a rule fold in the list")
}

fn screen(state: &mut AppState, width: u16, height: u16) -> String {
    let cx = ViewContext::new(Theme::builtin("dark").unwrap(), Keymap::default());
    let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
    for _ in 0..2 {
        let mut layout = None;
        terminal
            .draw(|frame| layout = Some(view::draw(frame, state, &cx)))
            .unwrap();
        state.layout = layout.unwrap();
    }
    let buffer = terminal.backend().buffer();
    let mut text = String::new();
    for y in 0..buffer.area.height {
        for x in 0..buffer.area.width {
            text.push_str(buffer[(x, y)].symbol());
        }
        text.push('\n');
    }
    text
}

#[test]
fn a_rule_repeated_in_one_cohort_is_one_row_and_enter_lists_them() {
    let mut state = with_unsafe_blocks(4);
    let (key, members) = rule_row(&state);
    assert_eq!(members, ["u0", "u1", "u2", "u3"]);
    let listed = rows::rows(&state);
    // Folded: none of the four is a row of its own; the one in another group is.
    for id in &members {
        assert!(rows::position(&listed, &RowKey::Node(id.clone())).is_none());
    }
    assert!(rows::position(&listed, &RowKey::Node("u-elsewhere".into())).is_some());
    let text = screen(&mut state, 120, 40);
    assert!(text.contains("4× `unsafe` block"), "{text}");
    assert_eq!(text.matches("`unsafe` block").count(), 2, "{text}");

    state.findings.selected = Some(key.clone());
    apply(&mut state, [Action::Command(Command::Expand)]);
    let listed = rows::rows(&state);
    let at = rows::position(&listed, &key).unwrap();
    for (i, id) in members.iter().enumerate() {
        assert!(
            matches!(&listed[at + 1 + i], Row::Node { id: row, in_rule: true, .. } if row == id),
            "{:?}",
            listed[at + 1 + i]
        );
    }
    // Each one a row with where it is.
    let text = screen(&mut state, 200, 60);
    for line in 20..24 {
        assert!(text.contains(&format!("client.rs:{line}")), "{text}");
    }
    apply(&mut state, [Action::Command(Command::Expand)]);
    assert!(rows::position(&rows::rows(&state), &RowKey::Node("u0".into())).is_none());
}

#[test]
fn two_findings_of_a_rule_stay_two_rows() {
    let state = with_unsafe_blocks(2);
    assert!(
        !rows::rows(&state)
            .iter()
            .any(|r| matches!(r, Row::Rule { .. }))
    );
}

#[test]
fn the_folded_rows_detail_lists_each_finding_with_its_place_and_status() {
    let mut state = with_unsafe_blocks(3);
    let (key, _) = rule_row(&state);
    state.findings.selected = Some(key);
    let text = screen(&mut state, 120, 40);
    assert!(text.contains("3× one rule"), "{text}");
    assert!(text.contains(&format!("rule {RULE}")), "{text}");
    assert!(text.contains("3 open"), "{text}");
    for line in 20..23 {
        assert!(
            text.contains(&format!("src/auth/client.rs:{line}")),
            "{text}"
        );
    }
}

/// Dismissing the folded row dismisses exactly the findings it counts, with one reason, as
/// one undo step; the verdict weighed all of them before, folded or not.
#[test]
fn dismissing_a_folded_row_acts_on_exactly_its_findings_as_one_step() {
    let mut state = with_unsafe_blocks(4);
    let (key, members) = rule_row(&state);
    state.findings.selected = Some(key);
    assert_eq!(
        crate::ui::update::group_targets(&state),
        Some(members.clone())
    );
    apply(&mut state, [Action::Command(Command::Dismiss)]);
    match state.top_overlay() {
        Some(Overlay::Input(input)) => match &input.purpose {
            InputPurpose::Dismiss { node_ids } => assert_eq!(node_ids, &members),
            other => panic!("{other:?}"),
        },
        other => panic!("{other:?}"),
    }
    for c in "generated bindings".chars() {
        apply(
            &mut state,
            [Action::Text(Input::from(
                ratatui::crossterm::event::KeyEvent::from(
                    ratatui::crossterm::event::KeyCode::Char(c),
                ),
            ))],
        );
    }
    apply(&mut state, [Action::Submit]);
    for id in &members {
        assert_eq!(state.node(id).unwrap().status, Status::Dismissed, "{id}");
    }
    assert_eq!(
        state.node("u-elsewhere").unwrap().status,
        Status::Open,
        "the same rule in another group is another row"
    );
    apply(&mut state, [Action::Command(Command::Undo)]);
    for id in &members {
        assert_eq!(state.node(id).unwrap().status, Status::Open, "{id}");
    }
}

/// Folding is the list's only: a fold of blocking findings holds the verdict with each one of
/// them, and the gate's why names each.
#[test]
fn a_fold_of_blocking_findings_holds_the_verdict_with_every_one_of_them() {
    let mut state = with_rule_findings(3, Priority::P0);
    let (_, members) = rule_row(&state);
    let holding: Vec<&str> = state.holding().iter().map(|n| n.id.as_str()).collect();
    for id in &members {
        assert!(holding.contains(&id.as_str()), "{id} in {holding:?}");
    }
    let outcome = state.verdict.as_ref().unwrap().decision;
    state.findings.selected = Some(RowKey::Node(members[0].clone()));
    crate::ui::update::reveal(&mut state, &members[0]);
    state.refresh_verdict();
    assert_eq!(state.verdict.as_ref().unwrap().decision, outcome);
}

/// In a range, a folded rule row is the findings it counts; unfolded, its row is a heading
/// and only its finding rows inside the range count.
#[test]
fn a_range_over_a_folded_row_takes_its_findings_and_over_an_unfolded_one_only_its_rows() {
    let mut state = with_unsafe_blocks(3);
    let (key, members) = rule_row(&state);
    let listed = rows::rows(&state);
    let at = rows::position(&listed, &key).unwrap();
    state.findings.selected = Some(listed[at - 1].key());
    state.findings.range = state.findings.selected.clone();
    state.findings.selected = Some(key.clone());
    let targets = crate::ui::update::group_targets(&state).unwrap();
    for id in &members {
        assert!(targets.contains(id), "{targets:?}");
    }
    // Unfolded: the range from the row above to the fold's heading marks no finding of it.
    apply(&mut state, [Action::Command(Command::Close)]);
    state.findings.selected = Some(key.clone());
    apply(&mut state, [Action::Command(Command::Expand)]);
    state.findings.selected = Some(listed[at - 1].key());
    state.findings.range = state.findings.selected.clone();
    state.findings.selected = Some(key.clone());
    let targets = crate::ui::update::group_targets(&state).unwrap();
    assert!(
        members.iter().all(|id| !targets.contains(id)),
        "{targets:?}"
    );
    // One step further marks the first.
    apply(&mut state, [Action::Command(Command::MoveDown)]);
    let targets = crate::ui::update::group_targets(&state).unwrap();
    assert!(targets.contains(&members[0]) && !targets.contains(&members[1]));
}

/// `n` stops once at a folded rule with open findings; a finding it hides, once selected
/// (undo, the gate's why), unfolds it.
#[test]
fn next_open_stops_once_at_a_fold_and_selecting_a_hidden_finding_unfolds_it() {
    let mut state = with_unsafe_blocks(3);
    let (key, _) = rule_row(&state);
    let mut stops = Vec::new();
    for _ in 0..12 {
        apply(&mut state, [Action::Command(Command::NextFinding)]);
        stops.push(state.findings.selected.clone().unwrap());
    }
    assert!(stops.contains(&key), "{stops:?}");
    assert!(
        !stops
            .iter()
            .any(|s| matches!(s, RowKey::Node(id) if id.starts_with("u") && id != "u-elsewhere")),
        "{stops:?}"
    );
    crate::ui::update::reveal(&mut state, "u1");
    state.findings.selected = Some(RowKey::Node("u1".into()));
    apply(&mut state, [Action::Command(Command::MoveDown)]);
    assert_eq!(state.findings.selected, Some(RowKey::Node("u2".into())));
}

/// `P3 ticketNew TODO`: the kind never runs into the title.
#[test]
fn the_kind_column_keeps_a_space_before_the_title() {
    let mut state = finished();
    apply(
        &mut state,
        [added(node(NodeSpec {
            id: "t1",
            priority: Priority::P3,
            kind: Kind::Ticket,
            anchor: None,
            title: "New TODO/FIXME",
            ..NodeSpec::default()
        }))],
    );
    for width in [60, 80, 120, 200] {
        let text = screen(&mut state, width, 40);
        assert!(text.contains("P3 ticket New TODO"), "{width}:\n{text}");
    }
}

/// Help at 60 columns, read to its end: every line inside its box is a title or starts
/// indented; a long description or mark meaning never wraps back to the box's edge.
#[test]
fn help_text_never_wraps_to_the_boxs_edge_at_60_columns() {
    let mut state = finished();
    state.overlays.push(Overlay::Help { scroll: 0 });
    let titles = [
        "Keys here",
        "What the marks mean",
        "Review",
        "Approval gate",
        "Publish preview",
        "Help",
        "Diff view",
        "Patch viewer",
        "Event log",
        "Review threads",
    ];
    let mut seen = 0;
    for scroll in (0..400).step_by(10) {
        state.overlays = vec![Overlay::Help { scroll }];
        let text = screen(&mut state, 60, 24);
        for line in text.lines() {
            // Inside the box: after its left border, its right one (or scrollbar) dropped.
            let Some(inner) = line.strip_prefix('│') else {
                continue;
            };
            let inner: String = {
                let mut chars: Vec<char> = inner.chars().collect();
                chars.pop();
                chars.into_iter().collect()
            };
            if inner.trim().is_empty() || inner.starts_with(' ') {
                continue;
            }
            seen += 1;
            assert!(
                titles.iter().any(|t| inner.starts_with(t)),
                "a line at the box's edge that is no title: {inner:?}\n{text}"
            );
        }
    }
    assert!(
        seen > 3,
        "the titles were read: {}",
        screen(&mut state, 60, 24)
    );
}
