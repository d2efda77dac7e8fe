//! The loop: one inbox for terminal events (read on a blocking thread), engine events and the
//! engine's replies; ticks beside it. Each turn drains a batch (`recv_many`), applies it through
//! `update`, hands the effects to the engine, and redraws at most every ~16 ms, only when
//! something changed. Nothing here waits on IO: the engine does its work elsewhere and answers
//! through the inbox.

use std::io;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, SystemTime};

use ratatui::Terminal;
use ratatui::backend::Backend;
use ratatui::crossterm::event::{self, Event};
use tokio::sync::mpsc;
use tokio::time::{Instant, MissedTickBehavior};

use crate::review::ReviewEvent;
use crate::review::ReviewerPhase;
use crate::ui::action::{Action, Report};
use crate::ui::state::{AppState, TerminalJob};
use crate::ui::update::{Effect, update};
use crate::ui::view::{self, ViewContext};

/// The longest a batch may be before it is applied and drawn.
const BATCH: usize = 256;
/// At most one frame per this long (~60 fps).
pub const FRAME: Duration = Duration::from_millis(16);
/// Ticks drive the spinner and expire messages.
pub const TICK: Duration = Duration::from_millis(250);

/// What the inbox carries.
#[derive(Debug)]
pub enum Msg {
    Terminal(Event),
    Action(Action),
}

/// The sending side of the loop's inbox. Cheap to clone: the engine keeps one and moves
/// clones into its tasks to report back (`inbox.send(Action::Published { … })`).
#[derive(Debug, Clone)]
pub struct Inbox {
    tx: mpsc::UnboundedSender<Msg>,
}

pub type InboxReceiver = mpsc::UnboundedReceiver<Msg>;

impl Inbox {
    pub fn channel() -> (Inbox, InboxReceiver) {
        let (tx, rx) = mpsc::unbounded_channel();
        (Inbox { tx }, rx)
    }

    /// Queues an action; false once the loop has ended.
    pub fn send(&self, action: Action) -> bool {
        self.tx.send(Msg::Action(action)).is_ok()
    }

    pub fn send_terminal(&self, event: Event) -> bool {
        self.tx.send(Msg::Terminal(event)).is_ok()
    }

    /// Forwards the reviewers' events into the inbox (a tokio task; ends with the channel).
    pub fn forward(&self, mut events: mpsc::Receiver<ReviewEvent>) -> tokio::task::JoinHandle<()> {
        let inbox = self.clone();
        tokio::spawn(async move {
            while let Some(event) = events.recv().await {
                if !inbox.send(Action::Engine(Report::Event(event))) {
                    break;
                }
            }
        })
    }
}

/// The engine side of the cockpit. `handle` is called on the loop's task for every effect, in
/// order, and must return quickly: start the work (a tokio task, `spawn_blocking`) and report
/// back through `inbox` (`PublishPreview`, `Published`, `Notice`, `EngineError`, …).
/// `Effect::Quit` is passed on too, after which the loop ends.
pub trait Engine {
    fn handle(&mut self, effect: Effect, inbox: &Inbox);
}

/// How the loop ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RunOutcome {
    /// The person quit (`q`).
    Quit,
    /// The person left before the review was done (`q` while reviewers were still running):
    /// nothing was decided, nothing was published.
    Aborted,
    /// Every sender of the inbox is gone.
    Closed,
    /// The person asked for the review inbox (`I`): the cockpit closes, the inbox opens.
    Inbox,
}

/// Runs the cockpit on a real terminal (see `terminal::enter`): reads crossterm events on a
/// blocking thread, forwards `events`, and loops until quit.
pub async fn run<B: Backend>(
    terminal: &mut Terminal<B>,
    state: &mut AppState,
    cx: &ViewContext,
    events: mpsc::Receiver<ReviewEvent>,
    engine: &mut impl Engine,
) -> io::Result<RunOutcome> {
    let (inbox, rx) = Inbox::channel();
    run_with_inbox(terminal, state, cx, events, inbox, rx, engine).await
}

/// `run`, over an inbox the caller made first so its engine tasks can report into it before
/// the loop starts.
pub async fn run_with_inbox<B: Backend>(
    terminal: &mut Terminal<B>,
    state: &mut AppState,
    cx: &ViewContext,
    events: mpsc::Receiver<ReviewEvent>,
    inbox: Inbox,
    mut rx: InboxReceiver,
    engine: &mut impl Engine,
) -> io::Result<RunOutcome> {
    let forwarder = inbox.forward(events);
    let ended = run_until(
        terminal,
        state,
        cx,
        &inbox,
        &mut rx,
        engine,
        std::future::pending::<()>(),
    )
    .await;
    forwarder.abort();
    Ok(ended?.err().unwrap_or(RunOutcome::Closed))
}

