//! Keys to commands. Every binding names its command (the snake_case name from
//! `Command::name`) and carries a description: the help overlay and the status line hints are generated from
//! this table, so they cannot drift from what the keys do. A user keymap file overrides single
//! bindings by action name:
//!
//! ```toml
//! confirm = "C"
//! move_down = ["j", "down", "ctrl-n"]
//! ```

use std::fmt;
use std::path::Path;

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use crate::ui::command::Command;
use crate::ui::pane::Pane;

/// One key with its modifiers, normalised (a shifted letter is the upper-case letter).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Key {
    pub code: KeyCode,
    pub modifiers: KeyModifiers,
}

impl Key {
    pub fn new(code: KeyCode, modifiers: KeyModifiers) -> Key {
        let mut modifiers =
            modifiers & (KeyModifiers::CONTROL | KeyModifiers::ALT | KeyModifiers::SHIFT);
        if matches!(code, KeyCode::Char(_) | KeyCode::BackTab) {
            modifiers.remove(KeyModifiers::SHIFT);
        }
        Key { code, modifiers }
    }

    /// `j`, `G`, `?`, `enter`, `esc`, `tab`, `shift-tab`, `space`, `up`, `pgdn`, `f1`,
    /// `ctrl-c`, `alt-x`.
    pub fn parse(text: &str) -> Result<Key, UnknownKey> {
        let mut modifiers = KeyModifiers::NONE;
        let mut rest = text;
        loop {
            let lower = rest.to_ascii_lowercase();
            let (prefix, modifier) = if lower.starts_with("ctrl-") {
                ("ctrl-", KeyModifiers::CONTROL)
            } else if lower.starts_with("alt-") {
                ("alt-", KeyModifiers::ALT)
            } else if lower.starts_with("shift-") && rest.len() > "shift-".len() {
                ("shift-", KeyModifiers::SHIFT)
            } else {
                break;
            };
            modifiers |= modifier;
            rest = &rest[prefix.len()..];
        }
        let code = match rest.to_ascii_lowercase().as_str() {
            "enter" | "return" => KeyCode::Enter,
            "esc" | "escape" => KeyCode::Esc,
            "tab" if modifiers.contains(KeyModifiers::SHIFT) => KeyCode::BackTab,
            "tab" => KeyCode::Tab,
            "backtab" => KeyCode::BackTab,
            "space" => KeyCode::Char(' '),
            "backspace" => KeyCode::Backspace,
            "delete" | "del" => KeyCode::Delete,
            "up" => KeyCode::Up,
            "down" => KeyCode::Down,
            "left" => KeyCode::Left,
            "right" => KeyCode::Right,
            "home" => KeyCode::Home,
            "end" => KeyCode::End,
            "pgup" | "pageup" => KeyCode::PageUp,
            "pgdn" | "pagedown" => KeyCode::PageDown,
            f if f.len() > 1 && f.starts_with('f') && f[1..].parse::<u8>().is_ok() => {
                KeyCode::F(f[1..].parse().unwrap_or(1))
            }
            _ => {
                let mut chars = rest.chars();
                match (chars.next(), chars.next()) {
                    (Some(c), None) => {
                        let c = if modifiers.contains(KeyModifiers::SHIFT) {
                            c.to_ascii_uppercase()
                        } else {
                            c
                        };
                        KeyCode::Char(c)
                    }
                    _ => return Err(UnknownKey(text.to_string())),
                }
            }
        };
        Ok(Key::new(code, modifiers))
    }

    pub fn from_event(event: &KeyEvent) -> Key {
        Key::new(event.code, event.modifiers)
    }
}

