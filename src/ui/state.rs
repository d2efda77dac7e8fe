//! The cockpit's one state: the engine snapshot it shows and the UI state around it (focus,
//! selection, folding, filter, overlays, transient message). Selection is by stable key (a node
//! id, a cohort key), never by index, so it stays put while findings stream in.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::Arc;

use ratatui::layout::Rect;
use ratatui_textarea::TextArea;

use crate::diff::Diff;
use crate::pr::forge::PullRequest;
use crate::review::Axis;
use crate::review::Board;
use crate::review::Change;
use crate::review::Disagreement;
use crate::review::Level;
use crate::review::Problem;
use crate::review::ReviewNode;
use crate::review::Verdict;
use crate::space::{Ladder, SpaceState};
pub use crate::ui::pane::Pane;

/// What the header says about the pull request.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct PrHeader {
    /// `owner/repo`, or the local repository's name.
    pub repo: String,
    /// `12` on a forge (shown as `#12`), empty for a local range.
    pub number: String,
    pub title: String,
    pub base: String,
    pub head: String,
    pub author: String,
}

impl PrHeader {
    pub fn from_pull_request(repo: &str, pr: &PullRequest) -> PrHeader {
        PrHeader {
            repo: repo.to_string(),
            number: pr.number.to_string(),
            title: pr.title.clone(),
            base: pr.base.ref_name.clone(),
            head: pr.head.ref_name.clone(),
            author: pr.author.clone(),
        }
    }

    /// `owner/repo#12`, or just the repository for a local range.
    pub fn reference(&self) -> String {
        if self.number.is_empty() {
            self.repo.clone()
        } else {
            format!("{}#{}", self.repo, self.number)
        }
    }
}

/// One cohort as the cockpit shows it, made from the session's cohort report.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct CohortView {
    /// Stable across pushes (derived from the cohort's symbols).
    pub key: String,
    pub label: String,
    pub files: Vec<String>,
    /// Grouped by path because the language has no index: labelled so, never passed off as a
    /// semantic grouping.
    pub fallback: bool,
    pub blast_radius: u32,
    /// The touched symbols that join the files (sorted; empty for a fallback cohort).
    pub symbols: Vec<String>,
    /// (file, file, symbol): two files of the cohort that both mention the symbol, in reading
    /// order. The cohort diagram draws a file's dot in a symbol's column from these.
    pub edges: Vec<(String, String, String)>,
}

impl CohortView {
    /// The cohort's symbols that join at least two of its files, in `symbols` order, each
    /// with the files (as indexes into `files`) that mention it.
    pub fn links(&self) -> Vec<(&str, Vec<usize>)> {
        self.symbols
            .iter()
            .filter_map(|symbol| {
                let mut at: Vec<usize> = self
                    .edges
                    .iter()
                    .filter(|(_, _, s)| s == symbol)
                    .flat_map(|(a, b, _)| [a, b])
                    .filter_map(|f| self.files.iter().position(|file| file == f))
                    .collect();
                at.sort_unstable();
                at.dedup();
                (at.len() >= 2).then_some((symbol.as_str(), at))
            })
            .collect()
    }
}

/// The undo history's entries (`update::triage` makes and takes them back).
/// One change to one finding, and the change that takes it back.
#[derive(Debug, Clone, PartialEq)]
pub struct Step {
    pub node_id: String,
    pub done: Change,
    pub undo: Change,
}

/// What one key did: one finding's change, or a range's or a cohort's (`u` takes the whole
/// of it back at once, as it was made at once).
#[derive(Debug, Clone, PartialEq)]
pub struct Undoable {
    pub steps: Vec<Step>,
    /// What the key did to the person's drafts on the PR's threads (none for a triage step).
    pub drafts: Vec<DraftStep>,
    /// A change in the review room, taken back as a whole (`update::room` makes and takes it).
    pub room: Option<RoomStep>,
}

