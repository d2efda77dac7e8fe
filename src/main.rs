//! The binary edge: parse the command line, run the engine, map outcomes to exit codes.

mod exit;

use exit::Exit;

use std::io::Read;
use std::process::ExitCode;

use anyhow::Context;

use review_tui::cli::{Cli, Command, ConfigAction, ReportFormat, VerdictFormat};
use review_tui::config::Config;
use review_tui::pr::connect::Notices;
use review_tui::pr::reference;
use review_tui::publish::{PublishError, PublishOptions, Publishing, Rerun, Selection};
use review_tui::report::sarif::to_sarif;
use review_tui::report::{evaluate, headless, review, verdict_text};
use review_tui::review::decide;
use review_tui::reviewers::deterministic::rules::Catalog;
use review_tui::reviewers::redact::outbound;
use review_tui::session::prepare::{PrepareError, PrepareOptions, prepare};
use review_tui::session::round::{self, ModelSetup, ReviewOptions};
use review_tui::session::{Session, SessionSetup};

fn main() -> ExitCode {
    let (cli, matches) = match parse_args() {
        Ok(parsed) => parsed,
        Err(err) => {
            let usage_error = err.use_stderr();
            let _ = err.print();
            return exit(if usage_error { Exit::Error } else { Exit::Ship });
        }
    };
    match run(cli, &matches) {
        Ok(code) => exit(code),
        Err(err) => {
            if let Some(signal) = err.downcast_ref::<Aborted>() {
                say(signal);
                return exit(Exit::Aborted);
            }
            say(describe(&err));
            use review_tui::pr::local::LocalError;
            let nothing = match err.downcast_ref::<PrepareError>() {
                Some(PrepareError::NothingToReview(_)) => true,
                Some(PrepareError::Forge(forge)) => matches!(
                    forge.downcast_ref::<LocalError>(),
                    Some(LocalError::OnBaseBranch { .. })
                ),
                _ => false,
            };
            exit(if nothing {
                Exit::NothingToReview
            } else {
                Exit::Error
            })
        }
    }
}

/// The command line, and clap's matches: they say whether a value came from a flag or from
/// the environment, so a message can name the one the person actually set.
fn parse_args() -> Result<(Cli, clap::ArgMatches), clap::Error> {
    use clap::{CommandFactory, FromArgMatches};
    let command = Cli::command();
    // clap blames the flag for an empty variable (`a value is required for --data-dir`): name
    // the variable the person actually set.
    let typed: Vec<String> = std::env::args().skip(1).collect();
    for arg in command.get_arguments() {
        let (Some(var), Some(long)) = (arg.get_env(), arg.get_long()) else {
            continue;
        };
        let flag = format!("--{long}");
        let given = typed
            .iter()
            .any(|a| *a == flag || a.starts_with(&format!("{flag}=")));
        if !given && std::env::var_os(var).is_some_and(|v| v.is_empty()) {
            return Err(command.clone().error(
                clap::error::ErrorKind::InvalidValue,
                format!(
                    "{} is set but empty: unset it, or give it a value",
                    var.to_string_lossy()
                ),
            ));
        }
    }
    let matches = command.try_get_matches()?;
    let cli = Cli::from_arg_matches(&matches)?;
    Ok((cli, matches))
}

/// An error and its causes on one line, each said once (see [`review_tui::error_text`]).
fn describe(err: &anyhow::Error) -> String {
    review_tui::error_text::chain(err.as_ref())
}

/// One message on stderr, on one line, its untrusted parts (file names, PR text, a server's
/// answer) escaped: a terminal must not obey what a PR author wrote. Redacted first: an error
/// can quote a server's answer or a file, and stderr ends up in CI logs.
fn say(message: impl std::fmt::Display) {
    use std::io::Write;
    let line = review_tui::printable::line(&outbound(&message.to_string())).into_owned();
    // A closed or full stderr has nowhere to report to; it must not panic the run.
    let _ = writeln!(std::io::stderr(), "review-tui: {line}");
}

/// Writes to standard output. A reader that went away (`| head -1`) is no error: the rest was
/// not wanted. Any other failure (a full disk) is one, exit 4.
fn write_stdout(text: &str) -> anyhow::Result<()> {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
            Err(anyhow::Error::new(e).context("could not write to standard output"))
        }
        _ => Ok(()),
    }
}

fn exit(code: Exit) -> ExitCode {
    ExitCode::from(code.code() as u8)
}

fn run(mut cli: Cli, matches: &clap::ArgMatches) -> anyhow::Result<Exit> {
    match &cli.command {
        Some(Command::Evaluate { file, format }) => return evaluate_command(file, *format),
        Some(Command::Config { action }) => return config_command(*action),
        Some(Command::Inbox { .. }) => return inbox_command(&cli),
        Some(Command::Ask { .. }) => return ask_command(&cli),
        Some(Command::Comment { .. }) => return comment_command(&cli),
        Some(Command::Reply { .. } | Command::Resolve { .. }) => return thread_command(&cli),
        Some(Command::Gc {
            dry_run,
            max_age,
            max_tag_store,
            data_dir,
        }) => {
            return gc_command(
                *dry_run,
                max_age.as_deref(),
                max_tag_store.as_deref(),
                data_dir.as_deref(),
            );
        }
        None => {}
    }
    // `review-tui` alone: outside any repository the inbox; inside one, the current branch
    // (as `review-tui .`), with the inbox one key away.
    // The repository is looked for only then: a named PR starts without that walk.
    if cli.pr.is_none() && !cli.demo {
        if git2::Repository::discover(".").is_ok() {
            cli.pr = Some(".".to_string());
        } else if !cli.headless {
            return inbox_command(&inbox_cli(&cli)?);
        }
    }
    // Every flag is checked before anything is fetched, written or spent; the warm-up only
    // compiles (nothing is written), so it may start first.
    warm_up();
    check_flags(&cli, matches)?;
    let pr = if cli.demo {
        let root = review_tui::space::data_root(cli.data_dir.as_deref())?;
        let demo = review_tui::demo::build(&root.join("demo").join("acme-client"))?;
        demo.reference()
    } else {
        match cli.pr.clone() {
            Some(pr) => pr,
            None => anyhow::bail!(
                "no pull request given: pass a PR (see `review-tui --help`), run `review-tui inbox` for every review waiting for you, or `review-tui evaluate FILE` to check a report"
            ),
        }
    };
    // The mirror's objects were checked as they entered it (git's index-pack on a fetch, or
    // the user's own repository linked in). By default libgit2 hashes every object again on
    // each read, a large part of a checkout's CPU; git does not either.
    git2::opts::strict_hash_verification(false);
    let runtime = tokio::runtime::Runtime::new().context("starting the async runtime")?;
    let outcome = if cli.headless {
        let signals = Signals::install(&runtime)?;
        headless_command(&cli, &pr, &runtime, &signals)
    } else {
        let mut to_inbox = false;
        let ended = cockpit_command(&cli, &pr, &runtime, &mut to_inbox);
        if ended.is_ok() && to_inbox {
            drop(runtime);
            return inbox_command(&inbox_cli(&cli)?);
        }
        ended
    };
    if outcome.as_ref().is_err_and(|e| e.is::<Aborted>()) {
        // A git fetch or a reviewer's blocking job still running must not hold the exit:
        // what it would write is written atomically or not at all.
        runtime.shutdown_background();
    }
    outcome
}

// ---- Flags: every one checked before any work ----

/// The reference as typed, with the uncommitted work `--worktree`, `--staged` or `--watch`
/// asks for.
fn reference_of(cli: &Cli, pr: &str) -> anyhow::Result<reference::PrRef> {
    let parsed = reference::parse(pr, cli.base.as_deref(), cli.head.as_deref())?;
    Ok(match uncommitted_asked(cli) {
        Some(which) => parsed.with_uncommitted(which)?,
        None => parsed,
    })
}

/// `--staged`, `--worktree`, or `--watch` (which watches the working tree).
fn uncommitted_asked(cli: &Cli) -> Option<review_tui::pr::uncommitted::Uncommitted> {
    use review_tui::pr::uncommitted::Uncommitted;
    if cli.staged {
        Some(Uncommitted::Staged)
    } else if cli.worktree || cli.watch {
        Some(Uncommitted::WorkingTree)
    } else {
        None
    }
}

