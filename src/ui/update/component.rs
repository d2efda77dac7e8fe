//! The cockpit's components: the panes and each overlay. A component owns how its commands
//! change the state (`update`) and says which of them can do something now (`available`):
//! the hint bar leaves out what cannot run, help greys it. Its drawing is the `ui::view`
//! module of the same name. The idea is gitui's `Component` with its `CommandInfo`s; the
//! state stays one `AppState` (the Elm shape), so components hold no state of their own.

use crate::ui::command::Command;
use crate::ui::keymap::{Context, Keymap};
use crate::ui::state::AppState;

use super::Effect;

/// A bound command as a component offers it now.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CommandInfo {
    pub command: Command,
    /// Whether it would do something now (otherwise it only says why not).
    pub available: bool,
}

pub trait Component: Sync {
    /// The keymap context its keys are bound in.
    fn context(&self) -> Context;

    /// Whether `command` would do something now. Cheap: asked for every hint on every frame.
    fn available(&self, state: &AppState, command: Command) -> bool;

    /// Carries `command` out; `None` hands it on to the panes below (help, close, quit).
    fn update(&self, state: &mut AppState, command: Command) -> Option<Vec<Effect>>;

    /// Its bound commands, in the keymap's order, with whether each can run now.
    fn commands(&self, state: &AppState, keymap: &Keymap) -> Vec<CommandInfo> {
        keymap
            .bindings
            .iter()
            .filter(|b| b.context == self.context())
            .map(|b| CommandInfo {
                command: b.command,
                available: self.available(state, b.command),
            })
            .collect()
    }
}
