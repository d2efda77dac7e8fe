//! The loop on a `TestBackend`: scripted terminal and engine messages go into the inbox, the
//! loop applies them, hands effects to the engine and ends on quit. No sleeps: the test waits
//! for the loop to finish.

use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::crossterm::event::{Event, KeyCode, KeyEvent, KeyModifiers};

use super::fixtures::*;
use crate::ui::action::{Action, Report};
use crate::ui::keymap::Keymap;
use crate::ui::run::{Engine, Inbox, RunOutcome, run_inbox};
use crate::ui::state::{PreviewData, RowKey};
use crate::ui::theme::Theme;
use crate::ui::update::Effect;
use crate::ui::view::ViewContext;

#[derive(Default)]
struct Recorder {
    effects: Vec<Effect>,
}

impl Engine for Recorder {
    fn handle(&mut self, effect: Effect, inbox: &Inbox) {
        if effect == Effect::PreviewPublish {
            inbox.send(Action::Engine(Report::PublishPreview(PreviewData {
                event: "REQUEST_CHANGES".into(),
                ..PreviewData::default()
            })));
            // The person reads the preview, confirms it, then quits.
            inbox.send_terminal(Event::Key(KeyEvent::new(
                KeyCode::Enter,
                KeyModifiers::NONE,
            )));
            inbox.send_terminal(key('q'));
        }
        self.effects.push(effect);
    }
}

fn key(c: char) -> Event {
    Event::Key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE))
}

#[tokio::test]
async fn the_loop_applies_keys_and_engine_replies_then_quits() {
    let mut terminal = Terminal::new(TestBackend::new(120, 40)).unwrap();
    let cx = ViewContext::new(Theme::builtin("dark").unwrap(), Keymap::default());
    let mut state = finished();
    let (inbox, rx) = Inbox::channel();
    // Confirm n1, open the gate, ask for the preview (the engine replies with it), confirm it.
    inbox.send_terminal(key('c'));
    inbox.send_terminal(key('g'));
    inbox.send_terminal(key('p'));
    let mut engine = Recorder::default();
    let outcome = run_inbox(&mut terminal, &mut state, &cx, rx, inbox, &mut engine)
        .await
        .unwrap();
    assert_eq!(outcome, RunOutcome::Quit);
    let kinds: Vec<&str> = engine
        .effects
        .iter()
        .map(|e| match e {
            Effect::PersistStatus { .. } => "persist",
            Effect::PreviewPublish => "preview",
            Effect::Publish => "publish",
            Effect::Quit => "quit",
            _ => "other",
        })
        .collect();
    assert_eq!(kinds, vec!["persist", "preview", "publish", "quit"]);
    // n1 was confirmed; the cursor went on to the next open finding.
    assert_eq!(
        state.node("n1").unwrap().status,
        crate::review::Status::ConsensusReady
    );
    assert_ne!(state.findings.selected, Some(RowKey::Node("n1".into())));
    // The loop measured the layout while drawing.
    assert!(state.layout.findings.height > 0);
}

#[tokio::test]
async fn reviewer_events_are_forwarded_into_the_inbox_and_applied() {
    let mut terminal = Terminal::new(TestBackend::new(80, 24)).unwrap();
    let cx = ViewContext::new(Theme::builtin("light").unwrap(), Keymap::default());
    let mut state = streaming();
    let (inbox, rx) = Inbox::channel();
    let (events_tx, events_rx) = tokio::sync::mpsc::channel(4);
    let forwarder = inbox.forward(events_rx);
    let Action::Engine(Report::Event(event)) = added(node(NodeSpec {
        id: "late",
        reviewer: "qa",
        title: "found while streaming",
        ..NodeSpec::default()
    })) else {
        unreachable!()
    };
    events_tx.send(event).await.unwrap();
    drop(events_tx);
    forwarder.await.unwrap();
    inbox.send_terminal(key('q'));
    let mut engine = Recorder::default();
    let outcome = run_inbox(&mut terminal, &mut state, &cx, rx, inbox, &mut engine)
        .await
        .unwrap();
    // Quitting while reviewers still read is leaving early, not the provisional verdict.
    assert_eq!(outcome, RunOutcome::Aborted);
    assert!(state.node("late").is_some());
    assert!(matches!(&engine.effects[0], Effect::PersistNode(node) if node.id == "late"));
}
