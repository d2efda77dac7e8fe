//! A fake server's plumbing: an axum app on a free 127.0.0.1 port, served from a thread and
//! runtime of its own so it works under any test runtime, stopped when dropped.

use std::net::TcpListener;
use std::thread::JoinHandle;

use axum::Router;
use tokio::sync::oneshot;

/// A free loopback port and its `http://127.0.0.1:PORT` address, bound before the server's
/// state is built (the state names its own address).
pub(crate) fn listen() -> (TcpListener, String) {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind 127.0.0.1:0");
    listener
        .set_nonblocking(true)
        .expect("non-blocking listener");
    let url = format!("http://{}", listener.local_addr().expect("local address"));
    (listener, url)
}

/// `app`, served on `listener` until [`Served::stop`] or the drop.
pub(crate) struct Served {
    shutdown: Option<oneshot::Sender<()>>,
    thread: Option<JoinHandle<()>>,
}

impl Served {
    pub(crate) fn start(listener: TcpListener, app: Router) -> Served {
        let (shutdown, stopped) = oneshot::channel::<()>();
        let thread = std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .expect("build the server runtime");
            runtime.block_on(async move {
                let listener = tokio::net::TcpListener::from_std(listener).expect("tokio listener");
                axum::serve(listener, app)
                    .with_graceful_shutdown(async move {
                        let _ = stopped.await;
                    })
                    .await
                    .expect("serve");
            });
        });
        Served {
            shutdown: Some(shutdown),
            thread: Some(thread),
        }
    }

    /// Stops serving and waits for the server's thread, so what it recorded is complete.
    pub(crate) fn stop(&mut self) {
        if let Some(shutdown) = self.shutdown.take() {
            let _ = shutdown.send(());
        }
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        self.stop();
    }
}
