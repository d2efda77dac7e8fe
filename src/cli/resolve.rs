//! The command line resolved once, as ripgrep turns its arguments into one `HiArgs`: every flag
//! of a review is checked before anything is fetched, written or spent (a typo found after a
//! ten-minute review costs the review), and what checking it produced is kept — the PR's
//! reference, the user's config file, the budget, the model reviewers' durations — so no
//! command parses a flag or reads the config file again.

use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::cli::{Cli, ReportFormat};
use crate::config::{Config, ConfigError};
use crate::pr::InvalidApiUrl;
use crate::pr::RefError;
use crate::pr::Uncommitted;
use crate::pr::reference::{self, PrRef};
use crate::reviewers::deterministic::rules::Catalog;
use crate::reviewers::model::budget::{Budget, BudgetError, Limit, Pricing};
use crate::ui::Theme;
use crate::ui::theme::ThemeError;

/// A review's flags, checked, with what checking them produced.
#[derive(Debug)]
pub struct Resolved {
    /// The flags as typed.
    pub flags: Cli,
    /// The PR, parsed once, with the uncommitted work `--worktree`, `--staged` or `--watch`
    /// asks for. `None` on the demo until the demo is built ([`Resolved::set_pr`]).
    pub reference: Option<PrRef>,
    /// The user's config file, read once (a repository's file is laid over it per review).
    pub user: Config,
    /// `--budget`, else `[models] budget`.
    pub budget: Option<Limit>,
    /// `[models]` prices per million tokens, when both are set.
    pub pricing: Option<Pricing>,
    /// `[models]` timeouts and backoff.
    pub model_times: ModelTimes,
    /// `--theme`, loaded.
    pub theme: Option<Theme>,
}

/// The model reviewers' durations (`[models] reviewer_timeout`, `request_timeout`, `backoff`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ModelTimes {
    /// A whole reviewer's conversation (and a command provider's run).
    pub reviewer: Duration,
    /// One request to a provider.
    pub request: Duration,
    /// The first wait before a retry (doubling after).
    pub backoff: Duration,
}

impl Default for ModelTimes {
    fn default() -> ModelTimes {
        ModelTimes {
            reviewer: Duration::from_secs(600),
            request: Duration::from_secs(300),
            backoff: Duration::from_secs(2),
        }
    }
}

impl ModelTimes {
    /// The durations `[models]` sets, each over its default.
    pub fn of(models: &crate::config::ModelsLayer) -> Result<ModelTimes, FlagError> {
        let default = ModelTimes::default();
        let duration = |value: &Option<String>, key: &'static str, default: Duration| match value {
            Some(text) => {
                humantime::parse_duration(text.trim()).map_err(|source| FlagError::Duration {
                    key,
                    text: text.clone(),
                    source,
                })
            }
            None => Ok(default),
        };
        Ok(ModelTimes {
            reviewer: duration(
                &models.reviewer_timeout,
                "reviewer_timeout",
                default.reviewer,
            )?,
            backoff: duration(&models.backoff, "backoff", default.backoff)?,
            request: duration(&models.request_timeout, "request_timeout", default.request)?,
        })
    }
}