/// The loop on the real terminal while `work` runs beside it: the screen is live (keys,
/// ticks, whatever the inbox brings) from the first frame, and the loop ends when the work
/// does, with its result (`Ok`), or when the person leaves first (`Err`, the work dropped).
/// The terminal stays the cockpit's; `rx` can be run again.
pub async fn run_until<B: Backend, T>(
    terminal: &mut Terminal<B>,
    state: &mut AppState,
    cx: &ViewContext,
    inbox: &Inbox,
    rx: &mut InboxReceiver,
    engine: &mut impl Engine,
    work: impl std::future::Future<Output = T>,
) -> io::Result<Result<T, RunOutcome>> {
    // Messages name the keys the person bound, the same ones the hints and help show.
    state.keymap = Arc::new(cx.keymap.clone());
    let stop = Arc::new(AtomicBool::new(false));
    let handoff = Handoff::default();
    let reader = {
        let inbox = inbox.clone();
        let stop = stop.clone();
        let handoff = handoff.clone();
        std::thread::Builder::new()
            .name("terminal-input".into())
            .spawn(move || read_terminal(&inbox, &stop, &handoff))?
    };
    let mut result = None;
    let ended = {
        let work = std::pin::pin!(async { result = Some(work.await) });
        run_loop(
            terminal,
            state,
            cx,
            rx,
            inbox.clone(),
            engine,
            Some(&handoff),
            work,
        )
        .await
    };
    stop.store(true, Ordering::Relaxed);
    // The reader polls with a timeout and sees `stop` within ~50 ms.
    let _ = tokio::task::spawn_blocking(move || reader.join()).await;
    Ok(match (ended?, result) {
        (Some(outcome), _) => Err(outcome),
        (None, Some(result)) => Ok(result),
        (None, None) => Err(RunOutcome::Closed),
    })
}

/// Lends the real terminal to a child program (the person's editor): the input reader stops
/// reading while the child runs, or it would take the keys meant for the child.
#[derive(Debug, Clone, Default)]
pub struct Handoff {
    /// Set by the loop: stop reading.
    pause: Arc<AtomicBool>,
    /// Set by the reader: not reading (it checks `pause` between polls).
    idle: Arc<AtomicBool>,
}

