//! The zero-token reviewers: the rule catalog, the secret scan (and gitleaks when installed) and
//! SARIF imports from any linter. They always run, spend nothing, and stream through the same
//! events as the model reviewers.

pub mod injection;
pub mod intake;
mod joined_paths;
mod key_generators;
mod key_origin;
mod key_readers;
pub mod rules;
pub mod sarif;
pub mod scan_input;
pub mod secrets;
pub mod unseen_heads;

use std::path::PathBuf;
use std::time::Duration;

use tokio::sync::mpsc::Sender;

use crate::diff::{Diff, LineKind, Side};
use crate::review::events::{EventKind, ReviewEvent, RunId};
use crate::review::node::ReviewNode;
use crate::review::verdict::Outcome;
use injection::PrText;
use rules::{Catalog, ScanOptions};
use sarif::ImportOptions;
use scan_input::ScanFile;
use secrets::{SECRET_SCAN, SecretScanner};

/// What the deterministic reviewers read.
pub struct DeterministicInput {
    pub diff: Diff,
    /// The worktree at the head, for SARIF URIs and file rules.
    pub worktree: PathBuf,
    pub sarif_files: Vec<PathBuf>,
    pub secret_scanner: SecretScanner,
    pub catalog: Catalog,
    /// The gitleaks program to try (`gitleaks` on PATH by default); `None` skips it.
    pub gitleaks: Option<String>,
    pub now: String,
    /// Every text the PR's author and commenters control (`intake::pr_texts`), for the
    /// injection scan and the secret scan.
    pub pr_text: Vec<PrText>,
    /// The PR's author is a bot account (see `pr::forge::is_bot`).
    pub author_is_bot: bool,
    /// The PR's title (a local range's: its head commit's subject): what the change says it is.
    pub title: String,
}

/// The adapter from the diff model to what scanners read: added lines (RIGHT) and removed lines
/// (LEFT) with their numbers.
pub fn scan_files(diff: &Diff) -> Vec<ScanFile<'_>> {
    diff.files
        .iter()
        .filter(|file| !file.binary)
        .map(|file| {
            let lines = file.hunks.iter().flat_map(|hunk| {
                hunk.lines.iter().filter_map(|line| match line.kind {
                    LineKind::Added => Some((Side::Right, line.new_line?, line.text.as_str())),
                    LineKind::Removed => Some((Side::Left, line.old_line?, line.text.as_str())),
                    LineKind::Context => None,
                })
            });
            ScanFile::new(&file.path, lines)
        })
        .collect()
}

async fn send(events: &Sender<ReviewEvent>, run: RunId, reviewer: &str, kind: EventKind) {
    // A closed channel means the run was cancelled; there is nobody left to tell.
    let _ = events.send(ReviewEvent::new(run, reviewer, kind)).await;
}

async fn report_nodes(
    events: &Sender<ReviewEvent>,
    run: RunId,
    reviewer: &str,
    nodes: Vec<ReviewNode>,
    summary: String,
) {
    send(events, run, reviewer, EventKind::Started { required: true }).await;
    for node in nodes {
        match node.validate() {
            Ok(()) => {
                send(
                    events,
                    run,
                    reviewer,
                    EventKind::NodeAdded {
                        node: Box::new(node),
                    },
                )
                .await
            }
            Err(problems) => {
                let reasons: Vec<String> = problems.iter().map(|p| p.to_string()).collect();
                send(
                    events,
                    run,
                    reviewer,
                    EventKind::Dropped {
                        reason: format!("{}: {}", node.id, reasons.join("; ")),
                    },
                )
                .await
            }
        }
    }
    send(events, run, reviewer, EventKind::Done { summary }).await;
}

/// One SARIF file read: its nodes and summary, or why it was refused.
type SarifOutcome = Result<(Vec<ReviewNode>, String), sarif::SarifError>;

/// Runs every deterministic reviewer over `input`, streaming their events.
pub async fn run(input: DeterministicInput, run: RunId, events: Sender<ReviewEvent>) {
    let files = scan_files(&input.diff);

    let options = ScanOptions {
        repo_files: repo_files(&input.worktree),
        worktree: Some(input.worktree.clone()),
        author_is_bot: input.author_is_bot,
        title: input.title.clone(),
        ..ScanOptions::default()
    };
    let scanned = input.catalog.scan(&input.diff, &options);
    let summary = rules_summary(&scanned);
    report_nodes(&events, run, rules::REVIEWER, scanned.nodes, summary).await;

    let packages = rules::python_packages(&input.diff, options.repo_files.as_ref());
    run_secret_scan(&input, &files, packages, &events, run).await;

    let injected = injection::scan(&input.diff, &input.pr_text);
    report_nodes(
        &events,
        run,
        injection::REVIEWER,
        injected.nodes,
        injected.summary,
    )
    .await;

    if let Some(program) = &input.gitleaks {
        run_gitleaks(program, &input, &files, &events, run).await;
    }

    // Imports are read first, with no await in between: the `is_changed` closure borrows the
    // diff and need not be `Send`.
    let imports: Vec<(String, SarifOutcome)> = {
        let changed = |path: &str, line: u32| input.diff.anchor_in_diff(path, Side::Right, line);
        let root = input.worktree.display().to_string();
        input
            .sarif_files
            .iter()
            .map(|path| {
                let options = ImportOptions {
                    repo_root: Some(&root),
                    is_changed: &changed,
                    now: &input.now,
                };
                import_sarif(path, &options)
            })
            .collect()
    };
    for (reviewer, import) in imports {
        report_import(&events, run, &reviewer, import).await;
    }
}

