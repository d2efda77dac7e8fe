//! The person's own words on a reviewed round, through the session (the commands the cockpit
//! sends): `ask` a reviewer, `comment` a finding of one's own, `reply` and `resolve` drafts on
//! the PR's threads.

use anyhow::Context;

use review_tui::cli::resolve::{DataDirFrom, Resolved};
use review_tui::cli::{Cli, Command, VerdictFormat};
use review_tui::pr::reference;
use review_tui::review::ThreadState;
use review_tui::reviewers::redact::outbound;
use review_tui::session::ReviewOptions;
use review_tui::session::prepare;

use review_tui::headless::redacted_json;

use super::output::{say, write_stdout};
use review_tui::cli::setup::{
    builtin_catalog, new_session, prepare_options, review_config, review_options, room_setup,
};
use review_tui::headless::Signals;

use super::setup::on_stderr;
use crate::exit::Exit;

/// Asks a reviewer through the session (the same command the cockpit sends) and prints the
/// answer as it comes: 0 answered, 4 an error, 7 no model provider to answer.
pub(crate) fn ask_command(cli: &Cli) -> anyhow::Result<Exit> {
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
        models,
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
    flags.models = models.clone();
    flags.demo = *demo;
    let pr = match pr {
        Some(pr) => pr,
        None => {
            let root = review_tui::space::data_root(data_dir.as_deref())?;
            review_tui::demo::build(&root.join("demo").join("acme-client"))?.reference()
        }
    };
    flags.pr = Some(pr.clone());
    flags.base = base.clone();
    flags.head = head.clone();
    let resolved = Resolved::new(flags, DataDirFrom::Flag, &builtin_catalog)?;
    let Some(reference) = resolved.reference.clone() else {
        anyhow::bail!("no pull request given");
    };
    let pr = &pr;
    let options = prepare_options(&resolved.flags, &resolved.user, on_stderr())?;
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
    let config = review_config(resolved.user.clone(), &prepared)?;
    let review = review_options(&resolved, &prepared, &config)?;
    let room = room_setup(&resolved, &config, &prepared, &review)?;
    let session = new_session(prepared, &resolved.flags, &config, review, room);
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
    answered(&thread, text, printed > 0)
}

/// The end of an answer printed as it came (`text`; `printed`: some of it was), or the whole
/// thread as JSON; 0 when it was answered, 4 when it was cut short.
fn answered(
    thread: &review_tui::review::Thread,
    text: bool,
    printed: bool,
) -> anyhow::Result<Exit> {
    if text {
        if printed {
            write_stdout("\n")?;
        }
        if let Some(line) = review_tui::session::proposal_line(thread) {
            write_stdout(&outbound(&format!("\n{line} (accept it in the cockpit)\n")))?;
        }
        if thread.state == ThreadState::Answered {
            say(format!(
                "{} answered ({} tokens; kept in the review space as {})",
                thread.reviewer, thread.tokens, thread.id
            ));
        }
    } else {
        let json = redacted_json(serde_json::to_value(thread)?);
        write_stdout(&(serde_json::to_string_pretty(&json)? + "\n"))?;
    }
    match &thread.state {
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
pub(crate) fn parse_anchor(at: &str, side: &str) -> anyhow::Result<review_tui::review::Anchor> {
    use review_tui::review::Side;
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
    Ok(review_tui::review::Anchor {
        path: review_tui::repo_path::RepoPath::parse(path.trim())
            .map_err(|e| anyhow::anyhow!("--at {at:?}: {e}"))?,
        side,
        start_line: start,
        end_line: end,
    })
}

/// Adds, edits or deletes the person's own finding through the session (the command the
/// cockpit sends), then prints the verdict it makes: the exit code is the verdict's.
pub(crate) fn comment_command(cli: &Cli) -> anyhow::Result<Exit> {
    use review_tui::review::person::{self, PersonDraft};
    use review_tui::review::{Kind, Priority};
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
    let options = prepare_options(&flags, &user, on_stderr())?;
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
    let mut session = new_session(prepared, &flags, &config, review, None);
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
pub(crate) fn thread_command(cli: &Cli) -> anyhow::Result<Exit> {
    use review_tui::session::thread_drafts;
    use review_tui::space::{ThreadAction, ThreadDraft};
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
    let options = prepare_options(&flags, &user, on_stderr())?;
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
    let at = review_tui::retry::utc_time(review_tui::retry::now_epoch());
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
