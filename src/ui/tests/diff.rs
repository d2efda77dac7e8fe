//! The diff view: opening it on a cohort, moving, jumping between files and marked lines,
//! selecting a finding from its line; snapshots of the view and the cohort diagram; a 10k-line
//! file drawn one frame at a time.

use std::sync::Arc;

use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::crossterm::event::{Event, KeyCode, KeyEvent, KeyModifiers};
use ratatui::layout::Rect;

use super::fixtures::*;
use crate::diff::LineKind;
use crate::ui::action::{Action, Command, Report};
use crate::ui::diffview::{DiffDoc, DiffRow};
use crate::ui::keymap::Keymap;
use crate::ui::state::{AppState, CohortView, DiffView, Overlay, Pane, RowKey};
use crate::ui::theme::Theme;
use crate::ui::update::update;
use crate::ui::view::{self, ViewContext};

fn view_of(state: &AppState) -> DiffView {
    match state.top_overlay() {
        Some(Overlay::Diff(view)) => view.clone(),
        other => panic!("the diff view is not open: {other:?}"),
    }
}

/// What the cursor is on: a file header's path, or a line's kind and its (old, new) numbers.
fn at_cursor(state: &AppState) -> String {
    let view = view_of(state);
    let doc = DiffDoc::new(state, view.cohort.as_deref());
    match doc.row(view.cursor) {
        Some(DiffRow::File { path, .. }) => format!("file {path}"),
        Some(DiffRow::Hunk { path, .. }) => format!("hunk {path}"),
        Some(DiffRow::Note { path, .. }) => format!("note {path}"),
        Some(DiffRow::Line { path, line }) => {
            let kind = match line.kind {
                LineKind::Added => "+",
                LineKind::Removed => "-",
                LineKind::Context => " ",
            };
            format!(
                "{path} {kind} {}/{}",
                line.old_line.map_or("-".into(), |n| n.to_string()),
                line.new_line.map_or("-".into(), |n| n.to_string())
            )
        }
        None => "past the end".into(),
    }
}

fn with_left_finding() -> AppState {
    let mut state = finished();
    apply(&mut state, [left_finding()]);
    state
}

#[test]
fn the_diff_lists_the_cohorts_files_in_reading_order_not_diff_order() {
    let state = finished();
    let doc = DiffDoc::new(&state, Some("c-auth"));
    let headers: Vec<&str> = doc
        .file_starts()
        .map(|row| match doc.row(row) {
            Some(DiffRow::File { path, .. }) => path,
            other => panic!("{other:?}"),
        })
        .collect();
    assert_eq!(
        headers,
        ["src/auth/refresh.rs", "src/auth/client.rs", "tests/auth.rs"]
    );
    // refresh.rs: header, @@, 11 lines; client.rs: header, @@, 6 lines; tests: header, @@, 3.
    assert_eq!(doc.len(), 13 + 8 + 5);
    assert_eq!(doc.row(doc.len()), None);
    // Without a cohort: every changed file, in the diff's order.
    let all = DiffDoc::new(&state, None);
    assert_eq!(all.file_count(), 4);
    assert!(matches!(
        all.row(0),
        Some(DiffRow::File {
            path: "tests/auth.rs",
            ..
        })
    ));
}

#[test]
fn d_opens_the_selected_findings_cohort_at_its_mark_and_closes_again() {
    let mut state = finished();
    select(&mut state, "n1");
    assert_eq!(
        update(&mut state, Action::Command(Command::OpenDiff)),
        vec![]
    );
    let view = view_of(&state);
    assert_eq!(view.cohort.as_deref(), Some("c-auth"));
    // n1 is anchored at RIGHT 10-12: the cursor lands on new line 10.
    assert_eq!(at_cursor(&state), "src/auth/refresh.rs + -/10");
    update(&mut state, Action::Command(Command::OpenDiff));
    assert!(state.overlays.is_empty());
    update(&mut state, Action::Command(Command::OpenDiff));
    update(&mut state, Action::Command(Command::Close));
    assert!(state.overlays.is_empty());
    // A cohort header opens its own files; an unanchored finding, every file.
    state.findings.selected = Some(RowKey::Cohort("p-docs".into()));
    update(&mut state, Action::Command(Command::OpenDiff));
    assert_eq!(view_of(&state).cohort.as_deref(), Some("p-docs"));
    assert_eq!(at_cursor(&state), "file docs/auth.md");
    update(&mut state, Action::Command(Command::Close));
    select(&mut state, "n6");
    update(&mut state, Action::Command(Command::OpenDiff));
    assert_eq!(view_of(&state).cohort, None);
    assert_eq!(at_cursor(&state), "file tests/auth.rs");
}