/// One change to the person's thread drafts, undone by its opposite: a draft put is deleted,
/// a deleted draft is put back as it was (same id, same text).
#[derive(Debug, Clone, PartialEq)]
pub enum DraftStep {
    Put(crate::space::ThreadDraft),
    Deleted(crate::space::ThreadDraft),
    /// A finding already raised in a thread, included in the publish (`true`) or left out
    /// again; `what` names it in messages.
    Raised {
        fingerprint: String,
        what: String,
        included: bool,
    },
    /// The person's override of the gated axis `axis`, as it was before and after.
    Axis {
        axis: String,
        before: Option<crate::review::axis_override::AxisOverride>,
        after: Option<crate::review::axis_override::AxisOverride>,
    },
}

/// A change in the review room: a finding of the person's put, edited or deleted, or a
/// reviewer's proposal accepted. It holds the finding as it was before and after, so undo and
/// redo put back exactly what was there.
#[derive(Debug, Clone, PartialEq)]
pub enum RoomStep {
    /// The person's own finding `node_id` (`None`: not there).
    Finding {
        node_id: String,
        before: Option<Box<ReviewNode>>,
        after: Option<Box<ReviewNode>>,
    },
    /// The proposal of thread `thread` about finding `node_id`, accepted.
    Proposal {
        thread: String,
        node_id: String,
        before: Box<ReviewNode>,
        after: Box<ReviewNode>,
    },
}

/// A selectable row of the findings list, by stable identity.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum RowKey {
    /// A reason of the verdict that is not a finding, by [`crate::ui::reasons::Reason::key`].
    Reason(String),
    /// A cohort header, by cohort key.
    Cohort(String),
    /// A cohort's "below threshold (N)" fold, by cohort key.
    Below(String),
    /// A finding, by node id.
    Node(String),
    /// The findings one rule raised several times in one cohort, folded into one row, by
    /// [`crate::ui::rows::rule_key`].
    Rule(String),
}

/// A patch the gate wrote: where it is and what it holds, for the patch viewer.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct PatchData {
    pub path: String,
    pub text: String,
    /// The fix command's answers (kept in the folder `path`), not a patch to apply.
    pub answers: bool,
}

/// What the engine computed for the publish preview (`Effect::PreviewPublish` →
/// `Action::PublishPreview`).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct PreviewData {
    /// `REQUEST_CHANGES`, `COMMENT` or `APPROVE`.
    pub event: String,
    pub inline_comments: usize,
    /// How many findings the summary body lists (inline ones included).
    pub listed_in_body: usize,
    /// Whether the target is a local report (its "inline comments" are data in review.json).
    pub local: bool,
    /// Findings that go into the body instead of inline, each with why (`path:line title — not
    /// on a changed line`).
    pub moved_to_body: Vec<String>,
    /// Findings a colleague's open thread already raises: left out (still counted, not
    /// posted inline) unless the person included them.
    pub already_raised: Vec<RaisedRow>,
    /// The summary body, as it will be posted.
    pub body: String,
    /// Where it goes: `github review on owner/repo#12`, or the local report's directory.
    pub target: String,
}

/// One finding of the preview an open thread already raises.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct RaisedRow {
    pub fingerprint: String,
    /// `path:line`.
    pub location: String,
    pub title: String,
    /// Who opened the thread that raises it.
    pub by: String,
    /// Posted all the same: the person included it.
    pub included: bool,
}

/// Work for the loop itself, not the engine: it needs the terminal.
#[derive(Debug, Clone, PartialEq)]
pub enum TerminalJob {
    /// Suspend the cockpit, open `text` in the person's editor, answer with
    /// `Action::EditorClosed`.
    Editor { node_id: String, text: String },
    /// Suspend the cockpit and open what the text box held (`text`) in the person's editor;
    /// answer with `Action::BoxEdited`, which opens the box again (nothing typed is lost).
    EditBox(EditedBox),
    /// Put `text` on the clipboard through the terminal (OSC 52).
    Clipboard(String),
    /// Suspend the cockpit and open a read-only copy of `path` (of the review's `worktree`) at
    /// `line` in the person's editor: the review's checkout is never edited.
    OpenFile {
        worktree: std::path::PathBuf,
        path: String,
        line: u32,
    },
}

/// A text box handed to the person's editor: why it was open, what it opened with, and what
/// was typed in it.
#[derive(Debug, Clone, PartialEq)]
pub struct EditedBox {
    pub purpose: InputPurpose,
    pub original: String,
    pub typed: String,
}

