//! The cockpit at the sizes people use (80×24 and smaller, and back): what must stay on
//! screen does, scrolling stops at the last line, and a running review says it is running.

use ratatui::Terminal;
use ratatui::backend::TestBackend;

use super::fixtures::*;
use crate::review::events::EventKind;
use crate::review::node::{Kind, Priority, Source};
use crate::ui::action::{Action, Command, Report};
use crate::ui::keymap::Keymap;
use crate::ui::state::{AppState, Overlay, Pane};
use crate::ui::theme::Theme;
use crate::ui::update::update;
use crate::ui::view::{self, ViewContext};

/// Draws `state` at `width`×`height` twice (the second frame uses the layout the first one
/// measured, as the loop does) and returns the screen as lines.
pub fn screen(state: &mut AppState, width: u16, height: u16) -> Vec<String> {
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
    (0..height)
        .map(|y| {
            (0..width)
                .map(|x| buffer[(x, y)].symbol().to_string())
                .collect::<String>()
        })
        .collect()
}

fn text(lines: &[String]) -> String {
    lines.join("\n")
}

#[test]
fn a_running_review_says_running_with_what_is_known_never_a_provisional_verdict() {
    let mut state = streaming();
    let lines = screen(&mut state, 120, 40);
    let header = &lines[2];
    assert!(header.contains("RUNNING"), "{header}");
    assert!(header.contains("1 of 5 reviewers done"), "{header}");
    assert!(
        header.contains("2 findings so far: P0 1 · P1 1"),
        "{header}"
    );
    for word in ["BLOCK", "HOLD", "INCONCLUSIVE", "provisional"] {
        assert!(!header.contains(word), "{word} in {header}");
    }
    // Once the review awaits approval, the decision is shown.
    apply(
        &mut state,
        [Action::Engine(Report::Ladder(
            crate::space::state::Ladder::AwaitingApproval,
        ))],
    );
    let lines = screen(&mut state, 120, 40);
    assert!(!lines[2].contains("RUNNING"), "{}", lines[2]);
}

#[test]
fn at_80x24_the_list_keeps_titles_whole_statuses_and_help_and_quit() {
    let mut state = finished();
    let reason = "a test fixture";
    select(&mut state, "n2");
    apply(&mut state, [Action::Command(Command::Dismiss)]);
    apply(&mut state, typed(reason));
    apply(&mut state, [Action::Submit]);
    state.message = None;
    let lines = screen(&mut state, 80, 24);
    let all = text(&lines);
    // Titles get the room: the reviewers' names, the confidence and the status's word give
    // way first (34 columns of a 52-column list, where the status's word left 26).
    assert!(all.contains("Expired token is reused: refresh("), "{all}");
    assert!(all.contains("Consider a test for the expired-c"), "{all}");
    // The status stays, as one glyph (`?` names them), never a cut word.
    let dismissed = lines
        .iter()
        .find(|l| l.contains("Consider a test for"))
        .expect("the dismissed row");
    // Stacked, the list has the whole width: the status is its word, whole.
    assert!(dismissed.contains(" dismissed"), "{dismissed}");
    assert!(!all.contains("dismisse "), "{all}");
    // The list's rows: each keeps its status.
    let list: Vec<String> = lines.clone();
    let rows: Vec<&String> = list
        .iter()
        .filter(|l| {
            // Inside the list pane: the header's reason may name priorities too.
            l.starts_with('│')
                && [" P0 ", " P1 ", " P2 ", " P3 "]
                    .iter()
                    .any(|p| l.contains(p))
        })
        .collect();
    assert!(rows.len() >= 3, "{all}");
    for row in rows {
        assert!(
            row.contains(" open") || row.contains(" ready") || row.contains(" dismissed"),
            "a row without its status: {row}"
        );
    }
    let hints = lines.last().unwrap();
    assert!(hints.contains("? help"), "{hints}");
    assert!(hints.contains("q quit"), "{hints}");
}

fn typed(text: &str) -> Vec<Action> {
    text.chars()
        .map(|c| {
            Action::Text(ratatui_textarea::Input {
                key: ratatui_textarea::Key::Char(c),
                ctrl: false,
                alt: false,
                shift: false,
            })
        })
        .collect()
}

