//! Everything that can happen to the cockpit: a command (a key turned into one through the
//! keymap), text typed into a box, a mouse or terminal event, a tick, or a report from the
//! engine. `update` is the only consumer.

use std::sync::Arc;

use ratatui_textarea::Input;

use crate::review::Axis;
use crate::review::Verdict;
use crate::review::{ReviewEvent, RunId};
use crate::space::Ladder;
pub use crate::ui::command::Command;
use crate::ui::state::{CohortView, PreviewData};

#[derive(Debug, Clone, PartialEq)]
pub enum Action {
    /// A bindable command (`ui::command`).
    Command(Command),
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
    /// The person's editor closed on a text box's text: what it left, or why it could not run.
    BoxEdited {
        edited: crate::ui::state::EditedBox,
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
    /// What the engine reports: session events and results of effects.
    Engine(Report),
}

impl From<Command> for Action {
    fn from(command: Command) -> Action {
        Action::Command(command)
    }
}

impl From<Report> for Action {
    fn from(report: Report) -> Action {
        Action::Engine(report)
    }
}

/// A message from the engine: the run's events and the answers to `Effect`s. Never bound to a
/// key.
#[derive(Debug, Clone, PartialEq)]
pub enum Report {
    /// A reviewer's or the board's event.
    Event(ReviewEvent),
    /// A new run: the board forgets the last run's reviewers and queues these (name, required).
    RunStarted {
        run: RunId,
        round: u32,
        reviewers: Vec<(String, bool)>,
        /// The run was asked for without model reviewers: the cockpit's verdict reads their
        /// skips as the session's does (not Inconclusive), or the screen and the exit code
        /// would disagree with the report of the same round.
        deterministic_only: bool,
    },
    /// The reviewers as the run planned them (queued, and skipped with why): replaces the
    /// board's reviewer list.
    Reviewers(Vec<crate::review::ReviewerState>),
    /// The findings as the engine recorded them at the end of a run (fingerprints, carried
    /// decisions, duplicates folded): replaces the streamed list.
    Findings(Vec<crate::review::ReviewNode>),
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
    /// The review threads people hold on the PR, for the diff view's gutter.
    ReviewThreads(Arc<Vec<crate::pr::ReviewThread>>),
    Loading(Option<String>),
    /// The pull request as its forge answered, before its space is ready.
    Pr(crate::ui::state::PrHeader),
    /// The pass the run is in (`None`: the run is over).
    Phase(Option<String>),
    /// What the running pass (named) says: its progress, a retry, a wait for its server.
    Pass {
        phase: String,
        note: crate::reviewers::model::passes::PassNote,
    },
    PublishPreview(PreviewData),
    Published {
        target: String,
    },
    /// What the publish posted (its decision, the digest of its triage) and when.
    Posted(crate::ui::state::PostedAt),
    /// Something the engine could not do (publish failed, patch not written): an error overlay.
    EngineError {
        title: String,
        message: String,
    },
    /// A transient note from the engine (`the review is still running`).
    Notice(String),
    /// The person's drafts on the PR's review threads, as the space holds them.
    ThreadDrafts(Vec<crate::space::ThreadDraft>),
    /// A thread of the review room as it stands (asked, answered in part, ended).
    Thread(Box<crate::review::Thread>),
    /// The gate wrote a patch: announced, kept for the patch viewer.
    PatchWritten {
        patch: crate::ui::state::PatchData,
        summary: String,
    },
    /// The prompt for the coding agent: copied to the clipboard, and where it was written.
    HandedBack {
        text: String,
        path: String,
        findings: usize,
    },
}
