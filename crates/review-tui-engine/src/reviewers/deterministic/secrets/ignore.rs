//! `.gitleaksignore`: findings a repository has reviewed and accepted, one fingerprint a line,
//! as gitleaks writes them: `file:rule-id:line`, or `commit:file:rule-id:line` from a git scan.
//! `#` starts a comment. The file is read from the base branch, so a pull request cannot
//! silence its own findings.
//!
//! A commit in an entry is not compared: a diff's lines have no single commit, and an entry
//! names one place (file, rule, line) someone decided about. A file name may itself hold `:`;
//! the rule id and line are taken from the right.

use super::hit::SecretHit;

/// The file's name at the repository root.
pub const GITLEAKSIGNORE: &str = ".gitleaksignore";

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IgnoreEntry {
    pub path: String,
    /// gitleaks' rule id (our `secret/<id>` without the prefix).
    pub rule: String,
    pub line: u32,
}

impl IgnoreEntry {
    pub fn silences(&self, hit: &SecretHit) -> bool {
        self.line == hit.start_line && self.rule == hit.source_id && self.path == hit.path
    }
}

/// The entries of a `.gitleaksignore`, and a note for each line that is not one.
pub fn parse_gitleaksignore(text: &str) -> (Vec<IgnoreEntry>, Vec<String>) {
    let mut entries = Vec::new();
    let mut notes = Vec::new();
    for (number, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        match parse_line(line) {
            Some(entry) => entries.push(entry),
            None => notes.push(format!(
                "{GITLEAKSIGNORE} line {}: not a fingerprint (file:rule-id:line or \
                 commit:file:rule-id:line); ignored",
                number + 1
            )),
        }
    }
    (entries, notes)
}

fn parse_line(line: &str) -> Option<IgnoreEntry> {
    let mut parts = line.rsplitn(3, ':');
    let number: u32 = parts.next()?.trim().parse().ok()?;
    let rule = parts.next()?.trim();
    let mut path = parts.next()?.trim();
    // A leading commit (hex, followed by `:`) is dropped; see the module comment.
    if let Some((head, rest)) = path.split_once(':')
        && head.len() >= 7
        && head.bytes().all(|b| b.is_ascii_hexdigit())
    {
        path = rest;
    }
    let path = path.trim_start_matches("./");
    (!rule.is_empty() && !path.is_empty()).then(|| IgnoreEntry {
        path: path.to_string(),
        rule: rule.to_string(),
        line: number,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_fingerprint_forms_and_comments_parse() {
        let sha = "a".repeat(40);
        let text = format!(
            "# accepted\nconfig/app.env:config-password:3\n{sha}:src/a:b.rs:generic-api-key:12\n\nnonsense\n"
        );
        let (entries, notes) = parse_gitleaksignore(&text);
        assert_eq!(
            entries,
            vec![
                IgnoreEntry {
                    path: "config/app.env".into(),
                    rule: "config-password".into(),
                    line: 3
                },
                IgnoreEntry {
                    path: "src/a:b.rs".into(),
                    rule: "generic-api-key".into(),
                    line: 12
                },
            ]
        );
        assert_eq!(notes.len(), 1);
        assert!(notes[0].contains("line 5"), "{notes:?}");
    }
}
