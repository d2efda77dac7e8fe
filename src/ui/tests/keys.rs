//! The keymap: defaults, user overrides by action name, and what keys mean under overlays.

use ratatui::crossterm::event::{Event, KeyCode, KeyEvent, KeyModifiers};

use super::fixtures::*;
use crate::ui::action::{Action, Command, Report};
use crate::ui::keymap::{Context, Key, Keymap};
use crate::ui::state::{InputPurpose, Overlay};

fn key(code: KeyCode) -> Event {
    Event::Key(KeyEvent::new(code, KeyModifiers::NONE))
}

#[test]
fn defaults_bind_the_documented_keys() {
    let keymap = Keymap::default();
    let state = finished();
    for (code, action) in [
        (KeyCode::Char('j'), Action::Command(Command::MoveDown)),
        (KeyCode::Down, Action::Command(Command::MoveDown)),
        (KeyCode::Char('k'), Action::Command(Command::MoveUp)),
        (KeyCode::Tab, Action::Command(Command::NextPane)),
        (KeyCode::BackTab, Action::Command(Command::PrevPane)),
        (KeyCode::Enter, Action::Command(Command::Expand)),
        (KeyCode::Char('c'), Action::Command(Command::Confirm)),
        (KeyCode::Char('x'), Action::Command(Command::Dismiss)),
        (KeyCode::Char('r'), Action::Command(Command::Resolve)),
        (KeyCode::Char('o'), Action::Command(Command::Reopen)),
        (KeyCode::Char('e'), Action::Command(Command::EditComment)),
        (KeyCode::Char('/'), Action::Command(Command::Filter)),
        (KeyCode::Char('n'), Action::Command(Command::NextFinding)),
        (KeyCode::Char('N'), Action::Command(Command::PrevFinding)),
        (KeyCode::Char('L'), Action::Command(Command::CycleLevel)),
        (KeyCode::Char('g'), Action::Command(Command::OpenGate)),
        (KeyCode::Char('?'), Action::Command(Command::Help)),
        (KeyCode::Char('q'), Action::Command(Command::Quit)),
    ] {
        assert_eq!(
            keymap.translate(&state, &key(code)),
            Some(action.clone()),
            "{code:?}"
        );
    }
    // A shifted letter arrives with SHIFT set; it is the same key.
    let shifted = Event::Key(KeyEvent::new(KeyCode::Char('N'), KeyModifiers::SHIFT));
    assert_eq!(
        keymap.translate(&state, &shifted),
        Some(Action::Command(Command::PrevFinding))
    );
}

#[test]
fn every_binding_has_a_description() {
    for binding in Keymap::default().bindings {
        assert!(!binding.desc.is_empty(), "{}", binding.command.name());
    }
}

#[test]
fn a_user_file_overrides_single_bindings_by_action_name() {
    let keymap =
        Keymap::with_overrides("confirm = \"C\"\nmove_down = [\"j\", \"ctrl-n\"]\n").unwrap();
    let state = finished();
    assert_eq!(
        keymap.translate(&state, &key(KeyCode::Char('C'))),
        Some(Action::Command(Command::Confirm))
    );
    assert_eq!(
        keymap.translate(&state, &key(KeyCode::Char('c'))),
        Some(Action::UnknownKey("c".into()))
    );
    let ctrl_n = Event::Key(KeyEvent::new(KeyCode::Char('n'), KeyModifiers::CONTROL));
    assert_eq!(
        keymap.translate(&state, &ctrl_n),
        Some(Action::Command(Command::MoveDown))
    );
    // Unbound now, and said rather than swallowed.
    assert_eq!(
        keymap.translate(&state, &key(KeyCode::Down)),
        Some(Action::UnknownKey("↓".into()))
    );
    // Everything else keeps its default.
    assert_eq!(
        keymap.translate(&state, &key(KeyCode::Char('x'))),
        Some(Action::Command(Command::Dismiss))
    );
    assert_eq!(
        keymap.keys_for(Context::Main, Command::MoveDown),
        "j/ctrl-n"
    );

    let err = Keymap::with_overrides("confrim = \"c\"").unwrap_err();
    assert!(
        err.to_string().contains("unknown action `confrim`"),
        "{err}"
    );
    let err = Keymap::with_overrides("confirm = \"hyper-x\"").unwrap_err();
    assert!(err.to_string().contains("unknown key"), "{err}");
}

#[test]
fn keys_parse_and_print_back() {
    for text in [
        "j",
        "G",
        "?",
        "enter",
        "esc",
        "tab",
        "shift-tab",
        "space",
        "pgdn",
        "ctrl-c",
        "f1",
    ] {
        let parsed = Key::parse(text).unwrap();
        assert_eq!(
            Key::parse(&parsed.to_string().replace('↓', "down")).unwrap(),
            parsed,
            "{text}"
        );
    }
    assert_eq!(Key::parse("shift-n").unwrap(), Key::parse("N").unwrap());
}

