//! The resolved flags (`cli::resolve`) and the configuration turned into what a review runs
//! with: where the space lives and how the forge is reached, the reviewers (the `models`
//! block: flags + config → roster, bounds, budget), and the session. Shared by the commands
//! that review one PR: the headless flow and the cockpit.

use crate::cli::Cli;
use crate::cli::resolve::Resolved;
use crate::config::{Config, ConfigError};
use crate::pr::Notices;
use crate::pr::SettingError;
use crate::pr::reference;
use crate::publish::{PublishOptions, Publishing, Selection};
use crate::reviewers::deterministic::rules::Catalog;
use crate::reviewers::model::budget::BudgetError;
use crate::reviewers::model::roster::{PROVIDER_ENV_VARS, RosterError};
use crate::session::PrepareOptions;
use crate::session::{ModelSetup, ReviewOptions};
use crate::session::{Session, SessionSetup};

/// What setting a review up refused.
#[derive(Debug, thiserror::Error)]
pub enum SetupError {
    #[error(transparent)]
    Forge(#[from] SettingError),
    #[error("opening the review space's mirror")]
    Mirror(#[source] git2::Error),
    #[error(transparent)]
    Config(#[from] ConfigError),
    #[error(
        "--require-model: no model provider is configured; set {PROVIDER_ENV_VARS}, or \
         pass --model-url URL --model MODEL, --provider-command CMD or --replay FILE"
    )]
    NoModel,
    #[error(transparent)]
    Budget(#[from] BudgetError),
    #[error("the bundled demo cassette")]
    Cassette(#[source] serde_json::Error),
    #[error(transparent)]
    Roster(#[from] RosterError),
}

/// Where the space lives and how the forges are reached (each forge's section of the user's
/// config, e.g. `[github]`: the repository's layer is only known once the PR has been read).
/// `notices` hears a slow or retried forge call while it lasts.
pub fn prepare_options(
    cli: &Cli,
    user: &Config,
    notices: Notices,
) -> Result<PrepareOptions, SetupError> {
    let mut connection = crate::pr::connection(user)?;
    connection.api_url = cli.api_url.clone();
    // The cockpit takes these away once it owns the screen.
    connection.notices = Some(notices);
    Ok(PrepareOptions {
        data_dir: cli.data_dir.clone(),
        connection,
        ..PrepareOptions::default()
    })
}

/// The configuration of this review, loaded once: the user's file (already read, it chose how
/// GitHub was called) with the repository's file at the PR's base laid over it.
pub fn review_config(
    mut user: Config,
    prepared: &crate::session::Prepared,
) -> Result<Config, SetupError> {
    let repo = git2::Repository::open_bare(prepared.space.mirror()).map_err(SetupError::Mirror)?;
    let base = prepared.space.state().base_sha.clone();
    user.apply_repository(&repo, &base)?;
    Ok(user)
}

pub fn review_options(
    resolved: &Resolved,
    prepared: &crate::session::Prepared,
    config: &Config,
) -> Result<ReviewOptions, SetupError> {
    // `--level` wins; else the level the person last chose for this PR; else the config's.
    let cli = &resolved.flags;
    let level = cli
        .level
        .or_else(|| prepared.chosen_level())
        .unwrap_or(config.level);
    let models = model_setup(resolved, config, prepared.space.worktree(), level)?;
    let options = ReviewOptions {
        level,
        deterministic_only: cli.deterministic_only,
        sarif_files: cli.sarif.clone(),
        secret_config: crate::reviewers::deterministic::secrets::UserConfig::chosen(
            config.gitleaks_config.as_ref(),
        ),
        force: cli.force,
        catalog: builtin_catalog().with_overrides(config),
        models,
        // A damaged state.json is said in the report's coverage too, not only on stderr.
        notes: (config.notes.iter().cloned())
            .chain(prepared.opened.corruption.iter().map(|c| c.to_string()))
            .collect(),
        // Not `..ReviewOptions::default()`: that builds a whole second rule catalog.
        gitleaks: Some(crate::reviewers::deterministic::secrets::GITLEAKS.to_string()),
        tap: None,
        api_advisory: config.api_advisory.clone(),
    };
    Ok(options)
}

/// The built-in rule catalog, compiled once per process.
pub fn builtin_catalog() -> Catalog {
    static BUILTIN: std::sync::OnceLock<Catalog> = std::sync::OnceLock::new();
    BUILTIN.get_or_init(Catalog::builtin).clone()
}

/// Compiling the rule catalog and the default secret scan (hundreds of regular expressions) is
/// a large part of a small PR's review, and none of it needs the PR. It starts on its own
/// thread at once, beside the fetch and the checkout (mostly git and the kernel); whoever
/// needs either first waits for the one build, never starts another.
pub fn warm_up() {
    let _ = std::thread::Builder::new()
        .name("warm-up".into())
        .spawn(|| {
            let _ = builtin_catalog();
            // Every report names the secret scan and the apiContract axis, words that unlock
            // gitleaks' generic rules: their compile (60 ms) ended a small PR's review, on the
            // way to its report. A configuration laid over the defaults shares them.
            use crate::reviewers::deterministic::secrets::{SECRET_SCAN, default_scanner};
            default_scanner().compile_for(&format!(
                "{SECRET_SCAN}: secret rules; {}",
                crate::review::API_CONTRACT
            ));
        });
}

/// The model reviewers' setup (provider, model, budget, timeouts) checked before any work
/// starts, so that `OLLAMA_HOST` without a model, say, is said at once, not after the fetch.
/// The user's file is the whole of it: a repository's file may not set `[models]`.
pub fn check_models(resolved: &Resolved) -> Result<(), SetupError> {
    let user = &resolved.user;
    let level = resolved.flags.level.unwrap_or(user.level);
    model_setup(resolved, user, &std::env::temp_dir(), level).map(drop)
}

/// What this run asks of a head the space already reviewed.
pub fn asked(cli: &Cli) -> crate::publish::Asked {
    crate::publish::Asked {
        deterministic_only: cli.deterministic_only,
        publish: cli.publish,
        force: cli.force,
    }
}

/// The session of this run: how to review, the fix command, and the publisher it is given
/// (the PR's forge or the local space). The fix command is the user's `[fix] command`;
/// `REVIEW_TUI_FIX_COMMAND` overrides it.
pub fn new_session(
    prepared: crate::session::Prepared,
    cli: &Cli,
    config: &Config,
    review: ReviewOptions,
    room: Option<crate::session::RoomSetup>,
) -> Session<Publishing> {
    let selection = if cli.consensus_only {
        Selection::ConsensusOnly
    } else {
        Selection::AllOpen
    };
    let fix_command = std::env::var("REVIEW_TUI_FIX_COMMAND")
        .ok()
        .filter(|c| !c.trim().is_empty())
        .or_else(|| config.fix_command.clone());
    let setup = SessionSetup {
        review,
        fix_command,
        person: crate::session::person_name(),
        room,
    };
    let mut options = PublishOptions::from_config(config, selection);
    options.include_raised = cli.include_raised;
    options.approve_without_models = cli.approve_without_models;
    let publisher = Publishing::new(options, cli.api_url.clone(), None);
    Session::new(prepared, setup, publisher)
}

/// What to tell the person when the local repository's checkout has uncommitted files.
pub fn uncommitted_warning(reference: &reference::PrRef) -> Option<String> {
    let reference::PrRef::Local {
        path,
        head,
        uncommitted: None,
        ..
    } = reference
    else {
        return None;
    };
    let count = crate::pr::uncommitted(path, head.as_deref())?;
    let files = if count == 1 { "file is" } else { "files are" };
    (count > 0).then(|| {
        format!(
            "{count} uncommitted {files} not part of this review (it reads commits only): \
             add --worktree (-w) to review them with the branch, or --staged for the staged ones"
        )
    })
}

pub fn model_setup(
    resolved: &Resolved,
    config: &Config,
    worktree: &std::path::Path,
    level: crate::review::Level,
) -> Result<Option<ModelSetup>, SetupError> {
    let cli = &resolved.flags;
    if cli.deterministic_only {
        return Ok(None);
    }
    let Some((roster, bounds, pricing)) =
        roster_of(resolved, config, worktree, level, None, false)?
    else {
        if cli.require_model {
            return Err(SetupError::NoModel);
        }
        return Ok(None);
    };
    let models = &config.models;
    let mut setup = ModelSetup::new(roster);
    setup.concurrency = cli
        .concurrency
        .map(usize::from)
        .or(models.concurrency)
        .unwrap_or(5)
        .max(1);
    setup.bounds = bounds;
    setup.pricing = pricing;
    setup.context_sources = config.context_mcp.clone();
    if let Some(tokens) = models.context_tokens {
        setup.context_tokens = tokens;
    }
    if let Some(calls) = models.verify_calls {
        setup.verify_calls = calls;
    }
    Ok(Some(setup))
}

/// The model reviewers of `level` as the flags and the configuration name them, their bounds
/// and prices; `None` when no provider is configured. `budget`: the one to meter against (the
/// review's, shared with the review room), else a new one from `--budget` or the config.
#[allow(clippy::type_complexity)]
pub fn roster_of(
    resolved: &Resolved,
    config: &Config,
    worktree: &std::path::Path,
    level: crate::review::Level,
    budget: Option<std::sync::Arc<crate::reviewers::model::budget::Budget>>,
    room: bool,
) -> Result<
    Option<(
        crate::reviewers::model::roster::Roster,
        crate::reviewers::model::agent::Bounds,
        Option<crate::reviewers::model::agent::Pricing>,
    )>,
    SetupError,
> {
    use crate::reviewers::model::agent::Bounds;
    use crate::reviewers::model::budget::Budget;
    use crate::reviewers::model::provider::RetryPolicy;
    use crate::reviewers::model::roster::{self, ModelFlags, ProviderSettings};
    use std::sync::Arc;

    let cli = &resolved.flags;
    let models = &config.models;
    let times = resolved.model_times;
    let settings = ProviderSettings {
        retry: RetryPolicy {
            max_attempts: models.max_attempts.unwrap_or(4).max(1),
            base_backoff: times.backoff,
            ..RetryPolicy::default()
        },
        request_timeout: times.request,
        command_timeout: times.reviewer,
        worktree: worktree.to_path_buf(),
    };
    let pricing = resolved.pricing;
    let budget = match budget {
        Some(budget) => budget,
        None => Arc::new(Budget::new(resolved.budget, pricing)?),
    };
    let asked_for_a_provider = cli.models.provider.is_some()
        || cli.models.model_url.is_some()
        || cli.models.provider_command.is_some()
        || cli.models.replay.is_some();
    let cassette = if cli.demo && !asked_for_a_provider {
        // The demo runs offline on its bundled cassette unless another provider is asked for.
        Some(
            serde_json::from_str(if room {
                crate::demo::ANSWERS
            } else {
                crate::demo::CASSETTE
            })
            .map_err(SetupError::Cassette)?,
        )
    } else {
        None
    };
    let flags = ModelFlags {
        provider: cli.models.provider.clone(),
        model_url: cli.models.model_url.clone(),
        model: cli.models.model.clone(),
        provider_command: cli.models.provider_command.clone(),
        replay: cli.models.replay.clone(),
        // The review's cassette is written by its roster alone.
        record: cli.record.clone().filter(|_| !room),
        scoring_model: cli.scoring_model.clone(),
        cassette,
    };
    let env = |name: &str| std::env::var(name).ok();
    let roster = roster::build(
        level,
        &flags,
        models,
        &config.prompts,
        &settings,
        budget,
        &env,
    )?;
    let Some(roster) = roster else {
        return Ok(None);
    };
    let bounds = Bounds {
        max_tool_calls: models
            .max_tool_calls
            .unwrap_or(Bounds::default().max_tool_calls),
        max_tokens: models.max_tokens.unwrap_or(Bounds::default().max_tokens),
        timeout: times.reviewer,
        ..Bounds::default()
    };
    Ok(Some((roster, bounds, pricing)))
}

/// The review room's reviewers: every role (a question may go to any), metered against the
/// review's budget when it has one, so the cost meter and the hard cap count the answers.
/// `None` without a provider. On the demo they answer from its recorded answers.
pub fn room_setup(
    resolved: &Resolved,
    config: &Config,
    prepared: &crate::session::Prepared,
    review: &ReviewOptions,
) -> Result<Option<crate::session::RoomSetup>, SetupError> {
    let budget = review.models.as_ref().map(|m| m.roster.budget.clone());
    let level = crate::review::Level::Thorough;
    Ok(roster_of(
        resolved,
        config,
        prepared.space.worktree(),
        level,
        budget,
        true,
    )?
    .map(|(roster, bounds, _)| crate::session::RoomSetup {
        roster,
        bounds,
        secret_config: review.secret_config.clone(),
    }))
}