/// Checks every flag (and the user's config file) before anything is fetched, written or spent:
/// a typo found after a ten-minute review costs the review.
fn check_flags(cli: &Cli, matches: &clap::ArgMatches) -> anyhow::Result<()> {
    use clap::parser::ValueSource;
    use review_tui::reviewers::model::budget::{Budget, Limit};
    // A value set in the environment is named as the variable: the person never typed a flag.
    let named = |id: &str, flag: &'static str, var: &'static str| {
        if matches.value_source(id) == Some(ValueSource::EnvVariable) {
            var
        } else {
            flag
        }
    };
    if let Some(dir) = &cli.data_dir
        && dir.as_os_str().is_empty()
    {
        match named("data_dir", "--data-dir", "REVIEW_TUI_DATA_DIR") {
            "REVIEW_TUI_DATA_DIR" => anyhow::bail!(
                "REVIEW_TUI_DATA_DIR is set but empty: unset it, or set it to the directory \
                 review spaces go in"
            ),
            _ => anyhow::bail!("--data-dir is empty: name the directory review spaces go in"),
        }
    }
    if let Some(url) = cli.api_url.as_deref().filter(|u| !u.trim().is_empty()) {
        review_tui::pr::connect::parse_api_url(url)
            .with_context(|| format!("--api-url {url:?} is not an API address"))?;
    }
    if !cli.headless {
        for (given, flag) in [
            (cli.format != ReportFormat::Text, "--format"),
            (cli.output.is_some(), "--output"),
            (cli.publish, "--publish"),
        ] {
            if given {
                anyhow::bail!(
                    "{flag} is for a headless run: add --headless (the cockpit shows the review \
                     and publishes from its approval gate)"
                );
            }
        }
    }
    if let Some(pr) = &cli.pr {
        reference_of(cli, pr)?;
    } else if cli.base.is_some() || cli.head.is_some() {
        anyhow::bail!("--base and --head go with a local repository PATH");
    } else if uncommitted_asked(cli).is_some() {
        let flag = [
            (cli.worktree, "--worktree"),
            (cli.staged, "--staged"),
            (cli.watch, "--watch"),
        ]
        .into_iter()
        .find_map(|(given, flag)| given.then_some(flag))
        .unwrap_or("--worktree");
        anyhow::bail!("{flag} goes with a local repository PATH (`review-tui . {flag}`)");
    }
    if let Some(theme) = &cli.theme {
        review_tui::ui::Theme::load(theme)?;
    }
    if let Some(path) = &cli.output {
        check_output_path(path)?;
    }
    for file in &cli.sarif {
        check_readable(file, "--sarif")?;
    }
    if let Some(file) = &cli.replay {
        check_readable(file, "--replay")?;
    }
    if let Some(file) = &cli.record {
        check_output_path(file).context("--record")?;
    }
    if let Some(url) = &cli.model_url
        && !is_http_url(url)
    {
        anyhow::bail!("--model-url {url:?} is not an http(s) URL (http://127.0.0.1:11434/v1)");
    }
    // The user's config file: its errors name the key and line, and it names known rules.
    let user = review_tui::config::load_user()?;
    // Only a config that tunes rules can name one that does not exist; the catalog is then
    // the warm-up's (one compile per process), never compiled here again.
    let unknown = if user.tunes_rules() {
        builtin_catalog().with_overrides(&user).notes().to_vec()
    } else {
        Vec::new()
    };
    if !unknown.is_empty() {
        anyhow::bail!(
            "{}: {} (rule ids are listed in assets/rules/*.toml; a `namespace/*` or \
             `category/*` selects many)",
            review_tui::config::user_config_path()
                .map(|p| p.display().to_string())
                .unwrap_or_else(|| "the config file".into()),
            unknown.join("; ")
        );
    }
    if let Some(text) = cli.budget.as_ref().or(user.models.budget.as_ref()) {
        let limit = Limit::parse(text)?;
        let pricing = match (
            user.models.price_input_per_mtok,
            user.models.price_output_per_mtok,
        ) {
            (Some(input), Some(output)) => Some(review_tui::reviewers::model::agent::Pricing {
                input_usd_per_mtok: input,
                output_usd_per_mtok: output,
            }),
            _ => None,
        };
        Budget::new(Some(limit), pricing)?;
    }
    Ok(())
}

fn is_http_url(text: &str) -> bool {
    text.trim().starts_with("http://") || text.trim().starts_with("https://")
}

/// A file the run will write: checked the way it will be written, before any work, so a
/// review is never recorded and then lost for want of a place to put its report.
fn check_output_path(path: &std::path::Path) -> anyhow::Result<()> {
    review_tui::space::check_output(path).map_err(|e| {
        let parent = path.parent().filter(|p| !p.as_os_str().is_empty());
        match parent {
            Some(dir) if !dir.is_dir() => anyhow::anyhow!(
                "cannot write {}: the directory {} does not exist",
                path.display(),
                dir.display()
            ),
            _ => anyhow::anyhow!("cannot write {}: {e}", path.display()),
        }
    })
}

fn check_readable(path: &std::path::Path, flag: &str) -> anyhow::Result<()> {
    std::fs::File::open(path)
        .map(drop)
        .with_context(|| format!("{flag} {}", path.display()))
}

// ---- `review-tui config path|show` ----

fn config_command(action: ConfigAction) -> anyhow::Result<Exit> {
    let path = review_tui::config::user_config_path();
    match action {
        ConfigAction::Path => {
            let path =
                path.context("this platform has no config directory: set REVIEW_TUI_CONFIG")?;
            write_stdout(&format!("{}\n", path.display()))?;
        }
        ConfigAction::Show => {
            let shown = review_tui::config::show(path.as_deref())?;
            write_stdout(&shown)?;
        }
    }
    Ok(Exit::Ship)
}

/// `review-tui gc`: what the caches no longer need goes (or, with `--dry-run`, is listed).
fn gc_command(
    dry_run: bool,
    max_age: Option<&str>,
    max_tag_store: Option<&str>,
    data_dir: Option<&std::path::Path>,
) -> anyhow::Result<Exit> {
    use review_tui::gc::{self, GcOptions, human_bytes};
    let user = review_tui::config::load_user()?;
    let (text, origin) = match (max_age, user.cache_max_age.as_deref()) {
        (Some(text), _) => (Some(text), "--max-age"),
        (None, Some(text)) => (Some(text), "[cache] max_age"),
        (None, None) => (None, ""),
    };
    let max_age = match text {
        Some(text) => humantime::parse_duration(text.trim()).map_err(|_| {
            anyhow::anyhow!("{origin} {text:?} is not a duration (\"30d\", \"12h\")")
        })?,
        None => gc::DEFAULT_MAX_AGE,
    };
    let (text, origin) = match (max_tag_store, user.cache_max_tag_store.as_deref()) {
        (Some(text), _) => (Some(text), "--max-tag-store"),
        (None, Some(text)) => (Some(text), "[cache] max_tag_store"),
        (None, None) => (None, ""),
    };
    let max_tag_store = match text {
        Some(text) => Some(gc::parse_size(text).ok_or_else(|| {
            anyhow::anyhow!("{origin} {text:?} is not a size (\"40MB\", \"512KB\", \"1GB\")")
        })?),
        None => None,
    };
    let root = review_tui::space::data_root(data_dir)?;
    let options = GcOptions {
        max_age,
        max_tag_store,
        dry_run,
        now: std::time::SystemTime::now(),
    };
    let report = gc::gc(&root, &options)?;
    let verb = if dry_run { "would remove" } else { "removed" };
    let mut out = String::new();
    for removal in &report.removals {
        let size = match removal.kind {
            gc::Kind::MirrorRef | gc::Kind::WorktreeRegistration => String::new(),
            _ => human_bytes(removal.bytes),
        };
        out.push_str(&format!(
            "{verb} {size:>9}  {}  ({})\n",
            review_tui::printable::line(&gc::describe(&removal.target)),
            removal.why
        ));
    }
    for skipped in &report.skipped {
        out.push_str(&format!(
            "skipped: {}\n",
            review_tui::printable::line(skipped)
        ));
    }
    for failed in &report.failed {
        out.push_str(&format!(
            "not removed: {}\n",
            review_tui::printable::line(failed)
        ));
    }
    out.push_str(&format!(
        "{}: {} in {} item(s) under {}{}\n",
        if dry_run { "would free" } else { "freed" },
        human_bytes(report.removed_bytes()),
        report.removals.len(),
        root.display(),
        if dry_run {
            " (dry run: nothing was removed)"
        } else {
            ""
        }
    ));
    let kept: Vec<String> = (report.kept.iter())
        .map(|(what, bytes)| format!("{what} {}", human_bytes(*bytes)))
        .collect();
    out.push_str(&format!("kept: {}\n", kept.join(", ")));
    write_stdout(&out)?;
    if report.failed.is_empty() {
        Ok(Exit::Ship)
    } else {
        anyhow::bail!(
            "{} item(s) could not be removed (listed above); everything else was",
            report.failed.len()
        )
    }
}

// ---- `review-tui inbox`: every review waiting for me ----

/// `review-tui inbox` with the data directory, API and theme of this run's flags.
fn inbox_cli(cli: &Cli) -> anyhow::Result<Cli> {
    use clap::Parser;
    let mut args: Vec<std::ffi::OsString> = vec!["review-tui".into(), "inbox".into()];
    if let Some(dir) = &cli.data_dir {
        args.extend(["--data-dir".into(), dir.into()]);
    }
    if let Some(url) = &cli.api_url {
        args.extend(["--api-url".into(), url.into()]);
    }
    if let Some(theme) = &cli.theme {
        args.extend(["--theme".into(), theme.into()]);
    }
    // The reviews opened from the inbox are reviewed as this one was.
    let mut flag = |name: &str, value: Option<std::ffi::OsString>| {
        if let Some(value) = value {
            args.extend([name.into(), value]);
        }
    };
    flag("--level", cli.level.map(|l| l.to_string().into()));
    flag("--model-url", cli.model_url.clone().map(Into::into));
    flag("--model", cli.model.clone().map(Into::into));
    flag("--provider", cli.provider.clone().map(Into::into));
    flag(
        "--provider-command",
        cli.provider_command.clone().map(Into::into),
    );
    flag("--replay", cli.replay.clone().map(Into::into));
    flag("--budget", cli.budget.clone().map(Into::into));
    if cli.deterministic_only {
        args.push("--deterministic-only".into());
    }
    Ok(Cli::try_parse_from(args)?)
}

