//! The diff model: files, hunks and lines with LEFT (old) and RIGHT (new) numbers.

mod side;

pub use side::Side;
