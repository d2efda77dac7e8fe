//! Driving the real binary in a real terminal: tmux runs it, `send-keys` types, `capture-pane`
//! reads the screen. Each session has its own tmux server socket so tests run in parallel.

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

pub(crate) struct Tmux {
    socket: String,
    /// How often `wait_for` reads the screen.
    poll: Duration,
}

/// How long a screen may take to show what a test waits for; polling stops there.
pub(crate) const PATIENCE: Duration = Duration::from_secs(30);

impl Tmux {
    /// Starts `command` (a shell command line) in a `width`×`height` terminal.
    /// `review-tui ARGS` (a shell's words) in a tmux session: its exit code is written to
    /// `exit_file` when it ends, and the pane stays 30 s after for its last screen to be read.
    /// The machine's GitHub token and API address never reach it: a test that needs a server
    /// names it (`--api-url`) and its token (`GH_TOKEN` in `env`).
    pub(crate) fn review_tui(
        name: &str,
        args: &str,
        exit_file: &Path,
        width: u16,
        height: u16,
        env: &[(&str, &Path)],
    ) -> Tmux {
        let binary = env!("CARGO_BIN_EXE_review-tui");
        let command = format!(
            "env -u GITHUB_TOKEN -u GITHUB_API_URL {binary} {args}; echo $? > {}; sleep 30",
            exit_file.display()
        );
        Tmux::start(name, &command, width, height, env)
    }

    pub(crate) fn start(
        name: &str,
        command: &str,
        width: u16,
        height: u16,
        env: &[(&str, &Path)],
    ) -> Tmux {
        let socket = format!("review-tui-test-{}-{name}", std::process::id());
        let tmux = Tmux {
            socket,
            poll: Duration::from_millis(100),
        };
        let mut args: Vec<String> = vec![
            "new-session".into(),
            "-d".into(),
            "-x".into(),
            width.to_string(),
            "-y".into(),
            height.to_string(),
        ];
        args.push("-e".into());
        args.push("LANG=C.UTF-8".into());
        for (key, value) in env {
            args.push("-e".into());
            args.push(format!("{key}={}", value.display()));
        }
        args.push(command.into());
        tmux.run(&args.iter().map(String::as_str).collect::<Vec<_>>());
        tmux
    }

    fn run(&self, args: &[&str]) -> String {
        // -u and a UTF-8 locale: the cockpit draws box and mark glyphs that a non-UTF-8 tmux
        // would replace with `_` (CI machines may have no locale set).
        let out = Command::new("tmux")
            .args(["-u", "-L", &self.socket, "-f", "/dev/null"])
            .args(args)
            .env("LANG", "C.UTF-8")
            .env_remove("LC_ALL")
            .env_remove("LC_CTYPE")
            .output()
            .expect("tmux must be installed (.ci/run installs it)");
        assert!(
            out.status.success(),
            "tmux {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// Reads the screen this often in `wait_for` (a test with many waits polls faster).
    pub(crate) fn poll_every(&mut self, poll: Duration) {
        self.poll = poll;
    }

    /// Keeps the pane, dead, when its program ends, so `respawn` can start the next one in the
    /// same terminal (one tmux server for a whole test).
    pub(crate) fn keep_dead_panes(&self) {
        self.run(&["set-option", "-g", "remain-on-exit", "on"]);
    }

    /// Starts `command` in the pane afresh (killing what ran there); the screen starts blank.
    pub(crate) fn respawn(&self, command: &str) {
        self.run(&["respawn-pane", "-k", command]);
    }

    /// The pane's process id (the program itself when the command `exec`s it) and whether that
    /// process has ended.
    pub(crate) fn pane_process(&self) -> (u32, bool) {
        let out = self.run(&["list-panes", "-F", "#{pane_pid} #{pane_dead}"]);
        let line = out.lines().next().unwrap_or_default();
        let (pid, dead) = line
            .split_once(' ')
            .unwrap_or_else(|| panic!("tmux list-panes: {out:?}"));
        (pid.parse().unwrap(), dead == "1")
    }

    pub(crate) fn screen(&self) -> String {
        self.run(&["capture-pane", "-p"])
    }

    /// Types keys (tmux key names like `Enter`, `Escape`, or literal text with `-l`).
    /// Resizes the terminal, as a person dragging its corner does.
    pub(crate) fn resize(&self, width: u16, height: u16) {
        self.run(&[
            "resize-window",
            "-x",
            &width.to_string(),
            "-y",
            &height.to_string(),
        ]);
    }

    pub(crate) fn keys(&self, keys: &[&str]) {
        let mut args = vec!["send-keys"];
        args.extend_from_slice(keys);
        self.run(&args);
    }

    pub(crate) fn text(&self, text: &str) {
        self.run(&["send-keys", "-l", text]);
    }

    /// The exit code the command line wrote to `path` (`…; echo $? > path`), once written.
    pub(crate) fn exit_code(&self, path: &Path) -> i32 {
        self.wait_for("the program to exit", |_| {
            std::fs::read_to_string(path).is_ok_and(|t| !t.trim().is_empty())
        });
        std::fs::read_to_string(path)
            .unwrap()
            .trim()
            .parse()
            .unwrap()
    }

    /// Polls the screen until `ready` holds; panics with the last screen after `PATIENCE`.
    pub(crate) fn wait_for(&self, what: &str, ready: impl Fn(&str) -> bool) -> String {
        let started = Instant::now();
        loop {
            let screen = self.screen();
            if ready(&screen) {
                return screen;
            }
            if started.elapsed() > PATIENCE {
                panic!("waited {PATIENCE:?} for {what}; the screen shows:\n{screen}");
            }
            std::thread::sleep(self.poll);
        }
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = Command::new("tmux")
            .args(["-L", &self.socket, "kill-server"])
            .output();
    }
}

/// Polls `ready` until it gives a value; panics naming `what` after the tmux patience.
pub(crate) fn wait_until<T>(what: &str, mut ready: impl FnMut() -> Option<T>) -> T {
    let started = Instant::now();
    loop {
        if let Some(value) = ready() {
            return value;
        }
        assert!(
            started.elapsed() < PATIENCE,
            "waited {PATIENCE:?} for {what}"
        );
        std::thread::sleep(Duration::from_millis(2));
    }
}

/// Whether tmux is here to drive the cockpit. Without it, outside CI, a cockpit test skips
/// and says so on the terminal (written past the test harness's capture, so `cargo test`
/// shows it); with `CI` set (anything but empty, `0` or `false`) the cockpit tests are
/// mandatory and a missing tmux fails them.
pub(crate) fn available(test: &str) -> bool {
    static FOUND: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    let found = *FOUND.get_or_init(|| {
        Command::new("tmux")
            .arg("-V")
            .output()
            .is_ok_and(|out| out.status.success())
    });
    if found {
        return true;
    }
    let ci = std::env::var("CI").is_ok_and(|v| !matches!(v.trim(), "" | "0" | "false"));
    assert!(
        !ci,
        "{test}: tmux is not installed and CI is set, where the cockpit tests are mandatory \
         (.ci/run installs tmux)"
    );
    use std::io::Write;
    let _ = writeln!(
        std::io::stderr(),
        "skipped {test}: tmux is not installed (install tmux to run the cockpit tests; with \
         CI=true they fail instead)"
    );
    false
}

/// Skips the calling test when tmux is missing outside CI (see [`available`]).
#[macro_export]
macro_rules! require_tmux {
    ($test:expr) => {
        if !$crate::support::tmux::available($test) {
            return;
        }
    };
}
