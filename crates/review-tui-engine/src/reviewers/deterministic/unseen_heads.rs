//! The head text of changed files whose diff shows no lines although their content changed: a
//! base side the repository lacks (a partial clone whose server is gone), a text file git
//! calls binary (a NUL byte, `-diff` in `.gitattributes`), a patch a forge left out. The secret
//! scan reads them whole as added text, so a secret never slips through because the diff could
//! not be computed.

use std::path::Path;

use crate::diff::{Diff, FileDiff, FileMode, FileStatus, Side};

use super::scan_input::ScanFile;

/// Files over this are not read whole; the scan's summary names them.
const MAX_BYTES: u64 = 32 << 20;

/// One changed file's head, read from the worktree.
pub struct UnseenHead {
    pub path: String,
    pub text: String,
    /// Mostly control bytes: binary data (an image, an archive), where only a provider's exact
    /// format is a secret, not a generic `key = value` a compressed stream can spell by chance.
    pub data: bool,
}

impl UnseenHead {
    /// Every line of the head, numbered from 1, as added lines.
    pub fn scan_file(&self) -> ScanFile<'_> {
        ScanFile::new(
            &self.path,
            self.text
                .lines()
                .enumerate()
                .map(|(i, line)| (Side::Right, i as u32 + 1, line)),
        )
    }
}

/// Whether the diff of `file` shows none of a head that changed: binary, a side unavailable,
/// or no hunks where a content change (not a pure rename, copy or mode change) was reported.
fn lines_unseen(file: &FileDiff) -> bool {
    let special = matches!(file.new_mode, Some(FileMode::Symlink | FileMode::Submodule));
    file.status != FileStatus::Deleted
        && !special
        && file.hunks.is_empty()
        && (file.binary
            || file.unavailable.is_some()
            || !(file.mode_changed()
                || matches!(file.status, FileStatus::Renamed | FileStatus::Copied)))
}

/// The heads of `diff`'s files whose lines the diff does not show (see `lines_unseen`), read
/// from `worktree` (regular files only: a symlink may point anywhere), and the paths too large
/// to read.
pub fn unseen_heads(diff: &Diff, worktree: &Path) -> (Vec<UnseenHead>, Vec<String>) {
    let mut heads = Vec::new();
    let mut too_large = Vec::new();
    for file in diff.files.iter().filter(|file| lines_unseen(file)) {
        let path = worktree.join(&file.path);
        let Ok(meta) = std::fs::symlink_metadata(&path) else {
            continue;
        };
        if !meta.is_file() {
            continue;
        }
        if meta.len() > MAX_BYTES {
            too_large.push(file.path.clone());
            continue;
        }
        let Ok(bytes) = std::fs::read(&path) else {
            continue;
        };
        let control = bytes
            .iter()
            .filter(|&&b| b < 0x20 && !matches!(b, b'\t' | b'\n' | b'\r' | 0x0c))
            .count();
        heads.push(UnseenHead {
            path: file.path.clone(),
            data: control * 10 > bytes.len(),
            text: String::from_utf8_lossy(&bytes).into_owned(),
        });
    }
    (heads, too_large)
}
