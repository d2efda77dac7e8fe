//! Which component a command goes to: the top overlay's, or the panes below it.

use crate::ui::command::Command;
use crate::ui::keymap::Context;
use crate::ui::state::{AppState, Overlay};

use super::Effect;
use super::component::Component;
use super::diff::DiffOverlay;
use super::gate::{Gate, Preview};
use super::panes::Panes;
use super::scroll::Scroller;
use super::threads::ThreadsList;

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
        Some(Overlay::Threads { .. }) => &ThreadsList,
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
        Context::Threads => &ThreadsList,
        Context::Inbox => &InboxKeys,
    }
}

/// The inbox's keys, bound in the same keymap: the inbox screen acts on them itself
/// (`ui::inbox`); in the cockpit none of them does anything.
struct InboxKeys;

impl Component for InboxKeys {
    fn context(&self) -> Context {
        Context::Inbox
    }

    fn available(&self, _: &AppState, _: Command) -> bool {
        false
    }

    fn update(&self, _: &mut AppState, _: Command) -> Option<Vec<Effect>> {
        Some(Vec::new())
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
