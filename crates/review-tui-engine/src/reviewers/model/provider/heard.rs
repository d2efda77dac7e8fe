//! One turn with what happens while it lasts: each retry the provider makes (its notes) and, at
//! every notice interval, how long the server has kept it waiting. A reviewer and a pass both
//! send turns this way, so a rate limit or a hanging server is said the same way by either.

use std::future::Future;

use tokio::sync::mpsc;

use super::{ChatRequest, ChatResponse, Provider, ProviderError, RetryNote};

/// What a turn's listener hears before the answer.
#[derive(Debug, Clone, PartialEq)]
pub enum Heard {
    /// No answer yet from `host` after `waited_secs`.
    Waiting { host: String, waited_secs: u64 },
    /// An attempt failed and is tried again after the note's wait.
    Retrying(RetryNote),
}

/// Sends `request` (whose retry notes arrive on `retried`) and calls `hear` for each thing heard
/// until the answer comes. `hear` failing (its listener is gone) abandons the turn.
pub async fn chat_heard<E, F, Fut>(
    provider: &dyn Provider,
    request: &ChatRequest,
    mut retried: mpsc::UnboundedReceiver<RetryNote>,
    mut hear: F,
) -> Result<Result<ChatResponse, ProviderError>, E>
where
    F: FnMut(Heard) -> Fut,
    Fut: Future<Output = Result<(), E>>,
{
    let chat = provider.chat(request);
    tokio::pin!(chat);
    let waits = provider.waits_on();
    // Without a server to wait on (a command, a recording) only retries are heard.
    let every = waits
        .as_ref()
        .map_or(std::time::Duration::from_secs(3600), |(_, timeout)| {
            crate::waiting::notice_interval(*timeout)
        });
    let started = tokio::time::Instant::now();
    let mut ticks = tokio::time::interval_at(started + every, every);
    loop {
        tokio::select! {
            answer = &mut chat => return Ok(answer),
            _ = ticks.tick(), if waits.is_some() => {
                let host = waits.as_ref().map(|(host, _)| host.clone()).unwrap_or_default();
                let waited_secs = started.elapsed().as_secs();
                hear(Heard::Waiting { host, waited_secs }).await?;
            }
            Some(note) = retried.recv() => hear(Heard::Retrying(note)).await?,
        }
    }
}