impl Handoff {
    /// Runs `child` with the terminal in its normal mode, then takes it back.
    fn lend<B: Backend, R>(&self, terminal: &mut Terminal<B>, child: impl FnOnce() -> R) -> R {
        self.pause.store(true, Ordering::SeqCst);
        // The reader polls in 50 ms steps: it is idle within one.
        for _ in 0..100 {
            if self.idle.load(Ordering::SeqCst) {
                break;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        let _ = crate::ui::terminal::restore();
        let result = child();
        let _ = crate::ui::terminal::resume();
        let _ = terminal.clear();
        self.pause.store(false, Ordering::SeqCst);
        result
    }
}

/// Blocking: polls the terminal with a timeout so it notices `stop` (and a handoff).
fn read_terminal(inbox: &Inbox, stop: &AtomicBool, handoff: &Handoff) {
    while !stop.load(Ordering::Relaxed) {
        if handoff.pause.load(Ordering::SeqCst) {
            handoff.idle.store(true, Ordering::SeqCst);
            std::thread::sleep(Duration::from_millis(10));
            continue;
        }
        handoff.idle.store(false, Ordering::SeqCst);
        match event::poll(Duration::from_millis(50)) {
            Ok(true) => match event::read() {
                Ok(event) => {
                    if !inbox.send_terminal(event) {
                        return;
                    }
                }
                Err(_) => return,
            },
            Ok(false) => {}
            Err(_) => return,
        }
    }
}

/// The loop itself, over an inbox the caller feeds (tests feed it scripted events). Without
/// a real terminal, the person's editor runs without taking it over.
pub async fn run_inbox<B: Backend>(
    terminal: &mut Terminal<B>,
    state: &mut AppState,
    cx: &ViewContext,
    rx: InboxReceiver,
    inbox: Inbox,
    engine: &mut impl Engine,
) -> io::Result<RunOutcome> {
    let mut rx = rx;
    let never = std::pin::pin!(std::future::pending::<()>());
    let ended = run_loop(terminal, state, cx, &mut rx, inbox, engine, None, never).await;
    Ok(ended?.unwrap_or(RunOutcome::Closed))
}

/// `None` when `work` finished first.
#[allow(clippy::too_many_arguments)]
async fn run_loop<B: Backend>(
    terminal: &mut Terminal<B>,
    state: &mut AppState,
    cx: &ViewContext,
    rx: &mut InboxReceiver,
    inbox: Inbox,
    engine: &mut impl Engine,
    handoff: Option<&Handoff>,
    mut work: std::pin::Pin<&mut impl std::future::Future<Output = ()>>,
) -> io::Result<Option<RunOutcome>> {
    let mut ticker = tokio::time::interval(TICK);
    ticker.set_missed_tick_behavior(MissedTickBehavior::Skip);
    let mut batch = Vec::with_capacity(BATCH);
    let mut dirty = true;
    let mut last_draw: Option<Instant> = None;
    let mut outcome = None;
    loop {
        if dirty && last_draw.is_none_or(|at| at.elapsed() >= FRAME) {
            draw(terminal, state, cx)?;
            dirty = false;
            last_draw = Some(Instant::now());
        }
        if let Some(outcome) = outcome {
            return Ok(Some(outcome));
        }
        let next_frame = last_draw.map_or_else(Instant::now, |at| at + FRAME);
        tokio::select! {
            received = rx.recv_many(&mut batch, BATCH) => {
                if received == 0 {
                    return Ok(Some(RunOutcome::Closed));
                }
                state.now = now();
                for msg in batch.drain(..) {
                    let action = match msg {
                        Msg::Terminal(event) => cx.keymap.translate(state, &event),
                        Msg::Action(action) => Some(action),
                    };
                    let Some(action) = action else { continue };
                    dirty = true;
                    for effect in update(state, action) {
                        match effect {
                            // Leaving before the review is done is not the provisional
                            // verdict's answer: it ends as aborted by the person.
                            Effect::Quit if state.review_running() => {
                                outcome = Some(RunOutcome::Aborted)
                            }
                            Effect::Quit => outcome = Some(RunOutcome::Quit),
                            Effect::OpenInbox if state.review_running() => {
                                outcome = Some(RunOutcome::Aborted)
                            }
                            Effect::OpenInbox => outcome = Some(RunOutcome::Inbox),
                            _ => {}
                        }
                        engine.handle(effect, &inbox);
                    }
                    for job in std::mem::take(&mut state.terminal_jobs) {
                        terminal_job(job, terminal, &inbox, handoff, cx, state.space.as_deref());
                    }
                    if outcome.is_some() {
                        break;
                    }
                }
                if outcome.is_some() {
                    // Draw the last state before leaving.
                    last_draw = None;
                }
            }
            _ = ticker.tick() => {
                let message = state.message.is_some();
                update(state, Action::Tick);
                view::prefetch_next_page(state, cx);
                let reading = state
                    .board
                    .reviewers
                    .values()
                    .any(|r| r.phase == ReviewerPhase::Reading);
                dirty |= reading || state.loading.is_some() || (message && state.message.is_none());
            }
            _ = tokio::time::sleep_until(next_frame), if dirty => {}
            () = work.as_mut() => {
                // What the work sent last is shown before the loop hands over.
                draw(terminal, state, cx)?;
                return Ok(None);
            }
        }
    }
}

/// Does what needs the terminal itself; answers through the inbox.
fn terminal_job<B: Backend>(
    job: TerminalJob,
    terminal: &mut Terminal<B>,
    inbox: &Inbox,
    handoff: Option<&Handoff>,
    cx: &ViewContext,
    space: Option<&std::path::Path>,
) {
    match job {
        TerminalJob::Editor { node_id, text } => {
            let run = || crate::ui::editor::edit(space, &text);
            let text = match handoff {
                Some(handoff) => tokio::task::block_in_place(|| handoff.lend(terminal, run)),
                None => run(),
            };
            inbox.send(Action::EditorClosed { node_id, text });
        }
        TerminalJob::EditBox(edited) => {
            let run = || crate::ui::editor::edit(space, &edited.typed);
            let text = match handoff {
                Some(handoff) => tokio::task::block_in_place(|| handoff.lend(terminal, run)),
                None => run(),
            };
            inbox.send(Action::BoxEdited { edited, text });
        }
        TerminalJob::OpenFile {
            worktree,
            path,
            line,
        } => {
            // Only a real terminal: without one there is no screen to lend the editor.
            let Some(handoff) = handoff else { return };
            let copy = match crate::ui::editor::read_only_copy(&worktree, &path) {
                Ok(copy) => copy,
                Err(error) => {
                    inbox.send(Action::Engine(Report::EngineError {
                        title: "The editor did not open".into(),
                        message: error.to_string(),
                    }));
                    return;
                }
            };
            let open_at = cx.editor_open_at.as_deref();
            let run = || crate::ui::editor::open_at(open_at, &copy, line);
            let ran = tokio::task::block_in_place(|| handoff.lend(terminal, run));
            inbox.send(match ran {
                Ok(()) => Action::Engine(Report::Notice(format!(
                    "back from the editor: that was a read-only copy of {}:{line} ({}); the \
                     review's worktree is never edited, change the code in your own checkout",
                    crate::printable::line(&path),
                    copy.display()
                ))),
                Err(error) => Action::Engine(Report::EngineError {
                    title: "The editor did not open".into(),
                    message: error.to_string(),
                }),
            });
        }
        TerminalJob::Clipboard(text) => {
            // Only a real terminal: a test backend has no clipboard to reach.
            if handoff.is_some() {
                use std::io::Write;
                let mut out = io::stdout();
                let _ = out.write_all(crate::ui::editor::osc52(&text).as_bytes());
                let _ = out.flush();
            }
        }
    }
}

fn draw<B: Backend>(
    terminal: &mut Terminal<B>,
    state: &mut AppState,
    cx: &ViewContext,
) -> io::Result<()> {
    let mut layout = None;
    terminal
        .draw(|frame| {
            layout = Some(view::draw(frame, state, cx));
            cx.theme.fit_frame(frame.buffer_mut());
        })
        .map_err(|e| io::Error::other(e.to_string()))?;
    if let Some(layout) = layout {
        state.layout = layout;
    }
    Ok(())
}

fn now() -> String {
    humantime::format_rfc3339_seconds(SystemTime::now()).to_string()
}