#[test]
fn the_gate_shows_every_action_at_80x24_and_40x12_even_with_details() {
    for (width, height) in [(80, 24), (40, 12), (160, 45)] {
        let mut state = finished();
        apply(
            &mut state,
            [
                Action::Engine(Report::Ladder(
                    crate::space::state::Ladder::AwaitingApproval,
                )),
                Action::Command(Command::OpenGate),
                Action::Command(Command::GateDetails),
            ],
        );
        let all = text(&screen(&mut state, width, height));
        for action in ["fix", "ignore", "publish", "details", "leave", "esc"] {
            assert!(
                all.contains(action),
                "{action} missing at {width}x{height}:\n{all}"
            );
        }
    }
}

#[test]
fn the_gate_scrolls_its_verdict_and_stops_at_the_last_line() {
    let mut state = finished();
    apply(
        &mut state,
        [
            Action::Engine(Report::Ladder(
                crate::space::state::Ladder::AwaitingApproval,
            )),
            Action::Command(Command::OpenGate),
            Action::Command(Command::GateDetails),
        ],
    );
    screen(&mut state, 40, 12);
    let max = state.layout.overlay_scroll_max;
    assert!(max > 0, "the details do not fit at 40x12");
    apply(&mut state, [Action::Command(Command::Bottom)]);
    assert!(matches!(state.top_overlay(), Some(Overlay::Gate { scroll, .. }) if *scroll == max));
    apply(
        &mut state,
        [
            Action::Command(Command::MoveDown),
            Action::Command(Command::MoveDown),
        ],
    );
    assert!(matches!(state.top_overlay(), Some(Overlay::Gate { scroll, .. }) if *scroll == max));
    // The last line of the body is on screen.
    let all = text(&screen(&mut state, 40, 12));
    assert!(all.contains("dismissed"), "{all}");
}

#[test]
fn the_detail_pane_end_shows_its_last_lines_not_empty_space() {
    let mut state = finished();
    select(&mut state, "n1");
    state.focus = Pane::Detail;
    screen(&mut state, 80, 24);
    let max = state.layout.detail_scroll_max;
    assert!(max > 0);
    update(&mut state, Action::Command(Command::Bottom));
    assert_eq!(state.detail.scroll, max);
    let (column, row) = (state.layout.detail.x + 2, state.layout.detail.y + 2);
    for _ in 0..5 {
        update(&mut state, Action::Command(Command::MoveDown));
        update(&mut state, Action::ScrollDown { column, row });
    }
    assert_eq!(state.detail.scroll, max);
    let lines = screen(&mut state, 80, 24);
    let detail = state.layout.detail;
    // The pane's last inner row holds text.
    let last = &lines[(detail.bottom() - 2) as usize][..]
        .chars()
        .skip(detail.x as usize + 1)
        .take(detail.width as usize - 2)
        .collect::<String>();
    assert!(!last.trim().is_empty(), "{}", text(&lines));
}

#[test]
fn help_and_the_publish_preview_stop_scrolling_at_their_end() {
    let mut state = finished();
    apply(&mut state, [Action::Command(Command::Help)]);
    screen(&mut state, 80, 24);
    let max = state.layout.overlay_scroll_max;
    assert!(max > 0);
    for _ in 0..(max as usize + 20) {
        update(&mut state, Action::Command(Command::MoveDown));
    }
    assert!(matches!(state.top_overlay(), Some(Overlay::Help { scroll }) if *scroll == max));
    let all = text(&screen(&mut state, 80, 24));
    assert!(all.contains("click selects."), "{all}");

    let mut state = finished();
    apply(
        &mut state,
        [
            Action::Engine(Report::Ladder(
                crate::space::state::Ladder::AwaitingApproval,
            )),
            Action::Command(Command::OpenGate),
            Action::Command(Command::GatePublish),
            Action::Engine(Report::PublishPreview(crate::ui::state::PreviewData {
                event: "COMMENT".into(),
                already_raised: Vec::new(),
                body: (1..=60).map(|i| format!("line {i}\n")).collect(),
                target: "review.md".into(),
                ..Default::default()
            })),
        ],
    );
    screen(&mut state, 80, 24);
    let max = state.layout.overlay_scroll_max;
    assert!(max > 0);
    update(&mut state, Action::Command(Command::Bottom));
    update(&mut state, Action::Command(Command::PageDown));
    assert!(matches!(state.top_overlay(), Some(Overlay::Preview { scroll, .. }) if *scroll == max));
    let all = text(&screen(&mut state, 80, 24));
    assert!(all.contains("line 60"), "{all}");
    assert!(all.contains("enter publish exactly this"), "{all}");
}

