//! What a pass says while it works: how many of its questions are answered, and each retry or
//! wait for a slow server. Without these a verification pass sitting out a rate limit looks
//! exactly like one that hangs. The round passes them on to whoever watches (the cockpit's
//! phase line and event log, headless stderr); they never change a finding.

use tokio::sync::mpsc;

use crate::reviewers::model::provider::Heard;

#[derive(Debug, Clone, PartialEq)]
pub enum PassNote {
    /// `done` of the pass's `of` questions have an answer or a failure.
    Progress { done: usize, of: usize },
    /// A question's turn: a retry, or a wait for its server.
    Heard(Heard),
}

/// Where a pass says its notes; nobody listening is fine.
#[derive(Clone, Default)]
pub struct PassNotes(Option<mpsc::UnboundedSender<PassNote>>);

impl PassNotes {
    pub fn channel() -> (PassNotes, mpsc::UnboundedReceiver<PassNote>) {
        let (tx, rx) = mpsc::unbounded_channel();
        (PassNotes(Some(tx)), rx)
    }

    pub fn say(&self, note: PassNote) {
        if let Some(tx) = &self.0 {
            let _ = tx.send(note);
        }
    }

    /// `done` of `of` answered.
    pub fn progress(&self, done: usize, of: usize) {
        self.say(PassNote::Progress { done, of });
    }
}

impl std::fmt::Debug for PassNotes {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(if self.0.is_some() {
            "PassNotes(listened)"
        } else {
            "PassNotes(none)"
        })
    }
}