impl fmt::Display for Key {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.modifiers.contains(KeyModifiers::CONTROL) {
            f.write_str("ctrl-")?;
        }
        if self.modifiers.contains(KeyModifiers::ALT) {
            f.write_str("alt-")?;
        }
        if self.modifiers.contains(KeyModifiers::SHIFT) {
            f.write_str("shift-")?;
        }
        match self.code {
            KeyCode::Char(' ') => f.write_str("space"),
            KeyCode::Char(c) => write!(f, "{c}"),
            KeyCode::Enter => f.write_str("enter"),
            KeyCode::Esc => f.write_str("esc"),
            KeyCode::Tab => f.write_str("tab"),
            KeyCode::BackTab => f.write_str("shift-tab"),
            KeyCode::Backspace => f.write_str("backspace"),
            KeyCode::Delete => f.write_str("delete"),
            KeyCode::Up => f.write_str("↑"),
            KeyCode::Down => f.write_str("↓"),
            KeyCode::Left => f.write_str("←"),
            KeyCode::Right => f.write_str("→"),
            KeyCode::Home => f.write_str("home"),
            KeyCode::End => f.write_str("end"),
            KeyCode::PageUp => f.write_str("pgup"),
            KeyCode::PageDown => f.write_str("pgdn"),
            KeyCode::F(n) => write!(f, "f{n}"),
            other => write!(f, "{other:?}"),
        }
    }
}

/// Where a binding applies.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Context {
    /// The panes, when no overlay is open.
    Main,
    Gate,
    /// The publish preview: bound keys scroll or confirm; any other key cancels.
    Preview,
    /// The help overlay: bound keys scroll; any other key closes it.
    Help,
    /// The diff view: bound keys move and jump; other keys do nothing.
    Diff,
    /// The patch viewer: bound keys scroll; any other key closes it.
    Patch,
    /// The event log: bound keys scroll; any other key closes it.
    Log,
    /// The PR's review threads: bound keys move and draft; other keys do nothing.
    Threads,
    /// The inbox: bound keys move, filter, sort, refresh and open; other keys do nothing.
    Inbox,
}

