//! A Markdown code fence that the text it fences cannot close: longer than any run of
//! backticks in it. Code quoted from a change (a suggestion, the lines a finding is about) is
//! someone else's text, and a fence inside it must not end the quote early.

/// A fence longer than any backtick run in `lines` (at least three backticks).
pub(crate) fn fence_for(lines: &[String]) -> String {
    let longest = lines
        .iter()
        .map(|line| line.split(|c| c != '`').map(str::len).max().unwrap_or(0))
        .max()
        .unwrap_or(0);
    "`".repeat((longest + 1).max(3))
}

#[cfg(test)]
mod tests {
    use super::fence_for;

    #[test]
    fn the_fence_outgrows_every_backtick_run() {
        assert_eq!(fence_for(&["let a = 1;".into()]), "```");
        assert_eq!(fence_for(&["````rust".into(), "`x`".into()]), "`````");
    }
}
