//! What reviewers say while they work. Every reviewer — model, rule catalog, scanner — streams
//! `ReviewEvent`s over one bounded channel; only the main loop applies them (to a
//! `review::board::Board`), so there is one writer and no lock around the findings.

use serde::{Deserialize, Serialize};

use crate::review::node::ReviewNode;
use crate::review::verdict::Outcome;

/// One dispatch of the reviewers. Events carry it so that a late event from a cancelled or
/// superseded run is recognised and dropped.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct RunId(pub u64);

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ReviewEvent {
    pub run: RunId,
    /// The reviewer's name: a role (`engineer`), `rules`, `secret scan`, `sarif:clippy`, …
    pub reviewer: String,
    pub kind: EventKind,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum EventKind {
    /// The reviewer was dispatched and is reading.
    Started {
        /// Required reviewers make the run Inconclusive when they fail.
        required: bool,
    },
    NodeAdded {
        node: Box<ReviewNode>,
    },
    /// A peer's confirmation or dispute of another reviewer's node.
    Stance {
        node_id: String,
        confirm: bool,
        note: String,
    },
    /// A payload that did not validate: dropped, counted, named in the coverage notes.
    Dropped {
        reason: String,
    },
    Progress {
        tokens_used: u64,
        cost_usd: f64,
        note: String,
    },
    /// A turn has waited `waited_secs` for the server `host` (`host:port`, never a URL) with no
    /// answer yet: said while it lasts, so a hanging server is not silence.
    Waiting {
        host: String,
        waited_secs: u64,
    },
    /// A turn's attempt failed and is tried again after `wait_secs` (`rate_limited`: the
    /// server asked for the wait): said before the wait, so a retrying reviewer is not silence.
    Retrying {
        attempt: u32,
        of: u32,
        wait_secs: u64,
        /// In review-tui's words (`HTTP 503`), never the server's text.
        reason: String,
        #[serde(default)]
        rate_limited: bool,
    },
    Done {
        summary: String,
    },
    /// `outcome` is `failed` or `invalid_output`.
    Failed {
        outcome: Outcome,
        reason: String,
    },
    // The passes after the reviewers speak through the board too, so whoever watches the
    // board (the cockpit) sees each result as it lands. `reviewer` names the pass.
    /// The verification pass refuted a model finding with a quote from the code: dismissed.
    Refuted {
        node_id: String,
        quote: String,
    },
    /// The verification pass refuted a finding a peer confirmed at P0/P1: not dismissed, but
    /// disputed, so the disagreement is a person's to settle.
    Contested {
        node_id: String,
        note: String,
    },
    /// The scoring pass rescored a finding (0–100): its confidence can only go down.
    Scored {
        node_id: String,
        score: u8,
        reasoning: String,
    },
    /// The root-cause pass traced a blocking finding to its cause.
    Traced {
        node_id: String,
        cause: String,
    },
}

impl ReviewEvent {
    pub fn new(run: RunId, reviewer: impl Into<String>, kind: EventKind) -> ReviewEvent {
        ReviewEvent {
            run,
            reviewer: reviewer.into(),
            kind,
        }
    }
}

/// "waiting for 127.0.0.1:11434: 30 s, no complete answer yet": the reviewer's note while a
/// turn waits (silent, or still arriving: the wait cannot tell them apart, the timeout can).
pub fn waiting_note(host: &str, waited_secs: u64) -> String {
    format!("waiting for {host}: {waited_secs} s, no complete answer yet")
}

/// "rate limited (HTTP 429): attempt 1 of 4, again in 20 s": the reviewer's note while a turn
/// waits to try again.
pub fn retry_note(attempt: u32, of: u32, wait_secs: u64, reason: &str) -> String {
    format!("{reason}: attempt {attempt} of {of}, again in {wait_secs} s")
}
