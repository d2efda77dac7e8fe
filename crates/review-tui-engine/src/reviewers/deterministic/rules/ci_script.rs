//! The shell script a line of a CI configuration runs in, and what the CI runner has set
//! before that script starts.
//!
//! A GitHub workflow step's `run: |` block is a shell of its own, as is a one-line `run:`
//! (any YAML file's `run: |` block is read so, as before). GitLab CI (`script:`,
//! `before_script:`, `after_script:`), Travis CI (`install:`, `script:` and the other phases)
//! and Cirrus CI (`script:`, any `…_script:`) list commands: the list holding the line is its script, one command an item, a
//! literal block (`- |`) its lines. An item this reading does not follow (a quoted scalar
//! spread over lines, a tag such as `!reference`, an alias, a flow collection) leaves the line
//! unread.
//!
//! The runner sets some variables non-empty before any script: the home directory, and its
//! own workspace and temporary folders (`GITHUB_WORKSPACE`, `RUNNER_TEMP`, `CI_PROJECT_DIR`,
//! `TRAVIS_BUILD_DIR`, `CIRRUS_WORKING_DIR`…). Each counts as set unless the file itself
//! names it where a value is given (a YAML key `HOME:` of an `env:` or `variables:` map,
//! `HOME=` anywhere: in a Travis `env:` list, or written to `$GITHUB_ENV` by an earlier
//! step), which may empty it.

use std::collections::HashMap;
use std::ops::Range;
use std::sync::LazyLock;

use regex::Regex;

/// A workflow step's literal block: `run: |` (a folded `>` joins lines into one command).
static RUN_BLOCK: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^\s*(?:-\s+)?run\s*:\s*\|[-+0-9]*\s*(?:#.*)?$").expect("valid regex")
});

/// A one-line `run: command`.
static RUN_LINE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^\s*(?:-\s+)?run\s*:\s+(?P<command>[^|>\s#].*)$").expect("valid regex")
});

/// A list item: its indentation, and what follows the dash.
static ITEM: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^(?P<indent>\s*)-(?:\s+(?P<rest>.*))?$").expect("valid regex"));

/// A plain scalar that is a mapping's key instead (`- name: x`).
static MAPPING_KEY: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^[\w.-]+\s*:(?:\s|$)").expect("valid regex"));

/// Each runner's variables, by the runner's key.
static RUNNER_VARIABLES: LazyLock<HashMap<String, Vec<String>>> = LazyLock::new(|| {
    toml::from_str(include_str!(concat!(
        concat!(env!("CARGO_MANIFEST_DIR"), "/../.."),
        "/assets/ci/runner-variables.toml"
    )))
    .unwrap_or_default()
});

/// Which CI a file configures.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Runner {
    GitHub,
    GitLab,
    Travis,
    Cirrus,
}

impl Runner {
    fn of(path: &str) -> Option<Runner> {
        let name = path.rsplit('/').next().unwrap_or(path);
        let yaml = name.ends_with(".yml") || name.ends_with(".yaml");
        if path.starts_with(".github/workflows/") || name == "action.yml" || name == "action.yaml" {
            Some(Runner::GitHub)
        } else if name.ends_with(".gitlab-ci.yml")
            || (yaml && (path.starts_with(".gitlab/") || path.contains("/.gitlab/")))
        {
            Some(Runner::GitLab)
        } else if name == ".travis.yml" {
            Some(Runner::Travis)
        } else if name == ".cirrus.yml" || name == ".cirrus.yaml" {
            Some(Runner::Cirrus)
        } else {
            None
        }
    }

