//! The components say what can run now: the hint bar leaves out what cannot, help and the
//! gate grey it; the status line keeps help and quit under a message; the header keeps the
//! level. And `docs/keymap.md` documents every binding of the one command list.

use ratatui::Terminal;
use ratatui::backend::TestBackend;

use super::fit::screen;
use super::fixtures::*;
use crate::ui::action::{Action, Command};
use crate::ui::keymap::{Context, Keymap};
use crate::ui::state::{AppState, MessageKind};
use crate::ui::theme::Theme;
use crate::ui::update::{for_context, top, update};
use crate::ui::view::{self, ViewContext};

fn status_line(state: &mut AppState, width: u16, height: u16) -> String {
    screen(state, width, height).pop().unwrap()
}

#[test]
fn the_hint_bar_offers_undo_only_once_there_is_something_to_undo() {
    let mut state = finished();
    let line = status_line(&mut state, 200, 40);
    assert!(!line.contains("u undo"), "{line}");
    assert!(line.contains("c confirm"), "{line}");
    update(&mut state, Action::Command(Command::Confirm));
    state.message = None;
    let line = status_line(&mut state, 200, 40);
    assert!(line.contains("u undo"), "{line}");
    // The panes say the same thing the bar shows.
    let panes = for_context(Context::Main);
    assert!(panes.available(&state, Command::Undo));
    assert!(!panes.available(&state, Command::Redo));
    assert!(
        !panes.available(&state, Command::NextFile),
        "only in the diff view"
    );
}

#[test]
fn a_message_leaves_help_and_quit_on_the_status_line_even_at_40x12() {
    for (width, height) in [(40, 12), (80, 24)] {
        let mut state = finished();
        state.say(
            MessageKind::Warn,
            "a long message about what just happened to the finding you chose".to_string(),
        );
        let lines = screen(&mut state, width, height);
        let line = &lines[lines.len() - 1];
        assert!(line.contains("? help"), "{width}: {line}");
        assert!(line.contains("q quit"), "{width}: {line}");
        // The message on its own lines above, whole (wrapped where it is long).
        let above = lines[lines.len() - 3..lines.len() - 1].join(" ");
        let above: String = above.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(
            above.contains("a long message about what just happened to the finding you chose"),
            "{width}: {above}"
        );
    }
}

#[test]
fn the_header_keeps_the_level_at_80_columns() {
    let mut state = finished();
    // A short terminal's header is its first line; a taller one's second is the round's.
    for (width, height, line) in [(80, 24, 0), (120, 24, 0), (80, 40, 1), (200, 40, 1)] {
        let lines = screen(&mut state, width, height);
        let header = &lines[line];
        assert!(header.contains("level balanced"), "{width}: {header}");
        assert!(header.contains("awaiting approval"), "{width}: {header}");
    }
}

/// The style of the first cell of the help line that names `command`.
fn help_key_style(state: &mut AppState, command: Command) -> ratatui::style::Style {
    let cx = ViewContext::new(Theme::builtin("dark").unwrap(), Keymap::default());
    let mut terminal = Terminal::new(TestBackend::new(200, 120)).unwrap();
    update(state, Action::Command(Command::Help));
    terminal
        .draw(|frame| {
            view::draw(frame, state, &cx);
        })
        .unwrap();
    let buffer = terminal.backend().buffer();
    let name = format!(" {} ", command.name());
    for y in 0..120 {
        let line: String = (0..200).map(|x| buffer[(x, y)].symbol()).collect();
        if let Some(at) = line.find(&name) {
            // The keys start two columns into the help box, before the name.
            let start = line[..at].trim_end().rfind("  ").map_or(0, |i| i + 2);
            let x = line[..start].chars().count() as u16;
            return buffer[(x, y)].style();
        }
    }
    panic!("{} is not in help", command.name());
}

