//! The gate's "fix": the exact replacement lines of chosen findings, written as a patch file in
//! the review space. Nothing touches the worktree; a person applies the patch (`git apply`).
//!
//! Findings that carry only a fix prompt can be handed to a configured fix command
//! ([`FixJobs::run`]): each prompt goes to the command on stdin, its stdout is kept in
//! `<space>/fixes/<node-id>.md`. The command runs in that `fixes` directory, not in the
//! worktree, which it gets as `REVIEW_TUI_WORKTREE` to read; if the worktree changed anyway,
//! the run is reported as an error. review-tui itself changes no code.

use std::collections::BTreeMap;
use std::path::PathBuf;

use thiserror::Error;

use crate::diff::Side;
use crate::review::node::ReviewNode;
use crate::session::prepare::Prepared;

/// What the gate's fix produced: a patch, or the fix command's answers. Where it is, what it
/// holds (shown in the cockpit's one fix viewer) and the one line that announces it.
#[derive(Debug, Clone, PartialEq)]
pub struct WrittenPatch {
    /// The patch file, or the folder the answers are kept in.
    pub path: std::path::PathBuf,
    pub text: String,
    pub summary: String,
    /// The fix command's answers (one section a finding), not a patch to `git apply`.
    pub answers: bool,
}

/// Why the gate wrote no patch, or the fix command gave no answer; the cockpit shows the text.
#[derive(Debug, Error)]
pub enum FixError {
    #[error(
        "none of the {chosen} finding(s) asked for carries exact replacement lines{}",
        if *.prompts_only > 0 {
            format!(
                " ({} have a fix prompt: set `[fix] command` in your config.toml to hand them to \
                 a fix command)",
                .prompts_only
            )
        } else {
            String::new()
        }
    )]
    NoReplacements { chosen: usize, prompts_only: usize },
    #[error("none of the chosen findings has a fix prompt")]
    NoPrompts,
    #[error("reading {path} in the worktree: {source}")]
    Read {
        path: String,
        source: std::io::Error,
    },
    #[error("making the patch for {path}: {source}")]
    Patch { path: String, source: git2::Error },
    #[error("creating {}: {source}", .path.display())]
    CreateDir {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("writing {}: {source}", .path.display())]
    Write {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error(
        "the fix command changed files in the review worktree {} — review-tui changes no code \
         itself; look at `git status` there. Answers kept: {kept}",
        .worktree.display()
    )]
    ChangedWorktree { worktree: PathBuf, kept: String },
    /// Every run failed; each `id: why`.
    #[error("the fix command failed: {}", .0.join("; "))]
    CommandFailed(Vec<String>),
    #[error("the fix command's task failed: {0}")]
    Task(String),
}

/// Why one run of the fix command gave no answer (listed as `id: why`).
#[derive(Debug, Error)]
enum RunError {
    #[error("starting `{command}`: {source}")]
    Start {
        command: String,
        source: std::io::Error,
    },
    #[error("timed out after {} s", .0.as_secs_f32())]
    TimedOut(std::time::Duration),
    #[error("waiting for `{command}`: {source}")]
    Wait {
        command: String,
        source: std::io::Error,
    },
    #[error("exited with {status}: {tail}")]
    Exited {
        status: std::process::ExitStatus,
        tail: String,
    },
}

