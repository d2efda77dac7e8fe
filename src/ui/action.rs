//! Everything that can happen to the cockpit: a key turned into a command through the keymap,
//! a mouse event, a tick, or something the engine reports. `update` is the only consumer.
//!
//! Commands without data have snake_case names (`confirm`, `next_finding`) so a keymap file
//! can name them; `Action::BINDABLE` lists them.

use std::sync::Arc;

use ratatui_textarea::Input;

use crate::review::axes::Axis;
use crate::review::events::{ReviewEvent, RunId};
use crate::review::verdict::Verdict;
use crate::space::state::Ladder;
use crate::ui::state::{CohortView, PreviewData};

#[derive(Debug, Clone, PartialEq)]
pub enum Action {
    // Movement and panes.
    MoveDown,
    MoveUp,
    PageDown,
    PageUp,
    Top,
    Bottom,
    NextPane,
    PrevPane,
    /// Enter: fold or unfold a cohort, a below-threshold group or a problem's duplicates; on a
    /// finding, focus its detail; on a disagreement, jump to its findings.
    Expand,
    NextFinding,
    PrevFinding,
    // Triage, as the person.
    Confirm,
    Dismiss,
    Resolve,
    Reopen,
    EditComment,
    ToggleMark,
    /// Take back the last triage change (a status change through the status service).
    Undo,
    /// Make the last undone change again.
    Redo,
    /// Write the selected finding's comment in the person's `$VISUAL`/`$EDITOR`.
    EditInEditor,
    /// Copy `path:line` of the selected finding to the clipboard (OSC 52).
    Yank,
    /// Open the file at the finding's line (in the diff view: the cursor's) in the editor.
    OpenInEditor,
    /// The detail pane fills the screen, or goes back to its place.
    ZoomDetail,
    /// Number keys: focus a pane directly.
    FocusFindings,
    FocusDetail,
    FocusReviewers,
    FocusDisagreements,
    // Views.
    Filter,
    ClearFilter,
    CycleLevel,
    OpenGate,
    /// Open (or close) the diff of the selected cohort's files.
    OpenDiff,
    /// In the diff view: the next or previous file header.
    NextFile,
    PrevFile,
    Help,
    /// Esc: close the top overlay, or clear the filter.
    Close,
    Quit,
    // The approval gate.
    GateFix,
    GateIgnore,
    GatePublish,
    GateDetails,
    GateAbort,
    PublishConfirm,
    PublishCancel,
    /// Show the patch the gate wrote.
    ViewPatch,
    /// Show (or hide) the event log: what ran, failed, waited and was posted.
    EventLog,
    /// Start (or drop) a range of rows at the selection: triage keys act on all of it.
    SelectRange,
    /// Stop the selected model reviewer of the running round; the others go on.
    StopReviewer,
    /// Stop the whole running round (asked twice): every reviewer and pass.
    StopRun,
    // Text input, routed to the top text box.
    Text(Input),
    Submit,
    Cancel,
    /// A key with no binding where it was pressed (shown, so a typo is not silent).
    UnknownKey(String),
    /// The person's editor closed: the text it left, or why it could not run.
    EditorClosed {
        node_id: String,
        text: Result<String, crate::ui::editor::EditorError>,
    },
    // Mouse and terminal.
    ScrollDown {
        column: u16,
        row: u16,
    },
    ScrollUp {
        column: u16,
        row: u16,
    },
    Click {
        column: u16,
        row: u16,
    },
    Resize {
        width: u16,
        height: u16,
    },
    Tick,
    // From the engine.
    Engine(ReviewEvent),
    /// A new run: the board forgets the last run's reviewers and queues these (name, required).
    RunStarted {
        run: RunId,
        round: u32,
        reviewers: Vec<(String, bool)>,
    },
    /// The reviewers as the run planned them (queued, and skipped with why): replaces the
    /// board's reviewer list.
    Reviewers(Vec<crate::review::board::ReviewerState>),
    /// The findings as the engine recorded them at the end of a run (fingerprints, carried
    /// decisions, duplicates folded): replaces the streamed list.
    Findings(Vec<crate::review::node::ReviewNode>),
    /// The person's edited comments as the space holds them (a new round moves them onto its
    /// findings).
    Comments(std::collections::BTreeMap<String, String>),
    Ladder(Ladder),
    Axes(Vec<Axis>),
    /// The engine's own verdict (replaces the cockpit's until the board changes again).
    Verdict(Verdict),
    Cohorts(Vec<CohortView>),
    Code {
        path: String,
        lines: Arc<Vec<String>>,
    },
    /// The pull request's diff (files, hunks, lines with LEFT/RIGHT numbers) for the diff view.
    Diff(Arc<crate::diff::Diff>),
    Loading(Option<String>),
    /// The pull request as its forge answered, before its space is ready.
    Pr(crate::ui::state::PrHeader),
    /// The pass the run is in (`None`: the run is over).
    Phase(Option<String>),
    PublishPreview(PreviewData),
    Published {
        target: String,
    },
    /// Something the engine could not do (publish failed, patch not written): an error overlay.
    EngineError {
        title: String,
        message: String,
    },
    /// A transient note from the engine (`the review is still running`).
    Notice(String),
    /// The gate wrote a patch: announced, kept for the patch viewer.
    PatchWritten {
        patch: crate::ui::state::PatchData,
        summary: String,
    },
}

