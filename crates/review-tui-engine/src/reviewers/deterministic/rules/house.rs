//! What the house asks. Some rules stand for a lint the language's own linter keeps in its
//! opt-in group: clippy's `restriction` lints (`undocumented_unsafe_blocks`, `panic`,
//! `expect_used`, `print_stdout`), ESLint's `no-console` (out of `recommended`), ruff's and
//! flake8-print's `T20`. A project that has not switched the lint on has decided the question,
//! and asking it on each of its changes is noise (on repositories never swept before, 14 of 91
//! unsafe-block findings, 0 of 11 panics, 0 of 4 expects and 0 of 10 `console.log`s were worth
//! a reviewer's time). Such a rule names its counterparts (`asked_by`) and fires where the
//! project asks: its lint configuration enables one of them, or, for a rule with a
//! `house_marker`, the file's other matches mostly carry the marker (a file whose `unsafe`
//! blocks carry `// SAFETY:` comments asks one of the next block too).
//!
//! The configuration is read at the head, in the worktree: a change that switches the lint on
//! is asked at once. Without a worktree nothing can be read and the rule fires, as it did
//! before. A configuration that does not parse asks nothing; it never fails the review.

use std::collections::{BTreeSet, HashMap};
use std::path::Path;
use std::sync::LazyLock;

use regex::Regex;

use super::counterpart::Counterpart;
use super::repo::Repo;
use crate::diff::FileDiff;

/// The answers, read once per rule and folder (lint configuration) or file (house style).
#[derive(Default)]
pub(super) struct House {
    texts: HashMap<String, Option<String>>,
    configured: HashMap<(usize, String), bool>,
    styled: HashMap<(usize, String), Vec<(u32, bool)>>,
    /// Per rule: how many matches stayed quiet because nothing asked.
    pub(super) quiet: HashMap<usize, usize>,
}

/// A rule's house settings, as the scan holds them.
pub(super) struct Asked<'r> {
    pub index: usize,
    pub counterparts: &'r [Counterpart],
    pub pattern: &'r Regex,
    pub marker: Option<&'r Regex>,
}

/// The house style is evident when more than this share of the file's other matches carry
/// the marker, and there are at least [`MIN_OTHERS`] of them: on the judged findings, files
/// whose other `unsafe` blocks mostly say `SAFETY:` are where a block without it was worth
/// asking about (crossbeam's `once_lock.rs`, parking_lot's `mutex.rs`); a file that says it on
/// half or fewer writes its reasons otherwise, or not at all.
const MARKED_SHARE: f64 = 0.5;
const MIN_OTHERS: usize = 2;

impl House {
    /// Whether the project asks `rule` of the added line `number` of `file`.
    pub(super) fn asks(
        &mut self,
        rule: &Asked<'_>,
        project: Repo<'_>,
        file: &FileDiff,
        number: u32,
    ) -> bool {
        let Some(root) = project.worktree else {
            return true;
        };
        let asked = (self.configured(rule, root, project.files, &file.path)
            || rule
                .marker
                .is_some_and(|marker| self.styled(rule, marker, root, &file.path, number)))
            && !self
                .read(root, &file.path)
                .is_some_and(|text| super::suppressed::suppressed(rule.counterparts, text, number));
        if !asked {
            *self.quiet.entry(rule.index).or_default() += 1;
        }
        asked
    }

    fn read(&mut self, root: &Path, path: &str) -> Option<&str> {
        self.texts
            .entry(path.to_string())
            .or_insert_with(|| {
                crate::space::worktree_file::read_at_most(root, path, MAX_CONFIG_BYTES)
                    .ok()
                    .flatten()
                    .and_then(|bytes| String::from_utf8(bytes).ok())
            })
            .as_deref()
    }

    /// Whether a lint configuration on the way from the file's folder up to the root enables
    /// one of the rule's counterparts.
    fn configured(
        &mut self,
        rule: &Asked<'_>,
        root: &Path,
        files: Option<&BTreeSet<String>>,
        path: &str,
    ) -> bool {
        let dir = parent(path).to_string();
        if let Some(&known) = self.configured.get(&(rule.index, dir.clone())) {
            return known;
        }
        let found = rule
            .counterparts
            .iter()
            .any(|counterpart| self.enables(counterpart, root, files, &dir));
        self.configured.insert((rule.index, dir), found);
        found
    }