impl Context {
    pub fn title(self) -> &'static str {
        match self {
            Context::Main => "Review",
            Context::Gate => "Approval gate",
            Context::Preview => "Publish preview",
            Context::Help => "Help",
            Context::Diff => "Diff view",
            Context::Patch => "Patch viewer",
            Context::Log => "Event log",
            Context::Threads => "Review threads",
            Context::Inbox => "Inbox",
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct Binding {
    pub context: Context,
    pub command: Command,
    pub keys: Vec<Key>,
    pub desc: &'static str,
    /// Panes whose status line hints show this binding.
    pub hint_in: &'static [Pane],
}

#[derive(Debug, Clone, PartialEq)]
pub struct Keymap {
    pub bindings: Vec<Binding>,
}

#[derive(Debug, thiserror::Error)]
pub enum KeymapError {
    #[error("reading the keymap {path}: {source}")]
    Read {
        path: String,
        source: std::io::Error,
    },
    #[error("the keymap is not valid TOML: {0}")]
    Toml(String),
    #[error("unknown action `{0}` in the keymap (see docs/keymap.md for the names)")]
    UnknownAction(String),
    #[error("`{action}`: {reason}")]
    BadKey { action: String, reason: String },
}

/// A key name the keymap does not know (`ctrl-q`, `pgdn` and `f1` are known; see `Key::parse`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown key `{0}`")]
pub struct UnknownKey(String);

const ALL: &[Pane] = &[
    Pane::Findings,
    Pane::Detail,
    Pane::Reviewers,
    Pane::Disagreements,
];
const NODE: &[Pane] = &[Pane::Findings, Pane::Detail];
const LIST: &[Pane] = &[Pane::Findings, Pane::Reviewers, Pane::Disagreements];
const NONE: &[Pane] = &[];

/// (context, command, keys, description, panes that hint it).
type DefaultBinding = (
    Context,
    Command,
    &'static [&'static str],
    &'static str,
    &'static [Pane],
);

impl Default for Keymap {
    fn default() -> Keymap {
        use Command as A;
        use Context::*;
        let table: Vec<DefaultBinding> = vec![
            (
                Main,
                A::MoveDown,
                &["j", "down"],
                "move down (scroll in the detail)",
                ALL,
            ),
            (Main, A::MoveUp, &["k", "up"], "move up", NONE),
            (Main, A::PageDown, &["pgdn", "ctrl-d"], "page down", NONE),
            (Main, A::PageUp, &["pgup", "ctrl-u"], "page up", NONE),
            (Main, A::Top, &["home"], "first row", NONE),
            (Main, A::Bottom, &["end", "G"], "last row", NONE),
            (Main, A::NextPane, &["tab", "right"], "next pane", NONE),
            (
                Main,
                A::PrevPane,
                &["shift-tab", "left"],
                "previous pane",
                NONE,
            ),
            (
                Main,
                A::Expand,
                &["enter"],
                "fold/unfold; open a finding; jump to a disagreement's finding; filter by reviewer",
                LIST,
            ),
            (
                Main,
                A::NextFinding,
                &["n"],
                "next open finding (wraps around)",
                NODE,
            ),
            (
                Main,
                A::PrevFinding,
                &["N"],
                "previous open finding (wraps around)",
                NONE,
            ),
            (
                Main,
                A::Confirm,
                &["c"],
                "confirm the finding as you (a peer): open → consensus ready",
                NODE,
            ),
            (
                Main,
                A::Dismiss,
                &["x"],
                "dismiss the finding (asks for a reason)",
                NODE,
            ),
            (Main, A::Resolve, &["r"], "mark the finding resolved", NODE),
            (
                Main,
                A::Reopen,
                &["o"],
                "reopen a resolved or dismissed finding",
                NONE,
            ),
            (
                Main,
                A::EditComment,
                &["e"],
                "edit the comment that would be posted",
                &[Pane::Detail],
            ),
            (
                Main,
                A::ToggleMark,
                &["space"],
                "mark/unmark the finding for the gate's fix and ignore",
                NONE,
            ),
            (
                Main,
                A::SelectRange,
                &["V"],
                "range: from here to where you move; confirm, dismiss and resolve act on all of it (esc drops it); on a cohort row they act on the cohort",
                NONE,
            ),
            (
                Main,
                A::Undo,
                &["u"],
                "undo the last triage change (recorded as a change, like any other)",
                NODE,
            ),
            (Main, A::Redo, &["ctrl-r"], "redo what undo took back", NONE),
            (
                Main,
                A::EditInEditor,
                &["E"],
                "write the comment in $VISUAL/$EDITOR (saved when the editor closes)",
                NONE,
            ),
            (
                Main,
                A::Yank,
                &["y"],
                "copy path:line of the finding to the clipboard (OSC 52)",
                NONE,
            ),
            (
                Main,
                A::OpenInEditor,
                &["O"],
                "open the file at the finding's line in $VISUAL/$EDITOR",
                NONE,
            ),
            (
                Main,
                A::ZoomDetail,
                &["z"],
                "zoom: the detail fills the screen (again, or esc: back)",
                NONE,
            ),
            (Main, A::FocusFindings, &["1"], "focus the findings", NONE),
            (Main, A::FocusDetail, &["2"], "focus the detail", NONE),
            (Main, A::FocusReviewers, &["3"], "focus the reviewers", NONE),
            (
                Main,
                A::FocusDisagreements,
                &["4"],
                "focus the disagreements",
                NONE,
            ),
            (
                Main,
                A::Filter,
                &["/"],
                "filter: words, @reviewer, p0…p3, is:open",
                &[Pane::Findings],
            ),
            (
                Main,
                A::ClearFilter,
                &[],
                "clear the filter (esc also does)",
                NONE,
            ),
            (
                Main,
                A::CycleLevel,
                &["L"],
                "change level (light → balanced → thorough): re-sorts, never deletes",
                NONE,
            ),
            (
                Main,
                A::OpenGate,
                &["g"],
                "open the approval gate (when awaiting approval)",
                ALL,
            ),
            (
                Main,
                A::OpenDiff,
                &["d"],
                "diff of the selected cohort's files, findings marked in the gutter",
                &[Pane::Findings],
            ),
            (
                Main,
                A::ViewPatch,
                &["v"],
                "view the patch the gate's fix wrote",
                NONE,
            ),
            (
                Main,
                A::EventLog,
                &["l"],
                "event log: what ran, failed, waited and was posted",
                NONE,
            ),
            (
                Main,
                A::StopReviewer,
                &["S"],
                "stop the selected model reviewer while the review runs (the others go on)",
                &[Pane::Reviewers],
            ),
            (
                Main,
                A::StopRun,
                &["X"],
                "stop the whole running review (press twice): reviewers and passes end, what they found stays",
                NONE,
            ),
            (
                Main,
                A::Ask,
                &["a"],
                "ask the finding's reviewer a question (the answer streams into the detail)",
                &[Pane::Detail],
            ),
            (
                Main,
                A::AskChange,
                &["A"],
                "ask the engineer about the whole change",
                NONE,
            ),
            (
                Main,
                A::CancelAnswer,
                &["ctrl-x"],
                "stop the answer still coming",
                NONE,
            ),
            (
                Main,
                A::AcceptProposal,
                &["Y"],
                "accept the reviewer's proposal (withdraw, or another priority or kind): your decision, with its reason",
                &[Pane::Detail],
            ),
            (
                Main,
                A::AddComment,
                &["C"],
                "your own finding on this finding's lines (first line `P1 bug: title` sets priority and kind; default P2 suggestion)",
                NONE,
            ),
            (
                Main,
                A::DeleteComment,
                &["D"],
                "delete your own finding",
                NONE,
            ),
            (
                Main,
                A::Threads,
                &["t"],
                "the PR's review threads: reply, resolve (drafts, posted by the next publish)",
                NONE,
            ),
            (Main, A::Help, &["?"], "help: every key", ALL),
            (
                Main,
                A::Close,
                &["esc"],
                "close / clear the filter / back to the findings",
                NONE,
            ),
            (
                Main,
                A::Quit,
                &["q", "ctrl-c"],
                "quit (decisions are already saved)",
                ALL,
            ),
            (
                Main,
                A::OpenInbox,
                &["I"],
                "the inbox: every review waiting for you (decisions are already saved)",
                NONE,
            ),
            (
                Gate,
                A::GateFix,
                &["f"],
                "fix: replacement lines as a patch, or fix prompts to the fix command",
                NONE,
            ),
            (
                Gate,
                A::GateIgnore,
                &["i"],
                "ignore: dismiss the chosen findings with a reason",
                NONE,
            ),
            (
                Gate,
                A::GatePublish,
                &["p"],
                "publish: preview what would be posted, then confirm",
                NONE,
            ),
            (
                Gate,
                A::GateDetails,
                &["d"],
                "details: every reason of the verdict",
                NONE,
            ),
            (
                Gate,
                A::GateWhy,
                &["w"],
                "why: the next finding or gated axis holding the verdict",
                NONE,
            ),
            (
                Gate,
                A::GateAbort,
                &["a"],
                "leave the gate: nothing more is posted, the review stays open",
                NONE,
            ),
            (
                Gate,
                A::HandBack,
                &["h"],
                "hand back: the kept findings as one prompt for the coding agent",
                NONE,
            ),
            (
                Gate,
                A::ViewPatch,
                &["v"],
                "view the patch the fix wrote",
                NONE,
            ),
            (Gate, A::Help, &["?"], "help: the gate's keys first", NONE),
            (Gate, A::Close, &["esc"], "back to the findings", NONE),
            (Gate, A::MoveDown, &["j", "down"], "scroll down", NONE),
            (Gate, A::MoveUp, &["k", "up"], "scroll up", NONE),
            (Gate, A::PageDown, &["pgdn"], "page down", NONE),
            (Gate, A::PageUp, &["pgup"], "page up", NONE),
            (
                Preview,
                A::PublishConfirm,
                &["enter"],
                "publish exactly this",
                NONE,
            ),
            (
                Preview,
                A::MoveDown,
                &["j", "down"],
                "scroll the body",
                NONE,
            ),
            (Preview, A::MoveUp, &["k", "up"], "scroll the body up", NONE),
            (
                Preview,
                A::Help,
                &["?"],
                "help: the preview's keys first",
                NONE,
            ),
            (
                Preview,
                A::IncludeRaised,
                &["i"],
                "post the selected finding already raised in a thread, or leave it out again",
                NONE,
            ),
            (
                Preview,
                A::NextFinding,
                &["n"],
                "select the next finding already raised",
                NONE,
            ),
            (
                Preview,
                A::PrevFinding,
                &["N"],
                "select the previous finding already raised",
                NONE,
            ),
            (Preview, A::PageDown, &["pgdn", "space"], "page down", NONE),
            (Preview, A::PageUp, &["pgup"], "page up", NONE),
            (Preview, A::Top, &["home", "g"], "top of the body", NONE),
            (Preview, A::Bottom, &["end", "G"], "end of the body", NONE),
            (Diff, A::MoveDown, &["j", "down"], "next line", NONE),
            (Diff, A::MoveUp, &["k", "up"], "previous line", NONE),
            (Diff, A::PageDown, &["pgdn", "ctrl-d"], "page down", NONE),
            (Diff, A::PageUp, &["pgup", "ctrl-u"], "page up", NONE),
            (Diff, A::Top, &["home"], "first line", NONE),
            (Diff, A::Bottom, &["end", "G"], "last line", NONE),
            (
                Diff,
                A::NextFile,
                &["]", "right"],
                "next file (reading order)",
                NONE,
            ),
            (Diff, A::PrevFile, &["[", "left"], "previous file", NONE),
            (
                Diff,
                A::NextFinding,
                &["n"],
                "next line marked with a finding",
                NONE,
            ),
            (Diff, A::PrevFinding, &["N"], "previous marked line", NONE),
            (
                Diff,
                A::Expand,
                &["enter"],
                "select the finding on this line in the list",
                NONE,
            ),
            (
                Diff,
                A::OpenInEditor,
                &["o", "O"],
                "open the file at this line in $VISUAL/$EDITOR",
                NONE,
            ),
            (
                Diff,
                A::AddComment,
                &["C"],
                "your own finding on this line, or on the range started with V",
                NONE,
            ),
            (
                Diff,
                A::SelectRange,
                &["V"],
                "start (or drop) a range of lines for your comment",
                NONE,
            ),
            (Diff, A::Help, &["?"], "help: every key", NONE),
            (Diff, A::Close, &["esc", "d"], "close the diff view", NONE),
            (
                Diff,
                A::Quit,
                &["q"],
                "quit (decisions are already saved)",
                NONE,
            ),
            (
                Patch,
                A::Help,
                &["?"],
                "help: the patch viewer's keys first",
                NONE,
            ),
            (Patch, A::MoveDown, &["j", "down"], "scroll down", NONE),
            (Patch, A::MoveUp, &["k", "up"], "scroll up", NONE),
            (Patch, A::PageDown, &["pgdn", "space"], "page down", NONE),
            (Patch, A::PageUp, &["pgup"], "page up", NONE),
            (Patch, A::Top, &["home", "g"], "top", NONE),
            (Patch, A::Bottom, &["end", "G"], "end", NONE),
            (Log, A::Help, &["?"], "help: the log's keys first", NONE),
            (Log, A::MoveDown, &["j", "down"], "scroll down", NONE),
            (Log, A::MoveUp, &["k", "up"], "scroll up", NONE),
            (Log, A::PageDown, &["pgdn", "space"], "page down", NONE),
            (Log, A::PageUp, &["pgup"], "page up", NONE),
            (Log, A::Top, &["home", "g"], "oldest line", NONE),
            (
                Log,
                A::Bottom,
                &["end", "G"],
                "newest line (and follow new ones)",
                NONE,
            ),
            (Threads, A::MoveDown, &["j", "down"], "next thread", NONE),
            (Threads, A::MoveUp, &["k", "up"], "previous thread", NONE),
            (Threads, A::Top, &["home", "g"], "first thread", NONE),
            (Threads, A::Bottom, &["end", "G"], "last thread", NONE),
            (
                Threads,
                A::Reply,
                &["R", "enter"],
                "reply to the thread (a draft; ctrl-s saves it)",
                NONE,
            ),
            (
                Threads,
                A::Resolve,
                &["r"],
                "resolve the thread, or reopen a resolved one (a draft)",
                NONE,
            ),
            (
                Threads,
                A::DeleteComment,
                &["D"],
                "delete your drafts on the thread",
                NONE,
            ),
            (
                Threads,
                A::Undo,
                &["u"],
                "undo the last change (a draft, like a triage change)",
                NONE,
            ),
            (
                Threads,
                A::Redo,
                &["ctrl-r"],
                "redo what undo took back",
                NONE,
            ),
            (
                Threads,
                A::Help,
                &["?"],
                "help: the threads' keys first",
                NONE,
            ),
            (
                Threads,
                A::Close,
                &["esc", "t"],
                "close the threads list",
                NONE,
            ),
            (
                Threads,
                A::Quit,
                &["q"],
                "quit (decisions are already saved)",
                NONE,
            ),
            (Help, A::MoveDown, &["j", "down"], "scroll down", NONE),
            (Help, A::MoveUp, &["k", "up"], "scroll up", NONE),
            (Help, A::PageDown, &["pgdn", "space"], "page down", NONE),
            (Help, A::PageUp, &["pgup"], "page up", NONE),
            (Help, A::Top, &["home", "g"], "top", NONE),
            (Help, A::Bottom, &["end", "G"], "end", NONE),
            (
                Inbox,
                A::OpenPr,
                &["enter"],
                "open the cockpit on the selected pull request (leaving it comes back here)",
                NONE,
            ),
            (
                Inbox,
                A::Filter,
                &["/"],
                "filter: words, @author, is:moved|team|draft|failing|…",
                NONE,
            ),
            (Inbox, A::Sort, &["s"], "sort by the next column", NONE),
            (Inbox, A::Refresh, &["r"], "ask the forges again", NONE),
            (Inbox, A::MoveDown, &["j", "down"], "move down", NONE),
            (Inbox, A::MoveUp, &["k", "up"], "move up", NONE),
            (Inbox, A::PageDown, &["pgdn"], "page down", NONE),
            (Inbox, A::PageUp, &["pgup"], "page up", NONE),
            (Inbox, A::Top, &["g", "home"], "top", NONE),
            (Inbox, A::Bottom, &["G", "end"], "bottom", NONE),
            (Inbox, A::Help, &["?"], "help: every key", NONE),
            (
                Inbox,
                A::Close,
                &["esc"],
                "clear the filter; without one, leave",
                NONE,
            ),
            (Inbox, A::Quit, &["q", "ctrl-c"], "quit", NONE),
        ];
        Keymap {
            bindings: table
                .into_iter()
                .map(|(context, command, keys, desc, hint_in)| Binding {
                    context,
                    command,
                    keys: keys
                        .iter()
                        .map(|k| Key::parse(k).expect("default keys parse"))
                        .collect(),
                    desc,
                    hint_in,
                })
                .collect(),
        }
    }
}

impl Keymap {
    /// The defaults with the bindings named in `text` (a user keymap file) replaced.
    pub fn with_overrides(text: &str) -> Result<Keymap, KeymapError> {
        let table: toml::Table = text
            .parse()
            .map_err(|e: toml::de::Error| KeymapError::Toml(e.to_string()))?;
        let mut keymap = Keymap::default();
        for (name, value) in table {
            let command = Command::from_name(&name)
                .ok_or_else(|| KeymapError::UnknownAction(name.clone()))?;
            let texts: Vec<String> = match value {
                toml::Value::String(key) => vec![key],
                toml::Value::Array(keys) => keys
                    .into_iter()
                    .map(|k| match k {
                        toml::Value::String(key) => Ok(key),
                        other => Err(KeymapError::BadKey {
                            action: name.clone(),
                            reason: format!("expected a key name, found {other}"),
                        }),
                    })
                    .collect::<Result<_, _>>()?,
                other => {
                    return Err(KeymapError::BadKey {
                        action: name,
                        reason: format!("expected a key or a list of keys, found {other}"),
                    });
                }
            };
            let keys = texts
                .iter()
                .map(|t| Key::parse(t))
                .collect::<Result<Vec<Key>, UnknownKey>>()
                .map_err(|unknown| KeymapError::BadKey {
                    action: name.clone(),
                    reason: unknown.to_string(),
                })?;
            let mut found = false;
            for binding in keymap.bindings.iter_mut().filter(|b| b.command == command) {
                binding.keys = keys.clone();
                found = true;
            }
            if !found {
                keymap.bindings.push(Binding {
                    context: Context::Main,
                    command,
                    keys,
                    desc: "user binding",
                    hint_in: NONE,
                });
            }
        }
        Ok(keymap)
    }