/// Why a text box is open.
#[derive(Debug, Clone, PartialEq)]
pub enum InputPurpose {
    /// Dismiss these nodes; the reason is required.
    Dismiss { node_ids: Vec<String> },
    /// Override the gated axis `axis` as it stands; the reason is required.
    OverrideAxis { axis: String },
    /// Edit the comment text that would be posted for a node.
    EditComment { node_id: String },
    /// The findings filter, applied as it is typed; `previous` comes back on cancel.
    Filter { previous: String },
    /// A question to a reviewer about this finding (`None`: about the whole change).
    Ask { node_id: Option<String> },
    /// A reply to the PR's review thread `thread` (its forge id).
    Reply { thread: String },
    /// The person's own finding under `node_id`: where it is and how it weighs are set, the
    /// text is what is typed.
    Comment {
        node_id: String,
        draft: crate::review::PersonDraft,
    },
}

impl InputPurpose {
    /// Single-line inputs submit on Enter; the comment editor takes newlines and saves on Ctrl-S.
    pub fn multiline(&self) -> bool {
        matches!(
            self,
            InputPurpose::EditComment { .. }
                | InputPurpose::Ask { .. }
                | InputPurpose::Reply { .. }
                | InputPurpose::Comment { .. }
        )
    }
}

#[derive(Debug, Clone)]
pub struct InputOverlay {
    pub purpose: InputPurpose,
    pub textarea: TextArea<'static>,
    /// Shown under the box, e.g. "a reason is required".
    pub error: Option<String>,
    /// The text it opened with: leaving with anything else asks first.
    pub original: String,
    /// Esc was pressed once on a changed text: a second one throws the edit away.
    pub confirm_discard: bool,
}

impl InputOverlay {
    pub fn new(purpose: InputPurpose, text: &str) -> InputOverlay {
        let lines: Vec<String> = text.lines().map(str::to_string).collect();
        let mut textarea = TextArea::new(lines);
        if purpose.multiline() {
            // Long lines wrap at words; the editor opens at the top, unscrolled.
            textarea.set_wrap_mode(ratatui_textarea::WrapMode::Word);
            textarea.move_cursor(ratatui_textarea::CursorMove::Top);
            textarea.move_cursor(ratatui_textarea::CursorMove::Head);
        } else {
            textarea.move_cursor(ratatui_textarea::CursorMove::Bottom);
            textarea.move_cursor(ratatui_textarea::CursorMove::End);
        }
        InputOverlay {
            purpose,
            textarea,
            error: None,
            original: text.to_string(),
            confirm_discard: false,
        }
    }

    pub fn text(&self) -> String {
        self.textarea.lines().join("\n")
    }

    /// Whether the text differs from what it opened with.
    pub fn changed(&self) -> bool {
        self.text() != self.original
    }
}

/// What the round's publish posted (its decision and the digest of its triage) and when.
#[derive(Debug, Clone, PartialEq)]
pub struct PostedAt {
    pub posted: crate::space::Posted,
    /// RFC 3339, as the publish record has it.
    pub at: String,
}

/// The overlay stack: the top one takes the keys.
#[derive(Debug, Clone)]
pub enum Overlay {
    Help {
        scroll: u16,
    },
    /// The approval gate; `details` shows every verdict reason. Its key list is always on
    /// screen; what is above it scrolls.
    Gate {
        details: bool,
        scroll: u16,
    },
    /// Waiting for the engine's publish preview.
    PreviewPending,
    Preview {
        data: PreviewData,
        scroll: u16,
        /// The selected row of `data.already_raised` (what the include key acts on).
        raised: usize,
    },
    Input(Box<InputOverlay>),
    Error {
        title: String,
        message: String,
    },
    /// The diff of a cohort's files (or of every changed file), findings in the gutter.
    Diff(DiffView),
    /// The patch the gate wrote (`AppState::patch`), scrolling.
    Patch {
        scroll: u16,
    },
    /// The event log (`AppState::log`); `u16::MAX` follows its end as lines arrive.
    Log {
        scroll: u16,
    },
    /// The PR's review threads (`ui::threads`), the cursor on the `cursor`th of them.
    Threads {
        cursor: usize,
    },
}