    fn enables(
        &mut self,
        counterpart: &Counterpart,
        root: &Path,
        files: Option<&BTreeSet<String>>,
        dir: &str,
    ) -> bool {
        let folders = folders_up(dir);
        match counterpart {
            Counterpart::Clippy(name) => {
                let mut crate_root = None;
                for folder in &folders {
                    let manifest = join(folder, "Cargo.toml");
                    if let Some(text) = self.read(root, &manifest) {
                        crate_root.get_or_insert_with(|| folder.clone());
                        if manifest_enables(text, name) {
                            return true;
                        }
                    }
                }
                if let Some(folder) = crate_root {
                    for source in ["src/lib.rs", "src/main.rs"] {
                        if self
                            .read(root, &join(&folder, source))
                            .is_some_and(|text| attribute_enables(text, name))
                        {
                            return true;
                        }
                    }
                }
                let mut flags = vec![".cargo/config.toml".to_string(), ".cargo/config".into()];
                flags.extend(workflows(files));
                flags
                    .iter()
                    .any(|file| self.read(root, file).is_some_and(|t| flag_enables(t, name)))
            }
            Counterpart::Eslint(name) => {
                let enabled = rule_enabled(name);
                folders.iter().any(|folder| {
                    ESLINT_FILES.iter().any(|file| {
                        self.read(root, &join(folder, file))
                            .is_some_and(|text| enabled.is_match(text))
                    })
                })
            }
            Counterpart::Biome(name) => {
                let enabled = biome_enabled(name);
                folders.iter().any(|folder| {
                    ["biome.json", "biome.jsonc"].iter().any(|file| {
                        self.read(root, &join(folder, file))
                            .is_some_and(|text| enabled.is_match(text))
                    })
                })
            }
            Counterpart::Ruff(code) => folders.iter().any(|folder| {
                ["pyproject.toml", "ruff.toml", ".ruff.toml"]
                    .iter()
                    .any(|file| {
                        self.read(root, &join(folder, file))
                            .is_some_and(|text| ruff_selects(text, code))
                    })
                    || ["setup.cfg", "tox.ini", ".flake8"].iter().any(|file| {
                        self.read(root, &join(folder, file))
                            .is_some_and(|text| flake8_selects(text, code))
                    })
                    // flake8's plugins are on once installed: the pre-commit hook installs it.
                    || (code.starts_with("T20")
                        && self
                            .read(root, &join(folder, ".pre-commit-config.yaml"))
                            .is_some_and(|text| text.contains("flake8-print")))
            }),
        }
    }

    /// Whether the file's other matches of the rule mostly carry its marker.
    fn styled(
        &mut self,
        rule: &Asked<'_>,
        marker: &Regex,
        root: &Path,
        path: &str,
        number: u32,
    ) -> bool {
        let key = (rule.index, path.to_string());
        if !self.styled.contains_key(&key) {
            let matches = crate::space::worktree_file::read_at_most(root, path, MAX_SOURCE_BYTES)
                .ok()
                .flatten()
                .and_then(|bytes| String::from_utf8(bytes).ok())
                .map(|text| marked_matches(&text, rule.pattern, marker))
                .unwrap_or_default();
            self.styled.insert(key.clone(), matches);
        }
        let others: Vec<bool> = self.styled[&key]
            .iter()
            .filter(|(line, _)| *line != number)
            .map(|&(_, marked)| marked)
            .collect();
        let marked = others.iter().filter(|&&m| m).count();
        others.len() >= MIN_OTHERS && marked as f64 > others.len() as f64 * MARKED_SHARE
    }
}

/// Configuration files bigger than this are not lint configuration.
const MAX_CONFIG_BYTES: u64 = 512 * 1024;
/// Source files read for their house style at most.
const MAX_SOURCE_BYTES: u64 = 2 * 1024 * 1024;

/// ESLint's (and oxlint's, which reads the same rule names) configuration files.
const ESLINT_FILES: [&str; 15] = [
    ".eslintrc",
    ".eslintrc.js",
    ".eslintrc.cjs",
    ".eslintrc.mjs",
    ".eslintrc.json",
    ".eslintrc.yml",
    ".eslintrc.yaml",
    "eslint.config.js",
    "eslint.config.mjs",
    "eslint.config.cjs",
    "eslint.config.ts",
    "eslint.config.mts",
    "eslint.config.cts",
    "package.json",
    ".oxlintrc.json",
];