impl Action {
    /// The commands a key can be bound to, by name.
    pub const BINDABLE: [Action; 49] = [
        Action::MoveDown,
        Action::MoveUp,
        Action::PageDown,
        Action::PageUp,
        Action::Top,
        Action::Bottom,
        Action::NextPane,
        Action::PrevPane,
        Action::Expand,
        Action::NextFinding,
        Action::PrevFinding,
        Action::Confirm,
        Action::Dismiss,
        Action::Resolve,
        Action::Reopen,
        Action::EditComment,
        Action::ToggleMark,
        Action::Undo,
        Action::Redo,
        Action::EditInEditor,
        Action::Yank,
        Action::FocusFindings,
        Action::FocusDetail,
        Action::FocusReviewers,
        Action::FocusDisagreements,
        Action::Filter,
        Action::ClearFilter,
        Action::CycleLevel,
        Action::OpenGate,
        Action::OpenDiff,
        Action::NextFile,
        Action::PrevFile,
        Action::Help,
        Action::Close,
        Action::Quit,
        Action::GateFix,
        Action::GateIgnore,
        Action::GatePublish,
        Action::GateDetails,
        Action::GateAbort,
        Action::PublishConfirm,
        Action::PublishCancel,
        Action::ViewPatch,
        Action::OpenInEditor,
        Action::ZoomDetail,
        Action::EventLog,
        Action::SelectRange,
        Action::StopReviewer,
        Action::StopRun,
    ];

    /// The snake_case name of a bindable command; `None` for actions that carry data.
    pub fn name(&self) -> Option<&'static str> {
        Some(match self {
            Action::MoveDown => "move_down",
            Action::MoveUp => "move_up",
            Action::PageDown => "page_down",
            Action::PageUp => "page_up",
            Action::Top => "top",
            Action::Bottom => "bottom",
            Action::NextPane => "next_pane",
            Action::PrevPane => "prev_pane",
            Action::Expand => "expand",
            Action::NextFinding => "next_finding",
            Action::PrevFinding => "prev_finding",
            Action::Confirm => "confirm",
            Action::Dismiss => "dismiss",
            Action::Resolve => "resolve",
            Action::Reopen => "reopen",
            Action::EditComment => "edit_comment",
            Action::ToggleMark => "toggle_mark",
            Action::Undo => "undo",
            Action::Redo => "redo",
            Action::EditInEditor => "edit_in_editor",
            Action::Yank => "yank",
            Action::FocusFindings => "focus_findings",
            Action::FocusDetail => "focus_detail",
            Action::FocusReviewers => "focus_reviewers",
            Action::FocusDisagreements => "focus_disagreements",
            Action::Filter => "filter",
            Action::ClearFilter => "clear_filter",
            Action::CycleLevel => "cycle_level",
            Action::OpenGate => "open_gate",
            Action::OpenDiff => "open_diff",
            Action::NextFile => "next_file",
            Action::PrevFile => "prev_file",
            Action::Help => "help",
            Action::Close => "close",
            Action::Quit => "quit",
            Action::GateFix => "gate_fix",
            Action::GateIgnore => "gate_ignore",
            Action::GatePublish => "gate_publish",
            Action::GateDetails => "gate_details",
            Action::GateAbort => "gate_abort",
            Action::PublishConfirm => "publish_confirm",
            Action::PublishCancel => "publish_cancel",
            Action::ViewPatch => "view_patch",
            Action::OpenInEditor => "open_in_editor",
            Action::ZoomDetail => "zoom_detail",
            Action::EventLog => "event_log",
            Action::SelectRange => "select_range",
            Action::StopReviewer => "stop_reviewer",
            Action::StopRun => "stop_run",
            _ => return None,
        })
    }

    pub fn from_name(name: &str) -> Option<Action> {
        Action::BINDABLE
            .iter()
            .find(|action| action.name() == Some(name))
            .cloned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_bindable_action_has_a_unique_name_that_round_trips() {
        let mut names = std::collections::BTreeSet::new();
        for action in Action::BINDABLE {
            let name = action.name().expect("bindable actions are named");
            assert!(names.insert(name), "{name} twice");
            assert_eq!(Action::from_name(name), Some(action.clone()));
            assert!(name.chars().all(|c| c.is_ascii_lowercase() || c == '_'));
        }
        assert_eq!(Action::from_name("tick"), None);
    }
}
