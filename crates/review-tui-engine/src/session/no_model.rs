//! What a review without any model says, in one line: which reviewers did not run and the two
//! ways on (decide without models, or configure one). Without it a first run ends Inconclusive
//! and the person has to read the reasons to learn why.

/// The whole line: headless stderr, and the cockpit's header when it fits.
pub const LONG: &str = "no model configured: the engineer, QA and architect reviewers did not \
     run, so the verdict is Inconclusive; pass --deterministic-only to decide without them, or \
     set OPENAI_API_KEY, ANTHROPIC_API_KEY, or OLLAMA_HOST with --model NAME (docs/models.md)";

/// The same at 80 columns.
pub const SHORT: &str =
    "no model: --deterministic-only or OPENAI_API_KEY/ANTHROPIC_API_KEY/OLLAMA_HOST";

/// Why each model reviewer was skipped, as the verdict's reason quotes it.
pub const SKIPPED: &str = "no model provider configured (pass --deterministic-only, or set \
     OPENAI_API_KEY, ANTHROPIC_API_KEY, or OLLAMA_HOST with --model NAME)";

/// The line for `columns` of room: the whole one when it fits.
pub fn line(columns: usize) -> &'static str {
    if LONG.chars().count() <= columns {
        LONG
    } else {
        SHORT
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_short_line_fits_80_columns_and_names_both_ways_on() {
        // The header draws it with a space on each side.
        assert!(SHORT.chars().count() + 2 <= 80, "{}", SHORT.len());
        for line in [SHORT, LONG, SKIPPED] {
            assert!(line.contains("--deterministic-only"), "{line}");
            for var in ["OPENAI_API_KEY", "ANTHROPIC_API_KEY", "OLLAMA_HOST"] {
                assert!(line.contains(var), "{line}");
            }
        }
        assert_eq!(line(80), SHORT);
        assert_eq!(line(400), LONG);
    }
}