    /// The variables the runner sets non-empty before a job's scripts run (a data file of
    /// the catalog: `assets/ci/runner-variables.toml`).
    fn sets(self) -> &'static [String] {
        let key = match self {
            Runner::GitHub => "github",
            Runner::GitLab => "gitlab",
            Runner::Travis => "travis",
            Runner::Cirrus => "cirrus",
        };
        RUNNER_VARIABLES.get(key).map_or(&[], Vec::as_slice)
    }

    /// Whether the list under `key` is commands.
    fn runs(self, key: &str) -> bool {
        match self {
            Runner::GitHub => false,
            Runner::GitLab => ["before_script", "script", "after_script"].contains(&key),
            Runner::Travis => [
                "before_install",
                "install",
                "before_script",
                "script",
                "after_success",
                "after_failure",
                "after_script",
                "before_cache",
                "before_deploy",
                "after_deploy",
            ]
            .contains(&key),
            // `script:`, and any `name_script:` (`test_script:`, `before_cache_script:`).
            Runner::Cirrus => key == "script" || key.ends_with("_script"),
        }
    }
}

/// The script holding a line of a CI file.
pub(super) struct CiScript {
    /// Its lines, as the shell reads them.
    pub lines: Vec<String>,
    /// The line asked about, among them.
    pub at: usize,
    /// The variables the runner has set non-empty when it starts, the file leaving them be.
    pub preset: Vec<&'static str>,
}

/// The script line `at` (0-based) of the YAML file `lines` at `path` runs in, when it is one
/// this reading follows.
pub(super) fn script_at(lines: &[&str], path: &str, at: usize) -> Option<CiScript> {
    let runner = Runner::of(path);
    let (script, at) = if let Some(range) = run_block(lines, at) {
        let script = lines[range.clone()].iter().map(|l| l.to_string()).collect();
        (script, at - range.start)
    } else if let Some(found) = RUN_LINE.captures(lines[at]).filter(|_| runner.is_some()) {
        (vec![unquoted(found["command"].trim_end())?], 0)
    } else {
        listed_script(lines, at, runner?)?
    };
    let preset = runner
        .map(|runner| runner.sets())
        .unwrap_or_default()
        .iter()
        .map(String::as_str)
        .filter(|name| !gives_value(lines, name))
        .collect();
    Some(CiScript {
        lines: script,
        at,
        preset,
    })
}

/// Whether any line of the file names `name` where a value is given to it: a key (`NAME:`) or
/// an assignment (`NAME=`), not an expansion (`$NAME:`, `${NAME:-x}`).
fn gives_value(lines: &[&str], name: &str) -> bool {
    let Ok(given) = Regex::new(&format!(r"(?:^|[^\w${{]){}\s*[:=]", regex::escape(name))) else {
        return true;
    };
    lines.iter().any(|line| given.is_match(line))
}

/// The lines of the `run: |` block holding line `at`: below a header less indented than every
/// line between it and `at`, and on while lines are blank or more indented than the header.
fn run_block(lines: &[&str], at: usize) -> Option<Range<usize>> {
    let mut least = indent(lines[at]);
    let mut header = None;
    for i in (0..at).rev() {
        let text = lines[i];
        if text.trim().is_empty() || indent(text) >= least {
            continue;
        }
        if RUN_BLOCK.is_match(text) {
            header = Some(i);
            break;
        }
        least = indent(text);
    }
    let header = header?;
    let depth = indent(lines[header]);
    let end = (header + 1..lines.len())
        .find(|&i| !lines[i].trim().is_empty() && indent(lines[i]) <= depth)
        .unwrap_or(lines.len());
    Some(header + 1..end)
}

fn indent(text: &str) -> usize {
    text.len() - text.trim_start().len()
}