/// Writes the patch for `node_ids` (every blocking finding when empty), or says why no patch
/// was written.
pub(crate) fn write_patch(
    prepared: &Prepared,
    node_ids: &[String],
) -> Result<WrittenPatch, FixError> {
    let state = prepared.space.state();
    let chosen: Vec<&ReviewNode> = if node_ids.is_empty() {
        state
            .nodes
            .iter()
            .filter(|n| n.status.is_active() && n.priority <= crate::review::node::Priority::P1)
            .collect()
    } else {
        state
            .nodes
            .iter()
            .filter(|n| node_ids.contains(&n.id))
            .collect()
    };
    let mut by_file: BTreeMap<&str, Vec<(&ReviewNode, &[String])>> = BTreeMap::new();
    let mut prompts_only = 0;
    for node in &chosen {
        let replacement = node.fix.as_ref().and_then(|f| f.replacement.as_deref());
        match (&node.anchor, replacement) {
            (Some(anchor), Some(lines)) if anchor.side == Side::Right => {
                by_file.entry(&anchor.path).or_default().push((node, lines));
            }
            _ if node.fix.as_ref().is_some_and(|f| f.prompt.is_some()) => prompts_only += 1,
            _ => {}
        }
    }
    if by_file.is_empty() {
        return Err(FixError::NoReplacements {
            chosen: chosen.len(),
            prompts_only,
        });
    }
    let mut patch = String::new();
    let mut fixed = 0;
    for (path, mut fixes) in by_file {
        if path.split('/').any(|part| part == "..") {
            continue;
        }
        let file = prepared.space.worktree().join(path);
        let old = std::fs::read_to_string(&file).map_err(|source| FixError::Read {
            path: path.to_string(),
            source,
        })?;
        let mut lines: Vec<String> = old.lines().map(str::to_string).collect();
        // Bottom up, so earlier line numbers stay valid; overlapping fixes keep the first.
        fixes.sort_by_key(|(node, _)| {
            std::cmp::Reverse(node.anchor.as_ref().map_or(0, |a| a.start_line))
        });
        let mut lowest_start = u32::MAX;
        for (node, replacement) in fixes {
            let anchor = node.anchor.as_ref().expect("grouped by anchor");
            if anchor.end_line >= lowest_start || anchor.end_line as usize > lines.len() {
                continue;
            }
            let start = anchor.start_line as usize - 1;
            lines.splice(start..anchor.end_line as usize, replacement.iter().cloned());
            lowest_start = anchor.start_line;
            fixed += 1;
        }
        let mut new = lines.join("\n");
        if old.ends_with('\n') {
            new.push('\n');
        }
        let text = git2::Patch::from_buffers(
            old.as_bytes(),
            Some(std::path::Path::new(path)),
            new.as_bytes(),
            Some(std::path::Path::new(path)),
            None,
        )
        .and_then(|mut p| p.to_buf())
        .map_err(|source| FixError::Patch {
            path: path.to_string(),
            source,
        })?;
        // libgit2 writes the file's `diff --git` header itself.
        patch.push_str(&String::from_utf8_lossy(&text));
    }
    let round = state.current_round().map_or(0, |r| r.number);
    let target = prepared
        .space
        .path()
        .join("fixes")
        .join(format!("round-{round}.patch"));
    if let Some(dir) = target.parent() {
        std::fs::create_dir_all(dir).map_err(|source| FixError::CreateDir {
            path: dir.to_path_buf(),
            source,
        })?;
    }
    crate::space::write_atomically(&target, patch.as_bytes()).map_err(|source| {
        FixError::Write {
            path: target.clone(),
            source,
        }
    })?;
    Ok(WrittenPatch {
        summary: format!(
            "patch for {fixed} finding(s) written to {} — apply it with `git apply`",
            target.display()
        ),
        path: target,
        text: patch,
        answers: false,
    })
}

/// The patch the gate last wrote for the space's current round, if there is one: a reopened
/// cockpit can show it again.
pub(crate) fn last_patch(prepared: &Prepared) -> Option<WrittenPatch> {
    let round = prepared.space.state().current_round()?.number;
    let path = prepared
        .space
        .path()
        .join("fixes")
        .join(format!("round-{round}.patch"));
    let text = std::fs::read_to_string(&path).ok()?;
    Some(WrittenPatch {
        summary: format!("the patch written for round {round}: {}", path.display()),
        path,
        text,
        answers: false,
    })
}

/// How long one fix command may run.
pub(crate) const FIX_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(300);

/// Whether the gate's fix should go to the fix command: none of the chosen findings has
/// replacement lines, and some have a fix prompt.
pub(crate) fn prompts_only(prepared: &Prepared, node_ids: &[String]) -> bool {
    let state = prepared.space.state();
    let chosen: Vec<&ReviewNode> = state
        .nodes
        .iter()
        .filter(|n| node_ids.contains(&n.id))
        .collect();
    !chosen.iter().any(|n| replacement(n).is_some()) && chosen.iter().any(|n| prompt(n).is_some())
}

fn replacement(node: &ReviewNode) -> Option<&[String]> {
    node.fix.as_ref().and_then(|f| f.replacement.as_deref())
}

fn prompt(node: &ReviewNode) -> Option<&str> {
    node.fix
        .as_ref()
        .and_then(|f| f.prompt.as_deref())
        .filter(|p| !p.trim().is_empty())
}

/// The fix command's work, gathered from the space so it can run without holding it.
#[derive(Debug, Clone)]
pub struct FixJobs {
    pub worktree: std::path::PathBuf,
    /// `<space>/fixes`: where the command runs and its answers are kept.
    pub dir: std::path::PathBuf,
    /// (node id, the prompt sent on stdin).
    pub jobs: Vec<(String, String)>,
}

