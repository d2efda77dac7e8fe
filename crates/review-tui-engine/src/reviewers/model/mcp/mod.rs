//! Context sources: the MCP servers the person declared in their own config file
//! (`[[context.mcp]]`), whose allowed tools the model reviewers may call beside their read-only
//! repository tools.
//!
//! The servers start once per round ([`Sources::start`]) and are stopped when it ends
//! ([`Sources::stop`]); a server still running when its handle is dropped (the round failed, the
//! cockpit was interrupted) has its whole process group killed. A stdio server runs in a clean
//! environment (`PATH`, `HOME` and the variables its entry names), so it never sees the GitHub
//! or model tokens. A server that fails to start, times out or errors is recorded here and said
//! in the round's coverage; only a `required` one makes the review Inconclusive.
//!
//! What a tool answers is data, never instructions: it is redacted, capped, scanned for prompt
//! injection like the PR's own text and wrapped as an `<untrusted source="mcp:<name>/<tool>">`
//! block (see `result`).

mod result;
mod server;
mod toolbox;

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

use crate::config::McpSource;
use crate::review::node::ReviewNode;
use crate::reviewers::redact::Redactor;

pub use result::MAX_RESULT_BYTES;
pub use toolbox::WithSources;

use server::Server;

/// How one source fared over a round: what the coverage and the reviewers pane say.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Usage {
    /// Calls per tool that answered.
    pub calls: BTreeMap<String, usize>,
    /// What went wrong (the start, a call), in order.
    pub failures: Vec<String>,
}

impl Usage {
    fn total(&self) -> usize {
        self.calls.values().sum()
    }
}

/// One source's state as the round reports it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Report {
    /// `mcp:<name>`: the source as the board and the coverage name it.
    pub reviewer: String,
    pub required: bool,
    pub usage: Usage,
}

impl Report {
    /// The coverage's line for this source.
    pub fn note(&self) -> String {
        let consulted = match self.usage.total() {
            0 => "not consulted".to_string(),
            n => format!(
                "consulted {n} time{} ({})",
                if n == 1 { "" } else { "s" },
                self.usage
                    .calls
                    .iter()
                    .map(|(tool, count)| format!("{tool} ×{count}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        };
        match self.usage.failures.as_slice() {
            [] => format!("context source {}: {consulted}", self.reviewer),
            failures => format!(
                "context source {}: {consulted}; {}",
                self.reviewer,
                failures.join("; ")
            ),
        }
    }

    /// Whether a required source failed: the review is then Inconclusive.
    pub fn failed(&self) -> bool {
        !self.usage.failures.is_empty()
    }
}

/// The round's context sources, started.
pub struct Sources {
    servers: Vec<Server>,
    redactor: Arc<dyn Redactor>,
    /// Injection findings from tool results, for the board.
    flagged: Mutex<Vec<ReviewNode>>,
    handle: tokio::runtime::Handle,
}

impl std::fmt::Debug for Sources {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Sources")
            .field("servers", &self.servers.len())
            .finish()
    }
}

impl Sources {
    /// Starts every declared source (concurrently, each bounded by its timeout). A source that
    /// does not start is kept, failed, so the round can say so.
    pub async fn start(entries: &[McpSource], redactor: Arc<dyn Redactor>) -> Sources {
        let tasks: Vec<_> = entries
            .iter()
            .cloned()
            .map(|entry| tokio::spawn(Server::start(entry)))
            .collect();
        let mut started = Vec::new();
        for (task, entry) in tasks.into_iter().zip(entries) {
            started.push(match task.await {
                Ok(server) => server,
                Err(e) => Server::failed(entry.clone(), format!("its start crashed: {e}")),
            });
        }
        Sources {
            servers: started,
            redactor,
            flagged: Mutex::new(Vec::new()),
            handle: tokio::runtime::Handle::current(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.servers.is_empty()
    }

    /// Each source's name (`mcp:<name>`) and whether it is required, in declared order.
    pub fn reviewers(&self) -> Vec<(String, bool)> {
        self.servers
            .iter()
            .map(|s| (s.reviewer(), s.entry.required))
            .collect()
    }

    /// Keeps injection findings from a tool's answer: one per distinct text (reviewers calling
    /// one tool alike find it once), each with an id of its own beside the PR's.
    fn flag(&self, nodes: Vec<ReviewNode>) {
        let mut flagged = self.flagged.lock().unwrap_or_else(|e| e.into_inner());
        for mut node in nodes {
            if flagged.iter().any(|n| n.fingerprint == node.fingerprint) {
                continue;
            }
            node.id = format!("context-injection-{}", flagged.len() + 1);
            flagged.push(node);
        }
    }

    /// The injection findings the tool results carried so far, taken.
    pub fn take_flagged(&self) -> Vec<ReviewNode> {
        std::mem::take(&mut *self.flagged.lock().unwrap_or_else(|e| e.into_inner()))
    }

    /// Every source's usage.
    pub fn reports(&self) -> Vec<Report> {
        self.servers
            .iter()
            .map(|s| Report {
                reviewer: s.reviewer(),
                required: s.entry.required,
                usage: s.usage(),
            })
            .collect()
    }

    /// The process ids of the stdio servers still running (for tests and the event log).
    pub fn pids(&self) -> Vec<u32> {
        self.servers.iter().filter_map(Server::pid).collect()
    }

    /// Stops every server: closes its transport and waits, then kills its process group.
    pub async fn stop(&self) {
        for server in &self.servers {
            server.stop().await;
        }
    }
}