/// The rules reviewer's summary: what it read, what it skipped or capped, and its notes.
fn rules_summary(scanned: &rules::ScanResult) -> String {
    let coverage = &scanned.coverage;
    let mut summary = format!(
        "{} rules over {} files ({} lines): {} found",
        coverage.rules_run,
        coverage.files_scanned,
        coverage.lines_scanned,
        scanned.nodes.len()
    );
    for skipped in &coverage.skipped {
        let security = if skipped.security_rules_read {
            " (the security rules read it)"
        } else {
            ""
        };
        summary.push_str(&format!(
            "; skipped {}: {}{security}",
            skipped.path, skipped.reason
        ));
    }
    for capped in &coverage.capped {
        summary.push_str(&format!(
            "; {} in {}: kept {} of {}",
            capped.rule, capped.path, capped.kept, capped.found
        ));
    }
    for note in &coverage.notes {
        summary.push_str("; ");
        summary.push_str(note);
    }
    summary
}

/// The built-in secret scan, over the changed files and the PR's texts.
async fn run_secret_scan(
    input: &DeterministicInput,
    files: &[ScanFile<'_>],
    python_packages: std::collections::BTreeSet<String>,
    events: &Sender<ReviewEvent>,
    run: RunId,
) {
    let keys = head_keys(&input.diff, &input.worktree);
    let scanner = input
        .secret_scanner
        .clone()
        .with_key_files(keys.key_files)
        .with_public_armour(keys.public_armour)
        .with_python_packages(python_packages);
    let mut hits = scanner.scan(files);
    let before = hits.len();
    hits.retain(|hit| !scanner.only_moved(files, &hit.path, hit.start_line, hit.end_line));
    let moved = before - hits.len();
    let (heads, too_large) = unseen_heads::unseen_heads(&input.diff, &input.worktree);
    hits.extend(unseen_head_hits(&scanner, &heads));
    let worktree = input.worktree.clone();
    // Only regular files of the worktree: a symlink may point anywhere.
    let mut nodes = secrets::to_nodes_reading(&hits, SECRET_SCAN, &|path| {
        let path = worktree.join(path);
        std::fs::symlink_metadata(&path)
            .is_ok_and(|m| m.is_file() && m.len() <= 1 << 20)
            .then(|| std::fs::read_to_string(&path).ok())
            .flatten()
    });
    // Before the fixture keys are settled: that step drops nodes, this one reads them beside
    // their hits.
    // The repository's file list only when a key is found.
    let repo = std::cell::OnceCell::new();
    let sample_keys = secrets::settle_sample_keys(&hits, &mut nodes, &|key| {
        let repo = repo.get_or_init(|| repo_files(&input.worktree).unwrap_or_default());
        key_origin::key_origin(&input.worktree, repo, key)
    });
    let test_keys = secrets::settle_keys_read_by_tests(&hits, &mut nodes, &|key| {
        key_readers::test_naming(&input.worktree, key)
    });
    nodes.extend(intake::secret_findings(
        &input.pr_text,
        &input.secret_scanner,
        SECRET_SCAN,
    ));
    let count = nodes.len();
    let mut summary = format!(
        "{} secret rules over {} files: {count} found",
        input.secret_scanner.rules().len(),
        files.len()
    );
    if test_keys > 0 {
        summary.push_str(&format!(
            "; {test_keys} key(s) in test fixture folders that the tests load, not reported"
        ));
    }
    if sample_keys > 0 {
        summary.push_str(&format!(
            "; {sample_keys} key(s) the repository generates or its example and test programs load, noted at P3"
        ));
    }
    if moved > 0 {
        summary.push_str(&format!(
            "; {moved} secret(s) the change only moved or re-indented (already on its removed lines), not reported"
        ));
    }
    if !heads.is_empty() {
        summary.push_str(&format!(
            "; {} changed file(s) whose diff shows no lines read whole at the head",
            heads.len()
        ));
    }
    if !too_large.is_empty() {
        summary.push_str(&format!(
            "; not scanned, too large to read whole: {}",
            too_large
                .iter()
                .map(|p| crate::printable::line(p).into_owned())
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    report_nodes(events, run, SECRET_SCAN, nodes, summary).await;
}

/// The gitleaks binary beside the built-in scan; not installed, it has no row.
async fn run_gitleaks(
    program: &str,
    input: &DeterministicInput,
    files: &[ScanFile<'_>],
    events: &Sender<ReviewEvent>,
    run: RunId,
) {
    let result = secrets::run_gitleaks(
        program,
        files,
        None,
        &input.secret_scanner,
        Duration::from_secs(60),
    )
    .await;
    let installed = !result
        .notes
        .iter()
        .any(|note| note.contains("not installed"));
    if installed {
        let summary = if result.notes.is_empty() {
            format!("{} found", result.nodes.len())
        } else {
            result.notes.join("; ")
        };
        report_nodes(events, run, secrets::GITLEAKS, result.nodes, summary).await;
    }
}

/// One SARIF file imported: the reviewer it names (else `sarif:STEM`), and its nodes and
/// summary or why it was refused.
fn import_sarif(path: &std::path::Path, options: &ImportOptions<'_>) -> (String, SarifOutcome) {
    let fallback = format!("sarif:{}", file_stem(path));
    match sarif::import_sarif_file(path, options) {
        Ok(import) => {
            let reviewer = import
                .nodes
                .first()
                .map(|n| n.origin.reviewer.clone())
                .unwrap_or(fallback);
            let mut summary = format!(
                "{} results from {}: {} imported, {} skipped",
                import.results,
                path.display(),
                import.nodes.len(),
                import.skipped.len()
            );
            for note in &import.notes {
                summary.push_str("; ");
                summary.push_str(note);
            }
            (reviewer, Ok((import.nodes, summary)))
        }
        Err(err) => (fallback, Err(err)),
    }
}

/// A SARIF import's row: its nodes, or a failed row saying why the file was refused.
async fn report_import(
    events: &Sender<ReviewEvent>,
    run: RunId,
    reviewer: &str,
    import: SarifOutcome,
) {
    match import {
        Ok((nodes, summary)) => report_nodes(events, run, reviewer, nodes, summary).await,
        Err(reason) => {
            send(events, run, reviewer, EventKind::Started { required: true }).await;
            send(
                events,
                run,
                reviewer,
                EventKind::Failed {
                    outcome: Outcome::InvalidOutput,
                    reason: reason.to_string(),
                },
            )
            .await;
        }
    }
}

/// Secrets in the heads the diff shows no lines of ([`unseen_heads`]), read as added text. A
/// rule that flags a file by its path alone (a keystore) is left to the diff's own files, as
/// before; in binary data only a provider's exact format counts.
fn unseen_head_hits(
    scanner: &SecretScanner,
    heads: &[unseen_heads::UnseenHead],
) -> Vec<secrets::SecretHit> {
    let by_path = |rule: &str| {
        scanner
            .rules()
            .iter()
            .find(|r| r.id == rule)
            .is_some_and(|r| r.regex.is_none())
    };
    heads
        .iter()
        .flat_map(|head| {
            scanner
                .scan(&[head.scan_file()])
                .into_iter()
                .filter(|hit| !(by_path(&hit.rule) || (head.data && hit.generic())))
        })
        .collect()
}

/// What the heads of the changed files say about keys: the files that hold a private key (a
/// `BEGIN … PRIVATE KEY` line: a change inside one shows body lines without their header, which
/// are key material all the same), and each file's lines inside public armour (a certificate,
/// a public key: base64 there is no key, though a hunk shows its body without the BEGIN line).
fn head_keys(diff: &Diff, worktree: &std::path::Path) -> HeadKeys {
    /// Key files are small; a large file is not read whole for this.
    const MAX_BYTES: u64 = 1 << 20;
    let mut keys = HeadKeys::default();
    for file in diff.files.iter().filter(|file| !file.binary) {
        let path = worktree.join(&file.path);
        if !std::fs::symlink_metadata(&path).is_ok_and(|m| m.is_file() && m.len() <= MAX_BYTES) {
            continue;
        }
        let Ok(bytes) = std::fs::read(&path) else {
            continue;
        };
        let text = String::from_utf8_lossy(&bytes);
        if !text.contains("-----BEGIN") {
            continue;
        }
        if text
            .lines()
            .any(|l| l.contains("-----BEGIN") && l.contains("PRIVATE KEY"))
        {
            keys.key_files.push(file.path.clone());
        }
        let public = secrets::public_armour_lines(&text);
        if !public.is_empty() {
            keys.public_armour.push((file.path.clone(), public));
        }
    }
    keys
}

/// [`head_keys`]'s answer.
#[derive(Default)]
struct HeadKeys {
    key_files: Vec<String>,
    public_armour: Vec<(String, Vec<(u32, u32)>)>,
}

/// The files of the head worktree (relative paths), so rules such as "manifest changed without
/// its lock file" can tell whether the repository commits a lock file at all.
fn repo_files(worktree: &std::path::Path) -> Option<std::collections::BTreeSet<String>> {
    let repo = git2::Repository::open(worktree).ok()?;
    let index = repo.index().ok()?;
    Some(
        index
            .iter()
            .filter_map(|entry| String::from_utf8(entry.path).ok())
            .collect(),
    )
}

fn file_stem(path: &std::path::Path) -> String {
    path.file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "sarif".into())
}