#[test]
fn without_the_diff_the_view_does_not_open_and_says_why() {
    let mut state = finished();
    state.diff = None;
    update(&mut state, Action::Command(Command::OpenDiff));
    assert!(state.overlays.is_empty());
    assert!(state.message.unwrap().text.contains("not loaded"));
}

#[test]
fn moving_paging_and_the_viewport_follows_the_cursor() {
    let mut state = finished();
    state.findings.selected = Some(RowKey::Cohort("c-auth".into()));
    state.layout.diff = Rect::new(0, 0, 100, 5);
    update(&mut state, Action::Command(Command::OpenDiff));
    assert_eq!(at_cursor(&state), "file src/auth/refresh.rs");
    update(&mut state, Action::Command(Command::MoveDown));
    assert_eq!(at_cursor(&state), "hunk src/auth/refresh.rs");
    update(&mut state, Action::Command(Command::MoveDown));
    assert_eq!(at_cursor(&state), "src/auth/refresh.rs   7/7");
    update(&mut state, Action::Command(Command::MoveDown));
    assert_eq!(at_cursor(&state), "src/auth/refresh.rs - 8/-");
    update(&mut state, Action::Command(Command::MoveUp));
    assert_eq!(view_of(&state).cursor, 2);
    assert_eq!(view_of(&state).offset, 0);
    // A page is the height less one line of overlap; the viewport keeps the cursor on screen.
    update(&mut state, Action::Command(Command::PageDown));
    let view = view_of(&state);
    assert_eq!(view.cursor, 6);
    assert_eq!(view.offset, 2);
    update(&mut state, Action::Command(Command::Bottom));
    let view = view_of(&state);
    assert_eq!(view.cursor, 25);
    assert_eq!(view.offset, 21);
    assert_eq!(at_cursor(&state), "tests/auth.rs + -/3");
    update(&mut state, Action::Command(Command::MoveDown));
    assert_eq!(view_of(&state).cursor, 25, "clamped at the last line");
    update(&mut state, Action::Command(Command::Top));
    assert_eq!(
        view_of(&state),
        DiffView {
            cohort: Some("c-auth".into()),
            cursor: 0,
            offset: 0
        }
    );
    // The findings list behind did not move.
    assert_eq!(
        state.findings.selected,
        Some(RowKey::Cohort("c-auth".into()))
    );
}

#[test]
fn brackets_jump_between_files_with_the_header_on_top() {
    let mut state = finished();
    state.findings.selected = Some(RowKey::Cohort("c-auth".into()));
    state.layout.diff = Rect::new(0, 0, 100, 5);
    update(&mut state, Action::Command(Command::OpenDiff));
    update(&mut state, Action::Command(Command::NextFile));
    assert_eq!(at_cursor(&state), "file src/auth/client.rs");
    assert_eq!(view_of(&state).offset, view_of(&state).cursor);
    update(&mut state, Action::Command(Command::NextFile));
    assert_eq!(at_cursor(&state), "file tests/auth.rs");
    update(&mut state, Action::Command(Command::NextFile));
    assert_eq!(at_cursor(&state), "file tests/auth.rs");
    assert_eq!(state.message.as_ref().unwrap().text, "last file");
    update(&mut state, Action::Command(Command::MoveDown));
    update(&mut state, Action::Command(Command::PrevFile));
    assert_eq!(at_cursor(&state), "file tests/auth.rs");
    update(&mut state, Action::Command(Command::PrevFile));
    update(&mut state, Action::Command(Command::PrevFile));
    assert_eq!(at_cursor(&state), "file src/auth/refresh.rs");
}

