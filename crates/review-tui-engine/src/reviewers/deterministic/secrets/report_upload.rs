//! A CI report upload token in its reporting service's own configuration file: Codecov's
//! repository upload token under `codecov.token` of `codecov.yml`, Coveralls' `repo_token` of
//! `.coveralls.yml`. The services document these tokens as able only to upload the
//! repository's coverage reports (projects commit them so forks' CI can upload), so one is a
//! note advising a CI secret, not a leak. Only there: the same token in a workflow or in code,
//! another key of the file, a value not shaped like the service's token, or a provider's
//! token stays a leak, so a real secret cannot hide by being put under `token:`.

use super::hit::SecretHit;

/// A reporting service whose configuration file may hold its upload token.
pub(super) struct ReportService {
    /// The service's name, for the note.
    pub name: &'static str,
    /// Its configuration file's names.
    files: &'static [&'static str],
    /// The folders it reads the file from (`""` for the root).
    dirs: &'static [&'static str],
    /// The YAML keys, outermost first, that hold the token.
    key: &'static [&'static str],
    /// Whether a value is shaped like the service's token.
    shaped: fn(&str) -> bool,
}

/// Codecov reads `codecov.yml` or `.codecov.yml` from the root, `dev/` or `.github/`; its
/// upload tokens are UUIDs. Coveralls reads `.coveralls.yml` from the root; its repo tokens
/// are runs of letters and digits.
const SERVICES: &[ReportService] = &[
    ReportService {
        name: "Codecov",
        files: &[
            "codecov.yml",
            ".codecov.yml",
            "codecov.yaml",
            ".codecov.yaml",
        ],
        dirs: &["", "dev/", ".github/"],
        key: &["codecov", "token"],
        shaped: uuid,
    },
    ReportService {
        name: "Coveralls",
        files: &[".coveralls.yml"],
        dirs: &[""],
        key: &["repo_token"],
        shaped: |value| {
            (20..=64).contains(&value.len()) && value.chars().all(|c| c.is_ascii_alphanumeric())
        },
    },
];

/// `8-4-4-4-12` hexadecimal digits.
fn uuid(value: &str) -> bool {
    let groups: Vec<&str> = value.split('-').collect();
    groups.len() == 5
        && groups
            .iter()
            .zip([8, 4, 4, 4, 12])
            .all(|(group, len)| group.len() == len && group.chars().all(|c| c.is_ascii_hexdigit()))
}

/// The reporting service whose configuration file `path` is.
pub(super) fn service_config(path: &str) -> Option<&'static ReportService> {
    SERVICES.iter().find(|service| {
        service.dirs.iter().any(|dir| {
            service
                .files
                .iter()
                .any(|file| path == format!("{dir}{file}"))
        })
    })
}

impl SecretHit {
    /// The reporting service whose upload token this generic hit (a rule that knows no
    /// provider's format) is, read in `text`, the head text of its file: the file is the
    /// service's configuration file, the hit's line sits under the key the service documents,
    /// and its value is shaped like the service's token.
    pub(super) fn report_upload_token(&self, text: &str) -> Option<&'static ReportService> {
        if !self.generic() || self.side != crate::diff::Side::Right {
            return None;
        }
        let service = service_config(&self.path)?;
        let lines: Vec<&str> = text.lines().collect();
        let at = usize::try_from(self.start_line).ok()?.checked_sub(1)?;
        let (keys, value) = yaml_key_path(&lines, at)?;
        (keys == service.key && (service.shaped)(&value)).then_some(service)
    }
}

/// The keys, outermost first, of the block-style YAML mapping entry on line `at` of `lines`
/// and its scalar value (unquoted, a trailing comment dropped); none when the line holds no
/// `key: value` entry or a parent is not a plain `key:` line.
fn yaml_key_path(lines: &[&str], at: usize) -> Option<(Vec<String>, String)> {
    let line = lines.get(at)?;
    let (key, rest) = entry(line)?;
    let value = rest.split(" #").next().unwrap_or("").trim();
    let value = value.trim_matches(['"', '\'']).to_string();
    if value.is_empty() {
        return None;
    }
    let mut keys = vec![key];
    let mut indent = indentation(line);
    for above in lines[..at].iter().rev() {
        let trimmed = above.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') || indentation(above) >= indent {
            continue;
        }
        let (parent, rest) = entry(above)?;
        let rest = rest.split(" #").next().unwrap_or("").trim();
        if !rest.is_empty() {
            return None;
        }
        keys.insert(0, parent);
        indent = indentation(above);
        if indent == 0 {
            break;
        }
    }
    (indent == 0).then_some((keys, value))
}

/// A `key: rest` line's key and the text after its colon.
fn entry(line: &str) -> Option<(String, &str)> {
    let (key, rest) = line.trim().split_once(':')?;
    let key = key.trim_matches(['"', '\'']);
    let plain = !key.is_empty()
        && key
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-'));
    (plain && (rest.is_empty() || rest.starts_with([' ', '\t']))).then(|| (key.to_string(), rest))
}

fn indentation(line: &str) -> usize {
    line.len() - line.trim_start().len()
}