/// Each match of `pattern` on a line of code in `text` (1-based line), and whether its
/// paragraph carries `marker`: the line, the next one, and the lines above it up to a blank
/// line.
fn marked_matches(text: &str, pattern: &Regex, marker: &Regex) -> Vec<(u32, bool)> {
    let lines: Vec<&str> = text.lines().collect();
    let mut found = Vec::new();
    for (at, line) in lines.iter().enumerate() {
        let code = line.trim_start();
        if code.starts_with("//") || code.starts_with('*') || !pattern.is_match(line) {
            continue;
        }
        let above = lines[..at]
            .iter()
            .rev()
            .take_while(|l| !l.trim().is_empty());
        let marked = std::iter::once(line)
            .chain(lines.get(at + 1))
            .chain(above)
            .any(|l| marker.is_match(l));
        found.push((u32::try_from(at + 1).unwrap_or(u32::MAX), marked));
    }
    found
}

fn parent(path: &str) -> &str {
    path.rsplit_once('/').map_or("", |(dir, _)| dir)
}

fn join(folder: &str, file: &str) -> String {
    if folder.is_empty() {
        file.to_string()
    } else {
        format!("{folder}/{file}")
    }
}

/// `dir` and each folder above it, up to the root (`""`), nearest first.
fn folders_up(dir: &str) -> Vec<String> {
    let mut folders = vec![dir.to_string()];
    let mut at = dir;
    while !at.is_empty() {
        at = parent(at);
        folders.push(at.to_string());
    }
    folders
}

/// The CI workflow files, where `cargo clippy -- -D clippy::…` is often the only place a lint
/// is switched on.
fn workflows(files: Option<&BTreeSet<String>>) -> Vec<String> {
    files
        .into_iter()
        .flatten()
        .filter(|path| {
            path.starts_with(".github/workflows/")
                && (path.ends_with(".yml") || path.ends_with(".yaml"))
        })
        .take(50)
        .cloned()
        .collect()
}

/// A lint level that switches a lint on.
fn on(level: &str) -> bool {
    matches!(level.trim(), "warn" | "deny" | "forbid")
}

/// `[lints.clippy]` or `[workspace.lints.clippy]` of a Cargo manifest sets the lint, or the
/// `restriction` group it belongs to, to warn, deny or forbid.
fn manifest_enables(text: &str, name: &str) -> bool {
    let Ok(manifest) = text.parse::<toml::Table>() else {
        return false;
    };
    let tables = [
        manifest.get("lints"),
        manifest.get("workspace").and_then(|w| w.get("lints")),
    ];
    tables
        .into_iter()
        .flatten()
        .filter_map(|lints| lints.get("clippy").and_then(toml::Value::as_table))
        .any(|clippy| {
            clippy.iter().any(|(lint, value)| {
                let lint = lint.replace('-', "_");
                (lint == name || lint == "restriction")
                    && match value {
                        toml::Value::String(level) => on(level),
                        toml::Value::Table(table) => table
                            .get("level")
                            .and_then(toml::Value::as_str)
                            .is_some_and(on),
                        _ => false,
                    }
            })
        })
}

/// A crate-level `#![warn(…)]`/`#![deny(…)]`/`#![forbid(…)]` (also inside `cfg_attr`) naming
/// the lint or `clippy::restriction`.
fn attribute_enables(text: &str, name: &str) -> bool {
    static ATTRIBUTE: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"#!\[\s*(?:cfg_attr\s*\([^\]]*?)?\b(?:warn|deny|forbid)\s*\(([^)]*)\)")
            .expect("a valid regex")
    });
    ATTRIBUTE.captures_iter(text).any(|c| {
        c[1].split(',').map(str::trim).any(|lint| {
            lint.strip_prefix("clippy::")
                .is_some_and(|lint| lint == name || lint == "restriction")
        })
    })
}

/// `-D clippy::name` (or `-W`, `-F`, `--deny`, …) in rustflags or a clippy command line.
fn flag_enables(text: &str, name: &str) -> bool {
    Regex::new(&format!(
        r#"(?:-[DWF]|--deny|--warn|--forbid)[\s=]*["']?clippy::(?:{}|restriction)\b"#,
        regex::escape(name)
    ))
    .is_ok_and(|re| re.is_match(text))
}

