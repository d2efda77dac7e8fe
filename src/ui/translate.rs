//! What a terminal event means now: the keymap's binding in the context the state is in (the
//! top overlay's, or the panes'), typing into an open text box, the mouse, a resize. Above both
//! the keymap and the state, which know nothing of each other's actions.

use ratatui::crossterm::event::{
    Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers, MouseButton, MouseEventKind,
};
use ratatui_textarea::Input;

use crate::ui::action::{Action, Command};
use crate::ui::keymap::{Context, Key, Keymap};
use crate::ui::state::{AppState, Overlay};

impl Keymap {
    /// What a terminal event means in the current state.
    pub fn translate(&self, state: &AppState, event: &Event) -> Option<Action> {
        match event {
            Event::Key(key) if key.kind != KeyEventKind::Release => self.translate_key(state, key),
            Event::Mouse(mouse) => match mouse.kind {
                MouseEventKind::ScrollDown => Some(Action::ScrollDown {
                    column: mouse.column,
                    row: mouse.row,
                }),
                MouseEventKind::ScrollUp => Some(Action::ScrollUp {
                    column: mouse.column,
                    row: mouse.row,
                }),
                MouseEventKind::Down(MouseButton::Left) => Some(Action::Click {
                    column: mouse.column,
                    row: mouse.row,
                }),
                _ => None,
            },
            Event::Resize(width, height) => Some(Action::Resize {
                width: *width,
                height: *height,
            }),
            _ => None,
        }
    }

    pub fn translate_key(&self, state: &AppState, event: &KeyEvent) -> Option<Action> {
        let key = Key::from_event(event);
        let command = |context| self.lookup(context, key).map(Action::Command);
        match state.top_overlay() {
            None => command(Context::Main).or_else(|| unknown(key)),
            Some(Overlay::Gate { .. }) => command(Context::Gate).or_else(|| unknown(key)),
            Some(Overlay::Diff(_)) => command(Context::Diff).or_else(|| unknown(key)),
            Some(Overlay::Threads { .. }) => command(Context::Threads).or_else(|| unknown(key)),
            Some(Overlay::PreviewPending) => {
                (key.code == KeyCode::Esc).then_some(Action::Command(Command::PublishCancel))
            }
            Some(Overlay::Preview { .. }) => {
                Some(command(Context::Preview).unwrap_or(Action::Command(Command::PublishCancel)))
            }
            Some(Overlay::Help { .. }) => {
                Some(command(Context::Help).unwrap_or(Action::Command(Command::Close)))
            }
            Some(Overlay::Patch { .. }) => {
                Some(command(Context::Patch).unwrap_or(Action::Command(Command::Close)))
            }
            Some(Overlay::Log { .. }) => {
                Some(command(Context::Log).unwrap_or(Action::Command(Command::Close)))
            }
            Some(Overlay::Error { .. }) => Some(Action::Command(Command::Close)),
            Some(Overlay::Input(input)) => {
                let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
                match key.code {
                    KeyCode::Esc => Some(Action::Cancel),
                    KeyCode::Enter if !input.purpose.multiline() => Some(Action::Submit),
                    KeyCode::Char('s') if ctrl => Some(Action::Submit),
                    KeyCode::Char('e') if ctrl && input.purpose.multiline() => {
                        Some(Action::Command(Command::EditInEditor))
                    }
                    KeyCode::Char('c') if ctrl => Some(Action::Cancel),
                    _ => Some(Action::Text(Input::from(*event))),
                }
            }
        }
    }
}

/// A printable key, a function key or a navigation key (arrows, home, end, …) that nothing
/// is bound to here: said, not swallowed. Keys with ctrl or alt are left alone: terminals send
/// them for their own purposes too.
fn unknown(key: Key) -> Option<Action> {
    if key
        .modifiers
        .intersects(KeyModifiers::CONTROL | KeyModifiers::ALT)
    {
        return None;
    }
    matches!(
        key.code,
        KeyCode::Char(_)
            | KeyCode::F(_)
            | KeyCode::Left
            | KeyCode::Right
            | KeyCode::Up
            | KeyCode::Down
            | KeyCode::Home
            | KeyCode::End
            | KeyCode::PageUp
            | KeyCode::PageDown
            | KeyCode::Insert
            | KeyCode::Delete
            | KeyCode::Backspace
            | KeyCode::Enter
            | KeyCode::Tab
            | KeyCode::BackTab
    )
    .then(|| Action::UnknownKey(key.to_string()))
}
