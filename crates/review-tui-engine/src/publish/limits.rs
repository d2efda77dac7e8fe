//! GitHub's size limit on what is posted: a review, comment or reply body over 65,536
//! characters is refused with a 422, and the whole review with it. A body is kept under the
//! limit by cutting its end at a line (the decision, the blocking problems and the
//! observations come first, the folded details last), closing what the cut left open, saying
//! so, and keeping the hidden markers, which must stay last.
//!
//! A cut never leaves half a suggestion: a ` ```suggestion ` block cut in the middle would be a
//! one-click replacement of the wrong lines, so such a block goes whole.

use super::markers;

/// GitHub's limit, in characters (Unicode scalar values, as GitHub counts them).
pub(crate) const MAX_BODY_CHARS: usize = 65_536;

/// What we aim under: room for a refusal reason put in at resend time (one line, at most a few
/// hundred characters) and for the redaction's placeholders.
const BUDGET: usize = MAX_BODY_CHARS - 1_536;

/// `body`, cut to fit under GitHub's limit if it does not; unchanged otherwise.
pub(crate) fn fit(body: &str) -> String {
    fit_within(body, BUDGET)
}

fn fit_within(body: &str, budget: usize) -> String {
    let total = body.chars().count();
    if total <= budget {
        return body.to_string();
    }
    let trailer: Vec<&str> = markers::trailer(body).collect();
    let note = format!(
        "\n> [!NOTE]\n> Cut here: this text is {total} characters and GitHub takes at most {MAX_BODY_CHARS}. The complete report is what `review-tui` prints for this pull request with `--format markdown` (without `--publish`).\n"
    );
    // The note, the markers, and what closing a fence and our <details> blocks may take.
    let reserved =
        note.chars().count() + trailer.iter().map(|l| l.chars().count() + 1).sum::<usize>() + 256;
    let keep = budget.saturating_sub(reserved);
    let mut out = String::new();
    let mut used = 0;
    let mut open = Open::default();
    for line in body.lines() {
        let len = line.chars().count() + 1;
        if used + len > keep {
            // The line that does not fit: as much of it as fits, unless it is in a suggestion
            // (dropped whole below) or the room left is too little to say anything.
            let room = keep - used;
            if room > 80 && !open.in_suggestion() {
                out.extend(line.chars().take(room - 2));
                out.push_str("…\n");
            }
            break;
        }
        let at = out.len();
        used += len;
        out.push_str(line);
        out.push('\n');
        open.track(line, at);
    }
    if let Some(fence) = &open.fence {
        if fence.suggestion {
            out.truncate(fence.at);
        } else {
            out.push_str(&fence.marker.to_string().repeat(fence.len));
            out.push('\n');
        }
    }
    for _ in 0..open.details {
        out.push_str("\n</details>\n");
    }
    out.push_str(&note);
    out.push('\n');
    for line in trailer.iter().rev() {
        out.push_str(line);
        out.push('\n');
    }
    out
}

/// A fenced code block the cut may land in.
struct Fence {
    marker: char,
    len: usize,
    /// Where its opening line starts in the output.
    at: usize,
    suggestion: bool,
}

/// What is open at the cut: a fenced code block, our `<details>` blocks.
#[derive(Default)]
struct Open {
    fence: Option<Fence>,
    details: usize,
}

impl Open {
    fn in_suggestion(&self) -> bool {
        self.fence.as_ref().is_some_and(|f| f.suggestion)
    }

    /// Follows `line` (which starts at byte `at` of the output).
    fn track(&mut self, line: &str, at: usize) {
        let trimmed = line.trim_start();
        let run = |c: char| trimmed.chars().take_while(|x| *x == c).count();
        match &self.fence {
            Some(fence) => {
                let closes = run(fence.marker) >= fence.len
                    && trimmed.trim_start_matches(fence.marker).trim().is_empty();
                if closes {
                    self.fence = None;
                }
            }
            None => {
                for marker in ['`', '~'] {
                    let len = run(marker);
                    if len >= 3 {
                        let info = trimmed[len..].trim();
                        self.fence = Some(Fence {
                            marker,
                            len,
                            at,
                            suggestion: info.starts_with("suggestion"),
                        });
                        return;
                    }
                }
                // Only our own tags are raw HTML here: everything from outside is escaped.
                if trimmed.starts_with("<details") {
                    self.details += 1;
                } else if trimmed.starts_with("</details>") {
                    self.details = self.details.saturating_sub(1);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_short_body_is_untouched() {
        assert_eq!(fit("a\nb\n"), "a\nb\n");
        let exactly = "x".repeat(BUDGET);
        assert_eq!(fit(&exactly), exactly);
    }

    #[test]
    fn a_long_body_is_cut_closed_noted_and_keeps_its_markers_last() {
        let mut body = String::from(
            "> [!CAUTION]\n> **Blocked**\n\n<details>\n<summary>Review details</summary>\n\n````rust\n",
        );
        for i in 0..20_000 {
            body.push_str(&format!("let line_{i} = {i}; // ```\n"));
        }
        body.push_str("````\n</details>\n");
        body.push_str(&format!(
            "{}\n{}\n",
            markers::SUMMARY,
            markers::round(3, "abc")
        ));
        let fitted = fit(&body);
        let chars = fitted.chars().count();
        assert!(chars <= BUDGET, "{chars}");
        assert!(fitted.starts_with("> [!CAUTION]"));
        assert!(
            fitted.contains("GitHub takes at most 65536"),
            "the cut is said"
        );
        assert!(markers::has(&fitted, markers::SUMMARY));
        assert!(markers::has(&fitted, &markers::round(3, "abc")));
        // The open fence (four backticks: the code holds three) and <details> are closed
        // before the note.
        let note = fitted.find("> [!NOTE]").unwrap();
        let before = &fitted[..note];
        assert!(
            before.ends_with("````\n\n</details>\n\n"),
            "{}",
            &before[before.len() - 80..]
        );
        assert_eq!(
            before.matches("<details>").count(),
            before.matches("</details>").count()
        );
        // Fitting a fitted body changes nothing.
        assert_eq!(fit(&fitted), fitted);
    }

    #[test]
    fn one_huge_line_is_cut_inside_and_a_cut_suggestion_goes_whole() {
        let line = "é".repeat(100_000);
        let fitted = fit(&format!(
            "**P2** title\n\n{line}\n\n{}\n",
            markers::fingerprint("00aa")
        ));
        assert!(fitted.chars().count() <= BUDGET);
        assert!(fitted.contains("éé…\n"), "as much of the line as fits");
        assert_eq!(markers::fingerprint_in(&fitted), Some("00aa"));

        let mut suggestion = String::from("**P1** title\n\n```suggestion\n");
        for i in 0..10_000 {
            suggestion.push_str(&format!("let replacement_{i} = {i};\n"));
        }
        suggestion.push_str("```\n\n— review-tui\n");
        suggestion.push_str(&markers::fingerprint("00bb"));
        let fitted = fit(&suggestion);
        assert!(!fitted.contains("suggestion"), "no half suggestion");
        assert!(!fitted.contains("replacement_"), "{fitted}");
        assert!(
            fitted.starts_with("**P1** title\n\n\n> [!NOTE]"),
            "{fitted}"
        );
        assert_eq!(markers::fingerprint_in(&fitted), Some("00bb"));
    }
}