#[test]
fn overlays_take_the_keys() {
    let keymap = Keymap::default();
    let mut state = finished();

    state.overlays.push(Overlay::Gate {
        details: false,
        scroll: 0,
    });
    assert_eq!(
        keymap.translate(&state, &key(KeyCode::Char('p'))),
        Some(Action::Command(Command::GatePublish))
    );
    assert_eq!(
        keymap.translate(&state, &key(KeyCode::Char('c'))),
        Some(Action::UnknownKey("c".into())),
        "no triage under the gate"
    );

    state.overlays.push(Overlay::Preview {
        data: Default::default(),
        scroll: 0,
        raised: 0,
    });
    assert_eq!(
        keymap.translate(&state, &key(KeyCode::Enter)),
        Some(Action::Command(Command::PublishConfirm))
    );
    assert_eq!(
        keymap.translate(&state, &key(KeyCode::Char('j'))),
        Some(Action::Command(Command::MoveDown))
    );
    assert_eq!(
        keymap.translate(&state, &key(KeyCode::Char('y'))),
        Some(Action::Command(Command::PublishCancel))
    );

    state.overlays.push(Overlay::input(
        InputPurpose::Dismiss {
            node_ids: vec!["n1".into()],
        },
        "",
    ));
    assert!(matches!(
        keymap.translate(&state, &key(KeyCode::Char('q'))),
        Some(Action::Text(_))
    ));
    assert_eq!(
        keymap.translate(&state, &key(KeyCode::Enter)),
        Some(Action::Submit)
    );
    assert_eq!(
        keymap.translate(&state, &key(KeyCode::Esc)),
        Some(Action::Cancel)
    );

    state.overlays.push(Overlay::input(
        InputPurpose::EditComment {
            node_id: "n1".into(),
        },
        "",
    ));
    assert!(matches!(
        keymap.translate(&state, &key(KeyCode::Enter)),
        Some(Action::Text(_))
    ));
    let save = Event::Key(KeyEvent::new(KeyCode::Char('s'), KeyModifiers::CONTROL));
    assert_eq!(keymap.translate(&state, &save), Some(Action::Submit));

    state.overlays.push(Overlay::Error {
        title: "x".into(),
        message: "y".into(),
    });
    assert_eq!(
        keymap.translate(&state, &key(KeyCode::Char('z'))),
        Some(Action::Command(Command::Close))
    );
}

#[test]
fn mouse_and_resize_become_actions() {
    use ratatui::crossterm::event::{MouseButton, MouseEvent, MouseEventKind};
    let keymap = Keymap::default();
    let state = finished();
    let mouse = |kind| {
        Event::Mouse(MouseEvent {
            kind,
            column: 3,
            row: 9,
            modifiers: KeyModifiers::NONE,
        })
    };
    assert_eq!(
        keymap.translate(&state, &mouse(MouseEventKind::Down(MouseButton::Left))),
        Some(Action::Click { column: 3, row: 9 })
    );
    assert_eq!(
        keymap.translate(&state, &mouse(MouseEventKind::ScrollDown)),
        Some(Action::ScrollDown { column: 3, row: 9 })
    );
    assert_eq!(
        keymap.translate(&state, &Event::Resize(80, 24)),
        Some(Action::Resize {
            width: 80,
            height: 24
        })
    );
}

#[test]
fn messages_name_the_keys_the_person_bound_not_the_defaults() {
    let mut state = finished();
    state.keymap = std::sync::Arc::new(
        Keymap::with_overrides("view_patch = \"alt-v\"\nopen_gate = \"ctrl-g\"\nreopen = \"R\"")
            .unwrap(),
    );
    apply(&mut state, [Action::Command(Command::ViewPatch)]);
    let text = state.message.take().unwrap().text;
    assert!(text.contains("(ctrl-g, then f)"), "{text}");
    apply(
        &mut state,
        [Action::Engine(Report::PatchWritten {
            patch: crate::ui::state::PatchData {
                path: "/tmp/fix.patch".into(),
                text: String::new(),
                answers: false,
            },
            summary: "patch written".into(),
        })],
    );
    let text = state.message.take().unwrap().text;
    assert!(text.ends_with("· alt-v shows it"), "{text}");
    assert!(!text.contains(" v shows"), "{text}");
    // A finding already dismissed: the key that reopens it is the remapped one.
    select(&mut state, "n2");
    apply(&mut state, [Action::Command(Command::Dismiss)]);
    apply(
        &mut state,
        "noise".chars().map(|c| {
            Action::Text(ratatui_textarea::Input {
                key: ratatui_textarea::Key::Char(c),
                ..Default::default()
            })
        }),
    );
    apply(&mut state, [Action::Submit]);
    select(&mut state, "n2");
    apply(&mut state, [Action::Command(Command::Dismiss)]);
    let text = state.message.take().unwrap().text;
    assert!(text.ends_with(": R reopens it"), "{text}");
    // Unbound: the command's name, so the person can bind it.
    let keymap = Keymap::with_overrides("view_patch = []").unwrap();
    assert_eq!(
        keymap.key(Context::Main, Command::ViewPatch),
        "`view_patch` (unbound)"
    );
}

/// Left and right arrows move between the panes (and files in the diff view); where they are
/// bound to nothing, they are said, never swallowed.
#[test]
fn left_and_right_arrows_act_or_are_said() {
    let keymap = Keymap::default();
    let mut state = finished();
    assert_eq!(
        keymap.translate(&state, &key(KeyCode::Right)),
        Some(Action::Command(Command::NextPane))
    );
    assert_eq!(
        keymap.translate(&state, &key(KeyCode::Left)),
        Some(Action::Command(Command::PrevPane))
    );
    state.overlays.push(Overlay::Gate {
        details: false,
        scroll: 0,
    });
    assert_eq!(
        keymap.translate(&state, &key(KeyCode::Left)),
        Some(Action::UnknownKey("←".into()))
    );
}