/// An ESLint rule set to warn or error in a configuration's text, in any of its syntaxes:
/// `"no-console": "error"`, `'no-console': ['warn', {…}]`, `no-console: 2` (YAML).
fn rule_enabled(name: &str) -> Regex {
    Regex::new(&format!(
        r#"["']?\b{}["']?\s*:\s*\[?\s*(?:["'](?:warn|error)["']|[12]\b|(?:warn|error)\b)"#,
        regex::escape(name)
    ))
    .expect("an escaped name makes a valid regex")
}

/// A Biome rule set to a level that reports: `"noConsole": "error"` or `{ "level": "warn" }`.
fn biome_enabled(name: &str) -> Regex {
    Regex::new(&format!(
        r#"["']{}["']\s*:\s*(?:\{{[^}}]*["']level["']\s*:\s*)?["'](?:warn|error|info|on)["']"#,
        regex::escape(name)
    ))
    .expect("an escaped name makes a valid regex")
}

/// Whether a selector of ruff's or flake8's selects `code`: itself, a prefix of it, or `ALL`.
fn selects(selector: &str, code: &str) -> bool {
    let selector = selector.trim().to_ascii_uppercase();
    !selector.is_empty() && (selector == "ALL" || code.starts_with(&selector))
}

/// `select`/`extend-select` of ruff (`[tool.ruff]`, `[tool.ruff.lint]` of a pyproject, or the
/// top level and `[lint]` of `ruff.toml`) selects `code`.
fn ruff_selects(text: &str, code: &str) -> bool {
    let Ok(table) = text.parse::<toml::Table>() else {
        return false;
    };
    let ruff = table
        .get("tool")
        .and_then(|tool| tool.get("ruff"))
        .and_then(toml::Value::as_table)
        .unwrap_or(&table);
    let sections = [Some(ruff), ruff.get("lint").and_then(toml::Value::as_table)];
    sections.into_iter().flatten().any(|section| {
        ["select", "extend-select"].iter().any(|key| {
            section
                .get(*key)
                .and_then(toml::Value::as_array)
                .is_some_and(|selectors| {
                    selectors
                        .iter()
                        .filter_map(toml::Value::as_str)
                        .any(|s| selects(s, code))
                })
        })
    })
}

/// `select`/`extend-select` of a `[flake8]` section selects `code`.
fn flake8_selects(text: &str, code: &str) -> bool {
    let mut in_flake8 = false;
    let mut key_open = false;
    for line in text.lines() {
        let trimmed = line.trim();
        if trimmed.starts_with('[') {
            in_flake8 = trimmed == "[flake8]";
            key_open = false;
            continue;
        }
        if !in_flake8 || trimmed.starts_with('#') || trimmed.starts_with(';') {
            continue;
        }
        let values = match trimmed.split_once('=') {
            Some((key, values)) if !line.starts_with(char::is_whitespace) => {
                key_open = matches!(key.trim(), "select" | "extend-select");
                values
            }
            // A value continued on an indented line.
            _ if line.starts_with(char::is_whitespace) => trimmed,
            _ => {
                key_open = false;
                continue;
            }
        };
        if key_open
            && values
                .split(|c: char| c == ',' || c.is_whitespace())
                .any(|s| selects(s, code))
        {
            return true;
        }
    }
    false
}

