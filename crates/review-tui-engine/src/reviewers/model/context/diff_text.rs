//! The diff model written back as git patch text, file by file and hunk by hunk, so a diff can
//! be split on file and hunk boundaries and each piece still reads (and parses) as a diff.

use std::fmt::Write;

use crate::diff::{FileDiff, FileMode, FileStatus, Hunk, LineEnding, LineKind};

/// A whole file: its header and every hunk.
pub fn file_text(file: &FileDiff) -> String {
    let mut out = file_header(file);
    for hunk in &file.hunks {
        out.push_str(&hunk_text(hunk));
    }
    out
}

/// The `diff --git` line, mode and rename lines, and `---`/`+++` (or the binary notice).
pub fn file_header(file: &FileDiff) -> String {
    let old = file.old_path.as_deref().unwrap_or(&file.path);
    let new = &file.path;
    let mut out = format!("diff --git a/{old} b/{new}\n");
    match file.status {
        FileStatus::Added => {
            if let Some(mode) = file.new_mode {
                let _ = writeln!(out, "new file mode {}", octal(mode));
            }
        }
        FileStatus::Deleted => {
            if let Some(mode) = file.old_mode {
                let _ = writeln!(out, "deleted file mode {}", octal(mode));
            }
        }
        FileStatus::Renamed | FileStatus::Copied => {
            let verb = if file.status == FileStatus::Renamed {
                "rename"
            } else {
                "copy"
            };
            if let Some(similarity) = file.similarity {
                let _ = writeln!(out, "similarity index {similarity}%");
            }
            let _ = writeln!(out, "{verb} from {old}\n{verb} to {new}");
        }
        FileStatus::Modified => {}
    }
    if file.mode_changed()
        && let (Some(old_mode), Some(new_mode)) = (file.old_mode, file.new_mode)
    {
        let _ = writeln!(
            out,
            "old mode {}\nnew mode {}",
            octal(old_mode),
            octal(new_mode)
        );
    }
    let old_name = match file.status {
        FileStatus::Added => "/dev/null".to_string(),
        _ => format!("a/{old}"),
    };
    let new_name = match file.status {
        FileStatus::Deleted => "/dev/null".to_string(),
        _ => format!("b/{new}"),
    };
    if file.binary {
        let _ = writeln!(out, "Binary files {old_name} and {new_name} differ");
    } else if !file.hunks.is_empty() {
        let _ = writeln!(out, "--- {old_name}\n+++ {new_name}");
    }
    out
}

/// One hunk: its `@@` header and its lines with their markers.
///
/// Git's text after the header (`@@ -14,7 +14,7 @@ <function context>`) is left out: it is a
/// line of the file that the hunk does not show, picked by a heuristic (the nearest line above
/// that starts with a letter), so it can be any line — the body line of a private key above
/// the change — and no scan of the change's lines ever looked at it. The model reads the lines
/// around a hunk with `read_file`, which redacts the file whole.
pub fn hunk_text(hunk: &Hunk) -> String {
    let mut out = format!(
        "@@ -{},{} +{},{} @@\n",
        hunk.old_start, hunk.old_count, hunk.new_start, hunk.new_count
    );
    for line in &hunk.lines {
        out.push(match line.kind {
            LineKind::Context => ' ',
            LineKind::Added => '+',
            LineKind::Removed => '-',
        });
        out.push_str(&line.text);
        out.push('\n');
        if line.ending == LineEnding::Missing {
            out.push_str("\\ No newline at end of file\n");
        }
    }
    out
}

fn octal(mode: FileMode) -> String {
    match mode {
        FileMode::Regular => "100644".into(),
        FileMode::Executable => "100755".into(),
        FileMode::Symlink => "120000".into(),
        FileMode::Submodule => "160000".into(),
        FileMode::Other(value) => format!("{value:o}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diff::parse;

    const PATCH: &str = "\
diff --git a/src/lib.rs b/src/lib.rs
index 1111111..2222222 100644
--- a/src/lib.rs
+++ b/src/lib.rs
@@ -1,3 +1,4 @@ fn main
 one
-two
+deux
+trois
 four
@@ -10,2 +11,2 @@
 ten
-eleven
\\ No newline at end of file
+onze
\\ No newline at end of file
diff --git a/old.txt b/new.txt
similarity index 90%
rename from old.txt
rename to new.txt
--- a/old.txt
+++ b/new.txt
@@ -1 +1 @@
-a
+b
diff --git a/gone.sh b/gone.sh
deleted file mode 100755
--- a/gone.sh
+++ /dev/null
@@ -1 +0,0 @@
-echo bye
diff --git a/img.png b/img.png
new file mode 100644
Binary files /dev/null and b/img.png differ
";

    #[test]
    fn written_text_parses_back_to_the_same_files_and_hunks() {
        let diff = parse(PATCH).unwrap();
        let text: String = diff.files.iter().map(file_text).collect();
        let again = parse(&text).unwrap();
        assert_eq!(again.files.len(), diff.files.len());
        for (a, b) in diff.files.iter().zip(&again.files) {
            assert_eq!(a.path, b.path);
            assert_eq!(a.old_path, b.old_path);
            assert_eq!(a.status, b.status);
            assert_eq!(a.binary, b.binary);
            assert_eq!(a.hunks.len(), b.hunks.len());
            for (x, y) in a.hunks.iter().zip(&b.hunks) {
                assert_eq!(x.lines, y.lines);
                // Git's function context is a line of the file outside the hunk: never written.
                assert_eq!(y.section, None);
            }
        }
    }
}