#[test]
fn the_filter_is_typed_below_the_list_it_filters() {
    let mut state = finished();
    let before = screen(&mut state, 80, 24);
    let findings = state.layout.findings;
    apply(&mut state, [Action::Command(Command::Filter)]);
    let during = screen(&mut state, 80, 24);
    // The list's first rows are where they were; the box is in the status line.
    for y in findings.y..findings.y + 3 {
        assert_eq!(before[y as usize], during[y as usize]);
    }
    assert!(
        during.last().unwrap().contains("filter /"),
        "{}",
        text(&during)
    );
}

#[test]
fn a_resize_back_from_40x12_shows_the_rows_again() {
    let mut state = finished();
    state.findings.below_open.insert("p-docs".into());
    let last = crate::ui::rows::rows(&state).last().unwrap().key();
    state.findings.selected = Some(last);
    screen(&mut state, 40, 12);
    update(
        &mut state,
        Action::Resize {
            width: 160,
            height: 45,
        },
    );
    let all = text(&screen(&mut state, 160, 45));
    // The first cohort's header is back on screen.
    assert!(all.contains("auth::refresh_token"), "{all}");
    // The next key reconciles the offset with the measured size.
    update(&mut state, Action::Tick);
    assert_eq!(state.findings.offset, 0);
}

#[test]
fn the_diff_view_opens_at_40x12_with_the_cursor_line_on_screen() {
    let mut state = finished();
    apply(&mut state, [Action::Engine(Report::Diff(diff()))]);
    select(&mut state, "n2");
    // No frame yet with the diff open: its height is a guess until the first one.
    screen(&mut state, 40, 12);
    apply(&mut state, [Action::Command(Command::OpenDiff)]);
    let Some(Overlay::Diff(view)) = state.top_overlay().cloned() else {
        panic!("no diff view");
    };
    let lines = screen(&mut state, 40, 12);
    let all = text(&lines);
    // n2's line (11 on the right side) is the cursor's, and it is on screen.
    assert!(
        all.contains(&format!("{}/", view.cursor + 1)),
        "cursor {}:\n{all}",
        view.cursor
    );
    assert!(
        all.contains("11 +"),
        "cursor {} not on screen:\n{all}",
        view.cursor
    );
}

#[test]
fn the_offline_banner_is_whole_above_the_stored_verdict_at_80_columns() {
    let banner = "offline: showing round 2 as of 2026-12-01 17:21 UTC; not refreshed";
    let mut state = finished();
    state.offline = Some(banner.to_string());
    let lines = screen(&mut state, 80, 40);
    // The round line is the banner, whole, and the verdict under it is the stored one.
    assert!(lines[1].contains(banner), "{}", text(&lines));
    assert!(!lines[1].contains("requested"), "{}", lines[1]);
    assert!(lines[2].contains("BLOCK"), "{}", text(&lines));
    // A short terminal's one-line header: the stored decision, then the banner whole.
    let short = screen(&mut state, 80, 24);
    assert!(
        short[0].starts_with(" BLOCK ") && short[0].contains(banner),
        "{}",
        short[0]
    );
    // Wide enough, the ladder follows it; narrower than the banner, it is cut, never dropped.
    let wide = screen(&mut state, 200, 40);
    assert!(
        wide[1].contains(banner) && wide[1].contains("level"),
        "{}",
        wide[1]
    );
    let narrow = screen(&mut state, 50, 20);
    assert!(
        narrow[0].contains("offline: showing round 2"),
        "{}",
        narrow[0]
    );
    // Online, no banner at all.
    state.offline = None;
    let online = screen(&mut state, 80, 24);
    assert!(!text(&online).contains("offline"), "{}", text(&online));
}

