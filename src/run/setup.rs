//! The resolved flags (`cli::resolve`) and the configuration turned into what a review runs
//! with: where the space lives and how the forge is reached, the reviewers (the `models`
//! block: flags + config → roster, bounds, budget), and the session.

use anyhow::Context;

use review_tui::cli::Cli;
use review_tui::cli::resolve::Resolved;
use review_tui::config::Config;
use review_tui::pr::connect::Notices;
use review_tui::pr::reference;
use review_tui::publish::{PublishOptions, Publishing, Selection};
use review_tui::reviewers::deterministic::rules::Catalog;
use review_tui::session::prepare::PrepareOptions;
use review_tui::session::round::{ModelSetup, ReviewOptions};
use review_tui::session::{Session, SessionSetup};

use super::output::say;

/// Where the space lives and how the forges are reached (each forge's section of the user's
/// config, e.g. `[github]`: the repository's layer is only known once the PR has been read).
pub(crate) fn prepare_options(cli: &Cli, user: &Config) -> anyhow::Result<PrepareOptions> {
    let mut connection = review_tui::pr::registry::connection(user)?;
    connection.api_url = cli.api_url.clone();
    // A slow or retried forge call is said on stderr while it lasts. The cockpit takes these
    // away once it owns the screen.
    connection.notices = Some(Notices::new(|notice: String| say(notice)));
    Ok(PrepareOptions {
        data_dir: cli.data_dir.clone(),
        connection,
        ..PrepareOptions::default()
    })
}

/// The configuration of this review, loaded once: the user's file (already read, it chose how
/// GitHub was called) with the repository's file at the PR's base laid over it.
pub(crate) fn review_config(
    mut user: Config,
    prepared: &review_tui::session::prepare::Prepared,
) -> anyhow::Result<Config> {
    let repo = git2::Repository::open_bare(prepared.space.mirror())
        .context("opening the review space's mirror")?;
    let base = prepared.space.state().base_sha.clone();
    user.apply_repository(&repo, &base)?;
    Ok(user)
}

pub(crate) fn review_options(
    resolved: &Resolved,
    prepared: &review_tui::session::prepare::Prepared,
    config: &Config,
) -> anyhow::Result<ReviewOptions> {
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
        secret_config: review_tui::reviewers::deterministic::secrets::UserConfig::chosen(
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
        gitleaks: Some(review_tui::reviewers::deterministic::secrets::GITLEAKS.to_string()),
        tap: None,
        api_advisory: config.api_advisory.clone(),
    };
    Ok(options)
}

/// The built-in rule catalog, compiled once per process.
pub(crate) fn builtin_catalog() -> Catalog {
    static BUILTIN: std::sync::OnceLock<Catalog> = std::sync::OnceLock::new();
    BUILTIN.get_or_init(Catalog::builtin).clone()
}

/// Compiling the rule catalog and the default secret scan (hundreds of regular expressions) is
/// a large part of a small PR's review, and none of it needs the PR. It starts on its own
/// thread at once, beside the fetch and the checkout (mostly git and the kernel); whoever
/// needs either first waits for the one build, never starts another.
pub(crate) fn warm_up() {
    let _ = std::thread::Builder::new()
        .name("warm-up".into())
        .spawn(|| {
            let _ = builtin_catalog();
            // Every report names the secret scan and the apiContract axis, words that unlock
            // gitleaks' generic rules: their compile (60 ms) ended a small PR's review, on the
            // way to its report. A configuration laid over the defaults shares them.
            use review_tui::reviewers::deterministic::secrets::{SECRET_SCAN, default_scanner};
            default_scanner().compile_for(&format!(
                "{SECRET_SCAN}: secret rules; {}",
                review_tui::review::axes::API_CONTRACT
            ));
        });
}

/// The model reviewers' setup (provider, model, budget, timeouts) checked before any work
/// starts, so that `OLLAMA_HOST` without a model, say, is said at once, not after the fetch.
/// The user's file is the whole of it: a repository's file may not set `[models]`.
pub(crate) fn check_models(resolved: &Resolved) -> anyhow::Result<()> {
    let user = &resolved.user;
    let level = resolved.flags.level.unwrap_or(user.level);
    model_setup(resolved, user, &std::env::temp_dir(), level).map(drop)
}

/// What this run asks of a head the space already reviewed.
pub(crate) fn asked(cli: &Cli) -> review_tui::publish::Asked {
    review_tui::publish::Asked {
        deterministic_only: cli.deterministic_only,
        publish: cli.publish,
        force: cli.force,
    }
}

/// The cockpit's theme (`--theme`, or the configuration's) and the person's keymap.
pub(crate) fn view_context(
    theme: Option<review_tui::ui::Theme>,
    config: &Config,
) -> anyhow::Result<review_tui::ui::ViewContext> {
    use review_tui::ui::{Keymap, Theme, ViewContext};
    let theme = match theme {
        Some(theme) => theme,
        None => Theme::load(&config.theme)?,
    };
    let theme = theme.for_terminal(|name| std::env::var(name).ok());
    let keymap = match review_tui::config::user_config_path()
        .map(|p| p.with_file_name("keymap.toml"))
        .filter(|p| p.exists())
    {
        Some(path) => Keymap::load(&path)?,
        None => Keymap::default(),
    };
    Ok(ViewContext::new(theme, keymap))
}

