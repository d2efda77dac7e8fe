//! The binary edge: parse the command line, run the engine, map outcomes to exit codes.

use std::io::Read;
use std::process::ExitCode;

use anyhow::Context;
use clap::Parser;

use review_tui::agents::rules::Catalog;
use review_tui::agents::sarif::to_sarif;
use review_tui::cli::{Cli, Command, ReportFormat, VerdictFormat};
use review_tui::config::Config;
use review_tui::exit::Exit;
use review_tui::pr::reference;
use review_tui::publish::{PublishError, PublishOptions, Rerun, Selection};
use review_tui::report::{evaluate, headless, review, verdict_text};
use review_tui::review::decide;
use review_tui::session::prepare::{GithubSettings, PrepareError, PrepareOptions, prepare};
use review_tui::session::round::{self, ModelSetup, ReviewOptions};
use review_tui::session::{PublishSetup, Session, SessionSetup};

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(err) => {
            let usage_error = err.use_stderr();
            let _ = err.print();
            return exit(if usage_error { Exit::Error } else { Exit::Ship });
        }
    };
    match run(cli) {
        Ok(code) => exit(code),
        Err(err) => {
            eprintln!("review-tui: {err:#}");
            let nothing = matches!(
                err.downcast_ref::<PrepareError>(),
                Some(PrepareError::NothingToReview(_))
            );
            exit(if nothing {
                Exit::NothingToReview
            } else {
                Exit::Error
            })
        }
    }
}

fn exit(code: Exit) -> ExitCode {
    ExitCode::from(code.code() as u8)
}

fn run(cli: Cli) -> anyhow::Result<Exit> {
    match cli.command {
        Some(Command::Evaluate { file, format }) => evaluate_command(&file, format),
        None if cli.demo => {
            let root = review_tui::space::data_root(cli.data_dir.as_deref())?;
            let demo = review_tui::demo::build(&root.join("demo").join("acme-client"))?;
            let reference = demo.reference();
            if cli.headless {
                headless_command(&cli, &reference)
            } else {
                cockpit_command(&cli, &reference)
            }
        }
        None => match cli.pr.clone() {
            Some(pr) if cli.headless => headless_command(&cli, &pr),
            Some(pr) => cockpit_command(&cli, &pr),
            None => anyhow::bail!(
                "no pull request given: pass a PR (see `review-tui --help`), or run `review-tui evaluate FILE` to check a report"
            ),
        },
    }
}