impl FixJobs {
    /// The prompts of the chosen findings that have one.
    pub fn collect(prepared: &Prepared, node_ids: &[String]) -> Result<FixJobs, FixError> {
        let worktree = prepared.space.worktree().to_path_buf();
        let jobs: Vec<(String, String)> = prepared
            .space
            .state()
            .nodes
            .iter()
            .filter(|n| node_ids.contains(&n.id))
            .filter_map(|n| prompt(n).map(|p| (n.id.clone(), fix_prompt(n, p, &worktree))))
            .collect();
        if jobs.is_empty() {
            return Err(FixError::NoPrompts);
        }
        Ok(FixJobs {
            worktree,
            dir: prepared.space.path().join("fixes"),
            jobs,
        })
    }

    /// Runs `command` (through `sh -c`) once per finding; the answers, one section a finding
    /// (`## id`), and where they are kept.
    pub fn run(
        &self,
        command: &str,
        timeout: std::time::Duration,
    ) -> Result<WrittenPatch, FixError> {
        std::fs::create_dir_all(&self.dir).map_err(|source| FixError::CreateDir {
            path: self.dir.clone(),
            source,
        })?;
        let before = worktree_status(&self.worktree);
        let mut written = Vec::new();
        let mut text = String::new();
        let mut failed = Vec::new();
        for (id, prompt) in &self.jobs {
            match run_one(command, prompt, id, &self.worktree, &self.dir, timeout) {
                Ok(output) => {
                    let target = self.dir.join(format!("{}.md", file_name(id)));
                    crate::space::write_atomically(&target, &output).map_err(|source| {
                        FixError::Write {
                            path: target.clone(),
                            source,
                        }
                    })?;
                    text.push_str(&format!(
                        "## {id} ({})\n\n{}\n\n",
                        target.display(),
                        String::from_utf8_lossy(&output).trim_end()
                    ));
                    written.push(target.display().to_string());
                }
                Err(why) => {
                    text.push_str(&format!("## {id}: no answer\n\n{why}\n\n"));
                    failed.push(format!("{id}: {why}"));
                }
            }
        }
        if before.is_some() && worktree_status(&self.worktree) != before {
            return Err(FixError::ChangedWorktree {
                worktree: self.worktree.clone(),
                kept: if written.is_empty() {
                    "none".to_string()
                } else {
                    written.join(", ")
                },
            });
        }
        if written.is_empty() {
            return Err(FixError::CommandFailed(failed));
        }
        let mut summary = format!(
            "fix command answers for {} of {} finding(s): {} — review-tui changed no code",
            written.len(),
            self.jobs.len(),
            written.join(", ")
        );
        if !failed.is_empty() {
            summary.push_str(&format!(
                " ({} failed: {})",
                failed.len(),
                failed.join("; ")
            ));
        }
        Ok(WrittenPatch {
            path: self.dir.clone(),
            text,
            summary,
            answers: true,
        })
    }
}

/// Hands the fix prompts of `node_ids` to `command` (see the module notes) with the default
/// timeout, and says where the answers are. (The session runs the jobs off its loop itself.)
#[cfg(test)]
fn run_fix_command(
    prepared: &Prepared,
    node_ids: &[String],
    command: &str,
) -> Result<WrittenPatch, FixError> {
    FixJobs::collect(prepared, node_ids)?.run(command, FIX_TIMEOUT)
}

/// What the fix command reads: the finding, where it is, its evidence, and its fix prompt.
fn fix_prompt(node: &ReviewNode, prompt: &str, worktree: &std::path::Path) -> String {
    let mut text = format!(
        "Propose a fix for this code review finding. Answer with an explanation and a unified \
         diff; do not modify any file.\n\nFinding {}: {}\nPriority: {} · {}\nLocation: {}\n",
        node.id,
        node.text.title,
        node.priority,
        node.triage.category,
        node.location()
    );
    if !node.text.evidence.trim().is_empty() {
        text.push_str(&format!("\nEvidence:\n{}\n", node.text.evidence.trim()));
    }
    text.push_str(&format!(
        "\nFix prompt:\n{}\n\nThe code (read only) is at {}\n",
        prompt.trim(),
        worktree.display()
    ));
    text
}