/// The session of this run: how to review, the fix command, and the publisher it is given
/// (the PR's forge or the local space). The fix command is the user's `[fix] command`;
/// `REVIEW_TUI_FIX_COMMAND` overrides it.
pub(crate) fn new_session(
    prepared: review_tui::session::prepare::Prepared,
    cli: &Cli,
    config: &Config,
    review: ReviewOptions,
    room: Option<review_tui::session::ask::RoomSetup>,
) -> anyhow::Result<Session<Publishing>> {
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
        person: review_tui::session::person_name(),
        room,
    };
    let mut options = PublishOptions::from_config(config, selection);
    options.include_raised = cli.include_raised;
    options.approve_without_models = cli.approve_without_models;
    let publisher = Publishing::new(options, cli.api_url.clone(), None);
    Ok(Session::new(prepared, setup, publisher))
}

/// A review reads commits: changes only in the work tree (a modified file with a password, an
/// untracked file) are not part of it, and the person is told first.
pub(crate) fn warn_uncommitted(reference: &reference::PrRef) {
    if let Some(warning) = uncommitted_warning(reference) {
        say(warning);
    }
}

/// What to tell the person when the local repository's checkout has uncommitted files.
pub(crate) fn uncommitted_warning(reference: &reference::PrRef) -> Option<String> {
    let reference::PrRef::Local {
        path,
        head,
        uncommitted: None,
        ..
    } = reference
    else {
        return None;
    };
    let count = review_tui::pr::local::uncommitted(path, head.as_deref())?;
    let files = if count == 1 { "file is" } else { "files are" };
    (count > 0).then(|| {
        format!(
            "{count} uncommitted {files} not part of this review (it reads commits only): \
             add --worktree (-w) to review them with the branch, or --staged for the staged ones"
        )
    })
}

pub(crate) fn model_setup(
    resolved: &Resolved,
    config: &Config,
    worktree: &std::path::Path,
    level: review_tui::review::level::Level,
) -> anyhow::Result<Option<ModelSetup>> {
    use review_tui::reviewers::model::roster::PROVIDER_ENV_VARS;

    let cli = &resolved.flags;
    if cli.deterministic_only {
        return Ok(None);
    }
    let Some((roster, bounds, pricing)) =
        roster_of(resolved, config, worktree, level, None, false)?
    else {
        if cli.require_model {
            anyhow::bail!(
                "--require-model: no model provider is configured; set {PROVIDER_ENV_VARS}, or \
                 pass --model-url URL --model MODEL, --provider-command CMD or --replay FILE"
            );
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
pub(crate) fn roster_of(
    resolved: &Resolved,
    config: &Config,
    worktree: &std::path::Path,
    level: review_tui::review::level::Level,
    budget: Option<std::sync::Arc<review_tui::reviewers::model::budget::Budget>>,
    room: bool,
) -> anyhow::Result<
    Option<(
        review_tui::reviewers::model::roster::Roster,
        review_tui::reviewers::model::agent::Bounds,
        Option<review_tui::reviewers::model::agent::Pricing>,
    )>,
> {
    use review_tui::reviewers::model::agent::Bounds;
    use review_tui::reviewers::model::budget::Budget;
    use review_tui::reviewers::model::provider::RetryPolicy;
    use review_tui::reviewers::model::roster::{self, ModelFlags, ProviderSettings};
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
    let asked_for_a_provider = cli.provider.is_some()
        || cli.model_url.is_some()
        || cli.provider_command.is_some()
        || cli.replay.is_some();
    let cassette = if cli.demo && !asked_for_a_provider {
        // The demo runs offline on its bundled cassette unless another provider is asked for.
        Some(
            serde_json::from_str(if room {
                review_tui::demo::ANSWERS
            } else {
                review_tui::demo::CASSETTE
            })
            .context("the bundled demo cassette")?,
        )
    } else {
        None
    };
    let flags = ModelFlags {
        provider: cli.provider.clone(),
        model_url: cli.model_url.clone(),
        model: cli.model.clone(),
        provider_command: cli.provider_command.clone(),
        replay: cli.replay.clone(),
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
pub(crate) fn room_setup(
    resolved: &Resolved,
    config: &Config,
    prepared: &review_tui::session::prepare::Prepared,
    review: &ReviewOptions,
) -> anyhow::Result<Option<review_tui::session::ask::RoomSetup>> {
    let budget = review.models.as_ref().map(|m| m.roster.budget.clone());
    let level = review_tui::review::level::Level::Thorough;
    Ok(roster_of(
        resolved,
        config,
        prepared.space.worktree(),
        level,
        budget,
        true,
    )?
    .map(|(roster, bounds, _)| review_tui::session::ask::RoomSetup {
        roster,
        bounds,
        secret_config: review.secret_config.clone(),
    }))
}
