//! Crash safety: the binary killed with SIGKILL at arbitrary points of preparing a review, or of
//! a cockpit session in a real terminal, leaves a space that always reopens, with no corrupt
//! state and every triage decision that was saved.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::cli::review_tui;
use crate::support::git_repo::pr_repository;
use crate::support::tmux::{PATIENCE, Tmux, wait_until};

fn corrupt_files(dir: &Path) -> Vec<String> {
    let mut found = Vec::new();
    if let Ok(entries) = std::fs::read_dir(dir) {
        for entry in entries.flatten() {
            let path = entry.path();
            let name = entry.file_name().to_string_lossy().into_owned();
            if name.contains(".corrupt-") {
                found.push(path.display().to_string());
            } else if path.is_dir() && name != "worktree" && !name.ends_with(".git") {
                found.extend(corrupt_files(&path));
            }
        }
    }
    found
}

#[test]
fn a_kill_at_any_point_leaves_a_space_that_reopens() {
    let repo = pr_repository();
    let reference = format!("{}#main..feature", repo.path().display());
    let head = repo.rev_parse("feature");
    let base = tempfile::tempdir().unwrap();
    for i in 0..50u64 {
        // A fresh data dir every other run, so kills land in the cold path too (mirror, worktree,
        // first state write), not only in reopening.
        let data = base.path().join(format!("data-{}", i / 2));
        // Spread the kill points over the run (a cold run takes tens of milliseconds).
        let delay = Duration::from_micros((i * 7_919) % 60_000);
        let mut child = review_tui()
            .args([
                reference.as_str(),
                "--headless",
                "--deterministic-only",
                "--force",
                "--format",
                "json",
            ])
            .env("REVIEW_TUI_DATA_DIR", &data)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(delay);
        let _ = child.kill();
        let _ = child.wait();

        let out = review_tui()
            .args([
                reference.as_str(),
                "--headless",
                "--deterministic-only",
                "--force",
                "--format",
                "json",
            ])
            .env("REVIEW_TUI_DATA_DIR", &data)
            .output()
            .unwrap();
        assert_eq!(
            out.status.code(),
            Some(0),
            "run {i} (killed after {delay:?}) did not reopen: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(report["pr"]["head"]["sha"], head.as_str(), "run {i}");
        let worktree = Path::new(report["space"]["worktree"].as_str().unwrap());
        assert!(
            worktree.join("src/parse.rs").is_file(),
            "run {i}: worktree incomplete"
        );
        assert_eq!(corrupt_files(&data), Vec::<String>::new(), "run {i}");
    }
}

// --- The cockpit, killed in a real terminal -------------------------------------------------

/// The demo PR's findings, by the location the cockpit's filter finds each one with.
/// Plus one finding with no location: the prompt injection in the demo's description.
const UNANCHORED: usize = 1;
// `src/client.rs:38` (`issue().unwrap()`) is no finding since `rust/unwrap-outside-tests` fires
// only where the unwrapped call parses, decodes or reads the environment, files, sockets or
// processes.
const FINDINGS: [&str; 4] = [
    "src/config.rs:10",
    "src/config.rs:11",
    "src/session.rs:8",
    "src/session.rs:9",
];

/// Where in a cockpit session a kill lands.
#[derive(Debug, Clone, Copy)]
enum KillPoint {
    /// This long after the launch: building the demo, preparing and opening the space, the
    /// first frames, or (after an interrupted round) re-running the round.
    Startup(Duration),
    /// Launched with `--force`, so a new deterministic round runs: killed this long after the
    /// round's start reached state.json.
    Run(Duration),
    /// Between keys: the last decision is on screen and on disk; with `overlay`, the filter
    /// box is open with half a filter typed.
    BetweenKeys { steps: usize, overlay: bool },
    /// The instant after the last decision's key, before the screen or the disk shows it.
    AfterDecisionKey { steps: usize },
}

/// 50 kills spread over the session: 10 at startup, 10 during a run, 15 between keys, 15 right
/// after a decision key; 1 to 3 decisions per launch.
fn kill_point(kill: u64) -> KillPoint {
    let steps = 1 + (kill % 3) as usize;
    match kill % 5 {
        0 => KillPoint::Startup(Duration::from_millis(kill / 5 * 93)),
        1 => KillPoint::BetweenKeys {
            steps,
            overlay: false,
        },
        2 => KillPoint::AfterDecisionKey { steps },
        3 => KillPoint::Run(Duration::from_millis((kill * 37) % 150)),
        _ if kill.is_multiple_of(2) => KillPoint::BetweenKeys {
            steps,
            overlay: true,
        },
        _ => KillPoint::AfterDecisionKey { steps },
    }
}

/// One finding's triage as state.json records it.
#[derive(Debug, Clone, PartialEq)]
struct Triage {
    status: String,
    history: Vec<serde_json::Value>,
    confirmations: Vec<serde_json::Value>,
}

/// Every finding's triage, by location.
type Decisions = BTreeMap<String, Triage>;

/// state.json, which must parse whenever it exists: it is only ever replaced whole.
fn read_state(path: &Path) -> Option<serde_json::Value> {
    let text = std::fs::read_to_string(path).ok()?;
    Some(
        serde_json::from_str(&text)
            .unwrap_or_else(|e| panic!("{} does not parse: {e}\n{text}", path.display())),
    )
}

fn decisions(state: &serde_json::Value) -> Decisions {
    let list = |v: &serde_json::Value| v.as_array().cloned().unwrap_or_default();
    state["nodes"]
        .as_array()
        .expect("nodes in state.json")
        .iter()
        .map(|node| {
            let anchor = &node["anchor"];
            // Findings about the PR's own text (a prompt injection in its description) have
            // no anchor: they are keyed by their rule.
            let location = match anchor["path"].as_str() {
                Some(path) => format!("{path}:{}", anchor["start_line"]),
                None => node["rule"].as_str().unwrap_or("(no anchor)").to_string(),
            };
            let triage = Triage {
                status: node["status"].as_str().unwrap().to_string(),
                history: list(&node["history"]),
                confirmations: list(&node["confirmations"]),
            };
            (location, triage)
        })
        .collect()
}

/// `now` keeps everything `kept` recorded: each finding's history and confirmations only grow,
/// and a finding nobody touched since keeps its status. Every status is the last transition's.
fn assert_kept(kept: &Decisions, now: &Decisions, context: &str) {
    for (location, was) in kept {
        let Some(is) = now.get(location) else {
            panic!("{context}: the finding at {location} is gone from state.json");
        };
        assert!(
            is.history.starts_with(&was.history)
                && is.confirmations.starts_with(&was.confirmations),
            "{context}: a saved decision on {location} was lost\nsaved: {was:#?}\nnow: {is:#?}"
        );
        if is.history == was.history && is.confirmations == was.confirmations {
            assert_eq!(is.status, was.status, "{context}: {location}");
        }
    }
    for (location, is) in now {
        if let Some(last) = is.history.last() {
            assert_eq!(
                last["to"],
                is.status.as_str(),
                "{context}: {location}: {is:#?}"
            );
        }
    }
}

/// The status words of the findings list, in state.json's spelling.
fn listed_statuses(screen: &str) -> Vec<String> {
    let mut statuses: Vec<String> = screen
        .lines()
        .filter_map(|line| {
            let row = line.strip_prefix('│')?;
            let row = &row[..row.find('│')?];
            if !["P0 ", "P1 ", "P2 ", "P3 "].iter().any(|p| row.contains(p)) {
                return None;
            }
            disk_status(row.split_whitespace().last()?)
        })
        .collect();
    statuses.sort();
    statuses
}

fn disk_status(shown: &str) -> Option<String> {
    let status = match shown {
        "open" => "open",
        "ready" => "consensus_ready",
        "resolved" => "resolved",
        "dismissed" => "dismissed",
        _ => return None,
    };
    Some(status.to_string())
}

/// The status word of the selected row (`▶`).
fn selected_status(screen: &str) -> Option<&str> {
    let line = screen.lines().find(|l| l.contains("│▶"))?;
    let row = line.split_once("│▶")?.1;
    row.split('│').next()?.split_whitespace().last()
}

fn launch(tmux: &Tmux, force: bool) {
    let binary = env!("CARGO_BIN_EXE_review-tui");
    let force = if force { " --force" } else { "" };
    // `exec`: the pane's process is review-tui itself, so the kill reaches it and nothing else.
    tmux.respawn(&format!(
        "exec '{binary}' --demo --deterministic-only{force}"
    ));
}

fn kill_cockpit(tmux: &Tmux, context: &str) {
    let (pid, dead) = tmux.pane_process();
    assert!(
        !dead,
        "{context}: the cockpit ended before the kill; the screen shows:\n{}",
        tmux.screen()
    );
    let killed = Command::new("kill")
        .args(["-KILL", &pid.to_string()])
        .status()
        .unwrap();
    assert!(killed.success(), "{context}: kill -KILL {pid}");
    wait_until("the killed cockpit's pane to die", || {
        tmux.pane_process().1.then_some(())
    });
}

/// A reopened cockpit: its final verdict and every finding listed; the list says what
/// state.json says, and state.json kept every decision saved before. The list is waited for,
/// not read once: tmux may show a frame half drawn (the header new, the rows not yet).
fn assert_reopens(tmux: &Tmux, data: &Path, kept: &Decisions, context: &str) -> PathBuf {
    let started = Instant::now();
    let (path, now) = loop {
        let screen = tmux.screen();
        let verdict = screen.lines().nth(2).unwrap_or_default();
        let decided = ["SHIP", "HOLD", "BLOCK", "INCONCLUSIVE"]
            .iter()
            .any(|d| verdict.starts_with(&format!(" {d}  confidence")));
        let listed = listed_statuses(&screen);
        let path = crate::cockpit::find_state(data);
        let now = path.as_deref().and_then(read_state).map(|s| decisions(&s));
        let mut on_disk: Vec<String> = now
            .iter()
            .flatten()
            .map(|(_, t)| t.status.clone())
            .collect();
        on_disk.sort();
        let shown = decided
            && !verdict.contains("(provisional)")
            && listed.len() == FINDINGS.len() + UNANCHORED;
        if shown
            && listed == on_disk
            && let (Some(path), Some(now)) = (path, now)
        {
            break (path, now);
        }
        assert!(
            !tmux.pane_process().1,
            "{context}: the reopened cockpit ended; the screen shows:\n{screen}"
        );
        assert!(
            started.elapsed() < PATIENCE,
            "{context}: no final verdict with the list state.json has ({on_disk:?}) on \
             reopening; the screen shows:\n{screen}"
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    assert_kept(kept, &now, context);
    assert_eq!(corrupt_files(data), Vec::<String>::new(), "{context}");
    path
}

/// One triage decision on `location`, chosen from what its status allows: confirm, dismiss
/// with `reason`, resolve, or reopen. With `settle`, waits for the list to show it. Returns the
/// status shown before.
fn decide(tmux: &Tmux, location: &str, choice: u64, reason: &str, settle: bool) -> String {
    let filter = location.trim_start_matches("src/");
    // The filter box starts with the current filter: clear it first.
    let mut open = vec!["/"];
    open.extend(std::iter::repeat_n("BSpace", 20));
    tmux.keys(&open);
    tmux.text(filter);
    tmux.keys(&["Enter"]);
    let screen = tmux.wait_for(&format!("the finding at {location}"), |s| {
        s.contains(&format!("filter: {filter} "))
            && s.contains(&format!("{location} ·"))
            && selected_status(s).is_some()
    });
    let before = selected_status(&screen).unwrap().to_string();
    let key = match (before.as_str(), choice % 3) {
        ("open", 0) => "c",
        ("open" | "ready", 1) => "x",
        ("open" | "ready", _) => "r",
        _ => "o",
    };
    if key == "x" {
        tmux.keys(&["x"]);
        tmux.wait_for("the reason box", |s| s.contains("why?"));
        tmux.text(reason);
        tmux.keys(&["Enter"]);
    } else {
        tmux.keys(&[key]);
    }
    if settle {
        tmux.wait_for(&format!("{key} on {location} on screen"), |s| {
            let now = selected_status(s);
            match key {
                "c" => now == Some("ready"),
                "x" => now == Some("dismissed"),
                "r" => now == Some("resolved"),
                _ => matches!(now, Some("open" | "ready")),
            }
        });
    }
    before
}

/// The decision the list shows on `location` reaches state.json (with its reason).
fn wait_saved(tmux: &Tmux, state: &Path, location: &str, reason: &str) {
    let shown = disk_status(selected_status(&tmux.screen()).unwrap()).unwrap();
    wait_until(&format!("{location} {shown} in state.json"), || {
        let now = decisions(&read_state(state)?);
        let triage = now.get(location)?;
        let reason_kept =
            shown != "dismissed" || triage.history.last().is_some_and(|t| t["reason"] == reason);
        (triage.status == shown && reason_kept).then_some(())
    });
}

/// The cockpit in tmux on the demo, SIGKILLed 50 times: during startup (or the re-run of a
/// round a kill interrupted), during a `--force` round, between keys, and right after a
/// decision's key. A decision counts as saved once state.json holds it: the file read right
/// before each kill. After every kill the next launch must show its final verdict and a list
/// that agrees with state.json, with every saved decision (history, reason, confirmations)
/// still there and no `.corrupt-` file; the decisions accumulate in one data dir.
#[test]
fn a_kill_at_any_point_of_a_cockpit_session_loses_no_decision() {
    crate::require_tmux!("crash::a_kill_at_any_point_of_a_cockpit_session_loses_no_decision");
    let started = Instant::now();
    let data = tempfile::tempdir().unwrap();
    // One terminal for the whole test: each launch respawns the pane in it.
    let mut tmux = Tmux::start(
        "kill",
        "cat",
        140,
        42,
        &[
            ("REVIEW_TUI_DATA_DIR", data.path()),
            ("REVIEW_TUI_PERSON", Path::new("tester")),
        ],
    );
    tmux.keep_dead_panes();
    tmux.poll_every(Duration::from_millis(20));
    // Decisions acknowledged as saved: what state.json held right before each kill. They only
    // accumulate, in the same data dir, so any later loss shows.
    let mut kept = Decisions::new();
    let mut state: Option<PathBuf> = None;
    let mut seed = 0x2545_f491_4f6c_dd1d_u64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let (mut decided, mut settled, mut interrupted) = (0, 0, 0);
    for kill in 0..50u64 {
        let point = kill_point(kill);
        let context = format!("kill {kill} ({point:?})");
        let rounds = |state: &Option<PathBuf>| -> Option<(usize, bool)> {
            let state = read_state(state.as_ref()?)?;
            let rounds = state["rounds"].as_array()?;
            Some((rounds.len(), rounds.last()?["completed"] == true))
        };
        let rounds_before = rounds(&state);
        launch(&tmux, matches!(point, KillPoint::Run(_)));
        match point {
            KillPoint::Startup(delay) => std::thread::sleep(delay),
            KillPoint::Run(after) => {
                // A round already interrupted is resumed rather than started: kill on the clock.
                if let Some((before, true)) = rounds_before {
                    wait_until("the new round in state.json", || {
                        rounds(&state).filter(|(n, _)| *n > before)
                    });
                }
                std::thread::sleep(after);
            }
            KillPoint::BetweenKeys { steps, overlay } => {
                let path = assert_reopens(&tmux, data.path(), &kept, &context);
                let mut last = (String::new(), String::new());
                for step in 0..steps {
                    let location = FINDINGS[(next() % FINDINGS.len() as u64) as usize];
                    let reason = format!("kill {kill}, decision {step}: test fixture");
                    decide(&tmux, location, next(), &reason, true);
                    last = (location.to_string(), reason);
                    decided += 1;
                }
                wait_saved(&tmux, &path, &last.0, &last.1);
                settled += steps;
                if overlay {
                    tmux.keys(&["/"]);
                    tmux.text("@qq");
                    tmux.wait_for("the half-typed filter", |s| s.contains("@qq"));
                }
                state = Some(path);
            }
            KillPoint::AfterDecisionKey { steps } => {
                state = Some(assert_reopens(&tmux, data.path(), &kept, &context));
                for step in 0..steps {
                    let location = FINDINGS[(next() % FINDINGS.len() as u64) as usize];
                    let reason = format!("kill {kill}, decision {step}: test fixture");
                    decide(&tmux, location, next(), &reason, step + 1 < steps);
                    decided += 1;
                }
            }
        }
        // Acknowledged as saved: in state.json right before the kill.
        state = state.or_else(|| crate::cockpit::find_state(data.path()));
        if let Some(acknowledged) = state.as_deref().and_then(read_state) {
            let acknowledged = decisions(&acknowledged);
            assert_kept(&kept, &acknowledged, &context);
            kept = acknowledged;
        }
        kill_cockpit(&tmux, &context);
        if rounds(&state).is_some_and(|(_, completed)| !completed) {
            interrupted += 1;
        }
        if let Some(after) = state.as_deref().and_then(read_state) {
            assert_kept(
                &kept,
                &decisions(&after),
                &format!("{context}, right after"),
            );
        }
        assert_eq!(
            corrupt_files(data.path()),
            Vec::<String>::new(),
            "{context}"
        );
    }
    // The last kill's reopen, then a clean quit.
    launch(&tmux, false);
    assert_reopens(&tmux, data.path(), &kept, "after the last kill");
    tmux.keys(&["q"]);
    wait_until("the cockpit to quit", || {
        tmux.pane_process().1.then_some(())
    });

    // Decisions were really made and kept: every settled one left at least a history entry or
    // a confirmation behind.
    let recorded: usize = kept
        .values()
        .map(|t| t.history.len() + t.confirmations.len())
        .sum();
    assert!(
        recorded >= settled,
        "{recorded} recorded entries for {settled} decisions that reached state.json"
    );
    eprintln!(
        "50 kills, {decided} decisions ({settled} seen on disk before a kill), {interrupted} kills \
         interrupted a round, {recorded} history entries kept, in {:?}",
        started.elapsed()
    );
}

/// Decisions made while a round is still running reach the disk at once (the decision
/// journal), survive a SIGKILL before the round ends, and land on the round that the reopen
/// runs again. The round is kept running by a `gitleaks` on PATH that takes its time: the
/// rule findings are on screen long before it answers.
#[test]
fn a_kill_during_a_running_round_loses_no_decision_made_meanwhile() {
    crate::require_tmux!("crash::a_kill_during_a_running_round_loses_no_decision_made_meanwhile");
    let data = tempfile::tempdir().unwrap();
    let bin = tempfile::tempdir().unwrap();
    let slow = bin.path().join("slow");
    std::fs::write(&slow, "").unwrap();
    let gitleaks = bin.path().join("gitleaks");
    std::fs::write(
        &gitleaks,
        format!(
            "#!/bin/sh\nif [ -e '{}' ]; then sleep 50; fi\nexit 0\n",
            slow.display()
        ),
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&gitleaks, std::fs::Permissions::from_mode(0o755)).unwrap();
    let path = format!(
        "{}:{}",
        bin.path().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut tmux = Tmux::start(
        "journal",
        "cat",
        140,
        42,
        &[
            ("REVIEW_TUI_DATA_DIR", data.path()),
            ("REVIEW_TUI_PERSON", Path::new("tester")),
        ],
    );
    let binary = env!("CARGO_BIN_EXE_review-tui");
    let launch = |tmux: &Tmux| {
        tmux.respawn(&format!(
            "PATH='{path}' exec '{binary}' --demo --deterministic-only"
        ))
    };
    tmux.keep_dead_panes();
    tmux.poll_every(Duration::from_millis(20));

    launch(&tmux);
    // Every rule finding, and the description's injection, listed while the round is still
    // running (gitleaks has not answered).
    tmux.wait_for("the findings of the running round", |s| {
        listed_statuses(s).len() == FINDINGS.len() + UNANCHORED
    });
    let state = wait_until("state.json", || crate::cockpit::find_state(data.path()));
    let running = read_state(&state).unwrap();
    assert_eq!(
        running["rounds"].as_array().unwrap().last().unwrap()["completed"],
        false,
        "the round should still be running"
    );
    let journal = state.with_file_name("journal.jsonl");
    let reason = "dismissed while the round ran: test fixture";
    decide(&tmux, FINDINGS[0], 1, reason, true);
    decide(&tmux, FINDINGS[2], 0, "", true);
    wait_until("both decisions in the journal", || {
        let text = std::fs::read_to_string(&journal).ok()?;
        (text.lines().count() == 2 && text.contains(reason)).then_some(())
    });
    kill_cockpit(&tmux, "kill during the round");

    // Reopened with a gitleaks that answers at once: the interrupted round runs again and the
    // journaled decisions land on its result.
    std::fs::remove_file(&slow).unwrap();
    launch(&tmux);
    let kept = wait_until("the journaled decisions in state.json", || {
        let now = decisions(&read_state(&state)?);
        let dismissed = now.get(FINDINGS[0])?;
        let confirmed = now.get(FINDINGS[2])?;
        let done = dismissed.status == "dismissed"
            && dismissed
                .history
                .last()
                .is_some_and(|t| t["reason"] == reason)
            && confirmed.status == "consensus_ready";
        done.then_some(now)
    });
    assert_eq!(kept[FINDINGS[2]].confirmations.len(), 1);
    wait_until("the journal cleared", || (!journal.exists()).then_some(()));
    tmux.keys(&["q"]);
    wait_until("the cockpit to quit", || {
        tmux.pane_process().1.then_some(())
    });
}