/// The inbox's setup from the user's config: where the spaces and the cache are, which
/// sections, which repositories the searches are scoped to.
fn inbox_setup(
    user: &Config,
    data_dir: Option<&std::path::Path>,
) -> anyhow::Result<review_tui::session::inbox::InboxSetup> {
    use review_tui::session::inbox::{InboxSetup, cache};
    let data_root = review_tui::space::data_root(data_dir)?;
    Ok(InboxSetup {
        cache: cache::path(&data_root, data_dir.is_some()),
        data_root,
        sections: InboxSetup::sections_of(user.inbox.sections.as_deref())?,
        query: review_tui::pr::inbox::InboxQuery {
            requested: true,
            authored: true,
            repos: user.inbox.repos.clone(),
            orgs: user.inbox.orgs.clone(),
        },
    })
}

fn inbox_command(cli: &Cli) -> anyhow::Result<Exit> {
    use review_tui::session::inbox::{self, render};
    let Some(Command::Inbox {
        format,
        cached,
        review_all,
        data_dir,
        api_url,
        ..
    }) = &cli.command
    else {
        unreachable!("inbox_command is called for `review-tui inbox`");
    };
    if let Some(url) = api_url.as_deref().filter(|u| !u.trim().is_empty()) {
        review_tui::pr::connect::parse_api_url(url)
            .with_context(|| format!("--api-url {url:?} is not an API address"))?;
    }
    let user = review_tui::config::load_user()?;
    let setup = inbox_setup(&user, data_dir.as_deref())?;
    let mut connection = review_tui::pr::registry::connection(&user)?;
    connection.api_url = api_url.clone();
    connection.notices = Some(Notices::new(|notice: String| say(notice)));
    git2::opts::strict_hash_verification(false);
    let runtime = tokio::runtime::Runtime::new().context("starting the async runtime")?;
    if *review_all {
        return review_all_command(cli, &setup, &connection, &runtime);
    }
    let Some(format) = format else {
        let theme = match &cli.command {
            Some(Command::Inbox { theme, .. }) => theme.clone(),
            _ => None,
        };
        let source = inbox::InboxSource { setup, connection };
        return inbox_screen(source, theme, inbox_review_flags(cli), &runtime);
    };
    let list = if *cached {
        inbox::from_cache(&setup)
    } else {
        runtime.block_on(inbox::refresh(&setup, &connection))
    };
    let now = std::time::SystemTime::now();
    // Redacted on the way out, as a report is: a title or a forge's error may carry a secret.
    match format {
        VerdictFormat::Json => {
            let json = redacted_json(serde_json::to_value(&list)?);
            write_stdout(&(serde_json::to_string_pretty(&json)? + "\n"))?
        }
        VerdictFormat::Text => write_stdout(&outbound(&render::text(&list, now)))?,
    }
    Ok(Exit::Ship)
}

/// The inbox screen, and the cockpit on each PR opened from it: leaving the cockpit comes
/// back to the inbox, where the row shows its space as the cockpit left it.
fn inbox_screen(
    mut source: review_tui::session::inbox::InboxSource,
    theme: Option<String>,
    review_flags: Vec<std::ffi::OsString>,
    runtime: &tokio::runtime::Runtime,
) -> anyhow::Result<Exit> {
    use clap::Parser;
    use review_tui::ui::inbox::{InboxExit, InboxResume, run_inbox_screen};
    review_tui::ui::app::check_terminal()?;
    let user = review_tui::config::load_user()?;
    let mut args: Vec<std::ffi::OsString> = vec!["review-tui".into()];
    if let Some(theme) = &theme {
        args.extend(["--theme".into(), theme.into()]);
    }
    let base = Cli::try_parse_from(&args)?;
    let cx = view_context(&base, &user)?;
    // Said on the screen, not under it.
    source.connection.notices = None;
    let source = std::sync::Arc::new(source);
    let mut resume = InboxResume::default();
    let mut first = true;
    loop {
        let exit = runtime.block_on(run_inbox_screen(source.clone(), &cx, resume, first))?;
        first = false;
        let InboxExit::Open {
            reference,
            resume: back,
        } = exit
        else {
            return Ok(Exit::Ship);
        };
        resume = back;
        let mut args = vec!["review-tui".into(), std::ffi::OsString::from(&reference)];
        args.extend(review_flags.iter().cloned());
        if let Some(theme) = &theme {
            args.extend(["--theme".into(), theme.into()]);
        }
        let opened = Cli::try_parse_from(args)
            .map_err(anyhow::Error::from)
            .and_then(|cli| cockpit_command(&cli, &reference, runtime, &mut false));
        // A PR that could not be opened is said on the inbox's screen; the inbox stays.
        if let Err(error) = opened {
            resume.message = Some(describe(&error));
        }
    }
}

/// The arguments of one PR's review in `--review-all`: the PR and the review flags the inbox
/// was given, as if typed for a headless review of it.
fn review_all_args(cli: &Cli, reference: &str) -> Vec<std::ffi::OsString> {
    let mut args: Vec<std::ffi::OsString> =
        vec!["review-tui".into(), reference.into(), "--headless".into()];
    args.extend(inbox_review_flags(cli));
    args
}

/// The review flags `review-tui inbox` was given (data directory, API, level, models,
/// budget), as a review of one of its PRs takes them: every review the inbox runs or opens is
/// reviewed the way the person asked.
fn inbox_review_flags(cli: &Cli) -> Vec<std::ffi::OsString> {
    let Some(Command::Inbox {
        data_dir,
        api_url,
        level,
        deterministic_only,
        model_url,
        model,
        provider,
        provider_command,
        replay,
        budget,
        ..
    }) = &cli.command
    else {
        return Vec::new();
    };
    let mut args: Vec<std::ffi::OsString> = Vec::new();
    let mut flag = |name: &str, value: Option<std::ffi::OsString>| {
        if let Some(value) = value {
            args.push(name.into());
            args.push(value);
        }
    };
    flag("--data-dir", data_dir.clone().map(Into::into));
    flag("--api-url", api_url.clone().map(Into::into));
    flag("--level", level.map(|l| l.to_string().into()));
    flag("--model-url", model_url.clone().map(Into::into));
    flag("--model", model.clone().map(Into::into));
    flag("--provider", provider.clone().map(Into::into));
    flag(
        "--provider-command",
        provider_command.clone().map(Into::into),
    );
    flag("--replay", replay.clone().map(Into::into));
    flag("--budget", budget.clone().map(Into::into));
    if *deterministic_only {
        args.push("--deterministic-only".into());
    }
    args
}

/// `review-tui inbox --review-all`: a round on every PR whose review is requested from me and
/// whose head no round of mine reviewed yet, `--jobs` at a time, each in this process on its
/// own thread. Nothing is published. A PR's failure is its own line; the others go on. A kill
/// loses nothing: every space write is atomic, an interrupted round is run again by the next
/// run, and a completed one is never run twice (its head is skipped).
fn review_all_command(
    cli: &Cli,
    setup: &review_tui::session::inbox::InboxSetup,
    connection: &review_tui::pr::connect::Connection,
    runtime: &tokio::runtime::Runtime,
) -> anyhow::Result<Exit> {
    use clap::Parser;
    use review_tui::session::inbox::{self, Section};
    let Some(Command::Inbox { jobs, .. }) = &cli.command else {
        return Ok(Exit::Error);
    };
    // Every review's flags are checked before anything is reviewed.
    let probe = Cli::try_parse_from(review_all_args(cli, "."))
        .map_err(|e| anyhow::anyhow!("{}", e.to_string().lines().next().unwrap_or("")))?;
    let user = review_tui::config::load_user()?;
    check_models(&probe, &user)?;
    warm_up();
    let list = runtime.block_on(inbox::refresh(setup, connection));
    if let Some(offline) = &list.offline {
        anyhow::bail!("{offline}: reviewing needs the forge; run it again once it can be reached");
    }
    for notice in &list.notices {
        say(notice);
    }
    let mut queue = std::collections::VecDeque::new();
    let mut skipped = 0;
    let mut seen = std::collections::BTreeSet::new();
    for row in list.rows.iter().filter(|r| r.section == Section::Requested) {
        if !seen.insert(row.reference.clone()) {
            continue;
        }
        let name = format!(
            "{}/{}{}",
            row.forge.to_ascii_lowercase(),
            row.repo,
            row.number
        );
        if row.needs_round() {
            queue.push_back((name, row.reference.clone()));
        } else {
            skipped += 1;
            let head = row
                .head_sha
                .as_deref()
                .unwrap_or("")
                .get(..12)
                .unwrap_or("");
            write_stdout(&format!(
                "skipped {}: already reviewed at {head}\n",
                review_tui::printable::line(&name)
            ))?;
        }
    }
    let jobs = usize::from(jobs.unwrap_or(2)).min(queue.len().max(1));
    let queue = std::sync::Arc::new(std::sync::Mutex::new(queue));
    let (done, results) = std::sync::mpsc::channel();
    let mut workers = Vec::new();
    for _ in 0..jobs {
        let (queue, done) = (queue.clone(), done.clone());
        let handle = runtime.handle().clone();
        let template = review_all_args(cli, "");
        workers.push(std::thread::spawn(move || {
            loop {
                let next = queue.lock().unwrap_or_else(|e| e.into_inner()).pop_front();
                let Some((name, reference)) = next else {
                    break;
                };
                // The PR is the first argument after the program's name.
                let mut args = template.clone();
                args[1] = reference.into();
                let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    handle.block_on(review_waiting(args))
                }))
                .unwrap_or_else(|_| Err(anyhow::anyhow!("the review panicked")));
                if done.send((name, outcome)).is_err() {
                    break;
                }
            }
        }));
    }
    drop(done);
    let (mut reviewed, mut failed) = (0, 0);
    for (name, outcome) in results {
        let name = review_tui::printable::line(&name).into_owned();
        match outcome {
            Ok(said) => {
                reviewed += 1;
                write_stdout(&format!("reviewed {name}: {said}\n"))?;
            }
            Err(error) => {
                failed += 1;
                say(format!("{name}: {}", describe(&error)));
            }
        }
    }
    for worker in workers {
        let _ = worker.join();
    }
    write_stdout(&format!(
        "review-all: {reviewed} reviewed, {failed} failed, {skipped} skipped (nothing was published)\n"
    ))?;
    Ok(if failed > 0 { Exit::Error } else { Exit::Ship })
}