/// Where the space lives and how GitHub is called (`[github]` in the user's config: the
/// repository's layer is only known once the PR has been read).
fn prepare_options(cli: &Cli, user: &Config) -> anyhow::Result<PrepareOptions> {
    Ok(PrepareOptions {
        data_dir: cli.data_dir.clone(),
        api_url: cli.api_url.clone(),
        github: GithubSettings::from_layer(&user.github)?.with_env(),
        ..PrepareOptions::default()
    })
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

fn headless_command(cli: &Cli, pr: &str) -> anyhow::Result<Exit> {
    let reference = reference::parse(pr, cli.base.as_deref(), cli.head.as_deref())?;
    let user = review_tui::config::load_user()?;
    let options = prepare_options(cli, &user)?;
    let runtime = tokio::runtime::Runtime::new().context("starting the async runtime")?;
    let mut prepared = runtime.block_on(prepare(reference, &options))?;
    if prepared.is_empty() {
        write_report(cli, &prepare_report(cli, &prepared))?;
        eprintln!("review-tui: nothing to review: the range has no changes");
        return Ok(Exit::NothingToReview);
    }
    // An already reviewed head: a deterministic-only round does not stand in for a review with
    // models, and `--publish` posts the recorded round (never posted, or cut short) instead of
    // refusing or reviewing again.
    let rerun = review_tui::publish::rerun(
        prepared.space.state(),
        &mut prepared.eligibility,
        cli.deterministic_only,
        cli.publish && !cli.force,
    );
    if !prepared.eligibility.is_empty() && !cli.force && rerun != Rerun::PublishRecorded {
        write_report(cli, &prepare_report(cli, &prepared))?;
        let reasons: Vec<String> = prepared.eligibility.iter().map(|r| r.to_string()).collect();
        eprintln!(
            "review-tui: not eligible: {} (pass --force to review anyway)",
            reasons.join("; ")
        );
        return Ok(Exit::NotEligible);
    }

    let config = review_config(user, &prepared)?;
    let review = review_options(cli, &prepared, &config)?;
    let review = ReviewOptions {
        force: review.force || rerun == Rerun::NewRound,
        ..review
    };
    let mut session = Session::new(prepared, session_setup(cli, &config, review));
    // The pre-run estimate goes to stderr before the model reviewers are dispatched.
    let (tap, mut taps) = tokio::sync::mpsc::unbounded_channel();
    let estimates = std::thread::spawn(move || {
        while let Some(event) = taps.blocking_recv() {
            if let round::Tap::Estimate(estimate) = event {
                eprintln!("review-tui: {estimate}");
            }
        }
    });
    let result = if rerun == Rerun::PublishRecorded {
        eprintln!(
            "review-tui: this head was already reviewed: publishing its recorded round (--force reviews it again)"
        );
        drop(tap);
        Ok(session.snapshot())
    } else {
        runtime.block_on(session.run_round(Some(tap), None))
    };
    let _ = estimates.join();
    let result = result?;
    for line in failed_reviewers(&result) {
        eprintln!("review-tui: {line}");
    }

    // Publishing is a mutating action: only with --publish.
    let mut posted_body = None;
    let mut publish_failed = false;
    if cli.publish {
        let outcome = runtime.block_on(async {
            let preview = session.preview().await?;
            posted_body = Some(preview.body.clone());
            session.publish().await
        });
        match outcome {
            Ok(published) => eprintln!("review-tui: {published}"),
            // Idempotent: the round is on the PR already; say where, keep the verdict's code.
            Err(err @ PublishError::AlreadyPublished { .. }) => eprintln!("review-tui: {err}"),
            Err(err @ PublishError::HeadMoved { .. }) => {
                eprintln!("review-tui: {err} (run `review-tui {pr} --headless --publish` again)");
                publish_failed = true;
            }
            Err(err) => {
                eprintln!("review-tui: publishing failed: {err}");
                publish_failed = true;
            }
        }
    } else {
        eprintln!(
            "review-tui: nothing was published: add --publish to post this round (a GitHub review, or review.md and review.json in the review space for a local range)"
        );
    }

    let prepared = session.prepared();
    let report = match cli.format {
        ReportFormat::Markdown => posted_body
            .map(|body| strip_markers(&body))
            .unwrap_or_else(|| session.offline_body()),
        ReportFormat::Text => review::text(prepared, &result, cli.force),
        ReportFormat::Json => {
            serde_json::to_string_pretty(&review::json(prepared, &result, cli.force))? + "\n"
        }
        ReportFormat::Sarif => sarif(&result.board.nodes),
    };
    write_report(cli, &report)?;
    if publish_failed {
        return Ok(Exit::Error);
    }
    Ok(result.verdict.decision.exit())
}

fn review_options(
    cli: &Cli,
    prepared: &review_tui::session::prepare::Prepared,
    config: &Config,
) -> anyhow::Result<ReviewOptions> {
    let level = cli.level.unwrap_or(config.level);
    let models = model_setup(cli, config, prepared, level)?;
    let options = ReviewOptions {
        level,
        deterministic_only: cli.deterministic_only,
        sarif_files: cli.sarif.clone(),
        force: cli.force,
        catalog: Catalog::builtin().with_overrides(config),
        models,
        notes: config.notes.clone(),
        ..ReviewOptions::default()
    };
    Ok(options)
}

fn cockpit_command(cli: &Cli, pr: &str) -> anyhow::Result<Exit> {
    use review_tui::pr::eligibility::Ineligible;
    use review_tui::ui::{self, Keymap, Theme, ViewContext};

    ui::app::check_terminal().map_err(anyhow::Error::msg)?;
    let reference = reference::parse(pr, cli.base.as_deref(), cli.head.as_deref())?;
    let user = review_tui::config::load_user()?;
    let options = prepare_options(cli, &user)?;
    let runtime = tokio::runtime::Runtime::new().context("starting the async runtime")?;
    eprintln!("review-tui: preparing the review space…");
    let prepared = runtime.block_on(prepare(reference, &options))?;
    if prepared.is_empty() {
        eprintln!("review-tui: nothing to review: the range has no changes");
        return Ok(Exit::NothingToReview);
    }
    // Reopening a reviewed head resumes it; anything else that makes the PR ineligible is
    // asked about.
    let resumes = prepared
        .eligibility
        .iter()
        .all(|r| matches!(r, Ineligible::AlreadyReviewed { .. }))
        && !prepared.eligibility.is_empty();
    let other: Vec<String> = prepared
        .eligibility
        .iter()
        .filter(|r| !matches!(r, Ineligible::AlreadyReviewed { .. }))
        .map(|r| r.to_string())
        .collect();
    if !other.is_empty()
        && !cli.force
        && !ask(&format!(
            "Not eligible: {}. Review anyway?",
            other.join("; ")
        ))?
    {
        return Ok(Exit::NotEligible);
    }
    let config = review_config(user, &prepared)?;
    let mut review = review_options(cli, &prepared, &config)?;
    // A round that never completed (the process was killed mid-run) is resumed by running it
    // again: shown as recorded it would stay provisional, with no reviewer, for good.
    let interrupted = prepared
        .space
        .state()
        .current_round()
        .is_some_and(|round| !round.completed);
    let run_review = !resumes || interrupted || cli.force;
    review.force = true;
    let session = Session::new(prepared, session_setup(cli, &config, review));
    let theme_name = cli.theme.clone().unwrap_or_else(|| config.theme.clone());
    let theme = Theme::load(&theme_name)?.respecting_no_color();
    let keymap = match review_tui::config::user_config_path()
        .map(|p| p.with_file_name("keymap.toml"))
        .filter(|p| p.exists())
    {
        Some(path) => Keymap::load(&path)?,
        None => Keymap::default(),
    };
    let cx = ViewContext::new(theme, keymap);
    let (outcome, decision) = runtime.block_on(ui::app::run_cockpit(session, run_review, &cx))?;
    match outcome {
        ui::RunOutcome::Aborted => Ok(Exit::Aborted),
        _ => Ok(decision.map_or(Exit::Inconclusive, |d| d.exit())),
    }
}

/// What the session of this run needs: how to review, how to publish, the fix command. The
/// fix command is the user's `[fix] command`; `REVIEW_TUI_FIX_COMMAND` overrides it.
fn session_setup(cli: &Cli, config: &Config, review: ReviewOptions) -> SessionSetup {
    let selection = if cli.consensus_only {
        Selection::ConsensusOnly
    } else {
        Selection::AllOpen
    };
    let fix_command = std::env::var("REVIEW_TUI_FIX_COMMAND")
        .ok()
        .filter(|c| !c.trim().is_empty())
        .or_else(|| config.fix_command.clone());
    SessionSetup {
        review,
        publish: PublishSetup {
            options: PublishOptions::from_config(config, selection),
            api_url: cli.api_url.clone(),
            token: None,
        },
        fix_command,
        person: review_tui::session::person_name(),
    }
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
        ReportFormat::Markdown => String::new(),
    }
}

