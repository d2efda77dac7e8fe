//! `review-tui inbox`: every review waiting for me, as a list, a screen (each PR opened in the
//! cockpit from it), or `--review-all`.

use anyhow::Context;

use review_tui::cli::resolve::Resolved;
use review_tui::cli::{Cli, Command, ModelFlags, VerdictFormat};
use review_tui::config::Config;
use review_tui::pr::Notices;
use review_tui::publish::Rerun;
use review_tui::reviewers::redact::outbound;
use review_tui::session::ReviewOptions;
use review_tui::session::prepare;

use super::cockpit::cockpit_command;
use review_tui::headless::redacted_json;

use super::output::{describe, say, write_stdout};
use review_tui::cli::setup::{
    asked, builtin_catalog, check_models, new_session, prepare_options, review_config,
    review_options, warm_up,
};

use super::setup::{on_stderr, view_context};
use crate::exit::Exit;

/// `review-tui inbox` with the data directory, API, theme and review flags of this run: the
/// reviews opened from the inbox are reviewed as this one was.
pub(crate) fn inbox_cli(cli: &Cli) -> anyhow::Result<Cli> {
    use clap::Parser;
    let mut args: Vec<std::ffi::OsString> = vec!["review-tui".into(), "inbox".into()];
    if let Some(theme) = &cli.theme {
        args.extend(["--theme".into(), theme.into()]);
    }
    args.extend(
        ReviewFlags {
            data_dir: cli.data_dir.as_deref(),
            api_url: cli.api_url.as_deref(),
            level: cli.level,
            deterministic_only: cli.deterministic_only,
            models: &cli.models,
        }
        .args(),
    );
    Ok(Cli::try_parse_from(args)?)
}

/// The inbox's setup from the user's config: where the spaces and the cache are, which
/// sections, which repositories the searches are scoped to.
pub(crate) fn inbox_setup(
    user: &Config,
    data_dir: Option<&std::path::Path>,
) -> anyhow::Result<review_tui::session::inbox::InboxSetup> {
    use review_tui::session::inbox::{InboxSetup, cache};
    let data_root = review_tui::space::data_root(data_dir)?;
    Ok(InboxSetup {
        cache: cache::path(&data_root, data_dir.is_some()),
        data_root,
        sections: InboxSetup::sections_of(user.inbox.sections.as_deref())?,
        query: review_tui::pr::InboxQuery {
            requested: true,
            authored: true,
            repos: user.inbox.repos.clone(),
            orgs: user.inbox.orgs.clone(),
        },
    })
}

pub(crate) fn inbox_command(cli: &Cli) -> anyhow::Result<Exit> {
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
    review_tui::cli::resolve::check_api_url(api_url.as_deref())?;
    // Read once for the list, the screen and every review it starts.
    let user = review_tui::config::load_user()?;
    let setup = inbox_setup(&user, data_dir.as_deref())?;
    let mut connection = review_tui::pr::connection(&user)?;
    connection.api_url = api_url.clone();
    connection.notices = Some(Notices::new(|notice: String| say(notice)));
    git2::opts::strict_hash_verification(false);
    let runtime = tokio::runtime::Runtime::new().context("starting the async runtime")?;
    if *review_all {
        return review_all_command(cli, user, &setup, &connection, &runtime);
    }
    let Some(format) = format else {
        let theme = match &cli.command {
            Some(Command::Inbox { theme, .. }) => theme.clone(),
            _ => None,
        };
        let source = inbox::InboxSource { setup, connection };
        return inbox_screen(source, user, theme, inbox_review_flags(cli), &runtime);
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
pub(crate) fn inbox_screen(
    mut source: review_tui::session::inbox::InboxSource,
    user: Config,
    theme: Option<String>,
    review_flags: Vec<std::ffi::OsString>,
    runtime: &tokio::runtime::Runtime,
) -> anyhow::Result<Exit> {
    use clap::Parser;
    use review_tui::ui::inbox::{InboxExit, InboxResume, run_inbox_screen};
    review_tui::ui::app::check_terminal()?;
    let loaded = theme
        .as_deref()
        .map(review_tui::ui::Theme::load)
        .transpose()?;
    let cx = view_context(loaded, &user)?;
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
            .and_then(|cli| Ok(Resolved::with_user(cli, user.clone(), &builtin_catalog)?))
            .and_then(|resolved| cockpit_command(&resolved, runtime, &mut false));
        // A PR that could not be opened is said on the inbox's screen; the inbox stays.
        if let Err(error) = opened {
            resume.message = Some(describe(&error));
        }
    }
}

/// The arguments of one PR's review in `--review-all`: the PR and the review flags the inbox
/// was given, as if typed for a headless review of it.
pub(crate) fn review_all_args(cli: &Cli, reference: &str) -> Vec<std::ffi::OsString> {
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
        models,
        ..
    }) = &cli.command
    else {
        return Vec::new();
    };
    ReviewFlags {
        data_dir: data_dir.as_deref(),
        api_url: api_url.as_deref(),
        level: *level,
        deterministic_only: *deterministic_only,
        models,
    }
    .args()
}

