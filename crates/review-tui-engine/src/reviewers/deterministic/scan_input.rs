//! The minimal input every zero-token reviewer scans: the changed lines of each file, with their
//! numbers. It is deliberately independent of the diff parser so scanners can be written and
//! tested before it, and so the diff model is free to change shape: it only has to produce this.

use crate::diff::Side;

/// One changed line. Added lines are `Side::Right` with their new line number; removed lines
/// are `Side::Left` with their old line number. `text` has no diff marker (`+`/`-`) and no
/// line terminator.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ScanLine<'a> {
    pub path: &'a str,
    pub line: u32,
    pub side: Side,
    pub text: &'a str,
}

/// The changed lines of one file, in diff order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScanFile<'a> {
    pub path: &'a str,
    pub lines: Vec<ScanLine<'a>>,
}

impl<'a> ScanFile<'a> {
    /// Builds a file from `(side, line, text)` triples; handy for tests and for callers that
    /// already hold the lines in another shape.
    pub fn new(path: &'a str, lines: impl IntoIterator<Item = (Side, u32, &'a str)>) -> Self {
        let lines = lines
            .into_iter()
            .map(|(side, line, text)| ScanLine {
                path,
                line,
                side,
                text,
            })
            .collect();
        ScanFile { path, lines }
    }

    /// A file whose lines were all added, numbered from `first_line`.
    pub fn added(path: &'a str, first_line: u32, texts: &[&'a str]) -> Self {
        ScanFile::new(
            path,
            texts
                .iter()
                .enumerate()
                .map(|(i, text)| (Side::Right, first_line + i as u32, *text)),
        )
    }

    /// Runs of consecutive lines on `side` (each line number one more than the previous). A
    /// secret can span lines (a private key block), so scanners match over a run joined with
    /// `\n`, never across a gap where unchanged code sits between.
    pub fn runs(&self, side: Side) -> Vec<Vec<ScanLine<'a>>> {
        let mut runs: Vec<Vec<ScanLine<'a>>> = Vec::new();
        for line in self.lines.iter().filter(|l| l.side == side) {
            match runs.last_mut() {
                Some(run) if run.last().is_some_and(|prev| prev.line + 1 == line.line) => {
                    run.push(*line)
                }
                _ => runs.push(vec![*line]),
            }
        }
        runs
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_split_at_gaps_and_ignore_the_other_side() {
        let file = ScanFile::new(
            "a.rs",
            [
                (Side::Right, 3, "a"),
                (Side::Left, 3, "old"),
                (Side::Right, 4, "b"),
                (Side::Right, 9, "c"),
            ],
        );
        let runs = file.runs(Side::Right);
        let numbers: Vec<Vec<u32>> = runs
            .iter()
            .map(|run| run.iter().map(|l| l.line).collect())
            .collect();
        assert_eq!(numbers, vec![vec![3, 4], vec![9]]);
        assert_eq!(file.runs(Side::Left).len(), 1);
    }
}
