//! Ctrl-C, SIGTERM and SIGHUP stop a run (the binary's exit 2): the space keeps every decision
//! recorded so far.

/// The run was stopped by a signal.
#[derive(Debug, thiserror::Error)]
#[error(
    "aborted by {0}: nothing more was done; the review space keeps every decision recorded so \
     far (run the same command again to resume)"
)]
pub struct Aborted(pub &'static str);

/// The signals could not be listened for.
#[derive(Debug, thiserror::Error)]
#[error("listening for signals")]
pub struct SignalsError(#[source] std::io::Error);

/// A watcher installed once for the whole run, so a signal that arrives between two steps is
/// not lost (once a handler is installed the default action, dying silently, is gone).
pub struct Signals {
    received: tokio::sync::watch::Receiver<Option<&'static str>>,
}

impl Signals {
    pub fn install(runtime: &tokio::runtime::Runtime) -> Result<Signals, SignalsError> {
        let (sender, received) = tokio::sync::watch::channel(None);
        let _inside = runtime.enter();
        #[cfg(unix)]
        {
            use tokio::signal::unix::{SignalKind, signal};
            let listen = |kind: SignalKind| signal(kind).map_err(SignalsError);
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

    /// No signal stops the run: for a caller that handles the process's signals itself (a
    /// test, a program embedding the review).
    pub fn none() -> Signals {
        let (_, received) = tokio::sync::watch::channel(None);
        Signals { received }
    }

    /// Runs `work` to its end, or until a signal: then `work` is dropped (a reviewer's child
    /// process is killed with it) and the error is [`Aborted`].
    pub fn run<T>(
        &self,
        runtime: &tokio::runtime::Runtime,
        work: impl std::future::Future<Output = T>,
    ) -> Result<T, Aborted> {
        let mut received = self.received.clone();
        runtime.block_on(async move {
            let signal = async {
                match received.wait_for(Option::is_some).await {
                    Ok(signal) => (*signal).unwrap_or("a signal"),
                    // No one is listening any more, and none was received: none will come.
                    Err(_) => std::future::pending().await,
                }
            };
            tokio::select! {
                biased;
                name = signal => Err(Aborted(name)),
                out = work => Ok(out),
            }
        })
    }
}
