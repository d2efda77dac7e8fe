//! The commands a person can give the cockpit: what a key is bound to. One list, the enum
//! below: the names a keymap file uses (`confirm`, `next_finding`) are derived from it, the
//! keymap binds them, help lists them and `docs/keymap.md` is checked against them
//! (`ui::tests::keys`). What the engine reports is not a command (`action::Report`).

/// A bindable command. It carries no data: a key means the same wherever it is pressed, and
/// what it acts on (the selection, the top overlay) is read from the state.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    strum::IntoStaticStr,
    strum::EnumString,
    strum::VariantArray,
)]
#[strum(serialize_all = "snake_case")]
pub enum Command {
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
    /// Leave this review for the inbox: every review waiting for the person.
    OpenInbox,
    // The approval gate.
    GateFix,
    GateIgnore,
    GatePublish,
    GateDetails,
    /// Go to the next finding that holds the verdict (closing the gate): there the person's
    /// dismissal, with its reason, is the only way past it.
    GateWhy,
    GateAbort,
    /// Hand the kept findings back to the coding agent: one prompt, copied to the clipboard
    /// (OSC 52), written into the space, piped to the fix command when one is set.
    HandBack,
    PublishConfirm,
    PublishCancel,
    /// In the publish preview: post the selected finding an open thread already raises, or
    /// leave it out again.
    IncludeRaised,
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
    // The review room.
    /// Ask the reviewer of the selected finding a question.
    Ask,
    /// Ask a reviewer about the whole change.
    AskChange,
    /// Stop the answer still coming for the selected finding (or the whole change).
    CancelAnswer,
    /// Accept the proposal of the last answer about the selected finding.
    AcceptProposal,
    /// Your own finding at the selected finding's lines (in the diff view: the cursor's line,
    /// or the range started with `select_range`).
    AddComment,
    /// Delete the selected finding when it is your own (in the threads list: the draft on the
    /// thread).
    DeleteComment,
    /// Show (or hide) the PR's review threads.
    Threads,
    /// In the threads list: reply to the thread (a draft, posted by the next publish).
    Reply,
    /// In the inbox: open the cockpit on the selected pull request.
    OpenPr,
    /// In the inbox: the next sort order.
    Sort,
    /// In the inbox: ask the forges again.
    Refresh,
}

impl Command {
    /// Every command, in declaration order.
    pub const ALL: &'static [Command] = <Command as strum::VariantArray>::VARIANTS;

    /// The snake_case name a keymap file and `docs/keymap.md` use: `next_finding`.
    pub fn name(self) -> &'static str {
        self.into()
    }

    pub fn from_name(name: &str) -> Option<Command> {
        name.parse().ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_command_has_a_unique_snake_case_name_that_round_trips() {
        let mut names = std::collections::BTreeSet::new();
        for &command in Command::ALL {
            let name = command.name();
            assert!(names.insert(name), "{name} twice");
            assert_eq!(Command::from_name(name), Some(command));
            assert!(name.chars().all(|c| c.is_ascii_lowercase() || c == '_'));
        }
        assert_eq!(Command::from_name("move_down"), Some(Command::MoveDown));
        assert_eq!(
            Command::from_name("edit_in_editor"),
            Some(Command::EditInEditor)
        );
        assert_eq!(Command::from_name("tick"), None);
        assert_eq!(Command::from_name("MoveDown"), None);
    }
}