/// A node id as a file name: letters, digits, `-` and `_` kept, anything else `_`.
fn file_name(id: &str) -> String {
    id.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// One run: the prompt on stdin, stdout captured, killed at the timeout.
fn run_one(
    command: &str,
    prompt: &str,
    id: &str,
    worktree: &std::path::Path,
    dir: &std::path::Path,
    timeout: std::time::Duration,
) -> Result<Vec<u8>, RunError> {
    use std::io::{Read, Write};
    use std::process::{Command, Stdio};
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(command)
        .current_dir(dir)
        .env("REVIEW_TUI_WORKTREE", worktree)
        .env("REVIEW_TUI_FINDING", id)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|source| RunError::Start {
            command: command.to_string(),
            source,
        })?;
    let mut stdin = child.stdin.take().expect("piped");
    let input = prompt.to_string();
    let writer = std::thread::spawn(move || {
        // A command that does not read its input closes the pipe: not an error.
        let _ = stdin.write_all(input.as_bytes());
    });
    let mut stdout = child.stdout.take().expect("piped");
    let reader = std::thread::spawn(move || {
        let mut out = Vec::new();
        let _ = stdout.read_to_end(&mut out);
        out
    });
    let mut stderr = child.stderr.take().expect("piped");
    let errors = std::thread::spawn(move || {
        let mut out = Vec::new();
        let _ = stderr.read_to_end(&mut out);
        out
    });
    let deadline = std::time::Instant::now() + timeout;
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) if std::time::Instant::now() >= deadline => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(RunError::TimedOut(timeout));
            }
            Ok(None) => std::thread::sleep(std::time::Duration::from_millis(20)),
            Err(source) => {
                return Err(RunError::Wait {
                    command: command.to_string(),
                    source,
                });
            }
        }
    };
    let _ = writer.join();
    let out = reader.join().unwrap_or_default();
    let err = errors.join().unwrap_or_default();
    if !status.success() {
        let err = String::from_utf8_lossy(&err);
        let tail: Vec<&str> = err.lines().rev().take(5).collect();
        let tail: Vec<&str> = tail.into_iter().rev().collect();
        return Err(RunError::Exited {
            status,
            tail: tail.join(" / "),
        });
    }
    Ok(out)
}