    /// The defaults, overridden by the file at `path` when it exists.
    pub fn load(path: &Path) -> Result<Keymap, KeymapError> {
        match std::fs::read_to_string(path) {
            Ok(text) => Keymap::with_overrides(&text),
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => Ok(Keymap::default()),
            Err(source) => Err(KeymapError::Read {
                path: path.display().to_string(),
                source,
            }),
        }
    }

    pub fn lookup(&self, context: Context, key: Key) -> Option<Command> {
        self.bindings
            .iter()
            .find(|b| b.context == context && b.keys.contains(&key))
            .map(|b| b.command)
    }

    /// The keys of `command` in `context`, as shown to the person: `j/↓`.
    pub fn keys_for(&self, context: Context, command: Command) -> String {
        self.bindings
            .iter()
            .filter(|b| b.context == context && b.command == command)
            .flat_map(|b| b.keys.iter().map(Key::to_string))
            .collect::<Vec<_>>()
            .join("/")
    }

    /// The key a message or a hint names for `action` in `context`: its first binding, as the
    /// person's keymap has it (a remapped key is named as remapped), or the command's name
    /// when nothing is bound to it. Texts that tell a person which key to press come from
    /// here, never from a literal.
    pub fn key(&self, context: Context, command: Command) -> String {
        self.bindings
            .iter()
            .filter(|b| b.context == context && b.command == command)
            .find_map(|b| b.keys.first())
            .map(Key::to_string)
            .unwrap_or_else(|| format!("`{}` (unbound)", command.name()))
    }

