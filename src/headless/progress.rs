//! What the round says while it runs: the pre-run estimate before the model reviewers are
//! dispatched, and a server that keeps a reviewer or a pass waiting while it lasts, not after
//! minutes of silence.

use crate::pr::Notices;
use crate::review::{EventKind, ReviewEvent, retry_note};
use crate::reviewers::model::passes::PassNote;
use crate::reviewers::model::provider::Heard;
use crate::session::Tap;

/// Says each of `taps` that a person waiting should hear, until the round drops its end.
pub(super) fn say_while_running(mut taps: tokio::sync::mpsc::UnboundedReceiver<Tap>, say: Notices) {
    while let Some(event) = taps.blocking_recv() {
        match event {
            Tap::Estimate(estimate) => say.say(estimate),
            Tap::Event(ReviewEvent {
                reviewer,
                kind: EventKind::Waiting { host, waited_secs },
                ..
            }) => say.say(format!(
                "waiting for {host} (reviewer {reviewer}): {waited_secs} s, no complete answer yet"
            )),
            Tap::Event(ReviewEvent {
                reviewer,
                kind:
                    EventKind::Retrying {
                        attempt,
                        of,
                        wait_secs,
                        reason,
                        ..
                    },
                ..
            }) => say.say(format!(
                "reviewer {reviewer}: {}",
                retry_note(attempt, of, wait_secs, &reason)
            )),
            // The passes after the reviewers are held up the same ways.
            Tap::Pass(phase, PassNote::Heard(Heard::Retrying(note))) => {
                say.say(format!("{phase}: {}", note.said()))
            }
            Tap::Pass(phase, PassNote::Heard(Heard::Waiting { host, waited_secs })) => say.say(
                format!("waiting for {host} ({phase}): {waited_secs} s, no complete answer yet"),
            ),
            _ => {}
        }
    }
}