/// A SARIF 2.1.0 document of `nodes`.
fn sarif(nodes: &[review_tui::review::ReviewNode]) -> String {
    serde_json::to_string_pretty(&to_sarif(nodes, env!("CARGO_PKG_VERSION"))).unwrap_or_default()
        + "\n"
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
            let temp = path.with_extension("review-tui.tmp");
            std::fs::write(&temp, report)
                .with_context(|| format!("could not write the report to {}", path.display()))?;
            std::fs::rename(&temp, path)
                .with_context(|| format!("could not write the report to {}", path.display()))?;
            Ok(())
        }
        None => {
            print!("{report}");
            Ok(())
        }
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
        VerdictFormat::Text => print!("{}", verdict_text::text(&verdict)),
        VerdictFormat::Json => println!(
            "{}",
            serde_json::to_string_pretty(&verdict_text::json(&verdict))?
        ),
    }
    Ok(verdict.decision.exit())
}

fn display_name(file: &str) -> &str {
    if file == "-" { "standard input" } else { file }
}

// ---- Model reviewers (the `models` block): flags + config → roster, bounds, budget ----

fn model_setup(
    cli: &Cli,
    config: &Config,
    prepared: &review_tui::session::prepare::Prepared,
    level: review_tui::review::level::Level,
) -> anyhow::Result<Option<ModelSetup>> {
    use review_tui::agents::agent::{Bounds, Pricing};
    use review_tui::agents::budget::{Budget, Limit};
    use review_tui::agents::provider::RetryPolicy;
    use review_tui::agents::roster::{self, ModelFlags, PROVIDER_ENV_VARS, ProviderSettings};
    use std::sync::Arc;
    use std::time::Duration;

    if cli.deterministic_only {
        return Ok(None);
    }
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
        worktree: prepared.space.worktree().to_path_buf(),
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
    let budget = Arc::new(Budget::new(limit, pricing)?);
    let asked_for_a_provider = cli.provider.is_some()
        || cli.model_url.is_some()
        || cli.provider_command.is_some()
        || cli.replay.is_some();
    let cassette = if cli.demo && !asked_for_a_provider {
        // The demo runs offline on its bundled cassette unless another provider is asked for.
        Some(
            serde_json::from_str(review_tui::demo::CASSETTE)
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
        record: cli.record.clone(),
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
        if cli.require_model {
            anyhow::bail!(
                "--require-model: no model provider is configured; set {PROVIDER_ENV_VARS}, or \
                 pass --model-url URL --model MODEL, --provider-command CMD or --replay FILE"
            );
        }
        return Ok(None);
    };
    let mut setup = ModelSetup::new(roster);
    setup.concurrency = cli
        .concurrency
        .map(usize::from)
        .or(models.concurrency)
        .unwrap_or(5)
        .max(1);
    setup.bounds = Bounds {
        max_tool_calls: models
            .max_tool_calls
            .unwrap_or(Bounds::default().max_tool_calls),
        max_tokens: models.max_tokens.unwrap_or(Bounds::default().max_tokens),
        timeout: reviewer_timeout,
        ..Bounds::default()
    };
    setup.pricing = pricing;
    if let Some(tokens) = models.context_tokens {
        setup.context_tokens = tokens;
    }
    if let Some(calls) = models.verify_calls {
        setup.verify_calls = calls;
    }
    Ok(Some(setup))
}
