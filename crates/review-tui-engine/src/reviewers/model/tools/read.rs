//! `read_file`: a numbered, capped line range of one file.

use std::io::{BufRead, BufReader, Cursor, Read};
use std::path::Path;

use super::confine;
use super::error::{ToolError, shown};
use super::{Limits, Redact};

/// Git's own test for binary content: a NUL in the first 8000 bytes.
pub(super) const BINARY_PROBE_BYTES: usize = 8000;

pub(super) fn looks_binary(head: &[u8]) -> bool {
    head[..head.len().min(BINARY_PROBE_BYTES)].contains(&0)
}

/// Lines `start..=end` (1-based) of `requested`, each prefixed with its number.
pub(super) fn read_file(
    root: &Path,
    limits: &Limits,
    redact: Option<&Redact>,
    requested: &str,
    start: Option<u64>,
    end: Option<u64>,
) -> Result<String, ToolError> {
    let start = start.unwrap_or(1);
    if start == 0 {
        return Err(ToolError::BadRange("lines are numbered from 1".into()));
    }
    if let Some(end) = end
        && end < start
    {
        return Err(ToolError::BadRange(format!(
            "end line {end} is before start line {start}"
        )));
    }
    let (path, oversized, mut reader): (String, bool, Box<dyn BufRead>) = match redact {
        // The whole (capped) file is redacted first, so a secret is seen whole whatever range
        // is asked for and wherever a line is cut.
        Some(_) => {
            let whole = read_text(root, limits, redact, requested)?;
            (
                whole.path,
                !whole.complete,
                Box::new(Cursor::new(whole.text.into_bytes())),
            )
        }
        None => {
            let (confined, file) = confine::open_regular(root, requested)?;
            let oversized = confined.metadata.len() > limits.file_bytes as u64;
            let reader = BufReader::new(file.take(limits.file_bytes as u64));
            (confined.relative, oversized, Box::new(reader))
        }
    };
    let probe = reader.fill_buf().map_err(|e| io(&path, &e))?;
    if looks_binary(probe) {
        return Err(ToolError::Binary(shown(&path)));
    }

    let wanted_last = end.unwrap_or(u64::MAX);
    let line_cap = start.saturating_add((limits.read_lines as u64).saturating_sub(1));
    let mut body = String::new();
    let mut total = 0u64;
    let mut last_shown = None;
    let mut stop_note = None;
    let mut raw = Vec::new();
    loop {
        raw.clear();
        if reader
            .read_until(b'\n', &mut raw)
            .map_err(|e| io(&path, &e))?
            == 0
        {
            break;
        }
        total += 1;
        if total < start || total > wanted_last || stop_note.is_some() {
            continue;
        }
        if total > line_cap {
            stop_note = Some(format!(
                "[truncated: at most {} lines per call; continue with start={total}]",
                limits.read_lines
            ));
            continue;
        }
        let line = numbered(total, &raw, limits.line_chars);
        if body.len() + line.len() > limits.output_bytes {
            stop_note = Some(format!(
                "[truncated: output limit of {} bytes reached; continue with start={total}]",
                limits.output_bytes
            ));
            continue;
        }
        body.push_str(&line);
        last_shown = Some(total);
    }

    let of_total = if oversized {
        format!(
            "the file is over {} bytes; only its first {total} lines can be read",
            limits.file_bytes
        )
    } else {
        format!("{total} lines")
    };
    let Some(last) = last_shown else {
        if total == 0 {
            return Ok(format!("{path} (empty file)\n"));
        }
        if stop_note.is_some() {
            // Not even one line fitted: it was cut to `line_chars`, so the cap is tiny.
            return Err(ToolError::BadRange(format!(
                "line {start} of {path} does not fit the output limit"
            )));
        }
        return Err(ToolError::BadRange(format!(
            "start line {start} is past the end of {path} ({of_total})"
        )));
    };
    let mut out = format!("{path} (lines {start}-{last}; {of_total})\n{body}");
    if let Some(note) = stop_note {
        out.push_str(&note);
        out.push('\n');
    }
    Ok(out)
}

/// A whole file as the tools see it: confined to the worktree (never `.git`, never through a
/// link that leads out), at most `file_bytes` of it, refused when binary, redacted whole.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileText {
    /// Where the file's bytes are, as the repository names it (a link inside the worktree
    /// resolved): relative, `/`-separated, canonical.
    pub path: String,
    pub text: String,
    /// False when the file is longer than the cap and `text` holds only its start.
    pub complete: bool,
}

/// Reads `requested` whole through the tools' confinement and caps. Every reader of worktree
/// files on behalf of a model (the tools, the verifier, the anchor checks) goes through here,
/// so none of them can read more, or elsewhere, than `read_file` can.
pub(super) fn read_text(
    root: &Path,
    limits: &Limits,
    redact: Option<&Redact>,
    requested: &str,
) -> Result<FileText, ToolError> {
    let (confined, file) = confine::open_regular(root, requested)?;
    let path = confined.real;
    let complete = confined.metadata.len() <= limits.file_bytes as u64;
    let mut all = Vec::new();
    file.take(limits.file_bytes as u64)
        .read_to_end(&mut all)
        .map_err(|e| io(&path, &e))?;
    if looks_binary(&all) {
        return Err(ToolError::Binary(shown(&path)));
    }
    let text = String::from_utf8_lossy(&all);
    let text = match redact {
        Some(redact) => redact(&text),
        None => text.into_owned(),
    };
    Ok(FileText {
        path,
        text,
        complete,
    })
}

fn numbered(number: u64, raw: &[u8], max_chars: usize) -> String {
    let text = String::from_utf8_lossy(raw);
    let text = text.trim_end_matches('\n').trim_end_matches('\r');
    format!("{number:>6} | {}\n", cut(text, max_chars))
}

/// The first `max_chars` characters of `text`, with a note when something was cut.
pub(super) fn cut(text: &str, max_chars: usize) -> std::borrow::Cow<'_, str> {
    match text.char_indices().nth(max_chars) {
        None => text.into(),
        Some((at, _)) => format!("{}… [line cut at {max_chars} characters]", &text[..at]).into(),
    }
}

fn io(path: &str, error: &std::io::Error) -> ToolError {
    ToolError::Io {
        path: shown(path),
        reason: error.kind().to_string(),
    }
}
