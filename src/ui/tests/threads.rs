//! The PR's review threads in the cockpit: the list (`t`), drafting a reply, a resolution and
//! a reopening from it, a finding's detail showing the threads on its lines, and the publish
//! preview listing the drafts.

use std::sync::Arc;

use ratatui::Terminal;
use ratatui::backend::TestBackend;

use super::fixtures::*;
use crate::pr::{ReviewThread, ThreadComment};
use crate::space::ThreadAction;
use crate::ui::action::{Action, Command, Report};
use crate::ui::keymap::Keymap;
use crate::ui::state::{AppState, InputPurpose, Overlay, PreviewData};
use crate::ui::theme::Theme;
use crate::ui::update::Effect;
use crate::ui::view::{self, ViewContext};

fn thread(
    id: &str,
    path: &str,
    line: u32,
    resolved: bool,
    author: &str,
    body: &str,
) -> ReviewThread {
    ReviewThread {
        id: id.into(),
        path: path.into(),
        line: Some(line),
        start_line: None,
        original_line: Some(line),
        side: crate::diff::Side::Right,
        resolved,
        outdated: false,
        resolution_unknown: false,
        comments: vec![
            ThreadComment {
                id: Some(100),
                author: author.into(),
                author_is_bot: false,
                body: body.into(),
                created_at: "2026-11-30T09:00:00Z".into(),
            },
            ThreadComment {
                id: Some(101),
                author: "bob".into(),
                author_is_bot: false,
                body: "seconded".into(),
                created_at: "2026-12-01T09:00:00Z".into(),
            },
        ],
    }
}

