//! A package's changelog as evidence of a release its tags do not show: a heading naming a
//! version, not marked unreleased, says that version shipped (crossbeam-queue 0.2.2 was
//! published from `# Version 0.2.2` with no `crossbeam-queue-0.2.2` tag; the last tag was
//! 0.2.1).

use super::visibility::Read;

/// The changelog files a package keeps beside its manifest, in the order they are tried.
const CHANGELOGS: [&str; 6] = [
    "CHANGELOG.md",
    "CHANGES.md",
    "HISTORY.md",
    "NEWS.md",
    "CHANGELOG",
    "CHANGES.rst",
];

/// The changelog in the folder `root` (`""`: the repository's root) whose heading names
/// `version` as released, if one does.
pub(crate) fn records_release(root: &str, version: &str, read: Read) -> Option<String> {
    let version = version.trim_start_matches('v');
    CHANGELOGS.iter().find_map(|file| {
        let path = if root.is_empty() {
            file.to_string()
        } else {
            format!("{root}/{file}")
        };
        let text = read(&path)?;
        text.lines()
            .any(|line| released_heading(line, version))
            .then_some(path)
    })
}

/// Whether `line` is a Markdown heading naming `version` whole (`# Version 0.2.2`, `## [0.2.2]
/// - 2020-02-17`, `## v0.2.2`), not marked as still to come (`## 0.2.2 (unreleased)`).
fn released_heading(line: &str, version: &str) -> bool {
    let Some(heading) = line.strip_prefix('#') else {
        return false;
    };
    let lower = heading.to_ascii_lowercase();
    let pending = [
        "unreleased",
        "upcoming",
        "not released",
        "not yet released",
        "in progress",
        "in development",
        "tbd",
        "tba",
        "next",
        "wip",
    ];
    if pending.iter().any(|word| lower.contains(word)) {
        return false;
    }
    heading.match_indices(version).any(|(at, _)| {
        let before = heading[..at].chars().next_back();
        let after = heading[at + version.len()..].chars().next();
        // Not a part of another version (`10.2.2`, `0.2.20`, `0.2.2-rc.1`).
        !before.is_some_and(|c| c.is_ascii_alphanumeric() && c != 'v' || c == '.')
            && !after.is_some_and(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '+'))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_heading_naming_the_version_records_its_release() {
        for line in [
            "# Version 0.2.2",
            "## [0.2.2] - 2020-02-17",
            "## v0.2.2",
            "### 0.2.2 (2020-02-17)",
        ] {
            assert!(released_heading(line, "0.2.2"), "{line}");
        }
        for line in [
            "## 0.2.2 (unreleased)",
            "## [Unreleased] 0.2.2",
            "# Version 10.2.2",
            "# Version 0.2.21",
            "# Version 0.2.2-rc.1",
            "- Fix 0.2.2 regression",
            "## 0.2.2 - TBD",
        ] {
            assert!(!released_heading(line, "0.2.2"), "{line}");
        }
        let read = |path: &str| {
            (path == "crossbeam-queue/CHANGELOG.md")
                .then(|| "# Version 0.2.2\n\n- Fix unsoundness.\n\n# Version 0.2.1\n".to_string())
        };
        assert_eq!(
            records_release("crossbeam-queue", "0.2.2", &read).as_deref(),
            Some("crossbeam-queue/CHANGELOG.md")
        );
        assert_eq!(records_release("crossbeam-queue", "0.2.3", &read), None);
        assert_eq!(records_release("", "0.2.2", &read), None);
    }
}