/// Where the diff view is: which files, the cursor row and the first row shown. Rows are
/// counted over the whole document (file headers, hunk headers, lines); only the visible ones
/// are ever built (`ui::diffview`).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct DiffView {
    /// A cohort key: its files in reading order. `None`: every changed file, in diff order.
    pub cohort: Option<String>,
    pub cursor: usize,
    pub offset: usize,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MessageKind {
    Info,
    Warn,
    Error,
}

/// The message over the hint line; the next key clears it.
#[derive(Debug, Clone, PartialEq)]
pub struct Message {
    pub text: String,
    pub kind: MessageKind,
}

impl Overlay {
    /// A text box for `purpose`, holding `text`.
    pub fn input(purpose: InputPurpose, text: &str) -> Overlay {
        Overlay::Input(Box::new(InputOverlay::new(purpose, text)))
    }
}

/// Where things landed on screen in the last frame: mouse clicks and page sizes are read from
/// it. Written by the loop after each draw; only a measurement, never a source of truth.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ScreenLayout {
    pub findings: Rect,
    /// (screen row, row key) of each findings row drawn.
    pub finding_rows: Vec<(u16, RowKey)>,
    pub detail: Rect,
    pub reviewers: Rect,
    pub disagreements: Rect,
    /// The diff view's line area (its height is the page size).
    pub diff: Rect,
    /// How far the detail pane can scroll before its last line leaves the top: `G` and the
    /// wheel stop there instead of scrolling into empty space.
    pub detail_scroll_max: u16,
    /// The same for the top overlay that scrolls (help, gate, publish preview).
    pub overlay_scroll_max: u16,
}

/// The board's derived views, recomputed together by `AppState::refresh`.
#[derive(Debug, Clone, Default)]
struct Derived {
    problems: Vec<Problem>,
    disagreements: Vec<Disagreement>,
    /// Where each node sits in `board.nodes`: the findings list looks nodes up by id thousands
    /// of times per frame. `node` checks the entry and falls back to a scan, so a stale index
    /// is only slower, never wrong.
    node_index: HashMap<String, usize>,
}

/// The findings pane's own state: the selection (by stable key), what is folded and unfolded,
/// the marks, the range, the filter, and where the list is scrolled.
#[derive(Debug, Clone, Default)]
pub struct FindingsPane {
    pub selected: Option<RowKey>,
    /// The selection nobody chose (the list's first finding): while it is still selected and
    /// no key was pressed, it follows the list's top as findings stream in.
    pub auto_selected: Option<RowKey>,
    /// Cohort keys whose findings are hidden.
    pub collapsed: BTreeSet<String>,
    /// Cohort keys whose "below threshold" group is unfolded.
    pub below_open: BTreeSet<String>,
    /// Problems (by primary node id) whose duplicates are shown.
    pub expanded: BTreeSet<String>,
    /// Rule folds (by [`crate::ui::rows::rule_key`]) whose findings are listed one a row.
    pub rules_open: BTreeSet<String>,
    /// Findings chosen for the gate's fix and ignore.
    pub marked: BTreeSet<String>,
    /// `V`: where a range of rows starts; it ends at the selection. Confirm, dismiss and
    /// resolve then act on every finding in it (a cohort or below-threshold row in it brings
    /// its findings along).
    pub range: Option<RowKey>,
    pub filter: String,
    /// The first row shown.
    pub offset: usize,
}

/// The detail pane's own state.
#[derive(Debug, Clone, Default)]
pub struct DetailPane {
    pub scroll: u16,
    /// The detail pane fills the screen below the header (`z`).
    pub zoomed: bool,
}

/// The reviewers pane's own state.
#[derive(Debug, Clone, Default)]
pub struct ReviewersPane {
    /// The selected reviewer, by name.
    pub selected: Option<String>,
}

/// The disagreements pane's own state.
#[derive(Debug, Clone, Default)]
pub struct DisagreementsPane {
    /// The selected disagreement, by its two node ids.
    pub selected: Option<(String, String)>,
}