/// The worktree's `git status`, to notice a command that changed it; `None` when unreadable.
fn worktree_status(worktree: &std::path::Path) -> Option<Vec<(String, u32)>> {
    let repo = git2::Repository::open(worktree).ok()?;
    let mut options = git2::StatusOptions::new();
    options.include_untracked(true).recurse_untracked_dirs(true);
    let statuses = repo.statuses(Some(&mut options)).ok()?;
    let mut out: Vec<(String, u32)> = statuses
        .iter()
        .map(|e| (e.path().unwrap_or("").to_string(), e.status().bits()))
        .collect();
    out.sort();
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pr::reference::PrRef;
    use crate::review::node::Fix;
    use crate::session::prepare::{PrepareOptions, prepare};

    #[tokio::test]
    async fn replacement_lines_become_a_patch_that_applies() {
        let dir = tempfile::tempdir().unwrap();
        let demo = crate::demo::build(&dir.path().join("repo")).unwrap();
        let reference = crate::pr::reference::parse(&demo.reference(), None, None).unwrap();
        assert!(matches!(reference, PrRef::Local { .. }));
        let options = PrepareOptions {
            data_dir: Some(dir.path().join("data")),
            ..PrepareOptions::default()
        };
        let mut prepared = prepare(reference, &options).await.unwrap();
        // A finding on the stale bearer in get_with_retry, with its exact fix.
        let worktree = prepared.space.worktree().to_path_buf();
        let client = std::fs::read_to_string(worktree.join("src/client.rs")).unwrap();
        let line = client
            .lines()
            .position(|l| l.contains("response = self.transport.get(url, &bearer);"))
            .unwrap() as u32
            + 1;
        let mut node =
            crate::review::tests::node("n1", "engineer", crate::review::node::Priority::P1, 0.9);
        node.anchor = Some(crate::review::node::Anchor {
            path: crate::repo_path::RepoPath::parse("src/client.rs").unwrap(),
            side: Side::Right,
            start_line: line,
            end_line: line,
        });
        node.fix = Some(Fix {
            replacement: Some(vec![
                "            response = self.transport.get(url, &self.token.value);".into(),
            ]),
            diff: None,
            prompt: None,
        });
        prepared
            .space
            .update(|state| -> Result<(), crate::space::StoreError> {
                state.nodes.push(node);
                Ok(())
            })
            .unwrap();
        let written = write_patch(&prepared, &["n1".to_string()]).unwrap();
        let message = written.summary.clone();
        assert!(message.contains("1 finding"), "{message}");
        let patch = prepared.space.path().join("fixes/round-1.patch");
        assert_eq!(written.path, patch);
        let text = std::fs::read_to_string(&patch).unwrap();
        assert_eq!(
            written.text, text,
            "what the viewer shows is what was written"
        );
        let again = last_patch(&prepared).expect("a reopen finds the patch");
        assert_eq!((again.path, again.text), (written.path, written.text));
        assert!(
            text.contains("+            response = self.transport.get(url, &self.token.value);"),
            "{text}"
        );
        assert_eq!(
            text.matches("diff --git").count(),
            1,
            "one header a file:\n{text}"
        );
        let check = std::process::Command::new("git")
            .args(["apply", "--check"])
            .arg(&patch)
            .current_dir(&worktree)
            .output()
            .unwrap();
        assert!(
            check.status.success(),
            "{}\n{text}",
            String::from_utf8_lossy(&check.stderr)
        );
        // Nothing with replacement lines chosen: a clear refusal.
        assert!(write_patch(&prepared, &["nope".to_string()]).is_err());
    }

    #[tokio::test]
    async fn a_fix_prompt_goes_to_the_fix_command_and_its_answer_is_kept() {
        let dir = tempfile::tempdir().unwrap();
        let demo = crate::demo::build(&dir.path().join("repo")).unwrap();
        let reference = crate::pr::reference::parse(&demo.reference(), None, None).unwrap();
        let options = PrepareOptions {
            data_dir: Some(dir.path().join("data")),
            ..PrepareOptions::default()
        };
        let mut prepared = prepare(reference, &options).await.unwrap();
        let mut node =
            crate::review::tests::node("n/1", "engineer", crate::review::node::Priority::P1, 0.9);
        node.anchor = Some(crate::review::node::Anchor {
            path: crate::repo_path::RepoPath::parse("src/client.rs").unwrap(),
            side: Side::Right,
            start_line: 3,
            end_line: 3,
        });
        node.text.evidence = "the stale bearer is reused".into();
        node.fix = Some(Fix {
            replacement: None,
            diff: None,
            prompt: Some("Refresh the bearer before retrying.".into()),
        });
        prepared
            .space
            .update(|state| -> Result<(), crate::space::StoreError> {
                state.nodes.push(node);
                Ok(())
            })
            .unwrap();
        let ids = vec!["n/1".to_string()];
        assert!(prompts_only(&prepared, &ids));
        // A tiny fixer: echoes where it runs, what it was told, and the prompt it read.
        let script = dir.path().join("fixer.sh");
        std::fs::write(
            &script,
            "#!/bin/sh\necho \"finding $REVIEW_TUI_FINDING in $REVIEW_TUI_WORKTREE\"\necho \"cwd $(pwd)\"\ncat\n",
        )
        .unwrap();
        let command = format!("sh {}", script.display());
        let written = run_fix_command(&prepared, &ids, &command).unwrap();
        let message = &written.summary;
        assert!(message.contains("review-tui changed no code"), "{message}");
        assert!(
            message.contains("answers for 1 of 1 finding(s)"),
            "{message}"
        );
        let answer = prepared.space.path().join("fixes/n_1.md");
        assert!(message.contains(&answer.display().to_string()), "{message}");
        let text = std::fs::read_to_string(&answer).unwrap();
        // What the viewer shows is the answer itself, under its finding.
        assert!(written.answers);
        assert!(written.text.starts_with("## n/1 ("), "{}", written.text);
        assert!(written.text.contains(text.trim_end()), "{}", written.text);
        let worktree = prepared.space.worktree().display().to_string();
        assert!(
            text.contains(&format!("finding n/1 in {worktree}")),
            "{text}"
        );
        assert!(
            !text.contains(&format!("cwd {worktree}")),
            "not run in the worktree"
        );
        assert!(text.contains("Location: src/client.rs:3"), "{text}");
        assert!(text.contains("the stale bearer is reused"), "{text}");
        assert!(
            text.contains("Refresh the bearer before retrying."),
            "{text}"
        );

        // A failing command and a hanging one are errors, named.
        let err = run_fix_command(&prepared, &ids, "echo broken >&2; exit 3")
            .unwrap_err()
            .to_string();
        assert!(err.contains("n/1") && err.contains("broken"), "{err}");
        let jobs = FixJobs::collect(&prepared, &ids).unwrap();
        let err = jobs
            .run("sleep 5", std::time::Duration::from_millis(200))
            .unwrap_err()
            .to_string();
        assert!(err.contains("timed out"), "{err}");

        // A command that writes into the worktree is reported, never taken silently.
        let err = run_fix_command(
            &prepared,
            &ids,
            "cat >/dev/null; touch \"$REVIEW_TUI_WORKTREE/sneaky\"",
        )
        .unwrap_err()
        .to_string();
        assert!(
            err.contains("changed files in the review worktree"),
            "{err}"
        );
    }
}
