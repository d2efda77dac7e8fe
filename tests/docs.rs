//! The repository's text keeps its promises to a reader: every relative link in a Markdown file
//! leads somewhere (a file, and a heading when it names one), and no tracked text file holds a
//! path of someone's machine or words about how the project was worked on, which no reader can
//! follow. Both read the files git tracks (`git ls-files`), as a clone has them.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;

use regex::Regex;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The tracked files, relative to the root, that exist in this checkout.
fn tracked() -> Vec<PathBuf> {
    let out = Command::new("git")
        .args(["ls-files", "-z"])
        .current_dir(root())
        .output()
        .expect("git must be installed to run this test");
    assert!(out.status.success(), "git ls-files failed: {out:?}");
    out.stdout
        .split(|b| *b == 0)
        .filter(|name| !name.is_empty())
        .map(|name| PathBuf::from(String::from_utf8_lossy(name).into_owned()))
        .filter(|path| root().join(path).is_file())
        .collect()
}

/// A text file's contents; `None` for a binary one (it holds a NUL byte or is not UTF-8).
fn text(path: &Path) -> Option<String> {
    let bytes = std::fs::read(root().join(path)).ok()?;
    if bytes.contains(&0) {
        return None;
    }
    String::from_utf8(bytes).ok()
}

/// The lines of a Markdown text outside fenced code blocks, with their numbers, inline code
/// spans blanked (a link written as code is an example, not a link).
fn prose_lines(markdown: &str) -> Vec<(usize, String)> {
    let code_span = Regex::new(r"`+[^`]*`+").unwrap();
    let mut fence: Option<String> = None;
    let mut lines = Vec::new();
    for (i, line) in markdown.lines().enumerate() {
        let trimmed = line.trim_start();
        let marker: String = trimmed
            .chars()
            .take_while(|c| *c == '`' || *c == '~')
            .collect();
        if marker.len() >= 3 {
            match &fence {
                None => fence = Some(marker),
                Some(open) if marker.starts_with(open.as_str()) => fence = None,
                Some(_) => {}
            }
            continue;
        }
        if fence.is_none() {
            lines.push((i + 1, code_span.replace_all(line, "``").into_owned()));
        }
    }
    lines
}

/// The anchors GitHub gives a Markdown file's headings: lower case, punctuation dropped,
/// spaces as hyphens, `-1`, `-2` for repeats.
fn anchors(markdown: &str) -> BTreeSet<String> {
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    let mut out = BTreeSet::new();
    let mut fence = false;
    for line in markdown.lines() {
        if line.trim_start().starts_with("```") {
            fence = !fence;
            continue;
        }
        if fence || !line.starts_with('#') {
            continue;
        }
        let heading = line.trim_start_matches('#').trim();
        let slug: String = heading
            .to_lowercase()
            .chars()
            .filter(|c| c.is_alphanumeric() || *c == ' ' || *c == '-' || *c == '_')
            .map(|c| if c == ' ' { '-' } else { c })
            .collect();
        let n = seen.entry(slug.clone()).or_insert(0);
        out.insert(if *n == 0 {
            slug.clone()
        } else {
            format!("{slug}-{n}")
        });
        *n += 1;
    }
    out
}

