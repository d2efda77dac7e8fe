//! The gitleaks binary as a second opinion. When it is on PATH it scans the added lines and its
//! findings become `gitleaks` nodes, which consolidation folds with the built-in scan's ("found
//! by secret scan and gitleaks"). When it is absent or fails, the scan is skipped with a note;
//! it never fails the review.
//!
//! The added lines are written into a private temporary directory as files at their own paths,
//! each line at its new line number (blank lines elsewhere), and scanned with `gitleaks dir`
//! (v8.19+; `detect --no-git` for older versions). That keeps gitleaks' path rules and
//! allowlists meaningful and its line numbers equal to ours. The report goes to a file in that
//! directory, never to a terminal, and the raw secrets it holds are redacted as it is parsed.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use serde::Deserialize;

use super::gitleaks_config::sanitize;
use super::mask::{merge_spans, redact_secret};
use super::scanner::{SecretHit, SecretScanner, evidence};
use crate::diff::Side;
use crate::review::ReviewNode;
use crate::reviewers::deterministic::scan_input::ScanFile;

pub const GITLEAKS: &str = "gitleaks";

/// One gitleaks finding, with its secret already redacted.
#[derive(Debug, Clone, PartialEq)]
pub struct GitleaksFinding {
    pub rule_id: String,
    pub description: String,
    pub file: String,
    pub start_line: u32,
    pub end_line: u32,
    pub redacted: String,
    pub tags: Vec<String>,
}

/// The report's shape (gitleaks' `report.Finding`), read only here.
#[derive(Deserialize)]
#[serde(rename_all = "PascalCase")]
struct RawFinding {
    #[serde(rename = "RuleID", default)]
    rule_id: String,
    #[serde(default)]
    description: String,
    #[serde(default)]
    file: String,
    #[serde(default)]
    start_line: u32,
    #[serde(default)]
    end_line: u32,
    #[serde(default)]
    secret: String,
    #[serde(rename = "Match", default)]
    matched: String,
    #[serde(default)]
    tags: Option<Vec<String>>,
}

/// What a gitleaks run produced: nodes, or a note saying why there are none.
#[derive(Debug, Default)]
pub struct GitleaksRun {
    pub nodes: Vec<ReviewNode>,
    pub notes: Vec<String>,
}

