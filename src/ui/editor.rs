//! The person's own editor for a comment, the way git hands a commit message to `$EDITOR`:
//! the text goes to a private temporary file (in the review space when there is one), `$VISUAL`
//! (else `$EDITOR`) runs on it with the terminal, and what the file holds when the editor exits
//! comes back. With neither set, nothing is guessed: the person is told to set one.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The editor command line, as the person set it (it may carry arguments: `code -w`).
pub fn command() -> Result<String, EditorError> {
    ["VISUAL", "EDITOR"]
        .iter()
        .filter_map(|name| std::env::var(name).ok())
        .find(|value| !value.trim().is_empty())
        .ok_or(EditorError::NoEditor)
}

/// Why the editor gave nothing back; the cockpit shows the text. Clonable (it travels in an
/// `Action`), so the underlying error is kept as its message.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EditorError {
    #[error("no editor: set $VISUAL or $EDITOR (export EDITOR=nano) and try again")]
    NoEditor,
    #[error("could not write the comment for the editor: {0}")]
    WriteComment(String),
    #[error("could not start the editor `{editor}`: {reason}")]
    Start { editor: String, reason: String },
    #[error("the editor `{editor}` ended with {status}: the comment is unchanged")]
    CommentUnchanged { editor: String, status: String },
    #[error("could not read back what the editor wrote: {0}")]
    ReadBack(String),
    #[error("the editor ended with {0}")]
    Failed(String),
    #[error("could not copy {path} out of the worktree for the editor: {reason}")]
    Copy { path: String, reason: String },
}

/// A read-only copy of `path` (relative, inside `worktree`) beside the review's worktree
/// (`<space>/views/<path>`), made afresh on each call: what the person's editor opens, so an
/// edit never dirties the checkout the review reads (the next round would review it).
pub fn read_only_copy(worktree: &Path, path: &str) -> Result<PathBuf, EditorError> {
    let failed = |e: std::io::Error| EditorError::Copy {
        path: crate::printable::line(path).into_owned(),
        reason: e.to_string(),
    };
    let inside = !path.is_empty()
        && !path.starts_with('/')
        && !path.split('/').any(|part| part == ".." || part.is_empty());
    if !inside {
        return Err(failed(std::io::Error::other(
            "not a path inside the worktree",
        )));
    }
    let views = worktree
        .parent()
        .map_or_else(std::env::temp_dir, Path::to_path_buf)
        .join("views");
    let copy = views.join(path);
    if let Some(parent) = copy.parent() {
        std::fs::create_dir_all(parent).map_err(failed)?;
    }
    if copy.exists() {
        // The last copy is read-only: writable again to be replaced.
        let mut permissions = std::fs::metadata(&copy).map_err(failed)?.permissions();
        #[allow(clippy::permissions_set_readonly_false)]
        permissions.set_readonly(false);
        std::fs::set_permissions(&copy, permissions).map_err(failed)?;
        std::fs::remove_file(&copy).map_err(failed)?;
    }
    std::fs::copy(worktree.join(path), &copy).map_err(failed)?;
    let mut permissions = std::fs::metadata(&copy).map_err(failed)?.permissions();
    permissions.set_readonly(true);
    std::fs::set_permissions(&copy, permissions).map_err(failed)?;
    Ok(copy)
}

/// Runs the person's editor on `text`, in a file in `dir` (the review space; the system's
/// temporary directory without one); blocks until it exits. The caller hands it the terminal.
pub fn edit(dir: Option<&Path>, text: &str) -> Result<String, EditorError> {
    edit_with(&command()?, dir, text)
}

