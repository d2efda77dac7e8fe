//! Every text a reviewer writes into a finding or about one is capped where it enters the board:
//! a 10 MB evidence field is a reviewer filling the state, the reports and every later prompt,
//! not evidence. What is cut says so, and how much was cut.

use super::node::ReviewNode;

/// The most characters one field keeps: pages of evidence, never a file.
pub(crate) const MAX_FIELD_CHARS: usize = 8_000;
/// The most lines a suggested replacement keeps.
pub(crate) const MAX_REPLACEMENT_LINES: usize = 400;

/// Cuts `text` to [`MAX_FIELD_CHARS`], marking the cut. Returns whether it cut.
pub(crate) fn cap(text: &mut String) -> bool {
    cap_to(text, MAX_FIELD_CHARS)
}

fn cap_to(text: &mut String, max_chars: usize) -> bool {
    let Some((end, _)) = text.char_indices().nth(max_chars) else {
        return false;
    };
    let cut = text[end..].chars().count();
    text.truncate(end);
    text.push_str(&format!("… (truncated: {cut} more characters)"));
    true
}

/// Caps every text field of a finding: its reasoning, words, fix, rescore and root cause.
pub(crate) fn cap_node(node: &mut ReviewNode) {
    for text in [
        &mut node.reasoning,
        &mut node.text.title,
        &mut node.text.body,
        &mut node.text.evidence,
        &mut node.text.impact,
        &mut node.text.verification,
    ] {
        cap(text);
    }
    if let Some(rule) = &mut node.rule {
        cap_to(rule, 200);
    }
    if let Some(fix) = &mut node.fix {
        for text in [&mut fix.diff, &mut fix.prompt].into_iter().flatten() {
            cap(text);
        }
        if let Some(lines) = &mut fix.replacement {
            if lines.len() > MAX_REPLACEMENT_LINES {
                let cut = lines.len() - MAX_REPLACEMENT_LINES;
                lines.truncate(MAX_REPLACEMENT_LINES);
                // A replacement that was cut would replace the anchored lines with part of one:
                // it is no longer offered as a one-click suggestion.
                fix.replacement = None;
                let note = format!("(a replacement of {cut} more lines than kept was removed)");
                match &mut fix.prompt {
                    Some(prompt) => prompt.push_str(&format!(" {note}")),
                    None => fix.prompt = Some(note),
                }
            } else if lines.iter_mut().fold(false, |cut, line| cap(line) | cut) {
                fix.replacement = None;
            }
        }
    }
    for stance in node
        .confirmations
        .iter_mut()
        .chain(node.disputes.iter_mut())
    {
        cap(&mut stance.note);
    }
    if let Some(cause) = &mut node.root_cause {
        cap(cause);
    }
    if let Some(scoring) = &mut node.scoring {
        cap(&mut scoring.reasoning);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::review::node::Priority;
    use crate::review::tests::node;

    #[test]
    fn a_long_field_is_cut_and_says_so_a_short_one_is_untouched() {
        let mut n = node("a", "engineer", Priority::P0, 0.9);
        n.text.evidence = "é".repeat(10 * 1024 * 1024);
        n.text.impact = "short".into();
        cap_node(&mut n);
        assert!(n.text.evidence.chars().count() < MAX_FIELD_CHARS + 60);
        assert!(n.text.evidence.ends_with(&format!(
            "… (truncated: {} more characters)",
            10 * 1024 * 1024 - MAX_FIELD_CHARS
        )));
        assert_eq!(n.text.impact, "short");
    }
}
