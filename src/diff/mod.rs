//! The diff model: files, hunks and lines with LEFT (old) and RIGHT (new) numbers.