#[test]
fn n_and_shift_n_walk_the_marked_lines_on_both_sides() {
    let mut state = with_left_finding();
    state.findings.selected = Some(RowKey::Cohort("c-auth".into()));
    update(&mut state, Action::Command(Command::OpenDiff));
    let mut walked = Vec::new();
    for _ in 0..5 {
        update(&mut state, Action::Command(Command::NextFinding));
        walked.push(at_cursor(&state));
    }
    assert_eq!(
        walked,
        [
            // n1 (RIGHT 10-12), n2 (RIGHT 11), n7 (LEFT 4, a removed line), n3 (RIGHT 5).
            "src/auth/refresh.rs + -/10",
            "src/auth/refresh.rs + -/11",
            "src/auth/client.rs - 4/-",
            "src/auth/client.rs + -/5",
            // Past the last mark, around to the first, as the list's `n` does.
            "src/auth/refresh.rs + -/10",
        ]
    );
    assert_eq!(
        state.message.as_ref().unwrap().text,
        "wrapped to the first marked line"
    );
    // The message is on screen under the diff view, not behind it.
    let shown = render(&mut state, 80, 24);
    let buffer = shown.backend().buffer();
    let bottom: String = (buffer.area.height - 3..buffer.area.height)
        .flat_map(|y| (0..buffer.area.width).map(move |x| (x, y)))
        .map(|at| buffer[at].symbol().to_string())
        .collect();
    assert!(
        bottom.contains("wrapped to the first marked line"),
        "{bottom}"
    );
    update(&mut state, Action::Command(Command::PrevFinding));
    assert_eq!(at_cursor(&state), "src/auth/client.rs + -/5");
    assert_eq!(
        state.message.as_ref().unwrap().text,
        "wrapped to the last marked line"
    );
    update(&mut state, Action::Command(Command::PrevFinding));
    assert_eq!(at_cursor(&state), "src/auth/client.rs - 4/-");
    // n4 duplicates n3 on the same line: one mark, not two.
    let view = view_of(&state);
    let doc = DiffDoc::new(&state, view.cohort.as_deref());
    let ids: Vec<&str> = doc
        .marks(&state)
        .iter()
        .map(|(_, n)| n.id.as_str())
        .collect();
    assert_eq!(ids, ["n1", "n2", "n7", "n3"]);
}

#[test]
fn enter_on_a_marked_line_selects_its_finding_in_the_list() {
    let mut state = with_left_finding();
    state.findings.selected = Some(RowKey::Cohort("c-auth".into()));
    state.findings.collapsed.insert("c-auth".into());
    update(&mut state, Action::Command(Command::OpenDiff));
    // On a file header: nothing to select, the view stays.
    update(&mut state, Action::Command(Command::Expand));
    assert!(matches!(state.top_overlay(), Some(Overlay::Diff(_))));
    assert!(state.message.as_ref().unwrap().text.contains("no finding"));
    update(&mut state, Action::Command(Command::NextFinding));
    update(&mut state, Action::Command(Command::NextFinding));
    update(&mut state, Action::Command(Command::NextFinding));
    assert_eq!(at_cursor(&state), "src/auth/client.rs - 4/-");
    update(&mut state, Action::Command(Command::Expand));
    assert!(state.overlays.is_empty());
    assert_eq!(state.findings.selected, Some(RowKey::Node("n7".into())));
    assert_eq!(state.focus, Pane::Findings);
    assert!(
        !state.findings.collapsed.contains("c-auth"),
        "unfolded to show it"
    );
    // On a line two findings share, the most urgent one wins.
    update(&mut state, Action::Command(Command::OpenDiff));
    assert_eq!(at_cursor(&state), "src/auth/client.rs - 4/-");
    update(&mut state, Action::Command(Command::PrevFinding));
    assert_eq!(at_cursor(&state), "src/auth/refresh.rs + -/11");
    update(&mut state, Action::Command(Command::Expand));
    assert_eq!(state.findings.selected, Some(RowKey::Node("n1".into())));
}

#[test]
fn keys_in_the_diff_view() {
    let keymap = Keymap::default();
    let mut state = finished();
    let key = |c: KeyCode| Event::Key(KeyEvent::new(c, KeyModifiers::NONE));
    assert_eq!(
        keymap.translate(&state, &key(KeyCode::Char('d'))),
        Some(Action::Command(Command::OpenDiff))
    );
    update(&mut state, Action::Command(Command::OpenDiff));
    for (code, action) in [
        (KeyCode::Char(']'), Action::Command(Command::NextFile)),
        (KeyCode::Char('['), Action::Command(Command::PrevFile)),
        (KeyCode::Char('n'), Action::Command(Command::NextFinding)),
        (KeyCode::Char('N'), Action::Command(Command::PrevFinding)),
        (KeyCode::Char('j'), Action::Command(Command::MoveDown)),
        (KeyCode::PageDown, Action::Command(Command::PageDown)),
        (KeyCode::Enter, Action::Command(Command::Expand)),
        (KeyCode::Esc, Action::Command(Command::Close)),
        (KeyCode::Char('d'), Action::Command(Command::Close)),
        (KeyCode::Char('q'), Action::Command(Command::Quit)),
    ] {
        assert_eq!(
            keymap.translate(&state, &key(code)),
            Some(action),
            "{code:?}"
        );
    }
    // Triage keys do nothing here, and say so.
    assert_eq!(
        keymap.translate(&state, &key(KeyCode::Char('c'))),
        Some(Action::UnknownKey("c".into()))
    );
}