    /// The keys that scroll an overlay in `context`, as its title names them: `j/k`.
    pub fn scroll_keys(&self, context: Context) -> String {
        format!(
            "{}/{}",
            self.key(context, Command::MoveDown),
            self.key(context, Command::MoveUp)
        )
    }

    /// Short hints for the status line of a pane, commands that cannot run now (`available`
    /// says no) left out: the line is short. The ones a narrow line keeps first carry a rank
    /// (`Hint::first`): the gate, the two triage keys, the filter, help and quit.
    pub fn hints(&self, pane: Pane, available: impl Fn(Command) -> bool) -> Vec<Hint> {
        const FIRST: [Command; 6] = [
            Command::OpenGate,
            Command::Confirm,
            Command::Dismiss,
            Command::Filter,
            Command::Help,
            Command::Quit,
        ];
        self.bindings
            .iter()
            .filter(|b| {
                b.context == Context::Main && b.hint_in.contains(&pane) && !b.keys.is_empty()
            })
            .filter(|b| available(b.command))
            .map(|b| Hint {
                key: b.keys[0].to_string(),
                what: short(b.command),
                command: b.command,
                first: FIRST.iter().position(|c| *c == b.command),
            })
            .collect()
    }

    /// The keys an overlay's `context` offers now, for the hint bar, one per command in table
    /// order. An overlay's own keys, never the panes': the panes' keys do nothing while it is
    /// open. Its way back (`close`), help and quit come first.
    pub fn overlay_hints(
        &self,
        context: Context,
        available: impl Fn(Command) -> bool,
    ) -> Vec<Hint> {
        const FIRST: [Command; 3] = [Command::Close, Command::Help, Command::Quit];
        let mut seen = Vec::new();
        self.bindings
            .iter()
            .filter(|b| b.context == context && !b.keys.is_empty())
            .filter(|b| available(b.command))
            .filter(|b| {
                let first = !seen.contains(&b.command);
                seen.push(b.command);
                first
            })
            .map(|b| Hint {
                key: b.keys[0].to_string(),
                what: short_in(context, b.command),
                command: b.command,
                first: FIRST.iter().position(|c| *c == b.command),
            })
            .collect()
    }
}

/// One key of the hint line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hint {
    pub key: String,
    pub what: &'static str,
    pub command: Command,
    /// Where it stands among the keys shown first, in that order (`None`: after them, in
    /// table order, while they fit).
    pub first: Option<usize>,
}