/// The commands of the list, under a key whose list `runner` runs, holding line `at`, as
/// script lines, and which of them holds `at`.
fn listed_script(lines: &[&str], at: usize, runner: Runner) -> Option<(Vec<String>, usize)> {
    let header = list_header(lines, at, runner)?;
    let mut script = Vec::new();
    let mut target = None;
    let mut i = next_content(lines, header + 1)?;
    let depth = indent(lines[i]);
    if depth < indent(lines[header]) {
        return None;
    }
    while i < lines.len() {
        let found = ITEM
            .captures(lines[i])
            .filter(|_| indent(lines[i]) == depth);
        let Some(found) = found else {
            break;
        };
        let end = (i + 1..lines.len())
            .find(|&j| !lines[j].trim().is_empty() && indent(lines[j]) <= depth)
            .unwrap_or(lines.len());
        let rest = found.name("rest").map_or("", |m| m.as_str()).trim_end();
        let item = Item {
            first: rest,
            more: &lines[i + 1..end],
        };
        let commands = item.commands()?;
        if (i..end).contains(&at) {
            // A block's lines are the script's lines one for one; any other item is one line.
            let within = if commands.len() > 1 || rest.starts_with('|') {
                at.checked_sub(i + 1)?
            } else {
                0
            };
            target = Some(script.len() + within.min(commands.len().saturating_sub(1)));
        }
        script.extend(commands);
        i = match next_content(lines, end) {
            Some(next) => next,
            None => break,
        };
    }
    Some((script, target?))
}

/// The nearest line above `at` that opens a mapping key whose list `runner` runs, with
/// nothing after the colon.
fn list_header(lines: &[&str], at: usize, runner: Runner) -> Option<usize> {
    (0..at).rev().find(|&i| {
        let text = lines[i].trim_start();
        let text = text.strip_prefix("- ").unwrap_or(text).trim_end();
        let text = text.split(" #").next().unwrap_or(text).trim_end();
        text.strip_suffix(':')
            .is_some_and(|key| runner.runs(key.trim_end()))
            && indent(lines[i]) <= indent(lines[at])
    })
}

/// The first line from `from` that is neither blank nor a comment.
fn next_content(lines: &[&str], from: usize) -> Option<usize> {
    (from..lines.len()).find(|&i| {
        let text = lines[i].trim();
        !text.is_empty() && !text.starts_with('#')
    })
}

/// One item of a command list: what follows its dash, and the lines below it.
struct Item<'l> {
    first: &'l str,
    more: &'l [&'l str],
}

