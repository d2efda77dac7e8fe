//! The plain scrolling overlays (help, the patch, the event log) and the movement every
//! scrolling overlay shares (the gate and the preview scroll the same way).

use crate::ui::command::Command;
use crate::ui::keymap::Context;
use crate::ui::state::{AppState, Overlay};

use super::Effect;
use super::component::Component;

/// An overlay that only scrolls (help, the patch, the event log): movement scrolls it, the
/// rest goes to the panes (any other key closes it: `Keymap::translate_key`).
pub(super) struct Scroller(pub Context);

impl Component for Scroller {
    fn context(&self) -> Context {
        self.0
    }

    fn available(&self, _: &AppState, _: Command) -> bool {
        true
    }

    fn update(&self, state: &mut AppState, command: Command) -> Option<Vec<Effect>> {
        scroll_overlay(state, command)
    }
}

/// Movement in an overlay that scrolls (help, patch, log, preview, gate); `None` for any other
/// command.
pub(super) fn scroll_overlay(state: &mut AppState, command: Command) -> Option<Vec<Effect>> {
    let max = state.layout.overlay_scroll_max;
    if command == Command::Bottom
        && let Some(Overlay::Log { scroll }) = state.overlays.last_mut()
    {
        // The log's end, wherever it is by the next frame: it follows new lines.
        *scroll = u16::MAX;
        return Some(Vec::new());
    }
    match state.overlays.last_mut()? {
        Overlay::Help { scroll }
        | Overlay::Patch { scroll }
        | Overlay::Log { scroll }
        | Overlay::Preview { scroll, .. }
        | Overlay::Gate { scroll, .. } => {
            let delta: i16 = match command {
                Command::MoveDown => 1,
                Command::MoveUp => -1,
                Command::PageDown => 10,
                Command::PageUp => -10,
                Command::Top => i16::MIN,
                Command::Bottom => i16::MAX,
                _ => return None,
            };
            // From where it is drawn: a scroll past the end (following the end) is at `max`.
            *scroll = (*scroll).min(max).saturating_add_signed(delta).min(max);
            Some(Vec::new())
        }
        _ => None,
    }
}