/// Runs `editor` (a shell command line) on `text`.
pub fn edit_with(editor: &str, dir: Option<&Path>, text: &str) -> Result<String, EditorError> {
    let dir = dir.map_or_else(std::env::temp_dir, Path::to_path_buf);
    let file =
        TempFile::create(&dir, text).map_err(|e| EditorError::WriteComment(e.to_string()))?;
    // Through the shell so `$EDITOR` may carry arguments; the path is passed as `$1`, never
    // spliced into the command line.
    let status = Command::new("sh")
        .arg("-c")
        .arg(format!("{editor} \"$1\""))
        .arg("review-tui-editor")
        .arg(file.path())
        .status()
        .map_err(|e| start_error(editor, &e))?;
    if !status.success() {
        return Err(EditorError::CommentUnchanged {
            editor: editor.to_string(),
            status: status.to_string(),
        });
    }
    let mut edited =
        std::fs::read_to_string(file.path()).map_err(|e| EditorError::ReadBack(e.to_string()))?;
    // Editors end a file with a newline the comment did not have.
    while edited.ends_with('\n') {
        edited.pop();
    }
    Ok(edited)
}

/// Opens `file` at `line` in the person's editor; blocks until it exits. The caller hands it
/// the terminal. `open_at` is `[editor] open_at` from the person's config: the command line
/// with `{file}` and `{line}` where they go (`code -g {file}:{line}`, `hx {file}:{line}`);
/// without it the editor gets `+LINE FILE`, the form vi, vim, nvim, nano, emacs and micro
/// understand.
pub fn open_at(open_at: Option<&str>, file: &Path, line: u32) -> Result<(), EditorError> {
    let editor = match open_at {
        // A configured form names its own editor.
        Some(_) => String::new(),
        None => command()?,
    };
    open_at_with(&editor, open_at, file, line)
}

/// [`open_at`] with `editor` standing for `$VISUAL`/`$EDITOR`.
pub fn open_at_with(
    editor: &str,
    open_at: Option<&str>,
    file: &Path,
    line: u32,
) -> Result<(), EditorError> {
    // The path (the PR chose it) and the line go in as `$1` and `$2`, never spliced into the
    // command line the shell reads.
    let script = match open_at {
        Some(template) => template
            .replace("{file}", "\"$1\"")
            .replace("{line}", "\"$2\""),
        None => format!("{editor} +\"$2\" \"$1\""),
    };
    let status = Command::new("sh")
        .arg("-c")
        .arg(&script)
        .arg("review-tui-editor")
        .arg(file)
        .arg(line.max(1).to_string())
        .status()
        .map_err(|e| start_error(editor, &e))?;
    if !status.success() {
        return Err(EditorError::Failed(status.to_string()));
    }
    Ok(())
}

fn start_error(editor: &str, error: &std::io::Error) -> EditorError {
    EditorError::Start {
        editor: editor.to_string(),
        reason: error.to_string(),
    }
}

/// A file only the person can read (the comment may quote code), removed when dropped.
struct TempFile {
    path: PathBuf,
}

impl TempFile {
    fn create(dir: &Path, text: &str) -> std::io::Result<TempFile> {
        let stamp = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        let path = dir.join(format!(
            "review-tui-comment-{}-{stamp}.md",
            std::process::id()
        ));
        let mut options = std::fs::OpenOptions::new();
        options.write(true).create_new(true);
        #[cfg(unix)]
        {
            use std::os::unix::fs::OpenOptionsExt;
            options.mode(0o600);
        }
        let mut file = options.open(&path)?;
        file.write_all(text.as_bytes())?;
        file.write_all(b"\n")?;
        Ok(TempFile { path })
    }

    fn path(&self) -> &Path {
        &self.path
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.path);
    }
}