#[test]
fn help_greys_what_cannot_run_now_and_lights_it_when_it_can() {
    let theme = Theme::builtin("dark").unwrap();
    let mut state = finished();
    assert_eq!(help_key_style(&mut state, Command::Redo).fg, theme.muted.fg);
    assert_eq!(
        help_key_style(&mut state, Command::Confirm).fg,
        theme.key_hint.fg
    );
    assert_ne!(theme.muted.fg, theme.key_hint.fg);
    // Undo something: redo can run.
    let mut state = finished();
    update(&mut state, Action::Command(Command::Confirm));
    update(&mut state, Action::Command(Command::Undo));
    assert_eq!(
        help_key_style(&mut state, Command::Redo).fg,
        theme.key_hint.fg
    );
}

#[test]
fn the_top_component_takes_the_keys_of_its_context() {
    let mut state = finished();
    assert_eq!(top(&state).context(), Context::Main);
    update(&mut state, Action::Command(Command::Help));
    assert_eq!(top(&state).context(), Context::Help);
    update(&mut state, Action::Command(Command::Close));
    update(&mut state, Action::Command(Command::OpenGate));
    assert_eq!(top(&state).context(), Context::Gate);
    let gate = top(&state).commands(&state, &Keymap::default());
    let publish = gate
        .iter()
        .find(|c| c.command == Command::GatePublish)
        .unwrap();
    assert!(publish.available);
    state.published = Some("https://example.test/review/1".to_string());
    assert!(!for_context(Context::Gate).available(&state, Command::GatePublish));
}

/// The section of docs/keymap.md that documents `context`'s keys.
fn section(keymap_md: &str, context: Context) -> &str {
    let heading = match context {
        Context::Main => "## Review (no overlay open)",
        Context::Diff => "## Diff view",
        Context::Gate => "## Approval gate",
        Context::Patch => "## Patch viewer",
        Context::Log => "## Event log",
        Context::Preview => "## Publish preview",
        Context::Help => "## Text boxes, help, errors",
        Context::Threads => "## Review threads",
        Context::Inbox => "## Inbox",
    };
    let start = keymap_md
        .find(heading)
        .unwrap_or_else(|| panic!("docs/keymap.md has no `{heading}`"));
    let rest = &keymap_md[start + heading.len()..];
    &rest[..rest.find("\n## ").unwrap_or(rest.len())]
}

#[test]
fn keymap_md_documents_every_binding_of_the_one_command_list() {
    let keymap_md = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/keymap.md"))
        .expect("docs/keymap.md");
    let keymap = Keymap::default();
    // Every command is bound somewhere or named as unbound, and named in docs/keymap.md.
    for &command in Command::ALL {
        let name = format!("`{}`", command.name());
        assert!(
            keymap_md.contains(&name),
            "docs/keymap.md does not name {name}"
        );
        // The preview's cancel is what any key it does not bind does.
        assert!(
            keymap.bindings.iter().any(|b| b.command == command)
                || command == Command::PublishCancel,
            "{name} has no binding in the keymap"
        );
    }
    // Every default key of every context is in that context's section.
    for binding in &keymap.bindings {
        let text = section(&keymap_md, binding.context);
        for key in &binding.keys {
            let key = key.to_string();
            let spelled = [format!("`{key}`"), format!("/{key}`"), format!("`{key}/")];
            assert!(
                spelled.iter().any(|s| text.contains(s.as_str()))
                    || text.contains(&format!("/{key}/")),
                "docs/keymap.md, {:?}: `{key}` ({}) is not documented",
                binding.context,
                binding.command.name()
            );
        }
        if matches!(
            binding.context,
            Context::Main | Context::Diff | Context::Gate | Context::Threads
        ) {
            assert!(
                text.contains(&format!("`{}`", binding.command.name()))
                    || binding.command.name().starts_with("move_")
                    || binding.command.name().starts_with("page_"),
                "docs/keymap.md, {:?}: `{}` is not in its table",
                binding.context,
                binding.command.name()
            );
        }
    }
}