#[derive(Debug, Clone)]
pub struct AppState {
    // The engine snapshot.
    pub pr: PrHeader,
    pub ladder: Ladder,
    pub round: u32,
    /// The verdict; recomputed with `review::decide` whenever the board changes.
    pub verdict: Option<Verdict>,
    pub axes: Vec<Axis>,
    /// Which break of a reason row `d` opens the diff at next (counting on, wrapping).
    pub reason_break: usize,
    /// Passed to the verdict: the person asked for a run without model reviewers.
    pub deterministic_only: bool,
    pub board: Board,
    /// What derives from the board (problems, disagreements, the node index): private, only
    /// `refresh` writes it.
    derived: Derived,
    pub cohorts: Vec<CohortView>,
    pub level: Level,
    /// Head-side file contents by path, filled by the engine from the worktree. The view reads
    /// only the visible lines; a missing file shows "code not loaded", never a blocking read.
    pub code: HashMap<String, Arc<Vec<String>>>,
    /// The pull request's diff, from the engine (`Action::Diff`); the diff view reads only the
    /// rows it shows.
    pub diff: Option<Arc<Diff>>,
    /// The review threads people hold on the PR: marked in the diff view's gutter.
    pub review_threads: Arc<Vec<crate::pr::ReviewThread>>,
    /// Where the preview stood (scroll, selected raised row) when the include key asked for
    /// a new one: it comes back there.
    pub preview_at: Option<(u16, usize)>,
    /// The person's replies and resolutions on those threads, until a publish posts them.
    pub thread_drafts: Vec<crate::space::ThreadDraft>,
    /// Findings (by fingerprint) the person chose in the publish preview to post though an
    /// open thread already raises them.
    pub include_raised: std::collections::BTreeSet<String>,
    /// The person's overrides of gated axes (`review::axis_override`), as the space keeps them.
    pub axis_overrides: Vec<crate::review::axis_override::AxisOverride>,
    /// Edited comment text by node id (what would be posted instead of the generated text).
    pub comments: BTreeMap<String, String>,
    /// The person at the keyboard (their confirmations count as a peer's).
    pub person: String,
    /// The current time (RFC 3339), set by the loop; status changes are stamped with it.
    pub now: String,
    /// Shown while the engine prepares (`preparing the review space…`); `None` once ready.
    pub loading: Option<String>,
    /// The pass the run is in after the reviewers (`verification`, `lead pass`…), while it
    /// runs: the reviewers are all done then, and the screen would otherwise look stuck.
    pub phase: Option<String>,
    /// How far the running pass is, and what holds it up (reset when the phase changes).
    pub pass: PassProgress,
    /// Where this round was published (the review's URL, or the report's paths), once it was.
    pub published: Option<String>,
    /// What that publish posted and when (`None`: not published, or by an older version).
    pub posted: Option<PostedAt>,
    /// The session's offline banner: the round on screen is the stored one, not refreshed.
    pub offline: Option<String>,
    /// `--watch`: a change to the uncommitted work under review starts a new round.
    pub watching: bool,
    /// No model will review this round: the header says so and how to go on
    /// (`session::no_model`).
    pub no_model: bool,

    // UI state: what the whole screen needs here, each pane's own in its struct.
    pub focus: Pane,
    pub findings: FindingsPane,
    pub detail: DetailPane,
    pub reviewers: ReviewersPane,
    pub disagreements: DisagreementsPane,
    pub overlays: Vec<Overlay>,
    pub message: Option<Message>,
    pub tick: u64,
    pub layout: ScreenLayout,
    pub quit: bool,
    /// Work only the loop can do because it owns the terminal (hand it to the person's editor,
    /// write to the clipboard); `update` queues it, the loop drains it after each action.
    pub terminal_jobs: Vec<TerminalJob>,
    /// The person's changes this session, last on top, and the ones undone since.
    pub undo: Vec<Undoable>,
    pub redo: Vec<Undoable>,
    /// The last patch the gate wrote (this session, or found in the space on reopen).
    pub patch: Option<PatchData>,
    /// The reviewed checkout: where `O` opens a finding's file.
    pub worktree: Option<std::path::PathBuf>,
    /// The review space: where the person's editor gets its file.
    pub space: Option<std::path::PathBuf>,
    /// The person's keymap, so a message that names a key names the one they bound (the
    /// loop sets it from the view context; the defaults until then).
    pub keymap: Arc<crate::ui::keymap::Keymap>,
    /// What ran, failed, waited and was posted this session (`l` shows it).
    pub log: crate::ui::log::EventLog,
    /// The whole run's stop was pressed once: the next press stops it.
    pub stop_armed: bool,
    /// The review room's questions and answers (every round's), as the session last said.
    pub threads: Vec<crate::review::Thread>,
    /// In the diff view: where a range of lines for the person's comment starts (`V`).
    pub diff_range: Option<usize>,
}