/// One PR's round for `--review-all`, quietly (the lines are the caller's): prepared, checked
/// for eligibility, reviewed, never published. Says the verdict and the round.
async fn review_waiting(args: Vec<std::ffi::OsString>) -> anyhow::Result<String> {
    use clap::Parser;
    let cli = Cli::try_parse_from(args)?;
    let pr = cli.pr.clone().unwrap_or_default();
    let reference = reference_of(&cli, &pr)?;
    let user = review_tui::config::load_user()?;
    let mut options = prepare_options(&cli, &user)?;
    options.connection.notices = None;
    let mut prepared = prepare(reference, &options).await?;
    if let Some(offline) = &prepared.offline {
        anyhow::bail!("{} could not be reached: {}", offline.forge, offline.reason);
    }
    if prepared.is_empty() {
        return Ok("nothing to review: the range has no changes".into());
    }
    let rerun = review_tui::publish::rerun(
        prepared.space.state(),
        &mut prepared.eligibility,
        asked(&cli),
    );
    if !prepared.eligibility.is_empty() && rerun != Rerun::NewRound {
        let reasons: Vec<String> = prepared.eligibility.iter().map(|r| r.to_string()).collect();
        return Ok(format!("not reviewed: {}", reasons.join("; ")));
    }
    let config = review_config(user, &prepared)?;
    let review = review_options(&cli, &prepared, &config)?;
    let review = ReviewOptions {
        force: review.force || rerun == Rerun::NewRound,
        ..review
    };
    let mut session = new_session(prepared, &cli, &config, review, false)?;
    let result = session.run_round(None, None).await?;
    let round = session
        .prepared()
        .space
        .state()
        .current_round()
        .map_or(0, |r| r.number);
    Ok(format!("{} (round {round})", result.verdict.decision))
}

// ---- Signals: Ctrl-C, SIGTERM and SIGHUP stop a headless run with exit 2 ----

/// The run was stopped by a signal. Exit 2, as documented for "aborted by the user".
#[derive(Debug)]
struct Aborted(&'static str);

impl std::fmt::Display for Aborted {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "aborted by {}: nothing more was done; the review space keeps every decision \
             recorded so far (run the same command again to resume)",
            self.0
        )
    }
}

impl std::error::Error for Aborted {}

/// A watcher installed once for the whole run, so a signal that arrives between two steps is
/// not lost (once a handler is installed the default action, dying silently, is gone).
struct Signals {
    received: tokio::sync::watch::Receiver<Option<&'static str>>,
}

impl Signals {
    fn install(runtime: &tokio::runtime::Runtime) -> anyhow::Result<Signals> {
        let (sender, received) = tokio::sync::watch::channel(None);
        let _inside = runtime.enter();
        #[cfg(unix)]
        {
            use tokio::signal::unix::{SignalKind, signal};
            let listen = |kind: SignalKind| signal(kind).context("listening for signals");
            let (mut int, mut term, mut hup) = (
                listen(SignalKind::interrupt())?,
                listen(SignalKind::terminate())?,
                listen(SignalKind::hangup())?,
            );
            runtime.spawn(async move {
                let name = tokio::select! {
                    _ = int.recv() => "Ctrl-C (SIGINT)",
                    _ = term.recv() => "SIGTERM",
                    _ = hup.recv() => "SIGHUP",
                };
                let _ = sender.send(Some(name));
            });
        }
        #[cfg(not(unix))]
        runtime.spawn(async move {
            if tokio::signal::ctrl_c().await.is_ok() {
                let _ = sender.send(Some("Ctrl-C"));
            }
        });
        Ok(Signals { received })
    }

    /// Runs `work` to its end, or until a signal: then `work` is dropped (a reviewer's child
    /// process is killed with it) and the error is [`Aborted`].
    fn run<T>(
        &self,
        runtime: &tokio::runtime::Runtime,
        work: impl std::future::Future<Output = T>,
    ) -> anyhow::Result<T> {
        let mut received = self.received.clone();
        runtime.block_on(async move {
            tokio::select! {
                biased;
                signal = received.wait_for(Option::is_some) => {
                    let name = signal.ok().and_then(|s| *s).unwrap_or("a signal");
                    Err(anyhow::Error::new(Aborted(name)))
                }
                out = work => Ok(out),
            }
        })
    }
}

