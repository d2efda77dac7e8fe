//! `update(state, action) -> effects`: the cockpit's only state transition. Pure: no IO, no
//! clock (the loop stamps `state.now`), no terminal. What needs the world — persisting a status,
//! writing a patch, publishing — comes back as an `Effect` for the engine to carry out.
//!
//! A command goes to the component on top (`dispatch::top`: an overlay, or the panes), which
//! handles it or hands it on to the panes below; each component also says which of its
//! commands can run now (`Component::available`), which the hint bar and help show. Text typed
//! into a box goes to `input`, the mouse to `panes`, the engine's reports to `engine`.

mod axis_override;
mod component;
mod diff;
mod diff_comment;
mod dispatch;
mod engine;
mod gate;
mod input;
mod panes;
mod record;
mod room;
mod scroll;
mod selection;
mod threads;
mod triage;
mod triage_keys;

use crate::review::Level;
use crate::review::ReviewNode;
use crate::review::{Change, SuppressionHint};
use crate::ui::action::{Action, Command};
use crate::ui::keymap::Context;
use crate::ui::state::{AppState, MessageKind, Overlay, RowKey};

pub use component::{CommandInfo, Component};
pub use dispatch::{for_context, top};
pub use engine::refresh;
pub use panes::reviewer_order;
#[cfg(test)]
pub(crate) use selection::reveal;
#[cfg(test)]
pub(crate) use triage_keys::group_targets;

/// A request to the engine. The state already shows the outcome where it can (a status change
/// is applied to the board through the status service first); the engine makes it durable or
/// does the IO, and reports back with an `Action`.
#[derive(Debug, Clone, PartialEq)]
pub enum Effect {
    /// The person changed a node's status through `review::apply`. `node` is the node
    /// after the change: upsert it into the space state and save; keep `suppression` (a
    /// dismissal's hint for later rounds) when present.
    PersistStatus {
        node_id: String,
        change: Change,
        node: Box<ReviewNode>,
        suppression: Option<SuppressionHint>,
    },
    /// A reviewer's event added or changed a node (a new finding, a peer's stance): upsert it.
    PersistNode(Box<ReviewNode>),
    /// The person rewrote the comment that would be posted for a node (`None`: back to the
    /// generated text).
    SaveComment {
        node_id: String,
        text: Option<String>,
    },
    /// The person changed the level: only where findings are shown moved; remember the choice.
    SetLevel(Level),
    /// Gate "fix": apply these findings' exact replacement lines as a patch file (or hand their
    /// fix prompts to the configured fix command); reply with `Notice` or `EngineError`.
    WritePatch {
        node_ids: Vec<String>,
    },
    /// Gate "publish": compute what would be posted; reply with `Action::PublishPreview`.
    PreviewPublish,
    /// Gate "hand back": the kept findings as one prompt; reply with `Report::HandedBack`.
    HandBack,
    /// The person confirmed the preview: publish; reply with `Published` or `EngineError`.
    Publish,
    /// Stop the running round: every reviewer and pass.
    StopRun,
    /// Stop one model reviewer of the running round.
    StopReviewer(String),
    /// Ask a reviewer (the thread id is chosen here, so the question shows at once).
    Ask {
        thread: String,
        finding: Option<String>,
        question: String,
    },
    /// Stop an answer still coming.
    CancelAsk(String),
    /// The person's answer to a thread's proposal (`Some(true)`: apply it).
    Proposal {
        thread: String,
        accepted: Option<bool>,
    },
    /// The person's own finding, new or edited.
    PutFinding {
        node_id: String,
        draft: crate::review::PersonDraft,
    },
    DeleteFinding(String),
    /// A reply or resolution on one of the PR's review threads, kept until a publish.
    PutThreadDraft(Box<crate::space::ThreadDraft>),
    DeleteThreadDraft(String),
    /// Post the finding (fingerprint) though already raised in a thread, or leave it out.
    IncludeRaised {
        fingerprint: String,
        include: bool,
    },
    /// The person's override of a gated axis set (`Some`) or taken back (`None`).
    OverrideAxis {
        axis: String,
        over: Option<crate::review::axis_override::AxisOverride>,
    },
    Quit,
    /// Leave for the inbox (as `Quit` does, then the inbox opens).
    OpenInbox,
}

