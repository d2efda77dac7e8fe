//! `--watch`: the uncommitted work under review is looked at about once a second, off the
//! cockpit's loop, and a change is told once it has held still for a look (an agent writing
//! ten files is one change, not ten). What is looked at is what the snapshot reads (the
//! status of the checkout: ignored files and `.git` are not in it) without the review's own
//! data directory; the index and `HEAD` count too (a `git add`, a commit).

use std::path::PathBuf;
use std::time::Duration;

/// How often the work is looked at.
pub(crate) const EVERY: Duration = Duration::from_secs(1);

/// What a watcher looks at: the checkout, and what to leave out of it.
#[derive(Debug, Clone)]
pub struct Watcher {
    pub checkout: PathBuf,
    pub exclude: Vec<PathBuf>,
}

impl Watcher {
    /// Starts looking, on a thread of its own; `changed` is called after each settled change
    /// and stops the watcher by returning `false` (its client is gone).
    pub fn start(
        self,
        changed: impl Fn() -> bool + Send + 'static,
    ) -> std::io::Result<std::thread::JoinHandle<()>> {
        std::thread::Builder::new()
            .name("watch".into())
            .spawn(move || {
                let look = || crate::pr::uncommitted::state_of(&self.checkout, &self.exclude);
                let mut last = look();
                let mut settling = false;
                loop {
                    std::thread::sleep(EVERY);
                    let now = look();
                    if now != last {
                        last = now;
                        settling = true;
                    } else if settling {
                        settling = false;
                        if !changed() {
                            return;
                        }
                    }
                }
            })
    }
}