/// A flag, or a value of the user's config file, that cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum FlagError {
    #[error(
        "REVIEW_TUI_DATA_DIR is set but empty: unset it, or set it to the directory review \
         spaces go in"
    )]
    DataDirVariableEmpty,
    #[error("--data-dir is empty: name the directory review spaces go in")]
    DataDirEmpty,
    #[error("--api-url {url:?} is not an API address")]
    ApiUrl {
        url: String,
        #[source]
        source: InvalidApiUrl,
    },
    #[error(
        "{0} is for a headless run: add --headless (the cockpit shows the review and publishes \
         from its approval gate)"
    )]
    HeadlessOnly(&'static str),
    #[error(transparent)]
    Reference(#[from] RefError),
    #[error("--base and --head go with a local repository PATH")]
    RangeWithoutPath,
    #[error("{0} goes with a local repository PATH (`review-tui . {0}`)")]
    UncommittedWithoutPath(&'static str),
    #[error(transparent)]
    Theme(#[from] ThemeError),
    #[error("cannot write {}: the directory {} does not exist", path.display(), dir.display())]
    NoDirectory { path: PathBuf, dir: PathBuf },
    #[error("cannot write {}: {source}", path.display())]
    Unwritable {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("--record")]
    Record(#[source] Box<FlagError>),
    #[error("{flag} {}", path.display())]
    Unreadable {
        flag: &'static str,
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("--model-url {0:?} is not an http(s) URL (http://127.0.0.1:11434/v1)")]
    ModelUrl(String),
    #[error(transparent)]
    Config(#[from] ConfigError),
    #[error(
        "{file}: {notes} (rule ids are listed in assets/rules/*.toml; a `namespace/*` or \
         `category/*` selects many)"
    )]
    UnknownRules { file: String, notes: String },
    #[error(transparent)]
    Budget(#[from] BudgetError),
    #[error("[models] {key} {text:?} is not a duration (\"90s\", \"10m\")")]
    Duration {
        key: &'static str,
        text: String,
        #[source]
        source: humantime::DurationError,
    },
    #[error("{origin} {text:?} is not a duration (\"30d\", \"12h\")")]
    MaxAge { origin: &'static str, text: String },
    #[error("{origin} {text:?} is not a size (\"40MB\", \"512KB\", \"1GB\")")]
    MaxSize { origin: &'static str, text: String },
}

/// Where `--data-dir`'s value came from: an empty variable is named as the variable, since the
/// person never typed the flag.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DataDirFrom {
    Flag,
    Environment,
}

impl Resolved {
    /// Checks every flag of a review and the user's config file, and keeps what they resolve
    /// to. `builtin` is the rule catalog, asked for only when the config tunes rules (to name
    /// one that does not exist).
    pub fn new(
        flags: Cli,
        data_dir_from: DataDirFrom,
        builtin: &dyn Fn() -> Catalog,
    ) -> Result<Resolved, FlagError> {
        let (reference, theme) = check_flags(&flags, data_dir_from)?;
        // The user's config file: its errors name the key and line, and it names known rules.
        let user = crate::config::load_user()?;
        Resolved::finish(flags, reference, theme, user, builtin)
    }

    /// As [`Resolved::new`], with the user's config file already read (a command that runs
    /// several reviews reads it once).
    pub fn with_user(
        flags: Cli,
        user: Config,
        builtin: &dyn Fn() -> Catalog,
    ) -> Result<Resolved, FlagError> {
        let (reference, theme) = check_flags(&flags, DataDirFrom::Flag)?;
        Resolved::finish(flags, reference, theme, user, builtin)
    }

    fn finish(
        flags: Cli,
        reference: Option<PrRef>,
        theme: Option<Theme>,
        user: Config,
        builtin: &dyn Fn() -> Catalog,
    ) -> Result<Resolved, FlagError> {
        // Only a config that tunes rules can name one that does not exist.
        if user.tunes_rules() {
            let unknown = builtin().with_overrides(&user).notes().to_vec();
            if !unknown.is_empty() {
                return Err(FlagError::UnknownRules {
                    file: crate::config::user_config_path()
                        .map(|p| p.display().to_string())
                        .unwrap_or_else(|| "the config file".into()),
                    notes: unknown.join("; "),
                });
            }
        }
        let models = &user.models;
        let pricing = match (models.price_input_per_mtok, models.price_output_per_mtok) {
            (Some(input), Some(output)) => Some(Pricing {
                input_usd_per_mtok: input,
                output_usd_per_mtok: output,
            }),
            _ => None,
        };
        let budget = (flags.models.budget.as_ref().or(models.budget.as_ref()))
            .map(|text| Limit::parse(text))
            .transpose()?;
        // A dollar budget needs prices: said now, not when the first reviewer starts.
        Budget::new(budget, pricing)?;
        // Without model reviewers their durations are never used, and never refused.
        let model_times = if flags.deterministic_only {
            ModelTimes::default()
        } else {
            ModelTimes::of(models)?
        };
        Ok(Resolved {
            flags,
            reference,
            user,
            budget,
            pricing,
            model_times,
            theme,
        })
    }

    /// The PR named after the flags were checked (the demo's, once it is built).
    pub fn set_pr(&mut self, pr: &str) -> Result<(), FlagError> {
        self.reference = Some(reference_of(&self.flags, pr)?);
        self.flags.pr = Some(pr.to_string());
        Ok(())
    }
}

/// Every flag checked on its own, before the config file is read: the PR's reference and the
/// theme are what they produce.
fn check_flags(
    flags: &Cli,
    data_dir_from: DataDirFrom,
) -> Result<(Option<PrRef>, Option<Theme>), FlagError> {
    if let Some(dir) = &flags.data_dir
        && dir.as_os_str().is_empty()
    {
        return Err(match data_dir_from {
            DataDirFrom::Environment => FlagError::DataDirVariableEmpty,
            DataDirFrom::Flag => FlagError::DataDirEmpty,
        });
    }
    check_api_url(flags.api_url.as_deref())?;
    if !flags.headless {
        for (given, flag) in [
            (flags.format != ReportFormat::Text, "--format"),
            (flags.output.is_some(), "--output"),
            (flags.publish, "--publish"),
        ] {
            if given {
                return Err(FlagError::HeadlessOnly(flag));
            }
        }
    }
    let reference = match &flags.pr {
        Some(pr) => Some(reference_of(flags, pr)?),
        None if flags.base.is_some() || flags.head.is_some() => {
            return Err(FlagError::RangeWithoutPath);
        }
        None if uncommitted_asked(flags).is_some() => {
            let flag = [
                (flags.worktree, "--worktree"),
                (flags.staged, "--staged"),
                (flags.watch, "--watch"),
            ]
            .into_iter()
            .find_map(|(given, flag)| given.then_some(flag))
            .unwrap_or("--worktree");
            return Err(FlagError::UncommittedWithoutPath(flag));
        }
        None => None,
    };
    let theme = flags.theme.as_deref().map(Theme::load).transpose()?;
    if let Some(path) = &flags.output {
        check_output_path(path)?;
    }
    for file in &flags.sarif {
        check_readable(file, "--sarif")?;
    }
    if let Some(file) = &flags.models.replay {
        check_readable(file, "--replay")?;
    }
    if let Some(file) = &flags.record {
        check_output_path(file).map_err(|e| FlagError::Record(Box::new(e)))?;
    }
    if let Some(url) = &flags.models.model_url
        && !is_http_url(url)
    {
        return Err(FlagError::ModelUrl(url.clone()));
    }
    Ok((reference, theme))
}

/// `--api-url`, when given, must be an API address.
pub fn check_api_url(url: Option<&str>) -> Result<(), FlagError> {
    if let Some(url) = url.filter(|u| !u.trim().is_empty()) {
        crate::pr::parse_api_url(url).map_err(|source| FlagError::ApiUrl {
            url: url.to_string(),
            source,
        })?;
    }
    Ok(())
}

/// The reference as typed, with the uncommitted work `--worktree`, `--staged` or `--watch`
/// asks for.
fn reference_of(flags: &Cli, pr: &str) -> Result<PrRef, RefError> {
    let parsed = reference::parse(pr, flags.base.as_deref(), flags.head.as_deref())?;
    match uncommitted_asked(flags) {
        Some(which) => parsed.with_uncommitted(which),
        None => Ok(parsed),
    }
}

/// `--staged`, `--worktree`, or `--watch` (which watches the working tree).
fn uncommitted_asked(flags: &Cli) -> Option<Uncommitted> {
    if flags.staged {
        Some(Uncommitted::Staged)
    } else if flags.worktree || flags.watch {
        Some(Uncommitted::WorkingTree)
    } else {
        None
    }
}

fn is_http_url(text: &str) -> bool {
    text.trim().starts_with("http://") || text.trim().starts_with("https://")
}

/// A file the run will write: checked the way it will be written, before any work, so a
/// review is never recorded and then lost for want of a place to put its report.
fn check_output_path(path: &Path) -> Result<(), FlagError> {
    crate::space::check_output(path).map_err(|source| {
        match path.parent().filter(|p| !p.as_os_str().is_empty()) {
            Some(dir) if !dir.is_dir() => FlagError::NoDirectory {
                path: path.to_path_buf(),
                dir: dir.to_path_buf(),
            },
            _ => FlagError::Unwritable {
                path: path.to_path_buf(),
                source,
            },
        }
    })
}

fn check_readable(path: &Path, flag: &'static str) -> Result<(), FlagError> {
    std::fs::File::open(path)
        .map(drop)
        .map_err(|source| FlagError::Unreadable {
            flag,
            path: path.to_path_buf(),
            source,
        })
}

/// `review-tui gc`'s bounds: the flag, else the config's `[cache]` key, else the default.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GcBounds {
    pub max_age: Duration,
    pub max_tag_store: Option<u64>,
}

impl GcBounds {
    pub fn new(
        max_age: Option<&str>,
        max_tag_store: Option<&str>,
        user: &Config,
    ) -> Result<GcBounds, FlagError> {
        let max_age = match chosen(max_age, "--max-age", &user.cache_max_age, "[cache] max_age") {
            Some((text, origin)) => {
                humantime::parse_duration(text.trim()).map_err(|_| FlagError::MaxAge {
                    origin,
                    text: text.to_string(),
                })?
            }
            None => crate::gc::DEFAULT_MAX_AGE,
        };
        let max_tag_store = match chosen(
            max_tag_store,
            "--max-tag-store",
            &user.cache_max_tag_store,
            "[cache] max_tag_store",
        ) {
            Some((text, origin)) => {
                Some(
                    crate::gc::parse_size(text).ok_or_else(|| FlagError::MaxSize {
                        origin,
                        text: text.to_string(),
                    })?,
                )
            }
            None => None,
        };
        Ok(GcBounds {
            max_age,
            max_tag_store,
        })
    }
}

/// The flag's value, else the config's, with the name of where it came from.
fn chosen<'a>(
    flag: Option<&'a str>,
    flag_name: &'static str,
    config: &'a Option<String>,
    key: &'static str,
) -> Option<(&'a str, &'static str)> {
    match (flag, config.as_deref()) {
        (Some(text), _) => Some((text, flag_name)),
        (None, Some(text)) => Some((text, key)),
        (None, None) => None,
    }
}