impl AppState {
    /// An empty cockpit for `pr`, loading until the engine says otherwise.
    pub fn new(pr: PrHeader, person: &str) -> AppState {
        AppState {
            pr,
            ladder: Ladder::Requested,
            round: 0,
            verdict: None,
            axes: Vec::new(),
            reason_break: 0,
            deterministic_only: false,
            board: Board::default(),
            derived: Derived::default(),
            cohorts: Vec::new(),
            level: Level::default(),
            code: HashMap::new(),
            diff: None,
            review_threads: Arc::default(),
            thread_drafts: Vec::new(),
            include_raised: Default::default(),
            axis_overrides: Vec::new(),
            preview_at: None,
            comments: BTreeMap::new(),
            person: person.to_string(),
            now: String::new(),
            loading: None,
            phase: None,
            pass: PassProgress::default(),
            published: None,
            posted: None,
            offline: None,
            watching: false,
            no_model: false,
            focus: Pane::Findings,
            findings: FindingsPane::default(),
            detail: DetailPane::default(),
            reviewers: ReviewersPane::default(),
            disagreements: DisagreementsPane::default(),
            overlays: Vec::new(),
            message: None,
            tick: 0,
            layout: ScreenLayout::default(),
            quit: false,
            undo: Vec::new(),
            redo: Vec::new(),
            terminal_jobs: Vec::new(),
            patch: None,
            worktree: None,
            space: None,
            keymap: Arc::new(crate::ui::keymap::Keymap::default()),
            log: crate::ui::log::EventLog::default(),
            stop_armed: false,
            threads: Vec::new(),
            diff_range: None,
        }
    }

    /// A cockpit over a reopened space: ladder, round and findings from `state.json`.
    pub fn from_space(pr: PrHeader, space: &SpaceState, person: &str) -> AppState {
        let mut state = AppState::new(pr, person);
        state.ladder = space.ladder();
        state.round = space.current_round().map_or(0, |r| r.number);
        state.board.nodes = space.nodes.clone();
        state.threads = space.threads.clone();
        state.include_raised = space.include_raised.clone();
        state.axis_overrides = space.axis_overrides.clone();
        // An answer the last process was still receiving is no longer coming.
        crate::review::interrupt_open(&mut state.threads);
        state.published = space.published().map(|p| p.target.clone());
        state.posted = space.published().and_then(|p| {
            p.posted.clone().map(|posted| PostedAt {
                posted,
                at: p.at.clone(),
            })
        });
        state.refresh();
        state
    }

    /// Recomputes what derives from the findings — the problems and their consolidation
    /// marks, the disagreements, the node index — and the verdict. Called after every change
    /// to the board, and only then: consolidating 10k findings takes tens of milliseconds,
    /// too long for every frame or key. The verdict is `review::decide` over the same board,
    /// so what the header shows is exactly what the code decides.
    pub fn refresh(&mut self) {
        // The same derivations the session's snapshot makes, from `review::derived`.
        self.derived.problems = crate::review::problems(&mut self.board.nodes);
        self.derived.disagreements = crate::review::disagreements(&self.board.nodes);
        self.derived.node_index = self
            .board
            .nodes
            .iter()
            .enumerate()
            .map(|(i, n)| (n.id.clone(), i))
            .collect();
        self.refresh_verdict();
    }

    /// The verdict alone, for a change that leaves the problems and disagreements as they are.
    pub fn refresh_verdict(&mut self) {
        if self.board.nodes.is_empty() && self.board.reviewers.is_empty() {
            self.verdict = None;
            return;
        }
        let context = crate::review::Context {
            axes: self.axes.clone(),
            reviewers: self.board.reviewer_runs(),
            deterministic_only: self.deterministic_only,
            model_verdict: None,
        };
        self.verdict = Some(crate::review::verdict(&self.board.nodes, context));
    }