/// The flags that say how a review is run, wherever they were given (a review's own command
/// line, or `review-tui inbox`'s), as a review's command line takes them.
struct ReviewFlags<'a> {
    data_dir: Option<&'a std::path::Path>,
    api_url: Option<&'a str>,
    level: Option<review_tui::review::Level>,
    deterministic_only: bool,
    models: &'a ModelFlags,
}

impl ReviewFlags<'_> {
    fn args(&self) -> Vec<std::ffi::OsString> {
        let mut args: Vec<std::ffi::OsString> = Vec::new();
        let mut flag = |name: &str, value: Option<std::ffi::OsString>| {
            if let Some(value) = value {
                args.extend([name.into(), value]);
            }
        };
        flag("--data-dir", self.data_dir.map(Into::into));
        flag("--api-url", self.api_url.map(Into::into));
        flag("--level", self.level.map(|l| l.to_string().into()));
        let models = self.models;
        flag("--model-url", models.model_url.as_ref().map(Into::into));
        flag("--model", models.model.as_ref().map(Into::into));
        flag("--provider", models.provider.as_ref().map(Into::into));
        flag(
            "--provider-command",
            models.provider_command.as_ref().map(Into::into),
        );
        flag("--replay", models.replay.as_ref().map(Into::into));
        flag("--budget", models.budget.as_ref().map(Into::into));
        if self.deterministic_only {
            args.push("--deterministic-only".into());
        }
        args
    }
}

/// `review-tui inbox --review-all`: a round on every PR whose review is requested from me and
/// whose head no round of mine reviewed yet, `--jobs` at a time, each in this process on its
/// own thread. Nothing is published. A PR's failure is its own line; the others go on. A kill
/// loses nothing: every space write is atomic, an interrupted round is run again by the next
/// run, and a completed one is never run twice (its head is skipped).
pub(crate) fn review_all_command(
    cli: &Cli,
    user: Config,
    setup: &review_tui::session::inbox::InboxSetup,
    connection: &review_tui::pr::Connection,
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
    check_models(&Resolved::with_user(probe, user.clone(), &builtin_catalog)?)?;
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
        let user = user.clone();
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
                    handle.block_on(review_waiting(args, user.clone()))
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
pub(crate) async fn review_waiting(
    args: Vec<std::ffi::OsString>,
    user: Config,
) -> anyhow::Result<String> {
    use clap::Parser;
    let resolved = Resolved::with_user(Cli::try_parse_from(args)?, user, &builtin_catalog)?;
    let Some(reference) = resolved.reference.clone() else {
        anyhow::bail!("no pull request given");
    };
    let cli = &resolved.flags;
    let mut options = prepare_options(cli, &resolved.user, on_stderr())?;
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
        asked(cli),
    );
    if !prepared.eligibility.is_empty() && rerun != Rerun::NewRound {
        let reasons: Vec<String> = prepared.eligibility.iter().map(|r| r.to_string()).collect();
        return Ok(format!("not reviewed: {}", reasons.join("; ")));
    }
    let config = review_config(resolved.user.clone(), &prepared)?;
    let review = review_options(&resolved, &prepared, &config)?;
    let review = ReviewOptions {
        force: review.force || rerun == Rerun::NewRound,
        ..review
    };
    let mut session = new_session(prepared, cli, &config, review, None);
    let result = session.run_round(None, None).await?;
    let round = session
        .prepared()
        .space
        .state()
        .current_round()
        .map_or(0, |r| r.number);
    Ok(format!("{} (round {round})", result.verdict.decision))
}