/// Whether `text` (the `unsafe` block a match opens, or the matched lines) holds an operation
/// the rule asks about whatever the house (`anyway`). A match lying inside a match of `unless`
/// on its own line is no such operation: `let w: libc::winsize = mem::zeroed();` zeroes a C
/// plain-data type, for which all zero bytes is a valid value, where `mem::zeroed()` of a
/// Rust type (a reference, an enum, a `NonNull`) needs the invariant the rule asks for.
pub(super) fn asks_anyway(anyway: &Regex, unless: Option<&Regex>, text: &str) -> bool {
    text.lines().any(|line| {
        anyway.find_iter(line).any(|found| {
            !unless.is_some_and(|unless| {
                unless
                    .find_iter(line)
                    .any(|u| u.start() <= found.start() && found.end() <= u.end())
            })
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_operation_the_exception_covers_on_its_line_is_not_asked_anyway() {
        let anyway = Regex::new(r"\btransmute\b|\bmem::zeroed\b").unwrap();
        let unless = Regex::new(r":\s*[a-z_:]+\s*=\s*(?:std::)?mem::zeroed\(\)").unwrap();
        let c_zeroed = "unsafe {\n    let mut w: libc::winsize = std::mem::zeroed();\n}";
        assert!(!asks_anyway(&anyway, Some(&unless), c_zeroed));
        assert!(asks_anyway(&anyway, None, c_zeroed));
        // Another asked operation on the same line or in the block is still asked.
        let both = "let w: libc::winsize = mem::zeroed(); let k = transmute(w);";
        assert!(asks_anyway(&anyway, Some(&unless), both));
        let rust_type = "let p: NonNull<u8> = mem::zeroed();";
        assert!(asks_anyway(&anyway, Some(&unless), rust_type));
    }

    #[test]
    fn each_configuration_form_reads_the_lint_and_its_level() {
        assert!(manifest_enables(
            "[lints.clippy]\nundocumented_unsafe_blocks = \"deny\"\n",
            "undocumented_unsafe_blocks"
        ));
        assert!(manifest_enables(
            "[workspace.lints.clippy]\npanic = { level = \"warn\", priority = 1 }\n",
            "panic"
        ));
        assert!(manifest_enables(
            "[lints.clippy]\nrestriction = \"warn\"\n",
            "expect_used"
        ));
        assert!(!manifest_enables(
            "[lints.clippy]\npanic = \"allow\"\n",
            "panic"
        ));
        assert!(!manifest_enables(
            "[lints.clippy\npanic = \"deny\"",
            "panic"
        ));
        assert!(attribute_enables(
            "//! Docs\n#![deny(\n    missing_docs,\n    clippy::undocumented_unsafe_blocks,\n)]\n",
            "undocumented_unsafe_blocks"
        ));
        assert!(attribute_enables(
            "#![cfg_attr(not(test), warn(clippy::expect_used))]\n",
            "expect_used"
        ));
        assert!(!attribute_enables(
            "#![allow(clippy::panic)]\n#![deny(clippy::panicking_unwrap)]\n",
            "panic"
        ));
        assert!(flag_enables(
            "run: cargo clippy -- -D clippy::panic -D warnings\n",
            "panic"
        ));
        assert!(!flag_enables(
            "run: cargo clippy -- -A clippy::panic\n",
            "panic"
        ));

        let console = rule_enabled("no-console");
        assert!(console.is_match("rules: {\n  'no-console': ['warn', { allow: ['error'] }],\n}"));
        assert!(console.is_match("{\"rules\": {\"no-console\": 2}}"));
        assert!(console.is_match("rules:\n  no-console: error\n"));
        assert!(!console.is_match("{\"rules\": {\"no-console\": \"off\"}}"));
        assert!(biome_enabled("noConsole").is_match(
            "{\"linter\": {\"rules\": {\"suspicious\": {\"noConsole\": {\"level\": \"error\"}}}}}"
        ));

        assert!(ruff_selects(
            "[tool.ruff.lint]\nselect = [\"E\", \"T20\"]\n",
            "T201"
        ));
        assert!(ruff_selects(
            "[tool.ruff]\nextend-select = [\"ALL\"]\n",
            "T201"
        ));
        assert!(ruff_selects("[lint]\nselect = [\"T\"]\n", "T201"));
        assert!(!ruff_selects(
            "[tool.ruff.lint]\nselect = [\"E\", \"F\"]\n",
            "T201"
        ));
        assert!(!ruff_selects("[tool.ruff\nselect = [", "T201"));
        assert!(flake8_selects(
            "[metadata]\nname = x\n[flake8]\nmax-line-length = 99\nextend-select =\n    B950,\n    T201\n",
            "T201"
        ));
        assert!(!flake8_selects(
            "[flake8]\nignore = T201\n[other]\nselect = T201\n",
            "T201"
        ));
    }

    #[test]
    fn counterparts_are_named_tool_and_lint() {
        assert_eq!(
            Counterpart::parse("clippy::undocumented-unsafe-blocks"),
            Ok(Counterpart::Clippy("undocumented_unsafe_blocks".into()))
        );
        assert_eq!(
            Counterpart::parse("flake8:t201"),
            Ok(Counterpart::Ruff("T201".into()))
        );
        assert!(Counterpart::parse("pylint:W0101").is_err());
        assert!(Counterpart::parse("panic").is_err());
    }
}
