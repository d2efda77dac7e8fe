//! Which secret rules a round runs, following gitleaks' conventions:
//! 1. a configuration the user points at (gitleaks' own variables: `GITLEAKS_CONFIG`, a path,
//!    or `GITLEAKS_CONFIG_TOML`, the text; else `[secrets] gitleaks_config` in the user's
//!    config file), which then stands instead of the repository's;
//! 2. otherwise the repository's `.gitleaks.toml` **as it is on the base branch** (a pull request
//!    must not rewrite its own scan), extending the default set (`[extend] useDefault`) or
//!    replacing gitleaks' rules;
//! 3. otherwise the default set: gitleaks' default rules plus the built-ins.
//!
//! The base branch's `.gitleaksignore` silences the findings it names. Redaction is not
//! configurable away: it always uses the default set plus whatever rules a configuration adds,
//! and no configuration's global allowlist.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use thiserror::Error;

use super::gitleaks_config::{default_scanner, load_gitleaks_config};
use super::ignore::{GITLEAKSIGNORE, parse_gitleaksignore};
use super::scanner::SecretScanner;

/// The repository's configuration file at its root, as gitleaks names it.
pub const GITLEAKS_TOML: &str = ".gitleaks.toml";
/// gitleaks' variable naming a configuration file.
pub const GITLEAKS_CONFIG_ENV: &str = "GITLEAKS_CONFIG";
/// gitleaks' variable holding a configuration's text.
pub const GITLEAKS_CONFIG_TOML_ENV: &str = "GITLEAKS_CONFIG_TOML";

#[derive(Debug, Error)]
pub enum SetupError {
    #[error("{origin}: could not read {path}: {source} (fix the path or unset {origin})")]
    Read {
        origin: String,
        path: String,
        #[source]
        source: std::io::Error,
    },
    #[error("{origin}: {reason} (fix the configuration or unset {origin})")]
    Invalid { origin: String, reason: String },
}

/// A configuration the user chose, outside any repository.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum UserConfig {
    /// `GITLEAKS_CONFIG`.
    Path(PathBuf),
    /// `GITLEAKS_CONFIG_TOML`.
    Text(String),
    /// A file named in the user's config file; `origin` says where (`config.toml [secrets]
    /// gitleaks_config`), for the messages.
    Configured { path: PathBuf, origin: String },
}

impl UserConfig {
    /// gitleaks' variables, the path first (as gitleaks reads them).
    pub fn from_env() -> Option<UserConfig> {
        let set = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty());
        if let Some(path) = set(GITLEAKS_CONFIG_ENV) {
            return Some(UserConfig::Path(PathBuf::from(path)));
        }
        set(GITLEAKS_CONFIG_TOML_ENV).map(|text| UserConfig::Text(text.to_string_lossy().into()))
    }

    /// The person's choice: gitleaks' variables win (they are gitleaks' own convention and the
    /// narrower scope), then the file their config file names.
    pub fn chosen(configured: Option<&(PathBuf, String)>) -> Option<UserConfig> {
        UserConfig::from_env().or_else(|| {
            configured.map(|(path, origin)| UserConfig::Configured {
                path: path.clone(),
                origin: origin.clone(),
            })
        })
    }

    fn origin(&self) -> &str {
        match self {
            UserConfig::Path(_) => GITLEAKS_CONFIG_ENV,
            UserConfig::Text(_) => GITLEAKS_CONFIG_TOML_ENV,
            UserConfig::Configured { origin, .. } => origin,
        }
    }
}

/// The scan and the redaction of one round.
#[derive(Debug, Clone)]
pub struct SecretSetup {
    /// What the secret scan reports with.
    pub scanner: SecretScanner,
    /// What every stored, shown or sent text is redacted with.
    pub redactor: Arc<SecretScanner>,
    /// Where the rules came from and what was not loaded, for the coverage notes.
    pub notes: Vec<String>,
}

impl Default for SecretSetup {
    fn default() -> Self {
        SecretSetup {
            scanner: default_scanner().clone(),
            redactor: Arc::new(default_scanner().clone()),
            notes: Vec::new(),
        }
    }
}