/// The OSC 52 sequence that asks the terminal to put `text` on the clipboard (tmux passes it
/// on with `set-clipboard on`; terminals without it ignore it).
pub fn osc52(text: &str) -> String {
    format!("\x1b]52;c;{}\x07", crate::base64::encode(text.as_bytes()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_editor_gets_the_text_and_its_file_comes_back() {
        let dir = tempfile::tempdir().unwrap();
        let script = dir.path().join("editor.sh");
        // An editor that appends a line, as a person would type one.
        std::fs::write(&script, "#!/bin/sh\nprintf 'second line\\n' >> \"$1\"\n").unwrap();
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
        let text = edit_with(
            &script.display().to_string(),
            Some(dir.path()),
            "first line",
        );
        assert_eq!(text.unwrap(), "first line\nsecond line");
        // The file was in the directory given, and is gone once read back.
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    #[test]
    fn the_file_is_written_where_it_is_asked_to_be() {
        let dir = tempfile::tempdir().unwrap();
        let seen = dir.path().join("seen");
        let editor = format!("sh -c 'dirname \"$0\" > {}'", seen.display());
        edit_with(&editor, Some(dir.path()), "x").unwrap();
        assert_eq!(
            std::fs::read_to_string(&seen).unwrap().trim(),
            dir.path().display().to_string()
        );
    }

    #[test]
    fn an_editor_that_fails_leaves_the_comment_unchanged() {
        assert!(
            edit_with("false", None, "kept")
                .unwrap_err()
                .to_string()
                .contains("unchanged")
        );
    }

    /// The editor's arguments, one per line, as a script standing for the editor records them.
    fn recorded(template: Option<&str>) -> String {
        let dir = tempfile::tempdir().unwrap();
        let script = dir.path().join("editor.sh");
        let log = dir.path().join("args");
        std::fs::write(
            &script,
            format!(
                "#!/bin/sh\nfor a in \"$@\"; do printf '%s\\n' \"$a\" >> '{}'; done\n",
                log.display()
            ),
        )
        .unwrap();
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
        let template = template.map(|t| t.replace("EDITOR", &script.display().to_string()));
        // A path a PR could choose: spaces, a quote, a `$(…)` that must stay text.
        let file = dir.path().join("a b'$(touch pwned).rs");
        open_at_with(
            &script.display().to_string(),
            template.as_deref(),
            &file,
            42,
        )
        .unwrap();
        assert!(!dir.path().join("pwned").exists() && !Path::new("pwned").exists());
        std::fs::read_to_string(&log)
            .unwrap()
            .replace(&dir.path().display().to_string(), "DIR")
    }

    #[test]
    fn a_vi_family_editor_gets_plus_line_then_the_file() {
        assert_eq!(recorded(None), "+42\nDIR/a b'$(touch pwned).rs\n");
    }

    #[test]
    fn a_configured_form_places_the_file_and_line_where_it_says() {
        assert_eq!(
            recorded(Some("EDITOR -g {file}:{line}")),
            "-g\nDIR/a b'$(touch pwned).rs:42\n"
        );
    }

    #[test]
    fn osc52_carries_the_text_in_base64() {
        assert_eq!(osc52("src/a.rs:3"), "\x1b]52;c;c3JjL2EucnM6Mw==\x07");
    }
}

#[cfg(test)]
mod copy_tests {
    use super::read_only_copy;

    #[test]
    fn the_editor_gets_a_read_only_copy_beside_the_worktree_never_the_worktrees_file() {
        let space = tempfile::tempdir().unwrap();
        let worktree = space.path().join("worktree");
        std::fs::create_dir_all(worktree.join("src")).unwrap();
        std::fs::write(worktree.join("src/lib.rs"), "fn a() {}\n").unwrap();
        let copy = read_only_copy(&worktree, "src/lib.rs").unwrap();
        assert!(!copy.starts_with(&worktree), "{}", copy.display());
        assert_eq!(std::fs::read_to_string(&copy).unwrap(), "fn a() {}\n");
        assert!(std::fs::metadata(&copy).unwrap().permissions().readonly());
        // Opened again after the worktree moved on: the copy follows it.
        std::fs::write(worktree.join("src/lib.rs"), "fn b() {}\n").unwrap();
        let again = read_only_copy(&worktree, "src/lib.rs").unwrap();
        assert_eq!(again, copy);
        assert_eq!(std::fs::read_to_string(&copy).unwrap(), "fn b() {}\n");
        assert!(read_only_copy(&worktree, "../escape").is_err());
    }
}