#[test]
fn two_disagreements_on_one_finding_differ_on_screen_at_80_columns() {
    // One finding over lines 8–9 that two others disagree with, one on each line, with the
    // same title: the only difference is where the other side is, and it must show.
    let mut state = finished();
    apply(
        &mut state,
        [
            added(node(NodeSpec {
                id: "wide",
                reviewer: "qa",
                priority: Priority::P1,
                kind: Kind::Bug,
                anchor: Some(("src/store/session.rs", 8, 9)),
                title: "Session save discards and unwraps I/O errors",
                ..NodeSpec::default()
            })),
            added(node(NodeSpec {
                id: "on-8",
                reviewer: "rules",
                source: Source::Deterministic,
                priority: Priority::P2,
                kind: Kind::Suggestion,
                anchor: Some(("src/store/session.rs", 8, 8)),
                title: "`unwrap()` outside tests can panic",
                ..NodeSpec::default()
            })),
            added(node(NodeSpec {
                id: "on-9",
                reviewer: "rules",
                source: Source::Deterministic,
                priority: Priority::P2,
                kind: Kind::Suggestion,
                anchor: Some(("src/store/session.rs", 9, 9)),
                title: "`unwrap()` outside tests can panic",
                ..NodeSpec::default()
            })),
        ],
    );
    let pairs: Vec<_> = state
        .disagreements()
        .iter()
        .filter(|d| d.a == "wide" || d.b == "wide")
        .collect();
    assert_eq!(pairs.len(), 2, "{:?}", state.disagreements());
    let lines = screen(&mut state, 80, 24);
    let top = lines
        .iter()
        .position(|l| l.contains("Disagreements ("))
        .expect("the disagreements pane");
    let rows: Vec<&str> = lines[top + 1..]
        .iter()
        .take_while(|l| !l.contains('└'))
        .map(|l| l.split('│').nth(1).unwrap_or(""))
        .filter(|row| row.contains(" rules"))
        .collect();
    assert_eq!(rows.len(), 2, "{}", text(&lines));
    assert_ne!(rows[0], rows[1], "{}", text(&lines));
}

#[test]
fn the_list_names_its_columns_and_marks_on_its_first_line() {
    for (width, height, names) in [
        (60, 24, &["P", "kind", "title", "(+N)", "○"][..]),
        (
            200,
            60,
            &[
                "P",
                "kind",
                "title",
                "▸ (+N)",
                "found, ✓confirmed",
                "%",
                "status",
            ][..],
        ),
    ] {
        let mut state = finished();
        let lines = screen(&mut state, width, height);
        let top = lines
            .iter()
            .position(|l| l.contains("┌ Findings ("))
            .expect("the findings pane");
        let header = &lines[top + 1];
        for name in names {
            assert!(header.contains(name), "{name} at {width}: {header}");
        }
        // Each name sits over its column: the status over the rows' statuses.
        let column = |line: &str, word: &str| line.find(word).map(|b| line[..b].chars().count());
        let row = lines
            .iter()
            .find(|l| l.contains("Consider a test for"))
            .expect("a finding row");
        let (status, open) = if width < 80 {
            ("○", "○")
        } else {
            ("status", "open")
        };
        assert_eq!(column(header, status), column(row, open), "{header}\n{row}");
        assert_eq!(
            column(header, "kind"),
            column(row, "sugg"),
            "{header}\n{row}"
        );
        // The duplicate count stays whole when the title is cut.
        assert!(text(&lines).contains("(+1)"), "{}", text(&lines));
    }
}

/// The hint bar offers the keys of what takes them: with the gate open its own (`f fix`,
/// `esc back`), never the panes' (`c confirm`, `q quit`), which do nothing under it.
#[test]
fn the_hint_bar_offers_the_open_overlays_keys_not_the_panes() {
    let mut state = finished();
    apply(&mut state, [Action::Command(Command::OpenGate)]);
    state.message = None;
    let lines = screen(&mut state, 80, 24);
    let hints = lines.last().unwrap();
    assert!(hints.starts_with(" Gate "), "{hints}\n{}", lines.join("\n"));
    for key in ["f fix", "p publish", "esc back"] {
        assert!(hints.contains(key), "{key}: {hints}");
    }
    for key in ["c confirm", "q quit", "enter open"] {
        assert!(!hints.contains(key), "{key}: {hints}");
    }
    apply(&mut state, [Action::Command(Command::Close)]);
    let lines = screen(&mut state, 80, 24);
    let hints = lines.last().unwrap();
    assert!(
        hints.contains("c confirm") && hints.contains("q quit"),
        "{hints}"
    );
}