impl Item<'_> {
    /// The shell lines the item runs; None for a form this reading does not follow.
    fn commands(&self) -> Option<Vec<String>> {
        let first = self.first;
        match first.chars().next() {
            // A literal block: its lines, less their common indentation.
            Some('|') => {
                let shift = self
                    .more
                    .iter()
                    .filter(|l| !l.trim().is_empty())
                    .map(|l| indent(l))
                    .min()
                    .unwrap_or(0);
                Some(
                    self.more
                        .iter()
                        .map(|l| l.get(shift..).unwrap_or("").to_string())
                        .collect(),
                )
            }
            // A folded block or a plain scalar over several lines: one line, joined by spaces.
            Some('>') => Some(vec![self.joined(&[])]),
            Some('\'' | '"') if self.more.iter().all(|l| l.trim().is_empty()) => {
                Some(vec![unquoted(first)?])
            }
            Some('\'' | '"' | '!' | '*' | '&' | '{' | '[' | '?' | '@' | '`') => None,
            None => None,
            Some(_) if MAPPING_KEY.is_match(first) => None,
            Some(_) => Some(vec![self.joined(&[first])]),
        }
    }

    fn joined(&self, head: &[&str]) -> String {
        head.iter()
            .copied()
            .chain(self.more.iter().map(|l| l.trim()))
            .filter(|l| !l.is_empty())
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// A one-line scalar without its YAML quotes: `'…'` with `''` for a quote, `"…"` without
/// escapes; a plain scalar as it is. None for a quoted one this reading does not follow.
fn unquoted(scalar: &str) -> Option<String> {
    let inner = |quote: char| {
        scalar
            .strip_prefix(quote)
            .and_then(|s| s.strip_suffix(quote))
            .filter(|s| !s.is_empty() || scalar.len() >= 2)
    };
    match scalar.chars().next() {
        Some('\'') => inner('\'').map(|s| s.replace("''", "'")),
        Some('"') => inner('"')
            .filter(|s| !s.contains(['\\', '"']))
            .map(str::to_string),
        _ => Some(scalar.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn script(
        text: &str,
        path: &str,
        at: usize,
    ) -> Option<(Vec<String>, usize, Vec<&'static str>)> {
        let lines: Vec<&str> = text.lines().collect();
        script_at(&lines, path, at).map(|s| (s.lines, s.at, s.preset))
    }

    #[test]
    fn a_gitlab_script_list_is_the_script_of_its_items() {
        let text = "build:\n  script:\n    - export DIR=/opt/x\n    - |\n      if true; then\n        rm -rf \"$DIR/y\"\n      fi\n    - 'echo ''done'''\n";
        let (lines, at, preset) = script(text, ".gitlab-ci.yml", 5).unwrap();
        assert_eq!(
            lines,
            [
                "export DIR=/opt/x",
                "if true; then",
                "  rm -rf \"$DIR/y\"",
                "fi",
                "echo 'done'"
            ]
        );
        assert_eq!(at, 2);
        assert_eq!(preset, ["HOME", "CI_PROJECT_DIR", "CI_BUILDS_DIR"]);
    }

    #[test]
    fn a_travis_phase_list_at_the_keys_own_indentation_is_read() {
        let text = "language: go\ninstall:\n- rm -rf \"$HOME/.cache/x\"\n- go get ./...\n";
        let (lines, at, _) = script(text, ".travis.yml", 2).unwrap();
        assert_eq!(lines, ["rm -rf \"$HOME/.cache/x\"", "go get ./..."]);
        assert_eq!(at, 0);
    }

    #[test]
    fn every_runners_variables_are_read_from_the_data_file() {
        for runner in [
            Runner::GitHub,
            Runner::GitLab,
            Runner::Travis,
            Runner::Cirrus,
        ] {
            assert!(
                runner.sets().len() >= 2 && runner.sets().iter().any(|v| v == "HOME"),
                "{runner:?}"
            );
        }
    }

    #[test]
    fn a_cirrus_named_script_is_a_command_list() {
        let text = "task:\n  test_script:\n    - . $HOME/.cargo/env\n  before_cache_script:\n    - rm -rf $HOME/.cargo/registry/index\n";
        let (lines, at, preset) = script(text, ".cirrus.yml", 4).unwrap();
        assert_eq!(lines, ["rm -rf $HOME/.cargo/registry/index"]);
        assert_eq!(at, 0);
        assert_eq!(preset, ["HOME", "CIRRUS_WORKING_DIR"]);
    }

    #[test]
    fn an_item_this_reading_does_not_follow_leaves_the_list_unread() {
        let text = "job:\n  script:\n    - !reference [.setup, script]\n    - rm -rf \"$HOME/x\"\n";
        assert!(script(text, ".gitlab-ci.yml", 3).is_none());
        // A list under another key is no script; nor is a list in a file of no CI.
        let text = "job:\n  tags:\n    - rm -rf \"$HOME/x\"\n";
        assert!(script(text, ".gitlab-ci.yml", 2).is_none());
        let text = "script:\n  - rm -rf \"$HOME/x\"\n";
        assert!(script(text, "config/tasks.yml", 1).is_none());
    }

    #[test]
    fn a_runner_variable_the_file_gives_a_value_is_not_preset() {
        let text =
            "jobs:\n  a:\n    env:\n      HOME: ''\n    steps:\n      - run: rm -rf \"$HOME/x\"\n";
        let (_, _, preset) = script(text, ".github/workflows/ci.yml", 5).unwrap();
        assert!(!preset.contains(&"HOME"));
        let text =
            "steps:\n  - run: echo \"HOME=\" >> \"$GITHUB_ENV\"\n  - run: rm -rf \"$HOME/x\"\n";
        let (_, _, preset) = script(text, ".github/workflows/ci.yml", 2).unwrap();
        assert!(!preset.contains(&"HOME") && preset.contains(&"GITHUB_ENV"));
        let text = "steps:\n  - run: rm -rf \"${HOME:-/tmp}/x\" \"$HOME:x\"\n";
        let (_, _, preset) = script(text, ".github/workflows/ci.yml", 1).unwrap();
        assert!(preset.contains(&"HOME"));
    }
}
