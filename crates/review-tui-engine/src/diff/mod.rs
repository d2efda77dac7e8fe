//! The diff model: files, hunks and lines with LEFT (old) and RIGHT (new) numbers.
//!
//! [`parse`] reads git and plain unified diffs (GitHub's `.diff` media type included);
//! `git` produces one from a local repository. The model answers the questions the rest of
//! the engine asks of a diff: which lines were added (rule scanners), and where an inline
//! review comment may be anchored ([`Diff::anchor_in_diff`], [`Diff::range_in_diff`]).

mod anchor;
mod code_lines;
mod error;
pub(crate) mod git;
mod language;
pub(crate) mod merge_base;
mod model;
mod names;
mod old_side;
mod parse;
mod samplecode;
mod testcode;

/// Sides are part of the review model (every anchor has one); the diff shares the type.
pub use crate::review::side::Side;
pub use code_lines::{
    CodeLexer, LineFacts, LineStart, MAX_CODE_LINE_BYTES, StringSpans, code_lines, code_mask,
    minified_line,
};
pub use error::{DiffError, Problem};
pub use git::{earlier_names, merge_base_diff, merge_base_diff_text};
pub use language::Language;
pub use model::{
    Diff, FileDiff, FileMode, FileStatus, Hunk, Line, LineEnding, LineKind, SubmoduleChange,
    Unavailable,
};
pub use old_side::{OldSide, old_side};
pub use parse::{parse, parse_bytes};
pub use samplecode::{
    is_documentation, is_sample_path, is_sample_path_in, sample_dir, source_root,
};
pub use testcode::{FileLine, TestTracker, file_lines, is_test_path, test_lines};
