//! The cockpit's components: the panes and each overlay. A component owns how its commands
//! change the state (`update`) and says which of them can do something now (`available`):
//! the hint bar leaves out what cannot run, help greys it. Its drawing is the `ui::view`
//! module of the same name. The idea is gitui's `Component` with its `CommandInfo`s; the
//! state stays one `AppState` (the Elm shape), so components hold no state of their own.

use crate::ui::command::Command;
use crate::ui::keymap::{Context, Keymap};
use crate::ui::state::{AppState, Overlay};

use super::Effect;
use super::diff::DiffOverlay;
use super::gate::{Gate, Preview};
use super::panes::{Panes, Scroller};

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

/// The component that takes the keys: the top overlay's, or the panes'. A text box and an
/// error take their keys before the keymap (`Keymap::translate_key`); a command that still
/// comes through (the comment box's `ctrl-e`) goes to the panes.
pub fn top(state: &AppState) -> &'static dyn Component {
    match state.top_overlay() {
        None | Some(Overlay::Input(_) | Overlay::Error { .. }) => &Panes,
        Some(Overlay::Gate { .. }) => &Gate,
        Some(Overlay::Preview { .. } | Overlay::PreviewPending) => &Preview,
        Some(Overlay::Diff(_)) => &DiffOverlay,
        Some(Overlay::Help { .. }) => &Scroller(Context::Help),
        Some(Overlay::Patch { .. }) => &Scroller(Context::Patch),
        Some(Overlay::Log { .. }) => &Scroller(Context::Log),
    }
}

/// The component whose keys are bound in `context` (help lists every context).
pub fn for_context(context: Context) -> &'static dyn Component {
    match context {
        Context::Main => &Panes,
        Context::Gate => &Gate,
        Context::Preview => &Preview,
        Context::Diff => &DiffOverlay,
        Context::Help => &Scroller(Context::Help),
        Context::Patch => &Scroller(Context::Patch),
        Context::Log => &Scroller(Context::Log),
    }
}

/// `command` to the top component, then to the panes when it hands it on.
pub(super) fn run(state: &mut AppState, command: Command) -> Vec<Effect> {
    let top = top(state);
    if let Some(effects) = top.update(state, command) {
        return effects;
    }
    if top.context() == Context::Main {
        return Vec::new();
    }
    Panes.update(state, command).unwrap_or_default()
}