    /// The person's decision beside the verdict by code, when their overrides of gated axes
    /// change it (`review::axis_override`).
    pub fn persons_decision(&self) -> Option<crate::review::axis_override::PersonsDecision> {
        let verdict = self.verdict.as_ref()?;
        let context = crate::review::Context {
            axes: self.axes.clone(),
            reviewers: self.board.reviewer_runs(),
            deterministic_only: self.deterministic_only,
            model_verdict: None,
        };
        crate::review::persons_decision(&self.board.nodes, context, verdict, &self.axis_overrides)
    }

    /// A finding's title for messages, cut to a readable length (ids are for machines).
    /// The findings that hold the verdict and are still open, in the verdict's order.
    pub fn holding(&self) -> Vec<&ReviewNode> {
        self.verdict
            .iter()
            .flat_map(|v| v.holding.iter())
            .filter_map(|id| self.node(id))
            .filter(|n| n.status.is_active())
            .collect()
    }

    pub fn label(&self, id: &str) -> String {
        match self.node(id) {
            Some(node) => format!("“{}”", crate::ui::text::truncate(&node.text.title, 40)),
            None => id.to_string(),
        }
    }

    /// The board consolidated into problems (as of the last `refresh`).
    pub fn problems(&self) -> &[Problem] {
        &self.derived.problems
    }

    /// The board's disagreements (as of the last `refresh`).
    pub fn disagreements(&self) -> &[Disagreement] {
        &self.derived.disagreements
    }

    /// The derived caches, for a test that plants markers no refresh would keep.
    #[cfg(test)]
    pub(crate) fn derived_mut(&mut self) -> (&mut Vec<Problem>, &mut Vec<Disagreement>) {
        (&mut self.derived.problems, &mut self.derived.disagreements)
    }

    pub fn node(&self, id: &str) -> Option<&ReviewNode> {
        let i = self.node_position(id)?;
        Some(&self.board.nodes[i])
    }

    pub fn node_mut(&mut self, id: &str) -> Option<&mut ReviewNode> {
        let i = self.node_position(id)?;
        Some(&mut self.board.nodes[i])
    }

    fn node_position(&self, id: &str) -> Option<usize> {
        let nodes = &self.board.nodes;
        match self.derived.node_index.get(id) {
            Some(&i) if nodes.get(i).is_some_and(|n| n.id == id) => Some(i),
            _ => nodes.iter().position(|n| n.id == id),
        }
    }

    /// The node the detail pane shows: the selected finding.
    pub fn selected_node(&self) -> Option<&ReviewNode> {
        match &self.findings.selected {
            Some(RowKey::Node(id)) => self.node(id),
            _ => None,
        }
    }

    /// Whether the review is still being computed: a round requested and about to start (its
    /// findings on screen are the last round's), reviewers queued or reading, or the run
    /// between them (peer round, verification, scoring). The verdict on the board is then
    /// only what is known so far, never a decision.
    pub fn review_running(&self) -> bool {
        self.ladder < Ladder::AwaitingApproval
    }

    /// How what is on screen now differs from what was published (`None`: not published,
    /// or the same): the decision by code, else the text the triage makes.
    pub fn changed_since_published(&self) -> Option<crate::session::posted::Changed> {
        let posted = self.posted.as_ref()?;
        let verdict = self.verdict.as_ref()?;
        let now = crate::session::posted::posted(
            verdict.decision,
            &self.board.nodes,
            &self.comments,
            self.level,
            &self.include_raised,
        );
        crate::session::posted::changed(&posted.posted, &now)
    }

    /// Whether a published round has something to publish again: the person's triage changed
    /// the decision or the posted text since, or replies and resolutions on the PR's threads
    /// wait to be posted.
    pub fn something_new(&self) -> bool {
        self.changed_since_published().is_some() || self.thread_drafts.iter().any(|d| !d.posted)
    }

    /// A transient message in the status line.
    pub fn say(&mut self, kind: MessageKind, text: String) {
        self.message = Some(Message { text, kind });
    }