impl SecretSetup {
    /// The setup for a review of `base` in `repo` (the space's mirror), with the user's choice.
    /// A user configuration that cannot be used is an error: the person asked for it. A
    /// repository's file that cannot be used is a note, and the default set runs.
    pub fn load(
        base: Option<(&git2::Repository, &str)>,
        user: Option<&UserConfig>,
    ) -> Result<SecretSetup, SetupError> {
        let mut setup = SecretSetup::default();
        let blob = |name: &str| base.and_then(|(repo, sha)| blob_at(repo, sha, name));
        let config = match user {
            Some(user) => {
                let text = match user {
                    UserConfig::Path(path) | UserConfig::Configured { path, .. } => {
                        std::fs::read_to_string(path).map_err(|source| SetupError::Read {
                            origin: user.origin().into(),
                            path: path.display().to_string(),
                            source,
                        })?
                    }
                    UserConfig::Text(text) => text.clone(),
                };
                if blob(GITLEAKS_TOML).is_some() {
                    setup.notes.push(format!(
                        "the base branch's {GITLEAKS_TOML} was not used: {} chooses the secret \
                         rules",
                        user.origin()
                    ));
                }
                Some((text, user.origin().to_string(), true))
            }
            None => blob(GITLEAKS_TOML)
                .map(|text| (text, format!("{GITLEAKS_TOML} at the base revision"), false)),
        };
        if let Some((text, origin, strict)) = config {
            match load_gitleaks_config(&text) {
                Ok(loaded) => {
                    for problem in &loaded.problems {
                        let what = if problem.rule_dropped {
                            "not loaded"
                        } else {
                            "loaded in part"
                        };
                        setup.notes.push(format!(
                            "{origin}: rule {} {what}: {}",
                            problem.rule, problem.reason
                        ));
                    }
                    for note in &loaded.notes {
                        setup.notes.push(format!("{origin}: {note}"));
                    }
                    setup.notes.push(format!(
                        "secret rules from {origin}: {} rules",
                        loaded.scanner.rules().len()
                    ));
                    setup.redactor = Arc::new(union(default_scanner(), &loaded.scanner));
                    setup.scanner = loaded.scanner;
                }
                Err(e) if strict => {
                    return Err(SetupError::Invalid {
                        origin,
                        reason: e.to_string(),
                    });
                }
                Err(e) => setup
                    .notes
                    .push(format!("{origin} ignored, the default rules ran: {e}")),
            }
        }
        if let Some(text) = blob(GITLEAKSIGNORE) {
            let (entries, notes) = parse_gitleaksignore(&text);
            setup.notes.extend(notes);
            if !entries.is_empty() {
                setup.notes.push(format!(
                    "{GITLEAKSIGNORE} at the base revision: {} fingerprints honoured",
                    entries.len()
                ));
            }
            setup.scanner = setup.scanner.with_ignored(entries);
        }
        Ok(setup)
    }

    /// [`SecretSetup::load`] for a review space's mirror (`mirror`, a bare repository) at
    /// `base_sha`, with the user's choice (see [`UserConfig::chosen`]).
    pub fn for_space(
        mirror: &Path,
        base_sha: &str,
        user: Option<UserConfig>,
    ) -> Result<SecretSetup, SetupError> {
        match git2::Repository::open_bare(mirror) {
            Ok(repo) => SecretSetup::load(Some((&repo, base_sha)), user.as_ref()),
            Err(e) => {
                let mut setup = SecretSetup::load(None, user.as_ref())?;
                setup.notes.push(format!(
                    "{GITLEAKS_TOML} and {GITLEAKSIGNORE} not read: {}",
                    e.message()
                ));
                Ok(setup)
            }
        }
    }
}

/// The default set plus every rule `configured` adds (its rules with ids the default lacks, and
/// those that replace a default's, kept beside it), with the default's global allowlists only.
fn union(default: &SecretScanner, configured: &SecretScanner) -> SecretScanner {
    let mut rules = default.rules().to_vec();
    for rule in configured.rules() {
        let same = rules.iter().any(|r| {
            r.source_id == rule.source_id
                && r.regex.as_ref().map(|x| x.as_str()) == rule.regex.as_ref().map(|x| x.as_str())
        });
        if !same {
            rules.push(rule.clone());
        }
    }
    SecretScanner::new(rules, default.global_allowlists().to_vec())
}

/// A file's text at a commit, if it is there and is text.
fn blob_at(repo: &git2::Repository, sha: &str, name: &str) -> Option<String> {
    let oid = git2::Oid::from_str(sha).ok()?;
    let tree = repo.find_commit(oid).ok()?.tree().ok()?;
    let entry = tree.get_path(Path::new(name)).ok()?;
    let blob = repo.find_blob(entry.id()).ok()?;
    String::from_utf8(blob.content().to_vec()).ok()
}