/// A gitleaks report that cannot be read (a note; the scan is skipped, nothing else fails).
#[derive(Debug, thiserror::Error)]
#[error("the gitleaks report is not a JSON list of findings: {0}")]
pub struct ReportError(#[source] serde_json::Error);

fn parse_raw(json: &str) -> Result<Vec<RawFinding>, ReportError> {
    // An empty report file means no findings in some versions.
    if json.trim().is_empty() {
        return Ok(Vec::new());
    }
    serde_json::from_str::<Vec<RawFinding>>(json).map_err(ReportError)
}

/// Parses a gitleaks JSON report; secrets come out redacted.
pub fn parse_report(json: &str) -> Result<Vec<GitleaksFinding>, ReportError> {
    Ok(parse_raw(json)?
        .into_iter()
        .map(|raw| GitleaksFinding {
            redacted: redact_secret(&raw.secret),
            rule_id: raw.rule_id,
            description: raw.description,
            file: raw.file,
            start_line: raw.start_line,
            end_line: raw.end_line.max(raw.start_line),
            tags: raw.tags.unwrap_or_default(),
        })
        .collect())
}

/// Turns a report into `gitleaks` nodes. `root` is the directory gitleaks scanned (stripped from
/// its file names); `files` are the lines it was given, from which evidence is rebuilt with
/// every secret redacted, exactly as the built-in scan builds it, so the two agree on
/// fingerprints when they agree on the rule. What the built-in scan reads as sample data (a
/// test's made-up JWT, a generic credential in a fixture) or as only moved by the change is
/// left out here too.
pub fn report_to_nodes(
    json: &str,
    root: &str,
    files: &[ScanFile<'_>],
    scanner: &SecretScanner,
) -> Result<Vec<ReviewNode>, ReportError> {
    let hits: Vec<SecretHit> = parse_raw(json)?
        .into_iter()
        .filter(|raw| {
            let path = relative_to(&raw.file, root);
            let end = raw.end_line.max(raw.start_line);
            !scanner.is_sample(&raw.rule_id, &path, &raw.secret)
                && !scanner.only_moved(files, &path, raw.start_line, end)
        })
        .map(|raw| to_hit(raw, root, files, scanner))
        .collect();
    Ok(super::node::to_nodes(&hits, GITLEAKS))
}

fn to_hit(
    raw: RawFinding,
    root: &str,
    files: &[ScanFile<'_>],
    scanner: &SecretScanner,
) -> SecretHit {
    let path = relative_to(&raw.file, root);
    let start_line = raw.start_line.max(1);
    let end_line = raw.end_line.max(start_line);
    let lines: Vec<&str> = files
        .iter()
        .filter(|f| f.path == path)
        .flat_map(|f| &f.lines)
        .filter(|l| l.side == Side::Right && (start_line..=end_line).contains(&l.line))
        .map(|l| l.text)
        .collect();
    let text = if lines.is_empty() {
        raw.matched.clone()
    } else {
        lines.join("\n")
    };
    let evidence = match (!raw.secret.is_empty())
        .then(|| text.find(&raw.secret))
        .flatten()
    {
        Some(at) => {
            let mut spans = scanner.secret_spans(&text, Some(&path));
            spans.extend(
                text.match_indices(&raw.secret)
                    .map(|(i, s)| (i, i + s.len())),
            );
            let spans = merge_spans(spans);
            let span = *spans
                .iter()
                .find(|&&(s, e)| s <= at && at < e)
                .expect("the secret's own span is among them");
            evidence(&text, span, &spans)
        }
        // The secret is not in the lines we have: show nothing of the line but what
        // redaction leaves of gitleaks' own match.
        None => {
            scanner
                .redact(
                    &raw.matched
                        .replace(&raw.secret, &redact_secret(&raw.secret)),
                )
                .0
        }
    };
    let label = raw.rule_id.clone();
    SecretHit {
        rule: format!("secret/{}", sanitize(&raw.rule_id)),
        source_id: raw.rule_id.clone(),
        label,
        description: raw.description,
        path,
        side: Side::Right,
        start_line,
        end_line,
        redacted: redact_secret(&raw.secret),
        evidence,
        confidence: if raw.rule_id.starts_with("generic") {
            super::builtin::GENERIC
        } else {
            0.9
        },
    }
}

fn relative_to(file: &str, root: &str) -> String {
    let root = root.trim_end_matches('/');
    let stripped = file
        .strip_prefix(root)
        .map(|rest| rest.trim_start_matches('/'))
        .unwrap_or(file);
    stripped.trim_start_matches("./").to_string()
}

/// Finds `program` the way a shell would: a name with a `/` is a path, anything else is looked
/// up in `path_var` (the value of `PATH`).
pub(super) fn find_program(program: &str, path_var: Option<OsString>) -> Option<PathBuf> {
    if program.contains('/') {
        let path = PathBuf::from(program);
        return path.is_file().then_some(path);
    }
    std::env::split_paths(&path_var?)
        .map(|dir| dir.join(program))
        .find(|candidate| candidate.is_file())
}

/// Runs gitleaks on the added lines of `files`. `program` is `GITLEAKS` in production (looked
/// up on PATH) or a path; `config` a gitleaks configuration to pass with `--config` (the
/// repository's, read from the base branch). Never fails: problems become notes.
pub async fn run_gitleaks(
    program: &str,
    files: &[ScanFile<'_>],
    config: Option<&Path>,
    scanner: &SecretScanner,
    timeout: Duration,
) -> GitleaksRun {
    let mut run = GitleaksRun::default();
    let Some(binary) = find_program(program, std::env::var_os("PATH")) else {
        run.notes.push(format!(
            "{program} is not installed (not on PATH): its scan was skipped"
        ));
        return run;
    };
    let workspace = match PrivateDir::create() {
        Ok(dir) => dir,
        Err(e) => {
            run.notes.push(format!(
                "gitleaks skipped: cannot create a private directory: {e}"
            ));
            return run;
        }
    };
    let source = workspace.path.join("src");
    let report = workspace.path.join("report.json");
    if let Err(e) = write_added_lines(&source, files, &mut run.notes) {
        run.notes.push(format!(
            "gitleaks skipped: cannot write the lines to scan: {e}"
        ));
        return run;
    }

    let attempt = |args: Vec<OsString>| {
        let mut command = tokio::process::Command::new(&binary);
        command
            .args(args)
            .arg("--report-format")
            .arg("json")
            .arg("--report-path")
            .arg(&report)
            .args(["--no-banner", "--exit-code", "0", "--log-level", "error"])
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .kill_on_drop(true);
        if let Some(config) = config {
            command.arg("--config").arg(config);
        }
        async move { tokio::time::timeout(timeout, command.output()).await }
    };
    let modern = vec![OsString::from("dir"), source.clone().into_os_string()];
    let legacy = vec![
        OsString::from("detect"),
        OsString::from("--no-git"),
        OsString::from("--source"),
        source.clone().into_os_string(),
    ];
    let mut output = attempt(modern).await;
    if let Ok(Ok(out)) = &output
        && !out.status.success()
        && String::from_utf8_lossy(&out.stderr).contains("unknown command")
    {
        output = attempt(legacy).await;
    }
    let output = match output {
        Err(_) => {
            run.notes.push(format!(
                "gitleaks did not finish within {}s: its scan was skipped",
                timeout.as_secs()
            ));
            return run;
        }
        Ok(Err(e)) => {
            run.notes.push(format!(
                "gitleaks could not be started: {e}: its scan was skipped"
            ));
            return run;
        }
        Ok(Ok(output)) => output,
    };
    if !output.status.success() {
        // gitleaks may echo input in its errors: redact before the note is shown anywhere.
        let stderr = String::from_utf8_lossy(&output.stderr);
        let first = stderr.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
        let (first, _) = scanner.redact(first);
        run.notes.push(format!(
            "gitleaks failed ({}): {first}: its scan was skipped",
            output.status
        ));
        return run;
    }
    let json = match std::fs::read_to_string(&report) {
        Ok(json) => json,
        Err(e) => {
            run.notes.push(format!(
                "gitleaks wrote no readable report ({e}): its scan was skipped"
            ));
            return run;
        }
    };
    match report_to_nodes(&json, &source.to_string_lossy(), files, scanner) {
        Ok(nodes) => run.nodes = nodes,
        Err(e) => run.notes.push(format!("{e}: its scan was skipped")),
    }
    run
}

/// Writes each file's added lines at their line numbers. Paths that could escape the directory
/// are not written (and noted): the PR controls its paths.
fn write_added_lines(
    root: &Path,
    files: &[ScanFile<'_>],
    notes: &mut Vec<String>,
) -> std::io::Result<()> {
    std::fs::create_dir_all(root)?;
    for file in files {
        let unsafe_path = file.path.is_empty()
            || file.path.starts_with('/')
            || file.path.contains('\\')
            || file.path.split('/').any(|p| p == ".." || p.is_empty());
        if unsafe_path {
            notes.push(format!(
                "gitleaks did not scan {:?}: not a plain relative path",
                file.path
            ));
            continue;
        }
        let added: Vec<_> = file
            .lines
            .iter()
            .filter(|l| l.side == Side::Right)
            .collect();
        let Some(last) = added.iter().map(|l| l.line).max() else {
            continue;
        };
        let mut content = vec![""; last as usize];
        for line in added {
            if line.line >= 1 {
                content[line.line as usize - 1] = line.text;
            }
        }
        let target = root.join(file.path);
        if let Some(parent) = target.parent() {
            std::fs::create_dir_all(parent)?;
        }
        std::fs::write(target, content.join("\n") + "\n")?;
    }
    Ok(())
}

/// A directory only this user can read, removed when dropped: it holds the lines being scanned,
/// secrets included.
struct PrivateDir {
    path: PathBuf,
}

impl PrivateDir {
    fn create() -> std::io::Result<PrivateDir> {
        static COUNTER: AtomicU64 = AtomicU64::new(0);
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        let path = std::env::temp_dir().join(format!(
            "review-tui-gitleaks-{}-{}-{nanos}",
            std::process::id(),
            COUNTER.fetch_add(1, Ordering::Relaxed)
        ));
        let mut builder = std::fs::DirBuilder::new();
        #[cfg(unix)]
        std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
        builder.create(&path)?;
        Ok(PrivateDir { path })
    }
}

impl Drop for PrivateDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.path);
    }
}
