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

use crate::agents::events::ReviewEvent;
use crate::review::board::ReviewerPhase;
use crate::ui::action::Action;
use crate::ui::state::AppState;
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
                if !inbox.send(Action::Engine(event)) {
                    break;
                }
            }
        })
    }
}

/// The engine side of the cockpit. `handle` is called on the loop's task for every effect, in
/// order, and must return quickly: start the work (a tokio task, `spawn_blocking`) and report
/// back through `inbox` (`PublishPreview`, `Published`, `Notice`, `EngineError`, …).
/// `Effect::Quit` and `Effect::Abort` are passed on too, after which the loop ends.
pub trait Engine {
    fn handle(&mut self, effect: Effect, inbox: &Inbox);
}

/// How the loop ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RunOutcome {
    /// The person quit (`q`).
    Quit,
    /// The person aborted at the gate: nothing was published.
    Aborted,
    /// Every sender of the inbox is gone.
    Closed,
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
    rx: InboxReceiver,
    engine: &mut impl Engine,
) -> io::Result<RunOutcome> {
    let stop = Arc::new(AtomicBool::new(false));
    let reader = {
        let inbox = inbox.clone();
        let stop = stop.clone();
        std::thread::Builder::new()
            .name("terminal-input".into())
            .spawn(move || read_terminal(&inbox, &stop))?
    };
    let forwarder = inbox.forward(events);
    let outcome = run_inbox(terminal, state, cx, rx, inbox, engine).await;
    stop.store(true, Ordering::Relaxed);
    forwarder.abort();
    // The reader polls with a timeout and sees `stop` within ~50 ms.
    let _ = tokio::task::spawn_blocking(move || reader.join()).await;
    outcome
}

/// Blocking: polls the terminal with a timeout so it notices `stop`.
fn read_terminal(inbox: &Inbox, stop: &AtomicBool) {
    while !stop.load(Ordering::Relaxed) {
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

/// The loop itself, over an inbox the caller feeds (tests feed it scripted events).
pub async fn run_inbox<B: Backend>(
    terminal: &mut Terminal<B>,
    state: &mut AppState,
    cx: &ViewContext,
    mut rx: InboxReceiver,
    inbox: Inbox,
    engine: &mut impl Engine,
) -> io::Result<RunOutcome> {
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
            return Ok(outcome);
        }
        let next_frame = last_draw.map_or_else(Instant::now, |at| at + FRAME);
        tokio::select! {
            received = rx.recv_many(&mut batch, BATCH) => {
                if received == 0 {
                    return Ok(RunOutcome::Closed);
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
                            Effect::Quit => outcome = Some(RunOutcome::Quit),
                            Effect::Abort => outcome = Some(RunOutcome::Aborted),
                            _ => {}
                        }
                        engine.handle(effect, &inbox);
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