pub fn update(state: &mut AppState, action: Action) -> Vec<Effect> {
    record::record(state, &action);
    // The second press of the whole run's stop must come next: any other key disarms it.
    let command = matches!(action, Action::Command(_));
    if command && action != Action::Command(Command::StopRun) {
        state.stop_armed = false;
    }
    // The message stays until the next key, whole: the key's own answer replaces it.
    if command || matches!(action, Action::UnknownKey(_)) {
        state.message = None;
    }
    // A key or the mouse: whatever is selected now is the person's choice.
    if command || matches!(action, Action::Click { .. }) {
        state.findings.auto_selected = None;
    }
    let effects = transition(state, action);
    record::record_effects(state, &effects);
    effects
}

fn transition(state: &mut AppState, action: Action) -> Vec<Effect> {
    // Moving inside the diff view, which covers the list, changes nothing the list shows; at
    // 10k findings rebuilding it twice costs more than the frame the key asks for.
    if matches!(state.top_overlay(), Some(Overlay::Diff(_))) && moves_only(&action) {
        return dispatch(state, action);
    }
    // Act on what is on screen: a selection hidden since (by a fold, the filter, the level) has
    // already moved to what hides it.
    selection::reconcile_selection(state);
    let effects = dispatch(state, action);
    selection::reconcile_selection(state);
    effects
}

/// Keys that only move a cursor.
fn moves_only(action: &Action) -> bool {
    matches!(
        action,
        Action::Command(Command::MoveDown)
            | Action::Command(Command::MoveUp)
            | Action::Command(Command::PageDown)
            | Action::Command(Command::PageUp)
            | Action::Command(Command::Top)
            | Action::Command(Command::Bottom)
            | Action::Command(Command::NextFile)
            | Action::Command(Command::PrevFile)
            | Action::Command(Command::NextFinding)
            | Action::Command(Command::PrevFinding)
    )
}

fn dispatch(state: &mut AppState, action: Action) -> Vec<Effect> {
    match action {
        Action::Command(command) => dispatch::run(state, command),
        Action::UnknownKey(key) => {
            message(
                state,
                MessageKind::Warn,
                format!(
                    "{key} does nothing here · {} lists the keys",
                    state.key(Context::Main, Command::Help)
                ),
            );
            Vec::new()
        }
        action @ (Action::Text(_)
        | Action::Submit
        | Action::Cancel
        | Action::EditorClosed { .. }
        | Action::BoxEdited { .. }) => input::typed(state, action),
        Action::ScrollDown { column, row } => {
            panes::scroll_at(state, column, row, 3);
            Vec::new()
        }
        Action::ScrollUp { column, row } => {
            panes::scroll_at(state, column, row, -3);
            Vec::new()
        }
        Action::Click { column, row } => {
            panes::click(state, column, row);
            Vec::new()
        }
        Action::Resize { .. } => Vec::new(),
        Action::Tick => {
            state.tick += 1;
            Vec::new()
        }
        Action::Engine(report) => engine::apply(state, report),
    }
}

pub(super) fn info(state: &mut AppState, text: String) {
    message(state, MessageKind::Info, text);
}

pub(super) fn message(state: &mut AppState, kind: MessageKind, text: String) {
    state.say(kind, text);
}

pub(super) fn with_selected(
    state: &mut AppState,
    verb: &str,
    f: impl FnOnce(&mut AppState, String) -> Vec<Effect>,
) -> Vec<Effect> {
    match state.findings.selected.clone() {
        Some(RowKey::Node(id)) if state.node(&id).is_some() => f(state, id),
        _ => {
            message(
                state,
                MessageKind::Warn,
                format!("select a finding to {verb}"),
            );
            Vec::new()
        }
    }
}
