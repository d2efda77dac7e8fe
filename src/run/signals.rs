//! Ctrl-C, SIGTERM and SIGHUP stop a run with exit 2: the space keeps every decision recorded
//! so far.

use anyhow::Context;

/// The run was stopped by a signal. Exit 2, as documented for "aborted by the user".
#[derive(Debug)]
pub(crate) struct Aborted(&'static str);

impl std::fmt::Display for Aborted {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "aborted by {}: nothing more was done; the review space keeps every decision \
             recorded so far (run the same command again to resume)",
            self.0
        )
    }
}

impl std::error::Error for Aborted {}

/// A watcher installed once for the whole run, so a signal that arrives between two steps is
/// not lost (once a handler is installed the default action, dying silently, is gone).
pub(crate) struct Signals {
    received: tokio::sync::watch::Receiver<Option<&'static str>>,
}

impl Signals {
    pub(crate) fn install(runtime: &tokio::runtime::Runtime) -> anyhow::Result<Signals> {
        let (sender, received) = tokio::sync::watch::channel(None);
        let _inside = runtime.enter();
        #[cfg(unix)]
        {
            use tokio::signal::unix::{SignalKind, signal};
            let listen = |kind: SignalKind| signal(kind).context("listening for signals");
            let (mut int, mut term, mut hup) = (
                listen(SignalKind::interrupt())?,
                listen(SignalKind::terminate())?,
                listen(SignalKind::hangup())?,
            );
            runtime.spawn(async move {
                let name = tokio::select! {
                    _ = int.recv() => "Ctrl-C (SIGINT)",
                    _ = term.recv() => "SIGTERM",
                    _ = hup.recv() => "SIGHUP",
                };
                let _ = sender.send(Some(name));
            });
        }
        #[cfg(not(unix))]
        runtime.spawn(async move {
            if tokio::signal::ctrl_c().await.is_ok() {
                let _ = sender.send(Some("Ctrl-C"));
            }
        });
        Ok(Signals { received })
    }

    /// Runs `work` to its end, or until a signal: then `work` is dropped (a reviewer's child
    /// process is killed with it) and the error is [`Aborted`].
    pub(crate) fn run<T>(
        &self,
        runtime: &tokio::runtime::Runtime,
        work: impl std::future::Future<Output = T>,
    ) -> anyhow::Result<T> {
        let mut received = self.received.clone();
        runtime.block_on(async move {
            tokio::select! {
                biased;
                signal = received.wait_for(Option::is_some) => {
                    let name = signal.ok().and_then(|s| *s).unwrap_or("a signal");
                    Err(anyhow::Error::new(Aborted(name)))
                }
                out = work => Ok(out),
            }
        })
    }
}
