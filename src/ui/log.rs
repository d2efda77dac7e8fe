//! The event log: what ran, what failed, what waited and what was posted, one line each, from
//! the same actions the cockpit already receives (the engine's events and replies). The log
//! only reads them: it never asks the engine or the space for anything, and it forgets the
//! oldest lines past a bound so a long run cannot grow it without end.

use std::collections::VecDeque;

/// How many lines the log keeps (the oldest go first).
pub const KEEP: usize = 2000;

/// How a line is shown: what failed stands out from what ran.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Level {
    Info,
    Warn,
    Error,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    /// `HH:MM:SS` of the loop's clock when it arrived (empty before the clock is set).
    pub at: String,
    pub level: Level,
    /// Untrusted parts (reviewer names, titles, reasons) are kept as they came: the view
    /// escapes them when it draws.
    pub text: String,
}

#[derive(Debug, Clone, Default, PartialEq)]
pub struct EventLog {
    entries: VecDeque<Entry>,
    /// Lines forgotten past `KEEP`, said at the top of the log.
    pub dropped: usize,
}

impl EventLog {
    pub fn push(&mut self, at: &str, level: Level, text: String) {
        if self.entries.len() == KEEP {
            self.entries.pop_front();
            self.dropped += 1;
        }
        // RFC 3339: the time of day is characters 11..19.
        let at = at.get(11..19).unwrap_or("").to_string();
        self.entries.push_back(Entry { at, level, text });
    }

    pub fn entries(&self) -> impl Iterator<Item = &Entry> {
        self.entries.iter()
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}
