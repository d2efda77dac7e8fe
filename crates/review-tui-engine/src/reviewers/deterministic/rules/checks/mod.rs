//! File rules: checks that read a whole file, or several files, rather than one line. Their
//! metadata (title, priority, texts) lives in the TOML catalog like any rule; only the logic
//! is code, named by the rule's `check` field.

mod dockerfile;
mod exercised;
mod head_files;
mod lock_refresh;
mod lock_satisfies;
mod lockfile;
mod removed_test;
mod size;
mod workflow;

use std::collections::BTreeSet;

use crate::diff::{Diff, FileDiff, LineKind, Side};

/// A check implemented in code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Check {
    /// A new file adding more than `max_lines` lines or `max_bytes` bytes.
    LargeFileAdded { max_lines: usize, max_bytes: usize },
    /// A new binary file.
    BinaryFileAdded,
    /// A lock file changed while no manifest of its ecosystem changed.
    LockfileWithoutManifest,
    /// Dependency lines of a manifest changed while its lock file (which the repository has)
    /// did not.
    ManifestWithoutLockfile,
    /// A `pull_request_target` workflow that checks out the pull request's head.
    PullRequestTargetCheckout,
    /// A Dockerfile `FROM` on `:latest` or on no tag.
    DockerBaseImageUnpinned,
    /// A test definition removed with no test of that name or body left at the head.
    RemovedTest,
    /// Every changed code file was skipped by the line rules (vendored, generated, minified,
    /// configured): the change's code was not read. Decided by the scan over the whole diff.
    UnreadCode,
}

pub const CHECK_NAMES: [&str; 8] = [
    "large-file-added",
    "binary-file-added",
    "lockfile-without-manifest",
    "manifest-without-lockfile",
    "pull-request-target-checkout",
    "docker-base-image-unpinned",
    "removed-test",
    "unread-code",
];

const DEFAULT_MAX_LINES: usize = 1000;
const DEFAULT_MAX_BYTES: usize = 1024 * 1024;

impl Check {
    /// The check named `name`; `max_lines`/`max_bytes` tune `large-file-added` only.
    /// Errors name the field at fault.
    pub(crate) fn parse(
        name: &str,
        max_lines: Option<usize>,
        max_bytes: Option<usize>,
    ) -> Result<Check, (&'static str, String)> {
        let check = match name.trim() {
            "large-file-added" => Check::LargeFileAdded {
                max_lines: max_lines.unwrap_or(DEFAULT_MAX_LINES),
                max_bytes: max_bytes.unwrap_or(DEFAULT_MAX_BYTES),
            },
            "binary-file-added" => Check::BinaryFileAdded,
            "lockfile-without-manifest" => Check::LockfileWithoutManifest,
            "manifest-without-lockfile" => Check::ManifestWithoutLockfile,
            "pull-request-target-checkout" => Check::PullRequestTargetCheckout,
            "docker-base-image-unpinned" => Check::DockerBaseImageUnpinned,
            "removed-test" => Check::RemovedTest,
            "unread-code" => Check::UnreadCode,
            other => {
                return Err((
                    "check",
                    format!("unknown check `{other}`; known: {}", CHECK_NAMES.join(", ")),
                ));
            }
        };
        if !matches!(check, Check::LargeFileAdded { .. })
            && (max_lines.is_some() || max_bytes.is_some())
        {
            return Err((
                "max_lines",
                "applies to the `large-file-added` check only".into(),
            ));
        }
        Ok(check)
    }

    /// Whether the check can say anything without the repository's file list.
    pub(crate) fn needs_repo_files(&self) -> bool {
        matches!(self, Check::ManifestWithoutLockfile)
    }

    pub(crate) fn run<'a>(&self, file: &FileDiff, context: &CheckContext<'a>) -> Vec<Hit> {
        match self {
            Check::LargeFileAdded {
                max_lines,
                max_bytes,
            } => size::large_file(file, *max_lines, *max_bytes),
            Check::BinaryFileAdded => size::binary_file(file),
            Check::LockfileWithoutManifest => lockfile::lock_without_manifest(
                file,
                context.diff,
                context.repo_files,
                context.author_is_bot,
                context.title,
                context.worktree,
            ),
            Check::ManifestWithoutLockfile => match context.repo_files {
                Some(repo_files) => lockfile::manifest_without_lock(
                    file,
                    context.diff,
                    repo_files,
                    context.worktree,
                ),
                None => Vec::new(),
            },
            Check::PullRequestTargetCheckout => workflow::pull_request_target_checkout(file),
            Check::DockerBaseImageUnpinned => dockerfile::unpinned_base_images(file),
            Check::RemovedTest => removed_test::removed_tests(
                file,
                context.diff,
                context.worktree,
                &context.head_tests,
                &context.whole_diff,
                context.title,
            ),
            // Not a per-file question: `Catalog::scan` answers it once every file is read.
            Check::UnreadCode => Vec::new(),
        }
    }
}

/// What a check may look at besides the file.
pub(crate) struct CheckContext<'a> {
    pub diff: &'a Diff,
    pub repo_files: Option<&'a BTreeSet<String>>,
    /// The head worktree, for checks that ask whether something still exists there.
    pub worktree: Option<&'a std::path::Path>,
    /// The tests defined at the head, by language, read on first use during one scan.
    pub head_tests: HeadTests,
    /// The whole diff as the removed-test check reads it, read on first use during one scan.
    pub whole_diff: removed_test::WholeDiff<'a>,
    /// The change's author is a bot (dependabot, renovate): its lock-only bumps are its job.
    pub author_is_bot: bool,
    /// The change's title: a lock-only update or a release may say so.
    pub title: &'a str,
}

pub(crate) type HeadTests =
    std::cell::RefCell<std::collections::HashMap<crate::diff::Language, BTreeSet<String>>>;

/// One finding of a check.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Hit {
    /// Where to anchor; `None` for findings about a file that has no lines (binary).
    pub line: Option<(Side, u32)>,
    /// The anchored code, for the fingerprint and `{line}`; empty for whole-file findings so
    /// the fingerprint does not change with the file's size.
    pub code: String,
    /// Facts for `{detail}` in the evidence.
    pub detail: String,
}

/// The first changed line of a file: its first added line, else its first removed line.
pub(crate) fn first_changed_line(file: &FileDiff) -> Option<(Side, u32)> {
    let lines = || file.hunks.iter().flat_map(|hunk| hunk.lines.iter());
    lines()
        .find(|l| l.kind == LineKind::Added)
        .and_then(|l| l.new_line.map(|n| (Side::Right, n)))
        .or_else(|| {
            lines()
                .find(|l| l.kind == LineKind::Removed)
                .and_then(|l| l.old_line.map(|n| (Side::Left, n)))
        })
}

/// The directory part of a path, `""` for the repository root.
pub(crate) fn parent_dir(path: &str) -> &str {
    path.rfind('/').map_or("", |slash| &path[..slash])
}

pub(crate) fn file_name(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}