    /// The key for `command` in `context`, as the person's keymap binds it (for messages).
    pub fn key(
        &self,
        context: crate::ui::keymap::Context,
        command: crate::ui::command::Command,
    ) -> String {
        self.keymap.key(context, command)
    }

    pub fn top_overlay(&self) -> Option<&Overlay> {
        self.overlays.last()
    }

    /// The text that would be posted for a node: the person's edit, or the generated text.
    pub fn comment_text(&self, node: &ReviewNode) -> String {
        self.comments
            .get(&node.id)
            .cloned()
            .unwrap_or_else(|| generated_comment(node))
    }
}

/// The comment text generated from a finding: its title, then its body.
pub fn generated_comment(node: &ReviewNode) -> String {
    if node.text.body.trim().is_empty() {
        node.text.title.clone()
    } else {
        format!("{}\n\n{}", node.text.title, node.text.body)
    }
}

/// What the running pass has said: `done` of `of` questions answered, the retries it made,
/// and what holds it up right now (until its next answer).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PassProgress {
    pub done: usize,
    pub of: usize,
    pub retries: u32,
    pub held: Option<PassHeld>,
}

/// Why a running pass has not moved: a retry (`limit` when the server asked for the wait), or
/// a slow server.
#[derive(Debug, Clone, PartialEq)]
pub enum PassHeld {
    Retrying {
        rate_limited: bool,
        /// `rate limited (HTTP 429): attempt 1 of 4, again in 20 s`
        note: String,
    },
    Waiting {
        /// `waiting for 127.0.0.1:9: 30 s, no complete answer yet`
        note: String,
    },
}

impl PassProgress {
    /// Takes one note of the running pass.
    pub fn hear(&mut self, note: &crate::reviewers::model::passes::PassNote) {
        use crate::reviewers::model::passes::PassNote;
        use crate::reviewers::model::provider::Heard;
        match note {
            PassNote::Progress { done, of } => {
                // An answer came: whatever held the pass up has passed.
                if *done > self.done {
                    self.held = None;
                }
                self.done = *done;
                self.of = *of;
            }
            PassNote::Heard(Heard::Retrying(retry)) => {
                self.retries += 1;
                self.held = Some(PassHeld::Retrying {
                    rate_limited: retry.rate_limited,
                    note: retry.said(),
                });
            }
            PassNote::Heard(Heard::Waiting { host, waited_secs }) => {
                // A retry's wait is still the retry.
                if !matches!(self.held, Some(PassHeld::Retrying { .. })) {
                    self.held = Some(PassHeld::Waiting {
                        note: crate::review::waiting_note(host, *waited_secs),
                    });
                }
            }
        }
    }

    /// `2/5`, `2/5 limit 1`, `retry 2`, `waiting`: the short form, for a pane's title.
    pub fn short(&self) -> String {
        let count = (self.of > 0).then(|| format!("{}/{}", self.done, self.of));
        let held = match &self.held {
            Some(PassHeld::Retrying {
                rate_limited: true, ..
            }) => Some(format!("limit {}", self.retries)),
            Some(PassHeld::Retrying { .. }) => Some(format!("retry {}", self.retries)),
            Some(PassHeld::Waiting { .. }) => Some("waiting".to_string()),
            None => None,
        };
        [count, held]
            .into_iter()
            .flatten()
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// `2 of 5 answered · limit 1: rate limited (HTTP 429): attempt 1 of 4, again in 20 s`:
    /// the long form, for the header's line.
    pub fn long(&self) -> String {
        let mut parts = Vec::new();
        if self.of > 0 {
            parts.push(format!("{} of {} answered", self.done, self.of));
        }
        match &self.held {
            Some(PassHeld::Retrying { rate_limited, note }) => parts.push(format!(
                "{} {}: {note}",
                if *rate_limited { "limit" } else { "retry" },
                self.retries
            )),
            Some(PassHeld::Waiting { note }) => parts.push(note.clone()),
            None if self.retries > 0 => parts.push(format!(
                "{} {}",
                self.retries,
                if self.retries == 1 {
                    "retry"
                } else {
                    "retries"
                }
            )),
            None => {}
        }
        parts.join(" · ")
    }
}