#[test]
fn every_relative_link_in_the_markdown_files_resolves() {
    let link = Regex::new(r#"\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)"#).unwrap();
    let markdown: Vec<PathBuf> = tracked()
        .into_iter()
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    assert!(
        markdown.iter().any(|p| p == Path::new("README.md")),
        "README.md is not tracked"
    );
    let mut broken = Vec::new();
    let mut checked = 0;
    for file in &markdown {
        let Some(body) = text(file) else { continue };
        for (number, line) in prose_lines(&body) {
            for target in link.captures_iter(&line).map(|c| c[1].to_string()) {
                if target.contains("://") || target.starts_with("mailto:") {
                    continue;
                }
                checked += 1;
                let (path, anchor) = match target.split_once('#') {
                    Some((path, anchor)) => (path, Some(anchor)),
                    None => (target.as_str(), None),
                };
                let resolved = if path.is_empty() {
                    file.clone()
                } else {
                    file.parent().unwrap_or(Path::new("")).join(path)
                };
                let on_disk = root().join(&resolved);
                if !on_disk.exists() {
                    broken.push(format!(
                        "{}:{number}: {target} (no {})",
                        file.display(),
                        resolved.display()
                    ));
                    continue;
                }
                if let Some(anchor) = anchor
                    && on_disk.extension().is_some_and(|e| e == "md")
                {
                    let headings = anchors(&std::fs::read_to_string(&on_disk).unwrap());
                    if !headings.contains(anchor) {
                        broken.push(format!(
                            "{}:{number}: {target} (no heading #{anchor} in {})",
                            file.display(),
                            resolved.display()
                        ));
                    }
                }
            }
        }
    }
    assert!(
        checked > 20,
        "only {checked} links found: is the pattern right?"
    );
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

/// What no tracked text may hold. Written so that this file does not match itself.
fn forbidden() -> Vec<(Regex, &'static str)> {
    let patterns: [(String, &'static str); 7] = [
        (
            format!(r"(^|[^\w.~-])/{}/", "wor[k]"),
            "an absolute path of a development machine",
        ),
        (
            format!(r"(^|[^\w.~-])/(root|{})/", "tm[p]/bash_jobs"),
            "an absolute path of a development machine",
        ),
        (
            // A placeholder home (`/home/me/`, `/Users/you/`) is fine; a real one is not.
            format!(r"(^|[^\w.~-])/({})/[a-z][\w.-]*/", "hom[e]|User[s]"),
            "an absolute path of a person's home directory",
        ),
        (
            format!(r"(?i)\b{}\s+\d+\b", "sessio[n]"),
            "a numbered work session",
        ),
        (
            format!(
                r"(?i)\b(lead|helper)(['’]s)?\s+{}",
                "(sessio[n]|config|branch|helpe[r])"
            ),
            "words about how the project was worked on",
        ),
        (
            format!(r"(?i)\bfarm-{}", "(studi[o]|benc[h])"),
            "the name of a development tool",
        ),
        (
            format!(r"(?i)\b{}\b", "sweeps-[a-z0-9]+"),
            "a development machine's working directory",
        ),
    ];
    patterns
        .into_iter()
        .map(|(pattern, why)| (Regex::new(&pattern).unwrap(), why))
        .collect()
}

/// Whether `line` holds what `pattern` forbids; a placeholder home directory (`/home/me/`) in
/// an example is fine.
fn matches(pattern: &Regex, why: &str, line: &str) -> bool {
    pattern.find_iter(line).any(|m| {
        !(why.contains("home directory")
            && [
                "/home/me/",
                "/home/you/",
                "/home/user/",
                "/Users/me/",
                "/Users/you/",
            ]
            .iter()
            .any(|placeholder| m.as_str().ends_with(placeholder)))
    })
}

#[test]
fn no_tracked_text_names_a_machine_path_or_how_the_project_was_worked_on() {
    let rules = forbidden();
    let mut found = Vec::new();
    let mut read = 0;
    for file in tracked() {
        let Some(body) = text(&file) else { continue };
        read += 1;
        for (number, line) in body.lines().enumerate() {
            for (pattern, why) in &rules {
                if matches(pattern, why, line) {
                    let shown: String = line.trim().chars().take(160).collect();
                    found.push(format!("{}:{}: {why}: {shown}", file.display(), number + 1));
                }
            }
        }
    }
    assert!(read > 100, "only {read} tracked text files read");
    assert!(
        found.is_empty(),
        "{} lines:\n{}",
        found.len(),
        found.join("\n")
    );
}

#[test]
fn the_patterns_catch_what_they_are_for() {
    let rules = forbidden();
    let caught = |line: &str| rules.iter().any(|(p, why)| matches(p, why, line));
    for bad in [
        format!("see /{}/repos/tokio", "work"),
        format!("(`/{}/sweeps/judged.md`)", "work"),
        format!("measured in {} 13", "session"),
        format!("the {} config points", "lead's"),
        format!("/home/{}/src/app", "alice"),
    ] {
        assert!(caught(&bad), "not caught: {bad}");
    }
    for fine in [
        "review-tui ~/src/app#main..feature",
        "config.apply(layer, \"/home/me/.config/review-tui/config.toml\")",
        "the lead's walkthrough and the session's snapshot",
        "the user's data directory (`~/.local/share/review-tui`)",
        "https://github.com/rust-lang/rust/pull/123",
    ] {
        assert!(!caught(fine), "caught, but fine: {fine}");
    }
}