fn render(state: &mut AppState, width: u16, height: u16) -> Terminal<TestBackend> {
    let cx = ViewContext::new(Theme::builtin("dark").unwrap(), Keymap::default());
    let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
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
fn snapshot_the_diff_view_with_marks_on_both_sides() {
    let mut state = with_left_finding();
    select(&mut state, "n7");
    apply(&mut state, [Action::Command(Command::OpenDiff)]);
    insta::assert_snapshot!(render(&mut state, 120, 40).backend());
}

#[test]
fn snapshot_the_diff_view_of_a_fallback_cohort() {
    let mut state = finished();
    state.findings.selected = Some(RowKey::Cohort("p-docs".into()));
    apply(
        &mut state,
        [
            Action::Command(Command::OpenDiff),
            Action::Command(Command::NextFinding),
        ],
    );
    insta::assert_snapshot!(render(&mut state, 120, 30).backend());
}

#[test]
fn snapshot_the_cohort_diagram_in_the_detail() {
    let mut state = finished();
    state.findings.selected = Some(RowKey::Cohort("c-auth".into()));
    insta::assert_snapshot!(render(&mut state, 120, 40).backend());
}

#[test]
fn snapshot_a_fallback_cohort_in_the_detail() {
    let mut state = finished();
    state.findings.selected = Some(RowKey::Cohort("p-docs".into()));
    insta::assert_snapshot!(render(&mut state, 120, 40).backend());
}

/// The 10k-line file of the test below, with the diff view open on line 7000.
fn big_file_open() -> AppState {
    const LINES: usize = 10_000;
    let mut text = format!(
        "diff --git a/src/big.rs b/src/big.rs\nnew file mode 100644\n--- /dev/null\n+++ b/src/big.rs\n@@ -0,0 +1,{LINES} @@\n"
    );
    for i in 1..=LINES {
        text.push_str(&format!("+let line_{i} = {i};\n"));
    }
    let diff = crate::diff::parse(&text).unwrap();
    let mut state = AppState::new(header(), "alice");
    let mut finding = node(NodeSpec {
        id: "big",
        anchor: Some(("src/big.rs", 7_000, 7_000)),
        title: "line 7000 is wrong",
        ..NodeSpec::default()
    });
    finding.priority = crate::review::Priority::P0;
    apply(
        &mut state,
        [
            Action::Engine(Report::Cohorts(vec![CohortView {
                key: "big".into(),
                label: "big".into(),
                files: vec!["src/big.rs".into()],
                ..CohortView::default()
            }])),
            Action::Engine(Report::Diff(Arc::new(diff))),
            Action::Engine(Report::RunStarted {
                run: RUN,
                round: 1,
                reviewers: vec![("engineer".into(), true)],
                deterministic_only: false,
            }),
            added(finding),
        ],
    );
    select(&mut state, "big");
    apply(&mut state, [Action::Command(Command::OpenDiff)]);
    state
}

#[test]
fn a_ten_thousand_line_file_draws_only_the_window_on_screen() {
    let mut state = big_file_open();
    let terminal = render(&mut state, 200, 60);
    let screen: Vec<String> = terminal
        .backend()
        .buffer()
        .content()
        .chunks(200)
        .map(|row| row.iter().map(|c| c.symbol()).collect())
        .collect();
    let shown = |needle: &str| screen.iter().any(|l| l.contains(needle));
    // The cursor is on the finding's line (7000, row 7001 after the header and the @@ row),
    // with context above it; nothing far from it is drawn.
    assert!(shown("let line_7000 = 7000;"), "{}", screen.join("\n"));
    assert!(shown("let line_6996 = 6996;"), "context above the cursor");
    assert!(!shown("let line_1 = 1;"));
    assert!(!shown("let line_9000 = 9000;"));
    assert!(shown("◆ P0 line 7000 is wrong"));
    let height = state.layout.diff.height as usize;
    assert!(height > 40, "{height}");
    let view = view_of(&state);
    assert_eq!(view.cursor, 7_001);
    assert!(view.offset <= view.cursor && view.cursor < view.offset + height);
    // Paging to the end and drawing again shows the last line.
    update(&mut state, Action::Command(Command::Bottom));
    let terminal = render(&mut state, 200, 60);
    let last = format!("{:?}", terminal.backend());
    assert!(last.contains("let line_10000 = 10000;"));
}

#[test]
fn an_idle_moment_highlights_the_next_page_so_paging_down_finds_it_ready() {
    let mut state = big_file_open();
    let cx = ViewContext::new(Theme::builtin("dark").unwrap(), Keymap::default());
    let mut terminal = Terminal::new(TestBackend::new(200, 60)).unwrap();
    let mut draw = |state: &mut AppState| {
        let mut layout = None;
        terminal
            .draw(|frame| layout = Some(view::draw(frame, state, &cx)))
            .unwrap();
        state.layout = layout.unwrap();
    };
    draw(&mut state);
    draw(&mut state);
    let page = state.layout.diff.height as usize;
    let on_screen = cx.highlighter.cached_lines();
    assert!(on_screen >= page - 2, "{on_screen} of {page}");

    view::prefetch_next_page(&state, &cx);
    let warmed = cx.highlighter.cached_lines();
    assert!(warmed >= on_screen + page - 2, "{warmed} after {on_screen}");
    // Again: nothing new, the page is already there.
    view::prefetch_next_page(&state, &cx);
    assert_eq!(cx.highlighter.cached_lines(), warmed);

    update(&mut state, Action::Command(Command::PageDown));
    draw(&mut state);
    let fresh = cx.highlighter.cached_lines() - warmed;
    assert!(
        fresh <= 2,
        "{fresh} lines of the new page were highlighted while drawing"
    );
}

/// Defect 14 (and 12): at 40 columns the diff view's footer names the finding on the cursor's
/// line by its title, not its id; the hint gives way to the title.
#[test]
fn the_diff_footer_names_the_finding_by_its_title_at_40_columns() {
    let mut state = finished();
    select(&mut state, "n1");
    apply(&mut state, [Action::Command(Command::OpenDiff)]);
    let terminal = render(&mut state, 40, 12);
    let lines: Vec<String> = terminal
        .backend()
        .buffer()
        .content()
        .chunks(40)
        .map(|row| row.iter().map(|c| c.symbol()).collect())
        .collect();
    let footer = lines
        .iter()
        .find(|l| l.contains('◆') && l.contains("P0"))
        .unwrap_or_else(|| panic!("no footer with the mark:\n{}", lines.join("\n")));
    assert!(footer.contains("Expired token"), "{footer}");
    assert!(!footer.contains("n1 "), "{footer}");
}

#[test]
fn a_review_thread_is_marked_in_the_gutter_apart_from_findings_and_named_in_the_footer() {
    use crate::pr::{ReviewThread, ThreadComment};
    let mut state = with_left_finding();
    select(&mut state, "n7");
    apply(&mut state, [Action::Command(Command::OpenDiff)]);
    let view = view_of(&state);
    let doc = DiffDoc::new(&state, view.cohort.as_deref());
    // A line with no finding: the cursor's next line that is a line.
    let (path, line) = (view.cursor + 1..doc.len())
        .find_map(|row| match doc.row(row) {
            Some(DiffRow::Line { path, line }) if line.new_line.is_some() => {
                Some((path.to_string(), line.new_line.unwrap()))
            }
            _ => None,
        })
        .expect("a line after the cursor");
    drop(doc);
    let thread = ReviewThread {
        id: "T1".into(),
        path,
        line: Some(line),
        start_line: None,
        original_line: Some(line),
        side: crate::diff::Side::Right,
        resolved: false,
        outdated: false,
        resolution_unknown: false,
        comments: vec![ThreadComment {
            id: Some(1),
            author: "alice".into(),
            author_is_bot: false,
            body: "why?".into(),
            created_at: "2026-01-01T00:00:00Z".into(),
        }],
    };
    apply(
        &mut state,
        [Action::Engine(Report::ReviewThreads(Arc::new(vec![
            thread,
        ])))],
    );
    let before = render(&mut state, 120, 40);
    let screen: Vec<String> = (0..40)
        .map(|y| {
            (0..120)
                .map(|x| before.backend().buffer()[(x, y)].symbol().to_string())
                .collect()
        })
        .collect();
    let marked: Vec<&String> = screen.iter().filter(|l| l.contains('¶')).collect();
    assert_eq!(marked.len(), 1, "{screen:#?}");
    assert!(
        !marked[0].contains('◆'),
        "a thread is not a finding: {}",
        marked[0]
    );
    // On its line, the footer names it.
    apply(&mut state, [Action::Command(Command::MoveDown)]);
    let mut found = false;
    for _ in 0..10 {
        let terminal = render(&mut state, 120, 40);
        let text: String = (0..40)
            .flat_map(|y| (0..120).map(move |x| (x, y)))
            .map(|p| terminal.backend().buffer()[p].symbol().to_string())
            .collect();
        if text.contains("thread by @alice · open · 1 comment(s)") {
            found = true;
            break;
        }
        apply(&mut state, [Action::Command(Command::MoveDown)]);
    }
    assert!(found, "the footer never named the thread");
}