#[test]
fn without_a_model_the_first_screen_says_what_did_not_run_and_the_ways_on_whole() {
    for width in [80u16, 120, 240] {
        let mut state = loading();
        state.no_model = true;
        let lines = screen(&mut state, width, 24);
        let banner = &lines[1];
        let expected = crate::session::no_model::line(usize::from(width) - 2);
        assert!(banner.contains(expected), "{width}: {banner}");
        for needed in [
            "--deterministic-only",
            "OPENAI_API_KEY",
            "ANTHROPIC_API_KEY",
            "OLLAMA_HOST",
        ] {
            assert!(banner.contains(needed), "{width}: {banner}");
        }
    }
    // With a model, nothing of the kind.
    let mut state = loading();
    let lines = screen(&mut state, 120, 24);
    assert!(!text(&lines).contains("no model"), "{}", text(&lines));
}

/// A short terminal with a long message (a published report's paths): the findings keep a
/// row in sight, the disagreements giving up their pane first, never the list.
#[test]
fn the_findings_keep_a_row_under_a_long_message_on_a_short_terminal() {
    let mut state = finished();
    assert!(!state.disagreements().is_empty());
    state.message = Some(crate::ui::state::Message {
        text: format!(
            "published: {}",
            "/a/long/path/of/a/report/review.md and ".repeat(6)
        ),
        kind: crate::ui::state::MessageKind::Info,
    });
    let lines = screen(&mut state, 60, 15);
    let top = lines
        .iter()
        .position(|l| l.contains("┌ Findings ("))
        .unwrap_or_else(|| panic!("{}", text(&lines)));
    assert!(lines[top + 1].starts_with('│'), "{}", text(&lines));
}

#[test]
fn a_dispute_row_names_who_disputed_and_who_confirmed_not_the_author_twice() {
    // A finding is one node: its dispute row pairs it with itself, so the other side is the
    // reviewer who disputed it (and the peer who confirmed it), never its author again.
    let mut state = finished();
    apply(
        &mut state,
        [
            added(node(NodeSpec {
                id: "refuted",
                reviewer: "engineer",
                priority: Priority::P1,
                kind: Kind::Bug,
                anchor: Some(("src/client.rs", 23, 23)),
                title: "Client::new ignores a failure",
                ..NodeSpec::default()
            })),
            event(
                "verifier",
                EventKind::Stance {
                    node_id: "refuted".into(),
                    confirm: false,
                    note: "the error is returned".into(),
                },
            ),
            added(node(NodeSpec {
                id: "split",
                reviewer: "qa",
                priority: Priority::P1,
                kind: Kind::Bug,
                anchor: Some(("src/store/cache.rs", 4, 4)),
                title: "The cache never expires",
                ..NodeSpec::default()
            })),
            event(
                "architect",
                EventKind::Stance {
                    node_id: "split".into(),
                    confirm: true,
                    note: "seen".into(),
                },
            ),
            event(
                "verifier",
                EventKind::Stance {
                    node_id: "split".into(),
                    confirm: false,
                    note: "expires on read".into(),
                },
            ),
        ],
    );
    let lines = screen(&mut state, 140, 40);
    let all = text(&lines);
    let row = |title: &str| {
        lines
            .iter()
            .find(|l| l.contains('⇄') && l.contains(title))
            .unwrap_or_else(|| panic!("a dispute row for {title}:\n{all}"))
            .clone()
    };
    let refuted = row("Client::new");
    assert!(
        refuted.contains("engineer ⇄ verifier") && refuted.matches("engineer").count() == 1,
        "{refuted}"
    );
    let split = row("cache never");
    assert!(
        split.contains("qa ⇄ verifier") && split.contains("✓ architect"),
        "{split}"
    );
}