/// The few words an overlay's hint uses for `command`: [`short`], but where a key means
/// something else in that overlay.
fn short_in(context: Context, command: Command) -> &'static str {
    match (context, command) {
        (Context::Preview, Command::NextFinding) => "next raised",
        (Context::Preview, Command::PrevFinding) => "previous raised",
        _ => short(command),
    }
}

/// The few words a status line hint (or a narrow overlay's key line) uses.
pub(crate) fn short(command: Command) -> &'static str {
    match command {
        Command::MoveDown => "move",
        Command::MoveUp => "up",
        Command::PageDown => "page",
        Command::PageUp => "page up",
        Command::Top => "top",
        Command::Bottom => "bottom",
        Command::PublishConfirm => "publish",
        Command::PublishCancel => "cancel",
        Command::IncludeRaised => "include",
        Command::Expand => "open",
        Command::NextFinding => "next open",
        Command::Undo => "undo",
        Command::Confirm => "confirm",
        Command::Dismiss => "dismiss",
        Command::Resolve => "resolve",
        Command::EditComment => "edit comment",
        Command::Filter => "filter",
        Command::OpenGate => "gate",
        Command::OpenDiff => "diff",
        Command::Help => "help",
        Command::Quit => "quit",
        Command::OpenInbox => "inbox",
        Command::GateFix => "fix",
        Command::GateIgnore => "ignore",
        Command::GatePublish => "publish",
        Command::GateDetails => "details",
        Command::GateWhy => "why",
        Command::GateAbort => "leave",
        Command::HandBack => "hand back",
        Command::ViewPatch => "view patch",
        Command::ZoomDetail => "zoom",
        Command::EventLog => "log",
        Command::SelectRange => "range",
        Command::StopReviewer => "stop reviewer",
        Command::StopRun => "stop run",
        Command::Close => "back",
        Command::Ask => "ask",
        Command::AskChange => "ask about the change",
        Command::CancelAnswer => "stop answer",
        Command::AcceptProposal => "accept proposal",
        Command::AddComment => "comment",
        Command::DeleteComment => "delete",
        Command::Threads => "threads",
        Command::Reply => "reply",
        Command::OpenPr => "open",
        Command::Sort => "sort",
        Command::Refresh => "refresh",
        other => other.name(),
    }
}