/// The finished review with two threads: a resolved one first in the forge's order, then an
/// open one on n1's lines (src/auth/refresh.rs:10-12).
fn with_threads() -> AppState {
    let mut state = finished();
    apply(
        &mut state,
        [Action::Engine(Report::ReviewThreads(Arc::new(vec![
            thread("T-done", "docs/auth.md", 3, true, "carol", "typo"),
            thread(
                "T-open",
                "src/auth/refresh.rs",
                11,
                false,
                "alice",
                "the cache never expires",
            ),
        ])))],
    );
    state
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
    let buffer = terminal.backend().buffer().clone();
    (0..height)
        .map(|y| {
            (0..width)
                .map(|x| buffer[(x, y)].symbol().to_string())
                .collect::<String>()
                + "\n"
        })
        .collect()
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

fn drafts(effects: &[Effect]) -> Vec<(String, String, ThreadAction)> {
    effects
        .iter()
        .filter_map(|e| match e {
            Effect::PutThreadDraft(d) => Some((d.id.clone(), d.thread.clone(), d.action.clone())),
            _ => None,
        })
        .collect()
}

#[test]
fn the_threads_list_shows_open_threads_first_with_author_date_replies_and_state() {
    let mut state = with_threads();
    apply(&mut state, [Action::Command(Command::Threads)]);
    assert!(matches!(
        state.top_overlay(),
        Some(Overlay::Threads { cursor: 0 })
    ));
    let text = screen(&mut state, 80, 24);
    let open = text.find("src/auth/refresh.rs:11").expect(&text);
    let done = text.find("docs/auth.md:3").expect(&text);
    assert!(open < done, "the open thread comes first:\n{text}");
    assert!(
        text.contains("@alice · 2026-11-30 · 1 reply · open"),
        "{text}"
    );
    assert!(
        text.contains("@carol · 2026-11-30 · 1 reply · resolved"),
        "{text}"
    );
    // The selected thread in full under the list.
    assert!(text.contains("the cache never expires"), "{text}");
    // `t` again closes it.
    apply(&mut state, [Action::Command(Command::Threads)]);
    assert!(state.top_overlay().is_none());
}

#[test]
fn replying_resolving_and_deleting_from_the_list_are_drafts_sent_to_the_session() {
    let mut state = with_threads();
    apply(&mut state, [Action::Command(Command::Threads)]);
    // Reply: the comment box, then a draft on the open thread.
    apply(&mut state, [Action::Command(Command::Reply)]);
    assert!(matches!(
        state.top_overlay(),
        Some(Overlay::Input(input)) if input.purpose == InputPurpose::Reply { thread: "T-open".into() }
    ));
    apply(&mut state, typed("fixed in 3f2a"));
    let effects = apply(&mut state, [Action::Submit]);
    assert_eq!(
        drafts(&effects),
        vec![(
            "reply-1".into(),
            "T-open".into(),
            ThreadAction::Reply {
                text: "fixed in 3f2a".into()
            }
        )]
    );
    assert!(matches!(state.top_overlay(), Some(Overlay::Threads { .. })));
    // Resolve the open thread; on the resolved one below, `r` reopens.
    let effects = apply(&mut state, [Action::Command(Command::Resolve)]);
    assert_eq!(drafts(&effects)[0].2, ThreadAction::Resolve);
    assert_eq!(drafts(&effects)[0].0, "resolve-1");
    let effects = apply(
        &mut state,
        [
            Action::Command(Command::MoveDown),
            Action::Command(Command::Resolve),
        ],
    );
    assert_eq!(
        drafts(&effects),
        vec![("resolve-2".into(), "T-done".into(), ThreadAction::Unresolve)]
    );
    let text = screen(&mut state, 80, 24);
    assert!(text.contains("draft: reopen"), "{text}");
    // `r` again takes the reopening back rather than drafting its opposite.
    let effects = apply(&mut state, [Action::Command(Command::Resolve)]);
    assert_eq!(effects, vec![Effect::DeleteThreadDraft("resolve-2".into())]);
    // `D` on the open thread drops its reply and resolution.
    let effects = apply(
        &mut state,
        [
            Action::Command(Command::MoveUp),
            Action::Command(Command::DeleteComment),
        ],
    );
    assert_eq!(
        effects,
        vec![
            Effect::DeleteThreadDraft("reply-1".into()),
            Effect::DeleteThreadDraft("resolve-1".into())
        ]
    );
    assert!(state.thread_drafts.is_empty());
}

#[test]
fn thread_drafts_are_undone_and_redone_like_every_triage_change() {
    let mut state = with_threads();
    apply(&mut state, [Action::Command(Command::Threads)]);
    apply(&mut state, [Action::Command(Command::Reply)]);
    apply(&mut state, typed("fixed in 3f2a"));
    apply(&mut state, [Action::Submit]);
    let reply = state.thread_drafts[0].clone();
    // `u` in the list takes the reply back; `ctrl-r` drafts it again, the same id and text.
    let effects = apply(&mut state, [Action::Command(Command::Undo)]);
    assert_eq!(effects, vec![Effect::DeleteThreadDraft("reply-1".into())]);
    assert!(state.thread_drafts.is_empty());
    let effects = apply(&mut state, [Action::Command(Command::Redo)]);
    assert_eq!(
        effects,
        vec![Effect::PutThreadDraft(Box::new(reply.clone()))]
    );
    // A resolution, then `D` drops both: one undo brings both back.
    apply(&mut state, [Action::Command(Command::Resolve)]);
    apply(&mut state, [Action::Command(Command::DeleteComment)]);
    assert!(state.thread_drafts.is_empty());
    let effects = apply(&mut state, [Action::Command(Command::Undo)]);
    assert_eq!(drafts(&effects).len(), 2, "{effects:?}");
    assert_eq!(state.thread_drafts.len(), 2);
    // On the panes too: one history. The resolution's undo deletes it.
    apply(&mut state, [Action::Command(Command::Threads)]);
    assert!(state.top_overlay().is_none());
    let effects = apply(&mut state, [Action::Command(Command::Undo)]);
    assert_eq!(effects, vec![Effect::DeleteThreadDraft("resolve-1".into())]);
    assert_eq!(state.thread_drafts, vec![reply.clone()]);
    // A posted draft stays posted: undo says so and sends nothing.
    state.thread_drafts[0].posted = true;
    let effects = apply(&mut state, [Action::Command(Command::Undo)]);
    assert!(effects.is_empty(), "{effects:?}");
    let said = &state.message.as_ref().expect("a message").text;
    assert!(said.contains("reply-1 was posted"), "{said}");
}

#[test]
fn a_findings_detail_shows_the_review_thread_on_its_lines() {
    let mut state = with_threads();
    select(&mut state, "n1");
    let text = screen(&mut state, 160, 50);
    assert!(text.contains("¶ src/auth/refresh.rs:11 · open"), "{text}");
    assert!(text.contains("the cache never expires"), "{text}");
    // The resolved thread on another file is not under this finding.
    assert!(!text.contains("typo"), "{text}");
}

#[test]
fn the_publish_preview_lists_the_thread_drafts() {
    let mut state = with_threads();
    apply(
        &mut state,
        [
            Action::Command(Command::Threads),
            Action::Command(Command::Resolve),
            Action::Command(Command::Close),
        ],
    );
    state.overlays.push(Overlay::Preview {
        data: PreviewData {
            event: "COMMENT".into(),
            inline_comments: 1,
            already_raised: vec![raised_row("fp-key", "src/lib.rs:9 Hardcoded key")],
            body: "summary".into(),
            target: "github review on acme/payments#42".into(),
            ..PreviewData::default()
        },
        scroll: 0,
        raised: 0,
    });
    let text = screen(&mut state, 80, 24);
    assert!(
        text.contains("resolve-1 resolve the thread of @alice on src/auth/refresh.rs:11"),
        "{text}"
    );
    assert!(text.contains("Hardcoded key — @alice"), "{text}");
}

#[test]
fn no_draft_is_made_while_the_review_runs() {
    let mut state = streaming();
    assert!(state.review_running());
    apply(
        &mut state,
        [Action::Engine(Report::ReviewThreads(Arc::new(vec![
            thread("T-open", "src/auth/refresh.rs", 11, false, "alice", "why?"),
        ])))],
    );
    apply(&mut state, [Action::Command(Command::Threads)]);
    let effects = apply(
        &mut state,
        [
            Action::Command(Command::Resolve),
            Action::Command(Command::Reply),
        ],
    );
    assert!(effects.is_empty(), "{effects:?}");
    assert!(state.thread_drafts.is_empty());
    assert!(matches!(state.top_overlay(), Some(Overlay::Threads { .. })));
}

fn raised_row(fingerprint: &str, what: &str) -> crate::ui::state::RaisedRow {
    let (location, title) = what.split_once(' ').unwrap();
    crate::ui::state::RaisedRow {
        fingerprint: fingerprint.into(),
        location: location.into(),
        title: title.into(),
        by: "alice".into(),
        included: false,
    }
}

/// In the preview, `n` selects the next finding already raised and `i` includes it: the
/// choice goes to the session, a new preview is asked for (enter waits for it) and comes back
/// where the person was; `u`, after the preview, takes the choice back.
#[test]
fn the_include_key_posts_the_selected_finding_already_raised_and_undo_takes_it_back() {
    let mut state = with_threads();
    let data = PreviewData {
        event: "COMMENT".into(),
        already_raised: vec![
            raised_row("fp-key", "src/lib.rs:9 Hardcoded key"),
            raised_row("fp-unwrap", "src/lib.rs:6 unwrap() can panic"),
        ],
        body: "summary".into(),
        ..PreviewData::default()
    };
    state.overlays.push(Overlay::Preview {
        data: data.clone(),
        scroll: 0,
        raised: 0,
    });
    let text = screen(&mut state, 80, 24);
    assert!(text.contains("2 left out (already"), "{text}");
    assert!(text.contains("i include/leave out"), "{text}");
    let effects = apply(
        &mut state,
        [
            Action::Command(Command::NextFinding),
            Action::Command(Command::IncludeRaised),
        ],
    );
    assert_eq!(
        effects,
        vec![
            Effect::IncludeRaised {
                fingerprint: "fp-unwrap".into(),
                include: true
            },
            Effect::PreviewPublish
        ]
    );
    assert!(state.include_raised.contains("fp-unwrap"));
    assert!(matches!(state.top_overlay(), Some(Overlay::PreviewPending)));
    // Enter waits for the new preview: nothing is published from the old one.
    assert!(apply(&mut state, [Action::Command(Command::PublishConfirm)]).is_empty());
    let mut again = data;
    again.already_raised[1].included = true;
    apply(&mut state, [Action::Engine(Report::PublishPreview(again))]);
    assert!(
        matches!(
            state.top_overlay(),
            Some(Overlay::Preview { raised: 1, .. })
        ),
        "back on the row chosen"
    );
    let text = screen(&mut state, 80, 24);
    assert!(text.contains("posted   src/lib.rs:6"), "{text}");
    assert!(text.contains("1 left out (already"), "{text}");
    // Cancelled, then undone from the findings.
    apply(&mut state, [Action::Command(Command::PublishCancel)]);
    let effects = apply(&mut state, [Action::Command(Command::Undo)]);
    assert_eq!(
        effects,
        vec![Effect::IncludeRaised {
            fingerprint: "fp-unwrap".into(),
            include: false
        }]
    );
    assert!(state.include_raised.is_empty());
    let effects = apply(&mut state, [Action::Command(Command::Redo)]);
    assert_eq!(
        effects,
        vec![Effect::IncludeRaised {
            fingerprint: "fp-unwrap".into(),
            include: true
        }]
    );
}