/// Where the space lives and how the forges are reached (each forge's section of the user's
/// config, e.g. `[github]`: the repository's layer is only known once the PR has been read).
fn prepare_options(cli: &Cli, user: &Config) -> anyhow::Result<PrepareOptions> {
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

// ---- `review-tui ask`: a question to a reviewer, through the session ----

/// Asks a reviewer through the session (the same command the cockpit sends) and prints the
/// answer as it comes: 0 answered, 4 an error, 7 no model provider to answer.
fn ask_command(cli: &Cli) -> anyhow::Result<Exit> {
    use review_tui::review::thread::ThreadState;
    use review_tui::reviewers::model::roster::PROVIDER_ENV_VARS;
    use review_tui::session::{Ask, Command as SessionCommand, SessionEvent};

    let Some(Command::Ask {
        pr,
        question,
        demo,
        finding,
        role,
        format,
        base,
        head,
        data_dir,
        api_url,
        model_url,
        model,
        provider,
        provider_command,
        replay,
        budget,
    }) = &cli.command
    else {
        anyhow::bail!("not an ask command");
    };
    // On the demo the question is the only argument.
    let (pr, question) = match (demo, pr, question) {
        (true, Some(question), None) => (None, question.clone()),
        (false, Some(pr), Some(question)) => (Some(pr.clone()), question.clone()),
        _ => anyhow::bail!(
            "usage: review-tui ask PR \"QUESTION\" (or review-tui ask --demo \"QUESTION\")"
        ),
    };
    if question.trim().is_empty() {
        anyhow::bail!("the question is empty: pass the question as the second argument");
    }
    // The review's own flags, as a review of this PR would read them.
    let mut flags = <Cli as clap::Parser>::try_parse_from(["review-tui"])?;
    flags.data_dir = data_dir.clone();
    flags.api_url = api_url.clone();
    flags.model_url = model_url.clone();
    flags.model = model.clone();
    flags.provider = provider.clone();
    flags.provider_command = provider_command.clone();
    flags.replay = replay.clone();
    flags.budget = budget.clone();
    flags.demo = *demo;
    let pr = match pr {
        Some(pr) => pr,
        None => {
            let root = review_tui::space::data_root(data_dir.as_deref())?;
            review_tui::demo::build(&root.join("demo").join("acme-client"))?.reference()
        }
    };
    let pr = &pr;
    let reference = reference::parse(pr, base.as_deref(), head.as_deref())?;
    let user = review_tui::config::load_user()?;
    let options = prepare_options(&flags, &user)?;
    git2::opts::strict_hash_verification(false);
    let runtime = tokio::runtime::Runtime::new().context("starting the async runtime")?;
    let signals = Signals::install(&runtime)?;
    let prepared = signals.run(&runtime, prepare(reference, &options))??;
    if prepared.space.state().rounds.is_empty() {
        let review = if *demo {
            "review-tui --demo --headless".to_string()
        } else {
            format!("review-tui {pr} --headless")
        };
        anyhow::bail!("{pr} has not been reviewed yet: run `{review}` first, then ask");
    }
    let config = review_config(user, &prepared)?;
    let review = review_options(&flags, &prepared, &config)?;
    let session = new_session(prepared, &flags, &config, review, true)?;
    if !session.can_ask() {
        say(format!(
            "no model provider is configured to answer: set {PROVIDER_ENV_VARS}, or pass \
             --model-url URL --model MODEL (docs/models.md)"
        ));
        // Nothing could answer: the same code as a review no model could finish.
        return Ok(Exit::Inconclusive);
    }
    let (commands, inbox) = tokio::sync::mpsc::unbounded_channel();
    let (events, mut heard) = tokio::sync::mpsc::unbounded_channel();
    let serving = runtime.spawn(review_tui::session::serve(session, inbox, events));
    let _ = commands.send(SessionCommand::Ask(Ask {
        thread: None,
        finding: finding.clone(),
        role: *role,
        question,
    }));
    let mut printed = 0;
    let text = *format == VerdictFormat::Text;
    let listen = async {
        while let Some(event) = heard.recv().await {
            match event {
                SessionEvent::Thread(thread) => {
                    if text && thread.answer.len() > printed {
                        let piece = &thread.answer[printed..];
                        printed = thread.answer.len();
                        write_stdout(&outbound(piece))?;
                    }
                    if !thread.state.is_open() {
                        return Ok(Some(thread));
                    }
                }
                SessionEvent::Failed { title, message } => {
                    anyhow::bail!("{}: {message}", title.to_lowercase())
                }
                _ => {}
            }
        }
        Ok(None)
    };
    let ended = signals.run(&runtime, listen)??;
    drop(commands);
    let _ = runtime.block_on(serving);
    let Some(thread) = ended else {
        anyhow::bail!("the session ended before the answer did");
    };
    if text {
        if printed > 0 {
            write_stdout("\n")?;
        }
        if let Some(line) = review_tui::session::ask::proposal_line(&thread) {
            write_stdout(&outbound(&format!("\n{line} (accept it in the cockpit)\n")))?;
        }
        if thread.state == ThreadState::Answered {
            say(format!(
                "{} answered ({} tokens; kept in the review space as {})",
                thread.reviewer, thread.tokens, thread.id
            ));
        }
    } else {
        let json = redacted_json(serde_json::to_value(&*thread)?);
        write_stdout(&(serde_json::to_string_pretty(&json)? + "\n"))?;
    }
    match thread.state {
        ThreadState::Answered => Ok(Exit::Ship),
        state => {
            say(format!(
                "no complete answer from the {}: {} (the question is kept as {}; ask again)",
                thread.reviewer,
                state.label(),
                thread.id
            ));
            Ok(Exit::Error)
        }
    }
}

/// `PATH:LINE` or `PATH:START-END` on `side`, as the person's finding is anchored.
fn parse_anchor(at: &str, side: &str) -> anyhow::Result<review_tui::review::node::Anchor> {
    use review_tui::review::side::Side;
    let bad =
        || anyhow::anyhow!("--at {at:?}: expected PATH:LINE or PATH:START-END (src/lib.rs:12-14)");
    let (path, lines) = at.rsplit_once(':').ok_or_else(bad)?;
    let (start, end) = lines.split_once('-').unwrap_or((lines, lines));
    let start: u32 = start.trim().parse().map_err(|_| bad())?;
    let end: u32 = end.trim().parse().map_err(|_| bad())?;
    let side = match side.trim().to_ascii_lowercase().as_str() {
        "right" => Side::Right,
        "left" => Side::Left,
        other => anyhow::bail!("--side {other:?}: use right (the head) or left (the base)"),
    };
    Ok(review_tui::review::node::Anchor {
        path: review_tui::repo_path::RepoPath::parse(path.trim())
            .map_err(|e| anyhow::anyhow!("--at {at:?}: {e}"))?,
        side,
        start_line: start,
        end_line: end,
    })
}

/// Adds, edits or deletes the person's own finding through the session (the command the
/// cockpit sends), then prints the verdict it makes: the exit code is the verdict's.
fn comment_command(cli: &Cli) -> anyhow::Result<Exit> {
    use review_tui::review::node::{Kind, Priority};
    use review_tui::review::person::{self, PersonDraft};
    use review_tui::session::Command as SessionCommand;

    let Some(Command::Comment {
        pr,
        text,
        at,
        side,
        priority,
        kind,
        replace,
        edit,
        delete,
        base,
        head,
        data_dir,
        api_url,
    }) = &cli.command
    else {
        anyhow::bail!("not a comment command");
    };
    let command = match delete {
        Some(id) => SessionCommand::DeleteFinding {
            node_id: id.clone(),
        },
        None => {
            let at = at
                .as_deref()
                .ok_or_else(|| anyhow::anyhow!("--at is required"))?;
            let text = text
                .as_deref()
                .filter(|t| !t.trim().is_empty())
                .ok_or_else(|| anyhow::anyhow!("the comment is empty: pass its text"))?;
            let priority = Priority::parse(priority)
                .ok_or_else(|| anyhow::anyhow!("--priority {priority:?}: use P0, P1, P2 or P3"))?;
            let kind = Kind::ALL
                .into_iter()
                .find(|k| k.as_str() == kind.trim().to_ascii_lowercase())
                .ok_or_else(|| {
                    anyhow::anyhow!(
                        "--kind {kind:?}: use bug, suggestion, recommendation, question or ticket"
                    )
                })?;
            let draft = PersonDraft {
                anchor: parse_anchor(at, side)?,
                kind,
                priority,
                text: text.to_string(),
                replacement: (!replace.is_empty()).then(|| replace.clone()),
            };
            SessionCommand::PutFinding {
                node_id: edit.clone().unwrap_or_default(),
                draft,
            }
        }
    };
    let mut flags = <Cli as clap::Parser>::try_parse_from(["review-tui"])?;
    flags.data_dir = data_dir.clone();
    flags.api_url = api_url.clone();
    let reference = reference::parse(pr, base.as_deref(), head.as_deref())?;
    let user = review_tui::config::load_user()?;
    let options = prepare_options(&flags, &user)?;
    git2::opts::strict_hash_verification(false);
    let runtime = tokio::runtime::Runtime::new().context("starting the async runtime")?;
    let signals = Signals::install(&runtime)?;
    let prepared = signals.run(&runtime, prepare(reference, &options))??;
    if prepared.space.state().rounds.is_empty() {
        anyhow::bail!(
            "{pr} has not been reviewed yet: run `review-tui {pr} --headless` first, then comment"
        );
    }
    let command = match command {
        SessionCommand::PutFinding { node_id, draft } if node_id.is_empty() => {
            SessionCommand::PutFinding {
                node_id: person::next_id(&prepared.space.state().nodes),
                draft,
            }
        }
        other => other,
    };
    let id = match &command {
        SessionCommand::PutFinding { node_id, .. } | SessionCommand::DeleteFinding { node_id } => {
            node_id.clone()
        }
        _ => String::new(),
    };
    let config = review_config(user, &prepared)?;
    let review = ReviewOptions {
        level: prepared.chosen_level().unwrap_or(config.level),
        api_advisory: config.api_advisory.clone(),
        ..ReviewOptions::default()
    };
    let mut session = new_session(prepared, &flags, &config, review, false)?;
    match command {
        SessionCommand::PutFinding { node_id, draft } => session.put_finding(&node_id, draft)?,
        SessionCommand::DeleteFinding { node_id } => session.delete_finding(&node_id)?,
        _ => {}
    }
    // What the round decides now, as every report reads it.
    let snapshot = session.snapshot();
    let done = if delete.is_some() { "deleted" } else { "saved" };
    say(format!("{id} {done}"));
    write_stdout(&review_tui::report::verdict_text::text(&snapshot.verdict))?;
    Ok(Exit::from(snapshot.verdict.decision))
}

/// `review-tui reply` and `review-tui resolve`: a draft on one of the PR's review threads,
/// kept in the space until a publish posts it.
fn thread_command(cli: &Cli) -> anyhow::Result<Exit> {
    use review_tui::session::thread_drafts;
    use review_tui::space::thread_draft::{ThreadAction, ThreadDraft};
    let (pr, thread, delete, data_dir, api_url, action) = match &cli.command {
        Some(Command::Reply {
            pr,
            text,
            thread,
            delete,
            data_dir,
            api_url,
        }) => {
            let action = match delete {
                Some(_) => None,
                None => Some(ThreadAction::Reply {
                    text: outbound(
                        text.as_deref()
                            .filter(|t| !t.trim().is_empty())
                            .ok_or_else(|| anyhow::anyhow!("the reply is empty: pass its text"))?,
                    ),
                }),
            };
            (pr, thread, delete, data_dir, api_url, action)
        }
        Some(Command::Resolve {
            pr,
            thread,
            unresolve,
            delete,
            data_dir,
            api_url,
        }) => {
            let action = match (delete, unresolve) {
                (Some(_), _) => None,
                (None, true) => Some(ThreadAction::Unresolve),
                (None, false) => Some(ThreadAction::Resolve),
            };
            (pr, thread, delete, data_dir, api_url, action)
        }
        _ => anyhow::bail!("not a thread command"),
    };
    let mut flags = <Cli as clap::Parser>::try_parse_from(["review-tui"])?;
    flags.data_dir = data_dir.clone();
    flags.api_url = api_url.clone();
    let reference = reference::parse(pr, None, None)?;
    let user = review_tui::config::load_user()?;
    let options = prepare_options(&flags, &user)?;
    git2::opts::strict_hash_verification(false);
    let runtime = tokio::runtime::Runtime::new().context("starting the async runtime")?;
    let signals = Signals::install(&runtime)?;
    let mut prepared = signals.run(&runtime, prepare(reference, &options))??;
    if let Some(id) = delete {
        let removed = prepared.space.update(|state| -> anyhow::Result<bool> {
            Ok(thread_drafts::remove(&mut state.thread_drafts, id))
        })?;
        if !removed {
            anyhow::bail!("{id}: no draft of that id waits to be posted");
        }
        say(format!("{id} deleted"));
        return Ok(Exit::Ship);
    }
    let wanted = thread.as_deref().unwrap_or_default();
    if let Some(notice) = &prepared.threads.notice {
        anyhow::bail!("{notice}");
    }
    let found = thread_drafts::find(&prepared.threads.threads, wanted)
        .cloned()
        .ok_or_else(|| {
            anyhow::anyhow!(
                "--thread {wanted:?}: no review thread of that id (or with a comment of that number) on {pr}"
            )
        })?;
    let action = action.expect("an action unless deleting");
    let at = review_tui::pr::http::utc_time(review_tui::pr::http::now_epoch());
    let draft = prepared
        .space
        .update(|state| -> anyhow::Result<ThreadDraft> {
            let id = thread_drafts::next_id(&state.thread_drafts, &action);
            let draft = thread_drafts::draft(id, &found, action, at);
            state.thread_drafts.push(draft.clone());
            Ok(draft)
        })?;
    say(format!(
        "{} saved: posted by the next publish (`review-tui {pr} --headless --publish`)",
        draft.describe()
    ));
    Ok(Exit::Ship)
}

/// The configuration of this review, loaded once: the user's file (already read, it chose how
/// GitHub was called) with the repository's file at the PR's base laid over it.
fn review_config(
    mut user: Config,
    prepared: &review_tui::session::prepare::Prepared,
) -> anyhow::Result<Config> {
    let repo = git2::Repository::open_bare(prepared.space.mirror())
        .context("opening the review space's mirror")?;
    let base = prepared.space.state().base_sha.clone();
    user.apply_repository(&repo, &base)?;
    Ok(user)
}

fn headless_command(
    cli: &Cli,
    pr: &str,
    runtime: &tokio::runtime::Runtime,
    signals: &Signals,
) -> anyhow::Result<Exit> {
    let reference = reference_of(cli, pr)?;
    warn_uncommitted(&reference);
    let user = review_tui::config::load_user()?;
    check_models(cli, &user)?;
    let options = prepare_options(cli, &user)?;
    let mut prepared = signals.run(runtime, prepare(reference, &options))??;
    if let Some(corruption) = &prepared.opened.corruption {
        say(format!("warning: {corruption}"));
    }
    if prepared.offline.is_some() {
        return offline_headless(cli, prepared, user, runtime, signals);
    }
    if prepared.is_empty() {
        write_report(cli, &prepare_report(cli, &prepared))?;
        say("nothing to review: the range has no changes");
        return Ok(Exit::NothingToReview);
    }
    // A head with a completed round: an Inconclusive round, or one with other reviewers, is
    // reviewed again as a new round; `--publish` posts the recorded round (never posted, or cut
    // short); an unpublished round is reported as recorded. Only a published one refuses.
    let rerun = review_tui::publish::rerun(
        prepared.space.state(),
        &mut prepared.eligibility,
        asked(cli),
    );
    if !prepared.eligibility.is_empty() && !cli.force && rerun != Rerun::PublishRecorded {
        write_report(cli, &prepare_report(cli, &prepared))?;
        let reasons: Vec<String> = prepared.eligibility.iter().map(|r| r.to_string()).collect();
        say(format!(
            "not eligible: {} (pass --force to review anyway)",
            reasons.join("; ")
        ));
        return Ok(Exit::NotEligible);
    }

    let config = review_config(user, &prepared)?;
    let review = review_options(cli, &prepared, &config)?;
    let review = ReviewOptions {
        force: review.force || rerun == Rerun::NewRound,
        ..review
    };
    let reviews = !matches!(rerun, Rerun::PublishRecorded | Rerun::ReportRecorded);
    if reviews && review.models.is_none() && !review.deterministic_only {
        say(review_tui::session::no_model::LONG);
    }
    let mut session = new_session(prepared, cli, &config, review, false)?;
    // The pre-run estimate goes to stderr before the model reviewers are dispatched, and a
    // server that keeps a reviewer waiting is said while it lasts, not after minutes of silence.
    let (tap, mut taps) = tokio::sync::mpsc::unbounded_channel();
    let estimates = std::thread::spawn(move || {
        use review_tui::review::events::EventKind;
        use review_tui::reviewers::model::passes::PassNote;
        use review_tui::reviewers::model::provider::Heard;
        while let Some(event) = taps.blocking_recv() {
            match event {
                round::Tap::Estimate(estimate) => say(estimate),
                round::Tap::Event(review_tui::review::events::ReviewEvent {
                    reviewer,
                    kind: EventKind::Waiting { host, waited_secs },
                    ..
                }) => say(format!(
                    "waiting for {host} (reviewer {reviewer}): {waited_secs} s, no complete answer yet"
                )),
                round::Tap::Event(review_tui::review::events::ReviewEvent {
                    reviewer,
                    kind:
                        EventKind::Retrying {
                            attempt,
                            of,
                            wait_secs,
                            reason,
                            ..
                        },
                    ..
                }) => say(format!(
                    "reviewer {reviewer}: {}",
                    review_tui::review::events::retry_note(attempt, of, wait_secs, &reason)
                )),
                // The passes after the reviewers are held up the same ways.
                round::Tap::Pass(phase, PassNote::Heard(Heard::Retrying(note))) => {
                    say(format!("{phase}: {}", note.said()))
                }
                round::Tap::Pass(phase, PassNote::Heard(Heard::Waiting { host, waited_secs })) => {
                    say(format!(
                        "waiting for {host} ({phase}): {waited_secs} s, no complete answer yet"
                    ))
                }
                _ => {}
            }
        }
    });
    let result = if rerun == Rerun::PublishRecorded {
        say(
            "this head was already reviewed: publishing its recorded round (--force reviews it again)",
        );
        drop(tap);
        Ok(session.snapshot())
    } else if rerun == Rerun::ReportRecorded {
        say(
            "this head was already reviewed and not published: reporting its recorded round \
             (--publish posts it, --force reviews it again)",
        );
        drop(tap);
        // The round's cohorts and axes as the review that recorded it reported them (from the
        // space's cache, built again if it is gone): the same report, not a thinner one.
        signals.run(runtime, session.cohorts())?;
        Ok(session.snapshot())
    } else {
        signals.run(runtime, session.run_round(Some(tap), None))?
    };
    let _ = estimates.join();
    let result = result?;
    for line in failed_reviewers(&result) {
        say(line);
    }

    // Publishing is a mutating action: only with --publish.
    let mut posted_body = None;
    let mut publish_failed = false;
    let mut head_moved = false;
    if cli.publish {
        let outcome = signals.run(runtime, async {
            let preview = session.preview().await?;
            for line in review_tui::publish::thread_posts::pending(&session.prepared().space) {
                say(format!("will post: {line}"));
            }
            for raised in &preview.already_raised {
                say(format!(
                    "left out: {} {}: already raised by @{} in an open thread \
                     (--include-raised posts it; it still counts in the verdict)",
                    raised.location, raised.title, raised.by
                ));
            }
            posted_body = Some(preview.body.clone());
            session.publish().await
        })?;
        let threads_too = matches!(outcome, Ok(_) | Err(PublishError::AlreadyPublished { .. }));
        match outcome {
            Ok(published) => say(published),
            // Idempotent: the round is on the PR already; say where, keep the verdict's code.
            Err(err @ PublishError::AlreadyPublished { .. }) => say(err),
            Err(err) if err.is_head_moved() => {
                say(format!(
                    "{err} (run `review-tui {pr} --headless --publish` again)"
                ));
                head_moved = true;
            }
            Err(err) => {
                say(format!("publishing failed: {err}"));
                publish_failed = true;
            }
        }
        // The person's replies and resolutions on the PR's threads, once each.
        if threads_too {
            let posted = signals.run(runtime, session.post_thread_drafts())?;
            match posted {
                Ok(lines) => lines.into_iter().for_each(say),
                Err(err) => {
                    say(format!("publishing failed: {err}"));
                    publish_failed = true;
                }
            }
        }
    } else {
        say(
            "nothing was published: add --publish to post this round (a GitHub review, or review.md and review.json in the review space for a local range)",
        );
    }

    // The findings were redacted as they entered the board; the report is redacted again on
    // its way out (PR text, notes, anything a renderer adds), each JSON string where it stands.
    let prepared = session.prepared();
    let report = match cli.format {
        ReportFormat::Markdown => outbound(
            &posted_body
                .map(|body| strip_markers(&body))
                .unwrap_or_else(|| session.offline_body()),
        ),
        ReportFormat::Text => outbound(&review::text(prepared, &result, cli.force)),
        ReportFormat::Json => {
            let json = redacted_json(review::json(prepared, &result, cli.force));
            serde_json::to_string_pretty(&json)? + "\n"
        }
        ReportFormat::Sarif => sarif(&result.board.nodes),
        ReportFormat::Prompt => session.prompt(),
    };
    write_report(cli, &report)?;
    let code = if head_moved {
        Exit::HeadMoved
    } else if publish_failed {
        Exit::Error
    } else {
        Exit::from(result.verdict.decision)
    };
    end_without_freeing(code)
}

/// Ends a headless run whose report is out. What is left in memory (the diff, the cohorts,
/// the board, the session: on tokio-1.0.0..1.40.0 ~10 ms of freeing on this thread, and as
/// much again on the freeing threads competing with it, at the very end of the wall time) is
/// the OS's to drop with the process, at once. Nothing is left to write: every file of the
/// space was written atomically when it changed, `write_report` flushed standard output, and
/// the space's lock goes with the process (the holder's name left in the lock file is
/// harmless, as `LockFile` says). Only here, at the binary's edge: the library frees what it
/// holds, and the cockpit, long-lived, returns as before.
fn end_without_freeing(code: Exit) -> ! {
    std::process::exit(code.code())
}

/// A headless run on a space opened offline: the stored round's report, marked as such on
/// stderr and in the report, with the stored verdict's exit code. Asking for what needs
/// GitHub (`--publish`, `--force`'s new round) gets one line saying so and exit 4, after the
/// report: nothing is lost, nothing is sent.
fn offline_headless(
    cli: &Cli,
    prepared: review_tui::session::prepare::Prepared,
    user: Config,
    runtime: &tokio::runtime::Runtime,
    signals: &Signals,
) -> anyhow::Result<Exit> {
    let Some(offline) = prepared.offline.clone() else {
        anyhow::bail!("the space was not opened offline");
    };
    say(format!(
        "{} ({} could not be reached: {})",
        offline.banner(),
        offline.forge,
        offline.reason
    ));
    let config = review_config(user, &prepared)?;
    // Nothing runs: the level is the one the report is read at, when the round kept none.
    let review = ReviewOptions {
        level: cli.level.unwrap_or(config.level),
        api_advisory: config.api_advisory.clone(),
        ..ReviewOptions::default()
    };
    let mut session = new_session(prepared, cli, &config, review, false)?;
    // The cohorts from the space's cache: the facts line's gate reads them.
    signals.run(runtime, session.cohorts())?;
    let result = session.snapshot();
    let prepared = session.prepared();
    let report = match cli.format {
        ReportFormat::Markdown => outbound(&session.offline_body()),
        ReportFormat::Text => outbound(&review::text(prepared, &result, cli.force)),
        ReportFormat::Json => {
            let json = redacted_json(review::json(prepared, &result, cli.force));
            serde_json::to_string_pretty(&json)? + "\n"
        }
        ReportFormat::Sarif => sarif(&result.board.nodes),
        ReportFormat::Prompt => session.prompt(),
    };
    write_report(cli, &report)?;
    let refused = if cli.publish {
        Some("publishing")
    } else if cli.force {
        Some("reviewing it again (--force)")
    } else {
        None
    };
    if let Some(what) = refused {
        say(offline.needs_network(what));
        return Ok(Exit::Error);
    }
    say("nothing was published: this is the stored round, and publishing needs the network");
    Ok(Exit::from(result.verdict.decision))
}

fn review_options(
    cli: &Cli,
    prepared: &review_tui::session::prepare::Prepared,
    config: &Config,
) -> anyhow::Result<ReviewOptions> {
    // `--level` wins; else the level the person last chose for this PR; else the config's.
    let level = cli
        .level
        .or_else(|| prepared.chosen_level())
        .unwrap_or(config.level);
    let models = model_setup(cli, config, prepared.space.worktree(), level)?;
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
fn builtin_catalog() -> Catalog {
    static BUILTIN: std::sync::OnceLock<Catalog> = std::sync::OnceLock::new();
    BUILTIN.get_or_init(Catalog::builtin).clone()
}

/// Compiling the rule catalog and the default secret scan (hundreds of regular expressions) is
/// a large part of a small PR's review, and none of it needs the PR. It starts on its own
/// thread at once, beside the fetch and the checkout (mostly git and the kernel); whoever
/// needs either first waits for the one build, never starts another.
fn warm_up() {
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

/// The cockpit on `pr`. `to_inbox` is set when the person left it for the inbox (`I`).
fn cockpit_command(
    cli: &Cli,
    pr: &str,
    runtime: &tokio::runtime::Runtime,
    to_inbox: &mut bool,
) -> anyhow::Result<Exit> {
    use review_tui::pr::eligibility::Ineligible;
    use review_tui::ui::{self, PrHeader};

    ui::app::check_terminal()?;
    let reference = reference_of(cli, pr)?;
    // Counting uncommitted files reads the status of every file of the checkout (a large
    // repository's took longer than the rest of the first frame): counted beside it, said once
    // the space is prepared.
    let uncommitted = {
        let reference = reference.clone();
        std::thread::Builder::new()
            .name("uncommitted".into())
            .spawn(move || uncommitted_warning(&reference))
    }
    // Without a thread, it is counted and said now.
    .map_err(|_| warn_uncommitted(&reference))
    .ok();
    let user = review_tui::config::load_user()?;
    check_models(cli, &user)?;
    let mut options = prepare_options(cli, &user)?;
    // The cockpit opens first: the PR and its files are on screen while the space is prepared
    // (the forge's answer, the fetch, the checkout), the rest streams in after.
    let early = view_context(cli, &user)?;
    let mut screen = ui::app::Screen::open(
        PrHeader {
            repo: match &reference {
                reference::PrRef::Hosted(pr) => format!("{}/{}", pr.owner, pr.repo),
                reference::PrRef::Local { path, .. } => path.display().to_string(),
            },
            number: match &reference {
                reference::PrRef::Hosted(pr) => pr.number.to_string(),
                reference::PrRef::Local { .. } => String::new(),
            },
            ..PrHeader::default()
        },
        "reading the PR…",
    )?;
    let (progress, notices) = screen.progress();
    options.progress = Some(progress);
    options.connection.notices = Some(notices);
    // Prepared on the runtime's workers, not inside the screen's loop: what it does between
    // two awaits (redacting the PR's title compiles the secret rules on first use) would hold
    // every frame, the first one with the PR's title too.
    let preparing = runtime.spawn(async move { prepare(reference, &options).await });
    let stop_preparing = preparing.abort_handle();
    let prepared = runtime.block_on(screen.show_while(&early, preparing))?;
    // Said on the terminal, as before the cockpit opened, whatever the preparation's outcome.
    if let Some(warning) = uncommitted.and_then(|job| job.join().ok()).flatten() {
        screen.lend(|| say(warning))?;
    }
    let mut prepared = match prepared {
        Ok(prepared) => prepared.context("preparing the review")??,
        // The person left before the space was ready: nothing was decided.
        Err(_) => {
            stop_preparing.abort();
            return Ok(Exit::Aborted);
        }
    };
    prepared.connection.notices = None;
    if let Some(offline) = &prepared.offline {
        let banner = format!(
            "{} ({} could not be reached: {})",
            offline.banner(),
            offline.forge,
            offline.reason
        );
        let force = cli
            .force
            .then(|| offline.needs_network("reviewing it again (--force)"));
        screen.lend(|| {
            say(banner);
            force.into_iter().for_each(say);
        })?;
    }
    // Asked on the terminal, outside the cockpit: the person's earlier decisions may be gone,
    // and they must know before deciding anything again.
    if let Some(corruption) = &prepared.opened.corruption
        && !screen.lend(|| ask(&format!("warning: {corruption}. Open the review anyway?")))??
    {
        return Ok(Exit::Aborted);
    }
    if prepared.is_empty() {
        drop(screen);
        say("nothing to review: the range has no changes");
        return Ok(Exit::NothingToReview);
    }
    // Reopening a reviewed head resumes it, unless that round was Inconclusive or ran with other
    // reviewers (then a new round runs); anything else that makes the PR ineligible is asked
    // about.
    let rerun = review_tui::publish::rerun(
        prepared.space.state(),
        &mut prepared.eligibility,
        asked(cli),
    );
    let resumes = rerun == Rerun::ReportRecorded
        || (prepared
            .eligibility
            .iter()
            .all(|r| matches!(r, Ineligible::AlreadyReviewed { .. }))
            && !prepared.eligibility.is_empty());
    let other: Vec<String> = prepared
        .eligibility
        .iter()
        .filter(|r| !matches!(r, Ineligible::AlreadyReviewed { .. }))
        .map(|r| r.to_string())
        .collect();
    if !other.is_empty()
        && !cli.force
        && !screen.lend(|| {
            ask(&format!(
                "Not eligible: {}. Review anyway?",
                other.join("; ")
            ))
        })??
    {
        return Ok(Exit::NotEligible);
    }
    let config = review_config(user, &prepared)?;
    let mut review = review_options(cli, &prepared, &config)?;
    // A round that never completed (the process was killed mid-run) is resumed by running it
    // again: shown as recorded it would stay provisional, with no reviewer, for good.
    let prepared_offline = prepared.offline.clone();
    let interrupted = prepared
        .space
        .state()
        .current_round()
        .is_some_and(|round| !round.completed);
    // Offline, the stored round is shown as it is: a new one needs GitHub.
    let run_review = (!resumes || interrupted || cli.force) && prepared_offline.is_none();
    review.force = true;
    let session = new_session(prepared, cli, &config, review, true)?;
    let mut cx = view_context(cli, &config)?;
    cx.editor_open_at = config.editor_open_at.clone();
    let (outcome, decision) = runtime.block_on(ui::app::run_cockpit(
        session, run_review, cli.watch, &cx, screen,
    ))?;
    *to_inbox = outcome == ui::RunOutcome::Inbox;
    match outcome {
        ui::RunOutcome::Aborted => Ok(Exit::Aborted),
        _ => Ok(decision.map_or(Exit::Inconclusive, Exit::from)),
    }
}

/// The model reviewers' setup (provider, model, budget, timeouts) checked before any work
/// starts, so that `OLLAMA_HOST` without a model, say, is said at once, not after the fetch.
/// The user's file is the whole of it: a repository's file may not set `[models]`.
fn check_models(cli: &Cli, user: &Config) -> anyhow::Result<()> {
    let level = cli.level.unwrap_or(user.level);
    model_setup(cli, user, &std::env::temp_dir(), level).map(drop)
}

/// What this run asks of a head the space already reviewed.
fn asked(cli: &Cli) -> review_tui::publish::Asked {
    review_tui::publish::Asked {
        deterministic_only: cli.deterministic_only,
        publish: cli.publish,
        force: cli.force,
    }
}

/// The cockpit's theme (`--theme`, or the configuration's) and the person's keymap.
fn view_context(cli: &Cli, config: &Config) -> anyhow::Result<review_tui::ui::ViewContext> {
    use review_tui::ui::{Keymap, Theme, ViewContext};
    let theme_name = cli.theme.clone().unwrap_or_else(|| config.theme.clone());
    let theme = Theme::load(&theme_name)?.for_terminal(|name| std::env::var(name).ok());
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
fn new_session(
    prepared: review_tui::session::prepare::Prepared,
    cli: &Cli,
    config: &Config,
    review: ReviewOptions,
    room: bool,
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
    // The review room's reviewers, for the clients that ask (the cockpit, `ask`).
    let room = if room {
        room_setup(cli, config, &prepared, &review)?
    } else {
        None
    };
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
fn warn_uncommitted(reference: &reference::PrRef) {
    if let Some(warning) = uncommitted_warning(reference) {
        say(warning);
    }
}

/// What to tell the person when the local repository's checkout has uncommitted files.
fn uncommitted_warning(reference: &reference::PrRef) -> Option<String> {
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

/// A yes/no question on the terminal, before the cockpit takes it over.
fn ask(question: &str) -> anyhow::Result<bool> {
    use std::io::Write;
    eprint!("{question} [y/N] ");
    std::io::stderr().flush()?;
    let mut answer = String::new();
    std::io::stdin().read_line(&mut answer)?;
    Ok(matches!(answer.trim(), "y" | "Y" | "yes"))
}

/// The posted body without its hidden markers: they only mean something on the PR.
fn strip_markers(body: &str) -> String {
    body.lines()
        .filter(|line| !line.starts_with("<!-- review-tui:"))
        .collect::<Vec<_>>()
        .join("\n")
        + "\n"
}

/// The report of a space that was prepared but not reviewed (empty, or not eligible), in the
/// format asked for, so whatever reads it still parses it: SARIF with no results, and no
/// Markdown at all (there is no review to summarise; the caller says why on stderr).
fn prepare_report(cli: &Cli, prepared: &review_tui::session::prepare::Prepared) -> String {
    match cli.format {
        ReportFormat::Json => {
            serde_json::to_string_pretty(&headless::json(prepared, cli.force)).unwrap_or_default()
                + "\n"
        }
        ReportFormat::Sarif => sarif(&[]),
        ReportFormat::Text => headless::text(prepared, cli.force),
        // No round, no findings: nothing to hand back (the caller says why on stderr).
        ReportFormat::Markdown | ReportFormat::Prompt => String::new(),
    }
}

/// A SARIF 2.1.0 document of `nodes`.
fn sarif(nodes: &[review_tui::review::ReviewNode]) -> String {
    let log = redacted_json(to_sarif(nodes, env!("CARGO_PKG_VERSION")));
    serde_json::to_string_pretty(&log).unwrap_or_default() + "\n"
}

/// A JSON report with every string redacted where it stands (the document stays valid).
fn redacted_json(mut value: serde_json::Value) -> serde_json::Value {
    review_tui::reviewers::redact::outbound_json(&mut value);
    value
}

/// One line per distinct failure of a required reviewer (the same provider error for three
/// roles is said once), so a run that cannot Ship says why on stderr, not only in the report.
fn failed_reviewers(result: &review_tui::session::RoundSnapshot) -> Vec<String> {
    use review_tui::review::verdict::Outcome;
    let mut failures: Vec<(Vec<&str>, String)> = Vec::new();
    for reviewer in result.board.reviewers.values() {
        let why = match reviewer.outcome {
            Some(Outcome::Failed) if reviewer.required => reviewer.note.clone(),
            Some(Outcome::InvalidOutput) if reviewer.required => {
                format!("its answer did not validate ({})", reviewer.note)
            }
            _ => continue,
        };
        match failures.iter_mut().find(|(_, w)| *w == why) {
            Some((names, _)) => names.push(&reviewer.name),
            None => failures.push((vec![&reviewer.name], why)),
        }
    }
    failures
        .into_iter()
        .map(|(names, why)| {
            let who = if names.len() == 1 {
                format!("the {} reviewer", names[0])
            } else {
                format!("the {} reviewers", names.join(", "))
            };
            format!("{who} failed, so the review is incomplete (never Ship): {why}")
        })
        .collect()
}

fn write_report(cli: &Cli, report: &str) -> anyhow::Result<()> {
    match &cli.output {
        Some(path) => {
            // Written whole or not at all: a reader never sees half a report.
            review_tui::space::write_output(path, report.as_bytes())
                .with_context(|| format!("could not write the report to {}", path.display()))
        }
        None => write_stdout(report),
    }
}

fn evaluate_command(file: &str, format: VerdictFormat) -> anyhow::Result<Exit> {
    let text = if file == "-" {
        let mut text = String::new();
        std::io::stdin()
            .read_to_string(&mut text)
            .context("could not read the report from standard input")?;
        text
    } else {
        std::fs::read_to_string(file)
            .with_context(|| format!("could not read the report {file}"))?
    };
    let (_, input) = evaluate::parse_report(&text)
        .with_context(|| format!("{} is not a review report", display_name(file)))?;
    let verdict = decide(&input);
    match format {
        VerdictFormat::Text => write_stdout(&verdict_text::text(&verdict))?,
        VerdictFormat::Json => {
            write_stdout(&(serde_json::to_string_pretty(&verdict_text::json(&verdict))? + "\n"))?
        }
    }
    Ok(Exit::from(verdict.decision))
}

fn display_name(file: &str) -> &str {
    if file == "-" { "standard input" } else { file }
}

// ---- Model reviewers (the `models` block): flags + config → roster, bounds, budget ----

fn model_setup(
    cli: &Cli,
    config: &Config,
    worktree: &std::path::Path,
    level: review_tui::review::level::Level,
) -> anyhow::Result<Option<ModelSetup>> {
    use review_tui::reviewers::model::roster::PROVIDER_ENV_VARS;

    if cli.deterministic_only {
        return Ok(None);
    }
    let Some((roster, bounds, pricing)) = roster_of(cli, config, worktree, level, None, false)?
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
fn roster_of(
    cli: &Cli,
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
    use review_tui::reviewers::model::agent::{Bounds, Pricing};
    use review_tui::reviewers::model::budget::{Budget, Limit};
    use review_tui::reviewers::model::provider::RetryPolicy;
    use review_tui::reviewers::model::roster::{self, ModelFlags, ProviderSettings};
    use std::sync::Arc;
    use std::time::Duration;

    let models = &config.models;
    let duration = |value: &Option<String>, what: &str, default: u64| match value {
        Some(text) => humantime::parse_duration(text.trim()).with_context(|| {
            format!("[models] {what} {text:?} is not a duration (\"90s\", \"10m\")")
        }),
        None => Ok(Duration::from_secs(default)),
    };
    let reviewer_timeout = duration(&models.reviewer_timeout, "reviewer_timeout", 600)?;
    let settings = ProviderSettings {
        retry: RetryPolicy {
            max_attempts: models.max_attempts.unwrap_or(4).max(1),
            base_backoff: duration(&models.backoff, "backoff", 2)?,
            ..RetryPolicy::default()
        },
        request_timeout: duration(&models.request_timeout, "request_timeout", 300)?,
        command_timeout: reviewer_timeout,
        worktree: worktree.to_path_buf(),
    };
    let pricing = match (models.price_input_per_mtok, models.price_output_per_mtok) {
        (Some(input), Some(output)) => Some(Pricing {
            input_usd_per_mtok: input,
            output_usd_per_mtok: output,
        }),
        _ => None,
    };
    let limit = cli
        .budget
        .as_ref()
        .or(models.budget.as_ref())
        .map(|text| Limit::parse(text))
        .transpose()?;
    let budget = match budget {
        Some(budget) => budget,
        None => Arc::new(Budget::new(limit, pricing)?),
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
        timeout: reviewer_timeout,
        ..Bounds::default()
    };
    Ok(Some((roster, bounds, pricing)))
}

/// The review room's reviewers: every role (a question may go to any), metered against the
/// review's budget when it has one, so the cost meter and the hard cap count the answers.
/// `None` without a provider. On the demo they answer from its recorded answers.
fn room_setup(
    cli: &Cli,
    config: &Config,
    prepared: &review_tui::session::prepare::Prepared,
    review: &ReviewOptions,
) -> anyhow::Result<Option<review_tui::session::ask::RoomSetup>> {
    let budget = review.models.as_ref().map(|m| m.roster.budget.clone());
    let level = review_tui::review::level::Level::Thorough;
    Ok(
        roster_of(cli, config, prepared.space.worktree(), level, budget, true)?.map(
            |(roster, bounds, _)| review_tui::session::ask::RoomSetup {
                roster,
                bounds,
                secret_config: review.secret_config.clone(),
            },
        ),
    )
}
